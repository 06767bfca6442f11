#!/usr/bin/env python3
"""Embedding rota from Python with the standard library's ctypes.

The program loads librota.so, declares rota.h's structs and functions, and
plays the machine itself, as bindings-examples/c/schedule.c does: it owns
the clock and the nodes, feeds the engine events (rota_advance, rota_submit,
rota_job_end, rota_schedule), carries out the actions it gets back
(rota_next_action) and reads the engine's state with the queries.

  Run 1  [Zhang00] Figure 4 on 8 nodes under EASY (backfill/first_fit.lua):
         job 5 is backfilled at t=100, job 3 starts at 200, job 4 at 300.
         At t=100: the queries, and a duplicate id (ROTA_EEXIST) and time
         going backwards (ROTA_ETIME) refused with their messages.
  Run 2  a case where the backfill order matters, first fit.
  Run 3  the same jobs with a backfill policy written in Python, installed
         as a native callback with rota_set_backfill_select.
  Run 4  Figure 4 again, the engine snapshotted at t=100 (rota_snapshot,
         through a Python writer callback), freed, and restored
         (rota_restore): the restored engine finishes the schedule with
         the same start times.

It exits 1 if a call fails unexpectedly or a start time differs.

The module is importable: `import schedule` gives the declarations, the
Engine wrapper and find_library() without running anything (gang.py, the
gang-scheduling example beside it, does so).

Usage:
  ROTA_LIB=build/lib/librota.so python3 schedule.py
  python3 schedule.py --lib build/lib/librota.so
  python3 schedule.py --check-layout build/bin/header_c99
      compare the ctypes structs with the C compiler's layout, as printed
      by the header check program (`header_c99 --layout`).
"""

import argparse
import ctypes
import os
import subprocess
import sys
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    byref,
    c_char_p,
    c_int,
    c_double,
    c_int32,
    c_int64,
    c_size_t,
    c_uint32,
    c_uint64,
    c_void_p,
)

SEC = 1_000_000  # rota_time counts microseconds

# ---------------------------------------------------------------------------
# rota.h, transcribed. Field order and types must match the header exactly;
# --check-layout verifies them against the C compiler.

ROTA_ABI_VERSION = 10

ROTA_OK, ROTA_DONE, ROTA_EINVAL, ROTA_ECONFIG, ROTA_ENOTFOUND, ROTA_EEXIST = range(6)
ROTA_ETIME, ROTA_ESCRIPT, ROTA_ESTATE, ROTA_EINTERNAL, ROTA_ENOMEM, ROTA_ERANGE = range(6, 12)

ROTA_ACTION_START, ROTA_ACTION_KILL, ROTA_ACTION_REJECT = 1, 2, 3
# Gang scheduling (a [gang] table in the configuration); gang.py plays them.
(ROTA_ACTION_REPLICATE, ROTA_ACTION_UNREPLICATE, ROTA_ACTION_MOVE, ROTA_ACTION_SWITCH,
 ROTA_ACTION_SUSPEND, ROTA_ACTION_RESUME, ROTA_ACTION_MIGRATE) = range(4, 11)
ROTA_JOB_PENDING, ROTA_JOB_HELD, ROTA_JOB_QUEUED, ROTA_JOB_RUNNING = range(4)
ROTA_JOB_SUSPENDED, ROTA_JOB_WAITING = 4, 5
ROTA_AFTER_ANY, ROTA_AFTER_OK = 0, 1
(ROTA_HOOK_ADMISSION, ROTA_HOOK_ORDER, ROTA_HOOK_BACKFILL_SELECT, ROTA_HOOK_MIGRATION_OPTION,
 ROTA_HOOK_PLACEMENT, ROTA_HOOK_HARVEST, ROTA_HOOK_DISTRIBUTION, ROTA_HOOK_PREEMPT,
 ROTA_HOOK_COUNT) = range(9)

rota_time = c_int64
rota_engine_p = c_void_p  # opaque


class RotaNodeRun(Structure):
    _fields_ = [("first", c_int32), ("count", c_int32)]


class RotaDependency(Structure):
    _fields_ = [("job", c_int64), ("type", c_int), ("delay", rota_time)]  # ROTA_AFTER_*


