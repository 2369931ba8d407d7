"""The balance summary of one experiment (variant): the answer to "is anything out of balance?"

Why one function: a designer reading a report first wants a short verdict with its certainty:
how far apart the factions' win rates are, whether the start player is favoured, how long games last. The words of the verdict page (about an
edge of a stated size, corrected over the page) come from ``analyses.verdicts``. Everything here
is built from the metrics modules; nothing is game-specific.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from analyses import scores, winrates

def default_group(lf: pl.LazyFrame) -> str:
    """Faction when the game has factions, else strategy when seats differ in it, else seat."""
    counts = lf.select(pl.col("faction").n_unique(), pl.col("strategy").n_unique(),
                       (pl.col("faction") == "none").all().alias("no_faction")).collect()
    if counts["faction"][0] > 1 and not counts["no_faction"][0]:
        return "faction"
    if counts["strategy"][0] > 1:
        return "strategy"
    return "seat"


@dataclass
class BalanceSummary:
    """Numbers for the summary page; ``rates`` is the per-group win rate table. The verdicts
    themselves (about an edge of a stated size, one family per page) are ``analyses.verdicts``."""

    by: str
    games: int
    rates: pl.DataFrame
    equal_test: dict | None
    spread: float                  # largest minus smallest (win rate - fair share)
    gap_balance: float             # 1 - spread (not Ludii's Balance beyond two players; see winrates)
    fair: float                    # mean fair share of a row
    appearances: float             # rows of a typical group per game
    first_player: pl.DataFrame     # seat 0 per player count
    shared: dict
    length: pl.DataFrame
    level: float = 0.95
    notes: list = field(default_factory=list)


def balance_summary(lf: pl.LazyFrame, by: str | None = None, level: float = 0.95) -> BalanceSummary:
    """Win rates by ``by`` (default: see ``default_group``) and the numbers around them."""
    by = by or default_group(lf)
    rates = winrates.win_rates(lf, by, level)
    test = winrates.equal_rates_test(lf, by, rates)
    seats = winrates.seat_advantage(lf, level)
    shared = winrates.shared_wins(lf, level)
    games = shared["games"]
    excess = rates["excess"]
    spread = float(excess.max() - excess.min()) if rates.height else float("nan")
    fair = float((rates["fair"] * rates["rows"]).sum() / rates["rows"].sum()) if rates.height else 0.5
    per_game = float(rates["rows"].sum() / max(games, 1) / max(rates.height, 1))
    notes = []
    if rates.height and rates["rows"].max() > games:
        notes.append(f"some {by} values appear more than once per game; their intervals are conservative")
    return BalanceSummary(by, games, rates, test, spread, 1 - spread, fair, per_game,
                          seats.filter(pl.col("seat") == 0), shared, scores.game_length(lf, level), level, notes)
