package match

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/stats"
)

// Loader starts bot processes.
type Loader interface {
	Load(ctx context.Context, name, display string, opts map[string]string) (referee.Player, error)
}

// BotSpec names a bot and its options.
type BotSpec struct {
	Name string
	Opts map[string]string
}

// Config describes a run.
type Config struct {
	Rules       engine.Rules
	Bots        []BotSpec
	Gauntlet    bool
	Games       int // per pairing
	Concurrency int
	Clock       referee.Clock
	Grace       time.Duration
	Openings    [][]engine.Move
	RandomPlies int
	MaxPlies    int // 0: no limit
	Seed        uint64
	SPRT        *stats.SPRT
	Out         string // JSON-lines file; "" for none
	Resume      bool
	Loader      Loader
	Logger      hclog.Logger
	// OnGame is called after every finished game (from one goroutine at a time).
	OnGame func(done, total int, rec *record.Record)
	// OnPair is called with the SPRT's log-likelihood ratio after every pair.
	OnPair func(llr float64, d stats.Decision)
}

// Validate checks a configuration before any game starts.
func (c *Config) Validate() error {
	switch {
	case len(c.Bots) < 2:
		return errors.New("a match needs at least two bots (--bot A --bot B)")
	case c.Games < 1:
		return fmt.Errorf("--games %d: the number of games per pairing must be at least 1", c.Games)
	case c.Concurrency < 1:
		return fmt.Errorf("--concurrency %d: must be at least 1", c.Concurrency)
	case c.MaxPlies < 0:
		return fmt.Errorf("--max-plies %d: must be 0 (no limit) or more", c.MaxPlies)
	case c.SPRT != nil && len(Pairings(len(c.Bots), c.Gauntlet)) != 1:
		return errors.New("--sprt needs exactly two bots")
	}
	if c.SPRT != nil {
		if err := c.SPRT.Validate(); err != nil {
			return err
		}
	}
	if err := c.Rules.Validate(); err != nil {
		return err
	}
	if c.Loader == nil {
		return errors.New("match: no loader")
	}
	return nil
}

// displayNames gives each side of a game its record name: the bot's name,
// with "#2" for the second of two bots of the same name.
func (c *Config) displayNames(x, o int) (string, string) {
	a, b := c.Bots[x].Name, c.Bots[o].Name
	if a == b {
		if x < o {
			return a, b + "#2"
		}
		return a + "#2", b
	}
	return a, b
}

// Run plays the games of cfg and returns the summary. Interrupting ctx
// stops the run cleanly: running games are abandoned (not recorded), every
// finished game is kept, and every bot process is killed.
func Run(ctx context.Context, cfg Config) (*Summary, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Logger == nil {
		cfg.Logger = hclog.NewNullLogger()
	}
	jobs, err := Schedule(cfg.Rules, len(cfg.Bots), cfg.Gauntlet, cfg.Games, cfg.Openings, cfg.RandomPlies, cfg.Seed)
	if err != nil {
		return nil, err
	}
	sum := newSummary(&cfg)
	done := map[[2]int]bool{}
	if cfg.Resume && cfg.Out != "" {
		recs, err := readRecords(cfg.Out)
		if err != nil {
			return nil, err
		}
		for _, rec := range recs {
			if err := sum.checkResumable(rec); err != nil {
				return nil, fmt.Errorf("--resume %s: %w", cfg.Out, err)
			}
			done[[2]int{rec.Round, rec.Game}] = true
			sum.add(rec)
		}
	}
	var out *os.File
	if cfg.Out != "" {
		flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND
		if !cfg.Resume {
			flags |= os.O_TRUNC
		}
		out, err = os.OpenFile(cfg.Out, flags, 0o644)
		if err != nil {
			return nil, fmt.Errorf("--out: %w", err)
		}
		defer out.Close()
	}
	var todo []Job
	for _, j := range jobs {
		if !done[[2]int{j.Round, j.Game}] {
			todo = append(todo, j)
		}
	}
	total := len(jobs)
	finished := total - len(todo)

	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	feed := make(chan Job)
	results := make(chan *record.Record)
	var wg sync.WaitGroup
	for w := 0; w < cfg.Concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			worker(runCtx, &cfg, feed, results)
		}()
	}
	go func() {
		defer close(feed)
		for _, j := range todo {
			select {
			case feed <- j:
			case <-runCtx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	var writeErr error
	for rec := range results {
		if out != nil && writeErr == nil {
			writeErr = appendRecord(out, rec)
			if writeErr != nil {
				stop()
			}
		}
		sum.add(rec)
		finished++
		if cfg.OnGame != nil {
			cfg.OnGame(finished, total, rec)
		}
		if cfg.SPRT != nil && rec.Game%2 == 0 {
			llr, d := sum.sprt(*cfg.SPRT)
			if cfg.OnPair != nil {
				cfg.OnPair(llr, d)
			}
			if d != stats.Continue {
				sum.Decision = d
				stop()
			}
		}
	}
	if writeErr != nil {
		return sum, fmt.Errorf("write %s: %w", cfg.Out, writeErr)
	}
	sum.Interrupted = ctx.Err() != nil
	return sum, nil
}

// appendRecord writes one record line and syncs it to disk.
func appendRecord(f *os.File, rec *record.Record) error {
	line, err := rec.MarshalLine()
	if err != nil {
		return err
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		return err
	}
	return f.Sync()
}

// readRecords reads the records of a previous run. A torn last line (a run
// killed while writing) is ignored; a bad line elsewhere is an error.
func readRecords(path string) ([]*record.Record, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--resume: %w", err)
	}
	var recs []*record.Record
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var lines [][]byte
	for sc.Scan() {
		lines = append(lines, append([]byte(nil), sc.Bytes()...))
	}
	for i, line := range lines {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		rec, err := record.Parse(line)
		if err != nil {
			if i == len(lines)-1 && !bytes.HasSuffix(data, []byte("\n")) {
				break // torn last line
			}
			return nil, fmt.Errorf("--resume: %s:%d: %w", path, i+1, err)
		}
		recs = append(recs, rec)
	}
	if len(recs) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		// Cut the torn line so that appends start on a fresh line.
		if err := os.WriteFile(path, data[:bytes.LastIndexByte(data, '\n')+1], 0o644); err != nil {
			return nil, fmt.Errorf("--resume: %w", err)
		}
	}
	return recs, nil
}

