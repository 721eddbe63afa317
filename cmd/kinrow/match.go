package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/match"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/stats"
)

// listFlag collects a repeated flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

const matchUsage = `Usage: kinrow match --rules RULES --bot A --bot B [--bot C ...] --games N
         [--concurrency J] (--movetime 100ms | --tc 10s+0.1s)
         [--openings FILE | --random-plies P] [--out FILE.jsonl] [--resume]
         [--sprt elo0=0,elo1=10,alpha=0.05,beta=0.05] [--gauntlet] [--seed S]
         [--bot-opt NAME:KEY=VALUE ...] [--max-plies N] [--format text|json]

Plays games between bots under the host's referee rules. Two bots play a
match; more play a round robin, or with --gauntlet the first plays each of
the others. --games is the number of games per pairing; every opening is
played twice with colours swapped. See docs/MATCHES.md.

Examples:
  kinrow match --rules connect4 --bot alphabeta --bot random --games 20 --movetime 100ms
  kinrow match --rules gomoku --bot mics --bot pndb --games 100 --concurrency 2 \
      --tc 10s+0.1s --random-plies 4 --out games.jsonl --sprt elo0=0,elo1=20

Flags:
`

func matchCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kinrow match", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, matchUsage); fs.PrintDefaults() }
	var hf hostFlags
	hf.register(fs)
	var bots, botOpts listFlag
	rulesText := fs.String("rules", "connect4", "the game: "+engine.RulesSyntax)
	fs.Var(&bots, "bot", "a bot to play (repeat: two or more)")
	fs.Var(&botOpts, "bot-opt", "an option for a bot, NAME:KEY=VALUE (repeatable)")
	games := fs.Int("games", 2, "games per pairing (pairs with colours swapped)")
	concurrency := fs.Int("concurrency", 1, "games played at once, each with its own bot processes")
	movetime := fs.Duration("movetime", 0, "time per move (default 100ms unless --tc)")
	tc := fs.String("tc", "", "game clock MAIN+INC, e.g. 10s+0.1s")
	openings := fs.String("openings", "", "file of openings, one move list per line")
	randomPlies := fs.Int("random-plies", 0, "open every pair with P random plies")
	out := fs.String("out", "", "append one JSON record per finished game to this file")
	resume := fs.Bool("resume", false, "play only the games --out does not hold yet")
	sprt := fs.String("sprt", "", "stop early by SPRT: elo0=0,elo1=10,alpha=0.05,beta=0.05")
	gauntlet := fs.Bool("gauntlet", false, "the first bot plays each of the others")
	seed := fs.Uint64("seed", 1, "seed of the schedule (random openings)")
	maxPlies := fs.Int("max-plies", 0, "adjudicate a draw after N plies (0: no limit)")
	format := fs.String("format", "text", "summary format: text or json")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "kinrow match: "+format+"\n", a...)
		return exitUsage
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument %q", fs.Arg(0))
	}
	log, err := hf.logger(stderr)
	if err != nil {
		return bad("%v", err)
	}
	rules, err := engine.ParseRules(*rulesText)
	if err != nil {
		return bad("--rules: %v", err)
	}
	if *format != "text" && *format != "json" {
		return bad("--format %q: accepted are text and json", *format)
	}
	clock := referee.Clock{MoveTime: 100 * time.Millisecond}
	switch {
	case *tc != "" && *movetime != 0:
		return bad("give --movetime or --tc, not both")
	case *tc != "":
		mainText, incText, _ := strings.Cut(*tc, "+")
		main, err1 := time.ParseDuration(mainText)
		inc := time.Duration(0)
		var err2 error
		if incText != "" {
			inc, err2 = time.ParseDuration(incText)
		}
		if err1 != nil || err2 != nil || main <= 0 || inc < 0 {
			return bad("--tc %q: want MAIN+INC with durations, e.g. 10s+0.1s or 1m", *tc)
		}
		clock.Main, clock.Increment = main, inc
	case *movetime < 0:
		return bad("--movetime %v: must be positive", *movetime)
	case *movetime > 0:
		clock.MoveTime = *movetime
	}
	if *resume && *out == "" {
		return bad("--resume needs --out")
	}
	if *openings != "" && *randomPlies > 0 {
		return bad("give --openings or --random-plies, not both")
	}
	var sprtCfg *stats.SPRT
	if *sprt != "" {
		s, err := parseSPRT(*sprt)
		if err != nil {
			return bad("--sprt: %v", err)
		}
		sprtCfg = &s
	}
	specs := make([]match.BotSpec, len(bots))
	for i, b := range bots {
		specs[i] = match.BotSpec{Name: b, Opts: map[string]string{}}
	}
	for _, o := range botOpts {
		name, kv, ok1 := strings.Cut(o, ":")
		k, v, ok2 := strings.Cut(kv, "=")
		if !ok1 || !ok2 || k == "" {
			return bad("--bot-opt %q: want NAME:KEY=VALUE", o)
		}
		found := false
		for i := range specs {
			if specs[i].Name == name {
				specs[i].Opts[k] = v
				found = true
			}
		}
		if !found {
			return bad("--bot-opt %q: no --bot %s in this match", o, name)
		}
	}
	loader, err := hf.loader(log)
	if err != nil {
		fmt.Fprintln(stderr, "kinrow match:", err)
		return 1
	}
	defer loader.Close()
	// Every bot must exist and play the rules before any game starts.
	for _, b := range specs {
		if _, err := loader.Info(ctx, b.Name); err != nil {
			return bad("--bot %s: %v", b.Name, err)
		}
		if err := loader.CheckPlays(ctx, b.Name, rules); err != nil {
			return bad("--bot %v", err)
		}
	}
	var ops [][]engine.Move
	if *openings != "" {
		f, err := os.Open(*openings)
		if err != nil {
			return bad("--openings: %v", err)
		}
		ops, err = match.ParseOpenings(rules, f, *openings)
		f.Close()
		if err != nil {
			return bad("--openings: %v", err)
		}
	}
	cfg := match.Config{
		Rules: rules, Bots: specs, Gauntlet: *gauntlet, Games: *games, Concurrency: *concurrency,
		Clock: clock, Grace: hf.grace, Openings: ops, RandomPlies: *randomPlies, MaxPlies: *maxPlies,
		Seed: *seed, SPRT: sprtCfg, Out: *out, Resume: *resume, Loader: loader, Logger: log,
	}
	if err := cfg.Validate(); err != nil {
		return bad("%v", err)
	}
	if *out != "" {
		f, err := os.OpenFile(*out, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return bad("--out: %v", err)
		}
		f.Close()
	}
	var bar *progressbar.ProgressBar
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		bar = progressbar.NewOptions(1, progressbar.OptionSetWriter(stderr), progressbar.OptionShowCount(),
			progressbar.OptionSetDescription("games"), progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
	}
	cfg.OnGame = func(done, total int, rec *record.Record) {
		if bar != nil {
			bar.ChangeMax(total)
			bar.Set(done)
			return
		}
		fmt.Fprintf(stderr, "game %d/%d: %s vs %s: %s\n", done, total, rec.Players.X, rec.Players.O, rec.Summary())
	}
	cfg.OnPair = func(llr float64, d stats.Decision) {
		lo, hi := sprtCfg.Bounds()
		if bar == nil {
			fmt.Fprintf(stderr, "sprt: llr %.2f (%.2f, %.2f) %s\n", llr, lo, hi, d)
		}
	}
	sum, err := match.Run(ctx, cfg)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		fmt.Fprintln(stderr, "kinrow match:", err)
		if sum == nil {
			return exitUsage
		}
		return 1
	}
	if *format == "json" {
		writeSummaryJSON(stdout, sum, sprtCfg)
	} else {
		writeSummaryText(stdout, sum, sprtCfg)
	}
	if sum.Interrupted {
		fmt.Fprintln(stderr, "kinrow match: interrupted; finished games are kept")
		return 130
	}
	return 0
}

