#!/usr/bin/env bash
# The runs behind docs/literature.md, "War in the literature": each published figure's rules
# expressed as warsim options. Writes one output directory per run into OUT_DIR.
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
# kbWar's fixed order as its code of July 2015 (the code behind its published figures, before
# kbWarGame.cs) plays it: the middle pile as laid, taken from the bottom (`--pickup kbwar`)...
run kbwar-laid --war-down 3 --short-war last-card --pickup kbwar --detect-loops off \
  --max-rounds 20000 --games 100000
# ...and the same deals with exact loop detection.
run kbwar-laid-exact --war-down 3 --short-war last-card --pickup kbwar --detect-loops on \
  --games 100000
# sambecker/rustwar: 3 down, a player who runs out in a war loses (their cards go to the
# other), won cards in table order onto a won pile that becomes the hand when it runs out:
# shuffled, or unshuffled (a stack: the card won last is played first).
run rustwar-shuffled --war-down 3 --short-war lose --pickup won-pile --max-rounds 10000 \
  --games 1000000
run rustwar-unshuffled --war-down 3 --short-war lose --pickup table --won-pile reversed \
  --games 1000000
# zaporter/war_simulator (Bicycle rules): 3 down, a player short at a war loses, the winner's
# cards then the loser's.
run zaporter --war-down 3 --short-war lose --pickup winner-first --games 1000000
# The flawless game: one player wins all 26 battles (computed, not played).
"$warsim" exact war --flawless --out "$out/flawless" -q
