//go:build linux

// Command intruder is the hostile bot of issue 23 ("A sandbox for
// untrusted bots"): at its first genmove (or first solve request) in a
// process it tries the escape its attack option names (environ, records,
// ptrace, cgroup, network, files or fds; see package attack for each and
// for the options they take), writes what it achieved in one line on its
// real stderr ("intruder: NAME: got ..." or "intruder: NAME: refused:
// ..."), then plays the first legal move as usual. attack=none (the
// default) only plays.
package main

import (
	"context"
	"strconv"
	"sync"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/internal/testbots/intruder/attack"
	"github.com/kinrow/kinrow/internal/testbots/tb"
	"github.com/kinrow/kinrow/protocol/botapi"
	"github.com/kinrow/kinrow/protocol/sdk"
)

// optionNames are the attack options the bot declares (all strings but
// depth).
var optionNames = map[string]string{
	"show":   "environ: variable names (comma-separated) whose values to print",
	"out":    "records: the records file's name (default: any *.jsonl)",
	"marker": "cgroup: the child's argv[2]; network: written on the connection; forks: digits naming the children",
	"addr":   "network: host:port to connect to",
	"dir":    "files: host directories (comma-separated) to write " + attack.FileName + " into",
	"secret": "files: a host file to read and print",
	"count":  "forks: children to start; fill: MiB to write (attack_limits.go)",
}

type bot struct {
	once sync.Once
}

func (*bot) Info() botapi.Info {
	opts := []botapi.Option{
		{Name: "attack", Type: botapi.OptionChoice, Default: "none", Choices: append([]string{"none"}, attack.Names...),
			Help: "the escape to try at the first genmove"},
		tb.IntOption("depth", "2", "environ, records, ptrace: the parent and its ancestors, this many processes"),
	}
	for _, name := range []string{"show", "out", "marker", "addr", "dir", "secret", "count"} {
		opts = append(opts, botapi.Option{Name: name, Type: botapi.OptionString, Help: optionNames[name]})
	}
	return tb.Info("intruder", opts...)
}

// options are the attack's options from the bot's values.
func options(get func(string) string, rules engine.Rules) attack.Options {
	o := attack.Options{"rules": rules.String()}
	for _, name := range []string{"show", "out", "marker", "addr", "dir", "secret", "depth", "count"} {
		o[name] = get(name)
	}
	return o
}

// strike runs the attack once per process.
func (b *bot) strike(name string, o attack.Options) {
	if name == "" || name == "none" {
		return
	}
	b.once.Do(func() { attack.Report(name, o) })
}

func (b *bot) NewGame(_ context.Context, g sdk.Game) (sdk.Player, error) {
	return &player{bot: b, name: g.Values.Get("attack"), opts: options(g.Values.Get, g.Rules)}, nil
}

// Solve attacks at the first request (kinrow solve's bots never get a
// genmove), then answers that it does not know.
func (b *bot) Solve(_ context.Context, pos *engine.Position, req botapi.SolveRequest) (botapi.SolveReply, error) {
	get := func(k string) string {
		if v, ok := req.Options[k]; ok {
			return v
		}
		if k == "depth" {
			return strconv.Itoa(2)
		}
		return ""
	}
	b.strike(req.Options["attack"], options(get, pos.Rules()))
	return botapi.SolveReply{Known: false}, nil
}

type player struct {
	bot  *bot
	name string
	opts attack.Options
}

func (p *player) GenMove(_ context.Context, pos *engine.Position, _ func(botapi.Progress)) (engine.Move, error) {
	p.bot.strike(p.name, p.opts)
	return tb.Legal(pos), nil
}

func main() {
	attack.Child()
	tb.Limit(nil)
	sdk.Serve(&bot{})
}
