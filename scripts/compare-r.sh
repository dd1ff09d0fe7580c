#!/usr/bin/env bash
# Checks the `bryer` preset against the R program of deck War's seed document, run by R itself
# (its functions check_cards and play_war are read from docs/rules/war.md, which reproduces the
# seed document, or from SEED_DOC=FILE, such as the seed document itself):
#  1. exact replay: the first DEALS games R deals are replayed with `warsim play war --rules bryer
#     --deal ...`; every game must end with the same winner in the same round (R's count + 1);
#  2. distribution: R_GAMES games of R against WARSIM_GAMES of warsim (two-sample KS test, and
#     player 1's share within 4 standard errors).
# Installs Debian's r-base-core when Rscript is missing.
#
# Usage: scripts/compare-r.sh [R_GAMES=100000] [WARSIM_GAMES=1000000] [DEALS=2000] [OUT_DIR]
# With OUT_DIR, writes comparison.json and the R games there (results/ is made this way).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
r_games=${1:-100000}
warsim_games=${2:-1000000}
deals=${3:-2000}
out=${4:-}
seed_doc=${SEED_DOC:-$root/docs/rules/war.md}
[ -f "$seed_doc" ] || { echo "compare-r: no seed document at $seed_doc" >&2; exit 1; }

need Rscript r-base-core
build_warsim

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "compare-r: R plays $r_games games of the seed's program" >&2
start=$(date +%s)
Rscript "$root/scripts/r/bryer.R" "$seed_doc" "$r_games" "$deals" "$(nproc)" \
  "$tmp/r-games.csv" "$tmp/r-deals.csv"
echo "compare-r: R took $(( $(date +%s) - start )) s" >&2

python3 - "$warsim" "$tmp/r-games.csv" "$tmp/r-deals.csv" <<'PY'
import csv, json, subprocess, sys
warsim, games_csv, deals_csv = sys.argv[1:]
r = {int(g['game']): (int(g['games']), int(g['winner'])) for g in csv.DictReader(open(games_csv))}
bad = 0
deals = list(csv.DictReader(open(deals_csv)))
for d in deals:
    out = subprocess.run([warsim, 'play', 'war', '--rules', 'bryer', '--deal', f"{d['p1']}/{d['p2']}",
                          '--json'], capture_output=True, text=True, check=True)
    ours = json.loads(out.stdout)
    games, winner = r[int(d['game'])]
    want = (games + 1, f'p{winner}') if winner else (games, 'capped')
    if (ours['rounds'], ours['outcome']) != want:
        bad += 1
        if bad <= 5:
            print(f"game {d['game']}: R {want}, warsim {(ours['rounds'], ours['outcome'])}", file=sys.stderr)
print(f"exact replay: {len(deals) - bad} of {len(deals)} R deals end identically", file=sys.stderr)
sys.exit(1 if bad else 0)
PY

"$warsim" simulate war --rules bryer --games "$warsim_games" --seed 1 --out "$tmp/warsim" >/dev/null
Rscript "$root/scripts/r/compare.R" "$tmp/r-games.csv" "$tmp/warsim/histogram.csv" \
  "$tmp/warsim/summary.json" "$tmp/comparison.json"
if [ -n "$out" ]; then
  mkdir -p "$out"
  cp "$tmp/comparison.json" "$out/comparison.json"
  gzip -9 -n -c "$tmp/r-games.csv" > "$out/r-games.csv.gz"
fi
