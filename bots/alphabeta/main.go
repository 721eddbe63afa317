package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/kinrow/kinrow/bots/alphabeta/book"
	"github.com/kinrow/kinrow/bots/alphabeta/proven"
	"github.com/kinrow/kinrow/bots/alphabeta/quick"
	"github.com/kinrow/kinrow/bots/alphabeta/search"
	"github.com/kinrow/kinrow/bots/alphabeta/solver"
	"github.com/kinrow/kinrow/bots/alphabeta/wide"
	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// alphabeta is the bot; it keeps one searcher per rules for solving, so the
// transposition table serves every position of a solve run.
type alphabeta struct {
	mu      sync.Mutex
	solvers map[solverKey]*search.Searcher
	boards  map[solverKey]*solver.Solver // 64-bit bitboard solvers
	wides   map[solverKey]*wide.Searcher // multi-word bitboard searchers
	gameMu  sync.Mutex
	last    *player // the searchers of the last game, reused by the next (gameMu)
	lastKey gameKey
	play    playBooks // books and solve-time estimates for play (gameMu)
}

// solverKey: a solver serves the requests of one rules and table size.
type solverKey struct {
	rules engine.Rules
	ttMiB int
}

// ttOf returns a solve request's table size: its tt option (checked by the
// SDK against Info) or the default.
func ttOf(req botapi.SolveRequest) int {
	if v, err := strconv.Atoi(req.Options["tt"]); err == nil && v > 0 {
		return v
	}
	return solver.DefaultTTMiB
}

// threadsOf returns a solve request's threads option (checked by the SDK
// against Info), 1 when unset.
func threadsOf(req botapi.SolveRequest) int {
	if v, err := strconv.Atoi(req.Options["threads"]); err == nil && v > 0 {
		return v
	}
	return 1
}

func (*alphabeta) Info() botapi.Info {
	return botapi.Info{
		Name: "alphabeta", Version: "0.1", Author: "kinrow", Strength: 40,
		// Every variant: the bitboards (solver, wide) play freestyle Connect-X;
		// the general search, on the engine's board, follows the line rule.
		Kinds: engine.Variants(),
		Options: []botapi.Option{
			{Name: "tt", Type: botapi.OptionInt, Default: "64", Min: 1, Max: 4096, Help: "transposition table size in MiB"},
			{Name: "threads", Type: botapi.OptionInt, Default: "1", Min: 1, Max: 64, Help: "threads searching one position when solving Connect-X (kinrow solve --threads)"},
			{Name: "branching", Type: botapi.OptionInt, Default: "16", Min: 1, Max: 256, Help: "candidate moves searched per node (not when solving)"},
			{Name: "book", Type: botapi.OptionString, Default: "default", Help: "Connect-X opening book: a file of kinrow book build, default (the book shipped for the board, if any) or none"},
		},
	}
}

// isWide reports whether r is a freestyle Connect-X board past 64 bits
// that package wide holds (up to 64 rows).
func isWide(r engine.Rules) bool {
	return r.Gravity() && r.Line == engine.Freestyle && (r.Rows+1)*r.Cols > 64 && wide.Fits(r.Rows, r.Cols, r.K)
}

// gameKey: a new game reuses the searchers of the last one when rules and
// options are the same.
type gameKey struct {
	rules         engine.Rules
	tt, branching int
	book          string
}

// NewGame returns the player of a game. Its searchers (and their tables,
// up to tt MiB each) are the last game's when rules and options match: the
// SDK plays one game at a time, and a fresh 64 MiB table faulted in during
// the first moves costs tens of milliseconds of a 100 ms move.
func (a *alphabeta) NewGame(_ context.Context, g sdk.Game) (sdk.Player, error) {
	key := gameKey{g.Rules, int(g.Values.Int("tt")), int(g.Values.Int("branching")), g.Values.Get("book")}
	a.gameMu.Lock()
	defer a.gameMu.Unlock()
	if a.last == nil || a.lastKey != key {
		pl, err := newPlayer(key)
		if err != nil {
			return nil, err
		}
		if err := a.play.attach(pl, key.rules, key.book); err != nil {
			return nil, err
		}
		a.last, a.lastKey = pl, key
	}
	pl := *a.last
	pl.clock = g.Time
	if pl.exact != nil {
		pl.proven = proven.NewPlayer(pl.exact, pl.book, pl.est)
	}
	if pl.wide != nil {
		pl.wide.SetEarlyStop(g.Time.Main > 0 || g.Time.Byo > 0)
	}
	return &pl, nil
}

// newPlayer builds the searchers for a game of key's rules and options.
func newPlayer(key gameKey) (*player, error) {
	if r := key.rules; isWide(r) {
		w, err := wide.New(r.Rows, r.Cols, r.K, key.tt)
		if err != nil {
			return nil, fmt.Errorf("alphabeta: %w", err)
		}
		w.SetBranching(key.branching)
		return &player{wide: w}, nil
	}
	if r := key.rules; r.Gravity() && r.Line == engine.Freestyle && (r.Rows+1)*r.Cols <= 64 {
		exact, err := solver.New(r.Rows, r.Cols, r.K, key.tt)
		if err != nil {
			return nil, err
		}
		return &player{exact: exact, quick: quick.New(r.Rows, r.Cols, r.K, min(key.tt, quickMiB))}, nil
	}
	s, err := search.New(key.rules, search.Options{TTMiB: key.tt, MaxBranch: key.branching})
	if err != nil {
		return nil, err
	}
	return &player{s: s}, nil
}

