"""Scripted Recall strategies: ``rc_greedy``, the first baseline.

``rc_greedy`` is a one-step greedy player: at each decision it tries every legal action on a
state sampled from its observation (``GAME.sample_state``: hidden stacks, decks, other seats'
goal cards and face-down tiles dealt at random, never read from the real state) and keeps the
action whose result has the best position value (``sim.games.recall.value``: the final score
if scored now, plus crystals, key cards, knowledge steps, followers on the map and the turn's items still to resolve). Ties (for
example a card played, whose items come at the next decisions) are broken at random by the
strategy's keyed draws. It is ``strategies.generic.LookaheadStrategy`` with Recall's weights
as defaults; every weight can be set under the seat's ``params.weights``.

Two lists of decision kinds take a choice without trying anything (no state sampled): the
one-step value cannot judge them, or judges them worse than a draw does
(docs/recall_strategies.md "rc_greedy's untried kinds", 2v2 games against itself):

* ``params.uniform_kinds`` (``UNIFORM_KINDS``: where a follower goes, which crystal, the rotation
  of a tile, field A's trades, ...): a draw among the legal actions, the tie-break it would have
  made between equal values (1.00-1.11 distinct values among 2-7 options; at field A's trades
  the tried choice lost to the draw);
* ``params.resolve_kinds`` (``RESOLVE_KINDS``: ``effect``, ``produce``, ``dev``): it never ends or
  skips while an option of the decision itself is legal (a pending effect, a production field, a
  development type) and draws among those, free actions left for the windows it tries. Tried, the
  one step saw the cost of a development or the order of the effects and not what they bring later.

``uniform_kinds = []`` and ``resolve_kinds = []`` give the lookahead at every decision (``lookahead``
with these weights).

Without a replay hook the runner plays games whose seats are all lookahead (``rc_greedy``,
``lookahead``), the plans of strategies/recall_plans.py or ``random`` in one compiled call (``play_to_end``, strategies/recall_kernel.py),
with the same choices as the step-by-step loop.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from sim.core.game import take
from sim.core.memo import per_object
from sim.games.recall import state as st
from sim.games.recall.kernel.common import C_O_USE
from strategies import generic, registry
from strategies.base import argmax_tiebreak
from strategies import recall_kernel as rk
from strategies.generic import LookaheadParams, LookaheadStrategy, RandomStrategy
from strategies.recall_kernel import RESOLVE, TRIED, UNIFORM   # ``Greedy.untried``'s codes per kind

GREEDY_WEIGHTS = {"final": 1.0, "purple": 0.0, "crystals": 0.4, "keys": 1.0, "tracks": 0.5, "followers": 0.4,
                  "pending": 0.5, "opponents": 0.0}
# decision kinds drawn untried among the legal actions: rc_greedy's value almost never tells their
# options apart (1.00-1.11 distinct values per decision in 256 games of experiments/recall_tribes.toml,
# every option tried) or it played them worse than the draw (field A's trades: ``buy``, ``sell``,
# ``sell_count``); ``move_to`` (1.10) is not one: drawn untried it lost 1.5-2 pp in 2v2 games
UNIFORM_KINDS = ("draft", "place", "crystal", "item", "move_count", "key", "explore", "rotation", "upgrade",
                 "ability_field", "ability_count", "keyup", "slot", "buy", "sell", "sell_count")
# decision kinds where it never ends or skips while an option of the decision itself is legal
RESOLVE_KINDS = ("effect", "produce", "dev")


def unknown_kinds(params, *names):
    """(key, message) for the first of ``params``' lists ``names`` holding a decision kind that does
    not exist, else None (a Params ``validate`` answer)."""
    for name in names:
        bad = sorted(set(getattr(params, name)) - set(st.KIND_NAMES))
        if bad:
            return name, f"unknown decision kinds {bad}; expected some of {list(st.KIND_NAMES)}"
    return None


def untried_table(uniform_kinds=(), resolve_kinds=()):
    """int64[decision kinds]: ``recall_kernel.untried_choice``'s code of each kind (UNIFORM, RESOLVE or TRIED)."""
    return np.array([UNIFORM if k in uniform_kinds else RESOLVE if k in resolve_kinds else TRIED
                     for k in st.KIND_NAMES], dtype=np.int64)


@dataclasses.dataclass(frozen=True)
class GreedyParams(LookaheadParams):
    weights: dict = dataclasses.field(default_factory=lambda: dict(GREEDY_WEIGHTS))
    uniform_kinds: tuple[str, ...] = UNIFORM_KINDS   # decision kinds drawn among the legal actions untried
    resolve_kinds: tuple[str, ...] = RESOLVE_KINDS   # decision kinds drawn untried among their own options: no end, no free action

    def validate(self):
        wrong = unknown_kinds(self, "uniform_kinds", "resolve_kinds")
        if wrong:
            return wrong
        both = sorted(set(self.uniform_kinds) & set(self.resolve_kinds))
        if both:
            return "resolve_kinds", f"decision kinds {both} are in uniform_kinds too; expected each in one list at most"
        return None


