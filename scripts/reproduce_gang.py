#!/usr/bin/env python3
"""Reproduce [Zhang00] (Zhang, Franke, Moreira, Sivasubramaniam) Table 1 and
Figures 9, 14 and 15 with rota's gang scheduler.

    python3 scripts/reproduce_gang.py [--rota build/bin/rota] [--jobs 2] [--workdir DIR]

The experiment is the sweep file scripts/sweeps/gang.toml, run with
`rota sweep` (five seeds of every point); this script only runs it and
turns its merged table (table.json) into docs/reproductions/gang.md and
copies the sweep's plots next to it (gang_fig9.png, gang_fig14.png,
gang_fig15.png). --workdir keeps the sweep folder; by default a temporary
folder is used. Every run is made afresh unless --reuse is given, which
resumes (or re-reads) the sweep already in --workdir. --quick runs the same
sweep with seeds 1-2 and 2,000 jobs per workload into a temporary
directory (see scripts/reproduce.sh).
"""

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import re
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from repro_common import (VERDICTS, add_repro_args, out_dir_of, provenance, reusable,  # noqa: E402
                          stats, tally, verdict, write_verdicts)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "docs", "reproductions")
SWEEP = os.path.join(ROOT, "scripts", "sweeps", "gang.toml")
FACTORS = [round(1.0 + 0.1 * k, 1) for k in range(9)]
SEEDS = [1, 2, 3, 4, 5]
JOBS = 10000  # per workload, as in scripts/sweeps/gang.toml
QUICK = {"seeds": [1, 2], "jobs": 2000}
LABEL = {"conservative": "BF", "gs": "GS", "bgs": "BGS", "mgs": "MGS", "mbgs": "MBGS"}
BSLD, WAIT, UTIL, KAPPA = ("all.mean_bounded_slowdown", "all.wait.mean", "utilization",
                           "capacity_loss")
K_F, K_MPL, K_OV, K_C, K_Q = ("simulator.workload.factor", "simulator.mpl",
                              "simulator.cs_overhead", "simulator.migration_cost",
                              "simulator.migration_q")

# Table 1 of [Zhang00], as printed: (rho, s) per workload, and the "% s
# better" columns (the paper's own, not recomputed from rounded cells).
PAPER = {
    "bgs": [(0.55, 2.5), (0.61, 3.2), (0.66, 3.8), (0.72, 6.5), (0.77, 8.0), (0.83, 11.9),
            (0.89, 22.4), (0.94, 34.9), (0.96, 67.9)],
    "mbgs": [(0.55, 2.1), (0.61, 2.5), (0.66, 2.9), (0.72, 3.7), (0.77, 5.1), (0.83, 7.6),
             (0.88, 11.0), (0.94, 20.9), (0.98, 56.8)],
    "gs": [(0.55, 3.9), (0.61, 7.0), (0.66, 18.8), (0.72, 44.8), (0.78, 125.6), (0.83, 405.6),
           (0.86, 1738.0), (0.86, 4147.7), (0.86, 5941.5)],
    "mgs": [(0.55, 2.6), (0.61, 4.0), (0.66, 6.9), (0.72, 13.5), (0.77, 29.4), (0.83, 54.4),
            (0.88, 134.2), (0.94, 399.3), (0.97, 1609.9)],
}
PAPER_BETTER = {"bgs": [19.2, 23.9, 24.8, 43.1, 36.6, 36.2, 50.8, 40.2, 16.4],
                "gs": [33.7, 42.5, 63.4, 69.9, 76.6, 86.6, 92.3, 90.4, 72.9]}
TABLE1 = {K_MPL: 5, K_OV: 0.0, K_C: 0.0, K_Q: -1}


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout.strip()


def commit_stamp():
    try:
        rev = sh(["git", "-C", ROOT, "rev-parse", "--short=9", "HEAD"])
        date = sh(["git", "-C", ROOT, "log", "-1", "--format=%cd", "--date=format:%Y-%m-%d"])
        dirty = sh(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "--",
                    ".", ":!docs/reproductions"])
    except (OSError, subprocess.CalledProcessError):
        return "an unknown commit (not a git checkout)"
    return "commit `%s` (%s)%s" % (rev, date, ", with uncommitted changes" if dirty else "")


