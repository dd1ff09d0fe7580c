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
done
[ -x "$warsim" ] || { echo "submit: no warsim at $warsim (cargo build --release, or set WARSIM)" >&2; exit 2; }
[ ! -e "$out/run.env" ] || { echo "submit: $out already holds a run ($out/run.env); resubmit its failed tasks with $here/resubmit.sh $out, or choose another --out" >&2; exit 2; }

mkdir -p "$out/logs" "$out/shards"
out=$(cd "$out" && pwd)
record_run
array=$(submit_tasks "0-$((tasks - 1))")
merge=$(submit_merge "$array")
report "$array" "$merge" "$tasks tasks of: warsim $* --shard K/$tasks"