class RotaJob(Structure):
    _fields_ = [
        ("size", c_size_t),
        ("id", c_int64),
        ("estimate", rota_time),
        ("procs", c_int32),
        ("user", c_int32),
        ("priority", c_int32),
        ("npools", c_int32),
        ("pools", POINTER(c_int64)),
        ("ncomponents", c_int32),
        ("components", POINTER(c_int32)),
        ("submitted", rota_time),
        ("min_procs", c_int32),
        ("adapt_bytes", c_int64),
        ("job_class", c_int32),
        ("account", c_char_p),  # ABI 7: NULL or b"" for none, copied by the engine
        ("partition", c_char_p),
        ("qos", c_char_p),
        # ABI 10: constraints
        ("begin", rota_time),
        ("ninclude", c_int32),
        ("include", POINTER(RotaNodeRun)),
        ("nexclude", c_int32),
        ("exclude", POINTER(RotaNodeRun)),
        ("ndepends", c_int32),
        ("depends", POINTER(RotaDependency)),
    ]


class RotaAction(Structure):
    _fields_ = [
        ("size", c_size_t),
        ("type", c_int),
        ("job", c_int64),
        ("time", rota_time),
        ("row", c_int32),
        ("nnodes", c_int32),
        ("nruns", c_int32),
        ("runs", POINTER(RotaNodeRun)),
        ("reason", c_char_p),
        ("option", c_int32),
        ("delay", rota_time),
        ("from_row", c_int32),
        ("run_cluster", POINTER(c_int32)),
    ]


class RotaJobInfo(Structure):
    _fields_ = [
        ("size", c_size_t),
        ("id", c_int64),
        ("state", c_int),
        ("submit", rota_time),
        ("start", rota_time),
        ("reserved_start", rota_time),
        ("estimate", rota_time),
        ("procs", c_int32),
        ("jumps", c_int32),
        ("nodes", c_int32),
        ("min_procs", c_int32),
        ("harvests", c_int32),
        ("progress", c_double),
        ("job_class", c_int32),
        ("preemptions", c_int32),
        ("on_disk", c_int32),
        ("reserved", c_int32),
        ("executed", rota_time),
        ("dnd_end", rota_time),
        ("wait_since", rota_time),
        ("swapping_until", rota_time),
        ("account", c_char_p),  # ABI 7: b"" for none
        ("partition", c_char_p),
        ("qos", c_char_p),
        ("begin", rota_time),  # ABI 10
        ("unmet", c_int32),
        ("eligible", rota_time),
    ]


class RotaReservation(Structure):
    _fields_ = [
        ("size", c_size_t),
        ("job", c_int64),
        ("start", rota_time),
        ("end", rota_time),
        ("procs", c_int32),
        ("row", c_int32),
    ]


class RotaMachineInfo(Structure):
    _fields_ = [
        ("size", c_size_t),
        ("procs", c_int32),
        ("rows", c_int32),
        ("npools", c_int32),
        ("reservation_depth", c_int32),
        ("backfill", c_int32),
        ("migration", c_int32),
        ("slice", rota_time),
        ("nclusters", c_int32),
        ("nclasses", c_int32),
    ]


class RotaCounters(Structure):
    _fields_ = [
        ("size", c_size_t),
        ("passes", c_uint64),
        ("submitted", c_uint64),
        ("started", c_uint64),
        ("backfilled", c_uint64),
        ("finished", c_uint64),
        ("killed", c_uint64),
        ("rejected", c_uint64),
        ("cancelled", c_uint64),
        ("reloads", c_uint64),
        ("reload_failures", c_uint64),
        ("migrations", c_uint64),
        ("migrated_tasks", c_uint64),
        ("window_extensions", c_uint64),
        ("requeued", c_uint64),
        ("adopted", c_uint64),
        ("harvest_attempts", c_uint64),
        ("harvests", c_uint64),
        ("grows", c_uint64),
        ("shrinks", c_uint64),
        ("preemptions", c_uint64),
        ("swap_ins", c_uint64),
        ("class_reservations", c_uint64),
        ("rekeys", c_uint64),
        ("resorts", c_uint64),
        ("reservations_moved", c_uint64),
    ]


class RotaUserInfo(Structure):
    _fields_ = [
        ("size", c_size_t),
        ("usage", c_double),
        ("procs", c_int32),
        ("running", c_int32),
    ]


class RotaHookStats(Structure):
    _fields_ = [
        ("size", c_size_t),
        ("calls", c_uint64),
        ("failures", c_uint64),
        ("nanoseconds", c_uint64),
        ("skipped", c_uint64),
        ("quarantined", c_int32),
    ]


class RotaBatch(Structure):  # filled in by the library, size included
    _fields_ = [
        ("size", c_size_t),
        ("n", c_size_t),
        ("id", POINTER(c_int64)),
        ("procs", POINTER(c_int32)),
        ("estimate", POINTER(rota_time)),
        ("submit", POINTER(rota_time)),
        ("user", POINTER(c_int32)),
        ("priority", POINTER(c_int32)),
        ("resources", c_int32),
        ("R", POINTER(c_double)),
        ("job_class", POINTER(c_int32)),
        ("class_priority", POINTER(c_int32)),
        ("account", POINTER(c_char_p)),  # ABI 7: interned strings, b"" for none
        ("partition", POINTER(c_char_p)),
        ("qos", POINTER(c_char_p)),
    ]


