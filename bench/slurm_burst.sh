#!/usr/bin/env bash
# A burst of jobs on a private 8-node Slurm cluster (tests/slurm/cluster.sh),
# scheduled once by Slurm's own sched/backfill and once by rota-slurm under
# EASY, one after the other: the same jobs (tests/slurm/run_cluster.sh's
# sequence: 1-8 nodes, sleeps of 1-4 s, limits of 1-6 minutes), all
# submitted at once. Prints each run's makespan (first submission to last
# end) and mean wait (submission to start), from Slurm's completion records,
# then each run's node hand-off (bench/slurm_handoff.py: from a job's end to
# the next start, from slurmctld's log; rota-slurm's split into its poll and
# the release).
#   [ROTA_SLURM_INTERVAL=SECONDS] bench/slurm_burst.sh ROTA_SLURM_BINARY [JOBS]
# (rota-slurm polls every ROTA_SLURM_INTERVAL seconds, 0.5 by default).
# Needs root, Slurm and munge (scripts/install-deps.sh). Slurm's backfill is
# given its quickest settings (bf_interval=1, bf_continue,
# batch_sched_delay=0) so that its cycle is not what is measured.
set -euo pipefail
shopt -s inherit_errexit  # the runs are command substitutions
daemon=$1
jobs=${2:-200}
here=$(cd "$(dirname "$0")/../tests/slurm" && pwd)
source "$here/cluster.sh"
export ROTA_SLURM_PORT=${ROTA_SLURM_PORT:-18990}
work=$(mktemp -d "${TMPDIR:-/tmp}/rota-slurm-burst.XXXXXX")
chmod 755 "$work"  # munged checks the directories up to its socket
daemon_pid=""
finish() {
  [ -n "$daemon_pid" ] && kill -TERM "$daemon_pid" 2>/dev/null || true
  cluster_stop
}
trap finish EXIT
trap 'exit 1' INT TERM HUP

# One run: $1 = slurm or rota. Prints "makespan_s mean_wait_s".
run() {
  local who=$1 dir="$work/$1" i rnd nodes secs limit hold=
  mkdir -p "$dir"
  # A subshell ($(run ...)): its own trap stops what it started.
  trap cluster_stop EXIT
  if [ "$who" = slurm ]; then
    CLUSTER_SCHEDULER=sched/backfill \
      CLUSTER_SCHEDULER_PARAMETERS=batch_sched_delay=0,bf_interval=1,bf_continue \
      cluster_start "$dir" 8 >&2
  else
    cluster_start "$dir" 8 >&2
    printf '[machine]\nprocs = 8\n[scheduler]\npreset = "easy"\n' >"$dir/rota.toml"
    "$daemon" --config "$dir/rota.toml" --journal "$dir/journal.txt" --interval "${ROTA_SLURM_INTERVAL:-0.5}" 2>"$dir/rota-slurm.log" &
    daemon_pid=$!
    cluster_track "$daemon_pid"
    hold=--hold
  fi
  : >"$dir/jobs.txt"
  for i in $(seq "$jobs"); do
    rnd=$(((i * 7919 + 104729) % 9973))
    nodes=$((rnd % 8 + 1)) secs=$((rnd / 8 % 4 + 1)) limit=$((rnd / 32 % 6 + 1))
    echo "$(sbatch --parsable $hold -N "$nodes" -t "$limit" -o /dev/null -D "$dir" \
      --wrap "sleep $secs") $(date +%s.%N)" >>"$dir/jobs.txt"
  done
  local deadline=$(($(date +%s) + 3600))
  while [ "$(grep -c . "$dir/jobcomp.txt" 2>/dev/null || true)" -lt "$jobs" ]; do
    [ "$(date +%s)" -lt "$deadline" ] || { echo "slurm_burst.sh: $who: not done in an hour" >&2; exit 1; }
    sleep 1
  done
  if [ -n "$daemon_pid" ]; then kill -TERM "$daemon_pid"; wait "$daemon_pid" || true; daemon_pid=""; fi
  cluster_stop
  python3 "$here/../../bench/slurm_handoff.py" "$dir/log/slurmctld.log" \
    $([ "$who" = rota ] && echo "$dir/journal.txt") >"$work/$who.handoff"
  python3 - "$dir/jobs.txt" "$dir/jobcomp.txt" <<'PY'
import sys
from datetime import datetime
submit = {}
for line in open(sys.argv[1]):
    job, t = line.split()
    submit[int(job)] = float(t)
start, end = {}, {}
for line in open(sys.argv[2]):
    f = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
    job = int(f["JobId"])
    start[job] = datetime.strptime(f["StartTime"], "%Y-%m-%dT%H:%M:%S").timestamp()
    end[job] = datetime.strptime(f["EndTime"], "%Y-%m-%dT%H:%M:%S").timestamp()
first = min(submit.values())
waits = [max(0.0, start[j] - submit[j]) for j in submit]
print(f"{max(end.values()) - first:.0f} {sum(waits) / len(waits):.1f}")
PY
}

echo "bench/slurm_burst.sh $daemon $jobs"
slurm=$(run slurm)
rota=$(run rota)
printf '%-28s %12s %14s\n' scheduler makespan_s mean_wait_s
printf '%-28s %12s %14s\n' "Slurm sched/backfill" $slurm
printf '%-28s %12s %14s\n' "rota-slurm EASY" $rota
echo "Slurm sched/backfill:"
cat "$work/slurm.handoff"
echo "rota-slurm EASY (--interval ${ROTA_SLURM_INTERVAL:-0.5}):"
cat "$work/rota.handoff"
rm -rf "$work"
