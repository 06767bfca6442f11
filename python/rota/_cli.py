"""Finding and running the rota tool (build/bin/rota), which simulate() and
generate() drive: ROTA_CLI, then the build tree this package sits in, then
beside the library (lib/../bin), then PATH."""

import os
import shutil
import subprocess

from ._library import _PACKAGE_DIR, library
from .errors import SimulationError


def tool():
    env = os.environ.get("ROTA_CLI")
    if env:
        return os.path.abspath(env) if os.sep in env else env
    places = [os.path.join(_PACKAGE_DIR, "..", "..", "build", "bin", "rota")]
    lib = getattr(library(), "path", "")
    if os.path.sep in lib:
        places.append(os.path.join(os.path.dirname(lib), "..", "bin", "rota"))
    for p in places:
        p = os.path.normpath(p)
        if os.access(p, os.X_OK):
            return p
    found = shutil.which("rota")
    if found:
        return found
    raise SimulationError("the rota tool was not found; set ROTA_CLI to its path "
                          "(build/bin/rota after ./scripts/build.sh)")


def flags(keys):
    """CLI flags from keyword arguments: max_jumps=10 -> --max-jumps 10,
    no_progress=True -> --no-progress, pool=[..] -> --pool a --pool b."""
    out = []
    for k, v in keys.items():
        if v is None or v is False:
            continue
        flag = "--" + k.replace("_", "-")
        if v is True:
            out.append(flag)
        elif isinstance(v, (list, tuple)):
            for x in v:
                out += [flag, str(x)]
        else:
            out += [flag, str(v)]
    return out


def run(args):
    """Runs `rota ARGS`; its standard output, or SimulationError."""
    cmd = [tool()] + [str(a) for a in args]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SimulationError(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stderr.strip()}")
    return p.stdout
