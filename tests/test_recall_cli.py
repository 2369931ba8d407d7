"""Recall from the command line: ``describe`` prints a seeded setup, ``score`` a position (RC-S15,
RC-S17, RC-A65, RC-A66), ``run`` plays an experiment and ``replay`` logs one of its games, bad
input is one line, exit 2 and nothing written."""
from __future__ import annotations

import re

import pytest

from sim.core.experiment import load_experiment
from sim.games.recall import content as content_module
from sim.play import make_strategies
from tests.recall_games import ending_range
from tests.scaffold import ROOT, assert_refused, assert_score_sheets, cli, copy_content, edit, rows

# uniform among the actions that keep to the compiled rules (tests/test_recall_play.py)
COMPILED = ('strategy = "lookahead"\nparams.weights = {final = 0.0, crystals = 0.0, keys = 0.0, tracks = 0.0, '
            'followers = 0.0, pending = 0.0}\n')

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


def _experiment(tmp_path, players=2, seats=None, extra="", games=10):
    seats = seats or [COMPILED] * players
    body = "".join(f"[[seats]]\n{x}" for x in seats)
    path = tmp_path / "rc.toml"
    path.write_text(f'[experiment]\nname = "rc"\ngame = "recall"\ngames = {games}\nseed = 4\nchunk = 4\n\n'
                    f"[config]\nplayers = {players}\n{extra}\n\n{body}")
    return path


def test_a_recall_experiment_runs_through_the_command_line_and_a_game_replays(tmp_path):
    """``sim run`` writes a game's rows and ``sim replay`` logs it: each decision with its seat and
    kind, what it changed (points, crystals, followers, ...), the seats' strategies, the end
    (RC-R7) and the same result as the stored rows. The game is one that ends (tests/recall_games.py)."""
    path = _experiment(tmp_path)
    exp = load_experiment(path)
    first, count = ending_range(exp, "base", 40, make_strategies)
    assert count >= 1
    done = cli("run", path, "--out", tmp_path / "r", "--quiet", "--first-game", first, "--games", 1, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    replay = cli("replay", tmp_path / "r" / "rc", "--game", first, cwd=tmp_path)
    assert replay.returncode == 0, replay.stderr
    out = replay.stdout
    assert "# matches the stored results" in out
    assert "# seat 0 (start player): slot" in out and "strategy lookahead" in out and "(lookahead): " in out
    assert "(draft): use:" not in out and "seat 0 takes the tribe" in out
    assert "the hourglass has run out: the game is over" in out
    assert "key cards " in out and "followers on " in out and "Round 17" in out
    assert re.search(r"\(effect\): pick:\d+ \([A-Z]", out)          # the pending item picked, as written
    assert out.count("\n") > 200


def test_random_seats_give_every_row_or_one_line_naming_the_stopped_game(tmp_path):
    """No silent wrong row: a random-seat run either writes every game's rows (score sheets
    holding) or, where a game reaches a rule the engine does not compile yet, fails with one line
    naming the game and the rule, exit 2, and writes no row of that chunk (``GAME.done``'s guard)."""
    path = _experiment(tmp_path, seats=['strategy = "random"\n'] * 2, games=4)
    done = cli("run", path, "--out", tmp_path / "out", "--quiet", cwd=tmp_path)
    if done.returncode == 0:
        df = rows(tmp_path / "out" / "rc")
        assert df.height == 8
        assert_score_sheets(df, [c for c in df.columns if c.startswith("score_")])
    else:
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "recall engine: game " in done.stderr and "stopped at a rule it does not compile yet (" in done.stderr
        assert not list((tmp_path / "out").rglob("*.parquet"))


@pytest.mark.parametrize("extra, match", [
    ("", "config.players: expected a value from 1 to 4, got 5"),
    ("tribe_drfat = \"custom\"", "config.tribe_drfat: unknown key"),
    ("tribe_draft = \"twice\"", "config.tribe_draft: expected one of 'draft', 'random', 'custom'"),
    ("tribes_file = \"nope.csv\"", "nope.csv"),
])
def test_bad_settings_are_one_line_exit_2_nothing_written_RC_S1(tmp_path, extra, match):
    """RC-S1: 1-4 players; unknown keys and values; missing content files."""
    path = _experiment(tmp_path, players=5 if not extra else 2, extra=extra)
    assert_refused(cli("run", path, "--out", tmp_path / "out", cwd=tmp_path), match, tmp_path / "out")


def test_a_tribe_twice_in_the_tribes_file_is_refused_naming_the_line(tmp_path):
    """RC-S32, RC-S33: a tribe given twice (it could be drafted twice) is invalid content."""
    files = copy_content(content_module, tmp_path)
    edit(tmp_path / "tribes.csv", "Colteron,coded,-,no,yes", "Aynir,coded,-,no,yes")
    path = _experiment(tmp_path, extra=f'tribes_file = "{files["tribes_file"]}"')
    done = cli("run", path, "--out", tmp_path / "out", cwd=tmp_path)
    assert_refused(done, "tribes.csv", tmp_path / "out")
    assert "Aynir" in done.stderr


def test_too_few_tribes_for_the_players_is_refused(tmp_path):
    """RC-S32, RC-S36: four players need five tribes on display and three old tribes."""
    files = copy_content(content_module, tmp_path)
    text = (tmp_path / "tribes.csv").read_text().splitlines()
    head = [x for x in text if x.startswith("#") or x.startswith("id,")]
    body = [x for x in text if x not in head]
    (tmp_path / "tribes.csv").write_text("\n".join(head + body[:6]) + "\n")
    path = _experiment(tmp_path, players=4, extra=f'tribes_file = "{files["tribes_file"]}"')
    assert_refused(cli("run", path, "--out", tmp_path / "out", cwd=tmp_path), "tribes.csv", tmp_path / "out")
