package crosscheck

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/alphabeta/search"
	"github.com/kinrow/kinrow/bots/mics/mics"
	"github.com/kinrow/kinrow/engine"
)

// mover answers a move for the side to move in an open position.
type mover struct {
	name string
	move func(pos *engine.Position) (engine.Move, error)
}

// moveTime is each searching bot's time per move: short, the games are many.
const moveTime = 15 * time.Millisecond

func randomMover(seed uint64) mover {
	rng := rand.New(rand.NewPCG(seed, 99))
	return mover{"random", func(pos *engine.Position) (engine.Move, error) {
		legal := pos.LegalMoves(nil)
		return legal[rng.IntN(len(legal))], nil
	}}
}

func micsMover(t *testing.T, r engine.Rules, seed uint64) mover {
	s, err := mics.New(r, mics.Options{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	s.Calibrate(context.Background(), moveTime) // as the bot does before its first move
	return mover{"mics", func(pos *engine.Position) (engine.Move, error) {
		ctx, cancel := context.WithTimeout(context.Background(), moveTime)
		defer cancel()
		return s.BestMove(ctx, pos, nil)
	}}
}

func alphabetaMover(t *testing.T, r engine.Rules) mover {
	s, err := search.New(r, search.Options{TTMiB: 4})
	if err != nil {
		t.Fatal(err)
	}
	return mover{"alphabeta", func(pos *engine.Position) (engine.Move, error) {
		ctx, cancel := context.WithTimeout(context.Background(), moveTime)
		defer cancel()
		m, _, err := s.BestMove(ctx, pos, nil)
		return m, err
	}}
}

// randomOpening plays 2 to 7 random legal moves in the board's middle 7x7
// (a match's random opening), none ending the game.
func randomOpening(r engine.Rules, rng *rand.Rand) *engine.Position {
	pos := engine.NewPosition(r)
	n := 2 + rng.IntN(6)
	for pos.Ply() < n {
		row, col := r.Rows/2-3+rng.IntN(7), r.Cols/2-3+rng.IntN(7)
		m := engine.Move(row*r.Cols + col)
		if pos.Apply(m) == nil && pos.Result() != engine.Open {
			pos.Undo()
		}
	}
	return pos
}

// playGame plays the game from pos to its end (or maxPly), checking every
// answer as the referee does: a move the rules forbid is a forfeit with
// reason forbidden, any other illegal move one for an illegal move. It
// returns the result (Open when cut at maxPly).
func playGame(t *testing.T, pos *engine.Position, x, o mover, maxPly int) (engine.Result, int) {
	t.Helper()
	r := pos.Rules()
	fouls := 0 // forbidden cells black's bots had to avoid
	for pos.Result() == engine.Open && pos.Ply() < maxPly {
		side := x
		if pos.ToMove() == engine.O {
			side = o
		} else if side.name != "random" && r.Line == engine.Renju {
			fouls += r.Cells() - pos.Ply() - len(pos.LegalMoves(nil))
		}
		m, err := side.move(pos)
		if err != nil {
			t.Fatalf("%s (%s) after %s: %v", side.name, pos.ToMove(), r.FormatMoveList(pos.Moves(nil)), err)
		}
		if err := pos.Check(m); err != nil {
			reason := "illegal move"
			if errors.Is(err, engine.ErrForbidden) {
				reason = "forbidden"
			}
			t.Fatalf("%s (%s) forfeits (%s): %v, after %s\n%s", side.name, pos.ToMove(), reason, err, r.FormatMoveList(pos.Moves(nil)), pos.Diagram())
		}
		pos.Play(m)
	}
	return pos.Result(), fouls
}

// TestRenjuGamesNoForbiddenMove plays renju games from random openings,
// on the standard 15x15 board and a small 9x9 one, mics and alphabeta's
// search against each other and against random moves, each colour: no
// answer of either bot is a move the referee would forfeit (forbidden, or
// otherwise illegal).
func TestRenjuGamesNoForbiddenMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 4))
	rounds := 8
	if testing.Short() {
		rounds = 2
	}
	for _, rs := range []string{"renju", "mnk:9x9x5:renju"} {
		r, _ := engine.ParseRules(rs)
		fouls := 0
		for round := 0; round < rounds; round++ {
			seed := uint64(round)
			pairs := [][2]mover{
				{micsMover(t, r, seed), alphabetaMover(t, r)},
				{alphabetaMover(t, r), micsMover(t, r, seed)},
				{micsMover(t, r, seed), randomMover(seed)},
				{randomMover(seed), micsMover(t, r, seed)},
				{alphabetaMover(t, r), randomMover(seed)},
				{randomMover(seed), alphabetaMover(t, r)},
			}
			for _, p := range pairs {
				pos := randomOpening(r, rng)
				opening := pos.Ply()
				res, n := playGame(t, pos, p[0], p[1], 120)
				fouls += n
				t.Logf("%s: %s (x) - %s (o) from %d random moves: %s in %d plies", rs, p[0].name, p[1].name, opening, res.Describe(), pos.Ply())
			}
		}
		// The games must have put forbidden cells in the bots' way as black.
		t.Logf("%s: %d forbidden cells on black's turns", rs, fouls)
		if fouls == 0 {
			t.Errorf("%s: no black move of a bot had a forbidden cell to avoid: the test proves nothing", rs)
		}
	}
}

// TestMicsBeatsRandom: mics wins every game against random moves at
// standard gomoku and renju, from random openings, with either colour.
func TestMicsBeatsRandom(t *testing.T) {
	for _, rs := range []string{"gomoku-standard", "renju"} {
		r, _ := engine.ParseRules(rs)
		rng := rand.New(rand.NewPCG(5, uint64(len(rs))))
		for game := 0; game < 4; game++ {
			m, rnd := micsMover(t, r, uint64(game)), randomMover(uint64(game))
			x, o, want := m, rnd, engine.XWins
			if game%2 == 1 {
				x, o, want = rnd, m, engine.OWins
			}
			pos := randomOpening(r, rng)
			if res, _ := playGame(t, pos, x, o, r.Cells()); res != want {
				t.Errorf("%s: %s (x) - %s (o): %s, want mics to win\n%s", rs, x.name, o.name, res.Describe(), pos.Diagram())
			}
		}
	}
}