class Table:
    def __init__(self, path):
        with open(path) as fh:
            self.t = json.load(fh)

    def match(self, r, policy, where):
        if r["policy"] != policy:
            return False
        return all(r["params"].get(k) == v for k, v in where.items())

    def row(self, policy, **where):
        where = {({"factor": K_F, "mpl": K_MPL, "ov": K_OV, "cost": K_C, "q": K_Q}[k]): v
                 for k, v in where.items()}
        for r in self.t["rows"]:
            if self.match(r, policy, where):
                return r
        return None

    def runs(self, policy, where):
        return {r["seed"]: r for r in self.t["runs"] if self.match(r, policy, where) and r["ok"]}

    def table1(self, policy, k):
        return self.row(policy, factor=FACTORS[k], **({} if policy == "conservative" else {
            "mpl": 5, "ov": 0.0, "cost": 0.0, "q": -1}))


def mean(r, m):
    return r["metrics"][m]["mean"] if r and r["metrics"][m]["mean"] is not None else float("nan")


def ci(r, m):
    c = r["metrics"][m]["ci"] if r else None
    return c if c is not None else float("nan")


def fmt_s(x):
    if math.isnan(x):
        return "—"
    return "{:,.0f}".format(x) if x >= 1000 else ("%.1f" % x if x >= 10 else "%.2f" % x)


def cell(r, m, rho=False):
    if r is None:
        return "—"
    if rho:
        return "%.3f ± %.3f" % (mean(r, m), ci(r, m))
    return "%s ± %s" % (fmt_s(mean(r, m)), fmt_s(ci(r, m)))


def workload_stats(rota, work):
    """Share of jobs under 60 s, median runtime and offered load of seeds 1-5."""
    out = {}
    for f in (1.0, 1.5, 1.8):
        shares, medians, loads = [], [], []
        for seed in SEEDS:
            path = os.path.join(work, "w_%s_%d.swf" % (f, seed))
            subprocess.run([rota, "generate", "--model", "zhang", "--factor", str(f), "--seed",
                            str(seed), "--jobs", str(JOBS), "-o", path], check=True)
            rt, work_sum, subs = [], 0.0, []
            with open(path) as fh:
                for line in fh:
                    if line.startswith(";") or not line.strip():
                        continue
                    v = line.split()
                    rt.append(int(v[3]))
                    work_sum += int(v[3]) * int(v[4])
                    subs.append(int(v[1]))
            shares.append(100.0 * sum(1 for x in rt if x < 60) / len(rt))
            medians.append(statistics.median(rt))
            loads.append(work_sum / (320.0 * (max(subs) - min(subs))))
            os.remove(path)
        out[f] = (stats(shares), stats(medians), stats(loads))
    return out


def better(tab, pol, base, k):
    """% slowdown improvement from migration, paired by seed, mean ± ci."""
    w = {K_F: FACTORS[k], **TABLE1}
    a, b = tab.runs(base, w), tab.runs(pol, w)
    vals = [100.0 * (a[s]["metrics"][BSLD] - b[s]["metrics"][BSLD]) / a[s]["metrics"][BSLD]
            for s in a if s in b]
    return stats(vals)


