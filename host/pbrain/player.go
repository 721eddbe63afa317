package pbrain

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// player is the bot as the brain holds it: the referee.Player the loader
// gave, the options it was started with, and, when the player exposes its
// wire-level API (a plugin bot does), move requests that carry the bot's
// progress to the brain.
type player struct {
	referee.Player
	opts map[string]string
	side engine.Color
	api  botapi.Bot

	mu       sync.Mutex
	progress func(botapi.Progress)
}

// apiPlayer is a player that exposes its wire-level API (*pluginbot.Bot).
type apiPlayer interface {
	API() botapi.Bot
}

// ProgressPlayer is a referee.Player that reports its search progress
// itself; the brain uses GenMoveProgress instead of GenMove when the player
// the loader gives implements it (a player that exposes API() botapi.Bot,
// as a plugin bot does, needs nothing more).
type ProgressPlayer interface {
	referee.Player
	// GenMoveProgress is GenMove, calling progress with each report before
	// it returns (never after).
	GenMoveProgress(ctx context.Context, req referee.MoveRequest, progress func(botapi.Progress)) (string, error)
}

func newPlayer(p referee.Player, opts map[string]string) *player {
	pl := &player{Player: p, opts: opts}
	if a, ok := p.(apiPlayer); ok {
		pl.api = a.API()
	}
	return pl
}

// setProgress sets where the next move's progress goes (nil: nowhere).
func (p *player) setProgress(f func(botapi.Progress)) {
	p.mu.Lock()
	p.progress = f
	p.mu.Unlock()
}

func (p *player) report(pr botapi.Progress) {
	p.mu.Lock()
	f := p.progress
	p.mu.Unlock()
	if f != nil {
		f(pr)
	}
}

// GenMove asks for a move: through GenMoveProgress or the API when the
// player has one, so the progress reaches the brain. Errors from the API
// are classified as the referee expects: a broken connection is
// referee.ErrDisconnected, a missed deadline context.DeadlineExceeded.
func (p *player) GenMove(ctx context.Context, req referee.MoveRequest) (string, error) {
	if pp, ok := p.Player.(ProgressPlayer); ok {
		return pp.GenMoveProgress(ctx, req, p.report)
	}
	if p.api == nil {
		return p.Player.GenMove(ctx, req)
	}
	move, err := p.api.GenMove(ctx, botapi.GenMoveRequest{
		Deadline: req.Deadline, Budget: req.MoveTime, XLeft: req.Left[0], OLeft: req.Left[1], Play: true,
	}, p.report)
	switch {
	case err == nil:
		return move, nil
	case botapi.IsDisconnect(err):
		return "", fmt.Errorf("%w: %v", referee.ErrDisconnected, err)
	case botapi.IsDeadline(err):
		return "", fmt.Errorf("%w: %v", context.DeadlineExceeded, err)
	}
	return "", err
}

// memoryOptions are the names of the int options taken to size a bot's
// memory, in MiB.
var memoryOptions = []string{"mem", "memory", "hash", "tt"}

// options returns the options to start the bot with: the user's, plus the
// memory option sized from INFO max_memory when the bot has one the user
// did not set.
func (b *Brain) options(ctx context.Context) (map[string]string, error) {
	opts := make(map[string]string, len(b.cfg.Options)+1)
	for k, v := range b.cfg.Options {
		opts[k] = v
	}
	if b.info.maxMemory <= 0 {
		return opts, nil
	}
	// The cap itself rides with the options, so a bot started under
	// another cap is replaced like one with other options (see load).
	opts[capKey] = strconv.FormatInt(b.info.maxMemory, 10)
	info, err := b.cfg.Loader.Info(ctx, b.botName)
	if err != nil {
		return nil, fmt.Errorf("bot %s: %w", b.botName, err)
	}
	for _, o := range info.Options {
		if o.Type != botapi.OptionInt || !slices.Contains(memoryOptions, strings.ToLower(o.Name)) {
			continue
		}
		if _, set := b.cfg.Options[o.Name]; set {
			break
		}
		mib := b.info.maxMemory / 2 / (1 << 20)
		if o.Min != 0 || o.Max != 0 {
			mib = min(max(mib, o.Min), o.Max)
		}
		opts[o.Name] = strconv.FormatInt(mib, 10)
		b.log.Debug("memory option from max_memory", "option", o.Name, "MiB", mib, "max_memory", b.info.maxMemory)
		break
	}
	return opts, nil
}

// capKey carries INFO max_memory in the options map options returns; no
// option can be named so (it starts with a space), and load takes it out.
const capKey = " max_memory"

// load starts bot name with opts, capped at INFO max_memory where the
// loader can cap (CappedLoader): a brain over the manager's limit forfeits
// for memory instead of being failed by the manager.
func (b *Brain) load(ctx context.Context, name string, opts map[string]string) (referee.Player, error) {
	given := make(map[string]string, len(opts))
	var memory int64
	for k, v := range opts {
		if k == capKey {
			memory, _ = strconv.ParseInt(v, 10, 64)
			continue
		}
		given[k] = v
	}
	if cl, ok := b.cfg.Loader.(CappedLoader); ok && memory > 0 {
		return cl.LoadCapped(ctx, name, name, given, memory)
	}
	return b.cfg.Loader.Load(ctx, name, name, given)
}

// CPUTime passes on the bot's CPU time (referee.Contained), 0 and false
// for a bot the host does not account.
func (p *player) CPUTime() (time.Duration, bool) {
	if c, ok := p.Player.(referee.Contained); ok {
		return c.CPUTime()
	}
	return 0, false
}

// OverMemory passes on whether the bot was killed over its memory cap
// (referee.Contained), so its forfeit says memory.
func (p *player) OverMemory() bool {
	c, ok := p.Player.(referee.Contained)
	return ok && c.OverMemory()
}
