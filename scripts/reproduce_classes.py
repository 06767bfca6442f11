#!/usr/bin/env python3
"""Reproduces [Feitelson97]'s operational figures (Feitelson & Jette, "Improved
Utilization and Responsiveness with Gang Scheduling", §4.7-4.8: Figures
12-15) with `rota simulate` and writes docs/reproductions/classes.md.

The paper measured the LLNL Cray T3D in production; here a simulated T3D:
256 processors under the two-pass algorithm with Table 1's classes
(classes.preset = "llnl-t3d", 1 s per processor to swap). The workload is
fitted to the statistics §4.7 gives for July 23 - August 12 (t3d_trace:
2659 interactive jobs of 44.5 million node-seconds and 1328 batch jobs of
289.4 million in 21 days, within §4.6's limits), written as SWF traces in
the work folder. A job of at most 64 processors that requests at most 2
hours is interactive (§4.6), every other job production. The same runs with
every class's do-not-disturb time at 0 isolate its effect on Fig. 15; the
simulator's built-in Lublin-Feitelson model at load 0.7 shows how much the
figures owe to the workload. Several seeds are the replicates of the 95 %
intervals. EASY on the same workloads is the yardstick.

    python3 scripts/reproduce_classes.py [--rota build/bin/rota] [--workdir DIR]
        [--quick] [--out DIR]

--quick: the same runs (they take seconds), written to a temporary
directory. Every run is made afresh (--reuse is accepted and changes
nothing).
"""

import argparse
import csv
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from repro_common import (VERDICTS, add_repro_args, out_dir_of, provenance, pyplot, stats,  # noqa: E402
                          tally, verdict)
from repro_common import write_verdicts  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = [1, 2, 3, 4, 5]
INTERACTIVE_PROCS = 64  # §4.6: interactive jobs are limited to 64 processors
# The fitted T3D workload (t3d_trace): §4.7's three weeks.
T3D_DAYS = 21
T3D_CLASSES = {
    # count in T3D_DAYS, sizes (equally likely powers of two), run time
    # range in s (log-uniform), requested time in s
    "interactive": (2659, [2, 4, 8, 16, 32, 64], (1, 7200), 7200),  # §4.6: 64 procs, 2 hours
    "batch": (1328, [8, 16, 32, 64, 128, 256], (60, 14400), 14400),  # Table 2: 4-hour queues
}
T3D_INTERACTIVE_TIME = 7200
# The built-in Lublin-Feitelson model, for comparison.
JOBS = 20000
LOAD = 0.7
INTERACTIVE_TIME = 600
THRESHOLD = 10  # s, the interactivity threshold of Fig. 12's bounded slowdown
SIZES = [1, 2, 4, 8, 16, 32, 64, 128, 256]  # buckets: (previous, size]

PAPER = {
    "interactive_jobs": 2659, "batch_jobs": 1328,
    "interactive_node_s": 44.5e6, "batch_node_s": 289.4e6,
    "total_time_ratio": 1.18, "mean_slowdown": 7.94, "mean_bounded": 2.27,
    "worst_slowdown": 1371, "preempted_share": 0.075, "max_preemptions": 77,
}


def judge(claim, ok, part, criterion):
    """" **verdict** (criterion: ...)" for a claim: reached if `ok`, partly if `part`."""
    v = verdict(claim, "reached" if ok else "partly" if part else "missed")
    return f" **{v}** (criterion: {criterion})"


def within(x, ref, factor):
    return ref / factor <= x <= ref * factor


def t3d_mean_node_seconds(kind):
    """A job's expected node-seconds under T3D_CLASSES[kind]."""
    _, sizes, (lo, hi), _ = T3D_CLASSES[kind]
    return sum(sizes) / len(sizes) * (hi - lo) / math.log(hi / lo)


def t3d_trace(seed, path):
    """An SWF trace of T3D_DAYS days fitted to §4.7: each class arrives as a
    Poisson stream of its count, with sizes and run times whose product's
    mean is its node-seconds per job (the paper gives only the totals)."""
    rng = random.Random(seed)
    span = T3D_DAYS * 86400
    jobs = []
    for kind, (count, sizes, (lo, hi), req) in T3D_CLASSES.items():
        t = rng.expovariate(count / span)
        while t < span:
            run = max(1, round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))
            jobs.append((int(t), rng.choice(sizes), run, req))
            t += rng.expovariate(count / span)
    jobs.sort()
    with open(path, "w") as f:
        f.write("; MaxProcs: 256\n; fitted to [Feitelson97] §4.7 by scripts/reproduce_classes.py\n")
        for i, (t, n, run, req) in enumerate(jobs, 1):
            f.write(f"{i} {t} -1 {run} {n} -1 -1 {n} {req} -1 1 {1 + i % 40} 1 -1 1 -1 -1 -1\n")


