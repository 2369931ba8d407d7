"""Fault injection: whatever goes wrong (a signal, a killed worker, a second run, a worker's error,
an unwritable folder, a full disk), a results folder never holds a game twice or a wrong row, the
user gets one line and exit 2 (or 130 for an interruption), and the next run completes the rows
of the uninterrupted run exactly, with any chunk."""
import dataclasses
import errno
import os
import pickle
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from analyses.load import open_results
from sim import cli
from sim.core import results as res
from sim.core import runner
from sim.core.errors import InputError, RunError
from sim.core.experiment import load_experiment
from sim.play import make_strategies, run_experiment

ROOT = Path(__file__).parent.parent
TOY = Path(__file__).parent / "data" / "toy.toml"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
_FRESH: dict = {}


def rows(results_dir):
    return res.scan(results_dir).collect().sort(["variant", "game", "seat"])


def fresh(games: int, tmp_path_factory) -> pl.DataFrame:
    """The rows of an uninterrupted run of ``games`` toy games (one chunk, one process)."""
    if games not in _FRESH:
        out = tmp_path_factory.mktemp("fresh")
        _FRESH[games] = rows(run_experiment(load_experiment(TOY), out, games=games, chunk=games))
    return _FRESH[games]


def shards(results_dir, variant="base"):
    return sorted((Path(results_dir) / variant).glob("shard-*.parquet"))


