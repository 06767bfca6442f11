#!/bin/bash
# Compares the schedules of two rota builds under [classes]: the jobs CSV of
# `rota simulate --policy classes` on generated workloads, on the SWF traces
# of TRACE_DIR (the Parallel Workloads Archive's cleaned logs and
# lublin_256.swf, those present) and with order policies whose keys age, byte
# for byte. A change meant to make the engine faster must leave them all
# identical.
#
#   scripts/compare_classes_schedules.sh OLD_ROTA NEW_ROTA [TRACE_DIR] [WORKDIR]
set -u
old=$1
new=$2
traces=${3:-}
work=${4:-$(mktemp -d /tmp/rota-compare-classes.XXXXXX)}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work/old" "$work/new"
printf '[policy.order]\nscript = "%s/policies/order/multifactor.lua"\n' "$root" >"$work/multifactor.toml"
printf '[policy.order]\nscript = "%s/policies/order/sjf.lua"\n' "$root" >"$work/sjf.toml"

runs=(
    "gen-128-0.9|--jobs 20000 --load 0.9 --seed 1"
    "gen-256-0.7|--procs 256 --jobs 20000 --load 0.7 --seed 2 --interactive-time 600"
    "gen-1024-0.95|--procs 1024 --jobs 30000 --load 0.95 --seed 3 --interactive-procs 256"
    "gen-multifactor|$work/multifactor.toml --jobs 20000 --load 0.9 --seed 4"
    "gen-sjf-256|$work/sjf.toml --procs 256 --jobs 20000 --load 0.8 --seed 5 --interactive-time 600"
)
if [ -n "$traces" ]; then
    for t in KTH-SP2-1996-2.1-cln.swf.gz CTC-SP2-1996-3.1-cln.swf.gz SDSC-SP2-1998-4.2-cln.swf.gz \
        SDSC-Par-1996-3.1-cln.swf.gz LANL-CM5-1994-4.1-cln.swf.gz HPC2N-2002-2.2-cln.swf.gz \
        lublin_256.swf; do
        [ -f "$traces/$t" ] && runs+=("${t%%.swf*}|--trace $traces/$t")
    done
    [ -f "$traces/KTH-SP2-1996-2.1-cln.swf.gz" ] &&
        runs+=("KTH-sjf|$work/sjf.toml --trace $traces/KTH-SP2-1996-2.1-cln.swf.gz")
fi

status=0
for r in "${runs[@]}"; do
    name=${r%%|*}
    args=${r#*|}
    for side in old new; do
        bin=$old
        [ "$side" = new ] && bin=$new
        # shellcheck disable=SC2086
        if ! "$bin" simulate --policy classes --no-progress --jobs-csv "$work/$side/$name.csv" \
            $args >"$work/$side/$name.out" 2>&1; then
            echo "FAILED  $name ($side): see $work/$side/$name.out"
            status=1
        fi
    done
    if cmp -s "$work/old/$name.csv" "$work/new/$name.csv"; then
        echo "same    $name"
    else
        echo "DIFFERS $name"
        status=1
    fi
done
exit $status
