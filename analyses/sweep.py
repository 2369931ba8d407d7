"""Parameter sweeps: every metric at every point of a grid, in one tidy table for curves.

Why: "how many points should a token be worth?" is answered by the curve of each faction's win
rate (and the game length, the first-player edge, ...) against that value, with intervals, so
the designer sees where the curves cross the fair share and how sure each point is. An
experiment file's ``[sweep]`` table yields variants named ``param=value`` (``a=1,b=2`` for a
grid over two parameters); the parameter values are parsed back from those names. All
variants are aggregated in one lazy pass by grouping on ``variant`` as well.
"""
from __future__ import annotations

import polars as pl

from analyses import scores, winrates
from analyses.intervals import t_interval
from analyses.load import Results, sweep_point


def sweep_table(results: Results, by: str, level: float = 0.95) -> pl.DataFrame:
    """Long table: variant, each sweep parameter, metric, group, estimate, lo, hi, games.

    Metrics: ``win rate`` per ``by`` value, ``first player win rate`` per player count,
    ``score`` (mean) per ``by`` value, ``rounds`` and ``turns`` (mean per game), ``shared wins``
    (share of games), ``balance`` (the gap balance: 1 - spread of win rate minus fair share; not
    Ludii's Balance beyond two players; no interval).
    """
    lf = results.scan()
    parts = []
    wr = winrates.win_rates(lf, ["variant", by], level)
    label = (pl.lit(f"{by} ") + pl.col(by).cast(pl.String)) if by in ("seat", "slot", "players") \
        else pl.col(by).cast(pl.String)
    parts.append(wr.select("variant", pl.lit("win rate").alias("metric"), label.alias("group"),
                           pl.col("win_rate").alias("estimate"), "lo", "hi", pl.col("fair").alias("reference")))
    seats = winrates.win_rates(lf.filter(pl.col("seat") == 0), ["variant", "players"], level)
    parts.append(seats.select("variant", pl.lit("first player win rate").alias("metric"),
                              (pl.col("players").cast(pl.String) + " players").alias("group"),
                              pl.col("win_rate").alias("estimate"), "lo", "hi", pl.col("fair").alias("reference")))
    sc = scores.score_summary(lf, ["variant", by], level=level)
    parts.append(sc.select("variant", pl.lit("score").alias("metric"), label.alias("group"),
                           pl.col("mean").alias("estimate"), "lo", "hi", pl.lit(None, pl.Float64).alias("reference")))
    per_game = lf.filter(pl.col("seat") == 0)
    for col in ("rounds", "turns"):
        g = per_game.group_by("variant").agg(n=pl.len(), mean=pl.col(col).cast(pl.Float64).mean(),
                                             sd=pl.col(col).cast(pl.Float64).std()).collect()
        lo, hi = t_interval(g["mean"].to_numpy(), g["sd"].to_numpy(), g["n"].to_numpy(), level)
        parts.append(g.select("variant", pl.lit(col).alias("metric"), pl.lit("all").alias("group"),
                              pl.col("mean").alias("estimate"), pl.Series("lo", lo), pl.Series("hi", hi),
                              pl.lit(None, pl.Float64).alias("reference")))
    shared = []
    bal = []
    for v in results.variants:
        s = winrates.shared_wins(results.scan(v), level)
        shared.append({"variant": v, "metric": "shared wins", "group": "all", "estimate": s["share"],
                       "lo": s["lo"], "hi": s["hi"], "reference": None})
        ex = wr.filter(pl.col("variant") == v)["excess"]
        bal.append({"variant": v, "metric": "balance", "group": "all",
                    "estimate": 1 - float(ex.max() - ex.min()) if len(ex) else None,
                    "lo": None, "hi": None, "reference": 1.0})
    schema = {"variant": pl.String, "metric": pl.String, "group": pl.String, "estimate": pl.Float64,
              "lo": pl.Float64, "hi": pl.Float64, "reference": pl.Float64}
    parts += [pl.DataFrame(shared, schema=schema), pl.DataFrame(bal, schema=schema)]
    table = pl.concat([p.with_columns([pl.col(c).cast(t) for c, t in schema.items()]) for p in parts])
    games = pl.DataFrame({"variant": list(results.variants),
                          "games": [results.variants[v].games for v in results.variants]})
    table = table.join(games, on="variant", how="left")
    params = list(results.sweep) or ["variant"]
    if results.sweep:
        values = {v: sweep_point(v) for v in results.variants}
        for p in params:
            dt = _dtype(values, p)
            mapping = {v: (str(values[v].get(p)) if dt == pl.String else values[v].get(p)) for v in values}
            table = table.with_columns(pl.col("variant").replace_strict(mapping, return_dtype=dt).alias(p))
    order = {v: i for i, v in enumerate(results.variants)}
    return table.with_columns(pl.col("variant").replace_strict(order, return_dtype=pl.Int32).alias("_order")) \
        .sort(["metric", "group", "_order"]).drop("_order")


def _dtype(values: dict, param: str):
    vals = [v.get(param) for v in values.values()]
    if all(isinstance(x, bool) for x in vals):
        return pl.Boolean
    if all(isinstance(x, int) and not isinstance(x, bool) for x in vals):
        return pl.Int64
    if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in vals):
        return pl.Float64
    return pl.String
