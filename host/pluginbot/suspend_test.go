//go:build linux

package pluginbot

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kinrow/kinrow/engine"
	"github.com/kinrow/kinrow/host/procrun"
	"github.com/kinrow/kinrow/host/referee"
	"github.com/kinrow/kinrow/internal/testbuild"
)

// procCPU is the CPU time process pid has used (utime + stime in
// /proc/PID/stat); false once it is gone.
func procCPU(pid int) (time.Duration, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * (time.Second / 100), true
}

// TestSuspendPluginBot: the spinner starts a busy goroutine and a busy
// child at its genmove and answers at once. Suspended (--bot-suspend),
// neither uses CPU while its opponent thinks, and the next request wakes
// it; not suspended, its child keeps burning CPU after the answer.
func TestSuspendPluginBot(t *testing.T) {
	c := procrun.Detect()
	if !c.Freeze {
		t.Skipf("neither cgroup.freeze nor SIGSTOP of the bot's processes works here (%s: %s)", c.Kind, c.Why)
	}
	for _, suspend := range []bool{true, false} {
		t.Run("suspend="+strconv.FormatBool(suspend), func(t *testing.T) {
			// The spinner writes its child's pid (a host pid) for the test
			// to watch: outside the sandbox (a boxed child has a pid of its
			// own namespace, and no file of the host's to write).
			cont := Containment{Sandbox: procrun.SandboxOff}
			if suspend {
				cont.Suspend = []string{"spinner"}
			}
			l := loaderWith(t, loaderConfig{Containment: cont})
			ctx := context.Background()
			pidfile := filepath.Join(t.TempDir(), "child.pid")
			b, err := l.Start(ctx, "spinner", "spinner", map[string]string{"pidfile": pidfile})
			if err != nil {
				t.Fatal(err)
			}
			if err := b.NewGame(ctx, referee.Setup{Rules: engine.Connect4(), Color: engine.X}); err != nil {
				t.Fatal(err)
			}
			genmove := func() {
				t.Helper()
				callCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
				defer cancel()
				if _, err := b.GenMove(callCtx, referee.NewMoveRequest(engine.X, time.Now().Add(5*time.Second), 0, [2]time.Duration{})); err != nil {
					t.Fatalf("GenMove: %v", err)
				}
			}
			genmove()
			child := testbuild.ReadPid(t, pidfile)
			run := b.proc().proc()
			if !suspend {
				// The child burns CPU after the answer (bounded wait:
				// no timing assumption on a loaded machine).
				c0, _ := procCPU(child)
				for end := time.Now().Add(30 * time.Second); ; {
					c1, ok := procCPU(child)
					if !ok {
						t.Fatal("the busy child is gone")
					}
					if c1-c0 >= 200*time.Millisecond {
						break
					}
					if time.Now().After(end) {
						t.Fatalf("the busy child used only %v of CPU in 30 s: the test shows nothing", c1-c0)
					}
					time.Sleep(20 * time.Millisecond)
				}
				if run.Suspended() {
					t.Error("a bot without --bot-suspend was suspended")
				}
				return
			}
			// Suspended once idle, or idleWait later: the busy goroutine
			// never lets it be idle.
			for end := time.Now().Add(10 * time.Second); !run.Suspended(); time.Sleep(5 * time.Millisecond) {
				if time.Now().After(end) {
					t.Fatal("the bot was not suspended 10 s after its answer")
				}
			}
			time.Sleep(50 * time.Millisecond) // a freeze completes asynchronously
			f0 := b.Facts()
			bot0, okBot := f0.CPU, f0.CPUKnown
			child0, ok := procCPU(child)
			if !ok {
				t.Fatal("the busy child is gone")
			}
			time.Sleep(time.Second) // the opponent thinks
			bot1 := b.Facts().CPU
			child1, _ := procCPU(child)
			if d := child1 - child0; d > 30*time.Millisecond {
				t.Errorf("the suspended bot's busy child used %v of CPU in 1 s", d)
			}
			if d := bot1 - bot0; okBot && d > 30*time.Millisecond {
				t.Errorf("the suspended bot (with its child) used %v of CPU in 1 s", d)
			}
			t.Logf("while suspended for 1 s: bot %v (accounted: %v), child %v", bot1-bot0, okBot, child1-child0)
			// The opponent's move and the next genmove wake it.
			if err := b.Play(ctx, engine.Move(0)); err != nil {
				t.Fatal(err)
			}
			genmove()
			if _, ok := procCPU(child); !ok {
				t.Fatal("the busy child is gone")
			}
		})
	}
}
