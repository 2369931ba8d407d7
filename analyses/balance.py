"""The balance summary of one experiment (variant): the answer to "is anything out of balance?"

Why one function: a designer reading a report first wants a short verdict with its certainty:
how far apart the factions' win rates are, which of them differ from their fair share once
we account for testing several at once (Holm), whether the start player is favoured, and whether
the experiment was big enough to see an edge of 1 percentage point at all. Everything here is
built from the metrics modules; nothing is game-specific.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import polars as pl
from scipy import stats

from analyses import scores, winrates

EDGE = 0.01          # the edge (in win rate) the "games needed" answer is computed for
POWER = 0.8


def default_group(lf: pl.LazyFrame) -> str:
    """Faction when the game has factions, else strategy when seats differ in it, else seat."""
    counts = lf.select(pl.col("faction").n_unique(), pl.col("strategy").n_unique(),
                       (pl.col("faction") == "none").all().alias("no_faction")).collect()
    if counts["faction"][0] > 1 and not counts["no_faction"][0]:
        return "faction"
    if counts["strategy"][0] > 1:
        return "strategy"
    return "seat"


def games_needed(p0: float, edge: float = EDGE, appearances_per_game: float = 1.0, alpha: float = 0.05,
                 power: float = POWER) -> int:
    """Games for a two-sided test at ``alpha`` to detect win rate p0 + edge with ``power``.

    n rows = ((z_{1-a/2} sqrt(p0 q0) + z_{power} sqrt(p1 q1)) / edge)^2 (one-sample score test
    of a proportion), divided by how often the group appears per game.
    """
    p1 = min(max(p0 + edge, 1e-9), 1 - 1e-9)
    za, zb = stats.norm.ppf(1 - alpha / 2), stats.norm.ppf(power)
    n = ((za * math.sqrt(p0 * (1 - p0)) + zb * math.sqrt(p1 * (1 - p1))) / edge) ** 2
    return int(math.ceil(n / appearances_per_game))


@dataclass
class BalanceSummary:
    """Numbers for the summary page; ``rates`` is the per-group win rate table."""

    by: str
    games: int
    rates: pl.DataFrame
    equal_test: dict | None
    spread: float                  # largest minus smallest (win rate - fair share)
    balance: float                 # Ludii: 1 - largest pairwise difference (of excess)
    flagged: list                  # groups significant after Holm
    games_needed_1pp: int          # per the typical group, alpha 0.05, power 0.8
    first_player: pl.DataFrame     # seat 0 per player count
    shared: dict
    length: pl.DataFrame
    level: float = 0.95
    notes: list = field(default_factory=list)

    def verdict(self) -> str:
        """One line a designer can read first."""
        pct = 100 * self.spread
        if self.flagged:
            names = ", ".join(str(f) for f in self.flagged)
            return (f"Out of balance: {names} differ from their fair share (Holm-corrected, "
                    f"{int(self.level * 100)}% level); spread {pct:.1f} pp over {self.games:,} games.")
        if self.games < self.games_needed_1pp:
            return (f"No {self.by} differs significantly from its fair share (spread {pct:.1f} pp), but "
                    f"{self.games:,} games can only detect edges well above 1 pp "
                    f"(needs about {self.games_needed_1pp:,}).")
        return (f"No {self.by} differs significantly from its fair share (spread {pct:.1f} pp over "
                f"{self.games:,} games; enough to detect a 1 pp edge).")


def balance_summary(lf: pl.LazyFrame, by: str | None = None, level: float = 0.95) -> BalanceSummary:
    """Win rates by ``by`` (default: see ``default_group``) and the verdict built from them."""
    by = by or default_group(lf)
    rates = winrates.win_rates(lf, by, level)
    test = winrates.equal_rates_test(lf, by, rates)
    seats = winrates.seat_advantage(lf, level)
    shared = winrates.shared_wins(lf, level)
    games = shared["games"]
    excess = rates["excess"]
    spread = float(excess.max() - excess.min()) if rates.height else float("nan")
    flagged = rates.filter(pl.col("significant"))[by].to_list()
    fair = float((rates["fair"] * rates["rows"]).sum() / rates["rows"].sum()) if rates.height else 0.5
    per_game = float(rates["rows"].sum() / max(games, 1) / max(rates.height, 1))
    needed = games_needed(fair, EDGE, max(per_game, 1e-9), 1 - level, POWER)
    notes = []
    if rates.height and rates["rows"].max() > games:
        notes.append(f"some {by} values appear more than once per game; their intervals are conservative")
    return BalanceSummary(by, games, rates, test, spread, 1 - spread, flagged, needed,
                          seats.filter(pl.col("seat") == 0), shared, scores.game_length(lf, level), level, notes)
