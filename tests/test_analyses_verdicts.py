"""Verdicts about an edge of a stated size, one family per page: hand values, the games-needed
answer checked by simulation, the A/A false-alarm rate of a whole page, confounds."""
import numpy as np
import polars as pl
import pytest
from scipy import stats

from analyses import metrics, verdicts
from analyses.synthetic import MemoryResults, Variant, games_table


def test_three_words_hand_values():
    """est ± 1.96 se (one line): beyond ±2 pp, inside it, or across its edge."""
    word, lo, hi, p = verdicts.decide([0.05, 0.0, 0.02, -0.05], [0.01, 0.005, 0.01, 0.01], 0.02, 1)
    assert list(word) == [verdicts.OUT, verdicts.BALANCED, verdicts.UNDECIDED, verdicts.OUT]
    assert lo[0] == pytest.approx(0.05 - 1.959964 * 0.01, abs=1e-6)
    assert p[0] == pytest.approx(2 * stats.norm.sf(3.0))          # (|est| - δ)/se = 3
    assert p[1] == pytest.approx(2 * stats.norm.sf(4.0))          # TOST: (δ - |est|)/se = 4
    assert np.isnan(p[2])
    # six lines: z = z_{1 - 0.05/12}; the first line is no longer sure
    word6, *_ = verdicts.decide([0.045], [0.01], 0.02, 6)
    assert verdicts.z_family(6) == pytest.approx(stats.norm.ppf(1 - 0.05 / 12))
    assert word6[0] == verdicts.UNDECIDED


def test_games_to_decide_scales_the_interval_to_the_band_edge():
    z = verdicts.z_family(1)
    n = verdicts.games_to_decide(0.05, 0.02, 1000, 0.02, z)      # gap 3 pp, half-width now 3.92 pp
    assert n == int(np.ceil(1000 * (z * 0.02 / 0.03) ** 2))
    assert verdicts.games_to_decide(0.02, 0.01, 1000, 0.02, z) is None          # on the edge


@pytest.mark.parametrize("m", [1, 6])
def test_games_needed_delivers_the_stated_power_with_the_page_correction(m):
    """Simulated: at the games it names, a fair group reads 'balanced within ±2 pp' and a group
    4 pp off reads 'out of balance' in 80% of runs, with the same correction as the verdict."""
    rng = np.random.default_rng(5)
    p0, delta, runs = 1 / 3, 0.02, 20_000
    need = verdicts.games_needed(p0, delta, m)
    for key, p_true, word in (("balanced", p0, verdicts.BALANCED), ("out", p0 + 2 * delta, verdicts.OUT)):
        n = need[key]
        r = rng.binomial(n, p_true, runs) / n
        got, *_ = verdicts.decide(r - p0, np.sqrt(r * (1 - r) / n), delta, m)
        assert np.mean(got == word) == pytest.approx(0.8, abs=0.02), (key, np.mean(got == word))
        if m > 1:                                   # the uncorrected size is too small for this page
            n1 = verdicts.games_needed(p0, delta, 1)[key]
            r = rng.binomial(n1, p_true, runs) / n1
            got, *_ = verdicts.decide(r - p0, np.sqrt(r * (1 - r) / n1), delta, m)
            assert np.mean(got == word) < 0.75


def _page_words(df: pl.DataFrame, runs: int, delta: float) -> np.ndarray:
    """Words of every run's page (faction, seat, strategy lines), decided as ``verdict_page`` does."""
    ests, ses = [], []
    for col in ("faction", "seat", "strategy"):
        t = (df.group_by(["run", col]).agg(rows=pl.len(), w=pl.col("win_share").sum(),
                                           fair=(1 / pl.col("players")).mean()).sort(["run", col]))
        rate = (t["w"] / t["rows"]).to_numpy()
        n = t["rows"].to_numpy()
        ests.append((rate - t["fair"].to_numpy()).reshape(runs, -1))
        ses.append(np.sqrt(rate * (1 - rate) / n).reshape(runs, -1))
    est, se = np.hstack(ests), np.hstack(ses)
    word, *_ = verdicts.decide(est.ravel(), se.ravel(), delta, est.shape[1])
    return word.reshape(runs, -1)


