package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
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
	"github.com/kinrow/kinrow/host/ratings"
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
         [--sprt elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized]
         [--gauntlet] [--seed S] [--bot-opt NAME:KEY=VALUE ...] [--max-plies N]
         [--gomocup-tolerance 1s] [--format text|json] [--shard I/N | --shard auto]
         [--out-format text,sgf,psq] [--view 127.0.0.1:8080]

Plays games between bots under the host's referee rules. Two bots play a
match; more play a round robin, or with --gauntlet the first plays each of
the others. --games is the number of games per pairing; every opening is
played twice with colours swapped. --out is never overwritten: a file that
already holds games is refused unless --resume continues it. Ctrl-C,
SIGTERM or SIGHUP abandon the games being played and print the summary of
the finished ones. --shard I/N plays only the I-th (from 0) of N disjoint
slices of the schedule, for running one schedule on many machines; join
the shards' --out files with kinrow merge. --shard auto reads I and N from
SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (a Slurm job array), or
JOB_COMPLETION_INDEX and KINROW_SHARD_COUNT (a Kubernetes Indexed Job).
See docs/MATCHES.md and docs/SCALE.md.

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
	out := fs.String("out", "", "write one JSON record per finished game to this file (new or empty, or with --resume)")
	resume := fs.Bool("resume", false, "play only the games --out does not hold yet, appending to it")
	sprt := fs.String("sprt", "", "stop early by SPRT: elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized|logistic")
	gomocupTolerance := fs.Duration("gomocup-tolerance", time.Second, "time Gomocup engines may take beyond timeout_turn before they forfeit (GomocupJudge's default)")
	gauntlet := fs.Bool("gauntlet", false, "the first bot plays each of the others")
	seed := fs.Uint64("seed", 1, "seed of the schedule (random openings)")
	maxPlies := fs.Int("max-plies", 0, "adjudicate a draw after N plies (0: no limit)")
	format := fs.String("format", "text", "summary format: text or json")
	outFormat := fs.String("out-format", "", "also write each finished game as text (FILE.txt, move strings), sgf (FILE.sgf) or psq (FILE.psq/, a file a game), comma-separated; FILE is --out without its extension")
	viewAddr := fs.String("view", "", "serve a live web page of the match at ADDR, e.g. 127.0.0.1:8080 (loopback unless another address is given; see docs/VIEWER.md)")
	shardText := fs.String("shard", "", "play the I-th of N slices of the schedule (I/N, I from 0), or auto: from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or JOB_COMPLETION_INDEX/KINROW_SHARD_COUNT")
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
	if *gomocupTolerance < 0 {
		return bad("--gomocup-tolerance %v: must be 0 or more", *gomocupTolerance)
	}
	if *openings != "" && *randomPlies > 0 {
		return bad("give --openings or --random-plies, not both")
	}
	var shard match.Shard
	switch *shardText {
	case "":
	case "auto":
		if shard, err = match.ShardFromEnv(os.Getenv); err != nil {
			return bad("%v", err)
		}
	default:
		if shard, err = match.ParseShard(*shardText); err != nil {
			return bad("%v", err)
		}
	}
	if !shard.Whole() && *out == "" {
		return bad("--shard needs --out: a shard's records are what kinrow merge joins")
	}
	var sprtCfg *stats.SPRT
	if *sprt != "" {
		s, err := stats.ParseSPRT(*sprt)
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
	// --gomocup-tolerance reaches the engines only when given, so that a
	// manifest's own tolerance key wins over the default otherwise.
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "gomocup-tolerance" {
			hf.gomocupTolerance = gomocupTolerance
		}
	})
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
		Seed: *seed, Shard: shard, SPRT: sprtCfg, Out: *out, Resume: *resume,
		Loader: loader, Logger: log,
	}
	if err := cfg.Validate(); err != nil {
		return bad("%v", err)
	}
	if !shard.Whole() {
		log.Info("playing one shard of the schedule", "shard", shard.String(), "schedule", cfg.ScheduleID().String())
	}
	// match.Run checks --out (writable; new or empty unless --resume, whose
	// records must all belong to this run) before any game starts: its
	// errors without a summary are bad input (exit 2).
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
	if *outFormat != "" {
		exp, err := newGameExport(*outFormat, *out, rules, *resume)
		if err != nil {
			return bad("%v", err)
		}
		onGame := cfg.OnGame
		cfg.OnGame = func(done, total int, rec *record.Record) {
			if onGame != nil {
				onGame(done, total, rec)
			}
			if err := exp.write(rec); err != nil {
				log.Error("--out-format: the game is in --out, not in the exported files", "round", rec.Round, "game", rec.Game, "error", err)
			}
		}
	}
	if log.IsDebug() {
		// The host's goroutines and live bot processes after each game:
		// the soak (make soak) reads them to see that nothing grows with
		// the games (each worker keeps a process per bot it has played,
		// so goroutines follow the bots alive).
		onGame := cfg.OnGame
		cfg.OnGame = func(done, total int, rec *record.Record) {
			if onGame != nil {
				onGame(done, total, rec)
			}
			log.Debug("game done", "game", done, "goroutines", runtime.NumGoroutine(), "bots", loader.Live())
		}
	}
	if *viewAddr != "" {
		if err := watchMatch(ctx, *viewAddr, &cfg, log, stderr); err != nil {
			return bad("%v", err)
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
		if err := writeSummaryJSON(stdout, sum, sprtCfg, standingsJSON(sum, len(specs), log)); err != nil {
			fmt.Fprintln(stderr, "kinrow match:", err)
		}
	} else {
		writeSummaryText(stdout, sum, sprtCfg)
		if err := writeStandings(stdout, sum, len(specs)); err != nil {
			log.Warn("no standings", "error", err)
		}
	}
	if sum.Interrupted {
		fmt.Fprintln(stderr, "kinrow match: interrupted; finished games are kept")
		return 130
	}
	return 0
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

// cnum prints a number as C's printf does for cutechess-cli's lines:
// "inf", "-inf" and "nan" where Go would print "+Inf", "-Inf" and "NaN".
func cnum(f float64, format byte, prec int) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, format, prec, 64)
}

