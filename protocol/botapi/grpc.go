package botapi

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/kinrow/kinrow/protocol/botpb"
)

// Plugin is the go-plugin plugin of a bot: gRPC only. A bot serves Impl;
// the host leaves Impl nil and gets from Dispense a *GRPCClient (Version
// 1) or a *SessionClient (Version 2, the default).
type Plugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl    Bot
	Version int
	// SocketDial (host side, optional) connects to the socket a bot's
	// session hello names, after checking it (an error fails the
	// session); nil dials the path as it is.
	SocketDial func(ctx context.Context, path string) (net.Conn, error)
}

var _ plugin.GRPCPlugin = (*Plugin)(nil)

// GRPCServer registers the Bot service over p.Impl on s (bot side). Under
// go-plugin's AutoMTLS (the host's certificate in PLUGIN_CLIENT_CERT) a
// Session stays on the gRPC stream, inside the mutual TLS, instead of
// moving to a plain socket of its own.
func (p *Plugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	botpb.RegisterBotServer(s, &GRPCServer{Impl: p.Impl, OwnSocket: os.Getenv("PLUGIN_CLIENT_CERT") == ""})
	return nil
}

// GRPCClient returns the Bot over conn (host side): for version 2 it opens
// the Session stream, which lasts until ctx (go-plugin's, the plugin
// process's life) ends or the client is closed.
func (p *Plugin) GRPCClient(ctx context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	if p.Version == Version1 {
		return NewGRPCClient(conn), nil
	}
	return OpenSession(ctx, conn, p.SocketDial)
}

// GRPCClient is a Bot served by another process, reached over gRPC.
type GRPCClient struct {
	client botpb.BotClient
}

var _ Bot = (*GRPCClient)(nil)

// NewGRPCClient returns the Bot served over conn.
func NewGRPCClient(conn grpc.ClientConnInterface) *GRPCClient {
	return &GRPCClient{client: botpb.NewBotClient(conn)}
}

// Info asks the bot to describe itself.
func (c *GRPCClient) Info(ctx context.Context) (Info, error) {
	r, err := c.client.Info(ctx, &botpb.InfoRequest{}, recvCap(MaxInfoSize))
	if err != nil {
		return Info{}, wireError("info", err)
	}
	return infoFromPB(r), nil
}

// NewGame starts a game on the bot.
func (c *GRPCClient) NewGame(ctx context.Context, g Game) error {
	_, err := c.client.NewGame(ctx, newGameToPB(g), recvCap(MaxAnswerSize))
	return wireError("newgame", err)
}

// Play tells the bot a move was played.
func (c *GRPCClient) Play(ctx context.Context, move string) error {
	_, err := c.client.Play(ctx, &botpb.PlayRequest{Move: move}, recvCap(MaxAnswerSize))
	return wireError("play", err)
}

// Undo takes back the last move on the bot.
func (c *GRPCClient) Undo(ctx context.Context) error {
	_, err := c.client.Undo(ctx, &botpb.UndoRequest{}, recvCap(MaxAnswerSize))
	return wireError("undo", err)
}

// GenMove asks the bot for a move, passing its progress reports to progress.
func (c *GRPCClient) GenMove(ctx context.Context, req GenMoveRequest, progress func(Progress)) (string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // releases the stream whatever happens
	stream, err := c.client.GenMove(ctx, genMoveToPB(req), recvCap(MaxAnswerSize))
	if err != nil {
		return "", wireError("genmove", err)
	}
	for {
		r, err := stream.Recv()
		if err == io.EOF {
			return "", &Error{Op: "genmove", status: status.New(codes.Internal, "the bot ended genmove without a move")}
		}
		if err != nil {
			return "", wireError("genmove", err)
		}
		switch x := r.GetReply().(type) {
		case *botpb.GenMoveReply_Move:
			if len(x.Move) > MaxMoveLen {
				return "", &Error{Op: "genmove", status: status.Newf(codes.ResourceExhausted,
					"the bot answered a move of %d bytes; a move is at most %d", len(x.Move), MaxMoveLen)}
			}
			return x.Move, nil
		case *botpb.GenMoveReply_Progress:
			if progress != nil {
				progress(progressFromPB(x.Progress))
			}
		}
	}
}

