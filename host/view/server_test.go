package view

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
)

const records = "../recordfmt/testdata/games.jsonl"

func newTestServer(t *testing.T, hub *Hub, files ...string) *httptest.Server {
	t.Helper()
	s := New(Config{Hub: hub})
	for _, f := range files {
		s.AddFile(f) // bad files become problems on the page
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return ts
}

func get(t *testing.T, url string) (int, string, string) {
	t.Helper()
	r, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r.StatusCode, r.Header.Get("Content-Type"), string(b)
}

type gameList struct {
	Games    []gameSummary
	Total    int
	Bots     []string
	Problems []string
	Live     bool
}

func TestPageAndAssetsAreEmbedded(t *testing.T) {
	ts := newTestServer(t, nil, records)
	for _, tc := range []struct{ path, ctype, want string }{
		{"/", "text/html", `<script src="/static/app.js"`},
		{"/static/app.js", "javascript", "EventSource"},
		{"/static/style.css", "text/css", "prefers-color-scheme: dark"},
	} {
		code, ctype, body := get(t, ts.URL+tc.path)
		if code != 200 || !strings.Contains(ctype, tc.ctype) || !strings.Contains(body, tc.want) {
			t.Errorf("GET %s: %d %s, want 200 %s with %q", tc.path, code, ctype, tc.ctype, tc.want)
		}
		// Nothing is fetched from elsewhere: no absolute URLs in the assets.
		if strings.Contains(body, "http://") && tc.path != "/static/app.js" || strings.Contains(body, "https://") {
			t.Errorf("GET %s refers to the network", tc.path)
		}
	}
	if code, _, _ := get(t, ts.URL+"/static/nope.js"); code != 404 {
		t.Errorf("missing asset: %d, want 404", code)
	}
}

func TestGamesListAndFilters(t *testing.T) {
	ts := newTestServer(t, nil, records)
	for _, tc := range []struct {
		query string
		want  []int
	}{
		{"", []int{1, 2, 3, 4, 5}},
		{"?bot=mics", []int{1, 2, 5}},
		{"?bot=random%232", []int{3}},
		{"?result=X%2B", []int{1, 2, 4}},
		{"?result=0", []int{3}},
		{"?result=O%2B&bot=mics", []int{5}},
		{"?reason=forfeit", []int{4}},
		{"?reason=timeout", []int{4}},
		{"?reason=resignation", []int{5}},
		{"?bot=nobody", []int{}},
	} {
		code, _, body := get(t, ts.URL+"/api/games"+tc.query)
		var l gameList
		if err := json.Unmarshal([]byte(body), &l); err != nil || code != 200 {
			t.Fatalf("GET /api/games%s: %d %v %s", tc.query, code, err, body)
		}
		got := []int{}
		for _, g := range l.Games {
			got = append(got, g.N)
		}
		if !slices.Equal(got, tc.want) || l.Total != 5 || l.Live {
			t.Errorf("GET /api/games%s = %v (total %d, live %v), want %v of 5", tc.query, got, l.Total, l.Live, tc.want)
		}
	}
}

func TestGameAndSVG(t *testing.T) {
	ts := newTestServer(t, nil, records)
	code, _, body := get(t, ts.URL+"/api/games/2")
	var g struct {
		gameSummary
		Moves []record.Move
		Cols  int
		Kind  string
	}
	if err := json.Unmarshal([]byte(body), &g); err != nil || code != 200 {
		t.Fatalf("GET /api/games/2: %d %v", code, err)
	}
	if g.Rules != "connectx:6x7x4" || len(g.Moves) != 7 || g.Moves[6].Move != "4" || g.Cols != 7 || g.Kind != "connectx" {
		t.Errorf("game 2 = %+v", g)
	}
	code, ctype, svg := get(t, ts.URL+"/api/games/2/svg?ply=3")
	if code != 200 || ctype != "image/svg+xml" || strings.Count(svg, `class="kr-stone`) != 3 || !strings.Contains(svg, `data-cell="4/2" data-ply="3"`) {
		t.Errorf("GET svg ply 3: %d %s\n%.300s", code, ctype, svg)
	}
	_, _, svg = get(t, ts.URL+"/api/games/2/svg")
	if strings.Count(svg, `class="kr-stone`) != 7 || !strings.Contains(svg, `class="kr-win"`) {
		t.Errorf("GET svg at the end: no winning line or wrong stones")
	}
	for _, tc := range []struct {
		path string
		code int
		want string
	}{
		{"/api/games/99", 404, "game 99 does not exist: the records hold 5 games (1 to 5)"},
		{"/api/games/x", 404, "does not exist"},
		{"/api/games/0/svg", 404, "does not exist"},
		{"/api/games/2/svg?ply=8", 400, "plies 0 to 7"},
		{"/api/games/2/svg?ply=-1", 400, "plies 0 to 7"},
		{"/api/events", 404, "kinrow match --view"},
		{"/api/live/1/svg", 404, "no live game"},
	} {
		code, _, body := get(t, ts.URL+tc.path)
		if code != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("GET %s: %d %s, want %d with %q", tc.path, code, body, tc.code, tc.want)
		}
	}
}

