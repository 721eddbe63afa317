package botapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
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
type SessionClient struct {
	stream hostStream
	parent context.Context // the plugin process's life
	cancel context.CancelFunc
	// grpcEnd, on the bot's own socket, gets the gRPC stream's end.
	grpcEnd chan error
	done    chan struct{} // closed when the receive loop ends

	sendMu sync.Mutex
	seq    uint64               // the last seq sent, under sendMu
	held   []*botpb.HostMessage // plays and undos not sent yet, under sendMu

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
	gone  chan struct{}          // closed when the caller stopped waiting
	final bool                   // the answer came
}

// solveCall is one solve batch.
type solveCall struct {
	s    *sessionSolveStream
	left map[uint64]struct{} // the ids not answered yet
}

// OpenSession opens the Session stream over conn; ctx bounds the session
// (go-plugin's context of the plugin process).
func OpenSession(parent context.Context, conn grpc.ClientConnInterface) (*SessionClient, error) {
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
	c := &SessionClient{stream: stream, parent: parent, cancel: cancel, done: make(chan struct{}), batches: map[uint64]*solveCall{}}
	if path := h.Hello; path != "" {
		var d net.Dialer
		dctx, dcancel := context.WithTimeout(ctx, helloTimeout)
		sock, err := d.DialContext(dctx, "unix", path)
		dcancel()
		if err != nil {
			cancel()
			return nil, &Error{Op: "session", status: status.Newf(codes.Unavailable, "connect to the bot's socket: %v", err)}
		}
		c.stream = hostFrames{newFrameConn(sock)}
		c.grpcEnd = make(chan error, 1)
		go func() { // the gRPC stream now only tells how the bot ends
			_, err := stream.Recv()
			for err == nil {
				_, err = stream.Recv()
			}
			c.grpcEnd <- err
		}()
		go func() {
			<-ctx.Done()
			sock.Close()
		}()
	}
	go c.receive()
	return c, nil
}

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
	if c.broken != nil {
		return
	}
	c.broken = err
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

// receive reads the bot's messages until the stream ends, checking each
// against what was asked.
func (c *SessionClient) receive() {
	defer close(c.done)
	for {
		m, err := c.stream.Recv()
		if err != nil {
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
			return
		}
		if err := c.dispatch(m); err != nil {
			c.fail(err)
			return
		}
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

// send sends a request, registering k (if not nil) as awaiting its answer,
// with the held notifications before it in one message. hold keeps m
// itself back (a play or undo) until the next request.
func (c *SessionClient) send(m *botpb.HostMessage, k *call, hold bool) error {
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	c.seq++
	m.Seq = c.seq
	c.mu.Lock()
	if c.broken != nil {
		err := c.broken
		c.mu.Unlock()
		return err
	}
	if k != nil {
		k.seq = c.seq
		c.queue = append(c.queue, k)
	}
	c.mu.Unlock()
	if hold {
		c.held = append(c.held, m)
		return nil
	}
	return c.sendHeld(m)
}

// sendHeld sends m, after the held notifications; the caller holds sendMu.
func (c *SessionClient) sendHeld(m *botpb.HostMessage) error {
	if len(c.held) > 0 {
		if m != nil {
			c.held = append(c.held, m)
		}
		m = &botpb.HostMessage{Request: &botpb.HostMessage_Batch{Batch: &botpb.Batch{Requests: c.held}}}
		c.held = nil
	}
	if m == nil {
		return nil
	}
	if err := c.stream.Send(m); err != nil {
		// io.EOF: the stream ended; the receive loop says why.
		<-c.done
		return c.brokenErr()
	}
	return nil
}

func (c *SessionClient) brokenErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.broken
}

// takeFailed returns the failure of a Play or Undo not reported yet, and
// the session's end if it broke.
func (c *SessionClient) takeFailed() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.failed; err != nil {
		c.failed = nil
		c.broken = err // the bot's game is not the host's any more
		return err
	}
	return c.broken
}