def run(rota, seed, workdir, workload, dnd=True):
    """The classes and EASY runs of one seed on workload "t3d" or "lublin";
    dnd=False sets every class's do-not-disturb multiplier to 0."""
    out = os.path.join(workdir, f"{workload}{'' if dnd else '-nodnd'}-seed{seed}")
    # The file's [classes] would reach EASY too: dnd = 0 runs classes alone.
    policies = ("classes", "easy") if dnd else ("classes",)
    cmd = [rota, "simulate", "--policy", ",".join(policies), "--procs", "256",
           "--interactive-procs", str(INTERACTIVE_PROCS),
           "--jobs-csv", out + ".csv", "--summary-json", out + ".json"]
    if workload == "t3d":
        trace = os.path.join(workdir, f"t3d-seed{seed}.swf")
        t3d_trace(seed, trace)
        cmd += ["--trace", trace, "--interactive-time", str(T3D_INTERACTIVE_TIME)]
    else:
        cmd += ["--jobs", str(JOBS), "--load", str(LOAD), "--seed", str(seed),
                "--interactive-time", str(INTERACTIVE_TIME)]
    if not dnd:
        conf = out + ".toml"
        with open(conf, "w") as f:
            f.write('[classes]\npreset = "llnl-t3d"\n' + "".join(
                f'[[classes.class]]\nname = "{c}"\ndnd = 0\n'
                for c in ("interactive", "debug", "production", "benchmark", "standby")))
        cmd.append(conf)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if len(policies) == 1:  # the CSV is not suffixed with the policy then
        os.replace(out + ".csv", f"{out}.classes.csv")
    jobs = {p: list(csv.DictReader(open(f"{out}.{p}.csv"))) for p in policies}
    return jobs, json.load(open(out + ".json"))


def interactive_time(workload):
    return T3D_INTERACTIVE_TIME if workload == "t3d" else INTERACTIVE_TIME


def interactive(r, workload):
    return (int(r["procs"]) <= INTERACTIVE_PROCS
            and int(r["requested_time"]) <= interactive_time(workload))


def done(rows):
    return [r for r in rows if r["final_state"] in ("finished", "killed")]


def bucket(p):
    for s in SIZES:
        if p <= s:
            return s
    return SIZES[-1]


def measure(rows, workload):
    rows = done(rows)
    inter = [r for r in rows if interactive(r, workload)]
    resp = [int(r["finish_time"]) - int(r["submit_time"]) for r in inter]
    run_t = [max(1, int(r["run_time"])) for r in inter]
    sl = [a / b for a, b in zip(resp, run_t)]
    bsl = [a / max(THRESHOLD, b) for a, b in zip(resp, run_t)]
    node_s = [int(r["procs"]) * int(r["run_time"]) for r in rows]
    m = {
        "jobs": len(rows), "interactive_jobs": len(inter),
        "interactive_node_s": sum(int(r["procs"]) * int(r["run_time"]) for r in inter),
        "node_s": sum(node_s),
        "share_jobs": len(inter) / len(rows),
        "share_node_s": sum(int(r["procs"]) * int(r["run_time"]) for r in inter)
        / sum(int(r["procs"]) * int(r["run_time"]) for r in rows),
        "total_time_ratio": sum(resp) / sum(run_t),
        "mean_slowdown": sum(sl) / len(sl),
        "mean_bounded": sum(bsl) / len(bsl),
        "worst_slowdown": max(sl),
        "sl": sl, "bsl": bsl,
    }
    if "preemptions" in rows[0]:
        pre = [int(r["preemptions"]) for r in rows]
        m["preempted_share"] = sum(1 for p in pre if p > 0) / len(rows)
        m["max_preemptions"] = max(pre)
        m["hist"] = pre
        by = {}
        for r in rows:
            b = bucket(int(r["procs"]))
            n, k, q_all, q_pre = by.get(b, (0, 0, [], []))
            p = int(r["preemptions"])
            q = int(r["run_time"]) / (p + 1)  # a job's quanta: its run between preemptions
            q_all.append(q)
            if p > 0:
                q_pre.append(q)
            by[b] = (n + 1, k + (p > 0), q_all, q_pre)
        m["by_size"] = by
    return m


