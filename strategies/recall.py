"""Scripted Recall strategies: ``rc_greedy``, the first baseline.

``rc_greedy`` is a one-step greedy player: at each decision it tries every legal action on a
state sampled from its observation (``GAME.sample_state``: hidden stacks, decks, other seats'
goal cards and face-down tiles dealt at random, never read from the real state) and keeps the
action whose result has the best position value (``sim.games.recall.value``: the final score
if scored now, plus crystals, key cards, knowledge steps, followers on the map and the turn's items still to resolve). Ties (for
example a card played, whose items come at the next decisions) are broken at random by the
strategy's keyed draws. It is ``strategies.generic.LookaheadStrategy`` with Recall's weights
as defaults; every weight can be set under the seat's ``params.weights``.

Without a replay hook the runner plays games whose seats are all lookahead (``rc_greedy``,
``lookahead``) or ``random`` in one compiled call (``play_to_end``, strategies/recall_kernel.py),
with the same choices as the step-by-step loop.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from sim.core.memo import per_object
from strategies import generic, registry
from strategies.generic import LookaheadParams, LookaheadStrategy, RandomStrategy

GREEDY_WEIGHTS = {"final": 1.0, "purple": 0.0, "crystals": 0.4, "keys": 1.0, "tracks": 0.5, "followers": 0.4,
                  "pending": 0.5, "opponents": 0.0}


@dataclasses.dataclass(frozen=True)
class GreedyParams(LookaheadParams):
    weights: dict = dataclasses.field(default_factory=lambda: dict(GREEDY_WEIGHTS))


class Greedy(LookaheadStrategy):
    name = "rc_greedy"
    games = ("recall",)
    Params = GreedyParams


registry.register(Greedy.name, "strategies.recall:Greedy")


@per_object
def _kernel_tables(t) -> tuple:
    from sim.games.recall.kernel import sample, value
    return value.value_tables(t), sample.sample_tables(t)


def play_to_end(game, state, groups, keys, n_strategies):
    """Every game of ``state`` to its end in ``recall_kernel.play_batch`` (``Strategy.play_to_end``),
    when every seat is ``random`` or an unmodified lookahead (its ``_choose``); else None."""
    return None if compiled_play(game, state, groups, keys, n_strategies) is None else state


def compiled_play(game, state, groups, keys, n_strategies):
    """``play_to_end``'s work: int64[B] decisions of each game (``state`` played in place), or None."""
    from sim.games.recall import value
    from sim.games.recall.kernel import value as kvalue
    from strategies import recall_kernel
    kinds = np.full(n_strategies, -1, dtype=np.int64)
    weights = np.zeros((n_strategies, len(kvalue.WEIGHTS)))
    for members, member_of_slot in groups:
        for slot in np.flatnonzero(member_of_slot >= 0):
            m = members[member_of_slot[slot]]
            if type(m) is RandomStrategy:
                kinds[slot] = recall_kernel.RANDOM
            elif (isinstance(m, LookaheadStrategy) and type(m)._choose is LookaheadStrategy._choose
                  and type(m).act is LookaheadStrategy.act):
                w = value._weights(m.params.weights)
                kinds[slot] = recall_kernel.LOOKAHEAD
                weights[slot] = [w[k] for k in kvalue.WEIGHTS]
            else:
                return None
    if (kinds < 0).any() or (kinds == recall_kernel.RANDOM).all():
        return None                       # all random: the game's own play_uniform (RandomStrategy)
    t = state.t
    vt, stab = _kernel_tables(t)
    return recall_kernel.play_batch(state.m, state.hidden, state.legal, t.C, t.tab, t.atoms,
                                    np.ascontiguousarray(keys, dtype=np.uint64), n_strategies, kinds, weights, vt,
                                    stab, len(t.content.map.slots))


generic.COMPILED_LOOKAHEAD["recall"] = play_to_end

from strategies import recall_plans  # noqa: E402,F401  (registers the plans: rc_knowledge, rc_artifacts, rc_builder, rc_keys)
