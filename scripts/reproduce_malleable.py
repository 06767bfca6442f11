#!/usr/bin/env python3
"""Reproduces [Weissman03]'s results (Weissman, Abburi, England, "Integrated
Scheduling: The Best of Both Worlds", §4.4: Figures 9-16, Tables 2 and 3)
with `rota generate` and `rota simulate`, and writes
docs/reproductions/malleable.md.

System-centric (§4.2): `rota generate --model weissman` (hourly Poisson
arrivals, the log's sizes and Weibull run times fitted to the SDSC SP2 log),
10,000 jobs per seed on 128 processors; min = ceil(min_% x ideal).
User-centric (§4.1): `rota generate --model weissman-apps` (Table 1's STEN,
GE and CL instances) on 64 processors, parabolic model, adaptations costing
1 s + 0.00009 s per byte shipped.

    python3 scripts/reproduce_malleable.py [--rota build/bin/rota] [--workdir DIR] [--seeds N]
"""

import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from repro_common import pyplot, stats  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JOBS = 10000  # per system-centric trace, as in §4.4 (the paper: 100 traces)
APPS_JOBS = 1000  # per user-centric trace (the paper does not say)
BASELINES = ["ideal-only", "ideal-backfill", "moldable"]
HARVEST = ["even-h-fq", "even-h-fr", "low-imp-fq", "low-imp-fr"]
MIN_PCTS = [10, 20, 30, 40, 50]
MS = [3, 6, 9, 12, 0]  # 0: no limit
APPS = ["ge", "mixed"]  # the paper shows GE and MIXED (§4.4)
BETAS = [0.25, 0.5, 0.75, 1.0]
USER_PCTS = [50, 30, 10]
USER_POLICIES = ["ideal-only", "moldable", "ideal-backfill", "low-imp-fr"]

# Table 3 of the paper, GE throughput (jobs/hr): [beta][min_% 50, 30, 10][IO, M, IB, LIFR].
PAPER_TABLE3 = [
    [(1.78, 2.45, 1.79, 3.16), (1.78, 2.95, 1.79, 3.73), (1.78, 2.75, 1.79, 4.04)],
    [(1.78, 2.35, 1.79, 3.15), (1.78, 2.96, 1.79, 3.71), (1.78, 2.68, 1.79, 3.93)],
    [(1.77, 2.39, 1.78, 3.12), (1.77, 2.87, 1.78, 3.67), (1.77, 2.63, 1.78, 3.68)],
    [(1.77, 2.40, 1.78, 2.94), (1.77, 2.85, 1.78, 3.01), (1.77, 2.70, 1.78, 2.99)],
]

