#!/bin/sh
# Installs the build tree into a scratch prefix, then builds and runs the
# consumer against it twice: with CMake's find_package(rota) and with
# pkg-config. Usage: test_install.sh <build dir> <source dir> <scratch dir>
set -eu
build=$1 src=$2 scratch=$3
rm -rf "$scratch"
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
policies=$prefix/share/rota/policies
test -f "$policies/backfill/first_fit.lua"
test -f "$prefix/include/rota.h"
lib=$(find "$prefix" -name 'librota.so.*.*' | head -n 1)
test -n "$lib"
# The soname carries the ABI version of rota.h.
abi=$(sed -n 's/^#define ROTA_ABI_VERSION \([0-9]*\).*/\1/p' "$prefix/include/rota.h")
objdump -p "$lib" | grep -q "SONAME *librota.so.$abi\$"

cmake -S "$src/bindings-examples/consumer" -B "$scratch/cmake-build" \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$scratch/cmake-build" >/dev/null
# The library finds its policies beside itself, not in the source tree:
# the source tree's copy is hidden by running from a copy of the prefix.
cp -a "$prefix" "$scratch/moved"
"$scratch/cmake-build/consumer" "$policies"

pcdir=$(dirname "$(find "$prefix" -name rota.pc | head -n 1)")
# shellcheck disable=SC2046
cc -o "$scratch/pc-consumer" "$src/bindings-examples/consumer/consumer.c" \
  $(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs rota) -Wl,-rpath,"$(dirname "$lib")"
"$scratch/pc-consumer"
# The moved copy finds its own policies through its own location.
moved_lib=$(find "$scratch/moved" -name 'librota.so.*.*' | head -n 1)
cc -o "$scratch/moved-consumer" "$src/bindings-examples/consumer/consumer.c" \
  -I"$scratch/moved/include" -L"$(dirname "$moved_lib")" -lrota -Wl,-rpath,"$(dirname "$moved_lib")"
"$scratch/moved-consumer" "$scratch/moved/share/rota/policies"
# ROTA_POLICY_PATH comes first.
ROTA_POLICY_PATH=/opt/site-policies "$scratch/moved-consumer" /opt/site-policies
echo "install: ok"
