"""Scores, score components, margin of victory, game length and end reasons.

Why: win rates say *who* wins; scores say *how*. A faction that wins its fair share with a
much higher mean score, or a variant that only lengthens games, is something a designer wants
to see. Per-game quantities (length, end reason) are read from the seat-0 row of each game (every
game has one), so no grouping by game is needed for them. All aggregation is lazy polars;
only small tables (one row per group, or value counts) are materialised.
"""
from __future__ import annotations

import numpy as np
import polars as pl
from scipy import stats

from analyses.intervals import t_interval, wilson

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def _as_list(by) -> list[str]:
    return [] if by is None else [by] if isinstance(by, str) else list(by)


def _summary_exprs(col: str) -> list[pl.Expr]:
    c = pl.col(col).cast(pl.Float64)
    return ([pl.len().alias("n"), c.mean().alias("mean"), c.std().alias("sd"), c.min().alias("min"),
             c.max().alias("max")]
            + [c.quantile(q, interpolation="linear").alias(f"q{int(q * 100):02d}") for q in QUANTILES])


def _with_ci(df: pl.DataFrame, level: float) -> pl.DataFrame:
    lo, hi = t_interval(df["mean"].to_numpy(), df["sd"].to_numpy(), df["n"].to_numpy(), level)
    return df.with_columns(lo=pl.Series(lo), hi=pl.Series(hi))


def clustered_mean(lf: pl.LazyFrame, by, col: str = "score") -> pl.DataFrame:
    """Per group: rows n, games, mean and ``var``, the game-clustered variance of the mean.

    Why: the seats a group fills in one game are not independent (a strategy in two seats of a
    game shares that game's luck), so rows are not independent draws. var = G/(G-1) *
    sum_g (T_g - mean k_g)^2 / n^2 (T_g, k_g: the group's sum and seats in game g; the CR1
    sandwich); with one seat per game it is s^2/n, the textbook variance of a mean.
    """
    by = _as_list(by)
    x = pl.col(col).cast(pl.Float64)
    per = lf.group_by(list(dict.fromkeys(["variant", "game"] + by))).agg(k=pl.len().cast(pl.Float64), t=x.sum())
    q = per.group_by(by).agg(n=pl.col("k").sum().cast(pl.Int64), games=pl.len(), _t=pl.col("t").sum(),
                             _q=(pl.col("t") ** 2).sum(), _qk=(pl.col("t") * pl.col("k")).sum(),
                             _k2=(pl.col("k") ** 2).sum())
    g = (q.sort(by) if by else q).collect()
    n, G = g["n"].to_numpy().astype(float), g["games"].to_numpy().astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = g["_t"].to_numpy() / n
        var = G / (G - 1) * np.maximum(g["_q"].to_numpy() - 2 * mean * g["_qk"].to_numpy()
                                       + mean ** 2 * g["_k2"].to_numpy(), 0) / n ** 2
    return g.select(by + ["n", "games"]).with_columns(mean=pl.Series(mean), var=pl.Series(var))


def score_summary(lf: pl.LazyFrame, by=None, components=(), level: float = 0.95) -> pl.DataFrame:
    """Score mean, spread and quantiles per group, plus each component's mean. The interval of
    the mean is a t interval with games as clusters (``clustered_mean``, games - 1 df): the
    ordinary t interval when the group has one seat per game."""
    by = _as_list(by)
    exprs = (_summary_exprs("score") + [pl.col(c).cast(pl.Float64).mean().alias(c) for c in components]
             + [pl.struct("variant", "game").n_unique().alias("games")])
    q = lf.group_by(by).agg(exprs).sort(by) if by else lf.select(exprs)
    df = q.collect()
    if bool((df["n"] == df["games"]).all()):          # one seat per game: the textbook t interval
        return _with_ci(df.drop("games"), level)
    df = df.drop("games")
    cm = clustered_mean(lf, by)
    df = df.join(cm.select(by + ["games", "var"]), on=by, how="left") if by else df.with_columns(
        games=pl.lit(cm["games"][0]), var=pl.lit(cm["var"][0]))
    G = df["games"].to_numpy().astype(float)
    with np.errstate(invalid="ignore"):
        half = stats.t.ppf(0.5 + level / 2, np.maximum(G - 1, 1)) * np.sqrt(df["var"].to_numpy())
    half = np.where(G >= 2, half, np.nan)
    return df.with_columns(lo=pl.Series(df["mean"].to_numpy() - half),
                           hi=pl.Series(df["mean"].to_numpy() + half)).drop("var")


