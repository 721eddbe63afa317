package book

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kinrow/kinrow/bots/alphabeta/solver"
)

// Options say what Build makes and how.
type Options struct {
	Geometry
	// Plies: every position of at most Plies stones goes in the book.
	Plies int
	// Jobs is the number of positions solved at once, a solver each
	// (GOMAXPROCS when <= 0).
	Jobs int
	// TTMiB is each solver's table size (solver.DefaultTTMiB when <= 0).
	TTMiB int
	// Journal, when set, is the file where every proven frontier score is
	// appended at once, and from which a stopped build resumes.
	Journal string
	// Progress, when set, is called from Build's goroutine with the
	// number of frontier positions proven and their total, first before
	// any is solved, then after each.
	Progress func(done, total int)
}

// level maps the folded keys of the positions of one number of stones to
// a move sequence (0-based columns, one byte each) that reaches them.
type level map[uint64]string

// Frontier returns the move sequences of the positions of exactly plies
// stones of g whose game is not over, mirrors folded, in depth-first
// order (siblings side by side, which keeps a solver's table useful from
// one to the next).
func Frontier(g Geometry, plies int) ([]string, error) {
	levels, err := enumerate(g, plies)
	if err != nil {
		return nil, err
	}
	return sortedSeqs(levels[plies]), nil
}

