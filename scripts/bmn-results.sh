#!/usr/bin/env bash
# Beggar-my-neighbour's canonical results: the published records and Casella et al.'s
# never-ending deal replayed (records.json), 10,000,000 random deals (simulate/), and every
# distinct deal of small decks (exact/, with table.json: deals, wins, never-ending deals).
# Usage: scripts/bmn-results.sh OUTDIR   (about 3 minutes on 2 cores)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=${1:?usage: scripts/bmn-results.sh OUTDIR}
build_warsim
mkdir -p "$out/exact"

# Richard Mann's list of record games (as public replays quote it), and the loop of
# arXiv 2403.13855: name, deal (player 1's hand / player 2's, top card first).
records="Paulhus_1999 ------------KAQ----J------/-JQQK---K----JK--QA-A-JA--
Kleber_1999 ---JQ---K-A----A-J-K---QK-/-J-----------AJQA----K---Q
Collins_2006 A-QK------Q----KA-----J---/-JAK----A--Q----J---QJ--K-
Mann_and_Wu_2007 K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--
Nessler_2012 ----Q------A--K--A-A--QJK-/-Q--J--J---QK---K----JA---
Anderson_2013 --A-Q--J--J---Q--AJ-K---K-/-J-------Q------A--A--QKK-
Rucklidge_2014 -J------Q------AAA-----QQ-/K----JA-----------KQ-K-JJK
Nessler_2021 ----K---A--Q-A--JJA------J/-----KK---------A-JK-Q-Q-Q
Nessler_2022 ---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---
Casella_2024 ---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"
while read -r name deal; do
  "$warsim" play bmn --deal "$deal" --json |
    python3 -c 'import json,sys; r=json.load(sys.stdin); r["who"]=sys.argv[1].replace("_"," "); r["deal"]=sys.argv[2]; print(json.dumps(r))' "$name" "$deal"
done <<< "$records" | python3 -c 'import json,sys; json.dump([json.loads(l) for l in sys.stdin], open(sys.argv[1], "w"), indent=1)' "$out/records.json"

"$warsim" simulate bmn --games 10000000 --seed 0 --out "$out/simulate" > /dev/null

for deck in "4 1" "6 1" "8 1" "10 1" "12 1" "4 2" "5 2" "6 2" "7 2" "8 2"; do
  set -- $deck
  "$warsim" exact bmn --ranks "$1" --suits "$2" --out "$out/exact/ranks-$1-suits-$2" > /dev/null
done
python3 - "$out/exact" <<'PY'
import json, os, sys
rows = []
for name in sorted(os.listdir(sys.argv[1]), key=lambda d: [int(x) for x in d.split('-')[1::2]]):
    path = os.path.join(sys.argv[1], name, 'summary.json')
    if not os.path.exists(path):
        continue
    s = json.load(open(path))
    r = s['rules']
    rows.append({'ranks': r['ranks'], 'suits': r['suits'], 'cards': r['ranks'] * r['suits'],
                 'deals': s['games'], 'p1': s['outcomes']['p1'], 'p2': s['outcomes']['p2'],
                 'loop': s['outcomes']['loop'], 'fractions': s['exact']['fractions'],
                 'mean_cards': s['rounds']['mean'], 'max_cards': s['rounds']['max']})
json.dump(rows, open(os.path.join(sys.argv[1], 'table.json'), 'w'), indent=1)
PY
echo "bmn-results: written $out" >&2
