package match

import (
	"fmt"
	"math/rand/v2"

	"github.com/kinrow/kinrow/engine"
)

// Job is one scheduled game.
type Job struct {
	Round   int // the pairing, from 1
	Game    int // the game within the pairing, from 1
	Pair    int // the opening pair within the pairing, from 1
	X, O    int // indexes into Config.Bots
	Opening []engine.Move
}

// Pairings returns the bot index pairs that meet: one for two bots, every
// pair for a round robin, the first against each other for a gauntlet.
func Pairings(n int, gauntlet bool) [][2]int {
	var out [][2]int
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if gauntlet && i > 0 {
				continue
			}
			out = append(out, [2]int{i, j})
		}
	}
	return out
}

// Schedule lists every game of a run in order. It depends only on its
// arguments, so a resumed run (same seed) plays the same games.
func Schedule(rules engine.Rules, bots int, gauntlet bool, games int, openings [][]engine.Move, randomPlies int, seed uint64) ([]Job, error) {
	var jobs []Job
	for r, pr := range Pairings(bots, gauntlet) {
		rng := rand.New(rand.NewPCG(seed, uint64(r)+1))
		for g := 0; g < games; g++ {
			pair := g / 2
			var opening []engine.Move
			switch {
			case len(openings) > 0:
				opening = openings[pair%len(openings)]
			case randomPlies > 0 && g%2 == 0:
				var err error
				if opening, err = randomOpening(rules, randomPlies, rng); err != nil {
					return nil, err
				}
			case randomPlies > 0:
				opening = jobs[len(jobs)-1].Opening
			}
			x, o := pr[0], pr[1]
			if g%2 == 1 {
				x, o = o, x
			}
			jobs = append(jobs, Job{Round: r + 1, Game: g + 1, Pair: pair + 1, X: x, O: o, Opening: opening})
		}
	}
	return jobs, nil
}

// randomOpening plays n uniformly random moves that neither win nor fill
// the board, so the game stays open.
func randomOpening(rules engine.Rules, n int, rng *rand.Rand) ([]engine.Move, error) {
	if n >= rules.Cells() {
		return nil, fmt.Errorf("--random-plies %d: the %s board has only %d cells", n, rules, rules.Cells())
	}
	for attempt := 0; attempt < 100; attempt++ {
		pos := engine.NewPosition(rules)
		var moves []engine.Move
		var legal []engine.Move
		for len(moves) < n && pos.Result() == engine.Open {
			legal = pos.LegalMoves(legal[:0])
			m := legal[rng.IntN(len(legal))]
			pos.Play(m)
			moves = append(moves, m)
		}
		if pos.Result() == engine.Open {
			return moves, nil
		}
	}
	return nil, fmt.Errorf("--random-plies %d: no random opening of that length leaves %s open", n, rules)
}
