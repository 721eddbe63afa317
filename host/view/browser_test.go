package view

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/recordfmt"
	"github.com/kinrow/kinrow/internal/testbuild"
)

// The browser tests drive a headless Chromium (Debian's chromium package:
// make test-browser installs it). Without one they skip, saying so.
// KINROW_CHROMIUM names the executable; KINROW_SCREENSHOTS=DIR keeps the
// screenshots of the Connect-4 and gomoku positions there (docs/ holds
// the ones the README shows).

// chromium returns the browser's path, or skips the test.
func chromium(t *testing.T) string { return testbuild.ChromiumOrSkip(t) }

// browser starts a headless Chromium and returns a context for its tab.
func browser(t *testing.T) context.Context {
	t.Helper()
	exe := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, // root in CI containers
		chromedp.WindowSize(1200, 860),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("force-color-profile", "srgb"),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelT(); cancelB(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", exe, err)
	}
	return ctx
}

// stones returns the stones drawn in the element sel as "x:4/1" or
// "o:h8" strings (side and data-move), in ply order.
func stones(ctx context.Context, sel string) ([]string, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[[]string](fmt.Sprintf(`Array.from(document.querySelectorAll(%q)).
		sort((a, b) => a.dataset.ply - b.dataset.ply).
		map(g => (g.classList.contains("kr-x") ? "x" : "o") + ":" + g.dataset.move)`, sel+" .kr-stone")))
}

// want returns the stones of a record's first ply moves, as stones does.
func want(rec *record.Record, ply int) []string {
	out := []string{}
	for _, m := range rec.Moves[:ply] {
		out = append(out, m.Color+":"+m.Move)
	}
	return out
}

// waitPly waits until the replay board shows ply p.
func waitPly(ctx context.Context, p int) error {
	return chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#board[data-ply="%d"] svg`, p))))
}

