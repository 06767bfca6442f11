#!/usr/bin/env python3
"""Gang scheduling from Python: ctypes drives rota's Ousterhout matrix.

An 8-node machine under backfilling gang scheduling (BGS, [Zhang00] §5.2)
with a multiprogramming level of 4 and 100-second time slices:

    [scheduler]
    preset = "bgs"
    [gang]
    mpl = 4
    slice = 100

The program is the machine, as rota's simulator is (sim/simulation.cpp):
it owns the clock, submits the jobs, and executes only the jobs of the
active row of the matrix, following the engine's RESUME and SUSPEND
actions; a job finishes when it has executed for its runtime, and the
program reports that with rota_job_end. Each step advances to the next
arrival, job completion or rota_next_wakeup (slice ends, walltime kills,
reservations), reports what happened, and runs one rota_schedule pass.

It prints the gang actions as they happen (start in a row on nodes,
replicate, unreplicate, move, switch, suspend, resume) and, after every
pass that changed it, the matrix laid out as Figure 7 of [Zhang00]: one
line per time slice, one column per node, J<id>^<task> in each cell, '*'
on the active row.

It checks, and exits 1 on any failure:
  - every job finishes;
  - the matrix its own bookkeeping builds from the actions (no cell ever
    given to two jobs) equals the engine's (rota_matrix_row), every running
    job's home row is among its rows (rota_job_rows), the jobs it executes
    are exactly those of the active row (rota_active_row), and no job whose
    runtime is done still holds cells;
  - each job completes no earlier than its start + runtime (time sharing can
    only slow a job down), and a job alone on the machine exactly then.

Usage:
  ROTA_LIB=build/lib/librota.so python3 gang.py
  python3 gang.py --lib build/lib/librota.so
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import schedule as rota  # noqa: E402  (the ctypes declarations and Engine)

SEC = rota.SEC

BGS_TOML = """
[machine]
procs = 8
[scheduler]
preset = "bgs"
[gang]
mpl = 4
slice = 100
"""

# (id, submit, procs, estimate, runtime), seconds. Jobs 2, 3, 5, 6 and 7
# end before their estimate. Job 6 finds no row with 8 free columns: it
# waits with a reservation (BGS) while job 7 is backfilled. Job 8 comes when
# the machine is empty again: alone, it must finish exactly at start +
# runtime.
JOBS = [
    (1, 0, 6, 300, 300),
    (2, 0, 6, 300, 200),
    (3, 0, 2, 200, 150),
    (4, 50, 8, 200, 200),
    (5, 120, 4, 300, 250),
    (6, 130, 8, 100, 80),
    (7, 140, 1, 100, 60),
    (8, 2000, 1, 200, 200),
]

NAMES = {
    rota.ROTA_ACTION_START: "START",
    rota.ROTA_ACTION_KILL: "KILL",
    rota.ROTA_ACTION_REJECT: "REJECT",
    rota.ROTA_ACTION_REPLICATE: "REPLICATE",
    rota.ROTA_ACTION_UNREPLICATE: "UNREPLICATE",
    rota.ROTA_ACTION_MOVE: "MOVE",
    rota.ROTA_ACTION_SWITCH: "SWITCH",
    rota.ROTA_ACTION_SUSPEND: "SUSPEND",
    rota.ROTA_ACTION_RESUME: "RESUME",
    rota.ROTA_ACTION_MIGRATE: "MIGRATE",
}


def runs(nodes):
    """0-5 7 for [0, 1, 2, 3, 4, 5, 7], as hostlists print node sets."""
    out, i = [], 0
    while i < len(nodes):
        k = i
        while k + 1 < len(nodes) and nodes[k + 1] == nodes[k] + 1:
            k += 1
        out.append(f"{nodes[i]}" if k == i else f"{nodes[i]}-{nodes[k]}")
        i = k + 1
    return " ".join(out)


def secs(t):
    return f"{t / SEC:g}"


class Job:
    def __init__(self, id, submit, procs, estimate, runtime):
        self.id, self.procs = id, procs
        self.submit, self.estimate, self.runtime = submit * SEC, estimate * SEC, runtime * SEC
        self.start = self.finish = None
        self.nodes = []
        self.home, self.rows = None, set()
        self.executing, self.since, self.done = False, None, 0  # done: executed time, us
        self.shared = False  # another job ran at some point between its start and end
        self.how = None  # "ended" (rota_job_end) or "killed"

    def done_at(self, t):
        return self.done + (t - self.since if self.executing else 0)

    def completion(self):
        """When it finishes if it keeps executing (executing jobs only)."""
        return self.since + self.runtime - self.done


class GangMachine:
    """The machine rota's actions drive: the matrix it was told to build and
    the jobs it executes. Any inconsistency raises AssertionError."""

    def __init__(self, eng, jobs):
        self.eng = eng
        m = eng.machine()
        assert m.rows == 4 and m.backfill == 1 and m.reservation_depth == -1, \
            "the configuration did not turn on BGS"
        self.procs, self.nrows, self.slice = m.procs, m.rows, m.slice
        self.jobs = {j[0]: Job(*j) for j in jobs}
        self.arrivals = sorted(self.jobs.values(), key=lambda j: j.submit)
        self.next_arrival = 0
        self.cells = [[-1] * self.procs for _ in range(self.nrows)]
        self.active = eng.active_row()
        self.shown = None  # the matrix last printed
        self.reserved = {}  # job: (row, start), as last printed

    def running(self):
        return [j for j in self.jobs.values() if j.start is not None and j.finish is None]

    # -- actions --------------------------------------------------------------

    def place(self, job, row):
        for n in job.nodes:
            assert self.cells[row][n] == -1, \
                f"row {row} node {n} given to job {job.id}, held by job {self.cells[row][n]}"
            self.cells[row][n] = job.id
        job.rows.add(row)

    def clear(self, job, row):
        assert row in job.rows, f"job {job.id} does not hold row {row}"
        for n in job.nodes:
            self.cells[row][n] = -1
        job.rows.discard(row)

    def stop(self, job, t):
        if job.executing:
            job.done += t - job.since
            job.executing, job.since = False, None

    def leave(self, job, t, how):
        self.stop(job, t)
        for r in sorted(job.rows):
            self.clear(job, r)
        job.finish, job.how = t, how

    def carry_out(self, actions):
        # A pass announces the net change of each running job's rows after
        # its new starts: a job may be started in cells that an UNREPLICATE
        # further down the same batch frees (the replica was dropped first,
        # by CleanMatrix). So the machine releases cells before taking any.
        actions = ([a for a in actions if a["type"] == rota.ROTA_ACTION_UNREPLICATE]
                   + [a for a in actions if a["type"] != rota.ROTA_ACTION_UNREPLICATE])
        for a in actions:
            kind, t, row = a["type"], a["time"], a["row"]
            if kind == rota.ROTA_ACTION_SWITCH:
                print(f"  t={secs(t):>5}s  SWITCH      row {row} is active")
                self.active = row
                continue
            job = self.jobs[a["job"]]
            name = NAMES.get(kind, f"action {kind}")
            if kind == rota.ROTA_ACTION_START:
                print(f"  t={secs(t):>5}s  START       job {job.id} in row {row} "
                      f"on node{'s' if job.procs > 1 else ''} {runs(a['nodes'])}")
                assert len(a["nodes"]) == job.procs, f"job {job.id}: wrong node count"
                job.start, job.nodes, job.home = t, a["nodes"], row
                for other in self.running():
                    if other is not job:
                        other.shared = job.shared = True
                self.place(job, row)
            elif kind == rota.ROTA_ACTION_REPLICATE:
                print(f"  t={secs(t):>5}s  REPLICATE   job {job.id} also in row {row}")
                assert a["nodes"] == job.nodes, f"job {job.id} replicated on other columns"
                self.place(job, row)
            elif kind == rota.ROTA_ACTION_UNREPLICATE:
                print(f"  t={secs(t):>5}s  UNREPLICATE job {job.id} leaves row {row}")
                self.clear(job, row)
            elif kind == rota.ROTA_ACTION_MOVE:
                print(f"  t={secs(t):>5}s  MOVE        job {job.id} home row {job.home} -> {row}")
                # The net change of the pass: the old home row, if the job
                # leaves it, comes with its own UNREPLICATE.
                job.home = row
            elif kind == rota.ROTA_ACTION_SUSPEND:
                print(f"  t={secs(t):>5}s  SUSPEND     job {job.id}")
                assert job.executing, f"job {job.id} suspended while not executing"
                self.stop(job, t)
            elif kind == rota.ROTA_ACTION_RESUME:
                print(f"  t={secs(t):>5}s  RESUME      job {job.id}")
                assert not job.executing, f"job {job.id} resumed while executing"
                job.executing, job.since = True, t
            elif kind == rota.ROTA_ACTION_KILL:
                print(f"  t={secs(t):>5}s  KILL        job {job.id} at its walltime "
                      f"(executed {secs(job.done_at(t))}s of {secs(job.runtime)}s)")
                self.leave(job, t, "killed")
            else:  # REJECT, or MIGRATE without migration configured
                raise AssertionError(f"unexpected {name} of job {job.id}: {a}")

    # -- the matrix ------------------------------------------------------------

    def engine_matrix(self):
        return [self.eng.matrix_row(r) for r in range(self.nrows)]

    def print_matrix(self, t, cells):
        text = []
        for row in cells:
            task, line = {}, []
            for id in row:  # a job's k-th column (in node order) is its task k
                if id < 0:
                    line.append(".")
                else:
                    line.append(f"J{id}^{task.get(id, 0)}")
                    task[id] = task.get(id, 0) + 1
            text.append(line)
        width = max([4] + [len(c) for line in text for c in line])
        print(f"  matrix at t = {secs(t)} s ({self.nrows} rows x {self.procs} nodes; "
              f"* = active row)")
        head = "".join(f" {f'P_{c}':<{width}}" for c in range(self.procs))
        print(("  " + " " * 14 + head).rstrip())
        for r, line in enumerate(text):
            mark = "*" if r == self.active else " "
            print((f"  {mark}time-slice {r:<2}" + "".join(f" {c:<{width}}" for c in line)).rstrip())

    def show_reservations(self, t):
        """Waiting jobs and their reservations (BGS: a row and a start time,
        computed with estimate x MPL), when they change."""
        now = {r.job: (r.row, r.start) for r in self.eng.reservations()}
        for id, (row, start) in now.items():
            if self.reserved.get(id) != (row, start):
                print(f"  t={secs(t):>5}s  (waiting)   job {id} reserved in row {row} "
                      f"from t={secs(start)}s")
        self.reserved = now

    def verify(self, t):
        """The engine's matrix, rows and active row against the model's."""
        cells = self.engine_matrix()
        assert cells == self.cells, \
            f"t={secs(t)}: engine matrix {cells} differs from the actions' {self.cells}"
        assert self.eng.active_row() == self.active, f"t={secs(t)}: active row differs"
        running = self.running()
        assert sorted(self.eng.running()) == sorted(j.id for j in running), \
            f"t={secs(t)}: running jobs differ"
        for j in running:
            # Ended as soon as its runtime is done, even if suspended then.
            assert j.done_at(t) < j.runtime, f"t={secs(t)}: job {j.id} is done but still held"
            home, rows = self.eng.job_rows(j.id)
            assert home in rows, f"t={secs(t)}: job {j.id}'s home row {home} not in {rows}"
            assert (home, rows) == (j.home, j.rows), \
                f"t={secs(t)}: job {j.id} holds {home}/{rows}, the actions said {j.home}/{j.rows}"
        in_active = {id for id in cells[self.active] if id >= 0}
        executing = {j.id for j in running if j.executing}
        assert executing == in_active, \
            f"t={secs(t)}: executing {executing} but the active row holds {in_active}"
        return cells

    # -- the event loop ----------------------------------------------------------

    def run(self):
        self.verify(0)
        for _ in range(10000):
            times = [j.completion() for j in self.running() if j.executing]
            if self.next_arrival < len(self.arrivals):
                times.append(self.arrivals[self.next_arrival].submit)
            w = self.eng.next_wakeup()
            if w is not None:
                times.append(w)
            if not times:
                return
            t = min(times)
            self.eng.advance(t)
            self.carry_out(self.eng.actions())  # slice ends, walltime kills
            # Jobs that have executed their runtime, whether still executing
            # or suspended at this very instant by a slice end.
            for j in self.running():
                if j.done_at(t) >= j.runtime:
                    assert j.done_at(t) == j.runtime, f"job {j.id} overran"
                    self.eng.job_end(j.id)
                    self.leave(j, t, "ended")
                    print(f"  t={secs(t):>5}s  END         job {j.id} "
                          f"(rota_job_end after {secs(t - j.start)}s)")
            while (self.next_arrival < len(self.arrivals)
                   and self.arrivals[self.next_arrival].submit == t):
                j = self.arrivals[self.next_arrival]
                self.eng.submit(j.id, j.procs, j.estimate)
                self.next_arrival += 1
                plural = "s" if j.procs > 1 else ""
                print(f"  t={secs(t):>5}s  submit      job {j.id}: {j.procs} node{plural}, "
                      f"estimate {secs(j.estimate)}s, runtime {secs(j.runtime)}s")
            self.eng.schedule()
            self.carry_out(self.eng.actions())
            cells = self.verify(t)
            self.show_reservations(t)
            if cells != self.shown:
                self.print_matrix(t, cells)
                self.shown = cells
        raise AssertionError("the schedule did not finish")


def report(machine):
    """The checks on the outcome; returns the number of failures."""
    bad = 0

    def fail(msg):
        nonlocal bad
        print(f"FAILED: {msg}", file=sys.stderr)
        bad += 1

    print("\n  job procs submit  start finish runtime  span  alone")
    alone = 0
    for j in sorted(machine.jobs.values(), key=lambda j: j.id):
        if j.finish is None:
            fail(f"job {j.id} never finished")
            continue
        print(f"  {j.id:>3} {j.procs:>5} {secs(j.submit):>6} {secs(j.start):>6} "
              f"{secs(j.finish):>6} {secs(j.runtime):>7} {secs(j.finish - j.start):>5}  "
              f"{'yes' if not j.shared else ''}".rstrip())
        if j.how != "ended":
            fail(f"job {j.id} was killed at its walltime before executing its runtime")
        if j.finish < j.start + j.runtime:
            fail(f"job {j.id} finished at {secs(j.finish)}s, before start + runtime")
        if not j.shared:
            alone += 1
            if j.finish != j.start + j.runtime:
                fail(f"job {j.id} ran alone but finished at {secs(j.finish)}s, "
                     f"not start + runtime = {secs(j.start + j.runtime)}s")
    if alone == 0:
        fail("no job ran alone: the exact-runtime check was not exercised")
    if not any(j.shared and j.finish is not None and j.finish > j.start + j.runtime
               for j in machine.jobs.values()):
        fail("no job was slowed down by time sharing: the matrix never had two rows")
    c = machine.eng.counters()
    print(f"  counters: passes {c.passes}, submitted {c.submitted}, started {c.started}, "
          f"finished {c.finished}, killed {c.killed}")
    if c.finished != len(machine.jobs) or c.killed or c.rejected:
        fail("the engine's counters do not say every job finished")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", help="path of librota.so (default: $ROTA_LIB)")
    args = ap.parse_args()
    lib = rota.load_library(rota.find_library(args.lib))
    if lib.rota_abi_version() != rota.ROTA_ABI_VERSION:
        print(f"librota has ABI {lib.rota_abi_version()}, this program knows "
              f"{rota.ROTA_ABI_VERSION}", file=sys.stderr)
        return 1
    print(f"rota {lib.rota_version().decode()} via ctypes: BGS, MPL 4, 100 s slices, 8 nodes")
    try:
        with rota.Engine(lib, BGS_TOML) as eng:
            eng.set_log(lambda line: print(f"  rota log: {line}"))
            machine = GangMachine(eng, JOBS)
            machine.run()
            bad = report(machine)
    except (rota.RotaError, AssertionError) as x:
        print(f"error: {x}", file=sys.stderr)
        bad = 1
    print("\nPASS" if not bad else "\nFAIL")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
