package pluginbot

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/procrun"
	"github.com/kinrow/kinrow/host/procrun/boxinit"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/internal/testbots/intruder/attack"
)

func init() { testBots = append(testBots, "intruder") }

// diskReport is the disk attack's report: "intruder: disk: got N bytes
// into DIR...".
var diskReport = regexp.MustCompile(`intruder: disk: got (\d+) bytes into (\S+?)[,"\s]`)

// Issue 35: a plugin bot's socket directory was the host's, bound writable
// into its box, its one writable host path, on the host's disk with no
// quota (a bot wrote 1,500 MiB there). Under the sandbox the bot now gets
// a tmpfs of its own at that path instead: the intruder's disk attack
// (DiskBytes into its socket directory) gets at most the tmpfs's size,
// nothing lands in the host's directory, and the bot still plays (its
// sockets are reached through its root). With --sandbox=off (the control,
// the host before) the attack fills the host's directory.
func TestSocketDirIsPrivate(t *testing.T) {
	for _, mode := range sandboxModes {
		t.Run("sandbox="+mode.String(), func(t *testing.T) {
			if st := procrun.SandboxDetect(); mode != procrun.SandboxOff && len(st.Parts) == 0 {
				t.Skipf("no sandbox here: %s", st)
			}
			logs := &logBuffer{}
			l := loaderWith(t, loaderConfig{Containment: Containment{Sandbox: mode},
				Logger: hclog.New(&hclog.LoggerOptions{Output: logs, Level: hclog.Debug})})
			b := startBot(t, l, "intruder", map[string]string{"attack": "disk"})
			g := connect4(t, referee.Clock{MoveTime: 20 * time.Second}, b, nil)
			out, err := g.GenMove(context.Background(), engine.X)
			if err != nil || !out.Played {
				t.Fatalf("the intruder did not play: %+v, %v", out, err)
			}
			var m []string
			for end := time.Now().Add(10 * time.Second); m == nil && time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
				logs.mu.Lock()
				m = diskReport.FindStringSubmatch(logs.buf.String())
				logs.mu.Unlock()
			}
			if m == nil {
				t.Fatalf("no report of the disk attack in the log:\n%s", logs.buf.String())
			}
			wrote, _ := strconv.Atoi(m[1])
			hostDir := b.proc().socketDir
			if m[2] != hostDir {
				t.Errorf("the bot wrote into %s, its socket directory is %s", m[2], hostDir)
			}
			ents, err := os.ReadDir(hostDir)
			if err != nil {
				t.Fatal(err)
			}
			onHost := int64(0)
			for _, e := range ents {
				if st, err := os.Lstat(filepath.Join(hostDir, e.Name())); err == nil {
					onHost += st.Size()
				}
			}
			t.Logf("the bot wrote %d bytes into %s; the host's directory holds %d entries, %d bytes", wrote, m[2], len(ents), onHost)
			if mode == procrun.SandboxOff {
				if wrote != attack.DiskBytes || onHost != attack.DiskBytes {
					t.Errorf("with --sandbox=off the attack should fill the host's directory (the control): wrote %d, on the host %d, want %d",
						wrote, onHost, attack.DiskBytes)
				}
				return
			}
			if wrote > boxinit.PrivateSize {
				t.Errorf("under the sandbox the bot wrote %d bytes into its socket directory, over its tmpfs of %d", wrote, boxinit.PrivateSize)
			}
			if len(ents) != 0 {
				names := make([]string, len(ents))
				for i, e := range ents {
					names[i] = e.Name()
				}
				t.Errorf("the host's socket directory %s holds %s under the sandbox, want nothing", hostDir, strings.Join(names, ", "))
			}
		})
	}
}
