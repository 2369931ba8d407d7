"""Explorers of Navoria through the command line: reproducible rows for any jobs/chunk, rows that
follow the results schema (components sum to the score), replay, score, and bad input (EN-S1
player counts, EN-V3 the blank tile only with two players, EN-V5 no solo game, content files)
rejected with a one-line error, exit 2 and nothing written."""
import pytest

from sim.core.experiment import load_experiment
from sim.play import run_experiment
from tests.scaffold import (
    ROOT, assert_refused, assert_score_sheets, cli, experiment_template, replay_stored, rows, write_experiment,
)

EXP = experiment_template("en_cli", "explorers_of_navoria", ["random", "lookahead", "random"])
PLAIN = EXP.format(extra="")
COMPONENTS = {"score_cards", "score_city", "score_orders", "score_treasure", "score_trader_income",
              "score_adventurer_income", "score_exploration", "score_soldiers", "score_favour"}


def write(tmp_path, extra="", text=None):
    return write_experiment(tmp_path, EXP, extra, text)


def test_rows_identical_for_any_jobs_and_chunk_and_follow_the_schema_EN_E7_EN_E8(tmp_path):
    """Rows do not depend on jobs or chunk; the score is the sum of its components; ties share the win."""
    exp = load_experiment(write(tmp_path))
    one = rows(run_experiment(exp, tmp_path / "one", jobs=1, chunk=60))
    two = rows(run_experiment(exp, tmp_path / "two", jobs=2, chunk=7))
    assert one.height == 180 and one.equals(two)
    parts = [c for c in one.columns if c.startswith("score_")]
    assert set(parts) == COMPONENTS
    assert_score_sheets(one, parts)
    assert set(one["en_tile_humans"].unique()) <= {f"FT{i:02d}" for i in range(1, 11)}


def test_replay_reproduces_a_stored_game_with_a_readable_log(tmp_path):
    done = replay_stored(tmp_path, write(tmp_path), "en_cli")
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
    assert_refused(cli("run", path, "--out", tmp_path / "out", cwd=tmp_path), match, tmp_path / "out")


def test_invalid_card_file_names_the_line_card_and_field(tmp_path):
    cards = (ROOT / "sim/games/explorers_of_navoria/data/cards.csv").read_text()
    (tmp_path / "cards.csv").write_text(cards.replace("GR05,artisans,human,good:M+good:M",
                                                      "GR05,artisans,human,good:M+good:Q"))
    done = cli("run", write(tmp_path, 'cards_file = "cards.csv"'), "--out", tmp_path / "out", cwd=tmp_path)
    assert_refused(done, "GR05", tmp_path / "out")
    assert "cards.csv" in done.stderr and "immediate" in done.stderr
