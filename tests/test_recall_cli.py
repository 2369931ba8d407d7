"""Recall from the command line: ``describe`` prints a seeded setup, ``score`` a position, and an
experiment of Recall is refused with one line until the engine exists (RC-S15, RC-S17, RC-A65, RC-A66)."""
from __future__ import annotations

from tests.scaffold import ROOT, cli

EXAMPLE = ROOT / "docs" / "examples" / "recall" / "example1_full_final_scoring.json"


def test_describe_prints_board_water_and_start_fields_of_a_seeded_setup():
    """RC-S15, RC-S17: the area tiles of one seeded setup; RC-A65 the water areas, RC-A66 the start fields."""
    done = cli("describe", "recall", "--config", "players=2", "--seed", "5", "--game-index", "3")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Recall setup: seed 5, game 3, 2 player(s)")
    assert "Water areas" in done.stdout and "st1" in done.stdout
    again = cli("describe", "recall", "--config", "players=2", "--seed", "5", "--game-index", "3")
    assert again.stdout == done.stdout
    other = cli("describe", "recall", "--config", "players=2", "--seed", "5", "--game-index", "4")
    assert other.stdout != done.stdout


def test_describe_refuses_bad_settings_and_games_without_a_setup_view():
    for args, expected in [(("recall", "--config", "bogus=1"), "--config bogus: unknown key"),
                           (("recall", "--config", "players"), "expected KEY=VALUE"),
                           (("recall", "--config", "players=7"), "--config players"),
                           (("red_rising",), "red_rising has no setup description"),
                           (("chess",), "unknown game 'chess'")]:
        done = cli("describe", *args)
        assert done.returncode == 2, args
        assert expected in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_score_recall_position_prints_the_sheet():
    done = cli("score", "recall", EXAMPLE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1].split()[:3] == ["0", "none", "143"]


def test_an_experiment_of_recall_is_refused_until_it_has_an_engine(tmp_path):
    path = tmp_path / "rc.toml"
    path.write_text('[experiment]\nname = "rc"\ngame = "recall"\ngames = 10\n\n[config]\nplayers = 2\n\n'
                    '[[seats]]\nstrategy = "random"\n[[seats]]\nstrategy = "random"\n')
    done = cli("run", path, "--out", tmp_path / "out")
    assert done.returncode == 2
    assert "cannot be played yet" in done.stderr
    assert not (tmp_path / "out").exists()
