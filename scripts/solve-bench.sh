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
#
# ONLY=side: kinrow side by side with Pascal Pons' solver (make c4solver;
# C4SOLVER names its binary), one run of each, back to back, same input,
# same nice (NICE, default 10), whole process: for each row of SIDE_ROWS
# (NAME:LINES:MODE, MODE strong or weak, LINES "all", a count of first
# lines or a range FROM-TO; NAME "empty" is the empty 6x7
# board, whose score is +1; NAME posMOVES is the position after MOVES,
# kinrow's score compared with Pons') c4solver (-w for weak), then kinrow
# solve --threads T for each T of THREADS (default "1 2"), every score
# compared with the file's. Each kinrow column gives its wall time, CPU time
# and their ratios to Pons' (wall, then CPU). With CHUNK=K a row's
# positions go K at a time, every solver in turn on each chunk, times
# summed: this shared machine's speed drifts by a third within minutes, and
# the columns of a long row run back to back meet different machines. Each
# chunk is a whole kinrow process, its start-up counted, so CHUNK suits the
# hard sets (Test_L1_R3: seconds a position), not the easy ones:
#
#   CHUNK=10 ONLY=side SIDE_ROWS="L1_R3:50:strong L1_R3:501-550:strong" scripts/solve-bench.sh
#
#   make build && make c4solver && ONLY=side scripts/solve-bench.sh
#   ONLY=side SIDE_ROWS="empty:1:weak empty:1:strong" scripts/solve-bench.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
KINROW=${KINROW:-$here/../bin/kinrow}
SETS=${SETS:-$here/../../shared/testdata/connect4}
RUNS=${RUNS:-3}
JOBS=${JOBS:-"1 2"}
REPEAT=${REPEAT:-1}
C4SOLVER=${C4SOLVER:-$here/../../scratch/connect4/c4solver}
THREADS=${THREADS:-"1 2"}
CHUNK=${CHUNK:-0} # 0: the whole row at once
NICE=${NICE:-10}
SIDE_ROWS=${SIDE_ROWS:-"L3_R1:all:strong L2_R1:all:strong L1_R1:all:strong L1_R3:20:strong L1_R3:20:weak empty:1:weak empty:1:strong"}
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

# timed OUT CMD...: runs CMD under nice $NICE with stdin $tmp/in, stdout
# OUT, and prints its wall and CPU (user + system) seconds.
timed() {
	local out=$1
	shift
	/usr/bin/env time -f '%e %U %S' -o "$tmp/t" nice -n "$NICE" "$@" < "$tmp/in" > "$out" 2> "$tmp/err" || { cat "$tmp/err" >&2; return 1; }
	awk '{ printf "%.2f %.2f", $1, $2 + $3 }' "$tmp/t"
}

# side NAME LINES MODE: one row of the side-by-side table.
side() {
	local name=$1 lines=$2 mode=$3 file t chunk flag=() kflag=() row check score ponswall ponscpu
	if [ "$name" = empty ]; then
		printf '\n' > "$tmp/all"; echo 1 > "$tmp/want"
	elif [ "${name#pos}" != "$name" ]; then
		# posMOVES: one position, its score Pons' (checked below by kinrow's)
		echo "${name#pos}" > "$tmp/all"; : > "$tmp/want"
	else
		file=$SETS/Test_$name.txt
		[ -f "$file" ] || { echo "$name: $file absent, skipped" >&2; return; }
		case $lines in
		all) cp "$file" "$tmp/lines" ;;
		*-*) sed -n "${lines%-*},${lines#*-}p" "$file" > "$tmp/lines" ;;
		*) head -n "$lines" "$file" > "$tmp/lines" ;;
		esac
		cut -d' ' -f1 "$tmp/lines" > "$tmp/all"
		if [ "$mode" = weak ]; then
			awk '{ print ($2 > 0) - ($2 < 0) }' "$tmp/lines" > "$tmp/want"
		else
			cut -d' ' -f2 "$tmp/lines" > "$tmp/want"
		fi
	fi
	[ "$mode" = weak ] && { flag=(-w); kflag=(--weak); }
	# CHUNK lines at a time, each solver in turn on each chunk: a drift of
	# the machine's speed during the row weighs on every column alike.
	rm -f "$tmp"/chunk.* "$tmp/pons.all" "$tmp"/out.* "$tmp"/sum.*
	if [ "$CHUNK" -gt 0 ]; then split -l "$CHUNK" "$tmp/all" "$tmp/chunk."; else cp "$tmp/all" "$tmp/chunk.aa"; fi
	for chunk in "$tmp"/chunk.*; do
		cp "$chunk" "$tmp/in"
		# Pons' solver reads 7x6.book from its working directory: run it
		# where there is none (no opening book, as the file's scores need).
		( cd "$tmp" && timed "$tmp/pons" "$C4SOLVER" "${flag[@]}" ) >> "$tmp/sum.pons"
		echo >> "$tmp/sum.pons"
		cat "$tmp/pons" >> "$tmp/pons.all"
		for t in $THREADS; do
			timed "$tmp/out" "$KINROW" solve "${kflag[@]}" --threads "$t" >> "$tmp/sum.$t"
			echo >> "$tmp/sum.$t"
			cat "$tmp/out" >> "$tmp/out.$t"
		done
	done
	# With -w, Pons' solver prints a score of the right sign, not always
	# 1 or -1 (an immediate win keeps its exact score): signs are compared.
	score='{ print $NF }'
	[ "$mode" = weak ] && score='{ print ($NF > 0) - ($NF < 0) }'
	check=exact
	[ -s "$tmp/want" ] || { awk "$score" "$tmp/pons.all" > "$tmp/want"; check="same as Pons"; }
	awk "$score" "$tmp/pons.all" | cmp -s - "$tmp/want" || check="Pons DIFFERS"
	read -r ponswall ponscpu <<< "$(awk '{ w += $1; c += $2 } END { printf "%.2f %.2f", w, c }' "$tmp/sum.pons")"
	row=$(printf '%-6s %-6s %-7s | Pons %7.2f s (cpu %7.2f)' "$name" "$mode" "$lines" "$ponswall" "$ponscpu")
	for t in $THREADS; do
		awk "$score" "$tmp/out.$t" | cmp -s - "$tmp/want" || check="kinrow threads $t DIFFERS"
		row+=$(awk -v t="$t" -v p="$ponswall" -v pc="$ponscpu" '{ w += $1; c += $2 } END { printf " | threads %s %7.2f s (cpu %7.2f) %.2fx (cpu %.2fx)", t, w, c, w / p, c / pc }' "$tmp/sum.$t")
	done
	echo "$row | $check"
}

if [ "${ONLY:-}" = side ]; then
	[ -x "$C4SOLVER" ] || { echo "no Pons solver at $C4SOLVER: make c4solver, or set C4SOLVER" >&2; exit 2; }
	echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); nice $NICE for both"
	for r in $SIDE_ROWS; do
		IFS=: read -r name lines mode <<< "$r"
		side "$name" "$lines" "$mode"
	done
	echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
	exit 0
fi

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
