"""Variant comparison: references, Holm statement, false-positive rate and power by simulation."""
import re

import numpy as np
import polars as pl
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import confint_proportions_2indep, proportions_ztest

from analyses import winrates
from analyses.compare import Side, compare, format_comparison
from analyses.intervals import newcombe_paired
from analyses.synthetic import MemoryResults, Variant, games_table, with_effect
from sim.core.errors import InputError

THREE = {"red": 1.0, "blue": 1.0, "green": 1.0}


def _pair(va, vb, games, seed=1, seed_b=None):
    r = MemoryResults({"a": games_table(va, games, seed=seed, variant="a"),
                       "b": games_table(vb, games, seed=seed if seed_b is None else seed_b, variant="b")})
    return Side(r, "a"), Side(r, "b")


def test_paired_wins_and_scores_equal_statsmodels_and_scipy():
    a, b = _pair(Variant(factions=THREE, reshuffle=0.5), with_effect(Variant(factions=THREE, reshuffle=0.5,
                                                                               noise_key=1), "red", 1.3), 800)
    c = compare(a, b, "faction", score_test="t")
    assert c.paired
    da, db = a.lf.collect(), b.lf.collect()
    for row in c.wins.iter_rows(named=True):
        wa = da.filter(pl.col("faction") == row["faction"]).sort("game")["win_share"].to_numpy()
        wb = db.filter(pl.col("faction") == row["faction"]).sort("game")["win_share"].to_numpy()
        both, only_a = np.sum((wa == 1) & (wb == 1)), np.sum((wa == 1) & (wb == 0))
        only_b, neither = np.sum((wa == 0) & (wb == 1)), np.sum((wa == 0) & (wb == 0))
        ref = mcnemar(np.array([[both, only_a], [only_b, neither]]), exact=True)
        assert row["p"] == pytest.approx(ref.pvalue, rel=1e-9)
        lo, hi = newcombe_paired(both, only_b, only_a, neither)
        assert (row["lo"], row["hi"]) == pytest.approx((lo, hi))
        assert row["diff"] == pytest.approx(wb.mean() - wa.mean())
    for row in c.scores.iter_rows(named=True):
        sa = da.filter(pl.col("faction") == row["faction"]).sort("game")["score"].to_numpy().astype(float)
        sb = db.filter(pl.col("faction") == row["faction"]).sort("game")["score"].to_numpy().astype(float)
        ref = stats.ttest_rel(sb, sa)
        assert row["p"] == pytest.approx(ref.pvalue, rel=1e-8)
        ci = ref.confidence_interval(0.95)
        assert (row["lo"], row["hi"]) == pytest.approx((ci.low, ci.high), rel=1e-8)
        assert row["effect"] == pytest.approx((sb - sa).mean() / (sb - sa).std(ddof=1))
    w = compare(a, b, "faction", score_test="wilcoxon")
    for row in w.scores.iter_rows(named=True):
        sa = da.filter(pl.col("faction") == row["faction"]).sort("game")["score"].to_numpy().astype(float)
        sb = db.filter(pl.col("faction") == row["faction"]).sort("game")["score"].to_numpy().astype(float)
        assert row["p"] == pytest.approx(stats.wilcoxon(sb - sa, zero_method="wilcox").pvalue, rel=1e-8)


def test_paired_shared_wins_use_paired_t_on_the_share_difference():
    a, b = _pair(Variant(factions=THREE, reshuffle=0.5, shared_win_rate=0.1),
                 Variant(factions=THREE, reshuffle=0.5, shared_win_rate=0.1, noise_key=1), 600)
    c = compare(a, b, "faction")
    da, db = a.lf.collect(), b.lf.collect()
    for row in c.wins.iter_rows(named=True):
        wa = da.filter(pl.col("faction") == row["faction"]).sort("game")["win_share"].to_numpy()
        wb = db.filter(pl.col("faction") == row["faction"]).sort("game")["win_share"].to_numpy()
        assert row["test"].startswith("paired t")
        assert row["p"] == pytest.approx(stats.ttest_rel(wb, wa).pvalue, rel=1e-8)


