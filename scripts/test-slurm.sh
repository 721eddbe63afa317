#!/usr/bin/env bash
# make test-slurm: a single-node Slurm cluster on this machine, for one
# test of the shard recipe of docs/SCALE.md. It starts munged, slurmctld
# and slurmd with their configuration, sockets, state and logs in a
# temporary directory (nothing under /etc or /var is used or changed),
# submits scripts/slurm-shards.sbatch as an array of SHARDS tasks, waits
# for it, joins the shards with kinrow merge, checks the totals and that
# the merged games are those of one run of the same schedule, and stops
# the daemons. Needs root (the daemons run as root), Debian's slurm-wlm
# and munge (apt-get install slurm-wlm munge), and bin/ (make build).
# If Slurm cannot start, it says why and exits 2.
#
#   make test-slurm            # or: SHARDS=4 GAMES=16 scripts/test-slurm.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
BIN=${BIN:-$root/bin}
SHARDS=${SHARDS:-4}
GAMES=${GAMES:-16}
WAIT=${WAIT:-600} # seconds for the array to finish

cannot() {
  echo "test-slurm: Slurm cannot start here: $*" >&2
  exit 2
}
fail() {
  echo "test-slurm: FAIL: $*" >&2
  exit 1
}

[ "$(id -u)" = 0 ] || cannot "the daemons of this single-node cluster run as root; run it as root (CI and the dev machines are)"
for p in munged slurmctld slurmd sbatch sinfo squeue scontrol; do
  command -v "$p" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin
  command -v "$p" >/dev/null 2>&1 || cannot "$p is not installed (Debian: apt-get install slurm-wlm munge)"
done
[ -x "$BIN/kinrow" ] && [ -x "$BIN/kinrow-bot-random" ] || { echo "test-slurm: no $BIN/kinrow and bots: run make build first" >&2; exit 2; }

