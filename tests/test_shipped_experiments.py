"""Every shipped experiment file (experiments/*.toml) loads, its strategies build for every
variant, and each Red Rising and Recall experiment plays a few games through the real runner with
rows that follow docs/results_schema.md."""
from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from sim.core import results as res
from sim.core.experiment import load_experiment
from sim.play import make_strategies, run_experiment
from tests.scaffold import shipped_games

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "experiments").glob("*.toml"))
RED_RISING = [f for f in FILES if load_experiment(f).game == "red_rising"]
RR_COMPONENTS = ["score_automa_base", "score_cards", "score_fleet", "score_hand_penalty", "score_helium",
                 "score_influence", "score_sovereign"]
RR_END_REASONS = {"two_thresholds", "all_thresholds", "stalemate", "round_limit"}
RR_SCRIPTED = {"rr_fleet_rush", "rr_helium_influence", "rr_end_bonus", "rr_balanced"}
RECALL = [f for f in FILES if load_experiment(f).game == "recall"]
RC_PLANS = {"rc_knowledge", "rc_artifacts", "rc_builder", "rc_keys"}
RC_QUESTIONS = {      # issue 12's questions: file -> what its variants vary (config key -> values)
    "recall_tribes_by_players": {"players": [2, 3, 4, 2, 3, 4],
                                 "tribe_draft": ["draft", "draft", "draft", "random", "random", "random"]},
    "recall_seats": {"tribe_draft": ["draft", "random", "draft", "random"],
                     "start_fields": ["by_seat", "by_seat", "random", "random"]},
    "recall_path_sides": {"path_sides": ["all_a", "random"]},
    "recall_goals": {"goal_stones": ["total", "one_colour"]},
    "recall_variants": {"tribe_draft": ["draft", "custom", "draft", "draft"], "known_old_tribes": [False, False, True, False],
                        "free_upgrade_choice": [False, False, False, True]},
    "recall_solo": {"players": [1, 1], "solo_goals": ["keep_two", "keep_three"]},
    "recall_data_sensitivity": {"tracks_file": ["", "data/recall/tracks_flat_knowledge.toml", "", ""],
                                "camps_file": ["", "", "data/recall/camps_rich.csv", ""],
                                "map_file": ["", "", "", "data/recall/map_short_river.toml"]},
}


