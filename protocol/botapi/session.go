package botapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/kinrow/kinrow/protocol/botpb"
)

// SessionClient is a Bot served by another process over plugin protocol
// version 2: one long-lived Session stream carries every request and
// answer. Play and Undo return at once: the bot answers them only when they
// fail, and they are held until the next request, which carries them in the
// same message (a move then costs one message each way); a failure is
// returned by the next GenMove, Play or Undo (after which every call fails:
// the session is broken). Anything the bot sends that the protocol does not allow (an
// answer nobody asked for, answers out of order, a message over the size
// caps, the stream closed while an answer is due) breaks the session with
// a protocol error naming what came; every call then fails with it.
//
// On the bot's own socket, the caller waiting for an answer reads the
// stream itself (no goroutine between the socket and the caller): whoever
// waits takes readTurn, reads and hands out messages until its own answer
// came, and gives the turn back. What the bot sends while nobody waits is
// read, and checked, by the next one who waits. On gRPC's stream a
// goroutine holds the turn for good.
type SessionClient struct {
	stream hostStream
	frames *frameConn      // the bot's own socket; nil on gRPC's stream
	parent context.Context // the plugin process's life
	cancel context.CancelFunc
	// On the bot's own socket, the gRPC stream carries the Cancels (the bot
	// serves a genmove on the goroutine that reads its socket) and grpcEnd
	// gets its end.
	grpc    botpb.Bot_SessionClient
	grpcMu  sync.Mutex // serialises Cancels on grpc
	grpcEnd chan error
	// readTurn holds the one right to read the stream.
	readTurn chan struct{}
	ended    chan struct{} // closed when the session broke

	sendMu sync.Mutex
	seq    uint64               // the last seq sent, under sendMu
	held   []*botpb.HostMessage // plays and undos not sent yet, under sendMu
	batch  botpb.Batch          // the message held ones go in on the own socket, under sendMu

	mu      sync.Mutex
	queue   []*call               // game requests sent, not answered yet, in order
	retired uint64                // the highest seq of a game request done
	batches map[uint64]*solveCall // solve batches not fully answered
	broken  error                 // the session's end: every call fails with it
	failed  error                 // a Play or Undo the bot failed, not reported yet
}

var _ Bot = (*SessionClient)(nil)

// hostStream is the host's end of a Session: the gRPC stream, or the bot's
// own socket (hostFrames).
type hostStream interface {
	Send(*botpb.HostMessage) error
	Recv() (*botpb.BotMessage, error)
}

// helloTimeout bounds the wait for a bot's first message on the Session.
const helloTimeout = 10 * time.Second

// rawEOFWait is how long the host waits, when the bot's socket closes, for
// the gRPC connection to tell whether the process is gone (a disconnect) or
// the bot closed its session (a protocol error).
const rawEOFWait = 500 * time.Millisecond

// kind is a request's kind, for checking what answers it.
type kind uint8

const (
	kindInfo kind = iota
	kindNewGame
	kindPlay
	kindUndo
	kindGenMove
)

var kindOp = [...]string{kindInfo: "info", kindNewGame: "newgame", kindPlay: "play", kindUndo: "undo", kindGenMove: "genmove"}

// call is one game request awaiting its answer.
type call struct {
	seq   uint64
	kind  kind
	what  string                 // for errors: "play 4"
	ch    chan *botpb.BotMessage // the answers; nil for play and undo
	final bool                   // the answer came
}

// solveCall is one solve batch.
type solveCall struct {
	s    *sessionSolveStream
	left map[uint64]struct{} // the ids not answered yet
}