# Written after reading the numbers; the script's claims above are recomputed.
DIFFERENCES = [
    "**The offered load.** §4.2 draws sizes and run times independently, so the SDSC fit "
    "offers a load of 0.56 on 128 processors (0.53 measured over 100,000 jobs, with run times "
    "cut at the log's longest). The log itself offers 0.83, because its wide jobs also run "
    "long. The paper does not give its load. Two loads are shown: the fit's own, and 0.8, near "
    "the log's, where every policy queues more. The paper's ≥ 5× cut in waiting time holds at the fit's "
    "load for every min_%. At 0.8 it holds for min_% ≤ 30 only: 2.4-3.4× at min_% = 40-50.",
    "**Harvest events per job** are 0.35-0.58 at the fit's load and 0.78-1.33 at 0.8. The "
    "paper reports 1.5-3.6. Harvests follow the load, and rota divides the SHRINKs (one per "
    "victim per harvest) by every job, harvested or not. The paper does not say what it "
    "divides by, nor whether an event is a harvest or any adaptation. Counting every grow and "
    "shrink comes nearer at 0.8 (see the claims), but FR does not adapt twice as often as FQ "
    "as in the paper. The success rate (95-99 %) matches the paper's.",
    "**FR against FQ at high M is not reproduced.** In the paper, Low-Imp-FR has the least "
    "total time for M ≥ 9 (Figure 13). In rota, Low-Imp-FQ has the least total time at every M "
    "and both loads. FR gives the processors freed by an end to running jobs once M is met. "
    "Under the linear model a grow does no more work per processor-second than a start, so FR "
    "trades queued jobs' waiting for running jobs' execution, and in these runs that trade "
    "loses, although at M ≥ 9 the 95 % intervals of the four policies overlap (Figure 13). "
    "rota's `distribution/favor_running.lua` follows §2.2: it grows running jobs by the "
    "inverse of the harvest policy (low_impact: the job with the smallest share of its ideal "
    "first). The paper gives no more detail, and the cause of the difference is not "
    "established.",
    "**The user-centric workloads are overloaded at every β.** The paper's inter-arrival "
    "formula RT_ideal / (P / P_ideal) × β uses the mean run time times the mean width. Work "
    "per job is the mean of their product, which is larger because Table 1's longest "
    "instances are also its widest. The offered load at β = 1 is 1.29 for GE and 1.80 for "
    "MIXED, so queues grow over the whole trace. Waits therefore depend on the trace's length "
    "(1,000 jobs here; the paper does not give its own). Ratios between policies mean more "
    "than the hours.",
    "**Table 3's throughput is 3.7× the paper's for IDEAL-ONLY** (6.6 jobs/h against 1.78). "
    "Under saturation throughput is the service rate. Table 1's GE instances on 64 processors "
    "allow at most 64 × 3600 / 30,729 processor-seconds per job = 7.5 jobs/h at their ideal. "
    "The paper's 1.78 cannot come from the same jobs measured the same way, so compare ratios. "
    "MOLDABLE / IDEAL-ONLY: paper 1.32-1.66, rota 1.35-1.88. Low-Imp-FR / IDEAL-ONLY: paper "
    "1.66-2.27, rota 1.22-2.09.",
    "**MOLDABLE out-produces Low-Imp-FR in most cells of Table 3.** Under the parabolic model "
    "a job on P processors uses P × T(P) = a + bP² processor-seconds, fewer on fewer "
    "processors. MOLDABLE keeps every job at the size it started with. Low-Imp-FR grows "
    "running jobs back towards ideal (favor running) and pays 1 s plus the bytes shipped for "
    "each grow and shrink, so it does more work for the same jobs. It leads only at "
    "min_% = 10 with β ≤ 0.5, where it admits the most jobs.",
]

# Table 2 of the paper: (success %, events/job, % jobs = or better), linear
# then parabolic, averaged over every M and min_%.
PAPER_TABLE2 = {
    "even-h-fq": ((96.7, 1.6, 89.3), (98.4, 1.5, 92.8)),
    "even-h-fr": ((99.5, 3.2, 86.4), (99.4, 3.1, 89.0)),
    "low-imp-fq": ((96.7, 1.6, 89.2), (98.3, 1.5, 92.7)),
    "low-imp-fr": ((99.0, 3.6, 86.7), (99.4, 3.4, 89.2)),
}


def generate(rota, workdir, name, *flags):
    path = os.path.join(workdir, name + ".swf")
    if not os.path.exists(path):
        subprocess.run([rota, "generate", *map(str, flags), "-o", path], check=True)
    return path


def adaptations(summary):
    """Grows and shrinks per job: every adaptation, not only the harvests' shrinks."""
    c = summary["counters"]
    return (c["grows"] + c["shrinks"]) / max(1, summary["jobs"]["total"])


def throughput(summary, jobs):
    """Jobs per hour from the first submit to the last finish (Table 3)."""
    span = summary["last_finish"] - summary["first_submit"]
    return 3600.0 * jobs / span if span > 0 else float("nan")


def run(rota, trace, policies, out, *flags):
    summary = out + ".json"
    if not os.path.exists(summary):
        cmd = [rota, "simulate", "--trace", trace, "--policy", ",".join(policies), "--no-progress",
               "--summary-json", summary, "--jobs-csv", out + ".csv", *map(str, flags)]
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            sys.exit(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stderr}")
    with open(summary) as f:
        return json.load(f)


def responses(path):
    r = {}
    with open(path) as f:
        cols = f.readline().strip().split(",")
        i_id, i_sub, i_fin = cols.index("job_id"), cols.index("submit_time"), cols.index(
            "finish_time")
        for ln in f:
            v = ln.split(",")
            if v[i_fin] != "-1":
                r[v[i_id]] = int(v[i_fin]) - int(v[i_sub])
    return r


def csv_of(out, policy):
    return f"{out}.{policy}.csv"


