"""Score summaries, margin of victory, game length and end reasons against hand computations."""
import numpy as np
import polars as pl
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from analyses import scores
from analyses.synthetic import Variant, games_table


def _rows(games):
    """A tiny hand-made results table: games = [[(score, rank), ...], ...] seat by seat."""
    out = []
    for g, seats in enumerate(games):
        k = sum(1 for _, r in seats if r == 1)
        for s, (score, rank) in enumerate(seats):
            out.append({"variant": "base", "game": g, "seat": s, "players": len(seats), "faction": f"f{s}",
                        "score": score, "rank": rank, "win_share": 1 / k if rank == 1 else 0.0,
                        "turns": 10 + g, "rounds": 3 + g % 2, "end_reason": "x" if g % 3 else "y",
                        "score_a": score // 2, "score_b": score - score // 2})
    return pl.DataFrame(out)


def test_margin_of_victory_hand_values():
    df = _rows([[(50, 1), (40, 2), (45, 2)],      # margin 5 (best non-winner 45)
                [(30, 1), (30, 1), (10, 3)],      # shared: 0
                [(20, 3), (70, 1), (69, 2)]])     # 1
    m = scores.margin_of_victory(df.lazy()).row(0, named=True)
    assert m["n"] == 3 and m["mean"] == pytest.approx(2.0) and m["max"] == 5 and m["min"] == 0
    by = scores.margin_of_victory(df.lazy(), "faction")
    assert dict(zip(by["faction"], by["mean"])) == {"f0": pytest.approx(2.5), "f1": pytest.approx(1.0)}


def test_score_summary_equals_numpy_and_t_interval():
    df = games_table(Variant(), 800)
    t = scores.score_summary(df.lazy(), "faction", ["score_cards", "score_fleet", "score_bonus"])
    for row in t.iter_rows(named=True):
        x = df.filter(pl.col("faction") == row["faction"])["score"].to_numpy().astype(float)
        assert row["mean"] == pytest.approx(x.mean()) and row["sd"] == pytest.approx(x.std(ddof=1))
        assert row["q50"] == pytest.approx(np.quantile(x, 0.5))
        assert row["q05"] == pytest.approx(np.quantile(x, 0.05))
        lo, hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
        assert (row["lo"], row["hi"]) == pytest.approx((lo, hi))
        comps = df.filter(pl.col("faction") == row["faction"])
        assert row["score_cards"] + row["score_fleet"] + row["score_bonus"] == pytest.approx(row["mean"])
        assert row["score_fleet"] == pytest.approx(comps["score_fleet"].mean())


def test_game_length_and_counts_use_one_row_per_game():
    df = _rows([[(1, 1), (0, 2)]] * 4)
    gl = scores.game_length(df.lazy())
    turns = gl.filter(pl.col("measure") == "turns").row(0, named=True)
    assert turns["n"] == 4 and turns["mean"] == pytest.approx(np.mean([10, 11, 12, 13]))
    counts = scores.length_counts(df.lazy(), "rounds")
    assert dict(zip(counts["rounds"], counts["games"])) == {3: 2, 4: 2}


def test_end_reasons_shares_and_wilson():
    df = _rows([[(1, 1), (0, 2)]] * 9)
    e = scores.end_reasons(df.lazy())
    y = e.filter(pl.col("end_reason") == "y").row(0, named=True)
    assert y["games"] == 3 and y["share"] == pytest.approx(1 / 3)
    assert (y["lo"], y["hi"]) == pytest.approx(proportion_confint(3, 9, method="wilson"))


def test_score_counts_and_component_means():
    df = _rows([[(5, 1), (3, 2)], [(5, 2), (6, 1)]])
    c = scores.score_counts(df.lazy())
    assert dict(zip(c["score"], c["rows"])) == {3: 1, 5: 2, 6: 1}
    m = scores.component_means(df.lazy(), ["score_a", "score_b"], "faction")
    assert m.filter(pl.col("faction") == "f0")["score_a"][0] == pytest.approx(2.0)
