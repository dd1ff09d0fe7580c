#!/usr/bin/env bash
# Instruction counts of the War core (callgrind: repeatable, unlike timings on a shared machine):
# instructions per game and per round of the bryer preset, and the share spent in wars (the
# general `battle` path) and in dealing. Usage: scripts/profile.sh [GAMES=20000]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
games=${1:-20000}
build_warsim
need valgrind valgrind
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(simulate war --rules bryer --games "$games" --threads 1 --json)
"$warsim" "${args[@]}" > "$tmp/summary.json"
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$warsim" "${args[@]}" \
  >/dev/null 2>"$tmp/log"
callgrind_annotate --inclusive=yes "$tmp/cg" > "$tmp/annotated"
python3 - "$tmp" "$games" <<'PY'
import json, re, sys
tmp, games = sys.argv[1], int(sys.argv[2])
text = open(f'{tmp}/annotated').read()
def count(pattern):
    m = re.search(r'^\s*([\d,]+)\s.*' + pattern, text, re.M)
    return int(m.group(1).replace(',', '')) if m else 0
total = count('PROGRAM TOTALS')
battle, deal = count(r'Position::battle \['), count(r'Position::deal \[')
s = json.load(open(f'{tmp}/summary.json'))
rounds = s['rounds']['mean'] * games
wars = s['wars']['battles_by_depth']
battles_with_war = sum(wars.values())
plain = rounds - battles_with_war
print(f"bryer preset, {games:,} games on 1 thread, callgrind instruction counts")
print(f"  whole run:        {total / games:9.0f} instructions per game, {total / rounds:6.1f} per round")
print(f"  wars (battle):    {battle / battles_with_war:9.0f} per battle with a war ({100 * battle / total:.1f}% of all)")
print(f"  dealing:          {deal / games:9.0f} per game ({100 * deal / total:.1f}% of all)")
print(f"  plain battles:    {(total - battle - deal) / plain:9.1f} per battle without a war, everything else included")
PY
