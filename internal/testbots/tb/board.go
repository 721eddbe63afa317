package tb

import (
	"strings"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/gtp"
)

// Board is a kinrow-protocol test engine's game: it answers the commands
// that set up and change the position (rules, play, undo), which every
// test engine answers alike, and leaves the rest to the engine.
type Board struct {
	// Pos is the position the commands built: Connect-4's empty board at first.
	Pos *engine.Position
}

// NewBoard returns the board of an empty Connect-4 game.
func NewBoard() *Board { return &Board{Pos: engine.NewPosition(engine.Connect4())} }

// Handle answers c on w if it is rules, play or undo, and tells whether it was.
func (b *Board) Handle(w *gtp.Writer, c gtp.Command) bool {
	switch c.Name {
	case "rules":
		rules, err := engine.ParseRules(strings.Join(c.Args, " "))
		if err != nil {
			w.Failure(c, err.Error())
			return true
		}
		b.Pos = engine.NewPosition(rules)
	case "play":
		if len(c.Args) != 2 {
			w.Failure(c, "syntax error")
			return true
		}
		m, err := b.Pos.Rules().ParseMove(c.Args[1])
		if err == nil {
			err = b.Pos.Apply(m)
		}
		if err != nil {
			w.Failure(c, "illegal move: "+err.Error())
			return true
		}
	case "undo":
		if _, ok := b.Pos.Undo(); !ok {
			w.Failure(c, "cannot undo")
			return true
		}
	default:
		return false
	}
	w.Success(c, "")
	return true
}
