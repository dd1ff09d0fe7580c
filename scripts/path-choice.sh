#!/usr/bin/env bash
# Which War path plays each rule set on this CPU (issue 41; docs/speed.md, "Which path plays,
# CPU by CPU"): the two presets (whose lanes measured.rs chooses by the CPU's family), the rule
# sets core/src/games/war/lanes/measured.rs names, and the won pile,
# timed on each path this CPU runs (lib.sh's war_paths, forced with WARSIM_PATH) on one thread,
# REPS alternating runs each, games (or, for exact, deals) over CPU time: the median and the
# best of each, and the path a run that names none plays (summary.json's provenance.engine).
# Writes the table on stdout: scripts/path-choice.sh 5 > results/path-choice.txt (made on a
# Zen 3 EPYC; results/path-choice-zen4.txt on a Zen 4 one)
# Usage: scripts/path-choice.sh [REPS=5]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
reps=${1:-5}
build_speed
need /usr/bin/time time
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
read -ra paths <<<"$(war_paths)"
# LABEL|COMMAND ARGS (games or deals given here)
cases=(
  "bryer|simulate war --rules bryer --games 1000000 --seed 1"
  "classic|simulate war --games 400000 --seed 1"
  "p1-first, loops, 52 cards|simulate war --pickup p1-first --detect-loops on --games 40000 --seed 1"
  "p1-first, loops, 40 cards|simulate war --pickup p1-first --detect-loops on --ranks 10 --games 100000 --seed 1"
  "p1-first, loops, 32 cards|simulate war --pickup p1-first --detect-loops on --ranks 8 --games 200000 --seed 1"
  "exact war, 6 ranks x 2 suits, p1-first|exact war --ranks 6 --suits 2 --pickup p1-first"
  "won-pile pickup|simulate war --pickup won-pile --games 300000 --seed 1"
)
# run PATH ARGS... -> "count cpu_s": games (or deals) played and the process's user + sys time.
run() {
  local path=$1
  shift
  /usr/bin/time -f "%U %S" -o "$tmp/t" env "WARSIM_PATH=$path" "$warsim" "$@" --threads 1 \
    --json >"$tmp/out"
  echo "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])' <"$tmp/out")" \
    "$(awk '{print $1 + $2}' "$tmp/t")"
}
for _ in $(seq "$reps"); do
  for c in "${cases[@]}"; do
    read -ra args <<<"${c#*|}"
    for p in "${paths[@]}"; do
      echo "${c%%|*}|$p|$(run "$p" "${args[@]}")" >>"$tmp/all"
    done
  done
done
echo "machine: $(nproc) cores, $(cpu_name); 1 thread; load average at the end:" \
  "$(cut -d' ' -f1-3 /proc/loadavg)"
echo "games (exact: deals) per CPU second, median and best of $reps alternating runs; 'plays':" \
  "the path of a run that names none"
printf '%-40s' "rule set"
for p in "${paths[@]}"; do printf ' %22s' "$p median / best"; done
printf '  %s\n' plays
for c in "${cases[@]}"; do
  label=${c%%|*}
  read -ra args <<<"${c#*|}"
  printf '%-40s' "$label"
  for p in "${paths[@]}"; do
    awk -F'|' -v l="$label" -v p="$p" '$1 == l && $2 == p {split($3, f, " "); print f[1] / f[2]}' \
      "$tmp/all" | sort -g | awk '{a[NR]=$1} END {printf " %10.0f / %9.0f", a[int((NR+1)/2)], a[NR]}'
  done
  # The path a run names none of: the same command with WARSIM_PATH unset, told by its summary.
  engine=$(env -u WARSIM_PATH "$warsim" "${args[@]}" --threads 1 --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["provenance"]["engine"])')
  printf '  %s\n' "$engine"
done
