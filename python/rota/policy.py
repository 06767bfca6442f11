"""Python callables as the engine's policies (rota_set_policy).

A policy is called as fn(batch, ctx) with the same batch and context a Lua
script sees (docs/lua-api.md), and answers with its return value:

  admission         a sequence with one decision per job (or fewer: the rest
                    are accepted), or a dict {index: decision}; a decision
                    is None/True/"accept", "hold", ("hold", until_us) or
                    ("reject", "reason")
  order             one finite number per job, lower runs first
  backfill_select,  a sequence of 0-based integer indices (numpy arrays
  and the others    welcome); None or [] for none

The engine checks the answer exactly as it checks a script's. A raised
exception, an answer of the wrong type or an answer the engine refuses is
a failed call: counted in hook_stats, logged, quarantined after
policy.quarantine_after failures in a row, with the hook's fallback
applied. Both views are valid during the call only: columns read from the
batch are copies and may be kept; the views themselves may not."""

import ctypes
from ctypes import byref, c_double, c_int, c_int64, c_size_t

import numpy as np

from . import _abi

HOOKS = ("admission", "order", "backfill_select", "migration_option", "placement", "harvest",
         "distribution", "preempt")
ADMISSION, ORDER, BACKFILL_SELECT = 0, 1, 2

_CTYPES = {
    _abi.TYPE_INT32: (ctypes.c_int32, np.int32),
    _abi.TYPE_INT64: (ctypes.c_int64, np.int64),
    _abi.TYPE_DOUBLE: (ctypes.c_double, np.float64),
}


def hook_number(hook):
    if isinstance(hook, int):
        return hook
    try:
        return HOOKS.index(hook)
    except ValueError:
        raise ValueError(f"unknown hook {hook!r}; the hooks are {', '.join(HOOKS)}") from None


class _Expired:
    pass


class Batch:
    """The rows a hook decides about: batch["procs"] or batch.procs is a
    numpy array (a copy, read on first use), len(batch) the row count."""

    __slots__ = ("_lib", "_c", "_n", "_cache")

    def __init__(self, lib, call, n):
        self._lib, self._c, self._n, self._cache = lib, call, n, {}

    def __len__(self):
        return self._n

    @property
    def n(self):
        return self._n

    def __getitem__(self, name):
        col = self._cache.get(name)
        if col is None:
            col = self._cache[name] = self._read(name)
        return col

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def _read(self, name):
        if self._c is None:
            raise RuntimeError("a batch is valid only during its policy call")
        t = c_int()
        p = self._lib.rota_call_column(self._c, name.encode(), byref(t))
        if not p:
            if self._n == 0 and t.value == 0 and name in _JOB_COLUMNS:
                return np.empty(0)
            raise KeyError(f"the batch has no column {name!r}")
        return _array(p, t.value, self._n)


# Columns an empty batch may not have: an empty batch still answers them.
_JOB_COLUMNS = {"id", "procs", "estimate", "submit", "user", "priority"}


def _array(p, t, n):
    if t == _abi.TYPE_STRING:
        ptrs = ctypes.cast(p, ctypes.POINTER(ctypes.c_char_p))
        return [ptrs[i].decode(errors="replace") for i in range(n)]
    ctype, dtype = _CTYPES[t]
    if n == 0:
        return np.empty(0, dtype=dtype)
    buf = (ctype * n).from_address(p)
    return np.frombuffer(buf, dtype=dtype).copy()


class Context:
    """What the hook knows of the pass: ctx.now, ctx["shadow_time"] (-1 when
    absent), names as str, arrays as numpy arrays; ctx.user("user_usage", u)
    for per-user figures."""

    __slots__ = ("_lib", "_c", "_cache")

    def __init__(self, lib, call):
        self._lib, self._c, self._cache = lib, call, {}

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, name):
        if name in self._cache:
            return self._cache[name]
        if self._c is None:
            raise RuntimeError("a context is valid only during its policy call")
        lib, c, key = self._lib, self._c, name.encode()
        i = c_int64()
        rc = lib.rota_call_int(c, key, byref(i))
        if rc == _abi.OK:
            v = i.value
        elif rc == _abi.ENOTFOUND:
            raise KeyError(f"this hook's context has no field {name!r}")
        else:  # a field of another kind: a float, a name or an array
            d = c_double()
            if lib.rota_call_double(c, key, byref(d)) == _abi.OK:
                v = d.value
            else:
                s = lib.rota_call_string(c, key)
                if s is not None:
                    v = s.decode(errors="replace")
                else:
                    t, n = c_int(), c_size_t()
                    p = lib.rota_call_array(c, key, byref(t), byref(n))
                    v = _array(p, t.value, n.value) if p else np.empty(0)
        self._cache[name] = v
        return v

    def user(self, figure, user):
        """user_usage, user_procs or user_running of user id `user`."""
        if self._c is None:
            raise RuntimeError("a context is valid only during its policy call")
        d = c_double()
        rc = self._lib.rota_call_user(self._c, figure.encode(), int(user), byref(d))
        if rc != _abi.OK:
            raise KeyError(f"no per-user figure {figure!r} in this context")
        return d.value


