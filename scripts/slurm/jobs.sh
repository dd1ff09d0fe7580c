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
  id=$(sbatch --parsable --job-name=warsim --array="$1" "${cpus[@]}" \
    --open-mode=append --output="$out/logs/task-%a.log" "${sbatch_opts[@]}" \
    --wrap "$cmd $threads --progress log --shard \$SLURM_ARRAY_TASK_ID/$tasks --out $(printf '%q' "$out")/shards/\$SLURM_ARRAY_TASK_ID")
  echo "${id%%;*}"
}

# submit_merge JOB: sbatch the merge of every shard into DIR/merged once JOB's tasks have all
# succeeded; a failed task makes the dependency unsatisfiable and the merge job is cancelled,
# not left pending forever. Prints the job id.
submit_merge() {
  local shards id
  shards=$(for k in $(seq 0 $((tasks - 1))); do printf '%q ' "$out/shards/$k"; done)
  id=$(sbatch --parsable --job-name=warsim-merge --dependency="afterok:$1" --kill-on-invalid-dep=yes \
    --open-mode=append --output="$out/logs/merge.log" "${sbatch_opts[@]}" \
    --wrap "$(printf '%q' "$warsim") merge $shards --out $(printf '%q' "$out")/merged")
  echo "${id%%;*}"
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