// ask sends a request and waits for its final answer, passing progress
// reports to progress; ctx ends the wait (a genmove is then cancelled).
func (c *SessionClient) ask(ctx context.Context, k kind, what string, m *botpb.HostMessage, progress func(*botpb.Progress)) (*botpb.BotMessage, error) {
	if err := ctx.Err(); err != nil {
		return nil, &Error{Op: kindOp[k], status: status.FromContextError(err)}
	}
	if k != kindInfo && k != kindNewGame {
		if err := c.takeFailed(); err != nil {
			return nil, err
		}
	}
	ch := make(chan *botpb.BotMessage, 8)
	kc := &call{kind: k, what: what, ch: ch, gone: make(chan struct{})}
	if err := c.send(m, kc, false); err != nil {
		return nil, err
	}
	for {
		select {
		case r, ok := <-ch:
			if !ok {
				return nil, c.brokenErr()
			}
			if p, isProgress := r.GetReply().(*botpb.BotMessage_Progress); isProgress {
				if progress != nil {
					progress(p.Progress)
				}
				continue
			}
			if k != kindInfo && k != kindNewGame {
				// A play or undo failed before this answer (a break of the
				// session after it is for the next request).
				c.mu.Lock()
				err := c.failed
				if err != nil {
					c.failed, c.broken = nil, err
				}
				c.mu.Unlock()
				if err != nil {
					return nil, err
				}
			}
			if f := r.GetFailure(); f != nil {
				return nil, &Error{Op: kindOp[k], status: failureStatus(f)}
			}
			return r, nil
		case <-ctx.Done():
			close(kc.gone)
			if k == kindGenMove {
				_ = c.send(&botpb.HostMessage{Request: &botpb.HostMessage_Cancel{Cancel: &botpb.Cancel{Target: kc.seq}}}, nil, false)
			}
			return nil, &Error{Op: kindOp[k], status: status.FromContextError(ctx.Err())}
		}
	}
}

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
	if err := c.takeFailed(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return &Error{Op: "play", status: status.FromContextError(err)}
	}
	return c.send(&botpb.HostMessage{Request: &botpb.HostMessage_Play{Play: &botpb.PlayRequest{Move: move}}},
		&call{kind: kindPlay, what: "move " + move}, true)
}

// Undo sends the undo to the bot without waiting, as Play.
func (c *SessionClient) Undo(ctx context.Context) error {
	if err := c.takeFailed(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return &Error{Op: "undo", status: status.FromContextError(err)}
	}
	return c.send(&botpb.HostMessage{Request: &botpb.HostMessage_Undo{Undo: &botpb.UndoRequest{}}},
		&call{kind: kindUndo, what: "the undo"}, true)
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
	go func() {
		select {
		case <-ctx.Done():
			s.cancelAll()
		case <-s.ended:
		case <-c.done:
		}
	}()
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
	c       *SessionClient
	ctx     context.Context
	replies chan []SolveReply
	pending []SolveReply // of the last batch received, for Recv

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
	c := s.c
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	c.seq++
	seq := c.seq
	c.mu.Lock()
	if c.broken != nil {
		err := c.broken
		c.mu.Unlock()
		return err
	}
	c.batches[seq] = &solveCall{s: s, left: left}
	c.mu.Unlock()
	s.mu.Lock()
	s.seqs = append(s.seqs, seq)
	s.mu.Unlock()
	if err := c.stream.Send(&botpb.HostMessage{Seq: seq, Request: &botpb.HostMessage_Solve{Solve: pb}}); err != nil {
		go func() { <-c.done }()
		return io.EOF // the stream ended: Recv tells why
	}
	return nil
}

func (s *sessionSolveStream) CloseSend() error {
	s.mu.Lock()
	s.closed = true
	if len(s.seqs) == 0 && s.err == nil {
		s.err = io.EOF
		close(s.ended)
	}
	s.mu.Unlock()
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

func (s *sessionSolveStream) RecvBatch() ([]SolveReply, error) {
	select {
	case b := <-s.replies:
		return b, nil
	default:
	}
	select {
	case b := <-s.replies:
		return b, nil
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

// end ends the stream with err (the first one wins).
func (s *sessionSolveStream) end(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = err
		close(s.ended)
	}
}

// batchDone notes that batch seq is fully answered.
func (s *sessionSolveStream) batchDone(seq uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, q := range s.seqs {
		if q == seq {
			s.seqs = append(s.seqs[:i], s.seqs[i+1:]...)
			break
		}
	}
	if s.closed && len(s.seqs) == 0 && s.err == nil {
		s.err = io.EOF
		close(s.ended)
	}
}

// cancelAll tells the bot to stop the batches under way.
func (s *sessionSolveStream) cancelAll() {
	s.mu.Lock()
	seqs := append([]uint64(nil), s.seqs...)
	s.mu.Unlock()
	for _, q := range seqs {
		_ = s.c.send(&botpb.HostMessage{Request: &botpb.HostMessage_Cancel{Cancel: &botpb.Cancel{Target: q}}}, nil, false)
	}
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
