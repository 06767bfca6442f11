"""The closing notes of docs/reproductions/malleable.md ("Where the shapes
differ, and why"), every number in them computed from the runs that
reproduce_malleable.py made (or from the traces it generated); the paper's
values come from its tables, transcribed in reproduce_malleable.py."""

import gzip
import os

from repro_common import ROOT, stats

TRACES_DIR = os.environ.get("ROTA_TRACES") or os.path.normpath(os.path.join(ROOT, "..", "shared", "traces"))
SDSC_LOG = "SDSC-SP2-1998-4.2-cln.swf.gz"
GE_PROC_SECONDS = 30729  # [Weissman03] Table 1: the GE instances' mean processor-seconds at ideal


def offered_load(path, procs=None):
    """Work (processors × run time) over processors × the submission span of an SWF file."""
    opener = gzip.open if path.endswith(".gz") else open
    work, first, last = 0.0, None, None
    with opener(path, "rt") as fh:
        for line in fh:
            if line.startswith(";"):
                if procs is None and line.startswith("; MaxProcs:"):
                    procs = int(line.split(":")[1])
                continue
            f = line.split()
            if len(f) < 8:
                continue
            sub, run, p = float(f[1]), float(f[3]), int(f[4]) if int(f[4]) > 0 else int(f[7])
            if run > 0 and p > 0:
                work += run * p
            first = sub if first is None else min(first, sub)
            last = sub if last is None else max(last, sub)
    return work / (procs * max(1.0, last - first))


def fit_load(path):
    """The expected offered load the generator wrote in the trace's header."""
    with open(path) as fh:
        for line in fh:
            if "expected offered load" in line:
                return float(line.split("expected offered load")[1].split()[0])
    return float("nan")


def rng(xs, fmt="{:.2f}"):
    lo, hi = min(xs), max(xs)
    return fmt.format(lo) if fmt.format(lo) == fmt.format(hi) else (fmt + "-" + fmt).format(lo, hi)


def mean_of(rows, i):
    return stats([r[i] for r in rows])[0]


def note_load(c):
    cuts, cuts08 = c["wait_cuts"](c["fig9"]), c["wait_cuts"](c["runs08"][0])
    measured = stats([offered_load(t, 128) for t in c["traces"]])[0]
    log = os.path.join(TRACES_DIR, SDSC_LOG)
    log_text = ("The log itself offers %.2f, because its wide jobs also run long. " % offered_load(log, 128)
                if os.path.exists(log) else "")
    held = [p for p, x in zip(c["MIN_PCTS"], cuts08) if x >= 5]
    short = [x for x in cuts08 if x < 5]
    return ("**The offered load.** §4.2 draws sizes and run times independently, so the SDSC fit "
            "offers a load of %.2f on 128 processors (%.2f measured over these %d traces of %s jobs). "
            "%sThe paper does not give its load. Two loads are shown: the fit's own, and 0.8, where "
            "every policy queues more. The paper's ≥ 5× cut in waiting time holds at the fit's load "
            "for %d of %d min_%% values; at 0.8 for %s%s." % (
                fit_load(c["traces"][0]), measured, len(c["traces"]), "{:,}".format(c["JOBS"]),
                log_text, sum(x >= 5 for x in cuts), len(cuts),
                ("min_%% in %s" % held) if held else "none",
                (" (%s× where it does not)" % rng(short, "{:.1f}")) if short else ""))


def note_events(c):
    def ranges(table2):
        ev = [mean_of(table2[(m, p)], 4) for p in c["HARVEST"] for m in ("linear", "parabolic")]
        su = [mean_of(table2[(m, p)], 0) for p in c["HARVEST"] for m in ("linear", "parabolic")]
        fr = [mean_of(table2[("linear", p)], 1) for p in ("low-imp-fr", "even-h-fr")]
        fq = [mean_of(table2[("linear", p)], 1) for p in ("low-imp-fq", "even-h-fq")]
        return ev, su, sum(fr) / max(1e-9, sum(fq))
    ev, su, ratio = ranges(c["table2"])
    ev8, su8, ratio8 = ranges(c["runs08"][2])
    paper = [v[m][1] for v in c["PAPER_TABLE2"].values() for m in (0, 1)]
    return ("**Harvest events per job that can be harvested** (min < ideal, the reading of "
            "Table 2's denominator explained there) are %s at the fit's load and %s at 0.8 (M = "
            "no limit, every min_%%); the paper reports %s. Harvests follow the load. FR's events over FQ's (linear): %.2f "
            "at the fit's load, %.2f at 0.8 (paper about 2). Success rates: %s %% and %s %% "
            "(paper %s %%)." % (
                rng(ev), rng(ev8), rng(paper, "{:.1f}"), ratio, ratio8, rng(su, "{:.0f}"),
                rng(su8, "{:.0f}"),
                rng([v[m][0] for v in c["PAPER_TABLE2"].values() for m in (0, 1)], "{:.0f}")))


