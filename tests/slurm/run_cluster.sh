#!/usr/bin/env bash
# An 8-node Slurm cluster on this machine, scheduled by rota-slurm.
#   run_cluster.sh ROTA_SLURM_BINARY MODE [ROTA_BINARY [LIBROTA]]
# Starts munged and Slurm (cluster.sh), submits held jobs of 1-8 nodes
# with short sleeps (some while the daemon runs), lets rota-slurm schedule
# them, and checks Slurm's own records against the decisions rota-slurm
# logged (check_schedule.py). MODE: `easy` (40 jobs, EASY backfilling;
# with ROTA_BINARY the run is also replayed with `rota simulate`) or
# `gang` (12 jobs of 2-8 nodes time-sliced at MPL 2 by BGS in 6 s
# slices; each job sleeps in 0.1 s steps, so that a suspended job makes
# no progress) or `restart` (the first 20 of the EASY jobs, the daemon
# stopped and started again midway: it adopts the running jobs) or
# `reconfigure` (12 EASY jobs behind an admission gate whose parameter
# holds them all; the configuration file is edited to open it and the
# daemon sent SIGHUP: nothing starts before, everything after) or
# `nodedown` (20 EASY jobs; a busy node crashes mid-run: its slurmd is
# stopped and the node set DOWN, and 10 s later its slurmd starts again:
# the job on it is requeued by Slurm and by the engine, held, started
# again elsewhere, and no job is placed on the node meanwhile; before
# that an operator requeues a running job with `scontrol requeue`) or
# `gangrestart` (the `gang` jobs, the daemon stopped while Slurm holds a
# suspended job and started again: it adopts the executing and suspended
# jobs into rows and every job completes) or `faults` (item 6 of issue
# 41: the nodedown jobs behind one more, an 8-node job that runs first;
# an operator drains n8 under it and requeues it with `scontrol requeue`,
# so that it waits held for the drained node; the daemon is restarted
# while it waits, and n8 resumed 8 s later; with LIBROTA the run is
# replayed through the engine (check_schedule.py --replay), which must
# decide every start as the daemons did). Every
# process it starts is stopped by PID on exit (with any job step left
# over: cluster.sh); the work directory is kept
# on failure (always with ROTA_SLURM_KEEP=1).
# Exits 77 (skipped) when Slurm, munge or rota-slurm is missing or it is
# not root, unless CI=true: there it fails.
set -euo pipefail
daemon=$1
mode=${2:-easy}
rota=${3:-}  # given: an EASY run is replayed with `rota simulate` too
# given: a `faults` run is replayed through librota.so (Python's ctypes),
# as `rota simulate` can neither drain a node nor requeue a job
rota_lib=${4:-}
here=$(cd "$(dirname "$0")" && pwd)

source "$here/cluster.sh"
cluster_require "$daemon"

work=$(mktemp -d "${TMPDIR:-/tmp}/rota-slurm-test.XXXXXX")
ok=0
daemon_pid=""
finish() {
  [ -n "$daemon_pid" ] && kill -TERM "$daemon_pid" 2>/dev/null || true
  cluster_stop
  if [ $ok = 1 ] && [ -z "${ROTA_SLURM_KEEP:-}" ]; then rm -rf "$work"; else echo "run_cluster.sh: work directory kept: $work"; fi
}
trap finish EXIT
trap 'exit 1' INT TERM HUP  # so that finish runs on these too

t0=$(date +%s.%N)
elapsed() { awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
cluster_start "$work" 8
echo "run_cluster.sh: cluster up in $(elapsed) s ($work)"

gang=0
if [ "$mode" = gang ] || [ "$mode" = gangrestart ]; then gang=1; fi
if [ $gang = 1 ]; then
  cat >"$work/rota.toml" <<CONF
[machine]
procs = 8

[scheduler]
preset = "bgs"

[gang]
mpl = 2
slice = 6
CONF
  first=9 later=3 min_nodes=2
else
  cat >"$work/rota.toml" <<CONF
[machine]
procs = 8

[scheduler]
preset = "easy"
CONF
  first=30 later=10 min_nodes=1
  case $mode in restart | nodedown | faults) first=15 later=5 ;; esac
  check_args=(${rota:+"$rota" easy})
  if [ "$mode" = reconfigure ]; then
    first=9 later=3 check_args=()
    # The gate: its parameter decides; only a reconfiguration changes it.
    cat >"$work/gate.lua" <<'LUA'
return {
  admission = function(jobs, ctx, params)
    local d = {}
    for i = 1, jobs.n do d[i] = params.open and "accept" or "hold" end
    return d
  end,
}
LUA
    printf '\n[policy.admission]\nscript = "gate.lua"\nopen = false\n' >>"$work/rota.toml"
  fi
fi

