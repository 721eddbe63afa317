package match

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
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
	// Shard plays one slice of the schedule (the zero Shard: all of it).
	Shard  Shard
	SPRT   *stats.SPRT
	Out    string // JSON-lines file; "" for none
	Resume bool
	// Key signs every record written to Out (record.SignedLine): the
	// referee's key (host/refkey). Required with Out.
	Key ed25519.PrivateKey
	// Trusted are the keys whose signatures Resume accepts (the referee's
	// own and those given with --trust): every record it reads must be
	// signed by one, each game id once, unless AllowUnsigned lets in
	// records with no signature (counted in Summary.Unsigned).
	Trusted       []ed25519.PublicKey
	AllowUnsigned bool
	// SkipInvalid makes Resume leave out (and count in Summary.Skipped)
	// the records of Out that are not valid, instead of refusing the file:
	// their games are played again. The lines stay in the file.
	SkipInvalid bool
	Loader      Loader
	Logger      hclog.Logger
	// OnGame is called after every finished game (from one goroutine at a time).
	OnGame func(done, total int, rec *record.Record)
	// OnPair is called with the SPRT's log-likelihood ratio after every pair.
	OnPair func(llr float64, d stats.Decision)
	// OnGameStart is called when a game is set up (both bots attached, the
	// opening played: rec.Moves holds it), and OnMove after every move a
	// bot played in it. Both are called from the worker playing the game,
	// concurrently for games played side by side; rec is the game's record
	// so far, which the callee must not keep or change. A game that starts
	// may still be abandoned (the run stopped) and never reach OnGame.
	OnGameStart func(rec *record.Record)
	OnMove      func(rec *record.Record, m engine.Move)

	scheduleID string // ScheduleID().String(), set by Run
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
	case c.SPRT != nil && !c.Shard.Whole():
		return errors.New("--sprt with --shard: a shard sees only its own games; play the shards without --sprt, join them with kinrow merge, and run kinrow match --resume --sprt ... on the merged file for the verdict")
	}
	if err := c.Shard.Validate(); err != nil {
		return err
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
	if c.Out != "" && len(c.Key) != ed25519.PrivateKeySize {
		return errors.New("match: --out without the referee's key to sign its records")
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
	cfg.scheduleID = cfg.ScheduleID().String()
	jobs, err := Schedule(cfg.Rules, len(cfg.Bots), cfg.Gauntlet, cfg.Games, cfg.Openings, cfg.RandomPlies, cfg.Seed)
	if err != nil {
		return nil, err
	}
	jobs = cfg.Shard.Select(jobs)
	sum := newSummary(&cfg)
	var out *os.File
	if cfg.Out != "" {
		out, err = openOut(cfg.Out, cfg.Resume)
		if err != nil {
			return nil, err
		}
		defer out.Close()
	}
	done := map[[2]int]bool{}
	if cfg.Resume && out != nil {
		if done, err = sum.resume(out, cfg.Out, jobs); err != nil {
			return nil, err
		}
	}
	var todo []Job
	for _, j := range jobs {
		if !done[[2]int{j.Round, j.Game}] {
			todo = append(todo, j)
		}
	}
	if cfg.SPRT != nil {
		// A resumed run may have decided already.
		if _, d := sum.sprt(*cfg.SPRT); d != stats.Continue {
			sum.Decision = d
			todo = nil
		}
	}
	total := len(jobs)
	finished := total - len(todo)

	// runCtx ends every game still being played when the run stops: the
	// caller interrupted it (ctx), the SPRT decided, or --out failed. A game
	// that ends after runCtx is done is abandoned, whatever its record says
	// (a bot told of a move under a cancelled context looks broken): it is
	// never written and never counted.
	runCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
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
		if writeErr != nil {
			continue // the summary counts only what --out holds
		}
		if out != nil {
			if writeErr = appendRecord(out, rec, cfg.Key); writeErr != nil {
				stop(fmt.Errorf("%w: %w", errOutFailed, writeErr))
				continue
			}
		}
		pairDone := sum.add(rec)
		finished++
		if cfg.OnGame != nil {
			cfg.OnGame(finished, total, rec)
		}
		if cfg.SPRT != nil && pairDone && sum.Decision == stats.Continue {
			llr, d := sum.sprt(*cfg.SPRT)
			if cfg.OnPair != nil {
				cfg.OnPair(llr, d)
			}
			if d != stats.Continue {
				sum.Decision = d
				stop(errSPRTDecided)
			}
		}
	}
	if writeErr != nil {
		return sum, fmt.Errorf("write %s: %w", cfg.Out, writeErr)
	}
	sum.Interrupted = ctx.Err() != nil
	return sum, nil
}

