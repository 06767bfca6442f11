#!/usr/bin/env bash
# Builds rota and everything its tests run (the test programs, the
# benchmarks, rota-slurm, the examples: every default target), then runs
# the whole test suite through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
cmake --build build -j2
ctest --test-dir build --output-on-failure -j2
