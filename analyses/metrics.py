"""All metrics of one variant in one call: what a report draws and what ``make bench`` times.

Why a single entry point: the report, the ``summary`` command and the benchmark must compute
the same things the same way; each metric stays a small function in its own module, this
module only decides which ones a full pass runs (and with which grouping).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from analyses import balance, features as features_mod, ratings, scores, winrates
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


def _n_unique(lf: pl.LazyFrame, col: str) -> int:
    return int(lf.select(pl.col(col).n_unique()).collect().item())


def compute(results: Results, variant: str, by: str | None = None, level: float = 0.95,
            with_ratings: bool = True, features=None) -> Metrics:
    """Run every metric over one variant's shards (lazy scans; only small tables come back).

    ``features``: the features in play to analyse (``analyses.features.Feature``); None = those
    the results' game declares (``GAME.report_features``), [] = none.
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
    info = results.variants[variant]
    return Metrics(results.experiment, variant, results.game_name, info.config_hash, info.games, by, level,
                   summary, by_seat, cross, strategies, score_table, list(results.components),
                   scores.score_counts(lf, by), scores.margin_of_victory(lf, None, level),
                   scores.length_counts(lf, "rounds"), scores.end_reasons(lf, level), rating_table, rating_entity,
                   feature_tables)
