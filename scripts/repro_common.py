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
             ".", ":!docs/reproductions", ":!scripts/" + script],
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
