#!/usr/bin/env bash
# Configures (once) and builds what the main job needs: the library
# (librota.so) and the rota tool, which reads the shipped policies and the
# plot script from this tree. ./scripts/test.sh builds everything else:
# the tests, the benchmarks, rota-slurm and the examples.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j2 --target rota_cli rota_shared
