#!/usr/bin/env bash
# Resubmits the failed tasks of a run made by submit.sh, and a new merge job after them.
#   scripts/slurm/resubmit.sh DIR [K ...]
# Without K, the tasks to rerun are those whose shard DIR/shards/K is not complete: it has no
# summary.json (a task writes its output set whole or not at all), or one that says "stopped":
# true (SIGTERM, a preemption's warning, or --max-hours stopped it part way). A task whose shard
# was stopped, or that was killed after a checkpoint, resumes it with `warsim resume` rather
# than play it again (jobs.sh, task_script); any other plays it. The same command, options and
# sbatch options as the first submission (DIR/run.env); logs are appended to.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/jobs.sh"
usage="usage: $0 DIR [K ...]"
[ $# -ge 1 ] || { echo "resubmit: the run directory is missing; $usage" >&2; exit 2; }
[ -f "$1/run.env" ] || { echo "resubmit: $1/run.env not found: not a run made by submit.sh" >&2; exit 2; }
source "$1/run.env"
shift
todo=()
if [ $# -gt 0 ]; then
  for k in "$@"; do
    [[ $k =~ ^[0-9]+$ ]] && [ "$k" -lt "$tasks" ] || { echo "resubmit: task $k: tasks are 0..$((tasks - 1))" >&2; exit 2; }
    todo+=("$k")
  done
else
  for k in $(seq 0 $((tasks - 1))); do
    summary=$out/shards/$k/summary.json
    if [ ! -f "$summary" ] || grep -qs '"stopped": true' "$summary"; then todo+=("$k"); fi
  done
fi
if [ ${#todo[@]} -eq 0 ]; then
  echo "resubmit: every shard of $out is complete; nothing to rerun (merge: $warsim merge $out/shards/* --out $out/merged)" >&2
  exit 0
fi
spec=$(IFS=,; echo "${todo[*]}")
submit_run "$spec" "tasks $spec of $tasks again: warsim ${args[*]} --shard K/$tasks" || exit 1
