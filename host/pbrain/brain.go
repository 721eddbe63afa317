package pbrain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/gomocup"
)

// Defaults of Config.
const (
	// DefaultMargin is the safety margin kept between the bot's deadline and
	// the limit of a move (see the package comment).
	DefaultMargin = 200 * time.Millisecond
	// DefaultTurn is the limit of a move when the manager sets no
	// timeout_turn.
	DefaultTurn = 5 * time.Second
	// DefaultFastTurn is the limit of a move under timeout_turn 0.
	DefaultFastTurn = 100 * time.Millisecond
	// DefaultCallTimeout bounds the calls to the bot other than a move.
	DefaultCallTimeout = time.Second
	// MatchShare: a move may use at most 1/MatchShare of the match time left.
	MatchShare = 20
)

// Loader starts bots; *registry.Registry is one.
type Loader interface {
	// Load starts bot name under the display name display with its options.
	Load(ctx context.Context, name, display string, opts map[string]string) (referee.Player, error)
	// Default names the strongest bot that plays rules.
	Default(ctx context.Context, rules engine.Rules) (string, error)
	// Info is what bot name says of itself (its options, for max_memory).
	Info(ctx context.Context, name string) (botapi.Info, error)
	// Close stops everything the loader started.
	Close()
}

// CappedLoader is a Loader that can cap a bot's memory
// (*registry.Registry): the brain caps its bot at the manager's INFO
// max_memory.
type CappedLoader interface {
	// LoadCapped is Load with a memory cap in bytes (0: the loader's own).
	LoadCapped(ctx context.Context, name, display string, opts map[string]string, memory int64) (referee.Player, error)
}

