#!/usr/bin/env bash
# The census of never-ending games of docs/bmn.md (issue 51), from seed 0, 16 walkers, on every
# core, into OUTDIR:
#   OUTDIR/standard  the 52-card deck from Casella et al.'s cycle, for MINUTES minutes (10)
#   OUTDIR/cards-14  the 14-card deck (--ranks 7 --suits 2) from random positions, 2,000,000 tries
#   OUTDIR/cards-16  the 16-card deck (--ranks 8 --suits 2) from random positions, 4,000,000 tries
# Each holds census.json, cycles.txt and deals.txt; OUTDIR/machine.json the CPU, the cores and
# the load average before and after (the machine may be shared: the tries a time allows say so).
# Usage: scripts/bmn-census.sh OUTDIR [MINUTES]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=${1:?usage: scripts/bmn-census.sh OUTDIR [MINUTES]}
minutes=${2:-10}
build_warsim
mkdir -p "$out"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
"$warsim" search bmn --census --minutes "$minutes" --walkers 16 --seed 0 --progress log \
    --out "$out/standard" > /dev/null < /dev/null
"$warsim" search bmn --census --ranks 7 --suits 2 --deals 2000000 --walkers 16 --seed 0 \
    --progress never --out "$out/cards-14" > /dev/null < /dev/null
"$warsim" search bmn --census --ranks 8 --suits 2 --deals 4000000 --walkers 16 --seed 0 \
    --progress never --out "$out/cards-16" > /dev/null < /dev/null
python3 - "$out" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import json, os, sys
cpu = next((l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo') if l.startswith('model name')), '?')
json.dump({'cpu': cpu, 'cores': os.cpu_count(), 'load_before': sys.argv[2], 'load_after': sys.argv[3]},
          open(os.path.join(sys.argv[1], 'machine.json'), 'w'), indent=1)
PY
echo "bmn-census: written $out" >&2
