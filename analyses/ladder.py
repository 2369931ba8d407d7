"""The skill ladder: an experiment's ``[[entrants]]`` ordered by strength, with intervals.

Levels: 0 = ``random``; 1 = a plan with its default weights; 2 = a tuned plan (an entrant
with a ``params_file``). Two measures, both on games of the experiment's seed:

* Plackett-Luce ratings (``analyses.ratings``) from mixed tables: each table is a random draw
  of distinct entrants, one per seat, playing ``games`` games; ratings use whole finishing
  orders and separate an entrant's strength from its tables'.
* Head to head: one entrant against copies of the level below in the other seats: every plan
  against ``random``, every tuned plan against the best default plan (by rating). Win share
  with a Wilson interval; the fair share is 1 / seats.

Targets (reported, not asserted, docs/tuning.md): every plan wins more than its fair share
against random; the best tuned plan wins at least 1.3 times its fair share against the best
default plan.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import polars as pl

from analyses.intervals import wilson
from analyses.ratings import ratings
from analyses.tables import build_table, play_table
from sim.core.errors import InputError

TARGET_VS_DEFAULT = 1.3
LEVELS = {0: "random", 1: "default", 2: "tuned"}


def label(seat) -> str:
    return seat.strategy + ("+tuned" if seat.params_file else "")


def level(seat) -> int:
    return 0 if seat.strategy == "random" else (2 if seat.params_file else 1)


@dataclasses.dataclass
class Ladder:
    experiment: str
    seats: int
    fair: float
    ratings: pl.DataFrame        # analyses.ratings columns plus level, ordered strongest first
    head_to_head: pl.DataFrame   # entrant, level, opponent, opponent_level, games, win_share, lo, hi, ratio (to fair)
    mixed_games: int
    config_hash: str = ""        # of the ladder file's variant (its config, content and seats)

    def targets(self) -> list[str]:
        """The two targets, each with met / not met and the numbers behind it."""
        h = self.head_to_head
        lines = []
        vs_random = h.filter(pl.col("opponent") == "random")
        if vs_random.height:
            weak = vs_random.filter(pl.col("win_share") <= self.fair)["entrant"].to_list()
            lines.append(f"every plan wins more than its fair share ({self.fair:.3f}) against random: "
                         + ("met" if not weak else "NOT met by " + ", ".join(weak)))
        tuned = self.ratings.filter(pl.col("level") == 2)["strategy"]       # strongest first
        vs_default = h.filter((pl.col("entrant") == tuned[0]) & (pl.col("opponent_level") == 1)) if len(tuned) else h[:0]
        if vs_default.height:
            best = vs_default.row(0, named=True)
            met = best["ratio"] >= TARGET_VS_DEFAULT
            lines.append(f"the best-rated tuned plan {best['entrant']} against {self.seats - 1} x {best['opponent']}: "
                         f"{best['ratio']:.2f} x fair share [{best['lo'] / self.fair:.2f}, {best['hi'] / self.fair:.2f}] "
                         f"(target {TARGET_VS_DEFAULT}): " + ("met" if met else "NOT met"))
        return lines


def _tables(n_entrants: int, seats: int, n_tables: int, seed: int) -> np.ndarray:
    """[n_tables, seats] entrant indices, distinct within a table; each entrant as often as can be."""
    rng = np.random.default_rng([seed, 20261201])
    out = np.zeros((n_tables, seats), dtype=np.int64)
    counts = np.zeros(n_entrants)
    for t in range(n_tables):
        order = np.lexsort((rng.random(n_entrants), counts))      # the least used first, ties at random
        out[t] = rng.permutation(order[:seats])
        counts[out[t]] += 1
    return out


def ladder(exp, games: int = 2000, tables: int | None = None, variant: str | None = None, log=None) -> Ladder:
    """Play the ladder of ``exp.entrants``: ``tables`` mixed tables of ``games`` games each (default:
    four tables per entrant), and ``games`` head-to-head games per entrant and opponent."""
    entrants = list(exp.entrants)
    if len(entrants) < 2:
        raise InputError(exp.path, "entrants", "expected two or more [[entrants]] tables for a ladder")
    variant = variant or next(iter(exp.variants))
    seats = len(exp.seats)
    if seats < 2 or len(entrants) < seats:
        raise InputError(exp.path, "entrants", f"expected at least {max(seats, 2)} entrants for "
                         f"{seats}-seat tables, got {len(entrants)}")
    names = [label(s) for s in entrants]
    if len(set(names)) != len(names):
        raise InputError(exp.path, "entrants", "two entrants have the same name; expected each plan once "
                         "with default weights and at most once tuned")
    for i, s in enumerate(entrants):
        build_table(exp, variant, [s], "entrants")     # every entrant resolves before any game
    fair = 1.0 / exp.game_module().seats(exp.variants[variant])
    draws = _tables(len(entrants), seats, tables or 4 * len(entrants), exp.seed)
    frames = []
    for t, row in enumerate(draws):
        ids = np.arange(t * games, (t + 1) * games)
        _, rank = play_table(exp, variant, build_table(exp, variant, [entrants[i] for i in row], "entrants"),
                             exp.seed, ids)
        frames.append(pl.DataFrame({"variant": f"table{t}", "game": np.repeat(ids, seats),
                                    "strategy": [names[i] for _ in ids for i in row],
                                    "rank": rank.reshape(-1)}))
    if log:
        log(f"{len(draws)} mixed tables x {games} games played")
    rated = ratings(pl.concat(frames).lazy(), "strategy")
    rated = rated.with_columns(level=pl.col("strategy").replace_strict(
        names, [level(s) for s in entrants], return_dtype=pl.Int8))
    defaults = rated.filter(pl.col("level") == 1)
    best_default = defaults["strategy"][0] if defaults.height else None
    random_ = next((s for s in entrants if level(s) == 0), None)
    offset = len(draws) * games
    rows = []
    for s, name in zip(entrants, names):
        opponents = []
        if random_ is not None and level(s) > 0:
            opponents.append(random_)
        if best_default is not None and level(s) == 2:
            opponents.append(entrants[names.index(best_default)])
        for opp in opponents:
            ids = np.arange(offset, offset + games)
            offset += games
            share, _ = play_table(exp, variant, build_table(exp, variant, [s] + [opp] * (seats - 1), "entrants"),
                                  exp.seed, ids)
            x = float(share[:, 0].sum())
            lo, hi = wilson(x, games)
            rows.append({"entrant": name, "level": level(s), "opponent": label(opp), "opponent_level": level(opp),
                         "games": games,
                         "win_share": x / games, "lo": float(lo), "hi": float(hi), "ratio": x / games / fair})
    if log:
        log(f"{len(rows)} head-to-head tables x {games} games played")
    h2h = pl.DataFrame(rows, schema={"entrant": pl.String, "level": pl.Int8, "opponent": pl.String,
                                     "opponent_level": pl.Int8, "games": pl.Int64, "win_share": pl.Float64, "lo": pl.Float64,
                                     "hi": pl.Float64, "ratio": pl.Float64})
    return Ladder(exp.name, seats, fair, rated, h2h, len(draws) * games, exp.config_hash(variant))


def write(ld: Ladder, folder) -> None:
    """Keep a ladder as ``ladder_ratings.parquet`` and ``ladder_head_to_head.parquet`` in ``folder``."""
    from pathlib import Path

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    ld.ratings.write_parquet(folder / "ladder_ratings.parquet")
    ld.head_to_head.with_columns(seats=pl.lit(ld.seats), fair=pl.lit(ld.fair),
                                 mixed_games=pl.lit(ld.mixed_games),
                                 config_hash=pl.lit(ld.config_hash)).write_parquet(folder / "ladder_head_to_head.parquet")


def read(folder, experiment: str):
    """The ladder kept in ``folder`` (``write``), or None when there is none."""
    from pathlib import Path

    folder = Path(folder)
    r, h = folder / "ladder_ratings.parquet", folder / "ladder_head_to_head.parquet"
    if not (r.is_file() and h.is_file()):
        return None
    rated, h2h = pl.read_parquet(r), pl.read_parquet(h)
    seats = int(h2h["seats"][0]) if h2h.height else 0
    fair = float(h2h["fair"][0]) if h2h.height else float("nan")
    mixed = int(h2h["mixed_games"][0]) if h2h.height else 0
    config = str(h2h["config_hash"][0]) if h2h.height else ""
    return Ladder(experiment, seats, fair, rated, h2h.drop(["seats", "fair", "mixed_games", "config_hash"]), mixed,
                  config)
