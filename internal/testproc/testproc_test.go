package testproc

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

func TestStates(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc here")
	}
	if !Alive(os.Getpid()) || State(os.Getpid()) != "R" {
		t.Errorf("the test process: alive %v, state %q; want alive, R", Alive(os.Getpid()), State(os.Getpid()))
	}
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	pid := cmd.Process.Pid
	// Not yet waited for: once it ends it is a zombie, until Wait reaps it.
	for end := time.Now().Add(30 * time.Second); State(pid) != "Z"; {
		if time.Now().After(end) {
			t.Fatalf("true (pid %d) still %q after 30 s", pid, State(pid))
		}
	}
	if Alive(pid) {
		t.Errorf("a zombie reads as alive")
	}
	cmd.Wait()
	if State(pid) != "" || Alive(pid) {
		t.Errorf("a reaped process: state %q, alive %v; want gone", State(pid), Alive(pid))
	}
}