// parseSPRT reads "elo0=0,elo1=10,alpha=0.05,beta=0.05" (missing keys take
// those defaults).
func parseSPRT(s string) (stats.SPRT, error) {
	t := stats.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		f, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil {
			return t, fmt.Errorf("%q: want KEY=NUMBER with keys elo0, elo1, alpha, beta", kv)
		}
		switch k {
		case "elo0":
			t.Elo0 = f
		case "elo1":
			t.Elo1 = f
		case "alpha":
			t.Alpha = f
		case "beta":
			t.Beta = f
		default:
			return t, fmt.Errorf("unknown key %q: accepted are elo0, elo1, alpha, beta", k)
		}
	}
	return t, t.Validate()
}

func forfeitText(m map[record.Forfeit]int) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

func writeSummaryText(w io.Writer, sum *match.Summary, sprt *stats.SPRT) {
	fmt.Fprintf(w, "%s: %d games\n", sum.Rules, sum.Games)
	t := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off))
	t.Header("bot A", "bot B", "games", "A: W-D-L", "score", "Elo (95%)", "LOS", "pairs 0-½-1-1½-2", "forfeits A", "forfeits B", "ms/move A med/max", "ms/move B med/max")
	for _, p := range sum.Pairings {
		pe := p.Penta
		t.Append(p.A, p.B, strconv.Itoa(p.WDL.N()),
			fmt.Sprintf("%d-%d-%d", p.WDL.W, p.WDL.D, p.WDL.L),
			fmt.Sprintf("%.1f%%", 100*p.WDL.Score()),
			p.Elo.String(), fmt.Sprintf("%.1f%%", 100*p.LOS),
			fmt.Sprintf("%d-%d-%d-%d-%d", pe[0], pe[1], pe[2], pe[3], pe[4]),
			forfeitText(p.Forfeits[p.A]), forfeitText(p.Forfeits[p.B]),
			fmt.Sprintf("%d/%d", p.MedianMS[p.A], p.MaxMS[p.A]),
			fmt.Sprintf("%d/%d", p.MedianMS[p.B], p.MaxMS[p.B]))
	}
	t.Render()
	if sprt != nil {
		lo, hi := sprt.Bounds()
		fmt.Fprintf(w, "SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.2f (%.2f, %.2f): %s\n",
			sprt.Elo0, sprt.Elo1, sprt.Alpha, sprt.Beta, sprt.LLR(sum.Pairings[0].Penta), lo, hi, sum.Decision)
	}
}