def system_runs(rota, workdir, traces, tag):
    """Figures 9-14 and Table 2's runs on `traces`; (fig9, fig10, table2)."""
    everything = BASELINES + HARVEST
    # Figures 9 and 14: M = no limit, every policy, over min_%, both models.
    fig9 = {}  # (model, pct, policy) -> [(wait, total)] per seed
    table2 = {}  # (model, policy) -> [(success, events, better)]
    for model in ("linear", "parabolic"):
        for pct in MIN_PCTS:
            for k, tr in enumerate(traces):
                out = os.path.join(workdir, f"{tag}f9_{model}_{pct}_{k}")
                d = run(rota, tr, everything, out, "--min-pct", pct, "--exec-model", model)
                base = responses(csv_of(out, "ideal-only"))
                for p in everything:
                    s = d[p]["all"]
                    fig9.setdefault((model, pct, p), []).append(
                        (s["wait"]["mean"], s["response"]["mean"]))
                    if p in HARVEST:
                        m = d[p]["malleable"]
                        mine = responses(csv_of(out, p))
                        better = sum(1 for j, r in mine.items() if j in base and r <= base[j])
                        table2.setdefault((model, p), []).append(
                            (100 * m["harvest_success_rate"], m["harvest_events_per_job"],
                             100 * better / max(1, len(mine)), adaptations(d[p])))
    # Figures 10-13: the four harvest policies over M and min_%, linear.
    fig10 = {}  # (pct, M, policy) -> [(wait, total)]
    for pct in MIN_PCTS:
        for M in MS:
            for k, tr in enumerate(traces):
                out = os.path.join(workdir, f"{tag}f10_{pct}_{M}_{k}")
                d = run(rota, tr, HARVEST, out, "--min-pct", pct, "--mpl-limit", M)
                for p in HARVEST:
                    s = d[p]["all"]
                    m = d[p]["malleable"]
                    fig10.setdefault((pct, M, p), []).append(
                        (s["wait"]["mean"], s["response"]["mean"]))
                    # Table 2 averages over every M and min_% (linear).
                    table2.setdefault(("linear-M", p), []).append(
                        (100 * m["harvest_success_rate"], m["harvest_events_per_job"], None,
                         adaptations(d[p])))

    return fig9, fig10, table2


def wait_ratio(base, mine):
    """base / mine as "12.3×"; a wait under a minute is a lower bound."""
    if mine >= 60:
        return f"{base / mine:.1f}×"
    return f"≥ {base / 60:.0f}× (under a minute)"