class RotaBackfillContext(Structure):  # filled in by the library
    _fields_ = [
        ("size", c_size_t),
        ("now", rota_time),
        ("machine_procs", c_int32),
        ("rows", c_int32),
        ("free_procs", c_int32),
        ("queue_length", c_int32),
        ("running", c_int32),
        ("head_id", c_int64),
        ("head_procs", c_int32),
        ("head_jumps", c_int32),
        ("shadow_time", rota_time),
        ("head_row", c_int32),
        ("extra_procs", c_int32),
        ("resources", c_int32),
        ("capacity", POINTER(c_int64)),
        ("usage", POINTER(c_double)),
        ("head_demand", POINTER(c_double)),
        ("extra", POINTER(c_double)),
        ("users", c_int32),
        ("total_usage", c_double),
        ("user_ids", POINTER(c_int32)),
        ("user_usage", POINTER(c_double)),
        ("user_procs", POINTER(c_int32)),
        ("user_running", POINTER(c_int32)),
        ("head_user", c_int32),  # ABI 7
        ("head_account", c_char_p),
        ("head_partition", c_char_p),
        ("head_qos", c_char_p),
    ]


STRUCTS = {
    "rota_node_run": RotaNodeRun,
    "rota_dependency": RotaDependency,
    "rota_job": RotaJob,
    "rota_action": RotaAction,
    "rota_job_info": RotaJobInfo,
    "rota_reservation": RotaReservation,
    "rota_machine_info": RotaMachineInfo,
    "rota_counters": RotaCounters,
    "rota_user_info": RotaUserInfo,
    "rota_hook_stats": RotaHookStats,
    "rota_batch": RotaBatch,
    "rota_backfill_context": RotaBackfillContext,
}

BACKFILL_SELECT_FN = CFUNCTYPE(c_int, c_void_p, POINTER(RotaBatch), POINTER(RotaBackfillContext),
                               POINTER(c_uint32))
ROTA_STREAM = 1
LOG_FN = CFUNCTYPE(None, c_void_p, c_int, c_char_p)  # ud, level (ROTA_LOG_*), line
WRITER_FN = CFUNCTYPE(c_int, c_void_p, c_void_p, c_size_t)  # ud, data, len; nonzero stops
ID_LIST = (rota_engine_p, POINTER(c_int64), c_size_t, POINTER(c_size_t))

