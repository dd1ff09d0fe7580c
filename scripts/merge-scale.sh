#!/usr/bin/env bash
# How merge scales with the number of shards: SHARDS shard outputs of one run (GAMES war games),
# merged; prints the merge's wall time and peak memory, and checks the merged histogram equals
# the unsharded run's. Usage: scripts/merge-scale.sh [SHARDS=1000] [GAMES=2000000]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
shards=${1:-1000}
games=${2:-2000000}
build_warsim
need /usr/bin/time time
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seq 0 $((shards - 1)) | xargs -P "$(nproc)" -I{} \
  "$warsim" simulate war --games "$games" --seed 3 --threads 1 --shard "{}/$shards" --out "$work/s/{}" >/dev/null
"$warsim" simulate war --games "$games" --seed 3 --out "$work/whole" >/dev/null
dirs=(); for k in $(seq 0 $((shards - 1))); do dirs+=("$work/s/$k"); done
/usr/bin/time -f '%e %M' -o "$work/time" "$warsim" merge "${dirs[@]}" --out "$work/merged" >/dev/null
read -r secs kb < "$work/time"
cmp "$work/whole/histogram.csv" "$work/merged/histogram.csv"
echo "merge of $shards shards ($games war games): ${secs} s, peak memory $((kb / 1024)) MB; histogram identical to the unsharded run"