// OpenSession opens the Session stream over conn; ctx bounds the session
// (go-plugin's context of the plugin process). check, if not nil, is asked
// about the socket the bot's hello names before it is dialled.
func OpenSession(parent context.Context, conn grpc.ClientConnInterface, dial func(ctx context.Context, path string) (net.Conn, error)) (*SessionClient, error) {
	ctx, cancel := context.WithCancel(parent)
	stream, err := botpb.NewBotClient(conn).Session(ctx, recvCap(MaxInfoSize))
	if err != nil {
		cancel()
		return nil, wireError("session", err)
	}
	// The bot's hello: go on on this stream, or on its own socket.
	timer := time.AfterFunc(helloTimeout, cancel)
	hello, err := stream.Recv()
	if !timer.Stop() {
		err = fmt.Errorf("no hello within %s: %w", helloTimeout, context.DeadlineExceeded)
	}
	if err != nil {
		cancel()
		return nil, wireError("session", err)
	}
	h, ok := hello.GetReply().(*botpb.BotMessage_Hello)
	if !ok || hello.GetSeq() != 0 {
		cancel()
		return nil, protocolError("the bot sent %s first, not its hello", describe(hello))
	}
	c := &SessionClient{stream: stream, parent: parent, cancel: cancel, readTurn: make(chan struct{}, 1), ended: make(chan struct{}),
		batches: map[uint64]*solveCall{}}
	if path := h.Hello; path != "" {
		if dial == nil {
			dial = func(ctx context.Context, path string) (net.Conn, error) {
				var d net.Dialer
				return d.DialContext(ctx, "unix", path)
			}
		}
		dctx, dcancel := context.WithTimeout(ctx, helloTimeout)
		sock, err := dial(dctx, path)
		dcancel()
		var refused *SocketRefused
		if errors.As(err, &refused) {
			cancel()
			return nil, protocolError("the bot's session hello names socket %q: %v", path, refused.Err)
		}
		if err != nil {
			cancel()
			return nil, &Error{Op: "session", status: status.Newf(codes.Unavailable, "connect to the bot's socket: %v", err)}
		}
		c.frames = newFrameConn(sock)
		c.stream, c.grpc = hostFrames{c.frames}, stream
		c.grpcEnd = make(chan error, 1)
		go func() { // the gRPC stream now only tells how the bot ends
			_, err := stream.Recv()
			for err == nil {
				_, err = stream.Recv()
			}
			c.grpcEnd <- err
		}()
		context.AfterFunc(ctx, func() { sock.Close() })
		c.readTurn <- struct{}{}
	} else {
		go c.receive()
	}
	return c, nil
}

// SocketRefused is what a host's SocketDial returns for a socket it will
// not dial (outside the bot's private directory, a link): the session
// fails with a protocol error naming it.
type SocketRefused struct{ Err error }

func (e *SocketRefused) Error() string { return e.Err.Error() }
func (e *SocketRefused) Unwrap() error { return e.Err }

// Close ends the session.
func (c *SessionClient) Close() {
	c.fail(&Error{Op: "session", status: status.New(codes.Canceled, "the session was closed by the host")})
	c.cancel()
}

// protocolError is the error of a bot that broke the protocol.
func protocolError(format string, args ...any) error {
	return &Error{Op: "session", status: status.Newf(codes.Internal, "protocol error: "+format, args...)}
}

// fail breaks the session with err (the first one wins) and wakes every
// caller.
func (c *SessionClient) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.failLocked(err)
}

// failLocked is fail for a caller holding c.mu.
func (c *SessionClient) failLocked(err error) {
	if c.broken != nil {
		return
	}
	c.broken = err
	close(c.ended)
	for _, k := range c.queue {
		if k.ch != nil && !k.final {
			close(k.ch)
		}
	}
	c.queue = nil
	for _, b := range c.batches {
		b.s.end(err)
	}
	c.batches = nil
	c.cancel()
}

// describe names a message for a protocol error: its kind and seq.
func describe(m *botpb.BotMessage) string {
	what := "an empty message"
	switch r := m.GetReply().(type) {
	case *botpb.BotMessage_Info:
		what = "an info reply"
	case *botpb.BotMessage_Done:
		what = "a done"
	case *botpb.BotMessage_Failure:
		what = fmt.Sprintf("a failure (%s: %s)", codes.Code(r.Failure.GetCode()), quoteCut(r.Failure.GetMessage(), 80))
	case *botpb.BotMessage_Progress:
		what = "a progress report"
	case *botpb.BotMessage_Move:
		what = fmt.Sprintf("a move %s", quoteCut(r.Move, 80))
	case *botpb.BotMessage_Solved:
		what = fmt.Sprintf("%d solve replies", len(r.Solved.GetReplies()))
	case *botpb.BotMessage_Hello:
		what = "a hello"
	}
	return fmt.Sprintf("%s for request %d", what, m.GetSeq())
}

