#!/usr/bin/env bash
# Writes abi/librota.abi, the ABI baseline the test suite compares
# librota.so with (abidiff, "abi: librota.so matches the ABI baseline").
# Run it only together with a bump of ROTA_ABI_VERSION in rota.h, after a
# change a compiled caller could notice, and commit both:
#   ./scripts/build.sh && ./scripts/abi-baseline.sh [build/lib/librota.so]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lib=${1:-$root/build/lib/librota.so}
command -v abidw >/dev/null || { echo "abi-baseline.sh: abidw missing (apt install abigail-tools)" >&2; exit 1; }
# Paths are made relative to the source tree, so the file does not depend
# on where it was built.
abidw --no-corpus-path --suppressions "$root/abi/rota.supp" "$lib" |
  sed -E "s#(path|filepath)='$root/#\1='#g; s# comp-dir-path='[^']*'##g" >"$root/abi/librota.abi"
echo "abi-baseline.sh: wrote abi/librota.abi from $lib ($(grep -o "soname='[^']*'" "$root/abi/librota.abi"))"