// drawRatio is the share of draws, 0 with no games.
func drawRatio(w stats.WDL) float64 {
	if w.N() == 0 {
		return 0
	}
	return float64(w.D) / float64(w.N())
}

// eloError is the half-width of the 95% interval, as cutechess-cli's "+/-".
func eloError(e stats.Estimate) float64 { return (e.High - e.Low) / 2 }

// writeScore prints a pairing the way cutechess-cli does: wins of A,
// wins of B (losses of A), draws, A's score and the number of games; the
// same by the side A played and for x against o; then the Elo difference
// with its error, the LOS and the draw ratio.
func writeScore(w io.Writer, p *match.PairingStats) {
	fmt.Fprintf(w, "Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", p.A, p.B, p.WDL.W, p.WDL.L, p.WDL.D, p.WDL.Score(), p.WDL.N())
	for _, side := range []struct {
		name string
		wdl  stats.WDL
	}{{"x", p.AsX}, {"o", p.AsO}} {
		if side.wdl.N() > 0 {
			fmt.Fprintf(w, "...      %s playing %s: %d - %d - %d  [%.3f] %d\n",
				p.A, side.name, side.wdl.W, side.wdl.L, side.wdl.D, side.wdl.Score(), side.wdl.N())
		}
	}
	if n := p.WDL.N(); n > 0 {
		xWins, oWins := p.AsX.W+p.AsO.L, p.AsX.L+p.AsO.W
		fmt.Fprintf(w, "...      x vs o: %d - %d - %d  [%.3f] %d\n",
			xWins, oWins, p.WDL.D, (float64(xWins)+0.5*float64(p.WDL.D))/float64(n), n)
	}
	elo, margin := math.NaN(), math.NaN()
	if p.WDL.N() > 0 {
		elo, margin = p.Elo.Elo, eloError(p.Elo)
	}
	fmt.Fprintf(w, "Elo difference: %s +/- %s, LOS: %s %%, DrawRatio: %s %%\n",
		cnum(elo, 'f', 1), cnum(margin, 'f', 1), cnum(100*p.LOS, 'f', 1), cnum(100*drawRatio(p.WDL), 'f', 1))
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
	for _, p := range sum.Pairings {
		writeScore(w, p)
	}
	if sprt != nil {
		lo, hi := sprt.Bounds()
		llr := sprt.LLR(sum.Pairings[0].Penta)
		// cutechess-cli's line: the LLR as a share of the upper bound.
		line := fmt.Sprintf("SPRT: llr %s (%s%%), lbound %s, ubound %s",
			cnum(llr, 'g', 3), cnum(llr/hi*100, 'f', 1), cnum(lo, 'g', 3), cnum(hi, 'g', 3))
		switch sum.Decision {
		case stats.AcceptH0:
			line += " - H0 was accepted"
		case stats.AcceptH1:
			line += " - H1 was accepted"
		}
		fmt.Fprintln(w, line)
		fmt.Fprintf(w, "SPRT elo0=%g elo1=%g alpha=%g beta=%g model=%s: LLR %.2f (%.2f, %.2f): %s\n",
			sprt.Elo0, sprt.Elo1, sprt.Alpha, sprt.Beta, sprt.Model, llr, lo, hi, sum.Decision)
	}
}

