#!/usr/bin/env bash
# Makes results/python/example.png with the README's notebook example, run as written there.
# Usage: scripts/python-example.sh   (after scripts/python-test.sh or `pip install ./`)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
mkdir -p "$root/results/python"
cd "$root/results/python"
python3 - <<'PY'
import warsim

r = warsim.simulate("war", games=100_000, seed=0, pickup="winner-first")
print(r.summary["rounds"]["mean"], r.summary["rounds"]["ci95"])
print(r.histogram.head())
with open("example.png", "wb") as f:
    f.write(r.to_png())  # what a notebook shows for `r`
PY
