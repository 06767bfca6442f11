#!/usr/bin/env bash
# A site's QOS as rota's job classes, with preemption carried out on a real
# 4-node Slurm cluster with accounting (a private mariadbd and slurmdbd,
# tests/slurm/cluster.sh's CLUSTER_ACCOUNTING). Two QOS: low (Priority=10,
# PreemptExemptTime=6 s, PreemptMode=REQUEUE) and high (Priority=100,
# Preempt=low). rota-slurm --qos-classes makes them classes: low's
# do-not-disturb time is 6 s per node.
#   L1..L4  -q low -N 1, 15 s each: they fill the machine
#   H       -q high -N 2, 4 s, submitted once the four run
# rota lets the low jobs run their 6 s, then swaps two out (Slurm requeues
# them, held) and starts H on their nodes; once H is done they are loaded
# again and run to completion. check_qos.py checks, from Slurm's completion
# records, squeue sampled every half second and the journal: no node ever
# ran two jobs, every job completed, H started only after the preemption,
# which came no sooner than the victims' do-not-disturb time, and each
# victim ran again. The waiting victims said why in their AdminComment;
# the daemon is restarted while they wait, and the new one carries on.
# Then high's priority changes in the database: within 5 s a new engine
# takes over with the new classes. Last, low's PreemptMode becomes
# SUSPEND, which rota-slurm refuses at start in one line (a swapped-out job
# comes back on any nodes; slurm_resume cannot move it).
#   run_qos.sh ROTA_SLURM_BINARY
# Exits 77 (skipped) when Slurm, munge, MariaDB, slurmdbd or rota-slurm is
# missing or it is not root, unless CI=true: there it fails.
set -euo pipefail
daemon=$1
here=$(cd "$(dirname "$0")" && pwd)

source "$here/cluster.sh"
cluster_require "$daemon"
cluster_have_accounting || cluster_skip "MariaDB or slurmdbd is not installed (Debian: mariadb-server, slurmdbd)"

work=$(mktemp -d "${TMPDIR:-/tmp}/rota-slurm-qos.XXXXXX")
ok=0
daemon_pid=""
sampler_pid=""
finish() {
  [ -n "$sampler_pid" ] && kill "$sampler_pid" 2>/dev/null || true
  [ -n "$daemon_pid" ] && kill -TERM "$daemon_pid" 2>/dev/null || true
  cluster_stop
  if [ $ok = 1 ] && [ -z "${ROTA_SLURM_KEEP:-}" ]; then rm -rf "$work"; else echo "run_qos.sh: work directory kept: $work"; fi
}
trap finish EXIT
trap 'exit 1' INT TERM HUP

CLUSTER_ACCOUNTING=1 cluster_start "$work" 4 "PreemptType=preempt/qos
PreemptMode=REQUEUE
JobRequeue=1" || exit 1
cluster_qos_low_high
printf '[machine]\nprocs = 4\n' >"$work/rota.toml"

: >"$work/jobs.txt"
job() { cluster_held_job "$work" "$@"; }  # job NAME SECONDS SBATCH_ARGS...
job L1 15 -q low -N 1 >/dev/null || { echo "run_qos.sh: the QOS low cannot be used"; exit 1; }
for n in 2 3 4; do job "L$n" 15 -q low -N 1 >/dev/null; done

# Which jobs run on which nodes, every half second, for the whole run.
cluster_sample "$work/samples.txt"
sampler_pid=$!

"$daemon" --config "$work/rota.toml" --qos-classes --interval 0.5 --journal "$work/journal.txt" \
  2>>"$work/rota-slurm.log" &
daemon_pid=$!
cluster_track "$daemon_pid"

running() { squeue -h -t R -o %i | wc -l; }
for k in $(seq 60); do [ "$(running)" = 4 ] && break; sleep 0.25; done
[ "$(running)" = 4 ] || { echo "run_qos.sh: the four low jobs do not run:"; squeue; tail -5 "$work/rota-slurm.log"; exit 1; }
h=$(job H 4 -q high -N 2)