func quoteCut(s string, n int) string {
	if len(s) > n {
		return fmt.Sprintf("%q… (%d bytes)", cutUTF8(s, n), len(s))
	}
	return fmt.Sprintf("%q", s)
}

// receive reads the bot's messages until the stream ends (gRPC's stream:
// this goroutine holds readTurn for good).
func (c *SessionClient) receive() {
	for c.readOne() {
	}
}

// readOne reads one message and hands it to its caller; the caller holds
// readTurn. It reports false when the session broke, or when the read was
// interrupted (see readFor).
func (c *SessionClient) readOne() bool {
	select {
	case <-c.ended:
		return false
	default:
	}
	m, err := c.stream.Recv()
	if err != nil {
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			c.streamEnded(err)
		}
		return false
	}
	if err := c.dispatch(m); err != nil {
		c.fail(err)
		return false
	}
	return true
}

// readFor reads while nothing came for the caller (full, false) and ctx
// lasts; the caller holds readTurn. A frame cut by ctx's end is read on by
// the next reader.
func (c *SessionClient) readFor(ctx context.Context, full func() bool) {
	if ctx.Err() != nil {
		return
	}
	if ctx.Done() != nil {
		turn := c.frames.arm()
		stop := context.AfterFunc(ctx, func() { c.frames.interrupt(turn) })
		defer func() {
			stop()
			c.frames.disarm()
		}()
	}
	for !full() && c.readOne() {
	}
}

// readUntilBroken reads until the session breaks: a send failed, and the
// stream's end tells why.
func (c *SessionClient) readUntilBroken() {
	select {
	case <-c.readTurn:
		for c.readOne() {
		}
		c.readTurn <- struct{}{}
	case <-c.ended:
	}
	<-c.ended
}

// streamEnded breaks the session when the stream ends with err.
func (c *SessionClient) streamEnded(err error) {
	c.mu.Lock()
	waiting := len(c.queue) > 0 || len(c.batches) > 0
	c.mu.Unlock()
	if c.grpcEnd != nil && (err == io.EOF || err == io.ErrUnexpectedEOF || isConnReset(err)) {
		// The socket closed: a process gone breaks the gRPC
		// connection too; a bot closing its session ends the gRPC
		// stream cleanly (or not at all).
		select {
		case gerr := <-c.grpcEnd:
			if gerr != io.EOF {
				err = status.Error(codes.Unavailable, "the bot's session socket closed: "+err.Error())
			} else {
				err = io.EOF
			}
		case <-time.After(rawEOFWait):
			err = io.EOF
		}
	}
	switch {
	case c.parent.Err() != nil:
		c.fail(&Error{Op: "session", status: status.New(codes.Unavailable, "the bot is gone: its plugin process exited")})
	case err == io.EOF && waiting:
		c.fail(protocolError("the bot closed its session stream while an answer was due"))
	case err == io.EOF:
		c.fail(protocolError("the bot closed its session stream"))
	case status.Code(err) == codes.ResourceExhausted:
		c.fail(&Error{Op: "session", status: status.Newf(codes.ResourceExhausted,
			"protocol error: the bot sent a message over the %d-byte cap: %s", MaxInfoSize, cutUTF8(status.Convert(err).Message(), MaxErrorLen))})
	default:
		c.fail(wireError("session", err))
	}
}

