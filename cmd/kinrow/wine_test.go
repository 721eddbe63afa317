//go:build linux

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWine runs the Windows brain, pbrain-kinrow.exe, under wine through a
// Gomocup session of one game with the Windows bots beside it (make
// test-wine builds them and sets KINROW_WINE to their directory).
func TestWine(t *testing.T) {
	dir := os.Getenv("KINROW_WINE")
	if dir == "" {
		t.Skip("opt-in: make test-wine")
	}
	wine := ""
	for _, w := range []string{"wine64", "/usr/lib/wine/wine64", "wine"} {
		if p, err := exec.LookPath(w); err == nil {
			wine = p
			break
		}
	}
	if wine == "" {
		t.Skip("no wine64 installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	env := append(os.Environ(), "WINEDEBUG=-all", "WINEPREFIX="+filepath.Join(t.TempDir(), "prefix"))
	stubbed := installStubDLL(ctx, t, wine, env, dir)
	cmd := exec.CommandContext(ctx, wine, filepath.Join(dir, "pbrain-kinrow.exe"), "--bot", "random")
	cmd.Dir = dir
	cmd.Env = env
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &syncWriter{w: &stderr}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- strings.TrimSpace(sc.Text())
		}
		close(lines)
	}()
	next := func() string {
		select {
		case l, ok := <-lines:
			if !ok {
				if strings.Contains(stderr.String(), "bcryptprimitives.dll not found") && !stubbed {
					t.Skipf("this wine cannot start a Go program: the Go runtime needs bcryptprimitives.dll (ProcessPrng), which %s lacks, and no stand-in was built (make test-wine builds one with x86_64-w64-mingw32-gcc):\n%s", wine, stderr.String())
				}
				t.Fatalf("the brain closed its output:\n%s", stderr.String())
			}
			return l
		case <-time.After(2 * time.Minute):
			t.Fatalf("no answer in 2 minutes:\n%s", stderr.String())
		}
		return ""
	}
	io.WriteString(in, "START 15\r\nINFO timeout_turn 2000\r\n")
	if l := next(); l != "OK" {
		t.Fatalf("START: %q", l)
	}
	io.WriteString(in, "BEGIN\r\n")
	// The controller answers with cells of a fixed shuffled order, and
	// the game stops (END) once a side has five in a row or after 20 of
	// the brain's moves.
	board := map[[2]int]int{} // cell → 1 (the brain), 2 (the controller)
	order := rand.New(rand.NewPCG(1, 2)).Perm(15 * 15)
	for moves := 0; moves < 20; moves++ {
		l := next()
		var x, y int
		if _, err := fmt.Sscanf(l, "%d,%d", &x, &y); err != nil || board[[2]int{x, y}] != 0 || x < 0 || x >= 15 || y < 0 || y >= 15 {
			t.Fatalf("move %d: %q", moves, l)
		}
		board[[2]int{x, y}] = 1
		if fiveAt(board, x, y) {
			t.Logf("the brain made five after %d moves", moves+1)
			break
		}
		for len(order) > 0 && board[[2]int{order[0] / 15, order[0] % 15}] != 0 {
			order = order[1:]
		}
		c := [2]int{order[0] / 15, order[0] % 15}
		board[c] = 2
		if fiveAt(board, c[0], c[1]) {
			t.Logf("the controller made five after %d moves", moves+1)
			break
		}
		io.WriteString(in, fmt.Sprintf("TURN %d,%d\r\n", c[0], c[1]))
	}
	io.WriteString(in, "END\r\n")
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("pbrain-kinrow.exe: %v\n%s", err, stderr.String())
	}
}

// fiveAt reports whether the stone at x,y has five or more in a row.
func fiveAt(board map[[2]int]int, x, y int) bool {
	who := board[[2]int{x, y}]
	for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
		n := 1
		for _, s := range []int{1, -1} {
			for i := 1; board[[2]int{x + s*i*d[0], y + s*i*d[1]}] == who; i++ {
				n++
			}
		}
		if n >= 5 {
			return true
		}
	}
	return false
}

// installStubDLL creates the wine prefix (wineboot) and, where this wine
// has no bcryptprimitives.dll of its own (wine before 9), copies the
// stand-in make test-wine built from testdata/wine/bcryptprimitives.c
// (dir/bcryptprimitives.dll) into its system32: Go's runtime loads
// ProcessPrng from there only. It reports whether it did.
func installStubDLL(ctx context.Context, t *testing.T, wine string, env []string, dir string) bool {
	t.Helper()
	boot := exec.CommandContext(ctx, wine, "wineboot", "-i")
	boot.Env = env
	if out, err := boot.CombinedOutput(); err != nil {
		t.Fatalf("wineboot -i: %v\n%s", err, out)
	}
	prefix := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "WINEPREFIX="); ok {
			prefix = v
		}
	}
	sys32 := filepath.Join(prefix, "drive_c", "windows", "system32")
	if _, err := os.Stat(filepath.Join(sys32, "bcryptprimitives.dll")); err == nil {
		t.Logf("this wine has its own bcryptprimitives.dll")
		return false
	}
	stub, err := os.ReadFile(filepath.Join(dir, "bcryptprimitives.dll"))
	if err != nil {
		t.Logf("no stand-in bcryptprimitives.dll: %v", err)
		return false
	}
	if err := os.WriteFile(filepath.Join(sys32, "bcryptprimitives.dll"), stub, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("installed the stand-in bcryptprimitives.dll (ProcessPrng over RtlGenRandom) in %s", sys32)
	return true
}
