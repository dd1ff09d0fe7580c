#!/usr/bin/env bash
# War's `bryer` rules on one thread, side by side (issue 25): warsim on each path this CPU runs
# (of the lanes, the AVX2 lanes, the avx512 block path and the scalar reference: lib.sh's
# war_paths),
# and, when REF_DIR is given, the plain C probe and the C lanes prototype of issue 25 (a C
# reference that is not part of this repository: REF_DIR is the folder holding its war_limit.c
# and sim.c with its headers; both are built here with gcc -O3 -march=native). Without REF_DIR
# the probe and prototype columns read "-"; on a CPU without AVX-512, which the prototype is
# written for, the prototype's column does.
# REPS rounds of alternating runs of GAMES games each; games/s from CPU time (user + sys), so
# that other jobs on this shared machine weigh less; the median of each and the ratios. Writes
# the table on stdout (results/lanes-speed.txt: scripts/lanes-speed.sh 5 REF_DIR).
# Usage: scripts/lanes-speed.sh [REPS=5] [REF_DIR] [GAMES=2000000]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
reps=${1:-5}
ref=${2:-}
games=${3:-2000000}
if [ -n "$ref" ] && [ ! -f "$ref/war_limit.c" ]; then
  echo "lanes-speed: no war_limit.c in $ref (REF_DIR must hold the C probe and prototype)" >&2
  exit 2
fi
build_speed
need /usr/bin/time time
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
read -ra progs <<<"$(war_paths)"
if [ -z "$ref" ]; then
  echo "lanes-speed: warsim only (the C probe and prototype need REF_DIR:" \
    "scripts/lanes-speed.sh $reps REF_DIR)" >&2
else
  need gcc gcc
  gcc -O3 -march=native -pthread -o "$tmp/war_limit" "$ref/war_limit.c"
  progs+=(probe)
  # The prototype is AVX-512 code (16 dword lanes a vector): a CPU without AVX-512 (F and BW)
  # cannot run it, and gcc -march=native does not compile it there.
  if grep -m1 '^flags' /proc/cpuinfo | grep -w avx512f | grep -qw avx512bw; then
    gcc -O3 -march=native -o "$tmp/simd_war" "$ref/sim.c"
    progs+=(prototype)
  else
    echo "lanes-speed: no AVX-512 on this CPU, so no C prototype column (it is AVX-512 code)" >&2
  fi
fi
run() { # PROG -> CPU seconds
  local cmd
  case $1 in
    probe) cmd=("$tmp/war_limit" "$games" 1 1 1) ;;
    prototype) cmd=("$tmp/simd_war" v16b_vj "$games" 1) ;;
    *) cmd=(env "WARSIM_PATH=$1" "$warsim" simulate war --rules bryer --games "$games" --seed 1
      --threads 1 --json) ;;
  esac
  /usr/bin/time -f "%U %S" -o "$tmp/t" "${cmd[@]}" >/dev/null
  awk '{print $1 + $2}' "$tmp/t"
}
for _ in $(seq "$reps"); do
  for p in "${progs[@]}"; do
    echo "$p $(run "$p")" >>"$tmp/all"
  done
done
echo "machine: $(cpu_name); 1 thread, $games games"
echo "bryer rules, median of $reps alternating runs (games/s from CPU time, lowest-highest)"
printf '%-12s %12s %25s %10s %10s %10s\n' run games/s range "vs probe" "vs scalar" "vs proto"
declare -A rate
for p in "${progs[@]}"; do
  rate[$p]=$(awk -v p="$p" -v n="$games" '$1 == p {print n / $2}' "$tmp/all" | sort -g |
    awk '{a[NR]=$1} END {print a[int((NR+1)/2)], a[1], a[NR]}')
done
for p in "${progs[@]}"; do
  read -r m lo hi <<<"${rate[$p]}"
  vs() { [ -n "${rate[$1]:-}" ] && python3 -c "print(f'{$m / ${rate[$1]%% *}:.2f}x')" || echo -; }
  printf '%-12s %12.0f %25s %10s %10s %10s\n' "$p" "$m" "$(printf '%.0f-%.0f' "$lo" "$hi")" \
    "$(vs probe)" "$(vs scalar)" "$(vs prototype)"
done
# The path a run that names none plays (its provenance's engine), which the README's table shows.
echo "plays: $("$warsim" simulate war --rules bryer --games 1000 --threads 1 --json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["provenance"]["engine"])')" \
  "(the path a run that names none plays here)"
