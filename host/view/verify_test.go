package view

import (
	"crypto/ed25519"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/engine/record"
)

// With a verifier, a file of unsigned records is refused as a whole
// (RefusedError), loaded with --allow-unsigned (counted), and with
// SkipInvalid its records are left out and listed among the problems.
func TestVerifiedFiles(t *testing.T) {
	data, err := os.ReadFile(records) // records written before signatures
	if err != nil {
		t.Fatal(err)
	}
	trusted := []ed25519.PublicKey{ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)).Public().(ed25519.PublicKey)}
	for _, tc := range []struct {
		name            string
		allow, skip     bool
		refused         bool
		games, unsigned int
	}{
		{"refused", false, false, true, 0, 0},
		{"allow unsigned", true, false, false, 5, 5},
		{"skip invalid", false, true, false, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Config{SkipInvalid: tc.skip, Verifier: func() *record.Verifier { return record.NewVerifier(trusted, tc.allow) }})
			err := s.AddRecords("games.jsonl", strings.NewReader(string(data)))
			var refused *RefusedError
			if errors.As(err, &refused) != tc.refused || !tc.refused && tc.games > 0 && err != nil {
				t.Fatalf("AddRecords: %v", err)
			}
			if n := len(s.allGames()); n != tc.games || s.Unsigned() != tc.unsigned {
				t.Errorf("%d games, %d unsigned; want %d, %d", n, s.Unsigned(), tc.games, tc.unsigned)
			}
			problems := strings.Join(s.allProblems(), "\n")
			if (tc.refused || tc.skip) && !strings.Contains(problems, "games.jsonl:1: unsigned record") {
				t.Errorf("problems: %s", problems)
			}
		})
	}
}