func loadRecs(t *testing.T, path string) []*record.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, _, err := recordfmt.LoadRecords(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// Open a replay, step with the arrow keys and Home/End, and check the
// SVG's stones against the record at every step, and the URL.
func TestBrowserReplay(t *testing.T) {
	files := []string{"testdata/showcase.jsonl"}
	ts := newTestServer(t, nil, files...)
	ctx := browser(t)
	recs := loadRecs(t, files[0])
	for n, rec := range recs {
		plies := len(rec.Moves)
		start := min(2, plies)
		if err := chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s/?game=%d&ply=%d", ts.URL, n+1, start))); err != nil {
			t.Fatal(err)
		}
		if err := waitPly(ctx, start); err != nil {
			t.Fatalf("game %d: %v", n+1, err)
		}
		check := func(p int) {
			t.Helper()
			if err := waitPly(ctx, p); err != nil {
				t.Fatalf("game %d ply %d: %v", n+1, p, err)
			}
			got, err := stones(ctx, "#board")
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, " ") != strings.Join(want(rec, p), " ") {
				t.Fatalf("game %d ply %d: the board shows %v, the record %v", n+1, p, got, want(rec, p))
			}
		}
		check(start)
		for p := start + 1; p <= min(start+4, plies); p++ {
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
				t.Fatal(err)
			}
			check(p)
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
			t.Fatal(err)
		}
		back := min(start+4, plies) - 1
		check(back)
		url, err := chromedp.Run(ctx, chromedp.Location())
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(url, fmt.Sprintf("?game=%d&ply=%d", n+1, back)) {
			t.Errorf("URL %s, want game %d ply %d", url, n+1, back)
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.End)); err != nil {
			t.Fatal(err)
		}
		check(plies)
		if rec.Reason == record.ReasonWin {
			if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#board line.kr-win").length`)); err != nil || n != 1 {
				t.Errorf("game %d: no winning line at the end (%v)", n+1, err)
			}
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Home)); err != nil {
			t.Fatal(err)
		}
		check(0)
	}
	// A game that does not exist: a message on the page, no board.
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?game=99&ply=3"),
		chromedp.WaitVisible(chromedp.CSS(`#games tbody tr`))); err != nil {
		t.Fatal(err)
	}
	var msg string
	for try := 0; try < 200 && !strings.Contains(msg, "does not exist"); try++ {
		time.Sleep(50 * time.Millisecond)
		msg, _ = chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#subtitle")))
	}
	if !strings.Contains(msg, "game 99 does not exist: the records hold 2 games (1 to 2)") {
		t.Errorf("?game=99 shows %q", msg)
	}
	// Screenshots of a Connect-4 and a gomoku position (dark and light).
	dir := os.Getenv("KINROW_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	for n, rec := range recs {
		name := map[string]string{"connectx:6x7x4": "viewer-connect4.png", "mnk:15x15x5": "viewer-gomoku.png"}[rec.Rules]
		if name == "" {
			continue
		}
		scheme := "light"
		if strings.Contains(name, "connect4") {
			scheme = "dark"
		}
		err := chromedp.Do(ctx,
			chromedp.Navigate(fmt.Sprintf("%s/?game=%d&ply=%d", ts.URL, n+1, len(rec.Moves))),
			chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#board[data-ply="%d"] svg`, len(rec.Moves)))),
			chromedp.SetValue(chromedp.CSS("#scheme"), scheme),
		)
		if err == nil {
			_, err = chromedp.Run(ctx, chromedp.Evaluate[any](fmt.Sprintf(`applyScheme(%q)`, scheme)))
		}
		if err == nil {
			err = chromedp.Do(ctx, chromedp.Sleep(200*time.Millisecond))
		}
		var png []byte
		if err == nil {
			png, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The live page: moves pushed through the hub appear on the game's card in
// order, and the result when the game ends; the summary table fills.
func TestBrowserLive(t *testing.T) {
	hub := NewHub()
	ts := newTestServer(t, hub) // closed after the browser, which holds its event stream
	ctx := browser(t)
	c4 := engine.Connect4()
	hub.GameStarted(GameInfo{ID: 1, Round: 1, Game: 1, Rules: c4, Players: record.Players{X: "alpha", O: "beta"}})
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?view=live"),
		chromedp.WaitVisible(chromedp.CSS(`#live-1 .mini svg`))); err != nil {
		t.Fatal(err)
	}
	moves := []engine.Move{3, 3, 4, 4, 5, 5, 6}
	rec := record.New(c4, record.Players{X: "alpha", O: "beta"}, time.Now())
	for i, m := range moves {
		hub.Move(1, m, int64(10*i), &SearchInfo{Depth: i + 1})
		rec.Add(c4, m, engine.Color(i%2), time.Duration(10*i)*time.Millisecond)
		sel := fmt.Sprintf(`#live-1[data-ply="%d"]`, i+1)
		if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(sel))); err != nil {
			t.Fatalf("move %d did not appear: %v", i+1, err)
		}
		// The card's board holds exactly the moves so far, in order.
		var got []string
		for try := 0; try < 100; try++ {
			got, _ = stones(ctx, "#live-1 .mini")
			if len(got) == i+1 {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if strings.Join(got, " ") != strings.Join(want(rec, i+1), " ") {
			t.Fatalf("after move %d the card shows %v, want %v", i+1, got, want(rec, i+1))
		}
	}
	rec.Finish(engine.XWins, record.ReasonWin, "", "", time.Now())
	hub.GameEnded(1, rec)
	hub.Summary(Summary{Done: 1, Total: 2, Rows: []SummaryRow{{A: "alpha", B: "beta", Wins: 1, Elo: 191.2, EloErr: 300}}})
	if err := chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.CSS(`#live-1[data-result="X+"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#summary tbody tr`)),
	); err != nil {
		t.Fatal(err)
	}
	info, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#live-1 .info`)))
	if err != nil {
		t.Fatal(err)
	}
	summary, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#summary tbody`)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(info, "X+ win") || !strings.Contains(info, "ply 7") {
		t.Errorf("card after the end: %q", info)
	}
	if !strings.Contains(summary, "alpha") || !strings.Contains(summary, "191.2") {
		t.Errorf("summary table: %q", summary)
	}
}
