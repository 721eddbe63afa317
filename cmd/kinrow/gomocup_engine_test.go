package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/engine/record"
)

// rapfiLikeBrain is a manifest for the test brain behaving as Rapfi does
// under a manager: START answered after 0.4 s, 0.3 s over INFO max_memory
// (its hash table), a first search of timeout_turn + 0.4 s, later ones of
// timeout_turn less 5 ms, and still "thinking" for 10 ms of CPU after each
// move, dropping a command word read meanwhile ("ERROR Unknown command:
// 9,4" to "TURN 9,4"). extra is appended to the manifest.
func rapfiLikeBrain(t *testing.T, extra string) string {
	return brainManifest(t, `"mnk:9x9x5"`, "-start-delay", "400ms", "-info-delay", "300ms",
		"-first-over", "400ms", "-later-under", "5ms", "-race", "10ms") + extra
}

// A Rapfi-like brain plays a match through its manifest without a forfeit:
// its set-up is done under the bot start timeout, it gets the Gomocup
// tolerance past timeout_turn, and it is not asked while still busy with
// its last move. Before, its first move of every process forfeited by
// timeout, and a TURN sent too early was answered "ERROR Unknown command".
// With tolerance = "0s" in its manifest, the first move forfeits. The
// tolerant brain's manifest gives 3 s (GomocupJudge's default is 1 s) so
// that a loaded machine has headroom: its first move (400 ms over) goes
// past the grace and stays well within the tolerance, and a flag of 0s
// still overrides the manifest.
func TestRapfiLikeBrainInMatch(t *testing.T) {
	dir := manifests(t, map[string]string{
		"rapfi":  rapfiLikeBrain(t, "tolerance = \"3s\"\n"),
		"strict": rapfiLikeBrain(t, "tolerance = \"0s\"\n"),
	})
	pairs, recs := runEngineMatch(t, dir, "--rules", "mnk:9x9x5", "--bot", "rapfi", "--bot", "random",
		"--games", "2", "--movetime", "300ms", "--max-plies", "16")
	if len(pairs) != 1 || len(recs) != 2 {
		t.Fatalf("pairings %+v, %d records", pairs, len(recs))
	}
	for _, rec := range recs {
		if rec.Reason == record.ReasonForfeit {
			t.Errorf("game %d: %s forfeited: %s", rec.Game, rec.Forfeit, rec.Detail)
		}
	}
	checkNoEngineProcesses(t, engines(t), dir)

	_, recs = runEngineMatch(t, dir, "--rules", "mnk:9x9x5", "--bot", "strict", "--bot", "random",
		"--games", "2", "--movetime", "300ms", "--max-plies", "16")
	for _, rec := range recs {
		if rec.Forfeit != record.ForfeitTimeout || !strings.Contains(rec.Detail, "strict") {
			t.Errorf("game %d without tolerance: %s %s %s; want strict to forfeit by timeout", rec.Game, rec.Reason, rec.Forfeit, rec.Detail)
		}
	}
	checkNoEngineProcesses(t, engines(t), dir)

	// --gomocup-tolerance, given, overrides the manifest's tolerance.
	_, recs = runEngineMatch(t, dir, "--rules", "mnk:9x9x5", "--bot", "rapfi", "--bot", "random",
		"--games", "2", "--movetime", "300ms", "--max-plies", "16", "--gomocup-tolerance", "0s")
	for _, rec := range recs {
		if rec.Forfeit != record.ForfeitTimeout || !strings.Contains(rec.Detail, "rapfi") {
			t.Errorf("game %d with --gomocup-tolerance 0s: %s %s %s; want rapfi to forfeit by timeout", rec.Game, rec.Reason, rec.Forfeit, rec.Detail)
		}
	}
	checkNoEngineProcesses(t, engines(t), dir)
}

// Lines a Gomocup manager ignores (junk, ERROR, OK before the move) cost a
// brain nothing in a match; a line of 8 MiB forfeits it by protocol error,
// as does a kinrow engine's answer of 8 MiB on one line or 1.8 MB on many,
// each with a short detail and a short record. A stray extra answer (a
// second move, a second answer to genmove) is a protocol error, not a
// crash.
func TestEngineLinesInMatch(t *testing.T) {
	kinrow := func(mode string) string {
		return fmt.Sprintf("command = [%q, \"-mode\", %q, \"-after\", \"1\"]\nprotocol = \"kinrow\"\nrules = [\"mnk:9x9x5\"]\n",
			filepath.Join(engines(t), "kinrowengine"), mode)
	}
	dir := manifests(t, map[string]string{
		"noisy":  brainManifest(t, `"mnk:9x9x5"`, "-noise"),
		"huge":   brainManifest(t, `"mnk:9x9x5"`, "-mode", "huge", "-after", "1"),
		"khuge":  kinrow("huge"),
		"klong":  kinrow("long"),
		"stray":  brainManifest(t, `"mnk:9x9x5"`, "-mode", "stray", "-after", "1"),
		"kstray": kinrow("stray"),
	})
	pairs, recs := runEngineMatch(t, dir, "--rules", "mnk:9x9x5", "--bot", "random", "--bot", "noisy", "--bot", "huge",
		"--bot", "khuge", "--bot", "klong", "--bot", "stray", "--bot", "kstray", "--gauntlet", "--games", "2", "--movetime", "200ms")
	want := map[string]string{"noisy": "", "huge": "protocol error", "khuge": "protocol error", "klong": "protocol error",
		"stray": "protocol error", "kstray": "protocol error"}
	details := map[string]string{
		"huge":   "engine wrote a line longer than 65536 bytes instead of a move",
		"khuge":  "line too long (limit 65536 bytes)",
		"klong":  "response too long: the answer has 1843231 bytes (limit 65536)",
		"stray":  "engine wrote a move nobody asked for",
		"kstray": "engine wrote an answer nobody asked for",
	}
	if len(pairs) != len(want) || len(recs) != 2*len(want) {
		t.Fatalf("pairings %+v, %d records", pairs, len(recs))
	}
	for _, rec := range recs {
		bot := rec.Players.X
		if bot == "random" {
			bot = rec.Players.O
		}
		switch w := want[bot]; {
		case w == "" && rec.Reason == record.ReasonForfeit && strings.Contains(rec.Detail, bot):
			t.Errorf("%s forfeited: %s %s", bot, rec.Forfeit, rec.Detail)
		case w != "" && (string(rec.Forfeit) != w || !strings.Contains(rec.Detail, details[bot])):
			t.Errorf("%s: %s %q; want %s with %q", bot, rec.Forfeit, rec.Detail, w, details[bot])
		}
		if len(rec.Detail) > 300 {
			t.Errorf("%s: the detail has %d bytes", bot, len(rec.Detail))
		}
		if b, err := json.Marshal(rec); err != nil || len(b) > 16<<10 {
			t.Errorf("%s: the record has %d bytes (%v)", bot, len(b), err)
		}
	}
	checkNoEngineProcesses(t, engines(t), dir)
}
