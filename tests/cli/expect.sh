#!/usr/bin/env bash
# Runs a command and checks its exit status and output.
#   expect.sh ok|fail|N REGEX COMMAND...
# Passes when the command succeeds (ok), fails (fail) or exits with status
# N (a number), and its combined stdout and stderr match the extended
# regular expression REGEX.
set -u
want=$1 regex=$2
shift 2
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$want" = ok ] && [ $rc -ne 0 ]; then echo "expect.sh: exit $rc, wanted success"; exit 1; fi
if [ "$want" = fail ] && [ $rc -eq 0 ]; then echo "expect.sh: succeeded, wanted failure"; exit 1; fi
case $want in
  *[!0-9]*) ;;
  *) if [ $rc -ne "$want" ]; then echo "expect.sh: exit $rc, wanted $want"; exit 1; fi ;;
esac
printf '%s\n' "$out" | grep -Eq -- "$regex" || { echo "expect.sh: output does not match /$regex/"; exit 1; }
