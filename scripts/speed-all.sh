#!/usr/bin/env bash
# Every speed table of this CPU in one go (issue 62, item 5), side by side with the references,
# then the tables of README.md and docs/speed.md made anew from them (scripts/readme_tables.py):
#   results/bmn-speed.txt       scripts/bmn-speed.sh: simulate bmn on each path beside acinnes/bmn
#                               and the C reference's card, phase, AVX2 and AVX-512 lane engines
#   results/lanes-speed.txt     scripts/lanes-speed.sh: War's bryer rules on each path beside the
#                               C probe and the C lanes prototype (v16b_vj)
#   results/squaaawk-speed.txt  scripts/squaaawk-speed.sh: classic and the won pile beside
#                               squaaawk/war
#   results/search-speed.txt    scripts/search-speed.sh: each BMN search mode beside simulate bmn
#   results/scaling.txt         scripts/scaling.sh: 1 thread up to every core
#   results/bmn-perf.txt,       scripts/bmn-perf.sh and scripts/perf-shares.sh: perf's shares
#   results/perf-lanes.txt      by function (BMN, then War's three rule sets)
# Each table is written to a temporary file and moved into results/ when its script succeeds, so
# a failure leaves the last table in place. Run it on a quiet machine (nothing else running: the
# figures are CPU time, but caches and the memory bus are shared); about 30 minutes at REPS=5.
# Usage: scripts/speed-all.sh REPS REF_DIR BMN_PEER_DIR SQUAAAWK_PEER_DIR
#   REF_DIR: the folder of the C references (its bmn-fast/ and war-lanes/ subfolders);
#   BMN_PEER_DIR, SQUAAAWK_PEER_DIR: git clones (or bare git directories) of acinnes/bmn and
#   squaaawk/war ("" leaves a peer out). Nothing is fetched.
set -euo pipefail
here=$(dirname "$0")
source "$here/lib.sh"
usage="usage: scripts/speed-all.sh REPS REF_DIR BMN_PEER_DIR SQUAAAWK_PEER_DIR"
reps=${1:?$usage}
ref=${2:?$usage}
bmn_peer=${3-}
squaaawk_peer=${4-}
for sub in bmn-fast war-lanes; do
  if [ ! -d "$ref/$sub" ]; then
    echo "speed-all: no $sub/ in $ref (REF_DIR holds the C references' bmn-fast/ and war-lanes/)" >&2
    exit 2
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
table() { # NAME SCRIPT ARGS...: the script's table into results/NAME.txt
  local name=$1
  shift
  echo "speed-all: $name ($(date +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg))" >&2
  "$@" >"$tmp/$name.txt"
  mv "$tmp/$name.txt" "$root/results/$name.txt"
}
table bmn-speed "$here/bmn-speed.sh" "$reps" "$bmn_peer" "$ref/bmn-fast"
table lanes-speed "$here/lanes-speed.sh" "$reps" "$ref/war-lanes"
table squaaawk-speed "$here/squaaawk-speed.sh" "$reps" "$squaaawk_peer"
table search-speed "$here/search-speed.sh" "$reps"
table scaling "$here/scaling.sh" "$reps"
table bmn-perf "$here/bmn-perf.sh"
table perf-lanes "$here/perf-shares.sh"
python3 "$here/readme_tables.py"
