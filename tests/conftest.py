"""Session set-up: under pytest-xdist, compile every game's kernels once before the workers start.

Why: on a fresh checkout the slowest tests are first compiles inside the workers, and with two
workers both may compile the same kernel at once. The xdist controller (this process, before
it starts its workers) warms up each game's shipped experiments, two games at a time in two
subprocesses (``sim.prepare``, the runner's own warm-up), so the workers load the kernels from
numba's cache. A warm cache costs only the loading; a failed compile ends the session with the
subprocess's output. Without ``-n`` (one test file at a time) nothing is done here.
"""
from __future__ import annotations

import os

import pytest


def pytest_sessionstart(session):
    config = session.config
    if hasattr(config, "workerinput") or os.environ.get("PYTEST_XDIST_WORKER"):
        return                                   # a worker: the controller has prepared
    if not config.getoption("numprocesses", default=None):
        return                                   # no xdist workers to prepare for
    from sim.prepare import PrepareError, prepare, shipped_experiments

    reporter = config.pluginmanager.get_plugin("terminalreporter")
    say = reporter.write_line if reporter is not None else print
    try:
        prepare(shipped_experiments(), jobs=2, say=say)
    except PrepareError as e:
        pytest.exit(str(e), returncode=3)
