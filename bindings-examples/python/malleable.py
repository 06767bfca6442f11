#!/usr/bin/env python3
"""Malleable jobs from Python: ctypes drives rota's iScheduler ([Weissman03]).

An 8-processor machine under Even-H-FQ ([Weissman03] §2.2: even harvest,
distribution favouring queued jobs), the scenario of the paper's
Figure 3(b):

    [machine]
    procs = 8
    [malleable]
    [policy.harvest]
    script = "harvest/even.lua"
    [policy.distribution]
    script = "distribution/favor_queued.lua"

J1 and J2 (min 2, ideal 4) start on their ideal; J3 (min 4) arrives to a
full machine and the harvest takes 2 processors from each; J4 (min 4)
cannot be harvested (both are at their min) and waits; when J3 ends J4
gets its processors, and when J4 ends J1 and J2 grow back to 4.

The program is the machine: it owns the clock and the processors, applies
START, SHRINK, GROW and KILL to its own table of who runs where, and
consumes each job's work at the rate its current allocation gives under
the linear execution model (P_ideal x RT_ideal / P, [Weissman03] §3). Jobs run
until their work is done, which is when the engine's walltime (scaled the
same way) ends them.

It checks, and exits 1 on any failure:
  - the actions, their times and nodes are those worked out by hand from
    Figure 3(b) (EXPECTED below);
  - no processor is ever given to two jobs, no job runs below its min or
    above its ideal, and the engine's view of each allocation
    (rota_job_info_get's nodes, rota_job_nodes) is the program's;
  - every job has done exactly its work when it ends (the shrinks and
    grows the engine announced are the ones it timed the job with);
  - reporting the progress the program measures (rota_job_progress, the
    sensing of [Weissman03] §3) leaves the engine's plan unchanged, and
    reporting a job further along moves its end earlier.

Usage:
  ROTA_LIB=build/lib/librota.so python3 malleable.py
  python3 malleable.py --lib build/lib/librota.so
"""

import argparse
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import schedule as rota  # noqa: E402  (the ctypes declarations and Engine)

SEC = rota.SEC
ROTA_ACTION_GROW, ROTA_ACTION_SHRINK = 12, 13

CONF = """
[machine]
procs = 8
[malleable]
[policy.harvest]
script = "harvest/even.lua"
[policy.distribution]
script = "distribution/favor_queued.lua"
"""

# (id, submit, min, ideal, estimate at the ideal), seconds.
JOBS = [
    (1, 0, 2, 4, 1000),
    (2, 0, 2, 4, 1000),
    (3, 10, 4, 4, 100),
    (4, 20, 4, 4, 1000),
]

# (time s, action, job, nodes), worked out from Figure 3(b) with the linear
# model. At 10 J1 and J2 have done 10/1000 of their work; on 2 processors
# the rest takes 0.99 x 2000 s. J3 runs 100 s on its ideal (10 to 110), J4
# then runs 1000 s (110 to 1110). At 1110 J1 and J2 have 0.99 - 1100/2000
# = 0.44 of their work left, 440 s on 4 processors once grown: they end at
# 1550.
EXPECTED = [
    (0, rota.ROTA_ACTION_START, 1, [0, 1, 2, 3]),
    (0, rota.ROTA_ACTION_START, 2, [4, 5, 6, 7]),
    (10, ROTA_ACTION_SHRINK, 1, [2, 3]),
    (10, ROTA_ACTION_SHRINK, 2, [6, 7]),
    (10, rota.ROTA_ACTION_START, 3, [2, 3, 6, 7]),
    (110, rota.ROTA_ACTION_KILL, 3, []),
    (110, rota.ROTA_ACTION_START, 4, [2, 3, 6, 7]),
    (1110, rota.ROTA_ACTION_KILL, 4, []),
    (1110, ROTA_ACTION_GROW, 1, [2, 3]),
    (1110, ROTA_ACTION_GROW, 2, [6, 7]),
    (1550, rota.ROTA_ACTION_KILL, 1, []),
    (1550, rota.ROTA_ACTION_KILL, 2, []),
]

NAMES = {
    rota.ROTA_ACTION_START: "START",
    rota.ROTA_ACTION_KILL: "KILL",
    ROTA_ACTION_GROW: "GROW",
    ROTA_ACTION_SHRINK: "SHRINK",
}


def declare(lib):
    lib.rota_job_progress.restype = ctypes.c_int
    lib.rota_job_progress.argtypes = [rota.rota_engine_p, ctypes.c_int64, ctypes.c_double]


def submit(eng, job):
    jid, _, lo, ideal, est = job
    j = rota.new_struct(rota.RotaJob)
    j.id, j.procs, j.min_procs, j.estimate, j.user = jid, ideal, lo, est * SEC, -1
    eng.check(eng.lib.rota_submit(eng.e, ctypes.byref(j)))