def page(tab, ws, rota_desc, wall, nruns):
    L = []
    w = L.append
    w("# Reproduction: gang scheduling, backfilling and migration "
      "([Zhang00] Table 1, Figures 9, 14 and 15)")
    w("")
    w("*This page is generated by `scripts/reproduce_gang.py` from the sweep "
      "`scripts/sweeps/gang.toml`; do not edit it by hand.*")
    w("")
    w("Paper: Y. Zhang, H. Franke, J. E. Moreira, A. Sivasubramaniam, *An Analysis of Space- "
      "and Time-Sharing Techniques for Parallel Job Scheduling* [Zhang00], §2.1–2.3, §5.3 (Figure 9), §5.4 (eq. (4)/(5), Figure 14) and §5.6 "
      "(Table 1, Figure 15).")
    w("")
    w("## How to run")
    w("")
    w("    scripts/reproduce.sh gang      # or: python3 scripts/reproduce_gang.py [--jobs N] "
      "[--rota PATH] [--workdir DIR] [--quick] [--reuse]")
    w("")
    w("runs `rota sweep scripts/sweeps/gang.toml` (see [sweeps](../sweeps.md)): %d simulations, "
      "every point of the experiment with seeds %s (%s jobs per workload), then writes this page "
      "and the three figures from the sweep's merged table. This run: %s, %d simulations in "
      "%.0f s of wall time on a 2-core machine shared with other work. Every ± on this page is "
      "the half-width of the 95 %% Student-t interval over the %d seeds." % (
          nruns, ", ".join(map(str, SEEDS)), "{:,}".format(JOBS), rota_desc, nruns, wall, len(SEEDS)))
    w("")
    w(provenance(SEEDS, "Quick mode (`--quick`): fewer seeds and shorter workloads than the full page."
                 if JOBS != 10000 else ""))
    w("")
    w("## Workload")
    w("")
    w("`rota generate --model zhang --factor F --seed S` ([the zhang model]"
      "(../workloads.md#the-zhang-model---model-zhang)): " + "{:,}".format(JOBS) + " jobs of 1 to 256 "
      "nodes for 320 nodes; workload k = 0…8 multiplies every execution time by F = 1.0 + 0.1 k [Zhang00 §2.2]. "
      "The paper fits its model to the LLNL log and publishes no parameters; where §2.1–2.2 say "
      "how the model is built, rota follows them, and where they leave a choice open it "
      "documents its own:")
    w("")
    w("| | §2.1–2.2 say | rota |")
    w("|---|---|---|")
    w("| size classes | bins with power-of-two upper boundaries | classes 1, 2, 3–4, …, 129–256 |")
    w("| arrivals | an interarrival distribution *for each class* | each class its own renewal "
      "process (hyper-exponential gaps, rate ∝ the class's share), superposed; the whole "
      "rescaled to ρ = 0.55 at workload 0 |")
    w("| execution times | a Hyper Erlang Distribution of Common Order per class, fitted to "
      "three moments | two branches per class; order open in the paper, rota takes order 1 "
      "(exponential branches), which puts the median at workload 5 at the 680 s §5.6 reports |")
    w("| class shares, branch means | fitted, not published | chosen for 30 % of the jobs "
      "above 32 nodes doing > 80 % of the work [§2.2] |")
    w("| workloads 1–8 | \"multiplying the average job execution time\" | every execution time "
      "× F, arrivals unchanged |")
    w("| estimates | Φ model, Φ = 0.2 | as written, the factor capped at 100 |")
    w("")
    w("Measured on the generated files (seeds 1–5):")
    w("")
    w("| workload | jobs under 60 s | median execution time | offered load |")
    w("|---|---|---|---|")
    for f, k in ((1.0, 0), (1.5, 5), (1.8, 8)):
        (sh_, shc, _), (md, mdc, _), (ld, ldc, _) = ws[f]
        w("| %d (F = %.1f) | %.1f ± %.1f %% | %.0f ± %.0f s%s | %.3f ± %.3f |" % (
            k, f, sh_, shc, md, mdc, " (paper: 680 s)" if k == 5 else "", ld, ldc))
    w("")
    w("Settings, as in the paper: 320 nodes, time slice 200 s, FCFS order, MPL 5 unless said "
      "otherwise, BGS estimates = estimate × MPL [§5.2]. Table 1: 0 % context-switch overhead, "
      "migration cost 0, Q unlimited. BF is `conservative`. Metrics: `utilization` (eq. 1), "
      "`capacity_loss` (eq. 3), `all.mean_bounded_slowdown` (max(t^r, 10 s) / max(t^e, 10 s)), "
      "`all.wait.mean`.")
    w("")
    w("**Migration is charged as node-time.** A migrated job's tasks make no progress for its "
      "checkpoint/restart time (C/2 for job A and C for the jobs moved out of its way under "
      "option 1, eq. (4); C for A and C/2 for the others under option 2, eq. (5)), paid out of "
      "its own execution whenever it next runs. Earlier versions only delayed the job by C "
      "from the moment of migration, which cost nothing when its row was not the active one.")
    w("")
    w("## Table 1: utilization ρ and mean bounded slowdown s, MPL 5")
    w("")
    w("rota's cells are the mean over seeds 1–5 ± the 95 % interval; \"paper\" is Table 1 as "
      "printed.")
    w("")
    w("| wl | policy | ρ rota | ρ paper | s rota | s paper |")
    w("|---|---|---|---|---|---|")
    for k in range(9):
        for pol in ("bgs", "mbgs", "gs", "mgs"):
            r = tab.table1(pol, k)
            w("| %d | %s | %s | %.2f | %s | %s |" % (k, LABEL[pol], cell(r, UTIL, True),
                                                     PAPER[pol][k][0], cell(r, BSLD),
                                                     fmt_s(PAPER[pol][k][1])))
    w("")
    w("Slowdown improvement from migration, (s without − s with) / s without, per seed then "
      "averaged (paper: its \"% s better\" columns as printed):")
    w("")
    w("| wl | BGS→MBGS rota | paper | GS→MGS rota | paper |")
    w("|---|---|---|---|---|")
    for k in range(9):
        b, g = better(tab, "mbgs", "bgs", k), better(tab, "mgs", "gs", k)
        w("| %d | %.1f ± %.1f %% | %.1f %% | %.1f ± %.1f %% | %.1f %% |" % (
            k, b[0], b[1], PAPER_BETTER["bgs"][k], g[0], g[1], PAPER_BETTER["gs"][k]))
    w("")
    w("BF (conservative backfilling) for reference: " + ", ".join(
        "wl %d %s / %s" % (k, "%.3f" % mean(tab.table1("conservative", k), UTIL),
                           fmt_s(mean(tab.table1("conservative", k), BSLD))) for k in range(9))
      + ".")
    w("")
    w("## Figure 9: slowdown against utilization at four context-switch overheads")
    w("")
    w("![Figure 9 reproduced](gang_fig9.png)")
    w("")
    w("BF and GS-2/3/5, BGS-2/3/5 as in the paper, MGS-5 and MBGS-5 added (cost 0, Q "
      "unlimited); one point per workload (mean utilization, mean slowdown), error bars the 95 % "
      "intervals of the slowdown, logarithmic slowdown axis (the paper's is linear and cut off).")
    w("")
    w("## Figure 14: slowdown and wait against Q")
    w("")
    w("![Figure 14 reproduced](gang_fig14.png)")
    w("")
    w("Workloads 2 and 5, MGS and MBGS at migration cost 0, 10 and 30 s; Q = 0 is no "
      "migration. Values (slowdown, mean ± 95 %):")
    w("")
    qs = [0, 16, 32, 64, 128, 256, -1]
    w("| wl | policy/cost | " + " | ".join("Q = %s" % ("∞" if q < 0 else q) for q in qs) + " |")
    w("|---|---|" + "---|" * len(qs))
    for k in (2, 5):
        for pol in ("mgs", "mbgs"):
            for c in (0.0, 10.0, 30.0):
                cells = [cell(tab.row(pol, factor=FACTORS[k], mpl=5, ov=0.0, cost=c, q=q), BSLD)
                         for q in qs]
                w("| %d | %s/%d | %s |" % (k, LABEL[pol], c, " | ".join(cells)))
    w("")
    w("## Figure 15: loss of capacity, slowdown and wait against utilization")
    w("")
    w("![Figure 15 reproduced](gang_fig15.png)")
    w("")
    w("GS and BGS, MGS and MBGS with migration cost 10 s (5 % of the slice) and Q = 64, MPL 5, "
      "0 % overhead, as in the paper.")
    w("")
    w("## The paper's claims, checked")
    w("")
    for line in claims(tab):
        w(line)
    w("")
    w("## Where the shapes still differ, and why")
    w("")
    for line in differences(tab, ws):
        w(line)
    w("")
    w("## Run time")
    w("")
    w("Engine seconds of one simulation (`simulation_seconds`, mean over seeds; runs went "
      "two at a time on a shared machine), MPL 5, 0 % overhead, cost 0, Q unlimited:")
    w("")
    w("| policy | " + " | ".join(str(k) for k in range(9)) + " |")
    w("|---|" + "---|" * 9)
    for pol in ("conservative", "gs", "bgs", "mgs", "mbgs"):
        w("| %s | %s |" % (LABEL[pol], " | ".join(
            "%.2f" % mean(tab.table1(pol, k), "simulation_seconds") for k in range(9))))
    return "\n".join(L) + "\n"