// Config sets up a Brain.
type Config struct {
	Loader Loader
	// Bot is the bot to play; "" picks the strongest installed bot that
	// plays the board at START.
	Bot string
	// Options are the bot's options (--bot-opt).
	Options map[string]string
	// Margin is the safety margin (default DefaultMargin).
	Margin time.Duration
	// DefaultTurn is the move limit without timeout_turn (default DefaultTurn).
	DefaultTurn time.Duration
	// FastTurn is the move limit under timeout_turn 0 (default DefaultFastTurn).
	FastTurn time.Duration
	// CallTimeout bounds calls to the bot other than a move (default
	// DefaultCallTimeout); a bot that misses it is replaced.
	CallTimeout time.Duration
	// Logger gets what the brain does and why (default: none).
	Logger hclog.Logger
	// Version is the kinrow version ABOUT reports.
	Version string
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// item is one read from the manager: a command or an error, and when it
// arrived (the move clock starts then).
type item struct {
	cmd gomocup.Command
	err error
	at  time.Time
}

// Brain is one Gomocup session: it is not safe for concurrent use; Serve
// runs it.
type Brain struct {
	cfg  Config
	log  hclog.Logger
	w    *gomocup.Writer
	info settings

	rules   engine.Rules
	started bool
	game    *referee.Game
	spent   time.Duration // this brain's time in the match

	botName string            // resolved bot name
	player  referee.Player    // the bot, attached to the side it plays
	opts    map[string]string // the options player was started with
	spare   *spare            // a bot starting in the background, after one failed
	backlog []item
	ctx     context.Context // Serve's
}

// spare is a bot being started in the background, so that replacing a bot
// that failed does not take the next move's time before that move starts.
type spare struct {
	done   chan struct{}
	cancel context.CancelFunc
	opts   map[string]string
	p      referee.Player // set when done, if err is nil
	err    error
}

// New returns a brain on cfg.
func New(cfg Config) *Brain {
	if cfg.Margin <= 0 {
		cfg.Margin = DefaultMargin
	}
	if cfg.DefaultTurn <= 0 {
		cfg.DefaultTurn = DefaultTurn
	}
	if cfg.FastTurn <= 0 {
		cfg.FastTurn = DefaultFastTurn
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = DefaultCallTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = hclog.NewNullLogger()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	return &Brain{cfg: cfg, log: cfg.Logger, botName: cfg.Bot}
}

// errEnd ends the session (END).
var errEnd = errors.New("END")

// Serve reads commands from in and answers on out until END, the end of in,
// or ctx is done; then it kills every bot it started. It returns nil after
// END or the end of input, ctx's error, or a read or write error.
func (b *Brain) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	b.w = gomocup.NewWriter(out)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer b.shutdown()
	b.ctx = ctx
	items := make(chan item)
	go func() {
		r := gomocup.NewReader(in)
		for {
			c, err := r.Next()
			select {
			case items <- item{cmd: c, err: err, at: b.cfg.Now()}:
			case <-ctx.Done():
				return
			}
			if err != nil && !isSyntax(err) {
				return
			}
		}
	}()
	for {
		var it item
		if len(b.backlog) > 0 {
			it, b.backlog = b.backlog[0], b.backlog[1:]
		} else {
			select {
			case it = <-items:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		err := b.handle(ctx, it, items)
		if errors.Is(err, errEnd) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func isSyntax(err error) bool {
	var se *gomocup.SyntaxError
	return errors.As(err, &se)
}

// shutdown kills the bot at once (END must be quick) and stops the loader.
func (b *Brain) shutdown() {
	if b.player != nil {
		b.player.Kill()
		b.player = nil
	}
	if sp := b.spare; sp != nil {
		b.spare = nil
		sp.cancel()
		select {
		case <-sp.done:
			if sp.p != nil {
				sp.p.Kill()
			}
		case <-time.After(500 * time.Millisecond):
			b.log.Warn("a bot still starting is left to the loader")
		}
	}
	b.cfg.Loader.Close()
}

// startSpare starts the bot in the background (see spare).
func (b *Brain) startSpare() {
	opts, err := b.options(b.ctx)
	if err != nil {
		b.log.Warn("cannot start a fresh bot now", "error", err)
		return
	}
	ctx, cancel := context.WithCancel(b.ctx)
	sp := &spare{done: make(chan struct{}), cancel: cancel, opts: opts}
	name := b.botName
	go func() {
		defer close(sp.done)
		sp.p, sp.err = b.load(ctx, name, opts)
	}()
	b.spare = sp
}

// takeSpare waits for the spare bot (bounded by ctx; the spare is kept if
// ctx ends first) and returns it, or nil if it failed or its options are
// not opts any more.
func (b *Brain) takeSpare(ctx context.Context, opts map[string]string) (referee.Player, error) {
	sp := b.spare
	select {
	case <-sp.done:
	case <-ctx.Done():
		return nil, fmt.Errorf("the bot is still starting: %w", ctx.Err())
	}
	b.spare = nil
	sp.cancel()
	if sp.err != nil {
		b.log.Warn("the fresh bot did not start; starting another", "error", sp.err)
		return nil, nil
	}
	if !sameOptions(sp.opts, opts) {
		sp.p.Kill()
		return nil, nil
	}
	return sp.p, nil
}

// reply writes one answer.
func (b *Brain) reply(r gomocup.Response) error {
	if r.Kind == gomocup.ReplyError || r.Kind == gomocup.ReplyUnknown {
		b.log.Warn("answer", "line", r.String())
	}
	return b.w.Response(r)
}

// handle runs one command. items is where commands arriving while the bot
// thinks are read from (END is obeyed at once, the others are kept for
// later).
func (b *Brain) handle(ctx context.Context, it item, items <-chan item) error {
	if it.err != nil {
		if errors.Is(it.err, io.EOF) {
			return errEnd
		}
		if !isSyntax(it.err) {
			return fmt.Errorf("read the manager's commands: %w", it.err)
		}
		return b.reply(gomocup.ReplyTo(it.err))
	}
	c := it.cmd
	b.log.Debug("command", "line", strings.Join(c.Lines(), " | "))
	switch c.Kind {
	case gomocup.CmdEnd:
		return errEnd
	case gomocup.CmdInfo:
		if err := b.info.set(c, b.spent); err != nil {
			b.log.Warn("INFO ignored", "error", err)
			return b.reply(gomocup.Debug("INFO ignored: " + err.Error()))
		}
		return nil
	case gomocup.CmdAbout:
		return b.reply(b.about())
	case gomocup.CmdSwap2Board:
		return b.reply(gomocup.Error("SWAP2BOARD: Swap2 openings are not supported: this brain plays freestyle (rule 0) from BEGIN, TURN or BOARD"))
	}
	if err := b.info.supported(); err != nil {
		return b.reply(gomocup.Error("%s: %v", c.Kind, err))
	}
	switch c.Kind {
	case gomocup.CmdStart, gomocup.CmdRectStart:
		return b.reply(b.start(ctx, c))
	case gomocup.CmdRestart:
		return b.reply(b.restart(ctx))
	case gomocup.CmdTakeback:
		return b.reply(b.takeback(ctx, c.Point))
	case gomocup.CmdPlay:
		return b.reply(b.play(ctx, c.Point))
	case gomocup.CmdBegin, gomocup.CmdTurn, gomocup.CmdBoard:
		if err := b.followRule(ctx); err != nil {
			return b.reply(gomocup.Error("%s: %v", c.Kind, err))
		}
		target, err := b.target(c)
		if err != nil {
			return b.reply(gomocup.Error("%s: %v", c.Kind, err))
		}
		return b.move(ctx, it.at, target, items)
	}
	return b.reply(gomocup.Unknown("%s is not handled", c.Kind))
}

// about answers ABOUT.
func (b *Brain) about() gomocup.Response {
	name := "kinrow"
	if b.botName != "" {
		name += "-" + b.botName
	}
	return gomocup.Response{Kind: gomocup.ReplyAbout, About: []gomocup.AboutField{
		{Key: gomocup.AboutName, Value: name},
		{Key: gomocup.AboutVersion, Value: b.cfg.Version},
		{Key: gomocup.AboutAuthor, Value: "kinrow"},
		{Key: gomocup.AboutWWW, Value: "https://github.com/kinrow/kinrow"},
	}}
}

// newGame returns a game of rules at the position of moves, with no player.
func (b *Brain) newGame(rules engine.Rules, moves []engine.Move) (*referee.Game, error) {
	g := referee.New(rules, referee.Config{Logger: b.log, CallTimeout: b.cfg.CallTimeout, Now: b.cfg.Now})
	g.SetName(engine.X, "manager")
	g.SetName(engine.O, "manager")
	for i, m := range moves {
		if err := g.Play(context.Background(), g.Position().ToMove(), m); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	return g, nil
}

// start answers START and RECTSTART: the board under the INFO rule given so far.
func (b *Brain) start(ctx context.Context, c gomocup.Command) gomocup.Response {
	rules, err := gomocup.BoardRules(c.Width, c.Height, b.info.rule)
	if err != nil {
		return gomocup.Error("%s: %v (START 5 to %d, or RECTSTART with such sides)", c.Kind, err, engine.MaxSide)
	}
	if err := b.startRules(ctx, rules); err != nil {
		return gomocup.Error("%s: %v", c.Kind, err)
	}
	return gomocup.OK()
}

// startRules starts a game of rules with the bot that plays them: the
// configured bot if it does (else an error naming the variants it plays),
// or the strongest installed bot that plays them (else an error).
func (b *Brain) startRules(ctx context.Context, rules engine.Rules) error {
	if b.cfg.Bot != "" {
		info, err := b.cfg.Loader.Info(ctx, b.cfg.Bot)
		if err == nil && !info.Declares(rules) {
			return fmt.Errorf("bot %s does not play %s (INFO rule %d): it plays %s", b.cfg.Bot, rules, int(gomocup.RuleOf(rules.Line)), strings.Join(info.Kinds, ", "))
		}
	}
	if b.botName == "" || b.rules != rules && b.cfg.Bot == "" {
		name, err := b.cfg.Loader.Default(ctx, rules)
		if err != nil {
			return fmt.Errorf("%w (INFO rule %d)", err, int(gomocup.RuleOf(rules.Line)))
		}
		if name != b.botName {
			b.dropPlayer("another bot plays this board")
			if sp := b.spare; sp != nil {
				b.spare = nil
				sp.cancel()
				go func() {
					<-sp.done
					if sp.p != nil {
						sp.p.Kill()
					}
				}()
			}
		}
		b.botName = name
	}
	g, _ := b.newGame(rules, nil)
	b.rules, b.game, b.started, b.spent = rules, g, true, 0
	if err := b.ensure(ctx, engine.X); err != nil {
		b.started = false
		return err
	}
	b.log.Info("game started", "rules", rules.String(), "bot", b.botName)
	return nil
}

// followRule restarts the game on the same board when an INFO rule came
// after START (Gomocup managers send INFO between START and the first
// move): the board's rules follow the rule before BEGIN, TURN or BOARD.
func (b *Brain) followRule(ctx context.Context) error {
	if !b.started {
		return nil
	}
	want, err := gomocup.BoardRules(b.rules.Cols, b.rules.Rows, b.info.rule)
	if err != nil || want == b.rules {
		return err
	}
	if b.game.Position().Ply() > 0 {
		return fmt.Errorf("INFO rule %d came in the middle of a game of %s: send it before the first move", int(b.info.rule), b.rules)
	}
	return b.startRules(ctx, want)
}

// restart answers RESTART.
func (b *Brain) restart(ctx context.Context) gomocup.Response {
	if !b.started {
		return gomocup.Error("RESTART before START: send START size or RECTSTART width,height first")
	}
	b.spent = 0
	b.info.left, b.info.leftSet = 0, false
	b.game, _ = b.newGame(b.rules, nil)
	if err := b.ensure(ctx, engine.X); err != nil {
		// Not fatal: the bot is started again at the next move.
		b.log.Warn("the bot could not start the new game", "error", err)
	}
	return gomocup.OK()
}

// takeback answers TAKEBACK X,Y.
func (b *Brain) takeback(ctx context.Context, p gomocup.Point) gomocup.Response {
	if !b.started {
		return gomocup.Error("TAKEBACK before START")
	}
	m, err := gomocup.ToMove(b.rules, p)
	if err != nil {
		return gomocup.Error("TAKEBACK %s: %v", p, err)
	}
	pos := b.game.Position()
	last := pos.LastMove()
	if last == engine.NoMove {
		return gomocup.Error("TAKEBACK %s: the board is empty", p)
	}
	if last != m {
		lp, _ := gomocup.FromMove(b.rules, last)
		return gomocup.Error("TAKEBACK %s: the last stone is %s: stones are taken back from the last one", p, lp)
	}
	if err := b.game.Undo(ctx); err != nil {
		return gomocup.Error("TAKEBACK %s: %v", p, err)
	}
	return gomocup.OK()
}

// play answers PLAY X,Y: the brain plays X,Y.
func (b *Brain) play(ctx context.Context, p gomocup.Point) gomocup.Response {
	if !b.started {
		return gomocup.Error("PLAY before START")
	}
	m, err := b.legal(b.game.Position(), p)
	if err != nil {
		return gomocup.Error("PLAY %s: %v", p, err)
	}
	if err := b.game.Play(ctx, b.game.Position().ToMove(), m); err != nil {
		return gomocup.Error("PLAY %s: %v", p, err)
	}
	return gomocup.Move(p)
}

// legal maps p to a move and checks it is legal in pos.
func (b *Brain) legal(pos *engine.Position, p gomocup.Point) (engine.Move, error) {
	m, err := gomocup.ToMove(b.rules, p)
	if err != nil {
		return engine.NoMove, err
	}
	if err := pos.Check(m); err != nil {
		if errors.Is(err, engine.ErrOccupied) {
			return engine.NoMove, fmt.Errorf("%s is occupied", p)
		}
		return engine.NoMove, err
	}
	return m, nil
}

// target returns the moves of the position in which the brain is to move
// after BEGIN, TURN or BOARD, checked.
func (b *Brain) target(c gomocup.Command) ([]engine.Move, error) {
	if !b.started {
		return nil, errors.New("no board yet: send START size or RECTSTART width,height first")
	}
	pos := b.game.Position()
	var moves []engine.Move
	switch c.Kind {
	case gomocup.CmdBegin:
		if pos.Ply() > 0 {
			return nil, fmt.Errorf("the board has %d stones: BEGIN opens an empty board (RESTART first, or send BOARD)", pos.Ply())
		}
	case gomocup.CmdTurn:
		m, err := b.legal(pos, c.Point)
		if err != nil {
			return nil, err
		}
		moves = append(pos.Moves(nil), m)
	case gomocup.CmdBoard:
		var err error
		if moves, err = boardMoves(b.rules, c.Stones); err != nil {
			return nil, err
		}
	}
	end := engine.NewPosition(b.rules)
	if err := end.PlayMoveList(moves); err != nil {
		return nil, err
	}
	if end.Result() != engine.Open {
		return nil, fmt.Errorf("the game is over (%s): there is no move to make", end.Result().Describe())
	}
	return moves, nil
}

// boardMoves orders the stones of a BOARD into a game: the brain's stones
// (field 1) and the opponent's (field 2) alternate, each in the order sent,
// starting with the side that has more stones (the opponent when equal, so
// the brain is to move).
func boardMoves(r engine.Rules, stones []gomocup.Stone) ([]engine.Move, error) {
	var own, opp []engine.Move
	seen := map[engine.Move]bool{}
	for _, s := range stones {
		m, err := gomocup.ToMove(r, s.Point)
		if err != nil {
			return nil, fmt.Errorf("stone %s: %w", s.Point, err)
		}
		if seen[m] {
			return nil, fmt.Errorf("stone %s is sent twice", s.Point)
		}
		seen[m] = true
		switch s.Field {
		case gomocup.FieldOwn:
			own = append(own, m)
		case gomocup.FieldOpponent:
			opp = append(opp, m)
		default:
			return nil, fmt.Errorf("stone %s has field %d (continuous game): this brain plays freestyle (rule 0), with fields 1 (own stone) and 2 (opponent's)", s.Point, s.Field)
		}
	}
	if len(opp) != len(own) && len(opp) != len(own)+1 {
		return nil, fmt.Errorf("%d own stones and %d of the opponent: with the brain to move, the opponent has as many stones or one more", len(own), len(opp))
	}
	first, second := opp, own
	if len(own) == len(opp) {
		first, second = own, opp
	}
	moves := make([]engine.Move, 0, len(stones))
	for i := range first {
		moves = append(moves, first[i])
		if i < len(second) {
			moves = append(moves, second[i])
		}
	}
	return moves, nil
}

// ensure makes sure a live player is attached to side c of the game,
// starting the bot if there is none (or its options changed) and moving it
// from the other side if needed.
func (b *Brain) ensure(ctx context.Context, c engine.Color) error {
	opts, err := b.options(ctx)
	if err != nil {
		return err
	}
	if b.player != nil && !sameOptions(b.opts, opts) {
		b.dropPlayer("its options changed (max_memory)")
	}
	if b.player == nil && b.spare != nil {
		p, err := b.takeSpare(ctx, opts)
		if err != nil {
			return err
		}
		if p != nil {
			b.player, b.opts = p, opts
		}
	}
	if b.player == nil {
		p, err := b.load(ctx, b.botName, opts)
		if err != nil {
			return err
		}
		b.player, b.opts = p, opts
	}
	p := b.player
	if b.game.Player(c) == p {
		return nil
	}
	if b.game.Player(c.Other()) == p {
		_ = b.game.Attach(ctx, c.Other(), nil)
	}
	if err := b.game.Attach(ctx, c, p); err != nil {
		b.dropPlayer("it refused the game")
		return err
	}
	return nil
}

// dropPlayer kills the bot (it is started afresh when next needed).
func (b *Brain) dropPlayer(why string) {
	if b.player == nil {
		return
	}
	b.log.Info("stopping the bot", "bot", b.player.Name(), "why", why)
	b.player.Kill()
	if b.game != nil {
		for _, c := range []engine.Color{engine.X, engine.O} {
			if b.game.Player(c) == b.player {
				_ = b.game.Attach(context.Background(), c, nil)
			}
		}
	}
	b.player = nil
}

func sameOptions(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
