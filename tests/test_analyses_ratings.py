"""Plackett-Luce ratings: equal to choix's ML estimate, Breslow ties, calibrated intervals."""
import math

import choix
import numpy as np
import polars as pl
import pytest

from analyses import ratings
from analyses.synthetic import Variant, games_table


def _random_rankings(rng, theta, games, sizes=(2, 5)):
    k = len(theta)
    data = []
    for _ in range(games):
        items = rng.choice(k, size=rng.integers(*sizes), replace=False)
        g = theta[items] + rng.gumbel(size=len(items))
        data.append(tuple(int(i) for i in items[np.argsort(-g)]))
    return data


def _arrays(data):
    m = max(len(d) for d in data)
    E = np.zeros((len(data), m), int)
    R = np.zeros((len(data), m), int)
    for i, d in enumerate(data):
        E[i, :len(d)] = d
        R[i, :len(d)] = np.arange(1, len(d) + 1)
    return E, R


def test_fit_equals_choix_maximum_likelihood():
    rng = np.random.default_rng(0)
    theta = rng.normal(size=5)
    data = _random_rankings(rng, theta, 2000)
    E, R = _arrays(data)
    est, cov, ll, ok = ratings.fit_plackett_luce(E, R, np.ones(len(data)), 5)
    ref = choix.ilsr_rankings(5, data)
    assert ok
    assert np.allclose(est, ref - ref.mean(), atol=1e-6)
    assert ll == pytest.approx(choix.log_likelihood_rankings(data, est), rel=1e-9)


def test_aggregated_patterns_give_the_same_fit_as_single_games():
    rng = np.random.default_rng(1)
    data = _random_rankings(rng, np.array([0.5, 0.0, -0.5]), 600, sizes=(3, 4))
    E, R = _arrays(data)
    keys = {}
    for d in data:
        keys[d] = keys.get(d, 0) + 1
    E2, R2 = _arrays(list(keys))
    a = ratings.fit_plackett_luce(E, R, np.ones(len(data)), 3)
    b = ratings.fit_plackett_luce(E2, R2, np.array(list(keys.values()), float), 3)
    assert np.allclose(a[0], b[0]) and np.allclose(a[1], b[1])


def test_breslow_ties_hand_likelihood():
    # one game: items 0 and 1 share first place, item 2 third. Breslow: theta0 + theta1 - 2 log(S) + 0
    E = np.array([[0, 1, 2]])
    R = np.array([[1, 1, 3]])
    theta = np.array([0.3, -0.1, -0.2])
    ll, grad, hess = ratings._derivatives(theta, E, R, np.ones(1), 0.0)
    S = np.exp(theta).sum()
    assert ll == pytest.approx(theta[0] + theta[1] - 2 * math.log(S))
    num = np.array([1, 1, 0]) - 2 * np.exp(theta) / S
    assert np.allclose(grad, num)


def test_standard_errors_are_calibrated():
    """Over repeated data sets the estimate's spread matches the reported standard error."""
    theta = np.array([0.4, 0.1, -0.2, -0.3])
    theta -= theta.mean()
    z = []
    for rep in range(150):
        rng = np.random.default_rng(100 + rep)
        data = _random_rankings(rng, theta, 300, sizes=(3, 5))
        E, R = _arrays(data)
        est, cov, _, _ = ratings.fit_plackett_luce(E, R, np.ones(len(data)), 4)
        z.append((est - theta) / np.sqrt(np.diag(cov)))
    z = np.concatenate(z)
    assert abs(z.mean()) < 0.1
    assert 0.88 < z.std() < 1.12
    assert abs(np.mean(np.abs(z) < 1.96) - 0.95) < 0.025


def test_ratings_on_results_recover_the_strength_order():
    v = Variant(factions={"weak": 0.6, "mid": 1.0, "strong": 1.6, "x": 1.0}, players=(3,),
                strategies=("a", "b", "c"), shared_win_rate=0.03)
    df = games_table(v, 3000)
    t = ratings.ratings(df.lazy(), "faction")
    assert t["faction"].to_list()[0] == "strong" and t["faction"].to_list()[-1] == "weak"
    assert t["theta"].sum() == pytest.approx(0, abs=1e-9)
    truth = math.log(1.6) - np.mean(np.log([0.6, 1.0, 1.6, 1.0]))
    row = t.filter(pl.col("faction") == "strong").row(0, named=True)
    assert row["lo"] - 0.05 < truth < row["hi"] + 0.05     # shared wins blur the truth a little
    assert row["elo"] == pytest.approx(row["theta"] * 400 / math.log(10))
    assert t["identified"].all()


def test_two_player_ratings_are_bradley_terry():
    rng = np.random.default_rng(3)
    data = _random_rankings(rng, np.array([0.3, 0.0, -0.3]), 1500, sizes=(2, 3))
    E, R = _arrays(data)
    est, _, _, _ = ratings.fit_plackett_luce(E, R, np.ones(len(data)), 3)
    ref = choix.ilsr_pairwise(3, [d for d in data])
    assert np.allclose(est, ref - ref.mean(), atol=1e-6)


@pytest.mark.parametrize("data", [[(0, 1, 2), (3, 4, 5)], [(0, 1, 2), (0, 3, 4)], [(0, 1), (0, 1)],
                                  [(0, 1, 2, 3), (4, 5, 1, 2)]])
def test_a_fit_without_a_finite_maximum_stops_finite_and_unconverged(data):
    """Two games: some entity never lost, so its theta has no finite maximum; the fit used to run
    into exp() overflow, NaN and an SVD that did not converge (``sim summary`` on 2 games)."""
    E, R = _arrays(data)
    theta, cov, ll, converged = ratings.fit_plackett_luce(E, R, np.ones(len(data)), E.max() + 1)
    assert not converged
    assert np.isfinite(theta).all() and np.isfinite(cov).all() and np.isfinite(ll)
    assert np.abs(theta).max() <= ratings.THETA_CAP
