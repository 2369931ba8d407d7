"""Explorers of Navoria through the command line: reproducible rows for any jobs/chunk, rows that
follow the results schema (components sum to the score), replay, score, and bad input (EN-S1
player counts, EN-V3 the blank tile only with two players, EN-V5 no solo game, content files)
rejected with a one-line error, exit 2 and nothing written."""
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from sim.core.experiment import load_experiment
from sim.core.results import scan
from sim.play import run_experiment

ROOT = Path(__file__).resolve().parent.parent
EXP = """
[experiment]
name = "en_cli"
game = "explorers_of_navoria"
games = 60
seed = 3
chunk = 25

[config]
players = 3
{extra}

[[seats]]
strategy = "random"
[[seats]]
strategy = "lookahead"
[[seats]]
strategy = "random"
"""
PLAIN = EXP.format(extra="")
COMPONENTS = {"score_cards", "score_city", "score_orders", "score_treasure", "score_trader_income",
              "score_adventurer_income", "score_exploration", "score_soldiers", "score_favour"}


def write(tmp_path, extra="", text=None):
    path = tmp_path / "exp.toml"
    path.write_text(text if text is not None else EXP.format(extra=extra))
    return path


def cli(*args, cwd):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "sim", *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          env=env)


def rows(d):
    return scan(d).collect().sort(["game", "seat"])


def test_rows_identical_for_any_jobs_and_chunk_and_follow_the_schema_EN_E7_EN_E8(tmp_path):
    """Rows do not depend on jobs or chunk; the score is the sum of its components; ties share the win."""
    exp = load_experiment(write(tmp_path))
    one = rows(run_experiment(exp, tmp_path / "one", jobs=1, chunk=60))
    two = rows(run_experiment(exp, tmp_path / "two", jobs=2, chunk=7))
    assert one.height == 180 and one.equals(two)
    parts = [c for c in one.columns if c.startswith("score_")]
    assert set(parts) == COMPONENTS
    assert one.select((pl.sum_horizontal(parts) == pl.col("score")).all()).item()
    shares = one.group_by("game").agg(pl.col("win_share").sum())
    assert (shares["win_share"] - 1.0).abs().max() < 1e-9
    assert set(one["en_tile_humans"].unique()) <= {f"FT{i:02d}" for i in range(1, 11)}


def test_replay_reproduces_a_stored_game_with_a_readable_log(tmp_path):
    assert cli("run", write(tmp_path), "--out", tmp_path / "r", "--quiet", cwd=tmp_path).returncode == 0
    done = cli("replay", tmp_path / "r" / "en_cli", "--game", "17", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "# matches the stored results" in done.stdout
    assert done.stdout.count("\n") > 100


def test_score_command_prints_the_worked_example_x5_EN_E3_EN_E4():
    done = cli("score", "explorers_of_navoria",
               ROOT / "docs/examples/explorers_of_navoria/example_x5_shared_victory.json", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("94") >= 2


@pytest.mark.parametrize("extra, text, match", [
    ("", PLAIN.replace("players = 3", "players = 5"), "config.players: expected a value from 2 to 4, got 5"),
    ("", PLAIN.replace("players = 3", "players = 1"), "config.players: expected a value from 2 to 4, got 1"),
    ("", PLAIN.replace("games = 60", "games = 0"), "experiment.games: expected an integer >= 1, got 0"),
    ("blank_tile_variant = true", None, "blank_tile_variant: the blank favour tile variant is a 2-player variant"),
    ('dock_placement = "loose"', None, "config.dock_placement: expected one of 'strict', 'free', got 'loose'"),
    ("dock_placment = \"free\"", None, "config.dock_placment: unknown key"),
    ('cards_file = "nope.csv"', None, "nope.csv"),
])
def test_bad_input_one_line_exit_2_nothing_written_EN_S1_EN_V3_EN_V5(tmp_path, extra, text, match):
    path = write(tmp_path, extra, text)
    done = cli("run", path, "--out", tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert match in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_invalid_card_file_names_the_line_card_and_field(tmp_path):
    cards = (ROOT / "sim/games/explorers_of_navoria/data/cards.csv").read_text()
    (tmp_path / "cards.csv").write_text(cards.replace("GR05,artisans,human,good:M+good:M",
                                                      "GR05,artisans,human,good:M+good:Q"))
    done = cli("run", write(tmp_path, 'cards_file = "cards.csv"'), "--out", tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 2
    assert "cards.csv" in done.stderr and "GR05" in done.stderr and "immediate" in done.stderr
    assert not (tmp_path / "out").exists()
