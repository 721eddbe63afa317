package book

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/kinrow/kinrow/bots/alphabeta/solver"
)

// StrategyOptions say what BuildStrategy makes and how.
type StrategyOptions struct {
	Geometry
	// XPlies: the first player's move is decided at every position of at
	// most XPlies stones its strategy reaches (the second player's every
	// reply expanded); negative for no first player's strategy.
	XPlies int
	// OPlies: the same for the second player (every move of the first
	// expanded); negative for none.
	OPlies int
	// Jobs is the number of positions decided at once, a solver each
	// (GOMAXPROCS when <= 0).
	Jobs int
	// TTMiB is each solver's table size (solver.DefaultTTMiB when <= 0).
	TTMiB int
	// Journal, when set, is the file where every decided position is
	// appended at once, and from which a stopped build resumes.
	Journal string
	// Known, when set, is a book of the same board whose entries decide
	// a position without solving: its move for the position, or the best
	// of its exact scores of every child.
	Known *Book
	// SlowestLoss: a lost position's move is the slowest loss (every move
	// solved exactly; the entry's score is then exact), not only one that
	// does not lose at once. A known book's entry of a lost position that
	// holds only the sign is decided again.
	SlowestLoss bool
	// Progress, when set, is called from BuildStrategy's goroutine with
	// the ply being decided, the positions decided and the positions
	// found so far (the total grows as the strategies unfold).
	Progress func(ply, done, total int)
}

// plies is the deepest ply either strategy decides.
func (o StrategyOptions) plies() int { return max(o.XPlies, o.OPlies, 0) }

// check says what is wrong with o.
func (o StrategyOptions) check() error {
	if err := o.Check(); err != nil {
		return err
	}
	if o.XPlies < 0 && o.OPlies < 0 {
		return errors.New("book: a strategy book needs the first player's plies, the second's or both")
	}
	if o.Known != nil && o.Known.Geometry != o.Geometry {
		return fmt.Errorf("book: the known book is of %dx%dx%d, the build of %dx%dx%d", o.Known.Rows, o.Known.Cols, o.Known.K, o.Rows, o.Cols, o.K)
	}
	if p := o.plies(); p >= o.Cells() || p > 255 {
		return fmt.Errorf("book: strategy to %d plies: want fewer than %d", p, min(o.Cells(), 256))
	}
	return nil
}

// BuildStrategy makes a strategy book (see the package doc): at the
// positions of at most o.XPlies stones that the first player reaches
// playing the book's move against every reply, the book's move (a win
// when there is one, else a draw, else the slowest loss with
// o.SlowestLoss, or one that does not lose at once);
// the same for the second player up to o.OPlies against every move of the
// first.
// Cancelling ctx stops it; with a journal, every position decided so far
// is kept for the next run.
func BuildStrategy(ctx context.Context, o StrategyOptions) (*Book, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	g, top := o.Geometry, o.plies()
	decided := map[uint64]Entry{}
	var journal *os.File
	if o.Journal != "" {
		var err error
		if journal, err = openStrategyJournal(o.Journal, o, decided); err != nil {
			return nil, err
		}
		defer journal.Close()
	}
	sv, err := solver.New(g.Rows, g.Cols, g.K, 1)
	if err != nil {
		return nil, fmt.Errorf("book: %w", err)
	}
	svs, err := newSolvers(g, jobsOf(o.Jobs), o.TTMiB)
	if err != nil {
		return nil, err
	}
	entries := map[uint64]Entry{}
	// trees[side] holds the positions of the current ply in side's
	// strategy tree (0 the first player's, 1 the second's).
	root := NewBoard(g)
	trees := [2]level{{root.Fold(): ""}, {root.Fold(): ""}}
	if o.XPlies < 0 {
		trees[0] = level{}
	}
	if o.OPlies < 0 {
		trees[1] = level{}
	}
	found := 0
	for ply := 0; ply <= top; ply++ {
		mover := ply % 2
		lim := [2]int{o.XPlies, o.OPlies}
		// The positions where the mover decides: its own tree's.
		deciding := trees[mover]
		if ply > lim[mover] {
			deciding = level{}
		}
		found += len(deciding)
		var todo []string
		for _, seq := range sortedSeqs(deciding) {
			_, b := replay(sv, g, seq)
			if _, ok := decided[b.Fold()]; !ok {
				todo = append(todo, seq)
			}
		}
		left := len(todo)
		progress := func() {
			if o.Progress != nil {
				o.Progress(ply, found-left, found)
			}
		}
		progress()
		decideOne := func(ctx context.Context, sv *solver.Solver, g Geometry, seq string) (uint64, Entry, error) {
			if key, e, ok := fromKnown(o.Known, sv, g, seq); ok && !(o.SlowestLoss && e.Weak && e.Score < 0) {
				return key, e, nil
			}
			return decide(ctx, sv, g, seq, o.Known, o.SlowestLoss)
		}
		err := runAll(ctx, svs, o.Geometry, todo, decideOne, func(key uint64, e Entry) error {
			decided[key] = e
			if journal != nil {
				if _, err := fmt.Fprintf(journal, "%x %d %d %s\n", key, e.Move, e.Score, weakMark(e.Weak)); err != nil {
					return fmt.Errorf("book: journal %s: %w", o.Journal, err)
				}
			}
			left--
			progress()
			return nil
		})
		if err != nil {
			return nil, err
		}
		next := [2]level{{}, {}}
		for side := range 2 {
			for key, seq := range trees[side] {
				p, b := replay(sv, g, seq)
				var moves []int
				if side == mover {
					if ply > lim[side] {
						continue
					}
					e := decided[key]
					entries[key] = e
					c := e.Move
					if b.Key() != key {
						c = g.Cols - 1 - c
					}
					moves = []int{c}
				} else {
					for c := range g.Cols {
						moves = append(moves, c)
					}
				}
				if ply+2 > lim[side] && side == mover || ply+1 > lim[side] && side != mover {
					continue // the tree's last decision is made
				}
				for _, c := range moves {
					if !p.CanPlay(c) || p.IsWinningMove(c) || ply+1 == g.Cells() {
						continue
					}
					cb := b
					cb.Play(c)
					if _, ok := next[side][cb.Fold()]; !ok {
						next[side][cb.Fold()] = seq + string(rune(c))
					}
				}
			}
		}
		trees = next
	}
	return NewEntries(g, top, true, entries)
}

