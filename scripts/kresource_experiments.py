"""Two experiments on suspected causes of the BB-EASY miss of
docs/reproductions/kresource.md (BB-EASY gains a few percent over FF-EASY
where [Leinberger99] §4.3.4 reports 10-50 %):

* load: the page's loads are heavy (FF-EASY waits many mean run times at
  L = 32-128). The same workloads at lighter loads, L = 8 and 16.
* clipping: at V = 1.0 about 31 % of the Normal(0.5, V) draws fall below 0
  and rota clips them to the smallest share. The same jobs with the draws
  below 0 drawn again instead (a truncated normal), both workloads built
  here from the Feitelson 1996 sizes and run times (`--model feitelson96`)
  so that only the rule differs; arrivals calibrated by `rota simulate
  --queue-length` as for the traces.

Both report BB-EASY's gain in average response time over FF-EASY, mean
over the seeds with its 95 % t interval."""

import concurrent.futures
import json
import math
import os
import random
import subprocess

from repro_common import stats

P = 128
CAP = 1000000
LOAD_LS = [8, 16]
LOAD_KS = [2, 4, 8]
LOAD_VS = [0.01, 1.0]
CLIP_KS = [2, 4, 8]
CLIP_V = 1.0
CLIP_L = 64
RULES = ["clip", "redraw"]
POLICIES = ["ff-easy", "bb-easy"]


def summary_gain(js):
    """BB-EASY's normalised gain in average response time, and FF-EASY's mean wait."""
    with open(js) as fh:
        s = json.load(fh)
    ff, bb = s["ff-easy"]["all"]["response"]["mean"], s["bb-easy"]["all"]["response"]["mean"]
    return {"gain": (ff - bb) / ff, "ff_wait": s["ff-easy"]["all"]["wait"]["mean"]}


def run_load(rota, work, spec, jobs):
    K, V, L, seed = spec
    path = os.path.join(work, "xl_K%d_V%g_L%d_s%d.swf" % spec)
    subprocess.run([rota, "generate", "--model", "feitelson-k", "--k", str(K), "--variance", repr(V),
                    "--queue-length", str(L), "--jobs", str(jobs), "--seed", str(seed), "-o", path],
                   check=True, capture_output=True)
    js = path[:-4] + ".json"
    subprocess.run([rota, "simulate", "--trace", path, "--policy", ",".join(POLICIES),
                    "--summary-json", js, "--no-progress"], check=True, capture_output=True)
    r = summary_gain(js)
    r["mean_rt"] = mean_runtime(path)
    return r


def mean_runtime(path):
    n, t = 0, 0
    with open(path) as fh:
        for line in fh:
            if not line.startswith(";") and line.strip():
                n += 1
                t += int(line.split()[3])
    return t / max(1, n)


def base_jobs(rota, work, seed, jobs, tag):
    """(size, run time, first run of its job?) of the Feitelson 1996 model's jobs
    (`tag` keeps the file of each concurrent run apart)."""
    path = os.path.join(work, "xb_s%d_%s.swf" % (seed, tag))
    subprocess.run([rota, "generate", "--model", "feitelson96", "--procs", str(P), "--jobs",
                    str(jobs), "--seed", str(seed), "--load", "1", "-o", path], check=True,
                   capture_output=True)
    out = []
    with open(path) as fh:
        for line in fh:
            if line.startswith(";") or not line.strip():
                continue
            f = line.split()
            out.append((int(f[4]), int(f[3]), f[16] == "-1"))
    os.remove(path)
    return out


def share(rng, V, size, unit, rule):
    """One requirement by §4.1's rule: x ~ Normal(0.5, V), R = x / 0.5 × size / P;
    x < 0 is clipped to the smallest share ("clip", rota's) or drawn again ("redraw")."""
    x = rng.gauss(0.5, V ** 0.5)
    while rule == "redraw" and x <= 0:
        x = rng.gauss(0.5, V ** 0.5)
    return min(1.0, max(unit, x / 0.5 * size / P))


def write_k(base, K, rule, seed, path):
    rng = random.Random(1000 * seed + K)
    with open(path, "w") as fh:
        fh.write("; MaxProcs: %d\n; Pools: %s\n" % (P, " ".join("r%d=%d" % (i, CAP) for i in range(2, K + 1))))
        req = None
        for i, (size, rt, first) in enumerate(base, 1):
            if first or req is None:  # a repeated run keeps its job's requirements
                procs = max(1, min(P, round(share(rng, CLIP_V, size, 1 / P, rule) * P)))
                req = (procs, [max(1, min(CAP, math.ceil(share(rng, CLIP_V, size, 1 / CAP, rule) * CAP)))
                               for _ in range(K - 1)])
            procs, dem = req
            fh.write("%d 0 -1 %d %d -1 -1 %d %d -1 1 -1 -1 -1 -1 -1 -1 -1 %s\n" % (
                i, rt, procs, procs, rt, " ".join(map(str, dem))))


def run_clip(rota, work, spec, jobs):
    K, rule, seed = spec
    path = os.path.join(work, "xc_K%d_%s_s%d.swf" % spec)
    write_k(base_jobs(rota, work, seed, jobs, "K%d_%s" % (K, rule)), K, rule, seed, path)
    js = path[:-4] + ".json"
    subprocess.run([rota, "simulate", "--trace", path, "--queue-length", str(CLIP_L), "--arrival-seed",
                    str(seed), "--policy", ",".join(POLICIES), "--summary-json", js, "--no-progress"],
                   check=True, capture_output=True)
    return summary_gain(js)


