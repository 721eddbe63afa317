package gtp

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxLineBytes is the longest command line accepted (64 KiB), counted in raw
// bytes before preprocessing and without the terminating LF. It also bounds
// every line of an answer read by a [ResponseReader].
const MaxLineBytes = 64 << 10

// ErrLineTooLong is wrapped by the errors returned for a physical line longer
// than [MaxLineBytes].
var ErrLineTooLong = errors.New("gtp: line too long")

// ErrInvalidCommand is wrapped by the error [WriteCommand] returns for a
// command that cannot be framed so that it parses back to itself.
var ErrInvalidCommand = errors.New("gtp: invalid command")

// Command is one parsed GTP command line: "[id] name [args...]".
//
// A line that holds only an id (for example "12") parses to a Command with
// HasID set and an empty Name; it is not a valid command and an engine
// should answer it with a failure such as "?12 syntax error".
type Command struct {
	// ID is the command id; meaningful only when HasID is true.
	ID int
	// HasID reports whether the line started with an id.
	HasID bool
	// Name is the command name, "" for an id-only line.
	Name string
	// Args are the remaining tokens, nil when there are none.
	Args []string
}

// String returns the command re-framed as a line without the LF, tokens
// separated by single spaces, e.g. "3 play x 4". For a command returned by
// [ParseLine] or [Reader.Next], ParseLine(c.String()) yields c again.
func (c Command) String() string {
	var b strings.Builder
	n := len(c.Name) + 21
	for _, a := range c.Args {
		n += len(a) + 1
	}
	b.Grow(n)
	if c.HasID {
		var num [20]byte
		b.Write(strconv.AppendInt(num[:0], int64(c.ID), 10))
	}
	if c.Name != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.Name)
	}
	for _, a := range c.Args {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a)
	}
	return b.String()
}

// validate reports whether c can be written so that it parses back to c.
func (c Command) validate() error {
	if c.HasID && c.ID < 0 {
		return fmt.Errorf("%w: negative id %d", ErrInvalidCommand, c.ID)
	}
	if c.Name == "" {
		return fmt.Errorf("%w: empty name", ErrInvalidCommand)
	}
	if !c.HasID && isID(c.Name) {
		return fmt.Errorf("%w: name %q would be read as an id", ErrInvalidCommand, c.Name)
	}
	if err := validToken(c.Name); err != nil {
		return err
	}
	for _, a := range c.Args {
		if err := validToken(a); err != nil {
			return err
		}
	}
	return nil
}

func validToken(s string) error {
	if s == "" {
		return fmt.Errorf("%w: empty argument", ErrInvalidCommand)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c == 127 || c == '#' {
			return fmt.Errorf("%w: token %q contains byte %#x", ErrInvalidCommand, s, c)
		}
	}
	return nil
}

// ParseLine preprocesses and parses one command line. The line may end with
// "\n" or "\r\n"; if it contains an LF, only the part before the first LF is
// parsed. It returns false if nothing is left after preprocessing (an empty,
// blank or comment-only line). Invalid UTF-8 is kept byte for byte.
func ParseLine(line string) (Command, bool) {
	return tokenize(clean(line))
}

// special reports whether preprocessing must look at byte c: control
// characters (including HT, CR and LF), DEL and the comment mark.
func special(c byte) bool { return c < ' ' || c == 127 || c == '#' }

// clean applies the line preprocessing to s and returns the result. It
// allocates only when s contains a byte that must be dropped or replaced.
func clean(s string) string {
	i := 0
	for i < len(s) && !special(s[i]) {
		i++
	}
	if i == len(s) {
		return s
	}
	if s[i] == '#' || s[i] == '\n' {
		return s[:i]
	}
	b := make([]byte, i, len(s))
	copy(b, s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n' || c == '#':
			return string(b)
		case c == '\t':
			b = append(b, ' ')
		case c < ' ' || c == 127:
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// cleanBytes is clean for a line read by a Reader (without its LF); it
// compacts b in place and returns the shortened slice.
func cleanBytes(b []byte) []byte {
	w := 0
	for _, c := range b {
		switch {
		case c == '\n' || c == '#':
			return b[:w]
		case c == '\t':
			c = ' '
		case c < ' ' || c == 127:
			continue
		}
		b[w] = c
		w++
	}
	return b[:w]
}

// tokenize splits a preprocessed line on runs of spaces and builds the
// Command. The tokens share the memory of s.
func tokenize(s string) (Command, bool) {
	var c Command
	tok, rest := nextToken(s)
	if tok == "" {
		return c, false
	}
	if isID(tok) {
		c.ID, _ = strconv.Atoi(tok)
		c.HasID = true
		tok, rest = nextToken(rest)
	}
	c.Name = tok
	if n := countTokens(rest); n > 0 {
		c.Args = make([]string, 0, n)
		for {
			tok, rest = nextToken(rest)
			if tok == "" {
				break
			}
			c.Args = append(c.Args, tok)
		}
	}
	return c, true
}

// nextToken returns the first space-separated token of s and what follows it.
func nextToken(s string) (tok, rest string) {
	i := 0
	for i < len(s) && s[i] == ' ' {
		i++
	}
	s = s[i:]
	if j := strings.IndexByte(s, ' '); j >= 0 {
		return s[:j], s[j:]
	}
	return s, ""
}

func countTokens(s string) int {
	n := 0
	in := false
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isID reports whether the token s is read as a command id: all digits and
// small enough for an int.
func isID(s string) bool {
	if !allDigits(s) {
		return false
	}
	_, err := strconv.Atoi(s)
	return err == nil
}