# name: (restype, argtypes), for every function of rota.h.
FUNCTIONS = {
    "rota_version": (c_char_p, ()),
    "rota_abi_version": (c_int, ()),
    "rota_status_name": (c_char_p, (c_int,)),
    "rota_strerror": (c_char_p, (c_int,)),
    "rota_errmsg": (c_char_p, (rota_engine_p,)),
    "rota_engine_new": (c_int, (c_char_p, c_char_p, POINTER(rota_engine_p))),
    "rota_engine_new_file": (c_int, (c_char_p, POINTER(rota_engine_p))),
    "rota_engine_free": (None, (rota_engine_p,)),
    "rota_advance": (c_int, (rota_engine_p, rota_time)),
    "rota_now": (rota_time, (rota_engine_p,)),
    "rota_submit": (c_int, (rota_engine_p, POINTER(RotaJob))),
    "rota_job_end": (c_int, (rota_engine_p, c_int64)),
    "rota_job_exit": (c_int, (rota_engine_p, c_int64, c_int)),
    "rota_cancel": (c_int, (rota_engine_p, c_int64)),
    "rota_schedule": (c_int, (rota_engine_p,)),
    "rota_next_wakeup": (c_int, (rota_engine_p, POINTER(rota_time))),
    "rota_next_action": (c_int, (rota_engine_p, POINTER(RotaAction))),
    "rota_job_info_get": (c_int, (rota_engine_p, c_int64, POINTER(RotaJobInfo))),
    "rota_queue": (c_int, ID_LIST),
    "rota_held": (c_int, ID_LIST),
    "rota_running": (c_int, ID_LIST),
    "rota_job_nodes": (
        c_int,
        (rota_engine_p, c_int64, POINTER(c_int32), c_size_t, POINTER(c_size_t)),
    ),
    "rota_free_nodes": (c_int, (rota_engine_p, POINTER(c_int32), c_size_t, POINTER(c_size_t))),
    "rota_reservations": (
        c_int,
        (rota_engine_p, POINTER(RotaReservation), c_size_t, POINTER(c_size_t)),
    ),
    "rota_job_pools": (
        c_int,
        (rota_engine_p, c_int64, POINTER(c_int64), c_size_t, POINTER(c_size_t)),
    ),
    "rota_pool_profile": (
        c_int,
        (rota_engine_p, c_int32, POINTER(rota_time), POINTER(c_int64), c_size_t,
         POINTER(c_size_t)),
    ),
    "rota_machine_info_get": (c_int, (rota_engine_p, POINTER(RotaMachineInfo))),
    "rota_counters_get": (c_int, (rota_engine_p, POINTER(RotaCounters))),
    "rota_hook_name": (c_char_p, (c_int,)),
    "rota_hook_stats_get": (c_int, (rota_engine_p, c_int, POINTER(RotaHookStats))),
    "rota_hook_script": (c_char_p, (rota_engine_p, c_int)),
    "rota_preset_name": (c_char_p, (c_int,)),
    "rota_reload_policies": (c_int, (rota_engine_p,)),
    "rota_set_backfill_select": (c_int, (rota_engine_p, BACKFILL_SELECT_FN, c_void_p, c_int)),
    "rota_set_log": (c_int, (rota_engine_p, LOG_FN, c_void_p)),
    "rota_active_row": (c_int, (rota_engine_p, POINTER(c_int32))),
    "rota_matrix_row": (c_int, (rota_engine_p, c_int32, POINTER(c_int64), c_size_t, POINTER(c_size_t))),
    "rota_row_free_nodes": (c_int, (rota_engine_p, c_int32, POINTER(c_int32), c_size_t, POINTER(c_size_t))),
    "rota_job_rows": (c_int, (rota_engine_p, c_int64, POINTER(c_int32), POINTER(c_uint32))),
    "rota_log_stderr": (None, (c_void_p, c_char_p)),
    "rota_snapshot": (c_int, (rota_engine_p, WRITER_FN, c_void_p)),
    "rota_restore": (
        c_int,
        (c_char_p, c_char_p, c_void_p, c_void_p, c_size_t, POINTER(rota_engine_p)),
    ),
}


def load_library(path):
    lib = ctypes.CDLL(path)
    for name, (restype, argtypes) in FUNCTIONS.items():
        f = getattr(lib, name)
        f.restype = restype
        f.argtypes = list(argtypes)
    return lib


def new_struct(cls):
    """A zeroed struct with its size field set, as rota.h asks."""
    s = cls()
    s.size = ctypes.sizeof(cls)
    return s


# ---------------------------------------------------------------------------
# A thin wrapper: a failed call raises RotaError with the engine's message.


class RotaError(Exception):
    def __init__(self, status, name, message):
        super().__init__(f"{name}: {message}")
        self.status = status
        self.name = name
        self.message = message


