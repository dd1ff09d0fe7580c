#!/usr/bin/env bash
# Beggar-my-neighbour deals per second on one thread: warsim's `simulate bmn` (a uniform
# shuffle per deal, loop detection every trick) beside acinnes/bmn's CPU engines (a swap of two
# cards per deal, no loop detection), compiled here with g++ -O3 -march=native. Runs alternate,
# REPS each, medians printed. The reference is read from a local copy of
# github.com/acinnes/bmn (it has no licence to vendor it): PEER_DIR, a git clone or a bare git
# directory of it (this script never fetches: `git clone https://github.com/acinnes/bmn DIR`
# makes one), whose HEAD is built; without it (or with "") only warsim is measured, and the
# first line says how to pass the reference. results/bmn-speed.txt:
# scripts/bmn-speed.sh 5 PEER_DIR > results/bmn-speed.txt
# Usage: scripts/bmn-speed.sh [REPS=5] [PEER_DIR] [SECONDS=6]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
reps=${1:-5}
ref=${2:-}
secs=${3:-6}
if [ -n "$ref" ] && ! git -C "$ref" rev-parse --verify -q HEAD >/dev/null 2>&1; then
  echo "bmn-speed: $ref is not a git clone (or bare git directory) of acinnes/bmn" >&2
  exit 2
fi
build_speed
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
engines=()
if [ -n "$ref" ]; then
  need g++ g++
  for e in playbmn playbmn_cpu; do
    git -C "$ref" show "HEAD:$e.cpp" > "$work/$e.cpp"
    # -include cstring: the sources call memcmp and strlen without including it.
    g++ -O3 -march=native -DNDEBUG -std=c++17 -pthread -include cstring -o "$work/$e" "$work/$e.cpp"
    engines+=("$e")
  done
  echo "reference: acinnes/bmn $(git -C "$ref" rev-parse --short HEAD), g++ $(g++ -dumpversion)"
else
  echo "reference: none (pass a clone of github.com/acinnes/bmn:" \
    "scripts/bmn-speed.sh $reps PEER_DIR)"
fi
reference() { # ENGINE -> its last "N per second" after $secs seconds on one thread
  timeout "$secs" stdbuf -o0 "$work/$1" -t 1 | tr '\r' '\n' |
    sed -n 's/.*(\([0-9.e+]*\) per second).*/\1/p' | tail -1 || true
}
ours() {
  "$warsim" simulate bmn --games 3000000 --threads 1 --seed "$1" --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["games_per_s"])'
}
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
declare -A runs
for r in $(seq "$reps"); do
  runs[warsim]+="$(ours "$r") "
  for e in "${engines[@]}"; do
    runs[$e]+="$(reference "$e") "
  done
done
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); one thread, median of $reps"
w=$(tr ' ' '\n' <<< "${runs[warsim]}" | grep . | median)
printf '%-34s %12.0f deals/s\n' "warsim simulate bmn" "$w"
for e in "${engines[@]}"; do
  v=$(tr ' ' '\n' <<< "${runs[$e]}" | grep . | median)
  printf '%-34s %12.0f deals/s   warsim is %.2fx\n' "acinnes/bmn $e" "$v" "$(python3 -c "print($w / $v)")"
done