def note_fr(c):
    def fq_best(fig10):
        cells = [(M, pct) for M in c["MS"] for pct in c["MIN_PCTS"]]
        best = [min(c["HARVEST"], key=lambda p: mean_of(fig10[(pct, M, p)], 1)) for M, pct in cells]
        return sum(b == "low-imp-fq" for b in best), sum(b == "low-imp-fr" for b in best), len(cells)
    a, b, n = fq_best(c["fig10"])
    a8, b8, _ = fq_best(c["runs08"][1])
    return ("**FR against FQ at high M.** In the paper, Low-Imp-FR has the least total time for "
            "M ≥ 9 (Figure 13). In rota, over the %d (M, min_%%) cells, Low-Imp-FQ has the least "
            "total time in %d and Low-Imp-FR in %d at the fit's load (%d and %d at 0.8). FR gives the "
            "processors freed by an end to running jobs once M is met; under the linear model a grow "
            "does no more work per processor-second than a start, so FR trades queued jobs' waiting "
            "for running jobs' execution (Figure 13 shows the intervals). rota's "
            "`distribution/favor_running.lua` follows §2.2: it grows running jobs by the inverse of "
            "the harvest policy (low_impact: the job with the smallest share of its ideal first). "
            "The paper gives no more detail, and the cause of the difference is not established." % (
                n, a, b, a8, b8))


def note_user(c):
    loads = {apps: stats([offered_load(t, 64) for t in ts])[0] for apps, ts in c["apps_traces"].items()}
    return ("**The user-centric workloads are overloaded.** The paper's inter-arrival formula "
            "RT_ideal / (P / P_ideal) × β uses the mean run time times the mean width. Work per job is "
            "the mean of their product, which is larger because Table 1's longest instances are also "
            "its widest. The offered load at β = 1 is %s, so queues grow over the whole trace. Waits "
            "therefore depend on the trace's length (%s jobs here; the paper does not give its own). "
            "Ratios between policies mean more than the hours." % (
                " and ".join("%.2f for %s" % (v, k.upper()) for k, v in loads.items()),
                "{:,}".format(c["APPS_JOBS"])))


def note_table3(c):
    user, P3 = c["user"], c["PAPER_TABLE3"]
    pcts, betas = c["USER_PCTS"], c["BETAS"]

    def tp(b, pct, p):
        return mean_of(user[("ge", b, pct, p)], 2)
    io = stats([tp(b, pct, "ideal-only") for b in betas for pct in pcts])[0]
    paper_io = stats([P3[bi][pi][0] for bi in range(len(betas)) for pi in range(len(pcts))])[0]
    cells = [(bi, pi) for bi in range(len(betas)) for pi in range(len(pcts))]
    m_io = [tp(betas[bi], pcts[pi], "moldable") / tp(betas[bi], pcts[pi], "ideal-only") for bi, pi in cells]
    l_io = [tp(betas[bi], pcts[pi], "low-imp-fr") / tp(betas[bi], pcts[pi], "ideal-only") for bi, pi in cells]
    pm = [P3[bi][pi][1] / P3[bi][pi][0] for bi, pi in cells]
    pl = [P3[bi][pi][3] / P3[bi][pi][0] for bi, pi in cells]
    lead = [(betas[bi], pcts[pi]) for bi, pi in cells
            if tp(betas[bi], pcts[pi], "low-imp-fr") > tp(betas[bi], pcts[pi], "moldable")]
    return [
        "**Table 3's throughput is %.1f× the paper's for IDEAL-ONLY** (%.1f jobs/h against %.2f). "
        "Under saturation throughput is the service rate. Table 1's GE instances on 64 processors "
        "allow at most 64 × 3600 / %s processor-seconds per job = %.1f jobs/h at their ideal, so "
        "compare ratios. MOLDABLE / IDEAL-ONLY: paper %s, rota %s. Low-Imp-FR / IDEAL-ONLY: paper "
        "%s, rota %s." % (io / paper_io, io, paper_io, "{:,}".format(GE_PROC_SECONDS),
                          64 * 3600 / GE_PROC_SECONDS, rng(pm), rng(m_io), rng(pl), rng(l_io)),
        "**MOLDABLE against Low-Imp-FR in Table 3.** Low-Imp-FR out-produces MOLDABLE in %d of %d "
        "cells%s. Under the parabolic model a job on P processors uses P × T(P) = a + bP² "
        "processor-seconds, fewer on fewer processors. MOLDABLE keeps every job at the size it "
        "started with; Low-Imp-FR grows running jobs back towards ideal (favor running) and pays "
        "1 s plus the bytes shipped for each grow and shrink, so it does more work for the same "
        "jobs." % (len(lead), len(cells), (" (β, min_%%): %s" % ", ".join("(%g, %d)" % x for x in lead))
                   if lead else ""),
    ]


def differences(c):
    """The notes, as markdown list items (without the leading "* ")."""
    return [note_load(c), note_events(c), note_fr(c), note_user(c)] + note_table3(c)