class Engine:
    def __init__(self, lib, config_toml, base_dir=None):
        self.lib = lib
        self.e = rota_engine_p()
        rc = lib.rota_engine_new(
            config_toml.encode(), base_dir.encode() if base_dir else None, byref(self.e)
        )
        if rc != ROTA_OK:
            # Like sqlite3_open(), the handle is set even on failure: read
            # the message, then free it.
            err = self.error(rc)
            lib.rota_engine_free(self.e)
            self.e = None
            raise err
        self._callbacks = []  # ctypes callbacks must outlive their use

    def close(self):
        if self.e:
            self.lib.rota_engine_free(self.e)
            self.e = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def error(self, rc):
        return RotaError(
            rc,
            self.lib.rota_status_name(rc).decode(),
            self.lib.rota_errmsg(self.e).decode(errors="replace"),
        )

    def check(self, rc, *ok):
        if rc not in (ROTA_OK,) + ok:
            raise self.error(rc)
        return rc

    # events
    def advance(self, t):
        self.check(self.lib.rota_advance(self.e, t))

    def now(self):
        return self.lib.rota_now(self.e)

    def submit(self, id, procs, estimate, user=-1, priority=0):
        j = new_struct(RotaJob)
        j.id, j.procs, j.estimate, j.user, j.priority = id, procs, estimate, user, priority
        self.check(self.lib.rota_submit(self.e, byref(j)))

    def job_end(self, id):
        self.check(self.lib.rota_job_end(self.e, id))

    def schedule(self):
        self.check(self.lib.rota_schedule(self.e))

    def next_wakeup(self):
        t = rota_time()
        rc = self.check(self.lib.rota_next_wakeup(self.e, byref(t)), ROTA_DONE)
        return t.value if rc == ROTA_OK else None

    def actions(self):
        """Pop every pending action, copied out: `runs` and `reason` point
        into the engine and stay valid only until the next event call."""
        out = []
        a = new_struct(RotaAction)
        while self.check(self.lib.rota_next_action(self.e, byref(a)), ROTA_DONE) == ROTA_OK:
            out.append(
                {
                    "type": a.type,
                    "job": a.job,
                    "time": a.time,
                    # nodes come as runs of consecutive numbers
                    "nodes": [
                        a.runs[k].first + i for k in range(a.nruns) for i in range(a.runs[k].count)
                    ],
                    "reason": a.reason.decode() if a.reason else None,
                    "row": a.row,  # gang: the matrix row; 0 under space sharing
                    "option": a.option,  # MIGRATE only
                    "delay": a.delay,  # MIGRATE only
                }
            )
        return out

    # queries
    def _list(self, fn, ctype):
        """The list protocol: ask with a small buffer; ROTA_ERANGE gives the
        full count in *n, so ask again with that many."""
        cap = 4
        while True:
            buf = (ctype * cap)()
            if hasattr(ctype, "_fields_") and cap > 0:
                buf[0].size = ctypes.sizeof(ctype)  # the element stride
            n = c_size_t()
            rc = self.check(fn(self.e, buf, cap, byref(n)), ROTA_ERANGE)
            if rc == ROTA_OK:
                return list(buf[: n.value])
            cap = n.value

    def queue(self):
        return self._list(self.lib.rota_queue, c_int64)

    def held(self):
        return self._list(self.lib.rota_held, c_int64)

    def running(self):
        return self._list(self.lib.rota_running, c_int64)

    def job_nodes(self, id):
        return self._list(lambda e, out, cap, n: self.lib.rota_job_nodes(e, id, out, cap, n),
                          c_int32)

    def free_nodes(self):
        return self._list(self.lib.rota_free_nodes, c_int32)

    def reservations(self):
        return self._list(self.lib.rota_reservations, RotaReservation)

    def job_info(self, id):
        info = new_struct(RotaJobInfo)
        self.check(self.lib.rota_job_info_get(self.e, id, byref(info)))
        return info

    def machine(self):
        m = new_struct(RotaMachineInfo)
        self.check(self.lib.rota_machine_info_get(self.e, byref(m)))
        return m

    def counters(self):
        c = new_struct(RotaCounters)
        self.check(self.lib.rota_counters_get(self.e, byref(c)))
        return c

    def hook_stats(self):
        """{hook name: RotaHookStats} for every hook the library knows."""
        stats, h = {}, 0
        while (name := self.lib.rota_hook_name(h)) is not None:
            st = new_struct(RotaHookStats)
            self.check(self.lib.rota_hook_stats_get(self.e, h, byref(st)))
            stats[name.decode()] = st
            h += 1
        return stats

    # the Ousterhout matrix (gang scheduling; one row under space sharing)
    def active_row(self):
        r = c_int32()
        self.check(self.lib.rota_active_row(self.e, byref(r)))
        return r.value

    def matrix_row(self, row):
        """The job in each column of `row`, -1 for an empty cell."""
        return self._list(lambda e, out, cap, n: self.lib.rota_matrix_row(e, row, out, cap, n),
                          c_int64)

    def job_rows(self, id):
        """A running job's home row and the set of rows it holds."""
        home, mask = c_int32(), c_uint32()
        self.check(self.lib.rota_job_rows(self.e, id, byref(home), byref(mask)))
        return home.value, {r for r in range(32) if mask.value >> r & 1}

    # policies
    def set_backfill_select(self, select, flags=0):
        """Install a Python function select(candidates, ctx) -> list of
        0-based indices as the engine's backfill_select policy (None
        restores the configured one)."""
        if select is None:
            self.check(self.lib.rota_set_backfill_select(self.e, BACKFILL_SELECT_FN(), None, 0))
            return

        def trampoline(_ud, cand, ctx, picks):
            try:  # an exception must not unwind into the library
                order = list(select(cand.contents, ctx.contents))
                # picks holds one entry per candidate: more would write past it.
                if len(order) > cand.contents.n:
                    raise ValueError(f"{len(order)} picks for {cand.contents.n} candidates")
                for k, i in enumerate(order):
                    picks[k] = i
                return len(order)
            except Exception as x:  # noqa: BLE001
                print(f"  backfill policy failed: {x!r}", file=sys.stderr)
                return -1  # counted as a hook failure: no backfill this pass

        cb = BACKFILL_SELECT_FN(trampoline)
        self._callbacks.append(cb)
        self.check(self.lib.rota_set_backfill_select(self.e, cb, None, flags))

    def set_log(self, fn):
        cb = LOG_FN(lambda _ud, _level, line: fn(line.decode(errors="replace")))
        self._callbacks.append(cb)
        self.check(self.lib.rota_set_log(self.e, cb, None))

    # restarts (docs/snapshot.md)
    def snapshot(self):
        """The engine's state as bytes (pull the actions first)."""
        pieces = []

        def write(_ud, data, n):
            try:  # ctypes answers 0 (go on) for a callback that raises
                pieces.append(ctypes.string_at(data, n))
                return 0
            except Exception:  # noqa: BLE001
                return 1  # rota_snapshot stops: ROTA_EABORT

        cb = WRITER_FN(write)
        self.check(self.lib.rota_snapshot(self.e, cb, None))
        return b"".join(pieces)

    def restore(self, config_toml, data, base_dir=None):
        """Replaces this engine by one restored from `data` and the
        configuration. On failure the old engine is kept."""
        e = rota_engine_p()
        buf = ctypes.create_string_buffer(data, len(data))
        rc = self.lib.rota_restore(config_toml.encode(), base_dir.encode() if base_dir else None,
                                   None, buf, len(data), byref(e))
        if rc != ROTA_OK:
            err = RotaError(rc, self.lib.rota_status_name(rc).decode(),
                            self.lib.rota_errmsg(e).decode(errors="replace"))
            self.lib.rota_engine_free(e)
            raise err
        self.lib.rota_engine_free(self.e)
        self.e = e  # settings of the handle (log sink, native policy) are not in a snapshot