// dispatch hands one message to its caller.
func (c *SessionClient) dispatch(m *botpb.BotMessage) error {
	if s, ok := m.GetReply().(*botpb.BotMessage_Solved); ok {
		return c.dispatchSolved(m.GetSeq(), s.Solved)
	}
	if f, ok := m.GetReply().(*botpb.BotMessage_Failure); ok {
		c.mu.Lock()
		b, isBatch := c.batches[m.GetSeq()]
		if isBatch {
			delete(c.batches, m.GetSeq())
		}
		c.mu.Unlock()
		if isBatch {
			b.s.end(&Error{Op: "solve", status: failureStatus(f.Failure)})
			return nil
		}
	}
	switch m.GetReply().(type) {
	case *botpb.BotMessage_Progress, *botpb.BotMessage_Move, *botpb.BotMessage_Failure, *botpb.BotMessage_Done:
		if n := proto.Size(m); n > MaxAnswerSize {
			return &Error{Op: "session", status: status.Newf(codes.ResourceExhausted,
				"protocol error: the bot sent %s of %d bytes; an answer is at most %d", describe(&botpb.BotMessage{Seq: m.GetSeq()}), n, MaxAnswerSize)}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken != nil {
		return nil
	}
	// The answers to game requests come in the order asked; play and undo,
	// answered only when they fail, are done once a later one is answered.
	i := 0
	for i < len(c.queue) && c.queue[i].seq != m.GetSeq() {
		i++
	}
	if i == len(c.queue) {
		if seq := m.GetSeq(); seq != 0 && seq <= c.retired {
			return protocolError("the bot sent %s, which was done (answered, or passed by the answer to a later request): out of order", describe(m))
		}
		return protocolError("the bot sent %s, which was not asked", describe(m))
	}
	for _, e := range c.queue[:i] {
		if e.kind != kindPlay && e.kind != kindUndo {
			return protocolError("the bot sent %s before answering request %d (%s): out of order", describe(m), e.seq, e.what)
		}
	}
	k := c.queue[i]
	ok := false
	switch m.GetReply().(type) {
	case *botpb.BotMessage_Info:
		ok = k.kind == kindInfo
	case *botpb.BotMessage_Done:
		ok = k.kind == kindNewGame
	case *botpb.BotMessage_Failure:
		ok = true
	case *botpb.BotMessage_Progress:
		ok = k.kind == kindGenMove
	case *botpb.BotMessage_Move:
		ok = k.kind == kindGenMove
		if mv := m.GetMove(); ok && len(mv) > MaxMoveLen {
			return &Error{Op: "genmove", status: status.Newf(codes.ResourceExhausted,
				"the bot answered a move of %d bytes; a move is at most %d", len(mv), MaxMoveLen)}
		}
	}
	if !ok {
		return protocolError("the bot sent %s, which is not an answer to %s", describe(m), k.what)
	}
	if _, progress := m.GetReply().(*botpb.BotMessage_Progress); progress {
		if len(k.ch) < cap(k.ch)-1 { // room is kept for the final answer
			k.ch <- m
		} // else the caller is slow to take reports: this one is dropped
		return nil
	}
	c.retired = max(c.retired, k.seq)
	c.queue = append(c.queue[:0], c.queue[i+1:]...)
	if k.ch == nil { // a failed play or undo
		if c.failed == nil {
			c.failed = &Error{Op: kindOp[k.kind], status: failureStatus(m.GetFailure())}
			c.failed = fmt.Errorf("the bot failed to take %s: %w", k.what, c.failed)
		}
		return nil
	}
	k.final = true
	k.ch <- m
	close(k.ch)
	return nil
}

func failureStatus(f *botpb.Failure) *status.Status {
	code, msg := codes.Code(f.GetCode()), f.GetMessage()
	if code == codes.OK {
		code = codes.Unknown
	}
	if len(msg) > MaxErrorLen {
		msg = fmt.Sprintf("%s… (%d bytes cut)", cutUTF8(msg, MaxErrorLen), len(msg)-MaxErrorLen)
	}
	return status.New(code, msg)
}

// send sends m, after the held notifications in one message, registering
// what awaits its answer: k, a game request, or b, a solve batch (either
// may be nil). hold keeps m itself back (a play or undo) until the next
// request.
func (c *SessionClient) send(m *botpb.HostMessage, k *call, b *solveCall, hold bool) error {
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	c.mu.Lock()
	if c.broken != nil {
		err := c.broken
		c.mu.Unlock()
		return err
	}
	c.seq++
	m.Seq = c.seq
	if k != nil {
		k.seq = c.seq
		c.queue = append(c.queue, k)
	}
	if b != nil {
		c.batches[c.seq] = b
		b.s.mu.Lock()
		b.s.seqs = append(b.s.seqs, c.seq)
		b.s.mu.Unlock()
	}
	c.mu.Unlock()
	if hold {
		c.held = append(c.held, m)
		return nil
	}
	if len(c.held) > 0 {
		c.held = append(c.held, m)
		if c.frames == nil { // gRPC may keep a message it sent
			m = &botpb.HostMessage{Request: &botpb.HostMessage_Batch{Batch: &botpb.Batch{Requests: c.held}}}
			c.held = nil
		} else {
			c.batch.Requests = c.held
			m = &botpb.HostMessage{Request: &botpb.HostMessage_Batch{Batch: &c.batch}}
			defer func() { // the frame is written: the slice is free again
				clear(c.held)
				c.held, c.batch.Requests = c.held[:0], nil
			}()
		}
	}
	if err := c.stream.Send(m); err != nil {
		var enc *encodeError
		if errors.As(err, &enc) {
			return &Error{Op: "session", status: status.New(codes.InvalidArgument, err.Error())}
		}
		c.readUntilBroken() // the stream's end tells why
		return c.brokenErr()
	}
	return nil
}

func (c *SessionClient) brokenErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.broken
}

// takeFailed returns the failure of a Play or Undo not reported yet, which
// ends the session (the bot's game is not the host's any more); with
// broken, else the session's end if it broke.
func (c *SessionClient) takeFailed(broken bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.failed; err != nil {
		c.failed = nil
		c.failLocked(err)
		return err
	}
	if broken {
		return c.broken
	}
	return nil
}

// ask sends a request and waits for its final answer, passing progress
// reports to progress; ctx ends the wait (a genmove is then cancelled).
// While it waits it reads the stream itself when nobody else does.
func (c *SessionClient) ask(ctx context.Context, k kind, what string, m *botpb.HostMessage, progress func(*botpb.Progress)) (*botpb.BotMessage, error) {
	if err := ctx.Err(); err != nil {
		return nil, &Error{Op: kindOp[k], status: status.FromContextError(err)}
	}
	game := k != kindInfo && k != kindNewGame
	if game {
		if err := c.takeFailed(true); err != nil {
			return nil, err
		}
	}
	kc := &call{kind: k, what: what, ch: make(chan *botpb.BotMessage, 8)}
	if err := c.send(m, kc, nil, false); err != nil {
		return nil, err
	}
	for {
		select {
		case r, ok := <-kc.ch:
			if !ok {
				return nil, c.brokenErr()
			}
			if p, isProgress := r.GetReply().(*botpb.BotMessage_Progress); isProgress {
				if progress != nil {
					progress(p.Progress)
				}
				continue
			}
			if game {
				// A play or undo failed before this answer (a break of the
				// session after it is for the next request).
				if err := c.takeFailed(false); err != nil {
					return nil, err
				}
			}
			if f := r.GetFailure(); f != nil {
				return nil, &Error{Op: kindOp[k], status: failureStatus(f)}
			}
			return r, nil
		case <-c.readTurn:
			c.readFor(ctx, kc.answered)
			c.readTurn <- struct{}{}
		case <-ctx.Done():
			if k == kindGenMove {
				c.cancelRequest(kc.seq)
			}
			return nil, &Error{Op: kindOp[k], status: status.FromContextError(ctx.Err())}
		}
	}
}

// answered reports whether an answer (or a report) waits in k.ch.
func (k *call) answered() bool { return len(k.ch) > 0 }

// Info asks the bot to describe itself.
func (c *SessionClient) Info(ctx context.Context) (Info, error) {
	r, err := c.ask(ctx, kindInfo, "info", &botpb.HostMessage{Request: &botpb.HostMessage_Info{Info: &botpb.InfoRequest{}}}, nil)
	if err != nil {
		return Info{}, err
	}
	return infoFromPB(r.GetInfo()), nil
}

// NewGame starts a game on the bot. A Play or Undo of the previous game
// that the bot failed and that was not reported yet is forgotten.
func (c *SessionClient) NewGame(ctx context.Context, g Game) error {
	_, err := c.ask(ctx, kindNewGame, "newgame", &botpb.HostMessage{Request: &botpb.HostMessage_NewGame{NewGame: newGameToPB(g)}}, nil)
	if err == nil {
		c.mu.Lock()
		c.failed = nil
		c.mu.Unlock()
	}
	return err
}

// Play sends the move to the bot and returns without waiting: a failure
// comes back from the next GenMove, Play or Undo.
func (c *SessionClient) Play(ctx context.Context, move string) error {
	return c.notify(ctx, kindPlay, "move "+move, &botpb.HostMessage{Request: &botpb.HostMessage_Play{Play: &botpb.PlayRequest{Move: move}}})
}

// Undo sends the undo to the bot without waiting, as Play.
func (c *SessionClient) Undo(ctx context.Context) error {
	return c.notify(ctx, kindUndo, "the undo", &botpb.HostMessage{Request: &botpb.HostMessage_Undo{Undo: &botpb.UndoRequest{}}})
}

// notify holds a play or undo for the next request.
func (c *SessionClient) notify(ctx context.Context, k kind, what string, m *botpb.HostMessage) error {
	if err := c.takeFailed(true); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return &Error{Op: kindOp[k], status: status.FromContextError(err)}
	}
	return c.send(m, &call{kind: k, what: what}, nil, true)
}

