"""Counter-based random streams: randomness as a pure function of its key.

Every random draw of a game is ``f(experiment seed, game index, purpose, extra..., counter)``.
Nothing depends on which batch, chunk, worker or backend plays the game, so one game replays
alone exactly as it ran inside a sweep, and two rule variants played with the same seed share
their random numbers (common random numbers for paired comparisons).

The mixer is SplitMix64's finaliser applied to a chain of key words; it passes the usual
statistical batteries for this use and is cheap in numpy (a handful of uint64 ops per draw).
"""
from __future__ import annotations

import hashlib

import numpy as np

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)
_TO_UNIT = 1.0 / float(1 << 53)


def _mix(x: np.ndarray) -> np.ndarray:
    """SplitMix64 finaliser (bijective on uint64)."""
    with np.errstate(over="ignore"):
        z = x + _GOLDEN
        z = (z ^ (z >> _S30)) * _M1
        z = (z ^ (z >> _S27)) * _M2
        return z ^ (z >> _S31)


def purpose_code(purpose: str) -> np.uint64:
    """A stable 64-bit code for a purpose name ("deck", "die", "strategy", ...)."""
    digest = hashlib.blake2b(purpose.encode(), digest_size=8).digest()
    return np.uint64(int.from_bytes(digest, "little"))


def stream_keys(seed: int, game_ids, purpose: str, *extra) -> np.ndarray:
    """Base keys (uint64[B]) of one purpose for each game; ``extra`` adds key words (e.g. a seat)."""
    games = np.asarray(game_ids, dtype=np.uint64)
    key = _mix(np.full(games.shape, np.uint64(seed % (1 << 64)), dtype=np.uint64))
    key = _mix(key ^ games)
    key = _mix(key ^ purpose_code(purpose))
    for word in extra:
        key = _mix(key ^ np.asarray(word, dtype=np.int64).astype(np.uint64))
    return key


def bits(keys: np.ndarray, counter) -> np.ndarray:
    """The ``counter``-th 64-bit draw of each stream (counter broadcasts against keys)."""
    return _mix(np.asarray(keys, dtype=np.uint64) ^ _mix(np.asarray(counter, dtype=np.int64).astype(np.uint64)))


def uniform(keys: np.ndarray, counter) -> np.ndarray:
    """The ``counter``-th draw of each stream as a float in [0, 1)."""
    return (bits(keys, counter) >> np.uint64(11)).astype(np.float64) * _TO_UNIT


def integers(keys: np.ndarray, counter, high) -> np.ndarray:
    """The ``counter``-th draw as an integer in [0, high) (high broadcasts; high >= 1)."""
    return np.floor(uniform(keys, counter) * np.asarray(high)).astype(np.int64)


def permutations(keys: np.ndarray, n: int, counter: int = 0) -> np.ndarray:
    """One uniform permutation of range(n) per stream: int64[B, n].

    Draws ``n`` keys at counters ``counter*n .. counter*n + n-1`` and sorts them; a stable sort
    makes the (astronomically rare) equal draws deterministic too.
    """
    keys = np.asarray(keys, dtype=np.uint64)
    offsets = np.arange(n, dtype=np.int64) + counter * n
    draws = bits(keys[..., None], offsets)
    return np.argsort(draws, axis=-1, kind="stable")


class StrategyRng:
    """Random numbers of one strategy for one decision of each game in a batch.

    Keyed by (experiment seed, game, "strategy", slot) with the game's decision counter, so a
    game's choices are the same in any batch.
    """

    def __init__(self, keys: np.ndarray, counter: np.ndarray):
        self.keys = keys
        self.counter = np.asarray(counter, dtype=np.int64)

    def uniform(self, k: int = 1) -> np.ndarray:
        """float[b, k] uniform draws, fresh for this decision."""
        offsets = self.counter[:, None] * 1024 + np.arange(k, dtype=np.int64)
        return uniform(self.keys[:, None], offsets)

    def take(self, index) -> "StrategyRng":
        return StrategyRng(self.keys[index], self.counter[index])
