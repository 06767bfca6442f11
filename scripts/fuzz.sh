#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each on
# its committed corpus (fuzz/corpus/<target>):
#   scripts/fuzz.sh SECONDS [BUILD_DIR]  fuzz each target that long, adding
#                                        new inputs to the corpus
#   scripts/fuzz.sh ci [BUILD_DIR]       CI's short run: a fixed number of
#                                        inputs from a fixed seed, so that a
#                                        run gives the same verdict each time;
#                                        the corpus is left as it is
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30}
build=${2:-build-fuzz}
# clang and its libFuzzer runtime, from Debian, if missing.
for p in clang libclang-rt-14-dev; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq clang libclang-rt-14-dev
    break
  fi
done
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B "$build" -DROTA_FUZZ=ON -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link $san" -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link $san" \
  -DCMAKE_EXE_LINKER_FLAGS="$san" -DCMAKE_SHARED_LINKER_FLAGS="$san" >/dev/null
cmake --build "$build" -j2 --target fuzz_swf fuzz_config fuzz_abi fuzz_answers fuzz_snapshot
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
for t in swf config abi answers snapshot; do
  corpus=fuzz/corpus/$t
  mkdir -p "$corpus"
  log=$build/fuzz_$t.log
  if [ "$secs" = ci ]; then
    scratch=$build/corpus-$t
    rm -rf "$scratch" && mkdir -p "$scratch"
    runs=20000
    [ "$t" = swf ] && runs=3000  # each input is a whole trace load
    # (snapshot: two restores an input, 20,000 take about 20 s)
    how=(-seed=1 -runs=$runs "$scratch" "$corpus")
    echo "fuzz_$t: $runs inputs from seed 1, log in $log"
  else
    how=(-max_total_time="$secs" "$corpus")
    echo "fuzz_$t: ${secs} s, log in $log"
  fi
  # The configuration's words, from its schema (fuzz/config.dict).
  [ "$t" = config ] && how+=(-dict=fuzz/config.dict)
  if ! "$build/bin/fuzz_$t" "${how[@]}" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$build/" >"$log" 2>&1; then
    grep -E "ERROR|SUMMARY|artifact" "$log" || tail -20 "$log"
    echo "fuzz_$t found a failure (input saved under $build/)"
    exit 1
  fi
  grep -E "^stat::(number_of_executed_units|peak_rss_mb)|^#[0-9]+ +DONE" "$log" || true
done
echo "fuzz: no failure"
