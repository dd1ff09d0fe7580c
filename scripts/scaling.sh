#!/usr/bin/env bash
# How `simulate` scales with threads (issue 62, item 4): `simulate bmn`, `simulate war` (classic)
# and `simulate war --rules bryer` on 1, 2, ... up to every core, each on the path a run that
# names none plays, REPS rounds of alternating runs; games per second of wall time (the games
# over the time that played them, process start included), the median of each, the speed-up
# over one thread and the efficiency (speed-up over threads). Wall time, not CPU time: the
# point is what the threads give. Run it on a quiet machine; the table (stdout) goes in
# results/scaling.txt and docs/speed.md (readme_tables.py's section `scaling`).
# Usage: scripts/scaling.sh [REPS=5] [SECONDS=4]   (SECONDS: the length of a one-thread run)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
reps=${1:-5}
secs=${2:-4}
build_speed
cores=$(nproc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# name|arguments|games a second on one thread, roughly (to size the runs to SECONDS)
cases=("bmn|simulate bmn|4000000" "war classic|simulate war|530000"
  "war bryer|simulate war --rules bryer|1400000")
now() { date +%s.%N; }
for r in $(seq "$reps"); do
  for c in "${cases[@]}"; do
    IFS='|' read -r name args rate <<<"$c"
    games=$(awk -v r="$rate" -v s="$secs" 'BEGIN { printf "%d", r * s }')
    for t in $(seq "$cores"); do
      start=$(now)
      # shellcheck disable=SC2086  # the arguments are words
      "$warsim" $args --games "$games" --threads "$t" --progress never >/dev/null
      end=$(now)
      echo "$name|$t|$games|$start|$end" >>"$tmp/runs"
    done
  done
done
python3 - "$tmp/runs" "$(cpu_name)" "$cores" "$reps" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import statistics, sys
runs, cpu, cores, reps, load = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
rates = {}
for line in open(runs):
    name, t, games, start, end = line.strip().split('|')
    rates.setdefault((name, int(t)), []).append(int(games) / (float(end) - float(start)))
print(f"machine: {cpu}, {cores} cores; load average at the end: {load}")
print(f"games/s of wall time (the run's games over the time that played them), median of {reps} "
      "alternating runs, on the path a run that names none plays")
print(f"{'run':18} {'threads':>7} {'games/s':>12} {'speed-up':>9} {'efficiency':>10}")
for name in dict.fromkeys(n for n, _ in rates):
    one = statistics.median(rates[(name, 1)])
    for t in range(1, cores + 1):
        m = statistics.median(rates[(name, t)])
        print(f"{name:18} {t:>7} {m:>12,.0f} {m / one:>8.2f}x {m / one / t:>10.2f}")
PY
