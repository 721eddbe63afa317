package solve

import (
	"context"
	"fmt"

	"github.com/kinrow/kinrow/host/pluginbot"
	"github.com/kinrow/kinrow/host/registry"
	"github.com/kinrow/kinrow/protocol/botapi"
)

// StartStreams starts jobs copies of bot (kinrow solve --bot --jobs) and
// opens a solve stream on each; closeAll stops them. Its errors name
// --bot.
func StartStreams(ctx context.Context, loader *registry.Registry, bot string, jobs int, opts map[string]string) (streams []botapi.SolveStream, closeAll func(), err error) {
	var bots []*pluginbot.Bot
	closeAll = func() {
		for _, b := range bots {
			b.Close()
		}
	}
	streams = make([]botapi.SolveStream, jobs)
	for i := range streams {
		display := bot
		if i > 0 {
			display = fmt.Sprintf("%s#%d", bot, i+1)
		}
		b, err := loader.Start(ctx, bot, display, opts)
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("--bot: %w", err)
		}
		bots = append(bots, b)
		if streams[i], err = b.Solve(ctx); err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("--bot %s cannot solve: %w", bot, err)
		}
	}
	return streams, closeAll, nil
}