// Bad input is reported on the page and the good files are served: a file
// that is not records, a missing file, a torn last line.
func TestBadInputIsShownAndServed(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(records)
	if err != nil {
		t.Fatal(err)
	}
	torn := dir + "/torn.jsonl"
	os.WriteFile(torn, append(data, data[:50]...), 0o644)
	notRecords := dir + "/notes.txt"
	os.WriteFile(notRecords, []byte("hello\n"), 0o644)
	ts := newTestServer(t, nil, notRecords, dir+"/missing.jsonl", torn)
	_, _, body := get(t, ts.URL+"/api/games")
	var l gameList
	json.Unmarshal([]byte(body), &l)
	probs := strings.Join(l.Problems, "\n")
	for _, want := range []string{"notes.txt:1: not kinrow game records", "missing.jsonl: no such file", "torn.jsonl:6: torn last line"} {
		if !strings.Contains(probs, want) {
			t.Errorf("problems %q lack %q", probs, want)
		}
	}
	if l.Total != 5 {
		t.Errorf("%d games served, want the torn file's 5", l.Total)
	}
}

func TestListen(t *testing.T) {
	ln, err := Listen(context.Background(), "127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, err = Listen(context.Background(), ln.Addr().String(), nil)
	if err == nil || !errors.Is(err, syscall.EADDRINUSE) || !strings.Contains(err.Error(), "the port is in use") {
		t.Errorf("Listen on a port in use: %v", err)
	}
	if _, err := Listen(context.Background(), "8080", nil); err == nil || !strings.Contains(err.Error(), "HOST:PORT") {
		t.Errorf("Listen on \"8080\": %v", err)
	}
	for host, want := range map[string]bool{"127.0.0.1": true, "::1": true, "localhost": true, "0.0.0.0": false, "": false, "192.168.1.2": false} {
		if IsLoopback(host) != want {
			t.Errorf("IsLoopback(%q) = %v", host, !want)
		}
	}
}

// sseEvent is one parsed server-sent event.
type sseEvent struct{ kind, data string }

// readEvents reads events from an SSE body into a channel.
func readEvents(body io.Reader) <-chan sseEvent {
	ch := make(chan sseEvent, 100)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(body)
		sc.Buffer(make([]byte, 1<<16), 1<<24)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.kind = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.data = strings.TrimPrefix(line, "data: ")
			case line == "" && ev.kind != "":
				ch <- ev
				ev = sseEvent{}
			}
		}
	}()
	return ch
}

func next(t *testing.T, ch <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-ch:
		if !ok {
			t.Fatal("event stream closed")
		}
		return ev
	case <-time.After(30 * time.Second):
		t.Fatal("no event in 30 s")
	}
	return sseEvent{}
}

