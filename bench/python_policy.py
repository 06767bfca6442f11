#!/usr/bin/env python3
"""What a backfill_select policy written in Python costs, against the same
policy in Lua (backfill/first_fit.lua), on the same in-process run of a
trace under EASY (rota.replay: both runs make the same calls, so the
difference is the policy's).

Runs alternate, Lua then Python, N pairs; per run it reports the process
CPU time, and per call the engine's own timing of the hook
(rota_hook_stats_get: wall time inside the policy calls, the answer's
check included). Prints medians and the command line.

  /usr/bin/python3 bench/python_policy.py [TRACE] [--pairs N]
  (ROTA_LIBRARY=build/lib/librota.so by default through the build tree)
"""

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import numpy as np  # noqa: E402

import rota  # noqa: E402


def first_fit(c, ctx):
    return np.arange(len(c))


first_fit.streams = True


def one(jobs, policies):
    t = time.process_time()
    r = rota.simulate(jobs, {"preset": "easy", **policies})
    cpu = time.process_time() - t
    h = r.summary["hooks"]["backfill_select"]
    assert h["failures"] == 0
    return cpu, h["calls"], h["seconds"], r.jobs["starting_time"].to_numpy()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace", nargs="?", default=os.path.join(
        here, "..", "..", "shared", "traces", "KTH-SP2-1996-2.1-cln.swf.gz"))
    ap.add_argument("--pairs", type=int, default=5)
    args = ap.parse_args()
    jobs = rota.workload(args.trace)
    one(jobs, {})  # warm up: imports, caches
    rows = {"lua": [], "python": []}
    for _ in range(args.pairs):
        for name, pol in (("lua", {}), ("python", {"backfill_select": first_fit})):
            rows[name].append(one(jobs, pol))
    assert all((a[3] == b[3]).all() for a, b in zip(rows["lua"], rows["python"])), \
        "the two policies gave different schedules"
    calls = rows["lua"][0][1]
    print(f"trace {os.path.basename(args.trace)}: {len(jobs)} jobs, EASY, {calls} backfill_select "
          f"calls per run, {args.pairs} pairs of runs (Lua, Python) alternating, medians")
    med = {k: (statistics.median(r[0] for r in v), statistics.median(r[2] for r in v))
           for k, v in rows.items()}
    for k, (cpu, hook) in med.items():
        print(f"  {k:7s} run CPU {cpu:6.3f} s   in the hook {hook:6.3f} s "
              f"= {hook / calls * 1e6:6.2f} us per call")
    extra = med["python"][0] - med["lua"][0]
    print(f"  Python costs {extra:.3f} s more CPU per run: {extra / calls * 1e6:.1f} us per call; "
          f"per call in the hook, Python / Lua = {med['python'][1] / med['lua'][1]:.0f}x")
    print("command: /usr/bin/python3 bench/python_policy.py " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
