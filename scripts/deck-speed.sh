#!/usr/bin/env bash
# Rounds per second of War on 1 thread for one, two and twelve decks (--suits 4, 8, 48), each
# with the shuffled and the won-pile pickup: a long game must cost no more per round than a
# short one. Median of REPS runs. Writes the table on stdout (results/deck-speed.txt).
# Usage: scripts/deck-speed.sh [REPS=3]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
reps=${1:-3}
build_speed
rate() { # ARGS... -> median rounds/s over $reps runs
  for _ in $(seq "$reps"); do
    "$warsim" simulate war "$@" --threads 1 --json |
      python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["games"] * d["rounds"]["mean"] / d["elapsed_s"])'
  done | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); 1 thread"
printf '%-40s %16s %10s\n' "run" "rounds/s" "vs 1 deck"
for pickup in shuffled won-pile; do
  base=
  for cfg in "4 1000000" "8 100000" "48 4000"; do
    set -- $cfg
    r=$(rate --suits "$1" --pickup "$pickup" --games "$2")
    base=${base:-$r}
    printf '%-40s %16.3e %9.2fx\n' "--suits $1 --pickup $pickup ($2 games)" "$r" \
      "$(python3 -c "print($base / $r)")"
  done
done
