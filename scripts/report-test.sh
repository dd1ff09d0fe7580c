#!/usr/bin/env bash
# report.html in a real browser. Debian's chromium (installed when missing) renders the
# report.html of a run, a sweep, a compare, a Beggar-my-neighbour run and exact's Markov chain, headless, with every host name resolving to
# nothing and a network log: each screenshot must show the page (many colours, ink on white), and
# the log must hold no request but the file itself. Two pages made to fail (a blank one and one
# that loads an image over http) prove that both checks can fail.
# Usage: scripts/report-test.sh [SHOTS_DIR]   (SHOTS_DIR: keep the screenshots there, to look at)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
shots=${1:-}
build_warsim
need chromium chromium
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check="python3 $root/scripts/report-check.py"

# render NAME PAGE: a screenshot and a network log of PAGE (a file), as $work/NAME.png/.json.
render() {
  timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --disable-default-apps --disable-extensions --user-data-dir="$work/profile-$1" \
    --host-resolver-rules="MAP * ~NOTFOUND" --log-net-log="$work/$1.json" \
    --window-size=1280,2400 --screenshot="$work/$1.png" "file://$2" >"$work/$1.log" 2>&1 || {
    echo "chromium failed on $2:" >&2
    tail -5 "$work/$1.log" >&2
    exit 1
  }
}

"$warsim" simulate war --games 20000 --pickup p1-first --by p1-top --out "$work/run" >/dev/null
"$warsim" sweep war --war-down 1,2 --pickup shuffled,p1-first --games 2000 --out "$work/sweep" >/dev/null
"$warsim" compare "$work/run" "$work/sweep/war-down-1_pickup-shuffled" --out "$work/compare" >/dev/null
"$warsim" simulate bmn --games 20000 --out "$work/bmn" >/dev/null
"$warsim" exact war --ranks 3 --suits 2 --out "$work/chain" >/dev/null
for set in run sweep compare bmn chain; do
  render "$set" "$work/$set/report.html"
  $check shot "$work/$set.png"
  $check net "$work/$set.json"
  if [ -n "$shots" ]; then mkdir -p "$shots" && cp "$work/$set.png" "$shots/"; fi
done

# The checks fail where they should.
printf '<!DOCTYPE html><html><body></body></html>\n' >"$work/blank.html"
render blank "$work/blank.html"
if $check shot "$work/blank.png" 2>/dev/null; then
  echo "the blank page passed the screenshot check" >&2
  exit 1
fi
printf '<!DOCTYPE html><html><body><h1>x</h1><img src="http://example.invalid/a.png"></body></html>\n' >"$work/remote.html"
render remote "$work/remote.html"
if $check net "$work/remote.json" 2>/dev/null; then
  echo "a page loading http://example.invalid passed the network check" >&2
  exit 1
fi
echo "report.html: renders in chromium, loads nothing (run, sweep, compare)"