def test_unpaired_equals_statsmodels_and_scipy():
    a, b = _pair(Variant(factions=THREE), with_effect(Variant(factions=THREE), "red", 1.2), 900, seed=1, seed_b=2)
    c = compare(a, b, "faction")
    assert not c.paired and "different seeds" in c.pairing
    da, db = a.lf.collect(), b.lf.collect()
    for row in c.wins.iter_rows(named=True):
        xa = da.filter(pl.col("faction") == row["faction"])["win_share"]
        xb = db.filter(pl.col("faction") == row["faction"])["win_share"]
        z, p = proportions_ztest([xb.sum(), xa.sum()], [len(xb), len(xa)])
        assert row["p"] == pytest.approx(p, rel=1e-9)
        ci = confint_proportions_2indep(xb.sum(), len(xb), xa.sum(), len(xa), method="newcomb")
        assert (row["lo"], row["hi"]) == pytest.approx(ci)
    for row in c.scores.iter_rows(named=True):
        sa = da.filter(pl.col("faction") == row["faction"])["score"].to_numpy().astype(float)
        sb = db.filter(pl.col("faction") == row["faction"])["score"].to_numpy().astype(float)
        ref = stats.ttest_ind(sb, sa, equal_var=False)
        ci = ref.confidence_interval(0.95)
        assert row["p"] == pytest.approx(ref.pvalue, rel=1e-8)
        assert (row["lo"], row["hi"]) == pytest.approx((ci.low, ci.high), rel=1e-8)
    m = compare(a, b, "faction", score_test="wilcoxon")
    row = m.scores.row(0, named=True)
    sa = da.filter(pl.col("faction") == row["faction"])["score"].to_numpy()
    sb = db.filter(pl.col("faction") == row["faction"])["score"].to_numpy()
    assert row["p"] == pytest.approx(stats.mannwhitneyu(sb, sa).pvalue)


def test_output_states_pairing_methods_and_holm():
    a, b = _pair(Variant(factions=THREE, reshuffle=0.3), Variant(factions=THREE, reshuffle=0.3, noise_key=1), 300)
    text = format_comparison(compare(a, b, "faction"))
    assert "paired: same seed 1" in text
    assert "the 3 faction values compared are one family: simultaneous 95% intervals" in text
    assert "score: Holm correction across the 3 values (its own table, outside the family)" in text
    assert "McNemar" in text and "B - A" in text
    u = format_comparison(compare(a, b, "faction", paired=False))
    assert "unpaired" in u and "two-proportion z" in u


def test_incomparable_sides_raise_input_error():
    a, b = _pair(Variant(factions=THREE, players=(3,)), Variant(factions={**THREE, "x": 1.0}, players=(2,)), 50)
    with pytest.raises(InputError, match="different player counts"):
        compare(a, b, "faction")
    a = Side(MemoryResults({"a": games_table(Variant(factions=THREE), 50, variant="a")}), "a")
    b = Side(MemoryResults({"b": games_table(Variant(factions=THREE, game_name="other"), 50, variant="b")}), "b")
    with pytest.raises(InputError, match="different games"):
        compare(a, b, "faction")
    a, b = _pair(Variant(factions=THREE), Variant(factions=THREE), 50, seed=1, seed_b=2)
    with pytest.raises(InputError, match="cannot pair"):
        compare(a, b, "faction", paired=True)


# ---- Monte Carlo: error rates -------------------------------------------------------------------

def _mcnemar_rejection_probability(n, b, c, alpha=0.05):
    """Exact probability that McNemar's exact test rejects, for per-game discordance rates b and c."""
    total = 0.0
    for d in range(1, n + 1):
        pd = stats.binom.pmf(d, n, b + c)
        if pd < 1e-14:
            continue
        k = np.arange(d + 1)
        pvals = np.minimum(1, 2 * stats.binom.cdf(np.minimum(k, d - k), d, 0.5))
        total += pd * stats.binom.pmf(k, d, c / (b + c))[pvals < alpha].sum()
    return total


def test_paired_false_positive_rate_is_at_the_nominal_level():
    reps, n, r = 500, 600, 0.5
    win_rej = score_rej = fwer = 0
    for rep in range(reps):
        a, b = _pair(Variant(factions=THREE, reshuffle=r), Variant(factions=THREE, reshuffle=r, noise_key=1), n,
                     seed=10_000 + rep)
        c = compare(a, b, "faction", min_edge=0.0)
        win_rej += int((c.wins["p"] < 0.05).sum())
        score_rej += int((c.scores["p"] < 0.05).sum())
        fwer += bool(c.wins["significant"].any())
    tests = 3 * reps
    # exact size of McNemar's exact test here: discordant rates b = c = r * 1/3 * 2/3
    size = _mcnemar_rejection_probability(n, r * 2 / 9, r * 2 / 9)
    se = np.sqrt(size * (1 - size) / tests)
    assert size <= 0.05
    assert abs(win_rej / tests - size) < 3.5 * se, (win_rej / tests, size)
    se_t = np.sqrt(0.05 * 0.95 / tests)
    assert abs(score_rej / tests - 0.05) < 3.5 * se_t + 0.005, score_rej / tests
    # with δ = 0 "changed" is plain significance; the simultaneous intervals keep the family-wise rate
    assert fwer / reps < 0.05 + 3 * np.sqrt(0.05 * 0.95 / reps)


