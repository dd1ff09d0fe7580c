#!/usr/bin/env bash
# Mean rounds of N-player rock-paper-scissors elimination against N, N = 2..MAX_PLAYERS, as one
# `warsim sweep` (GAMES games per N, seed 0): means.png draws the simulated means with their 95%
# intervals beside the exact expectation warsim computes from the recurrence.
# Usage: scripts/rps-sweep.sh OUT_DIR [GAMES=1000000] [MAX_PLAYERS=12]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=$1
games=${2:-1000000}
max=${3:-12}
build_warsim
"$warsim" sweep rps --players "$(seq -s, 2 "$max")" --games "$games" --seed 0 --out "$out"
