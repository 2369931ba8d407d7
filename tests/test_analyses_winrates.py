"""Win rates, the clustered equal-rates test, seat advantage, Balance, shared wins, games needed."""
import numpy as np
import polars as pl
import pytest
import statsmodels.api as sm
from scipy import stats
from statsmodels.stats.proportion import proportion_confint, proportions_ztest

from analyses import balance, winrates
from analyses.synthetic import Variant, games_table


def test_win_rates_equal_hand_values_and_references():
    df = games_table(Variant(factions={"a": 1.5, "b": 1.0, "c": 1.0}, shared_win_rate=0.1), 1500)
    t = winrates.win_rates(df.lazy(), "faction")
    for row in t.iter_rows(named=True):
        part = df.filter(pl.col("faction") == row["faction"])
        wins, n = part["win_share"].sum(), part.height
        assert row["rows"] == n and row["wins"] == pytest.approx(wins)
        assert (row["lo"], row["hi"]) == pytest.approx(proportion_confint(wins, n, method="wilson"), abs=1e-12)
        assert row["fair"] == pytest.approx(1 / 3)
        # the score test of win rate = fair share (one player count): statsmodels' z-test with null variance
        z, p = proportions_ztest(wins, n, value=1 / 3, prop_var=1 / 3)
        assert row["z"] == pytest.approx(z) and row["p"] == pytest.approx(p)
    assert t["win_rate"].to_list()[0] > 0.4              # "a" is the strong one


def test_win_rates_by_pair_of_columns_and_mixed_player_counts():
    df = games_table(Variant(factions={f: 1.0 for f in "abcd"}, players=(2, 3)), 1200)
    t = winrates.win_rates(df.lazy(), ["faction", "seat"])
    assert t.height == 4 * 3
    expect = df.group_by(["faction", "seat"]).agg((1 / pl.col("players")).mean().alias("f"))
    merged = t.join(expect, on=["faction", "seat"])
    assert np.allclose(merged["fair"], merged["f"])


def _cluster_wald_reference(df, col):
    levels = sorted(df[col].unique().to_list())
    f = df[col].to_numpy()
    X = np.stack([(f == lv).astype(float) for lv in levels], 1)
    y = df["win_share"].to_numpy() - 1 / df["players"].to_numpy()
    res = sm.OLS(y, X).fit(cov_type="cluster", cov_kwds={"groups": df["game"].to_numpy(), "use_correction": False})
    k = len(levels)
    R = np.hstack([np.eye(k - 1), -np.ones((k - 1, 1))])
    w = res.wald_test(R, use_f=False, scalar=True)
    return float(w.statistic), float(w.pvalue)


def test_equal_rates_test_equals_statsmodels_cluster_robust_wald():
    df = games_table(Variant(factions={"r": 1.2, "b": 1.0, "g": 1.0, "y": 1.0}, players=(2, 3),
                             shared_win_rate=0.05), 3000)
    t = winrates.equal_rates_test(df.lazy(), "faction")
    stat, p = _cluster_wald_reference(df, "faction")
    assert t["statistic"] == pytest.approx(stat, rel=1e-9) and t["p"] == pytest.approx(p, rel=1e-6)
    assert t["df"] == 3


def test_equal_rates_test_two_player_case_is_the_binomial_wald_test():
    df = games_table(Variant(factions={"a": 1.1, "b": 1.0}, players=(2,)), 2000)
    t = winrates.equal_rates_test(df.lazy(), "faction")
    a = df.filter(pl.col("faction") == "a")
    p_hat, n = a["win_share"].mean(), a.height
    z2 = (p_hat - 0.5) ** 2 / (p_hat * (1 - p_hat) / n)          # hand value: Wald z^2 of a binomial
    assert t["df"] == 1 and t["statistic"] == pytest.approx(z2, rel=1e-9)
    # the naive groups x {win, loss} chi-square would be twice as large: that is why we cluster
    naive = stats.chi2_contingency(np.array([[a["win_share"].sum(), n - a["win_share"].sum()],
                                             [n - a["win_share"].sum(), a["win_share"].sum()]]), correction=False)[0]
    assert naive == pytest.approx(2 * ((p_hat - 0.5) ** 2 / 0.25 * n), rel=1e-9)


def test_equal_rates_test_false_positive_rate_is_nominal():
    """All factions equal, 4 of them in 3-player games, some shared wins: reject at about 5%."""
    reps, rejections = 200, 0
    for rep in range(reps):
        df = games_table(Variant(factions={f: 1.0 for f in "abcd"}, shared_win_rate=0.05), 400, seed=1000 + rep)
        rejections += winrates.equal_rates_test(df.lazy(), "faction")["p"] < 0.05
    rate, se = rejections / reps, np.sqrt(0.05 * 0.95 / reps)
    assert abs(rate - 0.05) < 3 * se + 0.01, rate


def test_shared_wins_counts_games_with_a_shared_first_place():
    df = games_table(Variant(shared_win_rate=0.2), 2000)
    s = winrates.shared_wins(df.lazy())
    hand = df.group_by("game").agg((pl.col("rank") == 1).sum().alias("k")).filter(pl.col("k") > 1).height
    assert s["games"] == 2000 and s["shared"] == hand
    assert (s["lo"], s["hi"]) == pytest.approx(proportion_confint(hand, 2000, method="wilson"))


