package openings

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/kinrow/kinrow/bots/alphabeta/book"
	"github.com/kinrow/kinrow/bots/alphabeta/search"
	"github.com/kinrow/kinrow/bots/alphabeta/solver"
	"github.com/kinrow/kinrow/bots/alphabeta/wide"
	"github.com/kinrow/kinrow/engine"
)

// Config says which openings to make.
type Config struct {
	Rules engine.Rules
	// Plies is the number of moves of every opening.
	Plies int
	// MaxAbsScore bounds the absolute value of every opening: an exact
	// score for Connect-X, the search's value elsewhere.
	MaxAbsScore int
	// N is the number of openings wanted.
	N int
	// Seed seeds the candidates.
	Seed uint64
	// SolveTime limits the proof of one Connect-X position (default 30s).
	SolveTime time.Duration
	// Depth is the search depth of other rules (default 6).
	Depth int
	// TTMiB is the solver's or search's table size (default 64).
	TTMiB int
	// Tries bounds the candidates drawn (default 50 per opening wanted).
	Tries int
	// Progress, when set, is called after each candidate with the
	// openings found and the candidates tried.
	Progress func(found, tried int)
}

// How says how an opening's value was established.
type How int

// The ways a value is established.
const (
	ByBook   How = iota + 1 // proven: the shipped opening book
	BySolver                // proven: the exact solver
	BySearch                // searched, not proven
	ByProof                 // proven by the search (a forced win or loss)
)

func (h How) String() string {
	switch h {
	case ByBook:
		return "proven by kinrow's opening book"
	case BySolver:
		return "proven by kinrow's exact solver"
	case BySearch:
		return "searched, not proven"
	case ByProof:
		return "proven by alphabeta's search"
	}
	return "unknown"
}

// Opening is one balanced opening.
type Opening struct {
	Moves []engine.Move
	// Score is the value for the side to move after the opening: exact
	// for Connect-X, the search's value (or a proven score) elsewhere.
	Score int
	How   How
	// Depth is the search depth (BySearch).
	Depth int
}

// ErrTooFew is returned (with the openings found) when the candidates ran
// out before N openings were found.
var ErrTooFew = errors.New("openings: too few balanced openings found")

// valuer values a position after moves.
type valuer interface {
	value(ctx context.Context, pos *engine.Position) (score int, how How, depth int, ok bool, err error)
}

// Generate draws candidates and keeps the first N distinct ones whose
// value is within MaxAbsScore. With fewer found, it returns them with
// ErrTooFew.
func Generate(ctx context.Context, c Config) ([]Opening, error) {
	r := c.Rules
	if c.Plies < 0 || c.Plies >= r.Cells() {
		return nil, fmt.Errorf("openings: plies %d: want 0..%d", c.Plies, r.Cells()-1)
	}
	if c.N < 1 {
		return nil, fmt.Errorf("openings: n %d: want at least 1", c.N)
	}
	if c.MaxAbsScore < 0 {
		return nil, fmt.Errorf("openings: max-abs-score %d: want 0 or more", c.MaxAbsScore)
	}
	if c.SolveTime <= 0 {
		c.SolveTime = 30 * time.Second
	}
	if c.Depth <= 0 {
		c.Depth = 6
	}
	if c.Tries <= 0 {
		c.Tries = 50 * c.N
	}
	v, err := newValuer(c)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(c.Seed, 0x6b696e726f77))
	sym := r.Symmetries()
	seen := map[uint64]bool{}
	var out []Opening
	for tried := 0; tried < c.Tries && len(out) < c.N; tried++ {
		if err := ctx.Err(); err != nil {
			return out, fmt.Errorf("openings: stopped: %w", err)
		}
		pos, ok := draw(rng, r, c.Plies)
		if !ok {
			continue
		}
		h := sym.Hashes(pos)
		key, _ := h.Least()
		if seen[key] {
			continue
		}
		seen[key] = true
		score, how, depth, ok, err := v.value(ctx, pos)
		if err != nil {
			return out, err
		}
		if ok && score >= -c.MaxAbsScore && score <= c.MaxAbsScore {
			out = append(out, Opening{Moves: pos.Moves(nil), Score: score, How: how, Depth: depth})
		}
		if c.Progress != nil {
			c.Progress(len(out), tried+1)
		}
	}
	if len(out) < c.N {
		return out, fmt.Errorf("%w: %d of %d after %d candidates (raise --max-abs-score, change --plies, or allow more time)", ErrTooFew, len(out), c.N, c.Tries)
	}
	return out, nil
}

// draw plays plies random moves, each uniform among the legal moves that
// leave the game open; ok is false when a game runs out of such moves.
func draw(rng *rand.Rand, r engine.Rules, plies int) (*engine.Position, bool) {
	pos := engine.NewPosition(r)
	var legal []engine.Move
	for pos.Ply() < plies {
		legal = legal[:0]
		for m := engine.Move(0); int(m) < r.MoveRange(); m++ {
			if !pos.Legal(m) {
				continue
			}
			pos.Play(m)
			open := pos.Result() == engine.Open
			pos.Undo()
			if open {
				legal = append(legal, m)
			}
		}
		if len(legal) == 0 {
			return nil, false
		}
		pos.Play(legal[rng.IntN(len(legal))])
	}
	return pos, true
}

