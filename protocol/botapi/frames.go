package botapi

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/kinrow/kinrow/protocol/botpb"
)

// frameConn carries protobuf messages on a unix socket, each as a 4-byte
// big-endian length and the message's bytes (the Session's own socket, see
// BotMessage.hello). Reads are capped at MaxInfoSize, refused from the
// length alone; writes go out on the caller's goroutine, one write each.
//
// A read cut short by the read deadline (interrupt) keeps what it read:
// the next read goes on with the same frame.
type frameConn struct {
	w    io.Writer
	conn net.Conn // for the read deadline: nil on a blocking socket
	r    *bufio.Reader
	rbuf []byte
	head [4]byte // the length of the frame being read
	got  int     // its bytes read: head, then body

	dl    sync.Mutex // the read deadline's owner
	armed uint64     // the turn interrupt may cut; 0 for none
	turns uint64
	cut   bool // the read deadline is set

	mu   sync.Mutex // serialises writes
	wbuf []byte
}

// newFrameConn returns the frames on c: a net.Conn (whose reads interrupt
// can cut) or another socket.
func newFrameConn(c io.ReadWriter) *frameConn {
	conn, _ := c.(net.Conn)
	return &frameConn{w: c, conn: conn, r: bufio.NewReaderSize(c, 64<<10)}
}

// encodeError is a message that did not encode (nothing was sent).
type encodeError struct{ err error }

func (e *encodeError) Error() string { return "encode: " + e.err.Error() }
func (e *encodeError) Unwrap() error { return e.err }

// write sends m.
func (f *frameConn) write(m proto.Message) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := append(f.wbuf[:0], 0, 0, 0, 0)
	b, err := proto.MarshalOptions{}.MarshalAppend(b, m)
	if err != nil {
		return &encodeError{err}
	}
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	_, err = f.w.Write(b)
	if cap(b) <= 1<<20 {
		f.wbuf = b
	}
	return err
}

// read reads the next message into m: io.EOF when the other side closed
// between messages, a ResourceExhausted status past the cap,
// os.ErrDeadlineExceeded when interrupted.
func (f *frameConn) read(m proto.Message) error {
	for f.got < 4 {
		n, err := f.r.Read(f.head[f.got:])
		f.got += n
		if err != nil {
			if err == io.EOF && f.got > 0 {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
	}
	n := int(binary.BigEndian.Uint32(f.head[:]))
	if n > MaxInfoSize {
		return status.Errorf(codes.ResourceExhausted, "a message of %d bytes: over the %d-byte cap", n, MaxInfoSize)
	}
	if cap(f.rbuf) < n {
		f.rbuf = make([]byte, n)
	}
	buf := f.rbuf[:n]
	for f.got < 4+n {
		k, err := f.r.Read(buf[f.got-4:])
		f.got += k
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
	}
	f.got = 0
	if err := proto.Unmarshal(buf, m); err != nil {
		return status.Errorf(codes.Internal, "protocol error: a message that does not decode: %v", err)
	}
	return nil
}

// arm lets interrupt cut the reads until disarm; it returns the turn to
// pass to interrupt.
func (f *frameConn) arm() uint64 {
	f.dl.Lock()
	defer f.dl.Unlock()
	f.turns++
	f.armed = f.turns
	return f.armed
}

// interrupt makes the read under way, and the next ones until disarm,
// return os.ErrDeadlineExceeded, if turn is still armed.
func (f *frameConn) interrupt(turn uint64) {
	f.dl.Lock()
	defer f.dl.Unlock()
	if f.armed == turn {
		f.cut = true
		_ = f.conn.SetReadDeadline(time.Unix(1, 0))
	}
}

// disarm ends the turn of arm: reads block again.
func (f *frameConn) disarm() {
	f.dl.Lock()
	defer f.dl.Unlock()
	f.armed = 0
	if f.cut {
		f.cut = false
		_ = f.conn.SetReadDeadline(time.Time{})
	}
}

// hostFrames is the host's side of a Session on its own socket.
type hostFrames struct{ *frameConn }

func (h hostFrames) Send(m *botpb.HostMessage) error { return h.write(m) }
func (h hostFrames) Recv() (*botpb.BotMessage, error) {
	m := new(botpb.BotMessage)
	return m, h.read(m)
}

// botFrames is the bot's side of a Session on its own socket.
type botFrames struct{ *frameConn }

func (b botFrames) Send(m *botpb.BotMessage) error { return b.write(m) }
func (b botFrames) Recv() (*botpb.HostMessage, error) {
	m := new(botpb.HostMessage)
	return m, b.read(m)
}
