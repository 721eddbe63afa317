#!/usr/bin/env bash
# Round robin of every installed bot on a few rule sets; the tables go to a file.
#
#   scripts/tournament.sh                       # defaults below
#   RULES="connect4 gomoku" GAMES=10 MOVETIME=200ms MAXPLIES=200 OUT=results.md scripts/tournament.sh
#
# The bots are the ones the host finds (kinrow-bots) that play the rule set
# (kinrow-load accepts them); each rule set is one
# `kinrow match` round robin with records beside OUT (OUT-RULES.jsonl). Run
# again with the same settings after an interruption: a rule set whose
# records file already holds games is continued with --resume, so only the
# missing games are played and the tables count every game.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
KINROW=${KINROW:-$here/../bin/kinrow}
RULES=${RULES:-"connect4 gomoku mnk:50x50x10"}
GAMES=${GAMES:-4}
MOVETIME=${MOVETIME:-100ms}
CONCURRENCY=${CONCURRENCY:-1}
MAXPLIES=${MAXPLIES:-200}
OUT=${OUT:-tournament.md}
EXCLUDE=${EXCLUDE:-}

# Ask the host which bots it finds: the answer to kinrow-bots is one name per
# line, the first after "= ", ending with an empty line.
mapfile -t bots < <(printf 'kinrow-bots\nquit\n' | "$KINROW" --log-level off |
  awk 'NR==1 { sub(/^= ?/, "") } /^$/ { exit } { print }')
kept=()
for b in "${bots[@]}"; do
  case " $EXCLUDE " in *" $b "*) continue ;; esac
  [ -n "$b" ] && kept+=("$b")
done
bots=("${kept[@]}")
if [ "${#bots[@]}" -lt 2 ]; then
  echo "tournament: fewer than two bots found (${bots[*]:-none}): run make first" >&2
  exit 2
fi

# The --bot arguments for the bots that play RULES ($1): the host's
# kinrow-load refuses a bot that does not (its second answer is "? ...").
bot_args() {
  local b
  for b in "${bots[@]}"; do
    printf 'rules %s\nkinrow-load x %s\nquit\n' "$1" "$b" | "$KINROW" --log-level off |
      awk 'BEGIN { RS = "" } NR == 2 { exit !/^=/ }' && printf -- '--bot\n%s\n' "$b"
  done
}

# A rerun continues the records of each rule set (--resume), which holds
# only for the same schedule: refuse a different --games here, before
# anything is written, rather than after the tables were truncated.
for rules in $RULES; do
  records="${OUT%.*}-${rules//[:]/_}.jsonl"
  [ -s "$records" ] || continue
  played=$(head -n 1 "$records" | sed -n 's/.*"schedule":"[0-9a-f]*:[0-9]*x\([0-9]*\)".*/\1/p')
  if [ -n "$played" ] && [ "$played" != "$GAMES" ]; then
    echo "tournament: $records holds games of GAMES=$played (kinrow match --games $played), not GAMES=$GAMES: rerun with GAMES=$played to continue it, or give another OUT" >&2
    exit 2
  fi
done

# The tables are written aside and replace OUT only when every rule set
# is played: a refused or failed run leaves the tables of the last one.
tables="$OUT.partial"
trap 'rm -f "$tables"' EXIT
{
  echo "# Round robin: ${bots[*]}"
  echo
  echo "Command: RULES=\"$RULES\" GAMES=$GAMES MOVETIME=$MOVETIME MAXPLIES=$MAXPLIES scripts/tournament.sh ($(date -u +%Y-%m-%d))"
  echo
} >"$tables"
for rules in $RULES; do
  echo "tournament: $rules" >&2
  {
    echo "## $rules"
    echo
    echo '```'
    records="${OUT%.*}-${rules//[:]/_}.jsonl"
    resume=()
    [ -s "$records" ] && resume=(--resume)
    mapfile -t args < <(bot_args "$rules")
    if [ "${#args[@]}" -lt 4 ]; then
      echo "tournament: fewer than two bots play $rules" >&2
      exit 2
    fi
    "$KINROW" match --log-level warn --rules "$rules" "${args[@]}" --games "$GAMES" \
      --movetime "$MOVETIME" --concurrency "$CONCURRENCY" --random-plies 2 --max-plies "$MAXPLIES" \
      --out "$records" "${resume[@]}"
    echo '```'
    echo
  } >>"$tables"
done
mv "$tables" "$OUT"
echo "tournament: tables in $OUT" >&2