# ---------------------------------------------------------------------------
# The machine the program plays.

EASY_TOML = """
[machine]
procs = 8
[scheduler]
preset = "easy"
"""

# (id, submit, procs, estimate, runtime, expected start or None for REJECT), seconds.
# [Zhang00] Figure 4: jobs 1-5 at t=0. Jobs 4 and 5 end before their estimate
# (rota_job_end); the others run to it and are killed at their walltime.
FIGURE4 = [
    (1, 0, 4, 100, 100, 0),
    (2, 0, 4, 200, 200, 0),
    (3, 0, 8, 100, 100, 200),
    (4, 0, 6, 100, 70, 300),
    (5, 0, 4, 100, 60, 100),
    (6, 0, 16, 100, 100, None),  # wider than the machine
]
# Job 12 waits for job 11, reserved at 100; 13 and 14 each fit in the two
# idle nodes until then, not both.
ORDER_MATTERS = [
    (11, 0, 6, 100, 100),
    (12, 0, 8, 100, 100),
    (13, 0, 2, 90, 80),
    (14, 0, 2, 50, 40),
]
FIRST_FIT = {11: 0, 12: 100, 13: 0, 14: 200}
SHORTEST_FIRST = {11: 0, 12: 100, 13: 200, 14: 0}


def secs(t):
    return f"{t / SEC:.0f}s"


def play(eng, jobs, after_pass=None):
    """The embedder's event loop. Returns {id: start time in s or None}."""
    procs = eng.machine().procs
    owner = [None] * procs
    spec = {j[0]: j for j in jobs}
    start, end, rejected = {}, {}, set()  # end: when a job ends on its own
    arrivals = sorted(jobs, key=lambda j: j[1])
    nxt = 0

    def release(job):
        for k in range(procs):
            if owner[k] == job:
                owner[k] = None

    def carry_out(actions):
        for a in actions:
            job, t = a["job"], a["time"]
            _, _, p, est, run = spec[job][:5]
            if a["type"] == ROTA_ACTION_START:
                print(f"  t={t // SEC:>6}s  START   job {job} on {len(a['nodes'])} nodes:",
                      *a["nodes"])
                assert len(a["nodes"]) == p, "wrong node count"
                for n in a["nodes"]:
                    assert owner[n] is None, f"node {n} is busy"
                    owner[n] = job
                start[job] = t
                # A job that would outlive its estimate is left to the engine.
                if run < est:
                    end[job] = t + run * SEC
            elif a["type"] == ROTA_ACTION_KILL:
                print(f"  t={t // SEC:>6}s  KILL    job {job} (its estimate expired)")
                assert t == start[job] + est * SEC, "killed at the wrong time"
                release(job)
            elif a["type"] == ROTA_ACTION_REJECT:
                print(f"  t={t // SEC:>6}s  REJECT  job {job}: {a['reason']}")
                rejected.add(job)
            else:
                raise AssertionError(f"unknown action type {a['type']}")

    for _ in range(1000):
        times = [t for t in end.values()]
        if nxt < len(arrivals):
            times.append(arrivals[nxt][1] * SEC)
        w = eng.next_wakeup()
        if w is not None:
            times.append(w)
        if not times:
            return {j[0]: (None if j[0] in rejected else start.get(j[0], -1)) for j in jobs}
        t = min(times)
        eng.advance(t)
        carry_out(eng.actions())  # walltime kills
        for job in [j for j, e in end.items() if e == t]:
            eng.job_end(job)
            print(f"  t={t // SEC:>6}s  END     job {job} (reported with rota_job_end)")
            release(job)
            del end[job]
        while nxt < len(arrivals) and arrivals[nxt][1] * SEC == t:
            job, _, p, est = arrivals[nxt][:4]
            eng.submit(job, p, est * SEC)
            nxt += 1
        eng.schedule()
        carry_out(eng.actions())
        if after_pass:
            after_pass(eng, t)
    raise AssertionError("the schedule did not finish")


