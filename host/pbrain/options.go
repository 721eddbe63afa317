package pbrain

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/protocol/botapi"
)

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
