package gtpfront

import (
	"context"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/referee"
)

// Loader finds and starts bots. The host's loader starts go-plugin
// subprocesses; tests may use fakes.
type Loader interface {
	// Names lists the bots that can be loaded, sorted.
	Names() []string
	// Load starts the bot called name under the display name display (e.g.
	// "random#2") with its options. The options are checked when the player
	// is attached to a game (NewGame).
	Load(ctx context.Context, name, display string, opts map[string]string) (referee.Player, error)
	// Default names the strongest bot that plays rules.
	Default(ctx context.Context, rules engine.Rules) (string, error)
	// Close stops everything the loader started and cleans up after it.
	Close()
}
