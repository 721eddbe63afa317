package recordfmt

import (
	"fmt"
	"io"
	"strings"

	"github.com/kinrow/kinrow/host/termsafe"
)

// MoveString returns g's moves as kinrow reads them back (an openings line):
// for Connect-X up to 9 columns the digit string Connect-4 solvers read
// ("4453", 1-based columns), otherwise columns or vertices separated by
// spaces.
func (g *Game) MoveString() string { return g.Rules.FormatMoveList(g.Moves) }

// Title says who played and how it ended in one line, e.g. "alphabeta (x)
// vs random (o): X+ win".
func (g *Game) Title() string {
	res := "open"
	if g.Result != "" {
		res = g.Result + " " + string(g.Reason)
		if g.Detail != "" {
			res += ": " + g.Detail
		}
	}
	return fmt.Sprintf("%s (x) vs %s (o), %s: %s", termsafe.Printable(nameOr(g.Players.X)), termsafe.Printable(nameOr(g.Players.O)),
		g.Rules, termsafe.Printable(oneLine(res)))
}

func nameOr(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

// WriteText writes g as a comment line "# LABEL: TITLE" (LABEL e.g. "game
// 3") and its move string on the next line: what kinrow match --openings
// reads (an opening must leave the game open; see kinrow import).
func WriteText(w io.Writer, label string, g *Game) error {
	if _, err := fmt.Fprintf(w, "# %s: %s\n%s\n", oneLine(label), g.Title(), g.MoveString()); err != nil {
		return fmt.Errorf("text: %w", err)
	}
	return nil
}
