package procrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/kinrow/kinrow/host/procrun/boxinit"
	"github.com/kinrow/kinrow/host/procrun/boxinit/seccomp"
)

// The sandbox on Linux, drawn:
//
//	host (procrun.Start)                      box (kinrow-box or the host binary re-executed, then the bot)
//	─────────────────────                     ───────────────────────────────────────────────
//	clone: new user, pid, mount, net, ipc,
//	uts namespaces; uid 0 inside → box uid
//	outside; into the bot's cgroup      ──►   sandbox init (pid 1 of its pid namespace), waits on fd 3
//	places it in its v1 memory cgroup
//	writes one byte on fd 3             ──►   new root: tmpfs, system dirs read-only, Read/Write
//	                                          binds, own /proc, minimal /dev, private /tmp;
//	                                          pivot_root, old root detached, root read-only;
//	                                          lo up; new cgroup namespace; uid and gid 0 inside
//	                                          (the box uid outside); no capabilities, no new
//	                                          privileges, parent-death signal; every fd past 2
//	                                          close-on-exec
//	reads fd 4 to its end: empty is     ◄──   execve(bot) closes fd 4; an error is written there
//	started, text is why not
//
// When the host is root and the kernel refuses user namespaces, the box
// is made with the other namespaces and the init switches to the box uid
// itself (isolate's way). Where neither works the bot runs without a
// sandbox and Detect says why.

// BoxUIDBase is the first uid (and gid) outside the user namespace that
// boxes run as when the host is root: box uid = BoxUIDBase + (host pid mod
// 65536)·256 + (the host's bot count mod 256), so bots of one host, and of
// hosts running at once, run as different users.
const BoxUIDBase = 1 << 29

// boxInsideID is the bot's uid and gid inside its user namespace when the
// host is root (mapped to the box uid outside).
const boxInsideID = 1000

// boxLevel is how boxes are made on this machine.
type boxLevel int

const (
	boxNone   boxLevel = iota
	boxUserNS          // user namespace (unprivileged or root)
	boxRootNS          // root without user namespaces: namespaces + setuid
)

type boxProbe struct {
	level  boxLevel
	status SandboxStatus
}

// sandboxProbe starts one box in each way, once per process, and keeps
// the best that works: it is a fact about the machine, not state.
var sandboxProbe = sync.OnceValue(probeSandbox)

// boxCount numbers the bots a host starts (for their uids).
var boxCount atomic.Uint32

func probeSandbox() boxProbe {
	root := os.Geteuid() == 0
	errUser := runProbe(boxUserNS)
	if errUser == nil {
		st := SandboxStatus{Full: root, Parts: []string{"user namespace", "pid namespace", privateMounts, "network namespace", "ipc and uts namespaces", "cgroup namespace", "no capabilities"}}
		if root {
			st.Parts[0] = fmt.Sprintf("user namespace (box uids from %d)", BoxUIDBase)
		} else {
			st.Parts[0] = "user namespace (the host's own uid: it is not root)"
			st.Missing = append(st.Missing, "a uid of its own: the host is not root, so the bot keeps the host's uid outside its namespaces")
		}
		return boxProbe{level: boxUserNS, status: withKernel(st)}
	}
	if root {
		if errRoot := runProbe(boxRootNS); errRoot == nil {
			return boxProbe{level: boxRootNS, status: withKernel(SandboxStatus{Full: true, Parts: []string{
				fmt.Sprintf("box uids from %d (no user namespace: %v)", BoxUIDBase, errUser), "pid namespace", privateMounts,
				"network namespace", "ipc and uts namespaces", "cgroup namespace", "no capabilities"}})}
		}
	}
	return boxProbe{level: boxNone, status: SandboxStatus{Missing: []string{fmt.Sprintf("no sandbox: %v", errUser), hostSocketDir}}}
}

// privateMounts is the sandbox's part that holds a bot's writes: a
// read-only root, a private /tmp, and a plugin's socket directory on a
// tmpfs of its own (boxinit.PrivateSize).
const privateMounts = "mount namespace (read-only root, private /tmp, a plugin's sockets on a 1 MiB tmpfs of its own)"

// withKernel adds the init's kernel parts (seccomp filter, session
// keyring) to st; a missing one makes the sandbox partial.
func withKernel(st SandboxStatus) SandboxStatus {
	parts, missing := seccomp.KernelStatus()
	st.Parts = append(st.Parts, parts...)
	st.Missing = append(st.Missing, missing...)
	st.Full = st.Full && len(missing) == 0
	return st
}

