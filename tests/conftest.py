"""Session set-up: under pytest-xdist, compile every game's kernels once before the workers start.

Why: on a fresh checkout the slowest tests are first compiles inside the workers, and with two
workers both may compile the same kernel at once. The xdist controller (this process, before
it starts its workers) warms up each game's shipped experiments, two games at a time in two
subprocesses (``sim.prepare``, the runner's own warm-up), so the workers load the kernels from
numba's cache. A warm cache costs only the loading; a failed compile ends the session with the
subprocess's output. Without ``-n`` (one test file at a time) nothing is done here.

Opt-in (``SIM_PREPARE_TESTS=1 make test``): on clean clones (2026-12-02, load 1.5-3) ``.ci/run``
took 17 min 8 s with it (the preparation alone about 8.5 min: it compiles every shipped
experiment, Red Rising's lane 450 s, the other three games' 521 s) and 16 min 12 s without it;
so it stays off by default until it compiles only what the tests play.
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
    if os.environ.get("SIM_PREPARE_TESTS") != "1":
        return                                   # opt-in: measured slower in CI (module doc)
    from sim.prepare import PrepareError, prepare, shipped_experiments

    reporter = config.pluginmanager.get_plugin("terminalreporter")
    say = reporter.write_line if reporter is not None else print
    try:
        prepare(shipped_experiments(), jobs=2, say=say)
    except PrepareError as e:
        pytest.exit(str(e), returncode=3)