def sim_run(*args, cwd):
    return subprocess.Popen([sys.executable, "-m", "sim", "run", *map(str, args), "--quiet"], cwd=cwd, env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_shards(results_dir, n, proc, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline and len(shards(results_dir)) < n and proc.poll() is None:
        time.sleep(0.02)
    assert len(shards(results_dir)) >= n, "the run did not get going"


def one_line_exit_2(capsys, argv, match):
    assert cli.main([str(a) for a in argv]) == 2
    err = capsys.readouterr().err
    assert match in err and len(err.strip().splitlines()) == 1, err


# ---- errors cross process boundaries intact ---------------------------------------------------

@pytest.mark.parametrize("cls", [InputError, RunError])
def test_errors_pickle_and_unpickle_exactly(cls):
    err = cls("x.toml", "seats[0].strategy", "unknown strategy 'randon'")
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is cls and str(back) == str(err) == "x.toml: seats[0].strategy: unknown strategy 'randon'"
    assert (back.source, back.place, back.problem) == (err.source, err.place, err.problem)
    assert str(pickle.loads(pickle.dumps(cls("f", None, "p")))) == "f: p"


def fails_in_a_worker(exp, variant, game, content):
    """Strategies that validate in the run's process but fail in any other (a worker)."""
    if os.getpid() != int(exp.description.split("|")[0]):
        raise InputError(exp.path, "seats[0].params", "refused in a worker")
    return make_strategies(exp, variant, game, content)


def dies_once_in_a_worker(exp, variant, game, content):
    """Strategies whose first call in a worker kills that worker (SIGKILL), once per marker."""
    pid, marker = exp.description.split("|")
    if os.getpid() != int(pid) and not os.path.exists(marker):
        Path(marker).write_text("killed")
        os.kill(os.getpid(), signal.SIGKILL)
    return make_strategies(exp, variant, game, content)


def marked(exp, marker=""):
    return dataclasses.replace(exp, description=f"{os.getpid()}|{marker}")


def test_a_worker_error_on_loky_is_the_same_one_line_error(tmp_path):
    with pytest.raises(InputError, match="seats\\[0\\].params: refused in a worker"):
        runner.run_experiment(marked(load_experiment(TOY)), fails_in_a_worker, tmp_path, jobs=2, games=40, chunk=10)
    assert shards(tmp_path / "toy_test") == []


def test_a_killed_loky_worker_is_one_line_and_the_rerun_completes_the_rows(tmp_path, tmp_path_factory):
    exp = marked(load_experiment(TOY), tmp_path / "killed")
    with pytest.raises(RunError, match="a worker process died"):
        runner.run_experiment(exp, dies_once_in_a_worker, tmp_path, jobs=2, games=300, chunk=20)
    runner.run_experiment(exp, dies_once_in_a_worker, tmp_path, jobs=2, games=300, chunk=33)
    assert rows(tmp_path / "toy_test").equals(fresh(300, tmp_path_factory))


# ---- signals at random moments, concurrent runs -----------------------------------------------

@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=lambda s: s.name)
def test_a_run_killed_at_a_random_moment_resumes_to_the_same_rows(tmp_path, tmp_path_factory, sig):
    out = tmp_path / "r"
    results_dir = out / "toy_test"
    proc = sim_run(TOY, "--games", 3000, "--chunk", 10, "--out", out, cwd=tmp_path)
    wait_for_shards(results_dir, 2, proc)
    time.sleep(random.Random(int(sig)).uniform(0, 0.2))
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    kept = shards(results_dir)
    assert len(kept) < 300, "the run ended before the signal"
    if sig == signal.SIGKILL:
        assert proc.returncode == -signal.SIGKILL
    else:
        assert proc.returncode == 130 and "interrupted" in err and len(err.strip().splitlines()) == 1, err
    for shard in kept:                          # every shard left behind is whole
        assert pl.read_parquet(shard).height == 10 * 3
    run_experiment(load_experiment(TOY), out, games=3000, chunk=45)      # the rerun, another chunk
    assert not list((results_dir / "base").glob("*.tmp-*"))
    assert rows(results_dir).equals(fresh(3000, tmp_path_factory))


def test_a_second_run_into_the_same_folder_is_refused_while_the_first_runs(tmp_path, tmp_path_factory, capsys):
    out = tmp_path / "r"
    first = sim_run(TOY, "--games", 3000, "--chunk", 10, "--out", out, cwd=tmp_path)
    wait_for_shards(out / "toy_test", 1, first)
    one_line_exit_2(capsys, ["run", TOY, "--games", 3000, "--chunk", 40, "--out", out, "--quiet"],
                    "another run is writing into this folder (pid ")
    assert first.poll() is None, "the first run ended before the second was refused"
    first.send_signal(signal.SIGTERM)
    assert first.wait(timeout=60) == 130
    run_experiment(load_experiment(TOY), out, games=3000, chunk=40)         # now the folder is free
    assert rows(out / "toy_test").equals(fresh(3000, tmp_path_factory))


def test_the_lock_refuses_in_process_too(tmp_path):
    exp = load_experiment(TOY)
    with res.locked(exp.results_dir(tmp_path)):
        with pytest.raises(InputError, match="another run is writing into this folder"):
            run_experiment(exp, tmp_path, games=10)
    run_experiment(exp, tmp_path, games=10)                   # released when the holder ends


# ---- one game, one row: shard ranges, overlaps, any game index ---------------------------------

def test_shard_names_hold_game_indices_past_10_digits_and_resume_recognises_them(tmp_path):
    exp = load_experiment(TOY)
    out = run_experiment(exp, tmp_path, first_game=10**9 - 3, games=8, chunk=4)
    names = [p.name for p in shards(out)]
    assert names == ["shard-1000000001-1000000004.parquet", "shard-999999997-1000000000.parquet"]
    before = {p: p.stat().st_mtime_ns for p in shards(out)}
    run_experiment(exp, tmp_path, first_game=10**9 - 3, games=8, chunk=3)
    assert {p: p.stat().st_mtime_ns for p in shards(out)} == before       # nothing replayed
    df = rows(out)
    assert df.height == 8 * 3 and df["game"].min() == 10**9 - 3 and df["game"].max() == 10**9 + 4
    last = res.MAX_GAME_INDEX
    top = run_experiment(exp, tmp_path / "top", first_game=last - 1, games=2)
    assert rows(top)["game"].unique().sort().to_list() == [last - 1, last]


def test_coverage_comes_from_the_shards_recorded_range_not_their_name(tmp_path):
    exp = load_experiment(TOY)
    out = run_experiment(exp, tmp_path, games=30, chunk=10)
    assert res.shard_range(shards(out)[1]) == (10, 19)
    shards(out)[1].rename(out / "base" / "shard-000000500-000000600.parquet")   # a misleading name
    run_experiment(exp, tmp_path, games=30, chunk=7)
    assert len(shards(out)) == 3 and rows(out).height == 30 * 3


def test_a_game_held_by_two_shards_is_refused_by_runner_scan_and_loader(tmp_path, capsys):
    exp = load_experiment(TOY)
    out = run_experiment(exp, tmp_path, games=30, chunk=10)
    shutil.copy(shards(out)[1], out / "base" / "shard-000000015-000000015.parquet")   # copied, renamed
    expected = "shards shard-000000010-000000019.parquet and shard-000000015-000000015.parquet both hold games 10..19"
    with pytest.raises(InputError, match=expected):
        run_experiment(exp, tmp_path, games=40, chunk=10)
    with pytest.raises(InputError, match=expected):
        res.scan(out)
    with pytest.raises(InputError, match=expected):
        open_results(out)
    one_line_exit_2(capsys, ["summary", out], expected)


# ---- nothing written before validation; one line for every failure -----------------------------

@pytest.mark.parametrize("argv, match", [
    (["--seed", 2**63], "--seed: expected an integer from 0 to 9223372036854775807"),
    (["--games", 10**12], "--games: expected a positive integer up to 1000000000"),
    (["--first-game", 10**15], "--first-game: expected an integer from 0 to 999999999999999"),
    (["--first-game", 10**15 - 5, "--games", 10], "--first-game: expected an integer from 0 to 999999999999990"),
    (["--backend", "dask", "--scheduler", "nonsense://host"], "cannot reach Dask scheduler"),
])
def test_limits_and_backend_are_checked_before_anything_is_written(tmp_path, capsys, argv, match):
    code = None
    try:
        code = cli.main(["run", str(TOY), "--out", str(tmp_path / "out"), "--quiet", *map(str, argv)])
    except SystemExit as stop:                     # argparse's own refusals
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2 and match in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("key, value, match", [
    ("seed", 2**63, "experiment.seed: expected an integer from 0 to 9223372036854775807"),
    ("games", 10**12, "experiment.games: expected an integer from 1 to 1000000000"),
])
def test_limits_in_the_experiment_file(tmp_path, capsys, key, value, match):
    text = TOY.read_text().replace("seed = 7" if key == "seed" else "games = 300", f"{key} = {value}")
    (tmp_path / "big.toml").write_text(text)
    one_line_exit_2(capsys, ["run", tmp_path / "big.toml", "--out", tmp_path / "out"], match)
    assert not (tmp_path / "out").exists()


def test_an_out_that_is_a_file_or_unwritable_is_one_line(tmp_path, capsys, monkeypatch):
    (tmp_path / "file").write_text("keep")
    one_line_exit_2(capsys, ["run", TOY, "--out", tmp_path / "file"], "cannot write the results folder here")
    one_line_exit_2(capsys, ["run", TOY, "--out", tmp_path / "file" / "sub"], "cannot write the results folder here")
    (tmp_path / "toy_test").write_text("keep")
    one_line_exit_2(capsys, ["run", TOY, "--out", tmp_path], "is a file, not a results folder")
    assert (tmp_path / "file").read_text() == "keep" and (tmp_path / "toy_test").read_text() == "keep"

    def refuse(self, *args, **kwargs):            # as root, chmod cannot make a folder unwritable
        raise PermissionError(errno.EACCES, "Permission denied", str(self))
    monkeypatch.setattr(Path, "mkdir", refuse)
    one_line_exit_2(capsys, ["run", TOY, "--out", tmp_path / "ro"], "Permission denied; choose another --out")
    assert not (tmp_path / "ro").exists()


def test_a_full_disk_is_one_line_leaves_no_partial_file_and_the_rerun_completes(tmp_path, tmp_path_factory,
                                                                              capsys, monkeypatch):
    real = pl.DataFrame.write_parquet
    calls = []

    def fills_up(self, file, **kwargs):
        calls.append(file)
        if len(calls) == 3:
            Path(file).write_bytes(b"PAR1 half a shard")
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, file, **kwargs)
    monkeypatch.setattr(pl.DataFrame, "write_parquet", fills_up)
    one_line_exit_2(capsys, ["run", TOY, "--out", tmp_path, "--chunk", 50, "--quiet"],
                    "cannot write the shard: No space left on device (the disk is full)")
    assert len(shards(tmp_path / "toy_test")) == 2
    assert not list((tmp_path / "toy_test" / "base").glob("*.tmp-*"))
    monkeypatch.setattr(pl.DataFrame, "write_parquet", real)
    assert cli.main(["run", str(TOY), "--out", str(tmp_path), "--chunk", "64", "--quiet"]) == 0
    assert rows(tmp_path / "toy_test").equals(fresh(300, tmp_path_factory))


