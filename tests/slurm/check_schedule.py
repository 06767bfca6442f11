#!/usr/bin/env python3
"""Checks a Slurm run against rota-slurm's decisions.

    check_schedule.py JOBS JOURNAL JOBCOMP [ROTA PRESET]
    check_schedule.py --gang MPL JOBS JOURNAL JOBCOMP
    check_schedule.py --restart JOBS JOURNAL JOBCOMP
    check_schedule.py --gang MPL --restart JOBS JOURNAL JOBCOMP
    check_schedule.py JOBS JOURNAL JOBCOMP --down NODE [--requeued JOB]
    check_schedule.py --restart JOBS JOURNAL JOBCOMP --restarts FILE --drained NODE
                      --requeued JOB [--replay LIBROTA]

JOBS: "id nodes seconds limit" per submitted job. JOURNAL: rota-slurm's
--journal (SUBMIT, START, END lines, engine time in microseconds).
JOBCOMP: Slurm's jobcomp/filetxt records (start, end and nodes at
one-second resolution).

Checks that every job ran to completion, exactly once, on exactly the
nodes rota chose; that no node ran two jobs at once; that Slurm started
each job within a few seconds of rota's decision; and that Slurm's start
order is rota's (up to Slurm's one-second resolution and the moment a
node takes to finish its previous job).

With --gang: each job ran on its nodes and started in Slurm at its first
RESUME; no node executed two jobs at once (the journal's RESUME..SUSPEND
stretches); Slurm never held more than MPL jobs on a node; and a job
suspended for S seconds stayed in Slurm about its work plus S (so Slurm
really stopped it).

With --restart (the daemon was stopped and started again mid-run): the
second daemon adopted running jobs on the nodes the first one chose, and
no job was lost or started twice. A job the first daemon started that
Slurm still held (under gang scheduling a START is released at its first
RESUME) is submitted again by the second, and may be started again.

With --down (NODE was set DOWN mid-run and later back): the daemon saw it
go down and come back (the journal's DOWN and UP), some job was requeued
(REQUEUE), and rota placed no job on NODE in between. With --requeued,
JOB (requeued by `scontrol requeue`) was sent back to rota's queue too.
A requeued job's new start is not held to rota's decision time or
order: Slurm starts it only once the run it cut short is cleaned up
(seconds, after a node failure), while rota counts its nodes busy. A requeued job is checked on its last START
and Slurm's last record of it.

With --drained (NODE was drained mid-run and later resumed): the daemon
saw it drain and come back (DRAIN, UP), and rota placed no job on it in
between.

With --replay LIBROTA (librota.so) and --restarts FILE (one line "STOP
START" per daemon restart, wall-clock microseconds): the journal's events
are replayed offline through one EASY engine (LIBROTA through ctypes, as
the Python package declares it), as `rota simulate` cannot drain a node
or requeue a job. Each job arrives at its first SUBMIT; once started, it
ends as long after as it ran in the cluster (its last START to END); an
operator's requeue and the node events happen at their journal times; no
pass runs while no daemon ran. Every START the daemons journaled, a requeued job's restart
included, must come at the same moment in the replay (within a second),
and the replay must start no job the daemons did not: the order of starts
in Slurm (checked above against the journal) is then the engine's own. It
compares times only, not nodes (a restarted engine may pick other nodes
for the same start), and it does not hold Slurm's restart of a requeued
job to the decision (Slurm first finishes the run it cut short). The
replay runs the same engine as the daemons: it shows what the daemons add
(a restart, what they read from Slurm), not the engine's own decisions.

With ROTA (the `rota` tool) and PRESET, it also replays the journal with
`rota simulate`: the jobs arriving when the daemon first saw them and
running as long as the daemon saw them run, in milliseconds (so that the
replay keeps the order of events), must get the same start times and the
same nodes as in the cluster.
"""
import csv
import ctypes
import heapq
import os
import re
import subprocess
import sys
import tempfile
from datetime import datetime

# Seconds. Release -> RUNNING takes about one second on an idle machine;
# the margins leave room for a loaded one.
LAG = 5
ORDER_SLACK = 2


