"""Verdicts under stronger play (analyses/strong_play.py, reports/strong_play.py): the table has
one row per verdict and level, a verdict that flips at a stronger level is reported as not
holding, and bad options are one-line errors with exit code 2."""
from __future__ import annotations

import textwrap

import pytest

from analyses import strong_play as sp
from analyses.verdicts import Line
from sim.core.errors import InputError

XDIST_GAME = "animal_kingdoms"     # its slow tests play Animal Kingdoms: run them beside that game's (tests/conftest.py)
AK_TINY = textwrap.dedent("""
    [experiment]
    name = "ak_tiny"
    game = "animal_kingdoms"
    games = 12
    seed = 3
    chunk = 12

    [config]
    players = 4

    [[seats]]
    strategy = "ak_greedy"
    [[seats]]
    strategy = "ak_greedy"
    [[seats]]
    strategy = "ak_greedy"
    [[seats]]
    strategy = "ak_greedy"
    """)


def _line(group, est, se):
    return Line("faction", group, est, se, 1000)


def test_a_verdict_that_flips_does_not_hold_and_the_others_are_read_right():
    """Hand-made lines, δ = 2 pp, three lines per level (z = 2.39 for m = 3):
    A +10 pp ± 2.4 is out of balance by default; at "tuned" it is -10 pp ± 2.4 (out the other way:
    does not hold), at "search" +10 pp ± 24 (undecided: cannot tell). B 0 ± 0.5 is balanced; at
    "tuned" +0.1 ± 0.5 (balanced: holds), at "search" +10 ± 2.4 (out: does not hold). C +3 ± 12
    is undecided by default: no default verdict at any level."""
    lines = {"default": [_line("A", 0.10, 0.01), _line("B", 0.0, 0.002), _line("C", 0.03, 0.05)],
             "tuned": [_line("A", -0.10, 0.01), _line("B", 0.001, 0.002), _line("C", 0.03, 0.05)],
             "search": [_line("A", 0.10, 0.1), _line("B", 0.10, 0.01), _line("C", 0.0, 0.002)]}
    table = sp.verdict_table(lines, {"default": 1000, "tuned": 1000, "search": 100}, 0.02)
    got = {(r["group"], r["level"]): (r["word"], r["holds"]) for r in table.iter_rows(named=True)}
    assert got[("A", "default")] == ("out of balance", "-")
    assert got[("A", "tuned")] == ("out of balance", sp.FAILS)
    assert got[("A", "search")] == ("undecided", sp.CANNOT_TELL)
    assert got[("B", "default")] == ("balanced", "-")
    assert got[("B", "tuned")] == ("balanced", sp.HOLDS)
    assert got[("B", "search")] == ("out of balance", sp.FAILS)
    assert got[("C", "default")][0] == "undecided"
    assert got[("C", "tuned")][1] == got[("C", "search")][1] == sp.NO_VERDICT
    assert table["group"].to_list()[:3] == ["A", "A", "A"]          # largest default effect first
    assert table["level"].to_list()[:3] == ["default", "tuned", "search"]
    a_tuned = table.filter((table["group"] == "A") & (table["level"] == "tuned")).row(0, named=True)
    assert a_tuned["lo"] == pytest.approx(-0.10 - 2.394 * 0.01, abs=1e-3)   # the simultaneous interval
    text = "\n".join(sp.table_lines(table.with_columns(by=sp.pl.lit("faction"), delta=sp.pl.lit(0.02))))
    assert "does not hold" in text and "faction: A" in text


def test_holds_needs_the_same_word_in_the_same_direction():
    assert sp.holds("out of balance", 0.05, "out of balance", 0.04) == sp.HOLDS
    assert sp.holds("out of balance", 0.05, "out of balance", -0.04) == sp.FAILS
    assert sp.holds("out of balance", 0.05, "balanced", 0.0) == sp.FAILS
    assert sp.holds("balanced", 0.0, "undecided", 0.02) == sp.CANNOT_TELL
    assert sp.holds("undecided", 0.02, "balanced", 0.0) == sp.NO_VERDICT


