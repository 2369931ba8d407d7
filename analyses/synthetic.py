"""Synthetic results in the common schema, with a known truth, for testing the analyses.

Why: every statistic in ``analyses/`` must be checked against a truth we chose (no effect, an
effect of known size) and must work before any game engine exists. The generator writes
shards exactly as the runner does (``<root>/<experiment>/<variant>/shard-*.parquet`` plus
``manifest.json``), so the same loading code is exercised.

``reshuffle``/``noise_key`` make a null rule change: a share of games is replayed with other
noise, so paired variants differ game by game without any systematic effect.

The model is Plackett-Luce: a seat's strength is the product of its faction's, seat's and
strategy's weights; a game's finishing order ranks ``log(strength) + Gumbel noise``, so the
probability that a seat wins is its strength over the sum of strengths in that game. When
every game holds every faction exactly once (``players == len(factions)``) and seats and
strategies are neutral, the faction weights (normalised) *are* the win probabilities.

Randomness is keyed by (seed, game index, purpose) through ``sim.core.rng``: a game is the same
whichever batch generates it, and two variants of one experiment share every random draw
(common random numbers), so variant B of game g differs from variant A of game g only by the
variant's effect. That is the pairing a real paired comparison relies on.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import polars as pl

from sim.core import rng

END_REASONS = ("threshold", "round_limit", "stalemate")


@dataclass(frozen=True)
class Variant:
    """Truth of one synthetic variant (all weights are relative strengths, see module doc)."""

    factions: dict = field(default_factory=lambda: {"red": 1.0, "blue": 1.0, "green": 1.0})
    players: tuple = (3,)                 # player counts drawn uniformly per game
    seat_weights: tuple | None = None      # strength factor per seat (turn order), None = 1
    strategies: tuple = ("random",)        # strategy of each slot, cycled over the slots
    strategy_weights: dict | None = None   # strength factor per strategy name
    shared_win_rate: float = 0.0           # probability that the top two share the win
    score_scale: float = 8.0               # points per unit of latent strength
    score_shift: dict | None = None        # extra points per faction (no effect on ranks)
    length_shift: int = 0                  # extra rounds per game
    components: tuple = ("cards", "fleet", "bonus")
    game_name: str = "synthetic"
    reshuffle: float = 0.0                 # share of games whose noise is redrawn with `noise_key`
    noise_key: int = 0                     # variants with different keys differ in those games only
    # features in play (analyses.features): len(feature_slots) values of feature_pool per game
    feature_pool: tuple = ()               # values drawn without replacement, e.g. ("T1", ..., "T10")
    feature_slots: tuple = ()              # slot suffixes of the columns
    feature_prefix: str = "ft_tile_"       # per-game str columns <prefix><slot>: the value in play
    held_prefix: str = "ft_favour_"        # per-seat i8 columns <prefix><slot>: 0 none, 1 first, 2 second space
    hold_rate: float = 0.5                 # chance that each of a slot's two spaces is taken (distinct seats)
    holder_weights: dict | None = None     # value -> strength factor of the seat holding it
    in_play_weights: dict | None = None    # value -> {strategy: strength factor while the value is in play}


_FEATURE_DEFAULTS = {"feature_pool": (), "feature_slots": (), "feature_prefix": "ft_tile_",
                     "held_prefix": "ft_favour_", "hold_rate": 0.5, "holder_weights": None, "in_play_weights": None}


def _hash(obj) -> str:
    return hashlib.blake2b(json.dumps(obj, sort_keys=True, default=str).encode(), digest_size=8).hexdigest()


def config_hash(v: Variant) -> str:
    """16 hex digits identifying a variant's truth, as the runner's config hash does."""
    # feature fields at their defaults are left out: hashes of feature-less variants stay as they were
    return _hash({k: x for k, x in v.__dict__.items() if not (k in _FEATURE_DEFAULTS and x == _FEATURE_DEFAULTS[k])})


def _games_table(v: Variant, experiment: str, variant: str, seed: int, games: np.ndarray,
                 chash: str) -> pl.DataFrame:
    """All rows (game x seat) for ``games``; vectorised over games, a loop over player counts."""
    counts = np.asarray(v.players, dtype=np.int64)
    pick = rng.integers(rng.stream_keys(seed, games, "players"), 0, len(counts))
    n_players = counts[pick]
    fac_names = list(v.factions)
    fac_w = np.log(np.asarray([v.factions[f] for f in fac_names], dtype=float))
    if len(fac_names) < counts.max():
        raise ValueError("need at least as many factions as players")
    frames = []
    for p in np.unique(n_players):
        g = games[n_players == p]
        B = len(g)
        # factions: a random subset in random order; turn order: a random permutation of slots
        fac = rng.permutations(rng.stream_keys(seed, g, "factions"), len(fac_names))[:, :p]
        slot_of_seat = rng.permutations(rng.stream_keys(seed, g, "seating"), p)
        strat_names = [v.strategies[s % len(v.strategies)] for s in range(p)]
        seat_lw = np.zeros(p) if v.seat_weights is None else np.log(np.asarray(v.seat_weights[:p], float))
        strat_lw = np.array([np.log((v.strategy_weights or {}).get(s, 1.0)) for s in strat_names])
        # Gumbel noise per (game, slot): shared between variants (common random numbers)
        u = np.stack([rng.uniform(rng.stream_keys(seed, g, "noise", s), 0) for s in range(p)], axis=1)
        if v.reshuffle > 0:
            # a null "rule change": some games take another course, with no systematic effect
            redo = rng.uniform(rng.stream_keys(seed, g, "reshuffle"), 0) < v.reshuffle
            u2 = np.stack([rng.uniform(rng.stream_keys(seed, g, "noise", s, v.noise_key + 1), 0)
                           for s in range(p)], axis=1)
            u = np.where(redo[:, None], u2, u)
        u = np.clip(u, 1e-300, 1 - 1e-16)
        gumbel_slot = -np.log(-np.log(u))
        gumbel = np.take_along_axis(gumbel_slot, slot_of_seat, axis=1)
        strength = fac_w[fac] + seat_lw[None, :] + strat_lw[slot_of_seat] + gumbel
        feature_cols = {}
        if v.feature_pool and v.feature_slots:
            strength, feature_cols = _features(v, seed, g, p, slot_of_seat, strat_names, strength)
        order = np.argsort(-strength, axis=1, kind="stable")
        rank = np.empty((B, p), dtype=np.int64)
        np.put_along_axis(rank, order, np.arange(1, p + 1)[None, :].repeat(B, 0), axis=1)
        share = rng.uniform(rng.stream_keys(seed, g, "shared"), 0) < v.shared_win_rate
        rank = np.where(share[:, None] & (rank == 2), 1, rank)
        k = (rank == 1).sum(axis=1)
        win_share = np.where(rank == 1, 1.0 / k[:, None], 0.0)
        score = np.round(60 + v.score_scale * strength).astype(np.int64)
        if v.score_shift:
            shift = np.array([v.score_shift.get(f, 0) for f in fac_names])
            score = score + shift[fac]
        # keep the score order consistent with the ranks: the winner(s) hold the top score
        top = score.max(axis=1, keepdims=True)
        score = np.where(rank == 1, top, np.minimum(score, top - 1))
        # components: fixed shares of the score, the last one takes the remainder
        nc = len(v.components)
        comps = []
        rest = score.copy()
        for i in range(nc - 1):
            part = np.floor(score * (0.5 / (i + 1))).astype(np.int64)
            comps.append(part)
            rest = rest - part
        comps.append(rest)
        base_rounds = 8 + rng.integers(rng.stream_keys(seed, g, "length"), 0, 6) + v.length_shift
        rounds = np.maximum(base_rounds, 1)
        turns = rounds * p - rng.integers(rng.stream_keys(seed, g, "length"), 1, p)
        end = rng.integers(rng.stream_keys(seed, g, "end"), 0, 10)
        end_idx = np.where(end < 6, 0, np.where(end < 9, 1, 2))
        seat = np.arange(p)[None, :].repeat(B, 0)
        cols = {
            "seed": pl.Series(np.full(B * p, seed), dtype=pl.Int64),
            "game": pl.Series(np.repeat(g, p), dtype=pl.Int64),
            "players": pl.Series(np.full(B * p, p), dtype=pl.Int8),
            "seat": pl.Series(seat.ravel(), dtype=pl.Int8),
            "slot": pl.Series(slot_of_seat.ravel(), dtype=pl.Int8),
            "strategy": _names(slot_of_seat.ravel(), strat_names),
            "faction": _names(fac.ravel(), fac_names),
            "is_automa": pl.Series(np.zeros(B * p, dtype=bool)),
            "score": pl.Series(score.ravel(), dtype=pl.Int32),
            "rank": pl.Series(rank.ravel(), dtype=pl.Int8),
            "win_share": pl.Series(win_share.ravel(), dtype=pl.Float64),
            "turns": pl.Series(np.repeat(turns, p), dtype=pl.Int32),
            "rounds": pl.Series(np.repeat(rounds, p), dtype=pl.Int16),
            "end_reason": _names(np.repeat(end_idx, p), list(END_REASONS)),
        }
        for name, c in zip(v.components, comps):
            cols[f"score_{name}"] = pl.Series(c.ravel(), dtype=pl.Int32)
        cols.update(feature_cols)
        frames.append(pl.DataFrame(cols))
    consts = [pl.lit(experiment).alias("experiment"), pl.lit(v.game_name).alias("game_name"),
              pl.lit(variant).alias("variant"), pl.lit(chash).alias("config_hash")]
    df = pl.concat(frames).sort(["game", "seat"]).with_columns(consts)
    first = ["experiment", "game_name", "variant", "config_hash"]
    return df.select(first + [c for c in df.columns if c not in first])


def _features(v: Variant, seed: int, g: np.ndarray, p: int, slot_of_seat: np.ndarray, strat_names: list,
              strength: np.ndarray):
    """Draw the values in play and their holders; add the planted effects to the strengths."""
    pool, B, S = list(v.feature_pool), len(g), len(v.feature_slots)
    perm = rng.permutations(rng.stream_keys(seed, g, "features"), len(pool))[:, :S]      # [B, S] value index
    held = np.zeros((B, p, S), dtype=np.int64)
    rows = np.arange(B)
    for s in range(S):
        keys = rng.stream_keys(seed, g, "holders", s)
        first = rng.integers(keys, 0, p)
        second = (first + 1 + rng.integers(keys, 1, max(p - 1, 1))) % p                  # another seat
        take1, take2 = rng.uniform(keys, 2) < v.hold_rate, rng.uniform(keys, 3) < v.hold_rate
        held[rows[take1], first[take1], s] = 1
        held[rows[take2], second[take2], s] = 2
    hw = np.log(np.asarray([(v.holder_weights or {}).get(x, 1.0) for x in pool], dtype=float))
    strength = strength + ((held > 0) * hw[perm][:, None, :]).sum(axis=2)
    for value, per_strategy in (v.in_play_weights or {}).items():
        in_play = (perm == pool.index(value)).any(axis=1)
        lw = np.log(np.asarray([per_strategy.get(name, 1.0) for name in strat_names], dtype=float))
        strength = strength + in_play[:, None] * lw[slot_of_seat]
    cols = {}
    for s, suffix in enumerate(v.feature_slots):
        cols[f"{v.feature_prefix}{suffix}"] = _names(np.repeat(perm[:, s], p), pool)
    for s, suffix in enumerate(v.feature_slots):
        cols[f"{v.held_prefix}{suffix}"] = pl.Series(held[:, :, s].ravel(), dtype=pl.Int8)
    return strength, cols


def _names(index: np.ndarray, names: list) -> pl.Series:
    """A string column from integer codes (fast for millions of rows)."""
    return pl.Series(index.astype(np.uint32)).replace_strict(
        list(range(len(names))), [str(n) for n in names], return_dtype=pl.String)


def write_results(root, experiment: str = "synthetic", variants: dict | None = None, games: int = 2000,
                  seed: int = 1, shard_games: int = 1000, first_game: int = 0) -> Path:
    """Write games ``[first_game, first_game + games)`` of every variant as shards; return the
    experiment's results dir ``root/experiment``. Existing shards are kept (append-only, as the
    runner does), so calling again with a later range adds games."""
    variants = variants or {"base": Variant()}
    out = Path(root) / experiment
    manifest = {"version": 1, "experiment": experiment, "game_name": None, "seed": seed, "synthetic": True,
                "variants": {}}
    for name, v in variants.items():
        chash = config_hash(v)
        manifest["game_name"] = v.game_name
        manifest["variants"][name] = {"config_hash": chash}
        vdir = out / name
        vdir.mkdir(parents=True, exist_ok=True)
        for start in range(first_game, first_game + games, shard_games):
            stop = min(start + shard_games, first_game + games)
            path = vdir / f"shard-{start:09d}-{stop - 1:09d}.parquet"
            if path.exists():
                continue
            df = _games_table(v, experiment, name, seed, np.arange(start, stop, dtype=np.int64), chash)
            tmp = path.with_suffix(".tmp")
            df.write_parquet(tmp)
            os.replace(tmp, path)
    old = out / "manifest.json"
    if old.is_file():
        manifest["variants"] = {**json.loads(old.read_text()).get("variants", {}), **manifest["variants"]}
    old.write_text(json.dumps(manifest, indent=1))
    return out


def with_effect(base: Variant, faction: str, factor: float) -> Variant:
    """A copy of ``base`` whose ``faction`` is ``factor`` times as strong (an injected effect)."""
    f = dict(base.factions)
    f[faction] = f[faction] * factor
    return replace(base, factions=f)


class SyntheticSource:
    """A sequential-test game source: ``ensure(n)`` generates games up to ``n`` on demand."""

    def __init__(self, root, experiment: str, variant_name: str, variant: Variant, seed: int = 1,
                 shard_games: int = 200):
        self.root, self.experiment, self.name, self.variant = Path(root), experiment, variant_name, variant
        self.seed, self.shard_games, self.available = seed, shard_games, 0
        self.label = f"{experiment}:{variant_name}"
        self.first_game, self.game_name = 0, variant.game_name
        self.players = variant.players[0] if len(variant.players) == 1 else None

    def ensure(self, n: int) -> int:
        if n > self.available:
            write_results(self.root, self.experiment, {self.name: self.variant}, games=n - self.available,
                          seed=self.seed, shard_games=self.shard_games, first_game=self.available)
            self.available = n
        return self.available

    def scan(self) -> pl.LazyFrame:
        files = sorted((self.root / self.experiment / self.name).glob("shard-*.parquet"))
        return pl.scan_parquet(files).filter(pl.col("game") < self.available)


def games_table(v: Variant, games, seed: int = 1, experiment: str = "synthetic", variant: str = "base") -> pl.DataFrame:
    """The rows of ``games`` (an int count or an array of indices) in memory, without shards."""
    ids = np.arange(games, dtype=np.int64) if np.isscalar(games) else np.asarray(games, dtype=np.int64)
    return _games_table(v, experiment, variant, seed, ids, config_hash(v))


class MemoryResults:
    """A results set held in memory (DataFrames per variant) with the interface of
    ``analyses.load.Results``: lets Monte Carlo tests run the real pipeline without disk."""

    def __init__(self, frames: dict, experiment: str = "synthetic", sweep: dict | None = None):
        from analyses.load import VariantInfo

        self.frames = frames
        first = next(iter(frames.values()))
        self.experiment, self.game_name = experiment, first["game_name"][0]
        self.source, self.root, self.manifest, self.experiment_file = "memory", Path("."), None, None
        self.components = sorted(c for c in first.columns if c.startswith("score_"))
        self.sweep = sweep or {}
        self.variants = {}
        for name, df in frames.items():
            seat0 = df.filter(pl.col("seat") == 0)
            self.variants[name] = VariantInfo(name, seat0.height, df.height, int(df["game"].min()),
                                              int(df["game"].max()), df["config_hash"][0], int(df["seed"][0]),
                                              tuple(sorted(int(p) for p in df["players"].unique())))
        self.files = {name: [] for name in frames}

    @property
    def label(self) -> str:
        return self.experiment

    def scan(self, variant: str | None = None, max_games: int | None = None) -> pl.LazyFrame:
        names = [variant] if variant else list(self.frames)
        lf = pl.concat([self.frames[n] for n in names]).lazy()
        return lf if max_games is None else lf.filter(pl.col("game") < max_games)
