package main

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/kinrow/kinrow/bots/pndb/pns"
	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// pndb is the bot. Solve keeps one searcher per rules and budget; games
// take over the searcher of the previous game when its rules and budget
// match (its table is allocated once: mem MiB).
type pndb struct {
	mu     sync.Mutex
	solver *pns.Searcher
	key    solveKey
	game   *pns.Searcher // the searcher of the last game
	gkey   solveKey
}

type solveKey struct {
	rules engine.Rules
	mem   int
	db    int
}

// defaultDB is the default of the db option: DB nodes per DB-search at a
// leaf (0: no DB-search).
const defaultDB = 100

// dbOptions sets the DB-search options of the searcher for db on r:
// DB-search runs on m,n,k boards with a side longer than K (where threats
// abound), and on boards of more than pns.SmallBoard cells only at the
// root and its children. Measured (Solve from the empty board, db=100):
// mnk:6x5x4 3.7 s and 54 k expansions with it, 3.8-6.4 s and 190 k
// without; mnk:4x4x4 25 s with it, 15 s without; connectx:4x6x4 99 s and
// 4.8 M expansions with it, 31 s and 3.2 M without; on gomoku one
// DB-search costs as much as 20 expansions.
func dbOptions(r engine.Rules, db int, o pns.Options) pns.Options {
	if r.Gravity() || max(r.Rows, r.Cols) <= r.K {
		return o
	}
	o.DBNodes = db
	if r.Cells() > pns.SmallBoard {
		o.DBMaxPly = 2
	}
	return o
}

func (*pndb) Info() botapi.Info {
	return botapi.Info{
		Name: "pndb", Version: "0.1", Author: "kinrow", Strength: 30,
		// Freestyle only: the threat operators and the proofs assume that
		// every line of K wins and no move is forbidden.
		Kinds: []string{"connectx", "mnk"},
		Options: []botapi.Option{
			{Name: "mem", Type: botapi.OptionInt, Default: "256", Min: 1, Max: 65536, Help: "node table budget in MiB"},
			{Name: "db", Type: botapi.OptionInt, Default: fmt.Sprint(defaultDB), Min: 0, Max: 1 << 20, Help: "DB-search nodes per expanded leaf on m,n,k boards with a side longer than K (0: no DB-search)"},
		},
	}
}

func (b *pndb) NewGame(_ context.Context, g sdk.Game) (sdk.Player, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	key := solveKey{g.Rules, int(g.Values.Int("mem")), int(g.Values.Int("db"))}
	if b.game != nil && b.gkey == key {
		b.game.Reset()
		return &player{s: b.game, clock: g.Time}, nil
	}
	if b.game != nil {
		b.game = nil
		runtime.GC() // free the old table before the new one is allocated: mem bounds the process
	}
	s, err := pns.New(g.Rules, dbOptions(g.Rules, key.db, pns.Options{MemMiB: key.mem}))
	if err != nil {
		return nil, fmt.Errorf("pndb: %w", err)
	}
	b.game, b.gkey = s, key
	return &player{s: s, clock: g.Time}, nil
}

// player proves what it can within the move time. Its searcher is kept
// across moves: each search starts from the nodes of the earlier ones that
// are reachable from the new position.
type player struct {
	s     *pns.Searcher
	clock botapi.TimeControl
	buf   []engine.Move
	pv    []engine.Move
}

func (p *player) GenMove(ctx context.Context, pos *engine.Position, report func(botapi.Progress)) (engine.Move, error) {
	quick := pns.QuickMove(pos, p.buf[:0])
	if quick.Forced {
		return quick.Move, nil // win now or the only block
	}
	deadline := sdk.SearchDeadline(ctx, p.clock, pos)
	if time.Until(deadline) <= 0 {
		return quick.Move, nil
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	best := quick.Move
	for _, goal := range []pns.Goal{pns.Win, pns.NotLose} {
		o, err := p.s.Prove(ctx, pos, goal)
		if err != nil {
			return quick.Move, nil
		}
		st := p.s.Stats()
		m, proved := p.s.Best()
		p.pv = p.s.PV(p.pv[:0], 8)
		pv := make([]string, len(p.pv))
		for i, mv := range p.pv {
			pv[i] = pos.Rules().FormatMove(mv)
		}
		report(botapi.Progress{Depth: int(goal), Nodes: st.Expanded, BestMove: pos.Rules().FormatMove(m), Score: score(goal, o), PV: pv})
		if proved && m != engine.NoMove {
			return m, nil
		}
		if m != engine.NoMove {
			best = m // the least proof ratio: among draws-or-better after a disproved Win
		}
		if o != pns.Disproved {
			break // unknown: no time left for the next goal
		}
	}
	if best == engine.NoMove || !pos.Legal(best) {
		best = quick.Move
	}
	return best, nil
}

// score is the progress score of a search: +1 proved win, 0 proved draw,
// -1 disproved not-losing, else 0.
func score(g pns.Goal, o pns.Outcome) int {
	switch {
	case g == pns.Win && o == pns.Proved:
		return 1
	case g == pns.NotLose && o == pns.Disproved:
		return -1
	}
	return 0
}

// Solve answers weak requests: 1, 0 or -1 for the side to move; with
// Analyze, the same per move. Exact scores are not computed.
func (b *pndb) Solve(ctx context.Context, pos *engine.Position, req botapi.SolveRequest) (botapi.SolveReply, error) {
	if !req.Weak {
		return botapi.SolveReply{ID: req.ID, Error: "pndb solves weakly: use --weak"}, nil
	}
	if pos.Result() != engine.Open {
		return botapi.SolveReply{ID: req.ID, Error: "the game is over"}, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	mem, db := 256, defaultDB
	if v, ok := req.Options["mem"]; ok {
		if _, err := fmt.Sscan(v, &mem); err != nil || mem < 1 {
			return botapi.SolveReply{ID: req.ID, Error: fmt.Sprintf("mem %q: want a positive integer", v)}, nil
		}
	}
	if v, ok := req.Options["db"]; ok {
		if _, err := fmt.Sscan(v, &db); err != nil || db < 0 {
			return botapi.SolveReply{ID: req.ID, Error: fmt.Sprintf("db %q: want a non-negative integer", v)}, nil
		}
	}
	key := solveKey{pos.Rules(), mem, db}
	if b.solver == nil || b.key != key {
		if b.solver != nil {
			b.solver = nil
			runtime.GC() // free the old table first
		}
		s, err := pns.New(pos.Rules(), dbOptions(pos.Rules(), db, pns.Options{MemMiB: mem}))
		if err != nil {
			return botapi.SolveReply{ID: req.ID, Error: err.Error()}, nil
		}
		b.solver, b.key = s, key
	}
	s := b.solver
	var nodes int64
	value := func(q *engine.Position) (int, bool, error) {
		v, known, err := s.Solve(ctx, q)
		nodes += s.Stats().Expanded
		return v, known, err
	}
	v, known, err := value(pos)
	if err != nil {
		return botapi.SolveReply{ID: req.ID, Error: err.Error()}, nil
	}
	reply := botapi.SolveReply{ID: req.ID, Known: known, Score: v}
	if known && req.Analyze {
		var ok bool
		if reply.Scores, reply.Valid, ok = sdk.AnalyzeMoves(pos, 1, value); !ok {
			return botapi.SolveReply{ID: req.ID, Nodes: nodes}, nil
		}
	}
	reply.Nodes = nodes
	return reply, nil
}

func main() { sdk.Serve(&pndb{}) }
