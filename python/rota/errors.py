"""Exceptions raised by the package."""


class RotaError(Exception):
    """A call into librota failed. `status` is the code (rota.h's ROTA_E*),
    `name` its constant name, `message` the engine's rota_errmsg()."""

    def __init__(self, status, name, message):
        super().__init__(f"{name}: {message}")
        self.status = status
        self.name = name
        self.message = message


class LibraryError(ImportError):
    """librota.so could not be found, or is a version this package does not
    speak."""


class SimulationError(RuntimeError):
    """The rota tool failed; the message holds its standard error."""
