"""Simulating a workload in this process, on an Engine whose policies may be
Python callables. The event loop is the simulator's own for space sharing
(sim/simulation.cpp, default event order): at each event time the clock
advances (walltime kills), the jobs due end in the order they started, the
arrivals are submitted in workload order, then one pass. So a policy gives
the schedule `rota simulate` gives, job for job (tests/test_simulate.py)."""

import heapq
import time

import numpy as np

from .engine import SECOND, Engine
from .outcomes import batsim_frame, summary

_START, _KILL, _REJECT = "start", "kill", "reject"


def replay(engine, jobs, name="workload"):
    """Plays workload `jobs` (a DataFrame as rota.workload() gives) on
    `engine`, a one-row (space-sharing) Engine. Returns a Result."""
    from .simulator import Result  # noqa: PLC0415 - simulate imports this module

    if engine.machine()["rows"] != 1:
        raise ValueError("replay plays space sharing only (one row); use rota.simulate's CLI "
                         "path for gang scheduling")
    n = len(jobs)
    submit = jobs["submit"].to_numpy(np.int64)
    runtime = jobs["runtime"].to_numpy(np.int64)
    estimate = jobs["estimate"].to_numpy(np.int64)
    procs = jobs["procs"].to_numpy(np.int64)
    user = jobs["user"].to_numpy(np.int64)
    order = np.argsort(submit, kind="stable")
    start = np.full(n, -1, dtype=np.int64)
    finish = np.full(n, -1, dtype=np.int64)
    state = np.zeros(n, dtype=np.int8)  # 0 unfinished, 1 finished, 2 killed, 3 rejected
    nodes = [()] * n
    ends = []  # (time us, start order, job index)
    started = 0
    nxt = 0
    t0 = time.process_time()

    def drain():
        nonlocal started
        for a in engine.actions():
            i = a.job
            if a.type == _START:
                start[i] = a.time // SECOND
                nodes[i] = a.nodes
                if runtime[i] < estimate[i]:  # else the engine kills it at its walltime
                    heapq.heappush(ends, (a.time + int(runtime[i]) * SECOND, started, i))
                started += 1
            elif a.type == _KILL:
                finish[i] = a.time // SECOND
                state[i] = 2
            elif a.type == _REJECT:
                state[i] = 3

    while True:
        t = None
        if nxt < n:
            t = int(submit[order[nxt]]) * SECOND
        if ends and (t is None or ends[0][0] < t):
            t = ends[0][0]
        w = engine.next_wakeup()
        if w is not None and (t is None or w < t):
            t = w
        if t is None:
            break
        engine.advance(t)
        drain()
        while ends and ends[0][0] <= t:
            _, _, i = heapq.heappop(ends)
            engine.end(int(i))
            finish[i] = t // SECOND
            state[i] = 1
        while nxt < n and int(submit[order[nxt]]) * SECOND == t:
            i = int(order[nxt])
            engine.submit(i, int(procs[i]), int(estimate[i]) * SECOND, user=int(user[i]))
            nxt += 1
        engine.schedule()
        drain()
    cpu = time.process_time() - t0
    frame = batsim_frame(jobs, start, finish, state, nodes, name)
    return Result(summary(frame, engine, procs=engine.machine()["procs"], cpu=cpu), frame)


def run(config, jobs, policies=None, name="workload"):
    """replay() on a new engine made from `config` with Python `policies`."""
    with Engine(config, policies=policies) as e:
        return replay(e, jobs, name)
