#!/usr/bin/env python3
"""Checks rota simulate's outputs with the standard library only (no pandas):
Batsim's _jobs.csv (header, values against the native CSV; evalys when it
is installed), the schedule as SWF and its round trip, and the provenance
in the summary JSON.  Usage: outputs_check.py ROTA_BIN WORKDIR"""
import csv
import hashlib
import json
import os
import subprocess
import sys

rota, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
trace = os.path.join(work, "w.swf")


def run(*args):
    r = subprocess.run([rota, *args], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"rota {' '.join(args)}: exit {r.returncode}\n{r.stdout}\n{r.stderr}")
    return r.stdout


run("generate", "--model", "lublin", "--jobs", "300", "--procs", "64", "--load", "0.8",
    "--seed", "5", "-o", trace)
j, b, s, js = (os.path.join(work, n) for n in ("jobs.csv", "batsim.csv", "out.swf", "sum.json"))
run("simulate", "--trace", trace, "--policy", "easy", "--no-progress", "--jobs-csv", j,
    "--batsim-csv", b, "--swf-out", s, "--summary-json", js)

BATSIM = ["job_id", "workload_name", "profile", "submission_time",
          "requested_number_of_resources", "requested_time", "success", "final_state",
          "starting_time", "execution_time", "finish_time", "waiting_time", "turnaround_time",
          "stretch", "allocated_resources", "consumed_energy", "metadata"]
with open(b, newline="") as fh:
    rows = list(csv.reader(fh))
assert rows[0] == BATSIM, rows[0]
bat = {int(r[0]): dict(zip(BATSIM, r)) for r in rows[1:]}
with open(j, newline="") as fh:
    native = {int(r["job_id"]): r for r in csv.DictReader(fh)}
assert set(bat) == set(native), "the Batsim CSV lists every job that ended"
for jid, r in bat.items():
    n = native[jid]
    assert int(r["starting_time"]) == int(n["start_time"])
    assert int(r["finish_time"]) == int(n["finish_time"])
    assert int(r["waiting_time"]) == int(n["wait_time"])
    assert int(r["requested_number_of_resources"]) == int(n["procs"])
    assert r["allocated_resources"] == n["allocated_resources"]
    width = 0
    for part in r["allocated_resources"].split():
        lo, _, hi = part.partition("-")
        width += (int(hi) if hi else int(lo)) - int(lo) + 1
    assert width == int(r["requested_number_of_resources"]), (jid, r["allocated_resources"])
    assert r["consumed_energy"] == "-1" and r["metadata"] == ""
    assert (r["success"] == "1") == (r["final_state"] == "COMPLETED_SUCCESSFULLY")
try:
    from evalys.jobset import JobSet  # optional
    js_ = JobSet.from_csv(b)
    assert len(js_.df) == len(bat)
    print("evalys read the Batsim CSV")
except ImportError:
    print("evalys is not installed: the standard-library checks only")

# The schedule as SWF: submit + wait = the start of the native CSV.
recs = [l.split() for l in open(s) if l.strip() and not l.startswith(";")]
head = "".join(l for l in open(s) if l.startswith(";"))
assert "easy" in head and "rota " in head, head
for f in recs:
    n = native[int(f[0])]
    if int(f[2]) >= 0:
        assert int(f[1]) + int(f[2]) == int(n["start_time"]), f
# Round trip: the written SWF replays the same schedule under the same policy.
j2 = os.path.join(work, "jobs2.csv")
run("simulate", "--trace", s, "--policy", "easy", "--procs", "64", "--no-progress",
    "--jobs-csv", j2)
with open(j2, newline="") as fh:
    again = {int(r["job_id"]): r for r in csv.DictReader(fh)}
for jid, n in native.items():
    assert again[jid]["start_time"] == n["start_time"], (jid, again[jid], n)
# ... and on a machine that never makes a job wait, FCFS starts every job at
# its submit time: the SWF's submit times are the workload's.
j3 = os.path.join(work, "jobs3.csv")
run("simulate", "--trace", s, "--policy", "fcfs", "--procs", "100000", "--no-progress",
    "--jobs-csv", j3)
with open(j3, newline="") as fh:
    for r in csv.DictReader(fh):
        assert r["start_time"] == native[int(r["job_id"])]["submit_time"], r

# Provenance.
p = json.load(open(js))["provenance"]
assert p["rota_version"] and p["argv"][0] == rota and "--batsim-csv" in p["argv"], p
assert p["trace"]["path"] == trace
assert p["trace"]["sha256"] == hashlib.sha256(open(trace, "rb").read()).hexdigest()
assert p["configuration"]["simulator"]["policies"] == ["easy"]
assert "easy" in p["configuration"]["engine"]["easy"]
assert "arrivals" in p["seeds"]
c = json.load(open(js))["easy"]["counters"]
assert c["submitted"] == 300 and "migrations" in c and "passes" in c, c
assert "migration_option" in json.load(open(js))["easy"]["hooks"]

# [Weissman03]: each malleable job's harvest events in --jobs-csv, and the
# summary's totals agree with them (every SHRINK is one event); a rigid
# baseline has neither.
run("simulate", "--trace", trace, "--policy", "low-imp-fq,ideal-backfill", "--min-pct", "30",
    "--no-progress", "--jobs-csv", os.path.join(work, "mall.csv"),
    "--summary-json", os.path.join(work, "mall.json"))
summary = json.load(open(os.path.join(work, "mall.json")))
with open(os.path.join(work, "mall.low-imp-fq.csv"), newline="") as fh:
    events = [int(r["harvests"]) for r in csv.DictReader(fh)]
m, c = summary["low-imp-fq"]["malleable"], summary["low-imp-fq"]["counters"]
assert sum(events) == c["shrinks"] > 0, (sum(events), c["shrinks"])
harvested = sum(1 for e in events if e > 0)
assert m["harvested_jobs"] == harvested, (m, harvested)
assert abs(m["harvest_events_per_job"] * len(events) - sum(events)) < 1e-6, m
assert abs(m["harvest_events_per_harvested_job"] - sum(events) / harvested) < 1e-9, m
with open(os.path.join(work, "mall.ideal-backfill.csv"), newline="") as fh:
    assert "harvests" not in next(csv.reader(fh))
assert "malleable" not in summary["ideal-backfill"]
print("outputs ok")
