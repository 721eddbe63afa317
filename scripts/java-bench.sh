#!/usr/bin/env bash
# The Java bridge's figures of docs/PERFORMANCE.md, in one run beside the Go
# plugin bot random: start-up of a course player through bin/kinrow-java.jar
# (launch to ready, then its first game's initPlayer) and the time per move
# as the host sees it (median, p99), a random player on both.
#
#   scripts/java-bench.sh          # needs go, javac, java, jar and make
#
# It runs host/javabridge's TestBridgeFigures, which builds the bridge, the
# stand-in frameworks and test players, and the random bot into a temporary
# directory; one FIGURE line per bot.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/.."
for tool in go javac java jar make; do
  command -v "$tool" >/dev/null || { echo "java-bench: $tool is not installed" >&2; exit 1; }
done
KINROW_JAVA_FIGURES=1 go test -count=1 -run '^TestBridgeFigures$' -v ./host/javabridge/ | grep -E '^(FIGURE|\s+figures_test.go:[0-9]+: openjdk)' | sed 's/^ *figures_test.go:[0-9]*: //'
