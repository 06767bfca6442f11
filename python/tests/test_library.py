"""The package speaks the library's version and refuses any other ABI."""

import os
import re
import subprocess
import sys
import textwrap

import pytest

import rota
from rota import _abi, _library
from conftest import REPO


def header_version():
    text = open(os.path.join(REPO, "capi", "include", "rota.h")).read()
    parts = [re.search(rf"#define ROTA_VERSION_{p} (\d+)", text).group(1)
             for p in ("MAJOR", "MINOR", "PATCH")]
    abi = int(re.search(r"#define ROTA_ABI_VERSION (\d+)", text).group(1))
    return ".".join(parts), abi


def test_version_is_the_library_s():
    version, abi = header_version()
    assert rota.__version__ == version == rota.library_version()
    assert _abi.ABI_VERSION == abi == rota.library().rota_abi_version()


def test_check_abi_refuses_another_abi():
    with pytest.raises(rota.LibraryError, match=r"ABI 9; this rota package speaks ABI 10"):
        _library.check_abi(9, "0.1.0", "/x/librota.so")
    _library.check_abi(_abi.ABI_VERSION, rota.__version__, "/x/librota.so")


def _run_with_library(path):
    code = "import rota; rota.Engine('[machine]\\nprocs = 4\\n')"
    env = dict(os.environ, ROTA_LIBRARY=path, PYTHONPATH=os.path.join(REPO, "python"))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)


def test_a_library_of_another_abi_is_refused(tmp_path):
    # A stand-in librota of ABI 9: the check must stop before any struct is used.
    src = tmp_path / "old.c"
    src.write_text(textwrap.dedent("""\
        const char* rota_version(void) { return "0.1.9"; }
        int rota_abi_version(void) { return 9; }
        int rota_version_number(void) { return 1009; }
    """))
    lib = tmp_path / "librota.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    p = _run_with_library(str(lib))
    assert p.returncode != 0
    assert "rota.errors.LibraryError" in p.stderr
    assert "librota 0.1.9 with ABI 9; this rota package speaks ABI 10" in p.stderr


def test_a_missing_library_says_where_it_looked(tmp_path):
    p = _run_with_library(str(tmp_path / "nowhere" / "librota.so"))
    assert p.returncode != 0
    assert "librota.so not found; set ROTA_LIBRARY" in p.stderr
