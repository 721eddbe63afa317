package gtpfront

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/gtp"
)

// ProtocolVersion is the GTP version the front end speaks.
const ProtocolVersion = "2"

// Config sets up a Server.
type Config struct {
	Loader     Loader
	Rules      engine.Rules // the game at start
	DefaultBot string       // the bot for a side with none loaded; "" = strongest installed
	Grace      time.Duration
	MoveTime   time.Duration
	Logger     hclog.Logger
	Version    string
}

// side is what the server knows of one colour's bot: what the controller
// asked for (so a crashed bot can be started afresh) and the running player.
type side struct {
	name   string // bot name as asked for; "" = default bot
	opts   map[string]string
	player referee.Player
}

// Server answers the protocol for one controller.
type Server struct {
	cfg   Config
	game  *referee.Game
	sides [2]side
	cmds  map[string]handler
	quit  bool
	// gtpColours is set when the last colour the controller named was
	// spelled as GTP's (b, w, black, white): final_score answers in them.
	gtpColours bool
}

type handler struct {
	usage string // arguments, for syntax errors
	min   int    // minimum number of arguments
	max   int    // maximum, -1 for any
	run   func(ctx context.Context, args []string) (string, error)
}

// errSyntax marks errors worded as GTP's "syntax error".
var errSyntax = errors.New("syntax error")

// New returns a server for one session.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = hclog.NewNullLogger()
	}
	if cfg.MoveTime == 0 {
		cfg.MoveTime = referee.DefaultMoveTime
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	s := &Server{cfg: cfg}
	s.game = referee.New(cfg.Rules, referee.Config{
		Grace: cfg.Grace, Clock: referee.Clock{MoveTime: cfg.MoveTime}, Logger: cfg.Logger,
	})
	s.cmds = s.commands()
	return s
}

// Game returns the session's game.
func (s *Server) Game() *referee.Game { return s.game }

// Serve reads commands from in and answers on out until quit, end of input
// or ctx is done; then it stops every bot it started.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	defer s.Close()
	r := gtp.NewReader(in)
	w := gtp.NewWriter(out)
	for !s.quit {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		cmd, err := r.Next()
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case errors.Is(err, gtp.ErrLineTooLong):
			if werr := w.Failure(cmd, fmt.Sprintf("line too long: a command line may have at most %d bytes", gtp.MaxLineBytes)); werr != nil {
				return werr
			}
			continue
		case errors.Is(err, gtp.ErrInvalidCommand):
			if werr := w.Failure(cmd, "syntax error: "+err.Error()); werr != nil {
				return werr
			}
			continue
		case err != nil:
			return fmt.Errorf("read command: %w", err)
		}
		text, err := s.Do(ctx, cmd.Name, cmd.Args)
		if err != nil {
			err = w.Failure(cmd, err.Error())
		} else {
			err = w.Success(cmd, text)
		}
		if err != nil {
			return fmt.Errorf("write answer: %w", err)
		}
	}
	return nil
}

// Do runs one command and returns its answer text or its error.
func (s *Server) Do(ctx context.Context, name string, args []string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("%w: a command name is missing", errSyntax)
	}
	h, ok := s.cmds[strings.ToLower(name)]
	if !ok {
		return "", errors.New("unknown command")
	}
	if len(args) < h.min || (h.max >= 0 && len(args) > h.max) {
		return "", fmt.Errorf("%w: want %s", errSyntax, strings.TrimSpace(name+" "+h.usage))
	}
	return h.run(ctx, args)
}

// Close stops every bot the session started.
func (s *Server) Close() {
	for c := range s.sides {
		s.drop(engine.Color(c))
	}
	s.cfg.Loader.Close()
}

// drop stops side c's running bot, keeping what was asked for. The bot is
// detached first, so no notification is still being delivered to it when it
// is closed.
func (s *Server) drop(c engine.Color) {
	if p := s.sides[c].player; p != nil {
		if s.game.Player(c) == p {
			_ = s.game.Attach(context.Background(), c, nil)
		}
		p.Close()
		s.sides[c].player = nil
	}
}

