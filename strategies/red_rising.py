"""Scripted Red Rising strategies: one value model, different plans by its weights.

Every decision is scored action by action from what the deciding player may see (the
observation: own hand, public stacks, resources, Sovereign) and the best legal action is
taken (ties broken at random by the strategy's own stream). The value model:

* a card's *keep value* for the player: its core value plus the end-bonus points it would add
  with the current hand, both ways (``synergy``), and a cost once the hand is at the limit;
* a location bonus's value: marginal fleet points, helium points, the Sovereign (and the
  house ability it triggers), an influence cube, each times the plan's weight;
* the deck: the mean core value of the cards the player cannot see, plus the die's mean bonus.

The plans (registered names) differ only in their weights, all settable in the experiment
file under ``params``: ``rr_fleet_rush`` (fleet first), ``rr_helium_influence`` (helium and
the Institute), ``rr_end_bonus`` (a hand built around end bonuses), ``rr_balanced``.
"""
from __future__ import annotations

import dataclasses
import numpy as np

from sim.games.red_rising import actions as A
from sim.games.red_rising import zones
from strategies import registry
from strategies.base import Strategy, StrategyRng, argmax_tiebreak, jitter

KIND = A.KIND


@dataclasses.dataclass(frozen=True)
class ScriptedParams:
    """Weights of the value model (multipliers of points)."""

    cards: float = 1.0          # keep value of cards (core + end bonuses)
    synergy: float = 1.0        # end-bonus points with the current hand
    fleet: float = 1.0          # fleet-track points gained
    helium: float = 1.0         # helium points gained
    influence: float = 1.0      # influence points gained (estimated per cube)
    sovereign: float = 1.0      # Sovereign token points (and its house ability)
    hand_limit_cost: float = 1.0  # weight of the hand penalty for a card above the limit
    scout_bias: float = 0.0     # extra value of scouting over leading
    noise: float = 0.5          # random jitter (points) so equal plans do not play identically


_TABLES: dict = {}


def _card_tables(content):
    """core[C], pair[C, C]: points card c's end bonus gives for card d in the same hand.

    Cached per content object (kept alive by the cache, so its id stays unique).
    """
    cached = _TABLES.get(id(content))
    if cached is not None and cached[0] is content:
        return cached[1]
    tables = _build_card_tables(content)
    _TABLES[id(content)] = (content, tables)
    return tables


def _build_card_tables(content):
    cards = content.cards
    c = len(cards)
    core = np.array([card.core for card in cards], dtype=np.float64)
    pair = np.zeros((c, c))
    for i, card in enumerate(cards):
        for term in card.end_bonus:
            if term.kind not in ("for_each", "if_with", "if_with_no"):
                continue
            match = np.array([_matches(term.filter, other) for other in cards], dtype=bool)
            match[i] = False
            sign = -1.0 if term.kind == "if_with_no" else 1.0
            pair[i, match] += sign * term.points
    has_ability = np.array([bool(card.deploy) for card in cards], dtype=np.float64)
    return core, pair, has_ability


def _matches(f, card) -> bool:
    """Printed attributes against a card filter (wildcards ignored, as during play)."""
    if f.colour is not None and card.colour not in f.colour:
        return False
    if f.not_colour is not None and card.colour in f.not_colour:
        return False
    if f.name is not None and card.name not in f.name:
        return False
    if f.parity is not None and (card.core % 2 == 1) != (f.parity == "odd"):
        return False
    if f.core_min is not None and card.core < f.core_min:
        return False
    return f.core_max is None or card.core <= f.core_max


