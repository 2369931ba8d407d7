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
``lookahead``), the plans of strategies/recall_plans.py or ``random`` in one compiled call (``play_to_end``, strategies/recall_kernel.py),
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
    when every seat is ``random``, an unmodified lookahead (its ``_choose``) or a plan of
    strategies/recall_plans.py (its ``_choose``); else None."""
    return None if compiled_play(game, state, groups, keys, n_strategies) is None else state


def _seat_kinds(groups, n_strategies, t):
    """(kinds, weights, plan arrays) per slot for ``play_batch``, or None when a seat has no compiled kind."""
    from sim.games.recall import value
    from sim.games.recall.kernel import value as kvalue
    from strategies import recall_kernel as rk
    from strategies.recall_plans import _Plan
    kinds = np.full(n_strategies, -1, dtype=np.int64)
    weights = np.zeros((n_strategies, len(kvalue.WEIGHTS)))
    ints = np.zeros((n_strategies, rk.PI_N), dtype=np.int64)
    plan_f = np.zeros((n_strategies, 2))
    tables = {"tribe_value": [], "item_value": [], "path_value": [], "goal_rate": []}
    bound = cost = np.zeros(1, dtype=np.int64)
    for members, member_of_slot in groups:
        for slot in np.flatnonzero(member_of_slot >= 0):
            m = members[member_of_slot[slot]]
            if type(m) is RandomStrategy:
                kinds[slot] = rk.RANDOM
                continue
            if isinstance(m, _Plan) and type(m)._choose is _Plan._choose:
                kinds[slot] = rk.PLAN
                ints[slot], plan_f[slot] = m.kernel_numbers(t)
                bound, cost = m.event_bound.astype(np.int64), m.fixed_cost.astype(np.int64)
                for name in tables:
                    tables[name].append((slot, getattr(m, name)))
            elif (isinstance(m, LookaheadStrategy) and type(m)._choose is LookaheadStrategy._choose
                  and type(m).act is LookaheadStrategy.act):
                kinds[slot] = rk.LOOKAHEAD
            else:
                return None
            w = value._weights(m.params.weights)
            weights[slot] = [w[k] for k in kvalue.WEIGHTS]
    if (kinds < 0).any():
        return None
    arrays = []
    for name, rows in tables.items():
        width = max([len(v) for _, v in rows], default=1)
        a = np.zeros((n_strategies, width))
        for slot, v in rows:
            a[slot] = v
        arrays.append(a)
    return kinds, weights, ints, plan_f, arrays, bound, cost


def compiled_play(game, state, groups, keys, n_strategies, counts=None):
    """``play_to_end``'s work: int64[B] decisions of each game (``state`` played in place), or None.
    ``counts`` (int64[B, slots, 2, abilities + 1], zeros) receives the activations and offers per
    slot (``recall_kernel.play_batch``), for analyses/recall_plans.py."""
    from strategies import recall_kernel
    t = state.t
    seats = _seat_kinds(groups, n_strategies, t)
    if seats is None or (seats[0] == recall_kernel.RANDOM).all():
        return None                       # all random: the game's own play_uniform (RandomStrategy)
    kinds, weights, ints, plan_f, (tribe_v, item_v, path_v, goal_v), bound, cost = seats
    from strategies.recall_plans import goal_tables
    gk, gn, gi = goal_tables(t)
    vt, stab = _kernel_tables(t)
    keys = np.ascontiguousarray(keys, dtype=np.uint64)
    decisions = np.zeros(state.batch, dtype=np.int64)
    n_ab = len(t.ability_names)
    span = np.array([t.action_names.index(f"use:{t.ability_names[0]}"), n_ab], dtype=np.int64)
    tally = np.zeros((0, n_strategies, 2, n_ab + 1), dtype=np.int64) if counts is None else counts
    recall_kernel.play_batch(state.m, state.hidden, state.legal, t.C, t.tab, t.atoms, keys, n_strategies, kinds,
                             weights, vt, stab, len(t.content.map.slots), decisions, ints, plan_f, tribe_v, item_v,
                             path_v, goal_v, bound, cost, gk, gn, gi, span, tally)
    return decisions


generic.COMPILED_LOOKAHEAD["recall"] = play_to_end

from strategies import recall_plans  # noqa: E402,F401  (registers the plans: rc_knowledge, rc_artifacts, rc_builder, rc_keys)
