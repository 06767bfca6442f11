#!/usr/bin/env bash
# `rota top` in a real terminal: a detached tmux session of fixed size on a
# socket of its own runs it on a small simulation, holding its last frame;
# the pane must show that frame exactly as `rota top` prints it without a
# terminal (node map, job table, every job's state), and the live footer.
#   top_tmux.sh ROTA_BINARY
# Exits 77 (skipped) when tmux is missing, unless CI=true: there it fails.
set -u
rota=$1
if ! command -v tmux >/dev/null 2>&1; then
  if [ "${CI:-}" = true ]; then
    echo "top_tmux.sh: tmux is missing and CI=true: this test must run (scripts/install-deps.sh)"
    exit 1
  fi
  echo "top_tmux.sh: SKIPPED: tmux is not installed (scripts/install-deps.sh installs it)"
  exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rota-top-tmux.XXXXXX")
sock="rota-top-test-$$-${RANDOM}"
session=rota-top
started=0
socket_path=""
cleanup() {
  # Only the session this script started, on its own socket; the server
  # leaves with its last session, and its socket file goes too.
  if [ $started -eq 1 ]; then
    tmux -L "$sock" kill-session -t "$session" 2>/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      tmux -L "$sock" has-session 2>/dev/null || break
      sleep 0.1
    done
    if [ -n "$socket_path" ] && [ -S "$socket_path" ] && ! tmux -L "$sock" has-session 2>/dev/null; then
      rm -f "$socket_path"
    fi
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# 64 processors under [Feitelson97]'s classes, a heavy load: frame 2 shows
# running, waiting, swapping and swapped-out jobs.
args=(top --jobs 300 --procs 64 --load 2.5 --start 2000 --step 4000 --frames 2 --width 100)
"$rota" "${args[@]}" --delay 0 > "$work/plain.txt" || { echo "rota top failed"; exit 1; }
# The last frame printed without a terminal.
awk 'BEGIN { RS = ""; ORS = "\n\n" } { last2 = last1; last1 = $0 } END { print last2; print last1 }' \
  "$work/plain.txt" > "$work/last.txt"
if ! grep -q '^CLAS JOB' "$work/last.txt"; then
  echo "top_tmux.sh: no job table in the plain output:"; cat "$work/plain.txt"; exit 1
fi

cmd=$(printf '%q ' "$rota" "${args[@]}" --delay 0.2 --hold)
env -u TMUX tmux -L "$sock" -f /dev/null new-session -d -s "$session" -x 100 -y 45 "$cmd" ||
  { echo "top_tmux.sh: tmux new-session failed"; exit 1; }
started=1
socket_path=$(tmux -L "$sock" display-message -p -t "$session" '#{socket_path}' 2>/dev/null)
pane=""
for _ in $(seq 1 150); do
  sleep 0.2
  pane=$(tmux -L "$sock" capture-pane -p -t "$session" 2>/dev/null) || break
  case $pane in *"frame 2/2"*"any key quits"*) break ;; esac
done
printf '%s\n' "$pane" > "$work/pane.txt"
echo "--- the pane:"
cat "$work/pane.txt"

fail=0
check() {  # check DESCRIPTION COMMAND...: a failed COMMAND fails the test
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; fail=1; fi
}
check "the held last frame's footer" grep -q 'rota top  frame 2/2  step 4000 s  any key quits' "$work/pane.txt"
check "a node map row of 32 spaced nodes" grep -Eq '^ 0( [a-zA-Z#.]){32}$' "$work/pane.txt"
check "the second row of the node map" grep -Eq '^32( [a-zA-Z#.]){32}$' "$work/pane.txt"
check "the job table's header" grep -q '^CLAS JOB   USER #PE ST MM:SS$' "$work/pane.txt"
# Every line of the last frame, node map and job states included, is on
# the screen.
while IFS= read -r line; do
  [ -n "$line" ] || continue
  check "on screen: $line" grep -qxF -- "$line" "$work/pane.txt"
done < "$work/last.txt"
states=$(awk '/^CLAS JOB/ { t = 1; next } t && NF == 7 { print $6 }' "$work/pane.txt" | sort -u | tr -d '\n')
echo "states on screen: $states"
check "running jobs (R) on screen" grep -Eq "^(Int|Prod) [a-zA-Z#] +[0-9]+ +[0-9-]+ +[0-9]+ R " "$work/pane.txt"
check "no control characters left on screen" bash -c "! grep -q \$'\\e' '$work/pane.txt'"
exit $fail