def test_there_are_shipped_experiments():
    names = {f.stem for f in FILES}
    assert {"red_rising_houses", "red_rising_sovereign", "red_rising_sovereign_sweep", "red_rising_solo"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_loads_and_strategies_build(path):
    exp = load_experiment(path)
    assert exp.games >= 1 and exp.variants
    game = exp.game_module()
    for variant in exp.variants:
        strategies = make_strategies(exp, variant, game, exp.content(variant))
        # one per [[seats]] table; with several player counts a count of N plays the first N tables
        assert len(strategies) == len(exp.seats) or len(strategies) == exp.variants[variant].players < len(exp.seats)
        assert len(exp.config_hash(variant)) == 16


def test_red_rising_questions():
    sov = load_experiment(ROOT / "experiments/red_rising_sovereign.toml")
    assert {v: c.sovereign_points for v, c in sov.variants.items()} == {"sovereign10": 10, "sovereign15": 15}
    assert sov.games == 20000 and sov.variants["sovereign10"].players == 4
    assert {s.strategy for s in sov.seats} == RR_SCRIPTED
    # sovereign10 is the seed's rule: the same games as the default experiment
    houses = load_experiment(ROOT / "experiments/red_rising_houses.toml")
    assert sov.seed == houses.seed and sov.config_hash("sovereign10") == houses.config_hash("base")

    sweep = load_experiment(ROOT / "experiments/red_rising_sovereign_sweep.toml")
    assert sweep.sweep == {"sovereign_points": [0, 5, 10, 15, 20]} and sweep.games == 5000
    assert [c.sovereign_points for c in sweep.variants.values()] == [0, 5, 10, 15, 20]
    assert [s.strategy for s in sweep.seats] == [s.strategy for s in sov.seats]

    solo = load_experiment(ROOT / "experiments/red_rising_solo.toml")
    assert solo.sweep == {"automa_level": [1, 2, 3, 4, 5, 6]} and solo.games == 5000
    assert all(c.players == 1 for c in solo.variants.values()) and len(solo.seats) == 1
    assert [c.automa_level for c in solo.variants.values()] == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("path", RED_RISING, ids=lambda p: p.stem)
def test_red_rising_experiment_plays(path, tmp_path):
    exp = load_experiment(path)
    names = list(exp.variants)
    variants = sorted({names[0], names[-1]}, key=names.index)       # first and last (sweep ends)
    games = shipped_games(exp, 8)
    out = run_experiment(exp, tmp_path, games=games, chunk=games, variants=variants)
    df = res.scan(out).collect()
    seats = exp.game_module().seats(exp.variants[variants[0]])
    assert df.height == games * len(variants) * seats
    for col, dtype in res.SCHEMA.items():
        assert df.schema[col] == dtype, col
    assert set(RR_COMPONENTS) <= set(df.columns)
    assert all(df.schema[c] == pl.Int32 for c in df.columns if c.startswith("score_"))
    assert (df["score"] == df.select(pl.sum_horizontal(c for c in df.columns if c.startswith("score_"))).to_series()).all()
    assert set(df["variant"].unique()) == set(variants)
    assert set(df["experiment"].unique()) == {exp.name} and set(df["game_name"].unique()) == {"red_rising"}
    assert (df["seed"] == exp.seed).all() and sorted(df["game"].unique()) == list(range(games))
    assert (df["players"] == seats).all()
    per_game = df.group_by(["variant", "game"]).agg(pl.col("win_share").sum(), pl.len(), pl.col("rank").min())
    assert (per_game["win_share"].round(9) == 1).all() and (per_game["len"] == seats).all()
    assert (per_game["rank"] == 1).all()
    assert set(df["end_reason"].unique()) <= RR_END_REASONS
    players = df.filter(~pl.col("is_automa"))
    assert set(players["strategy"].unique()) == {s.strategy for s in exp.seats}
    automa = df.filter(pl.col("is_automa"))
    if exp.variants[variants[0]].players == 1:
        assert automa.height == games * len(variants) and set(automa["strategy"].unique()) == {"automa"}
    else:
        assert automa.height == 0


def test_recall_questions():
    """One file per question of issue 12, its variants as its header says, the plans in the seats,
    the same seed in every variant (paired comparisons)."""
    for name, keys in RC_QUESTIONS.items():
        path = ROOT / "experiments" / f"{name}.toml"
        exp = load_experiment(path)
        assert exp.game == "recall"
        for key, values in keys.items():
            got = [getattr(c, key) for c in exp.variants.values()]
            if key.endswith("_file"):                   # resolved against the experiment file's folder
                got = [g and str(Path(g).relative_to(path.parent)) for g in got]
            assert got == values, (name, key)
        assert {s.strategy for s in exp.seats} <= RC_PLANS, name
        assert "Question" in (ROOT / "experiments" / f"{name}.toml").read_text().splitlines()[0], name
    sens = load_experiment(ROOT / "experiments/recall_data_sensitivity.toml")
    assert len({sens.config_hash(v) for v in sens.variants}) == 4       # each perturbed file changes the content
    assert len({load_experiment(ROOT / "experiments" / f"{n}.toml").seed for n in RC_QUESTIONS}) == len(RC_QUESTIONS)


@pytest.mark.parametrize("path", RECALL, ids=lambda p: p.stem)
def test_recall_experiment_plays(path, tmp_path):
    """Two games of the first and the last variant of every Recall file, through the runner: the
    schema, score = its components, one win per game (solo: 0 or 1), the activation columns."""
    exp = load_experiment(path)
    names = list(exp.variants)
    variants = sorted({names[0], names[-1]}, key=names.index)
    out = run_experiment(exp, tmp_path, games=2, chunk=2, variants=variants)
    df = res.scan(out).collect()            # the variants' columns differ by player count (rc_tribe_<k>)
    for col, dtype in res.SCHEMA.items():
        assert df.schema[col] == dtype, col
    assert (df["score"] == df.select(pl.sum_horizontal(c for c in df.columns if c.startswith("score_"))).to_series()).all()
    assert set(df["variant"].unique()) == set(variants) and sorted(df["game"].unique()) == [0, 1]
    per_game = df.group_by(["variant", "game"]).agg(pl.col("win_share").sum(), pl.col("players").first())
    assert ((per_game["win_share"].round(9) == 1) | (per_game["players"] == 1)).all()
    assert {"rc_uses_tribe", "rc_uses_item", "rc_uses_gained", "rc_rings", "rc_abilities"} <= set(df.columns)
    assert (df["rc_uses_tribe"] >= 0).all() and df["rc_abilities"].str.contains(";").all()
