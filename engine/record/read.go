package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
)

// linePrefix is how every record line kinrow writes starts (Rules is the
// first field), so a torn last line starts with it, or is a prefix of it.
var linePrefix = []byte(`{"rules":`)

// Line is one record of a JSON-lines file with its line number (from 1)
// and the line itself, trimmed of white space.
type Line struct {
	N   int
	Rec *Record
	Raw []byte
}

// Torn is the torn last line of a records file: a writer killed in the
// middle of a line leaves it without its newline, not valid JSON, and the
// start of a record line. It is never a record.
type Torn struct {
	Name   string // the file's name, as given to ReadLines
	N      int    // its line number, from 1
	Offset int64  // where it starts: cut the file here before appending
	Err    error  // why it did not parse
}

// String names the file and the line: "games.jsonl:7: torn last line (no
// newline): ...".
func (t *Torn) String() string {
	return fmt.Sprintf("%s:%d: torn last line (no newline): %v", t.Name, t.N, t.Err)
}

// Lines is what ReadLines found in a records file.
type Lines struct {
	Records []Line
	// Torn is the torn last line, or nil. What the caller does with it is
	// its own choice (cut it before appending, leave it out with a warning,
	// refuse the file), but the reader never counts it as a record.
	Torn *Torn
	// NeedNewline: the last line is a complete record (or, read by
	// ReadEvery, a bad line left out) without its newline; a writer
	// appending to the file writes one first.
	NeedNewline bool
	// Bad holds the lines that are not valid records, in order, when
	// ReadEveryLine read the file; ReadLines refuses the file at the first.
	Bad []*Bad
}

// Bad is a line of a records file that is not a valid record: it does not
// decode, its moves do not replay, the judge (Record.Judge) refuses its
// result, or its game (round and game of one schedule) is already in the
// file. Its Error is "name:N: why".
type Bad struct {
	Name string // the file's name, as given to ReadLines
	N    int    // its line number, from 1
	Err  error  // why it is not a valid record
}

func (b *Bad) Error() string { return fmt.Sprintf("%s:%d: %v", b.Name, b.N, b.Err) }

// Unwrap returns why the line is bad.
func (b *Bad) Unwrap() error { return b.Err }

// ErrDuplicate is wrapped by the error of a record whose game (its
// schedule, round and game) an earlier line of the file holds.
var ErrDuplicate = errors.New("game recorded twice")

// MaxLineBytes bounds a record line: 16 MiB. The largest record kinrow
// writes, a full 128x128 board (engine.MaxSide) with every move's search
// report and its principal variation as long as a record keeps it
// (MaxPVMoves of MaxPVMove bytes), is about 12 MiB (TestLargestRecord);
// a full 70x70 board with such reports is under 4 MiB. A reader holds at
// most this much of any line, however long.
const MaxLineBytes = 16 << 20

// ErrLineTooLong is wrapped by the error of a line over the bound.
var ErrLineTooLong = errors.New("record line too long")

// Reader reads records files: the one reader of them (kinrow match
// --resume, merge, ratings, export, view), streaming, a line at a time.
// The policy:
//
//   - blank lines are skipped;
//   - a line over MaxLine bytes (MaxLineBytes when 0) is refused, naming
//     the bound; the reader never holds more of it than the bound;
//   - each other line goes through Parse (when nil, it is decoded only;
//     Parse is called from several goroutines at once);
//   - with a Verifier, its signature and key are checked (Verifier);
//   - then the judge: Record.Judge replays its moves and checks that its
//     result, reason and winner follow from them;
//   - a record of a game (schedule, round and game number) an earlier line
//     holds is refused: a game is played and counted once; so is, with a
//     Verifier, a game id it has read before, in this file or an earlier one;
//   - the last line, when the input does not end with a newline, is torn if
//     it does not parse, is not valid JSON, and starts like a record line:
//     it is returned in Lines.Torn with its line number, never as an error;
//   - any other line that does not parse or is refused is an error
//     "name:N: ..." (a *Bad) that wraps why.
type Reader struct {
	Parse    func([]byte) (*Record, error)
	Verifier *Verifier
	MaxLine  int
}

