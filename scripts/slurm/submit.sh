#!/usr/bin/env bash
# Runs any warsim simulation as a Slurm job array plus a merge job.
#   scripts/slurm/submit.sh --tasks T --out DIR [sbatch options] -- simulate GAME [options]
# Task K of the array runs `warsim simulate GAME [options] --shard K/T --out DIR/shards/K`
# (its log, DIR/logs/task-K.log, shows progress every 10 s); the merge job starts only when
# every task has succeeded (--dependency=afterok) and writes the merged summary.json,
# summary.csv, histogram.csv (and cycles.csv) and histogram.png into DIR/merged, identical to one
# unsharded run's. A failed task: `scripts/slurm/resubmit.sh DIR`. Prints the two job ids.
# WARSIM (default: this checkout's target/release/warsim) must be reachable from the nodes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/jobs.sh"
warsim=${WARSIM:-$(cd "$here/../.." && pwd)/target/release/warsim}
tasks= out= sbatch_opts=()
while [ $# -gt 0 ]; do
  case $1 in
    --tasks) tasks=$2; shift 2 ;;
    --tasks=*) tasks=${1#--tasks=}; shift ;;
    --out) out=$2; shift 2 ;;
    --out=*) out=${1#--out=}; shift ;;
    --) shift; break ;;
    *) sbatch_opts+=("$1"); shift ;;
  esac
done
args=("$@")
usage="usage: $0 --tasks T --out DIR [sbatch options] -- simulate GAME [options]"
[[ $tasks =~ ^[1-9][0-9]*$ ]] || { echo "submit: --tasks must be a positive whole number; $usage" >&2; exit 2; }
[ -n "$out" ] || { echo "submit: --out DIR is missing; $usage" >&2; exit 2; }
[ "${1:-}" = simulate ] && [ $# -ge 2 ] || { echo "submit: after -- give 'simulate GAME [options]'; $usage" >&2; exit 2; }
for a in "$@"; do
  case $a in --shard|--shard=*|--out|--out=*|--json|--progress|--progress=*) echo "submit: $a is set by submit.sh itself" >&2; exit 2 ;; esac
  case $a in --precision|--precision=*) echo "submit: $a: a run to a precision decides when to stop from all its games, so it cannot be split into tasks; give a fixed --games" >&2; exit 2 ;; esac
done

# games_of ARGS...: the run's --games as a plain whole number (default 1,000,000), read as
# warsim reads it: 1000000, 1_000_000, 1,000,000 or 1e6; empty when it is none of those
# (warsim then refuses it, in every task).
games_of() {
  local games=1000000 a prev=
  for a in "$@"; do
    [ "$prev" = --games ] && games=$a
    case $a in --games=*) games=${a#--games=} ;; esac
    prev=$a
  done
  games=${games//[_,]/}
  if [[ $games =~ ^0*([1-9][0-9]*)$ ]]; then
    echo "${BASH_REMATCH[1]}"
  elif [[ $games =~ ^[0-9]*\.?[0-9]+[eE]\+?[0-9]+$ ]]; then
    # warsim takes such a number when it is whole, up to 9e15: exact in awk's double (printed
    # with %.0f, as mawk's %d stops at 2^31).
    awk -v g="$games" 'BEGIN { if (g + 0 == int(g + 0) && g + 0 >= 1 && g + 0 <= 9e15) printf "%.0f\n", g + 0 }'
  fi
}
games=$(games_of "$@")
# A task needs at least one game: warsim refuses a shard of none, but only once it runs.
if [ -n "$games" ] && { [ ${#tasks} -gt ${#games} ] || { [ ${#tasks} -eq ${#games} ] && [[ $tasks > $games ]]; }; }; then
  echo "submit: --tasks $tasks is more than the run's $games games; give at most one task a game" >&2
  exit 2
fi
[ -x "$warsim" ] || { echo "submit: no warsim at $warsim (cargo build --release, or set WARSIM)" >&2; exit 2; }
[ ! -e "$out/run.env" ] || { echo "submit: $out already holds a run ($out/run.env); resubmit its failed tasks with $here/resubmit.sh $out, or choose another --out" >&2; exit 2; }

mkdir -p "$out/logs" "$out/shards"
out=$(cd "$out" && pwd)
record_run
# Nothing runs after a refusal: run.env goes too, so the same command can be given again.
submit_run "0-$((tasks - 1))" "$tasks tasks of: warsim $* --shard K/$tasks" ||
  { rm -f "$out/run.env"; exit 1; }
