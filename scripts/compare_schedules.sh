#!/bin/bash
# Compares the schedules of two rota builds byte for byte: the jobs CSV of
# `rota simulate --jobs-csv` under every single-model preset of the CLI, on
# the traces of TRACE_DIR and on generated workloads. A change meant to make
# the engine faster must leave every one of them identical.
#
#   scripts/compare_schedules.sh OLD_ROTA NEW_ROTA [TRACE_DIR] [WORKDIR]
#   scripts/compare_schedules.sh --ref COMMIT [NEW_ROTA] [TRACE_DIR] [WORKDIR]
#
# --ref COMMIT builds the old binary from COMMIT of this repository in a
# temporary `git worktree` under /tmp (Release, the `rota` program only,
# -j2), removed at the end unless --keep is given. NEW_ROTA defaults to
# build/bin/rota of this tree, TRACE_DIR to ../shared/traces beside it (when
# present), WORKDIR to a new directory under /tmp (kept: the CSVs and each
# run's output are there).
#
# What runs (each with both binaries, one line each: same / DIFFERS / FAILED):
#   * every cleaned log (*-cln.swf.gz) and lublin_256.swf of TRACE_DIR, whole:
#     fcfs, easy, conservative, fpfs, classes, and the malleable presets
#     ideal-only, ideal-backfill, moldable, even-h-fq, even-h-fr, low-imp-fq,
#     low-imp-fr with --min-pct 30;
#   * the gang presets gs, bgs, mgs, mbgs on the FIRST $GANG_JOBS JOBS of each
#     of those traces (GANG_JOBS=20000 by default; GANG_JOBS=0 runs whole
#     traces, about ten times the CPU), and mgs/mbgs with migration costs,
#     context switches and a migration limit on a generated [Zhang00] workload;
#   * the K-resource presets ff-easy, bl-easy, bb-easy, ff-cons, bl-cons,
#     bb-cons on generated feitelson-k workloads (K = 4 and 8), on
#     LANL-CM5 with memory as a pool and on wagap-2013 (with its .machines);
#   * multi-cluster runs ([Ngubiri07]): fcfs, fpfs, easy, conservative on a
#     generated ngubiri workload with --clusters 5x20, fcfs and fpfs with
#     --clusters 20,20,16;
#   * classes on generated workloads; the malleable presets on a generated
#     [Weissman03] GE workload with the parabolic model and adaptation costs.
# Generated workloads are written by NEW_ROTA, and OLD_ROTA's own output of
# the same `rota generate` command is compared with it too (gen-* lines).
#
# Bound: with GANG_JOBS=20000 the whole comparison takes about 3 minutes of
# CPU for the two builds together (165 s user + system on a 2-core AMD EPYC,
# 2026-11-28); GANG_JOBS=0 adds a few minutes (the whole HPC2N log alone is
# about 10 s of CPU per gang preset and build). Old and new run side by side,
# two processes at a time.
#
# Exit status: 0 when every schedule is the same, 1 when one differs or a run
# failed, 2 on a usage error.
set -u
usage() {
    sed -n '7,8p' "$0" | sed 's/^#   //' >&2
    exit 2
}
root=$(cd "$(dirname "$0")/.." && pwd)
ref=""
keep=0
while [ $# -gt 0 ]; do
    case $1 in
    --ref) [ $# -ge 2 ] || usage; ref=$2; shift 2 ;;
    --ref=*) ref=${1#--ref=}; shift ;;
    --keep) keep=1; shift ;;
    -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    --) shift; break ;;
    -*) echo "compare_schedules: unknown option $1" >&2; usage ;;
    *) break ;;
    esac
done

refdir=""
# shellcheck disable=SC2317 # called by the trap
cleanup() {
    if [ -n "$refdir" ] && [ "$keep" = 0 ]; then
        git -C "$root" worktree remove --force "$refdir" >/dev/null 2>&1 || rm -rf "$refdir"
    fi
}
trap cleanup EXIT

