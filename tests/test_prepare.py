"""Compiling ahead (sim.prepare, tests/conftest.py): every game's shipped experiments are found,
each game warms up in a subprocess with one line saying so, a failure stops everything with
the subprocess's own message, and pytest's session hook prepares only on the xdist controller."""
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest

from sim import prepare as prep
from tests import conftest

TOY = Path(__file__).parent / "data" / "toy.toml"


def test_shipped_experiments_cover_every_game_and_name_it():
    found = prep.shipped_experiments()
    assert {"red_rising", "animal_kingdoms", "explorers_of_navoria", "recall"} <= set(found)
    for game, paths in found.items():
        for path in paths:
            assert tomllib.loads(path.read_text())["experiment"]["game"] == game
    assert prep.ROOT / "experiments" / "red_rising_houses.toml" in found["red_rising"]
    assert prep.ROOT / "benchmarks" / "red_rising_random.toml" in found["red_rising"]


def _toy(tmp_path) -> Path:
    """The toy experiment, allowed to import its plug-in game (the subprocess runs in the project root)."""
    path = tmp_path / "toy.toml"
    path.write_text(TOY.read_text().replace("[experiment]\n", f"[experiment]\nplugin_path = {str(prep.ROOT)!r}\n", 1))
    return path


def test_prepare_says_one_line_per_game(tmp_path):
    lines = []
    seconds = prep.prepare({"tests.toy_game": [_toy(tmp_path)]}, jobs=2, say=lines.append)
    assert list(seconds) == ["tests.toy_game"] and seconds["tests.toy_game"] > 0
    assert len(lines) == 1 and lines[0].startswith("prepared tests.toy_game: 1 experiments compiled or loaded in ")


def test_a_failing_warm_up_fails_with_its_own_message(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[experiment]\nname = "bad"\ngame = "no_such_game"\ngames = 10\nseed = 1\n')
    with pytest.raises(prep.PrepareError) as err:
        prep.prepare({"tests.toy_game": [_toy(tmp_path)], "broken": [bad]}, jobs=2, say=lambda line: None)
    text = str(err.value)
    assert text.startswith("preparing broken failed (exit 2: python -m sim.prepare --here bad.toml)")
    assert len(text.splitlines()) == 2 and text.splitlines()[1].startswith(f"error: {bad}: experiment.game: ")


def _session(numprocesses, worker: bool):
    lines = []
    options = {"numprocesses": numprocesses}
    config = SimpleNamespace(getoption=lambda name, default=None: options.get(name, default),
                             pluginmanager=SimpleNamespace(get_plugin=lambda name: SimpleNamespace(
                                 write_line=lines.append)))
    if worker:
        config.workerinput = {"workerid": "gw0"}
    return SimpleNamespace(config=config), lines


@pytest.mark.parametrize("numprocesses, worker, opted, prepares", [
    (2, False, "1", True), (2, True, "1", False), (None, False, "1", False), (0, False, "1", False),
    (2, False, None, False)])
def test_session_prepares_only_on_the_xdist_controller_when_asked(monkeypatch, numprocesses, worker, opted, prepares):
    """Only the xdist controller prepares, and only with ``SIM_PREPARE_TESTS=1`` (off by default)."""
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    if opted is None:
        monkeypatch.delenv("SIM_PREPARE_TESTS", raising=False)
    else:
        monkeypatch.setenv("SIM_PREPARE_TESTS", opted)
    calls = []
    monkeypatch.setattr(prep, "prepare", lambda by_game, jobs, say: calls.append((set(by_game), jobs)) or say("x"))
    session, lines = _session(numprocesses, worker)
    conftest.pytest_sessionstart(session)
    assert calls == ([(set(prep.shipped_experiments()), 2)] if prepares else [])
    assert lines == (["x"] if prepares else [])


def test_session_ends_when_a_game_fails_to_compile(monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    monkeypatch.setenv("SIM_PREPARE_TESTS", "1")

    def failing(by_game, jobs, say):
        raise prep.PrepareError("preparing red_rising failed (exit 1: ...):\nTypingError: ...")

    monkeypatch.setattr(prep, "prepare", failing)
    session, _ = _session(2, worker=False)
    with pytest.raises(pytest.exit.Exception) as ended:
        conftest.pytest_sessionstart(session)
    assert ended.value.returncode == 3 and "preparing red_rising failed" in str(ended.value)


def test_kernel_cache_says_whether_a_function_is_cached(tmp_path):
    """``kernel_cache.cached`` (what the warm-up asks before it starts a helper process) is false
    before the first compile, true in a later process, and false again once the source changes."""
    import os
    import subprocess
    import sys

    (tmp_path / "kern.py").write_text("from numba import njit\n\n@njit(cache=True)\ndef f():\n    return 1\n")
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}:{prep.ROOT}"}
    env.pop("NUMBA_CACHE_DIR", None)
    probe = "import kern; from sim.core import kernel_cache; print(kernel_cache.cached(kern.f)); kern.f()"

    def cached():
        out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True,
                             check=True)
        return out.stdout.strip()

    assert cached() == "False"
    assert cached() == "True"
    (tmp_path / "kern.py").write_text("from numba import njit\n\n@njit(cache=True)\ndef f():\n    return 2  # new\n")
    assert cached() == "False"