// GenMove asks the bot for a move, passing its search reports to progress.
// When ctx ends first the bot is told to stop (its late answer is dropped).
func (c *SessionClient) GenMove(ctx context.Context, req GenMoveRequest, progress func(Progress)) (string, error) {
	var report func(*botpb.Progress)
	if progress != nil {
		report = func(p *botpb.Progress) { progress(progressFromPB(p)) }
	}
	r, err := c.ask(ctx, kindGenMove, "genmove", &botpb.HostMessage{Request: &botpb.HostMessage_GenMove{GenMove: genMoveToPB(req)}}, report)
	if err != nil {
		return "", err
	}
	return r.GetMove(), nil
}

// Solve opens a solving stream on the session: requests go in batches
// (SendBatch, or Send for one), replies come as the bot sends them.
func (c *SessionClient) Solve(ctx context.Context) (SolveStream, error) {
	s := &sessionSolveStream{c: c, ctx: ctx, replies: make(chan []SolveReply, 64), ended: make(chan struct{})}
	s.stopCancel = context.AfterFunc(ctx, s.cancelAll)
	return s, nil
}

// BatchSolveStream is a SolveStream that also sends and receives many
// positions per message (the SessionClient's).
type BatchSolveStream interface {
	SolveStream
	// SendBatch queues requests in one message.
	SendBatch([]SolveRequest) error
	// RecvBatch returns the next replies, as many as came in one message;
	// io.EOF once every request is answered after CloseSend.
	RecvBatch() ([]SolveReply, error)
}