// runProbe makes one box at level and reports whether it worked.
func runProbe(level boxLevel) error {
	cmd := &exec.Cmd{Path: "/bin/true", Args: []string{"true"}}
	b, err := newBox(cmd, Sandbox{Private: []string{"/tmp/kinrow-probe/private"}}, level, 0)
	if err != nil {
		return err
	}
	b.cfg.Probe = true
	if err := b.prepare(cmd); err != nil {
		b.close()
		return err
	}
	sysAttr(cmd)
	if err := cmd.Start(); err != nil {
		b.close()
		return err
	}
	b.startedChild()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = b.release(ctx)
	werr := cmd.Wait()
	if err == nil && werr != nil {
		err = fmt.Errorf("the probe box ended: %w", werr)
	}
	return err
}

// SandboxDetect says what the sandbox gives bots on this machine.
func SandboxDetect() SandboxStatus { return sandboxProbe().status }

// box is one bot's sandbox on the host's side.
type box struct {
	cfg      boxinit.Config
	level    boxLevel
	syncR    *os.File // the init's end
	syncW    *os.File
	statusR  *os.File
	statusW  *os.File // the init's end
	exe      *os.File // the verified executable (the caller's)
	released bool
}

// sandboxFor decides whether cmd runs in a box: nil when the sandbox is
// off or cannot be had (refused under SandboxRequire).
func sandboxFor(cmd *exec.Cmd, cfg Config) (*box, error) {
	sb := cfg.Sandbox
	if sb.Mode == SandboxOff {
		return nil, nil
	}
	p := sandboxProbe()
	if sb.Mode == SandboxRequire && !p.status.Full {
		return nil, fmt.Errorf("refused by --sandbox=require: the sandbox is %s", p.status)
	}
	if p.level == boxNone {
		return nil, nil
	}
	if sb.rootNS && os.Geteuid() == 0 {
		return newBox(cmd, sb, boxRootNS, cfg.Memory)
	}
	return newBox(cmd, sb, p.level, cfg.Memory)
}

// newBox makes the host's side of a box for cmd.
func newBox(cmd *exec.Cmd, sb Sandbox, level boxLevel, memory int64) (*box, error) {
	path := cmd.Path
	if !filepath.IsAbs(path) {
		base := cmd.Dir
		if base == "" {
			base, _ = os.Getwd()
		}
		path = filepath.Join(base, path)
	}
	args := cmd.Args
	if len(args) == 0 {
		args = []string{path}
	}
	view, err := sb.View(path, memory)
	if err != nil {
		return nil, err
	}
	if sb.Log != nil {
		sb.Log("box sees: " + view.String())
	}
	b := &box{level: level, exe: sb.Exe, cfg: boxinit.Config{
		Path: path, Args: args, Net: sb.Network, WorkDir: sb.WorkDir, Exe: sb.Exe != nil,
		UserNS: level == boxUserNS, Setgrp: os.Geteuid() == 0,
		Filter: seccomp.Compiled(),
	}}
	b.cfg.Read, b.cfg.Write, b.cfg.Private, b.cfg.Links, b.cfg.TmpSize = view.binds()
	switch {
	case os.Geteuid() != 0:
		b.cfg.UID = os.Getuid() // mapped to 0 inside
	case level == boxUserNS:
		b.cfg.UID = BoxUIDBase + (os.Getpid()%65536)*256 + int(boxCount.Add(1)%256)
		b.cfg.Inside = boxInsideID
	default:
		b.cfg.UID = BoxUIDBase + (os.Getpid()%65536)*256 + int(boxCount.Add(1)%256)
		b.cfg.Inside = b.cfg.UID
	}
	return b, nil
}

