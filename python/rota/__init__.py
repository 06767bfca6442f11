"""rota for Python: the scheduling engine (rota.Engine), the trace-driven
simulator (rota.simulate, rota.generate) and policies written in Python.
See docs/python.md."""

from ._version import __version__
from ._library import library, version as library_version
from .engine import Action, Engine, SECOND
from .errors import LibraryError, RotaError, SimulationError
from .policy import HOOKS, Batch, Context

# The simulator's side needs pandas, whose import costs most of a second:
# loaded on first use, so that embedding the engine does not pay for it.
_LAZY = {"simulate": "simulator", "generate": "simulator", "workload": "simulator",
         "combine": "simulator", "Result": "simulator", "Policy": "simulator",
         "read_batsim": "simulator", "replay": "inprocess"}


def __getattr__(name):
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'rota' has no attribute {name!r}")


__all__ = [
    "__version__", "library", "library_version", "Action", "Engine", "SECOND", "LibraryError",
    "RotaError", "SimulationError", "HOOKS", "Batch", "Context", "Result", "Policy", "combine",
    "generate", "simulate", "workload", "read_batsim", "replay",
]
