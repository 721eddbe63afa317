package tb

import (
	"io"
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

// Serve reads commands from in and answers them on out until quit or the
// end of in: rules, play and undo (Handle), protocol_version (2) and quit
// itself, every other command by answer. seen, if not nil, is shown every
// command first.
func (b *Board) Serve(in io.Reader, out io.Writer, seen func(gtp.Command), answer func(w *gtp.Writer, c gtp.Command)) {
	r, w := gtp.NewReader(in), gtp.NewWriter(out)
	for {
		c, err := r.Next()
		if err != nil {
			return
		}
		if seen != nil {
			seen(c)
		}
		if b.Handle(w, c) {
			continue
		}
		switch c.Name {
		case "protocol_version":
			w.Success(c, "2")
		case "quit":
			w.Success(c, "")
			return
		default:
			answer(w, c)
		}
	}
}
