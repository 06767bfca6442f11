"""The workload check of docs/reproductions/kresource.md: rota's feitelson-k
workloads beside [Leinberger99]'s workload figures (§4.1, Figures 2-7).

The paper prints its figures without values; what it says of them is
quoted in PAPER below and each statement is checked on workloads that rota
generates here (`rota generate --model feitelson-k --load 0.9`: the
arrival rate does not change the jobs, so no calibration is needed; the
Feitelson 1996 sizes before the K-resource extension come from
`--model feitelson96`, which draws them from the same distribution)."""

import math
import os
import subprocess

from repro_common import verdict

P = 128
VS = [0.01, 0.1, 1.0]
PAPER = {
    "fig2": "\"the general shape of this distribution is exponential\"; \"a high percentage of "
            "small jobs\"; \"job sizes which are multiples of 2 or squares of integers are more "
            "likely\"; \"the spike at 0.5 represents a job size of 64 CPUs\", \"a little bump "
            "just short of 0.2 represents a job size of 25 CPUs\"",
    "fig3": "K numbers drawn from Normal(mean 0.5, variance V), V in {0.01, 0.1, 1.0}, "
            "\"then scaled with the job size\"",
    "fig4": "\"all R_i have the same distribution\"; \"as the variance increases, the resource "
            "spikes in the Feitelson model are spread out\"; a second curve, the maximum of the "
            "R_i (K = 8), \"used to explain part of our experimental results\"",
    "fig5": "K = 2: \"under the low variance (a), R1 essentially tracks R0\"; at V = 1.0 (c) "
            "\"a significant number of CPU intensive or memory intensive jobs\"",
    "fig67": "the NAS traces' CPU and memory shares (not public; rota's stand-ins, LANL-CM5 and "
             "wagap-2013, are described in the trace section below)",
    "runtime": "\"runtime (weakly correlated to the size)\"; the paper shows no runtime figure",
}


def generate(rota, work, name, args):
    path = os.path.join(work, name + ".swf")
    subprocess.run([rota, "generate"] + args + ["--seed", "1", "-o", path], check=True,
                   stdout=subprocess.DEVNULL)
    return path


def read_swf(path):
    """[(procs, runtime, [pool shares])] and the pools' capacities."""
    caps, jobs = [], []
    with open(path) as fh:
        for line in fh:
            if line.startswith(";"):
                if line.startswith("; Pools:"):
                    caps = [int(x.split("=")[1]) for x in line.split(":", 1)[1].split()]
                continue
            f = line.split()
            if len(f) < 18:
                continue
            procs = int(f[4]) if int(f[4]) > 0 else int(f[7])
            jobs.append((procs, int(f[3]), [int(d) / c for d, c in zip(f[18:18 + len(caps)], caps)]))
    return jobs, caps


def normal_below(x, V):
    """P(Normal(0.5, V) < x)."""
    return 0.5 * (1 + math.erf((x - 0.5) / math.sqrt(2 * V)))


def corr(xs, ys):
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    return sxy / (sx * sy) if sx > 0 and sy > 0 else float("nan")


def size_stats(base):
    n = len(base)
    count = {}
    for p, _, _ in base:
        count[p] = count.get(p, 0) + 1

    def share(s):
        return count.get(s, 0) / n
    pow2 = sum(share(2 ** k) for k in range(1, 8))
    return {"serial": share(1), "small": sum(share(s) for s in range(1, 9)), "pow2": pow2,
            "s64": share(64), "s63_65": (share(63) + share(65)) / 2, "s25": share(25),
            "s24_26": (share(24) + share(26)) / 2, "mean": sum(p for p, _, _ in base) / n / P,
            "count": count, "n": n}


