"""Finding and loading librota.so, once per process.

Looked up in this order: the ROTA_LIBRARY environment variable, the build
tree this package sits in (python/../build/lib, when used in place), then
the system's dynamic loader. A library of another ABI is refused: its
structs may not be laid out as _abi.py declares them, and a mismatch there
corrupts memory instead of failing."""

import ctypes
import os

from . import _abi
from .errors import LibraryError

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_lib = None


def candidates():
    """Where the library is looked for, in order."""
    env = os.environ.get("ROTA_LIBRARY")
    if env:  # an explicit choice is never second-guessed; made absolute for subprocesses
        return [os.path.abspath(env) if os.sep in env else env]
    tree = os.path.normpath(os.path.join(_PACKAGE_DIR, "..", "..", "build", "lib", "librota.so"))
    out = [tree] if os.path.exists(tree) else []
    return out + ["librota.so", f"librota.so.{_abi.ABI_VERSION}"]


def check_abi(abi, version, path):
    if abi != _abi.ABI_VERSION:
        raise LibraryError(
            f"{path} is librota {version} with ABI {abi}; this rota package "
            f"speaks ABI {_abi.ABI_VERSION} only. Install the package that comes with "
            "that library (same source tree), or point ROTA_LIBRARY at a matching librota.so.")


def _open(path):
    # PyDLL keeps the GIL across calls: policies call back into Python on
    # the same thread, and re-taking a released GIL at every callback costs
    # more than the callback itself.
    lib = ctypes.PyDLL(path)
    # Checked before declaring anything else: a foreign library may lack
    # the newer functions.
    try:
        lib.rota_abi_version.restype = ctypes.c_int
        lib.rota_version.restype = ctypes.c_char_p
        abi, version = lib.rota_abi_version(), lib.rota_version().decode()
    except AttributeError as x:
        raise LibraryError(f"{path} is not librota: {x}") from None
    check_abi(abi, version, path)
    for name, (restype, argtypes) in _abi.FUNCTIONS.items():
        f = getattr(lib, name)
        f.restype = restype
        f.argtypes = list(argtypes)
    lib.path = path
    return lib


def library():
    """The loaded librota, loading it on first use."""
    global _lib
    if _lib is None:
        errors = []
        for path in candidates():
            try:
                _lib = _open(path)
                break
            except OSError as x:
                errors.append(f"  {path}: {x}")
        else:
            raise LibraryError("librota.so not found; set ROTA_LIBRARY to its path "
                               "(build/lib/librota.so after ./scripts/build.sh). Tried:\n"
                               + "\n".join(errors))
    return _lib


def version():
    """The library's version string ("0.2.0")."""
    return library().rota_version().decode()