// Solve opens a solving stream on the bot. A bot that does not solve
// answers Unimplemented to the first Recv.
func (c *GRPCClient) Solve(ctx context.Context) (SolveStream, error) {
	s, err := c.client.Solve(ctx, recvCap(MaxInfoSize))
	if err != nil {
		return nil, wireError("solve", err)
	}
	return &clientSolveStream{s: s}, nil
}

type clientSolveStream struct {
	s botpb.Bot_SolveClient
}

func (s *clientSolveStream) Send(r SolveRequest) error {
	err := s.s.Send(solveRequestToPB(r))
	if err == io.EOF {
		return err // the stream ended: Recv tells why
	}
	return wireError("solve", err)
}

func (s *clientSolveStream) Recv() (SolveReply, error) {
	r, err := s.s.Recv()
	if err == io.EOF {
		return SolveReply{}, err
	}
	if err != nil {
		return SolveReply{}, wireError("solve", err)
	}
	return solveReplyFromPB(r), nil
}

func (s *clientSolveStream) CloseSend() error { return wireError("solve", s.s.CloseSend()) }

// GRPCServer serves the Bot service over Impl (bot side).
type GRPCServer struct {
	botpb.UnimplementedBotServer
	Impl Bot
	// OwnSocket moves each Session to a unix socket of its own (see
	// BotMessage.hello), where a message costs a write and a read without
	// gRPC's goroutines; the Plugin's server sets it.
	OwnSocket bool
}

var _ botpb.BotServer = (*GRPCServer)(nil)

// Info serves Bot.Info.
func (s *GRPCServer) Info(ctx context.Context, _ *botpb.InfoRequest) (*botpb.InfoReply, error) {
	info, err := s.Impl.Info(ctx)
	if err != nil {
		return nil, toStatus(err)
	}
	r := infoToPB(info)
	return r, nil
}

// NewGame serves Bot.NewGame.
func (s *GRPCServer) NewGame(ctx context.Context, r *botpb.NewGameRequest) (*botpb.NewGameReply, error) {
	err := s.Impl.NewGame(ctx, newGameFromPB(r))
	if err != nil {
		return nil, toStatus(err)
	}
	return &botpb.NewGameReply{}, nil
}

// Play serves Bot.Play.
func (s *GRPCServer) Play(ctx context.Context, r *botpb.PlayRequest) (*botpb.PlayReply, error) {
	if err := s.Impl.Play(ctx, r.GetMove()); err != nil {
		return nil, toStatus(err)
	}
	return &botpb.PlayReply{}, nil
}

// Undo serves Bot.Undo.
func (s *GRPCServer) Undo(ctx context.Context, _ *botpb.UndoRequest) (*botpb.UndoReply, error) {
	if err := s.Impl.Undo(ctx); err != nil {
		return nil, toStatus(err)
	}
	return &botpb.UndoReply{}, nil
}

// GenMove serves Bot.GenMove: progress reports as they come, then the move.
func (s *GRPCServer) GenMove(r *botpb.GenMoveRequest, stream botpb.Bot_GenMoveServer) error {
	req := genMoveFromPB(r)
	var mu sync.Mutex // serialises Send; done drops reports after the move
	done := false
	progress := func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		if !done {
			_ = stream.Send(&botpb.GenMoveReply{Reply: &botpb.GenMoveReply_Progress{Progress: progressToPB(p)}})
		}
	}
	move, err := s.Impl.GenMove(stream.Context(), req, progress)
	mu.Lock()
	done = true
	mu.Unlock()
	if err != nil {
		return toStatus(err)
	}
	return stream.Send(&botpb.GenMoveReply{Reply: &botpb.GenMoveReply_Move{Move: move}})
}

// Solve serves Bot.Solve, pumping requests and replies between the gRPC
// stream and the SolveStream of Impl.
func (s *GRPCServer) Solve(stream botpb.Bot_SolveServer) error {
	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	ss, err := s.Impl.Solve(ctx)
	if err != nil {
		return toStatus(err)
	}
	go func() {
		defer ss.CloseSend()
		for {
			r, err := stream.Recv()
			if err != nil {
				return // io.EOF: the host closed its side; otherwise ctx ends too
			}
			if ss.Send(solveRequestFromPB(r)) != nil {
				return
			}
		}
	}()
	for {
		r, err := ss.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return toStatus(err)
		}
		if err := stream.Send(solveReplyToPB(r)); err != nil {
			return err
		}
	}
}

