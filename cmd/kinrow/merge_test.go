package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kinrow/kinrow/engine/record"
)

// shardArgs is a deterministic schedule: random plays with a seed (both
// sides: kinrow-bot-random reseeds every game), random openings from --seed.
func shardArgs(out string, extra ...string) []string {
	args := []string{"match", "--rules", "connect4", "--bot", "random", "--bot", "random", "--bot-opt", "random:seed=11",
		"--games", "10", "--random-plies", "2", "--seed", "5", "--movetime", "500ms", "--out", out}
	return append(args, extra...)
}

// withoutSchedulerEnv drops the scheduler variables the test itself may
// run under (make test-slurm), so that only the ones a case sets count.
func withoutSchedulerEnv(env []string) []string {
	return slices.DeleteFunc(env, func(kv string) bool {
		return strings.HasPrefix(kv, "SLURM_ARRAY_") || strings.HasPrefix(kv, "JOB_COMPLETION_INDEX=") || strings.HasPrefix(kv, "KINROW_SHARD_COUNT=")
	})
}

// gameKeys reads a record file as one line per game without the times:
// round/game, players, moves, result, reason, winner, schedule; sorted.
func gameKeys(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for i, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if l == "" {
			continue
		}
		rec, err := record.Parse([]byte(l))
		if err != nil {
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
		var moves []string
		for _, m := range rec.Moves {
			moves = append(moves, m.Move)
		}
		w := "-"
		if rec.Winner != nil {
			w = *rec.Winner
		}
		if rec.Schedule == "" {
			t.Errorf("%s:%d: no schedule identity", path, i+1)
		}
		keys = append(keys, fmt.Sprintf("%03d/%03d %s-%s %s %s %s %s %s", rec.Round, rec.Game, rec.Players.X, rec.Players.O,
			strings.Join(moves, ""), rec.Result, rec.Reason, w, rec.Schedule))
	}
	slices.Sort(keys)
	return keys
}

func runOK(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v\n%s%s", cmd.Args, err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// wholeRun plays the schedule of shardArgs in one run.
func wholeRun(t *testing.T) []string {
	t.Helper()
	whole := filepath.Join(t.TempDir(), "whole.jsonl")
	runOK(t, kinrowCmd(t, shardArgs(whole, "--concurrency", "2")...))
	keys := gameKeys(t, whole)
	if len(keys) != 10 {
		t.Fatalf("%d games in the whole run", len(keys))
	}
	return keys
}

var mergeTotals = regexp.MustCompile(`(?m)^.*: (\d+) of (\d+) games of schedule (\S+) .*\nmissing: (\d+) games`)

// mergeReport runs kinrow merge and returns the games written, the
// schedule's games and the missing ones.
func mergeReport(t *testing.T, out string, inputs ...string) (written, total, missing int) {
	t.Helper()
	stdout := runOK(t, kinrowCmd(t, append([]string{"merge", out}, inputs...)...))
	m := mergeTotals.FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("kinrow merge said:\n%s", stdout)
	}
	written, _ = strconv.Atoi(m[1])
	total, _ = strconv.Atoi(m[2])
	missing, _ = strconv.Atoi(m[4])
	return written, total, missing
}

