#!/usr/bin/env bash
# The record search against plain sampling (issue 51, item 3), all from seed 0, on every core,
# into OUTDIR (results/bmn/record-search/ holds the published run):
#   OUTDIR/{climb,sample,record}-deals   the swap climb, plain sampling and sampling + backward
#                                        joining, each at DEALS deals (600,000,000 by default,
#                                        the climb's budget in docs/bmn.md)
#   OUTDIR/{record,sample,climb}-minutes the same for MINUTES minutes each (10 by default)
#   OUTDIR/from-collins, from-kleber     joining from Collins 2006's and Kleber 1999's deals
#   OUTDIR/summary.json                  one row per run: deals played (sampled or climbed, and
#                                        the deals the joins replay to check what they find),
#                                        deals/s, the longest game, the load average before and
#                                        after, the CPU
# What counts as a deal: a deal played forward from its start, by sampling, by the climb, or by
# a join checking a deal it found. A join's backward walk plays no deal (it counts positions,
# `positions` in search.json) and takes its own time, which deals/s includes.
# Usage: scripts/bmn-record-search.sh OUTDIR [DEALS] [MINUTES]
#   ONLY="climb-deals climb-minutes" scripts/bmn-record-search.sh OUTDIR  remakes those runs alone,
#   keeping the others' folders and load lines, then OUTDIR/summary.json of them all.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=${1:?usage: scripts/bmn-record-search.sh OUTDIR [DEALS] [MINUTES]}
deals=${2:-600000000}
minutes=${3:-10}
build_warsim
mkdir -p "$out"
: >>"$out/load.txt"
if [ -z "${ONLY:-}" ]; then : >"$out/load.txt"; fi
run() {
  local name=$1
  shift
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then return 0; fi
  sed -i "/^$name /d" "$out/load.txt"
  local before after
  before=$(cut -d' ' -f1 /proc/loadavg)
  "$warsim" search bmn --seed 0 --keep 10 --progress log --out "$out/$name" "$@" >/dev/null
  after=$(cut -d' ' -f1 /proc/loadavg)
  echo "$name $before $after" >>"$out/load.txt"
}
run from-collins --method record --from 'A-QK------Q----KA-----J---/-JAK----A--Q----J---QJ--K-'
run from-kleber --method record --from '---JQ---K-A----A-J-K---QK-/-J-----------AJQA----K---Q'
run climb-deals --method climb --deals "$deals" --walkers 64
run sample-deals --method sample --deals "$deals"
run record-deals --method record --deals "$deals"
run record-minutes --method record --minutes "$minutes"
run sample-minutes --method sample --minutes "$minutes"
run climb-minutes --method climb --minutes "$minutes" --walkers 64
python3 - "$out" "$(cpu_name)" "$(nproc)" <<'PY'
import json, os, sys
out, cpu, cores = sys.argv[1], sys.argv[2], int(sys.argv[3])
load = {l.split()[0]: l.split()[1:] for l in open(os.path.join(out, 'load.txt'))}
rows = []
for name in ['climb-deals', 'sample-deals', 'record-deals', 'record-minutes', 'sample-minutes',
             'climb-minutes', 'from-collins', 'from-kleber']:
    path = os.path.join(out, name, 'search.json')
    if not os.path.exists(path):
        continue
    s = json.load(open(path))
    method = s.get('method', 'climb')
    best = s['best'][0]
    played = s.get('played', s['deals'])
    rows.append({
        'run': name, 'method': method, 'from': s.get('from'),
        'deals': s['deals'], 'played': played,
        'bases': s.get('bases', 0), 'positions': s.get('positions', 0),
        'replayed': s.get('replayed', 0),
        'seconds': round(s['elapsed_s'], 1),
        'deals_per_s': round(played / s['elapsed_s']) if s['elapsed_s'] > 0 else None,
        'longest': best['cards'], 'tricks': best['tricks'], 'deal': best['deal'],
        'joins': best.get('ancestor_of'),
        'threads': s['threads'],
        'load_before': float(load[name][0]), 'load_after': float(load[name][1]),
        'replay': s['replay'],
    })
json.dump({'cpu': cpu, 'cores': cores, 'rows': rows}, open(os.path.join(out, 'summary.json'), 'w'),
          indent=2)
for r in rows:
    print(f"{r['run']:15} {r['method']:7} {r['played']:>13,} deals {r['seconds']:7.1f} s "
          f"{r['deals_per_s'] or 0:>11,} deals/s longest {r['longest']:,} (load {r['load_before']} -> {r['load_after']})")
PY