// prepare rewrites cmd to start the init, with the box's namespaces,
// pipes and identity; the Write paths become the box user's.
func (b *box) prepare(cmd *exec.Cmd) error {
	if len(cmd.ExtraFiles) > 0 {
		return errors.New("sandbox: the command already has extra files")
	}
	conf, err := json.Marshal(b.cfg)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	if b.syncR, b.syncW, err = os.Pipe(); err != nil {
		return fmt.Errorf("sandbox: pipe: %w", err)
	}
	if b.statusR, b.statusW, err = os.Pipe(); err != nil {
		return fmt.Errorf("sandbox: pipe: %w", err)
	}
	if os.Geteuid() == 0 {
		// The bot's pipes are the box user's, so it can reopen them by
		// /dev/stdout or /proc/self/fd/N as any program can its own.
		for _, s := range []any{cmd.Stdin, cmd.Stdout, cmd.Stderr} {
			if f, ok := s.(*os.File); ok {
				if st, err := f.Stat(); err == nil && st.Mode()&os.ModeNamedPipe != 0 {
					if err := f.Chown(b.cfg.UID, b.cfg.UID); err != nil {
						return fmt.Errorf("sandbox: give the bot's pipe to the box user: %w", err)
					}
				}
			}
		}
		for _, w := range b.cfg.Write {
			if err := os.Lchown(w, b.cfg.UID, b.cfg.UID); err != nil {
				return fmt.Errorf("sandbox: give %s to the box user: %w", w, err)
			}
		}
	}
	cmd.Path = initPath()
	cmd.Args = []string{boxinit.Arg0, string(conf)}
	cmd.Dir = ""
	cmd.ExtraFiles = []*os.File{b.syncR, b.statusW}
	if b.exe != nil {
		cmd.ExtraFiles = append(cmd.ExtraFiles, b.exe)
	}
	attr := sysAttr(cmd)
	attr.Cloneflags |= syscall.CLONE_NEWPID | syscall.CLONE_NEWNS | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
	if !b.cfg.Net {
		attr.Cloneflags |= syscall.CLONE_NEWNET
	}
	if b.level == boxUserNS {
		// The init stays uid 0 inside, so it keeps its capabilities in the
		// namespace across its own execve. A root host maps its own root
		// (the init reaches the paths it binds as their owner) and the box
		// uid, which the init becomes before it executes the bot; a host
		// that is not root can map only itself.
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		if os.Geteuid() == 0 {
			attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1}, {ContainerID: boxInsideID, HostID: b.cfg.UID, Size: 1}}
			attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1}, {ContainerID: boxInsideID, HostID: b.cfg.UID, Size: 1}}
			attr.GidMappingsEnableSetgroups = true
		} else {
			attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
			attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
		}
	}
	return nil
}

// initPath is the box's first program: $KINROW_BOX, or kinrow-box beside
// the host's executable (a small binary that starts in about a
// millisecond), else the host's own binary, re-executed (its package inits
// cost several).
var initPath = sync.OnceValue(func() string {
	if p := os.Getenv(BoxEnv); p != "" {
		return p
	}
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			box := filepath.Join(filepath.Dir(exe), "kinrow-box")
			if st, err := os.Stat(box); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
				return box
			}
		}
	}
	return "/proc/self/exe"
})

// startedChild closes the init's ends of the pipes in the host.
func (b *box) startedChild() {
	b.syncR.Close()
	b.statusW.Close()
}

// release lets the init go on (it is in its cgroups now) and waits until
// it has started the bot or said why it could not.
func (b *box) release(ctx context.Context) error {
	b.released = true
	defer b.statusR.Close()
	_, werr := b.syncW.Write([]byte{1})
	b.syncW.Close()
	if werr != nil {
		return fmt.Errorf("sandbox: the init is gone: %w", werr)
	}
	dl, ok := ctx.Deadline()
	if !ok {
		dl = time.Now().Add(10 * time.Second)
	}
	_ = b.statusR.SetReadDeadline(dl)
	msg, err := io.ReadAll(io.LimitReader(b.statusR, 4096))
	if err != nil {
		return fmt.Errorf("sandbox: no word from the init: %w", err)
	}
	s := strings.TrimSpace(string(msg))
	switch {
	case s == "" && !b.cfg.Probe:
		return nil
	case s == "ok" && b.cfg.Probe:
		return nil
	case s == "":
		return errors.New("sandbox: the probe ended without a word")
	}
	return errors.New(s)
}

// close frees what release did not.
func (b *box) close() {
	for _, f := range []*os.File{b.syncR, b.syncW, b.statusR, b.statusW} {
		if f != nil {
			f.Close()
		}
	}
}

// ownUID reports whether the box runs the bot as a uid of its own (the
// host is root), so a limit counted per uid (RLIMIT_NPROC) counts this bot
// only.
func (b *box) ownUID() bool { return b.cfg.UID != os.Getuid() }
