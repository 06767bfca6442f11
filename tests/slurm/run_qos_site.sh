#!/usr/bin/env bash
# QOS preemption on a site with partitions and a licence: the three at once,
# on a real 4-node Slurm cluster with accounting (tests/slurm/cluster.sh's
# CLUSTER_ACCOUNTING). Partitions small = n[3-4] and rest = n[1-2], one
# licence lic; QOS low (PreemptExemptTime=6 s) and high (Preempt=low), as
# rota's job classes (rota-slurm --qos-classes).
#   L1, L2  -q low -p small -N 1, 15 s      on n3 and n4
#   L3      -q low -p rest -L lic:1, 15 s   holds the licence
#   L4      -q low -p rest, 15 s            holds neither
#   H       -q high -p small -L lic:1 -N 2, 4 s, once the four run
# H needs small's two nodes and the licence: rota preempts (Slurm requeues)
# L1 and L2 for the nodes and L3 for the licence, each after its 6 s of
# do-not-disturb time, and never L4; H runs on n3, n4; the victims run
# again and every job completes, with no node shared (check_qos.py).
#   run_qos_site.sh ROTA_SLURM_BINARY
# Exits 77 (skipped) when Slurm, munge, MariaDB, slurmdbd or rota-slurm is
# missing or it is not root, unless CI=true: there it fails.
set -euo pipefail
daemon=$1
here=$(cd "$(dirname "$0")" && pwd)

source "$here/cluster.sh"
cluster_require "$daemon"
cluster_have_accounting || cluster_skip "MariaDB or slurmdbd is not installed (Debian: mariadb-server, slurmdbd)"

work=$(mktemp -d "${TMPDIR:-/tmp}/rota-slurm-qos-site.XXXXXX")
ok=0
daemon_pid=""
sampler_pid=""
finish() {
  [ -n "$sampler_pid" ] && kill "$sampler_pid" 2>/dev/null || true
  [ -n "$daemon_pid" ] && kill -TERM "$daemon_pid" 2>/dev/null || true
  cluster_stop
  if [ $ok = 1 ] && [ -z "${ROTA_SLURM_KEEP:-}" ]; then rm -rf "$work"; else echo "run_qos_site.sh: work directory kept: $work"; fi
}
trap finish EXIT
trap 'exit 1' INT TERM HUP

CLUSTER_ACCOUNTING=1 cluster_start "$work" 4 "PreemptType=preempt/qos
PreemptMode=REQUEUE
JobRequeue=1
PartitionName=small Nodes=n[3-4] MaxTime=INFINITE State=UP
PartitionName=rest Nodes=n[1-2] MaxTime=INFINITE State=UP
Licenses=lic:1" || exit 1
cluster_qos_low_high
printf '[machine]\nprocs = 4\n' >"$work/rota.toml"

: >"$work/jobs.txt"
job() { cluster_held_job "$work" "$@"; }  # job NAME SECONDS SBATCH_ARGS...
job L1 15 -q low -p small -N 1 >/dev/null ||
  { echo "run_qos_site.sh: the QOS low cannot be used"; exit 1; }
job L2 15 -q low -p small -N 1 >/dev/null
l3=$(job L3 15 -q low -p rest -L lic:1 -N 1)
l4=$(job L4 15 -q low -p rest -N 1)

cluster_sample "$work/samples.txt"
sampler_pid=$!

"$daemon" --config "$work/rota.toml" --qos-classes --interval 0.5 --journal "$work/journal.txt" \
  2>>"$work/rota-slurm.log" &
daemon_pid=$!
cluster_track "$daemon_pid"

running() { squeue -h -t R -o %i | wc -l; }
for k in $(seq 60); do [ "$(running)" = 4 ] && break; sleep 0.25; done
[ "$(running)" = 4 ] || { echo "run_qos_site.sh: the four low jobs do not run:"; squeue; tail -5 "$work/rota-slurm.log"; exit 1; }
h=$(job H 4 -q high -p small -L lic:1 -N 2)

deadline=$(($(date +%s) + 90))
while [ -n "$(squeue -h -o %i)" ]; do
  if ! kill -0 "$daemon_pid" 2>/dev/null; then
    echo "run_qos_site.sh: rota-slurm exited early:"; tail -20 "$work/rota-slurm.log"; exit 1
  fi
  if [ "$(date +%s)" -ge "$deadline" ]; then
    echo "run_qos_site.sh: jobs not done after 90 s:"; squeue -o '%i %j %q %T %r'; tail -5 "$work/rota-slurm.log"; exit 1
  fi
  sleep 0.5
done
kill "$sampler_pid"
sampler_pid=""
kill -TERM "$daemon_pid"
wait "$daemon_pid" || { echo "run_qos_site.sh: rota-slurm did not exit cleanly"; exit 1; }
daemon_pid=""
for id in $(awk '{ print $2 }' "$work/jobs.txt"); do
  echo "$id $(scontrol show job "$id" | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p')"
done >"$work/restarts.txt"

python3 "$here/check_qos.py" "$work/jobs.txt" "$work/jobcomp.txt" "$work/journal.txt" \
  "$work/samples.txt" "$work/restarts.txt"

# The victims are exactly the partition's two jobs and the licence's holder,
# and H ran on the partition's nodes.
name_of() { awk -v id="$1" '$2 == id { print $1 }' "$work/jobs.txt"; }
victims=$(for id in $(awk '$1 == "SWAP_OUT" { print $3 }' "$work/journal.txt" | sort -un); do
  name_of "$id"; done | sort | tr '\n' ' ')
[ "$victims" = "L1 L2 L3 " ] ||
  { echo "run_qos_site.sh: preempted '$victims', not L1, L2 (small's nodes) and L3 (the licence)"; exit 1; }
h_nodes=$(awk -v id="$h" '$1 == "START" && $3 == id { print $4 }' "$work/journal.txt" | tail -1)
[ "$h_nodes" = "n3,n4" ] || { echo "run_qos_site.sh: H started on '$h_nodes', not on small's n3,n4"; exit 1; }
echo "run_qos_site.sh: L1, L2 and L3 preempted for H (small's nodes, the licence), L4 ($l4) left running; H on $h_nodes"
ok=1