func (s *Server) commands() map[string]handler {
	m := map[string]handler{
		"protocol_version": {"", 0, 0, func(context.Context, []string) (string, error) { return ProtocolVersion, nil }},
		"name":             {"", 0, 0, func(context.Context, []string) (string, error) { return "kinrow", nil }},
		"version":          {"", 0, 0, func(context.Context, []string) (string, error) { return s.cfg.Version, nil }},
		"known_command": {"NAME", 1, 1, func(_ context.Context, a []string) (string, error) {
			_, ok := s.cmds[strings.ToLower(a[0])]
			return strconv.FormatBool(ok), nil
		}},
		"list_commands": {"", 0, 0, func(context.Context, []string) (string, error) {
			names := make([]string, 0, len(s.cmds))
			for n := range s.cmds {
				names = append(names, n)
			}
			sort.Strings(names)
			return strings.Join(names, "\n"), nil
		}},
		"help":            {"", 0, 0, s.cmdHelp},
		"quit":            {"", 0, 0, func(context.Context, []string) (string, error) { s.quit = true; return "", nil }},
		"rules":           {"RULES | rules connectx|mnk ROWS COLS K", 1, 4, s.cmdRules},
		"boardsize":       {"N", 1, 1, s.cmdBoardsize},
		"komi":            {"X", 1, 1, s.cmdKomi},
		"clear_board":     {"", 0, 0, s.cmdClearBoard},
		"play":            {"COLOR MOVE", 2, 2, s.cmdPlay},
		"genmove":         {"COLOR", 1, 1, s.cmdGenmove},
		"undo":            {"", 0, 0, s.cmdUndo},
		"showboard":       {"", 0, 0, s.cmdShowboard},
		"final_score":     {"", 0, 0, s.cmdFinalScore},
		"time_settings":   {"MAIN BYO_YOMI_TIME BYO_YOMI_STONES", 3, 3, s.cmdTimeSettings},
		"time_left":       {"COLOR TIME STONES", 3, 3, s.cmdTimeLeft},
		"kinrow-movetime": {"MS", 1, 1, s.cmdMovetime},
		"kinrow-bots":     {"", 0, 0, s.cmdBots},
		"kinrow-load":     {"COLOR BOT [KEY=VALUE...]", 2, -1, s.cmdLoad},
		"kinrow-unload":   {"COLOR", 1, 1, s.cmdUnload},
		"kinrow-result":   {"", 0, 0, s.cmdResult},
		"kinrow-record":   {"", 0, 0, s.cmdRecord},
		"kinrow-solve":    {"[analyze] [weak]", 0, 2, s.cmdSolve},
	}
	return m
}

func (s *Server) cmdRules(ctx context.Context, a []string) (string, error) {
	var spec string
	switch len(a) {
	case 1:
		spec = a[0]
	case 4:
		spec = fmt.Sprintf("%s:%sx%sx%s", a[0], a[1], a[2], a[3])
	default:
		return "", fmt.Errorf("%w: want rules RULES (%s) or rules connectx|mnk ROWS COLS K", errSyntax, engine.RulesSyntax)
	}
	r, err := engine.ParseRules(spec)
	if err != nil {
		return "", err
	}
	return "", s.restart(ctx, r)
}

// restart clears the board under rules. A bot that does not take the new
// game is never replaced by another bot: a bot loaded by name is started
// afresh (a new process of the same bot), and if that one refuses too the
// command fails naming the bot and why; the side keeps that bot, so genmove
// tries it again and fails the same way until kinrow-load or kinrow-unload.
// The default bot of a side with none loaded is stopped, to be chosen again
// for the new rules when needed. The new game is set either way.
func (s *Server) restart(ctx context.Context, r engine.Rules) error {
	for c := range s.sides {
		if p := s.sides[c].player; p != nil {
			if p.Facts().Exited {
				s.drop(engine.Color(c))
			}
		}
	}
	err := s.game.Restart(ctx, r)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return err
	}
	var refusals [2]error
	for _, e := range unjoin(err) {
		var refusal *referee.RefusalError
		if errors.As(e, &refusal) {
			refusals[refusal.Color] = refusal
		}
	}
	var failures []string
	for c := range s.sides {
		color := engine.Color(c)
		sd := &s.sides[c]
		if sd.player == nil || s.game.Player(color) != nil {
			continue
		}
		sd.player.Close()
		sd.player = nil
		if sd.name == "" {
			s.cfg.Logger.Info("default bot stopped: it did not take the new game", "side", color.String(), "error", refusals[c])
			continue
		}
		s.cfg.Logger.Warn("bot refused the new game; starting it afresh", "side", color.String(), "error", refusals[c])
		if _, serr := s.start(ctx, color, sd.name, sd.opts); serr != nil {
			failures = append(failures, fmt.Sprintf("%v; a fresh %s refused it too: %v", refusals[c], sd.name, serr))
		}
	}
	if len(failures) > 0 {
		return errors.New(strings.Join(failures, "; ") + " (the new game is set; kinrow-load another bot or kinrow-unload the side)")
	}
	return nil
}

