package botapi

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"

	"github.com/kinrow/kinrow/protocol/botpb"
)

// stopper is a Bot whose GenMove runs until its context ends, then answers
// "late"; stopped gets that context's error.
type stopper struct {
	Bot
	stopped chan error
}

func (stopper) Info(context.Context) (Info, error)  { return Info{Name: "stopper"}, nil }
func (stopper) NewGame(context.Context, Game) error { return nil }
func (b stopper) GenMove(ctx context.Context, _ GenMoveRequest, _ func(Progress)) (string, error) {
	<-ctx.Done()
	b.stopped <- ctx.Err()
	return "late", nil
}

// endingServer passes on the end of each Session it serves.
type endingServer struct {
	*GRPCServer
	ended chan error
}

func (s endingServer) Session(st botpb.Bot_SessionServer) error {
	err := s.GRPCServer.Session(st)
	s.ended <- err
	return err
}

// serveSession serves impl's Session in this process on a unix socket and
// opens it: on the bot's own socket (ownSocket) or on the gRPC stream.
func serveSession(t *testing.T, impl Bot, ownSocket bool) *SessionClient {
	t.Helper()
	c, _, _ := serveSessionEnds(t, impl, ownSocket)
	return c
}

// serveSessionEnds is serveSession, with the server and the ends of its
// Sessions.
func serveSessionEnds(t *testing.T, impl Bot, ownSocket bool) (*SessionClient, *grpc.Server, chan error) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("PLUGIN_UNIX_SOCKET_DIR", dir)
	ln, err := net.Listen("unix", filepath.Join(dir, "grpc"))
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer(ServerOptions()...)
	ended := make(chan error, 1)
	botpb.RegisterBotServer(srv, endingServer{&GRPCServer{Impl: impl, OwnSocket: ownSocket}, ended})
	go srv.Serve(ln)
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient("unix://"+ln.Addr().String(), append(DialOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	c, err := OpenSession(ctx, conn, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if (c.frames != nil) != ownSocket {
		t.Fatalf("own socket %v, want %v", c.frames != nil, ownSocket)
	}
	return c, srv, ended
}

// TestSessionEndWakesTheBot: the bot's reader, blocked in the kernel on
// its own socket, wakes when the host closes the session and when the
// bot's server stops; the Session ends either way.
func TestSessionEndWakesTheBot(t *testing.T) {
	for _, by := range []string{"host", "server"} {
		t.Run(by, func(t *testing.T) {
			c, srv, ended := serveSessionEnds(t, stopper{stopped: make(chan error, 1)}, true)
			if _, err := c.Info(context.Background()); err != nil {
				t.Fatal(err)
			}
			time.Sleep(20 * time.Millisecond) // the bot's reader blocks
			if by == "host" {
				c.Close()
			} else {
				srv.Stop()
			}
			select {
			case <-ended:
			case <-time.After(10 * time.Second):
				t.Fatalf("the bot's Session did not end when the %s closed it", by)
			}
		})
	}
}

// TestSessionCancelReachesTheBot: a genmove whose caller gives up is
// cancelled in the bot (on the bot's own socket the Cancel travels on the
// gRPC stream, while the socket's reader serves the genmove), its late
// answer is dropped, and the next request gets its own answer.
func TestSessionCancelReachesTheBot(t *testing.T) {
	for _, own := range []bool{true, false} {
		name := "grpc-stream"
		if own {
			name = "own-socket"
		}
		t.Run(name, func(t *testing.T) {
			bot := stopper{stopped: make(chan error, 1)}
			c := serveSession(t, bot, own)
			ctx := context.Background()
			if err := c.NewGame(ctx, Game{Rules: "connect4"}); err != nil {
				t.Fatal(err)
			}
			gctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			defer cancel()
			if _, err := c.GenMove(gctx, GenMoveRequest{}, nil); !IsDeadline(err) {
				t.Fatalf("GenMove past its context = %v, want a deadline", err)
			}
			select {
			case err := <-bot.stopped:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("the bot's genmove ended by %v, want the host's Cancel", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the bot's genmove was never cancelled")
			}
			ictx, icancel := context.WithTimeout(ctx, 10*time.Second)
			defer icancel()
			info, err := c.Info(ictx)
			if err != nil || info.Name != "stopper" {
				t.Errorf("Info after the cancelled genmove = %+v, %v", info, err)
			}
		})
	}
}

// TestSessionReadInterrupted: a caller reading the bot's socket itself
// returns at its context's end even though nothing came; the answer that
// comes later is read by the next caller, whole, and dropped.
func TestSessionReadInterrupted(t *testing.T) {
	bot := stopper{stopped: make(chan error, 1)}
	c := serveSession(t, bot, true)
	ctx := context.Background()
	for i := range 3 {
		gctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		start := time.Now()
		_, err := c.GenMove(gctx, GenMoveRequest{}, nil)
		cancel()
		if !IsDeadline(err) || time.Since(start) > 5*time.Second {
			t.Fatalf("GenMove %d = %v after %v, want a deadline at 20 ms", i, err, time.Since(start))
		}
		<-bot.stopped
	}
	info, err := c.Info(ctx)
	if err != nil || info.Name != "stopper" {
		t.Errorf("Info after three cancelled genmoves = %+v, %v", info, err)
	}
}

// TestFrameReadResumes: a read cut by interrupt in the middle of a frame
// keeps what it read; the next read returns the whole message.
func TestFrameReadResumes(t *testing.T) {
	host, bot := net.Pipe()
	defer host.Close()
	defer bot.Close()
	f := newFrameConn(host)
	want := &botpb.BotMessage{Seq: 7, Reply: &botpb.BotMessage_Move{Move: "d4"}}
	b, err := proto.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	frame := append([]byte{0, 0, 0, byte(len(b))}, b...)
	for _, cut := range []int{2, 4, 6} { // in the length, after it, in the body
		// One writer, in order: the first part, the interrupt once the
		// reader has taken that part (net.Pipe's Write returns only then),
		// and the rest only after the cut read returned.
		turn := f.arm()
		rest := make(chan struct{})
		wrote := make(chan error, 1)
		go func() {
			if _, err := bot.Write(frame[:cut]); err != nil {
				wrote <- err
				return
			}
			f.interrupt(turn)
			<-rest
			_, err := bot.Write(frame[cut:])
			wrote <- err
		}()
		var m botpb.BotMessage
		if err := f.read(&m); !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("cut at %d: read = %v, want the deadline", cut, err)
		}
		f.disarm()
		close(rest)
		if err := f.read(&m); err != nil || !proto.Equal(&m, want) {
			t.Fatalf("cut at %d: read on = %v, %v", cut, &m, err)
		}
		if err := <-wrote; err != nil {
			t.Fatalf("cut at %d: write: %v", cut, err)
		}
	}
}