// The JSON summary; every key is snake_case (TestMatchJSONKeysAreSnakeCase).
type (
	jsonSummary struct {
		Rules       string        `json:"rules"`
		Games       int           `json:"games"`
		Interrupted bool          `json:"interrupted"`
		Pairings    []jsonPairing `json:"pairings"`
		SPRT        *jsonSPRT     `json:"sprt,omitempty"`
		// Standings are the ratings of every bot of a run of three or more.
		Standings *ratings.Report `json:"standings,omitempty"`
	}
	jsonPairing struct {
		A         string  `json:"a"`
		B         string  `json:"b"`
		Games     int     `json:"games"`
		Wins      int     `json:"wins"`
		Draws     int     `json:"draws"`
		Losses    int     `json:"losses"`
		Score     float64 `json:"score"`
		DrawRatio float64 `json:"draw_ratio"`
		Elo       float64 `json:"elo"`
		EloError  float64 `json:"elo_error"`
		EloLow    float64 `json:"elo_low"`
		EloHigh   float64 `json:"elo_high"`
		LOS       float64 `json:"los"`
		// Pentanomial counts the pairs A scored 0, ½, 1, 1½ and 2 points in.
		Pentanomial [5]int  `json:"pentanomial"`
		AAsX        jsonWDL `json:"a_as_x"`
		AAsO        jsonWDL `json:"a_as_o"`
		// Bots holds A, then B.
		Bots [2]jsonBot `json:"bots"`
	}
	jsonWDL struct {
		Games  int     `json:"games"`
		Wins   int     `json:"wins"`
		Draws  int     `json:"draws"`
		Losses int     `json:"losses"`
		Score  float64 `json:"score"`
	}
	jsonBot struct {
		Name     string        `json:"name"`
		Forfeits []jsonForfeit `json:"forfeits"`
		MedianMS int64         `json:"median_ms"`
		MaxMS    int64         `json:"max_ms"`
	}
	jsonForfeit struct {
		Reason string `json:"reason"` // as in the records' "forfeit"
		Count  int    `json:"count"`
	}
	jsonSPRT struct {
		Elo0       float64 `json:"elo0"`
		Elo1       float64 `json:"elo1"`
		Alpha      float64 `json:"alpha"`
		Beta       float64 `json:"beta"`
		Model      string  `json:"model"`
		LLR        float64 `json:"llr"`
		LowerBound float64 `json:"lower_bound"`
		UpperBound float64 `json:"upper_bound"`
		Decision   string  `json:"decision"`
	}
)

func toJSONWDL(w stats.WDL) jsonWDL {
	return jsonWDL{Games: w.N(), Wins: w.W, Draws: w.D, Losses: w.L, Score: w.Score()}
}

func toJSONBot(p *match.PairingStats, name string) jsonBot {
	b := jsonBot{Name: name, Forfeits: []jsonForfeit{}, MedianMS: p.MedianMS[name], MaxMS: p.MaxMS[name]}
	for reason, n := range p.Forfeits[name] {
		b.Forfeits = append(b.Forfeits, jsonForfeit{Reason: string(reason), Count: n})
	}
	sort.Slice(b.Forfeits, func(i, j int) bool { return b.Forfeits[i].Reason < b.Forfeits[j].Reason })
	return b
}

func writeSummaryJSON(w io.Writer, sum *match.Summary, sprt *stats.SPRT, standings *ratings.Report) error {
	out := jsonSummary{Rules: sum.Rules, Games: sum.Games, Interrupted: sum.Interrupted, Pairings: []jsonPairing{}, Standings: standings}
	for _, p := range sum.Pairings {
		e := p.Elo
		out.Pairings = append(out.Pairings, jsonPairing{
			A: p.A, B: p.B, Games: p.WDL.N(), Wins: p.WDL.W, Draws: p.WDL.D, Losses: p.WDL.L,
			Score: p.WDL.Score(), DrawRatio: drawRatio(p.WDL),
			Elo: finite(e.Elo), EloError: finite(eloError(e)), EloLow: finite(e.Low), EloHigh: finite(e.High),
			LOS: p.LOS, Pentanomial: p.Penta, AAsX: toJSONWDL(p.AsX), AAsO: toJSONWDL(p.AsO),
			Bots: [2]jsonBot{toJSONBot(p, p.A), toJSONBot(p, p.B)},
		})
	}
	if sprt != nil {
		lo, hi := sprt.Bounds()
		out.SPRT = &jsonSPRT{Elo0: sprt.Elo0, Elo1: sprt.Elo1, Alpha: sprt.Alpha, Beta: sprt.Beta, Model: sprt.Model,
			LLR: finite(sprt.LLR(sum.Pairings[0].Penta)), LowerBound: lo, UpperBound: hi, Decision: sum.Decision.String()}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write the JSON summary: %w", err)
	}
	return nil
}

// finite clamps ±Inf (all games won or lost) for JSON, and NaN to 0.
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