// quickMiB bounds the heuristic search's table: it is touched in full when
// made (about 15 ms for 16 MiB), and a move of a second fills a few
// million nodes at most.
const quickMiB = 16

// player answers each move with an iterative-deepening search; on
// Connect-X boards that fit a 64-bit bitboard it plays its book's move or
// solves the position exactly within part of the time, and else searches
// the solver's bitboard heuristically (package quick); larger Connect-X
// boards (up to 64 rows) are searched on package wide's multi-word
// bitboard; every other game on the engine's board (package search).
type player struct {
	s     *search.Searcher // nil when exact or wide is set
	exact *solver.Solver   // nil when the board does not fit
	quick *quick.Searcher  // set with exact
	wide  *wide.Searcher   // set for Connect-X boards past 64 bits
	clock botapi.TimeControl
	// With exact: the opening book (nil for none), the solve-time
	// estimate every game shares, and this game's proven play.
	book   *book.Book
	est    *proven.Estimator
	proven *proven.Player
}

func (p *player) GenMove(ctx context.Context, pos *engine.Position, report func(botapi.Progress)) (engine.Move, error) {
	deadline := sdk.SearchDeadline(ctx, p.clock, pos)
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	if p.wide != nil {
		return p.wideMove(ctx, pos, report)
	}
	if p.proven != nil {
		cols := columns(pos)
		if m, ok := p.proven.Proven(ctx, cols, deadline); ok {
			report(botapi.Progress{Depth: pos.Rules().Cells() - pos.Ply(), Score: m.Score, BestMove: pos.Rules().FormatMove(engine.Move(m.Col)), Nodes: int64(m.Nodes)})
			return engine.Move(m.Col), nil
		}
		// The search, in what is left, and a check of its move against
		// a value proven earlier in the game: half the time left for the
		// check when there is a value to defend, else a quarter.
		share := time.Until(deadline) * 3 / 4
		if p.proven.HasValue(len(cols)) {
			share = time.Until(deadline) / 2
		}
		sctx, cancel := context.WithDeadline(ctx, time.Now().Add(share))
		defer cancel()
		q := p.exact.NewPosition()
		for _, c := range cols {
			q.Play(c)
		}
		col, _, err := p.quick.BestMove(sctx, q, func(r quick.Report) {
			report(botapi.Progress{Depth: r.Depth, Score: r.Score(q), BestMove: pos.Rules().FormatMove(engine.Move(r.Col)), Nodes: int64(r.Nodes)})
		})
		if err != nil {
			return engine.NoMove, fmt.Errorf("alphabeta: %w", err)
		}
		return engine.Move(p.proven.Keep(ctx, cols, col, deadline)), nil
	}
	m, _, err := p.s.BestMove(ctx, pos, func(r search.Report) {
		report(botapi.Progress{Depth: r.Depth, Score: int(r.Score), BestMove: pos.Rules().FormatMove(r.Best), Nodes: int64(r.Nodes)})
	})
	return m, err
}

// wideMove searches pos on package wide's board by iterative deepening to
// the deadline and returns the best move of the last finished iteration.
func (p *player) wideMove(ctx context.Context, pos *engine.Position, report func(botapi.Progress)) (engine.Move, error) {
	r := pos.Rules()
	rep, err := p.wide.BestMove(ctx, columns(pos), func(w wide.Report) {
		score := int(w.Value)
		if w.Exact || w.Win {
			score = w.Score
		}
		report(botapi.Progress{Depth: w.Depth, Score: score, BestMove: r.FormatMove(engine.Move(w.Best)), Nodes: int64(w.Nodes)})
	})
	if err != nil {
		return 0, fmt.Errorf("alphabeta: %w", err)
	}
	return engine.Move(rep.Best), nil
}

// columns returns the moves of a Connect-X game as 0-based columns.
func columns(pos *engine.Position) []int {
	var cols []int
	for _, m := range pos.Moves(nil) {
		cols = append(cols, int(m))
	}
	return cols
}

