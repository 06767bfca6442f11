#!/usr/bin/env python3
"""Reproduce [Ngubiri07] (Ngubiri & van Vliet, "Group-wise Performance Evaluation
of Processor Co-allocation in Multi-cluster Systems") with rota: Table 1 and
Figures 1-4 on 5 clusters of 20 nodes, FCFS and FPFS(maxJumps) with Worst Fit
placement, D(0.85) sizes on [1, 38], mean execution time 10 and mean
inter-arrival time 0.64 (offered load 0.786).

One command, from the repository root:

    python3 scripts/reproduce_multicluster.py [--rota build/bin/rota]

For every seed 1..S it generates the random and the phased workload at
thres = 11 and the random workload at the other thres values
(`rota generate --model ngubiri`), runs `rota simulate` with FCFS and FPFS at
every maxJumps of Figure 2 on each, and gives each average response time as
a mean over the seeds with a 95 % t confidence interval; comparisons are
paired by seed (the workloads of one seed share their jobs). It also runs
the paper's own stopping rule (maximum relative error 0.05 at 95 % by batch
means) on one long workload for FPFS(10) and FCFS. It writes

    docs/reproductions/multicluster.md           the page (entirely generated)
    docs/reproductions/multicluster_fig1.png     Figure 1 (groups, FCFS and FPFS(10))
    docs/reproductions/multicluster_fig2.png     Figure 2 (ART vs maxJumps, S and W groups)
    docs/reproductions/multicluster_fig3.png     Figure 3 (random vs phased, S1 and S4)
    docs/reproductions/multicluster_fig4.png     Figure 4 (FPFS(10) vs thres)

Options: --rota PATH (default build/bin/rota), --seeds S (default 6), --jobs N
(jobs per workload, default 200000), --warmup W (jobs left out at the start
of every run, default 10000), --stop-jobs N (the cap of the stopping-rule
runs, default 1500000), --parallel P (simulations at once, default 2),
--workdir DIR (keep the workloads and raw outputs), --out DIR (default
docs/reproductions), --reuse (re-render from WORKDIR/results.json), --quick
(2 seeds of 20,000 jobs and a 100,000-job stopping run: a smoke run that
writes to a temporary directory unless --out is given).
"""

import argparse
import concurrent.futures
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from repro_common import (REUSED, VERDICTS, describe_binary, machine_info, out_dir_of,  # noqa: E402
                          provenance, pyplot, sig_neg, sig_pos, stats, tally, tree_dirty,
                          verdict, write_verdicts)

plt = pyplot()

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "docs", "reproductions")

# The experiment of [Ngubiri07] (§2.2, §4.1).
Q, N1, N2, K = 0.85, 1, 38, 4
CLUSTERS, NODES = 5, 20
MEAN_RUN, MEAN_GAP, UNIT = 10.0, 0.64, 1000
THRES = 11
MAXJUMPS = [0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 17, 20]
THRES_SWEEP = [5, 8, 11, 14, 17, 20]  # Figure 4: k - 1 <= thres <= 20 (a single component fits a cluster)
S_BOUNDS, W_BOUNDS = [1, 3, 7], [1, 3, 5]
FAMILIES = {"C": ["C1", "C2", "C3", "C4"], "S": ["S1", "S2", "S3", "S4"], "W": ["W1", "W2", "W3", "W4"]}
GROUPS = ["all"] + FAMILIES["C"] + FAMILIES["S"] + FAMILIES["W"]

# The paper's numbers (§4.1, §4.2, Table 1).
PAPER_TABLE1 = {"S1": (24.88, 5.08), "S2": (25.64, 11.49), "S3": (25.20, 24.13), "S4": (24.28, 59.30),
                "W1": (24.88, 5.08), "W2": (25.64, 11.49), "W3": (22.98, 23.45), "W4": (26.50, 59.98)}
PAPER_S_PROSE = {"S1": 24, "S2": 26, "S3": 26, "S4": 24}
PAPER_W_PROSE = {"W1": ("{1}", 24), "W2": ("{2}", 26), "W3": ("[3, 4]", 38), "W4": ("[5, 19]", 12)}

COLORS = {"S1": "#1b9e77", "S2": "#66a61e", "S3": "#e6ab02", "S4": "#d95f02",
          "W1": "#1b9e77", "W2": "#66a61e", "W3": "#e6ab02", "W4": "#d95f02",
          "C1": "#7570b3", "C2": "#a6761d", "C3": "#e7298a", "C4": "#666666", "all": "#000000"}

# ---------------------------------------------------------------- the model, exactly


def size_pmf():
    """Eq. 1: p_i = c q^i / Q, c = 3 for powers of two (1 = 2^0 included)."""
    w = {i: (3 if (i & (i - 1)) == 0 else 1) * Q ** i for i in range(N1, N2 + 1)}
    tot = sum(w.values())
    return {i: v / tot for i, v in w.items()}


