"""Confidence intervals and multiple-testing correction used by every metric.

Why these methods: win rates near 0 or 1 and small groups make the textbook Wald interval
(p +- z*se) undercover; Wilson's score interval keeps its coverage close to nominal down to a
few dozen games and is what Newcombe (1998) recommends. Differences of win rates use
Newcombe's hybrid score intervals, built from the two Wilson intervals (independent samples,
method 10 of Newcombe 1998b; paired samples, "square-and-add" with the continuity-adjusted
correlation, as in Fagerland, Lydersen & Laake, *Statistical Analysis of Contingency Tables*,
ch. 8). Means use Student's t. Each function is checked against statsmodels/scipy or a
published value in tests/test_analyses_intervals.py.

All functions are vectorised over numpy arrays (one entry per group).
"""
from __future__ import annotations

import numpy as np
from scipy import stats

WILSON = "95% Wilson score intervals"


def z_value(level: float = 0.95) -> float:
    """Two-sided normal quantile for a confidence level (1.96 for 0.95)."""
    return float(stats.norm.ppf(0.5 + level / 2))


def wilson(successes, n, level: float = 0.95):
    """Wilson score interval for a proportion; ``successes`` may be fractional (split ties).

    With fractional successes (shared wins counted as 1/k) the interval treats the win share
    as a proportion; a share's variance is at most a Bernoulli's with the same mean, so the
    interval is, if anything, slightly conservative.
    """
    x = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    z = z_value(level)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = x / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = np.where(n > 0, np.clip(centre - half, 0, 1), np.nan)
    hi = np.where(n > 0, np.clip(centre + half, 0, 1), np.nan)
    return lo, hi


def newcombe_unpaired(x1, n1, x2, n2, level: float = 0.95):
    """Hybrid score interval for p1 - p2 of two independent proportions (Newcombe method 10)."""
    x1, n1, x2, n2 = (np.asarray(a, dtype=float) for a in (x1, n1, x2, n2))
    with np.errstate(invalid="ignore", divide="ignore"):
        p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson(x1, n1, level)
    l2, u2 = wilson(x2, n2, level)
    lo, hi = square_and_add(p1, l1, u1, p2, l2, u2)
    return np.clip(lo, -1, 1), np.clip(hi, -1, 1)


def square_and_add(p1, l1, u1, p2, l2, u2, corr=0.0):
    """Interval for p1 - p2 from intervals (l, u) of each estimate (Newcombe's square-and-add,
    also called MOVER), with ``corr`` the correlation of the two estimates (0: independent).

    lower = d - sqrt((p1-l1)^2 + (u2-p2)^2 - 2 corr (p1-l1)(u2-p2)),
    upper = d + sqrt((u1-p1)^2 + (p2-l2)^2 - 2 corr (u1-p1)(p2-l2)).
    Newcombe's hybrid (unpaired, corr = 0) and paired (corr = his psi) intervals are this.
    """
    p1, l1, u1, p2, l2, u2, corr = (np.asarray(v, dtype=float) for v in (p1, l1, u1, p2, l2, u2, corr))
    d = p1 - p2
    lo = d - np.sqrt(np.maximum((p1 - l1) ** 2 + (u2 - p2) ** 2 - 2 * corr * (p1 - l1) * (u2 - p2), 0))
    hi = d + np.sqrt(np.maximum((u1 - p1) ** 2 + (p2 - l2) ** 2 - 2 * corr * (u1 - p1) * (p2 - l2), 0))
    return lo, hi


def two_proportion_z(x1, n1, x2, n2):
    """Pooled two-proportion z-test of p1 = p2 (independent samples): (z, two-sided p).

    p = 1 where the statistic is undefined (no variance, or an empty side).
    """
    x1, n1, x2, n2 = (np.asarray(a, dtype=float) for a in (x1, n1, x2, n2))
    with np.errstate(invalid="ignore", divide="ignore"):
        pooled = (x1 + x2) / (n1 + n2)
        z = (x1 / n1 - x2 / n2) / np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    p = np.where(np.isfinite(z), 2 * stats.norm.sf(np.abs(np.nan_to_num(z))), 1.0)
    return z, p


def newcombe_paired(both, only1, only2, neither, level: float = 0.95):
    """Square-and-add (Newcombe) interval for p1 - p2 of paired proportions.

    The 2x2 table: ``both`` = success under 1 and 2, ``only1``, ``only2``, ``neither``;
    p1 = (both + only1)/n, p2 = (both + only2)/n. The correlation between the two estimates
    enters with Newcombe's continuity adjustment (0 for 0 <= ad - bc <= n/2).
    """
    a, b, c, d = (np.asarray(v, dtype=float) for v in (both, only1, only2, neither))
    n = a + b + c + d
    r1, r2, c1, c2 = a + b, c + d, a + c, b + d
    p1, p2 = r1 / n, c1 / n
    l1, u1 = wilson(r1, n, level)
    l2, u2 = wilson(c1, n, level)
    prod = r1 * r2 * c1 * c2
    A = a * d - b * c
    with np.errstate(invalid="ignore", divide="ignore"):
        psi = np.where(A > n / 2, (A - n / 2) / np.sqrt(prod), np.where(A < 0, A / np.sqrt(prod), 0.0))
    psi = np.where(prod > 0, psi, 0.0)
    return square_and_add(p1, l1, u1, p2, l2, u2, psi)


def t_interval(mean, sd, n, level: float = 0.95):
    """Student-t interval for a mean from its sample sd and size (n >= 2)."""
    mean, sd, n = (np.asarray(v, dtype=float) for v in (mean, sd, n))
    with np.errstate(invalid="ignore", divide="ignore"):
        half = stats.t.ppf(0.5 + level / 2, np.maximum(n - 1, 1)) * sd / np.sqrt(n)
    half = np.where(n >= 2, half, np.nan)
    return mean - half, mean + half


def welch_interval(m1, s1, n1, m2, s2, n2, level: float = 0.95):
    """Welch interval for a difference of two independent means (unequal variances)."""
    m1, s1, n1, m2, s2, n2 = (np.asarray(v, dtype=float) for v in (m1, s1, n1, m2, s2, n2))
    v1, v2 = s1 ** 2 / n1, s2 ** 2 / n2
    with np.errstate(invalid="ignore", divide="ignore"):
        df = (v1 + v2) ** 2 / (v1 ** 2 / (n1 - 1) + v2 ** 2 / (n2 - 1))
        half = stats.t.ppf(0.5 + level / 2, df) * np.sqrt(v1 + v2)
    return m1 - m2 - half, m1 - m2 + half, df


def holm(pvalues, alpha: float = 0.05):
    """Holm step-down adjusted p-values (NaN entries are left out and stay NaN).

    p_(i) sorted ascending; adjusted p_(i) = max over j <= i of min(1, (m - j + 1) p_(j)).
    Equal to statsmodels' ``multipletests(method="holm")`` (tested), without its per-call cost.
    """
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    if ok.size:
        vals = p[ok]
        order = np.argsort(vals, kind="stable")
        m = vals.size
        adj = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * vals[order]))
        res = np.empty(m)
        res[order] = adj
        out[ok] = res
    return out