def expand(hostlist):
    """'n[1-3,5],n7' -> {'n1', 'n2', 'n3', 'n5', 'n7'}"""
    out = set()
    for prefix, ranges, single in re.findall(r"([A-Za-z_-]+)\[([^\]]*)\]|([^,\[\]]+)", hostlist):
        if single:
            out.add(single)
            continue
        for part in ranges.split(","):
            lo, _, hi = part.partition("-")
            for i in range(int(lo), int(hi or lo) + 1):
                out.add(f"{prefix}{i:0{len(lo)}d}")
    return out


def stamp(s):
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%S").timestamp()


def node_number(name):
    """The test's nodes are n1..n8: rota numbers them 0..7."""
    return int(name[1:]) - 1


def replay(rota, preset, journal, errors):
    """Simulates the journal's jobs and compares with what the daemon did."""
    submit, start, end = {}, {}, {}
    for kind, t, job, *rest in journal:
        t = int(t)
        if kind == "SUBMIT":
            submit[job] = (t, int(rest[0]), int(rest[1]))
        elif kind == "START":
            start[job] = (t, sorted(node_number(n) for n in rest[0].split(",")))
        elif kind == "END":
            end[job] = t
    t0 = min(t for t, _, _ in submit.values())
    ms = lambda t: round((t - t0) / 1000)
    with tempfile.TemporaryDirectory() as tmp:
        swf = os.path.join(tmp, "run.swf")
        with open(swf, "w") as f:
            f.write("; MaxProcs: 8\n")
            for job in sorted(submit, key=lambda j: (submit[j][0], int(j))):
                t, procs, estimate = submit[job]
                run = ms(end[job]) - ms(start[job][0])
                f.write(f"{job} {ms(t)} -1 {run} {procs} -1 -1 {procs} {round(estimate / 1000)} "
                        "-1 1 -1 -1 -1 -1 -1 -1 -1\n")
        out = os.path.join(tmp, "jobs.csv")
        sim = subprocess.run([rota, "simulate", "--trace", swf, "--procs", "8", "--policy", preset,
                              "--jobs-csv", out, "--no-progress"], capture_output=True, text=True)
        if sim.returncode != 0:
            errors.append(f"replay: rota simulate failed: {sim.stderr.strip()}")
            return
        same = 0
        for row in csv.DictReader(open(out)):
            job = row["job_id"]
            nodes = []
            for part in row["allocated_resources"].split():
                lo, _, hi = part.partition("-")
                nodes += range(int(lo), int(hi or lo) + 1)
            want_t, want_nodes = ms(start[job][0]), start[job][1]
            if abs(float(row["start_time"]) - want_t) > 1 or sorted(nodes) != want_nodes:
                errors.append(f"replay: job {job} simulated at {row['start_time']} ms on {nodes}, "
                              f"ran at {want_t} ms on {want_nodes}")
            else:
                same += 1
        print(f"check_schedule: rota simulate on the journal: {same} of {len(submit)} jobs "
              "at the same time on the same nodes")


REPLAY_SLACK = 1.0  # seconds: the daemons decide at their passes, the replay at events
ROTA_ACTION_START = 1


def rota_library(path):
    """librota at `path`, declared by the Python package's _abi.py (ctypes
    only: the package itself needs numpy, which the test does not)."""
    import importlib.util
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "rota_abi", os.path.join(here, "..", "..", "python", "rota", "_abi.py"))
    abi = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(abi)
    lib = ctypes.CDLL(path)
    for name, (restype, argtypes) in abi.FUNCTIONS.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = restype, list(argtypes)
    for name, args in (("rota_node_drain", [ctypes.c_int32]), ("rota_node_up", [ctypes.c_int32]),
                       ("rota_node_down", [ctypes.c_int32, ctypes.c_int]),
                       ("rota_job_requeue", [ctypes.c_int64, ctypes.c_char_p])):
        getattr(lib, name).restype = ctypes.c_int
        getattr(lib, name).argtypes = [abi.rota_engine_p] + args
    return abi, lib