// Read reads the records of r, the content of the file called name, and
// refuses it at the first bad line (a *Bad) or read error.
func (rd Reader) Read(name string, r io.Reader) (Lines, error) {
	ls, err := rd.read(name, r, true)
	if err != nil {
		return Lines{}, err
	}
	if len(ls.Bad) > 0 {
		return Lines{}, ls.Bad[0]
	}
	return ls, nil
}

// ReadEvery reads like Read, but a bad line does not refuse the file: every
// line that is not a valid record is left out and listed in Lines.Bad (a
// later record of a game already read is the bad one), so that a reader
// may show or count what it could read (--skip-invalid, the viewer). The
// error is a read error only.
func (rd Reader) ReadEvery(name string, r io.Reader) (Lines, error) {
	return rd.read(name, r, false)
}

// ReadLines reads data, the content of the file called name, as Reader.Read
// does with no signature check and parse as Reader.Parse.
func ReadLines(name string, data []byte, parse func([]byte) (*Record, error)) (Lines, error) {
	return Reader{Parse: parse}.Read(name, bytes.NewReader(data))
}

// ReadEveryLine reads data as Reader.ReadEvery does with no signature check.
func ReadEveryLine(name string, data []byte, parse func([]byte) (*Record, error)) Lines {
	ls, _ := Reader{Parse: parse}.ReadEvery(name, bytes.NewReader(data)) // a bytes.Reader never fails
	return ls
}

// dupError is the error of a game recorded twice: it matches ErrDuplicate.
type dupError struct{ msg string }

func (e *dupError) Error() string        { return e.msg }
func (e *dupError) Is(target error) bool { return target == ErrDuplicate }

// gameKey identifies a game of a match: its schedule, round and game.
type gameKey struct {
	schedule    string
	round, game int
}

// decode reads a record from a JSON line, as it is.
func decode(line []byte) (*Record, error) {
	var r Record
	if err := json.Unmarshal(line, &r); err != nil {
		return nil, fmt.Errorf("decode game record: %w", err)
	}
	return &r, nil
}

// lineSource yields the lines of a reader, each at most max bytes held.
type lineSource struct {
	br  *bufio.Reader
	max int
	buf []byte
}

// next returns the next line without its newline, whether it had one, and
// its length in the input (over when it is over max: then line holds
// nothing and the rest of it was read past). io.EOF ends the input.
func (ls *lineSource) next() (line []byte, newline bool, size int, over bool, err error) {
	ls.buf = ls.buf[:0]
	for {
		chunk, err := ls.br.ReadSlice('\n')
		size += len(chunk)
		if !over {
			need := len(ls.buf) + len(chunk)
			switch {
			case need > ls.max+1: // +1: the newline
				over, ls.buf = true, ls.buf[:0]
			case need > cap(ls.buf):
				// Doubled up to the bound: a long line costs at most
				// twice the bound in allocations, once.
				b := make([]byte, len(ls.buf), min(max(2*cap(ls.buf), need, 4096), ls.max+1))
				copy(b, ls.buf)
				ls.buf = append(b, chunk...)
			default:
				ls.buf = append(ls.buf, chunk...)
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && size == 0:
			return nil, false, 0, false, io.EOF
		case err != nil && err != io.EOF:
			return nil, false, size, over, err
		}
		newline = err == nil
		line = ls.buf
		if newline {
			if !over {
				line = line[:len(line)-1]
			}
			size--
		}
		return line, newline, size, over, nil
	}
}

// The lines of a records file are read in batches of at most batchLines
// lines and batchBytes bytes (or one longer line), each batch's lines
// decoded, verified and judged on every core, then taken in order.
const (
	batchLines = 1024
	batchBytes = 4 << 20
)

// pending is a line read, and what the parallel part made of it.
type pending struct {
	n             int
	line          []byte // trimmed; nil for a blank line
	newline, over bool
	size          int
	start         int64
	rec           *Record
	parseErr, err error // parseErr: the parse's; err: the signature's or the judge's
	unsigned      bool
}

func (rd Reader) read(name string, r io.Reader, stop bool) (Lines, error) {
	bound := rd.MaxLine
	if bound <= 0 {
		bound = MaxLineBytes
	}
	src := &lineSource{br: bufio.NewReaderSize(r, 64<<10), max: bound}
	var out Lines
	seen := map[gameKey]int{} // the line of each numbered game
	var offset int64
	n := 0
	for {
		batch, readErr := rd.readBatch(src, &n, &offset)
		rd.check(batch)
		for i := range batch {
			if done := rd.take(&out, &batch[i], name, bound, seen, stop); done {
				return out, nil
			}
		}
		switch {
		case readErr == io.EOF:
			return out, nil
		case readErr != nil:
			return out, fmt.Errorf("read %s: %w", name, readErr)
		}
	}
}

// readBatch reads the next batch of lines, numbering them from *n + 1 and
// placing them from *offset; its error is the reader's (io.EOF at the end).
func (rd Reader) readBatch(src *lineSource, n *int, offset *int64) ([]pending, error) {
	var batch []pending
	bytesIn := 0
	for len(batch) < batchLines && bytesIn < batchBytes {
		line, newline, size, over, err := src.next()
		if err != nil {
			return batch, err
		}
		*n++
		p := pending{n: *n, newline: newline, over: over, size: size, start: *offset}
		*offset += int64(size)
		if newline {
			*offset++
		}
		if t := bytes.TrimSpace(line); !over && len(t) > 0 {
			p.line = bytes.Clone(t)
			bytesIn += len(t)
		}
		batch = append(batch, p)
	}
	return batch, nil
}

// check decodes, verifies and judges the lines of a batch, on every core:
// all of it depends on the line alone.
func (rd Reader) check(batch []pending) {
	parse := rd.Parse
	if parse == nil {
		parse = decode // judged below, after the signature
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(batch)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(batch); i = int(next.Add(1) - 1) {
				p := &batch[i]
				if p.line == nil {
					continue
				}
				p.rec, p.parseErr = parse(p.line)
				if p.parseErr != nil {
					continue
				}
				if rd.Verifier != nil {
					p.unsigned, p.err = rd.Verifier.check(p.line, p.rec)
				}
				if p.err == nil {
					p.err = p.rec.Judge()
				}
			}
		}()
	}
	wg.Wait()
}

