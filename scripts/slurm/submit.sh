#!/usr/bin/env bash
# Runs any warsim simulation as a Slurm job array plus a merge job.
#   scripts/slurm/submit.sh --tasks T --out DIR [sbatch options] -- simulate GAME [options]
# Task K of the array runs `warsim simulate GAME [options] --shard K/T --out DIR/shards/K`; the
# merge job starts only when every task has succeeded (--dependency=afterok) and writes the
# merged summary.json, summary.csv, histogram.csv (and cycles.csv) and histogram.png into
# DIR/merged, identical to one unsharded run's. Logs go to DIR/logs. Prints the two job ids.
# WARSIM (default: this checkout's target/release/warsim) must be reachable from the nodes.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
warsim=${WARSIM:-$root/target/release/warsim}
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
usage="usage: $0 --tasks T --out DIR [sbatch options] -- simulate GAME [options]"
[[ $tasks =~ ^[1-9][0-9]*$ ]] || { echo "submit: --tasks must be a positive whole number; $usage" >&2; exit 2; }
[ -n "$out" ] || { echo "submit: --out DIR is missing; $usage" >&2; exit 2; }
[ "${1:-}" = simulate ] && [ $# -ge 2 ] || { echo "submit: after -- give 'simulate GAME [options]'; $usage" >&2; exit 2; }
for a in "$@"; do
  case $a in --shard|--shard=*|--out|--out=*|--json) echo "submit: $a is set by submit.sh itself" >&2; exit 2 ;; esac
done
[ -x "$warsim" ] || { echo "submit: no warsim at $warsim (cargo build --release, or set WARSIM)" >&2; exit 2; }

mkdir -p "$out/logs" "$out/shards"
out=$(cd "$out" && pwd)
threads='--threads ${SLURM_CPUS_PER_TASK:-1}'
for a in "$@"; do case $a in --threads|--threads=*) threads= ;; esac; done
cmd=$(printf '%q ' "$warsim" "$@")
# One CPU a task unless the sbatch options ask for more (warsim uses them all via --threads).
cpus=(--cpus-per-task=1)
for o in "${sbatch_opts[@]}"; do case $o in -c|-c*|--cpus-per-task|--cpus-per-task=*) cpus=() ;; esac; done
array=$(sbatch --parsable --job-name=warsim --array="0-$((tasks - 1))" "${cpus[@]}" \
  --output="$out/logs/task-%a.log" "${sbatch_opts[@]}" \
  --wrap "$cmd $threads --shard \$SLURM_ARRAY_TASK_ID/$tasks --out $(printf '%q' "$out")/shards/\$SLURM_ARRAY_TASK_ID")
array=${array%%;*}
shards=$(for k in $(seq 0 $((tasks - 1))); do printf '%q ' "$out/shards/$k"; done)
# A failed task makes the dependency unsatisfiable: the merge job is then cancelled, not left
# pending forever.
merge=$(sbatch --parsable --job-name=warsim-merge --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  --output="$out/logs/merge.log" "${sbatch_opts[@]}" \
  --wrap "$(printf '%q' "$warsim") merge $shards --out $(printf '%q' "$out")/merged")
merge=${merge%%;*}
echo "array job $array: $tasks tasks of: warsim $* --shard K/$tasks"
echo "merge job $merge: starts when every task has succeeded, writes $out/merged"
echo "follow:  squeue -j $array,$merge    logs: $out/logs/    result: $out/merged/summary.json"
echo "ARRAY_JOB=$array MERGE_JOB=$merge"
