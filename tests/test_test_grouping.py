"""`make test`'s grouping takes effect: under ``-n 2 --dist loadgroup`` every test of a game runs on
one xdist worker (tests/conftest.py), so no two workers compile the same game's kernels at once.

Why a test: the grouping failed silently twice, once because the conftest hook ran after xdist's
(the marks came too late) and once with pytest 9.2 (pytest-xdist issue #1386); each time the
suite ran, only about twice as slowly. Here a small suite of files named like the games' is run
in a subprocess and the workers that ran each game's tests are compared (and those of a file that
names its game in ``XDIST_GAME``)."""
import collections
import os
import subprocess
import sys
import textwrap

from tests.scaffold import ROOT

TESTS = textwrap.dedent("""
    import os, time, pytest

    @pytest.mark.parametrize("i", range(4))
    def test_one(i):
        time.sleep(0.05)
        with open(os.environ["GROUPING_LOG"], "a") as f:
            f.write(f"{os.environ['PYTEST_XDIST_WORKER']} {__name__}\\n")
""")


def test_each_games_tests_run_on_one_worker(tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "pytest.ini").write_text("[pytest]\n")
    (suite / "conftest.py").write_text("from tests.conftest import pytest_collection_modifyitems  # noqa: F401\n")
    modules = ["test_red_rising_a", "test_red_rising_b", "test_recall_a", "test_recall_b"]
    for module in modules:
        (suite / f"{module}.py").write_text(TESTS)
    (suite / "test_tool_a.py").write_text('XDIST_GAME = "recall"\n' + TESTS)       # a file of no game that plays one
    log = tmp_path / "workers.txt"
    env = dict(os.environ, GROUPING_LOG=str(log), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-q", "-p",
                           "no:cacheprovider", str(suite)], cwd=suite, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    workers = collections.defaultdict(set)
    for line in log.read_text().splitlines():
        worker, module = line.split()
        workers[module.rsplit("_", 1)[0]].add(worker)
    assert sum(1 for _ in log.read_text().splitlines()) == 4 * (len(modules) + 1)
    assert {game: len(w) for game, w in workers.items()} == {"test_red_rising": 1, "test_recall": 1, "test_tool": 1}
    assert workers["test_tool"] == workers["test_recall"]
