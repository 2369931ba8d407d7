"""Scripted Recall strategies: ``rc_greedy``, the first baseline.

``rc_greedy`` is a one-step greedy player: at each decision it tries every legal action on a
state sampled from its observation (``GAME.sample_state``: hidden stacks, decks, other seats'
goal cards and face-down tiles dealt at random, never read from the real state) and keeps the
action whose result has the best position value (``sim.games.recall.value``: the final score
if scored now, plus crystals, key cards, knowledge steps, followers on the map and the turn's items still to resolve). Ties (for
example a card played, whose items come at the next decisions) are broken at random by the
strategy's keyed draws. It is ``strategies.generic.LookaheadStrategy`` with Recall's weights
as defaults; every weight can be set under the seat's ``params.weights``.
"""
from __future__ import annotations

import dataclasses

from strategies import registry
from strategies.generic import LookaheadParams, LookaheadStrategy

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

from strategies import recall_plans  # noqa: E402,F401  (registers the plans: rc_knowledge, rc_artifacts, rc_builder, rc_keys)
