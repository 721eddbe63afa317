package botapi

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/kinrow/kinrow/protocol/botpb"
)

// frameConn carries protobuf messages on a unix socket, each as a 4-byte
// big-endian length and the message's bytes (the Session's own socket, see
// BotMessage.hello). Reads are capped at MaxInfoSize, refused from the
// length alone; writes go out on the caller's goroutine, one write each.
type frameConn struct {
	conn net.Conn
	r    *bufio.Reader
	rbuf []byte

	mu   sync.Mutex // serialises writes
	wbuf []byte
}

func newFrameConn(c net.Conn) *frameConn {
	return &frameConn{conn: c, r: bufio.NewReaderSize(c, 64<<10)}
}

// write sends m.
func (f *frameConn) write(m proto.Message) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := append(f.wbuf[:0], 0, 0, 0, 0)
	b, err := proto.MarshalOptions{}.MarshalAppend(b, m)
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	binary.BigEndian.PutUint32(b, uint32(len(b)-4))
	_, err = f.conn.Write(b)
	if cap(b) <= 1<<20 {
		f.wbuf = b
	}
	return err
}

// read reads the next message into m: io.EOF when the other side closed
// between messages, a ResourceExhausted status past the cap.
func (f *frameConn) read(m proto.Message) error {
	var head [4]byte
	if _, err := io.ReadFull(f.r, head[:]); err != nil {
		return err
	}
	n := binary.BigEndian.Uint32(head[:])
	if n > MaxInfoSize {
		return status.Errorf(codes.ResourceExhausted, "a message of %d bytes: over the %d-byte cap", n, MaxInfoSize)
	}
	if cap(f.rbuf) < int(n) {
		f.rbuf = make([]byte, n)
	}
	buf := f.rbuf[:n]
	if _, err := io.ReadFull(f.r, buf); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	if err := proto.Unmarshal(buf, m); err != nil {
		return status.Errorf(codes.Internal, "protocol error: a message that does not decode: %v", err)
	}
	return nil
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