// take applies, in order, what depends on the lines before: the torn last
// line, games and game ids read before. It returns whether to stop.
func (rd Reader) take(out *Lines, p *pending, name string, bound int, seen map[gameKey]int, stop bool) bool {
	bad := func(err error) bool {
		out.Bad = append(out.Bad, &Bad{Name: name, N: p.n, Err: err})
		return stop
	}
	if p.over {
		out.NeedNewline = !p.newline
		return bad(fmt.Errorf("%w: record line %d is over %s (%d bytes); no record kinrow writes is that long",
			ErrLineTooLong, p.n, sizeText(bound), p.size))
	}
	if p.line == nil {
		return false
	}
	// A last line without its newline, a record or a bad line left out
	// (ReadEvery): a writer appending writes the newline first.
	out.NeedNewline = !p.newline
	if p.parseErr != nil {
		if !p.newline && isTorn(p.line) {
			out.Torn = &Torn{Name: name, N: p.n, Offset: p.start, Err: p.parseErr}
			out.NeedNewline = false // the line is cut: what stays ends with a newline
			return true
		}
		return bad(p.parseErr)
	}
	rec, err := p.rec, p.err
	if err == nil && (rec.Round != 0 || rec.Game != 0) {
		key := gameKey{rec.Schedule, rec.Round, rec.Game}
		if first, dup := seen[key]; dup {
			err = &dupError{fmt.Sprintf("round %d game %d is already recorded on line %d; a game is played and counted once",
				rec.Round, rec.Game, first)}
		} else {
			seen[key] = p.n
		}
	}
	if err == nil && rd.Verifier != nil {
		err = rd.Verifier.claim(rec.ID, fmt.Sprintf("%s:%d", name, p.n), p.unsigned)
	}
	if err != nil {
		return bad(err)
	}
	out.Records = append(out.Records, Line{N: p.n, Rec: rec, Raw: p.line})
	return false
}

// isTorn tells whether a last line without its newline is the start of a
// record line cut short.
func isTorn(line []byte) bool {
	return !json.Valid(line) && (bytes.HasPrefix(line, linePrefix) || bytes.HasPrefix(linePrefix, line))
}
