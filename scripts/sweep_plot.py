#!/usr/bin/env python3
"""Plots of a `rota sweep` table: `python3 scripts/sweep_plot.py DIR`.

Reads DIR/table.json (written by `rota sweep`) and draws every
[[sweep.plot]] of the sweep file into DIR/plots/FILE.png (docs/sweeps.md,
"Plots"). A plot draws metric(s) `y` against `x` (a parameter, "policy",
"trace", or another metric), one line per combination of the `series`
keys (default: every axis that varies among the points drawn, but x and
the panels), one panel per value of `panels`, error bars = the sweep's
confidence intervals over seeds. `where` keeps the points whose axis
takes one of the listed values, or that do not set that axis. `logy`
is true (every y) or a list of the y metrics drawn on a log scale. A point that does not set the panel key
(a policy that ignores it) is drawn in every panel.

Exit status 3 when matplotlib is missing: `rota sweep` then says the plots
were skipped. Debian: apt-get install python3-matplotlib.
"""

import json
import math
import os
import sys


def pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        return plt
    except ImportError:
        # `python3` may be a venv without matplotlib; Debian's lives with
        # /usr/bin/python3.
        if (os.path.exists("/usr/bin/python3")
                and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3")
                and not os.environ.get("ROTA_PLOT_REEXEC")):
            os.environ["ROTA_PLOT_REEXEC"] = "1"
            os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
        print("sweep_plot: matplotlib is missing (apt-get install python3-matplotlib)",
              file=sys.stderr)
        sys.exit(3)


def axis_value(row, key):
    """The row's value on an axis, or None when it does not set it."""
    if key == "policy":
        return row["policy"]
    if key == "trace":
        return os.path.basename(row["trace"]) if row["trace"] else None
    return row["params"].get(key)


def metric(row, key):
    m = row["metrics"].get(key)
    if not m or m["mean"] is None:
        return None, None
    return m["mean"], m["ci"]


def label_of(key):
    return key.split(".")[-1] if key.startswith("simulator.") else key


def fmt_value(v):
    if isinstance(v, float) and v == int(v) and abs(v) < 1e15:
        return str(v)
    return str(v)


def sort_key(v):
    return (0, v, "") if isinstance(v, (int, float)) else (1, 0, str(v))


def draw(plt, table, spec, out_dir):
    rows = table["rows"]
    x = spec["x"]
    ys = spec["y"] if isinstance(spec["y"], list) else [spec["y"]]
    x_is_metric = x in table["metrics"] and x not in table["columns"] and x not in (
        "policy", "trace")
    where = spec.get("where", {})
    # A point that does not set a key of `where` is kept (BF sets no
    # migration cost, and belongs beside every gang setting).
    rows = [r for r in rows
            if all(axis_value(r, k) is None or axis_value(r, k) in vals
                   for k, vals in where.items())]
    panels_key = spec.get("panels")
    axes_keys = ["trace"] * bool(table["has_traces"]) + ["policy"] + table["columns"]
    if "series" in spec:
        series_keys = spec["series"]
    else:
        series_keys = []
        for k in axes_keys:
            if k == x or k == panels_key:
                continue
            if len({json.dumps(axis_value(r, k)) for r in rows}) > 1:
                series_keys.append(k)
    if panels_key:
        pv = sorted({axis_value(r, panels_key) for r in rows} - {None}, key=sort_key)
        panels = pv or [None]
    else:
        panels = [None]
    fig, axes = plt.subplots(len(ys), len(panels), squeeze=False,
                             figsize=(4.6 * len(panels) + 1.2, 3.6 * len(ys)))
    for j, pval in enumerate(panels):
        prow = [r for r in rows
                if pval is None or axis_value(r, panels_key) in (pval, None)]
        groups = {}
        for r in prow:
            key = tuple(json.dumps(axis_value(r, k)) for k in series_keys)
            groups.setdefault(key, []).append(r)
        for i, y in enumerate(ys):
            ax = axes[i][j]
            for key, grp in groups.items():
                pts = []
                for r in grp:
                    xv = metric(r, x)[0] if x_is_metric else axis_value(r, x)
                    yv, ci = metric(r, y)
                    if xv is None or yv is None:
                        continue
                    pts.append((xv, yv, ci or 0.0))
                if not pts:
                    continue
                pts.sort(key=lambda p: sort_key(p[0]))
                name = ", ".join(
                    ("%s=%s" % (label_of(k), fmt_value(json.loads(v))) if k != "policy"
                     else str(json.loads(v)))
                    for k, v in zip(series_keys, key) if json.loads(v) is not None) or y
                xs = [p[0] for p in pts]
                if any(isinstance(v, str) for v in xs):
                    xs = [str(v) for v in xs]
                ax.errorbar(xs, [p[1] for p in pts], yerr=[p[2] for p in pts], marker="o",
                            markersize=3, capsize=2, linewidth=1, label=name)
            logy = spec.get("logy")
            if logy is True or (isinstance(logy, list) and y in logy):
                ax.set_yscale("log")
            if spec.get("logx"):
                ax.set_xscale("symlog" if x_is_metric is False else "log")
            ax.set_xlabel(spec.get("xlabel", label_of(x)))
            ax.set_ylabel(spec.get("ylabel", label_of(y)) if len(ys) == 1 else label_of(y))
            if pval is not None:
                ax.set_title("%s = %s" % (label_of(panels_key), fmt_value(pval)), fontsize=9)
            ax.grid(True, alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="center right", fontsize=8)
    if spec.get("title"):
        fig.suptitle(spec["title"])
    fig.tight_layout(rect=(0, 0, 0.82 if handles else 1, 1))
    name = spec.get("file") or "%s_vs_%s.png" % ("_".join(label_of(y) for y in ys), label_of(x))
    if not name.endswith(".png"):
        name += ".png"
    path = os.path.join(out_dir, name)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: sweep_plot.py SWEEP_DIR")
    d = sys.argv[1]
    with open(os.path.join(d, "table.json")) as fh:
        table = json.load(fh)
    if not table.get("plots"):
        return
    plt = pyplot()
    out = os.path.join(d, "plots")
    os.makedirs(out, exist_ok=True)
    for spec in table["plots"]:
        print("sweep_plot: " + draw(plt, table, spec, out), file=sys.stderr)


if __name__ == "__main__":
    main()
