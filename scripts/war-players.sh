#!/usr/bin/env bash
# War with more than two players (docs/war.md, "War with more than two players"): a sweep of the
# mean length against the number of players and the deck size, with a Theta(n^2) fit per number of
# players (Adjei, Krishnan and Mossel, arXiv 2409.05201), and runs under kbWar's and
# Brakebusk/WarSimulator's N-player rules as far as options express them.
# Writes OUT_DIR/sweep (warsim sweep), OUT_DIR/fit.csv, OUT_DIR/players.png and one run per peer
# rule set. A few minutes on two cores.
# Usage: scripts/war-players.sh [OUT_DIR=results/war-players]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=${1:-$root/results/war-players}
build_warsim
mkdir -p "$out"
# The classic rules (3 down, last-card, shuffled pickup) with 2 to 6 players and 26 to 156 cards.
echo "war-players: sweep" >&2
"$warsim" sweep war --players 2,3,4,5,6 --suits 2,4,8,12 --games 20000 --seed 0 \
  --out "$out/sweep" >/dev/null
run() { # NAME ARGS...
  local name=$1; shift
  echo "war-players: $name" >&2
  "$warsim" simulate war "$@" --seed 0 --out "$out/$name" >/dev/null
}
for n in 3 4; do
  # kbWar (kbWarGame.cs): every player with cards throws; the highest card takes the trick; tied
  # players throw up to 3 down and one up, a tied player with no card leaves the war; the won
  # cards are shuffled; a game past 20,000 turns is called endless.
  run "kbwar-$n" --players "$n" --war-down 3 --short-war last-card --pickup shuffled \
    --max-rounds 20000 --games 100000
done
# Brakebusk/WarSimulator (Simulator.cs, Player.cs): won cards go to a spoils heap, shuffled into
# the hand when it runs out; a tied player turns a champion and stakes up to 3 more. 52 cards
# divide among 4 players, so its deck needs no discarding.
run brakebusk-4 --players 4 --war-down 3 --short-war last-card --pickup won-pile --games 100000
# The fit chart is drawn with matplotlib (installed from PyPI when missing).
python3 -c 'import matplotlib' 2>/dev/null ||
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore matplotlib
python3 "$root/scripts/war_players.py" "$out"
