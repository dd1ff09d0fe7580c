#!/usr/bin/env bash
# The searches of docs/bmn.md, all from seed 0, on every core, into OUTDIR:
#   OUTDIR/climb        the record search: DEALS deals (600,000,000 by default), then backward
#                       play from the longest deals kept
#   OUTDIR/backward     backward play from Mann and Wu's 2007 record deal (one deal, no climb)
#   OUTDIR/loops        the loop search from Casella et al.'s cycle: TRIES tries (60,000,000)
#   OUTDIR/loops-small  the loop search on a 14-card deck (--ranks 7 --suits 2), 2,000,000 tries
#   OUTDIR/loops-reaching/ID  backward play from each 52-card cycle found (search --reaching)
# Usage: scripts/bmn-search.sh OUTDIR [DEALS] [TRIES]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=${1:?usage: scripts/bmn-search.sh OUTDIR [DEALS] [TRIES]}
deals=${2:-600000000}
tries=${3:-60000000}
build_warsim
mkdir -p "$out"
"$warsim" search bmn --method climb --deals "$deals" --walkers 64 --seed 0 --keep 10 --progress log \
    --out "$out/climb"
"$warsim" search bmn --method climb --from 'K-KK----K-A-----JAA--Q--J-/---Q---Q-J-----J------AQ--' \
    --deals 1 --walkers 1 --keep 100 --progress never --out "$out/backward"
"$warsim" search bmn --loops --deals "$tries" --walkers 16 --seed 0 --progress log \
    --out "$out/loops"
"$warsim" search bmn --loops --ranks 7 --suits 2 --deals 2000000 --walkers 16 --seed 0 \
    --progress never --out "$out/loops-small"
# Every 52-card cycle the loop search found: its basin and the balanced deals that reach it.
python3 - "$out/loops/search.json" <<'PY' | while read -r id position; do
import json, sys
for c in json.load(open(sys.argv[1]))['cycles']:
    print(c['id'], c['position'])
PY
    "$warsim" search bmn --reaching="$position" --progress never --out "$out/loops-reaching/$id"
done
