package pns

import (
	"errors"
	"fmt"

	"github.com/kinrow/kinrow/bots/pndb/dbsearch"
	"github.com/kinrow/kinrow/engine"
)

// Goal is what a search tries to prove for the attacker.
type Goal uint8

const (
	// Win: the attacker (side to move at the root) wins.
	Win Goal = iota
	// NotLose: the attacker wins or draws.
	NotLose
)

// Outcome is the answer of a search.
type Outcome int8

const (
	// Unknown: the search stopped before deciding.
	Unknown Outcome = iota
	// Proved: the goal holds.
	Proved
	// Disproved: the goal does not hold.
	Disproved
)

// String names the outcome.
func (o Outcome) String() string {
	switch o {
	case Proved:
		return "proved"
	case Disproved:
		return "disproved"
	}
	return "unknown"
}

// Reasons a search stopped with an Unknown outcome (see Stats.Stopped).
var (
	ErrMemory = errors.New("pns: node table full (mem budget)")
	ErrBudget = errors.New("pns: expansion budget spent")
)

// Inf is the proof or disproof number of a decided node.
const Inf uint32 = 1 << 30

// SmallBoard is the largest m,n,k board (in cells) on which every empty cell
// is a candidate move.
const SmallBoard = 64

// SymmetryMaxCells is the largest m,n,k board (in cells) whose table is
// keyed by symmetric keys. Past it, the symmetric images of a position are
// rarely both searched (the root has stones already; moves are only near
// them) and the keys cost about a fifth of the expansions per second
// (BenchmarkExpandSymmetry, 10x10x5: 36 k/s against 48 k/s plain).
const SymmetryMaxCells = 100

// Options configure a Searcher.
type Options struct {
	// MemMiB bounds the node table; 0 means 256. The table is allocated
	// once, MemMiB MiB of BytesPerNode-byte slots.
	MemMiB int
	// MaxExpansions bounds the expansions of one Prove call; 0: no bound.
	MaxExpansions int64
	// DBNodes caps the DB nodes of each DB-search run at an expanded leaf
	// (package dbsearch); 0: no DB-search.
	DBNodes int
	// DBMaxPly limits DB-search to the leaves fewer than DBMaxPly plies
	// below the root; 0: every leaf.
	DBMaxPly int
	// NoSymmetry keys the table by the plain Zobrist hash: positions that
	// are mirror images of each other get a node each (see sym.go).
	// Symmetric keys are used on Connect-X and on m,n,k boards of at most
	// SymmetryMaxCells cells only.
	NoSymmetry bool
}

// step is one node of the current descent path.
type step struct {
	hash uint64      // canonical position key (without the context salt)
	move engine.Move // the move that led here (unused at the root)
}

// Stats describe the last Prove call (Reused, GCs, Collapsed: since the
// last root change).
type Stats struct {
	Expanded  int64 // nodes expanded
	Total     int64 // nodes expanded since New, by every Prove call
	Nodes     int   // table entries in use
	Capacity  int   // table slots
	Reused    int   // entries reachable from the root when it changed (kept from earlier moves)
	GCs       int   // collections: unreachable nodes and proved subtrees dropped
	Collapsed int   // collections that also cut the tree below a depth

	DBSearches int64 // DB-search runs (at most two per expansion)
	DBWins     int64 // leaves where DB-search found a win for the side to move
	DBThreats  int64 // leaves where it found one for the opponent (implicit threat)
	Stopped    error // why an Unknown outcome stopped: ctx error, ErrMemory, ErrBudget
}

// Searcher proves positions of one rules. It is not safe for concurrent
// use. It keeps its table across Prove calls: a later call on a position
// reached from an earlier root reuses what was found (see package doc).
type Searcher struct {
	rules engine.Rules
	opt   Options
	all   bool // every legal move is a candidate

	tab      table
	pos      *engine.Position
	near     []int16 // m,n,k: stones within distance 2 of each cell
	attacker engine.Color
	goal     Goal
	salt     uint64 // key salt of (goal, attacker)
	other    uint64 // key salt of the other goal, same attacker
	rooted   bool   // pos, root and attacker are set
	root     uint64 // canonical key of the current root
	rootHash uint64 // Zobrist hash of the current root (its orientation)
	sym      symmetry
	cover    []int32 // dead.go: live windows through each cell; nil: not counted
	path     []step
	moves    [][]engine.Move // candidate buffers per depth
	played   []engine.Move   // scratch: the moves of the working position
	stats    Stats
	work     int        // children visited since the last look at ctx
	total    int64      // expansions since New
	epoch    uint8      // GC mark of the current pass
	marked   int        // entries marked by the current pass
	hist     []int      // marked entries per depth of first visit
	abort    bool       // the mark pass ran out of time
	lastGC   int64      // total expansions at the last collection
	used     [2][2]bool // [goal][attacker]: the context has entries

	db       *dbsearch.Searcher // nil: no DB-search
	cellMark []uint32           // cells of the last implicit threat (== stamp)
	stamp    uint32
}

// checkWork: ctx is looked at after this many children visited (and every
// 256 iterations), so that wide boards stop in time.
const checkWork = 2048

// New returns a searcher for r; it allocates the whole node table.
func New(r engine.Rules, opt Options) (*Searcher, error) {
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("pns: %w", err)
	}
	if opt.MemMiB <= 0 {
		opt.MemMiB = 256
	}
	db, err := newDB(r, opt)
	if err != nil {
		return nil, fmt.Errorf("pns: %w", err)
	}
	return &Searcher{
		db:     db,
		rules:  r,
		opt:    opt,
		tab:    newTable(opt.MemMiB << 20 / BytesPerNode),
		lastGC: -1,
		all:    r.Gravity() || r.Cells() <= SmallBoard,
		sym:    newSymmetry(r, !opt.NoSymmetry && (r.Gravity() || r.Cells() <= SymmetryMaxCells)),
		cover:  newCover(r),
	}, nil
}

// Stats returns the figures of the last Prove call.
func (s *Searcher) Stats() Stats {
	s.stats.Nodes, s.stats.Total, s.stats.Capacity = s.tab.live, s.total, s.tab.capacity()
	return s.stats
}

// MaxNodes is the number of entries the table holds before it collects.
func (s *Searcher) MaxNodes() int { return s.tab.limit() }

// saltOf returns the key salt of a goal and attacker: the entries of the
// four contexts share the table without mixing.
func saltOf(g Goal, attacker engine.Color) uint64 {
	return [2][2]uint64{
		{0x243f6a8885a308d3, 0x13198a2e03707344},
		{0xa4093822299f31d0, 0x082efa98ec4e6c89},
	}[g&1][attacker&1]
}

// Reset empties the table.
func (s *Searcher) Reset() {
	s.tab.reset()
	s.rooted = false
	s.used = [2][2]bool{}
}
