"""rota.Engine: events, actions, queries, errors, configurations, life cycle."""

import tomllib

import pytest

import rota
from rota import _toml

S = rota.SECOND
EASY8 = {"machine": {"procs": 8}, "scheduler": {"preset": "easy"}}
# [Zhang00] Figure 4 on 8 nodes: (id, procs, estimate s, runtime s); job 5
# is backfilled at 100, job 3 starts at 200, job 4 at 300; job 6 is too wide.
FIGURE4 = [(1, 4, 100, 100), (2, 4, 200, 200), (3, 8, 100, 100), (4, 6, 100, 70),
           (5, 4, 100, 60), (6, 16, 100, 100)]


def play(e, jobs, at=None):
    """Submits every job at 0 and plays the machine; {id: start s or None}."""
    for j, p, est, _ in jobs:
        e.submit(j, p, est * S)
    run = {j: r for j, _, est, r in jobs if r < est}  # the others reach their walltime
    starts, ends = {}, {}
    e.schedule()
    while True:
        for a in e.actions():
            if a.type == "start":
                starts[a.job] = a.time // S
                if a.job in run:
                    ends[a.job] = a.time + run[a.job] * S
            elif a.type == "reject":
                starts[a.job] = None
        times = list(ends.values()) + [w for w in [e.next_wakeup()] if w is not None]
        if not times:
            return starts
        t = min(times)
        e.advance(t)
        if at:
            at(e, t)
        for j in [j for j, x in ends.items() if x == t]:
            e.end(j)
            del ends[j]
        e.schedule()


def test_figure4_under_easy():
    with rota.Engine(EASY8) as e:
        assert play(e, FIGURE4) == {1: 0, 2: 0, 3: 200, 4: 300, 5: 100, 6: None}
        c = e.counters()
        assert (c["started"], c["backfilled"], c["rejected"]) == (5, 1, 1)
        assert e.hook_stats()["backfill_select"]["calls"] > 0


def test_queries_at_100s():
    seen = {}

    def at(e, t):
        if t == 100 * S:
            seen.update(queue=e.queue(), running=e.running(), job3=e.job(3),
                        reservations=e.reservations(), machine=e.machine())

    with rota.Engine(EASY8) as e:
        play(e, FIGURE4, at)
    assert seen["queue"] == [3, 4, 5] and seen["running"] == [2]
    assert seen["job3"]["state"] == "queued" and seen["job3"]["reserved_start"] == 200 * S
    assert [(r["job"], r["start"]) for r in seen["reservations"]] == [(3, 200 * S)]
    assert seen["machine"]["procs"] == 8 and seen["machine"]["backfill"] == 1


def test_errors_carry_the_engine_message():
    with rota.Engine(EASY8) as e:
        e.submit(1, 4, 10 * S)
        with pytest.raises(rota.RotaError) as x:
            e.submit(1, 4, 10 * S)
        assert x.value.name == "ROTA_EEXIST" and "1" in x.value.message
        e.advance(50 * S)
        with pytest.raises(rota.RotaError, match="ROTA_ETIME") as x:
            e.advance(10 * S)
        assert e.now() == 50 * S  # the engine is unchanged
        with pytest.raises(rota.RotaError, match="ROTA_ENOTFOUND"):
            e.job(42)
    with pytest.raises(rota.RotaError, match="machine.nodes") as x:
        rota.Engine("[machine]\nprocs = 8\nnodes = 4\n")
    assert x.value.name == "ROTA_ECONFIG"


def test_configuration_as_text_path_or_dict(tmp_path):
    text = _toml.dumps(EASY8)
    path = tmp_path / "easy.toml"
    path.write_text(text)
    results = []
    for config in (text, str(path), path, EASY8):
        with rota.Engine(config) as e:
            results.append(play(e, FIGURE4))
    assert all(r == results[0] for r in results)


def test_toml_writer_round_trips():
    d = {"machine": {"procs": 8, "pools": [{"name": "mem", "capacity": 64}]},
         "scheduler": {"preset": "easy", "rekey_interval": 1.5},
         "policy": {"backfill_select": {"script": "backfill/first_fit.lua",
                                        "params": {"x": [1, 2], "q": 'a "b"\n'}}}}
    assert tomllib.loads(_toml.dumps(d)) == d


def test_with_block_frees_and_closed_engine_refuses():
    with rota.Engine(EASY8) as e:
        pass
    assert e.closed
    with pytest.raises(RuntimeError, match="closed"):
        e.schedule()


def test_no_call_into_the_engine_or_close_from_a_policy():
    def nosy(c, ctx):
        try:
            e.queue()
        except rota.RotaError as x:
            seen.append(x.name)
        try:
            e.close()
        except RuntimeError as x:
            seen.append(str(x))
        return []

    seen = []
    with rota.Engine(EASY8, policies={"backfill_select": nosy}) as e:
        play(e, FIGURE4)
        assert not e.closed
    assert seen[0] == "ROTA_ESTATE" and "cannot be closed" in seen[1]
