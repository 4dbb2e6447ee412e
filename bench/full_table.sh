#!/usr/bin/env bash
# The full-game strength table of docs/bots.md at each level's default budget (issue 27):
# every Sticheln, Hattrick and Sixty-six line, hard and medium each against easy, 200 whole
# games. About a day of this two-core machine, so every finished game is appended to
# bench/records/full-table.jsonl and a rerun plays only what is missing; run it again to go
# on, and once more when done to print every line from the record alone. LEVELS picks the
# levels played against easy, in that order (medium's lines cost a fifth of hard's).
#     nice -n 19 bash bench/full_table.sh
#     LEVELS=medium nice -n 19 bash bench/full_table.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-.venv/bin/python}
RECORD=bench/records/full-table.jsonl
JOBS=${JOBS:-2}
LEVELS=${LEVELS:-hard medium}

line() {  # game players seats [options...]
  local game=$1 players=$2 seats=$3
  shift 3
  echo "== $game $players $seats $*"
  "$PYTHON" -m bench.tournament "$game" --players "$players" --seats "$seats" --games 200 \
    --jobs "$JOBS" --record "$RECORD" "$@"
}

for level in $LEVELS; do
  line sticheln 6 $level,easy,easy,easy,easy,easy
  line sticheln 4 $level,easy,easy,easy
  line hattrick 4 $level,easy,easy,easy
  line sixtysix 2 $level,easy
  line sticheln 6 $level,easy,easy,easy,easy,easy --option tough=true
  line hattrick 6 $level,easy,easy,easy,easy,easy
  line sixtysix 3 $level,easy,easy
  line sixtysix 4 $level,easy,$level,easy
  for variant in reverse mild tough dark; do
    line sticheln 4 $level,easy,easy,easy --option $variant=true
  done
  for variant in reverse mild dark; do
    line sticheln 6 $level,easy,easy,easy,easy,easy --option $variant=true
  done
  line sticheln 4 $level,easy,easy,easy --option late=true --option deals=1
  line sticheln 6 $level,easy,easy,easy,easy,easy --option late=true --option deals=1
done
line sixtysix 2 hard,medium
# Against five easy, hard and medium both come first about as often as this seat can (hard
# 54.5%, medium 53.5%), so they are told apart at one table; hard's shortlist with six players
# was chosen on the first 200 deals, so the table is played on 200 fresh ones too.
line sticheln 6 hard,medium,easy,easy,easy,easy --option tough=true
line sticheln 6 hard,medium,easy,easy,easy,easy --option tough=true --first-seed 201
