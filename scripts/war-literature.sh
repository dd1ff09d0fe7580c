#!/usr/bin/env bash
# The runs behind README's "War in the literature": each published figure's rules expressed as
# warsim options. Writes one output directory per run into OUT_DIR.
# Usage: scripts/war-literature.sh [OUT_DIR=results/war-literature]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=${1:-$root/results/war-literature}
build_warsim
run() { # NAME ARGS...
  local name=$1; shift
  echo "war-literature: $name" >&2
  "$warsim" simulate war "$@" --seed 0 --out "$out/$name" >/dev/null
}
# War.jl: 3 down, fewer than 4 cards at a war loses, won cards returned in random order.
run warjl --war-down 3 --short-war lose --pickup shuffled --games 1000000
# kbWar: won cards shuffled every trick, a short player plays what they have.
run kbwar-shuffled --war-down 3 --short-war last-card --pickup shuffled --games 1000000
# kbWar: fixed order, player 1's cards first, a 20,000-turn cap, 100,000 games...
run kbwar-fixed --war-down 3 --short-war last-card --pickup p1-first --detect-loops off \
  --max-rounds 20000 --games 100000
# ...the same with the cards laid alternately (player 1's card first), another reading of
# "fixed order, player 1's cards first"...
run kbwar-fixed-table --war-down 3 --short-war last-card --pickup table --detect-loops off \
  --max-rounds 20000 --games 100000
# ...and the same deals with exact loop detection: how many capped games never end.
run kbwar-fixed-exact --war-down 3 --short-war last-card --pickup p1-first --detect-loops on \
  --games 100000