def replay_events(lib, journal, restarts, errors):
    """Replays the journal's events through the engine and compares starts."""
    abi, lib = rota_library(lib)
    # What the daemons were told and did.
    arrival, starts, requeues, end, nodes_events = {}, {}, {}, {}, []
    adopted_after = set()
    gaps = []  # (stop, first pass of the next daemon)
    for line in open(restarts) if restarts else []:
        stop, start = (int(x) for x in line.split())
        first = min((int(t) for _, t, *_ in journal if int(t) >= start), default=start)
        gaps.append((stop, first))
    for kind, t, who, *rest in journal:
        t = int(t)
        if kind in ("DOWN", "DRAIN", "UP"):
            nodes_events.append((t, kind, node_number(who)))
            continue
        job = int(who)
        if kind == "SUBMIT" and job not in arrival:
            arrival[job] = (t, int(rest[0]), int(rest[1]))
        elif kind == "START":
            starts.setdefault(job, []).append(t)
        elif kind == "REQUEUE":
            requeues.setdefault(job, []).append(t)
        elif kind == "END":
            end[job] = t
        elif kind == "ADOPT":
            adopted_after.add(job)
    # How long each job's last run lasted. A job that ended while no
    # daemon ran has no END: it was gone when the next daemon looked.
    run_for = {}
    for job, ts in starts.items():
        if job in end:
            run_for[job] = end[job] - ts[-1]
        else:
            gap = next((g for g in gaps if g[0] >= ts[-1]), None)
            if gap is None or job in adopted_after:
                errors.append(f"replay: job {job} has no END in the journal")
                continue
            run_for[job] = gap[1] - ts[-1]

    # The replay: one engine, events in time order; at each moment node
    # events, ends, requeues and arrivals (in id order), then one pass, as
    # a daemon's pass takes them.
    timed = []  # (t, rank, what, arg)
    for t, kind, node in nodes_events:
        timed.append((t, 0, kind, node))
    for job, ts in requeues.items():
        timed += [(t, 2, "REQUEUE", job) for t in ts]
    for job, (t, _, _) in arrival.items():
        timed.append((t, 3, "SUBMIT", job))
    for stop, first in gaps:
        timed.append((first, 4, "PASS", 0))
    heapq.heapify(timed)
    in_gap = lambda t: any(stop <= t < first for stop, first in gaps)
    got = {}  # job -> replay start times
    e = abi.rota_engine_p()
    if lib.rota_engine_new_v2(b'[machine]\nprocs = 8\n[scheduler]\npreset = "easy"\n', None, None,
                              ctypes.byref(e)) != abi.OK:
        errors.append(f"replay: no engine: {lib.rota_errmsg(e).decode()}")
        return

    def call(rc, what):
        if rc != abi.OK:
            raise RuntimeError(f"replay: {what}: {lib.rota_errmsg(e).decode()}")

    running, out = set(), {}  # out: node -> DRAIN or DOWN
    act = abi.RotaAction(size=ctypes.sizeof(abi.RotaAction))
    while timed:
        t = timed[0][0]
        call(lib.rota_advance(e, t), "rota_advance")
        while timed and timed[0][0] == t:
            _, _, what, arg = heapq.heappop(timed)
            if what in ("DRAIN", "DOWN", "UP"):
                # A restarted daemon journals the state it finds: only a
                # change is an event (from drain to down, as the daemon
                # does it, through up).
                if out.get(arg) == what or (what == "UP" and arg not in out):
                    continue
                if arg in out:
                    call(lib.rota_node_up(e, arg), "rota_node_up")
                    del out[arg]
                if what == "DRAIN":
                    call(lib.rota_node_drain(e, arg), "rota_node_drain")
                elif what == "DOWN":
                    call(lib.rota_node_down(e, arg, 1), "rota_node_down")  # ROTA_NODE_REQUEUE
                if what != "UP":
                    out[arg] = what
            elif what == "END" and arg in running:
                call(lib.rota_job_exit(e, arg, 0), "rota_job_exit")
                running.discard(arg)
            elif what == "REQUEUE":
                if arg in running:
                    call(lib.rota_job_requeue(e, arg, b"requeued"), "rota_job_requeue")
                    running.discard(arg)
                else:
                    errors.append(f"replay: job {arg} requeued, but not running in the replay")
            elif what == "SUBMIT":
                _, procs, estimate = arrival[arg]
                job = abi.RotaJob(size=ctypes.sizeof(abi.RotaJob), id=arg, procs=procs,
                                  estimate=estimate, user=-1, submitted=t)
                call(lib.rota_submit(e, ctypes.byref(job)), f"rota_submit({arg})")
        if in_gap(t):
            continue
        call(lib.rota_schedule(e), "rota_schedule")
        while lib.rota_next_action(e, ctypes.byref(act)) == abi.OK:
            if act.type != ROTA_ACTION_START:
                continue
            got.setdefault(act.job, []).append(t)
            running.add(act.job)
            # Its last run ends as long after its start as in the cluster;
            # an earlier one, at its requeue.
            if len(got[act.job]) == len(starts.get(act.job, [])) and act.job in run_for:
                heapq.heappush(timed, (t + run_for[act.job], 1, "END", act.job))
    lib.rota_engine_free(e)

    same = 0
    for job in sorted(set(starts) | set(got)):
        want, have = starts.get(job, []), got.get(job, [])
        if len(want) != len(have) or any(abs(a - b) > REPLAY_SLACK * 1e6 for a, b in zip(want, have)):
            t0 = min(t for t, _, _ in arrival.values())
            show = lambda ts: [round((x - t0) / 1e6, 1) for x in ts]
            errors.append(f"replay: job {job} started at {show(want)} s by the daemons, "
                          f"at {show(have)} s by the engine replaying the journal")
        else:
            same += 1
    print(f"check_schedule: the journal replayed through the engine: {same} of "
          f"{len(set(starts) | set(got))} jobs started at the same moments")