def test_tiny_run_has_a_row_per_seat_and_level_and_the_report_shows_it(tmp_path):
    """Animal Kingdoms, four ak_greedy seats (verdict by seat), 12 / 12 / 2 games: 4 seats x 3
    levels; the tuned level is four ak_early_retreat+tuned, the search level four search seats;
    the kept table becomes a page of the report (PDF and HTML)."""
    from analyses.load import open_results
    from reports.report import experiment_report
    from sim.core.experiment import load_experiment

    path = tmp_path / "ak_tiny.toml"
    path.write_text(AK_TINY)
    exp = load_experiment(path)
    out = tmp_path / "res"
    opts = sp.Options(games={"default": 12, "tuned": 12, "search": 2}, search_budget=2)
    table = sp.strong_play(exp, opts, out)
    assert table.height == 12
    assert set(table["level"]) == {"default", "tuned", "search"}
    assert sorted(set(table["group"])) == ["seat 1", "seat 2", "seat 3", "seat 4"]
    assert dict(table.select("level", "games").unique().iter_rows()) == {"default": 12, "tuned": 12, "search": 2}
    plays = dict(table.select("level", "plays").unique().iter_rows())
    assert plays["tuned"] == "4 x ak_early_retreat+tuned" and plays["search"].startswith("4 x search (budget 2")
    assert (out / "ak_tiny__tuned").is_dir() and (out / "ak_tiny__search").is_dir()
    assert table["by"][0] == "seat"
    kept = sp.strong_play(exp, sp.Options(games={"default": 50, "tuned": 50, "search": 8}, search_budget=2), out,
                          play=False)                     # reads the kept games only: a run cut short
    assert dict(kept.select("level", "games").unique().iter_rows()) == {"default": 12, "tuned": 12, "search": 2}
    assert kept["estimate"].to_list() == table["estimate"].to_list()
    sp.write(table, exp.results_dir(out))
    files = experiment_report(open_results(str(out / "ak_tiny"), out), tmp_path / "rep", with_ratings=False,
                              strong_play=True)
    assert any(p.name == "strong_play.png" for p in files.pngs)
    assert "Does it hold under stronger play?" in files.html.read_text()


@pytest.mark.parametrize("argv, key", [(["--levels", "default,strong"], "--levels"),
                                       (["--levels", "tuned"], "--levels"),
                                       (["--search-games", "0"], "--search-games"),
                                       (["--search-budget", "-1"], "--search-budget"),
                                       (["--min-edge", "60"], "--min-edge")])
def test_bad_options_are_one_line_errors_with_exit_2(argv, key, capsys):
    assert sp.main(["experiments/animal_kingdoms_seats_4p.toml"] + argv) == 2
    err = capsys.readouterr().err
    assert key in err and err.count("\n") == 1


def test_unknown_game_needs_a_tuned_file_and_the_report_needs_the_table(tmp_path, capsys):
    from sim.cli import main

    with pytest.raises(InputError, match="no best tuned plan known"):
        sp.tuned_seat("tests.toy_game")
    root = tmp_path / "res"
    path = tmp_path / "toy.toml"
    path.write_text(textwrap.dedent("""
        [experiment]
        name = "toy"
        game = "tests.toy_game"
        games = 6
        seed = 1
        chunk = 6
        [config]
        players = 2
        [[seats]]
        strategy = "random"
        [[seats]]
        strategy = "random"
        """))
    assert main(["run", str(path), "--out", str(root)]) == 0
    capsys.readouterr()
    assert main(["report", str(root / "toy"), "--out", str(root), "--report-dir", str(tmp_path / "rep"),
                 "--strong-play"]) == 2
    assert "no strong-play table" in capsys.readouterr().err


def test_every_game_has_a_best_tuned_plan_that_builds():
    """The tuned level of every game: its parameter file exists, names a plan of that game, and
    its weights build that plan (a renamed file or Param would otherwise fail only mid-run)."""
    from sim.core.game import get_game
    from strategies import registry
    from tests.conftest import GAMES

    assert set(sp.BEST_TUNED) == set(GAMES)
    for name in GAMES:
        seat = sp.tuned_seat(name)
        assert seat.params_file and seat.params, name
        game = get_game(name)
        config = game.Config(players=4)
        registry.make(seat.strategy, seat.params, game, game.load_content(config, "test"))
        assert seat.strategy in registry.available(name), (name, seat.strategy)