T=$(mktemp -d /tmp/kinrow-slurm.XXXXXX)
chmod 711 "$T" # munged wants its socket reachable by all
pids=()
cleanup() {
  status=$?
  # Stop what this script started, by its recorded pids, and nothing else.
  for f in "$T/slurmd.pid" "$T/slurmctld.pid" "$T/munged.pid"; do
    [ -s "$f" ] || continue
    pid=$(cat "$f")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ "$status" != 0 ] && [ -z "${KEEP:-}" ]; then
    for log in "$T"/*.log; do
      [ -f "$log" ] || continue
      echo "---- $(basename "$log") (last lines)" >&2
      tail -n 15 "$log" >&2
    done
  fi
  if [ -n "${KEEP:-}" ]; then echo "test-slurm: kept $T" >&2; else rm -rf "$T"; fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# munge: a fresh key; its socket, pid, seed and log in $T.
mkdir -p "$T/munge"
chmod 711 "$T/munge"
if command -v mungekey >/dev/null 2>&1 || [ -x /usr/sbin/mungekey ]; then
  "$(command -v mungekey || echo /usr/sbin/mungekey)" --create --keyfile="$T/munge/munge.key" >/dev/null 2>&1 ||
    dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
else
  dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
fi
chmod 400 "$T/munge/munge.key"
sock="$T/munge/munge.socket"
munged --force --key-file="$T/munge/munge.key" --socket="$sock" --pid-file="$T/munged.pid" \
  --log-file="$T/munged.log" --seed-file="$T/munge/munged.seed" >"$T/munged.out" 2>&1 ||
  cannot "munged did not start: $(tail -n 3 "$T/munged.out" "$T/munged.log" 2>/dev/null | tr '\n' ' ')"
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || cannot "munged made no socket at $sock"

# Free TCP ports for the controller and the node daemon.
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null ||
  echo $((20000 + RANDOM % 20000)); }
ctldport=$(port)
dport=$(port)
[ "$ctldport" != "$dport" ] || dport=$((dport + 1))
node=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
mkdir -p "$T/state" "$T/spool" "$T/out"
export SLURM_CONF="$T/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=kinrowtest
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctldport
SlurmdPort=$dport
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MaxArraySize=1001
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=kinrow Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
# slurmd reads cgroup.conf beside slurm.conf.
printf "CgroupPlugin=${CGROUP_PLUGIN:-autodetect}\\n" >"$T/cgroup.conf"

slurmctld -i -f "$SLURM_CONF" >"$T/slurmctld.out" 2>&1 ||
  cannot "slurmctld did not start: $(tail -n 3 "$T/slurmctld.out" "$T/slurmctld.log" 2>/dev/null | tr '\n' ' ')"
slurmd -f "$SLURM_CONF" -N "$node" >"$T/slurmd.out" 2>&1 ||
  cannot "slurmd did not start: $(tail -n 3 "$T/slurmd.out" "$T/slurmd.log" 2>/dev/null | tr '\n' ' ')"
up=
for _ in $(seq 60); do
  state=$(sinfo -h -N -o '%T' 2>/dev/null | head -n 1 || true)
  case "$state" in idle*|mix*|alloc*) up=1; break ;; esac
  sleep 0.5
done
[ -n "$up" ] || cannot "the node did not come up (sinfo: ${state:-no answer}); see the logs below"
echo "test-slurm: single-node Slurm up ($node, $cpus CPUs, controller on port $ctldport)"

# The array: SHARDS tasks of the same schedule.
args=(--rules connect4 --bot random --bot random --bot-opt random:seed=3 --games "$GAMES"
  --random-plies 2 --seed 9 --movetime 500ms)
jobid=$(cd "$T/out" && OUTDIR="$T/out" KINROW="$BIN/kinrow" KINROW_LOG=warn \
  sbatch --parsable --array=0-$((SHARDS - 1)) --chdir="$T/out" --export=ALL "$root/scripts/slurm-shards.sbatch" "${args[@]}") ||
  fail "sbatch refused the array"
jobid=${jobid%%;*}
echo "test-slurm: submitted array job $jobid (tasks 0-$((SHARDS - 1)))"
deadline=$((SECONDS + WAIT))
while squeue -h -j "$jobid" 2>/dev/null | grep -q .; do
  [ "$SECONDS" -lt "$deadline" ] || { scontrol show job "$jobid" >&2 || true; fail "the array did not finish in ${WAIT}s"; }
  sleep 1
done
shards=("$T/out"/shard-*.jsonl)
[ "${#shards[@]}" = "$SHARDS" ] && [ -f "${shards[0]}" ] || {
  cat "$T/out"/*.log >&2 2>/dev/null || true
  fail "expected $SHARDS shard files, found: $(ls "$T/out")"
}

"$BIN/kinrow" merge "$T/merged.jsonl" "${shards[@]}" | tee "$T/merge.txt"
grep -q "^$T/merged.jsonl: $GAMES of $GAMES games of schedule " "$T/merge.txt" || fail "the merge does not hold $GAMES of $GAMES games"
grep -q '^missing: 0 games$' "$T/merge.txt" || fail "games are missing"
[ "$(grep -c . "$T/merged.jsonl")" = "$GAMES" ] || fail "the merged file does not hold $GAMES records"

# The same schedule in one run, outside Slurm: the same games.
KINROW_LOG=warn "$BIN/kinrow" match "${args[@]}" --out "$T/whole.jsonl" >/dev/null 2>&1 || fail "the whole run failed"
games() { python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    print(r["round"], r["game"], r["players"]["x"], r["players"]["o"], "".join(m["move"] for m in r["moves"]), r["result"], r["schedule"])
' "$1" | sort; }
diff <(games "$T/whole.jsonl") <(games "$T/merged.jsonl") >&2 || fail "the merged shards are not the games of one run"
echo "test-slurm: PASS: $SHARDS Slurm array tasks played $GAMES games; kinrow merge joined them into the games of one run"
