"""The shipped Animal Kingdoms experiments load, run a few games through the real runner, and
their results follow docs/results_schema.md; a game replays alone with a readable log."""
from __future__ import annotations

import pytest

from sim.core.experiment import load_experiment
from tests.scaffold import ROOT, cli, run_shipped

FILES = sorted((ROOT / "experiments").glob("animal_kingdoms_*.toml"))
COMPONENTS = ["score_first", "score_modifiers", "score_rally", "score_retreat", "score_second", "score_start",
              "score_third"]


def test_the_questions_are_covered():
    names = {f.stem for f in FILES}
    assert {f"animal_kingdoms_seats_{n}p" for n in (2, 3, 4, 5)} <= names       # seat advantage by player count
    assert {"animal_kingdoms_strategies", "animal_kingdoms_peace", "animal_kingdoms_retreat_tile"} <= names
    solo = [load_experiment(f) for f in FILES if f.stem.startswith("animal_kingdoms_solo_")]
    assert {s.seats[0].strategy for s in solo} == {"ak_greedy", "ak_capital_hunter", "ak_spreader", "ak_early_retreat"}
    assert all(list(s.variants) == [f"robot_level={lv}" for lv in ("easy", "medium", "normal", "hard", "extra_hard")]
               for s in solo)
    assert list(load_experiment(ROOT / "experiments/animal_kingdoms_peace.toml").variants) == ["battles", "peace"]
    assert "first_retreat_shift" in load_experiment(ROOT / "experiments/animal_kingdoms_retreat_tile.toml").sweep


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_experiment_runs(path, tmp_path):
    df = run_shipped(path, tmp_path, COMPONENTS)
    assert set(COMPONENTS) <= set(df.columns)
    assert set(df["end_reason"].unique()) <= {"three_ages", "turn_cap"}


def test_paired_variants_share_the_deal():
    """The peace and battle variants of a seed start from the same deal (common random numbers)."""
    exp = load_experiment(ROOT / "experiments/animal_kingdoms_peace.toml")
    game = exp.game_module()
    import numpy as np
    a = game.init(exp.variants["battles"], exp.content("battles"), np.arange(5), exp.seed)
    b = game.init(exp.variants["peace"], exp.content("peace"), np.arange(5), exp.seed)
    assert (a.hand == b.hand).all() and (a.decree == b.decree).all() and (a.fp == b.fp).all()


def test_replay_prints_every_decision(tmp_path):
    exp = ROOT / "experiments/animal_kingdoms_solo_greedy.toml"
    done = cli("replay", exp, "--game", "2")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Age I, turn 1: seat 0" in out and "robot plays" in out and "Age II begins" in out
    assert "game over" in out and "end reason: three_ages" in out