def expect_error(eng, status, what, fn, *args):
    try:
        fn(*args)
    except RotaError as x:
        if x.status != status:
            raise
        print(f"    {what} -> {x.name}: {x.message}")
        return
    raise AssertionError(f"{what} did not fail")


def figure4_at_100(eng, t):
    if t != 100 * SEC:
        return
    print(f"  -- state at t={secs(eng.now())} --")
    print("    queue:       ", *eng.queue())
    print("    held:        ", *(eng.held() or ["(none)"]))
    print("    running:     ", *eng.running())
    print("    idle nodes:  ", *(eng.free_nodes() or ["(none)"]))
    print("    job 5 holds: ", *eng.job_nodes(5))
    for r in eng.reservations():
        print(f"    reservation: job {r.job} on {r.procs} procs "
              f"from {secs(r.start)} to {secs(r.end)}")
    info = eng.job_info(3)
    state = ["pending", "held", "queued", "running"][info.state]
    print(f"    job 3: {state}, submitted at {secs(info.submit)}, "
          f"reserved start {secs(info.reserved_start)}")
    c = eng.counters()
    print("    counters:", ", ".join(
        f"{k} {getattr(c, k)}" for k in
        ("passes", "submitted", "started", "backfilled", "finished", "killed", "rejected")))
    assert eng.queue() == [3, 4] and eng.running() == [2, 5] and eng.free_nodes() == []
    assert eng.job_nodes(5) == [0, 1, 2, 3]
    assert [(r.job, r.start) for r in eng.reservations()] == [(3, 200 * SEC)]
    assert info.state == ROTA_JOB_QUEUED and c.backfilled == 1 and c.rejected == 1

    print("  -- refused calls (the engine is left unchanged) --")
    expect_error(eng, ROTA_EEXIST, "rota_submit(job 3 again)", eng.submit, 3, 1, 10 * SEC)
    expect_error(eng, ROTA_ETIME, "rota_advance(50s)", eng.advance, 50 * SEC)
    assert eng.now() == 100 * SEC
    expect_error(eng, ROTA_ENOTFOUND, "rota_job_end(job 42)", eng.job_end, 42)


def shortest_first(c, ctx):
    """backfill_select: candidates with the shortest estimate first (ties in
    queue order). Indices are 0-based into the candidate arrays."""
    order = sorted(range(c.n), key=lambda i: c.estimate[i])
    print(f"  t={ctx.now // SEC:>6}s  (shortest_first: {c.n} candidates, head job {ctx.head_id};"
          f" order: {' '.join(str(c.id[i]) for i in order)})")
    return order


def restart_at_100(eng, t):
    if t != 100 * SEC:
        return
    queue = eng.queue()
    data = eng.snapshot()
    print(f"  -- t={secs(t)}: snapshot of {len(data)} bytes; engine freed and restored --")
    assert data.startswith(b"rota-snapshot "), "not a snapshot"
    eng.restore(EASY_TOML, data)
    assert eng.now() == t and eng.queue() == queue, "the restored engine differs"
    eng.set_log(lambda line: print(f"  rota log: {line}"))
    # A damaged snapshot is refused, and the engine in use is kept.
    expect_error(eng, ROTA_EINVAL, "rota_restore(truncated)", eng.restore, EASY_TOML, data[:-20])
    assert eng.now() == t


def run(lib, title, jobs, expected, select=None, after_pass=None):
    print(f"\n{title}")
    with Engine(lib, EASY_TOML) as eng:
        eng.set_log(lambda line: print(f"  rota log: {line}"))
        if select:
            eng.set_backfill_select(select)
        got = play(eng, jobs, after_pass)
        if select:
            st = eng.hook_stats()["backfill_select"]
            print(f"  native policy: {st.calls} calls, {st.failures} failures")
            assert st.calls > 0 and st.failures == 0
            eng.set_backfill_select(None)
    want = {k: (None if v is None else v * SEC) for k, v in expected.items()}
    if got != want:
        for k in sorted(want):
            if got.get(k) != want[k]:
                print(f"MISMATCH: job {k} started at {got.get(k)}, expected {want[k]}",
                      file=sys.stderr)
        return False
    print("  start times as expected")
    return True