def s_of(tab, pol, k, **kw):
    base = {"mpl": 5, "ov": 0.0, "cost": 0.0, "q": -1}
    base.update(kw)
    return mean(tab.row(pol, factor=FACTORS[k], **base), BSLD)


def claims(tab):
    out = []
    n = 0

    def claim(text, ok, detail):
        nonlocal n
        n += 1
        out.append("%d. *%s* **%s**. %s" % (n, text, verdict(text, ok), detail))

    for pol, base in (("mgs", "gs"), ("mbgs", "bgs")):
        worse = [k for k in range(9) if s_of(tab, pol, k) > s_of(tab, base, k)]
        imp = [better(tab, pol, base, k)[0] for k in range(9)]
        p = PAPER_BETTER[base]
        claim("%s ≤ %s in slowdown at every load (Table 1)" % (LABEL[pol], LABEL[base]),
              "holds" if not worse else "does not hold",
              "Lower or equal at %d of 9 workloads; improvement %.0f–%.0f %% (paper %.1f–%.1f %%), "
              "largest at workload %d (paper: %d)." % (
                  9 - len(worse), min(imp), max(imp), min(p), max(p),
                  max(range(9), key=lambda k: imp[k]), max(range(9), key=lambda k: p[k])))
    gs = [mean(tab.table1("gs", k), UTIL) for k in range(9)]
    claim("GS stops gaining utilization near ρ = 0.86 (0.86 at workloads 6–8)",
          "holds" if gs[8] - gs[6] < 0.02 and abs(max(gs) - 0.86) < 0.03 else "does not hold",
          "rota's GS: %s at workloads 6, 7, 8; highest %.3f." % (
              ", ".join("%.3f" % x for x in gs[6:]), max(gs)))
    for pol in ("bgs", "mbgs"):
        u = [mean(tab.table1(pol, k), UTIL) for k in range(9)]
        claim("%s follows the offered load past ρ = 0.94 (paper: %s at workloads 6–8)" % (
            LABEL[pol], ", ".join("%.2f" % PAPER[pol][k][0] for k in (6, 7, 8))),
            "holds" if u[8] >= 0.94 else "holds in part" if all(
                u[i + 1] > u[i] for i in range(8)) else "does not hold",
            "rota: %s at workloads 6–8." % ", ".join("%.3f" % x for x in u[6:]))
    for ov in (0.0, 0.01):
        wins = sum(1 for k in range(9) if s_of(tab, "bgs", k, ov=ov) <
                   mean(tab.table1("conservative", k), BSLD))
        claim("BGS-5 beats BF at %d %% overhead over the whole range (§5.3)" % (ov * 100),
              "holds" if wins == 9 else "does not hold",
              "BGS-5's slowdown is lower at %d of 9 workloads." % wins)
    # Figure 14.
    for k in (2, 5):
        for pol in ("mgs", "mbgs"):
            mono = []
            for c in (0.0, 10.0, 30.0):
                s = [s_of(tab, pol, k, cost=c, q=q) for q in (0, 16, 32, 64, 128, 256)]
                mono.append(all(s[i + 1] <= s[i] * 1.02 for i in range(5)))
            s0 = s_of(tab, pol, k, cost=0.0, q=0)
            s64 = s_of(tab, pol, k, cost=0.0, q=64)
            sinf = s_of(tab, pol, k, cost=0.0, q=-1)
            s30 = s_of(tab, pol, k, cost=30.0, q=64)
            share = (s0 - s64) / (s0 - sinf) * 100 if s0 > sinf else float("nan")
            claim("Figure 14, %s at workload %d: slowdown falls monotonically with Q, most of "
                  "the benefit at Q = 64, still a benefit at cost 30 s" % (LABEL[pol], k),
                  "holds" if all(mono) and share >= 50 and s30 < s0 else
                  "holds in part" if s30 < s0 else "does not hold",
                  "Monotonic (within 2 %%) at cost 0/10/30: %s; Q = 64 gives %.0f %% of the "
                  "Q = 0 → ∞ gain at cost 0 (s %s → %s → %s); at cost 30 and Q = 64, s = %s." % (
                      "/".join("yes" if m else "no" for m in mono), share, fmt_s(s0),
                      fmt_s(s64), fmt_s(sinf), fmt_s(s30)))
    # Figure 15.
    best = sum(1 for k in range(9) if s_of(tab, "mbgs", k, cost=10.0, q=64) <= min(
        s_of(tab, p, k, cost=10.0, q=64) for p in ("gs", "bgs", "mgs")))
    worst = sum(1 for k in range(9) if s_of(tab, "gs", k, cost=10.0, q=64) >= max(
        s_of(tab, p, k, cost=10.0, q=64) for p in ("bgs", "mgs", "mbgs")))
    claim("Figure 15: MBGS always best, GS always worst in slowdown",
          "holds" if best == 9 and worst == 9 else "holds in part",
          "MBGS lowest at %d / 9, GS highest at %d / 9 workloads." % (best, worst))
    bm = sum(1 for k in range(9) if s_of(tab, "bgs", k, cost=10.0, q=64) <
             s_of(tab, "mgs", k, cost=10.0, q=64))
    claim("Figure 15: BGS better than MGS in slowdown", "holds" if bm == 9 else "holds in part",
          "at %d / 9 workloads; at workload 5 MGS/BGS = %.1f (paper: up to 5)." % (
              bm, s_of(tab, "mgs", 5, cost=10.0, q=64) / s_of(tab, "bgs", 5, cost=10.0, q=64)))
    return out


