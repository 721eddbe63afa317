package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind names a family of games: an index into the registry of Game
// descriptors below. Code asks the descriptor (Kind.Game, Rules.Game) what
// the family does rather than comparing kinds.
type Kind uint8

const (
	// ConnectX drops each stone to the lowest free cell of the chosen column.
	ConnectX Kind = iota + 1
	// MNK places each stone on any free cell.
	MNK

	kindEnd // one past the last kind
)

// Interchange formats and protocols outside kinrow that a family's games
// can be written in (see Game.Holds).
const (
	// FormatPSQ is Piskvork's PSQ record.
	FormatPSQ = "psq"
	// FormatSGF is SGF with GM[4] (gomoku and renju).
	FormatSGF = "sgf"
	// FormatGomocup is the Gomocup brain protocol's X,Y coordinates.
	FormatGomocup = "gomocup"
)

// games is the registry of game families, indexed by Kind: the one place a
// family is described. A new family is a new Kind constant and an entry
// here (with its presets, if it has any, and its words in RulesSyntax).
var games = [kindEnd]Game{
	ConnectX: {
		kind: ConnectX, name: "connectx", title: "Connect-X",
		gravity: true, notation: columnNotation{},
		def: Rules{ConnectX, 6, 7, 4, Freestyle},
	},
	MNK: {
		kind: MNK, name: "mnk", title: "m,n,k-game",
		notation: vertexNotation{},
		formats:  []string{FormatPSQ, FormatSGF, FormatGomocup},
		def:      Rules{MNK, 15, 15, 5, Freestyle},
	},
}

// presets are the rules named by a word, in the order PresetNames lists them.
var presets = [...]struct {
	name  string
	rules Rules
}{
	{"connect4", Rules{ConnectX, 6, 7, 4, Freestyle}},
	{"tictactoe", Rules{MNK, 3, 3, 3, Freestyle}},
	{"gomoku", Rules{MNK, 15, 15, 5, Freestyle}},
	{"gomoku-standard", Rules{MNK, 15, 15, 5, Exact}},
	{"renju", Rules{MNK, 15, 15, 5, Renju}},
}

// RulesSyntax tells what a rules string may be; error messages quote it.
const RulesSyntax = "connect4, tictactoe, gomoku, gomoku-standard, renju, connectx:RxCxK or mnk:RxCxK (rows first), " +
	"optionally followed by :exact (exactly K wins) or, for mnk with K=5, :renju"

// Game describes a family of games: how a stone is placed, what a move
// number stands for and how it is written, the board's symmetries and the
// outside formats that hold its games. Get one from Kind.Game or
// Rules.Game; the descriptors are fixed values shared by every caller.
type Game struct {
	kind     Kind
	name     string // in rules strings
	title    string // for people
	gravity  bool
	notation notation
	formats  []string // outside formats holding its games
	def      Rules    // its usual board
}

// Game returns the descriptor of kind k, or nil for an unknown kind.
func (k Kind) Game() *Game {
	if k == 0 || k >= kindEnd {
		return nil
	}
	return &games[k]
}

// Kinds lists every kind, in a fixed order.
func Kinds() []Kind {
	ks := make([]Kind, 0, kindEnd-1)
	for k := Kind(1); k < kindEnd; k++ {
		ks = append(ks, k)
	}
	return ks
}

// String returns the kind as written in a rules string: "connectx" or "mnk".
func (k Kind) String() string {
	if g := k.Game(); g != nil {
		return g.name
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// ParseKind reads a family's name in rules strings, "connectx" or "mnk"
// (case-insensitive).
func ParseKind(s string) (Kind, error) {
	for k := Kind(1); k < kindEnd; k++ {
		if strings.EqualFold(s, games[k].name) {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown game %q: accepted are %s", s, kindNames())
}

// kindNames lists the families' names for error messages: "connectx and mnk".
func kindNames() string {
	names := make([]string, 0, kindEnd-1)
	for k := Kind(1); k < kindEnd; k++ {
		names = append(names, games[k].name)
	}
	return strings.Join(names, " and ")
}

// Kind returns the family's Kind.
func (g *Game) Kind() Kind { return g.kind }

// String returns the family's name in rules strings ("connectx", "mnk"),
// "none" for the nil Game.
func (g *Game) String() string {
	if g == nil {
		return "none"
	}
	return g.name
}

// Title returns the family's name for people ("Connect-X", "m,n,k-game").
func (g *Game) Title() string { return g.title }

// Gravity tells whether a stone drops to the lowest free cell of the column
// chosen, so that a move is a column; otherwise a stone goes on any free
// cell and a move is a cell. False for the nil Game.
func (g *Game) Gravity() bool { return g != nil && g.gravity }

// MoveRange is the number of move numbers on a rows×cols board: moves are
// 0 to MoveRange-1, the columns under gravity, the cells otherwise.
func (g *Game) MoveRange(rows, cols int) int {
	if g != nil && g.gravity {
		return cols
	}
	return rows * cols
}

// SymmetryCount is the number of symmetries of a rows×cols board of the
// family (identity included; see Symmetries): the left-right mirror alone
// under gravity, which breaks the others; the 4 mirrors of a rectangle,
// the 8 of a square.
func (g *Game) SymmetryCount(rows, cols int) int {
	switch {
	case g.gravity:
		return 2
	case rows == cols:
		return 8
	}
	return 4
}

// Holds tells whether the outside format or protocol named (FormatPSQ,
// FormatSGF, FormatGomocup) can hold the family's games: those name cells,
// so only a family whose moves are cells has them. False for the nil Game.
func (g *Game) Holds(format string) bool {
	if g == nil {
		return false
	}
	for _, f := range g.formats {
		if f == format {
			return true
		}
	}
	return false
}

// Default returns the family's usual rules (Connect-4, 15×15 gomoku).
func (g *Game) Default() Rules { return g.def }
