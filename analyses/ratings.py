"""Plackett-Luce ratings of strategies or factions from multiplayer finishing orders.

Why Plackett-Luce: a win rate mixes an entity's strength with the strength of the tables it
happened to sit at; a rating model separates them, and uses the whole finishing order, not only
who won. Plackett-Luce (PL) says the winner of a game is drawn with probability proportional
to exp(theta), then second place among the rest, and so on; with two players it *is* the
Bradley-Terry model, so one method covers both. Shared places (ties in rank) use Breslow's
approximation, as Cox regression does: a tied set of size t at a stage contributes
sum(theta of the set) - t * log(sum of exp(theta) over the seats still in).

Why our own fit (choix is used to cross-check it in the tests): games are aggregated into
distinct finishing patterns with counts in polars (a few thousand patterns for millions of
games), the weighted likelihood is maximised by Newton's method, and the observed Fisher
information gives standard errors. Games are independent, so these are valid; the seats of a
game are handled by the likelihood itself. Thetas are centred (mean 0) and reported with
95% intervals, as Elo (400/ln 10 per unit of theta) and as the chance to beat an average
entity head to head.
"""
from __future__ import annotations

import math

import numpy as np
import polars as pl

from analyses.intervals import z_value

ELO_PER_THETA = 400.0 / math.log(10.0)
_SHIFT = 64          # rank packs into the low 6 bits of a pattern code


def ranking_patterns(lf: pl.LazyFrame, entity: str):
    """Distinct finishing patterns: (names, entity ids [P, m], ranks [P, m] (0 = pad), counts [P])."""
    names = lf.select(pl.col(entity).cast(pl.String).unique().sort()).collect()[entity].to_list()
    code = (pl.col(entity).cast(pl.String).replace_strict(names, list(range(len(names))), return_dtype=pl.Int64)
            * _SHIFT + pl.col("rank").cast(pl.Int64))
    per_game = lf.group_by(["variant", "game"]).agg(code.sort().alias("code"))
    pats = per_game.group_by("code").agg(count=pl.len()).collect()
    codes = pats["code"].to_list()
    m = max(len(c) for c in codes)
    P = len(codes)
    E = np.zeros((P, m), dtype=np.int64)
    R = np.zeros((P, m), dtype=np.int64)
    for i, c in enumerate(codes):
        arr = np.asarray(c, dtype=np.int64)
        E[i, :len(arr)] = arr // _SHIFT
        R[i, :len(arr)] = arr % _SHIFT
    return names, E, R, pats["count"].to_numpy().astype(float)


def _derivatives(theta, E, R, counts, alpha, block: int = 20000):
    """Log-likelihood, gradient and Hessian, summed over blocks of patterns (bounded memory)."""
    k = len(theta)
    ll, grad, hess = -0.5 * alpha * theta @ theta, -alpha * theta, -alpha * np.eye(k)
    for s in range(0, len(counts), block):
        a, b, c = _block(theta, E[s:s + block], R[s:s + block], counts[s:s + block])
        ll, grad, hess = ll + a, grad + b, hess + c
    return float(ll), grad, hess


def _block(theta, E, R, counts):
    valid = R > 0
    w = np.exp(theta[E]) * valid
    M = valid[:, None, :] & valid[:, :, None] & (R[:, None, :] >= R[:, :, None])     # [P, i, j]
    D = np.einsum("pij,pj->pi", M, w)
    cv = counts[:, None] * valid                                                     # weight per (p, i)
    ll = float(np.sum(cv * (theta[E] - np.log(np.where(valid, D, 1.0)))))
    k = len(theta)
    onehot = np.zeros(E.shape + (k,))
    np.put_along_axis(onehot, E[..., None], 1.0, axis=2)
    onehot *= valid[..., None]
    pi = M * w[:, None, :] / np.where(valid, D, 1.0)[:, :, None]                      # [P, i, j]
    q = np.einsum("pij,pjk->pik", pi, onehot)                                        # expected one-hot
    grad = np.einsum("pi,pik->k", cv, onehot - q)
    hess = -(np.diag(np.einsum("pi,pik->k", cv, q)) - np.einsum("pi,pik,pil->kl", cv, q, q))
    return ll, grad, hess


THETA_CAP = 30.0      # |theta| beyond which the fit stops: an entity that never lost (or never won) runs off


def fit_plackett_luce(E, R, counts, n_items: int, alpha: float = 0.0, max_iter: int = 100, tol: float = 1e-10):
    """Maximum-likelihood thetas (mean 0) and their covariance; Breslow ties; optional ridge alpha.

    Without a finite maximum (few games: an entity that never lost) the thetas run off; the fit
    stops before ``THETA_CAP`` (where exp() would overflow into NaN) and reports not converged."""
    theta = np.zeros(n_items)
    ll, g, H = _derivatives(theta, E, R, counts, alpha)
    converged = False
    for _ in range(max_iter):
        step = -np.linalg.pinv(H, rcond=1e-12) @ g
        step -= step.mean()
        t = 1.0
        while True:
            cand = theta + t * step
            if np.max(np.abs(cand - cand.mean())) > THETA_CAP:
                return theta, np.linalg.pinv(-H, rcond=1e-12), ll, False
            ll_new, g_new, H_new = _derivatives(cand, E, R, counts, alpha)
            if ll_new >= ll - 1e-12 * abs(ll) or t < 1e-8:
                break
            t /= 2
        theta, ll, g, H = cand - cand.mean(), ll_new, g_new, H_new
        if np.max(np.abs(t * step)) < tol:
            converged = True
            break
    cov = np.linalg.pinv(-H, rcond=1e-12)
    return theta, cov, ll, converged


def ratings(lf: pl.LazyFrame, entity: str = "strategy", level: float = 0.95, alpha: float = 0.0) -> pl.DataFrame:
    """Plackett-Luce rating per value of ``entity`` with intervals (theta, Elo, P(beat average)).

    Columns: entity, games (rows of the entity), theta, se, lo, hi, elo, elo_lo, elo_hi,
    p_beat_avg (exp(theta)/(1+exp(theta))), identified (False when an entity never won or never
    lost against a connected opponent: its theta then runs off and its interval is meaningless).
    """
    names, E, R, counts = ranking_patterns(lf, entity)
    k = len(names)
    rows = lf.group_by(pl.col(entity).cast(pl.String)).agg(rows=pl.len()).collect()
    rows_of = dict(zip(rows[entity].to_list(), rows["rows"].to_list()))
    if k < 2:
        return pl.DataFrame({entity: names, "rows": [rows_of.get(n, 0) for n in names]})
    theta, cov, _ll, converged = fit_plackett_luce(E, R, counts, k, alpha=alpha)
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    z = z_value(level)
    ident = converged & (np.abs(theta) < 15)
    return pl.DataFrame({
        entity: names,
        "rows": [rows_of.get(n, 0) for n in names],
        "theta": theta, "se": se, "lo": theta - z * se, "hi": theta + z * se,
        "elo": theta * ELO_PER_THETA, "elo_lo": (theta - z * se) * ELO_PER_THETA,
        "elo_hi": (theta + z * se) * ELO_PER_THETA,
        "p_beat_avg": 1 / (1 + np.exp(-theta)),
        "identified": np.broadcast_to(ident, theta.shape),
    }).sort("theta", descending=True)
