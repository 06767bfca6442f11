"""rota for Python: the scheduling engine (rota.Engine), the trace-driven
simulator (rota.simulate, rota.generate) and policies written in Python.
See docs/python.md."""

from ._version import __version__
from ._library import library, version as library_version
from .engine import Action, Engine, SECOND
from .errors import LibraryError, RotaError, SimulationError
from .policy import HOOKS, Batch, Context
from .simulate import Result, combine, generate, simulate, workload
from .replay import replay

__all__ = [
    "__version__", "library", "library_version", "Action", "Engine", "SECOND", "LibraryError",
    "RotaError", "SimulationError", "HOOKS", "Batch", "Context", "Result", "combine",
    "generate", "simulate", "workload", "replay",
]
