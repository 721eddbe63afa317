package pluginbot

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"
	"google.golang.org/grpc"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// DefaultStartTimeout is how long a bot may take to complete the handshake.
const DefaultStartTimeout = 5 * time.Second

// killTimeout bounds every wait for a bot to go away.
const killTimeout = 3 * time.Second

// Bot is one running bot process.
type Bot struct {
	name   string // display name, e.g. "random#2"
	path   string
	opts   map[string]string
	log    hclog.Logger
	client *plugin.Client
	runner *groupRunner // set by go-plugin's goroutine: read it through proc
	api    botapi.Bot
	info   botapi.Info
	kill   sync.Once
	mu     sync.Mutex
	killed bool
	rules  engine.Rules
	onKill func()
	// failed is set once a call failed, disconnected once one failed for
	// a broken connection (Facts looks closer then).
	failed, disconnected bool
	// suspend: the bot is suspended from its answer to a game request
	// (NewGame, GenMove, Solve…) to its next request (Containment.SuspendAll,
	// Containment.Suspend); a bot only started (kinrow solve's) is not.
	suspend bool
}

var _ referee.Player = (*Bot)(nil)

// startConfig is what Start needs.
type startConfig struct {
	StartTimeout time.Duration
	SocketDir    string
	Logger       hclog.Logger
	Containment  Containment // memory cap and environment (runner.go)
	// Exe, when set, is the bot's executable, open and verified
	// (--verify-bots): what runs. start takes it over and closes it.
	Exe *os.File
}

// start launches the bot at path and completes the plugin handshake.
func start(ctx context.Context, name, display, path string, opts map[string]string, cfg startConfig) (*Bot, error) {
	if cfg.Exe != nil {
		defer cfg.Exe.Close() // the bot holds its own copy once started
	}
	log := cfg.Logger.Named(display)
	b := &Bot{name: display, path: path, opts: opts, log: log, suspend: cfg.Containment.suspends(name)}
	client := plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  botapi.Handshake(),
		VersionedPlugins: botapi.HostPluginSets(b.dialSessionSocket),
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		StartTimeout:     cfg.StartTimeout,
		Logger:           log,
		UnixSocketConfig: &plugin.UnixSocketConfig{TempDir: cfg.SocketDir},
		// Size caps on every answer; the bot's socket dialled as checked.
		GRPCDialOptions: append(botapi.DialOptions(), grpc.WithContextDialer(b.dialPlugin)),
		AutoMTLS:        cfg.Containment.MTLS,
		RunnerFunc: func(l hclog.Logger, cmd *exec.Cmd, _ string) (runner.Runner, error) {
			bin := exec.Command(path)
			bin.Env = cmd.Env // go-plugin's handshake variables and the socket dir
			r, err := newGroupRunner(l, bin, cfg.Containment, cfg.Exe)
			if err != nil {
				return nil, err
			}
			b.mu.Lock()
			b.runner = r
			b.mu.Unlock()
			return r, nil
		},
	})
	b.client = client
	type result struct {
		api botapi.Bot
		err error
	}
	done := make(chan result, 1)
	go func() {
		rpc, err := client.Client()
		if err != nil {
			done <- result{err: err}
			return
		}
		raw, err := rpc.Dispense(botapi.PluginName)
		if err != nil {
			done <- result{err: err}
			return
		}
		api, ok := raw.(botapi.Bot)
		if !ok {
			done <- result{err: fmt.Errorf("plugin %q is a %T, not a bot", botapi.PluginName, raw)}
			return
		}
		done <- result{api: api}
	}()
	var res result
	select {
	case res = <-done:
	case <-ctx.Done():
		b.Kill()
		return nil, fmt.Errorf("start bot %s: %w", name, ctx.Err())
	}
	if res.err != nil {
		b.Kill()
		if flood := b.flood(); flood != "" {
			return nil, fmt.Errorf("bot %s failed to start: it %s", name, flood)
		}
		return nil, startError(name, cfg.StartTimeout, res.err)
	}
	b.api = res.api
	infoCtx, cancel := context.WithTimeout(ctx, cfg.StartTimeout)
	info, err := b.api.Info(infoCtx)
	cancel()
	if err != nil {
		b.Kill()
		if flood := b.flood(); flood != "" {
			return nil, fmt.Errorf("bot %s started but did not describe itself: it %s", name, flood)
		}
		return nil, fmt.Errorf("bot %s started but did not describe itself: %w", name, err)
	}
	b.info = info
	log.Debug("bot ready", "pid", b.pid(), "version", info.Version, "protocol", client.NegotiatedVersion())
	return b, nil
}

