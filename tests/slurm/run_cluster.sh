#!/usr/bin/env bash
# An 8-node Slurm cluster on this machine, scheduled by rota-slurm.
#   run_cluster.sh ROTA_SLURM_BINARY MODE [ROTA_BINARY]
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
# jobs into rows and every job completes). Every
# process it starts is stopped by PID on exit (with any job step left
# over: cluster.sh); the work directory is kept
# on failure (always with ROTA_SLURM_KEEP=1).
# Exits 77 (skipped) when Slurm, munge or rota-slurm is missing or it is
# not root, unless CI=true: there it fails.
set -euo pipefail
daemon=$1
mode=${2:-easy}
rota=${3:-}  # given: an EASY run is replayed with `rota simulate` too
here=$(cd "$(dirname "$0")" && pwd)

source "$here/cluster.sh"
for b in slurmctld slurmd munged mungekey sbatch squeue sinfo python3; do
  command -v "$b" >/dev/null 2>&1 || cluster_skip "$b is not installed"
done
[ -n "$daemon" ] && [ -x "$daemon" ] || cluster_skip "rota-slurm is not built (libslurm-dev is missing)"
# slurmd starts jobs as their owner, and munged's private key is root's.
[ "$(id -u)" = 0 ] || cluster_skip "the cluster needs root"

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
  if [ "$mode" = restart ] || [ "$mode" = nodedown ]; then first=15 later=5; fi
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
submit $first

start_daemon() {
  "$daemon" --config "$work/rota.toml" --interval 0.5 --journal "$work/journal.txt" \
    2>>"$work/rota-slurm.log" &
  daemon_pid=$!
  cluster_track "$daemon_pid"
}
start_daemon

sleep 5
submit $later
if [ "$mode" = reconfigure ]; then
  sleep 3
  started=$(grep -c "^START" "$work/journal.txt" || true)
  [ "$started" = 0 ] || { echo "run_cluster.sh: $started jobs started through a closed gate"; exit 1; }
  [ -z "$(squeue -h -t running -o %i)" ] || { echo "run_cluster.sh: a job runs through a closed gate"; exit 1; }
  sed -i 's/^open = false$/open = true/' "$work/rota.toml"
  echo "run_cluster.sh: $(squeue -h | wc -l) jobs held by the gate at $(elapsed) s; opened, SIGHUP"
fi
if [ "$mode" = nodedown ]; then
  # An operator requeues a running job: Slurm's restart count tells the
  # daemon, which hands the job back to the engine (rota_job_requeue).
  requeued=""
  for i in $(seq 50); do
    requeued=$(squeue -h -t running -o %i | head -1)
    [ -n "$requeued" ] && break
    sleep 0.2
  done
  [ -n "$requeued" ] || { echo "run_cluster.sh: no job running to requeue"; exit 1; }
  scontrol requeue "$requeued"
  echo "run_cluster.sh: job $requeued requeued by scontrol at $(elapsed) s"
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
  kill -TERM "$daemon_pid"
  wait "$daemon_pid" || { echo "run_cluster.sh: rota-slurm did not exit cleanly"; exit 1; }
  echo "run_cluster.sh: rota-slurm stopped at $(elapsed) s with $(squeue -h -t running | wc -l) jobs running and $(squeue -h -t suspended | wc -l) suspended; started again"
  start_daemon
fi
if [ "$mode" = restart ]; then
  sleep 5
  kill -TERM "$daemon_pid"
  wait "$daemon_pid" || { echo "run_cluster.sh: rota-slurm did not exit cleanly"; exit 1; }
  echo "run_cluster.sh: rota-slurm stopped at $(elapsed) s with $(squeue -h -t running | wc -l) jobs running; started again"
  start_daemon
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
    case $mode in restart | gangrestart) sleep 2; break ;; esac
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
  else
    python3 "$here/check_schedule.py" "${files[@]}" "${check_args[@]}"
  fi
fi
ok=1
