#!/usr/bin/env bash
# The basins of docs/bmn.md: `search bmn --reaching` from Casella et al.'s never-ending deal
# (arXiv 2403.13855: a 62-trick cycle "reached by 30 distinct starting hands") and from one deal
# of each of Camicia's 15 cycles found by the exhaustive search of N1k06/cudacamicia
# (docs/full_162_table.csv at 0c8e5fe: 162 never-ending deals; the deal is the first of its cycle
# there, and `published` the deals it lists for that cycle). Each walk goes into OUTDIR/NAME
# (reaching.json, deals.txt); OUTDIR/table.json gathers them, with the machine's CPU.
# Usage: scripts/bmn-reaching.sh OUTDIR   (well under a second of walking on one core)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=${1:?usage: scripts/bmn-reaching.sh OUTDIR}
build_warsim
mkdir -p "$out"

# name, rules preset, deal, deals published for its cycle.
walks="casella britannica ---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA 30
camicia-1 camicia 0000000203100000010020230203000100300010 90
camicia-2 camicia 0000000100000202021010000300301002030300 28
camicia-3 camicia 0000100032002001000132020000000010030003 26
camicia-4 camicia 0000000000001003030000020201203020310010 2
camicia-5 camicia 0000000000001003030000020201203203010010 2
camicia-6 camicia 0000000000001003030000020201203023010010 2
camicia-7 camicia 0000202010030203100100000000000100303002 2
camicia-8 camicia 0000202010030230100100000000000100303002 2
camicia-9 camicia 0000202010032030100100000000000100303002 2
camicia-10 camicia 0030300201000000000030230100000202010010 1
camicia-11 camicia 0030300201000000000030203100000202010010 1
camicia-12 camicia 0030300201000000000032030100000202010010 1
camicia-13 camicia 0302031000002020100100303002010000000000 1
camicia-14 camicia 0302301000002020100100303002010000000000 1
camicia-15 camicia 0320301000002020100100303002010000000000 1"
while read -r name rules deal published; do
  "$warsim" search bmn --rules "$rules" --reaching "$deal" --progress never --out "$out/$name" \
    > /dev/null < /dev/null
done <<< "$walks"
python3 - "$out" "$walks" <<'PY'
import json, os, sys
out = sys.argv[1]
cpu = next((l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo') if l.startswith('model name')), '?')
rows = []
for line in sys.argv[2].splitlines():
    name, _, _, published = line.split()
    r = json.load(open(os.path.join(out, name, 'reaching.json')))
    rows.append({'name': name, 'preset': r['rules'].get('preset', 'britannica'), 'deal': r['deal'],
                 'cycle_tricks': r['cycle_tricks'], 'cycle_cards': r['cycle_cards'],
                 'entered_after_tricks': r['entered_after_tricks'],
                 'basin_positions': r['basin_positions'], 'leading_in': r['leading_in'],
                 'depth': r['depth'], 'player_1_leads': r['balanced_player_1_leads'],
                 'either_leads': r['balanced_either_leads'], 'published': int(published),
                 'elapsed_s': r['elapsed_s']})
json.dump({'cpu': cpu, 'cores': os.cpu_count(), 'walks': rows}, open(os.path.join(out, 'table.json'), 'w'), indent=1)
PY
echo "bmn-reaching: written $out" >&2
