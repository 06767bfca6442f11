"""SWF traces as workload DataFrames, and back.

A workload is a DataFrame with one row per job and the columns of rota's
default mapping (docs/workloads.md, "Mapping records to jobs"), times in
seconds: job_id, submit, runtime, estimate, procs, user. Its `procs`
attribute (df.attrs["procs"]) is the machine size from the header."""

import gzip
import os

import numpy as np
import pandas as pd

COLUMNS = ["job_id", "submit", "runtime", "estimate", "procs", "user"]


def _header_procs(path):
    opener = gzip.open if _is_gzip(path) else open
    procs = {}
    with opener(path, "rt", errors="replace") as f:
        for line in f:
            s = line.strip()
            if not s:
                continue
            if not s.startswith(";"):
                break
            key, _, value = s[1:].partition(":")
            if key.strip() in ("MaxProcs", "MaxNodes"):
                try:
                    procs[key.strip()] = int(value.split()[0])
                except (ValueError, IndexError):
                    pass
    return procs.get("MaxProcs") or procs.get("MaxNodes")


def _is_gzip(path):
    with open(path, "rb") as f:
        return f.read(2) == b"\x1f\x8b"


def read(path):
    """The jobs of SWF trace `path` (plain or gzipped) under rota's default
    mapping: records that never ran skipped, processors from field 5 else 8,
    the estimate from field 9 else the runtime, the runtime cut to the
    estimate. Dependencies (fields 17 and 18) are not read."""
    raw = pd.read_csv(path, sep=r"\s+", comment=";", header=None, usecols=range(12),
                      compression="gzip" if _is_gzip(path) else None, dtype=np.int64)
    rec_id, submit, run = raw[0].to_numpy(), raw[1].to_numpy(), raw[3].to_numpy()
    procs = np.where(raw[4] > 0, raw[4], raw[7])
    keep = (run > 0) & (submit >= 0) & (procs > 0)
    est = raw[8].to_numpy()
    est = np.where(est > 0, est, run)
    run = np.minimum(run, est)
    df = pd.DataFrame({"job_id": rec_id[keep], "submit": submit[keep], "runtime": run[keep],
                       "estimate": est[keep], "procs": procs[keep].astype(np.int32),
                       "user": raw[11].to_numpy()[keep].astype(np.int32)})
    df.attrs["procs"] = _header_procs(path)
    df.attrs["name"] = os.path.basename(path).split(".")[0]
    return df


def write(df, path, procs=None):
    """Writes workload `df` as an SWF file the simulator maps back to the
    same jobs (fields 5 and 8 the processors, 9 the estimate)."""
    procs = procs or df.attrs.get("procs")
    n = len(df)
    minus = np.full(n, -1, dtype=np.int64)
    cols = [df["job_id"], df["submit"], minus, df["runtime"], df["procs"], minus, minus,
            df["procs"], df["estimate"], minus, np.ones(n, dtype=np.int64), df["user"]]
    cols += [minus] * 6
    table = np.column_stack([np.asarray(c, dtype=np.int64) for c in cols])
    with open(path, "w") as f:
        f.write("; Version: 2.2\n")
        if procs:
            f.write(f"; MaxNodes: {procs}\n; MaxProcs: {procs}\n")
        np.savetxt(f, table, fmt="%d")