// unjoin returns the errors joined in err (err alone if it joins none).
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func (s *Server) cmdBoardsize(ctx context.Context, a []string) (string, error) {
	n, err := strconv.Atoi(a[0])
	cur := s.game.Rules()
	if err != nil {
		return "", fmt.Errorf("%w: boardsize takes a whole number, got %q", errSyntax, a[0])
	}
	r, err := engine.NewRules(cur.Kind, n, n, cur.K)
	if err != nil {
		return "", fmt.Errorf("unacceptable size: %w", err)
	}
	if err := s.restart(ctx, r); err != nil {
		return "", err
	}
	return r.String(), nil
}

func (s *Server) cmdKomi(_ context.Context, a []string) (string, error) {
	if v, err := strconv.ParseFloat(a[0], 64); err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return "", fmt.Errorf("%w: komi takes a finite number, got %q", errSyntax, a[0])
	}
	return "", nil
}

func (s *Server) cmdClearBoard(ctx context.Context, _ []string) (string, error) {
	return "", s.restart(ctx, s.game.Rules())
}

// color parses a colour argument, noting whether the controller spelled it
// as GTP does (b, w, black, white) or as kinrow does (x, o).
func (s *Server) color(arg string) (engine.Color, error) {
	c, err := engine.ParseColor(arg)
	if err == nil {
		switch strings.ToLower(arg) {
		case "x", "o":
			s.gtpColours = false
		default:
			s.gtpColours = true
		}
	}
	return c, err
}

func (s *Server) cmdPlay(ctx context.Context, a []string) (string, error) {
	c, err := s.color(a[0])
	if err != nil {
		return "", fmt.Errorf("%w: %w", errSyntax, err)
	}
	r := s.game.Rules()
	m, err := r.ParseMove(a[1])
	if err != nil {
		return "", fmt.Errorf("illegal move: %w", err)
	}
	if err := s.game.Play(ctx, c, m); err != nil {
		return "", err
	}
	return "", nil
}

func (s *Server) cmdGenmove(ctx context.Context, a []string) (string, error) {
	c, err := s.color(a[0])
	if err != nil {
		return "", fmt.Errorf("%w: %w", errSyntax, err)
	}
	if s.game.Over() {
		// A GTP engine signals the end of a game it lost by resigning.
		if loser, ok := s.loser(); ok && loser == c {
			return "resign", nil
		}
		return "", fmt.Errorf("%w: the game is over (%s)", referee.ErrIllegalMove, s.game.Record().Summary())
	}
	if c != s.game.Position().ToMove() {
		return "", fmt.Errorf("%w: %s is not to move (%s is)", referee.ErrIllegalMove, c, s.game.Position().ToMove())
	}
	if err := s.ensure(ctx, c); err != nil {
		return "", err
	}
	out, err := s.game.GenMove(ctx, c)
	if err != nil {
		return "", err
	}
	if !out.Played {
		if out.Killed {
			s.drop(c) // killed by the referee; started afresh when next needed
		}
		return "resign", nil
	}
	return s.game.Rules().FormatMove(out.Move), nil
}

// loser is the side that lost the finished game, if one did.
func (s *Server) loser() (engine.Color, bool) {
	switch s.game.Record().Result {
	case "X+":
		return engine.O, true
	case "O+":
		return engine.X, true
	}
	return engine.X, false
}

// ensure makes sure side c has a running bot: the one loaded for it
// (restarted if it died) or the default bot.
func (s *Server) ensure(ctx context.Context, c engine.Color) error {
	sd := &s.sides[c]
	if sd.player != nil {
		return nil
	}
	name := sd.name
	if name == "" {
		name = s.cfg.DefaultBot
	}
	if name == "" {
		var err error
		if name, err = s.cfg.Loader.Default(ctx, s.game.Rules()); err != nil {
			return fmt.Errorf("no bot loaded for %s and no default bot: %w", c, err)
		}
	}
	_, err := s.start(ctx, c, name, sd.opts)
	return err
}

// start loads bot name for side c and attaches it; on success the previous
// bot of c is killed, on failure it stays.
func (s *Server) start(ctx context.Context, c engine.Color, name string, opts map[string]string) (referee.Player, error) {
	display := name
	if other := s.sides[c.Other()].player; other != nil {
		base, _, _ := strings.Cut(other.Name(), "#")
		if base == name {
			display = name + "#2"
		}
	}
	p, err := s.cfg.Loader.Load(ctx, name, display, opts)
	if err != nil {
		return nil, err
	}
	old := s.sides[c].player
	if err := s.game.Attach(ctx, c, p); err != nil {
		p.Close()
		if old != nil { // keep the previous bot
			if aerr := s.game.Attach(ctx, c, old); aerr != nil {
				s.drop(c)
			}
		}
		return nil, err
	}
	if old != nil {
		old.Close()
	}
	s.sides[c].player = p
	return p, nil
}

