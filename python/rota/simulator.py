"""rota.simulate and rota.generate: the simulator from Python.

Preset policies run in the rota tool (build/bin/rota), the simulator
itself, whose Batsim CSV and summary JSON are read back; a policy with
Python hooks runs in this process (rota.replay), on the same event loop.
The tool hands the per-job outcomes over as .npy records (--jobs-npy),
which numpy maps without parsing text."""

import dataclasses
import json
import os
import tempfile

import numpy as np
import pandas as pd

from . import _cli, swf
from .outcomes import _STATES, BATSIM_COLUMNS
from .policy import HOOKS
from .inprocess import run as replay_run


@dataclasses.dataclass
class Result:
    """One policy's run: `summary` as `rota simulate --summary-json` has it
    (a dict), `jobs` the per-job outcomes in Batsim's _jobs.csv columns."""

    summary: dict
    jobs: pd.DataFrame

    def __iter__(self):  # summary, jobs = rota.simulate(...)
        return iter((self.summary, self.jobs))


@dataclasses.dataclass
class Policy:
    """A policy for simulate(): a preset plus Python hooks (and any other
    engine configuration, as a dict merged over the preset's)."""

    preset: str = "easy"
    hooks: dict = dataclasses.field(default_factory=dict)
    config: dict = dataclasses.field(default_factory=dict)


_BATSIM_DTYPES = {"job_id": np.int64, "workload_name": str, "profile": str,
                  "submission_time": np.int64, "requested_number_of_resources": np.int32,
                  "requested_time": np.int64, "success": np.int8, "final_state": str,
                  "starting_time": np.int64, "execution_time": np.int64,
                  "finish_time": np.int64, "waiting_time": np.int64,
                  "turnaround_time": np.int64, "stretch": np.float64,
                  "allocated_resources": str, "consumed_energy": np.int64, "metadata": str}


def read_batsim(path):
    """A Batsim _jobs.csv as written by `rota simulate --batsim-csv`."""
    return pd.read_csv(path, dtype=_BATSIM_DTYPES, na_filter=False)


def read_jobs_npy(path, workload_name):
    """The frame read_batsim gives for the same run, from `rota simulate
    --jobs-npy` (records in `path`; their allocated_resources are line
    numbers in `path`.nodes, which holds each distinct text once)."""
    rec = np.load(path)
    n = len(rec)
    with open(path + ".nodes", "rb") as f:
        texts = f.read().decode("ascii").split("\n")
    texts.pop()  # after the last newline
    cols = {}
    for c in BATSIM_COLUMNS:
        if c in ("workload_name", "profile", "metadata"):
            col = np.empty(n, dtype=object)  # np.full(n, str, object) costs 50 ms on 200k
            col.fill(workload_name if c == "workload_name" else "delay" if c == "profile" else "")
        elif c == "final_state":
            col = _STATES[rec["final_state"]]
        elif c == "allocated_resources":
            col = np.array(texts, dtype=object)[rec["allocated_resources"]]
        else:
            col = rec[c]  # the field's dtype is the column's
        cols[c] = col
    # Not consolidated: the numeric columns stay views of the records (a
    # copy into pandas' blocks would gather each field across 86-byte
    # records, the largest cost left on a large trace).
    return pd.DataFrame(cols, copy=False)


def _workload_name(provenance):
    """Batsim's workload_name for a run, as the tool writes it (workload_stem
    in sim/main.cpp): the trace's file name up to its first dot, or the
    generator's model name."""
    p = provenance or {}
    name = (p.get("trace") or {}).get("path") or (p.get("workload") or {}).get("model") or ""
    name = name[name.rfind("/") + 1:]
    dot = name.find(".")
    if dot > 0:
        name = name[:dot]
    for c in ', "\n':
        name = name.replace(c, "_")
    return name or "w0"


def workload(trace):
    """The jobs of an SWF trace as a DataFrame (rota's default mapping)."""
    return swf.read(os.fspath(trace))


def generate(model="lublin", **keys):
    """A synthetic workload from `rota generate --model MODEL` (keys are its
    flags: jobs=5000, procs=256, load=0.6, seed=7), as a workload DataFrame.
    Its SWF file stays beside it (df.attrs["path"]) while the frame lives,
    so simulate() hands the simulator the file itself."""
    tmp = tempfile.TemporaryDirectory(prefix="rota-gen-")
    path = os.path.join(tmp.name, f"{model}.swf")
    _cli.run(["generate", "--model", model, "-o", path] + _cli.flags(keys))
    df = swf.read(path)
    df.attrs.update(path=path, name=model, _tmp=tmp)
    return df


