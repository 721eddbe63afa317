package tb

import (
	"context"
	"os"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// Lifetime bounds every test bot's life, so a leak is never infinite.
const Lifetime = 120 * time.Second

// Limit exits the process with status 4 after Lifetime, calling before (if
// not nil) first.
func Limit(before func()) {
	time.AfterFunc(Lifetime, func() {
		if before != nil {
			before()
		}
		os.Exit(4)
	})
}

// Info describes a test bot: it plays everything, at strength -100.
func Info(name string, opts ...botapi.Option) botapi.Info {
	return botapi.Info{
		Name: name, Version: "test", Author: "kinrow tests", Strength: -100,
		Kinds: []string{"connectx", "mnk"}, Options: opts,
	}
}

// IntOption declares an int option from 0 to 1e9.
func IntOption(name string, def, help string) botapi.Option {
	return botapi.Option{Name: name, Type: botapi.OptionInt, Default: def, Min: 0, Max: 1e9, Help: help}
}

// Legal returns the first legal move of pos.
func Legal(pos *engine.Position) engine.Move {
	return pos.LegalMoves(nil)[0]
}

// Player plays the first legal move.
type Player struct{}

// GenMove returns the first legal move.
func (Player) GenMove(_ context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
	return Legal(pos), nil
}

// Hang ignores cancellation and burns CPU until the end of the process's
// Lifetime, then exits with status 5.
func Hang() {
	end := time.Now().Add(Lifetime)
	for n := 0; ; n++ {
		if n%(1<<20) == 0 && time.Now().After(end) {
			os.Exit(5)
		}
	}
}

// Bot is an option-less test bot that plays the first legal move.
type Bot struct{ Name string }

// Info describes the bot.
func (b Bot) Info() botapi.Info { return Info(b.Name) }

// NewGame returns a Player.
func (Bot) NewGame(context.Context, sdk.Game) (sdk.Player, error) { return Player{}, nil }

// IntBot is a test bot of one int option (IntOption): each game's player
// is made from the option's value.
type IntBot struct {
	Name, Option, Default, Help string
	// Player returns a game's player for the option's value.
	Player func(v int64) sdk.Player
}

// Info describes the bot and its option.
func (b IntBot) Info() botapi.Info { return Info(b.Name, IntOption(b.Option, b.Default, b.Help)) }

// NewGame returns the player for the game's value of the option.
func (b IntBot) NewGame(_ context.Context, g sdk.Game) (sdk.Player, error) {
	return b.Player(g.Values.Int(b.Option)), nil
}

// PlayerFunc is a Player that is a function.
type PlayerFunc func(ctx context.Context, pos *engine.Position, report func(botapi.Progress)) (engine.Move, error)

// GenMove calls f.
func (f PlayerFunc) GenMove(ctx context.Context, pos *engine.Position, report func(botapi.Progress)) (engine.Move, error) {
	return f(ctx, pos, report)
}

// Serve serves bot for at most Lifetime: what a test bot's main does.
func Serve(bot sdk.Bot) {
	Limit(nil)
	sdk.Serve(bot)
}

// Moves is a player whose move is a function of the position alone.
func Moves(move func(pos *engine.Position) engine.Move) sdk.Player {
	return PlayerFunc(func(_ context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
		return move(pos), nil
	})
}

// After is a player that plays the first legal move left times and then
// calls misbehave at every move (which is meant not to return: a crash, a
// hang), playing the first legal move again if it does.
func After(left int64, misbehave func()) sdk.Player {
	return Moves(func(pos *engine.Position) engine.Move {
		if left <= 0 {
			misbehave()
		}
		left--
		return Legal(pos)
	})
}
