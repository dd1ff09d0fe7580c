# The job submissions of a sharded run, shared by submit.sh and resubmit.sh (source it).
# A run directory DIR holds run.env (what submit.sh was asked: written once, read by
# resubmit.sh), shards/K (task K's output), logs/ and, after the merge job, merged/.

# submit_tasks SPEC: sbatch the array tasks SPEC (`0-7`, `3`, `1,5`) of the run described by
# the variables of run.env; prints the job id.
submit_tasks() {
  local threads='--threads ${SLURM_CPUS_PER_TASK:-1}' a cpus=(--cpus-per-task=1) o cmd id
  for a in "${args[@]}"; do case $a in --threads|--threads=*) threads= ;; esac; done
  # One CPU a task unless the sbatch options ask for more (warsim uses them all via --threads).
  for o in "${sbatch_opts[@]}"; do case $o in -c|-c*|--cpus-per-task|--cpus-per-task=*) cpus=() ;; esac; done
  cmd=$(printf '%q ' "$warsim" "${args[@]}")
  # Task logs show progress: a line every 10 s (a bar needs a terminal; a log file is none).
  # `|| return`: a command substitution does not inherit `set -e`, so a refused sbatch would
  # otherwise pass as an empty job id.
  id=$(sbatch --parsable --job-name=warsim --array="$1" "${cpus[@]}" \
    --open-mode=append --output="$out/logs/task-%a.log" "${sbatch_opts[@]}" \
    --wrap "$(task_script "$cmd $threads")") || return
  job_id "$id"
}

# task_script CMD: the script of a task of the run, CMD its warsim command but for --progress,
# --shard and --out. A shard that SIGTERM or Ctrl-C stopped (its summary.json says "stopped":
# true) or whose killed task left a checkpoint beside it (in a staging folder
# shards/.K.warsim-staging-*/checkpoint-*) is resumed by `warsim resume`, not played again;
# any other is played. warsim is the task's process itself (exec), so `--signal=B:TERM@120`
# reaches it: it writes what it finished, marked stopped, and the next submission resumes it.
task_script() {
  local shards k='$SLURM_ARRAY_TASK_ID'
  shards=$(printf '%q' "$out")/shards
  echo "if grep -qs '\"stopped\": true' $shards/$k/summary.json ||" \
    "ls -d $shards/.$k.warsim-staging-*/checkpoint-* >/dev/null 2>&1; then" \
    "exec $(printf '%q' "$warsim") resume $shards/$k --progress log;" \
    "else exec $1 --progress log --shard $k/$tasks --out $shards/$k; fi"
}

# submit_merge JOB: sbatch the merge of every shard into DIR/merged once JOB's tasks have all
# succeeded; a failed task makes the dependency unsatisfiable and the merge job is cancelled,
# not left pending forever. Prints the job id.
submit_merge() {
  local id
  # The shards are named by a glob the job expands when it runs, not listed here: one path a
  # task made the wrap line longer than a command line may be (128 KB at 5,000 tasks). merge
  # itself refuses a missing or duplicate shard, so the glob cannot merge a partial run.
  id=$(sbatch --parsable --job-name=warsim-merge --dependency="afterok:$1" --kill-on-invalid-dep=yes \
    --open-mode=append --output="$out/logs/merge.log" "${sbatch_opts[@]}" \
    --wrap "$(printf '%q' "$warsim") merge $(printf '%q' "$out")/shards/* --out $(printf '%q' "$out")/merged") || return
  job_id "$id"
}

# job_id OUTPUT: the job id in sbatch --parsable's output (`id` or `id;cluster`); fails on
# anything else.
job_id() {
  [[ $1 =~ ^[0-9]+(;|$) ]] || { echo "sbatch printed no job id: $1" >&2; return 1; }
  echo "${1%%;*}"
}

# submit_run SPEC WHAT: sbatch the array tasks SPEC and the merge after them, and report them
# (WHAT: the tasks in words). A refused sbatch returns 1 and says which job was refused; an
# array already submitted is then cancelled, so that no task runs without its merge.
submit_run() {
  local array merge me=${0##*/}
  array=$(submit_tasks "$1") || {
    echo "$me: sbatch refused the array job (its message is above); nothing was submitted" >&2
    return 1
  }
  merge=$(submit_merge "$array") || {
    scancel "$array" || true
    echo "$me: sbatch refused the merge job (its message is above); array job $array cancelled" >&2
    return 1
  }
  report "$array" "$merge" "$2"
}

# record_run: writes DIR/run.env from the variables warsim, tasks, out, sbatch_opts and args.
record_run() {
  {
    echo "# scripts/slurm/submit.sh: the run in this directory (read by scripts/slurm/resubmit.sh)"
    printf 'warsim=%q\ntasks=%q\nout=%q\n' "$warsim" "$tasks" "$out"
    declare -p sbatch_opts args
  } > "$out/run.env.tmp"
  mv "$out/run.env.tmp" "$out/run.env"
}

# report ARRAY MERGE WHAT: what the user sees, and the ids for scripts.
report() {
  echo "array job $1: $3"
  echo "merge job $2: starts when every task has succeeded, writes $out/merged"
  echo "follow:  squeue -j $1,$2    logs: $out/logs/    result: $out/merged/summary.json"
  echo "ARRAY_JOB=$1 MERGE_JOB=$2"
}
