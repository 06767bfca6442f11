#!/usr/bin/env bash
# librota.so against abi/librota.abi with abidiff: any difference in the
# rota_* functions or the types rota.h declares fails, with abidiff's
# report. A deliberate change bumps ROTA_ABI_VERSION (rota.h) and
# regenerates the baseline (scripts/abi-baseline.sh) in the same commit.
# Exits 77 (skipped) without abidiff, unless CI=true.
set -uo pipefail
root=$1 lib=$2
if ! command -v abidiff >/dev/null; then
  [ "${CI:-}" = true ] && { echo "check_abi.sh: abidiff is missing (abigail-tools) and CI=true"; exit 1; }
  echo "check_abi.sh: abidiff is missing (apt install abigail-tools): skipped"; exit 77
fi
report=$(abidiff --suppressions "$root/abi/rota.supp" "$root/abi/librota.abi" "$lib")
rc=$?
if [ $rc -ne 0 ]; then
  echo "$report"
  echo "check_abi.sh: librota.so differs from abi/librota.abi (abidiff status $rc)."
  echo "If the change is deliberate, bump ROTA_ABI_VERSION in rota.h and run scripts/abi-baseline.sh."
  exit 1
fi
echo "check_abi.sh: librota.so matches abi/librota.abi ($(grep -o "soname='[^']*'" "$root/abi/librota.abi"))"
