# cluster.sh: a private Slurm cluster on localhost, for the tests to source.
#
# cluster_start DIR NODES writes a slurm.conf under DIR and starts munged
# (its own key and socket), slurmctld and NODES slurmd daemons, all in the
# foreground of background subshells so that each PID is known; every PID
# goes to DIR/pids and cluster_stop kills exactly those. Nothing touches
# the system's munge or Slurm (/etc/munge, /etc/slurm, /run/munge): the
# clients find this cluster through SLURM_CONF, which cluster_start exports.
#
# Ports: ROTA_SLURM_PORT (default 16990) for slurmctld, the next NODES for
# the slurmd daemons, away from Slurm's defaults (6817, 6818).
# CLUSTER_SCHEDULER and CLUSTER_SCHEDULER_PARAMETERS replace the
# scheduler (sched/builtin, which leaves held jobs to rota-slurm) and its
# parameters: bench/slurm_burst.sh runs Slurm's own sched/backfill.
#
# CLUSTER_ACCOUNTING=1 adds accounting (QOS, associations), which only the
# QOS test needs (it costs about 10 s): a private mariadbd (its own datadir
# and socket under DIR/mysql, no TCP port) and a private slurmdbd on port
# ROTA_SLURM_PORT - 1, started before slurmctld, their PIDs recorded like
# the others; the cluster, an account `rota` and the user root are added
# with sacctmgr, and slurm.conf enforces associations and QOS.

cluster_log() { echo "cluster: $*" >&2; }

# Skips the test (exit 77) with a reason, or fails it under CI=true, where
# the cluster must run (scripts/install-deps.sh installs Slurm and munge).
cluster_skip() {
  local who=$(basename "$0")
  if [ "${CI:-}" = true ]; then
    echo "$who: $1, and CI=true: this test must run (scripts/install-deps.sh)"
    exit 1
  fi
  echo "$who: SKIPPED: $1 (scripts/install-deps.sh installs Slurm and munge)"
  exit 77
}

