package pluginbot

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"
)

func TestStdinIsDevNullAndOwnProcessGroup(t *testing.T) {
	l := newLoader(t)
	b, err := l.Start(context.Background(), "random", "random", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	pid := b.pid()
	target, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/0", pid))
	if err != nil || target != os.DevNull {
		t.Errorf("bot stdin is %q (%v), want %s", target, err, os.DevNull)
	}
	pgid, err := syscall.Getpgid(pid)
	if err != nil || pgid != pid {
		t.Errorf("bot process group %d (%v), want its own (%d)", pgid, err, pid)
	}
}

func TestKillOfAFrozenBotIsBounded(t *testing.T) {
	l := newLoader(t)
	b, err := l.Start(context.Background(), "random", "random", nil)
	if err != nil {
		t.Fatal(err)
	}
	pid := b.pid()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	b.Close() // graceful first: the frozen bot cannot answer, so it is killed
	if took := time.Since(start); took > closeTimeout+killTimeout {
		t.Errorf("Close of a frozen bot took %v", took)
	}
	deadline := time.Now().Add(2 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(pid) {
		t.Errorf("frozen bot %d still alive", pid)
	}
	if f := b.Facts(); !f.Exited || f.How != "killed by the host" {
		t.Errorf("Facts = %+v, want killed by the host", f)
	}
}
