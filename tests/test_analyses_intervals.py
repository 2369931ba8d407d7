"""Intervals and multiple testing equal their statsmodels/scipy references or published values."""
import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

from analyses import intervals as iv


@pytest.mark.parametrize("x,n", [(0, 10), (3, 10), (10, 10), (7, 34), (512, 1000), (1, 20000)])
def test_wilson_equals_statsmodels(x, n):
    lo, hi = iv.wilson(x, n)
    ref = proportion_confint(x, n, alpha=0.05, method="wilson")
    assert lo == pytest.approx(ref[0], abs=1e-12) and hi == pytest.approx(ref[1], abs=1e-12)


def test_wilson_is_vectorised_and_other_levels():
    x, n = np.array([1, 5, 50]), np.array([10, 20, 60])
    lo, hi = iv.wilson(x, n, level=0.9)
    for i in range(3):
        ref = proportion_confint(x[i], n[i], alpha=0.1, method="wilson")
        assert (lo[i], hi[i]) == pytest.approx(ref, abs=1e-12)


@pytest.mark.parametrize("x1,n1,x2,n2", [(7, 34, 1, 34), (0, 16, 15, 73), (56, 70, 48, 80), (5, 5, 0, 9)])
def test_newcombe_unpaired_equals_statsmodels(x1, n1, x2, n2):
    lo, hi = iv.newcombe_unpaired(x1, n1, x2, n2)
    ref = confint_proportions_2indep(x1, n1, x2, n2, method="newcomb", compare="diff")
    assert (lo, hi) == pytest.approx(ref, abs=1e-12)


def test_newcombe_paired_equals_published_value():
    # Fagerland, Lydersen & Laake, Statistical Analysis of Contingency Tables, ch. 8 (Cavo et al. 2012):
    # table [[59, 6], [16, 80]] -> estimate -0.0621, 95% CI -0.1186 to -0.0046 (Newcombe square-and-add)
    lo, hi = iv.newcombe_paired(59, 6, 16, 80)
    assert lo == pytest.approx(-0.1186, abs=5e-5) and hi == pytest.approx(-0.0046, abs=5e-5)


def test_newcombe_paired_degenerate_tables():
    lo, hi = iv.newcombe_paired(10, 0, 0, 10)          # no discordant pairs: interval around 0
    assert lo < 0 < hi
    lo, hi = iv.newcombe_paired(0, 0, 0, 25)
    assert lo <= 0 <= hi


def test_t_interval_equals_scipy():
    rng = np.random.default_rng(1)
    x = rng.normal(3, 2, 40)
    lo, hi = iv.t_interval(x.mean(), x.std(ddof=1), len(x))
    ref = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert (lo, hi) == pytest.approx(ref, rel=1e-12)


def test_welch_interval_equals_scipy():
    rng = np.random.default_rng(2)
    a, b = rng.normal(5, 1, 30), rng.normal(4, 3, 50)
    lo, hi, _ = iv.welch_interval(a.mean(), a.std(ddof=1), len(a), b.mean(), b.std(ddof=1), len(b))
    ref = stats.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
    assert (lo, hi) == pytest.approx((ref.low, ref.high), rel=1e-10)


def test_holm_equals_statsmodels_and_keeps_nan():
    p = np.array([0.01, 0.04, np.nan, 0.03, 0.2])
    out = iv.holm(p)
    ref = multipletests(p[~np.isnan(p)], method="holm")[1]
    assert np.isnan(out[2])
    assert np.allclose(out[~np.isnan(p)], ref)


def test_wilson_coverage_is_near_nominal():
    rng = np.random.default_rng(3)
    p, n, reps = 0.3, 200, 4000
    x = rng.binomial(n, p, reps)
    lo, hi = iv.wilson(x, np.full(reps, n))
    cover = np.mean((lo <= p) & (p <= hi))
    se = np.sqrt(0.95 * 0.05 / reps)
    assert abs(cover - 0.95) < 4 * se + 0.005


def test_holm_matches_statsmodels_on_random_sets():
    # 12 sets of 1-11 p-values: statsmodels' multipletests costs about 0.17 s a call
    rng = np.random.default_rng(5)
    for _ in range(12):
        p = rng.uniform(0, 0.2, rng.integers(1, 12)) ** rng.uniform(0.5, 3)
        assert np.allclose(iv.holm(p), multipletests(p, method="holm")[1])