// sessionSolveStream is a SolveStream over the session.
type sessionSolveStream struct {
	c          *SessionClient
	ctx        context.Context
	stopCancel func() bool // stops the cancel of the batches at ctx's end
	replies    chan []SolveReply
	pending    []SolveReply // of the last batch received, for Recv

	mu     sync.Mutex
	seqs   []uint64 // batches sent, not fully answered
	closed bool     // CloseSend was called
	err    error    // the end: io.EOF or why
	ended  chan struct{}
}

var _ BatchSolveStream = (*sessionSolveStream)(nil)

func (s *sessionSolveStream) Send(r SolveRequest) error { return s.SendBatch([]SolveRequest{r}) }

func (s *sessionSolveStream) SendBatch(reqs []SolveRequest) error {
	if err := s.ctx.Err(); err != nil {
		return &Error{Op: "solve", status: status.FromContextError(err)}
	}
	s.mu.Lock()
	if s.closed || s.err != nil {
		s.mu.Unlock()
		return status.Error(codes.FailedPrecondition, "solve: send after CloseSend")
	}
	s.mu.Unlock()
	pb := &botpb.SolveBatch{Requests: make([]*botpb.SolveRequest, len(reqs))}
	left := make(map[uint64]struct{}, len(reqs))
	for i, r := range reqs {
		pb.Requests[i] = solveRequestToPB(r)
		left[r.ID] = struct{}{}
	}
	return s.c.send(&botpb.HostMessage{Request: &botpb.HostMessage_Solve{Solve: pb}}, nil, &solveCall{s: s, left: left}, false)
}