// Solve proves a position: weak (1, 0, -1) for every board; for Connect-X
// the exact score too, from the distance to the win.
func (a *alphabeta) Solve(ctx context.Context, pos *engine.Position, req botapi.SolveRequest) (botapi.SolveReply, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if r := pos.Rules(); r.Gravity() && r.Line == engine.Freestyle && (r.Rows+1)*r.Cols <= 64 {
		return a.solveBitboard(ctx, pos, req)
	}
	if isWide(pos.Rules()) {
		return a.solveWide(ctx, pos, req)
	}
	key := solverKey{pos.Rules(), ttOf(req)}
	s := a.solvers[key]
	if s == nil {
		var err error
		if s, err = search.New(pos.Rules(), search.Options{TTMiB: key.ttMiB}); err != nil {
			return botapi.SolveReply{}, err
		}
		clear(a.solvers) // one table at a time
		a.solvers[key] = s
	}
	value := func(q *engine.Position) (int, error) {
		if q.Result() != engine.Open {
			return 0, fmt.Errorf("the game is over")
		}
		v, err := s.Value(ctx, q)
		if err != nil {
			return 0, err
		}
		if req.Weak {
			return cmp.Compare(int(v), 0), nil
		}
		return search.Score(q, v), nil
	}
	v, err := value(pos)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
			return botapi.SolveReply{ID: req.ID, Nodes: int64(s.Nodes())}, nil
		}
		return botapi.SolveReply{ID: req.ID, Error: err.Error()}, nil
	}
	reply := botapi.SolveReply{ID: req.ID, Known: true, Score: v}
	if req.Analyze {
		win := search.Score(pos, search.Win-1) // a move that wins at once
		if req.Weak {
			win = 1
		}
		var ok bool
		reply.Scores, reply.Valid, ok = sdk.AnalyzeMoves(pos, win, func(q *engine.Position) (int, bool, error) {
			v, err := value(q)
			return v, err == nil, err
		})
		if !ok {
			return botapi.SolveReply{ID: req.ID, Nodes: int64(s.Nodes())}, nil
		}
	}
	reply.Nodes = int64(s.Nodes())
	return reply, nil
}

// solveBitboard answers a Connect-X request with the 64-bit bitboard
// solver, whose table is kept across the requests of a run.
func (a *alphabeta) solveBitboard(ctx context.Context, pos *engine.Position, req botapi.SolveRequest) (botapi.SolveReply, error) {
	r := pos.Rules()
	key := solverKey{r, ttOf(req)}
	sv := a.boards[key]
	if sv == nil {
		var err error
		if sv, err = solver.New(r.Rows, r.Cols, r.K, key.ttMiB); err != nil {
			return botapi.SolveReply{}, err
		}
		clear(a.boards) // one table at a time
		a.boards[key] = sv
	}
	sv.SetThreads(threadsOf(req))
	p := sv.NewPosition()
	for _, m := range pos.Moves(nil) {
		p.Play(int(m))
	}
	reply := botapi.SolveReply{ID: req.ID}
	score, err := sv.Solve(ctx, p, req.Weak)
	if err != nil {
		if ctx.Err() != nil {
			return reply, nil // unknown within the time limit
		}
		return botapi.SolveReply{ID: req.ID, Error: err.Error()}, nil
	}
	reply.Known, reply.Score = true, score
	if req.Analyze {
		scores, err := sv.Analyze(ctx, p, req.Weak)
		if err != nil {
			return botapi.SolveReply{ID: req.ID}, nil
		}
		for _, v := range scores {
			reply.Scores = append(reply.Scores, max(v, -1<<20))
			reply.Valid = append(reply.Valid, v != solver.Invalid)
		}
	}
	reply.Nodes = int64(sv.Nodes())
	return reply, nil
}

// solveWide answers a Connect-X request past 64 bits with package wide's
// exact search, whose table is kept across the requests of a run.
func (a *alphabeta) solveWide(ctx context.Context, pos *engine.Position, req botapi.SolveRequest) (botapi.SolveReply, error) {
	r := pos.Rules()
	key := solverKey{r, ttOf(req)}
	w := a.wides[key]
	if w == nil {
		var err error
		if w, err = wide.New(r.Rows, r.Cols, r.K, key.ttMiB); err != nil {
			return botapi.SolveReply{}, fmt.Errorf("alphabeta: %w", err)
		}
		clear(a.wides) // one table at a time
		a.wides[key] = w
	}
	moves := columns(pos)
	reply := botapi.SolveReply{ID: req.ID}
	score, err := w.Solve(ctx, moves, req.Weak)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
			reply.Nodes = int64(w.Nodes())
			return reply, nil // unknown within the time limit
		}
		return botapi.SolveReply{ID: req.ID, Error: err.Error()}, nil
	}
	reply.Known, reply.Score = true, score
	if req.Analyze {
		scores, err := w.Analyze(ctx, moves, req.Weak)
		if err != nil {
			return botapi.SolveReply{ID: req.ID, Nodes: int64(w.Nodes())}, nil
		}
		for _, v := range scores {
			reply.Scores = append(reply.Scores, max(v, -1<<20))
			reply.Valid = append(reply.Valid, v != wide.Invalid)
		}
	}
	reply.Nodes = int64(w.Nodes())
	return reply, nil
}

// newAlphabeta returns the bot with no searcher kept yet.
func newAlphabeta() *alphabeta {
	return &alphabeta{solvers: map[solverKey]*search.Searcher{}, boards: map[solverKey]*solver.Solver{}, wides: map[solverKey]*wide.Searcher{}}
}

func main() {
	sdk.Serve(newAlphabeta())
}
