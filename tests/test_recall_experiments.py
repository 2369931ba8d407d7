"""Recall experiments: identical rows for any ``--jobs``, ``--chunk`` and backend (loky, Dask),
the shipped experiment files, and the baseline ``rc_greedy`` against random play.

The games are ones that end (tests/recall_games.py) while the engine does not compile every rule.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
from scipy import stats

from analyses.load import open_results
from sim.core.experiment import load_experiment
from sim.core.results import scan
from sim.play import make_strategies, run_experiment
from tests.recall_games import ending_range
from tests.scaffold import ROOT, assert_score_sheets, rows

COMPILED = ('strategy = "lookahead"\nparams.weights = {final = 0.0, crystals = 0.0, keys = 0.0, tracks = 0.0, '
            'followers = 0.0, pending = 0.0}\n')


def _write(tmp_path: Path, seats: list[str], players: int, games: int, seed: int = 8) -> Path:
    body = "".join(f"[[seats]]\n{s}" for s in seats)
    path = tmp_path / "exp.toml"
    path.write_text(f'[experiment]\nname = "rc_rep"\ngame = "recall"\ngames = {games}\nseed = {seed}\n\n'
                    f"[config]\nplayers = {players}\n\n{body}")
    return path


def test_rows_identical_for_any_jobs_chunk_and_dask(tmp_path):
    """Every draw is keyed by (seed, game index, purpose): the rows do not depend on how the games
    are cut into chunks, how many processes play them, or the backend."""
    from dask.distributed import LocalCluster

    exp = load_experiment(_write(tmp_path, [COMPILED, 'strategy = "rc_greedy"\n'], 2, 60))
    first, count = ending_range(exp, "base", 40, make_strategies)
    assert count >= 6
    count = min(count, 12)                      # enough to cut into chunks of 2 and 3; CI stays lean
    one = rows(run_experiment(exp, tmp_path / "one", jobs=1, chunk=count, first_game=first, games=count))
    two = rows(run_experiment(exp, tmp_path / "two", jobs=2, chunk=2, first_game=first, games=count))
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        dask = rows(run_experiment(exp, tmp_path / "dask", backend="dask", scheduler=cluster.scheduler_address,
                                   chunk=3, first_game=first, games=count))
    assert one.height == 2 * count and one.equals(two) and one.equals(dask)
    assert_score_sheets(one, [c for c in one.columns if c.startswith("score_")])


def test_rc_greedy_rows_identical_for_any_jobs_and_chunk_in_compiled_play(tmp_path):
    """Four rc_greedy seats (the runner's compiled ``play_to_end``, strategies/recall_kernel.py):
    the same rows in one process as in two with chunks of 2; the games the step-by-step loop
    ends (``tests.recall_games.ended``) end here too (no stop, no error)."""
    exp = load_experiment(_write(tmp_path, ['strategy = "rc_greedy"\n'] * 4, 4, 24, seed=3))
    first, count = ending_range(exp, "base", 16, make_strategies)
    assert count >= 4
    count = min(count, 8)
    one = rows(run_experiment(exp, tmp_path / "one", jobs=1, chunk=count, first_game=first, games=count))
    two = rows(run_experiment(exp, tmp_path / "two", jobs=2, chunk=2, first_game=first, games=count))
    assert one.height == 4 * count and one.equals(two)
    assert_score_sheets(one, [c for c in one.columns if c.startswith("score_")])


def test_scan_reads_a_folder_of_two_player_counts(tmp_path):
    """``sim.core.results.scan`` of one folder holding a 2- and a 3-player run (``players = [2, 3]``,
    two games each): the per-game feature columns differ by count (``rc_tribe_<k>`` for k up to the
    player count, the display pair nobody took at k = players; likewise ``rc_item_<k>``,
    ``rc_has_tribe_<k>``); the scan has every row of both runs once, ``rc_tribe_3`` (3 players
    only) null in the 2-player rows and set in the 3-player rows; one variant scans as its own
    shards read; the analyses' scan (``analyses.load``) of all variants is the same table."""
    exp = load_experiment(_write(tmp_path, ['strategy = "random"\n'] * 3, "[2, 3]", 2))
    out = run_experiment(exp, tmp_path / "out", games=2, chunk=2)
    df = scan(out).collect()
    assert sorted(df.group_by("variant").agg(pl.len()).rows()) == [("players=2", 4), ("players=3", 6)]
    two, three = df.filter(pl.col("players") == 2), df.filter(pl.col("players") == 3)
    assert two["rc_tribe_3"].null_count() == 4 and three["rc_tribe_3"].null_count() == 0
    assert two["rc_tribe_2"].null_count() == 0 and three["rc_tribe_2"].null_count() == 0
    for v in ("players=2", "players=3"):
        shards = pl.concat([pl.read_parquet(f) for f in sorted((out / v).glob("shard-*.parquet"))])
        assert scan(out, v).collect().equals(shards)
    assert open_results(str(out)).scan().collect().sort(["variant", "game", "seat"]).equals(
        df.sort(["variant", "game", "seat"]))


def test_shipped_recall_experiments_load():
    """experiments/recall_tribes.toml (4 players, the baseline) and recall_solo.toml (keep_two vs
    keep_three, RC-A54)."""
    tribes = load_experiment(ROOT / "experiments/recall_tribes.toml")
    assert tribes.game == "recall" and tribes.variants["base"].players == 4
    assert [s.strategy for s in tribes.seats] == ["rc_greedy"] * 4
    solo = load_experiment(ROOT / "experiments/recall_solo.toml")
    assert {v: c.solo_goals for v, c in solo.variants.items()} == {"keep_two": "keep_two", "keep_three": "keep_three"}
    assert all(c.players == 1 for c in solo.variants.values())


def test_rc_greedy_beats_random_play(tmp_path):
    """The baseline against uniform play (over the compiled rules) in 2-player games, seats
    swapped by the seeded start player: it wins more than half of the games, by a one-sided
    binomial test at p < 0.001 (one game = one trial, ties counted as half a win)."""
    exp = load_experiment(_write(tmp_path, ['strategy = "rc_greedy"\n', COMPILED], 2, 140, seed=21))
    content = exp.content("base")
    from tests.recall_games import ended
    strategies = make_strategies(exp, "base", exp.game_module(), content)
    ends = np.flatnonzero(ended(exp.variants["base"], content, strategies, exp.seed, np.arange(140)))
    assert len(ends) >= 100
    df = None
    for a, b in _ranges(ends):
        df = rows(run_experiment(exp, tmp_path / "out", first_game=a, games=b - a))
    greedy = df.filter(df["strategy"] == "rc_greedy")
    wins = float(greedy["win_share"].sum())
    games = greedy.height
    p = stats.binomtest(int(round(wins)), games, 0.5, alternative="greater").pvalue
    assert wins / games > 0.5 and p < 0.001, (wins, games, p)
    assert greedy["score"].mean() > df.filter(df["strategy"] != "rc_greedy")["score"].mean()


def _ranges(ids):
    """Consecutive runs [a, b) of sorted game indices."""
    out, start = [], None
    for prev, i in zip([None] + list(ids), list(ids) + [None]):
        if start is None:
            start = i
        elif i is None or i != prev + 1:
            out.append((int(start), int(prev) + 1))
            start = i
    return out