func (s *sessionSolveStream) CloseSend() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if len(s.seqs) == 0 {
		s.endLocked(io.EOF)
	}
	return nil
}

func (s *sessionSolveStream) Recv() (SolveReply, error) {
	for len(s.pending) == 0 {
		b, err := s.RecvBatch()
		if err != nil {
			return SolveReply{}, err
		}
		s.pending = b
	}
	r := s.pending[0]
	s.pending = s.pending[1:]
	return r, nil
}

// RecvBatch waits for replies, reading the stream itself when nobody else
// does.
func (s *sessionSolveStream) RecvBatch() ([]SolveReply, error) {
	for {
		select {
		case b := <-s.replies:
			return b, nil
		case <-s.c.readTurn:
			s.c.readFor(s.ctx, s.arrived)
			s.c.readTurn <- struct{}{}
		case <-s.ended:
			select {
			case b := <-s.replies:
				return b, nil
			default:
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			return nil, s.err
		case <-s.ctx.Done():
			return nil, &Error{Op: "solve", status: status.FromContextError(s.ctx.Err())}
		}
	}
}

// arrived reports whether replies wait or the stream ended.
func (s *sessionSolveStream) arrived() bool {
	select {
	case <-s.ended:
		return true
	default:
		return len(s.replies) > 0
	}
}

// end ends the stream with err (the first one wins).
func (s *sessionSolveStream) end(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endLocked(err)
}

func (s *sessionSolveStream) endLocked(err error) {
	if s.err == nil {
		s.err = err
		close(s.ended)
		if s.stopCancel != nil {
			s.stopCancel()
		}
	}
}

// batchDone notes that batch seq is fully answered.
func (s *sessionSolveStream) batchDone(seq uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := slices.Index(s.seqs, seq); i >= 0 {
		s.seqs = slices.Delete(s.seqs, i, i+1)
	}
	if s.closed && len(s.seqs) == 0 {
		s.endLocked(io.EOF)
	}
}

// cancelAll tells the bot to stop the batches under way.
func (s *sessionSolveStream) cancelAll() {
	s.mu.Lock()
	seqs := slices.Clone(s.seqs)
	s.mu.Unlock()
	for _, q := range seqs {
		s.c.cancelRequest(q)
	}
}

// cancelRequest tells the bot to stop request seq: on the gRPC stream when
// the session moved to the bot's own socket, else on the session.
func (c *SessionClient) cancelRequest(seq uint64) {
	m := &botpb.HostMessage{Request: &botpb.HostMessage_Cancel{Cancel: &botpb.Cancel{Target: seq}}}
	if c.grpc == nil {
		_ = c.send(m, nil, nil, false)
		return
	}
	c.grpcMu.Lock()
	defer c.grpcMu.Unlock()
	_ = c.grpc.Send(m) // a broken stream: the session's reader tells
}

// dispatchSolved hands solve replies to their stream.
func (c *SessionClient) dispatchSolved(seq uint64, r *botpb.SolveReplies) error {
	c.mu.Lock()
	b, ok := c.batches[seq]
	if !ok {
		c.mu.Unlock()
		return protocolError("the bot sent %s, which was not asked", describe(&botpb.BotMessage{Seq: seq, Reply: &botpb.BotMessage_Solved{Solved: r}}))
	}
	out := make([]SolveReply, len(r.GetReplies()))
	for i, pr := range r.GetReplies() {
		if _, asked := b.left[pr.GetId()]; !asked {
			c.mu.Unlock()
			return protocolError("the bot answered position %d in batch %d, which did not ask it (or asked it once)", pr.GetId(), seq)
		}
		delete(b.left, pr.GetId())
		out[i] = solveReplyFromPB(pr)
	}
	finished := len(b.left) == 0
	if finished {
		delete(c.batches, seq)
	}
	c.mu.Unlock()
	if len(out) > 0 {
		select {
		case b.s.replies <- out:
		case <-b.s.ctx.Done():
		}
	}
	if finished {
		b.s.batchDone(seq)
	}
	return nil
}

// isConnReset reports whether err is a socket reset or broken pipe.
func isConnReset(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, net.ErrClosed)
}
