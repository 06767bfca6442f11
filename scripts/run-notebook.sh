#!/usr/bin/env bash
# Executes docs/python-notebook.ipynb (jupyter nbconvert, Debian's) into
# OUTDIR as Markdown, as the python-notebook test does. It reads a real
# trace from ../shared/traces: without it the test skips (exit 77), except
# under CI=true, where it fails. To refresh the page in the repository:
#   scripts/run-notebook.sh docs
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/run-notebook.sh OUTDIR}
if [ ! -e ../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz ]; then
  echo "../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz is absent: the notebook is not run"
  [ "${CI:-}" = true ] && exit 1
  exit 77
fi
mkdir -p "$out"
# The notebook imports the package from this tree (python/).
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
export PYDEVD_DISABLE_FILE_VALIDATION=1  # quiets the kernel's debugger notice
/usr/bin/jupyter nbconvert --execute --to markdown --ExecutePreprocessor.timeout=300 \
  --ExecutePreprocessor.kernel_name=python3 --output-dir "$out" docs/python-notebook.ipynb
