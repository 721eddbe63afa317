package main

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/bots/alphabeta/book"
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

// oracle is the perfect player of the games from the empty board:
// kinrow's exact solver (Analyze: every column's exact score) from
// exactFrom stones on, a seeded choice among the best columns; below,
// where an exact Analyze takes the solver minutes to hours, the shipped
// book's values (the column of the book's exact move; else, when the
// book holds every child, a seeded choice among the children of the best
// value, sign only for its weak entries), and a weak Analyze (win, draw
// or loss; a seeded choice among the columns of the best sign) where the
// book holds neither.
type oracle struct {
	sv        *solver.Solver
	bk        *book.Book
	rng       *rand.Rand
	exactFrom int
}

// move returns the oracle's column for the position after cols, its value
// for the side to move (exact, or a sign when weak) and how it was found.
func (o *oracle) move(t *testing.T, cols []int) (int, int, string) {
	p := o.sv.NewPosition()
	for _, c := range cols {
		p.Play(c)
	}
	pick := func(scores []int, sign bool) (int, int) {
		best := solver.Invalid
		for _, s := range scores {
			if s != solver.Invalid {
				if sign {
					s = cmp.Compare(s, 0)
				}
				best = max(best, s)
			}
		}
		var cands []int
		for c, s := range scores {
			if s == solver.Invalid {
				continue
			}
			if sign {
				s = cmp.Compare(s, 0)
			}
			if s == best {
				cands = append(cands, c)
			}
		}
		return cands[o.rng.IntN(len(cands))], best
	}
	if len(cols) >= o.exactFrom {
		scores, err := o.sv.Analyze(context.Background(), p, false)
		if err != nil {
			t.Fatal(err)
		}
		c, v := pick(scores, false)
		return c, v, "solver"
	}
	if o.bk != nil {
		if e, ok := o.bk.Move(cols); ok && !e.Weak {
			return e.Move, e.Score, "book"
		}
		// Every child's value from the book: wins at once, full boards,
		// the entries of the other side's strategy.
		scores := make([]int, p.Cols())
		all := true
		for c := range scores {
			switch {
			case !p.CanPlay(c):
				scores[c] = solver.Invalid
			case p.IsWinningMove(c):
				scores[c] = 1
			default:
				bd, err := book.Play(o.bk.Geometry, append(append([]int(nil), cols...), c))
				if err != nil {
					t.Fatal(err)
				}
				e, ok := o.bk.Get(bd.Fold())
				if !ok {
					all = false
				}
				scores[c] = -e.Score
			}
		}
		if all {
			c, v := pick(scores, true)
			return c, v, "book children"
		}
	}
	scores, err := o.sv.Analyze(context.Background(), p, true)
	if err != nil {
		t.Fatal(err)
	}
	c, v := pick(scores, true)
	return c, v, "weak solver"
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

// gameResult is one game from an opening against the oracle.
type gameResult struct {
	res     int // for the bot: 1 win, 0 draw, -1 loss
	slips   []string
	longest time.Duration
	moves   string
	sources map[string]int
}

// playOracle plays the game after opening, the bot the side botSide, the
// oracle the other; value is the sign of the opening's value for the bot.
// A slip is a bot's move after which the oracle's value of its position
// (a sign) is better than the bot's value before the move.
func playOracle(t *testing.T, pl *player, o *oracle, opening string, bot engine.Color, value int, movetime time.Duration) gameResult {
	r, _ := engine.ParseRules("connect4")
	pos := engine.NewPosition(r)
	ms, err := r.ParseMoveList(opening)
	if err != nil {
		t.Fatal(err)
	}
	if err := pos.PlayMoveList(ms); err != nil {
		t.Fatal(err)
	}
	g := gameResult{sources: map[string]int{}}
	lastBot := ""
	for pos.Result() == engine.Open {
		cols := columns(pos)
		var m engine.Move
		if pos.ToMove() == bot {
			ctx, cancel := context.WithTimeout(context.Background(), movetime)
			start := time.Now()
			var last botapi.Progress
			m, err = pl.GenMove(ctx, pos, func(pr botapi.Progress) { last = pr })
			took := time.Since(start)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			g.longest = max(g.longest, took)
			lastBot = fmt.Sprintf("ply %d: %d in %v (last report depth %d score %d)", pos.Ply(), m+1, took.Round(time.Millisecond), last.Depth, last.Score)
		} else {
			c, v, how := o.move(t, cols)
			g.sources[how]++
			if got := -cmp.Compare(v, 0); got < value && lastBot != "" {
				g.slips = append(g.slips, fmt.Sprintf("%s gave %+d up for %+d", lastBot, value, got))
			}
			value = -cmp.Compare(v, 0)
			m = engine.Move(c)
		}
		pos.Play(m)
	}
	g.moves = r.FormatMoveList(pos.Moves(nil))
	win := engine.XWins
	if bot == engine.O {
		win = engine.OWins
	}
	switch pos.Result() {
	case engine.Draw:
		g.res = 0
	case win:
		g.res = 1
	default:
		g.res = -1
	}
	return g
}

// strengthSeeds is KINROW_SEEDS (default 3): the games of each opening,
// the oracle's choices among its best moves seeded 1..N.
func strengthSeeds(t *testing.T) int {
	n := 3
	if v := os.Getenv("KINROW_SEEDS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("KINROW_SEEDS=%q: want a positive number", v)
		}
	}
	return n
}

