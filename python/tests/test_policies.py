"""Policies written in Python: the same decisions as the Lua scripts, and
failures counted, quarantined and replaced by the hook's fallback."""

import numpy as np
import pytest

import rota

S = rota.SECOND


def first_fit(c, ctx):
    """backfill/first_fit.lua in Python: every candidate, in queue order."""
    return np.arange(len(c))


first_fit.streams = True  # as first_fit.lua's streams = { backfill_select = true }


def starts(result):
    return result.jobs.set_index("job_id")["starting_time"]


def test_python_first_fit_gives_the_lua_schedule(kth_workload):
    lua = rota.simulate(kth_workload, {"preset": "easy"})  # backfill/first_fit.lua
    py = rota.simulate(kth_workload, {"preset": "easy", "backfill_select": first_fit})
    assert lua.summary["hooks"]["backfill_select"]["calls"] > 10000
    assert py.summary["hooks"]["backfill_select"]["calls"] == \
        lua.summary["hooks"]["backfill_select"]["calls"]
    assert py.summary["hook_failures"] == 0
    assert lua.summary["counters"]["backfilled"] > 1000
    assert starts(py).equals(starts(lua))
    assert py.jobs["allocated_resources"].equals(lua.jobs["allocated_resources"])


def test_python_order_gives_the_lua_sjf_schedule(kth_workload):
    jobs = kth_workload.head(4000)
    lua = rota.simulate(jobs, {"preset": "easy",
                               "policy": {"order": {"script": "order/sjf.lua"}}})
    py = rota.simulate(jobs, {"preset": "easy", "order": lambda b, ctx: b.estimate})
    assert py.summary["hooks"]["order"]["calls"] == lua.summary["hooks"]["order"]["calls"] > 0
    assert starts(py).equals(starts(lua))
    assert not starts(py).equals(starts(rota.simulate(jobs, {"preset": "easy"})))


@pytest.mark.parametrize("policy", [
    lambda c, ctx: 1 / 0,                       # raises
    lambda c, ctx: "all of them",               # a string
    lambda c, ctx: [0.0] * len(c),              # floats, not indices
    lambda c, ctx: list(range(len(c) + 1)),     # an index past the candidates
], ids=["raises", "string", "floats", "out-of-range"])
def test_a_failing_backfill_select_falls_back_and_is_counted(kth_workload, policy):
    jobs = kth_workload.head(3000)
    fcfs = rota.simulate(jobs, "fcfs")
    r = rota.simulate(jobs, {"preset": "easy", "backfill_select": policy})
    st = r.summary["hooks"]["backfill_select"]
    # Every call failed; after 50 in a row the hook is quarantined and
    # skipped, and EASY without backfilling is FCFS, job for job.
    assert st["calls"] == st["failures"] >= 50
    assert st["skipped"] > 0 and st["quarantined"] == 1
    assert r.summary["counters"]["backfilled"] == 0
    assert starts(r).equals(starts(fcfs))


def test_the_exceptions_are_kept_for_the_caller():
    cfg = {"machine": {"procs": 8}, "scheduler": {"preset": "easy"}}

    def boom(c, ctx):
        raise ValueError(f"no backfill for job {ctx.head_id}")

    with rota.Engine(cfg, policies={"backfill_select": boom}) as e:
        for j, p in [(1, 6), (2, 8), (3, 2)]:
            e.submit(j, p, 100 * S)
        e.schedule()
        assert [a.job for a in e.actions()] == [1]  # 3 is not backfilled
        assert e.hook_stats()["backfill_select"]["failures"] == 1
        [x] = e.policy_errors("backfill_select")
        assert isinstance(x, ValueError) and str(x) == "no backfill for job 2"


def test_admission_in_python_rejects_and_holds():
    cfg = {"machine": {"procs": 8}, "scheduler": {"preset": "easy"}}

    def admit(jobs, ctx):
        return [("reject", "too big for Python") if p > 4 else ("hold" if u == 7 else None)
                for p, u in zip(jobs.procs, jobs.user)]

    with rota.Engine(cfg, policies={"admission": admit}) as e:
        e.submit(1, 6, 100 * S)
        e.submit(2, 2, 100 * S, user=7)
        e.submit(3, 2, 100 * S)
        e.schedule()
        acts = {(a.type, a.job): a.reason for a in e.actions()}
        assert acts == {("reject", 1): "too big for Python", ("start", 3): None}
        assert e.held() == [2]


def test_batch_and_context_are_what_lua_sees():
    cfg = {"machine": {"procs": 8}, "scheduler": {"preset": "easy"}}
    seen = {}

    def look(c, ctx):
        seen.update(n=len(c), ids=c.id.tolist(), procs=c["procs"].tolist(),
                    est=c.estimate.tolist(), account=c.account, now=ctx.now,
                    head=ctx.head_id, shadow=ctx.shadow_time, free=ctx.free_procs,
                    usage=ctx.usage.tolist(), user_running=ctx.user("user_running", 5))
        return []

    with rota.Engine(cfg, policies={"backfill_select": look}) as e:
        e.submit(1, 6, 100 * S, user=5)
        e.submit(2, 8, 100 * S)
        e.submit(3, 2, 50 * S, account="physics")
        e.schedule()
    assert seen == dict(n=1, ids=[3], procs=[2], est=[50 * S], account=["physics"], now=0,
                        head=2, shadow=100 * S, free=2, usage=[0.75], user_running=1.0)


def test_a_failing_order_falls_back_to_fcfs(kth_workload):
    jobs = kth_workload.head(3000)
    easy = rota.simulate(jobs, {"preset": "easy"})  # FCFS order, the fallback's
    r = rota.simulate(jobs, {"preset": "easy", "order": lambda b, ctx: [1.0] * (len(b) + 1)})
    st = r.summary["hooks"]["order"]
    assert st["calls"] == st["failures"] >= 50 and st["quarantined"] == 1
    assert starts(r).equals(starts(easy))
