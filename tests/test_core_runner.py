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


def test_killed_run_resumes_without_duplicates_or_gaps(tmp_path):
    """SIGKILL in the middle of a run: only complete shards remain; the same command finishes the job."""
    import signal
    import time
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    out = tmp_path / "r"
    cmd = [sys.executable, "-m", "sim", "run", str(TOY), "--games", "6000", "--chunk", "50", "--out", str(out), "--quiet"]
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env)
    base = out / "toy_test" / "base"
    deadline = time.time() + 60
    while time.time() < deadline and len(list(base.glob("shard-*.parquet"))) < 3:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    kept = sorted(base.glob("shard-*.parquet"))
    assert 3 <= len(kept) < 120, "the run was not interrupted in the middle"
    for shard in kept:                      # every shard left behind is complete and readable
        assert pl.read_parquet(shard).height == 50 * 3
    again = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    resumed = rows(out / "toy_test")
    assert resumed.height == 6000 * 3
    assert resumed.select(pl.struct("game", "seat").is_unique().all()).item()
    fresh = rows(run_experiment(load_experiment(TOY), tmp_path / "fresh", games=6000, chunk=6000))
    assert resumed.equals(fresh)
