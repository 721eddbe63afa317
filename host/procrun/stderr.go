package procrun

import (
	"bufio"
	"errors"
	"io"
	"sync"
	"time"
)

// StderrCap is how much of a bot's stderr is logged per move (or per
// period where the host cannot tell moves apart); the rest is counted and
// dropped.
const StderrCap = 64 << 10

// maxLine bounds one logged line; a longer one is cut and its rest counted
// as dropped.
const maxLine = 4 << 10

// StderrLog logs a bot's stderr line by line, at most StderrCap bytes
// between two Resets; what it drops past the cap is counted and reported
// at the next Reset (and at the end).
type StderrLog struct {
	// Period, when set, makes the cap apply afresh after that long even
	// without a Reset (for hosts that cannot tell moves apart).
	Period time.Duration

	log func(line string)
	// dropped reports bytes and lines dropped since the last Reset.
	dropped func(bytes, lines int64)

	mu           sync.Mutex
	used         int64
	dropB, dropL int64
	since        time.Time
}

// NewStderrLog returns a StderrLog logging each kept line with log and
// reporting what was dropped with dropped.
func NewStderrLog(log func(line string), dropped func(bytes, lines int64)) *StderrLog {
	return &StderrLog{log: log, dropped: dropped}
}

// Reset starts a new move: the cap applies afresh, and what was dropped in
// the last is reported.
func (s *StderrLog) Reset() {
	s.mu.Lock()
	b, l := s.dropB, s.dropL
	s.used, s.dropB, s.dropL = 0, 0, 0
	s.mu.Unlock()
	if b > 0 {
		s.dropped(b, l)
	}
}

// Copy reads r until it ends, logging lines under the cap; then reports
// what was dropped.
func (s *StderrLog) Copy(r io.Reader) {
	br := bufio.NewReaderSize(r, maxLine)
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 {
			s.line(line, err == nil)
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			break
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			// The rest of an over-long line is dropped, not logged as lines.
			n := int64(0)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				n += int64(len(line))
			}
			s.mu.Lock()
			s.dropB += n
			s.mu.Unlock()
			if err != nil {
				break
			}
		}
	}
	s.Reset()
}

func (s *StderrLog) line(b []byte, whole bool) {
	if s.Period > 0 {
		s.mu.Lock()
		if s.since.IsZero() {
			s.since = time.Now()
		}
		over := time.Since(s.since) > s.Period
		s.mu.Unlock()
		if over {
			s.Reset()
			s.mu.Lock()
			s.since = time.Now()
			s.mu.Unlock()
		}
	}
	s.mu.Lock()
	if s.used+int64(len(b)) > StderrCap {
		s.dropB += int64(len(b))
		s.dropL++
		s.mu.Unlock()
		return
	}
	s.used += int64(len(b))
	s.mu.Unlock()
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	s.log(string(b))
}
