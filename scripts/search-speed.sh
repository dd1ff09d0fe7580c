#!/usr/bin/env bash
# Beggar-my-neighbour's searches beside `simulate bmn` on one thread (issue 62, item 3): deals
# played per second of CPU time by each search mode against the simulation's games per second,
# on the path a run that names none plays, REPS rounds of alternating runs, the median of each
# and its ratio to `simulate bmn`. What a mode counts as a deal: `sample` the deals sampled
# (the record search's first stage; its second, the backward joining, plays no deal forward and
# takes the same time for any number of deals, so it has no deals/s of its own), `climb` the
# walkers' deals, `loops` and `census` their tries (positions on or near a cycle, each played
# forward; the census's backward walks from new cycles count in its time). The deals are fixed, so every round plays the same searches. Run it on a quiet
# machine; the table (stdout) goes in results/search-speed.txt and docs/speed.md
# (readme_tables.py's section `search-speed`).
# Usage: scripts/search-speed.sh [REPS=5] [SECONDS=4]   (SECONDS: roughly each run's length)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
reps=${1:-5}
secs=${2:-4}
build_speed
need /usr/bin/time time
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# name|arguments|deals a second on one thread, roughly (to size the runs to SECONDS); the
# climb and the loops with 64 walkers, as results/bmn/record-search and docs/bmn.md run them,
# the census with its 16 (each round is 4096 tries a walker: --deals rounds down to rounds).
cases=("simulate bmn|simulate bmn --json --games|4000000"
  "search sample|search bmn --method sample --out $tmp/s --deals|4000000"
  "search climb|search bmn --method climb --walkers 64 --out $tmp/s --deals|4000000"
  "search loops|search bmn --loops --walkers 64 --out $tmp/s --deals|1000000"
  "search census|search bmn --census --out $tmp/s --deals|1000000")
played() { # the deals the last run played, from what it wrote (simulate's games, a search's
  # tries, else its deals played)
  case $1 in
    simulate*) python3 -c "import json, sys; print(json.load(sys.stdin)['games'])" <"$tmp/out" ;;
    *) python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
print(d.get('tries', d.get('played', d.get('deals'))))" "$tmp"/s/*.json ;;
  esac
}
for _ in $(seq "$reps"); do
  for c in "${cases[@]}"; do
    IFS='|' read -r name args rate <<<"$c"
    deals=$(awk -v r="$rate" -v s="$secs" 'BEGIN { printf "%d", r * s }')
    rm -rf "$tmp/s"
    # shellcheck disable=SC2086  # the arguments are words
    /usr/bin/time -f "%U %S" -o "$tmp/t" "$warsim" $args "$deals" --seed 1 --threads 1 \
      --progress never >"$tmp/out"
    echo "$name|$(played "$name")|$(awk '{print $1 + $2}' "$tmp/t")" >>"$tmp/runs"
  done
done
python3 - "$tmp/runs" "$(cpu_name)" "$reps" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import statistics, sys
runs, cpu, reps, load = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
rates, deals = {}, {}
for line in open(runs):
    name, n, cpu_s = line.strip().split('|')
    rates.setdefault(name, []).append(int(n) / float(cpu_s))
    deals[name] = int(n)
print(f"machine: {cpu}; 1 thread; load average at the end: {load}")
print(f"deals/s from CPU time (user + sys), median of {reps} alternating runs (lowest-highest), "
      "on the path a run that names none plays; a try of loops and census counts as a deal")
print(f"{'run':15} {'deals':>11} {'deals/s':>11} {'range':>21} {'vs simulate':>11}")
base = statistics.median(rates['simulate bmn'])
for name, r in rates.items():
    m = statistics.median(r)
    span = f"{min(r):,.0f}-{max(r):,.0f}"
    print(f"{name:15} {deals[name]:>11,} {m:>11,.0f} {span:>21} {m / base:>10.2f}x")
PY