func weakMark(weak bool) string {
	if weak {
		return "w"
	}
	return "e"
}

// fromKnown decides the position after seq from known (nil for none):
// its move, or the best of its exact scores of every child (the centre
// first among equals); the move in the key's orientation.
func fromKnown(known *Book, sv *solver.Solver, g Geometry, seq string) (uint64, Entry, bool) {
	if known == nil {
		return 0, Entry{}, false
	}
	p, b := replay(sv, g, seq)
	key := b.Fold()
	if e, ok := known.Get(key); ok && e.Move >= 0 {
		return key, e, true
	}
	n := len(seq)
	best, bestCol := math.MinInt, -1
	for _, c := range CentreFirst(g.Cols) {
		if !p.CanPlay(c) {
			continue
		}
		v := 0 // the move fills the board: a draw
		switch {
		case p.IsWinningMove(c):
			v = g.WinScore(n)
		case n+1 < g.Cells():
			cb := b
			cb.Play(c)
			s, ok := known.Lookup(cb.Fold())
			if !ok {
				return 0, Entry{}, false
			}
			v = -s
		}
		if v > best {
			best, bestCol = v, c
		}
	}
	if bestCol < 0 {
		return 0, Entry{}, false
	}
	if b.Key() != key {
		bestCol = g.Cols - 1 - bestCol
	}
	return key, Entry{Score: best, Move: bestCol}, true
}

// decide finds the move of the position after seq: a win when there is
// one, else a move that keeps the draw, else a move that does not lose at
// once; the position's key with its entry (a weak score unless the move
// wins at once), the move in the key's orientation.
//
// The position's exact score in known (nil for none) spares its solve.
// The first player's positions (an even number of stones) are expected
// wins: their moves are solved until one wins (first against what the
// table already proves, then centre first); when none wins, every move has
// been solved and the best is taken. The second player's are solved first
// (a draw or a loss is then proved by one solve, not by every move's),
// then their moves until one reaches the value. A lost position's move is
// the slowest loss with slowestLoss (every move solved exactly), else
// holding's (not solved).
func decide(ctx context.Context, sv *solver.Solver, g Geometry, seq string, known *Book, slowestLoss bool) (uint64, Entry, error) {
	p, b := replay(sv, g, seq)
	n := len(seq)
	key := b.Fold()
	orient := func(c int) int {
		if b.Key() != key {
			return g.Cols - 1 - c
		}
		return c
	}
	order := CentreFirst(g.Cols)
	for _, c := range order {
		if p.CanPlay(c) && p.IsWinningMove(c) {
			return key, Entry{Score: g.WinScore(n), Move: orient(c)}, nil
		}
	}
	fail := func(what string, err error) (uint64, Entry, error) {
		return 0, Entry{}, fmt.Errorf("book: solve %s: %w", FormatCols(seqCols(what)), err)
	}
	want := 1 // the value sought: a win until the position is solved
	if n%2 == 1 {
		if v, ok := lookup(known, key); ok {
			want = cmp.Compare(v, 0)
		} else {
			v, err := sv.Solve(ctx, p, true)
			if err != nil {
				return fail(seq, err)
			}
			want = v
		}
	}
	lost := func() (uint64, Entry, error) {
		if !slowestLoss {
			return key, Entry{Score: -1, Weak: true, Move: orient(holding(p, order))}, nil
		}
		c, v, err := slowest(ctx, sv, p, order)
		if err != nil {
			return fail(seq, err)
		}
		return key, Entry{Score: v, Move: orient(c)}, nil
	}
	if want < 0 {
		return lost()
	}
	// Every move's sign, centre first, until one reaches want: first what
	// the table already proves (a context that is done: a few thousand
	// nodes a move), then with ctx.
	var vals [64]int
	var solved [64]bool
	spent, stop := context.WithCancel(ctx)
	stop()
	for pass, pctx := range []context.Context{spent, ctx} {
		for _, c := range order {
			if !p.CanPlay(c) || solved[c] {
				continue
			}
			v := 0 // the move fills the board: a draw
			if n+1 < g.Cells() {
				child := p
				child.Play(c)
				s, err := sv.Solve(pctx, child, true)
				if err != nil {
					if pass == 0 && ctx.Err() == nil {
						continue
					}
					return fail(seq+string(rune(c)), err)
				}
				v = -s
			}
			vals[c], solved[c] = v, true
			if v >= want {
				return key, Entry{Score: v, Weak: true, Move: orient(c)}, nil
			}
		}
	}
	// No move wins (the first player's position): the best of them.
	best := -2
	for _, c := range order {
		if solved[c] && vals[c] > best {
			best = vals[c]
		}
	}
	for _, c := range order {
		if solved[c] && vals[c] == best {
			if best < 0 {
				return lost()
			}
			return key, Entry{Score: best, Weak: true, Move: orient(c)}, nil
		}
	}
	return 0, Entry{}, fmt.Errorf("book: %s: no move to decide", FormatCols(seqCols(seq)))
}

