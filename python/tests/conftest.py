"""Shared fixtures. The package is imported from this tree (python/), the
library from ROTA_LIBRARY (CTest sets it) or the build tree.

The real traces live outside the repository, in ../shared/traces from its
root. Without them the tests that read them skip, except under CI=true,
where a missing trace is a failure: CI must not pass by skipping."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "python"))
TRACES = os.environ.get("ROTA_TRACES", os.path.join(REPO, "..", "shared", "traces"))


def trace_path(name):
    p = os.path.join(TRACES, name)
    if not os.path.exists(p):
        msg = f"trace {p} is absent (the real traces live in ../shared/traces)"
        if os.environ.get("CI") == "true":
            pytest.fail(msg + "; under CI=true that is a failure")
        pytest.skip(msg)
    return p


@pytest.fixture
def kth():
    return trace_path("KTH-SP2-1996-2.1-cln.swf.gz")


@pytest.fixture(scope="session")
def kth_workload():
    import rota
    return rota.workload(trace_path("KTH-SP2-1996-2.1-cln.swf.gz"))


def rota_tool():
    import rota._cli
    return rota._cli.tool()