# cluster_require [DAEMON]: skips the test (cluster_skip) unless Slurm's
# daemons and clients, munge and python3 are installed, the user is root
# (slurmd starts jobs as their owner, and munged's private key is root's)
# and, when the argument is given, rota-slurm is built at DAEMON.
cluster_require() {
  local b
  for b in slurmctld slurmd munged mungekey sbatch squeue sinfo scontrol python3; do
    command -v "$b" >/dev/null 2>&1 || cluster_skip "$b is not installed"
  done
  if [ $# -gt 0 ]; then
    [ -n "$1" ] && [ -x "$1" ] || cluster_skip "rota-slurm is not built (libslurm-dev is missing)"
  fi
  [ "$(id -u)" = 0 ] || cluster_skip "the cluster needs root"
}

# Records a PID so that cluster_stop stops it.
cluster_track() { echo "$1" >>"$CLUSTER_DIR/pids"; }

cluster_write_conf() {
  local dir=$1 nodes=$2 port=$3 extra=${4:-}
  cat >"$dir/slurm.conf" <<CONF
ClusterName=rotatest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
SlurmctldDebug=info
LogTimeFormat=iso8601_ms
SlurmdDebug=info
SelectType=select/linear
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
$(cluster_accounting_conf "$dir" "$port")
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.txt
SchedulerType=${CLUSTER_SCHEDULER:-sched/builtin}
SchedulerParameters=${CLUSTER_SCHEDULER_PARAMETERS:-batch_sched_delay=0}
PriorityType=priority/multifactor
PriorityWeightAge=0
PriorityWeightFairshare=0
PriorityWeightJobSize=0
PriorityWeightPartition=0
PriorityWeightQOS=0
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
KillWait=2
MinJobAge=600
InactiveLimit=0
Waittime=0
NodeName=n[1-$nodes] NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((port + 1))-$((port + nodes)) CPUs=1 State=UNKNOWN
PartitionName=batch Nodes=n[1-$nodes] Default=YES MaxTime=INFINITE State=UP
$extra
CONF
}

# slurm.conf's accounting lines: none, or slurmdbd's under CLUSTER_ACCOUNTING.
cluster_accounting_conf() {
  if [ "${CLUSTER_ACCOUNTING:-}" = 1 ]; then
    printf '%s\n' AccountingStorageType=accounting_storage/slurmdbd AccountingStorageHost=localhost \
      "AccountingStoragePort=$(($2 - 1))" AccountingStorageEnforce=associations,qos \
      "AccountingStoragePass=$1/munge/munge.socket"
  else
    echo AccountingStorageType=accounting_storage/none
  fi
}

# Whether accounting can run here: mariadbd, mariadb-install-db, slurmdbd
# and sacctmgr are installed (Debian: mariadb-server, slurmdbd).
cluster_have_accounting() {
  local b
  for b in mariadbd mariadb-install-db mariadb slurmdbd sacctmgr; do
    command -v "$b" >/dev/null 2>&1 || return 1
  done
}

# A private mariadbd and slurmdbd for the cluster of CLUSTER_DIR (munged
# running, slurm.conf written), and the cluster, account and user in them.
cluster_start_accounting() {
  local dir=$CLUSTER_DIR port=$1 i
  local db=$dir/mysql
  mkdir -p "$db"
  chmod 700 "$db"
  # Root reaches the database through the socket as the system's root
  # (unix_socket authentication): no password anywhere. Small logs and
  # buffers, and no flushing: the database lives as long as the test.
  local opts=(--no-defaults "--datadir=$db/data" --user=root --skip-name-resolve
    --innodb-log-file-size=4M --innodb-buffer-pool-size=32M)
  mariadb-install-db "${opts[@]}" --auth-root-authentication-method=socket --skip-test-db \
    >>"$dir/log/mariadb-install.out" 2>&1 || { cluster_log "mariadb-install-db failed"; return 1; }
  mariadbd "${opts[@]}" --skip-networking "--socket=$db/sock" "--pid-file=$db/mariadbd.pid" \
    "--log-error=$dir/log/mariadbd.log" --innodb-flush-log-at-trx-commit=0 --skip-log-bin \
    >>"$dir/log/mariadbd.out" 2>&1 &
  cluster_track $!
  for i in $(seq 100); do
    mariadb --no-defaults "--socket=$db/sock" -u root -e 'select 1' >/dev/null 2>&1 && break
    sleep 0.1
  done
  [ "$i" -lt 100 ] || { cluster_log "mariadbd did not start"; return 1; }
  cat >"$dir/slurmdbd.conf" <<CONF
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$((port - 1))
SlurmUser=root
LogFile=$dir/log/slurmdbd.log
PidFile=$dir/run/slurmdbd.pid
StorageType=accounting_storage/mysql
StorageHost=localhost
StorageUser=root
StorageLoc=rota_acct_db
CONF
  # slurmdbd refuses a configuration file others can read.
  chmod 600 "$dir/slurmdbd.conf"
  # libmariadb takes the socket of "localhost" from MYSQL_UNIX_PORT.
  # slurmdbd reads slurmdbd.conf beside SLURM_CONF.
  MYSQL_UNIX_PORT=$db/sock SLURM_CONF=$dir/slurm.conf \
    slurmdbd -D >>"$dir/log/slurmdbd.out" 2>&1 &
  cluster_track $!
  for i in $(seq 100); do
    grep -q "slurmdbd version .* started" "$dir/log/slurmdbd.log" 2>/dev/null && break
    sleep 0.1
  done
  [ "$i" -lt 100 ] || { cluster_log "slurmdbd did not answer after 10 s"; tail -5 "$dir/log/slurmdbd.log" >&2; return 1; }
  sacctmgr -i add cluster rotatest >/dev/null &&
    sacctmgr -i add account rota Cluster=rotatest >/dev/null &&
    sacctmgr -i add user root Account=rota Cluster=rotatest >/dev/null ||
    { cluster_log "sacctmgr could not add the cluster, account or user"; return 1; }
}

# cluster_start DIR NODES [EXTRA_CONF_LINES]
cluster_start() {
  CLUSTER_DIR=$1
  CLUSTER_NODES=$2
  local port=${ROTA_SLURM_PORT:-16990} i
  mkdir -p "$CLUSTER_DIR"/{munge,state,spool,run,log}
  : >"$CLUSTER_DIR/pids"
  # munged refuses a socket directory others can write to, and clients
  # need to reach the socket through it: 755.
  chmod 755 "$CLUSTER_DIR" "$CLUSTER_DIR/munge"
  chmod 700 "$CLUSTER_DIR/state"
  mungekey -c -k "$CLUSTER_DIR/munge/munge.key" || return 1
  munged -F --key-file="$CLUSTER_DIR/munge/munge.key" \
    --socket="$CLUSTER_DIR/munge/munge.socket" --pid-file="$CLUSTER_DIR/run/munged.pid" \
    --log-file="$CLUSTER_DIR/log/munged.log" --seed-file="$CLUSTER_DIR/munge/seed" \
    >>"$CLUSTER_DIR/log/munged.out" 2>&1 &
  cluster_track $!
  for i in $(seq 50); do [ -S "$CLUSTER_DIR/munge/munge.socket" ] && break; sleep 0.1; done
  [ -S "$CLUSTER_DIR/munge/munge.socket" ] || { cluster_log "munged did not start"; return 1; }

  cluster_write_conf "$CLUSTER_DIR" "$CLUSTER_NODES" "$port" "${3:-}"
  export SLURM_CONF=$CLUSTER_DIR/slurm.conf
  if [ "${CLUSTER_ACCOUNTING:-}" = 1 ]; then cluster_start_accounting "$port" || return 1; fi
  slurmctld -D -i >>"$CLUSTER_DIR/log/slurmctld.out" 2>&1 &
  cluster_track $!
  for i in $(seq 1 "$CLUSTER_NODES"); do
    slurmd -D -N "n$i" >>"$CLUSTER_DIR/log/slurmd-n$i.out" 2>&1 &
    cluster_track $!
  done
  # Ready when every node is idle (a node of several partitions is listed once for each).
  for i in $(seq 150); do
    if [ "$(sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | wc -l)" = "$CLUSTER_NODES" ]; then
      return 0
    fi
    sleep 0.2
  done
  cluster_log "nodes not idle after 30 s:"
  sinfo -N >&2 || true
  return 1
}

# The slurmstepd of each job that is still running on this cluster: slurmd
# starts them detached, so they are recognised by this cluster's
# SLURM_CONF in their environment.
cluster_stepds() {
  local d
  for d in /proc/[0-9]*; do
    [ "$(cat "$d/comm" 2>/dev/null)" = slurmstepd ] || continue
    tr '\0' '\n' <"$d/environ" 2>/dev/null | grep -qx "SLURM_CONF=$CLUSTER_DIR/slurm.conf" &&
      echo "${d#/proc/}"
  done
}

# Cancels the jobs still in Slurm and waits for them to go, then stops
# every recorded PID (TERM, then KILL after 5 s), then any slurmstepd of
# this cluster left over and the job processes under it.
cluster_stop() {
  [ -n "${CLUSTER_DIR:-}" ] && [ -f "$CLUSTER_DIR/pids" ] || return 0
  local pids p i alive
  if [ -n "$(squeue -h -o %i 2>/dev/null)" ]; then
    scancel --full $(squeue -h -o %i) 2>/dev/null || true
    for i in $(seq 50); do [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break; sleep 0.2; done
  fi
  pids=$(cat "$CLUSTER_DIR/pids")
  for p in $pids; do kill -TERM "$p" 2>/dev/null || true; done
  for i in $(seq 50); do
    alive=""
    for p in $pids; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
    [ -z "$alive" ] && break
    sleep 0.1
  done
  for p in $alive; do kill -KILL "$p" 2>/dev/null || true; done
  for p in $pids; do wait "$p" 2>/dev/null || true; done
  : >"$CLUSTER_DIR/pids"
  local c g
  for p in $(cluster_stepds); do
    cluster_log "stopping job step $p left running"
    # Its job's processes (maybe stopped by a suspension) form a process
    # group under it: KILL reaches stopped processes too.
    for c in $(pgrep -P "$p"); do
      g=$(ps -o pgid= -p "$c" | tr -d ' ')
      [ -n "$g" ] && [ "$g" != "$(ps -o pgid= -p $$ | tr -d ' ')" ] && kill -KILL -- "-$g" 2>/dev/null
      kill -KILL "$c" 2>/dev/null || true
    done
    kill -KILL "$p" 2>/dev/null || true
  done
}

# For the QOS tests (run_qos.sh, run_qos_site.sh), on a cluster started
# with CLUSTER_ACCOUNTING=1: QOS low (Priority=10, 6 s exempt from
# preemption) and high (Priority=100, Preempt=low), both root's.
cluster_qos_low_high() {
  sacctmgr -i add qos low Priority=10 PreemptExemptTime=00:00:06 >/dev/null
  sacctmgr -i add qos high Priority=100 Preempt=low >/dev/null
  sacctmgr -i modify user root set QOS+=low,high >/dev/null
}

# cluster_held_job DIR NAME SECONDS SBATCH_ARGS...: submits a held job that
# sleeps SECONDS, appends "NAME ID EPOCH" to DIR/jobs.txt, prints its id.
# The QOS reach slurmctld from slurmdbd a moment after sacctmgr: a refused
# submission is tried again for 5 s.
cluster_held_job() {
  local dir=$1 name=$2 secs=$3 id="" k
  shift 3
  for k in $(seq 20); do
    id=$(sbatch --parsable --hold -t 2 -o /dev/null -D "$dir" -J "$name" "$@" \
      --wrap "sleep $secs" 2>/dev/null) && break
    sleep 0.25
  done
  [ -n "$id" ] || { echo "cluster: job $name cannot be submitted: sbatch $*" >&2; return 1; }
  echo "$name $id $(date +%s)" >>"$dir/jobs.txt"
  echo "$id"
}

# cluster_sample FILE: writes "@ EPOCH" and squeue's running jobs ("ID
# NODELIST") to FILE every half second, in the background; its PID is in
# $! for the caller to stop.
cluster_sample() {
  ( while :; do
      echo "@ $(date +%s.%N)"
      squeue -h -t R -o '%i %N' 2>/dev/null || true
      sleep 0.5
    done ) >"$1" &
}