def runtime_stats(jobs):
    rts = sorted(r for _, r, _ in jobs)
    n = len(rts)
    return {"mean": sum(rts) / n, "median": rts[n // 2], "p90": rts[int(0.9 * n)],
            "corr": corr([p for p, _, _ in jobs], [r for _, r, _ in jobs]),
            "corr_log": corr([math.log(p) for p, _, _ in jobs],
                             [math.log(max(1, r)) for _, r, _ in jobs]), "rts": rts}


def requirement_stats(jobs, cap_units):
    """Shares of every pool demand (processors are rounded to whole CPUs, so the
    pools show the R_i rule directly): clipped to the floor (one unit) or to 1."""
    shares = [x for _, _, d in jobs for x in d]
    floor = 1.5 / cap_units
    mx = [max([p / P] + d) for p, _, d in jobs]
    return {"floor": sum(1 for x in shares if x <= floor) / len(shares),
            "ceil": sum(1 for x in shares if x >= 1.0) / len(shares),
            "mean": sum(shares) / len(shares), "mean_max": sum(mx) / len(mx),
            "procs_mean": sum(p for p, _, _ in jobs) / len(jobs) / P,
            "s64": sum(1 for p, _, _ in jobs if p == 64) / len(jobs),
            "shares": shares, "max": mx}


def measure(rota, work, n_jobs):
    """Generates the workloads and measures them: {"base", "runtime", V: {...}}."""
    base = read_swf(generate(rota, work, "wl_base", ["--model", "feitelson96", "--procs", str(P),
                                                      "--jobs", str(n_jobs)]))[0]
    out = {"n": n_jobs, "base": size_stats(base)}
    for V in VS:
        common = ["--model", "feitelson-k", "--variance", repr(V), "--load", "0.9", "--jobs",
                  str(n_jobs)]
        j8, caps = read_swf(generate(rota, work, "wl_k8_v%g" % V, common + ["--k", "8"]))
        j2, _ = read_swf(generate(rota, work, "wl_k2_v%g" % V, common + ["--k", "2"]))
        r = requirement_stats(j8, caps[0])
        r["corr_k2"] = corr([p / P for p, _, _ in j2], [d[0] for _, _, d in j2])
        r["k2"] = [(p / P, d[0]) for p, _, d in j2[:3000]]
        r["expected_floor"] = normal_below(0.0, V)
        out[V] = r
        if V == VS[0]:
            out["runtime"] = runtime_stats(j8)
    return out


def plot(w, plt, path):
    fig, ax = plt.subplots(3, 3, figsize=(13, 11))
    b = w["base"]
    sizes = sorted(b["count"])
    ax[0][0].bar([s / P for s in sizes], [b["count"][s] / b["n"] for s in sizes], width=0.8 / P)
    ax[0][0].set_yscale("log")
    for s in (25, 64):
        ax[0][0].annotate("%d CPUs" % s, (s / P, b["count"].get(s, 0) / b["n"]), fontsize=7,
                          xytext=(3, 6), textcoords="offset points")
    ax[0][0].set(title="Fig. 2: Feitelson sizes on 128 CPUs (feitelson96)", xlabel="size / 128",
                 ylabel="share of jobs (log)")
    xs = [i / 100 for i in range(-150, 251)]
    for V in VS:
        ax[0][1].plot(xs, [math.exp(-(x - 0.5) ** 2 / (2 * V)) / math.sqrt(2 * math.pi * V) for x in xs],
                      label="V = %g (%.1f %% below 0)" % (V, 100 * normal_below(0.0, V)))
    ax[0][1].axvline(0, color="k", lw=0.7)
    ax[0][1].set(title="Fig. 3: Normal(0.5, V); rota clips x < 0 to one unit", xlabel="x")
    ax[0][1].legend(fontsize=7)
    rts = w["runtime"]["rts"]
    edges = [10 ** (k / 4) for k in range(0, 22)]
    ax[0][2].hist(rts, bins=edges)
    ax[0][2].set_xscale("log")
    ax[0][2].set(title="run times (feitelson-k, K = 8, V = 0.01)", xlabel="seconds (log)",
                 ylabel="jobs")
    bins = [i / 50 for i in range(51)]
    for i, V in enumerate(VS):
        r = w[V]
        ax[1][i].hist(r["shares"], bins=bins, density=True, histtype="step", label="R_i (pools)")
        ax[1][i].hist(r["max"], bins=bins, density=True, histtype="step", label="max R_i, K = 8")
        ax[1][i].set_yscale("log")
        ax[1][i].set(title="Fig. 4(%s): V = %g, %.1f %% of R_i at the floor" % (
            "abc"[i], V, 100 * r["floor"]), xlabel="share of the resource")
        ax[1][i].legend(fontsize=7)
        x0, x1 = zip(*r["k2"])
        ax[2][i].scatter(x0, x1, s=2, alpha=0.3)
        ax[2][i].set(title="Fig. 5(%s): K = 2, V = %g, corr %.2f" % ("abc"[i], V, r["corr_k2"]),
                     xlabel="R0 (processors)", ylabel="R1", xlim=(0, 1), ylim=(0, 1))
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def judge(key, ok, part):
    return verdict(key, "reached" if ok else "partly" if part else "missed")


def verdicts(w):
    """The workload statements checked, as (key, verdict, rota's numbers)."""
    b = w["base"]
    lo, hi = w[VS[0]], w[VS[-1]]
    rows = [
        ("W1", "Fig. 2: many small jobs, exponential-like shape",
         judge("W1: Fig. 2 many small jobs", b["small"] >= 0.5, b["small"] >= 0.3),
         "%.1f %% of jobs use at most 8 CPUs, %.1f %% are serial; mean size %.3f of the machine"
         % (100 * b["small"], 100 * b["serial"], b["mean"])),
        ("W2", "Fig. 2: a spike at 0.5 (64 CPUs)",
         judge("W2: Fig. 2 spike at 64 CPUs", b["s64"] >= 5 * b["s63_65"], b["s64"] > b["s63_65"]),
         "64 CPUs: %.2f %% of jobs, against %.3f %% for 63 and 65 on average (powers of two: %.1f %%)"
         % (100 * b["s64"], 100 * b["s63_65"], 100 * b["pow2"])),
        ("W3", "Fig. 2: a bump just short of 0.2 (25 CPUs)",
         judge("W3: Fig. 2 bump at 25 CPUs", b["s25"] >= 2 * b["s24_26"], b["s25"] > b["s24_26"]),
         "25 CPUs: %.2f %% of jobs, against %.3f %% for 24 and 26 on average"
         % (100 * b["s25"], 100 * b["s24_26"])),
        ("W4", "Fig. 4: the spikes spread out as V grows",
         judge("W4: Fig. 4 spikes spread with V", hi["s64"] < lo["s64"] / 2, hi["s64"] < lo["s64"]),
         "jobs at exactly 64 CPUs: " + ", ".join("V %g %.2f %%" % (V, 100 * w[V]["s64"]) for V in VS)),
        ("W5", "Fig. 4: the maximum of the R_i moves up as V grows (K = 8)",
         judge("W5: Fig. 4 max R_i grows with V", all(w[a]["mean_max"] < w[c]["mean_max"]
                                                      for a, c in zip(VS, VS[1:])),
               hi["mean_max"] > lo["mean_max"]),
         "mean max R_i: " + ", ".join("V %g %.3f" % (V, w[V]["mean_max"]) for V in VS)),
        ("W6", "Fig. 5: at V = 0.01 R1 essentially tracks R0; at V = 1.0 it does not",
         judge("W6: Fig. 5 R1 tracks R0 at low V", lo["corr_k2"] >= 0.9 and hi["corr_k2"] < 0.7,
               lo["corr_k2"] >= 0.9),
         "correlation of R0 and R1 (K = 2): " + ", ".join("V %g %.2f" % (V, w[V]["corr_k2"]) for V in VS)),
        ("W7", "runtime weakly correlated to the size",
         judge("W7: runtime weakly correlated with size", 0 < w["runtime"]["corr_log"] < 0.5,
               w["runtime"]["corr_log"] > 0),
         "correlation of log size and log run time %.2f (linear %.2f); run time mean %s s, median "
         "%s s, 90th percentile %s s" % (w["runtime"]["corr_log"], w["runtime"]["corr"],
                                        "{:,.0f}".format(w["runtime"]["mean"]),
                                        "{:,}".format(w["runtime"]["median"]),
                                        "{:,}".format(w["runtime"]["p90"]))),
    ]
    return rows


def section(w, out, esc, bl_effect):
    """The page's workload section (markdown through `out`)."""
    out("## The workload beside the paper's (Figures 2–7)")
    out("")
    out("[Leinberger99] §4.1 builds its synthetic workloads from Feitelson's 1996 model (the "
        "Parallel Workloads Archive's code, which rota does not have: rota rebuilds the model from "
        "its published description, [workloads.md](../workloads.md#the-feitelson-k-model---model-feitelson-k)) "
        "and extends it to K resources. The paper prints Figures 2–7 without values; each row quotes "
        "what it says of them and checks it on %s-job workloads of rota's (seed 1; "
        "`rota generate --model feitelson-k --k K --variance V`, sizes before the extension from "
        "`--model feitelson96`). Criteria: W1 at least half the jobs at ≤ 8 CPUs (partly 30 %%); W2 64 CPUs "
        "at least 5 × as frequent as 63 and 65 (partly: more frequent); W3 25 CPUs at least 2 × as "
        "frequent as 24 and 26; W4 the share at exactly 64 CPUs halved from V = 0.01 to 1.0; W5 the "
        "mean maximum rising with V; W6 correlation ≥ 0.9 at V = 0.01 and < 0.7 at V = 1.0; W7 a "
        "positive correlation of log size and log run time under 0.5." % "{:,}".format(w["n"]))
    out("")
    out("![rota's workload figures](kresource_workload.png)")
    out("")
    out("| # | the paper | rota | verdict |")
    out("|---|---|---|---|")
    rows = verdicts(w)
    for key, claim, v, txt in rows:
        out("| %s | %s | %s | **%s** |" % (key, esc(claim), esc(txt), v))
    out("")
    out("What the paper says of each figure: Fig. 2, %s. Fig. 3, %s. Fig. 4, %s. Fig. 5, %s. "
        "Figs. 6–7, %s. Run times: %s." % (PAPER["fig2"], PAPER["fig3"], PAPER["fig4"],
                                           PAPER["fig5"], PAPER["fig67"], PAPER["runtime"]))
    out("")
    out("### rota's own readings of §4.1 and §3, and their effect")
    out("")
    out("| V | Normal draws below 0 (expected) | R_i clipped to the floor (one unit) | R_i clipped "
        "to 1 | mean R_i | mean processor share | mean max R_i (K = 8) |")
    out("|---|---|---|---|---|---|---|")
    for V in VS:
        r = w[V]
        out("| %g | %.1f %% | %.1f %% | %.2f %% | %.3f | %.3f | %.3f |" % (
            V, 100 * r["expected_floor"], 100 * r["floor"], 100 * r["ceil"], r["mean"],
            r["procs_mean"], r["mean_max"]))
    out("")
    base_mean = w["base"]["mean"]
    hi = w[VS[-1]]
    out("* **The R_i rule.** §4.1 draws K numbers from Normal(0.5, V) \"and then scaled with the "
        "job size\"; rota reads this as R_i = x_i / 0.5 × size / 128 for every resource, the "
        "processors included (the processors are not the model's size but R_0 × 128, rounded). "
        "Effect: the mean processor share is %.3f at V = %g and %.3f at V = %g against the model's "
        "mean size %.3f, so the same ready-queue length L is reached with jobs of a different mean "
        "size at each V; and the model's spikes do not survive in the processor requests: %.2f %% of "
        "the model's jobs ask for exactly 64 CPUs, of the K-resource jobs %s. Reading §4.1 as "
        "keeping the model's size as the processor requirement and drawing only the other K − 1 "
        "would keep them; the paper does not say which it did." % (
            w[VS[0]]["procs_mean"], VS[0], hi["procs_mean"], VS[-1], base_mean,
            100 * w["base"]["s64"], ", ".join("%.2f %% at V = %g" % (100 * w[V]["s64"], V) for V in VS)))
    out("* **Clipping.** A draw below 0 has no meaning as a requirement; the paper does not say "
        "what it did with one. rota clips it to the smallest share (one CPU, one unit of a pool) "
        "and clips shares above 1 to 1. Effect: %s of the R_i sit at the floor, which raises "
        "the mean requirement (a clipped draw counts as ≈ 0 instead of a negative number) and "
        "makes many jobs lopsided at V = 1.0: tiny in one resource, large in another. Its effect on "
        "the gains is measured in *Experiments on the BB-EASY miss* below." % (
            ", ".join("%.1f %% at V = %g" % (100 * w[V]["floor"], V) for V in VS)))
    out("* **BL's mismatch factor 2** is rota's (the paper gives BL no number): %s" % bl_effect)
    out("")
    return [r[2] for r in rows]
