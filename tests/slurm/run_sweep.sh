#!/usr/bin/env bash
# `rota sweep --slurm`'s job array under a real Slurm controller: starts the
# private 8-node cluster of cluster.sh and runs the Catch test that submits
# the array with `sbatch --wait` against it (tests/sim/test_sweep.cpp).
#   run_sweep.sh TEST_SIM_BINARY
# Exits 77 (skipped) when Slurm or munge is missing or it is not root,
# unless CI=true: there it fails.
set -euo pipefail
test_sim=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/cluster.sh"
cluster_require

work=$(mktemp -d "${TMPDIR:-/tmp}/rota-sweep-test.XXXXXX")
finish() {
  cluster_stop
  rm -rf "$work"
}
trap finish EXIT
trap 'exit 1' INT TERM HUP
cluster_start "$work" 8
# The array's tasks write under the test's temp directory, which the
# cluster's nodes (this machine) see as it is.
ROTA_SLURM_CLUSTER=1 "$test_sim" "sweep --slurm: the array runs under a real Slurm controller"
