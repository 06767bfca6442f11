#!/usr/bin/env bash
# A site rota-slurm maps onto the engine: an 8-node Slurm cluster with two
# more partitions (small = n[1-2], mid = n[2-5], overlapping) and a licence
# of one seat. Held jobs ask for each thing a user asks Slurm for:
#   A  -p small -N 2            runs on n1, n2
#   B  -p mid -N 3              runs within n2..n5
#   C  -w n7,n8 -N 2            runs on n7, n8
#   D  -x n[1-7] -N 1           runs on n8
#   E  --begin=now+15 -N 1      starts 15 s after its submission at the earliest
#   F  --dependency=afterok:A   starts after A ended
#   G  --dependency=afterany:C  starts after C ended
#   L1, L2  -L lic:1            never run at the same time
#   H  -N 9                     rejected: stays held, its AdminComment says why
#   I  -p small -N 3            rejected the same way (its partition is too small)
#   N  -N 1, without --hold     held all the same by the shipped job_submit.lua,
#                               and submitted to the engine (not adopted)
#   P  -p late -N 2             submitted after the others are done, to a
#                               partition late = n[6-7] created while the
#                               daemon runs: a new engine takes over the
#                               changed site, and P runs on n6, n7
# No node ever holds two running jobs (check_site.py, on Slurm's completion
# records); waiting jobs say why in their AdminComment (E its begin time, F
# its dependency); the --metrics file counts the jobs. Three seconds in, the
# configuration's preset changes from easy to conservative and the daemon
# gets SIGHUP: a running engine cannot change it, so a new engine takes over
# Slurm's jobs.
#   run_site.sh ROTA_SLURM_BINARY
# Exits 77 (skipped) when Slurm, munge or rota-slurm is missing or it is
# not root, unless CI=true: there it fails.
set -euo pipefail
daemon=$1
here=$(cd "$(dirname "$0")" && pwd)

source "$here/cluster.sh"
cluster_require "$daemon"

work=$(mktemp -d "${TMPDIR:-/tmp}/rota-slurm-site.XXXXXX")
ok=0
daemon_pid=""
finish() {
  [ -n "$daemon_pid" ] && kill -TERM "$daemon_pid" 2>/dev/null || true
  cluster_stop
  if [ $ok = 1 ] && [ -z "${ROTA_SLURM_KEEP:-}" ]; then rm -rf "$work"; else echo "run_site.sh: work directory kept: $work"; fi
}
trap finish EXIT
trap 'exit 1' INT TERM HUP

# The shipped job_submit.lua beside slurm.conf: every job arrives held.
mkdir -p "$work"
cp "$here/../../bindings-examples/slurm/job_submit.lua" "$work/job_submit.lua"
cluster_start "$work" 8 "PartitionName=small Nodes=n[1-2] MaxTime=INFINITE State=UP
PartitionName=mid Nodes=n[2-5] MaxTime=INFINITE State=UP
Licenses=lic:1
JobSubmitPlugins=lua" || exit 1
printf '[machine]\nprocs = 8\n[scheduler]\npreset = "easy"\n' >"$work/rota.toml"

: >"$work/jobs.txt"
job() {  # job NAME SECONDS SBATCH_ARGS...
  local name=$1 secs=$2 id hold=--hold
  shift 2
  [ "$name" = N ] && hold=
  id=$(sbatch --parsable $hold -t 2 -o /dev/null -D "$work" -J "$name" "$@" --wrap "sleep $secs")
  echo "$name $id $(date +%s)" >>"$work/jobs.txt"
  echo "$id"
}
a=$(job A 4 -p small -N 2)
job B 3 -p mid -N 3 >/dev/null
c=$(job C 3 -w n7,n8 -N 2)
job D 2 -x 'n[1-7]' -N 1 >/dev/null
e=$(job E 1 --begin=now+15 -N 1)
f=$(job F 1 --dependency=afterok:"$a" -N 1)
job G 1 --dependency=afterany:"$c" -N 2 >/dev/null
job L1 3 -L lic:1 -N 1 >/dev/null
job L2 3 -L lic:1 -N 1 >/dev/null
h=$(job H 1 -N 9)
i=$(job I 1 -p small -N 3)
n=$(job N 1 -N 1)
[ "$(squeue -h -j "$n" -o %Q)" = 0 ] || { echo "run_site.sh: job $n, submitted without --hold, is not held"; exit 1; }

"$daemon" --config "$work/rota.toml" --interval 0.5 --journal "$work/journal.txt" \
  --metrics "$work/rota.prom" 2>>"$work/rota-slurm.log" &
daemon_pid=$!
cluster_track "$daemon_pid"
# Waiting jobs say why in their AdminComment.
admin() { scontrol show job "$1" | sed -n 's/.*AdminComment=\(.*[^ ]\) *$/\1/p'; }
for k in $(seq 20); do
  case "$(admin "$e")|$(admin "$f")" in "rota: not before "*"(--begin)|rota: waiting for 1 dependency") break ;; esac
  sleep 0.2
