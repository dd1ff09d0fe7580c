#!/usr/bin/env bash
# Where War's time goes in the lanes (issue 41; docs/speed.md, "On the AMD EPYC"): `perf record`
# of one-thread runs of `bryer`, classic and squaaawk's won-pile rules on the lane path a run
# that names none plays on this CPU (its provenance's engine: on Zen 4 the AVX2 lanes, else
# the widest the CPU has), each function's share of the samples (those of 1% or
# more), names shortened to their module path in the War core.
# Writes the table on stdout: scripts/perf-shares.sh > results/perf-lanes.txt
# Usage: scripts/perf-shares.sh [GAMES=1000000]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
games=${1:-1000000}
build_speed
need perf linux-perf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
path=$("$warsim" simulate war --rules bryer --games 1000 --threads 1 --json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["provenance"]["engine"])')
echo "machine: $(nproc) cores, $(cpu_name); 1 thread, WARSIM_PATH=$path; perf's share of the" \
  "samples by function (1% or more)"
for rules in "bryer|--rules bryer|$games" "classic||$((games / 2))" \
  "won-pile, last-card, 3 down|--pickup won-pile --short-war last-card --war-down 3|$((games / 4))"; do
  IFS='|' read -r label args n <<<"$rules"
  # shellcheck disable=SC2086 # $args is a list of options
  WARSIM_PATH=$path perf record -q -o "$tmp/perf.data" -- "$warsim" simulate war $args \
    --games "$n" --seed 1 --threads 1 --json >/dev/null 2>"$tmp/err" || {
    cat "$tmp/err" >&2
    exit 1
  }
  echo
  echo "$label ($n games):"
  perf report -i "$tmp/perf.data" --no-children --stdio --sort symbol 2>/dev/null |
    awk '/^ +[0-9.]+%/ && $1 + 0 >= 1 {
      share = $1; $1 = ""; $2 = ""; name = $0
      sub(/^ +/, "", name); gsub(/warsim_core::games::war::/, "", name)
      gsub(/warsim_core::/, "", name); sub(/ +- -$/, "", name)
      printf "  %7s  %s\n", share, name }'
done
