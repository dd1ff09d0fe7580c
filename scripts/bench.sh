#!/usr/bin/env bash
# Whole-run throughput of `warsim simulate` on this machine: games/s and rounds/s for 1 and 2
# threads (median of REPS runs) and the 2-thread speed-up; the War rule sets on each path this
# CPU runs (lib.sh's war_paths, of WARSIM_PATH=lanes, lanes-avx2, avx512 and scalar: a named
# path plays every rule set it can);
# the instruction counts of scripts/profile.sh; the peak memory of a 10-million-game run; the
# bryer rules on each path (scripts/lanes-speed.sh), beside the C probe and lanes prototype of
# issue 25 when LANES_REF_DIR holds them; and, when SQUAAAWK_DIR is given, classic and the
# won-pile rules on each path beside squaaawk/war (scripts/squaaawk-speed.sh).
# Usage: scripts/bench.sh [REPS=5] [SQUAAAWK_DIR] [LANES_REF_DIR]
#   SQUAAAWK_DIR: a git clone (or bare git directory) of github.com/squaaawk/war; without it
#     the squaaawk/war section is left out (pass "" to skip it and still give LANES_REF_DIR).
#   LANES_REF_DIR: the folder of issue 25's C reference (war_limit.c, sim.c and its headers);
#     without it the bryer section times warsim's paths only.
# results/bench.txt is made with both:
#   scripts/bench.sh 5 SQUAAAWK_DIR LANES_REF_DIR > results/bench.txt
set -euo pipefail
source "$(dirname "$0")/lib.sh"
reps=${1:-5}
squaaawk=${2:-}
lanes_ref=${3:-}
# Checked before the first run, not after minutes of it.
if [ -n "$squaaawk" ] && ! git -C "$squaaawk" rev-parse --verify -q HEAD >/dev/null 2>&1; then
  echo "bench: $squaaawk is not a git clone (or bare git directory) of squaaawk/war" >&2
  exit 2
fi
if [ -n "$lanes_ref" ] && [ ! -f "$lanes_ref/war_limit.c" ]; then
  echo "bench: no war_limit.c in $lanes_ref (LANES_REF_DIR must hold the C probe and prototype)" >&2
  exit 2
fi
build_speed
need /usr/bin/time time

rate() { # ARGS... -> median "games/s rounds/s" over $reps runs
  for _ in $(seq "$reps"); do
    "$warsim" simulate "$@" --json |
      python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["games_per_s"], s["games_per_s"] * s["rounds"]["mean"])'
  done | sort -g | awk '{g[NR]=$1; r[NR]=$2} END {m=int((NR+1)/2); print g[m], r[m]}'
}

paths=$(war_paths)
vector=$(for f in avx2 avx512f avx512bw avx512vl avx512dq avx512_vbmi2 popcnt; do
  grep -m1 '^flags' /proc/cpuinfo | grep -qw "$f" && printf '%s ' "$f"
done)
echo "machine: $(nproc) cores, $(cpu_name)"
echo "vector features: ${vector:-none}-> War paths this CPU runs: $paths"
printf '%-40s %12s %12s %8s %14s %14s\n' "run" "games/s 1t" "games/s 2t" "speed-up" \
  "rounds/s 1t" "rounds/s 2t"
row() { # LABEL GAMES ARGS...
  local label=$1 games=$2
  shift 2
  read -r g1 r1 < <(rate "$@" --games "$games" --threads 1)
  read -r g2 r2 < <(rate "$@" --games "$games" --threads 2)
  printf '%-40s %12.0f %12.0f %7.2fx %14.3g %14.3g\n' "$label" "$g1" "$g2" \
    "$(python3 -c "print($g2 / $g1)")" "$r1" "$r2"
}
war_rows() { # SUFFIX [p1-first too]
  row "war-bryer$1" 2000000 war --rules bryer
  row "war-classic$1" 1000000 war
  row "war-won-pile$1" 1000000 war --pickup won-pile
  if [ -n "${2:-}" ]; then row "war-p1-first(loops)$1" 300000 war --pickup p1-first; fi
}
for p in $paths; do
  WARSIM_PATH=$p war_rows " [$p]" p1-first
done
row snap-2p-13x4 1000000 snap
row bmn 1000000 bmn
row shotgun 10000000 shotgun
row rps-10-players 1000000 rps --players 10
row jitsu-random 1000000 jitsu --strategy random
row jitsu-greedy 1000000 jitsu --strategy greedy

# exact war plays every deal of a small deck on each path (deals/s, 2 threads, median).
exact_rate() { # ARGS... -> median deals/s over $reps runs
  for _ in $(seq "$reps"); do
    "$warsim" exact war "$@" --threads 2 --json |
      python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["games"] / s["elapsed_s"])'
  done | sort -g | awk '{g[NR]=$1} END {print g[int((NR+1)/2)]}'
}
for args in "--ranks 6 --suits 2 --pickup p1-first" "--ranks 6 --suits 2 --pickup loser-first"; do
  for p in $paths; do
    # shellcheck disable=SC2086 # $args is a list of options
    printf '%-52s %12.0f deals/s\n' "exact war $args [$p]" "$(WARSIM_PATH=$p exact_rate $args)"
  done
done

peak=$( { /usr/bin/time -v "$warsim" simulate war --rules bryer --games 10000000 --threads 2 \
  >/dev/null; } 2>&1 | awk -F: '/Maximum resident/ {print $2}' | xargs)
echo "peak memory, simulate war --rules bryer --games 10000000 --threads 2: $((peak / 1024)) MB"
echo
"$(dirname "$0")/profile.sh"
echo
"$(dirname "$0")/lanes-speed.sh" "$reps" "$lanes_ref"
if [ -n "$squaaawk" ]; then
  echo
  "$(dirname "$0")/squaaawk-speed.sh" "$reps" "$squaaawk"
else
  echo "bench: squaaawk/war left out (give a clone of github.com/squaaawk/war:" \
    "scripts/bench.sh $reps SQUAAAWK_DIR)" >&2
fi
