#!/usr/bin/env bash
# Regenerates the reproduction pages (docs/reproductions/) from the current
# build, every run made afresh.
#
#   scripts/reproduce.sh [--quick] [--reuse] [--update-verdicts] [--rota PATH]
#                        [--workdir DIR] [page...]
#
# Pages: gang kresource classes classes-sec3 malleable multicluster (default:
# all). Without --quick the pages and their figures are written over the
# committed ones in docs/reproductions/ (the full runs take from seconds to
# about an hour each on two cores).
#
# --quick   a small run of every page (fixed seeds, fewer and shorter
#           workloads), written to a temporary directory, never over the
#           committed pages; it then compares every claim's verdict with
#           docs/reproductions/quick-verdicts.json and fails, printing the
#           differences, if one changed. This is the CTest test "repro: ...".
# --update-verdicts  (with --quick) rewrite quick-verdicts.json for the
#           pages run instead of comparing.
# --reuse   let each script take the runs it finds in its work directory
#           (--workdir DIR/<page>) instead of re-running them. Without it
#           nothing earlier is reused.
# --workdir keep each page's workloads and raw results in DIR/<page>.
#
# The pages that replay real traces (kresource) need ../shared/traces (or
# ROTA_TRACES); when it is absent they are skipped with a message, unless
# the environment has CI=true, where that is an error.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

ALL_PAGES=(gang kresource classes classes-sec3 malleable multicluster)
quick=0 reuse=0 update=0 rota="$ROOT/build/bin/rota" workdir="" pages=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --reuse) reuse=1 ;;
    --update-verdicts) update=1 ;;
    --rota) rota=$(realpath "$2"); shift ;;
    --workdir) workdir=$(realpath -m "$2"); shift ;;
    -h|--help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "reproduce.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) pages+=("$1") ;;
  esac
  shift
done
[ ${#pages[@]} -gt 0 ] || pages=("${ALL_PAGES[@]}")
if [ "$update" = 1 ] && [ "$quick" = 0 ]; then
  echo "reproduce.sh: --update-verdicts records the quick mode's verdicts: add --quick" >&2; exit 2
fi
if [ "$reuse" = 1 ] && [ -z "$workdir" ]; then
  echo "reproduce.sh: --reuse needs --workdir DIR (the runs to reuse)" >&2; exit 2
fi
[ -x "$rota" ] || { echo "reproduce.sh: no rota at $rota: run ./scripts/build.sh or pass --rota" >&2; exit 2; }

# Debian's python3 has matplotlib and numpy; a pyenv or venv python3 may not.
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3
"$PY" -c 'import matplotlib, numpy' 2>/dev/null ||
  { echo "reproduce.sh: $PY lacks matplotlib or numpy (Debian: apt-get install python3-matplotlib python3-numpy)" >&2; exit 2; }

traces=${ROTA_TRACES:-$ROOT/../shared/traces}
needs_traces() { [ "$1" = kresource ]; }

script_of() {
  case "$1" in
    gang) echo reproduce_gang.py ;;
    kresource) echo reproduce_kresource.py ;;
    classes) echo reproduce_classes.py ;;
    classes-sec3) echo reproduce_classes_sec3.py ;;
    malleable) echo reproduce_malleable.py ;;
    multicluster) echo reproduce_multicluster.py ;;
    *) return 1 ;;
  esac
}

outroot=""
if [ "$quick" = 1 ]; then
  outroot=$(mktemp -d "${TMPDIR:-/tmp}/rota-repro-quick.XXXXXX")
  echo "quick mode: pages go to $outroot"
fi

flags=()
[ "$quick" = 1 ] && flags+=(--quick)
[ "$reuse" = 1 ] && flags+=(--reuse)
ran=() skipped=()
for page in "${pages[@]}"; do
  script=$(script_of "$page") || { echo "reproduce.sh: unknown page '$page' (pages: ${ALL_PAGES[*]})" >&2; exit 2; }
  if needs_traces "$page" && [ ! -d "$traces" ]; then
    if [ "${CI:-}" = true ]; then
      echo "reproduce.sh: $page needs the traces in $traces, which is absent (CI=true)" >&2; exit 1
    fi
    echo "reproduce.sh: skipping $page: it replays real traces and $traces is absent"
    skipped+=("$page")
    continue
  fi
  args=(--rota "$rota" "${flags[@]}")
  [ -n "$outroot" ] && args+=(--out "$outroot/$page")
  if [ -n "$workdir" ]; then mkdir -p "$workdir/$page"; args+=(--workdir "$workdir/$page"); fi
  echo "== $page: $PY scripts/$script ${args[*]}"
  start=$(date +%s)
  ROTA_REPRO_COMMAND="scripts/reproduce.sh${flags[*]:+ ${flags[*]}} $page" \
    "$PY" "scripts/$script" "${args[@]}"
  echo "== $page: done in $(( $(date +%s) - start )) s"
  ran+=("$page")
done

echo "CPU time of this command (user, system; the shell, then its children):"
times

if [ "$quick" = 1 ] && [ ${#ran[@]} -gt 0 ]; then
  cmp=(compare)
  [ "$update" = 1 ] && cmp=(update)
  "$PY" scripts/repro_verdicts.py "${cmp[@]}" "$outroot" "${ran[@]}"
fi
[ ${#skipped[@]} -eq 0 ] || echo "skipped (no traces): ${skipped[*]}"
