package gtp

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Writer writes answers on the engine's output. It is not safe for
// concurrent use.
type Writer struct {
	bw *bufio.Writer
}

// NewWriter returns a buffered Writer on w. Every answer is flushed as soon
// as it is written.
func NewWriter(w io.Writer) *Writer {
	return &Writer{bw: bufio.NewWriter(w)}
}

// Success writes the success answer "=[id] text" for c, echoing c.ID when
// c.HasID is set and c.ID is not negative. See [Writer.Failure] for how text
// is framed.
func (w *Writer) Success(c Command, text string) error {
	return w.answer('=', c, text)
}

// Failure writes the failure answer "?[id] msg" for c. Trailing CRs and LFs
// of msg are removed; an empty msg gives "?[id]" alone. Every line of a
// multi-line msg after the first that is empty (or holds only CRs) is
// written as "." so that it cannot end the answer early. The answer is
// terminated by an empty line and flushed. Other bytes, including invalid
// UTF-8, are written unchanged.
func (w *Writer) Failure(c Command, msg string) error {
	return w.answer('?', c, msg)
}

func (w *Writer) answer(mark byte, c Command, text string) error {
	bw := w.bw
	bw.WriteByte(mark)
	if c.HasID && c.ID >= 0 {
		bw.Write(strconv.AppendInt(bw.AvailableBuffer(), int64(c.ID), 10))
	}
	text = strings.TrimRight(text, "\r\n")
	if text != "" {
		bw.WriteByte(' ')
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			bw.WriteString(text)
		} else {
			bw.WriteString(text[:i])
			text = text[i+1:]
			for {
				line, rest, more := strings.Cut(text, "\n")
				bw.WriteByte('\n')
				if strings.TrimLeft(line, "\r") == "" {
					bw.WriteByte('.')
				} else {
					bw.WriteString(line)
				}
				if !more {
					break
				}
				text = rest
			}
		}
	}
	bw.WriteString("\n\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("gtp: write answer: %w", err)
	}
	return nil
}
