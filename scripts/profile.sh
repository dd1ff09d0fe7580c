#!/usr/bin/env bash
# Instruction counts of the War core (callgrind: repeatable, unlike timings on a shared machine):
# instructions per game and per round of each rule set users benchmark, and the shares spent in
# wars and in dealing. valgrind runs no AVX-512, so these count the scalar reference path
# (WARSIM_PATH=scalar); the vector path's speed shows in scripts/bench.sh.
# Usage: scripts/profile.sh [GAMES=20000]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
games=${1:-20000}
build_speed
need valgrind valgrind
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export WARSIM_PATH=scalar

echo "War core, callgrind instruction counts on 1 thread, scalar path (the reference)"
printf '%-34s %8s %12s %10s %10s %10s\n' "rule set" "games" "instr/game" "instr/round" "wars" "deal"
while read -r label n args; do
  n=$((n * games / 20000))
  # shellcheck disable=SC2086
  set -- simulate war $args --games "$n" --threads 1 --json
  "$warsim" "$@" > "$tmp/summary.json"
  # Instructions of the whole run, then of the wars alone and of the deal alone.
  collected() {
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$@" "$warsim" "${args[@]}" \
      >/dev/null 2>"$tmp/log"
    awk '/Collected :/ {print $4}' "$tmp/log"
  }
  args=("$@")
  total=$(collected)
  wars=$(collected --toggle-collect='*cursor_war::cursor_war*' --toggle-collect='*Position::battle*')
  deal=$(collected --toggle-collect='*Position>::deal*')
  python3 - "$tmp/summary.json" "$n" "$label" "$total" "$wars" "$deal" <<'PY'
import json, sys
summary, games, label = sys.argv[1], int(sys.argv[2]), sys.argv[3]
total, wars, deal = (int(x) for x in sys.argv[4:7])
rounds = json.load(open(summary))['rounds']['mean'] * games
print(f"{label:34s} {games:8,} {total / games:12,.0f} {total / rounds:10.1f} "
      f"{100 * wars / total:9.1f}% {100 * deal / total:9.1f}%")
PY
done <<'RUNS'
bryer 20000 --rules bryer
classic 20000
won-pile 20000 --pickup won-pile
p1-first,loops-detected 2000 --pickup p1-first
RUNS
echo "(wars: the share of instructions in wars, deal: in dealing; the rest is plain battles,"
echo " won-pile refills, loop detection and the tally)"
