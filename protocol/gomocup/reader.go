package gomocup

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxLineBytes bounds a line; a longer one is discarded (see Reader.Next).
const MaxLineBytes = 64 << 10

// MaxStones bounds the stone lines of one BOARD or SWAP2BOARD block; the
// lines past it are read and dropped and the block is refused.
const MaxStones = 1 << 16

// lineReader splits a stream into lines ended by LF, CR or CR LF, skipping
// blank ones (nothing but spaces and control characters), in bounded memory.
type lineReader struct {
	br      *bufio.Reader
	buf     []byte
	line    int   // physical lines seen so far (CR LF counts once)
	err     error // sticky read error, returned once the pending line is out
	afterCR bool  // the previous line ended with CR: an LF next belongs to it
}

func newLineReader(r io.Reader) lineReader {
	return lineReader{br: bufio.NewReaderSize(r, 16<<10)}
}

// next returns the next non-empty line (its bytes are valid until the next
// call). tooLong reports a line longer than MaxLineBytes, discarded. err is
// non-nil only when no line is left: io.EOF at a clean end.
func (l *lineReader) next() (line string, tooLong bool, err error) {
	for {
		if l.err != nil {
			return "", false, l.err
		}
		l.buf = l.buf[:0]
		long := false
		ended := false
		for !ended {
			c, err := l.br.ReadByte()
			if err != nil {
				if err != io.EOF {
					err = fmt.Errorf("gomocup: read: %w", err)
				}
				l.err = err
				break
			}
			switch {
			case c == '\n' && l.afterCR:
				l.afterCR = false
				continue
			case c == '\n' || c == '\r':
				l.afterCR = c == '\r'
				ended = true
				continue
			}
			l.afterCR = false
			if len(l.buf) >= MaxLineBytes {
				long = true
				continue
			}
			l.buf = append(l.buf, c)
		}
		if !long && blank(l.buf) {
			continue // empty line (or end of input: l.err is set)
		}
		l.line++
		if long {
			return "", true, nil
		}
		return string(l.buf), false, nil
	}
}

// Reader reads the manager's commands. It is not safe for concurrent use.
type Reader struct {
	lr      lineReader
	pending string // a command line that ended a BOARD block early
	hasPend bool
}

// NewReader returns a Reader of the commands in r, with its own buffer.
func NewReader(r io.Reader) *Reader { return &Reader{lr: newLineReader(r)} }

// Line returns the number of the last line read (from 1; 0 before any).
func (r *Reader) Line() int { return r.lr.line }

// Next returns the next command, BOARD and SWAP2BOARD with their stones up
// to DONE. At the end of input it returns io.EOF; read errors are wrapped
// and sticky. A line it cannot read gives a *SyntaxError (wrapping
// ErrUnknownCommand for an unknown word, ErrLineTooLong for a line over
// MaxLineBytes, which is discarded) and the next call goes on with the
// following line. A BOARD block with a bad line is read to its DONE and
// refused as a whole; a block cut short by another command (or the end of
// input) is refused, and that command is returned by the next call.
func (r *Reader) Next() (Command, error) {
	line, err := r.nextLine()
	if err != nil {
		return Command{}, err
	}
	c, err := ParseCommand(line)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			se.Line = r.lr.line
		}
		return Command{}, err
	}
	if c.Kind == CmdBoard || c.Kind == CmdSwap2Board {
		return r.block(c)
	}
	return c, nil
}

// nextLine returns the pending line or reads one.
func (r *Reader) nextLine() (string, error) {
	if r.hasPend {
		r.hasPend = false
		return r.pending, nil
	}
	line, tooLong, err := r.lr.next()
	if err != nil {
		return "", err
	}
	if tooLong {
		return "", &SyntaxError{Line: r.lr.line, Err: fmt.Errorf("%w: limit %d bytes", ErrLineTooLong, MaxLineBytes)}
	}
	return line, nil
}