# The workload: a fixed pseudo-random sequence, so that every run offers
# the same jobs. Sizes 1-8 nodes, sleeps 1-4 s, limits 1-6 minutes (Slurm
# counts limits in minutes; EASY reserves with them).
: >"$work/jobs.txt"
submit() {  # submit N: N jobs from the sequence
  local k id nodes secs limit
  for k in $(seq "$1"); do
    seq_i=$((seq_i + 1))
    rnd=$(((seq_i * 7919 + 104729) % 9973))
    nodes=$((rnd % (9 - min_nodes) + min_nodes))
    secs=$((rnd / 8 % 4 + 1))
    limit=$((rnd / 32 % 6 + 1))
    if [ $gang = 1 ]; then
      secs=$((secs + 2))
      cmd="for i in \$(seq $((secs * 10))); do sleep 0.1; done"
    else
      cmd="sleep $secs"
    fi
    id=$(sbatch --parsable --hold -N "$nodes" -t "$limit" -o /dev/null -D "$work" \
      -J "r$seq_i" --wrap "$cmd")
    echo "$id $nodes $secs $limit" >>"$work/jobs.txt"
  done
}
seq_i=0
if [ "$mode" = faults ]; then
  # The job to requeue: first in the queue, on every node, so that it
  # runs first and, requeued with a node drained, cannot start again
  # before the node is back.
  id=$(sbatch --parsable --hold -N 8 -t 2 -o /dev/null -D "$work" -J victim --wrap "sleep 4")
  echo "$id 8 4 2" >>"$work/jobs.txt"
fi
submit $first

start_daemon() {
  "$daemon" --config "$work/rota.toml" --interval 0.5 --journal "$work/journal.txt" \
    2>>"$work/rota-slurm.log" &
  daemon_pid=$!
  cluster_track "$daemon_pid"
}
start_daemon

# The daemon stopped and started again: the new one adopts the running
# jobs and submits the held ones. Its stop and start (microseconds, the
# engine's clock) go to restarts.txt for the replay: no pass ran between.
restart_daemon() {
  local stop
  stop=$(date +%s%6N)
  kill -TERM "$daemon_pid"
  wait "$daemon_pid" || { echo "run_cluster.sh: rota-slurm did not exit cleanly"; exit 1; }
  echo "run_cluster.sh: rota-slurm stopped at $(elapsed) s with $(squeue -h -t running | wc -l) jobs running and $(squeue -h -t suspended | wc -l) suspended; started again"
  start_daemon
  echo "$stop $(date +%s%6N)" >>"$work/restarts.txt"
}

# An operator requeues a running job (of $1 nodes, if given) with
# `scontrol requeue`: Slurm's restart count tells the daemon, which hands
# the job back to the engine (rota_job_requeue). Sets $requeued.
requeue_running() {
  requeued=""
  for i in $(seq 100); do
    requeued=$(squeue -h -t running -o '%i %D' | awk -v n="${1:-}" 'n == "" || $2 == n { print $1; exit }')
    [ -n "$requeued" ] && break
    sleep 0.1
  done
  [ -n "$requeued" ] || { echo "run_cluster.sh: no job running to requeue"; exit 1; }
  scontrol requeue "$requeued"
  echo "run_cluster.sh: job $requeued requeued by scontrol at $(elapsed) s"
}

if [ "$mode" = faults ]; then
  # The victim runs on every node: n8 drained under it (it runs on), then
  # it is requeued, and needs n8 again. Once the daemon has held it again
  # (the journal's REQUEUE), the daemon is restarted while it waits: a
  # new daemon must not take the begin time Slurm's requeue set (about
  # two minutes ahead) for the user's --begin. n8 resumes 8 s later.
  for i in $(seq 100); do
    [ -n "$(squeue -h -t running -n victim -o %i)" ] && break
    sleep 0.1
  done
  scontrol update nodename=n8 state=drain reason=rota-test
  requeue_running 8
  for i in $(seq 50); do
    grep -q "^REQUEUE [0-9]* $requeued\$" "$work/journal.txt" && break
    sleep 0.1
  done
  grep -q "^REQUEUE [0-9]* $requeued\$" "$work/journal.txt" ||
    { echo "run_cluster.sh: the daemon did not requeue job $requeued"; exit 1; }
  restart_daemon
fi
sleep 5
submit $later
if [ "$mode" = faults ]; then
  sleep 3
  scontrol update nodename=n8 state=resume
  echo "run_cluster.sh: n8 resumed at $(elapsed) s"
  check_args=(--restarts "$work/restarts.txt" --drained n8 --requeued "$requeued" ${rota_lib:+--replay "$rota_lib"})
fi
if [ "$mode" = reconfigure ]; then
  sleep 3
  started=$(grep -c "^START" "$work/journal.txt" || true)
  [ "$started" = 0 ] || { echo "run_cluster.sh: $started jobs started through a closed gate"; exit 1; }
  [ -z "$(squeue -h -t running -o %i)" ] || { echo "run_cluster.sh: a job runs through a closed gate"; exit 1; }
  sed -i 's/^open = false$/open = true/' "$work/rota.toml"
  echo "run_cluster.sh: $(squeue -h | wc -l) jobs held by the gate at $(elapsed) s; opened, SIGHUP"
