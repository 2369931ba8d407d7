"""Strategies that play any game: uniform random, and a one-step lookahead."""
from __future__ import annotations

import dataclasses

import numpy as np

from sim.core.game import take
from strategies.base import Strategy, StrategyRng, argmax_tiebreak, choose_uniform


class RandomStrategy(Strategy):
    """Uniform among the legal actions: the baseline every other strategy should beat."""

    name = "random"

    def act(self, obs, legal, rng: StrategyRng):
        return choose_uniform(legal, rng.uniform(1)[:, 0])

    @classmethod
    def act_group(cls, members, which, obs, legal, rng: StrategyRng):
        return choose_uniform(legal, rng.uniform(1)[:, 0])

    @classmethod
    def play_to_end(cls, game, state, groups, keys, n_strategies):
        """Every seat random: the game's compiled random play (``game.play_uniform``), if it has one."""
        play = getattr(game, "play_uniform", None)
        if play is None or not all(type(m) is RandomStrategy for members, _ in groups for m in members):
            return None
        return play(state, keys, n_strategies)


RandomStrategy.group = RandomStrategy


@dataclasses.dataclass(frozen=True)
class LookaheadParams:
    """Weights passed to the game's ``position_value`` (keys documented by each game)."""

    weights: dict = dataclasses.field(default_factory=dict)


# game name -> its compiled whole-game play of lookahead (and random) seats, registered by the
# game's strategy module (strategies/recall.py): ``play(game, state, groups, keys, n_strategies)``
COMPILED_LOOKAHEAD: dict = {}


class LookaheadStrategy(Strategy):
    """Try every legal action on a sampled position and keep the best resulting value.

    Works for any game that offers ``sample_state(obs, keys)`` (a full state consistent with
    what the player knows, hidden information dealt at random) and ``position_value(state,
    players, weights)``. Hidden information is never read: the state is rebuilt from ``obs``.
    """

    name = "lookahead"
    Params = LookaheadParams

    def __init__(self, game, content, params):
        super().__init__(game, content, params)
        for needed in ("sample_state", "position_value"):
            if not hasattr(game, needed):
                raise ValueError(f"game {game.name} offers no {needed}; lookahead cannot play it")

    def act(self, obs, legal, rng: StrategyRng):
        return self._choose(obs, legal, rng, [self], np.zeros(legal.shape[0], dtype=np.int64))

    @classmethod
    def play_to_end(cls, game, state, groups, keys, n_strategies):
        """The game's compiled play of lookahead seats (``COMPILED_LOOKAHEAD``), if it has one."""
        play = COMPILED_LOOKAHEAD.get(game.name)
        return None if play is None else play(game, state, groups, keys, n_strategies)

    @classmethod
    def act_group(cls, members, which, obs, legal, rng: StrategyRng):
        """Every lookahead seat's rows at once: one sampled state and one trial step for all of
        them, each row's value with its own seat's weights (the same choices as ``act``)."""
        return members[0]._choose(obs, legal, rng, members, np.asarray(which, dtype=np.int64))

    def _choose(self, obs, legal, rng, members, which):
        b, a = legal.shape
        players = np.asarray(obs.player)
        sample_keys = (rng.uniform(1)[:, 0] * 2**53).astype(np.uint64)
        state = self.game.sample_state(obs, sample_keys)
        rows, acts = np.nonzero(legal)
        trial = self.game.step(take(state, rows), acts)
        value = np.zeros(len(rows))
        weights = [dict(m.params.weights) for m in members]
        for k, w in enumerate(weights):
            if w in weights[:k]:
                continue                        # valued with the first member of the same weights
            same = np.array([w == x for x in weights])
            mine = np.flatnonzero(same[which[rows]])
            if len(mine) == len(rows):
                value = self.game.position_value(trial, players[rows], w)
            elif len(mine):
                value[mine] = self.game.position_value(take(trial, mine), players[rows[mine]], w)
        table = np.full((b, a), -np.inf)
        table[rows, acts] = value
        return argmax_tiebreak(np.where(np.isfinite(table), table, 0.0), legal, rng.uniform(a))


LookaheadStrategy.group = LookaheadStrategy
