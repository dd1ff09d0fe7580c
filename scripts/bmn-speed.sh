#!/usr/bin/env bash
# Beggar-my-neighbour deals per second on one thread, from CPU time (this machine is shared):
# warsim's `simulate bmn` on each engine path this CPU runs (`lanes`, the default where the CPU
# has AVX-512 F, CD, BW and VBMI2; `lanes-avx2`, the default where it has AVX2 and BMI2 only,
# by WARSIM_PATH=lanes-avx2 beside `lanes`; `phase`, by WARSIM_PATH=phase; `cards`, the
# card-by-card reference, by
# WARSIM_PATH=cards; a uniform shuffle per deal, loops detected exactly on every path), beside
# two optional references, each built here into a temporary folder:
#  - PEER_DIR, a git clone (or bare git directory) of github.com/acinnes/bmn, whose HEAD's CPU
#    engines playbmn and playbmn_cpu are compiled with g++ -O3 -march=native (a swap of two
#    cards per deal, no loop detection). It has no licence to vendor it, and this script never
#    fetches: `git clone https://github.com/acinnes/bmn DIR` makes one.
#  - C_REF_DIR, the folder of the C reference of issues 40 and 52 (its README.md, common.h,
#    ref.h, phase.h; bmn.c and lanes_avx2.h for issue 52's AVX2 lanes): its card-by-card engine
#    (ref.h) and its phase engine (phase.h) on warsim's own deals (deal_warsim, the scalar
#    shuffle), through a small driver written below, with phase.h's AVX-512 hand_bits replaced
#    by a portable loop (the only AVX-512 it uses), so it runs on any x86-64 CPU; and, where the
#    CPU has AVX2 and BMI2, its AVX2 lanes with its vector dealer (`bmn_fast run avx2 vec`, the
#    design warsim's lanes-avx2 path follows), and where it has the AVX-512 features its
#    common.h asks for, its AVX-512 lanes (`bmn_fast run lanes vec`, beside warsim's `lanes`).
# Runs alternate, REPS each, medians printed, each row against warsim's default path. E.g.
# scripts/bmn-speed.sh 5 PEER_DIR C_REF_DIR > results/bmn-speed.txt
# Usage: scripts/bmn-speed.sh [REPS=5] [PEER_DIR] [C_REF_DIR] [SECONDS=6]   ("" skips one)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
reps=${1:-5}
ref=${2:-}
cref=${3:-}
secs=${4:-6}
games=4000000
if [ -n "$ref" ] && ! git -C "$ref" rev-parse --verify -q HEAD >/dev/null 2>&1; then
  echo "bmn-speed: $ref is not a git clone (or bare git directory) of acinnes/bmn" >&2
  exit 2
fi
if [ -n "$cref" ] && { ! [ -f "$cref/phase.h" ] || ! [ -f "$cref/ref.h" ]; }; then
  echo "bmn-speed: $cref holds no phase.h and ref.h (issue 40's C reference)" >&2
  exit 2
fi
build_speed
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
peers=()
if [ -n "$ref" ]; then
  need g++ g++
  for e in playbmn playbmn_cpu; do
    git -C "$ref" show "HEAD:$e.cpp" > "$work/$e.cpp"
    # -include cstring: the sources call memcmp and strlen without including it.
    g++ -O3 -march=native -DNDEBUG -std=c++17 -pthread -include cstring -o "$work/$e" "$work/$e.cpp"
    peers+=("$e")
  done
  echo "reference: acinnes/bmn $(git -C "$ref" rev-parse --short HEAD), g++ $(g++ -dumpversion)"
else
  echo "reference: acinnes/bmn not given (scripts/bmn-speed.sh $reps PEER_DIR C_REF_DIR)"