class ScriptedStrategy(Strategy):
    """Greedy on the value model above; subclasses set the plan's default weights."""

    name = "rr_balanced"
    Params = ScriptedParams
    games = ("red_rising",)

    def __init__(self, game, content, params):
        super().__init__(game, content, params)
        self.core, pair, self.has_ability = _card_tables(content)
        self.both_ways = (pair + pair.T).astype(np.float32)   # one matmul gives both directions
        self.fleet_points = np.asarray(content.fleet_points, dtype=np.float64)

    # -- values ---------------------------------------------------------------------------------
    def _keep_values(self, obs, hand):
        """float[b, C]: value of holding each card with the current hand."""
        p = self.params
        syn = hand.astype(np.float32) @ self.both_ways
        return p.cards * self.core + p.synergy * syn

    def _bonus_values(self, obs, rows, me):
        """float[b, 6]: value of the four location bonuses and of die faces helium/fleet/cube."""
        p, cfg = self.params, obs.config
        fleet = obs.fleet[rows, me].astype(np.int64)
        last = len(self.fleet_points) - 1
        nxt = np.minimum(fleet + 1, last)
        fleet_gain = p.fleet * (self.fleet_points[nxt] - self.fleet_points[fleet])
        helium_gain = np.full(len(rows), p.helium * cfg.helium_points, dtype=np.float64)
        cubes = obs.cubes.astype(np.int64)
        mine = cubes[rows, me]
        others = np.where(np.arange(cubes.shape[1])[None, :] == me[:, None], -1, cubes).max(axis=1)
        rate = np.where(mine + 1 >= others, 4.0, 2.0)
        cube_gain = np.where(mine < 10, p.influence * (rate + (mine + 1 > others) * 2.0 * mine / 4), 0.0)
        holder = obs.sovereign == me
        sov_gain = np.where(holder, 0.0, p.sovereign * cfg.sovereign_points) + 2.0
        return np.stack([fleet_gain, helium_gain, sov_gain, cube_gain], axis=1)

    def act(self, obs, legal, rng: StrategyRng):
        b, a = legal.shape
        rows = np.arange(b)
        me = np.asarray(obs.player, dtype=np.int64)
        where = obs.where
        hand = (where == zones.HAND0 + me[:, None]).astype(np.float64)
        hand_n = hand.sum(axis=1)
        keep = self._keep_values(obs, hand)
        over = np.maximum(hand_n + 1 - obs.config.hand_limit, 0) > 0
        card_cost = np.where(over, self.params.hand_limit_cost * obs.config.hand_penalty, 0.0)
        unknown = where == -1
        deck_card = np.where(unknown.any(axis=1),
                             (unknown * self.core).sum(axis=1) / np.maximum(unknown.sum(axis=1), 1), 0.0)
        bonus = self._bonus_values(obs, rows, me)                      # [b, 4]
        die_mean = (bonus.sum(axis=1) + 2.0) / 6.0
        tops = obs.top[:, :4].astype(np.int64)                          # [b, 4], -1 empty
        top_keep = np.where(tops >= 0, keep[rows[:, None], np.maximum(tops, 0)], 0.0)

        values = np.zeros((b, a))
        kind = np.asarray(obs.kind)
        loc = slice(A.LOC0, A.LOC0 + 4)
        cards = slice(A.CARD0, A.CARD0 + len(self.core))
        gain_loc = top_keep - card_cost[:, None] + bonus
        # D1: lead (best gain) or scout (best bonus)
        values[:, A.LEAD] = np.maximum(gain_loc.max(axis=1), deck_card + die_mean - card_cost)
        values[:, A.SCOUT] = bonus.max(axis=1) + self.params.scout_bias
        # D8: gain from a location or the deck
        g = kind == KIND["gain"]
        values[g, loc] = gain_loc[g]
        values[g, A.DECK] = (deck_card + die_mean - card_cost)[g]
        # D9 scouting: the bonus of the location; D3: deploy where we least want to take from
        s = kind == KIND["scout_location"]
        values[s, loc] = bonus[s]
        d = kind == KIND["deploy_location"]
        values[d, loc] = -gain_loc[d]
        # card choices: own cards -> give up the least valuable; other cards -> take the best
        in_hand = hand.astype(bool)
        own_choice = np.where(self.has_ability[None, :] > 0, -keep + 3.0, -keep)
        card_values = np.where(in_hand, own_choice, keep)
        values[:, cards] = card_values
        blk = kind == KIND["block"]
        values[blk, A.NO] = -1e6
        # target locations: the top card we value most; die faces: the bonus they give
        t = kind == KIND["target_location"]
        values[t, loc] = top_keep[t]
        face = kind == KIND["die_face"]
        values[face, A.FACE0 + 3] = bonus[face, 1]
        values[face, A.FACE0 + 4] = bonus[face, 0]
        values[face, A.FACE0 + 5] = bonus[face, 3]
        values[:, A.YES] = 1.0
        # opponents: the one with the most visible points
        fleet_pts = self.fleet_points[obs.fleet.astype(np.int64)]
        public = fleet_pts + obs.config.helium_points * obs.helium + 2.0 * obs.cubes + 5.0 * obs.hand_n
        for k in range(1, 6):
            if A.OPP0 + k - 1 < a:
                other = (me + k) % public.shape[1]
                values[:, A.OPP0 + k - 1] = public[rows, other]
        noise = jitter(rng.uniform(1)[:, 0], a)
        return argmax_tiebreak(values + self.params.noise * noise, legal, noise)


def _plan(name: str, **defaults):
    """ScriptedParams with a plan's own default weights (still all settable in the file)."""
    fields = [(key, float, dataclasses.field(default=value)) for key, value in defaults.items()]
    return dataclasses.make_dataclass(name, fields, bases=(ScriptedParams,), frozen=True)


class FleetRush(ScriptedStrategy):
    """Race up the fleet track: Jupiter and fleet faces first, cards second."""

    name = "rr_fleet_rush"
    Params = _plan("FleetRushParams", fleet=3.0, cards=0.8, influence=0.7)


class HeliumInfluence(ScriptedStrategy):
    """Mars and the Institute: helium points and the influence ranking."""

    name = "rr_helium_influence"
    Params = _plan("HeliumInfluenceParams", helium=2.0, influence=2.5, fleet=0.6, cards=0.8)


class EndBonus(ScriptedStrategy):
    """Build a hand whose end bonuses pay: keep cards that combine, deploy the loners."""

    name = "rr_end_bonus"
    Params = _plan("EndBonusParams", synergy=2.5, cards=1.3, scout_bias=-2.0)


class Balanced(ScriptedStrategy):
    """All weights 1: take whatever is worth most points now."""

    name = "rr_balanced"


for _cls in (FleetRush, HeliumInfluence, EndBonus, Balanced):
    registry.register(_cls.name, f"strategies.red_rising:{_cls.__name__}")