def fmt(x, d=2):
    return f"{x:,.{d}f}"


def ci(xs, d=2, pct=False):
    mean, half, _ = stats(xs)
    k = 100 if pct else 1
    unit = " %" if pct else ""
    return f"{mean * k:,.{d}f} ± {half * k:,.{d}f}{unit}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rota", default=os.path.join(ROOT, "build", "bin", "rota"))
    ap.add_argument("--workdir", help="keep the runs here (default: a temporary directory)")
    add_repro_args(ap, "the same runs, written to a temporary directory")
    args = ap.parse_args()
    plt = pyplot()
    args.workdir = args.workdir or tempfile.mkdtemp(prefix="rota-classes-")
    os.makedirs(args.workdir, exist_ok=True)
    t0 = time.time()
    res = {"classes": [], "easy": [], "nodnd": [], "lublin": [], "lublin_easy": []}
    counters = []
    for seed in SEEDS:
        jobs, summary = run(args.rota, seed, args.workdir, "t3d")
        res["classes"].append(measure(jobs["classes"], "t3d"))
        res["easy"].append(measure(jobs["easy"], "t3d"))
        counters.append(summary["classes"]["classes"])
        jobs, _ = run(args.rota, seed, args.workdir, "t3d", dnd=False)
        res["nodnd"].append(measure(jobs["classes"], "t3d"))
        jobs, _ = run(args.rota, seed, args.workdir, "lublin")
        res["lublin"].append(measure(jobs["classes"], "lublin"))
        res["lublin_easy"].append(measure(jobs["easy"], "lublin"))
        print(f"seed {seed} done ({time.time() - t0:.0f} s)", file=sys.stderr)

    c, e, nd, lc, le = (res[k] for k in ("classes", "easy", "nodnd", "lublin", "lublin_easy"))
    docs = out_dir_of(args, "classes")
    # Figure 12: histograms of slowdown and bounded slowdown of interactive jobs.
    fig, ax = plt.subplots(1, 2, figsize=(10, 3.6))
    bins = [1, 1.5, 2, 3, 5, 10, 20, 50, 100, 1000, 1e6]
    for k, (key, title) in enumerate((("sl", "slowdown"), ("bsl", f"bounded slowdown ({THRESHOLD} s)"))):
        for name, rs in (("rota classes", c), ("EASY", e)):
            xs = [x for r in rs for x in r[key]]
            hist = [sum(1 for x in xs if lo <= x < hi) / len(xs) for lo, hi in zip(bins, bins[1:])]
            ax[k].bar([i + (0.4 if name == "EASY" else 0) for i in range(len(hist))], hist, 0.4,
                      label=name)
        ax[k].set_xticks([i + 0.2 for i in range(len(bins) - 1)])
        ax[k].set_xticklabels([f"{b:g}" for b in bins[:-1]], fontsize=7)
        ax[k].set_title(f"interactive jobs: {title}")
        ax[k].set_xlabel("at least")
        ax[k].set_ylabel("share of jobs")
        ax[k].legend()
    fig.tight_layout()
    fig.savefig(os.path.join(docs, "classes_fig12.png"), dpi=110)
    # Figures 13 and 15: preemption likelihood and average quantum by size.
    fig, ax = plt.subplots(1, 2, figsize=(10, 3.6))
    sizes = [s for s in SIZES if any(s in r["by_size"] for r in c)]
    like = [[r["by_size"][s][1] / r["by_size"][s][0] for r in c if s in r["by_size"]] for s in sizes]
    ax[0].bar(range(len(sizes)), [stats(v)[0] * 100 for v in like],
              yerr=[0 if stats(v)[1] != stats(v)[1] else stats(v)[1] * 100 for v in like])
    ax[0].set_xticks(range(len(sizes)))
    ax[0].set_xticklabels(sizes)
    ax[0].set_xlabel("processors (bucket up to)")
    ax[0].set_ylabel("% of jobs ever preempted")
    ax[0].set_title("Fig. 13: likelihood of preemption")
    q_all = [[sum(r["by_size"][s][2]) / len(r["by_size"][s][2]) for r in c if s in r["by_size"]]
             for s in sizes]
    def quanta(rs, k):
        return [[sum(r["by_size"][s][k]) / len(r["by_size"][s][k]) for r in rs
                 if s in r["by_size"] and r["by_size"][s][k]] for s in sizes]

    q_pre = quanta(c, 3)
    q_pre_nd = quanta(nd, 3)
    q_all_nd = quanta(nd, 2)
    ax[1].plot(range(len(sizes)), [stats(v)[0] if v else float("nan") for v in q_pre], "o-",
               label="preempted jobs")
    ax[1].plot(range(len(sizes)), [stats(v)[0] for v in q_all], "s--", label="all jobs")
    ax[1].plot(range(len(sizes)), [stats(v)[0] if v else float("nan") for v in q_pre_nd], "^:",
               label="preempted jobs, dnd = 0")
    ax[1].set_yscale("log")
    ax[1].set_xticks(range(len(sizes)))
    ax[1].set_xticklabels(sizes)
    ax[1].set_xlabel("processors (bucket up to)")
    ax[1].set_ylabel("average time quantum (s)")
    ax[1].set_title("Fig. 15: average time quantum")
    ax[1].legend()
    fig.tight_layout()
    fig.savefig(os.path.join(docs, "classes_fig13_15.png"), dpi=110)
    # Figure 14: histogram of preemptions per job.
    fig, ax = plt.subplots(figsize=(6, 3.4))
    pre = [p for r in c for p in r["hist"] if p > 0]
    ax.hist(pre, bins=range(1, max(pre) + 2), log=True)
    ax.set_xlabel("preemptions of a job")
    ax.set_ylabel("jobs (log)")
    ax.set_title("Fig. 14: preemptions per preempted job")
    fig.tight_layout()
    fig.savefig(os.path.join(docs, "classes_fig14.png"), dpi=110)

    mono_all = all(stats(q_all[i])[0] <= stats(q_all[i + 1])[0] * 1.05 for i in range(len(sizes) - 1))
    growth = stats(q_all[-1])[0] / stats(q_all[0])[0]
    # The do-not-disturb effect: preempted jobs' quanta, smallest bucket to largest.
    growth_pre = stats(q_pre[-1])[0] / stats(q_pre[0])[0]
    growth_pre_nd = stats(q_pre_nd[-1])[0] / stats(q_pre_nd[0])[0]
    pre_share = stats([r["preempted_share"] for r in c])[0]
    like_lo = [stats(v)[0] for s, v in zip(sizes, like) if s <= 64]
    like_all = [stats(v)[0] for v in like]
    sl_c = stats([r["mean_slowdown"] for r in c])[0]
    ttr_c = stats([r["total_time_ratio"] for r in c])[0]
    share_c = stats([r["share_jobs"] for r in c])[0]
    share_paper = PAPER["interactive_jobs"] / (PAPER["interactive_jobs"] + PAPER["batch_jobs"])
    nodes_c = stats([r["share_node_s"] for r in c])[0]
    nodes_paper = PAPER["interactive_node_s"] / (PAPER["interactive_node_s"] + PAPER["batch_node_s"])
    lines = [
        "# [Feitelson97] §4.7-4.8: job classes with lazy preemption on a simulated T3D",
        "",
        "Generated by `scripts/reproduce.sh classes` (or `python3 scripts/reproduce_classes.py`; "
        f"about {time.time() - t0:.0f} s); do not edit by hand.",
        "",
        provenance(SEEDS),
        "",
        "**Setting.** The paper's figures come from four months of the LLNL Cray T3D in "
        "production; rota cannot replay that log (it is not public), so the machine is "
        "simulated: 256 processors, the two-pass algorithm of §4.3 with Table 1's classes "
        "and §4.2's limits (`classes.preset = \"llnl-t3d\"`: large jobs 64+ processors, "
        "192 of them by day, system limit 576, swap 1 s per processor, interactive "
        "jobs at production priority at night and at weekends). EASY (`easy`) on the same "
        "workloads is the yardstick.",
        "",
        "**Workload.** Fitted to what §4.7 gives for July 23 to August 12 (21 days): 2,659 "
        "interactive jobs of 44.5 million node-seconds and 1,328 batch jobs of 289.4 million. "
        "Each class arrives as a Poisson stream of its count over the 21 days; its sizes are "
        "equally likely powers of two and its run times log-uniform, within §4.6's limits: "
        + "; ".join(f"{k} {T3D_CLASSES[k][1][0]}-{T3D_CLASSES[k][1][-1]} processors, "
                    f"{T3D_CLASSES[k][2][0]:,}-{T3D_CLASSES[k][2][1]:,} s, requesting "
                    f"{T3D_CLASSES[k][3]:,} s" for k in T3D_CLASSES)
        + " (interactive jobs are limited to 64 processors and 2 hours; the batch queues of "
        "Table 2 to 4 hours). The ranges are rota's reading, chosen so that a job's expected "
        "node-seconds are the paper's per job: "
        + ", ".join(f"{k} {t3d_mean_node_seconds(k):,.0f}" for k in T3D_CLASSES)
        + " against "
        f"{PAPER['interactive_node_s'] / PAPER['interactive_jobs']:,.0f} and "
        f"{PAPER['batch_node_s'] / PAPER['batch_jobs']:,.0f}. The paper gives no daily "
        "cycle, no distribution of sizes or run times within a class and no estimates, so "
        "none is modelled. Seeds "
        f"{', '.join(map(str, SEEDS))} draw the traces (the replicates of the ± 95 % "
        "intervals). Command per seed: `rota simulate --trace t3d-seedS.swf --policy "
        f"classes,easy --procs 256 --interactive-procs {INTERACTIVE_PROCS} --interactive-time "
        f"{T3D_INTERACTIVE_TIME} --jobs-csv ...`, the trace written by `t3d_trace` in "
        "`scripts/reproduce_classes.py`. Two more runs per seed: the same traces with every "
        "class's do-not-disturb multiplier at 0 (a configuration file of `[[classes.class]]` "
        "tables with `dnd = 0`), which isolates its effect on Fig. 15; and the simulator's "
        f"built-in Lublin-Feitelson model at offered load {LOAD} ({JOBS:,} jobs, interactive "
        f"up to {INTERACTIVE_PROCS} processors and {INTERACTIVE_TIME} s requested), which "
        "shows how much the figures owe to the workload.",
        "",
        "## The workload beside the paper's",
        "",
        "| | paper (Jul 23-Aug 12) | rota, fitted T3D workload | rota, Lublin-Feitelson |",
        "|---|---|---|---|",
        f"| interactive jobs | {PAPER['interactive_jobs']:,} | "
        f"{ci([r['interactive_jobs'] for r in c], 0)} | - |",
        f"| batch jobs | {PAPER['batch_jobs']:,} | "
        f"{ci([r['jobs'] - r['interactive_jobs'] for r in c], 0)} | - |",
        f"| interactive node-seconds (millions) | {PAPER['interactive_node_s'] / 1e6:.1f} | "
        f"{ci([r['interactive_node_s'] / 1e6 for r in c], 1)} | - |",
        f"| batch node-seconds (millions) | {PAPER['batch_node_s'] / 1e6:.1f} | "
        f"{ci([(r['node_s'] - r['interactive_node_s']) / 1e6 for r in c], 1)} | - |",
        f"| interactive share of jobs | {share_paper * 100:.0f} % "
        f"| {ci([r['share_jobs'] for r in c], 1, True)} | {ci([r['share_jobs'] for r in lc], 1, True)} |",
        f"| interactive share of node-seconds | {nodes_paper * 100:.0f} % "
        f"| {ci([r['share_node_s'] for r in c], 1, True)} | {ci([r['share_node_s'] for r in lc], 1, True)} |",
        f"| node-seconds / (21 days x 256 processors) | "
        f"{(PAPER['interactive_node_s'] + PAPER['batch_node_s']) / (T3D_DAYS * 86400 * 256):.2f} | "
        f"{ci([r['node_s'] / (T3D_DAYS * 86400 * 256) for r in c])} | - |",
        "",
        "The fitted workload's shares against the paper's:"
        + judge("workload: interactive shares of jobs and node-seconds",
                abs(share_c - share_paper) <= 0.10 and within(nodes_c, nodes_paper, 2),
                abs(share_c - share_paper) <= 0.10 or within(nodes_c, nodes_paper, 2),
                "job share within 10 points and node-second share within a factor of 2; partly: "
                "one of the two") + ".",
        "",
        "## Figure 12: interactive jobs",
        "",
        "| | paper | rota, classes | rota, EASY | classes, dnd = 0 | classes, Lublin-Feitelson "
        "| EASY, Lublin-Feitelson |",
        "|---|---|---|---|---|---|---|",
        f"| total time in system / total run time | {PAPER['total_time_ratio']} | "
        + " | ".join(ci([r['total_time_ratio'] for r in rs]) for rs in (c, e, nd, lc, le)) + " |",
        f"| mean slowdown | {PAPER['mean_slowdown']} | "
        + " | ".join(ci([r['mean_slowdown'] for r in rs]) for rs in (c, e, nd, lc, le)) + " |",
        f"| mean bounded slowdown ({THRESHOLD} s) | {PAPER['mean_bounded']} | "
        + " | ".join(ci([r['mean_bounded'] for r in rs]) for rs in (c, e, nd, lc, le)) + " |",
        f"| worst slowdown | {PAPER['worst_slowdown']:,} | "
        + " | ".join(fmt(max(r['worst_slowdown'] for r in rs), 0) for rs in (c, e, nd, lc, le)) + " |",
        "",
        "![Figure 12](classes_fig12.png)",
        "",
        "## Figures 13-15: preemptions",
        "",
        "| | paper | rota |",
        "|---|---|---|",
        f"| completed jobs ever preempted | {PAPER['preempted_share'] * 100:.1f} % | "
        f"{ci([r['preempted_share'] for r in c], 1, True)} (Lublin-Feitelson: "
        f"{ci([r['preempted_share'] for r in lc], 1, True)}) |",
        f"| most preemptions of one job | {PAPER['max_preemptions']} | "
        f"{max(r['max_preemptions'] for r in c)} |",
        f"| preemptions per run (SWAP_OUT) | - | {ci([x['preemptions'] for x in counters], 0)} |",
        f"| pass 1 reservations per run | - | {ci([x['reservations'] for x in counters], 0)} |",
        "",
        "![Figures 13 and 15](classes_fig13_15.png)",
        "",
        "![Figure 14](classes_fig14.png)",
        "",
        "| processors up to | " + " | ".join(map(str, sizes)) + " |",
        "|---" * (len(sizes) + 1) + "|",
        "| % ever preempted | " + " | ".join(ci(v, 1, True) for v in like) + " |",
        "| mean quantum, all jobs (s) | " + " | ".join(ci(v, 0) for v in q_all) + " |",
        "| mean quantum, preempted (s) | "
        + " | ".join(ci(v, 0) if v else "-" for v in q_pre) + " |",
        "| mean quantum, preempted, dnd = 0 (s) | "
        + " | ".join(ci(v, 0) if v else "-" for v in q_pre_nd) + " |",
        "| mean quantum, all jobs, dnd = 0 (s) | "
        + " | ".join(ci(v, 0) if v else "-" for v in q_all_nd) + " |",
        "",
        "## What matches and what does not",
        "",
        f"* **Fig. 15's shape** (the average quantum grows with the job's size): for all jobs "
        f"{growth:,.1f}x from the smallest bucket to the largest"
        + (", rising bucket by bucket" if mono_all else ", not bucket by bucket") +
        "; the do-not-disturb time is the multiplier times the processors, so a wide job "
        "keeps its processors longer once loaded, as §4.8 says."
        + judge("Fig. 15: the average quantum grows with the size", mono_all and growth > 1,
                growth > 1, "rising bucket by bucket (within 5 %); partly: larger in the largest "
                "bucket than in the smallest") + ".",
        f"* **Fig. 15's cause** (\"use of the do-not-disturb time multiplier leads to larger "
        f"average time quanta for larger jobs\"): the quantum of preempted jobs grows "
        f"{growth_pre:,.1f}x from the smallest bucket to the largest with Table 1's "
        f"multipliers, and {growth_pre_nd:,.1f}x on the same traces with every multiplier at 0 "
        "(the curve of all jobs also carries the jobs that ran to completion, whose quanta are "
        "their run times)."
        + judge("Fig. 15: the growth comes from the do-not-disturb multiplier",
                growth_pre >= 1.5 and growth_pre >= 1.5 * growth_pre_nd,
                growth_pre > growth_pre_nd,
                "the preempted jobs' quanta grow at least 1.5x with the multipliers and at least "
                "1.5x more than without them; partly: more than without them") + ".",
        f"* **The share of preempted jobs** is {pre_share * 100:.1f} % (paper "
        f"{PAPER['preempted_share'] * 100:.1f} %); it depends on the load and on how many jobs are "
        "interactive, neither of which the paper gives for the four months."
        + judge("the share of preempted jobs", within(pre_share, PAPER["preempted_share"], 2),
                within(pre_share, PAPER["preempted_share"], 4),
                "within a factor of 2 of the paper's; partly: of 4") + ".",
        "* **Fig. 13's roughly equal proportions** (share of jobs ever preempted): up to 64 "
        "processors "
        + ", ".join(f"{stats(v)[0] * 100:.0f} %" for s, v in zip(sizes, like) if s <= 64)
        + "; above ("
        + ", ".join(f"{s} processors {stats(v)[0] * 100:.0f} %" for s, v in zip(sizes, like) if s > 64)
        + f"): the largest share is {max(like_all) / max(1e-9, min(like_all)):.1f} times the "
        "smallest. The widest jobs are production jobs holding much of the machine, so an "
        "interactive job past its wait (0 s) is likely to reserve some of their processors; "
        "the paper's 256-processor jobs were \"normally not preempted\", its site keeping "
        "them for times with little interactive work (§4.6)."
        + judge("Fig. 13: roughly equal proportions preempted at every size",
                max(like_all) <= 2 * max(1e-9, min(like_all)),
                max(like_lo) <= 2 * max(1e-9, min(like_lo)),
                "the largest share at most twice the smallest over every bucket; partly: over the "
                "buckets up to 64 processors") + ".",
        f"* **Interactive slowdowns**: mean slowdown {sl_c:,.2f} (paper {PAPER['mean_slowdown']}), "
        f"total time over run time {ttr_c:,.2f} (paper {PAPER['total_time_ratio']})"
        + judge("Fig. 12: interactive slowdowns", within(sl_c, PAPER["mean_slowdown"], 2)
                and within(ttr_c, PAPER["total_time_ratio"], 2),
                within(sl_c, PAPER["mean_slowdown"], 10) and within(ttr_c, PAPER["total_time_ratio"], 10),
                "both within a factor of 2 of the paper's; partly: of 10") + ". The means are dominated by a "
        "tail of short interactive jobs that wait behind one pass-1 reservation at a time "
        "and behind production jobs inside their do-not-disturb time (10 s per "
        "processor: over 10 minutes for a 64-processor job), and by the system limit "
        "(576 processors loaded or on disk), which keeps fresh jobs queued once many are "
        "swapped out. The paper's T3D had NQS feeding batch jobs only as far as its "
        "limits allowed (§4.6, Table 2: a few running jobs per queue), which keeps the queue "
        "of batch work, hence the preemption pressure, much smaller than the open Poisson "
        "streams here, which offer "
        f"{stats([r['node_s'] / (T3D_DAYS * 86400 * 256) for r in c])[0]:.2f} of the machine. "
        "The workload accounts for much of the distance: on the Lublin-Feitelson model the "
        f"mean slowdown is {stats([r['mean_slowdown'] for r in lc])[0]:,.1f}. With every "
        "do-not-disturb multiplier at 0 it is "
        f"{stats([r['mean_slowdown'] for r in nd])[0]:,.1f}: the multiplier is what keeps a "
        "loaded job from being swapped out again at once, and without it jobs take each "
        "other's processors back and forth. The EASY column shows the same workload without "
        "preemption.",
        "* Not modelled: the T3D's shape constraints and barrier wires (rota's nodes have "
        "no topology, so every set of processors is a candidate) and the 0.5 s per "
        "processor of program loading that §4.7 mentions.",
        "* Beyond the paper: a loaded job executes as long as its load took (its swap-in "
        "and any wait for processors whose former job's state is still being written "
        "out), and one second at least, before it can be swapped out again, even past "
        "its do-not-disturb time. A job loaded onto the processors of a wide victim "
        "used to be swapped out before it had computed at all, paying both swaps for "
        "nothing. See docs/config.md, \"The progress guarantee\".",
        "",
        f"Verdicts on this page: {tally(list(VERDICTS.values()))}.",
        "",
    ]
    with open(os.path.join(docs, "classes.md"), "w") as f:
        f.write("\n".join(lines))
    write_verdicts(docs, "classes")
    print(f"wrote {docs}/classes.md in {time.time() - t0:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
