package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/alphabeta/solver"
	"github.com/kinrow/kinrow/bots/internal/c4set"
	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// The strength runs of docs/STRENGTH.md ("against a perfect player"):
// opt-in (KINROW_STRENGTH=1, minutes of CPU), the bot's own GenMove at
// KINROW_MOVETIME (default 1s) a move against kinrow's exact solver
// playing a best move with no time limit. Run with nice -n 10.

// heldOut are the opening positions of issue 26: 2416615552 (score 4) and
// the first seven of Test_L1_R3 with 10 to 14 plies and a score >= 0.
func heldOut(t *testing.T) []string {
	out := []string{"2416615552"}
	opening := func(fields []string) bool {
		s, _ := strconv.Atoi(fields[1])
		n := len(fields[0])
		return n >= 10 && n <= 14 && s >= 0
	}
	for _, fields := range c4set.Read(t, "Test_L1_R3.txt", 7, opening) {
		out = append(out, fields[0])
	}
	return out
}

func strengthOn(t *testing.T) time.Duration {
	if os.Getenv("KINROW_STRENGTH") == "" {
		t.Skip("KINROW_STRENGTH=1 runs the strength games")
	}
	d := time.Second
	if v := os.Getenv("KINROW_MOVETIME"); v != "" {
		var err error
		if d, err = time.ParseDuration(v); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// perfect returns a best move of the position after cols (the centre
// first among equal scores) and the scores.
func perfect(sv *solver.Solver, cols []int) (int, []int) {
	p := sv.NewPosition()
	for _, c := range cols {
		p.Play(c)
	}
	scores, err := sv.Analyze(context.Background(), p, false)
	if err != nil {
		panic(err)
	}
	best := -1
	for _, c := range []int{3, 2, 4, 1, 5, 0, 6} {
		if scores[c] != solver.Invalid && (best < 0 || scores[c] > scores[best]) {
			best = c
		}
	}
	return best, scores
}

// playOut plays the game after opening, the bot the side to move, the
// perfect player the other; it returns the result for the bot (1, 0, -1)
// and the bot's moves that gave up value (its score after the move below
// the position's).
func playOut(t *testing.T, pl *player, sv *solver.Solver, opening string, movetime time.Duration) (int, int, time.Duration) {
	r, _ := engine.ParseRules("connect4")
	pos := engine.NewPosition(r)
	ms, err := r.ParseMoveList(opening)
	if err != nil {
		t.Fatal(err)
	}
	if err := pos.PlayMoveList(ms); err != nil {
		t.Fatal(err)
	}
	bot := pos.ToMove()
	slips := 0
	var longest time.Duration
	for pos.Result() == engine.Open {
		cols := columns(pos)
		var m engine.Move
		if pos.ToMove() == bot {
			_, scores := perfect(sv, cols)
			ctx, cancel := context.WithTimeout(context.Background(), movetime)
			start := time.Now()
			var last botapi.Progress
			m, err = pl.GenMove(ctx, pos, func(pr botapi.Progress) { last = pr })
			took := time.Since(start)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			longest = max(longest, took)
			bestScore := solver.Invalid
			for _, s := range scores {
				bestScore = max(bestScore, s)
			}
			if cmp.Compare(scores[m], 0) < cmp.Compare(bestScore, 0) {
				slips++
				t.Logf("%s: at ply %d played %d (score %d, best %d) in %v; last report depth %d score %d",
					opening, pos.Ply(), m+1, scores[m], bestScore, took.Round(time.Millisecond), last.Depth, last.Score)
			}
		} else {
			c, _ := perfect(sv, cols)
			m = engine.Move(c)
		}
		pos.Play(m)
	}
	win := engine.XWins
	if bot == engine.O {
		win = engine.OWins
	}
	switch pos.Result() {
	case engine.Draw:
		return 0, slips, longest
	case win:
		return 1, slips, longest
	}
	return -1, slips, longest
}

func TestStrengthHeldOut(t *testing.T) {
	movetime := strengthOn(t)
	sv, err := solver.New(6, 7, 4, 64)
	if err != nil {
		t.Fatal(err)
	}
	for _, bookOpt := range []string{"default", "none"} {
		a := newAlphabeta()
		kept := 0
		ops := heldOut(t)
		for _, op := range ops {
			pl := newGame(t, a, "connect4", map[string]string{"book": bookOpt})
			p := sv.NewPosition()
			if _, err := sv.PlaySequence(&p, op); err != nil {
				t.Fatal(err)
			}
			value, err := sv.Solve(context.Background(), p, false)
			if err != nil {
				t.Fatal(err)
			}
			res, slips, longest := playOut(t, pl, sv, op, movetime)
			if res >= cmp.Compare(value, 0) {
				kept++
			}
			t.Logf("book=%s %s score %d: result %+d for the bot, %d outcome-losing moves, longest move %v", bookOpt, op, value, res, slips, longest.Round(time.Millisecond))
		}
		t.Logf("book=%s: kept %d of %d", bookOpt, kept, len(ops))
	}
}

// TestStrengthShortOpenings: the bot's move in the empty board and the
// first 30 positions of 1 to 6 plies of Test_L1_R3, against their exact
// column scores.
func TestStrengthShortOpenings(t *testing.T) {
	movetime := strengthOn(t)
	type pos struct {
		seq    string
		scores []int
	}
	empty := []int{-2, -1, 0, 1, 0, -1, -2} // the empty board's column scores (Pons)
	list := []pos{{"", empty}}
	short := func(fields []string) bool { return len(fields[0]) <= 6 }
	for _, fields := range c4set.Read(t, "Test_L1_R3.txt", 30, short) {
		var s []int
		for _, v := range fields[2:] {
			if v == "-" {
				s = append(s, solver.Invalid)
				continue
			}
			n, _ := strconv.Atoi(v)
			s = append(s, n)
		}
		list = append(list, pos{fields[0], s})
	}
	for _, bookOpt := range []string{"default", "none"} {
		a := newAlphabeta()
		worse := 0
		var lines []string
		for _, q := range list {
			pl := newGame(t, a, "connect4", map[string]string{"book": bookOpt})
			r, _ := engine.ParseRules("connect4")
			p := engine.NewPosition(r)
			ms, _ := r.ParseMoveList(q.seq)
			if err := p.PlayMoveList(ms); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), movetime)
			m, err := pl.GenMove(ctx, p, func(botapi.Progress) {})
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			best := solver.Invalid
			for _, s := range q.scores {
				best = max(best, s)
			}
			if q.scores[m] < best {
				worse++
				lines = append(lines, fmt.Sprintf("%q: played %d (score %d), best %d", q.seq, m+1, q.scores[m], best))
			}
		}
		t.Logf("book=%s: a column worse than the best in %d of %d: %s", bookOpt, worse, len(list), strings.Join(lines, "; "))
	}
}
