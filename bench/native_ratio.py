#!/usr/bin/env python3
"""Whole-process CPU time of `rota simulate` against the native yardstick.

    bench/native_ratio.py [--build build] [--runs 5] [TRACE]

Runs, alternately, `rota simulate --trace TRACE --policy easy --jobs-csv F`
(the shipped Lua first_fit policy, the jobs CSV written) and
`native_easy TRACE` (a minimal EASY simulator: parse and simulate, no
output), RUNS times each, and reports the user + system CPU time of each
process (from wait4's rusage, so other processes on a shared machine do not
count), the medians, the ratio of the medians, the peak resident memory per
job of rota, and whether both give the same mean wait (the same schedule).
TRACE defaults to the HPC2N trace in ../shared/traces.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile


def run(cmd):
    """CPU seconds, peak RSS in KiB and stdout of one process."""
    with tempfile.TemporaryFile() as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"native_ratio: {' '.join(cmd)} failed")
        out.seek(0)
        return ru.ru_utime + ru.ru_stime, ru.ru_maxrss, out.read().decode()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace", nargs="?",
                    default=os.path.join(root, "..", "shared", "traces",
                                         "HPC2N-2002-2.2-cln.swf.gz"))
    ap.add_argument("--build", default=os.path.join(root, "build"))
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    rota = os.path.join(a.build, "bin", "rota")
    native = os.path.join(a.build, "bin", "native_easy")
    with tempfile.TemporaryDirectory() as tmp:
        csv = os.path.join(tmp, "jobs.csv")
        rota_cmd = [rota, "simulate", "--trace", a.trace, "--policy", "easy",
                    "--jobs-csv", csv, "--no-progress"]
        native_cmd = [native, a.trace]
        r_cpu, n_cpu, r_rss = [], [], 0
        r_out = n_out = ""
        for _ in range(a.runs):
            c, rss, r_out = run(rota_cmd)
            r_cpu.append(c)
            r_rss = max(r_rss, rss)
            c, _, n_out = run(native_cmd)
            n_cpu.append(c)
        jobs = int(re.search(r"jobs (\d+)", n_out).group(1))
        n_wait = float(re.search(r"mean_wait ([0-9.]+)", n_out).group(1))
        r_wait = None
        with open(csv) as f:
            next(f)
            waits = [int(line.split(",")[7]) for line in f]
            started = [w for w in waits if w >= 0]
            r_wait = sum(started) / len(started)
    rm, nm = statistics.median(r_cpu), statistics.median(n_cpu)
    print(f"trace: {a.trace} ({jobs} jobs), {a.runs} alternated runs each, "
          "user + system CPU time of the whole process")
    print(f"  rota simulate --policy easy --jobs-csv: median {rm:.3f} s "
          f"(runs {min(r_cpu):.3f}-{max(r_cpu):.3f})")
    print(f"  native_easy (no output):               median {nm:.3f} s "
          f"(runs {min(n_cpu):.3f}-{max(n_cpu):.3f})")
    print(f"  ratio rota / native: {rm / nm:.2f}x (target at most 1.3x)")
    print(f"  rota peak memory: {r_rss} KiB = {r_rss * 1024 / jobs:.0f} bytes/job "
          "(whole process; target under 200)")
    same = abs(r_wait - n_wait) < 1e-6 * max(1.0, n_wait)
    print(f"  mean wait: rota {r_wait:.3f} s, native {n_wait:.3f} s "
          f"({'same schedule' if same else 'DIFFERENT'})")
    print(f"reproduce: bench/native_ratio.py --runs {a.runs} {a.trace}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
