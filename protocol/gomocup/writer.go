package gomocup

import (
	"io"
	"sync"
)

// Writer writes commands and answers to one stream, each in a single Write,
// so lines from several goroutines (a brain's MESSAGE lines and its move)
// never interleave. It does not buffer: every line is out when the call
// returns. It is safe for concurrent use.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Response writes r as one LF-ended line (see WriteResponse).
func (w *Writer) Response(r Response) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return WriteResponse(w.w, r)
}

// Command writes c with CR LF line ends (see WriteCommand).
func (w *Writer) Command(c Command) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return WriteCommand(w.w, c)
}
