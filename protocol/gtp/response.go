package gtp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// MaxResponseBytes bounds the text of one answer read by a
// [ResponseReader] (4 MiB); each of its lines is also bounded by
// [MaxLineBytes].
const MaxResponseBytes = 4 << 20

// ErrResponseTooLong is wrapped by the error returned for an answer whose
// text exceeds MaxResponseBytes.
var ErrResponseTooLong = errors.New("gtp: response too long")

// ErrMalformedResponse is wrapped by the error returned for a line where an
// answer should start but that does not start with '=' or '?', or for an
// answer whose id does not fit in an int.
var ErrMalformedResponse = errors.New("gtp: malformed response")

// Response is one answer read by a controller.
type Response struct {
	// ID is the echoed command id; meaningful only when HasID is true.
	ID int
	// HasID reports whether the answer carried an id.
	HasID bool
	// OK is true for a success answer ('='), false for a failure ('?').
	OK bool
	// Text is the answer text without the "=[id] " prefix, lines joined
	// with "\n", with no trailing newline.
	Text string
}

// Err returns nil for a success answer, and otherwise an error whose message
// holds the failure text.
func (r Response) Err() error {
	if r.OK {
		return nil
	}
	if r.HasID {
		return fmt.Errorf("gtp: command %d failed: %s", r.ID, r.Text)
	}
	return fmt.Errorf("gtp: command failed: %s", r.Text)
}

// ResponseReader reads answers from the engine's output. It is not safe for
// concurrent use.
type ResponseReader struct {
	lr   lineReader
	text []byte
}

// NewResponseReader returns a ResponseReader that reads answers from r
// through its own buffer.
func NewResponseReader(r io.Reader) *ResponseReader {
	return &ResponseReader{lr: newLineReader(r)}
}

// Next reads one answer, up to and including the empty line that ends it.
// Trailing CRs are removed from every line, so CRLF output is accepted, and
// empty lines before an answer are skipped; no other preprocessing is done.
// It returns io.EOF at a clean end of input and an error wrapping
// io.ErrUnexpectedEOF when the input ends inside an answer.
//
// A line where an answer should start that does not start with '=' or '?'
// yields an error wrapping ErrMalformedResponse, and one longer than
// MaxLineBytes an error wrapping ErrLineTooLong; only that line is consumed,
// so the caller may call Next again to skip stray output. An answer with an
// overlong line (ErrLineTooLong), too much text (ErrResponseTooLong) or an
// id that overflows an int (ErrMalformedResponse) is read to its end in
// bounded memory before the error is returned, so the stream stays in step.
func (r *ResponseReader) Next() (Response, error) {
	var line []byte
	for {
		l, tooLong, err := r.lr.next()
		if err != nil {
			return Response{}, err
		}
		if tooLong {
			return Response{}, fmt.Errorf("gtp: output line %d: %w (limit %d bytes)", r.lr.line, ErrLineTooLong, MaxLineBytes)
		}
		line = bytes.TrimRight(l, "\r")
		if len(line) > 0 {
			break
		}
	}
	first := r.lr.line
	var resp Response
	switch line[0] {
	case '=':
		resp.OK = true
	case '?':
	default:
		const show = 40
		if len(line) > show {
			line = line[:show]
		}
		return Response{}, fmt.Errorf("gtp: output line %d: %w: %q", first, ErrMalformedResponse, line)
	}
	i := 1
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	var bad error
	if i > 1 {
		id, err := strconv.Atoi(string(line[1:i]))
		if err != nil {
			bad = fmt.Errorf("gtp: output line %d: %w: id %.40q does not fit in an int", first, ErrMalformedResponse, line[1:i])
		}
		resp.ID, resp.HasID = id, true
	}
	if i < len(line) && line[i] == ' ' {
		i++
	}
	r.text = append(r.text[:0], line[i:]...)
	for {
		l, tooLong, err := r.lr.next()
		if err != nil {
			if err == io.EOF {
				err = fmt.Errorf("gtp: answer started at output line %d: %w", first, io.ErrUnexpectedEOF)
			}
			return Response{}, err
		}
		if tooLong {
			if bad == nil {
				bad = fmt.Errorf("gtp: output line %d: %w (limit %d bytes)", r.lr.line, ErrLineTooLong, MaxLineBytes)
			}
			continue
		}
		l = bytes.TrimRight(l, "\r")
		if len(l) == 0 {
			break
		}
		if bad != nil {
			continue
		}
		if len(r.text)+1+len(l) > MaxResponseBytes {
			bad = fmt.Errorf("gtp: answer started at output line %d: %w (limit %d bytes)", first, ErrResponseTooLong, MaxResponseBytes)
			r.text = r.text[:0]
			continue
		}
		r.text = append(r.text, '\n')
		r.text = append(r.text, l...)
	}
	if bad != nil {
		return Response{}, bad
	}
	resp.Text = string(r.text)
	if cap(r.text) > 64<<10 {
		r.text = nil // do not keep a huge answer's buffer alive
	}
	return resp, nil
}

// WriteCommand writes c as one line ending with LF, in a single Write call.
// It returns an error wrapping ErrInvalidCommand, and writes nothing, if c
// could not be read back unchanged: a negative id, an empty name, a name
// that would be read as an id (digits only, when c has no id), or an empty
// token or one containing a space, a control character, DEL or '#'.
func WriteCommand(w io.Writer, c Command) error {
	if err := c.validate(); err != nil {
		return err
	}
	if _, err := io.WriteString(w, c.String()+"\n"); err != nil {
		return fmt.Errorf("gtp: write command: %w", err)
	}
	return nil
}