def test_unpaired_false_positive_rate_is_at_the_nominal_level():
    reps, n = 400, 500
    rej = 0
    for rep in range(reps):
        a, b = _pair(Variant(factions=THREE), Variant(factions=THREE), n, seed=20_000 + rep, seed_b=30_000 + rep)
        rej += int((compare(a, b, "faction").wins["p"] < 0.05).sum())
    rate, se = rej / (3 * reps), np.sqrt(0.05 * 0.95 / (3 * reps))
    assert abs(rate - 0.05) < 3.5 * se + 0.005, rate


def test_injected_effect_is_detected_with_the_expected_power():
    """Red 1.25x as strong in B (win rate 1/3 -> 0.385): McNemar's power computed exactly."""
    reps, n, r, w = 400, 600, 0.5, 1.25
    p_b = w / (w + 2)
    hits = 0
    diffs = []
    for rep in range(reps):
        base = Variant(factions=THREE, reshuffle=r)
        a, b = _pair(base, with_effect(Variant(factions=THREE, reshuffle=r, noise_key=1), "red", w), n,
                     seed=40_000 + rep)
        row = compare(a, b, "faction").wins.filter(pl.col("faction") == "red").row(0, named=True)
        hits += row["p"] < 0.05
        diffs.append(row["diff"])
    # discordance: common-noise games only move red up; re-drawn games are independent
    only_a = r * (1 / 3) * (1 - p_b)
    only_b = (1 - r) * (p_b - 1 / 3) + r * (2 / 3) * p_b
    power = _mcnemar_rejection_probability(n, only_a, only_b)
    se = np.sqrt(power * (1 - power) / reps)
    assert 0.4 < power < 0.9
    assert abs(hits / reps - power) < 3.5 * se, (hits / reps, power)
    assert np.mean(diffs) == pytest.approx(p_b - 1 / 3, abs=4 * np.std(diffs) / np.sqrt(reps))


def test_per_game_measures_after_tie_breaks():
    """Per game, after tie-breaks (rank): spread = best - worst; margin = winner's score - best
    non-winner's (0 when shared); shared_win only when rank 1 is shared, not when the top scores
    tie and a tie-break decides (game 2); the same definition as the report's margin."""
    from analyses import scores
    from analyses.compare import _per_game
    rows = pl.DataFrame({"variant": ["a"] * 9, "game": [0, 0, 0, 1, 1, 1, 2, 2, 2], "seat": [0, 1, 2] * 3,
                         "players": [3] * 9, "score": [10, 7, 7, 9, 9, 1, 8, 8, 2], "rank": [1, 2, 2, 1, 1, 3, 2, 1, 3],
                         "turns": [30] * 3 + [32] * 6, "rounds": [3] * 9})
    out = _per_game(rows.lazy()).collect().sort("game")
    assert out["score_spread"].to_list() == [3.0, 8.0, 6.0]
    assert out["margin"].to_list() == [3.0, 0.0, 0.0]
    assert out["shared_win"].to_list() == [0.0, 1.0, 0.0]
    assert out["tie_broken"].to_list() == [0.0, 0.0, 1.0]
    assert out["mean_score"].to_list() == [8.0, 19 / 3, 6.0]
    assert out["turns"].to_list() == [30.0, 32.0, 32.0]
    assert scores.margin_of_victory(rows.lazy())["mean"][0] == pytest.approx(1.0)
    assert winrates.shared_wins(rows.with_columns(win_share=pl.Series([1., 0, 0, .5, .5, 0, 0, 1, 0])).lazy())[
        "shared"] == 1


