package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Board size limits: rows and columns from MinSide to MaxSide, K from MinK to max(rows, cols).
const (
	MinSide = 1
	MaxSide = 128
	MinK    = 2
)

// Rules names a game: its kind, rows, columns, the length K of a winning
// line and its line rule (freestyle, exactly K, renju; see Line).
// The zero value is not valid; build Rules with NewRules or ParseRules.
type Rules struct {
	Kind Kind
	Rows int
	Cols int
	K    int
	// Line is the rule variant: which lines win and which moves are
	// forbidden. The zero value is Freestyle, kinrow's original game.
	Line Line
}

// preset returns the rules a preset name stands for.
func preset(name string) (Rules, bool) {
	for _, p := range presets {
		if p.name == name {
			return p.rules, true
		}
	}
	return Rules{}, false
}

// PresetNames lists the preset rules names in a fixed order.
func PresetNames() []string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.name
	}
	return names
}

// Connect4 returns the rules of Connect-4: Connect-X on 6 rows, 7 columns, 4 in a row.
func Connect4() Rules { r, _ := preset("connect4"); return r }

// NewRules checks and returns the rules of a game. An impossible board is
// refused with an error naming the limit it breaks.
func NewRules(kind Kind, rows, cols, k int) (Rules, error) {
	r := Rules{kind, rows, cols, k, Freestyle}
	return r, r.Validate()
}

// WithLine returns r with the line rule l, checked (renju needs m,n,k with K = 5).
func (r Rules) WithLine(l Line) (Rules, error) {
	r.Line = l
	return r, r.Validate()
}

// Validate reports whether the rules describe a board kinrow plays, naming
// the limit that is broken if not.
func (r Rules) Validate() error {
	if r.Kind.Game() == nil {
		return fmt.Errorf("unknown game kind %d: accepted are %s", r.Kind, kindNames())
	}
	if r.Rows < MinSide || r.Rows > MaxSide {
		return fmt.Errorf("rows %d out of range: rows must be from %d to %d", r.Rows, MinSide, MaxSide)
	}
	if r.Cols < MinSide || r.Cols > MaxSide {
		return fmt.Errorf("columns %d out of range: columns must be from %d to %d", r.Cols, MinSide, MaxSide)
	}
	maxK := max(r.Rows, r.Cols)
	if r.K < MinK || r.K > maxK {
		return fmt.Errorf("k %d out of range: k must be from %d to max(rows, columns) = %d", r.K, MinK, maxK)
	}
	return r.Line.admits(r)
}

// Cells is the number of cells on the board.
func (r Rules) Cells() int { return r.Rows * r.Cols }

// Game returns the descriptor of the rules' family: what to ask rather than
// comparing the Kind. It is nil only for rules that are not valid.
func (r Rules) Game() *Game { return r.Kind.Game() }

// Gravity tells whether a stone drops to the lowest free cell of the column
// chosen (Connect-X), so that a move is a column and only a column's lowest
// free cell can be played; otherwise (m,n,k) a stone goes on any free cell
// and a move is a cell: Game().Gravity(), false for rules that are not valid.
func (r Rules) Gravity() bool { return r.Game().Gravity() }

// MoveRange is the number of move numbers: moves are 0 to MoveRange()-1,
// the columns under gravity, the cells otherwise.
func (r Rules) MoveRange() int { return r.Game().MoveRange(r.Rows, r.Cols) }

// String is the canonical rules string, e.g. "connectx:6x7x4" (rows first),
// "mnk:15x15x5:exact", "mnk:15x15x5:renju": the line rule is written after
// the sizes unless it is freestyle.
func (r Rules) String() string {
	if r.Line == Freestyle {
		return fmt.Sprintf("%s:%dx%dx%d", r.Kind, r.Rows, r.Cols, r.K)
	}
	return fmt.Sprintf("%s:%dx%dx%d:%s", r.Kind, r.Rows, r.Cols, r.K, r.Line)
}

// Variant is the name of the rules' family a bot declares it plays (in
// botapi.Info's Kinds): the kind for freestyle ("connectx", "mnk"), the kind
// and the line rule otherwise ("mnk:exact", "mnk:renju", "connectx:exact").
// Sizes are not part of it: bots declare those apart.
func (r Rules) Variant() string { return VariantName(r.Kind, r.Line) }

// VariantName names the family of kind k played with line rule l (see Rules.Variant).
func VariantName(k Kind, l Line) string {
	if l == Freestyle {
		return k.String()
	}
	return k.String() + ":" + l.String()
}

// Variants lists every variant name kinrow plays, in a fixed order:
// connectx, mnk, connectx:exact, mnk:exact, mnk:renju.
func Variants() []string {
	var names []string
	for l := Freestyle; l < lineCount; l++ {
		for k := Kind(1); k < kindEnd; k++ {
			if lines[l].admitsGame(&games[k]) {
				names = append(names, VariantName(k, l))
			}
		}
	}
	return names
}

// ParseRules reads a rules string: a preset name ("connect4", "tictactoe",
// "gomoku", "gomoku-standard", "renju") or "connectx:RxCxK" / "mnk:RxCxK"
// with rows first, optionally followed by ":LINE" where LINE is freestyle
// (the default), exact or renju (see Line), case-insensitive.
func ParseRules(s string) (Rules, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if r, ok := preset(t); ok {
		return r, nil
	}
	kindText, dims, ok := strings.Cut(t, ":")
	if !ok {
		return Rules{}, fmt.Errorf("unknown rules %q: accepted are %s", s, RulesSyntax)
	}
	kind, err := ParseKind(kindText)
	if err != nil {
		return Rules{}, fmt.Errorf("rules %q: %w", s, err)
	}
	dims, lineText, hasLine := strings.Cut(dims, ":")
	line := Freestyle
	if hasLine {
		if line, err = ParseLine(lineText); err != nil {
			return Rules{}, fmt.Errorf("rules %q: %w", s, err)
		}
	}
	parts := strings.Split(dims, "x")
	if len(parts) != 3 {
		return Rules{}, fmt.Errorf("rules %q: want %s:ROWSxCOLSxK, e.g. %s:6x7x4", s, kind, kind)
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil {
			return Rules{}, fmt.Errorf("rules %q: %q is not a number: want %s:ROWSxCOLSxK", s, p, kind)
		}
		n[i] = v
	}
	r := Rules{kind, n[0], n[1], n[2], line}
	if err := r.Validate(); err != nil {
		return Rules{}, fmt.Errorf("rules %q: %w", s, err)
	}
	return r, nil
}
