#!/usr/bin/env bash
# Where Beggar-my-neighbour's time goes on the path `simulate bmn` takes on this CPU (issue 52;
# docs/bmn.md): `perf record` of a one-thread run of the standard deck, each function's share of
# the samples (those of 1% or more), names shortened to their module path in the core. In a
# virtual machine without hardware counters, perf samples the CPU clock (cycles, instructions
# and branch misses are then not counted: `perf stat` says "not supported").
# Writes the table on stdout: scripts/bmn-perf.sh > results/bmn-perf.txt
# Usage: scripts/bmn-perf.sh [GAMES=4000000]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
games=${1:-4000000}
build_speed
need perf linux-perf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
perf record -q -o "$tmp/perf.data" -- "$warsim" simulate bmn --games "$games" --seed 1 \
  --threads 1 --json >"$tmp/json" 2>"$tmp/err" || {
  cat "$tmp/err" >&2
  exit 1
}
path=$(python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['provenance']['engine'])" \
  "$tmp/json")
echo "machine: $(nproc) cores, $(cpu_name); simulate bmn, $games games, 1 thread, path $path;" \
  "perf's share of the samples by function (1% or more)"
perf report -i "$tmp/perf.data" --no-children --stdio --sort symbol 2>/dev/null |
  awk '/^ +[0-9.]+%/ && $1 + 0 >= 1 {
    share = $1; $1 = ""; $2 = ""; name = $0
    sub(/^ +/, "", name); gsub(/warsim_core::games::bmn::/, "", name)
    gsub(/warsim_core::/, "", name); sub(/ +- -$/, "", name)
    printf "  %7s  %s\n", share, name }'
