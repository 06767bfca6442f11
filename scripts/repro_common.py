"""What the reproduction scripts share: matplotlib from Debian, the 95 % t
intervals their pages report over seeds, and how a page names the rota
and the machine it measured."""

import math
import os
import platform
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pyplot():
    """matplotlib.pyplot with the Agg backend. `python3` may be a pyenv or
    venv interpreter without matplotlib; Debian's python3-matplotlib lives
    with /usr/bin/python3, so the script is re-run with that one once."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        return plt
    except ImportError:
        if (os.path.exists("/usr/bin/python3")
                and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3")
                and not os.environ.get("ROTA_REPRO_REEXEC")):
            os.environ["ROTA_REPRO_REEXEC"] = "1"
            os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
        sys.exit("matplotlib is missing: apt-get install python3-matplotlib")


# Student's t, 97.5 % quantile, by degrees of freedom.
T975 = [None, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
        2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
        2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def tq(df):
    if df < 1:
        return float("nan")
    return T975[df] if df < len(T975) else 1.96 + 2.5 / df


def stats(xs):
    """(mean, half-width of the 95 % t interval, n); half-width nan for n < 2."""
    xs = [x for x in xs if x is not None and not math.isnan(x)]
    n = len(xs)
    if n == 0:
        return (float("nan"), float("nan"), 0)
    m = sum(xs) / n
    if n < 2:
        return (m, float("nan"), n)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return (m, tq(n - 1) * sd / math.sqrt(n), n)


def sig_pos(s):
    """A (mean, half-width, n) whose interval lies wholly above 0."""
    return not math.isnan(s[1]) and s[0] - s[1] > 0


def sig_neg(s):
    """A (mean, half-width, n) whose interval lies wholly below 0."""
    return not math.isnan(s[1]) and s[0] + s[1] < 0


def tree_dirty(script):
    """Tracked sources changed since HEAD (the pages and their plots, and
    the untracked first version of `script`, the page's own generator, do
    not count)."""
    try:
        changed = subprocess.run(
            ["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "--",
             ".", ":!docs/reproductions"] + ([":!scripts/" + script] if script else []),
            capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return True
    return bool(changed)


def describe_binary(path, script):
    """How a page names the rota it measured: path, mtime, source commit,
    and whether the tree had changed since (tree_dirty)."""
    st = os.stat(path)
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(st.st_mtime))
    try:
        commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return {"path": path if not path.startswith(ROOT + os.sep) else os.path.relpath(path, ROOT),
            "built": when, "commit": commit, "dirty": tree_dirty(script)}


def machine_info():
    """The processor, cores, system, Python and load average a page states."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": model, "cores": os.cpu_count(), "system": "%s %s" % (platform.system(), platform.machine()),
            "python": platform.python_version(), "load": os.getloadavg()[0]}


# ---------------------------------------------------------------- provenance
#
# Every page states the commit it was generated from, the command, the CPU
# time of its simulations and its seeds (provenance()). The CPU time is the
# user + system time of the script's child processes (rota generate,
# simulate and sweep, and their children), read with getrusage when the
# page is written: Python's own work (reading results, plotting) is not in it.

def commit_of_tree():
    """HEAD's short hash, with "+ uncommitted changes" when tracked sources differ."""
    try:
        commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + (" + uncommitted changes" if tree_dirty("") else "")


def command_line():
    """The command that made the page: scripts/reproduce.sh's when it ran the
    script (it sets ROTA_REPRO_COMMAND), else python3 and this script's argv."""
    cmd = os.environ.get("ROTA_REPRO_COMMAND")
    if cmd:
        return cmd
    script = os.path.relpath(os.path.abspath(sys.argv[0]), ROOT)
    return " ".join(["python3", script] + sys.argv[1:])


def children_cpu_seconds():
    """User + system CPU seconds of every child process waited for so far."""
    import resource
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def provenance(seeds, note=""):
    """The page's provenance paragraph (markdown): commit, command, CPU time
    of the simulations and seeds. `seeds` is a list, or text; `note` is
    appended (e.g. what --reuse re-rendered from)."""
    if not isinstance(seeds, str):
        seeds = ", ".join(str(s) for s in seeds)
    cpu = children_cpu_seconds()
    text = ("**Provenance.** Commit `%s`; command `%s`; the simulations took %s CPU-seconds "
            "(user + system time of rota's processes); seeds %s." % (
                commit_of_tree(), command_line(), "{:,.0f}".format(cpu) if cpu >= 10 else "%.1f" % cpu,
                seeds))
    if REUSED["from"]:
        text += (" The simulations were not re-run: the page was re-rendered from the results in "
                 "`%s` (`--reuse`), so the CPU time above is that of this invocation only." % REUSED["from"])
    return text + (" " + note if note else "")


# Set by a script that re-renders from earlier results (--reuse).
REUSED = {"from": None}


def add_repro_args(ap, quick_help="a small, fast run (CI) that writes to a temporary directory"):
    """--quick, --reuse and --out, the options scripts/reproduce.sh passes to every script."""
    ap.add_argument("--quick", action="store_true", help=quick_help)
    ap.add_argument("--reuse", action="store_true",
                    help="reuse the runs found in the work directory instead of re-running them")
    ap.add_argument("--out", help="where the page, its figures and its verdicts go "
                                  "(default docs/reproductions; with --quick a temporary directory)")


def out_dir_of(args, page):
    """Where a page goes: --out, else a fresh temporary directory with --quick
    (never over the committed pages), else docs/reproductions."""
    if args.out:
        d = args.out
    elif args.quick:
        import tempfile
        d = tempfile.mkdtemp(prefix="rota-repro-%s-" % page)
    else:
        d = os.path.join(ROOT, "docs", "reproductions")
    os.makedirs(d, exist_ok=True)
    return d


def reusable(path, reuse):
    """Whether an earlier run's output at `path` may stand in for running it
    again: only with --reuse (`reuse` true). Without it a stale file is
    deleted first, so a run that fails cannot leave an old result behind."""
    if reuse and os.path.exists(path):
        REUSED["from"] = REUSED["from"] or os.path.dirname(os.path.abspath(path))
        return True
    if os.path.exists(path):
        if os.path.isdir(path):
            import shutil
            shutil.rmtree(path)
        else:
            os.remove(path)
    return False


# ---------------------------------------------------------------- verdicts
#
# Each script records the verdict of every claim on its page (verdict());
# write_verdicts() puts them beside the page as <page>.verdicts.json, which
# scripts/repro_verdicts.py compares with docs/reproductions/quick-verdicts.json.

VERDICTS = {}
_NORMAL = {"holds": "reached", "reached": "reached", "holds in part": "partly", "partly": "partly",
           "does not hold": "missed", "missed": "missed"}


def verdict(claim, value):
    """Record `claim`'s verdict (reached / partly / missed, or the gang page's
    holds / holds in part / does not hold) and return it unchanged."""
    key = claim
    i = 2
    while key in VERDICTS:
        key = "%s (%d)" % (claim, i)
        i += 1
    VERDICTS[key] = _NORMAL.get(value, value)
    return value


def tally(values):
    """'3 reached, 6 partly, 8 missed of 17' for a list of verdicts."""
    vs = [_NORMAL.get(v, v) for v in values]
    return "%d reached, %d partly, %d missed of %d" % (
        vs.count("reached"), vs.count("partly"), vs.count("missed"), len(vs))


def write_verdicts(out_dir, page):
    import json
    with open(os.path.join(out_dir, page + ".verdicts.json"), "w") as fh:
        json.dump(VERDICTS, fh, indent=1, ensure_ascii=False, sort_keys=True)
        fh.write("\n")
