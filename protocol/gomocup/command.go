package gomocup

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// CommandKind is a manager's command.
type CommandKind int

// The manager's commands.
const (
	CmdStart      CommandKind = iota + 1 // START size: square board; answer OK or ERROR
	CmdRectStart                         // RECTSTART width,height; answer OK or ERROR
	CmdRestart                           // RESTART: new game, same board; answer OK
	CmdBegin                             // BEGIN: play the first move; answer a move
	CmdTurn                              // TURN X,Y: the opponent's move; answer a move
	CmdBoard                             // BOARD, X,Y,F lines, DONE: a whole position; answer a move
	CmdInfo                              // INFO key value: no answer
	CmdTakeback                          // TAKEBACK X,Y: undo that stone; answer OK
	CmdEnd                               // END: exit promptly; no answer
	CmdAbout                             // ABOUT: answer key="value" list
	CmdPlay                              // PLAY X,Y: play this (after SUGGEST); answer the move
	CmdSwap2Board                        // SWAP2BOARD, X,Y lines, DONE: Swap2 opening stage
)

var commandWords = map[CommandKind]string{
	CmdStart: "START", CmdRectStart: "RECTSTART", CmdRestart: "RESTART", CmdBegin: "BEGIN",
	CmdTurn: "TURN", CmdBoard: "BOARD", CmdInfo: "INFO", CmdTakeback: "TAKEBACK", CmdEnd: "END",
	CmdAbout: "ABOUT", CmdPlay: "PLAY", CmdSwap2Board: "SWAP2BOARD",
}

// commandKind returns the kind of a command word (case-insensitive).
func commandKind(word string) (CommandKind, bool) {
	w := strings.ToUpper(word)
	for k, s := range commandWords {
		if s == w {
			return k, true
		}
	}
	return 0, false
}

// String returns the command word, e.g. "RECTSTART".
func (k CommandKind) String() string {
	if s, ok := commandWords[k]; ok {
		return s
	}
	return "command(" + strconv.Itoa(int(k)) + ")"
}

// CommandWords lists the command words in a fixed order (for messages).
func CommandWords() []string {
	out := make([]string, 0, len(commandWords))
	for k := CmdStart; k <= CmdSwap2Board; k++ {
		out = append(out, commandWords[k])
	}
	return out
}

// Field is the third number of a BOARD line: whose stone it is.
type Field int

// The values of Field.
const (
	FieldOwn        Field = 1 // the brain's own stone
	FieldOpponent   Field = 2 // the opponent's stone
	FieldContinuous Field = 3 // continuous game only: a stone of a winning line (or forbidden)
)

// Stone is one line of a BOARD (with its Field) or of a SWAP2BOARD (Field 0).
type Stone struct {
	Point Point
	Field Field
}

// String prints the stone as its line: "X,Y,F", or "X,Y" when Field is 0.
func (s Stone) String() string {
	if s.Field == 0 {
		return s.Point.String()
	}
	return s.Point.String() + "," + strconv.Itoa(int(s.Field))
}

// ParseStone reads a BOARD line "X,Y,F" with F 1, 2 or 3.
func ParseStone(s string) (Stone, error) {
	i := strings.LastIndexByte(s, ',')
	if i < 0 || strings.Count(s, ",") != 2 {
		return Stone{}, fmt.Errorf("board line %q: want X,Y,F with F 1 (own stone), 2 (opponent's) or 3 (continuous game)", s)
	}
	p, err := ParsePoint(s[:i])
	if err != nil {
		return Stone{}, fmt.Errorf("board line %q: %w", s, err)
	}
	f, err := parseNumber(s[i+1:])
	if err != nil || f < 1 || f > 3 {
		return Stone{}, fmt.Errorf("board line %q: field %q: want 1 (own stone), 2 (opponent's) or 3 (continuous game)", s, strings.TrimSpace(s[i+1:]))
	}
	return Stone{Point: p, Field: Field(f)}, nil
}

// Command is one command from the manager. Which fields are set depends on
// Kind; the others are zero.
type Command struct {
	Kind CommandKind
	// Width and Height: the board of START (both the size) and RECTSTART.
	Width, Height int
	// Point: TURN, TAKEBACK and PLAY.
	Point Point
	// Stones: the lines of BOARD (Field 1 to 3) and SWAP2BOARD (Field 0),
	// in the order sent. Nil when there were none.
	Stones []Stone
	// Key (lower case) and Value (the rest of the line, trimmed): INFO.
	Key, Value string
}

// Int reads Value as a non-negative integer (the INFO limits); it fails,
// naming the key, for anything else.
func (c Command) Int() (int64, error) {
	t := strings.TrimSpace(c.Value)
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil || v < 0 || t == "" || t[0] == '+' {
		return 0, fmt.Errorf("INFO %s %q: want a whole number from 0", c.Key, c.Value)
	}
	return v, nil
}

