#!/usr/bin/env bash
# Whole-run throughput of `warsim simulate` on this machine: games/s for 1 and 2 threads
# (median of REPS runs), the 2-thread speed-up, and peak memory of a 10-million-game run.
# Usage: scripts/bench.sh [REPS=5]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
reps=${1:-5}
build_warsim
need /usr/bin/time time

rate() { # ARGS... -> median games/s over $reps runs
  for _ in $(seq "$reps"); do
    "$warsim" simulate "$@" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["games_per_s"])'
  done | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
printf '%-44s %14s %14s %8s\n' "run" "1 thread" "2 threads" "speed-up"
while read -r label games args; do
  one=$(rate $args --games "$games" --threads 1)
  two=$(rate $args --games "$games" --threads 2)
  printf '%-44s %14.0f %14.0f %7.2fx\n' "$label ($games games)" "$one" "$two" \
    "$(python3 -c "print($two / $one)")"
done <<'RUNS'
war-bryer 2000000 war --rules bryer
war-classic 1000000 war
war-p1-first(loops) 300000 war --pickup p1-first
snap-2p-13x4 1000000 snap
shotgun 10000000 shotgun
rps-10-players 1000000 rps --players 10
jitsu-random 1000000 jitsu --strategy random
jitsu-greedy 1000000 jitsu --strategy greedy
RUNS

peak=$( { /usr/bin/time -v "$warsim" simulate war --rules bryer --games 10000000 --threads 2 \
  >/dev/null; } 2>&1 | awk -F: '/Maximum resident/ {print $2}' | xargs)
echo "peak memory, simulate war --rules bryer --games 10000000 --threads 2: $((peak / 1024)) MB"