done
echo "run_site.sh: E waits: $(admin "$e"); F waits: $(admin "$f")"
case "$(admin "$e")" in "rota: not before "*"(--begin)") ;; *) echo "run_site.sh: E does not say it waits for its begin time"; exit 1 ;; esac
[ "$(admin "$f")" = "rota: waiting for 1 dependency" ] || { echo "run_site.sh: F does not say it waits for A"; exit 1; }
sleep 1
sed -i 's/^preset = "easy"$/preset = "conservative"/' "$work/rota.toml"
kill -HUP "$daemon_pid"

# Done when every job but the two rejected ones has a completion record.
deadline=$(($(date +%s) + 120))
while [ "$(grep -c . "$work/jobcomp.txt" 2>/dev/null || true)" -lt 10 ]; do
  if ! kill -0 "$daemon_pid" 2>/dev/null; then
    echo "run_site.sh: rota-slurm exited early:"; tail -20 "$work/rota-slurm.log"; exit 1
  fi
  if [ "$(date +%s)" -ge "$deadline" ]; then
    echo "run_site.sh: jobs not done after 120 s:"; squeue -o '%i %j %T %r %E'; tail -5 "$work/rota-slurm.log"; exit 1
  fi
  sleep 0.5
done
sleep 1
# The rejected jobs: held, each told why once.
for r in "$h" "$i"; do
  state=$(squeue -h -j "$r" -o '%T %r')
  comment=$(admin "$r")
  echo "run_site.sh: job $r: $state: $comment"
  case $state in "PENDING JobHeldUser"*) ;; *) echo "run_site.sh: job $r is $state, not held"; exit 1 ;; esac
  case $comment in "rota: rejected: "*) ;; *) echo "run_site.sh: job $r: no rejection in its AdminComment"; exit 1 ;; esac
done
[ "$(grep -c "job $h rejected" "$work/rota-slurm.log")" = 1 ] || { echo "run_site.sh: job $h's rejection not logged once"; exit 1; }
# The metrics of the engines so far, before the site changes.
sleep 1
cp "$work/rota.prom" "$work/before.prom"
# A partition created while the daemon runs: read without a restart.
scontrol create PartitionName=late Nodes='n[6-7]' MaxTime=INFINITE State=UP
job P 2 -p late -N 2 >/dev/null
deadline=$(($(date +%s) + 60))
while [ "$(grep -c . "$work/jobcomp.txt")" -lt 11 ]; do
  [ "$(date +%s)" -lt "$deadline" ] || { echo "run_site.sh: P not done 60 s after partition late was created:"; squeue -o '%i %j %T %r'; tail -5 "$work/rota-slurm.log"; exit 1; }
  sleep 0.5
done
grep -q "Slurm's site changed: a new engine takes over with 8 nodes" "$work/rota-slurm.log" ||
  { echo "run_site.sh: the new partition was not taken"; tail -5 "$work/rota-slurm.log"; exit 1; }
[ "$(grep -c "job $h rejected" "$work/rota-slurm.log")" = 1 ] || { echo "run_site.sh: job $h rejected again by the engine that took over"; exit 1; }
kill -TERM "$daemon_pid"
wait "$daemon_pid" || { echo "run_site.sh: rota-slurm did not exit cleanly"; exit 1; }
daemon_pid=""
grep -q "3 partitions, 1 licences" "$work/rota-slurm.log" || { echo "run_site.sh: the site was not read"; head -3 "$work/rota-slurm.log"; exit 1; }
grep -q "reload: a new engine takes over (key 'scheduler.reservation_depth' cannot change" "$work/rota-slurm.log" || { echo "run_site.sh: the preset change was not taken"; grep reload "$work/rota-slurm.log"; exit 1; }
[ "$(grep -c 'reservation_depth' "$work/rota-slurm.log")" = 1 ] || { echo "run_site.sh: the reload told more than once"; grep reservation_depth "$work/rota-slurm.log"; exit 1; }
# The metrics of the last pass: ten jobs released, two rejected (by the
# engine that took over at the reload: it offers neither again), the
# backfill hook's statistics, no queue.
m() { awk -v k="$1" '$1 == k { print $2 }' "$work/before.prom"; }
[ "$(m rota_started_total)" = 10 ] && [ "$(m rota_jobs_queued)" = 0 ] && [ "$(m rota_nodes)" = 8 ] &&
  grep -q '^rota_hook_calls_total{hook="backfill_select"} ' "$work/before.prom" &&
  grep -q '^# TYPE rota_passes_total counter$' "$work/before.prom" ||
  { echo "run_site.sh: the metrics file is not as expected:"; cat "$work/before.prom"; exit 1; }
grep -q "^SUBMIT [0-9]* $n " "$work/journal.txt" || { echo "run_site.sh: job $n (no --hold) was not submitted to the engine"; exit 1; }

python3 "$here/check_site.py" "$work/jobs.txt" "$work/jobcomp.txt"
ok=1
