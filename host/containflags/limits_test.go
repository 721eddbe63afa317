package containflags

import (
	"strings"
	"testing"

	"github.com/kinrow/kinrow/host/procrun"
)

// The limit flags read a value or none, and refuse the rest saying what is
// accepted; the zero value (the flag not given) leaves the default.
func TestLimitFlags(t *testing.T) {
	for _, tc := range []struct {
		flag, in string
		want     int64 // the limit with a default of 7 (0: none)
		err      string
	}{
		{"pids", "64", 64, ""},
		{"pids", "none", 0, ""},
		{"pids", "", 0, "positive number of tasks"},
		{"pids", "0", 0, "positive number of tasks"},
		{"pids", "-5", 0, "or none"},
		{"pids", "lots", 0, "positive number of tasks"},
		{"size", "1GiB", 1 << 30, ""},
		{"size", "None", 0, ""},
		{"size", "0", 0, "or none"},
		{"size", "-1M", 0, "must be more than 0"},
		{"cpus", "0.5", 0, ""},
		{"cpus", "none", 0, ""},
		{"cpus", "0", 0, "CPUs from 0.01 to 1024"},
		{"cpus", "NaN", 0, "CPUs from 0.01 to 1024"},
		{"cpus", "-1", 0, "CPUs from 0.01 to 1024"},
	} {
		var err error
		var got int64
		switch tc.flag {
		case "pids":
			var p Pids
			if p.Limit(7) != 7 {
				t.Errorf("unset --bot-pids: %d, want the default", p.Limit(7))
			}
			err = p.Set(tc.in)
			got = int64(p.Limit(7))
		case "size":
			var s Size
			if s.Bytes(7) != 7 {
				t.Errorf("unset size: %d, want the default", s.Bytes(7))
			}
			err = s.Set(tc.in)
			got = s.Bytes(7)
		case "cpus":
			var c CPUs
			err = c.Set(tc.in)
			if tc.in == "0.5" && float64(c) != 0.5 {
				t.Errorf("--bot-cpus 0.5: %v", c)
			}
		}
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s %q: error %v, want one saying %q", tc.flag, tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s %q: %v", tc.flag, tc.in, err)
		case got != tc.want && tc.flag != "cpus":
			t.Errorf("%s %q: %d, want %d", tc.flag, tc.in, got, tc.want)
		}
	}
}

// FuzzLimitFlags: whatever the text, --bot-pids, --bot-memory and
// --bot-cpus either refuse it or hold a limit that is none or positive.
func FuzzLimitFlags(f *testing.F) {
	for _, s := range []string{"64", "none", "0", "-1", "0.5", "1GiB", "NaN", "1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		var p Pids
		if p.Set(v) == nil && p.Limit(procrun.DefaultPids) < 0 {
			t.Fatalf("--bot-pids %q: limit %d", v, p.Limit(procrun.DefaultPids))
		}
		var s Size
		if s.Set(v) == nil && s.Bytes(procrun.DefaultMemory) < 0 {
			t.Fatalf("--bot-memory %q: %d bytes", v, s.Bytes(procrun.DefaultMemory))
		}
		var c CPUs
		if c.Set(v) == nil && !(c == 0 || c >= 0.01 && c <= 1024) {
			t.Fatalf("--bot-cpus %q: %v", v, c)
		}
	})
}

