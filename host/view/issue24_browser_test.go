package view

import (
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
)

// The live page of kinrow match --view (?view=live): the Replay pane is
// hidden under the live grid, the Reason filter offers every reason of
// engine/record, bad lines are listed in red, an infinite Elo error shows
// as ∞, and the end of the match is said as such, not as a lost
// connection, even once the server is gone.
func TestBrowserLiveTabAndMatchEnd(t *testing.T) {
	path := t.TempDir() + "/games.jsonl"
	os.WriteFile(path, manyRecords(t, 300, map[int]string{150: "not a record"}), 0o644)
	hub := NewHub()
	ts := newTestServer(t, hub, path)
	ctx := browser(t)
	hub.GameStarted(GameInfo{ID: 1, Round: 1, Game: 1, Rules: engine.Connect4(), Players: record.Players{X: "alpha", O: "beta"}})
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?view=live"),
		chromedp.WaitVisible(chromedp.CSS(`#live-1 .mini svg`))); err != nil {
		t.Fatal(err)
	}
	display, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.getElementById("replay")).display + " " + document.getElementById("replay").hidden`))
	if err != nil || display != "none true" {
		t.Errorf("the Replay pane on the Live tab: display, hidden = %q (%v), want none true", display, err)
	}
	reasons, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#f-reason option")).map(o => o.value)`))
	if err != nil || strings.Join(reasons, "|") != "|"+strings.Join(Reasons, "|") {
		t.Errorf("Reason filter %q (%v), want any and %q", reasons, err, Reasons)
	}
	problems, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const p = document.getElementById("problems"); return p.hidden ? "hidden" : getComputedStyle(p).color + " " + p.textContent })()`))
	if err != nil || !strings.Contains(problems, "rgb(198, 40, 40)") || !strings.Contains(problems, path+":151: ") {
		t.Errorf("problems box %q (%v), want the bad line in red", problems, err)
	}
	hub.Summary(Summary{Done: 1, Total: 1, Rows: []SummaryRow{{A: "alpha", B: "beta", Wins: 1, Elo: math.Inf(1), EloErr: math.Inf(1)}}})
	hub.MatchEnded("all 1 games played")
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#live-status[data-ended="true"]`))); err != nil {
		t.Fatal(err)
	}
	summary, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#summary tbody`)))
	if err != nil || !strings.Contains(summary, "+∞") || !strings.Contains(summary, "∞") || strings.Contains(summary, "9999") {
		t.Errorf("summary %q (%v), want ± ∞", summary, err)
	}
	ts.CloseClientConnections()
	ts.Close()
	time.Sleep(1500 * time.Millisecond) // an EventSource retries within seconds
	status, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#live-status`)))
	if err != nil || !strings.Contains(status, "the match has ended: all 1 games played") || strings.Contains(status, "connection lost") {
		t.Errorf("status after the match %q (%v)", status, err)
	}
}