// The hub's calls reach a page's event stream in order: a snapshot of what
// was there before it connected, then start, moves, end and summary; the
// ended game joins the replay list and a live game's board is drawn.
func TestHubEventStream(t *testing.T) {
	hub := NewHub()
	c4 := engine.Connect4()
	hub.GameStarted(GameInfo{ID: 1, Round: 1, Game: 1, Rules: c4, Players: record.Players{X: "a", O: "b"}})
	hub.Move(1, 3, 12, nil)
	ts := newTestServer(t, hub, records)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/api/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	events := readEvents(resp.Body)
	ev := next(t, events)
	var snap struct {
		Games []LiveGame
	}
	if err := json.Unmarshal([]byte(ev.data), &snap); ev.kind != "snapshot" || err != nil || len(snap.Games) != 1 ||
		len(snap.Games[0].Moves) != 1 || snap.Games[0].Moves[0].Move != "4" || snap.Games[0].RulesText != "connectx:6x7x4" {
		t.Fatalf("first event %s %s (%v), want a snapshot of game 1 with move 4", ev.kind, ev.data, err)
	}
	hub.Move(1, 3, 20, &SearchInfo{Depth: 9, Score: "+2", Nodes: 12345, PV: "4 4 3"})
	hub.Move(1, 9, 1, nil) // off the board: ignored
	hub.Move(7, 1, 1, nil) // unknown game: ignored
	ev = next(t, events)
	var mv struct {
		ID, Ply int
		LiveMove
	}
	json.Unmarshal([]byte(ev.data), &mv)
	if ev.kind != "move" || mv.ID != 1 || mv.Ply != 2 || mv.Move != "4" || mv.Color != "o" || mv.MS != 20 || mv.Search == nil || mv.Search.Nodes != 12345 {
		t.Fatalf("event %s %s, want o's move 4 at ply 2 with its search", ev.kind, ev.data)
	}
	code, _, svg := get(t, ts.URL+"/api/live/1/svg")
	if code != 200 || strings.Count(svg, `class="kr-stone`) != 2 {
		t.Errorf("live svg: %d, %d stones", code, strings.Count(svg, `class="kr-stone`))
	}
	gomoku, _ := engine.ParseRules("gomoku")
	hub.GameStarted(GameInfo{ID: 2, Rules: gomoku, Players: record.Players{X: "c", O: "d"}})
	if ev = next(t, events); ev.kind != "start" || !strings.Contains(ev.data, `"rules":"mnk:15x15x5"`) {
		t.Fatalf("event %s %s, want game 2's start", ev.kind, ev.data)
	}
	rec := record.New(c4, record.Players{X: "a", O: "b"}, time.Now())
	for _, m := range []engine.Move{3, 3, 4, 4, 5, 5, 6} {
		rec.Add(c4, m, engine.Color(len(rec.Moves)%2), time.Millisecond)
	}
	rec.Round, rec.Game = 1, 1
	rec.Finish(engine.XWins, record.ReasonWin, "", "", time.Now())
	hub.GameEnded(1, rec)
	ev = next(t, events)
	var end LiveGame
	json.Unmarshal([]byte(ev.data), &end)
	if ev.kind != "end" || end.ID != 1 || end.Result != "X+" || end.Reason != "win" || len(end.Moves) != 7 || end.Replay != 6 {
		t.Fatalf("event %s %s, want game 1's end, X+ win, 7 moves", ev.kind, ev.data)
	}
	llr := 1.5
	hub.Summary(Summary{Done: 1, Total: 4, Rows: []SummaryRow{{A: "a", B: "b", Wins: 1, Elo: 191, EloErr: 400, LLR: &llr, LLRLower: -2.94, LLRUpper: 2.94}}})
	if ev = next(t, events); ev.kind != "summary" || !strings.Contains(ev.data, `"llr":1.5`) || !strings.Contains(ev.data, `"done":1`) {
		t.Fatalf("event %s %s, want the summary", ev.kind, ev.data)
	}
	// The ended game is the 6th of the replay list, after the file's 5.
	code, _, body := get(t, ts.URL+"/api/games?bot=a")
	var l gameList
	json.Unmarshal([]byte(body), &l)
	if code != 200 || !l.Live || len(l.Games) != 1 || l.Games[0].N != 6 || l.Games[0].File != "live" || l.Games[0].Plies != 7 {
		t.Errorf("replay list after the live game ended: %s", body)
	}
	// A second page connecting now gets it all in its snapshot.
	resp2, err := http.Get(ts.URL + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	ev = next(t, readEvents(resp2.Body))
	resp2.Body.Close()
	if ev.kind != "snapshot" || !strings.Contains(ev.data, `"result":"X+"`) || !strings.Contains(ev.data, `"llr":1.5`) || !strings.Contains(ev.data, `"id":2`) {
		t.Errorf("late snapshot %s", ev.data)
	}
}

// A page that does not read its stream never blocks the runner: the hub
// drops it once its buffer is full.
func TestHubDropsSlowSubscriber(t *testing.T) {
	hub := NewHub()
	ch, cancel := hub.Subscribe()
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < subscriberBuffer+10; i++ {
			hub.GameStarted(GameInfo{ID: i, Rules: engine.Connect4()})
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the hub blocked on a subscriber that does not read")
	}
	n := 0
	for range ch {
		n++
	}
	if n != subscriberBuffer {
		t.Errorf("the slow subscriber got %d events before being dropped, want %d", n, subscriberBuffer)
	}
	// Ended games past maxFinished are forgotten by the live page only.
	for i := 0; i < maxFinished+5; i++ {
		rec := record.New(engine.Connect4(), record.Players{X: "a", O: "b"}, time.Now())
		rec.Finish(engine.Draw, record.ReasonAdjudicated, "", "", time.Now())
		hub.GameEnded(i, rec)
	}
	if got := len(hub.finishedRecords()); got != maxFinished+5 {
		t.Errorf("%d records kept for replay, want %d", got, maxFinished+5)
	}
	hub.mu.Lock()
	ended := 0
	for _, g := range hub.games {
		if g.Result != "" {
			ended++
		}
	}
	hub.mu.Unlock()
	if ended != maxFinished {
		t.Errorf("%d ended games kept live, want %d", ended, maxFinished)
	}
}

// serveInBackground runs a viewer of an empty hub on a free local port
// until cancel is called; done receives what Serve returned.
func serveInBackground(t *testing.T) (url string, cancel context.CancelFunc, done <-chan error) {
	t.Helper()
	s := New(Config{Hub: NewHub()})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()
	return "http://" + ln.Addr().String(), cancel, served
}

// Serve stops when its context ends, closing open event streams.
func TestServeStops(t *testing.T) {
	url, cancel, done := serveInBackground(t)
	resp, err := http.Get(url + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	events := readEvents(resp.Body)
	next(t, events)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not stop")
	}
	resp.Body.Close()
}

// A records file still being written is read again when it changes: the
// games a match appends show up in the list, a torn line meanwhile is a
// warning only.
func TestGrowingFileIsReread(t *testing.T) {
	data, err := os.ReadFile(records)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSpace(string(data)), "\n")
	path := t.TempDir() + "/growing.jsonl"
	os.WriteFile(path, []byte(lines[0]), 0o644)
	ts := newTestServer(t, nil, path)
	count := func() (int, []string) {
		_, _, body := get(t, ts.URL+"/api/games")
		var l gameList
		json.Unmarshal([]byte(body), &l)
		return l.Total, l.Problems
	}
	if n, p := count(); n != 1 || len(p) != 0 {
		t.Fatalf("%d games, problems %v; want 1 and none", n, p)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(lines[1] + lines[2][:30])
	f.Close()
	if n, p := count(); n != 2 || len(p) != 1 || !strings.Contains(p[0], "torn last line") {
		t.Fatalf("after a game and a torn line: %d games, problems %v", n, p)
	}
	f, _ = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(lines[2][30:] + "\n")
	f.Close()
	if n, p := count(); n != 3 || len(p) != 0 {
		t.Fatalf("after the line completed: %d games, problems %v", n, p)
	}
	if code, _, _ := get(t, ts.URL+"/api/games/3/svg"); code != 200 {
		t.Errorf("the new game 3: %d", code)
	}
}
