#!/bin/sh
# The circuit breaker on a real trace: EASY on KTH with a backfill_select
# script that always loops (each call runs out of the default 10M
# instruction budget), with the breaker (default) and without
# (quarantine_after = 0, stopped after LIMIT seconds), beside a working
# script. Prints CPU seconds and the hook's calls.
# Usage: bench/quarantine.sh [rota binary] [trace] [limit seconds]
set -eu
rota=${1:-build/bin/rota}
trace=${2:-../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz}
limit=${3:-120}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo 'return { backfill_select = function(c) if c.n > 0 then while true do end end end }' >"$dir/loop.lua"
echo 'return { backfill_select = function(c) return c end }' >"$dir/good.lua"
for run in good breaker no-breaker; do
  script=$dir/loop.lua policy=""
  [ "$run" = good ] && script=$dir/good.lua
  [ "$run" = no-breaker ] && policy="quarantine_after = 0"
  printf '[simulator]\npolicy = "custom"\nprogress = false\n[scheduler]\nreservation_depth = 1\n[policy]\n%s\n[policy.backfill_select]\nscript = "%s"\n' \
    "$policy" "$script" >"$dir/$run.toml"
  if timeout "$limit" /usr/bin/time -f "%U %S" -o "$dir/time" "$rota" simulate "$dir/$run.toml" \
      --trace "$trace" --summary-json "$dir/$run.json" >/dev/null 2>&1; then
    cpu=$(awk '{print $1+$2}' "$dir/time")
    calls=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['custom']['hooks']['backfill_select']['calls'])" "$dir/$run.json")
    echo "$run: cpu ${cpu} s, backfill_select calls ${calls}"
  else
    echo "$run: not finished after ${limit} s"
  fi
done
echo "reproduce: sh bench/quarantine.sh $rota $trace $limit"
