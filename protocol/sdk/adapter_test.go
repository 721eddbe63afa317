package sdk

import (
	"context"
	"errors"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/botpb"
)

// fake is a bot whose player does what the test sets in genmove.
type fake struct {
	mu      sync.Mutex
	games   []Game
	refuse  error
	genmove func(ctx context.Context, pos *engine.Position, report func(botapi.Progress)) (engine.Move, error)
	events  []string
}

func (f *fake) Info() botapi.Info {
	return botapi.Info{
		Name: "fake", Kinds: []string{"connectx"}, MaxRows: 10, MaxCols: 10,
		Options: []botapi.Option{{Name: "depth", Type: botapi.OptionInt, Default: "4", Min: 1, Max: 40}},
	}
}

func (f *fake) NewGame(_ context.Context, g Game) (Player, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refuse != nil {
		return nil, f.refuse
	}
	f.games = append(f.games, g)
	return (*fakePlayer)(f), nil
}

func (f *fake) event(s string) {
	f.mu.Lock()
	f.events = append(f.events, s)
	f.mu.Unlock()
}

type fakePlayer fake

func (p *fakePlayer) GenMove(ctx context.Context, pos *engine.Position, report func(botapi.Progress)) (engine.Move, error) {
	if p.genmove != nil {
		return p.genmove(ctx, pos, report)
	}
	return pos.LegalMoves(nil)[0], nil
}

func (p *fakePlayer) Played(pos *engine.Position, m engine.Move) {
	(*fake)(p).event("played " + pos.Rules().FormatMove(m) + " at ply " + itoa(pos.Ply()))
}

func (p *fakePlayer) Undone(pos *engine.Position, m engine.Move) {
	(*fake)(p).event("undone " + pos.Rules().FormatMove(m) + " at ply " + itoa(pos.Ply()))
}

func itoa(n int) string { return engine.Rules{Kind: engine.ConnectX}.FormatMove(engine.Move(n - 1)) }

// solver is fake plus a Solver.
type solver struct{ fake }

func (s *solver) Solve(ctx context.Context, pos *engine.Position, req botapi.SolveRequest) (botapi.SolveReply, error) {
	if req.Weak { // "weak" here means: think until the timeout
		<-ctx.Done()
		return botapi.SolveReply{Nodes: 5}, ctx.Err()
	}
	return botapi.SolveReply{Known: true, Score: pos.Ply(), Nodes: 1, ID: 999}, nil
}

func code(err error) codes.Code { return status.Code(err) }

func TestAdapterNewGame(t *testing.T) {
	f := &fake{}
	a := Adapt(f, nil)
	ctx := context.Background()
	tests := []struct {
		g    botapi.Game
		code codes.Code
		want string
	}{
		{botapi.Game{Rules: "connect4"}, codes.OK, ""},
		{botapi.Game{Rules: "connectx:10x10x5", Color: "o", Options: map[string]string{"depth": "40"}}, codes.OK, ""},
		{botapi.Game{Rules: "nonsense"}, codes.InvalidArgument, "unknown rules"},
		{botapi.Game{Rules: "tictactoe"}, codes.InvalidArgument, "bot fake does not play mnk:3x3x3: it plays connectx up to 10 rows and 10 columns"},
		{botapi.Game{Rules: "connectx:11x7x4"}, codes.InvalidArgument, "does not play connectx:11x7x4"},
		// Variants are declared one by one: connectx (freestyle) does not admit exactly-K Connect-X.
		{botapi.Game{Rules: "connectx:6x7x4:exact"}, codes.InvalidArgument, "does not play connectx:6x7x4:exact"},
		{botapi.Game{Rules: "connect4", Color: "green"}, codes.InvalidArgument, "invalid color"},
		{botapi.Game{Rules: "connect4", Options: map[string]string{"depth": "99"}}, codes.InvalidArgument, "option depth=99 out of range 1..40"},
		{botapi.Game{Rules: "connect4", Options: map[string]string{"foo": "1"}}, codes.InvalidArgument, "unknown option foo: accepted are depth"},
		{botapi.Game{Rules: "connect4", Moves: []string{"1", "1", "1", "1", "1", "1", "1"}}, codes.InvalidArgument, "move 7 (1): column 1: column is full"},
		{botapi.Game{Rules: "connect4", Moves: []string{"1", "x"}}, codes.InvalidArgument, "move 2 (x): invalid move"},
	}
	for _, tc := range tests {
		err := a.NewGame(ctx, tc.g)
		if code(err) != tc.code || tc.want != "" && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewGame(%+v) = %v; want %v %q", tc.g, err, tc.code, tc.want)
		}
	}
	if len(f.games) != 2 {
		t.Fatalf("the bot saw %d games, want 2", len(f.games))
	}
	g := f.games[1]
	if g.Rules.String() != "connectx:10x10x5" || g.Color != engine.O || g.Values.Int("depth") != 40 || f.games[0].Values.Int("depth") != 4 ||
		f.games[0].Color != engine.Empty {
		t.Errorf("games %+v", f.games)
	}

	f.refuse = errors.New("no thanks")
	if err := a.NewGame(ctx, botapi.Game{Rules: "connect4"}); code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "no thanks") {
		t.Errorf("refused: %v", err)
	}
	f.refuse = status.Error(codes.ResourceExhausted, "busy")
	if err := a.NewGame(ctx, botapi.Game{Rules: "connect4"}); code(err) != codes.ResourceExhausted {
		t.Errorf("refused with a status: %v", err)
	}
	if err := a.Play(ctx, "1"); code(err) != codes.FailedPrecondition {
		t.Errorf("Play after a refused game: %v", err)
	}
}