# The victims say why they wait while H runs.
admin() { scontrol show job "$1" | sed -n 's/.*AdminComment=\(.*[^ ]\) *$/\1/p'; }
said=""
for k in $(seq 80); do
  for id in $(awk '/^L/ { print $2 }' "$work/jobs.txt"); do
    case "$(admin "$id")" in "rota: preempted 1 time, queued again") said="$id: $(admin "$id")" ;; esac
  done
  [ -n "$said" ] && break
  sleep 0.25
done
[ -n "$said" ] || { echo "run_qos.sh: no preempted job says so in its AdminComment"; squeue -o '%i %j %q %T %r'; tail -5 "$work/rota-slurm.log"; exit 1; }
echo "run_qos.sh: job $said"

# The daemon restarted while the victims wait held and H runs: the new one
# adopts the running jobs into their QOS's classes and submits the victims
# again, which then run to completion.
kill -TERM "$daemon_pid"
wait "$daemon_pid" || { echo "run_qos.sh: rota-slurm did not exit cleanly"; exit 1; }
"$daemon" --config "$work/rota.toml" --qos-classes --interval 0.5 --journal "$work/journal.txt" \
  2>>"$work/rota-slurm.log" &
daemon_pid=$!
cluster_track "$daemon_pid"

deadline=$(($(date +%s) + 90))
while [ -n "$(squeue -h -o %i)" ]; do
  if ! kill -0 "$daemon_pid" 2>/dev/null; then
    echo "run_qos.sh: rota-slurm exited early:"; tail -20 "$work/rota-slurm.log"; exit 1
  fi
  if [ "$(date +%s)" -ge "$deadline" ]; then
    echo "run_qos.sh: jobs not done after 90 s:"; squeue -o '%i %j %q %T %r'; tail -5 "$work/rota-slurm.log"; exit 1
  fi
  sleep 0.5
done
kill "$sampler_pid"
sampler_pid=""
# A QOS changed while the daemon runs: read again within 5 s, and a new
# engine takes over with the changed classes.
sacctmgr -i modify qos high set Priority=200 >/dev/null
for k in $(seq 40); do
  grep -q "Slurm's site changed: a new engine takes over" "$work/rota-slurm.log" && break
  sleep 0.25
done
grep -q "Slurm's site changed: a new engine takes over" "$work/rota-slurm.log" ||
  { echo "run_qos.sh: the changed QOS was not taken"; tail -3 "$work/rota-slurm.log"; exit 1; }
kill -TERM "$daemon_pid"
wait "$daemon_pid" || { echo "run_qos.sh: rota-slurm did not exit cleanly"; exit 1; }
daemon_pid=""
[ "$(grep -c "1 partitions, 0 licences, 3 classes" "$work/rota-slurm.log")" = 2 ] ||
  { echo "run_qos.sh: the QOS were not read as classes"; head -3 "$work/rota-slurm.log"; exit 1; }
# Slurm's own count of each job's requeues.
for id in $(awk '{ print $2 }' "$work/jobs.txt"); do
  echo "$id $(scontrol show job "$id" | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p')"
done >"$work/restarts.txt"

python3 "$here/check_qos.py" "$work/jobs.txt" "$work/jobcomp.txt" "$work/journal.txt" \
  "$work/samples.txt" "$work/restarts.txt"

# PreemptMode=SUSPEND on a preemptable QOS: refused at start, in one line.
sacctmgr -i modify qos low set PreemptMode=suspend >/dev/null
rc=0
"$daemon" --config "$work/rota.toml" --qos-classes 2>"$work/suspend.log" || rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$work/suspend.log")" = 1 ] &&
  grep -q "^rota-slurm: --qos-classes: QOS 'low' has PreemptMode=SUSPEND: " "$work/suspend.log" ||
  { echo "run_qos.sh: PreemptMode=SUSPEND not refused in one line (exit $rc):"; cat "$work/suspend.log"; exit 1; }
echo "run_qos.sh: $(cat "$work/suspend.log")"
ok=1