// Error is an error that crossed the wire, from the bot or the transport,
// with its gRPC status: status.Code, status.FromError and errors.As see it.
// It unwraps to context.DeadlineExceeded and context.Canceled for those codes.
type Error struct {
	// Op is the call: "info", "newgame", "play", "undo", "timeleft",
	// "genmove" or "solve".
	Op     string
	status *status.Status
}

// Error returns the op and the message; the code too unless the message is
// the bot's own words (InvalidArgument, FailedPrecondition, Unimplemented,
// Unknown, Internal).
func (e *Error) Error() string {
	switch e.Code() {
	case codes.InvalidArgument, codes.FailedPrecondition, codes.Unimplemented, codes.Unknown, codes.Internal:
		return e.Op + ": " + e.status.Message()
	}
	return fmt.Sprintf("%s: %s: %s", e.Op, e.Code(), e.status.Message())
}

// Code is the gRPC status code.
func (e *Error) Code() codes.Code { return e.status.Code() }

// Message is the status message alone: the bot's words for a refusal.
func (e *Error) Message() string { return e.status.Message() }

// GRPCStatus returns the status, for status.FromError and status.Code.
func (e *Error) GRPCStatus() *status.Status { return e.status }

// Unwrap returns context.DeadlineExceeded or context.Canceled for those
// codes, so errors.Is works as on a local call; nil otherwise.
func (e *Error) Unwrap() error {
	switch e.Code() {
	case codes.DeadlineExceeded:
		return context.DeadlineExceeded
	case codes.Canceled:
		return context.Canceled
	}
	return nil
}

// wireError wraps an error from a gRPC call as an *Error; nil stays nil.
func wireError(op string, err error) error {
	if err == nil {
		return nil
	}
	st, ok := status.FromError(err)
	if !ok {
		st = status.FromContextError(err) // Unknown unless a context error
	}
	if msg := st.Message(); len(msg) > MaxErrorLen {
		st = status.New(st.Code(), fmt.Sprintf("%s… (%d bytes cut)", cutUTF8(msg, MaxErrorLen), len(msg)-MaxErrorLen))
	}
	return &Error{Op: op, status: st}
}

// toStatus turns an error of Impl into a gRPC status error: a status is kept,
// a context error becomes DeadlineExceeded or Canceled, the rest Unknown.
func toStatus(err error) error {
	if st, ok := status.FromError(err); ok {
		return st.Err()
	}
	return status.FromContextError(err).Err()
}

// cutUTF8 returns the longest prefix of s of at most n bytes that does not
// end inside a UTF-8 sequence.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func ms(v int64) time.Duration { return time.Duration(v) * time.Millisecond }

func progressToPB(p Progress) *botpb.Progress {
	return &botpb.Progress{Depth: int32(p.Depth), Score: int32(p.Score), BestMove: p.BestMove, Nodes: p.Nodes, Pv: p.PV, TimeUs: p.Time.Microseconds()}
}

func progressFromPB(p *botpb.Progress) Progress {
	return Progress{Depth: int(p.GetDepth()), Score: int(p.GetScore()), BestMove: p.GetBestMove(), Nodes: p.GetNodes(), PV: p.GetPv(),
		Time: time.Duration(p.GetTimeUs()) * time.Microsecond}
}

func solveRequestToPB(r SolveRequest) *botpb.SolveRequest {
	return &botpb.SolveRequest{
		Id: r.ID, Rules: r.Rules, Moves: r.Moves, MoveList: r.MoveList, Analyze: r.Analyze, Weak: r.Weak,
		TimeoutMs: r.Timeout.Milliseconds(), Options: r.Options,
	}
}

func solveRequestFromPB(r *botpb.SolveRequest) SolveRequest {
	return SolveRequest{
		ID: r.GetId(), Rules: r.GetRules(), Moves: r.GetMoves(), MoveList: r.GetMoveList(), Analyze: r.GetAnalyze(),
		Weak: r.GetWeak(), Timeout: ms(r.GetTimeoutMs()), Options: r.GetOptions(),
	}
}

func solveReplyToPB(r SolveReply) *botpb.SolveReply {
	scores := make([]int32, len(r.Scores))
	for i, v := range r.Scores {
		scores[i] = int32(v)
	}
	return &botpb.SolveReply{
		Id: r.ID, Known: r.Known, Score: int32(r.Score), Scores: scores,
		Valid: r.Valid, Nodes: r.Nodes, Error: r.Error, TimeNs: r.Time.Nanoseconds(),
	}
}

