package match

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/host/stats"
)

func TestShardsAreDisjointAndCoverTheSchedule(t *testing.T) {
	rules, _ := engine.ParseRules("connect4")
	for _, bots := range []int{2, 3, 5} {
		for _, gauntlet := range []bool{false, true} {
			for _, games := range []int{1, 2, 7, 10} {
				for _, n := range []int{1, 2, 3, 4, 7, 64} {
					name := fmt.Sprintf("bots=%d gauntlet=%v games=%d N=%d", bots, gauntlet, games, n)
					t.Run(name, func(t *testing.T) {
						all, err := Schedule(rules, bots, gauntlet, games, nil, 3, 42)
						if err != nil {
							t.Fatal(err)
						}
						owner := map[[2]int]int{}     // game -> shard
						pairOwner := map[[2]int]int{} // (round, pair) -> shard
						var sizes []int
						for i := 0; i < n; i++ {
							part := Shard{Index: i, Count: n}.Select(all)
							sizes = append(sizes, len(part))
							for _, j := range part {
								k := [2]int{j.Round, j.Game}
								if s, dup := owner[k]; dup {
									t.Fatalf("round %d game %d in shards %d and %d", j.Round, j.Game, s, i)
								}
								owner[k] = i
								pk := [2]int{j.Round, j.Pair}
								if s, ok := pairOwner[pk]; ok && s != i {
									t.Fatalf("round %d pair %d split over shards %d and %d", j.Round, j.Pair, s, i)
								}
								pairOwner[pk] = i
							}
						}
						if len(owner) != len(all) {
							t.Fatalf("the shards hold %d games; the schedule %d", len(owner), len(all))
						}
						// Every job of a shard is the schedule's job, unchanged.
						for _, j := range all {
							i := owner[[2]int{j.Round, j.Game}]
							part := Shard{Index: i, Count: n}.Select(all)
							if !slices.ContainsFunc(part, func(p Job) bool {
								return p.Round == j.Round && p.Game == j.Game && p.X == j.X && p.O == j.O && slices.Equal(p.Opening, j.Opening)
							}) {
								t.Fatalf("round %d game %d changed in shard %d", j.Round, j.Game, i)
							}
						}
						// Balanced: the numbers of pairs differ by at most one.
						pairs := make([]int, n)
						for _, s := range pairOwner {
							pairs[s]++
						}
						if lo, hi := slices.Min(pairs), slices.Max(pairs); hi-lo > 1 {
							t.Errorf("pairs per shard %v (games %v)", pairs, sizes)
						}
					})
				}
			}
		}
	}
}

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		want Shard
		err  string
	}{
		{"0/1", Shard{0, 1}, ""},
		{"0/4", Shard{0, 4}, ""},
		{"3/4", Shard{3, 4}, ""},
		{" 2/3 ", Shard{2, 3}, ""},
		{"3/2", Shard{}, "runs from 0 to 1"},
		{"4/4", Shard{}, "runs from 0 to 3"},
		{"-1/4", Shard{}, "runs from 0 to 3"},
		{"0/0", Shard{}, "N must be from 1"},
		{"1/0", Shard{}, "N must be from 1"},
		{"0/-2", Shard{}, "N must be from 1"},
		{"x", Shard{}, "want I/N"},
		{"", Shard{}, "want I/N"},
		{"1", Shard{}, "want I/N"},
		{"a/b", Shard{}, "whole numbers"},
		{"1/2/3", Shard{}, "whole numbers"},
		{"0/99999999999999999999", Shard{}, "whole numbers"},
		{"0/2000000", Shard{}, "N must be from 1"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseShard(tc.in)
			if tc.err == "" {
				if err != nil || got != tc.want {
					t.Errorf("ParseShard(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseShard(%q) error %v; want %q", tc.in, err, tc.err)
			}
		})
	}
}

