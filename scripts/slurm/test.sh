#!/usr/bin/env bash
# The cluster path, tested on a real single-node Slurm (scripts/slurm/local-cluster.sh):
#  1. 2,000,000 war games as an 8-task array plus the merge job; histogram.csv and every
#     statistic of summary.json equal those of the unsharded run;
#  2. one shard deleted: merge refuses, naming it;
#  3. scripts/slurm/resubmit.sh finds that task and reruns it alone, with a new merge job:
#     identical again; task logs show progress lines;
#  3b. a shard stopped by SIGINT and one killed after a checkpoint: resubmit.sh picks both and
#     their tasks resume them (not play them again): identical again;
#  3c. docs/cluster.md's requeue recipe, submitted as it stands: a task told to stop as
#     --signal=B:TERM tells it writes what it finished, requeues itself and resumes; the merge
#     is the unsharded run's;
#  4. a run whose tasks fail: the merge job is cancelled, not left pending;
#  5. a refused sbatch (an unknown partition): submit.sh fails and says so;
#  6. more tasks than games: refused (exit 2) before any sbatch;
#  7. 100 tasks of one game each: the merge job's script stays short (it does not list the
#     shards), and the merge is right.
# The cluster is stopped at the end, also when a step fails.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
cluster=$root/scripts/slurm/local-cluster.sh
build_warsim
work=$(mktemp -d /tmp/warsim-slurm-test.XXXXXX)
export WARSIM_SLURM_DIR=$work/cluster
trap '"$cluster" stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
"$cluster" start
export SLURM_CONF=$WARSIM_SLURM_DIR/slurm.conf
run=(simulate war --rules classic --games 2000000 --seed 7)

# Waits for job $1 to finish; fails unless it COMPLETED.
wait_job() {
  local state
  for _ in $(seq 900); do
    state=$(scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | sort -u | cut -d= -f2 | tr '\n' ' ')
    case $state in
      "COMPLETED ") return 0 ;;
      *FAILED*|*CANCELLED*|*TIMEOUT*|*NODE_FAIL*|*OUT_OF_MEMORY*) echo "test: job $1 ended $state" >&2; return 1 ;;
    esac
    if scontrol show job "$1" 2>/dev/null | grep -q 'Reason=DependencyNeverSatisfied'; then
      echo "test: job $1 can never start (a task failed)" >&2; return 1
    fi
    sleep 1
  done
  echo "test: job $1 did not finish in 15 minutes" >&2; return 1
}

# Every statistic of summary.json but timings and the run description.
stats() {
  python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for k in ["elapsed_s", "games_per_s", "threads", "timing", "provenance", "run"]: d.pop(k, None)
print(json.dumps(d, sort_keys=True))' "$1"
}

# same_as_whole [WHOLE RUN]: RUN/merged holds what the unsharded run WHOLE wrote (default:
# the war run).
same_as_whole() {
  local whole=${1:-$work/whole} run=${2:-$work/run}
  cmp "$whole/histogram.csv" "$run/merged/histogram.csv"
  [ "$(stats "$whole/summary.json")" = "$(stats "$run/merged/summary.json")" ] ||
    { echo "test: merged summary.json differs from the unsharded run's" >&2; return 1; }
}

echo "test: unsharded run" >&2
"$warsim" "${run[@]}" --out "$work/whole" >/dev/null
echo "test: 8-task array and merge on Slurm" >&2
# (Shown on stderr by echo: `tee /dev/stderr` would truncate a log file stderr is sent to.)
submitted=$("$root/scripts/slurm/submit.sh" --tasks 8 --out "$work/run" -- "${run[@]}")
echo "$submitted" >&2
eval "$(echo "$submitted" | tail -n1)"
wait_job "$ARRAY_JOB"
wait_job "$MERGE_JOB"
same_as_whole
echo "test: merged output identical to the unsharded run" >&2

rm -rf "$work/run/shards/3" "$work/run/merged"
shards=(); for k in $(seq 0 7); do shards+=("$work/run/shards/$k"); done
# refuses WANT DIR...: merge must fail, its message containing WANT, and write nothing.
refuses() {
  local want=$1 msg; shift
  if msg=$("$warsim" merge "$@" --out "$work/refused" 2>&1); then
    echo "test: merge accepted a missing shard" >&2; return 1
  fi
  case $msg in *"$want"*) echo "test: merge refuses: $msg" >&2 ;; *) echo "test: unexpected refusal: $msg" >&2; return 1 ;; esac
  [ ! -e "$work/refused" ] || { echo "test: a refused merge wrote $work/refused" >&2; return 1; }
}
refuses "shards/3" "${shards[@]}"                          # named, but gone
refuses "missing: shard 3/8 (games 750000..1000000)" "${shards[@]:0:3}" "${shards[@]:4}"   # left out