func (s *Server) cmdLoad(ctx context.Context, a []string) (string, error) {
	c, err := s.color(a[0])
	if err != nil {
		return "", fmt.Errorf("%w: %w", errSyntax, err)
	}
	opts := map[string]string{}
	for _, kv := range a[2:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return "", fmt.Errorf("%w: option %q is not KEY=VALUE", errSyntax, kv)
		}
		opts[k] = v
	}
	if _, err := s.start(ctx, c, a[1], opts); err != nil {
		return "", err
	}
	s.sides[c].name, s.sides[c].opts = a[1], opts
	return "", nil
}

func (s *Server) cmdUnload(_ context.Context, a []string) (string, error) {
	c, err := s.color(a[0])
	if err != nil {
		return "", fmt.Errorf("%w: %w", errSyntax, err)
	}
	s.drop(c)
	s.sides[c] = side{}
	return "", nil
}

func (s *Server) cmdUndo(ctx context.Context, _ []string) (string, error) {
	if err := s.game.Undo(ctx); err != nil {
		return "", err
	}
	return "", nil
}

func (s *Server) cmdShowboard(context.Context, []string) (string, error) {
	p := s.game.Position()
	status := fmt.Sprintf("%s, %s to move", s.game.Rules(), p.ToMove())
	if s.game.Over() {
		status = fmt.Sprintf("%s, %s", s.game.Rules(), s.game.Record().Summary())
	}
	if m := p.LastMove(); m != engine.NoMove {
		status += fmt.Sprintf(" (last move %s)", p.Rules().FormatMove(m))
	}
	return "\n" + markedDiagram(p) + "\n" + status, nil
}

func (s *Server) cmdFinalScore(context.Context, []string) (string, error) {
	if !s.game.Over() {
		return "", errors.New("cannot score: the game is still open")
	}
	res := s.game.Record().Result
	if s.gtpColours { // x is black, o is white
		switch res {
		case "X+":
			return "B+", nil
		case "O+":
			return "W+", nil
		}
	}
	return res, nil
}

// maxSeconds is the longest time a clock takes, in seconds.
const maxSeconds = int64(referee.MaxTime / time.Second)

// seconds parses a GTP time in seconds: a whole or decimal number from 0 to
// maxSeconds (not NaN, not infinite).
func seconds(what, s string) (time.Duration, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || v < 0 || v > float64(maxSeconds) {
		return 0, fmt.Errorf("%w: %s must be a number of seconds from 0 to %d, got %q", errSyntax, what, maxSeconds, s)
	}
	return time.Duration(v * float64(time.Second)), nil
}

// stones parses a GTP stone count: a whole number from 0 to referee.MaxStones.
func stones(what, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > referee.MaxStones {
		return 0, fmt.Errorf("%w: %s must be a whole number from 0 to %d, got %q", errSyntax, what, referee.MaxStones, s)
	}
	return n, nil
}

func (s *Server) cmdTimeSettings(_ context.Context, a []string) (string, error) {
	main, err := seconds("main time", a[0])
	if err != nil {
		return "", err
	}
	byo, err := seconds("byo-yomi time", a[1])
	if err != nil {
		return "", err
	}
	n, err := stones("byo-yomi stones", a[2])
	if err != nil {
		return "", err
	}
	clock := s.game.Clock()
	clock.Main, clock.Byo, clock.Stones = main, byo, n
	return "", s.game.SetClock(clock)
}

func (s *Server) cmdTimeLeft(_ context.Context, a []string) (string, error) {
	c, err := s.color(a[0])
	if err != nil {
		return "", fmt.Errorf("%w: %w", errSyntax, err)
	}
	left, err := seconds("time", a[1])
	if err != nil {
		return "", err
	}
	n, err := stones("stones", a[2])
	if err != nil {
		return "", err
	}
	return "", s.game.SetTimeLeft(c, left, n)
}

func (s *Server) cmdMovetime(_ context.Context, a []string) (string, error) {
	ms, err := strconv.Atoi(a[0])
	if err != nil || ms < 1 || ms > 24*3600*1000 {
		return "", fmt.Errorf("%w: kinrow-movetime takes milliseconds from 1 to 86400000, got %q", errSyntax, a[0])
	}
	clock := s.game.Clock()
	clock.MoveTime = time.Duration(ms) * time.Millisecond
	return "", s.game.SetClock(clock)
}

func (s *Server) cmdBots(context.Context, []string) (string, error) {
	return strings.Join(s.cfg.Loader.Names(), "\n"), nil
}

func (s *Server) cmdResult(context.Context, []string) (string, error) {
	return s.game.Record().Summary(), nil
}

func (s *Server) cmdRecord(context.Context, []string) (string, error) {
	b, err := s.game.Record().MarshalLine()
	return string(b), err
}