func sortedSeqs(l level) []string {
	out := make([]string, 0, len(l))
	for _, s := range l {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// enumerate lists the positions of 0..plies stones of g that are not over.
func enumerate(g Geometry, plies int) ([]level, error) {
	if err := g.Check(); err != nil {
		return nil, err
	}
	if plies < 0 || plies > g.Cells() || plies > 255 {
		return nil, fmt.Errorf("book: plies %d: want 0..%d", plies, min(g.Cells(), 255))
	}
	sv, err := solver.New(g.Rows, g.Cols, g.K, 1)
	if err != nil {
		return nil, fmt.Errorf("book: %w", err)
	}
	levels := []level{{NewBoard(g).Fold(): ""}}
	for d := 0; d < plies; d++ {
		next := level{}
		for _, seq := range sortedSeqs(levels[d]) {
			p, b := replay(sv, g, seq)
			for c := 0; c < g.Cols; c++ {
				if !p.CanPlay(c) || p.IsWinningMove(c) || d+1 == g.Cells() {
					continue
				}
				cb := b
				cb.Play(c)
				k := cb.Fold()
				if _, ok := next[k]; !ok {
					next[k] = seq + string(rune(c))
				}
			}
		}
		levels = append(levels, next)
	}
	return levels, nil
}

// replay plays seq on sv's empty position and on a Board.
func replay(sv *solver.Solver, g Geometry, seq string) (solver.Position, Board) {
	p := sv.NewPosition()
	b := NewBoard(g)
	for i := 0; i < len(seq); i++ {
		p.Play(int(seq[i]))
		b.Play(int(seq[i]))
	}
	return p, b
}

// Build makes the book of o.Geometry up to o.Plies: see the package doc.
// Cancelling ctx stops it; with a journal, everything proven so far is
// kept for the next run.
func Build(ctx context.Context, o Options) (*Book, error) {
	levels, err := enumerate(o.Geometry, o.Plies)
	if err != nil {
		return nil, err
	}
	g, n := o.Geometry, o.Plies
	frontier := sortedSeqs(levels[n])
	proven := make(map[uint64]int, len(frontier))
	var journal *os.File
	if o.Journal != "" {
		if journal, err = openJournal(o.Journal, g, n, levels[n], proven); err != nil {
			return nil, err
		}
		defer journal.Close()
	}
	var todo []string
	for _, seq := range frontier {
		b, _ := Play(g, seqCols(seq))
		if _, ok := proven[b.Fold()]; !ok {
			todo = append(todo, seq)
		}
	}
	if o.Progress != nil {
		o.Progress(len(proven), len(frontier))
	}
	if err := solveAll(ctx, o, todo, func(key uint64, score int) error {
		proven[key] = score
		if journal != nil {
			if _, err := fmt.Fprintf(journal, "%x %d\n", key, score); err != nil {
				return fmt.Errorf("book: journal %s: %w", o.Journal, err)
			}
		}
		if o.Progress != nil {
			o.Progress(len(proven), len(frontier))
		}
		return nil
	}); err != nil {
		return nil, err
	}
	// Every shallower position from its children, deepest first.
	all := cloneScores(proven)
	sv, err := solver.New(g.Rows, g.Cols, g.K, 1)
	if err != nil {
		return nil, fmt.Errorf("book: %w", err)
	}
	for d := n - 1; d >= 0; d-- {
		for key, seq := range levels[d] {
			p, b := replay(sv, g, seq)
			best := math.MinInt
			for c := 0; c < g.Cols; c++ {
				if !p.CanPlay(c) {
					continue
				}
				var v int
				switch {
				case p.IsWinningMove(c):
					v = g.WinScore(d)
				case d+1 == g.Cells():
					v = 0
				default:
					cb := b
					cb.Play(c)
					s, ok := all[cb.Fold()]
					if !ok {
						return nil, fmt.Errorf("book: internal error: child %x of %v not proven", cb.Fold(), seqCols(seq))
					}
					v = -s
				}
				best = max(best, v)
			}
			all[key] = best
		}
	}
	return New(g, n, all)
}

func cloneScores(m map[uint64]int) map[uint64]int {
	out := make(map[uint64]int, len(m)*2)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// seqCols turns a sequence of level into columns.
func seqCols(seq string) []int {
	cols := make([]int, len(seq))
	for i := 0; i < len(seq); i++ {
		cols[i] = int(seq[i])
	}
	return cols
}

// solveAll solves todo with o.Jobs solvers and hands each score to done,
// from the calling goroutine.
func solveAll(ctx context.Context, o Options, todo []string, done func(uint64, int) error) error {
	solve := func(ctx context.Context, sv *solver.Solver, g Geometry, seq string) (uint64, Entry, error) {
		p, b := replay(sv, g, seq)
		s, err := sv.Solve(ctx, p, false)
		if err != nil {
			return 0, Entry{}, fmt.Errorf("book: solve %s: %w", FormatCols(seqCols(seq)), err)
		}
		return b.Fold(), Entry{Score: s, Move: -1}, nil
	}
	svs, err := newSolvers(o.Geometry, min(jobsOf(o.Jobs), max(len(todo), 1)), o.TTMiB)
	if err != nil {
		return err
	}
	return runAll(ctx, svs, o.Geometry, todo, solve, func(key uint64, e Entry) error { return done(key, e.Score) })
}

// jobsOf is the number of jobs asked for, GOMAXPROCS when jobs <= 0.
func jobsOf(jobs int) int {
	if jobs <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return jobs
}

// newSolvers returns n solvers of g with tables of ttMiB.
func newSolvers(g Geometry, n, ttMiB int) ([]*solver.Solver, error) {
	svs := make([]*solver.Solver, n)
	for i := range svs {
		sv, err := solver.New(g.Rows, g.Cols, g.K, ttMiB)
		if err != nil {
			return nil, fmt.Errorf("book: %w", err)
		}
		svs[i] = sv
	}
	return svs, nil
}

// runAll runs work on every sequence of todo, a job on each solver of
// svs at once, and hands each result to done, from the calling goroutine;
// the first error stops everything. The solvers keep their tables from
// one call to the next.
func runAll(ctx context.Context, svs []*solver.Solver, g Geometry, todo []string,
	work func(context.Context, *solver.Solver, Geometry, string) (uint64, Entry, error), done func(uint64, Entry) error) error {
	if len(todo) == 0 {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("book: stopped: %w", err)
		}
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		key uint64
		e   Entry
		err error
	}
	seqs := make(chan string)
	results := make(chan result)
	var wg sync.WaitGroup
	for _, sv := range svs[:min(len(svs), len(todo))] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seq := range seqs {
				key, e, err := work(ctx, sv, g, seq)
				select {
				case results <- result{key, e, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(seqs)
		for _, seq := range todo {
			select {
			case seqs <- seq:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	var first error
	for r := range results {
		if first != nil {
			continue
		}
		if r.err == nil {
			r.err = done(r.key, r.e)
		}
		if r.err != nil {
			first = r.err
			cancel()
		}
	}
	if first == nil && ctx.Err() != nil {
		first = fmt.Errorf("book: stopped: %w", ctx.Err())
	}
	return first
}

// FormatCols writes 0-based columns as the move list of the test files
// and `kinrow match --openings`: 1-based digits, a..z past 9.
func FormatCols(cols []int) string {
	var sb strings.Builder
	for _, c := range cols {
		if c < 9 {
			sb.WriteByte(byte('1' + c))
		} else {
			sb.WriteByte(byte('a' + c - 9))
		}
	}
	return sb.String()
}

// journalHeader is the first line of a journal of g up to plies.
func journalHeader(g Geometry, plies int) string {
	return fmt.Sprintf("kinrow book journal %dx%dx%d plies %d\n", g.Rows, g.Cols, g.K, plies)
}

// openJournal opens (or creates) the journal at path, reads the scores it
// holds into proven, cuts a torn last line, and leaves the file open for
// appending.
func openJournal(path string, g Geometry, plies int, frontier level, proven map[uint64]int) (*os.File, error) {
	return openJournalFile(path, journalHeader(g, plies), "the same board and plies", func(text string) error {
		fields := strings.Fields(text)
		if len(fields) != 2 {
			return fmt.Errorf("%q: want a key in hex and a score", text)
		}
		key, err1 := strconv.ParseUint(fields[0], 16, 64)
		score, err2 := strconv.Atoi(fields[1])
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		if _, ok := frontier[key]; !ok {
			return fmt.Errorf("key %x is no position of %d plies", key, plies)
		}
		proven[key] = score
		return nil
	})
}

// openJournalFile is the journal both builds keep: it opens (or creates)
// the file at path, writes head to a new one and refuses one that begins
// otherwise (naming same, what the build must be given to resume it),
// hands each whole line after it to parse, cuts a torn last line (no
// newline: a stop during a write) and leaves the file open for appending.
func openJournalFile(path, head, same string, parse func(text string) error) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("book: journal: %w", err)
	}
	fail := func(err error) (*os.File, error) {
		f.Close()
		return nil, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return fail(fmt.Errorf("book: journal %s: %w", path, err))
	}
	if len(data) == 0 {
		if _, err := f.WriteString(head); err != nil {
			return fail(fmt.Errorf("book: journal %s: %w", path, err))
		}
		return f, nil
	}
	if !bytes.HasPrefix(data, []byte(head)) {
		first, _, _ := strings.Cut(string(data), "\n")
		return fail(fmt.Errorf("book: journal %s is of another build (%q, this one is %q): remove it or give %s", path, first, strings.TrimSpace(head), same))
	}
	good := len(head)
	sc := bufio.NewScanner(bytes.NewReader(data[good:]))
	for line := 2; sc.Scan(); line++ {
		text := sc.Text()
		if good+len(text) == len(data) { // no newline: torn by a stop, cut
			break
		}
		if err := parse(text); err != nil {
			return fail(fmt.Errorf("book: journal %s:%d: %w", path, line, err))
		}
		good += len(text) + 1
	}
	if err := f.Truncate(int64(good)); err != nil {
		return fail(fmt.Errorf("book: journal %s: %w", path, err))
	}
	if _, err := f.Seek(int64(good), io.SeekStart); err != nil {
		return fail(fmt.Errorf("book: journal %s: %w", path, err))
	}
	return f, nil
}
