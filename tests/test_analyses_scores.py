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


def _with_game_luck(df, seed):
    """Add a per-game shift to every seat's score (long games: everyone scores more)."""
    rng = np.random.default_rng(seed)
    games = df["game"].max() + 1
    shift = np.round(rng.normal(0, 10, games)).astype(np.int64)[df["game"].to_numpy()]
    return df.with_columns(score=(pl.col("score") + pl.Series(shift)).cast(pl.Int32))


def test_clustered_mean_equals_statsmodels_cluster_robust():
    import statsmodels.api as sm
    df = _with_game_luck(games_table(Variant(strategies=("x", "x", "y")), 600), 1)
    t = scores.clustered_mean(df.lazy(), "strategy")
    for row in t.iter_rows(named=True):
        part = df.filter(pl.col("strategy") == row["strategy"])
        y = part["score"].to_numpy().astype(float)
        res = sm.OLS(y, np.ones((len(y), 1))).fit(cov_type="cluster", cov_kwds={
            "groups": part["game"].to_numpy(), "use_correction": False})
        G = part["game"].n_unique()
        assert row["mean"] == pytest.approx(y.mean())
        assert row["var"] == pytest.approx(res.cov_params()[0, 0] * G / (G - 1), rel=1e-9)
        assert row["games"] == G


def test_score_tests_of_a_group_in_several_seats_hold_their_level():
    """Issue 8: 'x' fills two seats per game and scores share the game's luck. 400 A/A runs:
    B - A over clustered variances rejects at about 5%; treating rows as independent does not."""
    runs, n = 400, 200
    v = Variant(strategies=("x", "x", "y"))
    out = []
    for seed in (5, 6):
        df = _with_game_luck(games_table(v, runs * n, seed=seed), seed).with_columns(run=pl.col("game") // n)
        cm = scores.clustered_mean(df.lazy(), ["run", "strategy"]).filter(pl.col("strategy") == "x").sort("run")
        naive = (df.filter(pl.col("strategy") == "x").group_by("run")
                 .agg(v=pl.col("score").cast(pl.Float64).var() / pl.len()).sort("run"))
        out.append((cm["mean"].to_numpy(), cm["var"].to_numpy(), naive["v"].to_numpy()))
    (ma, va, na), (mb, vb, nb) = out
    clustered = np.mean(np.abs(mb - ma) / np.sqrt(va + vb) > 1.96)
    naive = np.mean(np.abs(mb - ma) / np.sqrt(na + nb) > 1.96)
    tol = 2.5 * np.sqrt(0.05 * 0.95 / runs)
    assert abs(clustered - 0.05) < tol, clustered
    assert naive > 0.05 + tol, naive