func TestAdapterPlayUndo(t *testing.T) {
	f := &fake{}
	a := Adapt(f, nil)
	ctx := context.Background()
	if err := a.Play(ctx, "1"); code(err) != codes.FailedPrecondition {
		t.Errorf("Play without a game: %v", err)
	}
	if _, err := a.GenMove(ctx, botapi.GenMoveRequest{}, nil); code(err) != codes.FailedPrecondition {
		t.Errorf("GenMove without a game: %v", err)
	}
	if err := a.NewGame(ctx, botapi.Game{Rules: "connect4", Moves: []string{"4"}}); err != nil {
		t.Fatal(err)
	}
	if err := a.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Undo(ctx); code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "cannot undo") {
		t.Errorf("Undo on an empty board: %v", err)
	}
	for _, bad := range []string{"0", "8", "x", ""} {
		if err := a.Play(ctx, bad); code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "illegal move") {
			t.Errorf("Play %q: %v", bad, err)
		}
	}
	for i := 0; i < 6; i++ {
		if err := a.Play(ctx, "2"); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Play(ctx, "2"); code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "column is full") {
		t.Errorf("Play in a full column: %v", err)
	}
	if err := a.Undo(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{"undone 4 at ply 0", "played 2 at ply 1", "played 2 at ply 2", "played 2 at ply 3",
		"played 2 at ply 4", "played 2 at ply 5", "played 2 at ply 6", "undone 2 at ply 5"}
	if !slices.Equal(f.events, want) {
		t.Errorf("events\n%q\nwant\n%q", f.events, want)
	}
}

