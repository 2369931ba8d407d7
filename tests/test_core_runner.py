"""The runner: rows depend only on (experiment, seed, game), never on chunk, jobs or backend;
an interrupted run keeps its complete shards and resumes; other experiments' folders are safe."""
import json
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from sim.core import results as res
from sim.core.errors import InputError
from sim.core.experiment import load_experiment
from sim.play import run_experiment

TOY = Path(__file__).parent / "data" / "toy.toml"


def rows(results_dir):
    return res.scan(results_dir).collect().sort(["variant", "game", "seat"])


def test_same_rows_for_any_chunk_and_jobs(tmp_path):
    exp = load_experiment(TOY)
    a = rows(run_experiment(exp, tmp_path / "a", jobs=1, chunk=300))
    b = rows(run_experiment(exp, tmp_path / "b", jobs=2, chunk=37))
    assert a.height == 300 * 3
    assert a.equals(b)
    assert sorted(a["game"].unique().to_list()) == list(range(300))
    assert a.group_by("game").agg(pl.col("win_share").sum())["win_share"].round(9).eq(1.0).all()


def test_same_rows_on_a_local_dask_cluster(tmp_path):
    from dask.distributed import LocalCluster
    exp = load_experiment(TOY)
    local = rows(run_experiment(exp, tmp_path / "loky", jobs=2, chunk=50))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = rows(run_experiment(exp, tmp_path / "dask", backend="dask", scheduler=cluster.scheduler_address, chunk=50))
    assert local.equals(remote)


