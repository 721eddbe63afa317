package match

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/engine/record"
)

// testKey is the referee's key of the tests (a fixed seed), testPub its
// public key.
var (
	testKey = ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	testPub = testKey.Public().(ed25519.PublicKey)
)

// testMerge merges records signed by testKey.
var testMerge = MergeOptions{Trusted: []ed25519.PublicKey{testPub}}

// testVerifier trusts testKey.
func testVerifier() *record.Verifier { return record.NewVerifier([]ed25519.PublicKey{testPub}, false) }

// signBody signs a record line without its sig member with testKey, as
// record.SignedLine does.
func signBody(body []byte) string {
	sig := base64.StdEncoding.EncodeToString(ed25519.Sign(testKey, body))
	return string(body[:len(body)-1]) + `,"sig":"` + sig + `"}`
}

// --resume with SkipInvalid leaves out the forged records of its file,
// plays their games and appends their records, each on a line of its own
// even when a forged line ends the file without its newline.
func TestResumeSkipsForgedRecords(t *testing.T) {
	cfg, lines := playedFile(t)
	var kept []string
	var forged string
	for _, l := range lines {
		var m map[string]any
		json.Unmarshal([]byte(l), &m)
		if m["game"].(float64) != 3 {
			kept = append(kept, l)
			continue
		}
		// A forfeit the referee never saw, in game 3's place, unsigned.
		p := m["players"].(map[string]any)
		m["moves"], m["result"], m["reason"], m["forfeit"], m["winner"] = []any{}, "O+", "forfeit", "timeout", p["o"]
		m["opening_plies"] = 0
		for _, k := range []string{"sig", "key", "id", "digits", "detail"} {
			delete(m, k)
		}
		b, _ := json.Marshal(m)
		forged = string(b)
	}
	content := strings.Join(kept, "\n") + "\n" + forged // no newline at its end
	os.WriteFile(cfg.Out, []byte(content), 0o644)
	cfg.Resume = true
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "games.jsonl:4: unsigned record") {
		t.Fatalf("without SkipInvalid: %v", err)
	}
	var played []int
	cfg.SkipInvalid = true
	cfg.OnGame = func(_, _ int, rec *record.Record) { played = append(played, rec.Game) }
	sum, err := Run(context.Background(), cfg)
	if err != nil || len(played) != 1 || played[0] != 3 || len(sum.Skipped) != 1 || sum.Games != 4 {
		t.Fatalf("played %v, skipped %v, %d games, %v", played, sum.Skipped, sum.Games, err)
	}
	data, _ := os.ReadFile(cfg.Out)
	ls, err := record.Reader{Verifier: testVerifier()}.ReadEvery("games.jsonl", bytes.NewReader(data))
	if err != nil || len(ls.Records) != 4 || len(ls.Bad) != 1 || ls.Bad[0].N != 4 || ls.Torn != nil {
		t.Errorf("after the resume: %d records, bad %v, torn %v, %v\n%s", len(ls.Records), ls.Bad, ls.Torn, err, data)
	}
}
