"""A snapshot taken in Python restores to an engine that acts exactly as the
first would have, Python policies included once given again."""

import numpy as np
import pytest

import rota

S = rota.SECOND
CFG = {"machine": {"procs": 16}, "scheduler": {"preset": "easy"}}


def workload(n=300, seed=4):
    rng = np.random.default_rng(seed)
    submit = np.cumsum(rng.integers(0, 1200, n))
    procs = rng.integers(1, 17, n)
    est = rng.integers(60, 1500, n)
    return [(i, int(submit[i]), int(procs[i]), int(est[i])) for i in range(n)]


def smallest_first(c, ctx):
    return np.argsort(c.procs, kind="stable")


def play(e, jobs, until=None):
    """Jobs run to their estimate (the engine kills them): the driver only
    submits and passes. Returns {id: start} of the starts it saw."""
    starts = {}
    for t in sorted({s for _, s, _, _ in jobs}) + [None]:
        while (w := e.next_wakeup()) is not None and (t is None or w < t * S):
            if until is not None and w >= until * S:
                return starts
            e.advance(w)
            e.schedule()
            starts.update({a.job: a.time for a in e.actions() if a.type == "start"})
        if t is None:
            return starts
        if until is not None and t >= until:
            return starts
        e.advance(t * S)
        for j, s, p, est in jobs:
            if s == t:
                e.submit(j, p, est * S)
        e.schedule()
        starts.update({a.job: a.time for a in e.actions() if a.type == "start"})


@pytest.mark.parametrize("policies", [None, {"backfill_select": smallest_first}],
                         ids=["lua", "python"])
def test_restored_engine_finishes_the_same_schedule(policies):
    jobs = workload()
    half = jobs[len(jobs) // 2][1]
    with rota.Engine(CFG, policies=policies) as e:
        before = play(e, jobs, until=half)
        data = e.snapshot()
        rest = [j for j in jobs if j[1] >= half]
        after = play(e, rest)
        queue_at_end = e.counters()["started"]
    with rota.Engine.from_snapshot(CFG, data, policies=policies) as r:
        assert r.now() <= half * S
        again = play(r, rest)
        assert r.counters()["started"] == queue_at_end
    assert len(before) > 50 and len(after) > 50
    assert again == after


def test_restore_in_place_and_a_damaged_snapshot_is_refused():
    jobs = workload(60)
    with rota.Engine(CFG, policies={"backfill_select": smallest_first}) as e:
        play(e, jobs, until=jobs[30][1])
        data, now, queue = e.snapshot(), e.now(), e.queue()
        e.restore(data)
        assert (e.now(), e.queue()) == (now, queue)
        assert 2 in e._policies  # the Python policy is installed again
        with pytest.raises(rota.RotaError, match="ROTA_EINVAL"):
            e.restore(data[:-20])
        assert (e.now(), e.queue()) == (now, queue)
