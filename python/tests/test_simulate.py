"""rota.simulate: the tool's own schedule, as DataFrames."""

import os
import subprocess

import pandas as pd

import rota
from conftest import rota_tool
from rota.outcomes import BATSIM_COLUMNS


def test_simulate_gives_the_starts_of_the_tool(kth, tmp_path):
    csv = tmp_path / "jobs.csv"
    subprocess.run([rota_tool(), "simulate", "--trace", kth, "--policy", "easy", "--jobs-csv",
                    str(csv), "--no-progress"], check=True, capture_output=True)
    tool = pd.read_csv(csv).set_index("job_id")
    summary, jobs = rota.simulate(kth, policy="easy")
    assert list(jobs.columns) == BATSIM_COLUMNS
    assert len(jobs) == len(tool) == summary["jobs"]["total"] == 28467
    got = jobs.set_index("job_id")
    assert got["starting_time"].equals(tool["start_time"])
    assert got["allocated_resources"].equals(tool["allocated_resources"])
    assert summary["machine_procs"] == 100 and summary["utilization"] > 0.5


def test_in_process_replay_is_the_tool_s_schedule(kth, kth_workload):
    # The same policy (the preset's first_fit.lua) through the tool and
    # through this process's event loop: every column equal.
    tool = rota.simulate(kth, "easy")
    here = rota.simulate(kth_workload, {"preset": "easy"})
    cols = [c for c in BATSIM_COLUMNS if c != "workload_name"]
    assert here.jobs[cols].set_index("job_id").equals(tool.jobs[cols].set_index("job_id"))
    for k in ("mean_bounded_slowdown",):
        assert abs(here.summary["all"][k] - tool.summary["all"][k]) < 1e-9 * tool.summary["all"][k]
    assert here.summary["all"]["wait"]["mean"] == tool.summary["all"]["wait"]["mean"]
    assert here.summary["jobs"]["killed"] == tool.summary["jobs"]["killed"]


def test_several_policies(kth_workload):
    jobs = kth_workload.head(2000)
    res = rota.simulate(jobs, ["fcfs", "easy", "conservative"])
    assert list(res) == ["fcfs", "easy", "conservative"]
    waits = {k: r.summary["all"]["wait"]["mean"] for k, r in res.items()}
    assert waits["fcfs"] > waits["easy"] and waits["fcfs"] > waits["conservative"]
    df = rota.combine(res)
    assert list(df.columns) == ["policy"] + BATSIM_COLUMNS and len(df) == 3 * 2000
    assert df.groupby("policy")["waiting_time"].mean()["easy"] == waits["easy"]


def test_generate_then_simulate():
    w = rota.generate("lublin", jobs=500, procs=64, load=0.7, seed=3)
    assert len(w) == 500 and w.attrs["procs"] == 64
    assert os.path.exists(w.attrs["path"])
    r = rota.simulate(w, "easy")
    assert r.summary["jobs"]["total"] == 500 and r.summary["machine_procs"] == 64
    assert r.summary["provenance"]["trace"]["path"] == w.attrs["path"]
    assert r.summary["provenance"]["rota_version"] == rota.__version__


def test_frame_from_npy_equals_the_batsim_csv(kth, tmp_path):
    # rota.simulate reads the tool's --jobs-npy; the frame is the one the
    # same run's --batsim-csv gives, column for column, dtype for dtype.
    csv = tmp_path / "jobs.csv"
    subprocess.run([rota_tool(), "simulate", "--trace", kth, "--policy", "easy", "--batsim-csv",
                    str(csv), "--no-progress"], check=True, capture_output=True)
    want = rota.simulator.read_batsim(csv)
    got = rota.simulate(kth, "easy").jobs
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    assert (got["final_state"] == "COMPLETED_WALLTIME_REACHED").any()


def test_frame_from_npy_with_rejections_and_several_policies(tmp_path):
    # A generated workload (workload_name from the model), a machine too
    # small for some jobs (REJECTED rows: times -1, no nodes), two policies.
    w = rota.generate("lublin", jobs=300, procs=64, load=0.8, seed=5)
    res = rota.simulate(w, "fcfs,easy", procs=32)
    base = tmp_path / "jobs.csv"
    subprocess.run([rota_tool(), "simulate", "--trace", w.attrs["path"], "--policy", "fcfs,easy",
                    "--procs", "32", "--batsim-csv", str(base), "--no-progress"],
                   check=True, capture_output=True)
    for name in ("fcfs", "easy"):
        want = rota.simulator.read_batsim(tmp_path / f"jobs.{name}.csv")
        pd.testing.assert_frame_equal(res[name].jobs, want, check_exact=True)
    assert (res["easy"].jobs["final_state"] == "REJECTED").any()