func writeSummaryJSON(w io.Writer, sum *match.Summary, sprt *stats.SPRT) {
	type pairing struct {
		A, B                     string
		Games, Wins, Draws, Loss int
		Score                    float64
		Elo, EloLow, EloHigh     float64
		LOS                      float64
		Penta                    [5]int
		Forfeits                 map[string]map[record.Forfeit]int
		MedianMS, MaxMS          map[string]int64
	}
	out := struct {
		Rules       string    `json:"rules"`
		Games       int       `json:"games"`
		Interrupted bool      `json:"interrupted"`
		Pairings    []pairing `json:"pairings"`
		SPRT        *struct {
			LLR, Lower, Upper float64
			Decision          string
		} `json:"sprt,omitempty"`
	}{Rules: sum.Rules, Games: sum.Games, Interrupted: sum.Interrupted}
	for _, p := range sum.Pairings {
		e := p.Elo
		out.Pairings = append(out.Pairings, pairing{p.A, p.B, p.WDL.N(), p.WDL.W, p.WDL.D, p.WDL.L, p.WDL.Score(),
			finite(e.Elo), finite(e.Low), finite(e.High), p.LOS, p.Penta, p.Forfeits, p.MedianMS, p.MaxMS})
	}
	if sprt != nil {
		lo, hi := sprt.Bounds()
		out.SPRT = &struct {
			LLR, Lower, Upper float64
			Decision          string
		}{sprt.LLR(sum.Pairings[0].Penta), lo, hi, sum.Decision.String()}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(out)
}

// finite clamps ±Inf (all games won or lost) for JSON.
func finite(f float64) float64 {
	switch {
	case f > 9999:
		return 9999
	case f < -9999:
		return -9999
	case f != f:
		return 0
	}
	return f
}
