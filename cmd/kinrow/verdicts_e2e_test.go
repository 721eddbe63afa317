package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine/record"
)

// refuser is built for these tests only (TestMain builds testBots).
func init() { testBots = append(testBots, "refuser") }

// record reads kinrow-record.
func (h *host) record() record.Record {
	h.t.Helper()
	var rec record.Record
	line := h.ok("kinrow-record")
	if err := json.Unmarshal([]byte(line), &rec); err != nil {
		h.t.Fatalf("kinrow-record %q: %v", line, err)
	}
	return rec
}

// With x's bot frozen, o's genmove answers within its move time: telling x
// about o's move never delays o (the host used to wait 5 s for it, then
// record x as crashed). x forfeits by timeout when asked, within its own
// move time, for not taking the notification.
func TestFrozenOpponentDoesNotDelayTheMover(t *testing.T) {
	const movetime = 200 * time.Millisecond
	const margin = 2 * time.Second // generous for a loaded machine; the old wait was 5 s
	h := startHost(t, "--grace", "100ms")
	h.ok("kinrow-movetime 200")
	h.ok("kinrow-load x random")
	x := childBot(t, h.cmd.Process.Pid)
	h.ok("kinrow-load o random")
	if got := h.ok("genmove x"); got == "resign" {
		t.Fatalf("x forfeited: %s", h.ok("kinrow-result"))
	}
	stopProcess(t, x)
	waitStopped(t, x)

	start := time.Now()
	got := h.ok("genmove o")
	if took := time.Since(start); took > movetime+margin {
		t.Errorf("genmove o took %v with x frozen: the host waited on x", took)
	}
	if got == "resign" {
		t.Fatalf("the healthy o forfeited: %s", h.ok("kinrow-result"))
	}

	start = time.Now()
	if got := h.ok("genmove x"); got != "resign" {
		t.Errorf("the frozen x answered %q", got)
	}
	if took := time.Since(start); took < movetime || took > movetime+margin {
		t.Errorf("x's forfeit came after %v; want its move time plus the grace", took)
	}
	// Over plugin protocol version 2 the notification travels with the
	// next request (the genmove) in one message: x stalls on the two.
	res := h.ok("kinrow-result")
	want1 := "O+ forfeit: x (random) timed out after 200 ms: it did not take the notification of o's move " + got
	want2 := "O+ forfeit: x (random) timed out after 200 ms (no answer; it stalled)"
	if !strings.HasPrefix(res, want1) && !strings.HasPrefix(res, want2) {
		t.Errorf("kinrow-result = %q; want %q… or %q…", res, want1, want2)
	}
	rec := h.record()
	if rec.Forfeit != record.ForfeitTimeout || rec.Players.X != "random" || rec.Players.O != "random#2" || *rec.Winner != "random#2" {
		t.Errorf("record %+v", rec)
	}
}

// The record names the bot that forfeited by timeout or crash, not
// "controller" (the transcript with the hang bot).
func TestRecordNamesTheForfeitingBot(t *testing.T) {
	tests := []struct {
		bot     string
		forfeit record.Forfeit
	}{
		{"hang", record.ForfeitTimeout},
		{"crash", record.ForfeitCrash},
	}
	h := startHost(t)
	for _, tc := range tests {
		t.Run(tc.bot, func(t *testing.T) {
			h.t = t
			h.ok("rules tictactoe")
			h.ok("kinrow-movetime 300")
			h.ok("kinrow-load o " + tc.bot)
			h.ok("play x b2")
			if got := h.ok("genmove o"); got != "resign" {
				t.Fatalf("genmove o = %q", got)
			}
			rec := h.record()
			if rec.Players.O != tc.bot || rec.Players.X != "controller" || rec.Forfeit != tc.forfeit ||
				rec.Winner == nil || *rec.Winner != "controller" || !strings.HasPrefix(rec.Detail, "o ("+tc.bot+")") {
				t.Errorf("record %+v", rec)
			}
			h.ok("kinrow-unload o")
		})
	}
}

// A bot that refuses a new game is started afresh, never replaced by
// another bot; if the fresh one refuses too, the command fails naming it.
func TestRefusedNewGameNeverPlaysAnotherBot(t *testing.T) {
	h := startHost(t)
	onlyRefusers := func() {
		t.Helper()
		for _, p := range botProcesses() {
			if filepath.Base(strings.Fields(p)[1]) != "kinrow-bot-refuser" {
				t.Errorf("another bot runs: %s", p)
			}
		}
	}
	h.ok("kinrow-load x refuser") // one game per process
	h.ok("play x 4")
	h.ok("clear_board") // refused by the process, taken by a fresh one
	if got := h.ok("genmove x"); got == "resign" {
		t.Fatalf("x forfeited: %s", h.ok("kinrow-result"))
	}
	if p := h.record().Players; p.X != "refuser" {
		t.Errorf("x is played by %q", p.X)
	}
	onlyRefusers()

	h.ok("kinrow-load x refuser refuse_kind=mnk games=100")
	r := h.do("rules tictactoe")
	for _, want := range []string{"x (refuser) refused mnk:3x3x3: ", "refuser plays no mnk game; a fresh refuser refused it too: "} {
		if r.OK || !strings.Contains(r.Text, want) {
			t.Errorf("rules tictactoe: answered %v %q; want ? containing %q", r.OK, r.Text, want)
		}
	}
	h.fail("genmove x", "refuser plays no mnk game")
	h.fail("genmove x", "refuser refused the game")
	onlyRefusers()
	if p := h.record().Players; p.X != "controller" {
		t.Errorf("x is named %q with no bot that plays", p.X)
	}
	h.ok("protocol_version")
}

// Times a clock cannot run are refused (time_left o nan 0 used to make the
// next genmove forfeit "timed out after -9223372036854 ms").
func TestBadTimesThroughPipes(t *testing.T) {
	h := startHost(t)
	h.ok("kinrow-load o random")
	h.ok("play x 4")
	h.fail("time_left o nan 0", "time must be a number of seconds from 0 to 10000000")
	h.fail("time_settings nan 0 0", "main time must be a number of seconds from 0 to 10000000")
	h.fail("komi nan", "komi takes a finite number")
	if got := h.ok("genmove o"); got == "resign" {
		t.Errorf("genmove o forfeited: %s", h.ok("kinrow-result"))
	}
}
