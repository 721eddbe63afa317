//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/internal/testproc"
)

// soakBots are the misbehaving bots of the soak's gauntlet, each against
// random (the first bot), with the options that make them misbehave
// (soakOpts); intruder forks until the tasks limit refuses it.
var soakBots = []string{
	"hang", "late", "crash", "illegal", "junkafter", "forker",
	"escaper", "hog", "flood", "bigmove", "intruder",
}

// soakOpts are the --bot-opt values of soakBots.
var soakOpts = []string{
	"late:late_ms=300", "bigmove:bytes=67108864", "hog:mb_per_step=32",
	"intruder:attack=forks", "intruder:count=2000",
}

// hostSample is what the soak measures of the host process.
type hostSample struct {
	fds, threads, rssKiB, procs, sockDirs int
}

func sampleHost(pid int, tmp string) (hostSample, bool) {
	var s hostSample
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return s, false
	}
	s.fds = len(ents)
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return s, false
	}
	for _, l := range strings.Split(string(status), "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == "Threads:" {
			s.threads, _ = strconv.Atoi(f[1])
		}
		if len(f) >= 2 && f[0] == "VmRSS:" {
			s.rssKiB, _ = strconv.Atoi(f[1])
		}
	}
	s.procs = len(descendants(pid))
	dirs, _ := filepath.Glob(filepath.Join(tmp, "kinrow-bots-*", "plugin*"))
	s.sockDirs = len(dirs)
	return s, true
}