def test_group_in_several_seats_compares_the_per_seat_rate_as_the_report_does():
    """'greedy' fills 2 of 3 seats: the win rate compared is per seat (as in the report), the
    share of games it wins is a separate column, and the paired test is scipy's paired t on the
    per-game win shares (2 seats every game, so the ratio test reduces to it)."""
    v = Variant(factions=THREE, strategies=("greedy", "greedy", "random"), strategy_weights={"greedy": 1.2},
                reshuffle=0.5)
    a, b = _pair(v, Variant(**{**v.__dict__, "noise_key": 1}), 700)
    c = compare(a, b, "strategy")
    da, db = a.lf.collect(), b.lf.collect()
    report = winrates.win_rates(a.lf, "strategy")
    row = c.wins.filter(pl.col("strategy") == "greedy").row(0, named=True)
    assert row["rate_a"] == pytest.approx(report.filter(pl.col("strategy") == "greedy")["win_rate"][0])
    ga = da.filter(pl.col("strategy") == "greedy").group_by("game").agg(pl.col("win_share").sum()).sort("game")
    gb = db.filter(pl.col("strategy") == "greedy").group_by("game").agg(pl.col("win_share").sum()).sort("game")
    assert row["game_a"] == pytest.approx(ga["win_share"].mean()) and row["several_seats"]
    assert row["p"] == pytest.approx(stats.ttest_rel(gb["win_share"], ga["win_share"]).pvalue, rel=1e-8)
    assert row["test"] == "paired t (several seats)"
    text = format_comparison(c)
    assert "wins the game" in text and "paired t-test on the per-game difference" in text
    u = compare(a, b, "strategy", paired=False).wins.filter(pl.col("strategy") == "greedy").row(0, named=True)
    assert u["rate_a"] == pytest.approx(row["rate_a"]) and u["game_a"] == pytest.approx(row["game_a"])


def test_page_names_the_tests_run_and_prints_no_nan_minus_zero_or_threshold():
    """Issue 10: with shared wins every row is a paired t-test, and the method line says so."""
    v = Variant(factions=THREE, reshuffle=0.3, shared_win_rate=0.2)
    a, b = _pair(v, Variant(**{**v.__dict__, "noise_key": 1}), 400)
    text = format_comparison(compare(a, b, "faction"))
    assert "McNemar" not in text and "paired t-test on the per-game share difference (some wins shared)" in text
    same = format_comparison(compare(a, a, "faction"))          # identical sides: zero differences
    for page in (text, same):
        assert not re.search(r"nan|<1e-4|(?<![\d.])-0(?:\.0+)?(?![\d.])", page)
    assert "n/a" in same                                        # undefined effect sizes say so


