//go:build linux

package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
	cmd := exec.CommandContext(ctx, wine, filepath.Join(dir, "pbrain-kinrow.exe"), "--bot", "random")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "WINEDEBUG=-all", "WINEPREFIX="+filepath.Join(t.TempDir(), "prefix"))
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
				if strings.Contains(stderr.String(), "bcryptprimitives.dll not found") {
					t.Skipf("this wine cannot start a Go program: the Go runtime needs bcryptprimitives.dll (ProcessPrng), which %s lacks:\n%s", wine, stderr.String())
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
	taken := map[string]bool{}
	for moves := 0; moves < 20; moves++ {
		l := next()
		if !strings.Contains(l, ",") || taken[l] {
			t.Fatalf("move %d: %q", moves, l)
		}
		taken[l] = true
		for x := 0; x < 15; x++ { // the first free cell of row 0..14
			c := ""
			for y := 0; y < 15 && c == ""; y++ {
				if k := itoa(x) + "," + itoa(y); !taken[k] {
					c = k
				}
			}
			if c != "" {
				taken[c] = true
				io.WriteString(in, "TURN "+c+"\r\n")
				break
			}
		}
	}
	io.WriteString(in, "END\r\n")
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("pbrain-kinrow.exe: %v\n%s", err, stderr.String())
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
