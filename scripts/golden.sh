#!/usr/bin/env bash
# Records the golden outputs in tests/golden/ from the binary as built now. The test
# tests/cli/golden.rs compares every later build with them, so results never change by accident.
# Run it only when a change of results is intended, and say why in the commit.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$root"
build_warsim
golden=tests/golden
grep -v '^#' "$golden/cases.txt" | while read -r name args; do
  [ -n "$name" ] || continue
  dir=$golden/$name
  rm -rf "$dir"
  mkdir -p "$dir"
  # shellcheck disable=SC2086
  set -- $args
  if [ "$1" = play ]; then
    $warsim "$@" > "$dir/stdout"
  else
    tmp=$(mktemp -d)
    $warsim "$@" --out "$tmp/out" > /dev/null
    cp "$tmp/out/histogram.csv" "$dir/"
    [ -f "$tmp/out/cycles.csv" ] && cp "$tmp/out/cycles.csv" "$dir/"
    python3 - "$tmp/out/summary.json" "$dir/summary.json" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
for k in ("elapsed_s", "games_per_s", "threads", "timing", "provenance"):
    v.pop(k, None)
json.dump(v, open(sys.argv[2], "w"), indent=1)
open(sys.argv[2], "a").write("\n")
PY
    rm -rf "$tmp"
  fi
done
echo "golden: $(grep -vc '^#' "$golden/cases.txt") cases recorded in $golden" >&2
