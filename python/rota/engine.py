"""rota.Engine: one machine's scheduling state, driven by events."""

import ctypes
import logging
import os
from ctypes import byref, c_int32, c_int64, c_size_t
from dataclasses import dataclass

from . import _abi, _toml
from ._library import library
from .errors import RotaError
from .policy import Installed, hook_number, HOOKS

SECOND = 1_000_000  # rota_time counts microseconds

ACTIONS = {1: "start", 2: "kill", 3: "reject", 4: "replicate", 5: "unreplicate", 6: "move",
           7: "switch", 8: "suspend", 9: "resume", 10: "migrate", 11: "requeue", 12: "grow",
           13: "shrink", 14: "swap_out", 15: "swap_in"}
JOB_STATES = ("pending", "held", "queued", "running", "suspended", "waiting")
_LOG_LEVELS = {1: logging.ERROR, 2: logging.WARNING, 3: logging.INFO, 4: logging.DEBUG}
log = logging.getLogger("rota")


@dataclass(frozen=True, slots=True)
class Action:
    """One action of the engine (rota_action), copied out of it. `type` is
    "start", "kill", "reject", ...; times are microseconds; `nodes` lists
    the node numbers of START, GROW, SHRINK and SWAP_*."""

    type: str
    job: int
    time: int
    row: int = 0
    nodes: tuple = ()
    reason: str | None = None
    delay: int = 0
    option: int = 0
    from_row: int = 0


def _struct(cls):
    s = cls()
    s.size = ctypes.sizeof(cls)
    return s


def _as_dict(s):
    out = {}
    for name, _ in s._fields_:
        if name == "size":
            continue
        v = getattr(s, name)
        out[name] = v.decode(errors="replace") if isinstance(v, bytes) else v
    return out


def config_text(config):
    """(TOML text, base directory) of a configuration given as TOML text, a
    path to a TOML file, or a dict."""
    if isinstance(config, dict):
        return _toml.dumps(config), None
    if isinstance(config, os.PathLike) or (
            isinstance(config, str) and "\n" not in config and "=" not in config):
        path = os.fspath(config)
        with open(path, encoding="utf-8") as f:
            return f.read(), os.path.dirname(os.path.abspath(path))
    if isinstance(config, str):
        return config, None
    raise TypeError(f"a configuration is TOML text, a path or a dict, not {type(config).__name__}")


