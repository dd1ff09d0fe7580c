#!/usr/bin/env bash
# Deck War under every common house rule: war-down 1 and 3 × short-war lose and last-card ×
# every pickup, GAMES deals each (the same deals for every rule set: seed 0). Writes one full
# output directory per rule set into OUT_DIR, OUT_DIR/table.csv and OUT_DIR/rules.png.
# Usage: scripts/war-rules.sh [OUT_DIR=results/war-rules] [GAMES=1000000]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=${1:-$root/results/war-rules}
games=${2:-1000000}
build_warsim
need gnuplot gnuplot-nox fonts-dejavu-core
mkdir -p "$out"
rows=()
for down in 1 3; do
  for short in lose last-card; do
    for pickup in shuffled won-pile p1-first table winner-first loser-first; do
      name="down$down-$short-$pickup"
      echo "war-rules: $name" >&2
      "$warsim" simulate war --war-down "$down" --short-war "$short" --pickup "$pickup" \
        --games "$games" --seed 0 --out "$out/$name" >/dev/null
      rows+=("$name")
    done
  done
done
python3 - "$out" "${rows[@]}" <<'PY'
import csv, json, os, sys
out, names = sys.argv[1], sys.argv[2:]
with open(os.path.join(out, 'table.csv.tmp'), 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['rule_set', 'war_down', 'short_war', 'pickup', 'games', 'mean', 'ci95_lo', 'ci95_hi',
                'median', 'p99', 'wars_mean', 'p1_share', 'never_end_share', 'never_end_lo', 'never_end_hi',
                'capped', 'finished_mean'])
    for i, name in enumerate(names):
        d = json.load(open(os.path.join(out, name, 'summary.json')))
        r, rules = d['rounds'], d['rules']
        loops = d.get('loops')
        fin = d.get('finished_rounds') or r
        w.writerow([name, rules['war_down'], rules['short_war'], rules['pickup'], d['games'], r['mean'],
                    r['ci95'][0], r['ci95'][1], r['median'], r['quantiles']['p99'], d['wars']['mean'],
                    d['shares']['p1']['share'],
                    loops['share'] if loops else '', loops['ci95'][0] if loops else '', loops['ci95'][1] if loops else '',
                    d['outcomes'].get('capped', 0), fin['mean']])
os.replace(os.path.join(out, 'table.csv.tmp'), os.path.join(out, 'table.csv'))
PY
gnuplot <<GP
set terminal pngcairo size 1300,700 font "DejaVu Sans,11"
set output "$out/rules.png.tmp"
set datafile separator ","
set title "Deck War: mean rounds of the games that end, and the share that never ends, by rule set ($(python3 -c "print(f'{$games:,}')") deals each)"
set style data histograms
set style histogram cluster gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by -40 scale 0 font ",10"
set ylabel "mean rounds (finished games)"
set y2label "never ends (%)"
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [0:100]
set key top left
set grid ytics
plot "$out/table.csv" every ::1 using 17:xtic(1) title "mean rounds, finished games" lc rgb "#4a78b5", \
     "" every ::1 using (valid(13) ? 100*column(13) : 0) axes x1y2 title "never ends (%)" lc rgb "#c03030"
GP
mv "$out/rules.png.tmp" "$out/rules.png"
