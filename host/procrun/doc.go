// Package procrun is the one process runner behind every bot the host
// starts: plugin bots (host/pluginbot, through go-plugin's runner hook) and
// external engines (host/enginebot). It holds one contract on every
// platform:
//
//   - Start starts a prepared exec.Cmd inside a container of its own and
//     gives its minimal environment (Env);
//   - Suspend and Resume stop and continue the bot and everything it
//     started;
//   - CPU reports the CPU time the bot and its descendants have used;
//   - Kill ends the bot and everything it started, whatever state it is in
//     (running, suspended, escaped into a new session), bounded in time;
//   - Ending reports how it ended: its exit status, and whether it went
//     over its memory cap, with its peak.
//   - OpenPath (Linux) opens a path as the bot sees it: in its sandbox,
//     through its root without following its links (what it made in a
//     Private directory, a tmpfs of its own the host's disk never sees).
//
// The container is, best first:
//
//   - Linux, cgroup v2: a child cgroup of the host's own (found in
//     /proc/self/cgroup on the unified mount), the bot placed in it at
//     clone time (CLONE_INTO_CGROUP); cgroup.freeze suspends, cgroup.kill
//     ends every process in it (a `setsid -f` or double-forked child
//     included), cpu.stat accounts CPU time, memory.max and pids.max cap
//     it where those controllers are enabled, cpu.max holds it to a CPU
//     quota. In hybrid mode the memory, pids and cpu controllers stay on
//     v1: a child cgroup of the host's in each holds the bot there when it
//     can be made (as root), joined as the bot starts.
//   - On every Linux container, RLIMIT_FSIZE caps the files it writes, and
//     RLIMIT_NPROC its tasks where the sandbox gives it a uid of its own
//     (Limits; DefaultLimits are the host's defaults).
//   - Linux without a cgroup it can make: the host becomes a child
//     subreaper (PR_SET_CHILD_SUBREAPER), each bot's processes carry a
//     marker in their environment (KINROW_BOT_ID), and Kill ends every
//     process of the bot's process group, its descendants and every
//     process carrying its marker; memory is capped with RLIMIT_AS.
//   - Other Unix systems (macOS): a process group of its own, SIGSTOP and
//     SIGCONT, SIGKILL to the group.
//   - Windows: a Job Object holds the bot and its children (killed with
//     its job, closed with the host), suspended process by process, with
//     the job's memory limit.
//
// Detect says which is in force; the host logs it at start-up and
// `kinrow doctor` prints it.
//
// On Linux a bot also runs in a sandbox (Sandbox): what its box sees is
// computed once, by Sandbox.View, from its Read and Write paths resolved
// and checked (CheckBind refuses the host's root, /proc, /sys, /dev, home
// directories, the working directory, the shared temporary directories,
// Deny, and what holds them); the box is made from that view, and
// `kinrow doctor --bot NAME` and the "box sees" debug line print it.
package procrun