// worker plays jobs, keeping its bot processes between games and starting
// a fresh one when a bot was killed (it crashed or hung).
func worker(ctx context.Context, cfg *Config, feed <-chan Job, results chan<- *record.Record) {
	procs := map[string]referee.Player{}
	defer func() {
		for _, p := range procs {
			p.Close()
		}
	}()
	for j := range feed {
		rec := playGame(ctx, cfg, j, procs)
		if rec == nil { // interrupted
			return
		}
		select {
		case results <- rec:
		case <-ctx.Done():
			return
		}
	}
}

// playGame plays one job to its end; nil if ctx was cancelled first.
func playGame(ctx context.Context, cfg *Config, j Job, procs map[string]referee.Player) *record.Record {
	g := referee.New(cfg.Rules, referee.Config{Grace: cfg.Grace, Clock: cfg.Clock, Logger: cfg.Logger})
	names := [2]string{}
	names[0], names[1] = cfg.displayNames(j.X, j.O)
	idx := [2]int{j.X, j.O}
	for c := range 2 {
		g.SetName(engine.Color(c), names[c])
	}
	for _, m := range j.Opening {
		if err := g.Play(ctx, g.Position().ToMove(), m); err != nil {
			cfg.Logger.Error("opening", "error", err)
			return nil
		}
	}
	rec := g.Record()
	rec.Round, rec.Game, rec.Opening = j.Round, j.Game, len(j.Opening)
	for c := range 2 {
		color := engine.Color(c)
		p := procs[names[c]]
		if p != nil {
			if exited, _ := p.Exit(); exited {
				p = nil
			}
		}
		if p == nil {
			var err error
			p, err = cfg.Loader.Load(ctx, cfg.Bots[idx[c]].Name, names[c], cfg.Bots[idx[c]].Opts)
			if err != nil {
				if ctx.Err() != nil {
					return nil
				}
				rec.Finish(engine.WinFor(color.Other()), record.ReasonForfeit, record.ForfeitStartFailure,
					fmt.Sprintf("%s (%s) failed to start: %v", color, names[c], err), time.Now())
				return rec
			}
			procs[names[c]] = p
		}
		if err := g.Attach(ctx, color, p); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			p.Close()
			delete(procs, names[c])
			rec.Finish(engine.WinFor(color.Other()), record.ReasonForfeit, record.ForfeitStartFailure,
				fmt.Sprintf("%s (%s): %v", color, names[c], err), time.Now())
			return rec
		}
	}
	for !g.Over() {
		if cfg.MaxPlies > 0 && g.Position().Ply() >= cfg.MaxPlies {
			g.Adjudicate(fmt.Sprintf("draw by the move limit of %d plies", cfg.MaxPlies))
			break
		}
		if _, err := g.GenMove(ctx, g.Position().ToMove()); err != nil {
			return nil // cancelled
		}
	}
	for name, p := range procs {
		if exited, _ := p.Exit(); exited {
			delete(procs, name)
		}
	}
	return g.Record()
}
