"""The skill ladder (analyses/ladder.py, reports/ladder.py, experiments/<game>_ladder.toml): the
shipped ladder files load and every entrant resolves, tables are drawn fairly, a small ladder
plays the head-to-head tables the levels ask for, and its report section is written."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analyses import ladder as L
from analyses.tables import build_table
from reports import ladder as R
from sim.core.experiment import load_experiment
from strategies import registry
from tests.scaffold import cli, experiment_template, one_line_error, write_experiment

XDIST_GAME = "animal_kingdoms"     # its slow tests play Animal Kingdoms: run them beside that game's (tests/conftest.py)

ROOT = Path(__file__).resolve().parent.parent
LADDERS = {g: ROOT / "experiments" / f"{g}_ladder.toml" for g in ("red_rising", "animal_kingdoms", "explorers_of_navoria")}


@pytest.mark.parametrize("game", LADDERS)
def test_shipped_ladder_loads_and_entrants_resolve(game):
    exp = load_experiment(LADDERS[game])
    assert exp.game == game and len(exp.seats) == 4
    levels = [L.level(s) for s in exp.entrants]
    plans = {s.strategy for s in exp.entrants if L.level(s) == 1}
    tuned = {s.strategy for s in exp.entrants if L.level(s) == 2}
    assert levels.count(0) == 1                                         # random, once
    assert plans == tuned == {n for n in registry.available(game) if n.split("_")[0] in ("rr", "ak", "en")}
    for s in exp.entrants:
        if s.params_file:
            assert (LADDERS[game].parent / s.params_file).is_file() and s.params    # tuned weights, not defaults
        build_table(exp, "base", [s], "entrants")


def test_tables_are_distinct_and_balanced():
    draws = L._tables(9, 4, 36, seed=3)
    assert all(len(set(row)) == 4 for row in draws)
    counts = np.bincount(draws.reshape(-1), minlength=9)
    assert counts.max() - counts.min() <= 1 and counts.sum() == 36 * 4
    assert (L._tables(9, 4, 36, seed=3) == draws).all() and not (L._tables(9, 4, 36, seed=4) == draws).all()


def _small(tmp_path):
    (tmp_path / "t.toml").write_text('strategy = "ak_greedy"\n[params]\ncard = 0.6\nredraw = 0.2\n')
    entrants = ('\n[[entrants]]\nstrategy = "random"\n[[entrants]]\nstrategy = "ak_greedy"\n'
                '[[entrants]]\nstrategy = "ak_spreader"\n[[entrants]]\nparams_file = "t.toml"\n')
    text = experiment_template("small_ladder", "animal_kingdoms", ["ak_greedy", "ak_spreader", "random"]).format(extra="")
    return write_experiment(tmp_path, "", text=text + entrants)


def test_small_ladder_levels_and_head_to_head(tmp_path):
    """Levels: random 0, default 1, tuned 2; each plan meets 3 x random, the tuned plan also the
    best-rated default plan; win shares lie in their intervals; the targets are stated."""
    exp = load_experiment(_small(tmp_path))
    ld = L.ladder(exp, games=40, tables=8)
    assert sorted(ld.ratings["strategy"].to_list()) == ["ak_greedy", "ak_greedy+tuned", "ak_spreader", "random"]
    assert dict(zip(ld.ratings["strategy"], ld.ratings["level"])) == {
        "random": 0, "ak_greedy": 1, "ak_spreader": 1, "ak_greedy+tuned": 2}
    assert ld.ratings["elo"].to_list() == sorted(ld.ratings["elo"].to_list(), reverse=True)
    best_default = ld.ratings.filter(pl.col("level") == 1)["strategy"][0]
    pairs = set(zip(ld.head_to_head["entrant"], ld.head_to_head["opponent"]))
    assert pairs == {("ak_greedy", "random"), ("ak_spreader", "random"), ("ak_greedy+tuned", "random"),
                     ("ak_greedy+tuned", best_default)}
    h = ld.head_to_head
    assert ((h["lo"] <= h["win_share"]) & (h["win_share"] <= h["hi"])).all() and (h["games"] == 40).all()
    assert ld.fair == pytest.approx(1 / 3) and ld.mixed_games == 8 * 40
    targets = ld.targets()
    assert len(targets) == 2 and "against random" in targets[0] and "ak_greedy+tuned" in targets[1]
    again = L.ladder(exp, games=40, tables=8)
    assert again.head_to_head.equals(ld.head_to_head)                                           # reproducible
    assert again.ratings["strategy"].to_list() == ld.ratings["strategy"].to_list()
    assert np.allclose(again.ratings["theta"], ld.ratings["theta"], atol=1e-9)    # up to the fit's summation order


def test_ladder_is_kept_and_reported(tmp_path):
    path = _small(tmp_path)
    done = cli("ladder", path, "--games", "30", "--tables", "6", "--out", tmp_path / "r",
               "--report-dir", tmp_path / "rep", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Targets (reported, not asserted):" in done.stdout
    assert (tmp_path / "rep" / "small_ladder.pdf").is_file()
    assert {p.name for p in (tmp_path / "rep" / "small_ladder").glob("*.png")} == {
        "ladder.png", "ladder_ratings.png", "ladder_head_to_head.png"}
    kept = L.read(tmp_path / "r" / "small_ladder", "small_ladder")
    assert kept is not None and kept.ratings.height == 4 and kept.fair == pytest.approx(1 / 3)
    lines = R.ladder_lines(kept)
    assert any(line.startswith("ak_greedy+tuned") for line in lines)
    # the experiment's own report carries the ladder section (the hook in reports/report.py)
    assert cli("run", path, "--out", tmp_path / "r", "--quiet", cwd=tmp_path).returncode == 0
    done = cli("report", path, "--out", tmp_path / "r", "--report-dir", tmp_path / "full", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    pngs = {p.name for p in (tmp_path / "full" / "small_ladder").glob("*.png")}
    assert {"ladder.png", "ladder_ratings.png", "ladder_head_to_head.png", "summary.png"} <= pngs


def test_ladder_needs_distinct_entrants(tmp_path):
    text = experiment_template("bad", "animal_kingdoms", ["ak_greedy", "ak_spreader", "random"]).format(extra="")
    path = write_experiment(tmp_path, "", text=text + '\n[[entrants]]\nstrategy = "ak_greedy"\n' * 3)
    assert "two entrants have the same name" in one_line_error(L.ladder, load_experiment(path), 10)
    path = write_experiment(tmp_path, "", text=text)
    assert "expected two or more [[entrants]]" in one_line_error(L.ladder, load_experiment(path), 10)