class Engine:
    """An engine made from `config` (TOML text, a path or a dict; see
    docs/config.md). `policies` maps hook names to Python callables
    (set_policy). Use it in a `with` block, or call close(): the engine's
    memory is freed then, deterministically.

        with rota.Engine({"machine": {"procs": 8}, "scheduler": {"preset": "easy"}}) as e:
            e.submit(1, procs=4, estimate=100 * rota.SECOND)
            e.schedule()
            for a in e.actions(): ...
    """

    def __init__(self, config, policies=None, base_dir=None, log_level=None, _restore=None):
        self._lib = library()
        self._e = None
        self._policies = {}
        self._in_callback = 0
        self._interrupt = None
        self._toml, own_dir = config_text(config)
        self._base_dir = base_dir if base_dir is not None else own_dir
        self._log_level = log_level
        self._log_cb = _abi.LOG_FN(self._on_log)
        self._create(_restore)
        for hook, fn in (policies or {}).items():
            self.set_policy(hook, fn)

    def _options(self):
        o = _struct(_abi.RotaEngineOptions)
        o.log = ctypes.cast(self._log_cb, ctypes.c_void_p)
        o.log_level = self._log_level or 0
        return o

    def _create(self, snapshot):
        lib, e = self._lib, _abi.rota_engine_p()
        base = self._base_dir.encode() if self._base_dir else None
        if snapshot is None:
            rc = lib.rota_engine_new_v2(self._toml.encode(), base, byref(self._options()), byref(e))
        else:
            buf = ctypes.create_string_buffer(snapshot, len(snapshot))
            rc = lib.rota_restore(self._toml.encode(), base, byref(self._options()), buf,
                                  len(snapshot), byref(e))
        if rc != _abi.OK:
            # As sqlite3_open(): the handle is set even on failure, to carry the message.
            err = RotaError(rc, lib.rota_status_name(rc).decode(),
                            lib.rota_errmsg(e).decode(errors="replace"))
            lib.rota_engine_free(e)
            raise err
        self._e = e

    def _on_log(self, _ud, level, line):
        try:
            log.log(_LOG_LEVELS.get(level, logging.INFO), "%s", line.decode(errors="replace"))
        except BaseException:  # noqa: BLE001 - nothing may unwind into the library
            pass

    # life cycle
    def close(self):
        """Free the engine now. Refused from inside one of its policies."""
        if self._in_callback:
            raise RuntimeError("an engine cannot be closed from one of its own policies; "
                               "close it after the call that ran the policy returns")
        if self._e is not None:
            self._lib.rota_engine_free(self._e)
            self._e = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_e", None) is not None and not self._in_callback:
            self._lib.rota_engine_free(self._e)
            self._e = None

    @property
    def closed(self):
        return self._e is None

    def _handle(self):
        if self._e is None:
            raise RuntimeError("the engine is closed")
        if self._in_callback:
            raise RotaError(_abi.ESTATE, "ROTA_ESTATE",
                            "a policy must not call into the engine that called it")
        return self._e

    def _check(self, rc, *ok):
        if self._interrupt is not None:
            x, self._interrupt = self._interrupt, None
            raise x
        if rc != _abi.OK and rc not in ok:
            lib = self._lib
            raise RotaError(rc, lib.rota_status_name(rc).decode(),
                            lib.rota_errmsg(self._e).decode(errors="replace"))
        return rc

    # events
    def advance(self, t):
        """Set the clock to `t` microseconds (never backwards)."""
        self._check(self._lib.rota_advance(self._handle(), int(t)))

    def now(self):
        return self._lib.rota_now(self._handle())

    def submit(self, id, procs, estimate, user=-1, priority=0, submitted=0, account=None,
               partition=None, qos=None, begin=0):
        """Submit job `id` at the current time: `procs` processors for at most
        `estimate` microseconds."""
        j = _struct(_abi.RotaJob)
        j.id, j.procs, j.estimate, j.user, j.priority = id, procs, int(estimate), user, priority
        j.submitted, j.begin = int(submitted), int(begin)
        j.account = account.encode() if account else None
        j.partition = partition.encode() if partition else None
        j.qos = qos.encode() if qos else None
        self._check(self._lib.rota_submit(self._handle(), byref(j)))

    def end(self, id, status=0):
        """Running job `id` ended on its own now (status 0: success)."""
        self._check(self._lib.rota_job_exit(self._handle(), int(id), int(status)))

    def cancel(self, id):
        self._check(self._lib.rota_cancel(self._handle(), int(id)))

    def schedule(self):
        """One scheduling pass over the events reported since the last."""
        self._check(self._lib.rota_schedule(self._handle()))

    def next_wakeup(self):
        """The time the engine must be advanced to even without events, or None."""
        t = c_int64()
        rc = self._check(self._lib.rota_next_wakeup(self._handle(), byref(t)), _abi.DONE)
        return t.value if rc == _abi.OK else None

    def actions(self):
        """Every pending action, oldest first, as Action objects."""
        out, e, lib = [], self._handle(), self._lib
        a = _struct(_abi.RotaAction)
        while self._check(lib.rota_next_action(e, byref(a)), _abi.DONE) == _abi.OK:
            nodes = ()
            if a.nruns:
                nodes = tuple(r.first + i for r in a.runs[:a.nruns] for i in range(r.count))
            out.append(Action(ACTIONS.get(a.type, str(a.type)), a.job, a.time, a.row, nodes,
                              a.reason.decode(errors="replace") if a.reason else None,
                              a.delay, a.option, a.from_row))
        return out

    def __iter__(self):
        return iter(self.actions())

    # queries
    def _list(self, fn, ctype, *args):
        # The list protocol: a short buffer first, ROTA_ERANGE gives the count.
        e, cap = self._handle(), 64
        while True:
            buf = (ctype * cap)()
            if hasattr(ctype, "_fields_"):
                buf[0].size = ctypes.sizeof(ctype)
            n = c_size_t()
            rc = self._check(fn(e, *args, buf, cap, byref(n)), _abi.ERANGE)
            if rc == _abi.OK:
                return list(buf[:n.value])
            cap = n.value

    def queue(self):
        """Waiting job ids, in queue order."""
        return self._list(self._lib.rota_queue, c_int64)

    def held(self):
        return self._list(self._lib.rota_held, c_int64)

    def running(self):
        return self._list(self._lib.rota_running, c_int64)

    def free_nodes(self):
        return self._list(self._lib.rota_free_nodes, c_int32)

    def job_nodes(self, id):
        return self._list(self._lib.rota_job_nodes, c_int32, int(id))

    def reservations(self):
        return [_as_dict(r) for r in self._list(self._lib.rota_reservations,
                                                _abi.RotaReservation)]

    def job(self, id):
        """What the engine holds on job `id`, as a dict (`state` a name)."""
        info = _struct(_abi.RotaJobInfo)
        self._check(self._lib.rota_job_info_get(self._handle(), int(id), byref(info)))
        d = _as_dict(info)
        d["state"] = JOB_STATES[info.state] if info.state < len(JOB_STATES) else info.state
        return d

    def machine(self):
        m = _struct(_abi.RotaMachineInfo)
        self._check(self._lib.rota_machine_info_get(self._handle(), byref(m)))
        return _as_dict(m)

    def counters(self):
        c = _struct(_abi.RotaCounters)
        self._check(self._lib.rota_counters_get(self._handle(), byref(c)))
        return _as_dict(c)

    def hook_stats(self):
        """{hook name: {calls, failures, nanoseconds, skipped, quarantined}}."""
        out, h, lib, e = {}, 0, self._lib, self._handle()
        while (name := lib.rota_hook_name(h)) is not None:
            st = _struct(_abi.RotaHookStats)
            self._check(lib.rota_hook_stats_get(e, h, byref(st)))
            out[name.decode()] = _as_dict(st)
            h += 1
        return out

    # policies
    def set_policy(self, hook, fn, stream=None):
        """Make Python callable fn(batch, ctx) the policy of `hook` (a name
        or number); None gives the hook back to its script. `stream`
        (backfill_select only; default: fn.streams if set) declares that fn
        decides in queue order, so the engine may call it a chunk of
        candidates at a time (docs/lua-api.md, "Streaming")."""
        h = hook_number(hook)
        e = self._handle()
        if fn is None:
            self._check(self._lib.rota_set_policy(e, h, _abi.POLICY_FN(), None, 0))
            self._policies.pop(h, None)
            return
        if stream is None:
            stream = bool(getattr(fn, "streams", False))
        p = Installed(self, h, fn)
        p.stream = stream
        self._check(self._lib.rota_set_policy(e, h, p.callback, None, 1 if stream else 0))
        self._policies[h] = p  # the engine holds p.callback: it must stay alive

    def policy_errors(self, hook):
        """The first exceptions the Python policy of `hook` raised (at most 10)."""
        p = self._policies.get(hook_number(hook))
        return list(p.errors) if p else []

    def reload_policies(self):
        self._check(self._lib.rota_reload_policies(self._handle()))

    def reconfigure(self, config):
        text, _ = config_text(config)
        self._check(self._lib.rota_reconfigure(self._handle(), text.encode()))
        self._toml = text

    # restarts (docs/snapshot.md)
    def snapshot(self):
        """The engine's state as bytes; take the pending actions first."""
        pieces = []

        def write(_ud, data, n):
            try:
                pieces.append(ctypes.string_at(data, n))
                return 0
            except BaseException:  # noqa: BLE001
                return 1  # rota_snapshot then returns ROTA_EABORT

        cb = _abi.WRITER_FN(write)
        self._check(self._lib.rota_snapshot(self._handle(), cb, None))
        return b"".join(pieces)

    @classmethod
    def from_snapshot(cls, config, data, policies=None, base_dir=None, log_level=None):
        """An engine restored from `data` (snapshot()) under `config`, which
        must describe the same machine and mode. Python policies are not
        part of a snapshot: pass them again."""
        return cls(config, policies=policies, base_dir=base_dir, log_level=log_level,
                   _restore=bytes(data))

    def restore(self, data):
        """Replace this engine's state by the snapshot `data`, keeping its
        configuration and its Python policies. On failure nothing changes."""
        self._handle()
        old = self._e
        self._create(bytes(data))
        self._lib.rota_engine_free(old)
        for h, p in list(self._policies.items()):
            self.set_policy(h, p.fn, p.stream)

    def __repr__(self):
        state = "closed" if self._e is None else f"now={self.now()}"
        return f"<rota.Engine {state}>"


__all__ = ["Engine", "Action", "SECOND", "HOOKS"]