// The causes a run stops its games with, besides the caller's own.
var (
	errSPRTDecided = errors.New("the SPRT decided")
	errOutFailed   = errors.New("--out could no longer be written")
)

// ErrOutNotEmpty is returned by Run when --out names a file that already
// holds data and Resume is not set, and by Merge for an output that holds
// data: kinrow never overwrites records.
var ErrOutNotEmpty = errors.New("the file is not empty")

// RefuseNonEmpty is the one check of an output kinrow is about to write
// (kinrow match --out and --out-format, kinrow merge): nil when path is
// missing, an empty file or an empty directory; else an error wrapping
// ErrOutNotEmpty that names path, what it holds, and hint, what to do
// instead ("give --resume ..., or name another file").
func RefuseNonEmpty(path, hint string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%s: %w", path, err)
	case st.IsDir():
		ents, err := os.ReadDir(path)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if len(ents) > 0 {
			return fmt.Errorf("%s: %w (a directory of %d entries): %s; kinrow never overwrites records", path, ErrOutNotEmpty, len(ents), hint)
		}
	case st.Size() > 0:
		lines := countLines(path)
		return fmt.Errorf("%s: %w (%d bytes, %d lines): %s; kinrow never overwrites records", path, ErrOutNotEmpty, st.Size(), lines, hint)
	}
	return nil
}

// countLines counts the newlines of the file at path, reading it a block
// at a time (0 if it cannot be read).
func countLines(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	buf := make([]byte, 64<<10)
	for {
		m, err := f.Read(buf)
		n += bytes.Count(buf[:m], []byte("\n"))
		if err != nil {
			return n
		}
	}
}

// openOut opens the records file for appending, creating it if needed. It
// never truncates: without resume, a file that already holds data is
// refused and left as it was.
func openOut(path string, resume bool) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("--out: %w", err)
	}
	// One writer per records file, held until the run ends (the file's
	// close releases it): taken before the file is read or judged empty.
	if err := lockOut(f); err != nil {
		f.Close()
		return nil, err
	}
	if resume {
		return f, nil
	}
	if err := RefuseNonEmpty(path, "give --resume to play only the games it does not hold yet, or name another file"); err != nil {
		f.Close()
		return nil, fmt.Errorf("--out %w", err)
	}
	return f, nil
}

// appendRecord writes one record line signed with key and syncs it to
// disk (what cannot be synced, /dev/null or a pipe, is not).
func appendRecord(f *os.File, rec *record.Record, key ed25519.PrivateKey) error {
	line, err := rec.SignedLine(key)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		return err
	}
	if err := f.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	return nil
}

// numbered is a record with its line number in the file, from 1, and the
// line itself (without its newline).
type numbered struct {
	line int
	rec  *record.Record
	raw  []byte
}

// readRecords reads the records of a previous run through record.Reader
// (its policy: blank lines skipped, a line over the bound refused, a torn
// last line reported, a record v does not vouch for or a game id it read
// before refused, any other bad line an error naming the file and the line
// number); with skip, bad lines are left out and returned in bad instead.
// tail is the offset the torn last line starts at, where the file must be
// cut before anything is appended, or -1; needNewline says a complete last
// record lacks its newline. --resume and kinrow merge both use it.
func readRecords(path string, r io.Reader, v *record.Verifier, skip bool) (recs []numbered, bad []error, tail int64, needNewline bool, err error) {
	rd := record.Reader{Verifier: v}
	var ls record.Lines
	if skip {
		ls, err = rd.ReadEvery(path, r)
	} else {
		ls, err = rd.Read(path, r)
	}
	if err != nil {
		return nil, nil, -1, false, err
	}
	tail = -1
	if ls.Torn != nil {
		tail = ls.Torn.Offset
	}
	for _, l := range ls.Records {
		recs = append(recs, numbered{line: l.N, rec: l.Rec, raw: l.Raw})
	}
	for _, b := range ls.Bad {
		bad = append(bad, b)
	}
	return recs, bad, tail, ls.NeedNewline, nil
}

