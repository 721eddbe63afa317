package gtp

import (
	"bufio"
	"fmt"
	"io"
)

// readBufSize is the size of the bufio buffer under Reader and
// ResponseReader; a line longer than MaxLineBytes is discarded through it.
const readBufSize = 16 << 10

// lineReader splits a stream into physical lines (LF-terminated) of at most
// MaxLineBytes bytes, discarding longer lines in bounded memory.
type lineReader struct {
	br   *bufio.Reader
	buf  []byte // current line; never longer than MaxLineBytes
	err  error  // sticky read error, reported once the pending line is out
	line int    // number of physical lines started so far
}

func newLineReader(r io.Reader) lineReader {
	return lineReader{br: bufio.NewReaderSize(r, readBufSize)}
}

// next returns the next physical line without its LF. The slice is valid
// until the following call. If the line is longer than MaxLineBytes, the
// rest of it is read and dropped and tooLong is true. err is non-nil only
// when no line is left; it is io.EOF at a clean end of input.
func (l *lineReader) next() (line []byte, tooLong bool, err error) {
	if l.err != nil {
		return nil, false, l.err
	}
	l.buf = l.buf[:0]
	started := false
	for {
		chunk, err := l.br.ReadSlice('\n')
		if len(chunk) > 0 && !started {
			started = true
			l.line++
		}
		content := chunk
		if err == nil {
			content = chunk[:len(chunk)-1]
		}
		if len(l.buf)+len(content) > MaxLineBytes {
			// Too long: drop what we have and skip to the end of the line.
			l.buf = l.buf[:0]
			for err == bufio.ErrBufferFull {
				_, err = l.br.ReadSlice('\n')
			}
			if err != nil {
				l.setErr(err)
			}
			return nil, true, nil
		}
		l.buf = append(l.buf, content...)
		switch {
		case err == nil:
			return l.buf, false, nil
		case err == bufio.ErrBufferFull:
			continue
		}
		l.setErr(err)
		if started {
			return l.buf, false, nil // final line without LF
		}
		return nil, false, l.err
	}
}

func (l *lineReader) setErr(err error) {
	if err != io.EOF {
		err = fmt.Errorf("gtp: read: %w", err)
	}
	l.err = err
}

// Reader reads commands from the engine's input. It is not safe for
// concurrent use.
type Reader struct {
	lr lineReader
}

// NewReader returns a Reader that reads commands from r through its own
// buffer.
func NewReader(r io.Reader) *Reader {
	return &Reader{lr: newLineReader(r)}
}

// Next returns the next command, skipping lines that are empty after
// preprocessing. A final line without LF is still returned as a command; at
// the end of input Next returns io.EOF, and other read errors are returned
// wrapped. A physical line longer than MaxLineBytes yields, exactly once, an
// error wrapping ErrLineTooLong; the rest of that line is read and
// discarded without buffering it, and the following call goes on with the
// next line. Read errors are sticky.
func (r *Reader) Next() (Command, error) {
	for {
		line, tooLong, err := r.lr.next()
		if err != nil {
			return Command{}, err
		}
		if tooLong {
			return Command{}, fmt.Errorf("gtp: input line %d: %w (limit %d bytes)", r.lr.line, ErrLineTooLong, MaxLineBytes)
		}
		if c, ok := tokenize(string(cleanBytes(line))); ok {
			return c, nil
		}
	}
}