// TestShardsMergeToTheWholeRun plays a schedule once whole and once as
// three shards (the index from the flag, from Slurm's variables and from
// Kubernetes'), merges them, and compares every game.
func TestShardsMergeToTheWholeRun(t *testing.T) {
	want := wholeRun(t)
	dir := t.TempDir()
	shards := []struct {
		flag string
		env  []string
	}{
		{"0/3", nil},
		{"auto", []string{"SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_COUNT=3"}},
		{"auto", []string{"JOB_COMPLETION_INDEX=2", "KINROW_SHARD_COUNT=3"}},
	}
	var files []string
	for i, s := range shards {
		f := filepath.Join(dir, fmt.Sprintf("shard-%d.jsonl", i))
		cmd := kinrowCmd(t, shardArgs(f, "--shard", s.flag)...)
		cmd.Env = append(withoutSchedulerEnv(cmd.Env), s.env...)
		runOK(t, cmd)
		files = append(files, f)
	}
	// Pairs are dealt in turn: 5 pairs over 3 shards are 2, 2 and 1.
	for i, n := range []int{4, 4, 2} {
		if got := len(gameKeys(t, files[i])); got != n {
			t.Errorf("shard %d played %d games; want %d", i, got, n)
		}
	}
	merged := filepath.Join(dir, "merged.jsonl")
	if w, total, missing := mergeReport(t, merged, files...); w != 10 || total != 10 || missing != 0 {
		t.Fatalf("merge: %d of %d games, %d missing", w, total, missing)
	}
	if got := gameKeys(t, merged); !slices.Equal(got, want) {
		t.Errorf("merged shards:\n%s\none run:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Without shard 1: its games are missing, and a resume plays only them.
	partial := filepath.Join(dir, "partial.jsonl")
	if w, total, missing := mergeReport(t, partial, files[0], files[2]); w != 6 || total != 10 || missing != 4 {
		t.Fatalf("merge of two shards: %d of %d games, %d missing", w, total, missing)
	}
	var stderr strings.Builder
	cmd := kinrowCmd(t, shardArgs(partial, "--resume")...)
	cmd.Stderr = &stderr
	if out, err := cmd.Output(); err != nil || gamesInSummary(t, string(out)) != 10 {
		t.Fatalf("resume: %v\n%s%s", err, out, stderr.String())
	}
	if played := len(regexp.MustCompile(`(?m)^game \d+/10: `).FindAllString(stderr.String(), -1)); played != 4 {
		t.Errorf("the resume played %d games; want the 4 missing:\n%s", played, stderr.String())
	}
	if got := gameKeys(t, partial); !slices.Equal(got, want) {
		t.Errorf("merged and resumed:\n%s\none run:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestShardsWithGNUParallel runs four shards with GNU parallel, as
// docs/SCALE.md shows, and joins them with kinrow merge.
func TestShardsWithGNUParallel(t *testing.T) {
	parallel, err := exec.LookPath("parallel")
	if err != nil {
		t.Skip("GNU parallel is not installed (Debian: apt-get install parallel; .ci/run installs it)")
	}
	if out, err := exec.Command(parallel, "--version").CombinedOutput(); err != nil || !strings.Contains(string(out), "GNU parallel") {
		t.Skipf("%s is not GNU parallel (moreutils' parallel?): %v %.80s", parallel, err, out)
	}
	want := wholeRun(t)
	dir := t.TempDir()
	kinrow := filepath.Join(binDir, "kinrow")
	args := []string{"--will-cite", "--halt", "now,fail=1", "-j", "2",
		kinrow + " " + strings.Join(shardArgs(filepath.Join(dir, "shard-{}.jsonl"), "--shard", "{}/4"), " "),
		":::", "0", "1", "2", "3"}
	cmd := exec.Command(parallel, args...)
	cmd.Env = append(withoutSchedulerEnv(os.Environ()), "KINROW_BOT_PATH=", "KINROW_LOG=warn", "HOME="+dir)
	runOK(t, cmd)
	files, _ := filepath.Glob(filepath.Join(dir, "shard-*.jsonl"))
	if len(files) != 4 {
		t.Fatalf("shard files %v", files)
	}
	merged := filepath.Join(dir, "merged.jsonl")
	if w, total, missing := mergeReport(t, merged, files...); w != 10 || total != 10 || missing != 0 {
		t.Fatalf("merge: %d of %d games, %d missing", w, total, missing)
	}
	if got := gameKeys(t, merged); !slices.Equal(got, want) {
		t.Errorf("merged shards:\n%s\none run:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// fakeSSH is an ssh for GNU parallel's --ssh: it drops ssh's options and
// the host and runs the command in the "remote" home directory, so that
// the --sshlogin recipe of docs/SCALE.md (bin/ shipped with --basefile,
// records fetched with --return, through rsync over this "ssh") runs here.
const fakeSSH = `#!/bin/bash
while [ $# -gt 0 ]; do
  case "$1" in
    -o|-p|-l|-S|-i|-F) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
shift
[ "${1:-}" = -- ] && shift
# sshd sets SHELL to the login shell; GNU parallel's remote worker runs the
# job with $SHELL, and without it the job is silently not run.
export SHELL=/bin/sh
cd "$FAKE_SSH_HOME/$(basename "$0")" || exit 255
exec bash -c "$*"
`

// TestShardsWithGNUParallelOverSSH runs the --sshlogin recipe of
// docs/SCALE.md on two "remote" nodes (a fake ssh; GNU parallel's own
// transfers through rsync): bin/ goes with the shards, their records come
// back, and kinrow merge joins them.
func TestShardsWithGNUParallelOverSSH(t *testing.T) {
	parallel, err := exec.LookPath("parallel")
	if err != nil {
		t.Skip("GNU parallel is not installed (Debian: apt-get install parallel; .ci/run installs it)")
	}
	if _, err := exec.LookPath("rsync"); err != nil {
		t.Skip("rsync is not installed: GNU parallel's --basefile and --return need it (Debian: apt-get install rsync; .ci/run installs it)")
	}
	want := wholeRun(t)
	dir := t.TempDir()
	local, homes := filepath.Join(dir, "local"), filepath.Join(dir, "homes")
	for _, d := range []string{filepath.Join(local, "bin"), filepath.Join(homes, "ssh-node1"), filepath.Join(homes, "ssh-node2")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// bin/ as docs/SCALE.md ships it: kinrow and the bots of the match.
	for _, f := range []string{"kinrow", "kinrow-bot-random"} {
		data, err := os.ReadFile(filepath.Join(binDir, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(local, "bin", f), data, 0o755)
	}
	// One ssh per node, named so that each node has its own home.
	for _, node := range []string{"ssh-node1", "ssh-node2"} {
		os.WriteFile(filepath.Join(dir, node), []byte(fakeSSH), 0o755)
	}
	var jobs []string
	for i := range 4 {
		jobs = append(jobs, strconv.Itoa(i))
	}
	match := "bin/kinrow " + strings.Join(shardArgs("shard-{}.jsonl", "--shard", "{}/4", "--log-level", "warn"), " ")
	args := append([]string{"--will-cite", "--halt", "now,fail=1",
		"--sshlogin", "2/" + filepath.Join(dir, "ssh-node1") + " node1," + "2/" + filepath.Join(dir, "ssh-node2") + " node2",
		"--workdir", "kinrow-run", "--basefile", "bin", "--return", "shard-{}.jsonl", "--cleanup",
		match, ":::"}, jobs...)
	cmd := exec.Command(parallel, args...)
	cmd.Dir = local
	cmd.Env = append(withoutSchedulerEnv(os.Environ()), "KINROW_BOT_PATH=", "HOME="+dir, "FAKE_SSH_HOME="+homes)
	runOK(t, cmd)
	var files []string
	for i := range 4 {
		f := filepath.Join(local, fmt.Sprintf("shard-%d.jsonl", i))
		if _, err := os.Stat(f); err != nil {
			t.Errorf("shard %d did not come back (--return): %v", i, err)
		}
		files = append(files, f)
	}
	for _, node := range []string{"ssh-node1", "ssh-node2"} {
		// The shards ran there, on the bin/ --basefile shipped.
		if _, err := os.Stat(filepath.Join(homes, node, "kinrow-run", "bin", "kinrow-bot-random")); err != nil {
			t.Errorf("bin/ was not shipped to %s: %v", node, err)
		}
		if left, _ := filepath.Glob(filepath.Join(homes, node, "kinrow-run", "shard-*.jsonl")); len(left) > 0 {
			t.Errorf("--cleanup left %v on %s", left, node)
		}
	}
	merged := filepath.Join(dir, "merged.jsonl")
	if w, total, missing := mergeReport(t, merged, files...); w != 10 || total != 10 || missing != 0 {
		t.Fatalf("merge: %d of %d games, %d missing", w, total, missing)
	}
	if got := gameKeys(t, merged); !slices.Equal(got, want) {
		t.Errorf("merged shards:\n%s\none run:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestShardAndMergeBadInput(t *testing.T) {
	dir := t.TempDir()
	shard0 := filepath.Join(dir, "shard-0.jsonl")
	runOK(t, kinrowCmd(t, shardArgs(shard0, "--shard", "0/2")...))
	other := filepath.Join(dir, "other.jsonl")
	runOK(t, kinrowCmd(t, shardArgs(other, "--shard", "1/2", "--seed", "6")...))
	notEmpty := filepath.Join(dir, "notes.txt")
	os.WriteFile(notEmpty, []byte("keep\n"), 0o644)
	out := filepath.Join(dir, "new.jsonl")
	tests := []struct {
		args []string
		env  []string
		want string
	}{
		{shardArgs(out, "--shard", "3/2"), nil, "--shard 3/2: the shard index runs from 0 to 1"},
		{shardArgs(out, "--shard", "x"), nil, `--shard "x": want I/N`},
		{shardArgs(out, "--shard", "0/0"), nil, "N must be from 1"},
		{shardArgs(out, "--shard", "auto"), nil, "no scheduler's shard index in the environment"},
		{shardArgs(out, "--shard", "auto"), []string{"SLURM_ARRAY_TASK_ID=4", "SLURM_ARRAY_TASK_COUNT=4"}, "--array=0-N"},
		{shardArgs(out, "--shard", "auto"), []string{"JOB_COMPLETION_INDEX=1"}, "JOB_COMPLETION_INDEX=1 is set but KINROW_SHARD_COUNT is not"},
		{shardArgs(out, "--shard", "0/2", "--sprt", "elo1=10"), nil, "--sprt with --shard"},
		{[]string{"match", "--bot", "random", "--bot", "random", "--shard", "0/2"}, nil, "--shard needs --out"},
		{shardArgs(shard0, "--shard", "1/2", "--resume"), nil, "is outside shard 1/2 of the schedule"},
		{shardArgs(shard0, "--resume", "--movetime", "400ms"), nil, "belongs to schedule"},
		{[]string{"merge", out}, nil, "give the output file and at least one record file"},
		{[]string{"merge", notEmpty, shard0}, nil, "never overwrites records"},
		{[]string{"merge", out, shard0, other}, nil, "other.jsonl:1: schedule "},
		{[]string{"merge", out, shard0, shard0}, nil, "shard-0.jsonl:1: duplicate game id: game id "}, // the same records twice: their ids
		{[]string{"merge", shard0, shard0}, nil, "is both the output and an input"},
		{[]string{"merge", out, notEmpty}, nil, "notes.txt:1: decode game record"},
	}
	files := map[string][]byte{}
	for _, f := range []string{shard0, other, notEmpty} {
		files[f], _ = os.ReadFile(f)
	}
	for _, tc := range tests {
		cmd := kinrowCmd(t, tc.args...)
		cmd.Env = append(withoutSchedulerEnv(cmd.Env), tc.env...)
		got, err := cmd.CombinedOutput()
		code := -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != 2 || !strings.Contains(string(got), tc.want) {
			t.Errorf("%v %v: exit %d, output %q; want exit 2 and %q", tc.args, tc.env, code, got, tc.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: %s was made", tc.args, out)
			os.Remove(out)
		}
	}
	for f, data := range files {
		if after, _ := os.ReadFile(f); string(after) != string(data) {
			t.Errorf("%s changed by a refused command", f)
		}
	}
	checkNoBotProcesses(t)
}
