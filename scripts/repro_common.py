"""What the reproduction scripts share: matplotlib from Debian, and the
95 % t intervals their pages report over seeds."""

import math
import os
import sys


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
