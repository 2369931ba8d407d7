"""Several player counts in one experiment (``config.players = [2, 3, 4]``): one variant per
count with the first N seats, rows that carry ``players``, and a table with a column per count."""
from __future__ import annotations

import textwrap
from pathlib import Path

import polars as pl
import pytest

from analyses import player_counts
from analyses.load import open_results
from sim.cli import main
from sim.core.errors import InputError
from sim.core.experiment import load_experiment
from sim.play import run_experiment

ROOT = Path(__file__).resolve().parent.parent


def _toy(tmp_path, config: str, seats: int, extra: str = "") -> Path:
    path = tmp_path / "counts.toml"
    path.write_text(textwrap.dedent(f"""
        [experiment]
        name = "toy_counts"
        game = "tests.toy_game"
        games = 120
        seed = 5
        plugin_path = "{ROOT}"
        [config]
        {config}
        target = 25
        """) + "".join('[[seats]]\nstrategy = "random"\nparams = {}\n' for _ in range(seats)) + extra)
    return path


def test_each_count_is_a_variant_with_the_first_seats_and_rows_that_carry_players(tmp_path):
    exp = load_experiment(_toy(tmp_path, "players = [4, 2, 3]", 4))
    assert list(exp.variants) == ["players=2", "players=3", "players=4"]
    assert [exp.variants[v].players for v in exp.variants] == [2, 3, 4]
    assert [len(exp.seats_of(v)) for v in exp.variants] == [2, 3, 4]
    assert exp.sweep == {"players": [2, 3, 4]}           # reports draw metrics against the count
    rows = pl.concat([pl.read_parquet(p) for p in
                      sorted(run_experiment(exp, tmp_path / "r").glob("*/shard-*.parquet"))])
    counts = rows.group_by("variant", "players").agg(pl.len(), pl.col("slot").max()).sort("players")
    assert counts.rows() == [("players=2", 2, 240, 1), ("players=3", 3, 360, 2), ("players=4", 4, 480, 3)]


def test_a_count_plays_the_same_games_as_an_experiment_of_that_count_alone(tmp_path):
    many = run_experiment(load_experiment(_toy(tmp_path, "players = [2, 3]", 3)), tmp_path / "many")
    (tmp_path / "one").mkdir()
    alone = run_experiment(load_experiment(_toy(tmp_path / "one", "players = 3", 3)), tmp_path / "alone")
    cols = ["game", "seat", "slot", "score", "rank"]
    got = pl.read_parquet(sorted((many / "players=3").glob("*.parquet"))).select(cols)
    want = pl.concat([pl.read_parquet(p) for p in sorted((alone / "base").glob("*.parquet"))]).select(cols)
    assert got.sort("game", "seat").equals(want.sort("game", "seat"))


def test_one_seat_table_is_every_seat_and_named_variants_multiply(tmp_path):
    exp = load_experiment(_toy(tmp_path, "players = [2, 3]", 1, "[variants.short]\ntarget = 10\n[variants.long]\n"))
    assert list(exp.variants) == ["short,players=2", "short,players=3", "long,players=2", "long,players=3"]
    assert exp.variants["short,players=3"].target == 10 and len(exp.seats_of("long,players=3")) == 3
    assert exp.sweep == {}


@pytest.mark.parametrize("config, seats, match", [
    ("players = [2, 3]", 2, "expected one \\[\\[seats\\]\\] table .* or 3"),
    ("players = [2, 2]", 2, "config.players: expected a player count or a list of distinct counts"),
    ("players = [1, 2]", 2, "config.players: expected counts from 2 to 6, got 1"),
])
def test_bad_counts_are_one_line_naming_the_key(tmp_path, config, seats, match):
    with pytest.raises(InputError, match=match):
        load_experiment(_toy(tmp_path, config, seats))


def test_summary_shows_a_column_per_count(tmp_path, capsys):
    exp = _toy(tmp_path, "players = [2, 3]", 3)
    out = run_experiment(load_experiment(exp), tmp_path / "r")
    results = open_results(str(out))
    table = player_counts.side_by_side(results, player_counts.families(results.variants)[""], "seat")
    assert table.columns[:2] == ["seat", "2 players"] and "3 players" in table.columns
    assert table.filter(pl.col("seat") == "2")["2 players"].to_list() == [None]     # no third seat with 2
    # each column's excesses sum to zero: the seats of a game share one win
    assert abs(sum(table["2 players"].drop_nulls())) < 1e-9 and abs(sum(table["3 players"])) < 1e-9
    assert main(["summary", str(out)]) == 0
    text = capsys.readouterr().out
    assert "WIN RATE BY SEAT, BY PLAYER COUNT\nseat" in text and "2 players" in text


def test_report_of_several_counts_draws_the_levels_without_pairing_the_counts(tmp_path, capsys):
    """``sim report`` of a ``players = [2, 3]`` folder: the counts are a sweep axis (its pages draw
    each metric against the count); the counts play other games, so no point is paired with
    another (``analyses.sweep.paired_sweep_table``) and the report is written, not refused."""
    exp = _toy(tmp_path, "players = [2, 3]", 3)
    out = run_experiment(load_experiment(exp), tmp_path / "r")
    assert main(["report", str(out), "--report-dir", str(tmp_path / "rep")]) == 0
    pages = {p.name for p in (tmp_path / "rep" / "toy_counts").glob("*.png")}
    assert {"sweep_win_rate.png", "sweep_score.png", "sweep_game.png"} <= pages, sorted(pages)