func TestAdapterGenMove(t *testing.T) {
	f := &fake{}
	a := Adapt(f, nil)
	ctx := context.Background()
	if err := a.NewGame(ctx, botapi.Game{Rules: "connect4", Moves: []string{"1", "1", "1", "1", "1", "1"}}); err != nil {
		t.Fatal(err)
	}
	genmove := func(req botapi.GenMoveRequest) (string, error) { return a.GenMove(ctx, req, nil) }

	// The request's deadline and clock reach the player's context.
	deadline := time.Now().Add(time.Hour)
	f.genmove = func(ctx context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
		if d, ok := ctx.Deadline(); !ok || !d.Equal(deadline) {
			t.Errorf("the player's deadline is %v %v, want %v", d, ok, deadline)
		}
		want := MoveClock{Budget: time.Hour, Left: [2]time.Duration{time.Hour, 7 * time.Second}}
		if c, ok := MoveClockOf(ctx); !ok || c != want {
			t.Errorf("the player's move clock is %+v %v, want %+v", c, ok, want)
		}
		return 3, nil
	}
	if m, err := genmove(botapi.GenMoveRequest{Deadline: deadline, Budget: time.Hour, XLeft: time.Hour, OLeft: 7 * time.Second}); m != "4" || err != nil {
		t.Errorf("GenMove = %q, %v", m, err)
	}

	// An illegal move is sent all the same.
	f.genmove = func(context.Context, *engine.Position, func(botapi.Progress)) (engine.Move, error) { return 0, nil }
	if m, err := genmove(botapi.GenMoveRequest{}); m != "1" || err != nil {
		t.Errorf("GenMove of a full column = %q, %v", m, err)
	}

	// A player that leaves the position changed gets it rebuilt.
	f.genmove = func(_ context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
		pos.Play(6)
		pos.Play(6)
		return 5, nil
	}
	if m, err := genmove(botapi.GenMoveRequest{}); m != "6" || err != nil {
		t.Errorf("GenMove = %q, %v", m, err)
	}
	f.genmove = func(_ context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
		if pos.Ply() != 6 || pos.Height(6) != 0 {
			t.Errorf("the position was not restored:\n%s", pos.Diagram())
		}
		return engine.NoMove, ErrResign
	}
	if m, err := genmove(botapi.GenMoveRequest{}); m != "resign" || err != nil {
		t.Errorf("GenMove resigning = %q, %v", m, err)
	}

	// Errors: the context's, the player's own status, anything else Internal.
	f.genmove = func(ctx context.Context, _ *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
		<-ctx.Done()
		return engine.NoMove, ctx.Err()
	}
	if _, err := genmove(botapi.GenMoveRequest{Deadline: time.Now().Add(10 * time.Millisecond)}); code(err) != codes.DeadlineExceeded {
		t.Errorf("GenMove past its deadline: %v", err)
	}
	f.genmove = func(context.Context, *engine.Position, func(botapi.Progress)) (engine.Move, error) {
		return engine.NoMove, status.Error(codes.ResourceExhausted, "out of memory")
	}
	if _, err := genmove(botapi.GenMoveRequest{}); code(err) != codes.ResourceExhausted {
		t.Errorf("GenMove with a status: %v", err)
	}
	f.genmove = func(context.Context, *engine.Position, func(botapi.Progress)) (engine.Move, error) {
		return engine.NoMove, errors.New("confused")
	}
	if _, err := genmove(botapi.GenMoveRequest{}); code(err) != codes.Internal || !strings.Contains(err.Error(), "confused") {
		t.Errorf("GenMove with an error: %v", err)
	}

	// A finished game is refused.
	f.genmove = nil
	if err := a.NewGame(ctx, botapi.Game{Rules: "connect4", Moves: strings.Split("1212121", "")}); err != nil {
		t.Fatal(err)
	}
	if _, err := genmove(botapi.GenMoveRequest{}); code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "x wins") {
		t.Errorf("GenMove after a win: %v", err)
	}
}

func TestAdapterSolve(t *testing.T) {
	ctx := context.Background()
	if _, err := Adapt(&fake{}, nil).Solve(ctx); code(err) != codes.Unimplemented {
		t.Errorf("Solve on a bot without Solver: %v", err)
	}
	s, err := Adapt(&solver{}, nil).Solve(ctx)
	if err != nil {
		t.Fatal(err)
	}
	reqs := []botapi.SolveRequest{
		{ID: 1, Rules: "connect4", Moves: []string{"4", "4"}},
		{ID: 2, Rules: "bad"},
		{ID: 3, Rules: "connect4", Moves: []string{"9"}},
		{ID: 4, Rules: "connect4", Weak: true, Timeout: 20 * time.Millisecond},
	}
	go func() {
		for _, r := range reqs {
			s.Send(r)
		}
		s.CloseSend()
	}()
	got := recvAll(t, s)
	if len(got) != 4 || got[0].ID != 1 || !got[0].Known || got[0].Score != 2 ||
		got[1].ID != 2 || !strings.Contains(got[1].Error, "unknown rules") ||
		got[2].ID != 3 || !strings.Contains(got[2].Error, "move 1 (9)") ||
		got[3].ID != 4 || got[3].Known || got[3].Error != "" || got[3].Nodes != 5 {
		t.Errorf("replies %+v", got)
	}
}

// wire serves b over an in-process gRPC connection and returns the host's view.
func wire(t *testing.T, b Bot) botapi.Bot {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	botpb.RegisterBotServer(srv, &botapi.GRPCServer{Impl: Adapt(b, nil)})
	go srv.Serve(lis)
	conn, err := grpc.NewClient("passthrough:///bufconn",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		srv.Stop()
	})
	return botapi.NewGRPCClient(conn)
}

