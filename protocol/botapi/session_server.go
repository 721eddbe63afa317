package botapi

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/kinrow/kinrow/protocol/botpb"
)

// DirectSolver is optionally implemented by a Bot (protocol/sdk's is) to
// solve one request on the calling goroutine: the Session handler then
// solves batches without a stream's goroutine hops.
type DirectSolver interface {
	SolveOne(ctx context.Context, req SolveRequest) (SolveReply, error)
}

// solveFlushEvery bounds how long solved positions wait in the bot for the
// rest of their batch before they are sent.
const solveFlushEvery = 2 * time.Millisecond

// Session serves Bot.Session (plugin protocol version 2): the requests of
// the game one at a time in the order sent, a Cancel at once, solve batches
// beside the game.
//
// The goroutine that reads a request serves it (no hand-over to a worker,
// which costs a wake-up per message). On the bot's own socket a genmove
// too: the host's Cancels come on the gRPC stream then, read by a
// goroutine of their own. On the gRPC stream alone, a genmove is served by
// the goroutine that read it while a new one takes over the reading, so
// that a Cancel is read meanwhile; a game request read then waits for the
// genmove to end.
func (s *GRPCServer) Session(grpcStream botpb.Bot_SessionServer) error {
	ctx, cancel := context.WithCancel(grpcStream.Context())
	defer cancel()
	idle := make(chan struct{})
	close(idle)
	ss := &serverSession{
		impl: s.Impl, stream: grpcStream, ctx: ctx, cancelled: map[uint64]bool{}, running: map[uint64]context.CancelFunc{},
		solves: make(chan *botpb.HostMessage, 1024), result: make(chan error, 1), idle: idle,
	}
	var sock net.Conn
	if s.OwnSocket {
		var err error
		if sock, err = s.ownSocket(ctx, grpcStream); err != nil {
			return err
		}
	}
	if sock != nil {
		bs := blockingSocket(sock)
		defer bs.Close()
		stop := context.AfterFunc(ctx, func() { bs.Close() })
		defer stop()
		ss.stream, ss.ownSocket = botFrames{newFrameConn(bs)}, true
		go func() { // the gRPC stream carries the Cancels now
			for {
				m, err := grpcStream.Recv()
				if err != nil {
					return // the session's end; the socket tells it
				}
				if c := m.GetCancel(); c != nil {
					ss.cancel(c.GetTarget())
				}
			}
		}()
	} else if err := grpcStream.Send(&botpb.BotMessage{Reply: &botpb.BotMessage_Hello{}}); err != nil {
		return err
	}
	ss.wg.Add(1)
	go func() {
		defer ss.wg.Done()
		for m := range ss.solves {
			ss.solve(m)
		}
	}()
	go ss.read(nil)
	err := <-ss.result // the last reader ended: the stream is over
	cancel()           // stops what is under way before waiting for it
	close(ss.solves)
	ss.wg.Wait()
	if err == io.EOF {
		return nil
	}
	return err
}

// read serves the requests in pending, then reads and serves the next,
// until the stream ends (its error to ss.result) or, on the gRPC stream
// alone, a genmove comes: a new reader takes over and this goroutine
// serves the genmove.
func (ss *serverSession) read(pending []*botpb.HostMessage) {
	for {
		for i, m := range pending {
			ss.mu.Lock()
			idle := ss.idle
			ss.mu.Unlock()
			<-idle // a genmove under way ends first
			if m.GetGenMove() != nil && !ss.ownSocket {
				ss.wg.Add(1)
				done := make(chan struct{})
				ss.mu.Lock()
				ss.idle = done
				ss.mu.Unlock()
				go ss.read(append([]*botpb.HostMessage(nil), pending[i+1:]...))
				ss.game(m)
				close(done)
				ss.wg.Done()
				return
			}
			ss.game(m)
		}
		m, err := ss.stream.Recv()
		if err != nil {
			ss.result <- err
			return
		}
		pending = ss.route(m, pending[:0])
	}
}