def _per_game(lf: pl.LazyFrame) -> pl.LazyFrame:
    return lf.filter(pl.col("seat") == 0)


def game_length(lf: pl.LazyFrame, level: float = 0.95) -> pl.DataFrame:
    """Turns and rounds per game: mean (t interval), sd, quantiles (Ludii's Duration)."""
    g = _per_game(lf)
    rows = []
    for col in ("turns", "rounds"):
        rows.append(g.select(pl.lit(col).alias("measure"), *_summary_exprs(col)))
    return _with_ci(pl.concat(pl.collect_all(rows)), level)


def length_counts(lf: pl.LazyFrame, col: str = "rounds") -> pl.DataFrame:
    """How many games lasted each number of ``col`` (turns or rounds): a histogram's data."""
    return _per_game(lf).group_by(col).agg(games=pl.len()).sort(col).collect()


def end_reasons(lf: pl.LazyFrame, level: float = 0.95) -> pl.DataFrame:
    """Share of games per end reason, with Wilson intervals."""
    df = _per_game(lf).group_by("end_reason").agg(games=pl.len()).sort("games", descending=True).collect()
    total = df["games"].sum()
    lo, hi = wilson(df["games"].to_numpy(), np.full(df.height, total), level)
    return df.with_columns(share=pl.col("games") / total, lo=pl.Series(lo), hi=pl.Series(hi))


def game_outcomes(lf: pl.LazyFrame) -> pl.LazyFrame:
    """One row per game with the per-game measures every module uses (defined here only).

    All after tie-breaks (the ``rank`` column): ``shared_win`` = 1 when several seats hold rank 1
    (the win is shared), ``margin`` = lowest winner's score minus the best non-winner's score
    (0 when the win is shared; 0 points also when a tie-break decided it), ``tie_broken`` = 1 when
    a non-winner has the winner's score (the tie-break decided), ``score_spread`` = best - worst.
    """
    winner = pl.col("rank") == 1
    score = pl.col("score").cast(pl.Float64)
    return lf.group_by(["variant", "game"]).agg(
        players=pl.col("players").first(),
        turns=pl.col("turns").first().cast(pl.Float64), rounds=pl.col("rounds").first().cast(pl.Float64),
        mean_score=score.mean(), score_spread=score.max() - score.min(),
        _top=score.filter(winner).min(), _runner_up=score.filter(~winner).max(), _winners=winner.sum(),
    ).with_columns(
        margin=pl.when(pl.col("_winners") > 1).then(0.0).otherwise(pl.col("_top") - pl.col("_runner_up")),
        shared_win=(pl.col("_winners") > 1).cast(pl.Float64),
        tie_broken=((pl.col("_winners") == 1) & (pl.col("_top") == pl.col("_runner_up"))).cast(pl.Float64),
    ).drop("_top", "_runner_up", "_winners")


def margin_of_victory(lf: pl.LazyFrame, by: str | None = None, level: float = 0.95) -> pl.DataFrame:
    """The margin of ``game_outcomes`` summarised overall, or by the winner's ``by`` value."""
    per = game_outcomes(lf)
    by_l = _as_list(by)
    if by_l:
        first_winner = (lf.filter(pl.col("rank") == 1).group_by(["variant", "game"])
                        .agg(pl.col(by).sort().first()))
        per = per.join(first_winner, on=["variant", "game"])
        q = per.group_by(by_l).agg(_summary_exprs("margin")).sort(by_l)
    else:
        q = per.select(_summary_exprs("margin"))
    return _with_ci(q.collect(), level)


def score_counts(lf: pl.LazyFrame, by=None) -> pl.DataFrame:
    """Rows per (group, score): the data of a score histogram, small whatever the row count."""
    by = _as_list(by)
    return lf.group_by(by + ["score"]).agg(rows=pl.len()).sort(by + ["score"]).collect()


def component_means(lf: pl.LazyFrame, components, by=None) -> pl.DataFrame:
    """Mean of each score component per group (the parts of a stacked score bar)."""
    by = _as_list(by)
    exprs = [pl.col(c).cast(pl.Float64).mean().alias(c) for c in components]
    q = lf.group_by(by).agg(exprs).sort(by) if by else lf.select(exprs)
    return q.collect()