def _two_seat_runs(runs: int, games: int, seed: int, luck_sd: float = 6.0, **kw) -> dict:
    """``runs`` independent runs of a 4-player game where strategies x and y each fill two seats
    of every game, and every seat of a game shares that game's luck (a normal score shift)."""
    v = Variant(factions={"a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0}, players=(4,), strategies=("x", "y"), **kw)
    df = games_table(v, runs * games, seed=seed)
    g = df["game"].to_numpy()
    luck = np.random.default_rng(seed).normal(0, luck_sd, g.max() + 1)
    df = df.with_columns(score=(df["score"] + np.round(luck[g])).cast(pl.Int32), run=pl.col("game") // games)
    return df.partition_by("run", as_dict=True)


def test_unpaired_rank_test_counts_games_not_seats_and_holds_its_level():
    """A/A, 500 pairs of independent runs of 200 games, groups in two seats per game sharing the
    game's luck: Mann-Whitney on per-game means rejects 5% of the time (scipy's test on the
    independent units; 3.7% here), the row-level test 6.6% (seats treated as independent)."""
    from analyses.compare import unpaired_rank_p
    runs = _two_seat_runs(1000, 200, seed=41)
    rej = rows = 0
    for r in range(500):
        a, b = runs[(2 * r,)], runs[(2 * r + 1,)]
        rej += sum(p < 0.05 for p in unpaired_rank_p(a.lazy(), b.lazy(), "strategy", ["x", "y"]))
        rows += sum(stats.mannwhitneyu(b.filter(pl.col("strategy") == s)["score"].to_numpy(),
                                       a.filter(pl.col("strategy") == s)["score"].to_numpy()).pvalue < 0.05
                    for s in ("x", "y"))
    rate, se = rej / 1000, np.sqrt(0.05 * 0.95 / 1000)
    assert abs(rate - 0.05) < 3 * se, rate
    assert rows / 1000 > rate + 0.02, (rows / 1000, rate)


def test_paired_rank_test_counts_games_not_seats_and_holds_its_level():
    """A/A paired (common random numbers, half the games replayed with other noise), groups in two
    seats per game: the Wilcoxon signed-rank test on per-game differences rejects 5% of the time;
    it equals scipy's test on the per-game differences of the mean scores."""
    from analyses.compare import paired_frame, paired_rank_p
    rej, tests = 0, 0
    base = _two_seat_runs(400, 150, seed=43, reshuffle=0.5)
    other = _two_seat_runs(400, 150, seed=43, reshuffle=0.5, noise_key=1)
    for r in range(400):
        res = MemoryResults({"a": base[(r,)].with_columns(variant=pl.lit("a")),
                             "b": other[(r,)].with_columns(variant=pl.lit("b"))})
        lo, hi = r * 150, r * 150 + 149
        j = paired_frame(Side(res, "a"), Side(res, "b"), "strategy", lo, hi)
        ps = paired_rank_p(j, "strategy", ["x", "y"])
        if r == 0:
            d = j.filter(pl.col("strategy") == "x").sort("game").collect()
            assert d.height == 150
            assert ps[0] == pytest.approx(stats.wilcoxon(d["s_b"] - d["s"], zero_method="wilcox").pvalue)
        rej += sum(p < 0.05 for p in ps)
        tests += 2
    rate, se = rej / tests, np.sqrt(0.05 * 0.95 / tests)
    assert abs(rate - 0.05) < 3 * se, rate


def test_compare_verdict_words_are_the_simultaneous_intervals_about_the_min_edge():
    """Hand check of the three words: se from each group's interval width, z = scipy's
    z_{1 - α/(2k)} over the k groups compared (one family), δ = --min-edge."""
    from analyses.compare import CHANGED, NO_CHANGE, decide_changes
    zl = stats.norm.ppf(0.975)
    se = np.array([0.01, 0.004, 0.01, 0.0])
    diff = np.array([0.06, 0.001, 0.025, 0.0])
    wins = pl.DataFrame({"faction": ["r", "g", "b", "same"], "n": [1000] * 4, "diff": diff,
                         "lo": diff - zl * se, "hi": diff + zl * se})
    out, family = decide_changes(wins, "faction", 0.95, 0.02, 1000)
    z = stats.norm.ppf(1 - 0.05 / 8)
    assert family.z == pytest.approx(z)
    assert out["word"].to_list() == [CHANGED, NO_CHANGE, "undecided", NO_CHANGE]
    assert out["v_lo"][0] == pytest.approx(0.06 - z * 0.01)
    assert out["p_claim"][0] == pytest.approx(8 * stats.norm.sf((0.06 - 0.02) / 0.01))
    assert out["p_claim"][1] == pytest.approx(8 * stats.norm.sf((0.02 - 0.001) / 0.004))
    assert out["games_to_decide"][2] == int(np.ceil(1000 * (z * 0.01 / 0.005) ** 2))
    assert out["significant"].to_list() == [True, False, False, False]


def test_compare_says_changed_no_change_or_undecided_per_group():
    """Red 1.3x as strong in B: red changed by more than 2 pp; with δ = 10 pp nothing changed by
    that much and every group reads 'no change'; the text says the words and the family."""
    v = Variant(factions=THREE, reshuffle=0.5)
    a, b = _pair(v, with_effect(Variant(factions=THREE, reshuffle=0.5, noise_key=1), "red", 1.3), 3000)
    c = compare(a, b, "faction")
    words = dict(zip(c.wins["faction"], c.wins["word"]))
    assert words["red"] == "changed" and c.family.delta == 0.02 and len(c.family.lines) == 3
    text = format_comparison(c)
    assert "VERDICT: B changes the win rate of red" in text and "[CHANGED] red: changed by more than 2.0 pp" in text
    wide = compare(a, b, "faction", min_edge=0.10)
    assert set(wide.wins["word"]) == {"no change"}
    assert "VERDICT: B changes no faction's win rate by 10.0 pp or more" in format_comparison(wide)


def test_compare_by_seat_counts_seats_from_one():
    """Designers say "the 1st player": a comparison by seat labels seat 0 of the rows "seat 1",
    in the tables and in the verdict lines, and keeps one line per seat."""
    a, b = _pair(Variant(factions=THREE, reshuffle=0.3), Variant(factions=THREE, reshuffle=0.3, noise_key=1), 300)
    c = compare(a, b, "seat")
    assert c.wins["seat"].to_list() == ["seat 1", "seat 2", "seat 3"]
    assert c.scores["seat"].to_list() == ["seat 1", "seat 2", "seat 3"]
    assert sorted(ln.group for ln in c.family.lines) == ["seat 1", "seat 2", "seat 3"]
    text = format_comparison(c)
    assert "seat 1" in text and "seat 0" not in text