def check_layout(prog):
    """Compare every ctypes struct with the C compiler's layout."""
    out = subprocess.run([prog, "--layout"], check=True, capture_output=True, text=True).stdout
    bad = 0
    seen = set()
    for line in out.splitlines():
        kind, name, *rest = line.split()
        cls = STRUCTS[name]
        seen.add(name)
        if kind == "struct":
            c_size, py_size = int(rest[0]), ctypes.sizeof(cls)
            ok = c_size == py_size
            what = f"sizeof({name}) C {c_size} ctypes {py_size}"
        else:
            field, c_off = rest[0], int(rest[1])
            py_off = getattr(cls, field).offset
            ok = c_off == py_off
            what = f"offsetof({name}, {field}) C {c_off} ctypes {py_off}"
        print(("ok       " if ok else "MISMATCH ") + what)
        bad += not ok
    for name, cls in STRUCTS.items():  # every ctypes field must have been compared
        if name not in seen:
            print(f"MISMATCH {name} missing from the C layout")
            bad += 1
    nfields = sum(len(cls._fields_) for cls in STRUCTS.values())
    nc = sum(1 for line in out.splitlines() if line.startswith("field"))
    if nc != nfields:
        print(f"MISMATCH the C side lists {nc} fields, ctypes declares {nfields}")
        bad += 1
    print("PASS" if not bad else "FAIL")
    return not bad


def find_library(arg):
    if arg:
        return arg
    if os.environ.get("ROTA_LIB"):
        return os.environ["ROTA_LIB"]
    here = os.path.dirname(os.path.abspath(__file__))
    for cand in ("../../build/lib/librota.so", "../../build-bind/lib/librota.so"):
        p = os.path.normpath(os.path.join(here, cand))
        if os.path.exists(p):
            return p
    return "librota.so"  # the dynamic loader's search path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", help="path of librota.so (default: $ROTA_LIB)")
    ap.add_argument("--check-layout", metavar="PROG",
                    help="compare struct layouts with `PROG --layout` and exit")
    args = ap.parse_args()
    if args.check_layout:
        return 0 if check_layout(args.check_layout) else 1

    lib = load_library(find_library(args.lib))
    if lib.rota_abi_version() != ROTA_ABI_VERSION:
        print(f"librota has ABI {lib.rota_abi_version()}, this program knows {ROTA_ABI_VERSION}",
              file=sys.stderr)
        return 1
    print(f"rota {lib.rota_version().decode()} (ABI {lib.rota_abi_version()}) via ctypes")

    ok = True
    try:
        ok &= run(lib, "Run 1: [Zhang00] Figure 4, EASY with backfill/first_fit.lua", FIGURE4,
                  {j[0]: j[5] for j in FIGURE4}, after_pass=figure4_at_100)
        ok &= run(lib, "Run 2: backfill order matters, first fit", ORDER_MATTERS, FIRST_FIT)
        ok &= run(lib, "Run 3: the same jobs, shortest_first in Python (rota_set_backfill_select)",
                  ORDER_MATTERS, SHORTEST_FIRST, select=shortest_first)
        ok &= run(lib, "Run 4: Figure 4, snapshotted at t=100 and restored (rota_restore)",
                  FIGURE4, {j[0]: j[5] for j in FIGURE4}, after_pass=restart_at_100)
        print("\nA Python policy answering more picks than candidates")
        with Engine(lib, EASY_TOML) as eng:
            eng.set_backfill_select(lambda c, ctx: [0] * (c.n + 5))
            got = play(eng, ORDER_MATTERS)
            st = eng.hook_stats()["backfill_select"]
            print(f"  native policy: {st.calls} calls, {st.failures} failures")
            # Every call fails (no backfill that pass); every job still runs.
            ok &= st.calls > 0 and st.failures == st.calls
            ok &= all(t is not None for t in got.values())
        print("\nBad configuration")
        try:
            Engine(lib, "[machine]\nprocs = 8\nnodes = 4\n")
            print("MISMATCH: an unknown key was accepted", file=sys.stderr)
            ok = False
        except RotaError as x:
            print(f"    rota_engine_new -> {x.name}: {x.message}")
            ok &= x.status == ROTA_ECONFIG and "machine.nodes" in x.message
    except (RotaError, AssertionError) as x:
        print(f"error: {x}", file=sys.stderr)
        ok = False
    print("\nPASS" if ok else "\nFAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