// block reads the stone lines of a BOARD or SWAP2BOARD up to DONE.
func (r *Reader) block(c Command) (Command, error) {
	start := r.lr.line
	var first error
	fail := func(err error) {
		if first == nil {
			first = err
		}
	}
	for {
		line, tooLong, err := r.lr.next()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return Command{}, &SyntaxError{Line: start, Kind: c.Kind, Err: fmt.Errorf("%s: input ended before DONE: %w", c.Kind, err)}
		}
		if tooLong {
			fail(fmt.Errorf("line %d: %w: limit %d bytes", r.lr.line, ErrLineTooLong, MaxLineBytes))
			continue
		}
		t := strings.Trim(clean(line), " ")
		if strings.EqualFold(t, "DONE") {
			break
		}
		if t[0] < '0' || t[0] > '9' {
			word, _, _ := strings.Cut(t, " ")
			if _, ok := commandKind(word); ok {
				r.pending, r.hasPend = line, true
				return Command{}, &SyntaxError{Line: start, Kind: c.Kind, Err: fmt.Errorf("%s: %s came before DONE: the block is dropped", c.Kind, strings.ToUpper(word))}
			}
		}
		var s Stone
		if c.Kind == CmdBoard {
			s, err = ParseStone(t)
		} else {
			var p Point
			p, err = ParsePoint(t)
			if err != nil {
				err = fmt.Errorf("swap2board line %q: %w", t, err)
			}
			s = Stone{Point: p}
		}
		switch {
		case err != nil:
			fail(fmt.Errorf("line %d: %w", r.lr.line, err))
		case len(c.Stones) >= MaxStones:
			fail(fmt.Errorf("more than %d stones", MaxStones))
		default:
			c.Stones = append(c.Stones, s)
		}
	}
	if first != nil {
		return Command{}, &SyntaxError{Line: start, Kind: c.Kind, Err: fmt.Errorf("%s: %w", c.Kind, first)}
	}
	return c, nil
}

// ReadCommand reads one whole command from r through a fresh Reader; use a
// Reader to read more than one (it buffers).
func ReadCommand(r io.Reader) (Command, error) { return NewReader(r).Next() }

// ResponseReader reads a brain's answer lines. It is not safe for
// concurrent use.
type ResponseReader struct {
	lr lineReader
}

// NewResponseReader returns a ResponseReader of the lines in r, with its own
// buffer.
func NewResponseReader(r io.Reader) *ResponseReader {
	return &ResponseReader{lr: newLineReader(r)}
}

// Line returns the number of the last line read (from 1; 0 before any).
func (r *ResponseReader) Line() int { return r.lr.line }

// Next returns the next answer line. At the end of input it returns io.EOF;
// read errors are wrapped and sticky. A line that is not an answer gives a
// *SyntaxError (ErrLineTooLong for one over MaxLineBytes) and the next call
// goes on with the following line.
func (r *ResponseReader) Next() (Response, error) {
	line, tooLong, err := r.lr.next()
	if err != nil {
		return Response{}, err
	}
	if tooLong {
		return Response{}, &SyntaxError{Line: r.lr.line, Err: fmt.Errorf("%w: limit %d bytes", ErrLineTooLong, MaxLineBytes)}
	}
	resp, err := ParseResponse(line)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			se.Line = r.lr.line
		}
		return Response{}, err
	}
	return resp, nil
}

// blank reports whether b holds nothing but spaces and control characters.
func blank(b []byte) bool {
	for _, c := range b {
		if c > ' ' && c != 0x7f {
			return false
		}
	}
	return true
}

// clean replaces control characters (bytes below 0x20, and DEL) by spaces,
// so a value can neither break a line nor hide in it. Other bytes, invalid
// UTF-8 included, are kept.
func clean(s string) string {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] != 0x7f {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if b[i] < 0x20 || b[i] == 0x7f {
			b[i] = ' '
		}
	}
	return string(b)
}

// asciiLower lowers ASCII letters only, keeping every other byte.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
