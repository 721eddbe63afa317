//go:build windows

package procrun

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// platformEnv is what a Windows program needs in its environment to run.
var platformEnv = []string{"SYSTEMROOT", "WINDIR", "COMSPEC", "PATHEXT", "TEMP", "TMP", "USERPROFILE", "APPDATA", "LOCALAPPDATA"}

func envKey(name string) string { return strings.ToUpper(name) }

// Detect says which containment the bots started now get.
func Detect() Containment {
	return Containment{Kind: "job object", Freeze: false, KillAll: true, CPU: true, Memory: "job memory limit",
		Tasks: "the job's active process limit (processes, not threads)"}
}

// RemoveStale has nothing to remove: a job dies with its last handle.
func RemoveStale() []string { return nil }

// job holds a bot and its children in a Job Object, killed when the host
// closes it (or dies).
type job struct {
	h     windows.Handle
	proc  windows.Handle
	pid   int
	limit int64
}

func newContainer(cfg Config) (container, error) {
	h, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("create a job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if cfg.Memory > 0 {
		info.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_JOB_MEMORY
		info.JobMemoryLimit = uintptr(cfg.Memory)
	}
	if cfg.Limits.Pids > 0 {
		// Processes only: a job does not count threads.
		info.BasicLimitInformation.LimitFlags |= windows.JOB_OBJECT_LIMIT_ACTIVE_PROCESS
		info.BasicLimitInformation.ActiveProcessLimit = uint32(cfg.Limits.Pids)
	}
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(h)
		return nil, fmt.Errorf("set the job's limits: %w", err)
	}
	return &job{h: h, limit: cfg.Memory}, nil
}

func (j *job) prepare(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_NEW_PROCESS_GROUP
	return nil
}

func (j *job) started(pid int) error {
	j.pid = pid
	p, err := windows.OpenProcess(windows.PROCESS_ALL_ACCESS, false, uint32(pid))
	if err != nil {
		return fmt.Errorf("open the bot's process: %w", err)
	}
	j.proc = p
	if err := windows.AssignProcessToJobObject(j.h, p); err != nil {
		return fmt.Errorf("put the bot in its job object: %w", err)
	}
	return nil
}

var (
	ntdll            = windows.NewLazySystemDLL("ntdll.dll")
	ntSuspendProcess = ntdll.NewProc("NtSuspendProcess")
	ntResumeProcess  = ntdll.NewProc("NtResumeProcess")
)

func (j *job) suspend() error {
	if r, _, _ := ntSuspendProcess.Call(uintptr(j.proc)); r != 0 {
		return fmt.Errorf("NtSuspendProcess: status %#x", r)
	}
	return nil
}

func (j *job) resume() error {
	if r, _, _ := ntResumeProcess.Call(uintptr(j.proc)); r != 0 {
		return fmt.Errorf("NtResumeProcess: status %#x", r)
	}
	return nil
}

func (j *job) kill() error {
	if err := windows.TerminateJobObject(j.h, 1); err != nil {
		return fmt.Errorf("terminate the bot's job: %w", err)
	}
	return nil
}

// basicAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION.
type basicAccounting struct {
	TotalUserTime             int64
	TotalKernelTime           int64
	ThisPeriodTotalUserTime   int64
	ThisPeriodTotalKernelTime int64
	TotalPageFaultCount       uint32
	TotalProcesses            uint32
	ActiveProcesses           uint32
	TotalTerminatedProcesses  uint32
}

func (j *job) accounting() (basicAccounting, bool) {
	var a basicAccounting
	err := windows.QueryInformationJobObject(j.h, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&a)), uint32(unsafe.Sizeof(a)), nil)
	return a, err == nil
}

func (j *job) cpu() (time.Duration, bool) {
	a, ok := j.accounting()
	return time.Duration(a.TotalUserTime+a.TotalKernelTime) * 100, ok
}

func (j *job) memory() (bool, bool, int64) {
	if j.limit <= 0 {
		return false, false, 0
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	if err := windows.QueryInformationJobObject(j.h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		return false, false, 0
	}
	peak := int64(info.PeakJobMemoryUsed)
	return peak >= j.limit, peak >= j.limit, peak
}

func (j *job) empty() bool {
	a, ok := j.accounting()
	return !ok || a.ActiveProcesses == 0
}

func (j *job) release() {
	if j.proc != 0 {
		windows.CloseHandle(j.proc)
		j.proc = 0
	}
	if j.h != 0 {
		windows.CloseHandle(j.h)
		j.h = 0
	}
}

// Frozen is false where there are no cgroups.
func Frozen(int) bool { return false }

// runOpenFile leaves cmd as it is: Windows starts the bot by its path (a
// file swapped after its checksum is not stopped here;
// docs/RELIABILITY.md).
func runOpenFile(*exec.Cmd, *os.File) {}
