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
)

// soakBots are the misbehaving bots of the soak's gauntlet, each against
// random (the first bot), with the options that make them misbehave.
var soakBots = []string{
	"hang", "late", "crash", "illegal", "junkafter", "forker",
	"escaper", "hog", "flood", "bigmove",
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
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
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
		"--out", out, "--format", "json", "--log-level", "off"}
	for _, b := range soakBots {
		args = append(args, "--bot", b)
	}
	args = append(args, "--bot-opt", "late:late_ms=300", "--bot-opt", "bigmove:bytes=67108864", "--bot-opt", "hog:mb_per_step=32")
	cmd := kinrowCmd(t, args...)
	tmp := ""
	for _, kv := range cmd.Env {
		if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok {
			tmp = v
		}
	}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &syncWriter{w: &stderr}
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
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	var err error
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
		}
	}
	took := time.Since(start)
	if err != nil {
		t.Fatalf("kinrow match: %v\n%s", err, stderr.String())
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
}
