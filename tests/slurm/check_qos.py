#!/usr/bin/env python3
"""Checks run_qos.sh's preemption run.

    check_qos.py JOBS JOBCOMP JOURNAL SAMPLES RESTARTS

JOBS: "NAME ID SUBMIT_EPOCH" per job (L1..L4 of QOS low, H of QOS high).
JOBCOMP: Slurm's jobcomp/filetxt records. JOURNAL: rota-slurm's journal.
SAMPLES: "@ EPOCH" lines, each followed by squeue's running jobs ("ID
NODELIST"). RESTARTS: "ID N", Slurm's requeue count of each job.

Every job completed; no sample shows a node under two running jobs; rota
preempted (SWAP_OUT) low jobs only, each after it had run its
do-not-disturb time (6 s per node), started H only after that, on the
victims' nodes, and loaded each victim again (SWAP_IN, or START by a daemon
restarted meanwhile); Slurm requeued each
victim once per preemption and no other job.
"""
import sys
from collections import defaultdict

from check_schedule import expand, stamp

DND = 6.0  # low's PreemptExemptTime: seconds per node
SLACK = 0.05  # seconds: the journal's times are the engine's, to the microsecond


def main(jobs_path, jobcomp_path, journal_path, samples_path, restarts_path):
    jobs = {}
    for line in open(jobs_path):
        name, job, _ = line.split()
        jobs[int(job)] = name
    errors = []

    # Completion: the last record of each job says COMPLETED (a requeue
    # leaves one of its own, PENDING, for the run it ended).
    last, runs = {}, []
    for line in open(jobcomp_path):
        f = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
        last[int(f["JobId"])] = f["JobState"]
        runs.append((stamp(f["StartTime"]), stamp(f["EndTime"]), expand(f["NodeList"]), f["JobId"]))
    # Nor in Slurm's records of each run (whole seconds: a hand-off may
    # share its second).
    runs.sort()
    for i, a in enumerate(runs):
        for b in runs[i + 1:]:
            if b[0] < a[1] - 1 and a[2] & b[2]:
                errors.append(f"jobs {a[3]} and {b[3]} held {sorted(a[2] & b[2])} at once")
    for job, name in sorted(jobs.items()):
        if last.get(job) != "COMPLETED":
            errors.append(f"{name} (job {job}): last record {last.get(job, 'none')}, not COMPLETED")

    # No node under two running jobs in any sample.
    samples, cur = 0, None
    for line in open(samples_path):
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "@":
            cur = {}
            samples += 1
            continue
        if len(parts) < 2 or cur is None:
            continue
        for node in expand(parts[1]):
            if node in cur:
                errors.append(f"sample {samples}: node {node} runs jobs {cur[node]} and {parts[0]}")
            cur[node] = parts[0]

    # The journal: loads, preemptions, the high job's start.
    loaded = {}  # job -> (time, nodes) of its last START or SWAP_IN
    outs, ins = defaultdict(list), defaultdict(list)
    h_start = None
    for line in open(journal_path):
        f = line.split()
        kind, t, job = f[0], int(f[1]) / 1e6, int(f[2]) if len(f) > 2 and f[2].isdigit() else None
        if kind in ("START", "SWAP_IN", "ADOPT"):
            loaded[job] = (t, set(f[3].split(",")))
            # Loaded again after a preemption: by the engine that swapped
            # it out (SWAP_IN), or by one that took over (START).
            if kind != "ADOPT" and len(ins[job]) < len(outs[job]):
                ins[job].append(t)
            if jobs.get(job) == "H" and kind == "START":
                h_start = (t, set(f[3].split(",")))
        elif kind == "SWAP_OUT":
            name = jobs.get(job, "?")
            if not name.startswith("L"):
                errors.append(f"{name} (job {job}) preempted, but only low jobs may be")
            if job in loaded:
                since, nodes = loaded[job]
                if t < since + DND * len(nodes) - SLACK:
                    errors.append(f"{name} preempted {t - since:.2f} s after its load, "
                                  f"within its do-not-disturb time ({DND * len(nodes):.0f} s)")
                outs[job].append((t, nodes))
            else:
                errors.append(f"{name} preempted without a load in the journal")
    victims = sorted(j for j in outs if outs[j])
    if not victims:
        errors.append("no job was preempted")
    if h_start is None:
        errors.append("H never started")
    elif victims:
        first_out = min(t for v in victims for t, _ in outs[v])
        if h_start[0] < first_out - SLACK:
            errors.append(f"H started at {h_start[0]:.2f}, before the first preemption at {first_out:.2f}")
        freed = set().union(*(n for v in victims for _, n in outs[v]))
        if not h_start[1] <= freed:
            errors.append(f"H ran on {sorted(h_start[1])}, not on the victims' nodes {sorted(freed)}")
    for v in victims:
        if len(ins[v]) != len(outs[v]):
            errors.append(f"{jobs[v]}: preempted {len(outs[v])} times, loaded again {len(ins[v])} times")

    # Slurm's requeue counts: one per preemption, none for the others.
    for line in open(restarts_path):
        job, n = (line.split() + ["?"])[:2]
        job = int(job)
        want = len(outs.get(job, []))
        if n != str(want):
            errors.append(f"{jobs.get(job, job)}: Slurm requeued it {n} times, rota preempted it {want}")

    for v in victims:
        for t, nodes in outs[v]:
            print(f"check_qos: {jobs[v]} (job {v}) preempted on {','.join(sorted(nodes))}, "
                  f"loaded again {len(ins[v])} time(s)")
    if h_start:
        print(f"check_qos: H started on {','.join(sorted(h_start[1]))}")
    for err in errors:
        print("check_qos: " + err)
    if errors:
        sys.exit(1)
    print(f"check_qos: {len(jobs)} jobs completed, {len(victims)} preempted after their "
          f"do-not-disturb time, no node shared in {samples} samples")


if __name__ == "__main__":
    main(*sys.argv[1:])
