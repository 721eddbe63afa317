#!/usr/bin/env bash
# Times `kinrow solve` on the shared Connect-4 sets, the table of
# docs/PERFORMANCE.md: whole process (host, bot plugin, start-up and
# table), median of RUNS runs, every answer compared with the file.
#
#   make build && scripts/solve-bench.sh                # every row, 3 runs
#   RUNS=5 JOBS="1 2" SETS=../shared/testdata/connect4 scripts/solve-bench.sh
#
# A row prints: the set, the mode, --jobs, the median wall time, the median
# CPU time (user + system, all processes), the mean nodes per position
# (kinrow solve --stats) and "exact" or the first lines that differ from
# the file.
#
# First, the plugin boundary's cost per position (BOUNDARY_SETS, default
# Test_L3_R1 and Test_L2_R1, strong, --jobs 1), three figures per set:
#   start-up   kinrow solve on an empty input (host and bot started and
#              stopped), median of RUNS;
#   solver     the solver's own time per position in the bot (kinrow solve
#              --stats: the bot measures it around each Solve), median;
#   boundary   (whole process − start-up) / positions − solver: what the
#              host, the bot's plumbing and the stream add per position;
#              also its median over the runs (each run's start-up and
#              whole back to back) and its range.
# REPEAT=N feeds each set N times in one process (N x 1000 positions: the
# start-up's noise weighs N times less). ONLY=boundary prints these alone.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
KINROW=${KINROW:-$here/../bin/kinrow}
SETS=${SETS:-$here/../../shared/testdata/connect4}
RUNS=${RUNS:-3}
JOBS=${JOBS:-"1 2"}
REPEAT=${REPEAT:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# row NAME FILE LINES MODE: LINES is "all" or a count of first lines; MODE
# "strong" or "analyze".
row() {
	local name=$1 file=$2 lines=$3 mode=$4 jobs fields args
	[ -f "$file" ] || { echo "$name: $file absent, skipped" >&2; return; }
	if [ "$lines" = all ]; then cp "$file" "$tmp/in"; else head -n "$lines" "$file" > "$tmp/in"; fi
	fields=1,2; args=()
	if [ "$mode" = analyze ]; then fields=1-9; args=(--analyze); fi
	cut -d' ' -f"$fields" "$tmp/in" > "$tmp/want"
	for jobs in $JOBS; do
		: > "$tmp/times"
		for _ in $(seq "$RUNS"); do
			/usr/bin/env time -f '%e %U %S' -o "$tmp/t" "$KINROW" solve "${args[@]}" --stats --jobs "$jobs" < "$tmp/in" > "$tmp/out" 2> "$tmp/err"
			awk '{ print $1, $2 + $3 }' "$tmp/t" >> "$tmp/times"
		done
		check=exact
		if ! cmp -s "$tmp/want" "$tmp/out"; then
			check="DIFFERS from the file: $(diff "$tmp/want" "$tmp/out" | grep -m 2 '^[<>]' | tr '\n' ' ' || true)"
		fi
		nodes=$(sed -n 's/.* and \([0-9]*\) nodes per position$/\1/p' "$tmp/err")
		printf '%-11s %-7s %-6s jobs %s  wall %6.2f s  cpu %6.2f s  %8s nodes/position  %s\n' "$name" "$mode" "$lines" "$jobs" \
			"$(cut -d' ' -f1 "$tmp/times" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")" \
			"$(cut -d' ' -f2 "$tmp/times" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")" "${nodes:-?}" "$check"
	done
}

# now_ns prints the time in nanoseconds.
now_ns() { date +%s%N; }

# median reads numbers, one a line, and prints their median.
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# boundary NAME FILE: the three figures of the plugin boundary, and the
# boundary of each run ((whole - start-up) / positions - solver, start-up
# and whole measured back to back): its median and range.
boundary() {
	local name=$1 file=$2 n t0 t1 t2 s w i startup whole solver
	[ -f "$file" ] || { echo "$name: $file absent, skipped" >&2; return; }
	: > "$tmp/in"; : > "$tmp/want"
	for _ in $(seq "$REPEAT"); do
		cat "$file" >> "$tmp/in"
		cut -d' ' -f1,2 "$file" >> "$tmp/want"
	done
	n=$(wc -l < "$tmp/in")
	: > "$tmp/startup"; : > "$tmp/whole"; : > "$tmp/solver"; : > "$tmp/runs"
	check=exact
	for _ in $(seq "$RUNS"); do
		t0=$(now_ns); "$KINROW" solve < /dev/null > /dev/null 2>&1; t1=$(now_ns)
		"$KINROW" solve --stats < "$tmp/in" > "$tmp/out" 2> "$tmp/err"; t2=$(now_ns)
		s=$(( t1 - t0 )); w=$(( t2 - t1 ))
		i=$(sed -n 's/.*solver.s own time in the bot: \([0-9.]*\) µs per position.*/\1/p' "$tmp/err")
		echo "$s" >> "$tmp/startup"; echo "$w" >> "$tmp/whole"; echo "${i:-0}" >> "$tmp/solver"
		awk -v s="$s" -v w="$w" -v i="${i:-0}" -v n="$n" 'BEGIN { printf "%.2f\n", (w - s) / n / 1000 - i }' >> "$tmp/runs"
		cmp -s "$tmp/want" "$tmp/out" || check="DIFFERS from the file"
	done
	startup=$(median < "$tmp/startup"); whole=$(median < "$tmp/whole"); solver=$(median < "$tmp/solver")
	awk -v name="$name" -v n="$n" -v s="$startup" -v w="$whole" -v i="$solver" -v check="$check" \
		-v med="$(median < "$tmp/runs")" -v lo="$(sort -g "$tmp/runs" | head -1)" -v hi="$(sort -g "$tmp/runs" | tail -1)" 'BEGIN {
		per = (w - s) / n / 1000
		printf "%-11s boundary: start-up %.1f ms  whole %.1f ms  solver %.2f µs/position  boundary %.2f µs/position  (%d positions, medians of '"$RUNS"'; per run: median %.2f, %.2f to %.2f)  %s\n",
			name, s / 1e6, w / 1e6, i, per - i, n, med, lo, hi, check
	}'
}

for set in ${BOUNDARY_SETS:-Test_L3_R1 Test_L2_R1}; do
	boundary "$set" "$SETS/$set.txt"
done
[ "${ONLY:-}" = boundary ] && exit 0

row Test_L3_R1 "$SETS/Test_L3_R1.txt" all strong
row Test_L3_R1 "$SETS/Test_L3_R1.txt" all analyze
row Test_L2_R1 "$SETS/Test_L2_R1.txt" all strong
row Test_L2_R1 "$SETS/Test_L2_R1.txt" all analyze
row Test_L1_R1 "$SETS/Test_L1_R1.txt" all strong
row Test_L1_R1 "$SETS/Test_L1_R1.txt" 20 analyze
row Test_L1_R3 "$SETS/Test_L1_R3.txt" 20 strong