def run_all(rota, work, seeds, jobs, parallel):
    """Every run of both experiments: {"load": {spec: r}, "clip": {spec: r}} (specs as JSON text)."""
    specs = [("load", s) for s in ((K, V, L, seed) for seed in seeds for K in LOAD_KS
                                   for V in LOAD_VS for L in LOAD_LS)]
    specs += [("clip", s) for s in ((K, rule, seed) for seed in seeds for K in CLIP_KS for rule in RULES)]
    out = {"load": {}, "clip": {}, "seeds": seeds, "jobs": jobs}

    def one(item):
        kind, spec = item
        fn = run_load if kind == "load" else run_clip
        return kind, spec, fn(rota, work, spec, jobs)
    with concurrent.futures.ThreadPoolExecutor(parallel) as ex:
        for kind, spec, r in ex.map(one, specs):
            out[kind][json.dumps(list(spec))] = r
    return out


def pct(s):
    return "%+.1f ± %.1f" % (100 * s[0], 100 * s[1]) if s[2] > 1 else "%+.1f" % (100 * s[0])


def section(x, out, syn_gain, syn_wait):
    """The page's experiments section. syn_gain(K, V, L) and syn_wait(K, V, L)
    give the main run's BB-EASY gains and FF-EASY waits (in mean run times)."""
    def load_vals(K, V, L, key):
        return [r[key] / (r["mean_rt"] if key == "ff_wait" else 1) for s, r in x["load"].items()
                if json.loads(s)[:3] == [K, V, L]]
    out("## Experiments on the BB-EASY miss")
    out("")
    out("Two suspected causes changed one at a time, seeds %s, %s jobs per workload; BB-EASY's gain "
        "in average response time over FF-EASY, %% (mean ± 95 %% interval), and FF-EASY's mean wait "
        "in mean run times. The paper's range is 10–50 %%." % (
            ", ".join(map(str, x["seeds"])), "{:,}".format(x["jobs"])))
    out("")
    out("**Lighter loads.** The same model at ready-queue lengths 8 and 16 beside the page's 32 and 128:")
    out("")
    out("| K | V | L = 8 | L = 16 | L = 32 | L = 128 | FF-EASY wait / mean run time at 8, 16, 32, 128 |")
    out("|---|---|---|---|---|---|---|")
    light, heavy = [], []
    for K in LOAD_KS:
        for V in LOAD_VS:
            g = [stats(load_vals(K, V, L, "gain")) for L in LOAD_LS] + [
                stats(syn_gain(K, V, L)) for L in (32, 128)]
            w = [stats(load_vals(K, V, L, "ff_wait"))[0] for L in LOAD_LS] + [
                syn_wait(K, V, L) for L in (32, 128)]
            light += [g[0][0], g[1][0]]
            heavy += [g[2][0], g[3][0]]
            out("| %d | %g | %s | %s | %s | %s | %s |" % (K, V, pct(g[0]), pct(g[1]), pct(g[2]), pct(g[3]),
                                                      ", ".join("%.1f" % v for v in w)))
    out("")
    out("Mean gain at L = 8 and 16: %+.1f %%; at L = 32 and 128: %+.1f %%; cells at ≥ 10 %%: %d of %d "
        "at the lighter loads. %s" % (
            100 * sum(light) / len(light), 100 * sum(heavy) / len(heavy),
            sum(1 for v in light if v >= 0.10), len(light),
            "Lighter loads move the gain towards the paper's range." if sum(light) > sum(heavy)
            and any(v >= 0.10 for v in light) else
            "Lighter loads do not move the gain towards the paper's range (FF-EASY still waits several "
            "mean run times at L = 8): within these loads, the load is not the cause."))
    out("")
    out("**The clipping rule** (V = %g, L = %d; both workloads built from the same Feitelson 1996 jobs, "
        "only the rule for draws below 0 differs):" % (CLIP_V, CLIP_L))
    out("")
    out("| K | clipped to the floor (rota) | drawn again | difference, paired by seed |")
    out("|---|---|---|---|")
    moved = []
    for K in CLIP_KS:
        by = {rule: {json.loads(s)[2]: r["gain"] for s, r in x["clip"].items()
                     if json.loads(s)[:2] == [K, rule]} for rule in RULES}
        d = stats([by["redraw"][s] - by["clip"][s] for s in by["clip"] if s in by["redraw"]])
        moved.append(d)
        out("| %d | %s | %s | %s |" % (K, pct(stats(list(by["clip"].values()))),
                                      pct(stats(list(by["redraw"].values()))), pct(d)))
    out("")
    up = sum(1 for d in moved if d[2] > 1 and d[0] - d[1] > 0)
    down = sum(1 for d in moved if d[2] > 1 and d[0] + d[1] < 0)
    out("Drawing again instead of clipping raises the gain significantly at %d of %d K and lowers it "
        "at %d: %s" % (up, len(moved), down,
                       "the clipping rule is part of the miss." if up and not down else
                       "no significant change at any K: the clipping rule does not explain the miss."
                       if not up and not down else "no consistent direction: the clipping rule does "
                       "not explain the miss."))
    out("")
