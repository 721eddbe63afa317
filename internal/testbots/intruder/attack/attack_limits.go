//go:build linux

package attack

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// The limits attacks (issue 35, "A judge's limits by default"):
//
//   - forks: starts sleeping children (sleep 3600.MARKER, marker= digits
//     naming them for the test that looks for them afterwards) until
//     count= of them run (default ForkBound) or a fork is refused; "got N
//     of COUNT sleeping children". Bounded, so harmless where nothing stops
//     it; a fork bomb is the same attack without the bound.
//   - fill: writes a file of count= MiB (default FillBound) in the first
//     directory of dir= (else $TMPDIR), SIGXFSZ ignored so a write past
//     the file size limit fails with EFBIG instead of killing the bot;
//     "got wrote N bytes of COUNT MiB"; the file is removed afterwards.

// ForkBound is how many children the forks attack starts by default.
const ForkBound = 2000

// FillBound is how many MiB the fill attack writes by default.
const FillBound = 300

// count is count= when a positive number, else def.
func (o Options) count(def int) int {
	if n, err := strconv.Atoi(o["count"]); err == nil && n > 0 {
		return n
	}
	return def
}

// SleepArg is the argument of the forks attack's children for marker:
// 3600.MARKER when marker is digits, else 3600.
func SleepArg(marker string) string {
	if marker != "" && strings.Trim(marker, "0123456789") == "" {
		return "3600." + marker
	}
	return "3600"
}

// forks: sleeping children up to count=.
func forks(o Options) (string, error) {
	n := o.count(ForkBound)
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		sleep = "/bin/sleep"
	}
	arg := SleepArg(o["marker"])
	got := 0
	var ferr error
	for got < n {
		// Never waited for: they are to outlive this call, and end with
		// the bot (killed with everything it started).
		cmd := exec.Command(sleep, arg)
		if ferr = cmd.Start(); ferr != nil {
			break
		}
		got++
	}
	if got == 0 {
		return "", fmt.Errorf("no child of %d: %w", n, ferr)
	}
	s := fmt.Sprintf("%d of %d sleeping children", got, n)
	if ferr != nil {
		s += " (then: " + oneLine(ferr) + ")"
	}
	return s, nil
}

// fill: one file of count= MiB.
func fill(o Options) (string, error) {
	mib := o.count(FillBound)
	dir, _, _ := strings.Cut(o["dir"], ",")
	if dir == "" {
		dir = os.TempDir()
	}
	signal.Ignore(syscall.SIGXFSZ)
	f, err := os.CreateTemp(dir, "intruder-fill-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	buf := make([]byte, 1<<20)
	var n int64
	var werr error
	for i := 0; i < mib && werr == nil; i++ {
		var w int
		w, werr = f.Write(buf)
		n += int64(w)
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if n == 0 {
		return "", fmt.Errorf("nothing written in %s: %w", filepath.Dir(f.Name()), werr)
	}
	s := fmt.Sprintf("wrote %d bytes of %d MiB in %s", n, mib, dir)
	if werr != nil {
		s += " (then: " + oneLine(werr) + ")"
	}
	return s, nil
}
