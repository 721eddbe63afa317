package boxinit

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Main is the init when the process was started as one (os.Args is
// [Arg0, its configuration]): it builds the box and executes the bot, and
// never returns. Otherwise it returns at once.
func Main() {
	if len(os.Args) == 2 && os.Args[0] == Arg0 {
		run(os.Args[1])
	}
}

// run is the init: pid 1 of the box's pid namespace until it executes the
// bot.
func run(conf string) {
	// Thread-scoped state (the cgroup namespace, the capability bounding
	// set, no_new_privs, the parent-death signal) is set on this thread,
	// and this thread executes the bot.
	runtime.LockOSThread()
	status := os.NewFile(FDStatus, "status")
	fail := func(step string, err error) {
		fmt.Fprintf(status, "sandbox: %s: %v", step, err)
		os.Exit(126)
	}
	var c Config
	if err := json.Unmarshal([]byte(conf), &c); err != nil {
		fail("read the configuration", err)
	}
	// Wait until the host has placed this process in its cgroups.
	var one [1]byte
	if n, _ := os.NewFile(FDSync, "sync").Read(one[:]); n != 1 {
		os.Exit(125) // the host went away
	}
	if err := buildRoot(&c); err != nil {
		fail("build the root", err)
	}
	if err := maskKeys(); err != nil {
		fail("hide the kernel's key lists", err)
	}
	if !c.Net {
		if err := LoopbackUp(); err != nil {
			fail("bring up the loopback", err)
		}
	}
	_ = unix.Sethostname([]byte("kinrow-box"))
	if err := unix.Unshare(unix.CLONE_NEWCGROUP); err != nil {
		fail("new cgroup namespace", err)
	}
	// The program, opened while the init may still read what the host can.
	exePath, keepFD, err := openProgram(&c)
	if err != nil {
		fail("open "+c.Path, err)
	}
	if c.UserNS {
		if err := noUserNamespaces(); err != nil {
			fail("forbid user namespaces in the box", err)
		}
	}
	if err := dropPrivileges(&c); err != nil {
		fail("drop privileges", err)
	}
	if err := freshKeyring(); err != nil {
		fail("a session keyring of its own", err)
	}
	if !c.Exe && exePath != c.Path && unix.Access(c.Path, unix.X_OK) == nil {
		// The box user reaches it: run it by its path, so its command name
		// is its own, not a descriptor's number.
		exePath = c.Path
	}
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0, 0, 0); err != nil {
		fail("parent-death signal", err)
	}
	wd := c.WorkDir
	if wd == "" {
		wd = "/tmp"
	}
	if err := os.Chdir(wd); err != nil {
		fail("enter the working directory", err)
	}
	// The filter last: nothing the init does from here on (close_range,
	// fcntl F_SETFD, execve, and the Go runtime on this locked thread) is
	// a call it denies.
	if len(c.Filter) > 0 {
		if err := LoadFilter(c.Filter); err != nil {
			fail("load the seccomp filter", err)
		}
	}
	if c.Probe {
		fmt.Fprint(status, "ok")
		os.Exit(0)
	}
	// Every fd past the standard streams closes on exec: the sync and
	// status pipes, the verified executable (except a script's, which its
	// interpreter opens by /proc/self/fd), the Go runtime's own.
	if err := unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err != nil {
		fail("close the host's descriptors", err)
	}
	if keepFD >= 0 {
		if _, err := unix.FcntlInt(uintptr(keepFD), unix.F_SETFD, 0); err != nil {
			fail("keep the script open", err)
		}
	}
	err = unix.Exec(exePath, c.Args, boxEnv(os.Environ()))
	if errors.Is(err, unix.EACCES) && exePath == c.Path {
		err = fmt.Errorf("%w (the bot runs as uid %d outside: %s and the directories above it must be readable and searchable by others)", err, c.UID, c.Path)
	}
	fail("execute "+c.Path, err)
}

// boxEnv is the bot's environment: the host's choice, with $HOME and
// $TMPDIR its private /tmp.
func boxEnv(env []string) []string {
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		if strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "TMPDIR=") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "HOME=/tmp", "TMPDIR=/tmp")
}