fi
if [ "$mode" = nodedown ]; then
  requeue_running
  sleep 2
  # The first node of a running job crashes: its slurmd stops, and the
  # node is set DOWN at once rather than after SlurmdTimeout. (With its
  # slurmd alive, ReturnToService=2 would take it back within a second.)
  victim=""
  for i in $(seq 100); do  # a moment may come with every job waiting
    victim=$(squeue -h -t running -o "%N" | head -1 | sed -E 's/^([a-z]+)\[?([0-9]+).*/\1\2/')
    [ -n "$victim" ] && break
    sleep 0.1
  done
  [ -n "$victim" ] || { echo "run_cluster.sh: no job running to take a node from"; exit 1; }
  kill -TERM "$(cat "$CLUSTER_DIR/run/slurmd-$victim.pid")"
  sleep 1
  scontrol update nodename="$victim" state=down reason=rota-test
  echo "run_cluster.sh: $victim down at $(elapsed) s"
  sleep 10
  slurmd -D -N "$victim" >>"$CLUSTER_DIR/log/slurmd-$victim.out" 2>&1 &
  cluster_track $!
  for i in $(seq 100); do
    sinfo -h -N -n "$victim" -o %T | grep -q down || break
    [ "$i" = 20 ] && scontrol update nodename="$victim" state=resume
    sleep 0.2
  done
  echo "run_cluster.sh: $victim back at $(elapsed) s ($(sinfo -h -N -n "$victim" -o %T))"
  check_args=(--down "$victim" --requeued "$requeued")
fi
# A reload in the middle of the run (easy, gang, restart: the same
# configuration, so the schedule stays).
kill -HUP "$daemon_pid"
if [ "$mode" = gangrestart ]; then
  # Stopped while Slurm holds a job suspended: the next daemon must tell
  # it to resume, or it never ends.
  for i in $(seq 100); do
    [ -n "$(squeue -h -t suspended -o %i)" ] && break
    sleep 0.2
  done
  [ -n "$(squeue -h -t suspended -o %i)" ] || { echo "run_cluster.sh: no job suspended to restart over"; exit 1; }
  restart_daemon
fi
if [ "$mode" = restart ]; then
  sleep 5
  restart_daemon
fi
njobs=$(wc -l <"$work/jobs.txt")

# Done when Slurm lists no job, its completion log has them all and
# rota-slurm has seen every end (its journal's END lines).
count() { grep -c "$1" "$2" 2>/dev/null || true; }
deadline=$(($(date +%s) + 200))
while :; do
  # (A job that ended while no daemon ran has no END: the restart is
  # given a few passes instead.)
  if [ -z "$(squeue -h -o %i)" ] && [ "$(count . "$work/jobcomp.txt")" -ge "$njobs" ]; then
    case $mode in restart | gangrestart | faults) sleep 2; break ;; esac
    [ "$(count ^END "$work/journal.txt")" -ge "$njobs" ] && break
  fi
  if ! kill -0 "$daemon_pid" 2>/dev/null; then
    echo "run_cluster.sh: rota-slurm exited early:"; tail -20 "$work/rota-slurm.log"; exit 1
  fi
  if [ "$(date +%s)" -ge "$deadline" ]; then
    echo "run_cluster.sh: jobs still in Slurm after 200 s:"; squeue; tail -5 "$work/rota-slurm.log"
    exit 1
  fi
  sleep 0.5
done
kill -TERM "$daemon_pid"
wait "$daemon_pid" || { echo "run_cluster.sh: rota-slurm did not exit cleanly"; exit 1; }
daemon_pid=""
tail -2 "$work/rota-slurm.log"
grep -q "reload: ROTA_OK" "$work/rota-slurm.log" || { echo "run_cluster.sh: no reload after SIGHUP"; exit 1; }
echo "run_cluster.sh: $njobs jobs done in $(elapsed) s"
if [ "$mode" = gang ]; then
  python3 "$here/check_schedule.py" --gang 2 "$work/jobs.txt" "$work/journal.txt" "$work/jobcomp.txt"
elif [ "$mode" = gangrestart ]; then
  python3 "$here/check_schedule.py" --gang 2 --restart "$work/jobs.txt" "$work/journal.txt" "$work/jobcomp.txt"
else
  files=("$work/jobs.txt" "$work/journal.txt" "$work/jobcomp.txt")
  if [ "$mode" = restart ]; then
    python3 "$here/check_schedule.py" --restart "${files[@]}"
  elif [ "$mode" = faults ]; then
    python3 "$here/check_schedule.py" --restart "${files[@]}" "${check_args[@]}"
  else
    python3 "$here/check_schedule.py" "${files[@]}" "${check_args[@]}"
  fi
fi
ok=1
