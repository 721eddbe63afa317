package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kinrow/kinrow/host/recordfmt"
	"github.com/kinrow/kinrow/internal/testbuild"
)

// chromiumPath returns a headless-capable Chromium, or skips the test.
func chromiumPath(t *testing.T) string { return testbuild.ChromiumOrSkip(t) }

// End to end: kinrow match --view ADDR, alphabeta against itself (games
// long enough to watch them grow), the page open on
// its live tab: the game's moves appear on its card in the order of the
// record (every board seen is a prefix of the final game) and the result
// shows when the game ends. It needs kinrow match --view (wired by the
// lead to host/view's Hub through view.StartLive, which prints "kinrow:
// watch the match at http://ADDR/" on stderr) and skips until then.
func TestMatchViewLiveInBrowser(t *testing.T) {
	exe := chromiumPath(t)
	help, _ := kinrowCmd(t, "match", "-h").CombinedOutput()
	if !strings.Contains(string(help), "-view") {
		t.Skip("kinrow match has no --view yet")
	}
	// The browser starts before the match: on a loaded machine Chromium
	// takes seconds to come up, and a game could end meanwhile.
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	defer cancelT()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	out := filepath.Join(t.TempDir(), "games.jsonl")
	// pndb thinks its whole move at gomoku's opening (nothing to prove
	// there), so the moves come one by one, slowly enough to watch; alphabeta
	// at Connect-4 now answers from its book and its solver within
	// milliseconds, and a game could end before the page showed it.
	cmd := kinrowCmd(t, "match", "--rules", "gomoku", "--bot", "pndb", "--bot", "pndb", "--games", "2",
		"--movetime", "400ms", "--max-plies", "30", "--out", out, "--view", "127.0.0.1:0", "--log-level", "info")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	url := ""
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if _, u, ok := strings.Cut(sc.Text(), "watch the match at "); ok {
			url = strings.TrimSpace(u)
			break
		}
	}
	if url == "" {
		t.Fatal("kinrow match --view did not print the page's address")
	}
	go func() {
		for sc.Scan() {
		}
	}()
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"?view=live"),
		chromedp.WaitVisible(chromedp.CSS(`#grid .card .mini svg`))); err != nil {
		t.Fatal(err)
	}
	// Watch the first game's card until it shows a result.
	var seen [][]string
	result := ""
	for result == "" {
		if ctx.Err() != nil {
			t.Fatal("no result on the page in 3 minutes")
		}
		st, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
			const c = document.querySelector("#grid .card:last-child");
			return Array.from(c.querySelectorAll(".kr-stone")).sort((a, b) => a.dataset.ply - b.dataset.ply).
				map(g => (g.classList.contains("kr-x") ? "x" : "o") + ":" + g.dataset.move);
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, st)
		result, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#grid .card:last-child").dataset.result`))
		time.Sleep(100 * time.Millisecond)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("kinrow match: %v", err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, _, err := recordfmt.LoadRecords(f, out)
	if err != nil {
		t.Fatal(err)
	}
	var rec []string
	for _, r := range recs {
		if r.Round == 1 && r.Game == 1 {
			for _, m := range r.Moves {
				rec = append(rec, m.Color+":"+m.Move)
			}
			if r.Result != result {
				t.Errorf("the page shows %q, the record %q", result, r.Result)
			}
		}
	}
	distinct := 0
	for i, st := range seen {
		if len(st) > len(rec) || strings.Join(st, " ") != strings.Join(rec[:len(st)], " ") {
			t.Fatalf("board %d on the page %v is not a prefix of the game %v", i, st, rec)
		}
		if i > 0 && len(st) != len(seen[i-1]) {
			distinct++
		}
	}
	if distinct < 2 {
		t.Errorf("the page showed %s boards only: the moves did not appear one by one", fmt.Sprint(distinct))
	}
}