def _split(policy):
    """{name: preset str or Policy} from what simulate() accepts."""
    if isinstance(policy, (str, Policy)):
        items = [policy]
    elif callable(policy):
        items = [Policy(hooks={"backfill_select": policy})]
    elif isinstance(policy, dict):
        if any(k in HOOKS or k == "preset" for k in policy):  # one policy as a dict
            return {"python": _policy_from_dict(policy)}
        return {k: (_policy_from_dict(v) if isinstance(v, dict) else v) for k, v in policy.items()}
    else:
        items = list(policy)
    out = {}
    for p in items:
        if isinstance(p, str):
            for name in p.split(","):
                out[name.strip()] = name.strip()
        else:
            out["python" if "python" not in out else f"python{len(out)}"] = p
    return out


def _policy_from_dict(d):
    d = dict(d)
    preset = d.pop("preset", "easy")
    hooks = {k: d.pop(k) for k in list(d) if k in HOOKS}
    return Policy(preset, hooks, d)


def simulate(trace=None, policy="easy", procs=None, config=None, **keys):
    """Simulates `trace` (an SWF path, a workload DataFrame, or None for the
    simulator's built-in generated workload) under `policy`:

      "easy", "easy,conservative", ["fcfs", "easy"]   presets, in the rota tool
      {"preset": "easy", "backfill_select": fn}        Python hooks, in this process
      {"mine": {...}, "easy": "easy"}                  several, named

    One policy gives a Result (summary dict, jobs DataFrame); several give
    {name: Result} (rota.combine makes one frame of it). `keys` are the
    tool's flags (max_jumps=10, cycle=60); `config` a TOML file for it."""
    runs = _split(policy)
    results = {}
    presets = [n for n, p in runs.items() if isinstance(p, str)]
    with tempfile.TemporaryDirectory(prefix="rota-sim-") as tmp:
        path = _trace_path(trace, tmp, procs)
        if presets:
            results.update(_run_tool(path, presets, procs, config, keys, tmp))
        for name, p in runs.items():
            if not isinstance(p, str):
                results[name] = _run_python(trace, path, p, procs)
    ordered = {n: results[n] for n in runs}
    return next(iter(ordered.values())) if len(ordered) == 1 else ordered


def _trace_path(trace, tmp, procs):
    if trace is None:
        return None
    if isinstance(trace, pd.DataFrame):
        if trace.attrs.get("path"):
            return trace.attrs["path"]
        p = os.path.join(tmp, f"{trace.attrs.get('name', 'workload')}.swf")
        swf.write(trace, p, procs)
        return p
    return os.fspath(trace)


def _run_tool(path, presets, procs, config, keys, tmp):
    npy = os.path.join(tmp, "jobs.npy")
    js = os.path.join(tmp, "summary.json")
    args = ["simulate", "--policy", ",".join(presets), "--jobs-npy", npy,
            "--summary-json", js, "--no-progress"]
    if path is not None:
        args += ["--trace", path]
    if procs:
        args += ["--procs", procs]
    if config:
        args.append(os.fspath(config))
    _cli.run(args + _cli.flags(keys))
    with open(js) as f:
        summary = json.load(f)
    out = {}
    for name in presets:
        s = summary[name]
        jobs = read_jobs_npy(npy if len(presets) == 1 else os.path.join(tmp, f"jobs.{name}.npy"),
                             _workload_name(s.get("provenance") or summary.get("provenance")))
        s["provenance"] = summary.get("provenance")
        out[name] = Result(s, jobs)
    return out


def _run_python(trace, path, p, procs):
    if path is None:
        raise ValueError("a policy with Python hooks needs a trace or a workload DataFrame")
    jobs = trace if isinstance(trace, pd.DataFrame) else swf.read(path)
    procs = procs or jobs.attrs.get("procs")
    if not procs:
        raise ValueError("the machine size is not in the trace's header: give procs=")
    config = {"machine": {"procs": int(procs)}, "scheduler": {"preset": p.preset}}
    for k, v in p.config.items():
        config[k] = {**config.get(k, {}), **v} if isinstance(v, dict) else v
    return replay_run(config, jobs, p.hooks, jobs.attrs.get("name", "workload"))


def combine(results):
    """{name: Result} as one jobs frame with a `policy` column first."""
    frames = [r.jobs.assign(policy=name) for name, r in results.items()]
    df = pd.concat(frames, ignore_index=True)
    return df[["policy"] + BATSIM_COLUMNS]
