package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/engine/record"
	"github.com/kinrow/kinrow/host/view"
)

// startView runs bin/kinrow view on a free loopback port and returns its
// base URL; the process is interrupted at cleanup.
func startView(t *testing.T, args ...string) (string, *strings.Builder) {
	t.Helper()
	return startViewArgs(t, append([]string{"--listen", "127.0.0.1:0"}, args...)...)
}

// startViewArgs is startView with the arguments as given (they must
// choose a loopback address).
func startViewArgs(t *testing.T, args ...string) (string, *strings.Builder) {
	t.Helper()
	cmd := kinrowCmd(t, append([]string{"view"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGINT)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("kinrow view after SIGINT: %v\n%s", err, stderr.String())
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Errorf("kinrow view did not stop on SIGINT")
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "kinrow view: http://127.0.0.1:") {
		t.Fatalf("kinrow view printed %q (%v)\n%s", line, err, stderr.String())
	}
	return strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(line), "kinrow view: "), "/"), &stderr
}

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	r, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r.StatusCode, string(b)
}

// kinrow view serves the records it can read, reports the others in the
// log and on the page, and refuses a port in use with a clear message.
func TestViewServesAndReportsBadInput(t *testing.T) {
	notRecords := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(notRecords, []byte("hello\n"), 0o644)
	recs, err := filepath.Abs(recordsFile)
	if err != nil {
		t.Fatal(err)
	}
	base, stderr := startView(t, "--allow-unsigned", recs, notRecords) // the test data predates signatures
	code, body := httpGet(t, base+"/api/games")
	if code != 200 || !strings.Contains(body, `"total":5`) || !strings.Contains(body, "notes.txt:1: not kinrow game records") {
		t.Errorf("GET /api/games: %d %s", code, body)
	}
	if !strings.Contains(stderr.String(), "notes.txt:1: not kinrow game records") {
		t.Errorf("the log does not name the bad file:\n%s", stderr.String())
	}
	if code, body := httpGet(t, base+"/"); code != 200 || !strings.Contains(body, "kinrow viewer") {
		t.Errorf("GET /: %d", code)
	}
	// The same port again: refused, saying why.
	cmd := kinrowCmd(t, "view", "--listen", strings.TrimPrefix(base, "http://"))
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "the port is in use") {
		t.Errorf("a second kinrow view on the same port: %v\n%s", err, out)
	}
	// Another address than loopback: a warning in the log.
	cmd = kinrowCmd(t, "view", "--listen", "0.0.0.0:0")
	se, _ := cmd.StderrPipe()
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	warn, _ := bufio.NewReader(se).ReadString('\n')
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	if !strings.Contains(warn, "[WARN]") || !strings.Contains(warn, "beyond this machine") {
		t.Errorf("--listen 0.0.0.0:0 logged %q, want a warning", warn)
	}
}

// view.StartLive (behind kinrow match --view) serves a hub's games as events.
func TestStartLiveView(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out strings.Builder
	hub, err := view.StartLive(ctx, "127.0.0.1:0", hclog.NewNullLogger(), &out)
	if err != nil {
		t.Fatal(err)
	}
	hub.GameStarted(view.GameInfo{ID: 1, Rules: engine.Connect4(), Players: record.Players{X: "a", O: "b"}})
	hub.Move(1, 3, 5, nil)
	url := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(out.String()), "kinrow: watch the match at "), "/")
	resp, err := http.Get(url + "/api/events")
	if err != nil {
		t.Fatalf("%v (printed %q)", err, out.String())
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	ev, _ := br.ReadString('\n')
	data, _ := br.ReadString('\n')
	if ev != "event: snapshot\n" || !strings.Contains(data, `"move":"4"`) || !strings.Contains(data, `"x":"a"`) {
		t.Errorf("first event %q %q", ev, data)
	}
	if _, err := view.StartLive(ctx, strings.TrimPrefix(url, "http://"), hclog.NewNullLogger(), io.Discard); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("a second viewer on the same port: %v", err)
	}
}

// kinrow view starts no bot: it takes --log-level and no bot flag.
func TestViewTakesNoBotFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"--grace", "1s"}, exitUsage},
		{[]string{"--bot-start-timeout", "1s"}, exitUsage},
		{[]string{"--bot-memory", "1G"}, exitUsage},
		{[]string{"--log-level", "bogus"}, exitUsage},
		{[]string{"--help"}, 0},
	} {
		var stdout, stderr strings.Builder
		code := run(append([]string{"view"}, tc.args...), strings.NewReader(""), &stdout, &stderr)
		if code != tc.code {
			t.Errorf("view %v: exit %d, want %d (stderr %q)", tc.args, code, tc.code, stderr.String())
		}
		if tc.args[0] == "--help" {
			if !strings.Contains(stdout.String(), "--log-level") || strings.Contains(stdout.String(), "--grace") || strings.Contains(stdout.String(), "--bot-") {
				t.Errorf("view --help lists %q; want --log-level and no bot flag", stdout.String())
			}
		}
	}
}