// Lines returns the lines of c without line ends: one line, or for BOARD and
// SWAP2BOARD the header, one line per stone and DONE.
func (c Command) Lines() []string {
	word := c.Kind.String()
	switch c.Kind {
	case CmdStart:
		return []string{word + " " + strconv.Itoa(c.Width)}
	case CmdRectStart:
		return []string{word + " " + strconv.Itoa(c.Width) + "," + strconv.Itoa(c.Height)}
	case CmdTurn, CmdTakeback, CmdPlay:
		return []string{word + " " + c.Point.String()}
	case CmdInfo:
		line := word + " " + clean(c.Key)
		if v := strings.TrimSpace(clean(c.Value)); v != "" {
			line += " " + v
		}
		return []string{line}
	case CmdBoard, CmdSwap2Board:
		lines := make([]string, 0, len(c.Stones)+2)
		lines = append(lines, word)
		for _, s := range c.Stones {
			lines = append(lines, s.String())
		}
		return append(lines, "DONE")
	}
	return []string{word}
}

// String returns the lines of c joined by LF.
func (c Command) String() string { return strings.Join(c.Lines(), "\n") }

// WriteCommand writes c to w in one Write, each line ended with CR LF as a
// manager sends it. It refuses a command it cannot print faithfully (an
// unknown kind, a START whose Width and Height differ, an INFO without a
// key or with a space in it).
func WriteCommand(w io.Writer, c Command) error {
	if err := c.check(); err != nil {
		return err
	}
	_, err := io.WriteString(w, strings.Join(c.Lines(), "\r\n")+"\r\n")
	if err != nil {
		return fmt.Errorf("gomocup: write %s: %w", c.Kind, err)
	}
	return nil
}

func (c Command) check() error {
	switch {
	case commandWords[c.Kind] == "":
		return fmt.Errorf("gomocup: cannot write unknown command kind %d", int(c.Kind))
	case c.Kind == CmdStart && c.Width != c.Height:
		return fmt.Errorf("gomocup: START is for square boards, not %dx%d: use RECTSTART", c.Width, c.Height)
	case c.Kind == CmdInfo && (c.Key == "" || strings.ContainsAny(c.Key, " \t\r\n")):
		return fmt.Errorf("gomocup: INFO key %q: want one word", c.Key)
	}
	return nil
}

// ErrUnknownCommand is wrapped by the error for a line whose first word is
// not a command of the protocol; a brain answers it with UNKNOWN.
var ErrUnknownCommand = errors.New("unknown command")

// ErrLineTooLong is wrapped by the error for a line longer than
// MaxLineBytes, which is discarded.
var ErrLineTooLong = errors.New("line too long")

// SyntaxError is the error for a line (or a BOARD block) that cannot be read.
type SyntaxError struct {
	Line int         // 1-based line number in the input, 0 if not read by a Reader
	Kind CommandKind // the command it belongs to; 0 for an unknown word or an answer
	Text string      // the offending line, trimmed and cut to 80 bytes
	Err  error       // what is wrong, possibly wrapping ErrUnknownCommand
}

func (e *SyntaxError) Error() string {
	var b strings.Builder
	b.WriteString("gomocup: ")
	if e.Line > 0 {
		b.WriteString("line ")
		b.WriteString(strconv.Itoa(e.Line))
		b.WriteString(": ")
	}
	if e.Text != "" {
		b.WriteString(strconv.Quote(e.Text))
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *SyntaxError) Unwrap() error { return e.Err }

// newSyntaxError builds a SyntaxError quoting at most 80 bytes of text.
func newSyntaxError(kind CommandKind, text string, err error) *SyntaxError {
	if len(text) > 80 {
		text = text[:80] + "…"
	}
	return &SyntaxError{Kind: kind, Text: text, Err: err}
}

// ParseCommand reads one command line (the line end may be included). For
// BOARD and SWAP2BOARD it returns the header only, with no stones: use a
// Reader to read whole commands. A first word that is not a command gives
// an error wrapping ErrUnknownCommand; a known command with bad arguments
// gives one that says what the command takes.
func ParseCommand(line string) (Command, error) {
	t := strings.Trim(clean(line), " ")
	word, rest, _ := strings.Cut(t, " ")
	rest = strings.Trim(rest, " ")
	kind, ok := commandKind(word)
	if !ok {
		return Command{}, newSyntaxError(0, t, fmt.Errorf("%w %q: accepted are %s", ErrUnknownCommand, word, strings.Join(CommandWords(), ", ")))
	}
	c := Command{Kind: kind}
	fail := func(want string, err error) (Command, error) {
		msg := kind.String() + ": want " + want
		if err != nil {
			return Command{}, newSyntaxError(kind, t, fmt.Errorf("%s: %w", msg, err))
		}
		return Command{}, newSyntaxError(kind, t, errors.New(msg))
	}
	switch kind {
	case CmdStart:
		n, err := parseNumber(rest)
		if err != nil || n == 0 {
			return fail("START size, a number from 1", err)
		}
		c.Width, c.Height = n, n
	case CmdRectStart:
		p, err := ParsePoint(rest)
		if err != nil || p.X == 0 || p.Y == 0 {
			return fail("RECTSTART width,height, two numbers from 1", err)
		}
		c.Width, c.Height = p.X, p.Y
	case CmdTurn, CmdTakeback, CmdPlay:
		p, err := ParsePoint(rest)
		if err != nil {
			return fail(kind.String()+" X,Y", err)
		}
		c.Point = p
	case CmdInfo:
		key, value, _ := strings.Cut(rest, " ")
		if key == "" {
			return fail("INFO key value", nil)
		}
		c.Key, c.Value = asciiLower(key), strings.Trim(value, " ")
	default:
		if rest != "" {
			return fail(kind.String()+" with nothing after it", nil)
		}
	}
	return c, nil
}