func newValuer(c Config) (valuer, error) {
	r := c.Rules
	if r.Gravity() && r.Line == engine.Freestyle {
		g := book.Geometry{Rows: r.Rows, Cols: r.Cols, K: r.K}
		if g.Check() == nil {
			sv, err := solver.New(r.Rows, r.Cols, r.K, c.TTMiB)
			if err != nil {
				return nil, fmt.Errorf("openings: %w", err)
			}
			bk, err := book.Default(g)
			if err != nil {
				return nil, err
			}
			return &solverValuer{sv: sv, bk: bk, limit: c.SolveTime, weak: c.MaxAbsScore == 0}, nil
		}
		if wide.Fits(r.Rows, r.Cols, r.K) {
			w, err := wide.New(r.Rows, r.Cols, r.K, max(c.TTMiB, 1))
			if err != nil {
				return nil, fmt.Errorf("openings: %w", err)
			}
			return &wideValuer{w: w, limit: c.SolveTime, weak: c.MaxAbsScore == 0}, nil
		}
	}
	s, err := search.New(r, search.Options{TTMiB: c.TTMiB})
	if err != nil {
		return nil, fmt.Errorf("openings: %w", err)
	}
	return &searchValuer{s: s, depth: c.Depth}, nil
}

// solverValuer proves Connect-X positions of 64-bit boards.
type solverValuer struct {
	sv    *solver.Solver
	bk    *book.Book
	limit time.Duration
	weak  bool // only the sign is wanted (a bound of 0)
}

func (v *solverValuer) value(ctx context.Context, pos *engine.Position) (int, How, int, bool, error) {
	cols := make([]int, 0, pos.Ply())
	for _, m := range pos.Moves(nil) {
		cols = append(cols, int(m))
	}
	if v.bk != nil {
		if s, ok := v.bk.Score(cols); ok {
			return s, ByBook, 0, true, nil
		}
	}
	p := v.sv.NewPosition()
	for _, c := range cols {
		p.Play(c)
	}
	sctx, cancel := context.WithTimeout(ctx, v.limit)
	defer cancel()
	s, err := v.sv.Solve(sctx, p, v.weak)
	if err != nil {
		if ctx.Err() != nil {
			return 0, 0, 0, false, fmt.Errorf("openings: stopped: %w", ctx.Err())
		}
		return 0, 0, 0, false, nil // not proven in time: skipped
	}
	return s, BySolver, 0, true, nil
}

// wideValuer proves Connect-X positions past 64 bits.
type wideValuer struct {
	w     *wide.Searcher
	limit time.Duration
	weak  bool
}

func (v *wideValuer) value(ctx context.Context, pos *engine.Position) (int, How, int, bool, error) {
	var cols []int
	for _, m := range pos.Moves(nil) {
		cols = append(cols, int(m))
	}
	sctx, cancel := context.WithTimeout(ctx, v.limit)
	defer cancel()
	s, err := v.w.Solve(sctx, cols, v.weak)
	if err != nil {
		if ctx.Err() != nil {
			return 0, 0, 0, false, fmt.Errorf("openings: stopped: %w", ctx.Err())
		}
		return 0, 0, 0, false, nil
	}
	return s, BySolver, 0, true, nil
}

// searchValuer searches other rules to a fixed depth.
type searchValuer struct {
	s     *search.Searcher
	depth int
}

func (v *searchValuer) value(ctx context.Context, pos *engine.Position) (int, How, int, bool, error) {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var last search.Report
	done := false
	_, _, err := v.s.BestMove(sctx, pos, func(r search.Report) {
		if done {
			return
		}
		last = r
		if r.Depth >= v.depth || r.Exact {
			done = true
			cancel()
		}
	})
	if ctx.Err() != nil {
		return 0, 0, 0, false, fmt.Errorf("openings: stopped: %w", ctx.Err())
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return 0, 0, 0, false, fmt.Errorf("openings: search: %w", err)
	}
	if !done {
		return 0, 0, 0, false, nil
	}
	if last.Exact {
		return search.Score(pos, last.Score), ByProof, last.Depth, true, nil
	}
	return int(last.Score), BySearch, last.Depth, true, nil
}

// Write writes the openings in the format `kinrow match --openings`
// reads: a comment header saying how they were made, then each opening's
// value and how it was established as a comment, its moves on the next
// line.
func Write(w io.Writer, c Config, ops []Opening) error {
	r := c.Rules
	_, err := fmt.Fprintf(w, "# kinrow openings --rules %s --plies %d --max-abs-score %d -n %d --seed %d\n# %d openings, mirror images folded; scores are for the side to move after the opening\n",
		r, c.Plies, c.MaxAbsScore, c.N, c.Seed, len(ops))
	if err != nil {
		return fmt.Errorf("openings: write: %w", err)
	}
	for _, o := range ops {
		note := fmt.Sprintf("score %d, %s", o.Score, o.How)
		if o.How == BySearch {
			note = fmt.Sprintf("value %d at depth %d, %s", o.Score, o.Depth, o.How)
		}
		if _, err := fmt.Fprintf(w, "# %s\n%s\n", note, r.FormatMoveList(o.Moves)); err != nil {
			return fmt.Errorf("openings: write: %w", err)
		}
	}
	return nil
}
