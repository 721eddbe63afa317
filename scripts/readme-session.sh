#!/usr/bin/env bash
# Prints the README's session transcript from a real run of bin/kinrow:
# each command followed by the host's answer. Run after `make`:
#   scripts/readme-session.sh > /tmp/session.txt
set -euo pipefail
cd "$(dirname "$0")/.."
cmds='kinrow-bots
play x 4
genmove o
showboard
rules tictactoe
kinrow-load o random seed=7
play b b2
genmove w
kinrow-record
time_left o nan 0
quit'
out=$(printf '%s\n' "$cmds" | "${KINROW:-bin/kinrow}" --rules connect4 2>/dev/null)
echo '$ make run'
echo 'bin/kinrow --rules connect4'
# Answers end with a blank line (GTP framing): pair the n-th answer with the
# n-th command.
awk -v cmds="$cmds" 'BEGIN { n = split(cmds, c, "\n"); RS = ""; i = 0 }
	{ i++; print c[i]; print $0; print "" }' <<<"$out"
