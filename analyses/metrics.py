"""All metrics of one variant in one call: what a report draws and what ``make bench`` times.

Why a single entry point: the report, the ``summary`` command and the benchmark must compute
the same things the same way; each metric stays a small function in its own module, this
module only decides which ones a full pass runs (and with which grouping).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from analyses import balance, features as features_mod, holdings, ratings, scores, verdicts, winrates
from analyses.load import Results


@dataclass
class Metrics:
    """Every table of one variant; ``by`` is the main grouping (faction, strategy or seat)."""

    experiment: str
    variant: str
    game_name: str
    config_hash: str
    games: int
    by: str
    level: float
    summary: balance.BalanceSummary
    by_seat: pl.DataFrame                 # win rate by players x seat
    cross: pl.DataFrame | None            # win rate by `by` x seat (None when by is seat)
    strategies: pl.DataFrame | None       # win rate by strategy when by is not strategy
    scores: pl.DataFrame                  # score summary by `by`
    components: list
    score_counts: pl.DataFrame
    margin: pl.DataFrame
    length_counts: pl.DataFrame
    end_reasons: pl.DataFrame
    ratings: pl.DataFrame | None
    rating_entity: str | None
    features: list = field(default_factory=list)   # features.FeatureAnalysis per feature the game declares
    page: verdicts.VerdictPage | None = None        # the verdict page: every question, one family
    ludii: pl.DataFrame | None = None               # Ludii's Balance over seats per player count
    by_strategy: pl.DataFrame | None = None         # win rate by `by` x strategy, when both vary
    held: list = field(default_factory=list)        # holdings.HeldAnalysis per held content the game declares
    by_players: pl.DataFrame | None = None          # win rate by `by` x players, when the player count varies


def _n_unique(lf: pl.LazyFrame, col: str) -> int:
    return int(lf.select(pl.col(col).n_unique()).collect().item())


def _mark(table: pl.DataFrame | None, key: pl.Expr, words: dict) -> pl.DataFrame | None:
    """Set ``significant`` of a detail table to its line's page verdict (out of balance), so a
    star or a colour means the same thing on every page (one family, not one per table)."""
    if table is None:
        return None
    keys = table.select(key.alias("_k"))["_k"].to_list()
    return table.with_columns(significant=pl.Series([words.get(k) == verdicts.OUT for k in keys]))


def verdict_page(m: "Metrics", lf: pl.LazyFrame, min_edge: float, synthetic: bool) -> verdicts.VerdictPage:
    """The verdict page of a variant; marks the detail tables with its words."""
    lines = verdicts.page_lines(m.by, m.summary.rates, m.by_seat, m.strategies, m.features, m.level)
    page = verdicts.decide_page(lines, m.games, min_edge, 1 - m.level, m.summary.fair, m.summary.appearances)
    page.confounds = verdicts.confounds(lf, m.by)
    page.assumptions = verdicts.assumptions(lf, synthetic)
    words = {(ln.question, ln.group): ln.word for ln in page.lines}
    m.summary.rates = _mark(m.summary.rates, pl.concat_str(pl.lit(m.by + "\t"), pl.col(m.by).cast(pl.String)),
                            {f"{q}\t{g}": w for (q, g), w in words.items()})
    m.by_seat = _mark(m.by_seat, pl.format("seat ({} players)\tseat {}", "players", pl.col("seat") + 1),
                      {f"{q}\t{g}": w for (q, g), w in words.items()})
    m.strategies = _mark(m.strategies, pl.concat_str(pl.lit("strategy\t"), pl.col("strategy")),
                         {f"{q}\t{g}": w for (q, g), w in words.items()})
    m.summary.first_player = m.by_seat.filter(pl.col("seat") == 0)
    for fa in m.features:
        for question, table, label in verdicts.feature_questions(fa):
            t = getattr(fa, table)
            w = [words.get((question, label(r)), "") for r in t.iter_rows(named=True)]
            setattr(fa, table, t.with_columns(word=pl.Series(w, dtype=pl.String),
                                              significant=pl.Series([x == verdicts.OUT for x in w])))
        fa.delta = min_edge
    return page


def compute(results: Results, variant: str, by: str | None = None, level: float = 0.95,
            with_ratings: bool = True, features=None, min_edge: float = verdicts.MIN_EDGE) -> Metrics:
    """Run every metric over one variant's shards (lazy scans; only small tables come back).

    ``features``: the features in play to analyse (``analyses.features.Feature``); None = those
    the results' game declares (``GAME.report_features``), [] = none. ``min_edge``: the smallest
    edge (win rate) that matters, the δ of the verdicts.
    """
    lf = results.scan(variant)
    by = by or balance.default_group(lf)
    if by not in lf.collect_schema():
        from sim.core.errors import InputError
        raise InputError(results.source, f"column {by!r}", "no such column in the results (--by)")
    summary = balance.balance_summary(lf, by, level)
    by_seat = winrates.seat_advantage(lf, level)
    cross = winrates.win_rates(lf, [by, "seat"], level) if by != "seat" else None
    strategies = None
    if by != "strategy" and _n_unique(lf, "strategy") > 1:
        strategies = winrates.win_rates(lf, "strategy", level)
    score_table = scores.score_summary(lf, by, results.components, level)
    rating_entity, rating_table = None, None
    if with_ratings:
        for entity in ([by] if by in ("faction", "strategy") else []) + ["strategy", "faction"]:
            if _n_unique(lf, entity) > 1:
                rating_entity = entity
                rating_table = ratings.ratings(lf, entity, level)
                break
    feature_tables, feature_notes = features_mod.analyse_features(results, variant, features, by, level)
    summary.notes.extend(feature_notes)
    held, held_notes = holdings.analyse_declared(results, variant, level)
    summary.notes.extend(held_notes)
    info = results.variants[variant]
    m = Metrics(results.experiment, variant, results.game_name, info.config_hash, info.games, by, level,
                   summary, by_seat, cross, strategies, score_table, list(results.components),
                   scores.score_counts(lf, by), scores.margin_of_victory(lf, None, level),
                   scores.length_counts(lf, "rounds"), scores.end_reasons(lf, level), rating_table, rating_entity,
                   feature_tables)
    synthetic = bool((results.manifest or {}).get("synthetic")) or results.game_name == "synthetic"
    m.held = held
    m.page = verdict_page(m, lf, min_edge, synthetic)
    m.ludii = winrates.ludii_balance(lf, level)
    if strategies is not None and by != "seat":
        m.by_strategy = winrates.win_rates(lf, [by, "strategy"], level)
    if by not in ("seat", "players") and _n_unique(lf, "players") > 1:
        m.by_players = winrates.win_rates(lf, [by, "players"], level)
    return m