def widest(s, n):
    return s - (n - 1) * (s // n)


def exact_groups(thres=THRES):
    """Exact job and load shares of the S and W groups, random partitioning."""
    p = size_pmf()
    mean = sum(i * v for i, v in p.items())
    S, W = {}, {}

    def grp(v, bounds):
        g = 0
        while g < len(bounds) and v > bounds[g]:
            g += 1
        return g

    for s, v in p.items():
        sg = "S%d" % (grp(s, S_BOUNDS) + 1)
        a = S.setdefault(sg, [0, 0])
        a[0] += v
        a[1] += v * s / mean
        parts = [1] if s <= thres else list(range(2, K + 1))
        for n in parts:
            wg = "W%d" % (grp(widest(s, n), W_BOUNDS) + 1)
            b = W.setdefault(wg, [0, 0])
            b[0] += v / len(parts)
            b[1] += v / len(parts) * s / mean
    large = sum(v for s, v in p.items() if s > thres)
    return {"S": S, "W": W, "mean": mean, "large": large,
            "load": mean * MEAN_RUN / (MEAN_GAP * CLUSTERS * NODES)}


# ---------------------------------------------------------------- running


class Runner:
    def __init__(self, rota, work, parallel, jobs, warmup):
        self.rota = rota
        self.work = work
        self.parallel = parallel
        self.jobs = jobs
        self.warmup = warmup
        self.errors = []

    def swf(self, part, thres, seed, jobs=None):
        return os.path.join(self.work, "ng_%s_t%d_s%d_n%d.swf" % (part, thres, seed, jobs or self.jobs))

    def generate(self, spec):
        part, thres, seed, jobs = spec
        path = self.swf(part, thres, seed, jobs)
        g = subprocess.run([self.rota, "generate", "--model", "ngubiri", "--q", str(Q), "--sizes",
                            "%d-%d" % (N1, N2), "--thres", str(thres), "--max-components", str(K),
                            "--partition", part, "--mean-runtime", str(MEAN_RUN),
                            "--mean-interarrival", str(MEAN_GAP), "--time-unit", str(UNIT),
                            "--clusters", "%dx%d" % (CLUSTERS, NODES), "--jobs", str(jobs),
                            "--seed", str(seed), "-o", path], capture_output=True, text=True)
        if g.returncode != 0:
            return spec, None, "generate: " + g.stderr.strip()[-500:]
        return spec, swf_stats(path), None

    def simulate(self, spec):
        """spec: (partition, thres, policy, maxJumps, seed); policy fcfs, fpfs, or derive:
        FPFS(maxJumps) grouped by the quartiles rota derives from the workload itself
        (the check of the bounds); the others are all given [Ngubiri07]'s bounds."""
        part, thres, policy, mj, seed = spec
        out = os.path.join(self.work, "sum_%s_t%d_%s%d_s%d.json" % (part, thres, policy, mj, seed))
        derive = policy == "derive"
        policy = "fpfs" if derive else policy
        cmd = [self.rota, "simulate", "--trace", self.swf(part, thres, seed), "--policy", policy,
               "--warmup", str(self.warmup), "--no-progress", "--summary-json", out]
        if policy == "fpfs":
            cmd += ["--max-jumps", str(mj)]
        if not derive:
            cmd += ["--size-groups", ",".join(map(str, S_BOUNDS)),
                    "--width-groups", ",".join(map(str, W_BOUNDS))]
        # Figure 1's FPFS(10): the jobs too, to split groups by co-allocation.
        csv_path = None
        if (part, thres, policy, mj) == ("random", THRES, "fpfs", 10) and not derive:
            csv_path = os.path.join(self.work, "jobs_s%d.csv" % seed)
            cmd += ["--jobs-csv", csv_path]
        t0 = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if r.returncode != 0:
            return spec, None, "simulate: " + r.stderr.strip()[-500:]
        with open(out) as fh:
            s = json.load(fh)[policy]
        res = metrics_of(s)
        res["wall"] = wall
        if csv_path:
            res["coalloc"] = coalloc_split(csv_path, self.warmup)
            os.remove(csv_path)
        return spec, res, None

    def stop_run(self, spec):
        """The paper's stopping rule on one long workload."""
        policy, mj, jobs, seed = spec
        out = os.path.join(self.work, "stop_%s%d.json" % (policy, mj))
        cmd = [self.rota, "simulate", "--trace", self.swf("random", THRES, seed, jobs), "--policy",
               policy, "--warmup", str(self.warmup), "--stop-rel-error", "0.05", "--no-progress",
               "--summary-json", out]
        if policy == "fpfs":
            cmd += ["--max-jumps", str(mj)]
        t0 = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if r.returncode != 0:
            return spec, None, "simulate: " + r.stderr.strip()[-500:]
        with open(out) as fh:
            s = json.load(fh)[policy]
        res = metrics_of(s)
        res["stopping"] = s["stopping"]
        res["batch_means"] = s["groups"]["batch_means"]
        res["wall"] = wall
        return spec, res, None

    def pool(self, fn, specs, what):
        out = {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.parallel) as ex:
            for spec, res, err in ex.map(fn, specs):
                if err:
                    self.errors.append("%s %s: %s" % (what, spec, err))
                    print("error: %s %s: %s" % (what, spec, err), file=sys.stderr)
                else:
                    out[spec] = res
        return out


def metrics_of(s):
    g = s["groups"]
    out = {"groups": {}, "bounds": g["bounds"], "batches": g["batch_means"],
           "util": s["utilization"], "queue": s.get("mean_queue_length"),
           "jobs": s["jobs"], "sim_s": s.get("simulation_seconds")}
    for name, v in g["groups"].items():
        out["groups"][name] = {"art": v["art_units"], "hw": v["half_width_units"],
                               "jobs": v["job_share"], "load": v["load_share"], "n": v["jobs"]}
    return out


def coalloc_split(path, warmup):
    """ART of the W groups and S4 split into jobs of one component and
    co-allocated ones, over the measured jobs (the CSV is in arrival order)."""
    acc = {}
    with open(path) as fh:
        head = fh.readline().strip().split(",")
        i_sub, i_fin = head.index("submit_time"), head.index("finish_time")
        i_procs, i_comp = head.index("procs"), head.index("components")
        for k, line in enumerate(fh):
            if k < warmup:
                continue
            f = line.rstrip("\n").split(",")
            fin = int(f[i_fin])
            if fin < 0:
                continue
            widths = [int(x) for x in f[i_comp].split("+")]
            kind = "multi" if len(widths) > 1 else "single"
            w, size = max(widths), int(f[i_procs])
            g = 0
            while g < 3 and w > W_BOUNDS[g]:
                g += 1
            resp = (fin - int(f[i_sub])) / UNIT
            for grp in ["W%d" % (g + 1)] + (["S4"] if size > S_BOUNDS[2] else []):
                a = acc.setdefault(grp, {}).setdefault(kind, [0.0, 0])
                a[0] += resp
                a[1] += 1
    return acc


def swf_stats(path):
    """Mean size, offered load, share of split jobs and components, from the file."""
    n = size = work = 0
    first = last = None
    split = 0
    counts = {}
    with open(path) as fh:
        for line in fh:
            if line.startswith(";"):
                continue
            f = line.split()
            sub, run, procs = int(f[1]), int(f[3]), int(f[4])
            c = f[18].count("+") + 1 if f[18] != "-1" else 1
            n += 1
            size += procs
            work += procs * run
            first = sub if first is None else first
            last = sub
            split += c > 1
            counts[c] = counts.get(c, 0) + 1
    span = max(last - first, 1)
    return {"jobs": n, "mean_size": size / n, "load": work / (CLUSTERS * NODES * span),
            "split": split / n, "counts": {str(k): v for k, v in counts.items()}}


# ---------------------------------------------------------------- analysis


class Data:
    def __init__(self, raw):
        self.raw = raw
        self.seeds = raw["seeds"]
        self.sim = {tuple(json.loads(k)): v for k, v in raw["sim"].items()}
        self.gen = {tuple(json.loads(k)): v for k, v in raw["gen"].items()}
        self.stop = {tuple(json.loads(k)): v for k, v in raw["stop"].items()}

    def values(self, part, thres, policy, mj, group, key="art"):
        out = []
        for s in self.seeds:
            r = self.sim.get((part, thres, policy, mj, s))
            out.append(r["groups"][group][key] if r and r["groups"].get(group) else None)
        return out

    def cell(self, part, thres, policy, mj, group, key="art"):
        return stats(self.values(part, thres, policy, mj, group, key))

    def fp(self, mj, group, part="random", thres=THRES):
        """FPFS(mj); FPFS(0) runs as fpfs with max_jumps 0."""
        return self.cell(part, thres, "fpfs", mj, group)

    def paired(self, a, b):
        """Mean and interval of a - b over the seeds both have."""
        return stats([x - y for x, y in zip(a, b) if x is not None and y is not None])

    def ratio(self, a, b):
        return stats([x / y for x, y in zip(a, b) if x is not None and y])


def f1(s, d=1):
    m, h, _ = s
    if math.isnan(m):
        return "—"
    return ("%.*f" % (d, m)) + ("" if math.isnan(h) else " ± %.*f" % (d, h))


def fsign(s, d=1):
    m, h, _ = s
    if math.isnan(m):
        return "—"
    return ("%+.*f" % (d, m)) + ("" if math.isnan(h) else " ± %.*f" % (d, h))


# ---------------------------------------------------------------- figures


def err(s):
    return 0 if math.isnan(s[1]) else s[1]


def plot_fig1(data, path):
    fig, axes = plt.subplots(2, 1, figsize=(10, 7.5))
    names = GROUPS
    for ax, (policy, mj, title) in zip(axes, [("fcfs", 0, "FCFS (= FPFS(0))"), ("fpfs", 10, "FPFS(10)")]):
        cells = [data.cell("random", THRES, policy, mj, g) for g in names]
        xs = list(range(len(names)))
        ax.bar(xs, [c[0] for c in cells], yerr=[err(c) for c in cells], capsize=3,
               color=[COLORS[g] for g in names], error_kw=dict(lw=0.9))
        ax.axhline(MEAN_RUN, color="#999999", lw=0.8, ls="--")
        ax.set_ylim(0, 1.15 * max(c[0] + err(c) for c in cells))
        ax.set_xticks(xs)
        ax.set_xticklabels(names)
        ax.set_ylabel("average response time\n(model time units)")
        ax.set_title("Fig. 1 equivalent: %s" % title, fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)
    fig.suptitle("rota, 5 clusters x 20 nodes, random partitioning, thres = 11: mean over %d seeds "
                 "of %s jobs,\n95 %% t intervals; dashed: the mean execution time; each panel has "
                 "its own scale" % (
                     len(data.seeds), "{:,}".format(data.raw["jobs"])), fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_fig2(data, path):
    fig, axes = plt.subplots(2, 1, figsize=(9, 8), sharex=True)
    for ax, fam, title in zip(axes, ["S", "W"], ["size groups", "widest-component groups"]):
        for g in FAMILIES[fam] + ["all"]:
            cells = [data.fp(mj, g) for mj in MAXJUMPS]
            ax.errorbar(MAXJUMPS, [c[0] for c in cells], yerr=[err(c) for c in cells], capsize=2,
                        marker="o", ms=3, lw=1.2, color=COLORS[g], label=g,
                        ls="--" if g == "all" else "-")
        ax.axhline(MEAN_RUN, color="#999999", lw=0.8, ls=":")
        ax.set_ylim(0, None)
        ax.set_ylabel("average response time\n(model time units)")
        ax.set_title("Fig. 2 equivalent: %s" % title, fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    axes[1].set_xlabel("maxJumps")
    fig.suptitle("rota, FPFS(maxJumps), random partitioning, thres = 11: mean over %d seeds, "
                 "95 %% t intervals" % len(data.seeds), fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_fig3(data, path):
    fig, ax = plt.subplots(1, 1, figsize=(9, 5))
    for g in ["S1", "S4"]:
        for part, ls in [("random", "-"), ("phased", "--")]:
            cells = [data.fp(mj, g, part) for mj in MAXJUMPS]
            ax.errorbar(MAXJUMPS, [c[0] for c in cells], yerr=[err(c) for c in cells], capsize=2,
                        marker="o", ms=3, lw=1.2, color=COLORS[g], ls=ls, label="%s, %s" % (g, part))
    ax.axhline(MEAN_RUN, color="#999999", lw=0.8, ls=":")
    ax.set_ylim(0, None)
    ax.set_xlabel("maxJumps")
    ax.set_ylabel("average response time (model time units)")
    ax.set_title("Fig. 3 equivalent: random vs phased partitioning, thres = 11 (mean over %d seeds, "
                 "95 %% t intervals)" % len(data.seeds), fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_fig4(data, path):
    fig, ax = plt.subplots(1, 1, figsize=(9, 5))
    for g in FAMILIES["S"] + ["all"]:
        cells = [data.fp(10, g, "random", t) for t in THRES_SWEEP]
        ax.errorbar(THRES_SWEEP, [c[0] for c in cells], yerr=[err(c) for c in cells], capsize=2,
                    marker="o", ms=3, lw=1.2, color=COLORS[g], label=g, ls="--" if g == "all" else "-")
    ax.set_ylim(0, None)
    ax.set_xlabel("thres (the largest job that is not broken up)")
    ax.set_ylabel("average response time (model time units)")
    ax.set_title("Fig. 4 equivalent: FPFS(10), random partitioning (mean over %d seeds, 95 %% t "
                 "intervals)" % len(data.seeds), fontsize=10)
    ax.set_xticks(THRES_SWEEP)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


# ---------------------------------------------------------------- claims


def claims(data):
    """[(section, the paper's claim, rota's numbers, verdict, why)]"""
    rows = []
    seeds = len(data.seeds)
    V = data.values
    # §5.1 (i): FPFS(10) better than FCFS for every group.
    diffs = {g: data.paired(V("random", THRES, "fcfs", 0, g), V("random", THRES, "fpfs", 10, g))
             for g in GROUPS}
    ok = [g for g in GROUPS if sig_pos(diffs[g])]
    smallest = min(GROUPS, key=lambda g: diffs[g][0])
    rows.append(("§5.1 (i)", "FPFS(10) performs better than FCFS for all job groups",
                 "FCFS − FPFS(10) is positive with 95 %% confidence for %d of %d groups (all, C1–C4, "
                 "S1–S4, W1–W4); the smallest gain is %s's, %s units" % (
                     len(ok), len(GROUPS), smallest, fsign(diffs[smallest])),
                 "reached" if len(ok) == len(GROUPS) else "missed",
                 "" if len(ok) == len(GROUPS) else "the gain is not significant for %s" % ", ".join(
                     g for g in GROUPS if g not in ok)))
    # §5.1 (ii), (iii): negligible differences for FCFS, big ones for FPFS(10).
    sw = FAMILIES["S"] + FAMILIES["W"]

    def spread(policy, mj):
        per_seed = []
        for i, s in enumerate(data.seeds):
            vals = [V("random", THRES, policy, mj, g)[i] for g in sw]
            if None in vals:
                continue
            per_seed.append(max(vals) / min(vals))
        return stats(per_seed)

    sp_fcfs, sp_fp = spread("fcfs", 0), spread("fpfs", 10)
    rows.append(("§5.1 (ii), (iii)", "a negligible difference between the groups under FCFS; big "
                 "differences under FPFS(10)",
                 "worst / best S and W group ART: %s under FCFS, %s under FPFS(10)" % (
                     f1(sp_fcfs, 3), f1(sp_fp, 2)),
                 "reached" if sp_fcfs[0] < 1.10 and sp_fp[0] > 1.5 else "missed",
                 "criterion: under 1.10 for FCFS and above 1.5 for FPFS(10)"))
    # §5.1: under FCFS small jobs do slightly better.
    d_fcfs = data.paired(V("random", THRES, "fcfs", 0, "S4"), V("random", THRES, "fcfs", 0, "S1"))
    rows.append(("§5.1", "under FCFS the slightly better performance of small jobs (less likely to "
                 "wait long at the head of the queue)",
                 "FCFS: S4 − S1 = %s units (S1 %s)" % (fsign(d_fcfs, 2), f1(data.cell("random", THRES,
                                                                                   "fcfs", 0, "S1"))),
                 "reached" if sig_pos(d_fcfs) else "missed", ""))
    # §5.1: C2, the widest components, performs poorly.
    c2 = {g: data.paired(V("random", THRES, "fpfs", 10, "C2"), V("random", THRES, "fpfs", 10, g))
          for g in ("C3", "C4")}
    rows.append(("§5.1", "the poor performance of C2 (two components: the widest) among the "
                 "component groups",
                 "FPFS(10): C2 %s, C3 %s, C4 %s units; C2 − C3 %s, C2 − C4 %s" % (
                     f1(data.fp(10, "C2")), f1(data.fp(10, "C3")), f1(data.fp(10, "C4")),
                     fsign(c2["C3"], 2), fsign(c2["C4"], 2)),
                 "reached" if all(sig_pos(d) for d in c2.values()) else
                 ("partly" if all(d[0] > 0 for d in c2.values()) else "missed"),
                 "criterion: C2 above C3 and C4 with 95 % confidence; partly: above in the mean"))
    # §5.1 (iv), §5.3: big jobs perform poorly; S4 and W4 worst.
    worst = []
    for mj in MAXJUMPS[1:]:
        for fam in "SW":
            means = {g: data.fp(mj, g)[0] for g in FAMILIES[fam]}
            worst.append(max(means, key=means.get) == fam + "4")
    s4w4 = (data.fp(10, "S4"), data.fp(10, "W4"))
    rows.append(("§5.1 (iv), §5.3", "big jobs perform poorly: S4 and W4 register the worst "
                 "performance",
                 "S4 has the largest mean ART of the S groups and W4 of the W groups at %d of %d "
                 "maxJumps values ≥ 1; at FPFS(10) S4 %s, W4 %s against S1 %s (units)" % (
                     sum(worst), len(worst), f1(s4w4[0]), f1(s4w4[1]), f1(data.fp(10, "S1"))),
                 "reached" if all(worst) else "missed", ""))
    # §5.2: big gains at low maxJumps, little past 10.
    frac = {}
    for g in sw + ["all"]:
        a0, a10, a20 = (V("random", THRES, "fpfs", m, g) for m in (0, 10, 20))
        frac[g] = stats([(x - y) / (x - z) for x, y, z in zip(a0, a10, a20)
                         if None not in (x, y, z) and x != z])
    lo = min(frac, key=lambda g: frac[g][0])
    rows.append(("§5.2", "the rate of improvement is high at low maxJumps; at maxJumps ≥ 10 the "
                 "improvement is minimal",
                 "share of the 0 → 20 gain already made at maxJumps = 10: all %s %%, lowest %s %s %%; "
                 "ART(all) %s at 0, %s at 5, %s at 10, %s at 20" % (
                     f1(scale(frac["all"], 100), 0), lo, f1(scale(frac[lo], 100), 0),
                     f1(data.fp(0, "all")), f1(data.fp(5, "all")), f1(data.fp(10, "all")),
                     f1(data.fp(20, "all"))),
                 "reached" if all(frac[g][0] >= 0.8 for g in frac) else "missed",
                 "criterion: at least 80 % of the gain by maxJumps 10 in every group"))
    # §5.2: small jobs approach the execution time.
    s1 = data.fp(20, "S1")
    rows.append(("§5.2", "at very high maxJumps small jobs are processed as soon as they arrive: "
                 "the minimum mean response time is 10",
                 "S1 at FPFS(20): %s units" % f1(s1, 2),
                 "reached" if s1[0] < 1.1 * MEAN_RUN else "missed",
                 "criterion: within 10 % of the mean execution time"))
    # Abstract, §5.1: the widest component affects schedulability most.
    rs = data.ratio(V("random", THRES, "fpfs", 10, "S4"), V("random", THRES, "fpfs", 10, "S1"))
    rw = data.ratio(V("random", THRES, "fpfs", 10, "W4"), V("random", THRES, "fpfs", 10, "W1"))
    rc = data.ratio(V("random", THRES, "fpfs", 10, "C2"), V("random", THRES, "fpfs", 10, "C1"))
    dw = data.paired([x / y for x, y in zip(V("random", THRES, "fpfs", 10, "W4"),
                                              V("random", THRES, "fpfs", 10, "W1"))],
                     [x / y for x, y in zip(V("random", THRES, "fpfs", 10, "S4"),
                                              V("random", THRES, "fpfs", 10, "S1"))])
    rows.append(("abstract, §5.1", "the width of the widest component is the characteristic that "
                 "most affects schedulability (more than size or components)",
                 "ART ratio of the extreme groups at FPFS(10): W4/W1 %s, S4/S1 %s, C2/C1 %s; "
                 "W4/W1 − S4/S1 = %s" % (f1(rw, 2), f1(rs, 2), f1(rc, 2), fsign(dw, 2)),
                 "reached" if sig_pos(dw) else "missed",
                 "see *Why rota's numbers differ*: co-allocated jobs wait long whatever their widest "
                 "component, and W4 mixes them with single-component jobs of 6–11 nodes"
                 if not sig_pos(dw) else ""))
    # §6: phased better than random for S1 and S4, also for FCFS.
    better = {}
    for g in ["S1", "S4"]:
        better[g] = [data.paired(V("random", THRES, "fpfs", mj, g), V("phased", THRES, "fpfs", mj, g))
                     for mj in MAXJUMPS]
    sig = {g: sum(1 for d in better[g] if sig_pos(d)) for g in better}
    against = {g: sum(1 for d in better[g] if sig_neg(d)) for g in better}
    rows.append(("§6", "phased partitioning improves performance for S1 and S4 jobs, also for FCFS",
                 "random − phased, significantly positive at %d of %d maxJumps values for S1 and "
                 "%d of %d for S4 (significantly negative: %d and %d); at FPFS(10): S1 %s, S4 %s; "
                 "at FCFS: S1 %s, S4 %s units" % (
                     sig["S1"], len(MAXJUMPS), sig["S4"], len(MAXJUMPS), against["S1"], against["S4"],
                     fsign(better["S1"][MAXJUMPS.index(10)], 2), fsign(better["S4"][MAXJUMPS.index(10)], 2),
                     fsign(better["S1"][0], 2), fsign(better["S4"][0], 2)),
                 verdict_count(sig, against, len(MAXJUMPS)), "criterion: significant at ≥ 75 % of the "
                 "maxJumps values for both groups and never the other way; partly: significant at some, "
                 "never the other way"))
    # §6: fairer.
    gaps = [data.paired([x - y for x, y in zip(V("random", THRES, "fpfs", mj, "S4"),
                                                   V("random", THRES, "fpfs", mj, "S1"))],
                        [x - y for x, y in zip(V("phased", THRES, "fpfs", mj, "S4"),
                                                   V("phased", THRES, "fpfs", mj, "S1"))])
            for mj in MAXJUMPS]
    g_sig = sum(1 for d in gaps if sig_pos(d))
    g_neg = sum(1 for d in gaps if sig_neg(d))
    rows.append(("§6", "the difference between S4 and S1 is smaller with phased partitioning "
                 "(improvement comes with fairness)",
                 "(S4 − S1) random − (S4 − S1) phased: significantly positive at %d of %d maxJumps "
                 "values, negative at %d; at FPFS(10) %s units" % (
                     g_sig, len(MAXJUMPS), g_neg, fsign(gaps[MAXJUMPS.index(10)], 2)),
                 "reached" if g_sig >= 0.75 * len(MAXJUMPS) and g_neg == 0 else
                 ("partly" if g_sig > 0 and g_neg == 0 else "missed"), ""))
    # §7: larger thres worse, most for large jobs.
    mono = []
    for g in FAMILIES["S"] + ["all"]:
        means = [data.fp(10, g, "random", t)[0] for t in THRES_SWEEP]
        mono.append(sum(1 for a, b in zip(means, means[1:]) if b > a))
    lo_t, hi_t = THRES_SWEEP[0], THRES_SWEEP[-1]
    d_all = data.paired(V("random", hi_t, "fpfs", 10, "all"), V("random", lo_t, "fpfs", 10, "all"))
    d1 = [x - y for x, y in zip(V("random", hi_t, "fpfs", 10, "S1"), V("random", lo_t, "fpfs", 10, "S1"))]
    d4 = [x - y for x, y in zip(V("random", hi_t, "fpfs", 10, "S4"), V("random", lo_t, "fpfs", 10, "S4"))]
    d41 = data.paired(d4, d1)
    rows.append(("§7", "increasing thres leads to poorer performance, more for large jobs than "
                 "for small ones",
                 "ART(all) at thres %d − at thres %d: %s units; the same for S4 %s and S1 %s, "
                 "S4's rise − S1's: %s; mean ART rises at %d of %d steps of thres (all)" % (
                     hi_t, lo_t, fsign(d_all), fsign(stats(d4)), fsign(stats(d1)), fsign(d41),
                     mono[-1], len(THRES_SWEEP) - 1),
                 "reached" if sig_pos(d_all) and sig_pos(d41) else
                 ("partly" if sig_pos(d_all) else "missed"), ""))
    return rows


def scale(s, k):
    return (s[0] * k, s[1] * k, s[2])


def verdict_count(sig, against, n):
    if all(sig[g] >= 0.75 * n for g in sig) and all(against[g] == 0 for g in against):
        return "reached"
    if any(sig[g] > 0 for g in sig) and all(against[g] == 0 for g in against):
        return "partly"
    return "missed"


# ---------------------------------------------------------------- the page


def render(data, meta, args_line):
    lines = []
    out = lines.append
    ex = exact_groups()
    b = meta["binary"]
    mach = meta["machine"]
    seeds = data.seeds
    jobs = data.raw["jobs"]
    warm = data.raw["warmup"]
    out("# Reproduction: processor co-allocation on multi-cluster systems ([Ngubiri07] Table 1, Figures 1–4)")
    out("")
    out("*This page is generated by `scripts/reproduce_multicluster.py`; do not edit it by hand. "
        "Re-running the script refreshes every number, table and plot on it.*")
    out("")
    out("Paper: J. Ngubiri, M. van Vliet, *Group-wise Performance Evaluation of Processor Co-allocation "
        "in Multi-cluster Systems* [Ngubiri07]: §2 (the model), §3 (FPFS "
        "and Worst Fit), §4 (the experiment and the groups), §5–§7 (Figures 1–4, Table 1 and the claims "
        "checked below).")
    out("")
    out("## How to run")
    out("")
    out("From the repository root, with a rota binary that knows `generate --model ngubiri`:")
    out("")
    out("    python3 scripts/reproduce_multicluster.py [--rota PATH]")
    out("")
    out("It generates the workloads into a temporary directory (deleted at the end; `--workdir DIR` keeps "
        "them and the raw `rota simulate` outputs), runs every configuration on each, two simulations at a "
        "time (`--parallel P`), and writes this page and its four figures in `docs/reproductions/`. "
        "`--seeds S` (default 6), `--jobs N` (jobs per workload, default 200,000), `--warmup W` (default "
        "10,000) and `--stop-jobs N` (the stopping-rule runs' cap, default 1,500,000) set the sizes; "
        "`--quick` is a smoke run (CI) that writes to a temporary directory; `--reuse` re-renders from "
        "`WORKDIR/results.json`. `scripts/reproduce.sh multicluster` runs it as the other pages.")
    out("")
    out(provenance(data.seeds, "Quick mode (`--quick`): fewer seeds and shorter workloads than the "
                   "full page." if meta.get("quick") else ""))
    out("")
    out("This run: `%s`, with `%s` (built %s, tree at commit `%s`%s), on %s (%d cores, %s; 1-minute load "
        "average %.1f at the start). %d workloads generated and %d simulations (%d of them stopping-rule "
        "runs) in **%.0f s** of wall time, plots and page included." % (
            args_line, b["path"], b["built"], b["commit"], " plus uncommitted work" if b["dirty"] else "",
            mach["cpu"], mach["cores"], mach["system"], mach["load"], len(data.gen),
            len(data.sim) + len(data.stop), len(data.stop), meta["elapsed"]))
    if data.raw.get("errors"):
        out("")
        out("**Errors** (%d): %s" % (len(data.raw["errors"]), "; ".join(data.raw["errors"][:5])))
    out("")
    out("## The experiment")
    out("")
    out("**Machine** [Ngubiri07 §2.1, §4.1]: 5 clusters of 20 nodes, one queue, space sharing, no inter-cluster "
        "communication cost: `rota simulate --clusters 5x20` (the workloads' own `; Clusters:` header "
        "says the same). **Placement** [§3]: Worst Fit, the engine's default (`placement/worst_fit.lua`): "
        "the widest component to the cluster with the most room, the next widest to the next (rota ranks "
        "clusters by their least free nodes over the job's window; FCFS and FPFS reserve nothing, so that "
        "is their free nodes now, §3's freest cluster; design.md, *Co-allocation*). **Scheduler** [§3]: FPFS(maxJumps), the engine "
        "preset `fpfs` with `--max-jumps`; FCFS is the preset `fcfs`. FPFS(0) is FCFS: the two give the "
        "same response times on every seed here (%s)." % fpfs0_check(data))
    out("")
    out("**Workloads** [§2.2, §4.1]: `rota generate --model ngubiri --q 0.85 --sizes 1-38 --thres T "
        "--max-components 4 --partition random|phased --mean-runtime 10 --mean-interarrival 0.64 "
        "--jobs %s --seed S` ([the ngubiri model](../workloads.md#the-ngubiri-model---model-ngubiri)). Sizes "
        "follow D(0.85) of eq. 1 on [1, 38] with 1 counted as a power of two (2⁰): that gives the paper's "
        "mean size 5.03, while leaving 1 out would give 5.81. Jobs above thres are split into 2–4 "
        "components, ⌊s/n⌋ wide and the rest on the last. Times are exponential, in model units of "
        "1,000 s in the SWF file (a mean execution time of 10 units is 10,000 s; integer seconds are then "
        "a resolution of 0.001 units). Runtimes are unknown to the scheduler [§2.2]: every job's "
        "estimate is the same walltime of 100 mean execution times, which FCFS and FPFS never read. "
        "Each seed S = %s is one workload per partitioning and thres; the workloads of one seed share "
        "their arrivals, sizes and runtimes (only the components differ), so every comparison below is "
        "paired by seed." % ("{:,}".format(jobs), ", ".join(map(str, seeds))))
    out("")
    g0 = [data.gen[k] for k in data.gen if k[0] == "random" and k[1] == THRES and k[3] == jobs]
    ms = stats([g["mean_size"] for g in g0])
    ld = stats([g["load"] for g in g0])
    sp = stats([100 * g["split"] for g in g0])
    out("| quantity | paper [§4.1, §4.2] | eq. 1 exactly | rota's workloads (mean ± 95 %% over %d seeds) |"
        % len(g0))
    out("|---|---|---|---|")
    out("| mean job size | 5.03 | %.4f | %s |" % (ex["mean"], f1(ms, 4)))
    out("| offered load | 0.786 | %.4f | %s |" % (ex["load"], f1(ld, 4)))
    out("| jobs split into components (thres = 11) | 10 %% (C1 = 89.6 %%) | %.2f %% | %s %% |" % (
        100 * ex["large"], f1(sp, 2)))
    out("")
    out("**Measurement** [§4.2]: the average response time (ART) of the whole stream and of the groups "
        "C1–C4 (components), S1–S4 (size quartiles) and W1–W4 (quartiles of the widest component), in "
        "model time units, from `--summary-json` (`groups`). Each run simulates %s jobs and leaves the "
        "first %s arrivals out (`--warmup`); each point is the mean over the %d seeds with a 95 %% t "
        "interval (%d degrees of freedom). The paper instead ran each point until its maximum relative "
        "error was 0.05 at 95 %% (batch means); rota has that rule too (`--stop-rel-error 0.05`), and "
        "[below](#the-papers-stopping-rule) it is run on one workload of %s jobs: %s. Running every "
        "point of the figures to the rule would take far longer than this page's budget of a few "
        "minutes, so the figures use independent replications, whose intervals are stated." % (
            "{:,}".format(jobs), "{:,}".format(warm), len(seeds), len(seeds) - 1,
            "{:,}".format(data.raw["stop_jobs"]), stop_summary(data)))
    out("")
    out("**Quartiles.** The groups are quartiles of discrete distributions, so rota picks the three "
        "boundaries that make the four groups' shares of the jobs closest to 25 %% each (least sum of "
        "squared deviations, `quartile_bounds`). From the workloads themselves (random, thres 11) this "
        "gives S: {1}, [2, 3], [4, 7], [8, 38] — the paper's §4.2 — and W: {1}, [2, 3], [4, 5], [6, 19] "
        "for %s. §4.2's prose gives W differently ({1}, {2}, [3, 4], [5, 19] with 24/26/38/12 %%), but "
        "those ranges hold %s %% of the jobs here, and Table 1 (W2 = S2's 25.64 %%, W3 + W4 = S3 + S4) "
        "only fits W2 = [2, 3]: rota follows Table 1. The runs below are all given these bounds "
        "(`--size-groups 1,3,7 --width-groups 1,3,5`), so that every seed, partitioning and thres "
        "groups jobs alike; W groups are only reported for random, thres 11." % (
            bounds_check(data), prose_w_shares()))
    out("")
    # Table 1
    out("## Table 1: numerical and load share of the groups")
    out("")
    out("Random partitioning, thres = 11. Paper: Table 1. rota: the measured jobs of the FPFS(10) runs "
        "(mean ± 95 %% over %d seeds; load = size × execution time). Exact: eq. 1 and the random "
        "partitioning, computed by this script." % len(seeds))
    out("")
    out("| group | range | jobs %: paper | rota | exact | load %: paper | rota | exact |")
    out("|---|---|---|---|---|---|---|---|")
    for g in FAMILIES["S"] + FAMILIES["W"]:
        fam = g[0]
        rng = rng_of(g)
        pj, pl = PAPER_TABLE1[g]
        rj = scale(data.cell("random", THRES, "fpfs", 10, g, "jobs"), 100)
        rl = scale(data.cell("random", THRES, "fpfs", 10, g, "load"), 100)
        ej, el = ex[fam][g]
        out("| %s | %s | %.2f | %s | %.2f | %.2f | %s | %.2f |" % (g, rng, pj, f1(rj, 2), 100 * ej, pl,
                                                                     f1(rl, 2), 100 * el))
    out("")
    dev = max(abs(PAPER_TABLE1[g][0] - 100 * ex[g[0]][g][0]) for g in PAPER_TABLE1)
    devl = max(abs(PAPER_TABLE1[g][1] - 100 * ex[g[0]][g][1]) for g in PAPER_TABLE1)
    cover = 0
    worst = 0.0
    for g in PAPER_TABLE1:
        for i, key in enumerate(("jobs", "load")):
            m, h, _ = scale(data.cell("random", THRES, "fpfs", 10, g, key), 100)
            e = 100 * ex[g[0]][g][i]
            cover += not math.isnan(h) and abs(m - e) <= h
            worst = max(worst, abs(m - PAPER_TABLE1[g][i]))
    limit = max(dev, devl)
    out("rota's shares cover eq. 1's within their 95 %% intervals for %d of 16 values (about 15 of 16 "
        "are expected at 95 %%). The paper's shares differ from eq. 1, its own model, by up to %.2f "
        "points in jobs and %.2f in load, more than a sample of %s jobs would (the 95 %% interval of a "
        "25 %% share is ± %.2f points there), so Table 1 comes from a smaller sample than rota's runs, "
        "or from a slightly different generator; the paper does not say which. rota's means are within "
        "%.2f points of Table 1 everywhere: **Table 1: %s** (criterion: every share of rota as close to "
        "Table 1 as eq. 1 itself is, %.2f points; the prose's W ranges are discussed above)." % (
            cover, dev, devl, "{:,}".format(jobs - warm), 196 * math.sqrt(0.25 * 0.75 / (jobs - warm)),
            worst, verdict("Table 1: the shares of jobs and load", "reached" if worst <= limit else "missed"),
            limit))
    out("")
    # Figure 1
    out("## Figure 1: the groups under FCFS and FPFS(10)")
    out("")
    out("![Figure 1 equivalent](multicluster_fig1.png)")
    out("")
    out("| group | FCFS | FPFS(10) | FCFS − FPFS(10) |")
    out("|---|---|---|---|")
    for g in GROUPS:
        a = data.cell("random", THRES, "fcfs", 0, g)
        c = data.cell("random", THRES, "fpfs", 10, g)
        d = data.paired(data.values("random", THRES, "fcfs", 0, g), data.values("random", THRES, "fpfs", 10, g))
        out("| %s | %s | %s | %s |" % (g, f1(a), f1(c), fsign(d)))
    out("")
    out("ART in model time units (mean execution time 10). The paper's Figure 1 gives no numbers in its "
        "text; its claims are checked [below](#the-papers-claims-checked).")
    out("")
    # Figure 2
    out("## Figure 2: ART against maxJumps for the S and W groups")
    out("")
    out("![Figure 2 equivalent](multicluster_fig2.png)")
    out("")
    out("| maxJumps | all | S1 | S2 | S3 | S4 | W1 | W2 | W3 | W4 |")
    out("|---|---|---|---|---|---|---|---|---|---|")
    for mj in MAXJUMPS:
        out("| %d | %s |" % (mj, " | ".join(f1(data.fp(mj, g)) for g in ["all"] + FAMILIES["S"] + FAMILIES["W"])))
    out("")
    # Figure 3
    out("## Figure 3: random against phased partitioning")
    out("")
    out("![Figure 3 equivalent](multicluster_fig3.png)")
    out("")
    pb = phased_note()
    out("Phased bounds (computed from eq. 1 by the generator so that each component count gets as near "
        "a third of the large jobs as the sizes allow): %s [§2.2 names k − 1 bounds, b_(k−1) being the "
        "largest size]." % pb)
    out("")
    out("| maxJumps | S1 random | S1 phased | S4 random | S4 phased | all random | all phased |")
    out("|---|---|---|---|---|---|---|")
    for mj in MAXJUMPS:
        out("| %d | %s | %s | %s | %s | %s | %s |" % (
            mj, f1(data.fp(mj, "S1")), f1(data.fp(mj, "S1", "phased")), f1(data.fp(mj, "S4")),
            f1(data.fp(mj, "S4", "phased")), f1(data.fp(mj, "all")), f1(data.fp(mj, "all", "phased"))))
    out("")
    # Figure 4
    out("## Figure 4: FPFS(10) against thres")
    out("")
    out("![Figure 4 equivalent](multicluster_fig4.png)")
    out("")
    out("thres runs from %d (k − 1: every large job can have 4 components of at least a node) to %d (a "
        "job of 21 nodes or more must be split to fit a 20-node cluster); the paper does not give its "
        "values." % (THRES_SWEEP[0], THRES_SWEEP[-1]))
    out("")
    out("| thres | split jobs | all | S1 | S2 | S3 | S4 |")
    out("|---|---|---|---|---|---|---|")
    for t in THRES_SWEEP:
        gs = [data.gen[k] for k in data.gen if k[0] == "random" and k[1] == t and k[3] == jobs]
        spl = stats([100 * g["split"] for g in gs])
        out("| %d | %s %% | %s |" % (t, f1(spl, 1), " | ".join(f1(data.fp(10, g, "random", t))
                                                            for g in ["all"] + FAMILIES["S"])))
    out("")
    # Stopping rule
    out("## The paper's stopping rule")
    out("")
    out("\"Readings are taken at a maximum relative error of 0.05 at 95%% confidence interval\" [§4.2]. "
        "rota's rule (`--stop-rel-error 0.05`, [workloads.md](../workloads.md#confidence-and-the-stopping-rule)): "
        "after the warm-up, jobs in arrival order form batches (500 jobs at first, doubled whenever 40 "
        "are complete, so that there are always 20–40); after each batch the ART of the whole stream and "
        "of every group gets a 95 %% t interval from the batch means (a ratio estimator for the groups), "
        "and the run stops when the largest half-width / ART is at most 0.05, or the workload (the cap) "
        "runs out. One workload of %s jobs (random, thres 11, seed %d):" % (
            "{:,}".format(data.raw["stop_jobs"]), seeds[0]))
    out("")
    out("| policy | rule | jobs measured | batches | max relative error | lag-1 correlation of the batch means "
        "| ART all | S1 | S4 | W4 | wall time |")
    out("|---|---|---|---|---|---|---|---|---|---|---|")
    for key in sorted(data.stop, key=lambda k: (k[0], k[1])):
        r = data.stop[key]
        st = r["stopping"]
        bm = r["batch_means"]
        name = "FCFS" if key[0] == "fcfs" else "FPFS(%d)" % key[1]

        def gi(g):
            v = r["groups"][g]
            return "%.2f ± %.2f" % (v["art"], v["hw"]) if v["hw"] is not None else "%.2f" % v["art"]
        out("| %s | %s | %s | %d × %s | %s | %s | %s | %s | %s | %s | %.1f s |" % (
            name, "**held**" if st["reached"] else "not reached (cap)",
            "{:,}".format(st["measured_jobs"] if st["measured_jobs"] and st["measured_jobs"] > 0
                          else r["jobs"]["total"]),
            bm["batches"], "{:,}".format(bm["batch_size"]),
            "%.4f" % st["max_rel_error"] if st["max_rel_error"] is not None else "—",
            "%+.2f" % bm["lag1_autocorrelation"] if bm["lag1_autocorrelation"] is not None else "—",
            gi("all"), gi("S1"), gi("S4"), gi("W4"), r["wall"]))
    out("")
    out("Half-widths are the batch-means 95 %% intervals of that one run. Over the replications above, "
        "FPFS(10)'s ART is %s and FCFS's %s units." % (f1(data.fp(10, "all")),
                                                       f1(data.cell("random", THRES, "fcfs", 0, "all"))))
    out("")
    # Claims
    out("## The paper's claims checked")
    out("")
    out("Verdicts: **reached** when the 95 % intervals (over seeds, paired by seed) support the claim "
        "as stated, with the criterion given where the paper's words need one; **partly** when they "
        "support part of it; **missed** otherwise.")
    out("")
    out("| where | the paper | rota | verdict | why / criterion |")
    out("|---|---|---|---|---|")
    for ref, claim, ours, v, why in claims(data):
        out("| %s | %s | %s | **%s** | %s |" % (ref, claim, ours, verdict(ref + ": " + claim, v), why))
    out("")
    out("## Why rota's numbers differ")
    out("")
    out("* **No absolute numbers to match.** The paper prints its figures without values; only Table 1, "
        "the mean size, the load and the share of split jobs are numbers, and those are reached above. "
        "The comparisons are therefore of shapes.")
    out("* **FCFS is close to saturation.** At offered load 0.786 FCFS on 5 × 20 nodes reaches a "
        "utilization of %s with %s jobs waiting on average (FCFS runs, random, thres 11), against %s "
        "and %s for FPFS(10): a wide job at the head blocks the queue while the free nodes are spread "
        "over the clusters. Its ART is large and varies much from seed to seed, so FCFS's intervals are "
        "wide; the comparisons paired by seed do not suffer from it." % (
            f1(run_stat(data, "fcfs", 0, "util"), 3), f1(run_stat(data, "fcfs", 0, "queue"), 0),
            f1(run_stat(data, "fpfs", 10, "util"), 3), f1(run_stat(data, "fpfs", 10, "queue"), 0)))
    rs, rw = ratio_sw(data)
    split = coalloc_table(data)
    phased_verdict = [c[3] for c in claims(data) if c[0] == "§6"][0]
    out("* **Which characteristic matters most.** The paper finds the widest component the strongest "
        "factor; in rota the size groups spread %s apart than the widest-component groups under "
        "FPFS(10) (S4/S1 %s, W4/W1 %s). Splitting each group into jobs of one component and "
        "co-allocated ones (FPFS(10), random, thres 11, mean ± 95 %% over the seeds, model units):" % (
            "further" if rs[0] > rw[0] else "less far", f1(rs, 2), f1(rw, 2)))
    out("")
    out("  | group | one component: jobs %, ART | co-allocated: jobs %, ART |")
    out("  |---|---|---|")
    for g, row in split:
        out("  | %s | %s |" % (g, " | ".join(row)))
    out("")
    out("  Single-component jobs' ART grows with their width; co-allocated jobs wait longer whatever "
        "their widest component (their ART is in the table's right column for widest components from 3 "
        "nodes in W2 to 19 in W4), because all their components must find room on distinct clusters at "
        "the same moment. Every co-allocated job is in S4 (they have more than 11 nodes), while W4 = "
        "[6, 19] mixes them with single-component jobs of 6–11 nodes, and W2 and W3 hold co-allocated "
        "jobs whose components are narrow. Where co-allocated jobs wait longer than the single-component "
        "jobs of their W group, being co-allocated, which S4 captures fully, weighs more than the widest "
        "width. The paper's own W ranges (its prose) are not quartiles of its Table 1, so its W groups "
        "may have been cut differently; the conclusion it draws, that narrower components schedule "
        "better, is Figure 3's (verdict above: %s)." % phased_verdict)
    out("")
    out("## Raw numbers")
    out("")
    out("Every run's summary JSON is in the work directory when `--workdir` is given; `results.json` "
        "there holds what this page is made of. Simulation wall time per run: %s s on average." % (
            f1(stats([r["wall"] for r in data.sim.values()]), 2)))
    return "\n".join(lines)


def coalloc_table(data):
    rows = []
    for g in FAMILIES["W"] + ["S4"]:
        cells = []
        for kind in ("single", "multi"):
            arts, shares = [], []
            for s in data.seeds:
                r = data.sim.get(("random", THRES, "fpfs", 10, s))
                c = (r or {}).get("coalloc", {}).get(g)
                if not c:
                    continue
                n_all = sum(v[1] for v in c.values())
                v = c.get(kind)
                shares.append(100 * (v[1] if v else 0) / n_all)
                if v and v[1] >= 20:
                    arts.append(v[0] / v[1])
            cells.append("%s %%, %s" % (f1(stats(shares), 1), f1(stats(arts), 1) if arts else "—"))
        rows.append((g, cells))
    return rows


def run_stat(data, policy, mj, key):
    """A run-level number (utilization, mean queue) over the seeds, random, thres 11."""
    return stats([data.sim[k][key] for k in data.sim
                  if k[:4] == ("random", THRES, policy, mj) and data.sim[k][key] is not None])


def ratio_sw(data):
    V = data.values
    return (data.ratio(V("random", THRES, "fpfs", 10, "S4"), V("random", THRES, "fpfs", 10, "S1")),
            data.ratio(V("random", THRES, "fpfs", 10, "W4"), V("random", THRES, "fpfs", 10, "W1")))


def stop_summary(data):
    parts = []
    for key in sorted(data.stop, key=lambda k: (k[0], k[1])):
        st = data.stop[key]["stopping"]
        name = "FCFS" if key[0] == "fcfs" else "FPFS(%d)" % key[1]
        if st["reached"]:
            parts.append("it holds for %s after %s measured jobs" % (name, "{:,}".format(st["measured_jobs"])))
        else:
            parts.append("%s ends the workload with a maximum relative error of %s" % (
                name, "%.3f" % st["max_rel_error"] if st["max_rel_error"] is not None else "unknown"))
    return "; ".join(parts) if parts else "not run"


def fpfs0_check(data):
    diffs = []
    for s in data.seeds:
        a = data.sim.get(("random", THRES, "fcfs", 0, s))
        c = data.sim.get(("random", THRES, "fpfs", 0, s))
        if a and c:
            diffs.append(abs(a["groups"]["all"]["art"] - c["groups"]["all"]["art"]))
    if not diffs:
        return "not checked"
    return "largest difference %.3g units over %d seeds" % (max(diffs), len(diffs))


def bounds_check(data):
    got = {}
    for k, r in data.sim.items():
        if k[2] == "derive":
            key = (tuple(r["bounds"]["size"]), tuple(r["bounds"]["widest"]))
            got[key] = got.get(key, 0) + 1
    want = (tuple(S_BOUNDS), tuple(W_BOUNDS))
    n = sum(got.values())
    if got.get(want, 0) == n:
        return "every one of the %d workloads (one per seed)" % n
    return "%d of the %d workloads (others: %s)" % (
        got.get(want, 0), n, ", ".join("%s × %d" % (k, v) for k, v in got.items() if k != want))


def prose_w_shares():
    p = size_pmf()
    W = {}
    for s, v in p.items():
        parts = [1] if s <= THRES else list(range(2, K + 1))
        for n in parts:
            w = widest(s, n)
            g = 0 if w <= 1 else 1 if w <= 2 else 2 if w <= 4 else 3
            W[g] = W.get(g, 0) + v / len(parts)
    return "/".join("%.1f" % (100 * W[g]) for g in range(4))


def rng_of(g):
    b = S_BOUNDS if g[0] == "S" else W_BOUNDS
    top = N2 if g[0] == "S" else 19
    i = int(g[1]) - 1
    lo = 1 if i == 0 else b[i - 1] + 1
    hi = b[i] if i < 3 else top
    return "{%d}" % lo if lo == hi else "[%d, %d]" % (lo, hi)


def phased_note():
    p = size_pmf()
    large = {s: v for s, v in p.items() if s > THRES}
    tot = sum(large.values())
    sizes = sorted(large)
    best = None
    for i in range(len(sizes)):
        for j in range(i + 1, len(sizes) - 1):
            r = [sum(large[x] for x in sizes[:i + 1]), sum(large[x] for x in sizes[i + 1:j + 1]),
                 sum(large[x] for x in sizes[j + 1:])]
            d = sum((x / tot - 1 / 3) ** 2 for x in r)
            if best is None or d < best[0]:
                best = (d, [sizes[i], sizes[j]])
    b = best[1]
    parts = []
    lo = THRES + 1
    for i, hi in enumerate(b + [N2]):
        share = sum(v for s, v in large.items() if lo <= s <= hi) / tot
        parts.append("%d–%d nodes: %d components (%.1f %% of the large jobs)" % (lo, hi, i + 2, 100 * share))
        lo = hi + 1
    return "; ".join(parts)


# ---------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rota", default=os.path.join(ROOT, "build", "bin", "rota"))
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--jobs", type=int, default=200000)
    ap.add_argument("--warmup", type=int, default=10000)
    ap.add_argument("--stop-jobs", type=int, default=1500000)
    ap.add_argument("--parallel", type=int, default=2)
    ap.add_argument("--workdir")
    ap.add_argument("--out")
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if args.quick:
        args.seeds, args.jobs, args.warmup, args.stop_jobs = 2, 20000, 2000, 100000
    out_dir = out_dir_of(args, "multicluster")
    args_line = "python3 scripts/reproduce_multicluster.py" + "".join(
        " " + a for a in sys.argv[1:])
    t_start = time.perf_counter()
    work = args.workdir or tempfile.mkdtemp(prefix="rota-multicluster-")
    os.makedirs(work, exist_ok=True)
    cache = os.path.join(work, "results.json")
    try:
        if args.reuse:
            with open(cache) as fh:
                d = json.load(fh)
            raw, meta = d["raw"], d["meta"]
            REUSED["from"] = cache
        else:
            rota_src = os.path.abspath(args.rota)
            h = subprocess.run([rota_src, "generate", "--help"], capture_output=True, text=True)
            if "ngubiri" not in h.stdout + h.stderr:
                sys.exit("%s does not know `generate --model ngubiri`; rebuild it or pass --rota" % rota_src)
            rota = os.path.join(work, "rota")
            shutil.copy2(rota_src, rota)
            meta = {"binary": describe_binary(rota_src, "reproduce_multicluster.py"), "machine": machine_info(), "quick": args.quick}
            run = Runner(rota, work, args.parallel, args.jobs, args.warmup)
            seeds = list(range(1, args.seeds + 1))
            gspecs = [(p, THRES, s, args.jobs) for s in seeds for p in ("random", "phased")]
            gspecs += [("random", t, s, args.jobs) for s in seeds for t in THRES_SWEEP if t != THRES]
            gspecs += [("random", THRES, seeds[0], args.stop_jobs)]
            print("workloads: %d" % len(gspecs), file=sys.stderr)
            gen = run.pool(run.generate, gspecs, "generate")
            sspecs = [("random", THRES, "fcfs", 0, s) for s in seeds]
            sspecs += [(p, THRES, "fpfs", mj, s) for s in seeds for p in ("random", "phased")
                       for mj in MAXJUMPS]
            sspecs += [("random", t, "fpfs", 10, s) for s in seeds for t in THRES_SWEEP if t != THRES]
            sspecs += [("random", THRES, "derive", 10, s) for s in seeds]
            print("simulations: %d" % len(sspecs), file=sys.stderr)
            sim = run.pool(run.simulate, sspecs, "simulate")
            stspecs = [("fpfs", 10, args.stop_jobs, seeds[0]), ("fcfs", 0, args.stop_jobs, seeds[0])]
            print("stopping-rule runs: %d" % len(stspecs), file=sys.stderr)
            stop = run.pool(run.stop_run, stspecs, "stopping rule")
            meta["binary"]["dirty"] = meta["binary"]["dirty"] or tree_dirty("reproduce_multicluster.py")
            raw = {"seeds": seeds, "jobs": args.jobs, "warmup": args.warmup, "stop_jobs": args.stop_jobs,
                   "gen": {json.dumps(list(k)): v for k, v in gen.items()},
                   "sim": {json.dumps(list(k)): v for k, v in sim.items()},
                   "stop": {json.dumps([k[0], k[1]]): v for k, v in stop.items()},
                   "errors": run.errors}
            with open(cache, "w") as fh:
                json.dump({"raw": raw, "meta": meta}, fh)
        data = Data(raw)
        os.makedirs(out_dir, exist_ok=True)
        plot_fig1(data, os.path.join(out_dir, "multicluster_fig1.png"))
        plot_fig2(data, os.path.join(out_dir, "multicluster_fig2.png"))
        plot_fig3(data, os.path.join(out_dir, "multicluster_fig3.png"))
        plot_fig4(data, os.path.join(out_dir, "multicluster_fig4.png"))
        if not args.reuse:
            meta["elapsed"] = time.perf_counter() - t_start
            meta["args_line"] = args_line
            with open(cache, "w") as fh:
                json.dump({"raw": raw, "meta": meta}, fh)
        page = render(data, meta, meta.get("args_line", args_line))
        page += "\n\nVerdicts on this page: %s." % tally(list(VERDICTS.values()))
        with open(os.path.join(out_dir, "multicluster.md"), "w") as fh:
            fh.write(page + "\n")
        write_verdicts(out_dir, "multicluster")
        print("wrote %s/multicluster.md and 4 figures (%d simulations, %.1f s)" % (
            out_dir, len(data.sim) + len(data.stop), time.perf_counter() - t_start))
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
