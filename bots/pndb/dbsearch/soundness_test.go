package dbsearch

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/kinrow/kinrow/bots/internal/testpos"
	"github.com/kinrow/kinrow/engine"
)

// randomPosition plays plies random legal moves from the empty board; nil
// if the game ended on the way.
func randomPosition(r engine.Rules, rng *rand.Rand, plies int) *engine.Position {
	if pos, ended := testpos.Random(r, rng, plies); !ended {
		return pos
	}
	return nil
}

// TestSoundnessRandom is the key soundness test: on many random small
// positions, for both sides as attacker (the side not to move passes),
// every Win is confirmed by the independent brute force: after First, the
// defender loses within the verifier's ply bound (iterative deepening).
func TestSoundnessRandom(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 30
	}
	budget := 200_000
	if os.Getenv("KINROW_LONG") == "1" {
		n, budget = 1000, 2_000_000
	}
	for _, rs := range []string{"mnk:6x6x4", "connectx:5x6x4", "mnk:5x5x4", "connectx:6x7x4", "mnk:7x7x5", "mnk:4x4x3", "connectx:4x5x3"} {
		t.Run(rs, func(t *testing.T) {
			r, s, rng := defaultSearcher(t, rs, 1)
			var tried, wins, deep, confirmed, open int
			for tried < n {
				pos := randomPosition(r, rng, 4+rng.IntN(r.Cells()/2))
				if pos == nil {
					continue
				}
				tried++
				for _, a := range []engine.Color{engine.X, engine.O} {
					res, err := s.Search(context.Background(), pos, a)
					if err != nil {
						t.Fatal(err)
					}
					if !res.Win {
						continue
					}
					wins++
					if res.Threats >= 2 {
						deep++
					}
					ok, done := confirm(pos, a, res.First, s.plies, budget)
					switch {
					case !done:
						open++
					case ok:
						confirmed++
					default:
						t.Errorf("false win for %s at %s (first %s, %d threats, cells %v):\n%s", a,
							r, r.FormatMove(pos.MoveOfCell(res.First)), res.Threats, res.Cells, pos.Diagram())
					}
				}
			}
			t.Logf("%s: %d positions, %d wins claimed (%d of 2 threats or more), %d confirmed, %d beyond the brute force's budget",
				rs, tried, wins, deep, confirmed, open)
		})
	}
}

// confirm asks the brute force whether attacker, playing first on pos,
// wins by first within plies; done is false when its budget ran out.
func confirm(pos *engine.Position, attacker engine.Color, first, plies, budget int) (ok, done bool) {
	if bf := newBruteForce(pos, attacker, 0); !bf.legal(first) {
		return false, true
	} else if bf.line(first, 0) {
		return true, true
	}
	for d := 3; d <= plies; d += 2 {
		bf := newBruteForce(pos, attacker, budget)
		bf.set(first, 0)
		won, err := bf.loses(1, d-1)
		if err != nil {
			return false, false
		}
		if won {
			return true, true
		}
	}
	return false, true
}
