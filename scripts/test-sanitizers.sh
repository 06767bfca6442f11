#!/usr/bin/env bash
# Builds rota with AddressSanitizer and UndefinedBehaviorSanitizer (gcc,
# float-cast-overflow included, every report fatal) in build-san/ and runs
# the whole test suite there (docs/reliability.md, "Tools"):
#   scripts/test-sanitizers.sh [BUILD_DIR]
# Left out: the consumer built against an installed copy (it is compiled
# without the sanitizers, so it cannot link an instrumented library) and
# the tests that start a Slurm cluster (the same code runs in the other
# tests) and the quick reproduction run (label repro: minutes of
# simulation that the release build's suite already runs). The Python
# examples and the Python package's tests (label python) load the
# instrumented library into an uninstrumented interpreter: the sanitizer
# runtimes are preloaded for them, and leaks are not checked there (the
# interpreter's own memory at exit
# would be reported).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
build=${1:-build-san}
san="-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all"
san="$san -fno-omit-frame-pointer"
if [ ! -f "$build/CMakeCache.txt" ]; then
  # -O1: the sanitizers' own checks dominate; higher levels only lengthen
  # the build on a small machine.
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=None \
    -DCMAKE_C_FLAGS="-O1 -g1 $san" -DCMAKE_CXX_FLAGS="-O1 -g1 $san" \
    -DCMAKE_EXE_LINKER_FLAGS="$san" -DCMAKE_SHARED_LINKER_FLAGS="$san" >/dev/null
fi
cmake --build "$build" -j2
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
python='^example: Python|^header: librota|^python'
skip="^install:|slurm|^abi: librota|^repro:"  # the baseline is of the release build's debug info
ctest --test-dir "$build" --output-on-failure -j2 -E "$python|$skip"
LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)" \
  ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 \
  ctest --test-dir "$build" --output-on-failure -j2 -R "$python"
echo "sanitizers: no report"
