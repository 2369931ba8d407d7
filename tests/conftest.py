"""Session set-up under pytest-xdist: each game's tests on one worker, and an opt-in compile ahead.

Grouping (``make test`` runs ``--dist loadgroup``): every test that plays a game's compiled code
(the game's own test files, and tests of other files parametrised by the game's name) is in
that game's ``xdist_group``, every other test in its file's group (as ``--dist loadfile``).
Why: on a fresh checkout most of the suite's time is first compiles, and with files spread
over two workers both compiled the same game's kernels at once; grouped, each game's kernels
are compiled once, by one worker, and the other worker runs other groups meanwhile. The
oracles' test files (plain Python, nothing compiled) stay file groups, so they can run beside.
Until 2026-12-03 the grouping never took effect (this hook ran after xdist's, and pytest 9.2
undoes xdist's groups: pyproject.toml pins pytest < 9.2); every test was scheduled alone, and a
clean clone's pytest took 35 min (1 h 3 min at load 5-9). tests/test_test_grouping.py checks
that the groups hold.

Compile ahead (opt-in):

Why: on a fresh checkout the slowest tests are first compiles inside the workers, and with two
workers both may compile the same kernel at once. The xdist controller (this process, before
it starts its workers) warms up each game's shipped experiments, two games at a time in two
subprocesses (``sim.prepare``, the runner's own warm-up), so the workers load the kernels from
numba's cache. A warm cache costs only the loading; a failed compile ends the session with the
subprocess's output. Without ``-n`` (one test file at a time) nothing is done here.

Opt-in (``SIM_PREPARE_TESTS=1 make test``): on clean clones (2026-12-02, load 1.5-3) ``.ci/run``
took 17 min 8 s with it (the preparation alone about 8.5 min: it compiles every shipped
experiment, Red Rising's lane 450 s, the other three games' 521 s) and 16 min 12 s without it
(both with ``--dist loadfile``);
so it stays off by default until it compiles only what the tests play.
"""
from __future__ import annotations

import os

import pytest

GAMES = ("red_rising", "animal_kingdoms", "explorers_of_navoria", "recall")


def xdist_group_of(nodeid: str, module_game: str | None = None) -> str:
    """The game whose kernels the test compiles: by its file's name, else by its name or
    parameters, else ``module_game`` (a test file of no game whose tests play one, e.g.
    tests/test_tuning.py, says so in ``XDIST_GAME = "animal_kingdoms"``); else its file."""
    path, _, name = nodeid.partition("::")
    stem = path.rsplit("/", 1)[-1]
    for game in GAMES:
        if stem.startswith(f"test_{game}") and "oracle" not in stem:
            return game
    for game in GAMES:
        if game in name:
            return game
    return module_game or path


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Before xdist's own hook, which turns the marks into the ``@group`` suffix it schedules by
    (a plain hook ran after it: the marks came too late and nothing was grouped)."""
    for item in items:
        module_game = getattr(getattr(item, "module", None), "XDIST_GAME", None)
        item.add_marker(pytest.mark.xdist_group(xdist_group_of(item.nodeid, module_game)))


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