def differences(tab, ws):
    out = []
    ratios = {pol: [s_of(tab, pol, k) / PAPER[pol][k][1] for k in range(9)]
              for pol in ("gs", "mgs", "bgs", "mbgs")}
    gs5 = [r["metrics"][BSLD] for r in tab.runs("gs", {K_F: FACTORS[5], **TABLE1}).values()]
    out.append("* **Slowdown levels.** rota/paper slowdown ratio at workloads 0, 5, 8: " + "; ".join(
        "%s %.2f, %.2f, %.2f" % (LABEL[p], r[0], r[5], r[8]) for p, r in ratios.items()) +
        ". The seed-to-seed spread is large at high load (see the ± columns): GS's slowdown at "
        "workload 5 ranges over a factor of %.1f between the %d seeds of %s jobs, so single-seed "
        "comparisons with the paper's single trace are weak." % (
            max(gs5) / min(gs5) if gs5 and min(gs5) > 0 else float("nan"), len(gs5),
            "{:,}".format(JOBS)))
    worse_inf = ["%s at workload %d" % (LABEL[p], k) for k in (2, 5) for p in ("mgs", "mbgs")
                 if s_of(tab, p, k, cost=30.0, q=-1) > s_of(tab, p, k, cost=30.0, q=256)]
    g = [mean(tab.table1("gs", k), UTIL) for k in range(9)]
    out.append("* **Where the shapes are missed.** (1) At low load GS and MGS are too slow: "
               "%.1f and %.1f at workload 0 against %.1f and %.1f, with wide intervals; a few "
               "long jobs arriving together hold rows for hours when rows are few, and rota's "
               "workload has more of them early (its per-class arrival processes are bursty). "
               "(2) At high load GS and MGS are too fast (ratios above), so rota's GS curve "
               "is flatter than the paper's: the paper's GS reaches %s at workload 8, rota's "
               "%s. (3) GS levels off at ρ = %.3f, not %.2f, and BGS/MBGS/MGS stay %.2f–%.2f "
               "below the paper's utilization at workload 8. (4) BGS's advantage over MGS at "
               "workload 5 (Figure 15 setting) is a factor of %.1f against the paper's \"as "
               "high as 5\". (5) Figure 14's curves with a migration cost of 30 s: Q = ∞ is worse "
               "than Q = 256 for %s. "
               "All of these point at the workload rather than the schedulers: the same "
               "policies agree with the paper's orders, crossovers and migration gains." % (
                   s_of(tab, "gs", 0), s_of(tab, "mgs", 0), PAPER["gs"][0][1], PAPER["mgs"][0][1],
                   fmt_s(PAPER["gs"][8][1]), fmt_s(s_of(tab, "gs", 8)), max(g), PAPER["gs"][8][0],
                   min(PAPER[p][8][0] - mean(tab.table1(p, 8), UTIL) for p in ("bgs", "mbgs", "mgs")),
                   max(PAPER[p][8][0] - mean(tab.table1(p, 8), UTIL) for p in ("bgs", "mbgs", "mgs")),
                   s_of(tab, "mgs", 5, cost=10.0, q=64) / s_of(tab, "bgs", 5, cost=10.0, q=64),
                   ", ".join(worse_inf) if worse_inf else "none of MGS and MBGS at workloads 2 and 5"))
    out.append("* **The workload is a stand-in.** The paper's fitted per-class moments are not "
               "published; rota's class shares and branch means are chosen to match what §2.2 "
               "reports (sizes, 30 % large jobs doing > 80 % of the work, ρ = 0.55, the 680 s "
               "median at workload 5). Burstiness of arrivals and the correlation of size and "
               "runtime within the log are not known, and slowdowns at high load depend on "
               "them most; utilizations, which follow the offered load, agree far better than "
               "slowdowns.")
    out.append("* **Slowdown definition.** §2.3 prints max(t^s, Γ) (the start time) in the "
               "denominator; rota reads it as the usual max(t^e, Γ) with t^e the dedicated "
               "execution time.")
    out.append("* **Empty rows are skipped.** rota's rotation visits only non-empty rows of "
               "the matrix; the paper does not say how its simulator treats them. This mostly "
               "matters at low load.")
    out.append("* **Utilization at workload 8.** ρ (eq. 1) divides by the last finish, so every "
               "policy falls short of the offered load by the drain after the last arrival.")
    return out