# Builds the `rota` program of COMMIT in a new worktree; prints its path.
build_ref() {
    local commit=$1 dir
    dir=$(mktemp -d "/tmp/rota-ref-$(git -C "$root" rev-parse --short "$commit").XXXXXX") || return 1
    rmdir "$dir"
    git -C "$root" worktree add --detach "$dir" "$commit" >&2 || return 1
    refdir=$dir
    echo "building $commit in $dir (Release, rota only)" >&2
    cmake -S "$dir" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
        >"$dir/build.log" 2>&1 || { cat "$dir/build.log" >&2; return 1; }
    # The program's target is rota_cli (OUTPUT_NAME rota); `rota` where a tree names it so.
    if ! cmake --build "$dir/build" -j2 --target rota_cli >>"$dir/build.log" 2>&1 &&
        ! cmake --build "$dir/build" -j2 --target rota >>"$dir/build.log" 2>&1; then
        tail -30 "$dir/build.log" >&2
        return 1
    fi
}

if [ -n "$ref" ]; then
    git -C "$root" rev-parse --verify --quiet "$ref^{commit}" >/dev/null ||
        { echo "compare_schedules: not a commit: $ref" >&2; exit 2; }
    build_ref "$ref" || { echo "compare_schedules: building $ref failed" >&2; exit 1; }
    old=$refdir/build/bin/rota
    new=${1:-$root/build/bin/rota}
    [ $# -gt 0 ] && shift
else
    [ $# -ge 2 ] || usage
    old=$1
    new=$2
    shift 2
fi
traces=${1:-}
if [ -z "$traces" ] && [ -d "$root/../shared/traces" ]; then
    traces=$(cd "$root/../shared/traces" && pwd)
fi
work=${2:-$(mktemp -d /tmp/rota-compare.XXXXXX)}
gang_jobs=${GANG_JOBS:-20000}
for b in "$old" "$new"; do
    [ -x "$b" ] || { echo "compare_schedules: not an executable: $b" >&2; exit 2; }
done
mkdir -p "$work/old" "$work/new" "$work/in"
echo "old: $old"
echo "new: $new"
echo "traces: ${traces:-none}; work: $work; gang runs on the first ${gang_jobs} jobs (0: whole traces)"

status=0
# gen NAME ARGS...: a workload written by both builds' `rota generate`;
# the new one's file is what both simulate.
gen() {
    local name=$1
    shift
    "$old" generate "$@" -o "$work/in/$name.old.swf" >"$work/in/$name.old.out" 2>&1 &
    local pid=$!
    "$new" generate "$@" -o "$work/in/$name.swf" >"$work/in/$name.new.out" 2>&1
    local rn=$?
    wait $pid
    local ro=$?
    if [ $rn -ne 0 ]; then
        echo "FAILED  gen-$name (new): see $work/in/$name.new.out"
        status=1
        return 1
    fi
    if [ $ro -ne 0 ]; then
        echo "FAILED  gen-$name (old): see $work/in/$name.old.out"
        status=1
    elif cmp -s "$work/in/$name.old.swf" "$work/in/$name.swf"; then
        echo "same    gen-$name"
    else
        echo "DIFFERS gen-$name"
        status=1
    fi
    return 0
}

# run NAME POLICY ARGS...: one simulation with each build, the CSVs compared.
run() {
    local name=$1 policy=$2
    shift 2
    "$old" simulate --policy "$policy" --no-progress --jobs-csv "$work/old/$name.csv" "$@" \
        >"$work/old/$name.out" 2>&1 &
    local pid=$!
    "$new" simulate --policy "$policy" --no-progress --jobs-csv "$work/new/$name.csv" "$@" \
        >"$work/new/$name.out" 2>&1
    local rn=$?
    wait $pid
    local ro=$?
    if [ $ro -ne 0 ] || [ $rn -ne 0 ]; then
        [ $ro -ne 0 ] && echo "FAILED  $name (old, exit $ro): see $work/old/$name.out"
        [ $rn -ne 0 ] && echo "FAILED  $name (new, exit $rn): see $work/new/$name.out"
        status=1
    elif cmp -s "$work/old/$name.csv" "$work/new/$name.csv"; then
        echo "same    $name"
    else
        echo "DIFFERS $name"
        status=1
    fi
}

malleable=(ideal-only ideal-backfill moldable even-h-fq even-h-fr low-imp-fq low-imp-fr)
gang=(gs bgs mgs mbgs)
kres=(ff-easy bl-easy bb-easy ff-cons bl-cons bb-cons)

# The traces.
tracefiles=()
if [ -n "$traces" ]; then
    for t in "$traces"/*-cln.swf.gz "$traces"/lublin_256.swf; do
        [ -f "$t" ] && tracefiles+=("$t")
    done
fi
for t in "${tracefiles[@]}"; do
    base=$(basename "$t")
    n=${base%%.swf*}
    for p in fcfs easy conservative fpfs classes; do
        run "$n-$p" "$p" --trace "$t"
    done
    for p in "${malleable[@]}"; do
        run "$n-$p-min30" "$p" --trace "$t" --min-pct 30
    done
    # Gang presets on the first GANG_JOBS jobs (the header comments kept).
    g=$t
    if [ "$gang_jobs" -gt 0 ]; then
        g=$work/in/$n-first$gang_jobs.swf
        zcat -f "$t" | awk -v n="$gang_jobs" '/^[ \t]*;/ { print; next } { if (++c > n) exit; print }' >"$g"
    fi
    for p in "${gang[@]}"; do
        run "$n-$p" "$p" --trace "$g"
    done
done

# Memory as a pool on real traces.
if [ -n "$traces" ] && [ -f "$traces/LANL-CM5-1994-4.1-cln.swf.gz" ]; then
    for p in "${kres[@]}"; do
        run "LANL-CM5-mem-$p" "$p" --trace "$traces/LANL-CM5-1994-4.1-cln.swf.gz" \
            --memory used --memory-capacity 32G --positive-use
    done
fi
if [ -n "$traces" ] && [ -f "$traces/wagap-2013.swf" ]; then
    for p in "${kres[@]}"; do
        run "wagap-2013-mem-$p" "$p" --trace "$traces/wagap-2013.swf" \
            --memory requested --memory-units bytes-per-job
    done
fi

# Generated K-resource workloads ([Leinberger99]).
if gen k4 --model feitelson-k --k 4 --variance 0.1 --queue-length 64 --jobs 20000 --seed 1; then
    for p in "${kres[@]}"; do run "k4-$p" "$p" --trace "$work/in/k4.swf"; done
fi
if gen k8 --model feitelson-k --k 8 --variance 0.2 --load 0.9 --jobs 20000 --seed 2; then
    for p in "${kres[@]}"; do run "k8-$p" "$p" --trace "$work/in/k8.swf"; done
fi

# Multi-cluster ([Ngubiri07]).
if gen ngubiri --model ngubiri --jobs 20000 --seed 3; then
    for p in fcfs fpfs easy conservative; do
        run "ngubiri-5x20-$p" "$p" --trace "$work/in/ngubiri.swf" --clusters 5x20
    done
    for p in fcfs fpfs; do
        run "ngubiri-20.20.16-$p" "$p" --trace "$work/in/ngubiri.swf" --clusters 20,20,16
    done
fi

# Gang with its costs on [Zhang00]'s workload.
if gen zhang --model zhang --factor 1.4 --jobs 10000 --seed 4; then
    for p in "${gang[@]}"; do run "zhang-$p" "$p" --trace "$work/in/zhang.swf"; done
    for p in mgs mbgs; do
        run "zhang-$p-costs" "$p" --trace "$work/in/zhang.swf" --cs-overhead 0.01 \
            --migration-cost 10 --migration-q 64
    done
fi

# Job classes on generated workloads ([Feitelson97]).
run "gen-256-0.7-classes" classes --procs 256 --load 0.7 --jobs 20000 --seed 2
run "gen-1024-0.95-classes" classes --procs 1024 --load 0.95 --jobs 20000 --seed 3 \
    --interactive-procs 256

# Malleable jobs on [Weissman03]'s GE instances, with adaptation costs.
if gen ge --model weissman-apps --apps ge --beta 0.5 --jobs 1000 --seed 5; then
    for p in "${malleable[@]}"; do
        run "ge-$p" "$p" --trace "$work/in/ge.swf" --min-pct 30 --exec-model parabolic \
            --adapt-latency 1 --adapt-per-byte 0.00009
    done
fi
# The built-in workload under the one-row presets.
for p in fcfs easy conservative fpfs; do
    run "builtin-$p" "$p"
done

if [ $status -eq 0 ]; then
    echo "all schedules the same"
else
    echo "some schedules differ or runs failed (outputs in $work)"
fi
exit $status