fi
cengines=()
if [ -n "$cref" ]; then
  need gcc gcc
  cp "$cref"/*.h "$work/"
  python3 - "$work/phase.h" <<'PY'
import sys
path = sys.argv[1]
src = open(path).read()
start = src.index('static inline void hand_bits')
# Issue 52's phase.h has an AVX2 hand_bits beside the AVX-512 one: the whole #if goes.
guard = '#if HAVE_AVX512\n'
if src[:start].endswith(guard):
    start -= len(guard)
end = src.index('static inline ppos_t ppos_deal')
portable = '''static inline void hand_bits(const uint8_t *h, int n, uint64_t *p, uint32_t *q) {
  uint64_t m = 0; uint32_t qq = 0; int k = 0;
  for (int i = 0; i < n; i++) if (h[i]) { m |= 1ULL << i; qq |= (uint32_t)(h[i] - 1) << (2 * k++); }
  *p = m; *q = qq;
}
'''
open(path, 'w').write(src[:start] + portable + src[end:])
PY
  cat > "$work/driver.c" <<'C'
#include "common.h"
#include "ref.h"
#include "phase.h"
int main(int argc, char **argv) {  /* ref|phase N SEED: deal and play N deals, CPU time */
  int ph = !strcmp(argv[1], "phase");
  uint64_t n = atoll(argv[2]), seed = atoll(argv[3]), cards = 0;  /* cards: kept live */
  uint8_t deck[96] = {0};
  double t0 = cpu_s();
  for (uint64_t g = 0; g < n; g++) {
    deal_warsim(seed, g, deck);
    cards += (ph ? ph_play(ppos_deal(deck)) : ref_play_deck(deck)).cards;
  }
  printf("%.0f %lu\n", n / (cpu_s() - t0), cards);  /* deals per CPU second, total cards */
  return 0;
}
C
  gcc -O3 -march=native -w -o "$work/cref" "$work/driver.c"
  cengines=(ref phase)
  echo "reference: issue 40's C reference ($(basename "$cref")), ref.h and phase.h (hand_bits" \
    "portable) with warsim's scalar deal, gcc $(gcc -dumpversion) -O3 -march=native"
  # Issue 52's AVX2 lanes, built as its build.sh builds them, from an untouched copy.
  if [ -f "$cref/lanes_avx2.h" ] && grep -qw avx2 /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo; then
    mkdir "$work/fast"
    cp "$cref"/*.h "$cref"/bmn.c "$work/fast/"
    gcc -O3 -march=native --param=sra-max-scalarization-size-Ospeed=4096 -w \
      -o "$work/bmn_fast" "$work/fast/bmn.c"
    cengines+=(avx2)
    echo "reference: issue 52's C reference, its AVX2 lanes (lanes_avx2.h, bmn_fast run avx2 vec:" \
      "its vector dealer, warsim's deals), gcc $(gcc -dumpversion) -O3 -march=native"
    # Its AVX-512 lanes, built only where the CPU has every feature common.h's HAVE_AVX512 names.
    if (for f in avx512f avx512bw avx512vl avx512dq avx512cd avx512vbmi avx512_vbmi2 \
      avx512_vpopcntdq gfni; do grep -qw "$f" /proc/cpuinfo || exit 1; done); then
      cengines+=(lanes)
      echo "reference: issue 52's C reference, its AVX-512 lanes (lanes.h, bmn_fast run lanes vec)"
    fi
  fi
else
  echo "reference: the C reference not given (scripts/bmn-speed.sh $reps PEER_DIR C_REF_DIR)"
fi
ours() { # ENGINE SEED -> deals per CPU second of `simulate bmn` on that engine path
  local t=$work/time
  WARSIM_PATH=$1 /usr/bin/time -f '%U %S' -o "$t" \
    "$warsim" simulate bmn --games "$games" --threads 1 --seed "$2" --json > "$work/json"
  python3 - "$work/json" "$1" "$games" "$t" <<'PY'
import json, sys
run, want, games, t = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3]), sys.argv[4]
engine = run['provenance']['engine']
if engine != want:
    sys.exit(f'bmn-speed: asked for the {want} path, summary.json says {engine}')
print(games / sum(map(float, open(t).read().split())))
PY
}
peer() { # ENGINE -> its last count of deals over its CPU time (its own count is by wall clock)
  local t=$work/time
  /usr/bin/time -f '%e %U %S' -o "$t" timeout "$secs" stdbuf -o0 "$work/$1" -t 1 > "$work/out" || true
  tr '\r' '\n' < "$work/out" | awk -v times="$(tail -1 "$t")" '
    /deals tested/ { s = $1; n = $3 }
    END { split(times, x, " "); if (s > 0) print n / (s * (x[2] + x[3]) / x[1]) }'
}
cref_rate() { # ENGINE SEED -> deals per CPU second of the C reference's engine
  if [ "$1" = avx2 ] || [ "$1" = lanes ]; then
    "$work/bmn_fast" run "$1" vec "$games" "$2" | sed -n 's/.*deals_per_cpu_s \([0-9.]*\).*/\1/p'
  else
    "$work/cref" "$1" "$games" "$2" | cut -d' ' -f1
  fi
}
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
# The lanes where this CPU runs them (the summary names the path that played), widest first.
paths=(phase cards)
for p in lanes-avx2 lanes; do
  if WARSIM_PATH=$p "$warsim" simulate bmn --games 100 --threads 1 --json |
    grep -q "\"engine\": *\"$p\""; then
    paths=("$p" "${paths[@]}")
  fi
done
declare -A runs
for r in $(seq "$reps"); do
  for e in "${paths[@]}"; do
    runs[$e]+="$(ours "$e" "$r") "
  done
  for e in "${peers[@]}"; do
    runs[$e]+="$(peer "$e") "
  done
  for e in "${cengines[@]}"; do
    runs[c$e]+="$(cref_rate "$e" "$r") "
  done
done
flags=$(grep -m1 '^flags' /proc/cpuinfo)
has() { if [[ " $flags " == *" $1 "* ]]; then echo "$1"; else echo "no $1"; fi; }
simd="$(has avx2), $(has avx512f)"
echo "machine: $(nproc) cores, $(cpu_name)" \
  "($simd); one thread, median of $reps alternating runs, deals per CPU second;" \
  "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
med() { tr ' ' '\n' <<< "${runs[$1]}" | grep . | median; }
best=${paths[0]}
w=$(med "$best")
row() { # LABEL KEY
  local v
  v=$(med "$2")
  printf '%-40s %12.0f deals/s   warsim %s is %.2fx\n' "$1" "$v" "$best" \
    "$(python3 -c "print($w / $v)")"
}
for e in "${paths[@]}"; do
  row "warsim simulate bmn [$e]" "$e"
done
for e in "${cengines[@]}"; do
  case $e in
    avx2) row "C reference lanes_avx2.h (vector deal)" "c$e" ;;
    lanes) row "C reference lanes.h, AVX-512 (vector deal)" "c$e" ;;
    *) row "C reference $e.h (scalar deal)" "c$e" ;;
  esac
done
for e in "${peers[@]}"; do
  row "acinnes/bmn $e" "$e"
done