def quick_sweep(work):
    """gang.toml with QUICK's seeds and jobs, written into `work`; sets SEEDS and JOBS."""
    global SEEDS, JOBS
    SEEDS, JOBS = QUICK["seeds"], QUICK["jobs"]
    with open(SWEEP) as fh:
        text = fh.read()
    text = re.sub(r"(?m)^seeds = \[.*\]$", "seeds = %s" % SEEDS, text, count=1)
    text = re.sub(r"(?m)^jobs = 10000$", "jobs = %d" % JOBS, text, count=1)
    path = os.path.join(work, "gang-quick.toml")
    with open(path, "w") as fh:
        fh.write(text)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rota", default=os.path.join(ROOT, "build", "bin", "rota"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--workdir", help="keep the sweep folder here; --reuse resumes the one in it")
    add_repro_args(ap, "seeds 1-2, 2,000 jobs per workload, to a temporary directory")
    a = ap.parse_args()
    if a.reuse and not a.workdir:
        sys.exit("--reuse needs --workdir")
    rota = os.path.abspath(a.rota)
    work = a.workdir or tempfile.mkdtemp(prefix="rota_gang_")
    os.makedirs(work, exist_ok=True)
    out_dir = out_dir_of(a, "gang")
    sweep = quick_sweep(work) if a.quick else SWEEP
    sweep_dir = os.path.join(work, "gang.sweep")
    reusable(sweep_dir, a.reuse)  # without --reuse the sweep starts from nothing
    t0 = time.time()
    p = subprocess.run([rota, "sweep", sweep, "-o", sweep_dir, "-j", str(a.jobs)],
                       stdout=subprocess.DEVNULL if a.quick else None)
    wall = time.time() - t0
    if p.returncode != 0:
        sys.exit("rota sweep failed (exit %d); the sweep folder is %s" % (p.returncode, sweep_dir))
    tab = Table(os.path.join(sweep_dir, "table.json"))
    ws = workload_stats(rota, work)
    shown = os.path.relpath(rota, ROOT) if rota.startswith(ROOT + os.sep) else rota
    desc = "`%s` built from %s" % (shown, commit_stamp())
    text = page(tab, ws, desc, wall, len(tab.t["runs"]))
    text += "\nVerdicts on this page: %s.\n" % tally(list(VERDICTS.values()))
    with open(os.path.join(out_dir, "gang.md"), "w") as fh:
        fh.write(text)
    write_verdicts(out_dir, "gang")
    for f in ("fig9", "fig14", "fig15"):
        shutil.copy(os.path.join(sweep_dir, "plots", f + ".png"),
                    os.path.join(out_dir, "gang_%s.png" % f))
    print("wrote %s/gang.md and gang_fig{9,14,15}.png" % out_dir)
    if not a.workdir:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