def check_gang(mpl, jobs, journal, ran, errors):
    """Gang scheduling: what the daemon did and what Slurm recorded."""
    # From the journal: the stretches each job executed (RESUME to SUSPEND
    # or END), and how long it stood suspended after it had run.
    nodes, running, executed, suspended = {}, {}, {}, {}
    stopped_at = {}
    for kind, t, job, *rest in journal:
        t, job = int(t) / 1e6, int(job)
        if kind == "START":
            nodes[job] = rest[0].split(",")
        elif kind == "RESUME":
            if job in stopped_at:
                suspended.setdefault(job, []).append((stopped_at.pop(job), t))
            running[job] = t
        elif kind in ("SUSPEND", "END") and job in running:
            executed.setdefault(job, []).append((running.pop(job), t))
            if kind == "SUSPEND":
                stopped_at[job] = t
    # Slurm started each job at one of its RESUMEs (the first, unless it
    # was held again before it started).
    resumes = {}
    for kind, t, job, *rest in journal:
        if kind == "RESUME":
            resumes.setdefault(int(job), []).append(int(t) / 1e6)
    for job, (_, start, _, _) in sorted(ran.items()):
        if not any(int(r) <= start <= r + LAG for r in resumes.get(job, [])):
            errors.append(f"job {job}: started at {start:.0f}, resumed at {resumes.get(job)}")
    # No node executes two jobs at once.
    per_node = {}
    for job, spans in executed.items():
        for n in nodes[job]:
            per_node.setdefault(n, []).extend((a, b, job) for a, b in spans)
    for n, spans in sorted(per_node.items()):
        spans.sort()
        for (s1, e1, j1), (s2, e2, j2) in zip(spans, spans[1:]):
            if s2 < e1 - 1e-6:
                errors.append(f"node {n}: job {j2} resumed at {s2:.3f} while job {j1} ran "
                              f"until {e1:.3f}")
    # Slurm holds at most MPL jobs on a node at any moment.
    events = {}
    for job, (_, start, end, where) in ran.items():
        for n in where:
            events.setdefault(n, []).extend([(start, 1), (end, -1)])
    for n, ev in sorted(events.items()):
        held = 0
        for t, d in sorted(ev, key=lambda e: (e[0], e[1])):
            held += d
            if held > mpl:
                errors.append(f"node {n}: {held} jobs at {t:.0f} with MPL {mpl}")
    # Slurm really stopped the suspended jobs: each one's time in Slurm
    # is its work (steps of 0.1 s) plus the time it stood suspended. Only
    # suspensions after Slurm started it count: a job suspended before it
    # started was held instead, and Slurm starts it at a later RESUME.
    stopped = 0
    for job, gaps in sorted(suspended.items()):
        if job not in ran:
            continue
        _, start, end, _ = ran[job]
        s = sum(b - a for a, b in gaps if a >= start + 1)
        stopped += s > 0
        if s >= 3:
            work = int(jobs[job][1])
            if end - start < 0.8 * work + s - 2:
                errors.append(f"job {job}: {end - start:.0f} s in Slurm, though suspended for "
                              f"{s:.1f} s and working {work} s")
    nsusp = sum(1 for kind, *_ in journal if kind == "SUSPEND")
    print(f"check_schedule: gang: {nsusp} suspends, {stopped} jobs suspended while running in "
          f"Slurm, up to {max([len(v) for v in executed.values()] or [0])} slices per job")
    if not stopped:
        errors.append("no job was suspended and resumed: nothing was time-sliced")