// Every limit says whether it is in force and by what, on each kind of
// machine; --sandbox=require refuses where a default one is not, naming
// it.
func TestLimitsInForce(t *testing.T) {
	cgroupV1 := procrun.Containment{Kind: "cgroup v2", Freeze: true, KillAll: true, CPU: true,
		Memory: "cgroup v1 memory (/m)", Tasks: "cgroup v1 pids (/p)", FileSize: "RLIMIT_FSIZE", CPUQuota: "cgroup v1 cpu (/c)"}
	noCgroup := procrun.Containment{Kind: "process group + child subreaper", Freeze: true, KillAll: true, CPU: true,
		Memory: "RLIMIT_AS", FileSize: "RLIMIT_FSIZE"}
	macOS := procrun.Containment{Kind: "process group"}
	full := procrun.SandboxStatus{Full: true, Parts: []string{"pid namespace", "seccomp filter", "own session keyring"}}
	noFilter := procrun.SandboxStatus{Parts: []string{"pid namespace", "own session keyring"}, Missing: []string{"seccomp filter: the kernel refused it"}}
	def := Settings{Memory: procrun.DefaultMemory, Limits: procrun.DefaultLimits(), Suspend: true}
	noMemDefault := def
	noMemDefault.Memory = 0
	quota := noMemDefault
	quota.Limits.CPUs = 0.5
	for _, tc := range []struct {
		name    string
		s       Settings
		c       procrun.Containment
		sb      procrun.SandboxStatus
		want    map[string]string // limit name → what its line says
		refused []string          // what --sandbox=require names
	}{
		{"cgroup v1, root", def, cgroupV1, full, map[string]string{
			"tasks":          "256 (--bot-pids): in force by cgroup v1 pids (/p) + RLIMIT_NPROC of the box uid",
			"memory":         "1 GiB (--bot-memory): in force by cgroup v1 memory (/m)",
			"file size":      "256 MiB (--bot-file-size): in force by RLIMIT_FSIZE",
			"CPU fairness":   "in force by cgroup.freeze",
			"CPU quota":      "none (--bot-cpus CPUS): off; can be set by cgroup v1 cpu (/c)",
			"syscall filter": "in force by seccomp-bpf",
		}, nil},
		{"a sandbox without the filter", def, cgroupV1, noFilter, map[string]string{
			"syscall filter": "NOT in force: seccomp filter: the kernel refused it",
		}, []string{"syscall filter"}},
		{"no cgroup, not root", noMemDefault, noCgroup, procrun.SandboxStatus{}, map[string]string{
			"tasks":          "NOT in force",
			"memory":         "NOT in force: only RLIMIT_AS here",
			"syscall filter": "NOT in force: no sandbox on this machine",
		}, []string{"tasks", "memory", "syscall filter"}},
		{"quota asked, no cgroup", quota, noCgroup, procrun.SandboxStatus{}, map[string]string{
			"CPU quota": "0.5 CPUs (--bot-cpus): NOT in force",
		}, []string{"tasks", "memory", "CPU quota", "syscall filter"}},
		{"macOS", noMemDefault, macOS, procrun.SandboxStatus{}, map[string]string{
			"file size":    "NOT in force",
			"CPU fairness": "NOT in force",
		}, []string{"tasks", "memory", "file size", "CPU fairness", "syscall filter"}},
		{"everything lifted", Settings{MemoryGiven: true, Mode: procrun.SandboxOff}, macOS, procrun.SandboxStatus{}, map[string]string{
			"tasks":          "none (--bot-pids none): off",
			"memory":         "none (--bot-memory none): off",
			"CPU fairness":   "not suspended",
			"syscall filter": "none (--sandbox=off)",
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			limits := Limits(tc.s, tc.c, tc.sb)
			names := map[string]Limit{}
			for _, l := range limits {
				names[l.Name] = l
			}
			if _, ok := names["syscall filter"]; !ok {
				t.Error("no syscall filter row")
			}
			for name, want := range tc.want {
				if got := names[name].String(); !strings.Contains(got, want) {
					t.Errorf("%s: %q, want it to say %q", name, got, want)
				}
			}
			err := CheckLimits(procrun.SandboxRequire, limits)
			if (err != nil) != (len(tc.refused) > 0) {
				t.Fatalf("--sandbox=require: %v, want refused for %q", err, tc.refused)
			}
			for _, name := range tc.refused {
				if !strings.Contains(err.Error(), name+": ") {
					t.Errorf("--sandbox=require: %v does not name %s", err, name)
				}
			}
			if err := CheckLimits(procrun.SandboxAuto, limits); err != nil {
				t.Errorf("auto: %v", err)
			}
		})
	}
}