// openProgram finds what to execute: an ELF file through a descriptor
// opened now (so the box user need not reach its path), the verified
// executable on fdExe, or a script by its path (by its descriptor when
// verified; keepFD is then that descriptor, left open for the
// interpreter).
func openProgram(c *Config) (path string, keepFD int, err error) {
	fd := FDExe
	if !c.Exe {
		fd, err = unix.Open(c.Path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return "", -1, err
		}
	}
	var magic [4]byte
	n, _ := unix.Pread(fd, magic[:], 0)
	elf := n == 4 && string(magic[:]) == "\x7fELF"
	switch {
	case elf:
		return "/proc/self/fd/" + strconv.Itoa(fd), -1, nil
	case c.Exe:
		return "/proc/self/fd/" + strconv.Itoa(fd), fd, nil
	}
	unix.Close(fd)
	return c.Path, -1, nil
}

// dropPrivileges makes the init the box user with no capabilities, none to
// be gained by executing, and no new privileges.
func dropPrivileges(c *Config) error {
	for cap := 0; cap <= 63; cap++ {
		err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(cap), 0, 0, 0)
		if errors.Is(err, unix.EINVAL) {
			break // past the kernel's last capability
		}
		if err != nil {
			return fmt.Errorf("drop capability %d from the bounding set: %w", cap, err)
		}
	}
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	id := c.Inside
	if c.Setgrp {
		if err := unix.Setgroups(nil); err != nil {
			return fmt.Errorf("setgroups: %w", err)
		}
	}
	if err := unix.Setresgid(id, id, id); err != nil {
		return fmt.Errorf("setresgid %d: %w", id, err)
	}
	if err := unix.Setresuid(id, id, id); err != nil {
		return fmt.Errorf("setresuid %d: %w", id, err)
	}
	// A root inside its user namespace keeps its capabilities there until
	// the execve, which grants none with the bounding set empty; clear
	// them now anyway.
	var none [2]unix.CapUserData
	if err := unix.Capset(&unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}, &none[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	return nil
}

// buildRoot makes the box's root: a tmpfs holding the system directories
// and the Read paths read-only, the Write paths writable, a small tmpfs of
// the bot's own at each Private path, its own /proc, a minimal /dev, a
// private /tmp; the host's root is detached.
func buildRoot(c *Config) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make the mounts private: %w", err)
	}
	base := "/tmp"
	if st, err := os.Stat(base); err != nil || !st.IsDir() {
		base = "/dev"
	}
	if err := unix.Mount("kinrow-box", base, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755,size=1m"); err != nil {
		return fmt.Errorf("mount the new root: %w", err)
	}
	old := filepath.Join(base, "oldroot")
	if err := os.Mkdir(old, 0o700); err != nil {
		return err
	}
	if err := unix.PivotRoot(base, old); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := os.Chdir("/"); err != nil {
		return err
	}
	const from = "/oldroot"
	for _, d := range SystemDirs() {
		st, err := os.Lstat(from + d)
		switch {
		case err != nil:
			continue
		case st.Mode()&os.ModeSymlink != 0:
			target, err := os.Readlink(from + d)
			if err != nil {
				return err
			}
			if err := os.Symlink(target, d); err != nil {
				return err
			}
		case st.IsDir():
			if err := bind(from+d, d, true); err != nil {
				return err
			}
		}
	}
	if err := os.Mkdir("/proc", 0o755); err != nil {
		return err
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc: %w", err)
	}
	if err := buildDev(from); err != nil {
		return err
	}
	if err := os.Mkdir("/tmp", 0o755); err != nil {
		return err
	}
	opts := fmt.Sprintf("mode=1777,size=%d", c.TmpSize)
	if err := unix.Mount("tmp", "/tmp", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("mount /tmp: %w", err)
	}
	type bound struct {
		path string
		ro   bool
	}
	var binds []bound
	for _, p := range c.Read {
		binds = append(binds, bound{p, true})
	}
	for _, p := range c.Write {
		binds = append(binds, bound{p, false})
	}
	// Parents before children.
	sort.SliceStable(binds, func(i, j int) bool { return len(binds[i].path) < len(binds[j].path) })
	for _, b := range binds {
		if err := bind(from+b.path, b.path, b.ro); err != nil {
			return err
		}
	}
	for _, p := range c.Private {
		if err := mountPrivate(p, c.Inside); err != nil {
			return err
		}
	}
	for _, l := range c.Links {
		if _, err := os.Lstat(l.Path); err == nil {
			continue // inside a bound directory already
		}
		if err := os.MkdirAll(filepath.Dir(l.Path), 0o755); err != nil {
			return fmt.Errorf("link %s: %w", l.Path, err)
		}
		if err := os.Symlink(l.Target, l.Path); err != nil {
			return fmt.Errorf("link %s: %w", l.Path, err)
		}
	}
	if err := unix.Unmount(from, unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detach the host's root: %w", err)
	}
	if err := os.Remove(from); err != nil {
		return err
	}
	if err := unix.Mount("", "/", "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
		return fmt.Errorf("make the root read-only: %w", err)
	}
	return nil
}