var versionMismatch = regexp.MustCompile(`Plugin version: (\d+)`)

// startError words a start-up failure for the controller.
func startError(name string, timeout time.Duration, err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "timeout while waiting for plugin to start"):
		return fmt.Errorf("bot %s did not start within %s", name, timeout)
	case strings.Contains(msg, "Unrecognized remote plugin message"):
		first, _, _ := strings.Cut(strings.TrimPrefix(msg, "Unrecognized remote plugin message: "), "\n")
		if first == "" {
			return fmt.Errorf("bot %s exited or printed nothing before the plugin handshake: is it a kinrow bot?", name)
		}
		return fmt.Errorf("bot %s printed %q on stdout instead of the plugin handshake: is it a kinrow bot?", name, first)
	case strings.Contains(strings.ToLower(msg), "incompatible api version"):
		if m := versionMismatch.FindStringSubmatch(msg); m != nil {
			return fmt.Errorf("bot %s speaks plugin protocol version %s; this host speaks versions %d and %d: rebuild the bot with this kinrow's SDK", name, m[1], botapi.Version1, botapi.Version2)
		}
		return fmt.Errorf("bot %s speaks another plugin protocol version than %d and %d: %v", name, botapi.Version1, botapi.Version2, err)
	case strings.Contains(msg, "plugin exited before we could connect"):
		return fmt.Errorf("bot %s exited before completing the plugin handshake", name)
	}
	return fmt.Errorf("bot %s failed to start: %w", name, err)
}

func (b *Bot) pid() int {
	if r := b.proc(); r != nil {
		return r.PID()
	}
	return 0
}

// flood says how the bot flooded its stdout, "" if it did not.
func (b *Bot) flood() string {
	if r := b.proc(); r != nil {
		return r.flood.get()
	}
	return ""
}

// proc returns the bot's process runner, nil before go-plugin made it.
func (b *Bot) proc() *groupRunner {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.runner
}

// busyBudget is the CPU time a bot that answered may use before its next
// request (finishing its answer, its runtime's housekeeping) before it is
// suspended (procrun.Process.SuspendBusy).
const busyBudget = 2 * time.Millisecond

// idleWait bounds how long a bot that answered may keep a thread running
// before it is suspended all the same, where its CPU time is not measured
// (procrun.Process.SuspendIdle).
const idleWait = 100 * time.Millisecond

// wake resumes a suspended bot before the host sends it a request.
func (b *Bot) wake() {
	if !b.suspend {
		return
	}
	if r := b.proc(); r != nil {
		if err := r.Resume(); err != nil {
			b.log.Warn("resume the bot", "error", err)
		}
	}
}

// rest suspends the bot with everything it started as soon as it thinks
// after its answer (busyBudget of CPU time), without blocking; the next
// wake cancels it. A bot idle until its next request is never frozen.
func (b *Bot) rest() {
	if !b.suspend {
		return
	}
	if r := b.proc(); r != nil {
		r.SuspendBusy(busyBudget, idleWait, func(err error) { b.log.Warn("suspend the bot", "error", err) })
	}
}

// holdsNotifications reports whether Play and Undo send nothing to the bot
// until its next request (the Session stream of protocol version 2 holds
// them back and sends them in one message with it): a suspended bot need
// not be woken for them.
func (b *Bot) holdsNotifications() bool {
	_, ok := b.api.(*botapi.SessionClient)
	return ok
}

// Name is the bot's display name.
func (b *Bot) Name() string { return b.name }

// Info is what the bot said of itself at start-up.
func (b *Bot) Info() botapi.Info { return b.info }

// wrap marks errors that mean the bot is gone as referee.ErrDisconnected,
// a missed deadline as context.DeadlineExceeded and a feature the bot lacks
// as referee.ErrUnsupported.
func (b *Bot) wrap(err error) error {
	if err == nil {
		return nil
	}
	b.mu.Lock()
	b.failed = true
	b.mu.Unlock()
	if botapi.IsDisconnect(err) || b.client.Exited() {
		b.mu.Lock()
		b.disconnected = true
		b.mu.Unlock()
		return fmt.Errorf("%w: %v", referee.ErrDisconnected, err)
	}
	if botapi.IsDeadline(err) {
		return fmt.Errorf("%w: %v", context.DeadlineExceeded, err)
	}
	if botapi.IsUnimplemented(err) { // a bot asked to solve that does not
		return fmt.Errorf("%w: %w", referee.ErrUnsupported, err)
	}
	return err
}

