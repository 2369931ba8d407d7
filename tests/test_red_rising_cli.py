"""Red Rising through the command line: reproducible rows for any jobs/chunk/backend, replay,
score, and bad input (RR-S1 player counts, RR-S8 houses dealt once, deck files) rejected with
a one-line error, exit 2 and nothing written."""
import pytest

from sim.core.experiment import load_experiment
from sim.play import run_experiment
from tests.scaffold import (
    ROOT, assert_refused, assert_score_sheets, cli, experiment_template, replay_stored, rows, write_experiment,
)

EXP = experiment_template("rr_cli", "red_rising", ["rr_fleet_rush", "rr_end_bonus", "random"])
PLAIN = EXP.format(extra="")


def write(tmp_path, extra="", text=None):
    return write_experiment(tmp_path, EXP, extra, text)


def test_rows_identical_for_any_jobs_chunk_and_dask(tmp_path):
    from dask.distributed import LocalCluster
    exp = load_experiment(write(tmp_path))
    one = rows(run_experiment(exp, tmp_path / "one", jobs=1, chunk=60))
    two = rows(run_experiment(exp, tmp_path / "two", jobs=2, chunk=7))
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        dask = rows(run_experiment(exp, tmp_path / "dask", backend="dask", scheduler=cluster.scheduler_address, chunk=13))
    assert one.height == 180 and one.equals(two) and one.equals(dask)
    parts = [c for c in one.columns if c.startswith("score_")]
    assert set(parts) >= {"score_cards", "score_fleet", "score_helium", "score_sovereign", "score_influence",
                          "score_hand_penalty"}
    assert_score_sheets(one, parts)


def test_replay_reproduces_a_stored_game_with_a_readable_log(tmp_path):
    done = replay_stored(tmp_path, write(tmp_path), "rr_cli")
    assert "deploy" in done.stdout or "lead" in done.stdout
    assert done.stdout.count("\n") > 100


def test_score_command_prints_the_worked_example():
    done = cli("score", "red_rising", ROOT / "docs/examples/red_rising/example1_four_players.json", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "77" in done.stdout and "70" in done.stdout


@pytest.mark.parametrize("extra, text, match", [
    ("", PLAIN.replace("players = 3", "players = 7"), "config.players: expected a value from 1 to 6, got 7"),
    ("", PLAIN.replace("games = 60", "games = 0"), "experiment.games: expected an integer >= 1, got 0"),
    ('houses = ["Mars", "Mars", "Diana"]', None, "config.houses: a house can be dealt only once (RR-S8), got Mars twice"),
    ('houses = ["Mars", "Vulcan", "Diana"]', None, "houses[1]"),
    ('influence_tie_mode = "fair"', None, "config.influence_tie_mode: expected one of 'dense', 'competition', got 'fair'"),
    ('deck_file = "nope.toml"', None, "nope.toml"),
    ("", PLAIN.replace('strategy = "random"', 'strategy = "rr_fleet_rush"\nparams = { speed = 2.0 }'),
     "seats[2].params.speed: unknown key"),
])
def test_bad_input_one_line_exit_2_nothing_written(tmp_path, extra, text, match):
    path = write(tmp_path, extra, text)
    assert_refused(cli("run", path, "--out", tmp_path / "out", cwd=tmp_path), match, tmp_path / "out")


def test_invalid_deck_file_names_the_card_and_field(tmp_path):
    deck = tmp_path / "deck.toml"
    deck.write_text('[meta]\nname = "x"\nsynthetic = true\ncolours = ["Red"]\n\n'
                    '[[card]]\nid = "R1"\nname = "R1"\ncolour = "Blue"\ncore = 3\n')
    done = cli("run", write(tmp_path, 'deck_file = "deck.toml"'), "--out", tmp_path / "out", cwd=tmp_path)
    assert_refused(done, "R1", tmp_path / "out")
    assert "deck.toml" in done.stderr and "colour" in done.stderr