// descendants lists the processes below pid (by parent links), and every
// process carrying the soak's environment marker (escaped ones).
func descendants(pid int) []int {
	parent := map[int]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		parent[p] = ppidOf(p)
	}
	var out []int
	for p := range parent {
		for q := parent[p]; q > 1; q = parent[q] {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

func ppidOf(pid int) int {
	if f := testproc.Stat(pid); len(f) > 1 {
		n, _ := strconv.Atoi(f[1])
		return n
	}
	return 0
}

// TestSoak (make soak; KINROW_SOAK=GAMES) plays the gauntlet of every
// misbehaving test bot against random at 50 ms a move, concurrency 2, and
// prints games, games/s, forfeits by reason and the host's resources
// after its first games and at the end: nothing may grow.
func TestSoak(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("KINROW_SOAK"))
	if games <= 0 {
		t.Skip("make soak (KINROW_SOAK=GAMES)")
	}
	per := max(2, (games/len(soakBots)+1)&^1) // game pairs per opponent
	out := filepath.Join(t.TempDir(), "soak.jsonl")
	args := []string{"match", "--rules", "tictactoe", "--bot", "random", "--gauntlet", "--games", strconv.Itoa(per),
		"--concurrency", "2", "--movetime", "50ms", "--bot-start-timeout", "1s", "--bot-memory", "48M",
		"--out", out, "--format", "json", "--log-level", "debug"}
	for _, b := range soakBots {
		args = append(args, "--bot", b)
	}
	for _, o := range soakOpts {
		args = append(args, "--bot-opt", o)
	}
	cmd := kinrowCmd(t, args...)
	tmp := ""
	for _, kv := range cmd.Env {
		if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok {
			tmp = v
		}
	}
	// The host's log (debug: a line per game with its goroutines and live
	// bots) goes to a file, read after the run.
	logPath := filepath.Join(t.TempDir(), "host.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	var stdout strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, logFile
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// Samples by the number of live bot processes: the host's fds and
	// socket directories follow its live bots, so growth is judged between
	// the first and last samples with the same number of them.
	firstBy, lastBy := map[int]hostSample{}, map[int]hostSample{}
	firstAtBy, lastAtBy := map[int]time.Duration{}, map[int]time.Duration{}
	// Socket directories beyond the live bot processes, at each sample: a
	// directory left by a bot that is gone would add one for good.
	var extraDirs []int
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
loop:
	for {
		select {
		case err = <-done:
			break loop
		case <-tick.C:
			s, ok := sampleHost(cmd.Process.Pid, tmp)
			if !ok {
				continue
			}
			if _, ok := firstBy[s.procs]; !ok {
				firstBy[s.procs], firstAtBy[s.procs] = s, time.Since(start)
			}
			lastBy[s.procs], lastAtBy[s.procs] = s, time.Since(start)
			extraDirs = append(extraDirs, s.sockDirs-s.procs)
		}
	}
	took := time.Since(start)
	if err != nil {
		b, _ := os.ReadFile(logPath)
		t.Fatalf("kinrow match: %v\n%s", err, b[max(0, len(b)-8192):])
	}
	forfeits := map[string]int{}
	played := 0
	f, ferr := os.Open(out)
	if ferr != nil {
		t.Fatal(ferr)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r struct {
			Forfeit string
			Winner  *string
			Players struct{ X, O string }
		}
		if json.Unmarshal(sc.Bytes(), &r) == nil {
			played++
			if r.Forfeit != "" {
				loser := r.Players.X
				if r.Winner != nil && *r.Winner == r.Players.X {
					loser = r.Players.O
				}
				forfeits[r.Forfeit+" ("+strings.SplitN(loser, "#", 2)[0]+")"]++
			}
		}
	}
	var reasons []string
	for k, v := range forfeits {
		reasons = append(reasons, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(reasons)
	time.Sleep(time.Second)
	left := botProcesses()
	t.Logf("games %d in %v: %.1f games/s", played, took.Round(time.Second), float64(played)/took.Seconds())
	t.Logf("forfeits: %s", strings.Join(reasons, ", "))
	best, span := -1, time.Duration(0)
	for n, at := range lastAtBy {
		if d := at - firstAtBy[n]; d > span {
			best, span = n, d
		}
	}
	first, last := firstBy[best], lastBy[best]
	t.Logf("| the host, with %d bot processes alive | at %v | at %v |", best, firstAtBy[best].Round(time.Second), lastAtBy[best].Round(time.Second))
	t.Logf("|---|---|---|")
	t.Logf("| fds | %d | %d |", first.fds, last.fds)
	t.Logf("| threads | %d | %d |", first.threads, last.threads)
	t.Logf("| RSS MiB | %d | %d |", first.rssKiB>>10, last.rssKiB>>10)
	t.Logf("| socket directories | %d | %d |", first.sockDirs, last.sockDirs)
	t.Logf("bot processes left after exit: %d", len(left))
	late := extraDirs[len(extraDirs)*9/10:]
	sort.Ints(late)
	lateExtra := 0
	if len(late) > 0 {
		lateExtra = late[len(late)/2]
	}
	t.Logf("socket directories beyond live bot processes, median of the last tenth of the samples: %d", lateExtra)
	g := goroutinesByBots(t, logPath)
	if g.games == 0 {
		t.Fatal("the host logged no game with its goroutines")
	}
	t.Logf("| the host's goroutines, with %d bots alive | after game %d | after game %d |", g.bots, g.firstGame, g.lastGame)
	t.Logf("|---|---|---|")
	t.Logf("| goroutines | %d | %d |", g.first, g.last)
	t.Logf("goroutines after each game: %d to %d (live bots %d to %d)", g.min, g.max, g.minBots, g.maxBots)
	if len(left) > 0 {
		t.Errorf("bot processes left: %v", left)
	}
	if best < 0 {
		t.Fatal("no two samples with the same number of bot processes")
	}
	// A leak grows with the games (the host gained 3 fds and a
	// socket file a game); what is under way at a sample (a bot starting,
	// one being reaped) moves these by a few.
	if last.fds > first.fds+16 {
		t.Errorf("fds grew from %d to %d", first.fds, last.fds)
	}
	if last.sockDirs > first.sockDirs+8 {
		t.Errorf("socket directories grew from %d to %d", first.sockDirs, last.sockDirs)
	}
	if lateExtra > 2 {
		t.Errorf("late in the run, %d socket directories more than live bot processes", lateExtra)
	}
	// A goroutine leak grows with the games; a bot starting or being
	// reaped at a game's end moves the count by a few dozen at most.
	if g.last > g.first+40 {
		t.Errorf("the host's goroutines grew from %d to %d with %d bots alive (games %d to %d)", g.first, g.last, g.bots, g.firstGame, g.lastGame)
	}
}

// goroutineSamples is what the host's log says of its goroutines after
// each game: the first and last count at the number of live bots seen over
// the longest span of games, and the range.
type goroutineSamples struct {
	games, bots, firstGame, lastGame, first, last int
	min, max, minBots, maxBots                    int
}

// goroutinesByBots reads the "game done" lines of a debug log (game=N
// goroutines=G bots=B).
func goroutinesByBots(t *testing.T, path string) goroutineSamples {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type at struct{ game, n int }
	first, last := map[int]at{}, map[int]at{}
	g := goroutineSamples{min: 1 << 30, minBots: 1 << 30}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, "game done:") {
			continue
		}
		var game, n, bots int
		for _, kv := range strings.Fields(line) {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "game":
				game, _ = strconv.Atoi(v)
			case "goroutines":
				n, _ = strconv.Atoi(v)
			case "bots":
				bots, _ = strconv.Atoi(v)
			}
		}
		if n == 0 {
			continue
		}
		g.games++
		g.min, g.max = min(g.min, n), max(g.max, n)
		g.minBots, g.maxBots = min(g.minBots, bots), max(g.maxBots, bots)
		if _, ok := first[bots]; !ok {
			first[bots] = at{game, n}
		}
		last[bots] = at{game, n}
	}
	span := -1
	for b, l := range last {
		if d := l.game - first[b].game; d > span {
			span, g.bots = d, b
		}
	}
	g.firstGame, g.first = first[g.bots].game, first[g.bots].n
	g.lastGame, g.last = last[g.bots].game, last[g.bots].n
	return g
}
