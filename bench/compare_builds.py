#!/usr/bin/env python3
"""Paired whole-process CPU time of `rota simulate` for two builds.

    bench/compare_builds.py OLD_ROTA NEW_ROTA [--trace T]... [--policy P]... [--runs N]
    bench/compare_builds.py --ref COMMIT [NEW_ROTA] [...]
    bench/compare_builds.py --ref COMMIT --new-ref COMMIT2 [...]

For each trace and policy, runs `rota simulate --trace T --policy P
--no-progress` (no output file; the summary table goes to /dev/null) with
the old and the new build alternately, RUNS times each, the order of the
two swapped at every round so that a drift of the machine falls on both
alike, after one unmeasured run of each. The figure of a run is the user +
system CPU time of its process, from wait4's rusage: other processes on a
shared machine do not count. It reports, per build, the median and the
minimum; the ratio new / old of the medians and of the minimums; and the
median of the per-round ratios.

--ref COMMIT builds the old program from COMMIT of this repository (and
--new-ref the new one) in a temporary `git worktree` under /tmp: Release,
the `rota` program only (target rota_cli), `cmake --build -j2`. The worktree
is removed at the end unless --keep is given (its binary reads the Lua
policies of its own tree). NEW_ROTA defaults to build/bin/rota of this tree;
the traces default to SDSC-SP2 and HPC2N in ../shared/traces.

Exit status: 0, or 1 when a run or a build fails.
"""
import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile


