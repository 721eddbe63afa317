package procrun

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 35: a Read path that is a link to / (absolute, or relative as
// ../..) bound the host's root into the box, and a directory holding the
// records being written showed them to the bot. Start refuses such a box,
// naming the path, before any process of the bot runs; a box with the
// bot's own paths starts and its "box sees" line is logged.
func TestSandboxRefusesWideBinds(t *testing.T) {
	needBox(t)
	dir, records := boxPathsDir(t)
	for _, tc := range []struct {
		name string
		sb   Sandbox
		want string
	}{
		{"link to /", Sandbox{Read: []string{filepath.Join(dir, "root")}}, `"` + filepath.Join(dir, "root") + `" resolves to /, refused: it is the host's whole file system`},
		{"relative link to /", Sandbox{Read: []string{filepath.Join(dir, "up")}}, "resolves to /, refused"},
		{"the host's /proc", Sandbox{Read: []string{filepath.Join(dir, "proc")}}, "the host's /proc"},
		{"a home", Sandbox{Read: []string{filepath.Join(dir, "homelink")}}, "a home directory"},
		{"the records' directory", Sandbox{Read: []string{filepath.Join(dir, "out")}, Deny: []string{records}}, "the records of this run"},
		{"a writable home", Sandbox{Write: []string{filepath.Join(dir, "home")}}, "write path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("/bin/sh", "-c", "cat "+records+"; ls /proc /sys")
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			p, err := Start(ctx, cmd, Config{Name: "wide", Sandbox: tc.sb})
			if err == nil {
				p.Kill()
				t.Fatalf("Start with %+v: started, want refused", tc.sb)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Start: %v, want %q", err, tc.want)
			}
		})
	}
	var seen []string
	sb := Sandbox{Read: []string{filepath.Join(dir, "bot")}, Deny: []string{records},
		Log: func(msg string, _ ...any) { seen = append(seen, msg) }}
	out := runBoxed(t, "ls "+filepath.Join(dir, "bot")+"; cat "+records+" 2>&1 || true", sb, nil)
	if !strings.Contains(out, "weights") || strings.Contains(out, "{}") {
		t.Errorf("the box's own directory or the records: %q", out)
	}
	if len(seen) != 1 || !strings.HasPrefix(seen[0], "box sees: ") || !strings.Contains(seen[0], filepath.Join(dir, "bot")+"  read-only") {
		t.Errorf("logged %q, want one box sees line naming %s", seen, filepath.Join(dir, "bot"))
	}
}
