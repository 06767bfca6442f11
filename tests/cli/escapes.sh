#!/usr/bin/env bash
# Bytes of paths and files reach no terminal raw and no JSON invalid
# (docs/reliability.md, "Inputs"):
#   escapes.sh ROTA SMALL_SWF
# 1. a trace path that is not UTF-8: the simulation's --summary-json and
#    --json are valid JSON naming it escaped (\xE9), exit status 0;
# 2. a trace path with an escape sequence and a newline: the workload line
#    and the error messages show \x1B and \x0A, never the bytes;
# 3. a sweep file whose name holds an ESC byte: refused, the byte escaped.
set -u
rota=$1 small=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "escapes.sh: $*"; exit 1; }
valid_json() { python3 -c 'import json, sys; json.load(open(sys.argv[1], "rb"))' "$1"; }

latin1="$t/$(printf 'caf\xe9.swf')"
cp "$small" "$latin1"
"$rota" simulate --trace "$latin1" --summary-json "$t/s.json" --no-progress >"$t/out" 2>&1 ||
  { cat "$t/out"; fail "a trace path that is not UTF-8 failed the run"; }
valid_json "$t/s.json" || fail "--summary-json is not valid JSON"
grep -q 'caf\\\\xE9.swf' "$t/s.json" || fail "--summary-json does not name the trace escaped"
grep -q '^workload: .*caf\\xE9.swf$' "$t/out" || fail "the workload line is not escaped"
"$rota" simulate --trace "$latin1" --json --no-progress >"$t/j.json" 2>"$t/err" ||
  fail "--json with a trace path that is not UTF-8 failed"
valid_json "$t/j.json" || fail "--json printed no valid JSON"

esc="$t/$(printf 'a\033[2Jb\nc.swf')"
cp "$small" "$esc"
"$rota" simulate --trace "$esc" --no-progress >"$t/out" 2>&1 || fail "a trace path with ESC failed"
grep -q '^workload: .*a\\x1B\[2Jb\\x0Ac.swf$' "$t/out" || { cat -v "$t/out"; fail "ESC not escaped"; }
"$rota" simulate --trace "$esc.missing" --no-progress >"$t/out" 2>&1 && fail "a missing trace ran"
grep -q 'a\\x1B\[2Jb\\x0Ac.swf.missing' "$t/out" || { cat -v "$t/out"; fail "message not escaped"; }
LC_ALL=C grep -q "$(printf '\033')" "$t/out" && fail "a raw ESC reached the output"

printf '[sweep]\nname = "x\\u001b]0;owned\\u0007"\npolicies = ["fcfs"]\n' >"$t/sweep.toml"
"$rota" sweep "$t/sweep.toml" -o "$t/sw" >"$t/out" 2>&1
rc=$?
[ $rc -eq 2 ] || { cat -v "$t/out"; fail "a sweep name with ESC: exit $rc, wanted 2"; }
grep -q "'sweep.name' must be printable UTF-8, without control bytes, not 'x\\\\x1B\]0;owned\\\\x07'" "$t/out" ||
  { cat -v "$t/out"; fail "the sweep name is not shown escaped"; }
LC_ALL=C grep -q "$(printf '\033')" "$t/out" && fail "a raw ESC reached the terminal"
echo "escapes.sh: ok"
