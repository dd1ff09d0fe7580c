#!/usr/bin/env bash
# The runs behind docs/war.md's "Experiments from other simulators": each published experiment's
# rules expressed as warsim options, and player 1's win share by aces held. One output
# directory per run in OUT_DIR (default results/war-experiments); the tables of docs/war.md are
# made from them by scripts/readme_tables.py.
# Usage: scripts/war-experiments.sh [OUT_DIR=results/war-experiments] [SCALE=1]
#   SCALE divides every game count (for a quick trial run; the canonical run uses 1).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=${1:-$root/results/war-experiments}
scale=${2:-1}
build_warsim
run() { # NAME GAMES ARGS...
  local name=$1 games=$(( $2 / scale )); shift 2
  echo "war-experiments: $name ($games games)" >&2
  "$warsim" simulate war "$@" --games "$games" --seed 0 --out "$out/$name" >/dev/null
}
# squaaawk/war: won cards onto a won pile shuffled when the hand runs out; a short player lays
# what they can and turns the last card up; 3 down.
w=(--pickup won-pile --short-war last-card --war-down 3)
run sq-standard 1000000 "${w[@]}"
run sq-even 1000000 "${w[@]}" --deal even
run sq-2decks-even 200000 "${w[@]}" --suits 8 --deal even
run sq-12decks-even 20000 "${w[@]}" --suits 48 --deal even --max-rounds 5000000
run sq-aces 1000000 "${w[@]}" --p1-cards "13 13 13 13"
run sq-honor 1000000 "${w[@]}" --honor 1
run sq-2decks-honor 200000 "${w[@]}" --suits 8 --deal even --honor 1
run sq-12decks-honor 20000 "${w[@]}" --suits 48 --honor 1
run sq-12decks-honor2 20000 "${w[@]}" --suits 48 --honor 2
# The Riddler: four aces against the other 48 cards, won cards returned in random order; a
# player who cannot finish a war loses (its short-war rule is not stated; this one reproduces).
for k in 1 2 3; do
  run riddler-down$k 10000000 --p1-cards "13 13 13 13" --pickup shuffled --short-war lose \
    --war-down "$k"
done
# jouets "bataille": 1 down, won cards in random order; 52 and 32 cards.
run bataille-52 1000000 --war-down 1 --short-war lose --pickup shuffled
run bataille-32 1000000 --ranks 8 --war-down 1 --short-war lose --pickup shuffled
# Player 1's win share by aces held.
run aces-classic 10000000 --by p1-top
run aces-winner-first 10000000 --pickup winner-first --by p1-top
