#!/usr/bin/env bash
# "When can we quit a game of War?" (math.stackexchange q. 1752876): 1,000,000 classic games
# with `--quit-stats`, which tallies player 1's wins by the cards they hold after 10, 20, 50,
# 100, 200 and 400 rounds, and the most cards the eventual loser ever held. Writes the run
# (summary.json with the `quit` counts, quit.csv, quit.png, report.html) into OUT_DIR; the
# tables of docs/war.md's "When can we quit?" are made from it by scripts/readme_tables.py.
# Usage: scripts/war-quit.sh [OUT_DIR=results/war-quit] [GAMES=1000000]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=${1:-$root/results/war-quit}
games=${2:-1000000}
build_warsim
# The question's rules: 3 cards down and a fourth turned up at a war, a player who runs out
# turns their last card up: the classic preset (won cards return in random order).
"$warsim" simulate war --quit-stats --games "$games" --seed 0 --out "$out"
