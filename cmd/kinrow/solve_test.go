package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// firstLines returns up to n lines of a shared Connect-4 set, or skips.
func firstLines(t *testing.T, name string, n int) []string {
	t.Helper()
	f, err := os.Open("../../../shared/testdata/connect4/" + name)
	if err != nil {
		t.Skipf("shared set %s absent: %v", name, err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(lines) < n {
		lines = append(lines, sc.Text())
	}
	return lines
}

// TestSolveAgainstSharedSets runs kinrow solve through the plugin on the
// first lines of each set: scores, and with --analyze every field, exact.
func TestSolveAgainstSharedSets(t *testing.T) {
	for _, tc := range []struct {
		set     string
		n       int
		analyze bool
		jobs    string
	}{
		{"Test_L3_R1.txt", 100, true, "1"},
		{"Test_L2_R1.txt", 100, true, "1"},
		{"Test_L1_R1.txt", 5, false, "1"},
		{"Test_L2_R1.txt", 60, true, "3"}, // three processes, answers still in input order
		{"Test_L1_R1.txt", 8, false, "2"},
	} {
		lines := firstLines(t, tc.set, tc.n)
		args := []string{"solve", "--bot", "alphabeta", "--jobs", tc.jobs}
		if tc.analyze {
			args = append(args, "--analyze")
		}
		cmd := kinrowCmd(t, args...)
		cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n448 bad\n")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", tc.set, err)
		}
		got := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
		if len(got) != len(lines)+1 {
			t.Fatalf("%s: %d answers to %d lines", tc.set, len(got), len(lines)+1)
		}
		for i, l := range lines {
			want := l
			if !tc.analyze {
				want = strings.Join(strings.Fields(l)[:2], " ")
			}
			if got[i] != want {
				t.Errorf("%s line %d: %q, want %q", tc.set, i+1, got[i], want)
			}
		}
		if g := got[len(lines)]; !strings.HasPrefix(g, "448 ? ") {
			t.Errorf("bad line: %q, want 448 ? reason", g)
		}
	}
	checkNoBotProcesses(t)
}

// TestSolveJobsBadValue: --jobs outside 1..64 is refused with what is
// accepted, before any bot starts.
func TestSolveJobsBadValue(t *testing.T) {
	for _, v := range []string{"0", "-1", "65", "two"} {
		cmd := kinrowCmd(t, "solve", "--jobs", v)
		cmd.Stdin = strings.NewReader("4455\n")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		if code := cmd.ProcessState.ExitCode(); err == nil || code != exitUsage {
			t.Errorf("--jobs %s: exit %d (%v), want %d", v, code, err, exitUsage)
		}
		if !strings.Contains(stderr.String(), "-jobs") {
			t.Errorf("--jobs %s: stderr %q does not name the flag", v, stderr.String())
		}
	}
}

// TestSolveBotOptions: --bot-opt reaches the solver (a table size), and a
// bad option answers every line with the reason, naming what is accepted.
func TestSolveBotOptions(t *testing.T) {
	for _, tc := range []struct {
		opt  string
		want string
	}{
		{"tt=8", "4455 18"},
		{"tt=0", "4455 ? option tt=0 out of range 1..4096"},
		{"size=3", "4455 ? unknown option size: accepted are tt, threads, branching, book"},
		{"threads=2", "4455 18"},
	} {
		cmd := kinrowCmd(t, "solve", "--bot", "alphabeta", "--bot-opt", tc.opt)
		cmd.Stdin = strings.NewReader("4455\n")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("--bot-opt %s: %v", tc.opt, err)
		}
		if got := strings.TrimSpace(string(out)); got != tc.want {
			t.Errorf("--bot-opt %s: %q, want %q", tc.opt, got, tc.want)
		}
	}
}