echo "test: resubmitting the failed task" >&2
again=$("$root/scripts/slurm/resubmit.sh" "$work/run")
echo "$again" >&2
case $again in *"tasks 3 of 8 again"*) ;; *) echo "test: resubmit.sh did not pick task 3 alone" >&2; exit 1 ;; esac
eval "$(echo "$again" | tail -n1)"
wait_job "$ARRAY_JOB"
wait_job "$MERGE_JOB"
same_as_whole
grep -qE "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z progress: 250,000 of 250,000 games \(100.0%\)" "$work/run/logs/task-3.log" ||
  { echo "test: task 3's log shows no progress:" >&2; cat "$work/run/logs/task-3.log" >&2; exit 1; }
"$root/scripts/slurm/resubmit.sh" "$work/run" 2>&1 | grep -q "nothing to rerun" ||
  { echo "test: resubmit.sh reran a complete run" >&2; exit 1; }
echo "test: merge after resubmission identical again" >&2

echo "test: resubmit.sh resumes a stopped shard and a killed one's checkpoint" >&2
rm -rf "$work/run/shards/5" "$work/run/shards/6" "$work/run/merged"
# stop_shard K SIGNAL: plays shard K with a checkpoint every 30 ms, and sends it SIGNAL once it
# has saved one (so it lands part way).
stop_shard() {
  local pid
  "$warsim" "${run[@]}" --shard "$1/8" --checkpoint-minutes 0.0005 --out "$work/run/shards/$1" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 3000); do
    ls -d "$work/run/shards/.$1.warsim-staging-"*/checkpoint-* >/dev/null 2>&1 && break
    sleep 0.01
  done
  kill "-$2" "$pid" 2>/dev/null || true
  wait "$pid" || true
}
stop_shard 5 INT
stop_shard 6 KILL
grep -q '"stopped": true' "$work/run/shards/5/summary.json" ||
  { echo "test: shard 5 was not stopped part way" >&2; exit 1; }
{ [ ! -e "$work/run/shards/6" ] && ls -d "$work/run/shards/.6.warsim-staging-"*/checkpoint-* >/dev/null; } ||
  { echo "test: shard 6 was not killed after a checkpoint" >&2; exit 1; }
again=$("$root/scripts/slurm/resubmit.sh" "$work/run")
echo "$again" >&2
case $again in *"tasks 5,6 of 8 again"*) ;; *) echo "test: resubmit.sh did not pick tasks 5 and 6" >&2; exit 1 ;; esac
eval "$(echo "$again" | tail -n1)"
wait_job "$ARRAY_JOB"
wait_job "$MERGE_JOB"
same_as_whole
for k in 5 6; do
  grep -q "when it was resumed" "$work/run/shards/$k/summary.json" ||
    { echo "test: shard $k was played again, not resumed" >&2; exit 1; }
done
grep -q "resuming from the checkpoint of" "$work/run/logs/task-6.log" ||
  { echo "test: task 6's log does not say it resumed its checkpoint" >&2; exit 1; }
echo "test: stopped and killed shards resumed; merge identical again" >&2

echo "test: docs/cluster.md's requeue recipe" >&2
recipe=$work/requeue.sbatch
awk '/<!-- requeue:end -->/ {on = 0} on && !/^```/ {print} /<!-- requeue:begin -->/ {on = 1}' \
  "$root/docs/cluster.md" > "$recipe"
grep -q 'scontrol requeue' "$recipe" || { echo "test: no requeue recipe in docs/cluster.md" >&2; exit 1; }
rq=$work/requeue rq_games=6000000
mkdir -p "$rq/logs"
"$warsim" simulate war --games "$rq_games" --out "$work/requeue-whole" >/dev/null
id=$(OUT=$rq GAMES=$rq_games TASKS=2 WARSIM=$warsim sbatch --parsable --array=0-1 \
  --output="$rq/logs/task-%a.log" "$recipe")