// resume reads the records a previous run left in out (opened for
// appending), checks every one against this run's schedule, counts them,
// and returns the games they hold. Every record must be a finished game of
// these rules and bots, with a round and game number of the schedule, the
// schedule's colours and opening, and appear once; the error names the
// line of the first that is not. Only then is a torn last line cut.
func (s *Summary) resume(out *os.File, path string, jobs []Job) (map[[2]int]bool, error) {
	in, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--resume: %w", err)
	}
	v := record.NewVerifier(s.cfg.Trusted, s.cfg.AllowUnsigned)
	recs, bad, tail, needNewline, err := readRecords(path, in, v, s.cfg.SkipInvalid)
	in.Close()
	if err != nil {
		return nil, fmt.Errorf("--resume: %w", err)
	}
	s.Skipped, s.Unsigned = bad, v.Unsigned
	byKey := make(map[[2]int]Job, len(jobs))
	for _, j := range jobs {
		byKey[[2]int{j.Round, j.Game}] = j
	}
	seen := map[[2]int]int{} // the line of each game
	for _, nr := range recs {
		if err := s.checkScheduled(nr.rec, byKey); err != nil {
			return nil, fmt.Errorf("--resume: %s:%d: %w", path, nr.line, err)
		}
		key := [2]int{nr.rec.Round, nr.rec.Game}
		if first, dup := seen[key]; dup {
			return nil, fmt.Errorf("--resume: %s:%d: round %d game %d is already recorded on line %d; a game is played and counted once",
				path, nr.line, key[0], key[1], first)
		}
		seen[key] = nr.line
	}
	switch {
	case tail >= 0:
		if err := out.Truncate(tail); err != nil {
			return nil, fmt.Errorf("--resume: cut the torn last line of %s: %w", path, err)
		}
	case needNewline:
		if _, err := out.Write([]byte("\n")); err != nil {
			return nil, fmt.Errorf("--resume: %s: %w", path, err)
		}
	}
	done := make(map[[2]int]bool, len(recs))
	for _, nr := range recs {
		done[[2]int{nr.rec.Round, nr.rec.Game}] = true
		s.add(nr.rec)
	}
	return done, nil
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
		if ctx.Err() != nil {
			return
		}
		rec := playGame(ctx, cfg, j, procs)
		if rec == nil { // abandoned
			return
		}
		// Run reads every result until all workers are done: a game that
		// ended before the run stopped is always delivered.
		results <- rec
	}
}

// playGame plays one job to its end; nil if ctx ended first (the game is
// abandoned: whatever the referee made of a cancelled call is no result).
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
	rec.Round, rec.Game, rec.Opening, rec.Schedule = j.Round, j.Game, len(j.Opening), cfg.scheduleID
	for c := range 2 {
		color := engine.Color(c)
		p := procs[names[c]]
		if p != nil {
			if p.Facts().Exited {
				// Gone between games: release the host's side of it (its
				// plugin client, socket directory, descriptors) before a
				// new one replaces it.
				p.Close()
				delete(procs, names[c])
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
	if cfg.OnGameStart != nil {
		cfg.OnGameStart(g.Record())
	}
	for !g.Over() {
		if cfg.MaxPlies > 0 && g.Position().Ply() >= cfg.MaxPlies {
			g.Adjudicate(fmt.Sprintf("draw by the move limit of %d plies", cfg.MaxPlies))
			break
		}
		out, err := g.GenMove(ctx, g.Position().ToMove())
		if err != nil || ctx.Err() != nil {
			// Interrupted or stopped by the run: a move sent to the
			// opponent under the cancelled context fails, and the
			// referee would blame the healthy opponent for it.
			cfg.Logger.Debug("game abandoned", "round", j.Round, "game", j.Game, "cause", context.Cause(ctx), "error", err)
			return nil
		}
		if out.Played && cfg.OnMove != nil {
			cfg.OnMove(g.Record(), out.Move)
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	for name, p := range procs {
		if p.Facts().Exited {
			p.Close() // the host's side of it (plugin client, socket directory, descriptors)
			delete(procs, name)
		}
	}
	return g.Record()
}