// NewGame starts a game on the bot with the options it was loaded with.
func (b *Bot) NewGame(ctx context.Context, s referee.Setup) error {
	moves := make([]string, len(s.Moves))
	for i, m := range s.Moves {
		moves[i] = s.Rules.FormatMove(m)
	}
	b.rules = s.Rules
	b.wake()
	defer b.rest()
	err := b.api.NewGame(ctx, botapi.Game{
		Rules:   s.Rules.String(),
		Color:   s.Color.String(),
		Options: b.opts,
		Moves:   moves,
		Time: botapi.TimeControl{
			MoveTime: s.Clock.MoveTime, Main: s.Clock.Main, Byo: s.Clock.Byo, ByoStones: s.Clock.Stones,
			Increment: s.Clock.Increment,
		},
	})
	return b.wrap(err)
}

// Play tells the bot a move was played.
func (b *Bot) Play(ctx context.Context, m engine.Move) error {
	if !b.holdsNotifications() {
		b.wake()
		defer b.rest()
	}
	return b.wrap(b.api.Play(ctx, b.rules.FormatMove(m)))
}

// Undo tells the bot the last move was taken back.
func (b *Bot) Undo(ctx context.Context) error {
	if !b.holdsNotifications() {
		b.wake()
		defer b.rest()
	}
	return b.wrap(b.api.Undo(ctx))
}

// GenMove asks the bot for a move, logging the search reports it streams
// at debug, passing them to req.Progress, and answering the last one with
// the move. The request's wire part (botapi.GenMoveRequest) goes to the
// bot as it is: the host converts nothing on the way.
func (b *Bot) GenMove(ctx context.Context, req referee.MoveRequest) (referee.Answer, error) {
	b.wake()
	defer b.rest()
	var search *record.Search
	wire := req.GenMoveRequest
	wire.Play = true // the bot plays its answer on its own board (Player.GenMove)
	move, err := b.api.GenMove(ctx, wire, func(p botapi.Progress) {
		if b.log.IsDebug() {
			b.log.Debug("thinking", "depth", p.Depth, "score", p.Score, "best", p.BestMove, "nodes", p.Nodes,
				"time", p.Time, "pv", strings.Join(p.PV, " "))
		}
		search = referee.SearchOf(p)
		if req.Progress != nil {
			req.Progress(p)
		}
	})
	return referee.Answer{Move: move, Search: search}, b.wrap(err)
}

// ProtocolVersion is the plugin protocol version the bot speaks with the
// host: botapi.Version2 (the Session stream) or botapi.Version1.
func (b *Bot) ProtocolVersion() int { return b.client.NegotiatedVersion() }

// exitGrace is how long Exit waits for a bot whose connection broke to be
// reaped, so a crash is reported as one with its exit status.
const exitGrace = 200 * time.Millisecond

// Facts reports what the host knows of the bot's processes: its CPU time
// and, once the host killed it, a call to it failed or its process is gone,
// how it ended (waiting up to exitGrace for a bot whose connection broke to
// be reaped, so a crash is reported with its exit status) and whether it
// went over its memory cap. A healthy bot costs one CPU time reading.
func (b *Bot) Facts() referee.Facts {
	var f referee.Facts
	r := b.proc()
	if r == nil {
		f.Exited, f.How = b.client.Exited(), "the bot process exited"
		return f
	}
	f.CPU, f.CPUKnown = r.CPU()
	run := r.proc()
	b.mu.Lock()
	killed, failed, lost := b.killed, b.failed, b.disconnected
	b.mu.Unlock()
	if !killed && !failed && (run == nil || !run.WaitExit(0)) {
		return f // healthy: nothing more to read
	}
	if run != nil {
		f.OverMemory = run.Ending().OverMemory
	}
	if flood := r.flood.get(); flood != "" {
		f.Exited, f.How = true, flood // killed for it, whoever killed it last
		return f
	}
	if killed {
		f.Exited, f.How = true, "killed by the host"
		return f
	}
	wait := time.Duration(0)
	if b.client.Exited() || lost {
		wait = exitGrace
	}
	if how := r.exitStatus(wait); how != "" {
		f.Exited, f.How = true, "the bot process exited ("+how+")"
	}
	return f
}