// mountPrivate mounts at path (made if missing, its parents the init's)
// a tmpfs of PrivateSize bytes and PrivateInodes files that only the bot
// (uid and gid id inside) can enter: what the bot writes there stays in
// the box's memory, bounded, and goes with the box.
func mountPrivate(path string, id int) error {
	if err := os.MkdirAll(path, 0o755); err != nil {
		return fmt.Errorf("private directory %s: %w", path, err)
	}
	opts := fmt.Sprintf("mode=0700,size=%d,nr_inodes=%d,uid=%d,gid=%d", PrivateSize, PrivateInodes, id, id)
	if err := unix.Mount("private", path, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, opts); err != nil {
		return fmt.Errorf("mount the private directory %s: %w", path, err)
	}
	return nil
}

// buildDev makes /dev: a tmpfs with the harmless devices bound from the
// host's, the usual links, and a /dev/shm.
func buildDev(from string) error {
	if err := os.Mkdir("/dev", 0o755); err != nil {
		return err
	}
	if err := unix.Mount("dev", "/dev", "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "mode=0755,size=64k"); err != nil {
		return fmt.Errorf("mount /dev: %w", err)
	}
	for _, n := range []string{"null", "zero", "full", "random", "urandom"} {
		if err := bind(from+"/dev/"+n, "/dev/"+n, false); err != nil {
			return err
		}
	}
	for link, target := range map[string]string{"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"} {
		if err := os.Symlink(target, "/dev/"+link); err != nil {
			return err
		}
	}
	if err := os.Mkdir("/dev/shm", 0o755); err != nil {
		return err
	}
	if err := unix.Mount("shm", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "mode=1777,size=64m"); err != nil {
		return fmt.Errorf("mount /dev/shm: %w", err)
	}
	return nil
}

// bind mounts src (a directory or a file) at dst, made if missing,
// read-only when ro (keeping the flags the kernel locks on it).
func bind(src, dst string, ro bool) error {
	st, err := os.Stat(src)
	if err != nil {
		return fmt.Errorf("bind %s: %w", strings.TrimPrefix(src, "/oldroot"), err)
	}
	if st.IsDir() {
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return fmt.Errorf("bind %s: %w", dst, err)
		}
	} else if _, err := os.Lstat(dst); err != nil {
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("bind %s: %w", dst, err)
		}
		f, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("bind %s: %w", dst, err)
		}
		f.Close()
	}
	if err := unix.Mount(src, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind %s: %w", dst, err)
	}
	if !ro {
		return nil
	}
	var fs unix.Statfs_t
	if err := unix.Statfs(dst, &fs); err != nil {
		return fmt.Errorf("bind %s: %w", dst, err)
	}
	flags := uintptr(unix.MS_REMOUNT | unix.MS_BIND | unix.MS_RDONLY | unix.MS_NOSUID | unix.MS_NODEV)
	for _, f := range []struct{ st, ms int64 }{
		{unix.ST_NOEXEC, unix.MS_NOEXEC}, {unix.ST_NOATIME, unix.MS_NOATIME},
		{unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME},
	} {
		if fs.Flags&f.st != 0 {
			flags |= uintptr(f.ms)
		}
	}
	if err := unix.Mount("", dst, "", flags, ""); err != nil {
		return fmt.Errorf("make %s read-only: %w", dst, err)
	}
	return nil
}

// LoopbackUp brings up lo in the calling thread's network namespace (the
// box's).
func LoopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}