def cpu_of(cmd):
    """User + system CPU seconds of one process; exits on failure."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    p.stderr.close()
    if p.returncode != 0:
        sys.stderr.write(err.decode(errors="replace"))
        sys.exit(f"compare_builds: {shlex.join(cmd)} failed (exit {p.returncode})")
    return ru.ru_utime + ru.ru_stime


def git(root, *args):
    return subprocess.run(["git", "-C", root, *args], check=True,
                          capture_output=True, text=True).stdout.strip()


def build_ref(root, commit, worktrees):
    """Builds the `rota` program of COMMIT in a new worktree; its path."""
    full = git(root, "rev-parse", "--verify", commit + "^{commit}")
    short = full[:10]
    d = tempfile.mkdtemp(prefix=f"rota-ref-{short}.", dir="/tmp")
    os.rmdir(d)
    subprocess.run(["git", "-C", root, "worktree", "add", "--detach", d, full],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worktrees.append(d)
    print(f"building {commit} ({short}) in {d} (Release, rota only)", file=sys.stderr)
    log = os.path.join(d, "build.log")
    with open(log, "w") as f:
        steps = [["cmake", "-S", d, "-B", os.path.join(d, "build"),
                  "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_TESTING=OFF"]]
        if subprocess.run(steps[0], stdout=f, stderr=subprocess.STDOUT).returncode != 0:
            sys.exit(f"compare_builds: configuring {commit} failed, see {log}")
        for target in ("rota_cli", "rota"):
            r = subprocess.run(["cmake", "--build", os.path.join(d, "build"), "-j2",
                                "--target", target], stdout=f, stderr=subprocess.STDOUT)
            if r.returncode == 0:
                break
        else:
            sys.exit(f"compare_builds: building {commit} failed, see {log}")
    return os.path.join(d, "build", "bin", "rota"), short


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    traces_dir = os.path.normpath(os.path.join(root, "..", "shared", "traces"))
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[1:]))
    ap.add_argument("binaries", nargs="*", metavar="ROTA",
                    help="OLD_ROTA NEW_ROTA, or NEW_ROTA alone with --ref")
    ap.add_argument("--ref", help="build the old program from this commit")
    ap.add_argument("--new-ref", help="build the new program from this commit")
    ap.add_argument("--keep", action="store_true", help="keep the worktrees of --ref/--new-ref")
    ap.add_argument("--trace", action="append",
                    help="an SWF trace, repeatable (default: SDSC-SP2 and HPC2N)")
    ap.add_argument("--policy", action="append",
                    help="a policy, repeatable or comma-separated (default: easy)")
    ap.add_argument("--runs", type=int, default=11, help="measured runs of each build (default 11)")
    ap.add_argument("--arg", action="append", default=[], metavar="ARG",
                    help="one more argument for `rota simulate`, repeatable (--arg=--min-pct --arg=30)")
    a = ap.parse_args()

    worktrees = []
    try:
        bins = list(a.binaries)
        old_name = new_name = None
        if a.ref:
            old, old_name = build_ref(root, a.ref, worktrees)
            bins.insert(0, old)
        if a.new_ref:
            new, new_name = build_ref(root, a.new_ref, worktrees)
            bins.append(new)
        elif len(bins) == 1 and a.ref:
            bins.append(os.path.join(root, "build", "bin", "rota"))
        if len(bins) != 2:
            ap.error("give OLD_ROTA NEW_ROTA, or --ref COMMIT [NEW_ROTA]")
        for b in bins:
            if not os.access(b, os.X_OK):
                sys.exit(f"compare_builds: not an executable: {b}")
        old, new = bins
        traces = a.trace or [os.path.join(traces_dir, "SDSC-SP2-1998-4.2-cln.swf.gz"),
                             os.path.join(traces_dir, "HPC2N-2002-2.2-cln.swf.gz")]
        policies = [p for ps in (a.policy or ["easy"]) for p in ps.split(",") if p]

        print(f"old: {old}" + (f" ({a.ref} = {old_name})" if old_name else ""))
        print(f"new: {new}" + (f" ({a.new_ref} = {new_name})" if new_name else ""))
        print(f"{a.runs} measured runs of each build, alternated (order swapped every round), "
              "user + system CPU of the whole process (wait4)")
        for trace in traces:
            for policy in policies:
                args = ["simulate", "--trace", trace, "--policy", policy, "--no-progress", *a.arg]
                cmd_old, cmd_new = [old, *args], [new, *args]
                cpu_of(cmd_old)
                cpu_of(cmd_new)
                o, n = [], []
                for i in range(a.runs):
                    if i % 2 == 0:
                        o.append(cpu_of(cmd_old))
                        n.append(cpu_of(cmd_new))
                    else:
                        n.append(cpu_of(cmd_new))
                        o.append(cpu_of(cmd_old))
                mo, mn = statistics.median(o), statistics.median(n)
                pair = statistics.median(y / x for x, y in zip(o, n))
                print(f"{os.path.basename(trace)} --policy {policy}"
                      + (f" {shlex.join(a.arg)}" if a.arg else ""))
                print(f"  old: median {mo:.3f} s, min {min(o):.3f} s, max {max(o):.3f} s")
                print(f"  new: median {mn:.3f} s, min {min(n):.3f} s, max {max(n):.3f} s")
                print(f"  new / old: {mn / mo:.3f} (medians), {min(n) / min(o):.3f} (mins), "
                      f"{pair:.3f} (median of paired ratios)")
        rep = [os.path.relpath(__file__)]
        # Commits by their hash: a ref such as HEAD~1 moves.
        if a.ref:
            rep += ["--ref", old_name]
        else:
            rep.append(old)
        if a.new_ref:
            rep += ["--new-ref", new_name]
        else:
            rep.append(new)
        for t in traces:
            rep += ["--trace", t]
        rep += ["--policy", ",".join(policies), "--runs", str(a.runs)]
        rep += [f"--arg={x}" for x in a.arg]
        print("reproduce: " + shlex.join(rep))
    finally:
        for d in worktrees:
            if a.keep:
                print(f"kept worktree {d}", file=sys.stderr)
                continue
            r = subprocess.run(["git", "-C", root, "worktree", "remove", "--force", d],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if r.returncode != 0:
                shutil.rmtree(d, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