def test_aa_pages_of_a_fair_game_flag_something_in_at_most_5_percent_of_runs():
    """300 A/A runs of 2,000 games (fair factions, seats, strategies): even with no minimum edge
    (δ = 0, pure significance) the page flags something in at most 5% of runs; one Holm family
    per table (the old report) flags in about 14%."""
    runs, games = 300, 2000
    v = Variant(factions={"r": 1.0, "g": 1.0, "b": 1.0}, strategies=("x", "y", "z"))
    df = games_table(v, runs * games, seed=77).with_columns(run=pl.col("game") // games)
    words = _page_words(df, runs, 0.0)
    any_flag = (words == verdicts.OUT).any(axis=1).mean()
    assert any_flag <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / runs), any_flag
    assert (_page_words(df, runs, verdicts.MIN_EDGE) == verdicts.OUT).sum() == 0     # default δ: none
    # the old per-table Holm families, on the same runs, flag far more often
    old = np.zeros(runs, bool)
    for col in ("faction", "seat", "strategy"):
        t = (df.group_by(["run", col]).agg(rows=pl.len(), w=pl.col("win_share").sum()).sort(["run", col]))
        z = (t["w"] - t["rows"] / 3).to_numpy() / np.sqrt(t["rows"].to_numpy() * 2 / 9)
        p = (2 * stats.norm.sf(np.abs(z))).reshape(runs, 3)
        old |= (np.sort(p, axis=1) * np.array([3, 2, 1]) < 0.05)[:, 0]       # Holm's first step
    assert old.mean() > any_flag + 0.04


def test_report_page_lines_confounds_and_detail_stars_agree():
    """The start-player faction (always seat 0, like Red Rising's Apollo) is named as confounded;
    a detail table's star is its line's 'out of balance' on the page."""
    df = games_table(Variant(factions={"a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0}, players=(3,)), 3000)
    df = df.with_columns(faction=pl.when(pl.col("seat") == 0).then(pl.lit("Apollo")).otherwise(pl.col("faction")))
    m = metrics.compute(MemoryResults({"base": df}), "base", with_ratings=False, features=[])
    page = m.page
    assert {ln.question for ln in page.lines} == {"faction", "seat (3 players)"}
    assert any("faction Apollo always has seat 1 (the start player)" in c for c in page.confounds)
    words = {(ln.question, ln.group): ln.word for ln in page.lines}
    for r in m.summary.rates.iter_rows(named=True):
        assert r["significant"] == (words[("faction", r["faction"])] == verdicts.OUT)
    assert [abs(ln.estimate) for ln in page.lines] == sorted((abs(ln.estimate) for ln in page.lines), reverse=True)


def test_feature_page_stars_are_the_verdict_pages_words():
    """Feature tables decided on the verdict page: a star on the feature page is the page's 'out of
    balance' for that line, and the word equals the simultaneous z-interval over all m page lines
    (scipy's normal quantile at 1 - α/(2m)) of the table's own estimate and se; scores and margins
    (points, not on the page) carry no star."""
    from analyses.features import Feature, format_feature
    tile = Feature("favour tile", "ft_tile_", "ft_favour_")
    v = Variant(factions={"red": 1.0, "blue": 1.0, "green": 1.0}, strategies=("A", "B", "C"),
                feature_pool=tuple(f"T{i}" for i in range(1, 7)), feature_slots=("x", "y", "z"),
                holder_weights={"T3": 4.0})
    m = metrics.compute(MemoryResults({"base": games_table(v, 4000, seed=9)}), "base", with_ratings=False,
                        features=[tile], min_edge=0.03)
    (fa,), page = m.features, m.page
    z = stats.norm.ppf(1 - 0.05 / (2 * len(page.lines)))
    zl = stats.norm.ppf(0.975)
    for t in (fa.win_rates, fa.holders):
        se = (t["hi"] - t["lo"]).to_numpy() / (2 * zl)
        d = t["diff"].to_numpy()
        ref = np.where((np.abs(d) - z * se) > 0.03, verdicts.OUT,
                       np.where(np.abs(d) + z * se < 0.03, verdicts.BALANCED, verdicts.UNDECIDED))
        assert t["word"].to_list() == list(ref)
        assert t["significant"].to_list() == list(ref == verdicts.OUT)
    t3 = fa.holders.filter(pl.col("value") == "T3").row(0, named=True)
    assert t3["word"] == verdicts.OUT and fa.holders.filter(pl.col("value") != "T3")["word"].to_list() != []
    assert not fa.holders.filter(pl.col("value") != "T3")["significant"].any()
    text = format_feature(fa)
    assert text[1].startswith("favour tile out of balance by more than 3.0 pp: T3 holders +")
    assert "one family with the rest of the page" in text[1]
    starred = [ln for ln in text if ln[:1] == "T" and ln[1:2].isdigit() and "*" in ln]     # table rows
    assert len(starred) == 1 and starred[0].startswith("T3 ")       # only the holders' win share, not its score


def test_a_zero_min_edge_is_plain_significance_and_the_page_says_no_games_suffice():
    """δ = 0 (--min-edge 0): nothing can read 'balanced' (the band is empty), so the games-needed
    answer is 'none' instead of a division by zero; the page still prints."""
    from reports.report import verdict_lines
    assert verdicts.games_needed(1 / 3, 0.0)["balanced"] is None
    m = metrics.compute(MemoryResults({"base": games_table(Variant(), 600)}), "base", with_ratings=False,
                        features=[], min_edge=0.0)
    assert verdicts.BALANCED not in {ln.word for ln in m.page.lines}
    assert any("no number of games shows a group balanced" in t for t in verdict_lines(m.page))