def _indices(answer):
    if type(answer) is np.ndarray and answer.dtype == np.int64 and answer.ndim == 1:
        return answer if answer.flags.c_contiguous else np.ascontiguousarray(answer)
    a = np.asarray(answer)
    if a.size == 0:
        return np.empty(0, dtype=np.int64)
    if a.ndim != 1 or a.dtype.kind not in "iu":
        raise TypeError(f"the answer must be a sequence of integers, not {a.dtype} "
                        f"of shape {a.shape}")
    return np.ascontiguousarray(a, dtype=np.int64)


def _keys(answer):
    a = np.asarray(answer)
    if a.size and (a.ndim != 1 or a.dtype.kind not in "iuf"):
        raise TypeError(f"order keys must be numbers, not {a.dtype} of shape {a.shape}")
    return np.ascontiguousarray(a, dtype=np.float64)


def _answer(lib, c, hook, answer, n):
    """Hands the answer to the engine; 0 if it took it."""
    if hook == ADMISSION:
        return _answer_admission(lib, c, answer, n)
    if answer is None:
        return 0  # no answer: the engine judges, as for a script's nil
    if hook == ORDER:
        a = _keys(answer)
        return lib.rota_call_answer_keys(c, a.ctypes.data, a.size)
    a = _indices(answer)
    return lib.rota_call_answer(c, a.ctypes.data if a.size else None, a.size)


def _answer_admission(lib, c, answer, n):
    if answer is None:
        return 0  # every job accepted
    if isinstance(answer, dict):
        items = answer.items()
    elif isinstance(answer, (list, tuple)):
        items = enumerate(answer)
    else:
        raise TypeError(f"admission answers a list or dict of decisions, not {type(answer).__name__}")
    for i, d in items:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < n:
            raise TypeError(f"admission: {i!r} is not the position of a job of the batch")
        if d is None or d is True or d == "accept":
            rc = lib.rota_call_answer_admission(c, i, 0, None, -1)
        elif d == "hold":
            rc = lib.rota_call_answer_admission(c, i, 1, None, -1)
        elif isinstance(d, tuple) and len(d) == 2 and d[0] == "hold" and isinstance(d[1], int):
            rc = lib.rota_call_answer_admission(c, i, 1, None, d[1])
        elif isinstance(d, tuple) and len(d) == 2 and d[0] == "reject" and isinstance(d[1], str):
            rc = lib.rota_call_answer_admission(c, i, 2, d[1].encode(), -1)
        else:
            raise TypeError(f"admission: {d!r} is not a decision (the job at position {i})")
        if rc != 0:
            return rc
    return 0


class Installed:
    """One Python policy installed on an engine: the ctypes trampoline (kept
    alive as long as the engine may call it) and what its calls raised."""

    def __init__(self, engine, hook, fn):
        self.engine, self.hook, self.fn = engine, hook, fn
        self.errors = []  # the first exceptions raised, for the caller to read
        self.failures = 0
        self.callback = _abi.POLICY_FN(self._call)

    def _call(self, _ud, c):
        eng = self.engine
        lib = eng._lib
        batch = Batch(lib, c, lib.rota_call_rows(c))
        ctx = Context(lib, c)
        eng._in_callback += 1
        try:
            rc = _answer(lib, c, self.hook, self.fn(batch, ctx), batch._n)
            return 1 if rc else 0
        except BaseException as x:  # nothing may unwind into the library
            self.failures += 1
            if len(self.errors) < 10:
                self.errors.append(x)
            if not isinstance(x, Exception):
                eng._interrupt = x  # KeyboardInterrupt: raised once the engine returns
            return 1
        finally:
            eng._in_callback -= 1
            batch._c = ctx._c = None
