package match

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/stats"
)

// Settings are kinrow match's flags as the user gave them; Config checks
// them and turns them into a Config. Every refusal names the flag and
// what is accepted.
type Settings struct {
	Rules       string
	Bots        []string
	BotOpts     []string // NAME:KEY=VALUE or NAME#N:KEY=VALUE (ParseBotSpecs)
	Games       int
	Concurrency int
	MoveTime    time.Duration
	TC          string
	Openings    string // a file
	RandomPlies int
	Out         string
	Resume      bool
	SPRT        string
	Gauntlet    bool
	Seed        uint64
	MaxPlies    int
	Shard       string // I/N, auto or ""
	// Getenv reads --shard auto's variables (os.Getenv when nil).
	Getenv func(string) string
}

// Config checks s and returns the run's configuration, without Loader,
// Logger, Grace and the callbacks, which the caller sets.
func (s Settings) Config() (Config, error) {
	rules, err := engine.ParseRules(s.Rules)
	if err != nil {
		return Config{}, fmt.Errorf("--rules: %w", err)
	}
	clock, err := ParseClock(s.MoveTime, s.TC)
	if err != nil {
		return Config{}, err
	}
	switch {
	case s.Resume && s.Out == "":
		return Config{}, fmt.Errorf("--resume needs --out")
	case s.Openings != "" && s.RandomPlies > 0:
		return Config{}, fmt.Errorf("give --openings or --random-plies, not both")
	}
	shard, err := s.shard()
	if err != nil {
		return Config{}, err
	}
	if !shard.Whole() && s.Out == "" {
		return Config{}, fmt.Errorf("--shard needs --out: a shard's records are what kinrow merge joins")
	}
	var sprt *stats.SPRT
	if s.SPRT != "" {
		t, err := stats.ParseSPRT(s.SPRT)
		if err != nil {
			return Config{}, fmt.Errorf("--sprt: %w", err)
		}
		sprt = &t
	}
	specs, err := ParseBotSpecs(s.Bots, s.BotOpts)
	if err != nil {
		return Config{}, err
	}
	ops, err := readOpenings(rules, s.Openings)
	if err != nil {
		return Config{}, err
	}
	return Config{
		Rules: rules, Bots: specs, Gauntlet: s.Gauntlet, Games: s.Games, Concurrency: s.Concurrency,
		Clock: clock, Openings: ops, RandomPlies: s.RandomPlies, MaxPlies: s.MaxPlies,
		Seed: s.Seed, Shard: shard, SPRT: sprt, Out: s.Out, Resume: s.Resume,
	}, nil
}

func (s Settings) shard() (Shard, error) {
	switch s.Shard {
	case "":
		return Shard{}, nil
	case "auto":
		getenv := s.Getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		return ShardFromEnv(getenv)
	}
	return ParseShard(s.Shard)
}

// readOpenings reads the openings file at path ("" for none).
func readOpenings(rules engine.Rules, path string) ([][]engine.Move, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--openings: %w", err)
	}
	defer f.Close()
	ops, err := ParseOpenings(rules, f, path)
	if err != nil {
		return nil, fmt.Errorf("--openings: %w", err)
	}
	return ops, nil
}

// ParseClock reads --movetime and --tc (MAIN+INC, e.g. 10s+0.1s or 1m):
// at most one of them, 100ms a move when neither is given.
func ParseClock(movetime time.Duration, tc string) (referee.Clock, error) {
	clock := referee.Clock{MoveTime: 100 * time.Millisecond}
	switch {
	case tc != "" && movetime != 0:
		return clock, fmt.Errorf("give --movetime or --tc, not both")
	case tc != "":
		mainText, incText, _ := strings.Cut(tc, "+")
		main, err1 := time.ParseDuration(mainText)
		inc := time.Duration(0)
		var err2 error
		if incText != "" {
			inc, err2 = time.ParseDuration(incText)
		}
		if err1 != nil || err2 != nil || main <= 0 || inc < 0 {
			return clock, fmt.Errorf("--tc %q: want MAIN+INC with durations, e.g. 10s+0.1s or 1m", tc)
		}
		clock.Main, clock.Increment = main, inc
	case movetime < 0:
		return clock, fmt.Errorf("--movetime %v: must be positive", movetime)
	case movetime > 0:
		clock.MoveTime = movetime
	}
	return clock, nil
}

// ParseBotSpecs pairs the bots of --bot with the options of --bot-opt:
// NAME:KEY=VALUE sets KEY for every copy of bot NAME, NAME#N:KEY=VALUE
// for the N-th --bot NAME only (from 1; the records call the second of
// two copies NAME#2). An option for a copy comes after those for every
// copy, whatever the order of the flags.
func ParseBotSpecs(bots, opts []string) ([]BotSpec, error) {
	specs := make([]BotSpec, len(bots))
	for i, b := range bots {
		specs[i] = BotSpec{Name: b, Opts: map[string]string{}}
	}
	for _, pass := range []bool{false, true} { // every copy, then one copy
		for _, o := range opts {
			target, kv, ok1 := strings.Cut(o, ":")
			k, v, ok2 := strings.Cut(kv, "=")
			if !ok1 || !ok2 || k == "" || target == "" {
				return nil, fmt.Errorf("--bot-opt %q: want NAME:KEY=VALUE (every copy of NAME) or NAME#N:KEY=VALUE (the N-th --bot NAME)", o)
			}
			name, copyText, one := strings.Cut(target, "#")
			if one != pass {
				continue
			}
			n := 0
			if one {
				var err error
				if n, err = strconv.Atoi(copyText); err != nil || n < 1 {
					return nil, fmt.Errorf("--bot-opt %q: %q: want NAME#N with N the copy from 1, e.g. %s#2", o, target, name)
				}
			}
			if err := setBotOpt(specs, name, n, k, v); err != nil {
				return nil, fmt.Errorf("--bot-opt %q: %w", o, err)
			}
		}
	}
	return specs, nil
}

// setBotOpt sets k=v for the n-th copy of bot name (n 0: every copy).
func setBotOpt(specs []BotSpec, name string, n int, k, v string) error {
	copies := 0
	for i := range specs {
		if specs[i].Name != name {
			continue
		}
		copies++
		if n == 0 || n == copies {
			specs[i].Opts[k] = v
		}
	}
	switch {
	case copies == 0:
		return fmt.Errorf("no --bot %s in this match", name)
	case n > copies:
		return fmt.Errorf("there are %d --bot %s, not %d", copies, name, n)
	}
	return nil
}