// lostConn reports whether a call to the bot failed for a broken connection.
func (b *Bot) lostConn() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.disconnected
}

// closeTimeout bounds a graceful shutdown before the group is killed.
const closeTimeout = 2 * time.Second

// Close shuts the bot down gracefully (go-plugin's shutdown request), then
// kills its process group anyway so no child it forked survives; bounded in
// time, so a frozen bot is killed after closeTimeout.
func (b *Bot) Close() {
	b.kill.Do(func() {
		b.mu.Lock()
		b.killed = true
		b.mu.Unlock()
		b.wake() // a suspended bot could not stop gracefully
		if s, ok := b.api.(*botapi.SessionClient); ok {
			s.Close() // the bot's session ends first: nothing holds its graceful stop
		}
		done := make(chan struct{})
		go func() {
			b.client.Kill()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(closeTimeout):
			b.log.Warn("bot did not shut down in time; killing it", "pid", b.pid())
		}
		b.killGroup(done)
	})
}

// Kill stops the bot now: SIGKILL to its whole process group, then
// go-plugin's own clean-up, bounded in time. It never blocks for long, even
// on a frozen bot, and can be called any number of times.
func (b *Bot) Kill() {
	b.kill.Do(func() {
		b.mu.Lock()
		b.killed = true
		b.mu.Unlock()
		if r := b.proc(); r != nil { // first, so go-plugin's shutdown request fails fast
			_ = r.Kill(context.Background())
		}
		done := make(chan struct{})
		go func() {
			b.client.Kill()
			close(done)
		}()
		b.killGroup(done)
	})
}

// killGroup sends SIGKILL to the bot's process group and waits, bounded,
// for go-plugin's clean-up (done) to finish.
func (b *Bot) killGroup(done <-chan struct{}) {
	if r := b.proc(); r != nil {
		if err := r.Kill(context.Background()); err != nil {
			b.log.Warn("kill", "error", err)
		}
	}
	select {
	case <-done:
	case <-time.After(killTimeout):
		b.log.Error("bot did not go away after SIGKILL of its process group", "pid", b.pid())
	}
	if b.onKill != nil {
		b.onKill()
		b.onKill = nil
	}
}

// Solve opens a solving stream on the bot, valid until ctx ends; errors
// that mean the bot is gone wrap referee.ErrDisconnected. A bot suspended
// under --bot-suspend is resumed for the stream and suspended again once
// it has answered every request or the stream failed.
func (b *Bot) Solve(ctx context.Context) (botapi.SolveStream, error) {
	b.wake()
	s, err := b.api.Solve(ctx)
	if err != nil {
		b.rest()
		return nil, b.wrap(err)
	}
	return &solveStream{b: b, s: s}, nil
}

// solveStream is a bot's solving stream: its errors classified (Bot.wrap),
// the bot suspended again once every request is answered after CloseSend,
// or the stream failed. Send and Recv may run on different goroutines.
type solveStream struct {
	b    *Bot
	s    botapi.SolveStream
	done sync.Once

	mu             sync.Mutex
	sent, received int
	closed         bool
}

func (s *solveStream) Send(r botapi.SolveRequest) error {
	s.mu.Lock()
	s.sent++
	s.mu.Unlock()
	err := s.s.Send(r)
	if err == io.EOF { // the stream failed: Recv says why
		return err
	}
	return s.end(err)
}

func (s *solveStream) CloseSend() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return s.end(s.s.CloseSend())
}

func (s *solveStream) Recv() (botapi.SolveReply, error) {
	r, err := s.s.Recv()
	if err == io.EOF {
		s.done.Do(s.b.rest)
		return r, err
	}
	if err == nil {
		s.mu.Lock()
		s.received++
		all := s.closed && s.received >= s.sent
		s.mu.Unlock()
		if all {
			s.done.Do(s.b.rest)
		}
	}
	return r, s.end(err)
}

// end classifies err and, when there is one, suspends the bot again.
func (s *solveStream) end(err error) error {
	if err != nil {
		s.done.Do(s.b.rest)
	}
	return s.b.wrap(err)
}