// TestStrengthFromEmptyBoard: the bot as the first player from the empty
// board (a win: it must win every game) and as the second player after
// the first player's every first move (column 4: a loss, it must lose;
// 3 and 5: a draw, 1, 2, 6, 7: a win for it, which it must keep),
// against the oracle, with the shipped book and without it.
func TestStrengthFromEmptyBoard(t *testing.T) {
	movetime := strengthOn(t)
	bk, err := book.Default(book.Geometry{Rows: 6, Cols: 7, K: 4})
	if err != nil {
		t.Fatal(err)
	}
	seeds := strengthSeeds(t)
	openings := []struct {
		moves string
		bot   engine.Color
		value int // for the bot
	}{
		{"", engine.X, 1},
		{"3", engine.O, 0}, {"2", engine.O, 1}, {"1", engine.O, 1}, {"4", engine.O, -1},
	}
	if v := os.Getenv("KINROW_OPENINGS"); v != "" {
		keep := openings[:0]
		for _, op := range openings {
			if strings.Contains(","+v+",", ","+op.moves+",") || (op.moves == "" && strings.Contains(","+v+",", ",empty,")) {
				keep = append(keep, op)
			}
		}
		openings = keep
	}
	books := []string{"default", "none"}
	if v := os.Getenv("KINROW_BOOKS"); v != "" {
		books = strings.Split(v, ",")
	}
	for _, bookOpt := range books {
		a := newAlphabeta()
		for _, op := range openings {
			kept := 0
			for seed := 1; seed <= seeds; seed++ {
				sv, err := solver.New(6, 7, 4, 64)
				if err != nil {
					t.Fatal(err)
				}
				o := &oracle{sv: sv, bk: bk, rng: rand.New(rand.NewPCG(uint64(seed), 26)), exactFrom: 8}
				pl := newGame(t, a, "connect4", map[string]string{"book": bookOpt})
				start := time.Now()
				g := playOracle(t, pl, o, op.moves, op.bot, op.value, movetime)
				if g.res >= op.value {
					kept++
				}
				t.Logf("book=%s opening %q seed %d: %+d for the bot (value %+d), %s, longest move %v, oracle %v, slips %v (%v)",
					bookOpt, op.moves, seed, g.res, op.value, g.moves, g.longest.Round(time.Millisecond), g.sources, g.slips, time.Since(start).Round(time.Second))
			}
			t.Logf("book=%s opening %q: value kept in %d of %d", bookOpt, op.moves, kept, seeds)
		}
	}
}