// TestSolveThreads: --threads 2 gives every position of a shared set the
// file's score, and a bad count is refused naming what is accepted.
func TestSolveThreads(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "testdata", "connect4", "Test_L2_R1.txt"))
	if err != nil {
		t.Skipf("no shared Connect-4 set: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")[:100]
	var in, want strings.Builder
	for _, l := range lines {
		f := strings.Fields(l)
		fmt.Fprintln(&in, f[0])
		fmt.Fprintln(&want, f[0], f[1])
	}
	cmd := kinrowCmd(t, "solve", "--threads", "2")
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != want.String() {
		t.Errorf("--threads 2: answers differ from the file:\n%s", out)
	}
	cmd = kinrowCmd(t, "solve", "--threads", "65")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil || !strings.Contains(stderr.String(), "--threads 65: want 1 to 64") {
		t.Errorf("--threads 65: %v, %q", err, stderr.String())
	}
}

// TestSolveTimeoutIsUnknown: a position not solved within --timeout is
// reported unknown, never given a value, and the run goes on.
func TestSolveTimeoutIsUnknown(t *testing.T) {
	cmd := kinrowCmd(t, "solve", "--rules", "connectx:8x8x4", "--timeout", "300ms")
	cmd.Stdin = strings.NewReader("1\n121212\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || lines[0] != "1 ? unknown: not solved within the time limit" {
		t.Fatalf("got %q; want the first line unknown", lines)
	}
	// 121212: the side to move wins at once with its 4th stone in column
	// 1, scored floor((64+1)/2) + 1 - 4 = 29.
	if lines[1] != "121212 29" {
		t.Errorf("second line %q, want the immediate win scored 29", lines[1])
	}
}

// TestSolveStats: --stats ends the run with its figures on stderr (bad
// lines are not positions; one not solved within --timeout is, unsolved);
// stdout is unchanged.
func TestSolveStats(t *testing.T) {
	cmd := kinrowCmd(t, "solve", "--stats", "--timeout", "200ms")
	cmd.Stdin = strings.NewReader("4455\n448 bad\n5554224333234511764415115\n4\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(out), "\n"); n != 4 {
		t.Errorf("%d answers, want 4:\n%s", n, out)
	}
	if !regexp.MustCompile(`kinrow solve: 3 positions \(2 solved\) in [0-9.]+ s: [0-9]+ positions/s, [0-9.]+ ms and [0-9]+ nodes per position`).MatchString(stderr.String()) {
		t.Errorf("stderr lacks the figures:\n%s", stderr.String())
	}
}

// TestSolveAnswersATypedLineAtOnce: with stdin left open, each line is
// answered before the next is written (a position typed by hand, or a
// program asking one position at a time, never waits for a batch to fill).
func TestSolveAnswersATypedLineAtOnce(t *testing.T) {
	cmd := kinrowCmd(t, "solve")
	in, outPipe := startPiped(t, cmd)
	defer cmd.Wait()
	defer in.Close()
	answers := make(chan string)
	go func() {
		sc := bufio.NewScanner(outPipe)
		for sc.Scan() {
			answers <- sc.Text()
		}
		close(answers)
	}()
	first := struct{ line, want string }{"4455", "4455 "}
	if f, err := os.ReadFile("../../../shared/testdata/connect4/Test_L3_R1.txt"); err == nil {
		fields := strings.Fields(string(f)) // MOVES SCORE S1 … S7
		first.line, first.want = fields[0], fields[0]+" "+fields[1]
	}
	for _, tc := range []struct{ line, want string }{
		first,
		{"448 bad", "448 ? "},
		{"4444444", "4444444 ? "},
	} {
		if _, err := io.WriteString(in, tc.line+"\n"); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-answers:
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("%q: answered %q, want %q…", tc.line, got, tc.want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%q: no answer while stdin stays open", tc.line)
		}
	}
}

// TestSolveSurvivesALongLine: a line of 2 MiB is answered as a bad line
// and the run goes on (before, kinrow solve stopped with exit 1 at it).
func TestSolveSurvivesALongLine(t *testing.T) {
	cmd := kinrowCmd(t, "solve")
	cmd.Stdin = strings.NewReader("4455\n" + strings.Repeat("4", 2<<20) + "\n44\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	got := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(got) != 3 || !regexp.MustCompile(`^4455 -?\d+$`).MatchString(got[0]) ||
		!strings.Contains(got[1], " ? line 2 is longer than") || !regexp.MustCompile(`^44 -?\d+$`).MatchString(got[2]) {
		t.Errorf("answers %.300q, want 4455's score, line 2 refused, 44's score", got)
	}
}