class Greedy(LookaheadStrategy):
    name = "rc_greedy"
    games = ("recall",)
    Params = GreedyParams

    def __init__(self, game, content, params):
        super().__init__(game, content, params)
        self.untried = untried_table(params.uniform_kinds, params.resolve_kinds)

    def _choose(self, obs, legal, rng, members, which):
        """The lookahead's choice, but at a decision of the seat's ``uniform_kinds`` its tie-break
        draw among the legal actions, untried (what equal values would give), and at one of its
        ``resolve_kinds`` with an option of its own legal the same draw among those options
        (``recall_kernel.untried_choice``)."""
        code, resolve, allowed = untried_codes(obs, legal, members, which)
        untried = (code == UNIFORM) | resolve
        if not untried.any():
            return super()._choose(obs, legal, rng, members, which)
        out = argmax_tiebreak(np.zeros(legal.shape), allowed, rng.uniform(legal.shape[1]))
        tried = np.flatnonzero(~untried)
        if len(tried):
            out[tried] = super()._choose(take(obs, tried), legal[tried], rng.take(tried), members, which[tried])
        return out


def untried_codes(obs, legal, members, which):
    """(``untried_choice`` code per row, from its member's ``untried``; whether the row is resolved:
    a ``RESOLVE`` row with an option of the decision itself legal, not ``end`` and no free action
    (use, chest, ring); the actions each row may take: those options where resolved, else
    ``legal``). A member without ``untried`` (a plain lookahead) tries all."""
    kinds = np.asarray(obs.m[:, st.G_KIND], dtype=np.int64)
    none = np.zeros(len(st.KIND_NAMES), dtype=np.int64)
    code = np.stack([getattr(m, "untried", none) for m in members])[which, kinds]
    own = legal.copy()
    own[:, 0] = False                                            # ``end``: stop, skip, pass
    own[:, obs.t.C[C_O_USE]:] = False                            # the free actions
    resolve = (code == RESOLVE) & own.any(axis=1)
    return code, resolve, np.where(resolve[:, None], own, legal)


Greedy.group = Greedy           # its own group: its rows choose with its ``_choose``
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
    """(kinds, weights, plan arrays, untried codes) per slot for ``play_batch``, or None when a seat
    has no compiled kind."""
    from sim.games.recall import value
    from sim.games.recall.kernel import value as kvalue
    from strategies.recall_plans import _Plan
    kinds = np.full(n_strategies, -1, dtype=np.int64)
    weights = np.zeros((n_strategies, len(kvalue.WEIGHTS)))
    ints = np.zeros((n_strategies, rk.PI_N), dtype=np.int64)
    plan_f = np.zeros((n_strategies, 2))
    untried_at = np.zeros((n_strategies, len(st.KIND_NAMES)), dtype=np.int64)   # rc_greedy's ``Greedy.untried``
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
                untried_at[slot] = m.untried
                ints[slot], plan_f[slot] = m.kernel_numbers(t)
                bound, cost = m.event_bound.astype(np.int64), m.fixed_cost.astype(np.int64)
                for name in tables:
                    tables[name].append((slot, getattr(m, name)))
            elif (isinstance(m, LookaheadStrategy) and type(m)._choose in (LookaheadStrategy._choose, Greedy._choose)
                  and type(m).act is LookaheadStrategy.act):
                kinds[slot] = rk.LOOKAHEAD
                if isinstance(m, Greedy):
                    untried_at[slot] = m.untried
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
    return kinds, weights, ints, plan_f, arrays, bound, cost, untried_at


def compiled_play(game, state, groups, keys, n_strategies, counts=None):
    """``play_to_end``'s work: int64[B] decisions of each game (``state`` played in place), or None.
    ``counts`` (int64[B, slots, 2, abilities + 1], zeros) receives the activations and offers per
    slot (``recall_kernel.play_batch``), for analyses/recall_plans.py."""
    t = state.t
    seats = _seat_kinds(groups, n_strategies, t)
    if seats is None or (seats[0] == rk.RANDOM).all():
        return None                       # all random: the game's own play_uniform (RandomStrategy)
    kinds, weights, ints, plan_f, (tribe_v, item_v, path_v, goal_v), bound, cost, untried_at = seats
    from strategies.recall_plans import goal_tables
    gk, gn, gi = goal_tables(t)
    vt, stab = _kernel_tables(t)
    keys = np.ascontiguousarray(keys, dtype=np.uint64)
    decisions = np.zeros(state.batch, dtype=np.int64)
    n_ab = len(t.ability_names)
    span = np.array([t.action_names.index(f"use:{t.ability_names[0]}"), n_ab], dtype=np.int64)
    tally = np.zeros((0, n_strategies, 2, n_ab + 1), dtype=np.int64) if counts is None else counts
    rk.play_batch(state.m, state.hidden, state.legal, t.C, t.tab, t.atoms, keys, n_strategies, kinds, weights, vt,
                  stab, len(t.content.map.slots), decisions, ints, plan_f, tribe_v, item_v, path_v, goal_v, bound,
                  cost, gk, gn, gi, span, tally, untried_at)
    return decisions


generic.COMPILED_LOOKAHEAD["recall"] = play_to_end

from strategies import recall_plans  # noqa: E402,F401  (registers the plans: rc_knowledge, rc_artifacts, rc_builder, rc_keys)