// lookup is known's exact score of key, if known is set and holds it.
func lookup(known *Book, key uint64) (int, bool) {
	if known == nil {
		return 0, false
	}
	return known.Lookup(key)
}

// slowest returns the move of a lost position that loses the slowest
// (every move solved exactly, the first in order among equals) and its
// score. The position has no winning move, so a move that fills the
// board scores 0.
func slowest(ctx context.Context, sv *solver.Solver, p solver.Position, order []int) (int, int, error) {
	col, best := -1, math.MinInt
	for _, c := range order {
		if !p.CanPlay(c) {
			continue
		}
		child := p
		child.Play(c)
		v := 0
		if !child.GameOver() {
			s, err := sv.Solve(ctx, child, false)
			if err != nil {
				return 0, 0, err
			}
			v = -s
		}
		if v > best {
			col, best = c, v
		}
	}
	return col, best, nil
}

// holding is the move of a lost position: the first, in order, after
// which the opponent cannot win at once, else the first playable.
func holding(p solver.Position, order []int) int {
	first := -1
	for _, c := range order {
		if !p.CanPlay(c) {
			continue
		}
		if first < 0 {
			first = c
		}
		q := p
		q.Play(c)
		safe := true
		for _, d := range order {
			if q.CanPlay(d) && q.IsWinningMove(d) {
				safe = false
				break
			}
		}
		if safe {
			return c
		}
	}
	return first
}

// CentreFirst returns the columns of a board of n columns by their
// distance from the centre, the left one first among equals: the order in
// which the strategy builder tries moves, and in which the bot
// (bots/alphabeta/proven) breaks ties, so that both choose alike.
func CentreFirst(n int) []int {
	cols := make([]int, n)
	for i := range cols {
		cols[i] = i
	}
	slices.SortStableFunc(cols, func(a, b int) int {
		da, db := 2*a-(n-1), 2*b-(n-1)
		return cmp.Compare(da*da, db*db)
	})
	return cols
}

// strategyJournalHeader is the first line of a strategy build's journal:
// a decision does not depend on the depth of the build, so the journal of
// one depth serves another of the same board.
func strategyJournalHeader(o StrategyOptions) string {
	if o.SlowestLoss {
		return fmt.Sprintf("kinrow book journal %dx%dx%d strategy slowest-loss\n", o.Rows, o.Cols, o.K)
	}
	return fmt.Sprintf("kinrow book journal %dx%dx%d strategy\n", o.Rows, o.Cols, o.K)
}

// openStrategyJournal opens (or creates) the journal at path, reads the
// entries it holds into decided, cuts a torn last line, and leaves the
// file open for appending.
func openStrategyJournal(path string, o StrategyOptions, decided map[uint64]Entry) (*os.File, error) {
	lim := o.Cells()/2 + 1
	return openJournalFile(path, strategyJournalHeader(o), "the same board and --slowest-loss", func(text string) error {
		fields := strings.Fields(text)
		if len(fields) != 4 || (fields[3] != "w" && fields[3] != "e") {
			return fmt.Errorf("%q: want a key in hex, a move, a score and w or e", text)
		}
		key, err1 := strconv.ParseUint(fields[0], 16, 64)
		move, err2 := strconv.Atoi(fields[1])
		score, err3 := strconv.Atoi(fields[2])
		if err := errors.Join(err1, err2, err3); err != nil {
			return err
		}
		if move < 0 || move >= o.Cols || score < -lim || score > lim {
			return fmt.Errorf("move %d, score %d: want a column 0..%d and a score -%d..%d", move, score, o.Cols-1, lim, lim)
		}
		decided[key] = Entry{Score: score, Move: move, Weak: fields[3] == "w"}
		return nil
	})
}