func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/4", "3/2", "x", "0/0", "-1/3", " 1 / 2 ", "1/2/3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "--shard ") {
				t.Fatalf("error %q does not name the flag", err)
			}
			return
		}
		if sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count || sh.Validate() != nil {
			t.Fatalf("ParseShard(%q) = %+v", s, sh)
		}
		if again, err := ParseShard(sh.String()); err != nil || again != sh {
			t.Fatalf("%q does not read back: %v %v", sh.String(), again, err)
		}
	})
}

func TestShardFromEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want Shard
		err  string
	}{
		{"slurm", map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4"}, Shard{2, 4}, ""},
		{"kubernetes", map[string]string{"JOB_COMPLETION_INDEX": "0", "KINROW_SHARD_COUNT": "3"}, Shard{0, 3}, ""},
		{"slurm first", map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2", "JOB_COMPLETION_INDEX": "0", "KINROW_SHARD_COUNT": "3"}, Shard{1, 2}, ""},
		{"slurm array from 1", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"}, Shard{}, "--array=0-N"},
		{"slurm no count", map[string]string{"SLURM_ARRAY_TASK_ID": "1"}, Shard{}, "SLURM_ARRAY_TASK_COUNT is not"},
		{"kubernetes no count", map[string]string{"JOB_COMPLETION_INDEX": "1"}, Shard{}, "KINROW_SHARD_COUNT is not"},
		{"kubernetes bad count", map[string]string{"JOB_COMPLETION_INDEX": "1", "KINROW_SHARD_COUNT": "x"}, Shard{}, "whole numbers"},
		{"nothing", map[string]string{}, Shard{}, "no scheduler's shard index"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ShardFromEnv(func(k string) string { return tc.env[k] })
			if tc.err == "" {
				if err != nil || got != tc.want {
					t.Errorf("got %v, %v; want %v", got, err, tc.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error %v; want %q", err, tc.err)
			}
		})
	}
}

func TestScheduleIDNamesTheGames(t *testing.T) {
	base := config(t, &fakeLoader{}, "first", "random")
	base.Bots[1].Opts = map[string]string{"seed": "3"}
	id := base.ScheduleID()
	if again := base.ScheduleID(); again != id || id.Rounds != 1 || id.Games != 10 {
		t.Fatalf("ids %v and %v", id, again)
	}
	if parsed, err := ParseScheduleID(id.String()); err != nil || parsed != id {
		t.Fatalf("%q reads back as %v, %v", id, parsed, err)
	}
	same := map[string]func(c *Config){
		"concurrency": func(c *Config) { c.Concurrency = 7 },
		"out":         func(c *Config) { c.Out = "elsewhere.jsonl" },
		"shard":       func(c *Config) { c.Shard = Shard{1, 3} },
		"grace":       func(c *Config) { c.Grace = time.Second },
		"sprt":        func(c *Config) { c.SPRT = &stats.SPRT{Elo1: 5} },
	}
	other := map[string]func(c *Config){
		"rules":    func(c *Config) { c.Rules, _ = engine.ParseRules("connect4") },
		"bot":      func(c *Config) { c.Bots[0].Name = "other" },
		"bot opt":  func(c *Config) { c.Bots[1].Opts = map[string]string{"seed": "4"} },
		"bots":     func(c *Config) { c.Bots = append(c.Bots, BotSpec{Name: "third"}) },
		"gauntlet": func(c *Config) { c.Gauntlet = true },
		"games":    func(c *Config) { c.Games = 12 },
		"openings": func(c *Config) { c.Openings = [][]engine.Move{{0}} },
		"plies":    func(c *Config) { c.RandomPlies = 2 },
		"seed":     func(c *Config) { c.Seed = 2 },
		"movetime": func(c *Config) { c.Clock.MoveTime = time.Second },
		"tc":       func(c *Config) { c.Clock = referee.Clock{Main: time.Minute, Increment: time.Second} },
		"maxplies": func(c *Config) { c.MaxPlies = 40 },
	}
	for name, edit := range same {
		c := base
		c.Bots = slices.Clone(base.Bots)
		edit(&c)
		if got := c.ScheduleID(); got != id {
			t.Errorf("%s changed the identity: %v, was %v", name, got, id)
		}
	}
	seen := map[string]string{id.Hash: "base"}
	for name, edit := range other {
		c := base
		c.Bots = slices.Clone(base.Bots)
		edit(&c)
		got := c.ScheduleID()
		if prev, dup := seen[got.Hash]; dup {
			t.Errorf("%s gives the identity of %s: %v", name, prev, got)
		}
		seen[got.Hash] = name
	}
	for _, bad := range []string{"", "abc", "0123456789abcdef", "0123456789abcdef:100001x2", "0123456789abcdef:1x1073741825", "0123456789abcdef:0x2", "0123456789abcdef:1x", "0123456789abcdeg:1x2", "01:1x2"} {
		if _, err := ParseScheduleID(bad); err == nil {
			t.Errorf("ParseScheduleID(%q) accepted", bad)
		}
	}
}

// shardConfig is a deterministic three-bot round robin ("first" always
// plays the first legal move; the random openings make the games differ).
func shardConfig(t *testing.T) Config {
	cfg := config(t, &fakeLoader{}, "first", "first", "first")
	cfg.Games, cfg.RandomPlies, cfg.Seed, cfg.Concurrency = 6, 3, 7, 2
	return cfg
}

// gameKey is what a record says about its game, less the times.
func gameKey(rec *record.Record) string {
	var moves []string
	for _, m := range rec.Moves {
		moves = append(moves, m.Color+m.Move)
	}
	w := "-"
	if rec.Winner != nil {
		w = *rec.Winner
	}
	return fmt.Sprintf("%d/%d %s-%s %s %s %s %s %d %s", rec.Round, rec.Game, rec.Players.X, rec.Players.O,
		strings.Join(moves, ","), rec.Result, rec.Reason, w, rec.Opening, rec.Schedule)
}

func readKeys(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, _, tail, _, err := readRecords(path, bytes.NewReader(data), testVerifier(), false)
	if err != nil || tail != -1 {
		t.Fatalf("%s: %v (tail %d)", path, err, tail)
	}
	var keys []string
	for _, nr := range recs {
		keys = append(keys, gameKey(nr.rec))
	}
	return keys
}

func TestMergedShardsAreTheWholeRun(t *testing.T) {
	dir := t.TempDir()
	whole := shardConfig(t)
	whole.Out = filepath.Join(dir, "whole.jsonl")
	if _, err := Run(context.Background(), whole); err != nil {
		t.Fatal(err)
	}
	want := readKeys(t, whole.Out)
	slices.Sort(want)
	if len(want) != 18 {
		t.Fatalf("%d games in the whole run", len(want))
	}
	for _, n := range []int{1, 2, 4, 9, 20} {
		t.Run(fmt.Sprint("N=", n), func(t *testing.T) {
			var files []string
			played := 0
			for i := 0; i < n; i++ {
				c := shardConfig(t)
				c.Shard = Shard{i, n}
				c.Out = filepath.Join(t.TempDir(), fmt.Sprintf("shard-%d.jsonl", i))
				sum, err := Run(context.Background(), c)
				if err != nil {
					t.Fatal(err)
				}
				played += sum.Games
				files = append(files, c.Out)
			}
			if played != 18 {
				t.Fatalf("the shards played %d games", played)
			}
			out := filepath.Join(t.TempDir(), "merged.jsonl")
			rep, err := Merge(context.Background(), out, files, testMerge)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Games != 18 || rep.Missing != 0 || len(rep.Gaps) != 0 || rep.Schedule != whole.ScheduleID() {
				t.Fatalf("report %+v", rep)
			}
			got := readKeys(t, out)
			if order := sortedLines(t, out); !slices.Equal(order, mergedLines(t, out)) {
				t.Errorf("the merged file is not ordered by round and game")
			}
			sorted := slices.Clone(got)
			slices.Sort(sorted)
			if !slices.Equal(sorted, want) {
				t.Errorf("merged:\n%s\nwhole run:\n%s", strings.Join(sorted, "\n"), strings.Join(want, "\n"))
			}
			// The merged file is complete: a resume plays nothing.
			c := shardConfig(t)
			c.Out, c.Resume = out, true
			c.OnGame = func(int, int, *record.Record) { t.Error("a game was played on a complete merged file") }
			sum, err := Run(context.Background(), c)
			if err != nil || sum.Games != 18 {
				t.Fatalf("resume: %v, %d games", err, sum.Games)
			}
		})
	}
}

func TestResumeOfAMergePlaysOnlyTheMissingGames(t *testing.T) {
	const n = 4
	var files []string
	var missingShard []string
	for i := 0; i < n; i++ {
		c := shardConfig(t)
		c.Shard = Shard{i, n}
		c.Out = filepath.Join(t.TempDir(), fmt.Sprintf("shard-%d.jsonl", i))
		if _, err := Run(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		if i == 2 {
			missingShard = readKeys(t, c.Out) // lost: never merged
			continue
		}
		files = append(files, c.Out)
	}
	out := filepath.Join(t.TempDir(), "merged.jsonl")
	rep, err := Merge(context.Background(), out, files, testMerge)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Missing != len(missingShard) || rep.Games != 18-len(missingShard) {
		t.Fatalf("report %+v; shard 2 had %d games", rep, len(missingShard))
	}
	var missing []string
	for _, k := range missingShard {
		var r, g int
		fmt.Sscanf(k, "%d/%d", &r, &g)
		missing = append(missing, fmt.Sprintf("%d/%d", r, g))
	}
	c := shardConfig(t)
	c.Out, c.Resume = out, true
	var replayed []string
	c.OnGame = func(_, _ int, rec *record.Record) {
		replayed = append(replayed, fmt.Sprintf("%d/%d", rec.Round, rec.Game))
	}
	sum, err := Run(context.Background(), c)
	if err != nil || sum.Games != 18 {
		t.Fatalf("resume: %v, %d games", err, sum.Games)
	}
	slices.Sort(replayed)
	slices.Sort(missing)
	if !slices.Equal(replayed, missing) {
		t.Errorf("the resume played %v; the missing games were %v", replayed, missing)
	}
	if got := readKeys(t, out); len(got) != 18 {
		t.Errorf("%d records after the resume", len(got))
	}
}

func TestMissingGaps(t *testing.T) {
	rec := func(round, game int) string {
		x, o := "a", "b"
		if game%2 == 0 {
			x, o = o, x
		}
		return fmt.Sprintf(`{"rules":"mnk:3x3x3","players":{"x":%q,"o":%q},"moves":[],"result":"0","reason":"adjudication","winner":null,"round":%d,"game":%d,"schedule":"0123456789abcdef:3x9"}`, x, o, round, game)
	}
	// Round 1 lacks 3-4 and 9, round 2 all but 2-9, round 3 everything.
	var lines []string
	for _, g := range []int{1, 2, 5, 6, 7, 8} {
		lines = append(lines, rec(1, g))
	}
	for g := 2; g <= 9; g++ {
		lines = append(lines, rec(2, g))
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	rep, err := Merge(context.Background(), filepath.Join(dir, "out.jsonl"), []string{in}, MergeOptions{AllowUnsigned: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rep.MissingText(), "round 1: games 3-4, 9; round 2: game 1; round 3: games 1-9"; got != want || rep.Missing != 13 || rep.Games != 14 {
		t.Errorf("%q, %d missing, %d games; want %q, 13, 14", got, rep.Missing, rep.Games, want)
	}
	if got := (&MergeReport{}).MissingText(); got != "" {
		t.Errorf("%q for none", got)
	}
	many := &MergeReport{}
	for g := 1; g <= 2*maxGapsText+1; g += 2 {
		many.Gaps = append(many.Gaps, Gap{1, g, g})
	}
	if got := many.MissingText(); !strings.HasSuffix(got, "; and 1 more runs of games") {
		t.Errorf("%q", got)
	}
	// A record may state any shape: merging is never as slow as the shape is big.
	huge := filepath.Join(dir, "huge.jsonl")
	os.WriteFile(huge, []byte(strings.Replace(rec(1, 1), "3x9", "100000x1073741824", 1)+"\n"), 0o644)
	rep, err = Merge(context.Background(), filepath.Join(dir, "out2.jsonl"), []string{huge}, MergeOptions{AllowUnsigned: true})
	if err != nil || rep.Missing != 100000*(1<<30)-1 || len(rep.Gaps) != 100000 {
		t.Errorf("huge: %v, %d missing in %d gaps", err, rep.Missing, len(rep.Gaps))
	}
}

func TestMergeRefuses(t *testing.T) {
	// Two shards of one schedule, and a shard of another (another seed).
	var shards [2][]string
	for i := range 2 {
		c := shardConfig(t)
		c.Shard = Shard{i, 2}
		c.Out = filepath.Join(t.TempDir(), "s.jsonl")
		if _, err := Run(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		shards[i] = sortedLines(t, c.Out)
	}
	other := shardConfig(t)
	other.Seed = 8
	other.Shard = Shard{0, 2}
	if _, err := Run(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	otherData, _ := os.ReadFile(other.Out)
	otherLines := strings.Split(strings.TrimSuffix(string(otherData), "\n"), "\n")
	a, b := shards[0], shards[1]
	set := func(key string, v any) func(map[string]any) { return func(m map[string]any) { m[key] = v } }
	join := func(lines ...string) string { return strings.Join(lines, "\n") + "\n" }
	tests := []struct {
		name  string
		files []string // contents of a.jsonl, b.jsonl, ...
		want  string
	}{
		{"another schedule", []string{join(a...), join(otherLines[0])}, "b.jsonl:1: schedule "},
		{"duplicate across files", []string{join(a...), join(b[0], a[1])}, "b.jsonl:2: duplicate game id"},
		{"duplicate in a file", []string{join(a[0], a[1], a[0])}, "a.jsonl:3: round 1 game 1 is already recorded on line 1"},
		// Issue 24: results the moves do not make, judged by record.ReadLines.
		{"forged win after 3 moves", []string{join(a[0], forge(t, a[1], "a1 b3 c2"))}, "a.jsonl:2: round 1 game 2: X+ by a win, but the 3 moves make no line of 3"},
		{"forged win after 1 move", []string{join(forge(t, a[0], "b2"), a[1])}, "a.jsonl:1: round 1 game 1: X+ by a win, but the 1 move makes no line of 3"},
		{"game past the schedule", []string{join(a[0], editRecord(t, a[1], set("game", 7)))}, "a.jsonl:2: round 1 game 7 is outside the schedule"},
		{"round past the schedule", []string{join(a...), join(editRecord(t, b[0], set("round", 4)))}, "b.jsonl:1: round 4 game 3 is outside the schedule"},
		{"game 0", []string{join(editRecord(t, a[0], set("game", 0)))}, "a.jsonl:1: round 1 game 0 is outside"},
		{"no identity", []string{join(a[0], editRecord(t, a[1], func(m map[string]any) { delete(m, "schedule") }))}, "a.jsonl:2: the record has no schedule identity"},
		{"bad identity", []string{join(editRecord(t, a[0], set("schedule", "nonsense")))}, "a.jsonl:1: schedule \"nonsense\""},
		{"garbage", []string{join(a[0], "garbage", a[1])}, "a.jsonl:2: decode game record"},
		{"open game", []string{join(editRecord(t, a[0], func(m map[string]any) { m["result"], m["reason"], m["winner"] = "", "", nil }))}, "a.jsonl:1: round 1 game 1 is not a finished game"},
		{"colours", []string{join(a[0], editRecord(t, a[2], set("players", map[string]any{"x": "first#2", "o": "first"})))}, "a.jsonl:2: round 1 game 5 has x first#2 and o first, which does not agree with a.jsonl:1"},
		{"opening of the pair", []string{join(a[0], editRecord(t, a[1], set("opening_plies", 1)))}, "a.jsonl:2: round 1 game 2 opens with"},
		{"nothing", []string{"", ""}, "no records"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var files []string
			for i, content := range tc.files {
				p := filepath.Join(dir, string(rune('a'+i))+".jsonl")
				os.WriteFile(p, []byte(content), 0o644)
				files = append(files, p)
			}
			out := filepath.Join(dir, "out.jsonl")
			_, err := Merge(context.Background(), out, files, testMerge)
			if err == nil || !strings.Contains(strings.ReplaceAll(err.Error(), dir+"/", ""), tc.want) || !errors.Is(err, ErrMerge) {
				t.Errorf("error %v; want ErrMerge saying %q", err, tc.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a refused merge made %s (%v)", out, err)
			}
		})
	}
	t.Run("out not empty", func(t *testing.T) {
		dir := t.TempDir()
		in, out := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "out.jsonl")
		os.WriteFile(in, []byte(join(a...)), 0o644)
		os.WriteFile(out, []byte("keep me\n"), 0o644)
		_, err := Merge(context.Background(), out, []string{in}, testMerge)
		if !errors.Is(err, ErrOutNotEmpty) {
			t.Errorf("error %v; want ErrOutNotEmpty", err)
		}
		if data, _ := os.ReadFile(out); string(data) != "keep me\n" {
			t.Errorf("out became %q", data)
		}
	})
	t.Run("torn last line", func(t *testing.T) {
		dir := t.TempDir()
		in, out := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "out.jsonl")
		os.WriteFile(in, []byte(join(a[:len(a)-1]...)+a[len(a)-1][:40]), 0o644)
		rep, err := Merge(context.Background(), out, []string{in}, testMerge)
		if err != nil || rep.Games != len(a)-1 || len(rep.Torn) != 1 || rep.Missing != 18-rep.Games {
			t.Errorf("report %+v, %v", rep, err)
		}
	})
}

// sortedLines returns the record lines of a file ordered by round and game
// (a run with concurrency writes them in the order the games end).
func sortedLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, _, _, _, err := readRecords(path, bytes.NewReader(data), testVerifier(), false)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(recs, func(x, y numbered) int {
		if x.rec.Round != y.rec.Round {
			return x.rec.Round - y.rec.Round
		}
		return x.rec.Game - y.rec.Game
	})
	var lines []string
	for _, nr := range recs {
		lines = append(lines, string(nr.raw))
	}
	return lines
}

// mergedLines returns the lines of a file as they are.
func mergedLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func TestShardResumeAndConfig(t *testing.T) {
	c := shardConfig(t)
	c.Shard = Shard{0, 2}
	if _, err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	// Shard 1 resumed on shard 0's file: its records are not shard 1's.
	c1 := shardConfig(t)
	c1.Shard, c1.Out, c1.Resume = Shard{1, 2}, c.Out, true
	if _, err := Run(context.Background(), c1); err == nil || !strings.Contains(err.Error(), "is outside shard 1/2 of the schedule") {
		t.Errorf("error %v", err)
	}
	// The whole schedule with another time control: the identity differs.
	c2 := shardConfig(t)
	c2.Clock.MoveTime = time.Second
	c2.Out, c2.Resume = c.Out, true
	if _, err := Run(context.Background(), c2); err == nil || !strings.Contains(err.Error(), "belongs to schedule") {
		t.Errorf("error %v", err)
	}
	for _, tc := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Shard = Shard{2, 2} }, "runs from 0 to 1"},
		{func(c *Config) { c.Shard = Shard{1, 0} }, "at least 1"},
		{func(c *Config) {
			c.Bots = c.Bots[:2]
			c.Shard = Shard{0, 2}
			c.SPRT = &stats.SPRT{Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: "normalized"}
		}, "--sprt with --shard"},
	} {
		c := shardConfig(t)
		tc.edit(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate: %v; want %q", err, tc.want)
		}
	}
}

func FuzzParseScheduleID(f *testing.F) {
	for _, s := range []string{"0123456789abcdef:3x10", "0123456789abcdef:0x2", "nonsense", ":x", "0123456789ABCDEF:1x1", "0123456789abcdef:1x2x3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParseScheduleID(s)
		if err != nil {
			return
		}
		if id.Rounds < 1 || id.Games < 1 || len(id.Hash) != 16 {
			t.Fatalf("ParseScheduleID(%q) = %+v", s, id)
		}
		if again, err := ParseScheduleID(id.String()); err != nil || again != id {
			t.Fatalf("%q does not read back: %+v %v", id.String(), again, err)
		}
	})
}

// FuzzMerge feeds Merge two files of any content: it either refuses them
// (ErrMerge, naming a file and line, nothing written) or writes every
// game once, ordered, within the schedule its records name.
func FuzzMerge(f *testing.F) {
	rec := func(game int, x, o, result, winner string) string {
		w := "null"
		if winner != "" {
			w = `"` + winner + `"`
		}
		return fmt.Sprintf(`{"rules":"mnk:3x3x3","players":{"x":%q,"o":%q},"moves":[{"move":"a1","color":"x","ms":0}],"result":%q,"reason":"adjudication","winner":%s,"start":"2026-01-01T00:00:00Z","round":1,"game":%d,"schedule":"0123456789abcdef:1x4"}`,
			x, o, result, w, game)
	}
	g1, g2, g3 := rec(1, "a", "b", "X+", "a"), rec(2, "b", "a", "0", ""), rec(3, "a", "b", "O+", "b")
	f.Add(g1+"\n"+g2+"\n", g3+"\n")
	f.Add(g1+"\n", g1+"\n")
	f.Add(g1+"\n"+g3[:40], "")
	f.Add(g2, "garbage\n")
	f.Add(strings.Replace(g1, "1x4", "1x9", 1)+"\n", g2+"\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		dir := t.TempDir()
		pa, pb, out := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"), filepath.Join(dir, "out.jsonl")
		os.WriteFile(pa, []byte(a), 0o644)
		os.WriteFile(pb, []byte(b), 0o644)
		rep, err := Merge(context.Background(), out, []string{pa, pb}, MergeOptions{AllowUnsigned: true})
		if err != nil {
			if !errors.Is(err, ErrMerge) {
				t.Fatalf("not ErrMerge: %v", err)
			}
			if _, serr := os.Stat(out); !os.IsNotExist(serr) {
				t.Fatalf("refused (%v) but wrote %s", err, out)
			}
			return
		}
		data, _ := os.ReadFile(out)
		recs, _, tail, _, rerr := readRecords(out, bytes.NewReader(data), record.NewVerifier(nil, true), false)
		if rerr != nil || tail != -1 || len(recs) != rep.Games {
			t.Fatalf("merged file: %d records, tail %d, %v; report %+v", len(recs), tail, rerr, rep)
		}
		last := [2]int{0, 0}
		for _, nr := range recs {
			k := [2]int{nr.rec.Round, nr.rec.Game}
			if k[0] < last[0] || (k[0] == last[0] && k[1] <= last[1]) {
				t.Fatalf("order or duplicate: %v after %v", k, last)
			}
			last = k
			if k[0] < 1 || k[0] > rep.Schedule.Rounds || k[1] < 1 || k[1] > rep.Schedule.Games || nr.rec.Schedule != rep.Schedule.String() {
				t.Fatalf("record %v outside %v", k, rep.Schedule)
			}
		}
		if rep.Games+rep.Missing != rep.Schedule.Rounds*rep.Schedule.Games {
			t.Fatalf("%d games + %d missing != %v", rep.Games, rep.Missing, rep.Schedule)
		}
	})
}