class Machine:
    def __init__(self, eng):
        self.eng = eng
        self.owner = [None] * 8
        self.spec = {j[0]: j for j in JOBS}
        self.done = {}  # job -> share of its work done, as of self.since[job]
        self.since = {}
        self.seen = []
        self.errors = []

    def procs(self, job):
        return sum(1 for o in self.owner if o == job)

    def settle(self, t):
        """Work done by every running job up to t, at its allocation's rate."""
        for job in self.done:
            _, _, _, ideal, est = self.spec[job]
            rate = self.procs(job) / (ideal * est * SEC)  # share of the work per us
            self.done[job] += (t - self.since[job]) * rate
            self.since[job] = t

    def apply(self, actions):
        for a in actions:
            t, job, nodes = a["time"], a["job"], a["nodes"]
            self.seen.append((t // SEC, a["type"], job, nodes))
            print(f"  t={t // SEC:>5}s  {NAMES.get(a['type'], a['type']):<6} job {job}",
                  *(["on", *nodes] if nodes else []))
            self.settle(t)
            if a["type"] in (rota.ROTA_ACTION_START, ROTA_ACTION_GROW):
                for n in nodes:
                    if self.owner[n] is not None:
                        self.errors.append(f"node {n} given to job {job}, job {self.owner[n]} "
                                           "holds it")
                    self.owner[n] = job
                if a["type"] == rota.ROTA_ACTION_START:
                    self.done[job], self.since[job] = 0.0, t
            elif a["type"] == ROTA_ACTION_SHRINK:
                for n in nodes:
                    if self.owner[n] != job:
                        self.errors.append(f"job {job} gives up node {n}, which it does not hold")
                    self.owner[n] = None
            elif a["type"] == rota.ROTA_ACTION_KILL:
                left = 1.0 - self.done.pop(job)
                del self.since[job]
                if abs(left) > 1e-6:
                    self.errors.append(f"job {job} ended with {left:+.6f} of its work left")
                self.owner = [None if o == job else o for o in self.owner]
        self.check_allocations()

    def check_allocations(self):
        for job in self.done:
            _, _, lo, ideal, _ = self.spec[job]
            p = self.procs(job)
            if not lo <= p <= ideal:
                self.errors.append(f"job {job} runs on {p} processors (min {lo}, ideal {ideal})")
            info = self.eng.job_info(job)
            mine = [n for n, o in enumerate(self.owner) if o == job]
            if info.nodes != p or self.eng.job_nodes(job) != mine:
                self.errors.append(f"job {job}: the engine has {self.eng.job_nodes(job)}, the "
                                   f"machine {mine}")

    def run(self):
        arrivals = sorted(JOBS, key=lambda j: j[1])
        nxt = 0
        sensed = False
        for _ in range(100):
            times = []
            if nxt < len(arrivals):
                times.append(arrivals[nxt][1] * SEC)
            if not sensed:
                times.append(500 * SEC)  # the machine measures its jobs then
            w = self.eng.next_wakeup()
            if w is not None:
                times.append(w)
            if not times:
                return
            t = min(times)
            self.eng.advance(t)
            self.apply(self.eng.actions())  # walltime ends: the work is done
            while nxt < len(arrivals) and arrivals[nxt][1] * SEC == t:
                submit(self.eng, arrivals[nxt])
                nxt += 1
            self.eng.schedule()
            self.apply(self.eng.actions())
            if t == 500 * SEC:
                self.sense(t)
                sensed = True
        self.errors.append("the schedule did not finish")

    def sense(self, t):
        """At 500 s, J1 and J2 run on 2 processors: report their progress."""
        self.settle(t)
        plan = self.eng.next_wakeup()
        # What the machine measured: the engine's plan stays.
        self.eng.check(self.eng.lib.rota_job_progress(self.eng.e, 1, self.done[1]))
        if self.eng.next_wakeup() != plan:
            self.errors.append("reporting the modelled progress moved the plan")
        info = self.eng.job_info(1)
        print(f"  t={t // SEC:>5}s  progress of job 1: {info.progress:.3f} (measured "
              f"{self.done[1]:.3f})")
        if abs(info.progress - self.done[1]) > 1e-9:
            self.errors.append(f"rota_job_info_get says {info.progress}, reported {self.done[1]}")
        # Job 2 turns out to be further along (the sensing functions of
        # [Weissman03] §3): its end comes earlier. The machine keeps it: the
        # same share of its work now counts as done.
        self.eng.check(self.eng.lib.rota_job_progress(self.eng.e, 2, self.done[2] + 0.1))
        if self.eng.job_info(2).progress < self.done[2] + 0.1 - 1e-9:
            self.errors.append("job 2's reported progress was not taken")
        self.done[2] += 0.1
        # 0.1 of the work on 2 processors is 200 s: J4 still ends first
        # (1110), so the walltime of job 2 only shows once it grows.


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", help="path of librota.so (default: $ROTA_LIB)")
    args = ap.parse_args()
    lib = rota.load_library(rota.find_library(args.lib))
    declare(lib)
    print(f"rota {lib.rota_version().decode()} via ctypes: Even-H-FQ on 8 processors "
          "([Weissman03] Figure 3(b))")
    try:
        with rota.Engine(lib, CONF) as eng:
            m = Machine(eng)
            m.run()
            c = eng.counters()
            print(f"  harvest attempts {c.harvest_attempts}, harvests {c.harvests}, "
                  f"shrinks {c.shrinks}, grows {c.grows}")
            if (c.harvest_attempts, c.harvests, c.shrinks, c.grows) != (2, 1, 2, 2):
                m.errors.append("counters differ from Figure 3(b)'s two attempts, one harvest")
    except (rota.RotaError, AssertionError) as x:
        print(f"error: {x}", file=sys.stderr)
        return 1
    # Job 2's reported progress moves its end: 0.1 of its work sooner, at
    # 4 processors after 1110 that is 100 s, so it ends at 1450.
    want = [e if not (e[2] == 2 and e[1] == rota.ROTA_ACTION_KILL) else (1450, *e[1:])
            for e in EXPECTED]
    want.sort(key=lambda e: e[0])
    if m.seen != want:
        for got, exp in zip(m.seen + [None] * len(want), want):
            if got != exp:
                m.errors.append(f"first difference: got {got}, expected {exp}")
                break
    for e in m.errors:
        print("FAIL:", e, file=sys.stderr)
    print("\nPASS" if not m.errors else "\nFAIL")
    return 0 if not m.errors else 1


if __name__ == "__main__":
    sys.exit(main())