func TestOverTheWire(t *testing.T) {
	f := &solver{}
	host := wire(t, f)
	ctx := context.Background()
	info, err := host.Info(ctx)
	if err != nil || info.Name != "fake" || info.MaxRows != 10 || len(info.Options) != 1 || info.Options[0].Max != 40 {
		t.Errorf("Info = %+v, %v", info, err)
	}
	err = host.NewGame(ctx, botapi.Game{Rules: "connect4", Options: map[string]string{"depth": "99"}})
	if code(err) != codes.InvalidArgument || err.Error() != "newgame: option depth=99 out of range 1..40" {
		t.Errorf("NewGame = %v", err)
	}
	tc := botapi.TimeControl{MoveTime: time.Second, Main: time.Minute, Byo: 10 * time.Second, ByoStones: 5, Increment: 2 * time.Second}
	if err := host.NewGame(ctx, botapi.Game{Rules: "connect4", Color: "x", Time: tc, Moves: []string{"4"}}); err != nil {
		t.Fatal(err)
	}
	if g := f.games[0]; g.Time != tc || !slices.Equal(g.Moves, []engine.Move{3}) {
		t.Errorf("game %+v", g)
	}

	// Progress arrives before the move.
	f.genmove = func(ctx context.Context, pos *engine.Position, report func(botapi.Progress)) (engine.Move, error) {
		for d := 1; d <= 3; d++ {
			report(botapi.Progress{Depth: d, Score: -d, BestMove: "5", Nodes: int64(d * 100), PV: []string{"5", "4"}})
		}
		return 4, nil
	}
	var reports []botapi.Progress
	m, err := host.GenMove(ctx, botapi.GenMoveRequest{}, func(p botapi.Progress) { reports = append(reports, p) })
	if m != "5" || err != nil || len(reports) != 3 || reports[2].Depth != 3 || reports[2].Score != -3 ||
		reports[2].Nodes != 300 || !slices.Equal(reports[2].PV, []string{"5", "4"}) {
		t.Errorf("GenMove = %q, %v; reports %+v", m, err, reports)
	}

	// Cancellation reaches the player; the host sees Canceled.
	stopped := make(chan struct{})
	f.genmove = func(ctx context.Context, _ *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
		<-ctx.Done()
		close(stopped)
		return engine.NoMove, ctx.Err()
	}
	cctx, cancel := context.WithCancel(ctx)
	time.AfterFunc(20*time.Millisecond, cancel)
	if _, err := host.GenMove(cctx, botapi.GenMoveRequest{}, nil); code(err) != codes.Canceled || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled GenMove = %v", err)
	}
	select {
	case <-stopped:
	case <-time.After(2 * time.Second):
		t.Fatal("the player never saw the cancellation")
	}

	// The host's deadline.
	f.genmove = func(ctx context.Context, _ *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
		<-ctx.Done()
		return engine.NoMove, ctx.Err()
	}
	dctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := host.GenMove(dctx, botapi.GenMoveRequest{}, nil); !botapi.IsDeadline(err) || botapi.IsDisconnect(err) {
		t.Errorf("GenMove past the host's deadline = %v", err)
	}

	// Play errors keep their status.
	if err := host.Play(ctx, "8"); code(err) != codes.InvalidArgument || !strings.HasPrefix(err.Error(), "play: illegal move 8") {
		t.Errorf("Play 8 = %v", err)
	}

	// Solve over the wire, replies matched by ID.
	s, err := host.Solve(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for id := uint64(10); id < 13; id++ {
		if err := s.Send(botapi.SolveRequest{ID: id, Rules: "connect4", Moves: []string{"1"}}); err != nil {
			t.Fatal(err)
		}
	}
	s.CloseSend()
	var ids []uint64
	for _, r := range recvAll(t, s) {
		if !r.Known || r.Score != 1 {
			t.Errorf("reply %+v", r)
		}
		ids = append(ids, r.ID)
	}
	if !slices.Equal(ids, []uint64{10, 11, 12}) {
		t.Errorf("reply ids %v", ids)
	}
}

// recvAll reads s's replies to its end.
func recvAll(t *testing.T, s botapi.SolveStream) []botapi.SolveReply {
	t.Helper()
	var got []botapi.SolveReply
	for {
		r, err := s.Recv()
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
}

func TestPrintHelp(t *testing.T) {
	var b strings.Builder
	PrintHelp(&b, botapi.Info{Name: "x", Version: "1", Author: "me", Kinds: []string{"mnk"}, Options: testOptions})
	for _, want := range []string{"x 1 by me", "plays mnk.", "tt=", "int 1..4096", "(default 64)", "occupied|full"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, b.String())
		}
	}
}