# ---- Dask: interruption cancels, relative paths, worker errors and deaths -----------------------

@pytest.fixture(scope="module")
def cluster():
    from dask.distributed import LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        yield c


def test_dask_interrupted_run_cancels_its_tasks_and_a_rerun_gives_the_same_rows(cluster, tmp_path,
                                                                                tmp_path_factory, monkeypatch):
    exp = load_experiment(TOY)
    real, written = res.write_shard, []

    def interrupted(df, variant_dir, first, last):
        if len(written) == 2:
            raise KeyboardInterrupt
        written.append(first)
        return real(df, variant_dir, first, last)
    monkeypatch.setattr(res, "write_shard", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_experiment(exp, tmp_path, backend="dask", scheduler=cluster.scheduler_address, chunk=10)
    deadline = time.time() + 15
    while time.time() < deadline and cluster.scheduler.tasks:
        time.sleep(0.05)
    assert not cluster.scheduler.tasks, "tasks left on the cluster after the interruption"
    left = shards(tmp_path / "toy_test")
    assert len(left) == 2
    time.sleep(0.5)
    assert shards(tmp_path / "toy_test") == left                  # nothing writes after the end
    monkeypatch.setattr(res, "write_shard", real)
    out = run_experiment(exp, tmp_path, backend="dask", scheduler=cluster.scheduler_address, chunk=37)
    assert rows(out).equals(fresh(300, tmp_path_factory))


def test_dask_with_relative_out_and_content_paths_writes_where_the_client_is(cluster, tmp_path, monkeypatch):
    """Workers run in another directory than the client: every path is resolved on the client, the
    workers get the loaded content itself and write nothing."""
    (tmp_path / "exp").mkdir()
    (tmp_path / "exp" / "faces.txt").write_text("6")
    (tmp_path / "exp" / "toy.toml").write_text(TOY.read_text().replace("target = 25", 'target = 25\nfaces_file = "faces.txt"'))
    monkeypatch.chdir(tmp_path)
    exp = load_experiment("exp/toy.toml")
    out = run_experiment(exp, "r", backend="dask", scheduler=cluster.scheduler_address, games=60, chunk=20)
    assert out == tmp_path / "r" / "toy_test"
    assert rows(out).equals(rows(run_experiment(exp, "local", games=60, chunk=60)))
    assert not (ROOT / "r").exists()


def test_a_worker_error_on_dask_is_the_same_one_line_error_not_a_hang(cluster, tmp_path):
    with pytest.raises(InputError, match="seats\\[0\\].params: refused in a worker"):
        runner.run_experiment(marked(load_experiment(TOY)), fails_in_a_worker, tmp_path, backend="dask",
                              scheduler=cluster.scheduler_address, games=40, chunk=10)
    assert shards(tmp_path / "toy_test") == []


def test_a_killed_dask_worker_is_replaced_and_the_rows_are_exact(cluster, tmp_path, tmp_path_factory):
    exp = marked(load_experiment(TOY), tmp_path / "killed")
    out = runner.run_experiment(exp, dies_once_in_a_worker, tmp_path, backend="dask",
                                scheduler=cluster.scheduler_address, chunk=30)
    assert (tmp_path / "killed").exists()
    assert rows(out).equals(fresh(300, tmp_path_factory))
