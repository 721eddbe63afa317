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
// where an exact Analyze takes the solver minutes to hours, perfect in the
// outcome only (win, draw or loss, not how soon): the shipped book's move
// when it holds one, else a seeded choice among the children of the best
// value when the book holds every child (the exact scores it holds
// first: no move that loses at once while another does not), else a weak
// solve of the
// position and of its moves in a seeded order until one keeps its value.
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
		// A weak loss's move (only one that does not lose at once) says
		// no more than the children do: those give a seeded choice.
		if e, ok := o.bk.Move(cols); ok && !(e.Weak && e.Score < 0) {
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
			// The best sign; among equals, the highest score (a weak
			// entry's 1 stands for the slowest win: a move that lets the
			// opponent win at once is taken last).
			c, v := pick(scores, false)
			return c, cmp.Compare(v, 0), "book children"
		}
	}
	v, err := o.sv.Solve(context.Background(), p, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range o.rng.Perm(p.Cols()) {
		if !p.CanPlay(c) {
			continue
		}
		if p.IsWinningMove(c) {
			return c, v, "weak solver"
		}
		q := p
		q.Play(c)
		if q.GameOver() {
			if v == 0 {
				return c, v, "weak solver"
			}
			continue
		}
		w, err := o.sv.Solve(context.Background(), q, true)
		if err != nil {
			t.Fatal(err)
		}
		if -w == v {
			return c, v, "weak solver"
		}
	}
	t.Fatalf("%v: no move keeps the value %d", cols, v)
	return 0, 0, ""
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
// board (a win: it must win every game), and as the second player after
// each first move that is not the best (columns 1, 2, 3: the mirror
// images of 7, 6, 5), its book's answer and a seeded move of the first
// player (a position the book proves at least a draw for the bot: it must
// keep it), against the oracle, with the shipped book and without it.
// KINROW_SIDES=x or o plays one side only, KINROW_BOOKS=default,none the
// books, KINROW_SEEDS=N the seeds, KINROW_O_OPENINGS=34,... the second
// player's openings instead (each at least a draw for it: "34" is the
// first player's column 3 and the book's answer, a draw).
func TestStrengthFromEmptyBoard(t *testing.T) {
	movetime := strengthOn(t)
	bk, err := book.Default(book.Geometry{Rows: 6, Cols: 7, K: 4})
	if err != nil {
		t.Fatal(err)
	}
	if bk == nil {
		t.Skip("no 6x7 book shipped")
	}
	seeds := strengthSeeds(t)
	books := []string{"default", "none"}
	if v := os.Getenv("KINROW_BOOKS"); v != "" {
		books = strings.Split(v, ",")
	}
	sides := os.Getenv("KINROW_SIDES")
	if sides == "" {
		sides = "x,o"
	}
	type opening struct {
		moves string
		bot   engine.Color
		value int // for the bot: the opening's value, or a lower bound of it
	}
	for _, bookOpt := range books {
		a := newAlphabeta()
		kept, games := 0, 0
		for seed := 1; seed <= seeds; seed++ {
			rng := rand.New(rand.NewPCG(uint64(seed), 26))
			var openings []opening
			if strings.Contains(sides, "x") {
				openings = append(openings, opening{"", engine.X, 1})
			}
			if v := os.Getenv("KINROW_O_OPENINGS"); v != "" && strings.Contains(sides, "o") {
				// Given openings, each a draw or better for the second
				// player (the bot); either side may be to move.
				for _, moves := range strings.Split(v, ",") {
					openings = append(openings, opening{moves, engine.O, 0})
				}
			} else if strings.Contains(sides, "o") {
				for _, first := range []int{2, 1, 0} {
					e, ok := bk.Move([]int{first})
					if !ok || e.Score < 0 {
						t.Fatalf("the book holds no move keeping the second player's value after column %d: %+v %v", first+1, e, ok)
					}
					x := rng.IntN(7)
					openings = append(openings, opening{fmt.Sprintf("%d%d%d", first+1, e.Move+1, x+1), engine.O, cmp.Compare(e.Score, 0)})
				}
			}
			for _, op := range openings {
				sv, err := solver.New(6, 7, 4, 64)
				if err != nil {
					t.Fatal(err)
				}
				o := &oracle{sv: sv, bk: bk, rng: rand.New(rand.NewPCG(uint64(seed), 7)), exactFrom: 7}
				pl := newGame(t, a, "connect4", map[string]string{"book": bookOpt})
				start := time.Now()
				g := playOracle(t, pl, o, op.moves, op.bot, op.value, movetime)
				games++
				if g.res >= op.value && len(g.slips) == 0 {
					kept++
				}
				t.Logf("book=%s opening %q seed %d: %+d for the bot (value %+d), %s, longest move %v, oracle %v, slips %v (%v)",
					bookOpt, op.moves, seed, g.res, op.value, g.moves, g.longest.Round(time.Millisecond), g.sources, g.slips, time.Since(start).Round(time.Second))
			}
		}
		t.Logf("book=%s: the value kept (no slip) in %d of %d games", bookOpt, kept, games)
	}
}
