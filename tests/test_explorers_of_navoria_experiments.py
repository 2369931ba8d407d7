"""The shipped Explorers of Navoria experiments cover the issue's balance questions, load, run a
few games through the real runner, and their results follow docs/results_schema.md."""
from __future__ import annotations

import numpy as np
import pytest

from sim.core.experiment import load_experiment
from tests.scaffold import ROOT, run_shipped

FILES = sorted((ROOT / "experiments").glob("explorers_of_navoria_*.toml"))
COMPONENTS = ["score_adventurer_income", "score_cards", "score_city", "score_exploration", "score_favour",
              "score_orders", "score_soldiers", "score_trader_income", "score_treasure"]
PLANS = {"en_traders", "en_builders", "en_adventurers", "en_artisans", "en_balanced"}


def test_the_questions_are_covered_EN_S1_EN_V1():
    """Seat advantage by player count (one plan everywhere), win rate by plan, favour tiles, and the
    2-player blank tile against the standard game on the same seeds."""
    for n in (2, 3, 4):
        exp = load_experiment(ROOT / f"experiments/explorers_of_navoria_seats_{n}p.toml")
        assert exp.variants["base"].players == n and len(exp.seats) == n and exp.games >= 20000
        assert len({s.strategy for s in exp.seats}) == 1
    plans = load_experiment(ROOT / "experiments/explorers_of_navoria_strategies.toml")
    assert len({s.strategy for s in plans.seats}) == 4 and {s.strategy for s in plans.seats} <= PLANS
    tiles = load_experiment(ROOT / "experiments/explorers_of_navoria_favour_tiles.toml")
    assert tiles.game_module().report_features and tiles.games >= 20000
    blank = load_experiment(ROOT / "experiments/explorers_of_navoria_blank_tile.toml")
    assert {v: c.blank_tile_variant for v, c in blank.variants.items()} == {"standard": False, "blank_tile": True}
    assert all(c.players == 2 for c in blank.variants.values())


def test_blank_tile_variant_shares_the_deal_EN_V1_EN_V2():
    """Same seed: both variants deal the same piles and tiles but one tile, replaced by the blank one."""
    exp = load_experiment(ROOT / "experiments/explorers_of_navoria_blank_tile.toml")
    game = exp.game_module()
    a = game.init(exp.variants["standard"], exp.content("standard"), np.arange(50), exp.seed)
    b = game.init(exp.variants["blank_tile"], exp.content("blank_tile"), np.arange(50), exp.seed)
    assert (a.piles == b.piles).all() and (a.offer == b.offer).all()
    assert ((a.ftile != b.ftile).sum(axis=1) == 1).all()


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_experiment_runs(path, tmp_path):
    df = run_shipped(path, tmp_path, COMPONENTS)
    assert set(df["end_reason"].unique()) == {"three_rounds"}