def main(*args):
    mpl, restart, down = 0, False, None
    if "--down" in args:
        i = args.index("--down")
        down = args[i + 1]
        args = args[:i] + args[i + 2:]
    opts = {}
    for flag in ("--drained", "--restarts", "--replay"):
        if flag in args:
            i = args.index(flag)
            opts[{"--replay": "replay_lib"}.get(flag, flag[2:])] = args[i + 1]
            args = args[:i] + args[i + 2:]
    operator = None
    if "--requeued" in args:
        i = args.index("--requeued")
        operator = int(args[i + 1])
        args = args[:i] + args[i + 2:]
    if args and args[0] == "--gang":
        mpl, args = int(args[1]), args[2:]
        if args and args[0] == "--restart":
            restart, args = True, args[1:]
    if args and args[0] == "--restart":
        restart, args = True, args[1:]
    return check(mpl, restart, down, operator, *args, **opts)


def check(mpl, restart, down, operator, jobs_path, journal_path, jobcomp_path, rota=None, preset=None,
          drained=None, restarts=None, replay_lib=None):
    errors = []
    jobs = {int(l.split()[0]): l.split()[1:] for l in open(jobs_path) if l.strip()}
    journal = [l.split() for l in open(journal_path) if l.strip()]
    decided = {}  # job -> (time in s, nodes) of its last START
    requeued = set()  # jobs sent back to the queue since their last START
    ever_requeued = set()
    out_since = {}  # node -> when the daemon saw it leave service
    went_down = came_up = False
    drain_seen = drain_up = False
    for kind, t, job, *rest in journal:
        if kind in ("DOWN", "DRAIN", "UP"):
            if kind == "UP":
                out_since.pop(job, None)
                came_up = came_up or job == down
                drain_up = drain_up or (drain_seen and job == drained)
            else:
                drain_seen = drain_seen or (kind == "DRAIN" and job == drained)
                out_since[job] = int(t) / 1e6
                went_down = went_down or (kind == "DOWN" and job == down)
            continue
        job = int(job)
        if kind == "REQUEUE":
            requeued.add(job)
            ever_requeued.add(job)
        if kind == "SUBMIT" and job in decided:
            requeued.add(job)  # still held when the daemon restarted
        if kind != "START":
            continue
        if job in decided and job not in requeued:
            errors.append(f"job {job}: started twice by rota")
        requeued.discard(job)
        decided[job] = (int(t) / 1e6, set(rest[0].split(",")))
        for node in decided[job][1] & set(out_since):
            errors.append(f"job {job}: placed on {node}, out of service since {out_since[node]:.0f}")
    order = sorted(decided, key=lambda j: decided[j][0])
    ran = {}
    for line in open(jobcomp_path):
        f = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
        job = int(f["JobId"])
        if job in ran and job not in ever_requeued:
            errors.append(f"job {job}: two completion records")
        if f["StartTime"] == "Unknown":
            # Requeued before it ever ran (Slurm still finishing the run a
            # node failure cut short): a later record is the job's run.
            if job not in ever_requeued:
                errors.append(f"job {job}: never started in Slurm ({f['JobState']})")
            continue
        record = (f["JobState"], stamp(f["StartTime"]), stamp(f["EndTime"]), expand(f["NodeList"]))
        if job not in ran or record[2] >= ran[job][2]:
            ran[job] = record  # a requeued job: its last run
    if down:
        print(f"check_schedule: {down} down: jobs requeued {sorted(ever_requeued)}")
        if not (went_down and came_up):
            errors.append(f"{down}: the daemon did not see it go down and come back")
        if not ever_requeued:
            errors.append(f"{down} went down under a job, but no job was requeued")
    if drained and not (drain_seen and drain_up):
        errors.append(f"{drained}: the daemon did not see it drain and come back")
    if operator is not None and operator not in ever_requeued:
        errors.append(f"job {operator}: requeued in Slurm, but not in rota")

    for job, (nodes, secs, limit) in sorted(jobs.items()):
        if job not in decided:
            errors.append(f"job {job}: never started by rota")
            continue
        if job not in ran:
            errors.append(f"job {job}: no completion record in Slurm")
            continue
        state, start, end, where = ran[job]
        t, chosen = decided[job]
        if state != "COMPLETED":
            errors.append(f"job {job}: {state} in Slurm")
        if where != chosen:
            errors.append(f"job {job}: ran on {sorted(where)}, rota chose {sorted(chosen)}")
        if len(where) != int(nodes):
            errors.append(f"job {job}: ran on {len(where)} nodes, asked for {nodes}")
        if not mpl and job not in ever_requeued and not (int(t) <= start <= t + LAG):
            errors.append(f"job {job}: started at {start:.0f}, rota decided at {t:.3f}")

    # A restarted daemon adopts what the one before it started: the same
    # jobs on the same nodes.
    adopted = {int(job): set(rest[0].split(",")) for kind, t, job, *rest in journal
               if kind == "ADOPT"}
    for job, where in sorted(adopted.items()):
        if job not in decided or decided[job][1] != where:
            errors.append(f"job {job}: adopted on {sorted(where)}, started on "
                          f"{sorted(decided[job][1]) if job in decided else 'none'}")
    if restart:
        print(f"check_schedule: restart: {len(adopted)} jobs adopted by the second daemon")
        if not adopted:
            errors.append("restart: the second daemon adopted no job")

    if mpl:
        check_gang(mpl, jobs, journal, ran, errors)
        for e in errors:
            print("check_schedule: FAIL:", e)
        return 1 if errors else 0

    # No node runs two jobs at once: on each node, every job starts no
    # earlier than the one before it ended (both truncated to the second).
    per_node = {}
    for job, (_, start, end, where) in ran.items():
        for n in where:
            per_node.setdefault(n, []).append((start, end, job))
    for n, spans in sorted(per_node.items()):
        spans.sort()
        for (s1, e1, j1), (s2, e2, j2) in zip(spans, spans[1:]):
            if s2 < e1:
                errors.append(f"node {n}: job {j2} started at {s2:.0f} before job {j1} ended at {e1:.0f}")

    # Slurm's start order is rota's: a job rota started later never ran
    # before one it started earlier, but for Slurm's one-second resolution
    # and the moment a node takes to finish its previous job.
    timed = [j for j in order if j in ran and j not in ever_requeued]
    starts = [ran[j][1] for j in timed]
    for i, (a, sa) in enumerate(zip(timed, starts)):
        for b, sb in zip(timed[i + 1:], starts[i + 1:]):
            if sb < sa - ORDER_SLACK:
                errors.append(f"order: rota started {a} before {b}, Slurm at {sa:.0f} and {sb:.0f}")

    first = min(ran[j][1] for j in ran) if ran else 0
    last = max(ran[j][2] for j in ran) if ran else 0
    backfilled = sum(1 for i, j in enumerate(order) if any(k < j for k in order[i + 1:]))
    print(f"check_schedule: {len(jobs)} jobs, {len(decided)} rota decisions, {len(ran)} Slurm "
          f"records, makespan {last - first:.0f} s, {backfilled} started ahead of an older job")
    lags = [ran[j][1] - decided[j][0] for j in decided if j in ran]
    if lags:
        print(f"check_schedule: Slurm's start (to the second) minus rota's decision: "
              f"{min(lags):.1f} .. {max(lags):.1f} s")
    if rota:
        replay(rota, preset, journal, errors)
    if replay_lib:
        replay_events(replay_lib, journal, restarts, errors)
    for e in errors:
        print("check_schedule: FAIL:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
