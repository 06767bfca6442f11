"""Per-job outcomes as Batsim's _jobs.csv frame, and the summary of a run
played in this process (rota.replay)."""

import numpy as np
import pandas as pd

BATSIM_COLUMNS = ["job_id", "workload_name", "profile", "submission_time",
                  "requested_number_of_resources", "requested_time", "success", "final_state",
                  "starting_time", "execution_time", "finish_time", "waiting_time",
                  "turnaround_time", "stretch", "allocated_resources", "consumed_energy",
                  "metadata"]
BOUNDED_SLOWDOWN_THRESHOLD = 10.0  # seconds, Γ of docs/workloads.md
_STATES = np.array(["", "COMPLETED_SUCCESSFULLY", "COMPLETED_WALLTIME_REACHED", "REJECTED"],
                   dtype=object)


def node_runs(nodes):
    """Nodes as Batsim writes them: runs of consecutive numbers, "0-3 8"."""
    out, i = [], 0
    while i < len(nodes):
        j = i
        while j + 1 < len(nodes) and nodes[j + 1] == nodes[j] + 1:
            j += 1
        out.append(str(nodes[i]) if i == j else f"{nodes[i]}-{nodes[j]}")
        i = j + 1
    return " ".join(out)


def batsim_frame(jobs, start, finish, state, nodes, name):
    """The frame `rota simulate --batsim-csv` writes: jobs that never ended
    left out, rejected ones with times -1."""
    keep = state > 0
    sub = jobs["submit"].to_numpy(np.int64)[keep]
    st, fi, s = start[keep], finish[keep], state[keep]
    rejected = s == 3
    execution = np.where(rejected, -1, fi - st)
    waiting = np.where(rejected, -1, st - sub)
    turnaround = np.where(rejected, -1, fi - sub)
    with np.errstate(divide="ignore", invalid="ignore"):
        # rounded as the tool prints it (%.6f), so that both frames compare equal
        stretch = np.round(np.where(rejected | (execution <= 0), -1.0, turnaround / execution), 6)
    idx = np.flatnonzero(keep)
    return pd.DataFrame({
        "job_id": jobs["job_id"].to_numpy()[keep],
        "workload_name": name,
        "profile": "delay",
        "submission_time": sub,
        "requested_number_of_resources": jobs["procs"].to_numpy()[keep],
        "requested_time": jobs["estimate"].to_numpy()[keep],
        "success": (s == 1).astype(np.int8),
        "final_state": _STATES[s],
        "starting_time": np.where(rejected, -1, st),
        "execution_time": execution,
        "finish_time": np.where(rejected, -1, fi),
        "waiting_time": waiting,
        "turnaround_time": turnaround,
        "stretch": stretch,
        "allocated_resources": [node_runs(nodes[i]) for i in idx],
        "consumed_energy": -1,
        "metadata": "",
    })


def bounded_slowdown(frame, threshold=BOUNDED_SLOWDOWN_THRESHOLD):
    """max(response, Γ) / max(execution, Γ) of every job that ran."""
    ran = frame[frame["final_state"] != "REJECTED"]
    return (np.maximum(ran["turnaround_time"], threshold)
            / np.maximum(ran["execution_time"], threshold))


def summary(frame, engine, procs, cpu):
    """The headline metrics of a run played in this process, named as in
    `rota simulate --summary-json`."""
    ran = frame[frame["final_state"] != "REJECTED"]
    counts = frame["final_state"].value_counts()
    hooks = {}
    for h, st in engine.hook_stats().items():
        hooks[h] = {"calls": st["calls"], "failures": st["failures"],
                    "seconds": st["nanoseconds"] / 1e9, "skipped": st["skipped"],
                    "quarantined": st["quarantined"]}
    return {
        "jobs": {"total": len(frame), "finished": int(counts.get("COMPLETED_SUCCESSFULLY", 0)),
                 "killed": int(counts.get("COMPLETED_WALLTIME_REACHED", 0)),
                 "rejected": int(counts.get("REJECTED", 0))},
        "all": {"count": len(ran),
                "mean_bounded_slowdown": float(bounded_slowdown(frame).mean()) if len(ran) else 0.0,
                "wait": {"mean": float(ran["waiting_time"].mean()) if len(ran) else 0.0},
                "response": {"mean": float(ran["turnaround_time"].mean()) if len(ran) else 0.0}},
        "machine_procs": procs,
        "counters": engine.counters(),
        "hooks": hooks,
        "hook_failures": sum(h["failures"] for h in hooks.values()),
        "cpu_seconds": cpu,
    }
