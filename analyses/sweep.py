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
    return _with_params(results, table)


def _dtype(values: dict, param: str):
    vals = [v.get(param) for v in values.values()]
    if all(isinstance(x, bool) for x in vals):
        return pl.Boolean
    if all(isinstance(x, int) and not isinstance(x, bool) for x in vals):
        return pl.Int64
    if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in vals):
        return pl.Float64
    return pl.String


def reference_point(results: Results) -> tuple[str, bool]:
    """(variant, is the default): the point the paired differences are measured from.

    A sweep's reference is the point at the rules' default value of every swept parameter (the
    game's ``Config`` defaults, e.g. Red Rising's 10-point Sovereign token); when the sweep does
    not contain it (or the game has no such defaults), the first point; for named variants,
    ``base`` when there is one, else the one whose resolved config (the manifest's) has the
    rules' default wherever the variants differ, else the first variant.
    """
    names = list(results.variants)
    defaults = _config_defaults(results.game_name)
    if not results.sweep:
        if "base" in names:
            return "base", True
        configs = {v: ((results.manifest or {}).get("variants", {}).get(v) or {}).get("config", {}) for v in names}
        keys = {k for c in configs.values() for k in c if len({repr(x.get(k)) for x in configs.values()}) > 1}
        hits = [v for v in names if keys and all(k in defaults and configs[v].get(k) == _plain(defaults[k]) for k in keys)]
        return (hits[0], True) if len(hits) == 1 else (names[0], False)
    want = {p: defaults.get(p) for p in results.sweep}
    for v in names:
        if sweep_point(v) == want:
            return v, True
    return names[0], False


def _plain(value):
    """A config default as the manifest's JSON holds it (tuples as lists)."""
    return list(value) if isinstance(value, tuple) else value


def _config_defaults(game_name: str) -> dict:
    import dataclasses
    from sim.core.game import get_game
    try:
        config = get_game(game_name).Config
    except Exception:                    # noqa: BLE001 - an unregistered game (synthetic results): no defaults
        return {}
    return {f.name: f.default for f in dataclasses.fields(config) if f.default is not dataclasses.MISSING}


def paired_sweep_table(results: Results, by: str, reference: str, level: float = 0.95) -> pl.DataFrame:
    """Long table of each point minus the reference point: variant, the sweep parameters,
    metric, group, diff, lo, hi, paired.

    The points of a sweep share seed and game indices, so game g of one point is paired with
    game g of the reference (common random numbers, ``analyses.compare``): the differences are
    far sharper than the two curves' own bands suggest. Metrics: ``win rate`` and ``score`` per
    ``by`` value (``compare.compare``: McNemar / paired t, Newcombe's interval), ``first player
    win rate`` per player count, ``rounds`` and ``shared wins`` (per-game paired t). The reference
    itself is a row of zeros. Without pairing (different seeds) the same tests run unpaired. A
    point of other player counts than the reference's (a ``players`` sweep) plays other games:
    ``compare`` refuses it, and it has no rows here (its level is still drawn).
    """
    from analyses.compare import Side, compare

    ref = Side(results, reference)
    counts = set(results.variants[reference].players)
    rows = []
    for v in results.variants:
        if v == reference or set(results.variants[v].players) != counts:
            continue
        c = compare(ref, Side(results, v), by, level=level)
        for metric, t in (("win rate", c.wins), ("score", c.scores)):
            rows += [{"variant": v, "metric": metric, "group": str(r[by]), "diff": r["diff"], "lo": r["lo"],
                      "hi": r["hi"], "paired": c.paired} for r in t.iter_rows(named=True)]
        for measure, metric in (("rounds", "rounds"), ("shared_win", "shared wins")):
            r = c.length.filter(pl.col("measure") == measure).row(0, named=True)
            rows.append({"variant": v, "metric": metric, "group": "all", "diff": r["diff"], "lo": r["lo"],
                         "hi": r["hi"], "paired": c.paired})
        rows += _first_player_diff(ref, Side(results, v), c.paired, level)
    schema = {"variant": pl.String, "metric": pl.String, "group": pl.String, "diff": pl.Float64,
              "lo": pl.Float64, "hi": pl.Float64, "paired": pl.Boolean}
    table = pl.DataFrame(rows, schema=schema)
    zeros = table.select("metric", "group").unique(maintain_order=True).with_columns(
        variant=pl.lit(reference), diff=pl.lit(0.0), lo=pl.lit(0.0), hi=pl.lit(0.0), paired=pl.lit(True))
    table = pl.concat([table, zeros.select(list(schema))])
    return _with_params(results, table)


def _first_player_diff(a, b, paired: bool, level: float) -> list:
    """Seat 0's win share, B - A, per player count: paired t on the same games, else Welch."""
    from analyses.intervals import welch_interval

    sa = a.lf.filter(pl.col("seat") == 0).select("game", "players", "win_share")
    sb = b.lf.filter(pl.col("seat") == 0).select("game", "players", "win_share")
    out = []
    if paired:
        d = sa.join(sb, on=["game", "players"], suffix="_b").group_by("players").agg(
            n=pl.len(), mean=(pl.col("win_share_b") - pl.col("win_share")).mean(),
            sd=(pl.col("win_share_b") - pl.col("win_share")).std()).sort("players").collect()
        lo, hi = t_interval(d["mean"].to_numpy(), d["sd"].fill_null(0).to_numpy(), d["n"].to_numpy(), level)
        for r, l, h in zip(d.iter_rows(named=True), lo, hi):
            out.append((r["players"], r["mean"], float(l), float(h)))
    else:
        stats_ = [x.group_by("players").agg(n=pl.len(), m=pl.col("win_share").mean(), s=pl.col("win_share").std())
                  .collect() for x in (sa, sb)]
        j = stats_[0].join(stats_[1], on="players", suffix="_b").sort("players")
        for r in j.iter_rows(named=True):
            l, h, _ = welch_interval(r["m_b"], r["s_b"], r["n_b"], r["m"], r["s"], r["n"], level)
            out.append((r["players"], r["m_b"] - r["m"], float(l), float(h)))
    return [{"variant": b.variant, "metric": "first player win rate", "group": f"{p} players", "diff": m,
             "lo": lo, "hi": hi, "paired": paired} for p, m, lo, hi in out]


def _with_params(results: Results, table: pl.DataFrame) -> pl.DataFrame:
    """Add one column per sweep parameter (or keep ``variant``), in the experiment's point order."""
    if results.sweep:
        values = {v: sweep_point(v) for v in results.variants}
        for p in results.sweep:
            dt = _dtype(values, p)
            mapping = {v: (str(values[v].get(p)) if dt == pl.String else values[v].get(p)) for v in values}
            table = table.with_columns(pl.col("variant").replace_strict(mapping, return_dtype=dt).alias(p))
    order = {v: i for i, v in enumerate(results.variants)}
    return table.with_columns(pl.col("variant").replace_strict(order, return_dtype=pl.Int32).alias("_order")) \
        .sort(["metric", "group", "_order"]).drop("_order")