def system_claims(fig9, fig10, table2):
    """The system-centric claims of §4.4 checked on one set of runs, as lines."""
    hours = 3600.0
    L = []
    w = L.append
    def mean_of(model, p, which):
        return [stats([v[which] for v in fig9[(model, x, p)]])[0] for x in MIN_PCTS]

    lifr_w, lifr_t = mean_of("linear", "low-imp-fr", 0), mean_of("linear", "low-imp-fr", 1)
    ratios = {}
    for p in ("ideal-backfill", "moldable", "ideal-only"):
        wt, t = mean_of("linear", p, 0), mean_of("linear", p, 1)
        ratios[p] = ([(b, x) for b, x in zip(wt, lifr_w)],
                     [1 - x / b for b, x in zip(t, lifr_t)], [b / x for b, x in zip(t, lifr_t)])

    def m10(pct, M, p, which):
        return stats([v[which] for v in fig10[(pct, M, p)]])[0]

    wb, tb, _ = ratios["ideal-backfill"]
    wm, tm, _ = ratios["moldable"]
    wi, ti, xi = ratios["ideal-only"]
    w(f"* **Low-Imp-FR cuts waiting time by ≥ 5× against IDEAL-BACKFILL and MOLDABLE** (§4.4, "
      f"Figure 14). rota, over min_% = {MIN_PCTS}: "
      f"{', '.join(wait_ratio(*r) for r in wb)} against IDEAL-BACKFILL, "
      f"{', '.join(wait_ratio(*r) for r in wm)} against MOLDABLE; "
      f"{', '.join(wait_ratio(*r) for r in wi)} against IDEAL-ONLY (paper: over 70×). "
      + ("Reached." if min(b / max(x, 60) for b, x in wb + wm) >= 5 else
         "Reached only where the ratio is ≥ 5; the rest is missed."))
    w(f"* **Total time about 20 % lower than IDEAL-BACKFILL and MOLDABLE, 7× lower than "
      f"IDEAL-ONLY.** rota: {', '.join(f'{100 * r:.0f} %' for r in tb)} against IDEAL-BACKFILL, "
      f"{', '.join(f'{100 * r:.0f} %' for r in tm)} against MOLDABLE, "
      f"{', '.join(f'{r:.1f}×' for r in xi)} against IDEAL-ONLY.")
    fqfr = []
    for pct in (30, 40, 50):
        for M in (3, 6):
            fq, fr = m10(pct, M, "low-imp-fq", 0), m10(pct, M, "low-imp-fr", 0)
            fqfr.append(f"M = {M}, min_% = {pct}: FQ {fq / hours:.2f} h, FR {fr / hours:.2f} h "
                        f"({'FQ lower' if fq < fr else 'FR lower'})")
    w("* **\\*-FQ waits less than \\*-FR at small M for large min_%** (Figure 10). rota, "
      "Low-Imp: " + "; ".join(fqfr) + ".")
    lo = []
    for M in (3, 6, 9, 12):
        for p in ("low-imp-fq", "even-h-fq"):
            lo.append(m10(10, M, p, 0) <= m10(50, M, p, 0))
    w(f"* **Waiting under \\*-FQ falls as min_% falls** (Figure 12): min_% = 10 waits no "
      f"longer than min_% = 50 in {sum(lo)} of {len(lo)} (policy, M) pairs.")
    best = []
    for M in (9, 12):
        for pct in MIN_PCTS:
            t = {p: m10(pct, M, p, 1) for p in HARVEST}
            best.append(min(t, key=t.get) == "low-imp-fr")
    m3 = [m10(pct, 3, "low-imp-fq", 1) < m10(pct, 3, "low-imp-fr", 1) for pct in MIN_PCTS]
    w(f"* **Low-Imp-FR has the least total time for M ≥ 9 at every min_%; for M = 3 "
      f"Low-Imp-FQ is better** (Figure 13): Low-Imp-FR is the best of the four in "
      f"{sum(best)} of {len(best)} (M ≥ 9, min_%) cases; Low-Imp-FQ beats Low-Imp-FR at M = 3 "
      f"in {sum(m3)} of {len(m3)} min_% values.")
    succ = [stats([r[0] for r in table2[(m, p)]])[0] for p in HARVEST
            for m in ("linear", "parabolic")]
    ev = [stats([r[1] for r in table2[(m, p)]])[0] for p in HARVEST
          for m in ("linear", "parabolic")]
    ad = [stats([r[3] for r in table2[(m, p)]])[0] for p in HARVEST
          for m in ("linear", "parabolic")]
    w(f"* **Harvest success ≥ 96 % with 1-4 harvest events per job** (Table 2). rota: success "
      f"{min(succ):.1f}-{max(succ):.1f} %, {min(ev):.2f}-{max(ev):.2f} harvest SHRINKs per job, "
      f"{min(ad):.2f}-{max(ad):.2f} adaptations (grows and shrinks) per job.")
    return L


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rota", default=os.path.join(ROOT, "build", "bin", "rota"))
    ap.add_argument("--workdir", default="/tmp/rota-malleable")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "reproductions"))
    ap.add_argument("--seeds", type=int, default=5)
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    plt = pyplot()  # first: it may re-run the script under Debian's python3
    t0 = time.time()
    seeds = list(range(1, a.seeds + 1))
    traces = [generate(a.rota, a.workdir, f"weissman_{s}", "--model", "weissman", "--jobs", JOBS,
                       "--seed", s) for s in seeds]
    with open(traces[0]) as f:
        fit_notes = [ln[2:].strip() for ln in f if ln.startswith("; Fit:")
                     or ln.startswith("; Arrivals:")]
    fig9, fig10, table2 = system_runs(a.rota, a.workdir, traces, "")
    traces08 = [generate(a.rota, a.workdir, f"weissman_l08_{s}", "--model", "weissman", "--jobs",
                         JOBS, "--load", 0.8, "--seed", s) for s in seeds]
    runs08 = system_runs(a.rota, a.workdir, traces08, "l08_")

    # User-centric: Figures 15 and 16, Table 3.
    user = {}  # (apps, beta, pct, policy) -> [(wait, total, throughput)]
    for apps in APPS:
        for beta in BETAS:
            for k, sd in enumerate(seeds):
                tr = generate(a.rota, a.workdir, f"apps_{apps}_{beta}_{sd}", "--model",
                              "weissman-apps", "--apps", apps, "--beta", beta, "--jobs",
                              APPS_JOBS, "--seed", sd)
                for pct in USER_PCTS:
                    out = os.path.join(a.workdir, f"u_{apps}_{beta}_{pct}_{k}")
                    d = run(a.rota, tr, USER_POLICIES, out, "--min-pct", pct, "--exec-model",
                            "parabolic", "--adapt-latency", 1, "--adapt-per-byte", 0.00009)
                    for p in USER_POLICIES:
                        s = d[p]["all"]
                        user.setdefault((apps, beta, pct, p), []).append(
                            (s["wait"]["mean"], s["response"]["mean"],
                             throughput(d[p], APPS_JOBS)))
    elapsed = time.time() - t0
    hours = 3600.0

    def series(key_fn, xs, which, unit=hours):
        ms, hs = [], []
        for x in xs:
            m, h, _ = stats([v[which] / unit for v in key_fn(x)])
            ms.append(m)
            hs.append(0 if h != h else h)
        return ms, hs

    # Figure 9: baselines vs Even-H-FQ.
    fig, ax = plt.subplots(2, 2, figsize=(10, 7))
    for col, model in enumerate(("linear", "parabolic")):
        for row, (which, name) in enumerate(((0, "wait"), (1, "total (wait + execution)"))):
            for p in BASELINES + ["even-h-fq"]:
                if p == "ideal-only":
                    continue  # the paper leaves it out: it dwarfs the rest
                m, h = series(lambda x: fig9[(model, x, p)], MIN_PCTS, which)
                ax[row][col].errorbar(MIN_PCTS, m, yerr=h, marker="o", capsize=3, label=p)
            ax[row][col].set_title(f"{model}: mean {name} time")
            ax[row][col].set_xlabel("min_% of ideal")
            ax[row][col].set_ylabel("hours")
            ax[row][col].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "malleable_fig9.png"), dpi=90)

    # Figures 10 and 11: over M; 12 and 13: over min_%.
    fig, ax = plt.subplots(2, 3, figsize=(13, 7))
    xs = [str(M) if M else "none" for M in MS]
    for col, pct in enumerate((10, 30, 50)):
        for row, (which, name) in enumerate(((0, "wait"), (1, "total"))):
            for p in HARVEST:
                m, h = series(lambda M: fig10[(pct, M, p)], MS, which)
                ax[row][col].errorbar(xs, m, yerr=h, marker="o", capsize=3, label=p)
            ax[row][col].set_title(f"min_% = {pct}: mean {name} time")
            ax[row][col].set_xlabel("M (degree of multiprogramming)")
            ax[row][col].set_ylabel("hours")
            ax[row][col].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "malleable_fig10_11.png"), dpi=90)
    for which, name, fname in ((0, "wait", "malleable_fig12.png"),
                               (1, "total", "malleable_fig13.png")):
        fig, ax = plt.subplots(1, 4, figsize=(15, 3.8))
        for col, M in enumerate((3, 6, 9, 12)):
            for p in HARVEST:
                m, h = series(lambda x: fig10[(x, M, p)], MIN_PCTS, which)
                ax[col].errorbar(MIN_PCTS, m, yerr=h, marker="o", capsize=3, label=p)
            ax[col].set_title(f"M = {M}: mean {name} time")
            ax[col].set_xlabel("min_% of ideal")
            ax[col].set_ylabel("hours")
            ax[col].invert_xaxis()  # the paper's figures run from 50 % down to 10 %
            ax[col].legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(a.out, fname), dpi=90)

    # Figure 14: Low-Imp-FR vs the baselines, M = no limit, linear.
    fig, ax = plt.subplots(1, 2, figsize=(10, 3.8))
    for i, (which, name) in enumerate(((0, "wait"), (1, "total"))):
        for p in BASELINES + ["low-imp-fr"]:
            m, h = series(lambda x: fig9[("linear", x, p)], MIN_PCTS, which)
            ax[i].errorbar(MIN_PCTS, m, yerr=h, marker="o", capsize=3, label=p)
        ax[i].set_yscale("log")
        ax[i].set_title(f"mean {name} time (log)")
        ax[i].set_xlabel("min_% of ideal")
        ax[i].set_ylabel("hours")
        ax[i].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "malleable_fig14.png"), dpi=90)

    # Figures 15 and 16: user-centric, over beta.
    for which, name, fname in ((0, "wait", "malleable_fig15.png"),
                               (1, "total", "malleable_fig16.png")):
        fig, ax = plt.subplots(len(APPS), len(USER_PCTS), figsize=(13, 7))
        for r, apps in enumerate(APPS):
            for c, pct in enumerate(USER_PCTS):
                for p in USER_POLICIES:
                    m, h = series(lambda b: user[(apps, b, pct, p)], BETAS, which)
                    ax[r][c].errorbar(BETAS, m, yerr=h, marker="o", capsize=3, label=p)
                ax[r][c].set_yscale("log")
                ax[r][c].set_title(f"{apps.upper()}, min_% = {pct}: mean {name} (log)")
                ax[r][c].set_xlabel("beta")
                ax[r][c].set_ylabel("hours")
                ax[r][c].legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(a.out, fname), dpi=90)

    def m10(pct, M, p, which):
        return stats([v[which] for v in fig10[(pct, M, p)]])[0]

    def um(apps, beta, pct, p, which):
        return stats([v[which] for v in user[(apps, beta, pct, p)]])[0]

    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    L = []
    w = L.append
    w("# [Weissman03] reproduced: integrated scheduling of malleable jobs")
    w("")
    w(f"Generated by `python3 scripts/reproduce_malleable.py` at commit `{commit}` "
      f"({elapsed:.0f} s on this machine); do not edit by hand. Paper: Weissman, Abburi, "
      "England, *Integrated Scheduling: The Best of Both Worlds*, §4.1-4.4.")
    w("")
    w("## Setting")
    w("")
    w(f"* **System-centric workload (§4.2).** `rota generate --model weissman --jobs {JOBS} "
      f"--seed S` for seeds {seeds[0]}-{seeds[-1]} (the paper: 100 traces of 10,000 jobs): "
      "non-stationary Poisson arrivals whose rate follows the hour of the day, the log's "
      "discrete distribution of job sizes and one Weibull distribution of run times, all "
      "fitted to the SDSC SP2 log (`SDSC-SP2-1998-4.2-cln`), on its 128 processors. The fit, "
      "as the generated traces' headers record it:")
    w("")
    w("  ```")
    for n in fit_notes:
        w("  " + (n if len(n) < 160 else n[:157] + "..."))
    w("  ```")
    w("")
    w("  Every figure shows the mean over the seeds with its 95 % t interval. Estimates are "
      "exact (the model has run times only); ideal = the job's size, min = ⌈min_% × ideal⌉; "
      "run time and estimate scale with the execution model (§4.3). Adaptations cost nothing "
      "(§4.3: the overhead of the supercomputer jobs is unknown and ignored).")
    w(f"* **User-centric workload (§4.1).** `rota generate --model weissman-apps --apps "
      f"ge|mixed --beta B --jobs {APPS_JOBS} --seed S` on 64 processors: Table 1's instances, "
      "equally likely, arriving with mean gap RT_ideal / (P / P_ideal) × β; the parabolic "
      "model; each adaptation suspends the job for 1 s + 0.00009 s × the bytes it ships "
      "(`--adapt-latency 1 --adapt-per-byte 0.00009`; the bytes are 2N²·8 / P for STEN and "
      "GE and 2 NumSourceSeqs × SeqBlockSize / P for CL, whose SeqBlockSize the paper does "
      "not give: rota takes 16 KiB). M = no limit.")
    w("* **Policies.** `rota simulate --policy ideal-only,ideal-backfill,moldable,even-h-fq,"
      "even-h-fr,low-imp-fq,low-imp-fr --min-pct P --mpl-limit M --exec-model linear|parabolic`.")
    w("")
    w("## Figure 9: baselines against Even-H-FQ (M = no limit)")
    w("")
    w("![Figure 9](malleable_fig9.png)")
    w("")
    w("| model | min_% | " + " | ".join(f"{p} wait / total (h)" for p in BASELINES + ["even-h-fq"])
      + " |")
    w("|---|---|" + "---|" * 4)
    for model in ("linear", "parabolic"):
        for pct in MIN_PCTS:
            cells = []
            for p in BASELINES + ["even-h-fq"]:
                mw, hw, _ = stats([v[0] / hours for v in fig9[(model, pct, p)]])
                mt, ht, _ = stats([v[1] / hours for v in fig9[(model, pct, p)]])
                cells.append(f"{mw:.2f} ± {hw:.2f} / {mt:.2f} ± {ht:.2f}")
            w(f"| {model} | {pct} | " + " | ".join(cells) + " |")
    w("")
    w("## Figures 10 and 11: the four harvest policies over M (linear)")
    w("")
    w("![Figures 10 and 11](malleable_fig10_11.png)")
    w("")
    w("## Figures 12 and 13: the four harvest policies over min_% (linear)")
    w("")
    w("![Figure 12](malleable_fig12.png)")
    w("")
    w("![Figure 13](malleable_fig13.png)")
    w("")
    w("| M | min_% | " + " | ".join(f"{p} wait / total (h)" for p in HARVEST) + " |")
    w("|---|---|" + "---|" * 4)
    for M in (3, 6, 9, 12):
        for pct in MIN_PCTS:
            cells = [f"{m10(pct, M, p, 0) / hours:.2f} / {m10(pct, M, p, 1) / hours:.2f}"
                     for p in HARVEST]
            w(f"| {M} | {pct} | " + " | ".join(cells) + " |")
    w("")
    w("## Figure 14: Low-Imp-FR against the baselines (M = no limit, linear)")
    w("")
    w("![Figure 14](malleable_fig14.png)")
    w("")
    w("## Table 2: harvest statistics")
    w("")
    w("Averaged as in the paper over every min_% (and, for linear, also over every M of "
      "Figures 10-13 for the success, events and adaptations columns). Events: the SHRINKs of "
      "harvests (one per victim per harvest) per job. Adaptations: every GROW and SHRINK per "
      "job, which the paper's \"harvest events\" may mean (it does not say). \"= or better\": "
      "the share of jobs whose total time is at most their total time under IDEAL-ONLY on the "
      "same trace.")
    w("")
    w("| policy | model | success % (paper) | events / job (paper) | adaptations / job | "
      "% jobs = or better (paper) |")
    w("|---|---|---|---|---|---|")
    for p in HARVEST:
        for mi, model in enumerate(("linear", "parabolic")):
            rows = table2[(model, p)] + (table2[("linear-M", p)] if model == "linear" else [])
            s_m, s_h, _ = stats([r[0] for r in rows])
            e_m, e_h, _ = stats([r[1] for r in rows])
            a_m, a_h, _ = stats([r[3] for r in rows])
            b_m, b_h, _ = stats([r[2] for r in table2[(model, p)]])
            ps, pe, pb = PAPER_TABLE2[p][mi]
            w(f"| {p} | {model} | {s_m:.1f} ± {s_h:.1f} ({ps}) | {e_m:.2f} ± {e_h:.2f} ({pe}) | "
              f"{a_m:.2f} ± {a_h:.2f} | {b_m:.1f} ± {b_h:.1f} ({pb}) |")
    w("")
    w("## Figures 15 and 16: user-centric iScheduling over β (parabolic, M = no limit)")
    w("")
    w("![Figure 15](malleable_fig15.png)")
    w("")
    w("![Figure 16](malleable_fig16.png)")
    w("")
    w("| apps | β | min_% | " + " | ".join(f"{p} wait / total (h)" for p in USER_POLICIES) + " |")
    w("|---|---|---|" + "---|" * len(USER_POLICIES))
    for apps in APPS:
        for beta in BETAS:
            for pct in USER_PCTS:
                cells = [f"{um(apps, beta, pct, p, 0) / hours:.2f} / "
                         f"{um(apps, beta, pct, p, 1) / hours:.2f}" for p in USER_POLICIES]
                w(f"| {apps.upper()} | {beta} | {pct} | " + " | ".join(cells) + " |")
    w("")
    w("## Table 3: GE throughput (jobs per hour)")
    w("")
    w("Jobs per hour from the first submission to the last end, mean ± 95 % interval over the "
      "seeds, the paper's figure in brackets. IO = IDEAL-ONLY, M = MOLDABLE, IB = "
      "IDEAL-BACKFILL, LIFR = Low-Imp-FR.")
    w("")
    w("| β | min_% | IO | M | IB | LIFR |")
    w("|---|---|---|---|---|---|")
    for bi, beta in enumerate(BETAS):
        for pi, pct in enumerate(USER_PCTS):
            cells = []
            for k, p in enumerate(USER_POLICIES):
                m, h, _ = stats([v[2] for v in user[("ge", beta, pct, p)]])
                cells.append(f"{m:.2f} ± {h:.2f} ({PAPER_TABLE3[bi][pi][k]})")
            w(f"| {beta} | {pct} | " + " | ".join(cells) + " |")
    w("")
    w("## The paper's claims, checked")
    w("")
    w("### At the fit's own offered load")
    w("")
    L.extend(system_claims(fig9, fig10, table2))
    w("")
    w("### At offered load 0.8 (`rota generate --model weissman --load 0.8`)")
    w("")
    L.extend(system_claims(*runs08))
    w("")
    w("### User-centric (§4.4, GE and MIXED)")
    w("")
    gw_io, gw_b = [], []
    for apps in APPS:
        for beta in BETAS:
            for pct in USER_PCTS:
                lw = um(apps, beta, pct, "low-imp-fr", 0)
                gw_io.append(um(apps, beta, pct, "ideal-only", 0) / max(lw, 60))
                gw_b.append(min(um(apps, beta, pct, p, 0) for p in
                                ("moldable", "ideal-backfill")) / max(lw, 60))
    w(f"* **User-centric: Low-Imp-FR waits 2-20× less than IDEAL-ONLY and 10 % to 5× less than "
      f"the other baselines** (Figure 15). rota, over GE and MIXED, every β and min_% (a "
      f"Low-Imp-FR wait under a minute counted as a minute): "
      f"{min(gw_io):.1f}-{max(gw_io):.1f}× against IDEAL-ONLY, {min(gw_b):.2f}-{max(gw_b):.2f}× "
      f"against the better of MOLDABLE and IDEAL-BACKFILL.")
    gt_io, gt_b = [], []
    for apps in APPS:
        for beta in BETAS:
            for pct in USER_PCTS:
                lt = um(apps, beta, pct, "low-imp-fr", 1)
                gt_io.append(um(apps, beta, pct, "ideal-only", 1) / lt)
                gt_b.append(min(um(apps, beta, pct, p, 1) for p in
                                ("moldable", "ideal-backfill")) / lt)
    w(f"* **User-centric total time: 2-10× lower than IDEAL-ONLY, 10 % to 3× lower than the "
      f"other baselines** (Figure 16). rota: {min(gt_io):.1f}-{max(gt_io):.1f}× and "
      f"{min(gt_b):.2f}-{max(gt_b):.2f}×.")
    tp = {(b, pct, p): stats([v[2] for v in user[("ge", b, pct, p)]])[0]
          for b in BETAS for pct in USER_PCTS for p in USER_POLICIES}
    lifr_top = sum(1 for b in BETAS for pct in USER_PCTS
                   if max(USER_POLICIES, key=lambda p: tp[(b, pct, p)]) == "low-imp-fr")
    lifr_up = sum(1 for b in BETAS if tp[(b, 10, "low-imp-fr")] >= tp[(b, 50, "low-imp-fr")])
    w(f"* **GE throughput: Low-Imp-FR highest, and higher as min_% falls** (Table 3). rota: "
      f"Low-Imp-FR has the highest throughput in {lifr_top} of {len(BETAS) * len(USER_PCTS)} "
      f"cells; min_% = 10 gives it at least min_% = 50's throughput for {lifr_up} of "
      f"{len(BETAS)} values of β.")
    w("")
    w("## Where the shapes differ, and why")
    w("")
    for line in DIFFERENCES:
        w("* " + line)
    w("")
    with open(os.path.join(a.out, "malleable.md"), "w") as f:
        f.write("\n".join(L))
    print(f"wrote {os.path.join(a.out, 'malleable.md')} in {elapsed:.0f} s")


if __name__ == "__main__":
    main()
