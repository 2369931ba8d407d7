"""Features in play: which values of a game's set-up (tiles, cards, goals in play) shift the outcome?

Why: many games put a random subset of some components into play (four of ten favour tiles,
three of twelve goals). A designer asks which of them change who wins: is a tile strong for
whoever takes it, does it favour one strategy or faction when it is out, does it make games
closer or more lopsided? This module answers that for any game, from the results columns alone.

A game *declares* a feature (``Feature(name, in_play_prefix, held_prefix)``, usually in its
``GAME.report_features``, see ``sim.core.game``):

* the per-game columns starting with ``in_play_prefix`` hold the values in play in a game (the
  column suffixes are slots; the set of the slots' values is what is in play);
* optionally, per-seat columns ``held_prefix + <same suffix>`` > 0 mean that the seat holds the
  value of that slot (0 = not held; any positive code, e.g. 1 = first space, 2 = second).

For each value v (natural order: T2 before T10), per player count (always stratified: a value
may only appear at some player counts), the analysis computes

(a) how many games had v in play and how many not;
(b) per group (the report's grouping: faction, strategy or ``--by``) the win rate in games with v
    in play against games without, the difference with Newcombe's hybrid score interval and the
    pooled two-proportion z-test, Holm-corrected over every (value, player count, group) cell;
(c) if held: the win share of the seats holding v against the other seats of the same games
    (games with v in play), how many games had 0, 1, 2, ... holders, and the mean score of
    holders and non-holders. The seats of one game are not independent (their win shares sum to
    1), so every variance here is the cluster-robust (sandwich) one with games as clusters (the
    same model as the equal-rates test): it equals statsmodels' cluster-robust OLS of
    ``win_share ~ holder`` without small-sample factor. The rates' intervals are Wilson intervals
    at the effective sample size p(1-p)/var; the difference's interval combines them by
    Newcombe's square-and-add with the estimated (clustered) correlation of the two rates; the
    test is the clustered Wald z. Holm over the (value, player count) rows, separately for win
    share and score;
(d) the mean winning margin (winner's score - best other score, 0 if shared) and the mean score
    spread (best - worst score) in games with v in play against games without: Welch interval
    and test, Holm over the rows of each measure.

All passes are lazy polars scans; the per-game pass runs over game-index batches so that memory
stays bounded for millions of games; only per-value sums come back. See docs/analyses.md,
"Features in play".
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import polars as pl
from scipy import stats

from analyses import fmt
from analyses.intervals import (holm, newcombe_unpaired, square_and_add, two_proportion_z, welch_interval, wilson,
                                z_value)
from sim.core.errors import InputError

BATCH_GAMES = 250_000      # games per batch of the per-game pass (bounded memory)


@dataclass(frozen=True)
class Feature:
    """A game's declaration of one kind of component in play (see module doc).

    ``exclude`` lists values to leave out of the analysis (e.g. an empty-slot marker).
    """

    name: str
    in_play_prefix: str
    held_prefix: str | None = None
    exclude: tuple = ()


def as_feature(obj) -> Feature:
    """A Feature from a Feature, a tuple ``(name, in_play_prefix[, held_prefix])`` or a dict."""
    if isinstance(obj, Feature):
        return obj
    if isinstance(obj, dict):
        return Feature(**obj)
    if isinstance(obj, (tuple, list)):
        return Feature(*obj)
    if all(hasattr(obj, a) for a in ("name", "in_play_prefix")):
        return Feature(obj.name, obj.in_play_prefix, getattr(obj, "held_prefix", None),
                       tuple(getattr(obj, "exclude", ()) or ()))
    raise TypeError(f"not a feature declaration: {obj!r}")


def declared_features(game_name: str) -> list[Feature]:
    """The features the game ``game_name`` declares (``GAME.report_features``); [] if none, or
    if the game is not importable here (e.g. synthetic results)."""
    try:
        from sim.core.game import get_game
        game = get_game(game_name)
    except (KeyError, ImportError, AttributeError):
        return []
    return [as_feature(f) for f in (getattr(game, "report_features", None) or ())]


def natural_key(value) -> tuple:
    """Sort key that orders embedded numbers numerically: T2 < T10, FT00 < FT05."""
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", str(value)) if t)


def feature_columns(schema, feature: Feature, source: str = "results") -> tuple[list, list, list | None]:
    """(slots, in-play columns, held columns or None) of ``feature`` in a results schema."""
    names = list(schema)
    held_pre = feature.held_prefix
    in_cols = [c for c in names if c.startswith(feature.in_play_prefix) and len(c) > len(feature.in_play_prefix)
               and not (held_pre and c.startswith(held_pre))]
    if not in_cols:
        raise InputError(source, f"feature {feature.name!r}",
                         f"no columns starting with {feature.in_play_prefix!r} in the results")
    slots = [c[len(feature.in_play_prefix):] for c in in_cols]
    held_cols = None
    if held_pre:
        held_cols = [held_pre + s for s in slots]
        missing = [c for c in held_cols if c not in schema]
        if missing:
            raise InputError(source, f"feature {feature.name!r}",
                             f"held column {missing[0]!r} missing (expected {held_pre}<slot> for every slot "
                             f"{', '.join(slots)})")
    return slots, in_cols, held_cols


@dataclass
class FeatureAnalysis:
    """Tables of one feature over one variant (every table has ``value`` and ``players``)."""

    feature: Feature
    by: str
    level: float
    games: int
    slots: list
    values: pl.DataFrame                  # (a) games with / without each value
    win_rates: pl.DataFrame               # (b) per group: win rate in play vs not
    holders: pl.DataFrame | None          # (c) holders vs non-holders (None without held_prefix)
    holder_counts: pl.DataFrame | None    # (c) games by number of holders
    margins: pl.DataFrame                 # (d) margin / spread with vs without
    methods: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    delta: float | None = None            # set when a verdict page decided the tables (analyses.metrics):
    #                                       then win_rates/holders carry its ``word``, ``significant`` = out

    def flagged(self) -> dict:
        """Significant findings: {'holders': [values], 'win_rates': [(value, group)], 'margins': [...]}."""
        out = {"win_rates": [(r["value"], r[self.by]) for r in
                             self.win_rates.filter(pl.col("significant")).iter_rows(named=True)],
               "margins": [(r["value"], r["measure"]) for r in
                           self.margins.filter(pl.col("significant")).iter_rows(named=True)]}
        if self.holders is not None:
            out["holders"] = self.holders.filter(pl.col("significant"))["value"].unique(maintain_order=True).to_list()
            out["holder_scores"] = (self.holders.filter(pl.col("score_significant"))["value"]
                                    .unique(maintain_order=True).to_list())
        return out


def _in_expr(in_cols: list, v: str) -> pl.Expr:
    return pl.any_horizontal([pl.col(c).cast(pl.String) == v for c in in_cols]).fill_null(False)


def _held_expr(in_cols: list, held_cols: list, v: str) -> pl.Expr:
    return pl.any_horizontal([(pl.col(c).cast(pl.String) == v) & (pl.col(h) > 0)
                              for c, h in zip(in_cols, held_cols)]).fill_null(False)


def _scan_values(lf: pl.LazyFrame, feature: Feature, in_cols: list):
    """Values in play (natural order) and the facts the later passes need, in one pass."""
    per_game = lf.filter(pl.col("seat") == 0)
    vals = (per_game.select([pl.col(c).cast(pl.String) for c in in_cols]).unpivot(value_name="v")
            .select(pl.col("v").drop_nulls().unique()))
    meta = lf.select(gmin=pl.col("game").min(), gmax=pl.col("game").max(),
                     centre=pl.col("score").cast(pl.Float64).mean(), pmax=pl.col("players").max(),
                     games=(pl.col("seat") == 0).sum())
    pairs = [(pl.col(a).cast(pl.String) == pl.col(b).cast(pl.String)).fill_null(False)
             for k, a in enumerate(in_cols) for b in in_cols[k + 1:]]
    dups = per_game.select(repeats=(pl.any_horizontal(pairs) if pairs else pl.lit(False)).sum())
    vals, meta, dups = pl.collect_all([vals, meta, dups])
    meta = {**meta.row(0, named=True), "repeats": int(dups["repeats"][0] or 0)}
    skip = {str(x) for x in feature.exclude} | {""}
    values = sorted((v for v in vals["v"].to_list() if v not in skip), key=natural_key)
    return values, meta


def _group_sums(lf: pl.LazyFrame, by: str, in_cols: list, values: list) -> pl.DataFrame:
    ws = pl.col("win_share").cast(pl.Float64)
    exprs = [pl.len().alias("rows"), ws.sum().alias("wins")]
    for i, v in enumerate(values):
        inv = _in_expr(in_cols, v)
        exprs += [inv.sum().cast(pl.Int64).alias(f"n{i}"), (ws * inv.cast(pl.Float64)).sum().alias(f"w{i}")]
    return lf.group_by(["players", by]).agg(exprs).sort(["players", by]).collect()


def _per_game(lf: pl.LazyFrame, in_cols: list, held_cols: list | None, values: list, centre: float,
              by_slot: bool = True) -> pl.LazyFrame:
    """One row per game: players, margin, spread, totals and, per value i, in_i (and holders' sums).

    The values in play come from each game's seat-0 row (joined), the rest from one aggregation
    of elementwise expressions (polars' fast path). ``by_slot``: holders' sums are taken per slot
    and given to the slot's value; exact unless a value fills two slots of one game (then the
    sums are taken per value and row: exact, slower)."""
    keys = ["variant", "game"]
    S = len(in_cols)
    winner = pl.col("rank") == 1
    ws = pl.col("win_share").cast(pl.Float64)
    sc = pl.col("score").cast(pl.Float64) - centre
    aggs = [pl.col("players").first().cast(pl.Int64).alias("players"),
            pl.when(winner).then(sc).max().alias("_top"), pl.when(~winner).then(sc).max().alias("_second"),
            winner.sum().alias("_win"), (sc.max() - sc.min()).alias("spread"),
            ws.sum().alias("W"), sc.sum().alias("S"), pl.len().cast(pl.Float64).alias("P")]
    derived = []
    if held_cols and by_slot:
        for k, hc in enumerate(held_cols):
            h = (pl.col(hc) > 0).fill_null(False).cast(pl.Float64)
            aggs += [h.sum().alias(f"_nh{k}"), (ws * h).sum().alias(f"_wh{k}"), (sc * h).sum().alias(f"_sh{k}")]
        for i, v in enumerate(values):
            eq = [(pl.col(f"_slot{k}") == v).fill_null(False).cast(pl.Float64) for k in range(S)]
            derived += [pl.sum_horizontal([e * pl.col(f"_{q}{k}") for k, e in enumerate(eq)]).alias(f"{q}{i}")
                        for q in ("nh", "wh", "sh")]
    elif held_cols:
        for i, v in enumerate(values):
            h = _held_expr(in_cols, held_cols, v).cast(pl.Float64)
            aggs += [h.sum().alias(f"nh{i}"), (ws * h).sum().alias(f"wh{i}"), (sc * h).sum().alias(f"sh{i}")]
    slots = lf.filter(pl.col("seat") == 0).select(*keys, *[pl.col(c).cast(pl.String).alias(f"_slot{k}")
                                                           for k, c in enumerate(in_cols)])
    g = lf.group_by(keys).agg(aggs).join(slots, on=keys, how="left")
    margin = (pl.when(pl.col("_win") > 1).then(0.0)
              .otherwise(pl.col("_top") - pl.col("_second")).fill_null(0.0))
    ins = [pl.any_horizontal([pl.col(f"_slot{k}") == v for k in range(S)]).fill_null(False).cast(pl.Float64)
           .alias(f"in{i}") for i, v in enumerate(values)]
    return g.with_columns(margin.alias("margin"), *ins, *derived)


def _game_sums(g: pl.LazyFrame, values: list, held: bool, pmax: int) -> pl.LazyFrame:
    """Sums (per player count) over games of everything the tables need: first and second moments."""
    col = pl.col
    exprs = [pl.len().cast(pl.Float64).alias("G")]
    for m in ("margin", "spread"):
        exprs += [col(m).sum().alias(f"{m}_s"), (col(m) ** 2).sum().alias(f"{m}_ss")]
    for i in range(len(values)):
        inn = col(f"in{i}")
        exprs += [inn.sum().alias(f"G{i}")]
        for m in ("margin", "spread"):
            exprs += [(inn * col(m)).sum().alias(f"{m}_s{i}"), (inn * col(m) ** 2).sum().alias(f"{m}_ss{i}")]
        if not held:
            continue
        nh, wh, sh = col(f"nh{i}"), col(f"wh{i}"), col(f"sh{i}")
        no, wo, so = inn * (col("P") - nh), inn * (col("W") - wh), inn * (col("S") - sh)
        parts = {"nh": nh, "wh": wh, "sh": sh, "no": no, "wo": wo, "so": so}
        for k, e in parts.items():
            exprs.append(e.sum().alias(f"{k}{i}"))
        for a, b in (("wh", "wh"), ("wh", "nh"), ("nh", "nh"), ("wo", "wo"), ("wo", "no"), ("no", "no"),
                     ("wh", "wo"), ("wh", "no"), ("nh", "wo"), ("nh", "no"),
                     ("sh", "sh"), ("sh", "nh"), ("so", "so"), ("so", "no"), ("sh", "so"), ("sh", "no"), ("nh", "so")):
            exprs.append((parts[a] * parts[b]).sum().alias(f"{a}_{b}{i}"))
        for k in range(pmax + 1):
            exprs.append((inn * (nh == k).cast(pl.Float64)).sum().alias(f"held{k}_{i}"))
    return g.group_by("players").agg(exprs)


def _collect_game_sums(lf, in_cols, held_cols, values, meta, batch_games) -> pl.DataFrame:
    parts = []
    lo, hi = int(meta["gmin"]), int(meta["gmax"])
    for start in range(lo, hi + 1, batch_games):
        part = lf.filter(pl.col("game").is_between(start, start + batch_games - 1))
        g = _per_game(part, in_cols, held_cols, values, float(meta["centre"]), by_slot=meta["repeats"] == 0)
        parts.append(_game_sums(g, values, held_cols is not None, int(meta["pmax"])).collect())
    df = pl.concat(parts)
    return df.group_by("players").agg(pl.all().exclude("players").sum()).sort("players")


def _finish(df: pl.DataFrame, level: float, p: np.ndarray, prefix: str = "") -> pl.DataFrame:
    p_holm = holm(p)
    return df.with_columns(pl.Series(f"{prefix}p", p), pl.Series(f"{prefix}p_holm", p_holm),
                           pl.Series(f"{prefix}significant", np.nan_to_num(p_holm, nan=1.0) < 1 - level))


def _win_rate_table(sums: pl.DataFrame, by: str, values: list, level: float) -> pl.DataFrame:
    rows = []
    for i, v in enumerate(values):
        rows.append(sums.select(pl.lit(v).alias("value"), "players", by,
                                pl.col(f"n{i}").alias("rows_in"), pl.col(f"w{i}").alias("wins_in"),
                                (pl.col("rows") - pl.col(f"n{i}")).alias("rows_out"),
                                (pl.col("wins") - pl.col(f"w{i}")).alias("wins_out")))
    df = pl.concat(rows) if rows else pl.DataFrame()
    if not rows:
        return df
    n1, x1 = df["rows_in"].to_numpy().astype(float), df["wins_in"].to_numpy()
    n0, x0 = df["rows_out"].to_numpy().astype(float), df["wins_out"].to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        r1, r0 = x1 / n1, x0 / n0
    l1, u1 = wilson(x1, n1, level)
    l0, u0 = wilson(x0, n0, level)
    lo, hi = newcombe_unpaired(x1, n1, x0, n0, level)
    z, p = two_proportion_z(x1, n1, x0, n0)
    p = np.where((n1 > 0) & (n0 > 0), p, np.nan)
    df = df.with_columns(rate_in=pl.Series(r1), lo_in=pl.Series(l1), hi_in=pl.Series(u1),
                         rate_out=pl.Series(r0), lo_out=pl.Series(l0), hi_out=pl.Series(u0),
                         diff=pl.Series(r1 - r0), lo=pl.Series(lo), hi=pl.Series(hi), z=pl.Series(z))
    return _finish(df, level, p)


def _col(sums: pl.DataFrame, name: str) -> np.ndarray:
    return sums[name].to_numpy().astype(float)


def _clustered(sums, i, y, n_h, n_o):
    """Ratio means of holders (h) and others (o) for quantity y ('w' or 's'), and their
    cluster-robust variances and covariance (games as clusters, delta method = OLS sandwich)."""
    c = lambda k: _col(sums, f"{k}{i}")  # noqa: E731
    with np.errstate(invalid="ignore", divide="ignore"):
        mh, mo = c(f"{y}h") / n_h, c(f"{y}o") / n_o
        rhh = c(f"{y}h_{y}h") - 2 * mh * c(f"{y}h_nh") + mh ** 2 * c("nh_nh")
        roo = c(f"{y}o_{y}o") - 2 * mo * c(f"{y}o_no") + mo ** 2 * c("no_no")
        rho = c(f"{y}h_{y}o") - mo * c(f"{y}h_no") - mh * c(f"nh_{y}o") + mh * mo * c("nh_no")
        vh, vo, cov = np.maximum(rhh, 0) / n_h ** 2, np.maximum(roo, 0) / n_o ** 2, rho / (n_h * n_o)
    return mh, mo, vh, vo, cov


def _eff_wilson(m, v, n, level):
    """Wilson interval at the effective sample size m(1-m)/v (design effect of clustering)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        n_eff = np.where((v > 0) & (m > 0) & (m < 1), m * (1 - m) / v, n)
    return wilson(m * n_eff, n_eff, level)


def _holder_tables(sums: pl.DataFrame, values: list, level: float, centre: float, pmax: int):
    rows, counts = [], []
    players = sums["players"].to_list()
    z_lv = z_value(level)
    for i, v in enumerate(values):
        n_h, n_o = _col(sums, f"nh{i}"), _col(sums, f"no{i}")
        g_in = _col(sums, f"G{i}")
        mh, mo, vh, vo, cov = _clustered(sums, i, "w", n_h, n_o)
        lh, uh = _eff_wilson(mh, vh, n_h, level)
        lo_o, uo = _eff_wilson(mo, vo, n_o, level)
        with np.errstate(invalid="ignore", divide="ignore"):
            corr = np.clip(np.where((vh > 0) & (vo > 0), cov / np.sqrt(vh * vo), 0.0), -1, 1)
            var = np.maximum(vh + vo - 2 * cov, 0)
            z = (mh - mo) / np.sqrt(var)
        dlo, dhi = square_and_add(mh, lh, uh, mo, lo_o, uo, corr)
        smh, smo, svh, svo, scov = _clustered(sums, i, "s", n_h, n_o)
        with np.errstate(invalid="ignore", divide="ignore"):
            sse = np.sqrt(np.maximum(svh + svo - 2 * scov, 0))
            sz = (smh - smo) / sse
        held0 = _col(sums, f"held0_{i}")
        for j, p in enumerate(players):
            ok = n_h[j] > 0 and n_o[j] > 0
            rows.append({"value": v, "players": p, "games": int(g_in[j]), "held_games": int(g_in[j] - held0[j]),
                         "held_share": (g_in[j] - held0[j]) / g_in[j] if g_in[j] else float("nan"),
                         "holder_rows": int(n_h[j]), "holder_rate": mh[j], "holder_lo": lh[j], "holder_hi": uh[j],
                         "other_rows": int(n_o[j]), "other_rate": mo[j], "other_lo": lo_o[j], "other_hi": uo[j],
                         "diff": mh[j] - mo[j], "lo": dlo[j], "hi": dhi[j], "corr": corr[j], "z": z[j],
                         "_p": 2 * stats.norm.sf(abs(z[j])) if ok and np.isfinite(z[j]) else float("nan"),
                         "score_holder": smh[j] + centre, "score_other": smo[j] + centre,
                         "score_diff": smh[j] - smo[j], "score_lo": smh[j] - smo[j] - z_lv * sse[j],
                         "score_hi": smh[j] - smo[j] + z_lv * sse[j],
                         "_sp": 2 * stats.norm.sf(abs(sz[j])) if ok and np.isfinite(sz[j]) else float("nan")})
            for k in range(pmax + 1):
                games = _col(sums, f"held{k}_{i}")[j]
                if games or k <= 2:
                    counts.append({"value": v, "players": p, "holders": k, "games": int(games),
                                   "share": games / g_in[j] if g_in[j] else float("nan")})
    df = pl.DataFrame(rows, schema_overrides={"players": pl.Int64}, infer_schema_length=None)
    p, sp = df["_p"].to_numpy(), df["_sp"].to_numpy()
    df = _finish(df.drop("_p", "_sp"), level, p)
    df = _finish(df, level, sp, "score_")
    return df, pl.DataFrame(counts, schema_overrides={"players": pl.Int64})


def _margin_table(sums: pl.DataFrame, values: list, level: float) -> pl.DataFrame:
    frames = []
    players = sums["players"].to_list()
    for measure in ("margin", "spread"):
        rows = []
        for i, v in enumerate(values):
            n1 = _col(sums, f"G{i}")
            n0 = _col(sums, "G") - n1
            s1, ss1 = _col(sums, f"{measure}_s{i}"), _col(sums, f"{measure}_ss{i}")
            s0, ss0 = _col(sums, f"{measure}_s") - s1, _col(sums, f"{measure}_ss") - ss1
            with np.errstate(invalid="ignore", divide="ignore"):
                m1, m0 = s1 / n1, s0 / n0
                sd1 = np.sqrt(np.maximum(ss1 - n1 * m1 ** 2, 0) / (n1 - 1))
                sd0 = np.sqrt(np.maximum(ss0 - n0 * m0 ** 2, 0) / (n0 - 1))
            lo, hi, _df = welch_interval(m1, sd1, n1, m0, sd0, n0, level)
            for j, p in enumerate(players):
                ok = n1[j] > 1 and n0[j] > 1 and (sd1[j] > 0 or sd0[j] > 0)
                pv = (float(stats.ttest_ind_from_stats(m1[j], sd1[j], n1[j], m0[j], sd0[j], n0[j],
                                                       equal_var=False).pvalue) if ok else float("nan"))
                rows.append({"value": v, "players": p, "measure": measure, "games_in": int(n1[j]),
                             "mean_in": m1[j], "games_out": int(n0[j]), "mean_out": m0[j], "diff": m1[j] - m0[j],
                             "lo": lo[j], "hi": hi[j], "_p": pv})
        df = pl.DataFrame(rows, schema_overrides={"players": pl.Int64})
        frames.append(_finish(df.drop("_p"), level, df["_p"].to_numpy()))
    return pl.concat(frames)


def analyse_feature(lf: pl.LazyFrame, feature: Feature, by: str | None = None, level: float = 0.95,
                    batch_games: int = BATCH_GAMES, source: str = "results") -> FeatureAnalysis:
    """All tables (a)-(d) of one feature over one variant's rows (see module doc)."""
    from analyses.balance import default_group

    feature = as_feature(feature)
    schema = lf.collect_schema()
    slots, in_cols, held_cols = feature_columns(schema, feature, source)
    by = by or default_group(lf)
    if by not in schema:
        raise InputError(source, f"column {by!r}", "no such column in the results (--by)")
    values, meta = _scan_values(lf, feature, in_cols)
    if not values:
        raise InputError(source, f"feature {feature.name!r}", "no values in play in any game")
    group = _group_sums(lf, by, in_cols, values)
    sums = _collect_game_sums(lf, in_cols, held_cols, values, meta, batch_games)
    players = sums["players"].to_list()
    g_tot = _col(sums, "G")
    vt = []
    for i, v in enumerate(values):
        g_in = _col(sums, f"G{i}")
        for j, p in enumerate(players):
            vt.append({"value": v, "players": p, "games": int(g_tot[j]), "games_in": int(g_in[j]),
                       "games_out": int(g_tot[j] - g_in[j]), "share_in": g_in[j] / g_tot[j]})
    value_table = pl.DataFrame(vt, schema_overrides={"players": pl.Int64})
    group = group.with_columns(pl.col("players").cast(pl.Int64))
    win_rates = _win_rate_table(group, by, values, level)
    holders = counts = None
    if held_cols:
        holders, counts = _holder_tables(sums, values, level, float(meta["centre"]), int(meta["pmax"]))
    margins = _margin_table(sums, values, level)
    lv = int(round(level * 100))
    methods = [f"win rate by {by}, value in play vs not: Newcombe hybrid score interval, pooled two-proportion "
               f"z-test; Holm over all {win_rates.height} (value, players, {by}) cells"]
    if held_cols:
        methods.append("holders vs non-holders (games with the value in play): game-clustered (sandwich) variances; "
                       "Wilson intervals at the effective size, Newcombe square-and-add with the clustered "
                       f"correlation, clustered Wald z; Holm over the {holders.height} rows, separately for win "
                       "share and score")
    methods.append("margin and spread, games with vs without: Welch interval and t-test; Holm over the rows of "
                   f"each measure; {lv}% level")
    notes = []
    if len(players) > 1:
        notes.append(f"player counts {', '.join(map(str, players))} analysed separately (a value may be in play "
                     "more often at some counts)")
    if win_rates.height and (win_rates["rows_in"] + win_rates["rows_out"]).max() > int(meta["games"]):
        notes.append(f"some {by} values appear more than once per game; their win-rate intervals are conservative")
    return FeatureAnalysis(feature, by, level, int(meta["games"]), slots, value_table, win_rates, holders, counts,
                           margins, methods, notes)


def analyse_features(results, variant: str, features=None, by: str | None = None, level: float = 0.95):
    """Analyses of every feature (default: those the results' game declares) for one variant.

    Returns (list of FeatureAnalysis, notes); a declared feature whose columns are not in the
    results becomes a note instead of an error (old results of a game that now declares it).
    """
    features = declared_features(results.game_name) if features is None else [as_feature(f) for f in features]
    out, notes = [], []
    lf = results.scan(variant)
    for f in features:
        try:
            out.append(analyse_feature(lf, f, by, level, source=f"{results.label}:{variant}"))
        except InputError as err:
            notes.append(f"feature {f.name!r} not analysed: {err}")
    return out, notes


def _pct(x) -> str:
    return "    -" if x is None or x != x else f"{100 * x:5.1f}"


def _pp(x) -> str:
    return "    -" if x is None or x != x else f"{100 * x:+6.1f}"


def _ph(p) -> str:
    return f"{fmt.p_value(p):>7}"


def _ci(x, lo, hi, signed: bool = False) -> str:
    """A rate and its interval in percent (percentage points when signed): 32.7 [31.1, 34.4]."""
    if x is None or x != x:
        return fmt.NA
    f = fmt.signed if signed else fmt.number
    return f"{f(x, 1, 100)} [{f(lo, 1, 100)}, {f(hi, 1, 100)}]"


MARKS = {"out of balance": "[OUT]", "balanced": "[ OK]", "undecided": "[ ? ]"}    # as the verdict page's text


def _label(value, players, multi: bool) -> str:
    return f"{value} ({players}p)" if multi else str(value)


def _page_verdict(fa: FeatureAnalysis) -> str:
    """The verdict page's words about this feature's lines (win rates in play, holders)."""
    d = fmt.number(fa.delta, 1, 100)
    multi = fa.values["players"].n_unique() > 1
    tables = [("in play", fa.win_rates)] + ([("holders", fa.holders)] if fa.holders is not None else [])
    words = pl.concat([t.select("word") for _, t in tables])["word"]
    out = [f"{_label(r['value'], r['players'], multi)} " + (f"in play: {r[fa.by]}" if what == "in play" else "holders")
           + f" {fmt.signed(r['diff'], 1, 100)} pp" for what, t in tables
           for r in t.filter(pl.col("significant")).iter_rows(named=True)]
    counts = (f"{(words == 'balanced').sum()} balanced within ±{d} pp, {(words == 'undecided').sum()} undecided, "
              f"of {(words != '').sum()} lines on the verdict page; one family with the rest of the page")
    if not out:
        return f"No {fa.feature.name} value out of balance by more than {d} pp; {counts}."
    return f"{fa.feature.name} out of balance by more than {d} pp: " + "; ".join(out) + f" ({counts})."


def verdict(fa: FeatureAnalysis) -> str:
    """One line: which values shift the outcome, in the verdict page's words when a page
    decided the feature, else after this analysis' own Holm families."""
    if fa.delta is not None:
        return _page_verdict(fa)
    parts = []
    multi = fa.values["players"].n_unique() > 1
    if fa.holders is not None:
        for r in fa.holders.filter(pl.col("significant")).iter_rows(named=True):
            parts.append(f"{_label(r['value'], r['players'], multi)}: holders {fmt.signed(r['diff'], 1, 100)} pp")
    for r in fa.win_rates.filter(pl.col("significant")).iter_rows(named=True):
        parts.append(f"{_label(r['value'], r['players'], multi)} in play: {r[fa.by]} {fmt.signed(r['diff'], 1, 100)} pp")
    for r in fa.margins.filter(pl.col("significant")).iter_rows(named=True):
        parts.append(f"{_label(r['value'], r['players'], multi)} in play: {r['measure']} {fmt.signed(r['diff'], 1)} points")
    if not parts:
        return (f"No {fa.feature.name} value shifts win rates, holders' win share or margins significantly "
                f"(Holm, {int(round(fa.level * 100))}% level, {fa.games:,} games).")
    return f"{fa.feature.name} values that shift the outcome (Holm-significant): " + "; ".join(parts)


def format_feature(fa: FeatureAnalysis) -> list[str]:
    """The feature's tables as text lines (a report page; printed by ``summary``)."""
    multi = fa.values["players"].n_unique() > 1
    values = fa.values["value"].unique(maintain_order=True).to_list()
    lines = [f"FEATURE {fa.feature.name.upper()}  (columns {fa.feature.in_play_prefix}<slot>"
             + (f", held: {fa.feature.held_prefix}<slot>" if fa.feature.held_prefix else "")
             + f"; slots {', '.join(fa.slots)}; {len(values)} values; {fa.games:,} games)", verdict(fa), ""]
    w = max([len(_label(v, p, multi)) for v, p in fa.values.select("value", "players").iter_rows()] + [6]) + 2
    page = fa.delta is not None           # stars: the verdict page's "out of balance"; else this table's Holm
    if page:
        lines += [f"* = out of balance by more than {fmt.number(fa.delta, 1, 100)} pp on the verdict page (one "
                  "family: the whole page); points (scores, margins) are not on the page: their p Holm is within "
                  "their own table and carries no star", ""]
    other_star = (lambda flag: "  ") if page else (lambda flag: " *" if flag else "  ")
    if fa.holders is not None:
        kmax = int(fa.holder_counts["holders"].max()) if fa.holder_counts.height else 2
        lines.append("HOLDERS vs NON-HOLDERS in games with the value in play: win share % (ties split) with intervals, "
                     "difference in pp; mean score (points)")
        lines.append(f"{'value':<{w}}{'in play':>12}  {'held by':<10}{'holders':<18}{'others':<18}"
                     f"{'holders - others':<21}"
                     f"{'verdict' if page else 'p Holm':>7}  {'score h':>7}{'o':>6}{'diff':>6}{'p Holm':>13}")
        lines.append(f"{'':<{w}}{'':>12}  {'0/1/2.. %':<10}")
        hc = {(r["value"], r["players"], r["holders"]): r["share"] for r in fa.holder_counts.iter_rows(named=True)}
        for r in fa.holders.iter_rows(named=True):
            share = [hc.get((r["value"], r["players"], k), 0.0) for k in range(kmax + 1)]
            held = "/".join(f"{100 * s:.0f}" for s in share)
            vt = fa.values.filter((pl.col("value") == r["value"]) & (pl.col("players") == r["players"]))
            lines.append(f"{_label(r['value'], r['players'], multi):<{w}}{r['games']:>7,} "
                         f"{100 * vt['share_in'][0]:>3.0f}%  "
                         f"{held:<10}{_ci(r['holder_rate'], r['holder_lo'], r['holder_hi']):<18}"
                         f"{_ci(r['other_rate'], r['other_lo'], r['other_hi']):<18}"
                         f"{_ci(r['diff'], r['lo'], r['hi'], True):<21}"
                         f"{(MARKS.get(r['word'], fmt.NA) if page else _ph(r['p_holm'])):>7}"
                         f"{' *' if r['significant'] else '  '}{r['score_holder']:>7.1f}{r['score_other']:>6.1f}"
                         f"{fmt.signed(r['score_diff'], 1):>6}{fmt.p_value(r['score_p_holm']):>13}"
                         f"{other_star(r['score_significant'])}")
        lines.append("")
    groups = fa.win_rates[fa.by].unique(maintain_order=True).to_list() if fa.win_rates.height else []
    lines.append(f"WIN RATE BY {fa.by.upper()}: in play minus not in play (pp; * = "
                 + ("out of balance on the verdict page)" if page else
                    f"Holm-significant over all {fa.win_rates.height} cells)"))
    gw = max([len(str(g)) for g in groups] + [7]) + 2
    lines.append(f"{'value':<{w}}{'games in':>9}" + "".join(f"{str(g)[:gw - 1]:>{gw}}" for g in groups))
    cells = {(r["value"], r["players"], r[fa.by]): r for r in fa.win_rates.iter_rows(named=True)}
    for r in fa.values.iter_rows(named=True):
        line = f"{_label(r['value'], r['players'], multi):<{w}}{r['games_in']:>9,}"
        for g in groups:
            c = cells.get((r["value"], r["players"], g))
            txt = ("-" if c is None or c["diff"] != c["diff"]
                   else f"{fmt.signed(c['diff'], 1, 100)}{'*' if c['significant'] else ' '}")
            line += f"{txt:>{gw}}"
        lines.append(line)
    lines.append("")
    lines.append("MARGIN OF VICTORY and SCORE SPREAD: games with the value in play minus without (points)")
    lines.append(f"{'value':<{w}}{'margin in':>10}{'out':>7}{'diff':>7} {'interval':<16}{'p Holm':>7}  "
                 f"{'spread in':>10}{'out':>7}{'diff':>7} {'interval':<16}{'p Holm':>7}")
    mt = {(r["value"], r["players"], r["measure"]): r for r in fa.margins.iter_rows(named=True)}
    for r in fa.values.iter_rows(named=True):
        line = f"{_label(r['value'], r['players'], multi):<{w}}"
        for m in ("margin", "spread"):
            c = mt[(r["value"], r["players"], m)]
            line += (f"{fmt.number(c['mean_in']):>10}{fmt.number(c['mean_out']):>7}{fmt.signed(c['diff']):>7} "
                     f"[{fmt.signed(c['lo']):>6},{fmt.signed(c['hi']):>6}]"
                     f"{_ph(c['p_holm']):>7}{other_star(c['significant'])}")
        lines.append(line)
    lines.append("")
    lines += [f"method: {m}" for m in fa.methods] + [f"note: {n}" for n in fa.notes]
    lines.append("note: with k of n values in play per game, 'in play vs not' compares a value with the average of "
                 "the others: one strong value makes every other value look weaker by about 1/(n-1) of its effect")
    return lines