// route acts on a Cancel and hands a solve batch to its worker at once,
// and returns the game requests of m (a batch's in order) added to games.
func (ss *serverSession) route(m *botpb.HostMessage, games []*botpb.HostMessage) []*botpb.HostMessage {
	switch r := m.GetRequest().(type) {
	case *botpb.HostMessage_Cancel:
		ss.cancel(r.Cancel.GetTarget())
	case *botpb.HostMessage_Solve:
		ss.solves <- m
	case *botpb.HostMessage_Batch:
		for _, inner := range r.Batch.GetRequests() {
			if _, nested := inner.GetRequest().(*botpb.HostMessage_Batch); !nested {
				games = ss.route(inner, games)
			}
		}
	default:
		games = append(games, m)
	}
	return games
}

// botStream is the bot's end of a Session: the gRPC stream, or its own
// socket (botFrames).
type botStream interface {
	Send(*botpb.BotMessage) error
	Recv() (*botpb.HostMessage, error)
}

// ownSocket listens on a unix socket of its own in go-plugin's socket
// directory, says its path in the hello and waits for the host's
// connection (at most helloTimeout), then removes the socket. Where no
// unix socket can be made it returns no connection and no error.
func (s *GRPCServer) ownSocket(ctx context.Context, grpcStream botpb.Bot_SessionServer) (net.Conn, error) {
	dir := os.Getenv("PLUGIN_UNIX_SOCKET_DIR")
	if dir == "" {
		dir = os.TempDir()
	}
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	path := filepath.Join(dir, fmt.Sprintf("kinrow-session-%d-%x", os.Getpid(), rnd))
	ln, err := net.Listen("unix", path)
	if err != nil {
		// No unix sockets here (wine's Windows, an old Windows): the
		// session stays on the gRPC stream.
		return nil, nil
	}
	defer ln.Close() // removes the socket file
	if err := grpcStream.Send(&botpb.BotMessage{Reply: &botpb.BotMessage_Hello{Hello: path}}); err != nil {
		return nil, err
	}
	type accepted struct {
		c   net.Conn
		err error
	}
	got := make(chan accepted, 1)
	go func() {
		c, err := ln.Accept()
		got <- accepted{c, err}
	}()
	timer := time.NewTimer(helloTimeout)
	defer timer.Stop()
	select {
	case a := <-got:
		if a.err != nil {
			return nil, status.Errorf(codes.Internal, "accept the session: %v", a.err)
		}
		return a.c, nil
	case <-ctx.Done():
	case <-timer.C:
	}
	ln.Close()
	if a := <-got; a.c != nil {
		a.c.Close()
	}
	return nil, status.Error(codes.DeadlineExceeded, "the host did not connect to the session socket")
}

// serverSession is the bot's side of one Session stream.
type serverSession struct {
	impl   Bot
	stream botStream
	ctx    context.Context

	solves chan *botpb.HostMessage // to the solve worker
	result chan error              // the stream's end, from the last reader
	wg     sync.WaitGroup          // the solve worker and genmoves under way

	// ownSocket: the requests come on the bot's own socket, the Cancels
	// on the gRPC stream.
	ownSocket bool

	sendMu sync.Mutex

	mu        sync.Mutex
	idle      chan struct{}                 // closed while no genmove runs
	running   map[uint64]context.CancelFunc // the genmove and batch under way
	cancelled map[uint64]bool               // cancelled before it started
}

func (ss *serverSession) send(m *botpb.BotMessage) {
	ss.sendMu.Lock()
	defer ss.sendMu.Unlock()
	_ = ss.stream.Send(m) // a broken stream ends Recv too
}

func (ss *serverSession) failure(seq uint64, err error) {
	st := status.Convert(toStatus(err))
	ss.send(&botpb.BotMessage{Seq: seq, Reply: &botpb.BotMessage_Failure{Failure: &botpb.Failure{Code: int32(st.Code()), Message: st.Message()}}})
}

// cancel stops request seq: now if it is under way, at its start if not.
func (ss *serverSession) cancel(seq uint64) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if stop, ok := ss.running[seq]; ok {
		stop()
		return
	}
	if len(ss.cancelled) < 1024 { // a cancel of what already ended is never used
		ss.cancelled[seq] = true
	}
}

// begin returns the context of request seq, cancelled already if a Cancel
// came first; end releases it.
func (ss *serverSession) begin(seq uint64) (context.Context, func()) {
	ctx, stop := context.WithCancel(ss.ctx)
	ss.mu.Lock()
	if ss.cancelled[seq] {
		delete(ss.cancelled, seq)
		stop()
	}
	ss.running[seq] = stop
	ss.mu.Unlock()
	return ctx, func() {
		ss.mu.Lock()
		delete(ss.running, seq)
		ss.mu.Unlock()
		stop()
	}
}