func solveReplyFromPB(r *botpb.SolveReply) SolveReply {
	var scores []int
	if len(r.GetScores()) > 0 {
		scores = make([]int, len(r.GetScores()))
		for i, v := range r.GetScores() {
			scores[i] = int(v)
		}
	}
	return SolveReply{
		ID: r.GetId(), Known: r.GetKnown(), Score: int(r.GetScore()), Scores: scores,
		Valid: r.GetValid(), Nodes: r.GetNodes(), Error: r.GetError(), Time: time.Duration(r.GetTimeNs()),
	}
}

func infoFromPB(r *botpb.InfoReply) Info {
	info := Info{
		Name: r.GetName(), Version: r.GetVersion(), Author: r.GetAuthor(),
		Strength: int(r.GetStrength()), Kinds: r.GetKinds(),
		MaxRows: int(r.GetMaxRows()), MaxCols: int(r.GetMaxCols()),
	}
	for k, v := range r.GetKindStrength() {
		if info.KindStrength == nil {
			info.KindStrength = map[string]int{}
		}
		info.KindStrength[k] = int(v)
	}
	for _, o := range r.GetOptions() {
		info.Options = append(info.Options, Option{
			Name: o.GetName(), Type: o.GetType(), Default: o.GetDefault(),
			Min: o.GetMin(), Max: o.GetMax(), Choices: o.GetChoices(), Help: o.GetHelp(),
		})
	}
	return info
}

func newGameToPB(g Game) *botpb.NewGameRequest {
	return &botpb.NewGameRequest{
		Rules: g.Rules, Color: g.Color, Options: g.Options, Moves: g.Moves,
		Time: &botpb.TimeControl{
			MovetimeMs: g.Time.MoveTime.Milliseconds(), MainMs: g.Time.Main.Milliseconds(),
			ByoMs: g.Time.Byo.Milliseconds(), ByoStones: int32(g.Time.ByoStones),
			IncrementMs: g.Time.Increment.Milliseconds(),
		},
	}
}

func newGameFromPB(r *botpb.NewGameRequest) Game {
	t := r.GetTime()
	return Game{
		Rules: r.GetRules(), Color: r.GetColor(), Options: r.GetOptions(), Moves: r.GetMoves(),
		Time: TimeControl{
			MoveTime: ms(t.GetMovetimeMs()), Main: ms(t.GetMainMs()), Byo: ms(t.GetByoMs()),
			ByoStones: int(t.GetByoStones()), Increment: ms(t.GetIncrementMs()),
		},
	}
}

func genMoveToPB(req GenMoveRequest) *botpb.GenMoveRequest {
	pb := &botpb.GenMoveRequest{
		BudgetMs: req.Budget.Milliseconds(),
		XLeftMs:  req.XLeft.Milliseconds(),
		OLeftMs:  req.OLeft.Milliseconds(),
		Play:     req.Play,
	}
	if !req.Deadline.IsZero() {
		pb.DeadlineUnixNano = req.Deadline.UnixNano()
	}
	return pb
}

func genMoveFromPB(r *botpb.GenMoveRequest) GenMoveRequest {
	req := GenMoveRequest{Budget: ms(r.GetBudgetMs()), XLeft: ms(r.GetXLeftMs()), OLeft: ms(r.GetOLeftMs()), Play: r.GetPlay()}
	if d := r.GetDeadlineUnixNano(); d != 0 {
		req.Deadline = time.Unix(0, d)
	}
	return req
}

func infoToPB(info Info) *botpb.InfoReply {
	r := &botpb.InfoReply{
		Name: info.Name, Version: info.Version, Author: info.Author,
		Strength: int32(info.Strength), Kinds: info.Kinds,
		MaxRows: int32(info.MaxRows), MaxCols: int32(info.MaxCols),
	}
	for k, v := range info.KindStrength {
		if r.KindStrength == nil {
			r.KindStrength = map[string]int32{}
		}
		r.KindStrength[k] = int32(v)
	}
	for _, o := range info.Options {
		r.Options = append(r.Options, &botpb.Option{
			Name: o.Name, Type: o.Type, Default: o.Default,
			Min: o.Min, Max: o.Max, Choices: o.Choices, Help: o.Help,
		})
	}
	return r
}
