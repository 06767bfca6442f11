"""The ctypes structs match the C compiler's layout of rota.h, as printed by
the header check program (bindings-examples/header/header_c99.c)."""

import ctypes
import os
import subprocess

import pytest

from rota import _abi


def test_structs_match_the_c_layout():
    prog = os.environ.get("ROTA_HEADER_C99")
    if not prog or not os.path.exists(prog):
        pytest.skip("ROTA_HEADER_C99 (build/bin/header_c99) not given: built by cmake --build")
    out = subprocess.run([prog, "--layout"], check=True, capture_output=True, text=True).stdout
    compared = 0
    for line in out.splitlines():
        kind, name, *rest = line.split()
        cls = _abi.STRUCTS[name]
        if kind == "struct":
            assert ctypes.sizeof(cls) == int(rest[0]), f"sizeof({name})"
        else:
            assert getattr(cls, rest[0]).offset == int(rest[1]), f"offsetof({name}, {rest[0]})"
            compared += 1
    assert compared == sum(len(c._fields_) for c in _abi.STRUCTS.values())
