package procrun

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// cgroupPrefix begins the name of every cgroup the host makes:
// kinrow-HOSTPID-ID.
const cgroupPrefix = "kinrow-"

// hierarchy is where the host can make cgroups.
type hierarchy struct {
	v2      string // the host's own cgroup on the unified mount ("" if none is writable)
	v1mem   string // the host's own v1 memory cgroup ("" if none is writable)
	v1pids  string // the host's own v1 pids cgroup ("" if none is writable)
	v1cpu   string // the host's own v1 cpu cgroup ("" if none is writable)
	reason  string // why v2 is not usable, when it is not
	memWhy  string // why no cgroup memory cap, when there is none
	pidsWhy string // why no cgroup tasks limit, when there is none
	cpuWhy  string // why no cgroup CPU quota, when there is none
}

// mountPoints reads /proc/self/mountinfo: the unified mount and the v1
// mount of each controller.
func mountPoints() (unified string, v1 map[string]string) {
	v1 = map[string]string{}
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", v1
	}
	for _, line := range strings.Split(string(b), "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		if !ok {
			continue
		}
		f, g := strings.Fields(pre), strings.Fields(post)
		if len(f) < 5 || len(g) < 3 {
			continue
		}
		switch g[0] {
		case "cgroup2":
			if unified == "" {
				unified = f[4]
			}
		case "cgroup":
			for _, o := range strings.Split(g[2], ",") {
				if _, seen := v1[o]; !seen {
					v1[o] = f[4]
				}
			}
		}
	}
	return unified, v1
}

// ownCgroups reads /proc/self/cgroup: the host's unified path and its v1
// path in each controller's hierarchy.
func ownCgroups() (unified string, ok2 bool, v1 map[string]string) {
	v1 = map[string]string{}
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", false, v1
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			unified, ok2 = parts[2], true
		}
		for _, c := range strings.Split(parts[1], ",") {
			if c != "" {
				v1[c] = parts[2]
			}
		}
	}
	return unified, ok2, v1
}

// findHierarchy finds where the host can make cgroups, trying to make (and
// remove) one in each place.
func findHierarchy() hierarchy {
	var h hierarchy
	umount, mounts := mountPoints()
	upath, ok2, own := ownCgroups()
	switch {
	case umount == "":
		h.reason = "no cgroup2 (unified) mount"
	case !ok2:
		h.reason = "the host is in no unified cgroup (/proc/self/cgroup)"
	default:
		dir := filepath.Join(umount, upath)
		if err := tryMkdir(dir, "cgroup.kill", "cgroup.freeze", "cpu.stat"); err != nil {
			h.reason = fmt.Sprintf("cannot make a cgroup in %s: %v", dir, err)
		} else {
			h.v2 = dir
		}
	}
	if h.v2 == "" {
		// Without a v2 cgroup the bot has no cgroup to hold it, and no v1
		// one is made for it either.
		h.memWhy, h.pidsWhy, h.cpuWhy = "no cgroup: "+h.reason, "no cgroup: "+h.reason, "no cgroup: "+h.reason
		return h
	}
	// Each controller the unified hierarchy does not give the bot's
	// cgroup is looked for on v1 (hybrid mode): a child of the host's own
	// cgroup there, which the bot joins as it starts.
	v1 := func(controller, file string) (dir, why string) {
		if controllerOn(h.v2, controller) {
			return "", ""
		}
		mount, path := mounts[controller], own[controller]
		if mount == "" || path == "" {
			return "", fmt.Sprintf("no %s controller in the unified hierarchy and no v1 %s mount", controller, controller)
		}
		dir = filepath.Join(mount, path)
		if err := tryMkdir(dir, file); err != nil {
			return "", fmt.Sprintf("cannot make a v1 %s cgroup in %s: %v", controller, dir, err)
		}
		return dir, ""
	}
	h.v1mem, h.memWhy = v1("memory", "memory.limit_in_bytes")
	h.v1pids, h.pidsWhy = v1("pids", "pids.max")
	h.v1cpu, h.cpuWhy = v1("cpu", "cpu.cfs_quota_us")
	return h
}

