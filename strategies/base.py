"""What every strategy is: a named, parameterised, vectorised chooser of legal actions.

``act(obs, legal, rng)`` returns one action per game of the batch. ``obs`` is what the
deciding player may know (the game's ``observe``); ``legal`` is bool[b, A]; ``rng`` gives the
strategy its own counter-based random numbers, so its random choices never depend on the batch.
"""
from __future__ import annotations

import dataclasses

import numpy as np
from numba import njit

from sim.core.rng import StrategyRng  # noqa: F401  (strategies' random numbers live in core)


@dataclasses.dataclass(frozen=True)
class NoParams:
    """A strategy without parameters."""


def choose_uniform(legal: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Pick, per row, the legal action of rank floor(u * n_legal) (u: float[b])."""
    return _choose_uniform(legal, np.asarray(u, dtype=np.float64))


@njit(cache=True)
def _choose_uniform(legal, u):
    b, a = legal.shape
    out = np.zeros(b, np.int64)
    for g in range(b):
        count = 0
        for act in range(a):
            count += legal[g, act]
        rank = min(int(u[g] * count), max(count - 1, 0))
        for act in range(a):
            if legal[g, act]:
                if rank == 0:
                    out[g] = act
                    break
                rank -= 1
    return out


def argmax_tiebreak(values: np.ndarray, legal: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The legal action of highest value per row; ties broken at random by ``u`` (float[b, A])."""
    scored = np.where(legal, values + 1e-9 * u, -np.inf)
    return np.argmax(scored, axis=1)


class Strategy:
    """Base class: subclasses set ``name``, ``Params`` and implement ``act``.

    Strategies that can decide for several seats in one call (the same code with per-seat
    parameters) set ``group`` to a common class and implement ``act_group``: the runner then
    builds one observation and makes one call per step for all those seats, instead of one each.
    """

    name = "strategy"
    Params = NoParams
    games: tuple[str, ...] = ()      # games it can play; empty = any game
    group = None                     # a class shared by strategies that can act together

    def __init__(self, game, content, params):
        self.game, self.content, self.params = game, content, params

    def act(self, obs, legal: np.ndarray, rng: StrategyRng) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    # Optional fast path, set by classes that can play whole games in compiled code:
    # ``play_to_end(game, state, groups, keys, n_strategies)`` (a classmethod) plays every game
    # of ``state`` (just set up) to its end and returns the finished state, or returns None
    # (nothing done) when it cannot play this game or these strategies. ``groups`` are the
    # runner's (``runner.strategy_groups``), ``keys[slot, g]`` the StrategyRng key of each slot
    # and game. Every choice must equal the runner's loop (``act``/``act_group`` with the same
    # StrategyRng draws; the counter is the game's number of decisions so far).
    play_to_end = None

    def warm_up_stand_in(self) -> "Strategy":
        """The strategy the runner's warm-up plays in this one's place (``runner.warm_up``): one
        that compiles the same kernels, cheaper where the strategy itself is costly to play."""
        return self

    @classmethod
    def act_group(cls, members: list, which: np.ndarray, obs, legal: np.ndarray, rng: StrategyRng):
        """Decide for rows played by different ``members``: row i by ``members[which[i]]``.

        Only for classes that set ``group``; the result must equal each member's ``act`` on its
        own rows.
        """
        raise NotImplementedError(f"{cls.__name__} sets no group")
