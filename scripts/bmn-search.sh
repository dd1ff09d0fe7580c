#!/usr/bin/env bash
# The record search of docs/bmn.md: `search bmn` from seed 0 for DEALS deals (600,000,000 by
# default: about 10 minutes on 2 cores), on every core, into OUTDIR.
# Usage: scripts/bmn-search.sh OUTDIR [DEALS]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=${1:?usage: scripts/bmn-search.sh OUTDIR [DEALS]}
deals=${2:-600000000}
build_warsim
"$warsim" search bmn --deals "$deals" --walkers 64 --seed 0 --keep 10 --progress log --out "$out"