// tryMkdir makes a cgroup in dir, checks it has the files named, and
// removes it.
func tryMkdir(dir string, files ...string) error {
	probe := filepath.Join(dir, fmt.Sprintf("%s%d-probe%s", cgroupPrefix, os.Getpid(), newID()))
	if err := os.Mkdir(probe, 0o755); err != nil {
		return err
	}
	defer os.Remove(probe)
	for _, f := range files {
		if !exists(filepath.Join(probe, f)) {
			return fmt.Errorf("a cgroup made there has no %s (cgroup.kill needs Linux 5.14)", f)
		}
	}
	return nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// cgroup is a bot's container on cgroup v2 (with v1 memory, pids and
// cpu cgroups beside it in hybrid mode, each where its controller is not on
// v2).
type cgroup struct {
	dir    string   // the bot's v2 cgroup
	memDir string   // the bot's v1 memory cgroup, "" if none
	v1     []string // every v1 cgroup of the bot (memDir among them), joined at start
	fd     *os.File
	limit  int64
	placed bool // the leader went in at clone time
	// gone is set once the cgroups are removed; over and peak keep their
	// last word on memory.
	gone bool
	over bool
	hit  bool
	peak int64

	cpuMu   sync.Mutex
	cpuFile *os.File  // cpu.stat, open from the first cpu on
	cpuBuf  [512]byte // what cpu reads it into
}

// cpuPeriod is the period of a CPU quota (cpu.max, cpu.cfs_period_us), in
// microseconds: the kernel's default.
const cpuPeriod = 100000

// newCgroup makes the bot's cgroups under h.
func newCgroup(h hierarchy, cfg Config) (*cgroup, error) {
	name := fmt.Sprintf("%s%d-%s", cgroupPrefix, os.Getpid(), newID())
	c := &cgroup{dir: filepath.Join(h.v2, name), limit: cfg.Memory}
	if err := os.Mkdir(c.dir, 0o755); err != nil {
		return nil, fmt.Errorf("make the bot's cgroup: %w", err)
	}
	fail := func(what string, err error) (*cgroup, error) {
		c.release()
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if cfg.Memory > 0 {
		switch {
		case exists(filepath.Join(c.dir, "memory.max")):
			if err := writeFile(filepath.Join(c.dir, "memory.max"), strconv.FormatInt(cfg.Memory, 10)); err != nil {
				return fail("cap the bot's memory", err)
			}
			_ = writeFile(filepath.Join(c.dir, "memory.swap.max"), "0")
		case h.v1mem != "":
			dir, err := c.makeV1(h.v1mem, name)
			if err != nil {
				return fail("make the bot's memory cgroup", err)
			}
			c.memDir = dir
			if err := writeFile(filepath.Join(dir, "memory.limit_in_bytes"), strconv.FormatInt(cfg.Memory, 10)); err != nil {
				return fail("cap the bot's memory", err)
			}
			// Swap would let the bot past its cap; where swap accounting is off the file is absent.
			_ = writeFile(filepath.Join(dir, "memory.memsw.limit_in_bytes"), strconv.FormatInt(cfg.Memory, 10))
		}
	}
	if n := cfg.Limits.Pids; n > 0 {
		file := filepath.Join(c.dir, "pids.max")
		if !exists(file) && h.v1pids != "" {
			dir, err := c.makeV1(h.v1pids, name)
			if err != nil {
				return fail("make the bot's pids cgroup", err)
			}
			file = filepath.Join(dir, "pids.max")
		}
		if exists(file) {
			if err := writeFile(file, strconv.Itoa(n)); err != nil {
				return fail("limit the bot's tasks", err)
			}
		}
	}
	if q := cfg.Limits.CPUs; q > 0 {
		quota := strconv.FormatInt(max(int64(q*cpuPeriod), 1000), 10)
		switch {
		case exists(filepath.Join(c.dir, "cpu.max")):
			if err := writeFile(filepath.Join(c.dir, "cpu.max"), quota+" "+strconv.Itoa(cpuPeriod)); err != nil {
				return fail("set the bot's CPU quota", err)
			}
		case h.v1cpu != "":
			dir, err := c.makeV1(h.v1cpu, name)
			if err != nil {
				return fail("make the bot's cpu cgroup", err)
			}
			if err := writeFile(filepath.Join(dir, "cpu.cfs_period_us"), strconv.Itoa(cpuPeriod)); err != nil {
				return fail("set the bot's CPU quota", err)
			}
			if err := writeFile(filepath.Join(dir, "cpu.cfs_quota_us"), quota); err != nil {
				return fail("set the bot's CPU quota", err)
			}
		}
	}
	return c, nil
}

// makeV1 makes the bot's cgroup name under parent, a v1 hierarchy's
// cgroup of the host; the bot joins it as it starts.
func (c *cgroup) makeV1(parent, name string) (string, error) {
	dir := filepath.Join(parent, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", err
	}
	c.v1 = append(c.v1, dir)
	return dir, nil
}

func writeFile(path, s string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (c *cgroup) prepare(cmd *exec.Cmd) error {
	fd, err := os.Open(c.dir)
	if err != nil {
		return fmt.Errorf("open the bot's cgroup: %w", err)
	}
	c.fd = fd
	attr := sysAttr(cmd)
	attr.UseCgroupFD = true
	attr.CgroupFD = int(fd.Fd())
	c.placed = true
	return nil
}

func (c *cgroup) started(pid int) error {
	if c.fd != nil {
		c.fd.Close()
		c.fd = nil
	}
	if !c.placed {
		if err := writeFile(filepath.Join(c.dir, "cgroup.procs"), strconv.Itoa(pid)); err != nil {
			return fmt.Errorf("move the bot into its cgroup: %w", err)
		}
	}
	for _, dir := range c.v1 {
		// A v1 cgroup cannot be entered at clone time: the bot joins it as
		// it starts, before it has had time to fork (in the sandbox, before
		// its init is let go).
		if err := writeFile(filepath.Join(dir, "cgroup.procs"), strconv.Itoa(pid)); err != nil {
			return fmt.Errorf("move the bot into its cgroup %s: %w", dir, err)
		}
	}
	return nil
}

// suspend asks the kernel to freeze the cgroup; the freeze completes
// asynchronously (waitSuspended waits for it).
func (c *cgroup) suspend() error {
	return writeFile(filepath.Join(c.dir, "cgroup.freeze"), "1")
}

// waitSuspended waits (bounded) until the kernel says every process of
// the cgroup is frozen.
func (c *cgroup) waitSuspended() {
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		if eventsField(filepath.Join(c.dir, "cgroup.events"), "frozen") != 0 {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

func (c *cgroup) resume() error {
	return writeFile(filepath.Join(c.dir, "cgroup.freeze"), "0")
}

func (c *cgroup) kill() error {
	err := writeFile(filepath.Join(c.dir, "cgroup.kill"), "1")
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// cpu reads usage_usec of cpu.stat, kept open: the referee asks after
// every move, and a read is then one pread (an open of a cgroup file costs
// about 20 µs, ten times the read).
func (c *cgroup) cpu() (time.Duration, bool) {
	c.cpuMu.Lock()
	defer c.cpuMu.Unlock()
	if c.cpuFile == nil {
		if c.gone {
			return 0, false
		}
		f, err := os.Open(filepath.Join(c.dir, "cpu.stat"))
		if err != nil {
			return 0, false
		}
		c.cpuFile = f
	}
	n, _ := c.cpuFile.ReadAt(c.cpuBuf[:], 0)
	rest := c.cpuBuf[:n]
	for len(rest) > 0 {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if v, ok := bytes.CutPrefix(line, []byte("usage_usec ")); ok {
			var us int64
			for _, d := range v {
				if d < '0' || d > '9' {
					return 0, false
				}
				us = us*10 + int64(d-'0')
			}
			return time.Duration(us) * time.Microsecond, len(v) > 0
		}
	}
	return 0, false
}

func (c *cgroup) memory() (over, hit bool, peak int64) {
	if c.gone {
		return c.over, c.hit, c.peak
	}
	if c.memDir != "" {
		peak, _ = readInt(filepath.Join(c.memDir, "memory.max_usage_in_bytes"))
		oom, _ := keyedValue(filepath.Join(c.memDir, "memory.oom_control"), "oom_kill")
		fail, _ := readInt(filepath.Join(c.memDir, "memory.failcnt"))
		return oom > 0, oom > 0 || fail > 0, peak
	}
	if c.limit <= 0 {
		return false, false, 0
	}
	peak, _ = readInt(filepath.Join(c.dir, "memory.peak"))
	oom, _ := keyedValue(filepath.Join(c.dir, "memory.events"), "oom_kill")
	max, _ := keyedValue(filepath.Join(c.dir, "memory.events"), "max")
	return oom > 0, oom > 0 || max > 0, peak
}

func (c *cgroup) empty() bool {
	v, ok := keyedValue(filepath.Join(c.dir, "cgroup.events"), "populated")
	return !ok || v == 0
}

func (c *cgroup) release() {
	c.cpuMu.Lock()
	if c.cpuFile != nil {
		c.cpuFile.Close()
		c.cpuFile = nil
	}
	c.cpuMu.Unlock()
	if c.fd != nil {
		c.fd.Close()
		c.fd = nil
	}
	if !c.gone {
		c.over, c.hit, c.peak = c.memory()
		c.gone = true
	}
	kept := c.v1[:0]
	for _, dir := range c.v1 {
		if os.Remove(dir) != nil && exists(dir) {
			kept = append(kept, dir)
		}
	}
	c.v1 = kept
	if !slices.Contains(c.v1, c.memDir) {
		c.memDir = ""
	}
	_ = os.Remove(c.dir)
}

// eventsField reads a "key value" line of a cgroup file as a number.
func eventsField(path, key string) int64 {
	v, _ := keyedValue(path, key)
	return v
}

// keyedValue reads the number after key in a file of "key value" lines.
func keyedValue(path, key string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), " ")
		if ok && k == key {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

func readInt(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return n, err == nil
}

// RemoveStale removes the empty cgroups left by hosts that are gone (a
// host killed by SIGKILL cannot remove its own); it returns those removed.
func RemoveStale() []string {
	h := sharedHierarchy()
	var removed []string
	for _, parent := range []string{h.v2, h.v1mem, h.v1pids, h.v1cpu} {
		if parent == "" {
			continue
		}
		ents, err := os.ReadDir(parent)
		if err != nil {
			continue
		}
		for _, e := range ents {
			rest, ok := strings.CutPrefix(e.Name(), cgroupPrefix)
			if !ok || !e.IsDir() {
				continue
			}
			digits, _, _ := strings.Cut(rest, "-")
			pid, err := strconv.Atoi(digits)
			if err != nil || pid <= 0 || PIDAlive(pid) {
				continue
			}
			// Only an empty one: its bots died with their host (Pdeathsig);
			// one still populated may be another host's, in another PID
			// namespace sharing this hierarchy, and is left alone.
			dir := filepath.Join(parent, e.Name())
			if v, ok := keyedValue(filepath.Join(dir, "cgroup.events"), "populated"); ok && v != 0 {
				continue
			}
			if os.Remove(dir) == nil {
				removed = append(removed, dir)
			}
		}
	}
	return removed
}

// controllerOn reports whether the children of cgroup dir get controller
// name (it is in dir's cgroup.subtree_control).
func controllerOn(dir, name string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
	if err != nil {
		return false
	}
	for _, f := range strings.Fields(string(b)) {
		if f == name {
			return true
		}
	}
	return false
}

// Frozen reports whether process pid is in a frozen cgroup (what Suspend
// does where cgroups serve; a process stopped by a signal is not).
func Frozen(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil {
		return false
	}
	umount, _ := mountPoints()
	for _, line := range strings.Split(string(b), "\n") {
		if path, ok := strings.CutPrefix(line, "0::"); ok && umount != "" {
			return eventsField(filepath.Join(umount, path, "cgroup.events"), "frozen") == 1
		}
	}
	return false
}
