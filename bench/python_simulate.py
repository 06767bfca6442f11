#!/usr/bin/env python3
"""rota.simulate against the rota tool it drives, on the same trace and
policy: CPU time (this process and its children) of

  tool    rota simulate --trace T --policy P --jobs-npy F --summary-json J
          (the same outputs simulate() reads back)
  python  rota.simulate(T, P): the tool as above, plus reading the records
          and nodes into a DataFrame and the JSON into a dict (pandas
          already imported)

Runs alternate, bare tool (no outputs), tool with --batsim-csv F
--summary-json J, tool, python, N rounds; prints each round's ratio and the
median ratio python / tool, and the medians over the tool with the CSV and
over the bare tool.

  /usr/bin/python3 bench/python_simulate.py [TRACE] [--policy easy] [--pairs N]
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import pandas  # noqa: E402,F401 - imported before timing, as in a notebook

import rota  # noqa: E402
from rota import _cli  # noqa: E402


def cpu():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def timed(fn):
    t = cpu()
    fn()
    return cpu() - t


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace", nargs="?", default=os.path.join(
        here, "..", "..", "shared", "traces", "HPC2N-2002-2.2-cln.swf.gz"))
    ap.add_argument("--policy", default="easy")
    ap.add_argument("--pairs", type=int, default=5)
    args = ap.parse_args()
    tool = _cli.tool()
    with tempfile.TemporaryDirectory() as tmp:
        base = [tool, "simulate", "--trace", args.trace, "--policy", args.policy, "--no-progress"]
        outs = ["--jobs-npy", f"{tmp}/j.npy", "--summary-json", f"{tmp}/s.json"]
        csv_outs = ["--batsim-csv", f"{tmp}/j.csv", "--summary-json", f"{tmp}/s.json"]

        def run_tool():
            subprocess.run(base + outs, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def run_csv():
            subprocess.run(base + csv_outs, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)

        def run_bare():
            subprocess.run(base, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def run_python():
            rota.simulate(args.trace, args.policy)

        run_python()  # warm up
        pairs = []
        for _ in range(args.pairs):
            pairs.append((timed(run_bare), timed(run_csv), timed(run_tool), timed(run_python)))
    for b, c, t, p in pairs:
        print(f"  bare tool {b:6.3f} s   tool, CSV {c:6.3f} s   tool, same outputs {t:6.3f} s"
              f"   rota.simulate {p:6.3f} s   ratio {p / t:5.3f}")
    ratio = statistics.median(p / t for _, _, t, p in pairs)
    csv = statistics.median(p / c for _, c, _, p in pairs)
    bare = statistics.median(p / b for b, _, _, p in pairs)
    print(f"{os.path.basename(args.trace)}, {args.policy}, {args.pairs} rounds: median CPU ratio "
          f"rota.simulate / tool with the same outputs = {ratio:.3f}; / tool with --batsim-csv "
          f"= {csv:.3f}; / bare tool = {bare:.3f}")
    print("command: /usr/bin/python3 bench/python_simulate.py " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