// game serves one game request.
func (ss *serverSession) game(m *botpb.HostMessage) {
	seq := m.GetSeq()
	switch r := m.GetRequest().(type) {
	case *botpb.HostMessage_Info:
		info, err := ss.impl.Info(ss.ctx)
		if err != nil {
			ss.failure(seq, err)
			return
		}
		ss.send(&botpb.BotMessage{Seq: seq, Reply: &botpb.BotMessage_Info{Info: infoToPB(info)}})
	case *botpb.HostMessage_NewGame:
		if err := ss.impl.NewGame(ss.ctx, newGameFromPB(r.NewGame)); err != nil {
			ss.failure(seq, err)
			return
		}
		ss.send(&botpb.BotMessage{Seq: seq, Reply: &botpb.BotMessage_Done{Done: &botpb.Done{}}})
	case *botpb.HostMessage_Play:
		if err := ss.impl.Play(ss.ctx, r.Play.GetMove()); err != nil {
			ss.failure(seq, err)
		}
	case *botpb.HostMessage_Undo:
		if err := ss.impl.Undo(ss.ctx); err != nil {
			ss.failure(seq, err)
		}
	case *botpb.HostMessage_GenMove:
		ctx, end := ss.begin(seq)
		var mu sync.Mutex // done drops reports after the move
		done := false
		progress := func(p Progress) {
			mu.Lock()
			defer mu.Unlock()
			if !done {
				ss.send(&botpb.BotMessage{Seq: seq, Reply: &botpb.BotMessage_Progress{Progress: progressToPB(p)}})
			}
		}
		move, err := ss.impl.GenMove(ctx, genMoveFromPB(r.GenMove), progress)
		mu.Lock()
		done = true
		mu.Unlock()
		end()
		if err != nil {
			ss.failure(seq, err)
			return
		}
		ss.send(&botpb.BotMessage{Seq: seq, Reply: &botpb.BotMessage_Move{Move: move}})
	default:
		ss.failure(seq, status.Error(codes.Unimplemented, "unknown request"))
	}
}

// solve answers one batch, sending what is solved at the end of the batch,
// every solveFlushEvery, and before a message would pass half the cap.
func (ss *serverSession) solve(m *botpb.HostMessage) {
	seq := m.GetSeq()
	ctx, end := ss.begin(seq)
	defer end()
	direct, ok := ss.impl.(DirectSolver)
	var stream SolveStream
	if !ok {
		var err error
		if stream, err = ss.impl.Solve(ctx); err != nil {
			ss.failure(seq, err)
			return
		}
	}
	reqs := m.GetSolve().GetRequests()
	out := &botpb.SolveReplies{Replies: make([]*botpb.SolveReply, 0, len(reqs))}
	size, first := 0, time.Time{}
	flush := func() {
		if len(out.Replies) > 0 {
			ss.send(&botpb.BotMessage{Seq: seq, Reply: &botpb.BotMessage_Solved{Solved: out}})
			out = &botpb.SolveReplies{Replies: make([]*botpb.SolveReply, 0, len(reqs))}
			size = 0
		}
	}
	for _, pr := range reqs {
		req := solveRequestFromPB(pr)
		var reply SolveReply
		var err error
		switch {
		case ctx.Err() != nil:
			reply = SolveReply{ID: req.ID}
		case direct != nil:
			reply, err = direct.SolveOne(ctx, req)
		default:
			if err = stream.Send(req); err == nil {
				reply, err = stream.Recv()
			}
		}
		if err != nil {
			flush()
			ss.failure(seq, err)
			return
		}
		reply.ID = req.ID
		r := solveReplyToPB(reply)
		n := proto.Size(r) + 8
		if size+n > MaxInfoSize/2 {
			flush()
		}
		if len(out.Replies) == 0 {
			first = time.Now()
		}
		out.Replies = append(out.Replies, r)
		size += n
		if time.Since(first) >= solveFlushEvery {
			flush()
		}
	}
	flush()
	if stream != nil {
		_ = stream.CloseSend()
	}
}
