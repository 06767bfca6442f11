"""The package installs without network into a fresh virtual environment,
from a copy of the tree's python/ as a clean clone has it, and works there."""

import os
import shutil
import subprocess
import sys

import rota
from conftest import REPO


def test_venv_install_from_the_tree(tmp_path):
    src = tmp_path / "python"
    shutil.copytree(os.path.join(REPO, "python"), src,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__",
                                                  ".pytest_cache"))
    venv = tmp_path / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "--no-build-isolation",
                          "--no-index", "--disable-pip-version-check", "-q", str(src)],
                         capture_output=True, text=True)
    assert pip.returncode == 0, pip.stderr
    code = ("import rota, sys; assert rota.__file__.startswith(sys.prefix), rota.__file__; "
            "e = rota.Engine({'machine': {'procs': 4}, 'scheduler': {'preset': 'easy'}}); "
            "e.submit(1, 2, 10 * rota.SECOND); e.schedule(); "
            "print(rota.__version__, [a.type for a in e.actions()])")
    env = dict(os.environ, ROTA_LIBRARY=rota.library().path)
    env.pop("PYTHONPATH", None)
    p = subprocess.run([str(venv / "bin" / "python"), "-c", code], cwd=tmp_path, env=env,
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == [rota.__version__, "['start']"]