def test_seat_advantage_and_ludii_balance():
    df = games_table(Variant(seat_weights=(1.5, 1.0, 1.0)), 3000)
    seats = winrates.seat_advantage(df.lazy())
    first = seats.filter(pl.col("seat") == 0).row(0, named=True)
    assert first["excess"] > 0.05 and first["significant"]
    assert first["adv_lo"] == pytest.approx(first["lo"] - 1 / 3)


def test_ludii_balance_uses_rank_utilities_over_seats_with_a_bootstrap_interval():
    """Ludii's Balance (metrics/single/outcome/Balance.java): per seat the mean of (utility+1)/2,
    utility from the rank (ties share their mean rank); 1 - the largest difference of two seats."""
    hand = pl.DataFrame({"variant": ["v"] * 6, "game": [0, 0, 0, 1, 1, 1], "seat": [0, 1, 2] * 2,
                         "players": [3] * 6, "rank": [1, 2, 3, 2, 1, 2]})
    # game 0: utilities 1, 0.5, 0; game 1: seat 1 wins (1), seats 0 and 2 tie for rank 2 (mean 2.5): 0.25
    bal = winrates.ludii_balance(hand.lazy()).row(0, named=True)
    means = [(1 + 0.25) / 2, (0.5 + 1) / 2, (0 + 0.25) / 2]
    assert bal["balance"] == pytest.approx(1 - (max(means) - min(means)))
    fair = winrates.ludii_balance(games_table(Variant(), 3000).lazy()).row(0, named=True)
    strong = winrates.ludii_balance(games_table(Variant(seat_weights=(1.5, 1.0, 1.0)), 3000).lazy()).row(0, named=True)
    assert fair["lo"] <= fair["balance"] <= fair["hi"] and fair["lo"] < fair["fair_floor"] < 1
    assert strong["hi"] < fair["lo"]                                    # a start-player edge lowers Balance
    assert abs(fair["fair_floor"] - fair["balance"]) < 0.03


def test_balance_summary_spread_and_win_rate_per_seat_vs_wins_the_game():
    df = games_table(Variant(factions={"strong": 1.4, "b": 1.0, "c": 1.0, "d": 1.0}), 6000)
    s = balance.balance_summary(df.lazy())
    assert s.by == "faction"
    assert s.spread == pytest.approx(s.rates["excess"].max() - s.rates["excess"].min())
    assert s.gap_balance == pytest.approx(1 - s.spread)
    two = games_table(Variant(strategies=("x", "x", "y")), 900)          # x fills two of three seats
    t = winrates.win_rates(two.lazy(), "strategy").filter(pl.col("strategy") == "x").row(0, named=True)
    x = two.filter(pl.col("strategy") == "x")
    assert t["win_rate"] == pytest.approx(x["win_share"].mean())                          # per seat
    assert t["game_rate"] == pytest.approx(x.group_by("game").agg(pl.col("win_share").sum())["win_share"].mean())
    assert t["games"] == 900 and t["rows"] == 1800


def test_default_group_prefers_faction_then_strategy_then_seat():
    df = games_table(Variant(), 50)
    assert balance.default_group(df.lazy()) == "faction"
    none = df.with_columns(faction=pl.lit("none"))
    assert balance.default_group(none.lazy()) == "seat"
    strat = none.with_columns(strategy=pl.when(pl.col("seat") == 0).then(pl.lit("x")).otherwise(pl.lit("y")))
    assert balance.default_group(strat.lazy()) == "strategy"


def test_equal_rates_test_holds_its_level_in_small_runs(monkeypatch):
    """Six equal factions, 2-4 players, 60 games: the permutation test rejects at about 5%
    (300 runs); the clustered Wald test, used from PERMUTATION_GAMES games up, is liberal here."""
    runs, n = 300, 60
    df = games_table(Variant(factions={f"f{i}": 1.0 for i in range(6)}, players=(2, 3, 4)), runs * n, seed=11)
    parts = [p for _, p in sorted(df.with_columns(run=pl.col("game") // n).group_by("run"), key=lambda t: t[0])]
    tests = [winrates.equal_rates_test(p.lazy(), "faction") for p in parts]
    assert all(t["method"].startswith("permutation") for t in tests)
    rate = np.mean([t["p"] < 0.05 for t in tests])
    assert rate <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / runs), rate
    monkeypatch.setattr(winrates, "PERMUTATION_GAMES", 0)
    wald = np.mean([winrates.equal_rates_test(p.lazy(), "faction")["p"] < 0.05 for p in parts])
    assert wald > rate + 0.03, (wald, rate)


def test_permutation_p_matches_a_direct_enumeration():
    """Two 2-player games with hand values: all 4 relabellings enumerated by hand."""
    rows = pl.DataFrame({"variant": ["v"] * 4, "game": [0, 0, 1, 1], "_gid": [0, 1, 0, 1],
                         "_x": [0.5, -0.5, 0.5, -0.5]})
    # T = S_0^2/2 + S_1^2/2; observed S = (1, -1): T = 1; swaps in one game give 0, both swapped 1:
    # P(T* >= 1) = 1/2 under the shuffle, so p ~ (1 + B/2) / (1 + B)
    p = winrates._permutation_p(rows, 2)
    assert p == pytest.approx(0.5, abs=0.05)