id=${id%%;*}
# Once task 0 plays (its first progress line, and a second for warsim to be past it), the
# warning --signal=B:TERM gives: SIGTERM to the batch shell alone, which passes it on.
for _ in $(seq 1200); do grep -qs "progress: " "$rq/logs/task-0.log" && break; sleep 0.1; done
sleep 1
scancel --batch --signal=TERM "${id}_0"
wait_job "$id"
grep -q "stopping: writing what is finished" "$rq/logs/task-0.log" &&
  grep -q "interrupted: the run stopped after" "$rq/logs/task-0.log" ||
  { echo "test: task 0 was not stopped part way:" >&2; cat "$rq/logs/task-0.log" >&2; exit 1; }
grep -q "when it was resumed" "$rq/shards/0/summary.json" ||
  { echo "test: task 0 was not resumed after its requeue" >&2; exit 1; }
"$warsim" merge "$rq/shards/0" "$rq/shards/1" --out "$rq/merged" >/dev/null
same_as_whole "$work/requeue-whole" "$rq"
echo "test: a task told to stop requeued itself and resumed; merge identical" >&2

echo "test: a run whose tasks fail" >&2
ids=$("$root/scripts/slurm/submit.sh" --tasks 2 --out "$work/bad" -- simulate war --ranks 0 --games 100 | tail -n1)
eval "$ids"
if wait_job "$ARRAY_JOB" 2>/dev/null; then echo "test: a task with --ranks 0 succeeded" >&2; exit 1; fi
cancelled=
for _ in $(seq 120); do
  state=$(scontrol show job "$MERGE_JOB" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2)
  [ "$state" = CANCELLED ] && { cancelled=yes; break; }
  sleep 1
done
[ -n "$cancelled" ] || { echo "test: merge job $MERGE_JOB left $state after its tasks failed" >&2; exit 1; }
echo "test: the merge job of a failed run was cancelled" >&2

echo "test: a refused sbatch" >&2
if msg=$("$root/scripts/slurm/submit.sh" --tasks 2 --out "$work/nosuch" --partition=nosuch -- simulate shotgun --games 10 2>&1); then
  echo "test: submit.sh exited 0 though sbatch refused: $msg" >&2; exit 1
fi
case $msg in *"sbatch refused the array job"*) ;; *) echo "test: submit.sh did not say sbatch refused: $msg" >&2; exit 1 ;; esac
[ ! -e "$work/nosuch/run.env" ] || { echo "test: a refused submission left run.env" >&2; exit 1; }
echo "test: submit.sh fails when sbatch refuses" >&2

echo "test: more tasks than games" >&2
# An sbatch that only records being called: the refusal must come before it.
mkdir -p "$work/fake-bin"
printf '#!/bin/sh\ntouch "%s"\nexit 1\n' "$work/sbatch-called" > "$work/fake-bin/sbatch"
chmod +x "$work/fake-bin/sbatch"
status=0
PATH=$work/fake-bin:$PATH "$root/scripts/slurm/submit.sh" --tasks 11 --out "$work/toomany" -- simulate shotgun --games 1e1 2>/dev/null || status=$?
[ "$status" = 2 ] || { echo "test: --tasks 11 of 10 games: exit $status, not 2" >&2; exit 1; }
[ ! -e "$work/sbatch-called" ] && [ ! -e "$work/toomany" ] ||
  { echo "test: --tasks 11 of 10 games reached sbatch or wrote $work/toomany" >&2; exit 1; }
echo "test: --tasks beyond the games refused before sbatch" >&2

echo "test: 100 tasks of one game each" >&2
small=(simulate shotgun --games 100 --seed 3)
"$warsim" "${small[@]}" --out "$work/small-whole" >/dev/null
ids=$("$root/scripts/slurm/submit.sh" --tasks 100 --out "$work/small" -- "${small[@]}" | tail -n1)
eval "$ids"
# One path a shard made this script 128 KB long at 5,000 tasks, more than sbatch can run.
script=$(scontrol write batch_script "$MERGE_JOB" -)
[ ${#script} -lt 1000 ] ||
  { echo "test: the merge job's script grows with the tasks (${#script} bytes)" >&2; exit 1; }
wait_job "$ARRAY_JOB"
wait_job "$MERGE_JOB"
same_as_whole "$work/small-whole" "$work/small"
echo "test: 100 shards merged, identical to the unsharded run" >&2
echo "slurm test: 12 passed, 0 failed"
