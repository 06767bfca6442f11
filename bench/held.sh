#!/bin/sh
# The cost of held jobs: an admission policy that holds every job, on the
# first 3,000 and 10,000 jobs of a trace and on all of it. Held jobs are
# asked again at every pass (docs/lua-api.md, "admission"), so the run is
# quadratic in the jobs held by contract; the engine keeps their batch rows
# from one pass to the next (engine/pass.cpp, admit). Prints the CPU time
# (user + system) of each run; given a second binary (an earlier build), the
# two run alternately, paired, and the ratio is this build's over the other's.
#   sh bench/held.sh [ROTA_BIN [REF_BIN [TRACE]]]
set -eu
rota=${1:-build/bin/rota}
ref=${2:-}
trace=${3:-../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz}
[ -f "$trace" ] || { echo "held.sh: no trace $trace" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/hold_all.lua" <<'LUA'
local function admission(jobs, ctx, params)
  local d = {}
  for i = 1, jobs.n do d[i] = "hold" end
  return d
end
return { admission = admission }
LUA
procs=$(zcat -f "$trace" | sed -n 's/^; *MaxProcs: *\([0-9]*\).*/\1/p' | head -1)
printf '[machine]\nprocs = %s\n[scheduler]\npreset = "easy"\n[policy.admission]\nscript = "%s/hold_all.lua"\n' \
  "$procs" "$dir" > "$dir/held.toml"
zcat -f "$trace" | grep '^;' > "$dir/header"
cpu() {
  { /usr/bin/time -f '%U %S' "$1" simulate "$dir/held.toml" --policy custom \
      --trace "$dir/t.swf" --no-progress > /dev/null; } 2>&1 | tail -1 | awk '{print $1 + $2}'
}
echo "sh bench/held.sh $rota $ref $trace"
if [ -n "$ref" ]; then echo "jobs     this_cpu_s  ref_cpu_s  ratio"; else echo "jobs     cpu_s"; fi
for n in 3000 10000 all; do
  if [ "$n" = all ]; then zcat -f "$trace" > "$dir/t.swf"
  else { cat "$dir/header"; zcat -f "$trace" | grep -v '^;' | head -n "$n"; } > "$dir/t.swf"; fi
  if [ -z "$ref" ]; then printf '%-8s %7.2f\n' "$n" "$(cpu "$rota")"; continue; fi
  # Paired and alternated; the smaller sizes three times, the medians kept.
  pairs=3; [ "$n" = all ] && pairs=1
  a=; b=
  i=0
  while [ $i -lt $pairs ]; do
    b="$b $(cpu "$ref")"; a="$a $(cpu "$rota")"; i=$((i + 1))
  done
  ma=$(echo $a | tr ' ' '\n' | sort -g | sed -n "$(( (pairs + 1) / 2 ))p")
  mb=$(echo $b | tr ' ' '\n' | sort -g | sed -n "$(( (pairs + 1) / 2 ))p")
  printf '%-8s %10.2f %10.2f %6.2f\n' "$n" "$ma" "$mb" "$(echo "$ma / $mb" | bc -l)"
done
