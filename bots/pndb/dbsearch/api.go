package dbsearch

import (
	"fmt"

	"github.com/kinrow/kinrow/engine"
)

// Options bounds one Search.
type Options struct {
	// MaxSequences is the number of winning sequences checked against a
	// global defence per Search (0: DefaultMaxSequences).
	MaxSequences int
	// MaxNodes caps the DB nodes of one Search, bounding its time (0:
	// DefaultMaxNodes, suited to one PN leaf).
	MaxNodes int
}

// Defaults for the zero Options.
const (
	DefaultMaxSequences = 8
	DefaultMaxNodes     = 2000
)

// Result is the outcome of one Search. Its slices stay valid until the next
// Search on the same Searcher.
type Result struct {
	// Win reports a threat sequence that the global-defence replay proved:
	// the attacker, moving first, wins against every defence (see doc.go).
	Win bool
	// First is the engine cell index (row*cols+col) of the attacker's first
	// gain square; -1 if !Win.
	First int
	// Cells lists every cell the winning sequence uses: First, the gain
	// squares, cost squares and the empty cells of the final line(s), then
	// the cells where the defender makes a four (its counter-threats); a
	// defender move outside them is not expected to stop the attack
	// (Allis's related squares: a strong hint for move ordering, not a
	// proof). Cells may repeat.
	Cells []int
	// Threats is the number of threats in the sequence (0 when the attacker
	// has a winning cell already).
	Threats int
}

// Stats counts the work of a Searcher since New.
type Stats struct {
	// Searches is the number of Search calls.
	Searches int64
	// Nodes is the number of DB nodes (threats applied) over all searches.
	Nodes int64
	// Sequences is the number of winning sequences checked against a global defence.
	Sequences int64
}

// Searcher runs DB-searches for one set of rules, reusing its buffers; it is
// not safe for concurrent use.
type Searcher struct {
	rules engine.Rules
	opt   Options
	stats Stats
	b     *board
	// att and def are the attacker's and the defender's sides on b (the
	// engine's colours) in the current Search.
	att, def int8
	keys     []uint64 // per cell, for the hash of a threat set

	// The threats applied on b over pos, in no order (see apply.go); refs
	// counts the applied threats holding each cell; tmark and tstamp mark
	// sets of threats as board.mark does cells.
	cur    []int32
	refs   []int32
	tmark  []uint32
	tstamp uint32

	tree    []dbNode // the DB tree, root first
	lists   []int32  // threat indices of the nodes' lists
	threats []threat
	costs   []int32
	goals   []goal
	cand    []int32
	table   []uint64 // hashes of the nodes made in this search
	slots   []int32  // the table's used slots, cleared by the next search

	// The verifier's state.
	seq    []int32 // the attacker's gain cells, in order
	stk    []int32 // move lists of the open verifier nodes
	ftmp   []int32 // the attacker's double-four moves being broken
	first  int
	vply   int
	vabort bool
	spent  int // nodes spent in this search (DB nodes, verifier nodes)
	plies  int // the ply bound of the last verification
	vlimit int // spent may not pass it in this verification

	out []int
}

// New returns a Searcher for r, any Connect-X or m,n,k rules the engine allows.
func New(r engine.Rules, opt Options) (*Searcher, error) {
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("dbsearch: %w", err)
	}
	if r.Line != engine.Freestyle {
		return nil, fmt.Errorf("dbsearch: %s: only freestyle is proved (its threats assume every line of K wins and no move is forbidden)", r)
	}
	if opt.MaxSequences <= 0 {
		opt.MaxSequences = DefaultMaxSequences
	}
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = DefaultMaxNodes
	}
	s := &Searcher{rules: r, opt: opt, b: newBoard(r)}
	s.keys = make([]uint64, r.Cells())
	s.refs = make([]int32, r.Cells())
	for i := range s.keys {
		s.keys[i] = engine.ZobristKey(i, engine.X) // any distinct keys: XORed only among themselves
	}
	size := 1024
	for size < 4*opt.MaxNodes {
		size *= 2
	}
	s.table = make([]uint64, size)
	return s, nil
}

// Stats returns the work counted since New.
func (s *Searcher) Stats() Stats { return s.stats }