def test_pieces_of_a_chunk_make_the_same_shards_and_move_the_progress(tmp_path, monkeypatch, capsys):
    """Workers play pieces smaller than a chunk; the run joins them into the chunk's one shard
    (same files, same rows), and the progress lines count games piece by piece."""
    from sim.core import runner
    exp = load_experiment(TOY)
    whole = run_experiment(exp, tmp_path / "whole", jobs=1, chunk=100)
    monkeypatch.setattr(runner, "PIECE", 7)
    monkeypatch.setattr(runner, "_WARMED", set())
    from sim.core import game
    monkeypatch.setitem(game._COMPILE_SECONDS, "tests.toy_game", 7)
    monkeypatch.setattr(runner._Progress, "update", _counting_update(runner._Progress.update))
    split = run_experiment(exp, tmp_path / "split", jobs=2, chunk=100, progress=True)
    names = sorted(p.name for p in (whole / "base").glob("shard-*"))
    assert names == sorted(p.name for p in (split / "base").glob("shard-*")) and len(names) == 3
    assert rows(split).equals(rows(whole))
    assert _counting_update.pieces == -(-100 // 7) * 3          # 15 pieces per chunk of 100
    err = capsys.readouterr().err
    assert "preparing tests.toy_game: compiling its engine and strategies once before the workers start " \
           "(about 7 s on the first run" in err and "preparing tests.toy_game: ready in " in err
    assert "playing toy_test: 300/300 games, shards 3/3" in err


def _counting_update(update):
    _counting_update.pieces = 0

    def counted(self, games, chunks_done=0):
        _counting_update.pieces += games > 0
        return update(self, games, chunks_done)
    return counted


def test_resume_after_interruption_keeps_shards_and_plays_only_missing_games(tmp_path):
    exp = load_experiment(TOY)
    out = run_experiment(exp, tmp_path, chunk=64)
    full = rows(out)
    shards = sorted((out / "base").glob("shard-*.parquet"))
    assert len(shards) == 5
    # simulate a crash: one shard never finished, one half-written temporary file left behind
    shards[2].unlink()
    (out / "base" / (shards[3].name + ".tmp-999")).write_bytes(b"partial")
    before = {p.name: p.stat().st_mtime_ns for p in shards if p.exists()}
    run_experiment(exp, tmp_path, chunk=100)
    after = sorted((out / "base").glob("shard-*"))
    assert not list((out / "base").glob("*.tmp-*"))
    for p in after:
        if p.name in before:
            assert p.stat().st_mtime_ns == before[p.name]      # finished shards never rewritten
    assert rows(out).equals(full)                             # nothing duplicated or skipped


def test_more_games_extend_the_same_folder(tmp_path):
    exp = load_experiment(TOY)
    run_experiment(exp, tmp_path, games=100, chunk=64)
    out = run_experiment(exp, tmp_path, games=300, chunk=64)
    assert rows(out).equals(rows(run_experiment(exp, tmp_path / "fresh", chunk=300)))


def test_other_experiment_in_the_folder_is_refused(tmp_path):
    exp = load_experiment(TOY)
    out = run_experiment(exp, tmp_path, games=10)
    with pytest.raises(InputError, match="holds results of a different experiment"):
        run_experiment(exp.with_overrides(seed=8), tmp_path, games=10)
    assert json.loads((out / "manifest.json").read_text())["seed"] == 7


def run_cli(*args, cwd):
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    return subprocess.run([sys.executable, "-m", "sim", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, env=env)


def test_cli_run_and_replay(tmp_path):
    done = run_cli("run", TOY, "--games", "20", "--out", tmp_path / "r", "--jobs", "2", "--chunk", "7", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    replay = run_cli("replay", tmp_path / "r" / "toy_test", "--game", "13", cwd=tmp_path)
    assert replay.returncode == 0, replay.stderr
    assert "# matches the stored results" in replay.stdout
    assert "roll" in replay.stdout


@pytest.mark.parametrize("args, match", [
    (["run", "missing.toml"], "missing.toml: experiment file not found"),
    (["run", TOY, "--games", "0"], "expected a positive integer"),
    (["run", TOY, "--jobs", "x"], "expected an integer"),
    (["score", "chess", "p.json"], "unknown game 'chess'"),
])
def test_cli_bad_input_exits_2_with_one_line_and_writes_nothing(tmp_path, args, match):
    done = run_cli(*args, "--out", tmp_path / "out", cwd=tmp_path) if args[0] == "run" else run_cli(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert match in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_manifest_records_code_versions_the_experiment_file_and_resolved_configs(tmp_path):
    import importlib.metadata
    import platform

    import numba
    import numpy

    out = run_experiment(load_experiment(TOY), tmp_path, games=10)
    manifest = json.loads((out / "manifest.json").read_text())
    code = manifest["runs"][0]["code"]
    assert code["python"] == platform.python_version() and code["numpy"] == numpy.__version__
    assert code["numba"] == numba.__version__ and code["polars"] == pl.__version__
    assert code["boardsim"] == importlib.metadata.version("boardsim")
    assert len(code["git_commit"]) == 40 and isinstance(code["git_modified"], bool)
    assert manifest["experiment_file"] == str(TOY.resolve())
    import hashlib
    assert manifest["experiment_file_hash"] == hashlib.sha256(TOY.read_bytes()).hexdigest()[:16]
    base = manifest["variants"]["base"]
    assert base["config"] == {"players": 3, "target": 25, "bonus_points": 0, "faces_file": ""}
    assert set(base["parts"]) == {"config", "content", "seats", "engine"}
    assert pl.read_parquet(next((out / "base").glob("shard-*"))).get_column("config_hash").unique().to_list() \
        == [base["config_hash"]]
    run_experiment(load_experiment(TOY), tmp_path, games=20)              # a resume adds a run
    assert [r["games"] for r in json.loads((out / "manifest.json").read_text())["runs"]] == [10, 20]


def test_resume_after_an_engine_change_is_refused_saying_why_and_how_to_start_afresh(tmp_path, monkeypatch):
    from sim.core.hashing import module_source_hash
    (tmp_path / "pig_runner_plugin").mkdir()
    (tmp_path / "pig_runner_plugin" / "__init__.py").write_text("")
    engine = tmp_path / "pig_runner_plugin" / "engine.py"
    engine.write_text((Path(__file__).parent / "toy_game.py").read_text())
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "pig.toml").write_text(TOY.read_text().replace("tests.toy_game", "pig_runner_plugin.engine"))
    exp = load_experiment(tmp_path / "pig.toml")
    run_experiment(exp, tmp_path / "r", games=10)
    engine.write_text(engine.read_text() + "\n# a rule changed\n")
    module_source_hash.cache_clear()
    with pytest.raises(InputError, match=r"variant 'base' config hash \w+ vs \w+ \(changed: the game's engine code "
                       r"or default data\).*choose another --out or delete the folder to start afresh"):
        run_experiment(exp, tmp_path / "r", games=20)
    assert rows(tmp_path / "r" / "toy_test").height == 10 * 3


def test_replay_finds_the_experiment_file_from_any_directory(tmp_path, monkeypatch, capsys):
    from sim import cli
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "toy.toml").write_text(TOY.read_text())
    monkeypatch.chdir(tmp_path / "a")
    assert cli.main(["run", "toy.toml", "--games", "20", "--out", "r", "--quiet"]) == 0
    monkeypatch.chdir(tmp_path / "b")
    capsys.readouterr()
    assert cli.main(["replay", "../a/r/toy_test", "--game", "13"]) == 0
    assert "# matches the stored results" in capsys.readouterr().out


def test_warm_up_plays_two_games_per_seat_arrangement(monkeypatch):
    """The warm-up takes the workers' code paths: with the experiment's seating, every seat
    arrangement gets a batch of two games (a batch of one would skip the whole-game drivers)."""
    from sim.core import runner
    exp = load_experiment(TOY)
    played = []
    monkeypatch.setattr(runner, "_WARMED", set())
    monkeypatch.setattr(runner, "play_games", lambda game, config, content, strategies, seed, ids, seating:
                        played.append((list(ids), seating)))
    three_plans = lambda exp, variant, game, content: [Plan(), Plan(), Plan()]     # noqa: E731
    runner.warm_up(exp, three_plans, "base", progress=False)
    assert played == [(list(range(2 * 2)), "rotate")]          # 3 slots rotate: 2 arrangements
    assert len(runner.seat_orders(three_plans(exp, "base", None, None), "rotate")) == 2


class Plan:
    """A seat's strategy, as far as the warm-up looks at it."""

    def warm_up_stand_in(self):
        return self


def test_warm_up_plays_a_cheap_search_in_a_search_seats_place(monkeypatch):
    """A search seat at its budget made the warm-up play two games per seat arrangement with
    64 rollouts per decision (minutes before the first game of a run); it plays the search's
    stand-in instead: the same rollout policy at two rollouts per decision, no narrowing."""
    from sim.core import runner
    from sim.core.game import get_game
    from strategies import registry
    from strategies.search import SearchStrategy
    exp = load_experiment(TOY)
    game, content = exp.game_module(), exp.content("base")
    seen = []
    monkeypatch.setattr(runner, "_WARMED", set())
    monkeypatch.setattr(runner, "play_games", lambda game, config, content, strategies, seed, ids, seating:
                        seen.extend(strategies))
    ak = get_game("animal_kingdoms")        # the toy game deals no hidden state: a game that does
    search = SearchStrategy(ak, ak.load_content(ak.Config(players=3), "test"),
                            SearchStrategy.Params(budget=64, rollout="random"))
    plan = registry.make("random", {}, game, content)
    runner.warm_up(exp, lambda *_: [search, plan, plan], "base", progress=False)
    stand_in = seen[0]
    assert isinstance(stand_in, SearchStrategy) and stand_in is not search
    assert (stand_in.params.budget, stand_in.params.narrow, stand_in.params.halving) == (2, 0, False)
    assert stand_in.params.rollout == "random" and search.params.budget == 64      # the seat itself unchanged
    assert seen[1] is plan


@pytest.mark.parametrize("jobs, progress, warmed", [(1, False, False), (1, True, True), (2, False, True)])
def test_warm_up_only_where_it_helps_or_talks(tmp_path, monkeypatch, jobs, progress, warmed):
    """Workers need the warm-up (they load what it compiled), a progress run says what it
    compiles; one quiet process has no use for it and would only play its extra games."""
    from sim.core import runner
    calls = []
    monkeypatch.setattr(runner, "warm_up", lambda *args: calls.append(args))
    run_experiment(load_experiment(TOY), tmp_path / "r", jobs=jobs, progress=progress, games=20)
    assert bool(calls) == warmed
