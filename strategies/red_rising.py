"""Scripted Red Rising strategies: one value model, different plans by its weights.

Every decision is scored action by action from what the deciding player may see (the
observation: own hand, public stacks, resources, Sovereign) and the best legal action is
taken (ties broken at random by the strategy's own stream). The value model:

* a card's *keep value* for the player: its core value plus the end-bonus points it would add
  with the current hand, both ways (``synergy``), and a cost once the hand is at the limit;
* a location bonus's value: marginal fleet points, helium points, the Sovereign (and the
  house ability it triggers), an influence cube, each times the plan's weight;
* the deck: the mean core value of the cards the player cannot see, plus the die's mean bonus.

The choice is compiled (numba) per game over the observation arrays.

The plans (registered names) differ only in their weights, all settable in the experiment
file under ``params``: ``rr_fleet_rush`` (fleet first), ``rr_helium_influence`` (helium and
the Institute), ``rr_end_bonus`` (a hand built around end bonuses), ``rr_balanced``.
"""
from __future__ import annotations

import dataclasses

import numpy as np
from numba import njit

from sim.core import kernel_cache
from sim.core.memo import per_object
from sim.games.red_rising import actions as A
from sim.games.red_rising import engine, kernel, observe, program, zones
from sim.games.red_rising import state as rr_state
from sim.games.red_rising.observe import observe_cards
from sim.games.red_rising.scoring import matches
from strategies import registry
from strategies.base import Strategy, StrategyRng
from strategies.generic import RandomStrategy

# The whole-game driver compiles in the engine kernel, ``observe_cards`` and their constants: its
# cached code (and this file's) is keyed on those sources too.
kernel_cache.watch(__file__, kernel, observe, A, zones, rr_state, program)

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


@per_object
def _card_tables(content):
    """core[C], pair[C, C] (points card c's end bonus gives for card d in the same hand), has_ability[C]."""
    return _build_card_tables(content)


def _build_card_tables(content):
    cards = content.cards
    c = len(cards)
    core = np.array([card.core for card in cards], dtype=np.float64)
    pair = np.zeros((c, c))
    for i, card in enumerate(cards):
        for term in card.end_bonus:
            if term.kind not in ("for_each", "if_with", "if_with_no"):
                continue
            match = np.array([matches(term.filter, other) for other in cards], dtype=bool)
            match[i] = False
            sign = -1.0 if term.kind == "if_with_no" else 1.0
            pair[i, match] += sign * term.points
    has_ability = np.array([bool(card.deploy) for card in cards], dtype=np.float64)
    return core, pair, has_ability


class ScriptedStrategy(Strategy):
    """Greedy on the value model above; subclasses set the plan's default weights."""

    name = "rr_balanced"
    Params = ScriptedParams
    games = ("red_rising",)

    def __init__(self, game, content, params):
        super().__init__(game, content, params)
        self.core, pair, self.has_ability = _card_tables(content)
        self.both_ways = pair + pair.T          # end-bonus points between two cards, both ways
        # core values are whole numbers (content: ``core: int``), so their sums are exact in any
        # order and the compiled chooser sums them as integers (vector code, same result)
        self.core_values = self.core.astype(np.int64)
        if not (np.array_equal(self.core_values, self.core) and np.abs(self.core).sum() < 2**53):
            raise ValueError("red rising strategies need whole-number core values (content checks them)")
        self.fleet_points = np.asarray(content.fleet_points, dtype=np.float64)

    def weights(self) -> np.ndarray:
        p = self.params
        return np.array([p.cards, p.synergy, p.fleet, p.helium, p.influence, p.sovereign,
                         p.hand_limit_cost, p.scout_bias, p.noise], dtype=np.float64)

    def act(self, obs, legal, rng: StrategyRng):
        return self.act_group([self], np.zeros(len(legal), np.int64), obs, legal, rng)

    @classmethod
    def play_to_end(cls, game, state, groups, keys, n_strategies):
        """The runner's fast path (``Strategy.play_to_end``): every game to its end in one
        compiled call (``_play_to_end``), each seat choosing as its plan's ``act`` (or as the
        ``random`` strategy) would. None for other games, other strategies, or one game."""
        if getattr(game, "name", None) != "red_rising" or state.batch < 2:
            return None
        by_slot = [None] * n_strategies
        for members, member_of_slot in groups:
            for slot in np.flatnonzero(member_of_slot >= 0):
                by_slot[slot] = members[member_of_slot[slot]]
        scripted = [m for m in by_slot if isinstance(m, ScriptedStrategy)]
        if not scripted or not all((isinstance(m, ScriptedStrategy) and type(m).act is ScriptedStrategy.act
                                    and type(m).weights is ScriptedStrategy.weights)
                                   or type(m) is RandomStrategy for m in by_slot):
            return None
        first, cfg = scripted[0], state.config
        n_cards = len(first.core)
        fixed = (np.ascontiguousarray(state.slot, dtype=np.int64), np.ascontiguousarray(keys, dtype=np.uint64),
                 np.zeros(state.batch, np.int64), n_strategies, np.array([type(m) is RandomStrategy for m in by_slot]),
                 np.stack([m.weights() if isinstance(m, ScriptedStrategy) else np.zeros(9) for m in by_slot]),
                 first.core, first.core_values, first.both_ways, first.has_ability, first.fleet_points,
                 _numbers(cfg), np.empty(n_cards, np.int64), np.zeros(n_cards, np.bool_), np.zeros(n_cards, np.bool_),
                 np.empty(4), np.empty(4), np.empty(4))
        return engine.run_to_end(state, _play_to_end, lambda s: (s.b_i8, s.layout.slots["where"][1]) + fixed)

    @classmethod
    def act_group(cls, members, which, obs, legal, rng: StrategyRng):
        """All plans share the chooser; each row uses its own plan's weights."""
        cfg, first = obs.config, members[0]
        weights = np.stack([m.weights() for m in members])[which]
        return _choose(np.asarray(obs.kind, np.int64), np.asarray(obs.player, np.int64), obs.where, obs.top,
                       obs.helium, obs.fleet, obs.cubes, obs.sovereign, obs.hand_n, legal,
                       rng.uniform(1)[:, 0], first.core, first.core_values, first.both_ways, first.has_ability,
                       first.fleet_points, weights, _numbers(cfg))


def _numbers(cfg) -> np.ndarray:
    return np.array([cfg.helium_points, cfg.sovereign_points, cfg.hand_limit, cfg.hand_penalty], dtype=np.float64)


# Decision kinds and actions as plain ints for the compiled chooser.
_K_GAIN, _K_SCOUT, _K_DEPLOY_LOC = KIND["gain"], KIND["scout_location"], KIND["deploy_location"]
_K_BLOCK, _K_TARGET_LOC, _K_FACE = KIND["block"], KIND["target_location"], KIND["die_face"]
_PHI = 0.6180339887498949


@njit(cache=True, inline="always")
def _keep(c, hand, h, core, both_ways, w_cards, w_syn):
    """Value of holding card ``c`` with the ``h`` cards of ``hand``: core value and end bonuses."""
    syn = 0.0
    for i in range(h):
        syn += both_ways[hand[i], c]
    return w_cards * core[c] + w_syn * syn


@njit(cache=True)
def _choose(kind, me, where, top, helium, fleet, cubes, sovereign, hand_n, legal, u,
            core, core_values, both_ways, has_ability, fleet_points, w, numbers):
    """One action per game: the legal action of highest value (value model of the module doc).

    Compiled per game (scalar code over the batch arrays): the same values as the plan's
    description, computed only for the actions that are legal in each game.
    """
    b = legal.shape[0]
    n_cards = core.shape[0]
    out = np.zeros(b, np.int64)
    hand = np.empty(n_cards, np.int64)
    mine = np.empty(n_cards, np.bool_)
    bonus = np.empty(4, np.float64)
    gain_loc = np.empty(4, np.float64)
    top_keep = np.empty(4, np.float64)
    for g in range(b):
        p = me[g]
        n_hidden = 0
        hidden_sum = 0
        for c in range(n_cards):
            z = where[g, c]
            mine[c] = z == 10 + p
            n_hidden += z == -1
            hidden_sum += core_values[c] if z == -1 else 0
        out[g] = _choose_game(g, kind[g], p, mine, n_hidden, hidden_sum, top, helium, fleet, cubes, sovereign,
                              hand_n, legal, u[g], core, both_ways, has_ability, fleet_points, w[g], numbers,
                              hand, bonus, gain_loc, top_keep)
    return out


@njit(cache=True, inline="always")
def _choose_game(g, k, p, mine, n_hidden, hidden_sum, top, helium, fleet, cubes, sovereign, hand_n, legal, u_g,
                 core, both_ways, has_ability, fleet_points, w_g, numbers, hand, bonus, gain_loc, top_keep):
    """The choice of game ``g`` (row ``g`` of the batch arrays) by player ``p`` for a decision of
    kind ``k`` with its plan's weights ``w_g``: the body of ``_choose``, also inlined by the
    whole-game driver (``_play_to_end``). What p sees of the cards: ``mine`` [C] (cards read as
    in p's hand) and the count and core sum of the unknown cards. ``hand``, ``bonus``,
    ``gain_loc``, ``top_keep`` are scratch buffers."""
    a = legal.shape[1]
    n_cards = core.shape[0]
    seats = helium.shape[1]
    helium_points, sovereign_points, hand_limit, hand_penalty = numbers[0], numbers[1], numbers[2], numbers[3]
    last = fleet_points.shape[0] - 1
    w_cards, w_syn, w_fleet, w_helium, w_inf, w_sov, w_limit, scout_bias, noise = (
        w_g[0], w_g[1], w_g[2], w_g[3], w_g[4], w_g[5], w_g[6], w_g[7], w_g[8])
    # own hand (branch-free); the unknown cards' mean core value only when the deck is an option
    h = 0
    for c in range(n_cards):
        hand[h] = c
        h += mine[c]
    deck_card = 0.0
    if (legal[g, 0] or legal[g, 6]) and n_hidden > 0:
        deck_card = np.float64(hidden_sum) / n_hidden     # whole numbers: the float sum, exactly
    card_cost = w_limit * hand_penalty if hand_n[g, p] + 1 - hand_limit > 0 else 0.0
    # location bonuses: Jupiter fleet, Mars helium, Luna Sovereign, Institute cube
    f = min(max(fleet[g, p], 0), last)
    bonus[0] = w_fleet * (fleet_points[min(f + 1, last)] - fleet_points[f])
    bonus[1] = w_helium * helium_points
    bonus[2] = (0.0 if sovereign[g] == p else w_sov * sovereign_points) + 2.0
    own_cubes = cubes[g, p]
    others = -1
    for q in range(seats):
        if q != p and cubes[g, q] > others:
            others = cubes[g, q]
    rate = 4.0 if own_cubes + 1 >= others else 2.0
    lead_bonus = 2.0 * own_cubes / 4.0 if own_cubes + 1 > others else 0.0
    bonus[3] = w_inf * (rate + lead_bonus) if own_cubes < 10 else 0.0
    die_mean = (bonus[0] + bonus[1] + bonus[2] + bonus[3] + 2.0) / 6.0
    best_gain = -1e300
    best_bonus = -1e300
    for x in range(4):
        t = top[g, x]
        top_keep[x] = _keep(t, hand, h, core, both_ways, w_cards, w_syn) if t >= 0 else 0.0
        gain_loc[x] = top_keep[x] - card_cost + bonus[x]
        best_gain = max(best_gain, gain_loc[x])
        best_bonus = max(best_bonus, bonus[x])
    deck_value = deck_card + die_mean - card_cost
    best = -1e300
    choice = 0
    for act in range(a):
        if not legal[g, act]:
            continue
        v = 0.0
        if act == 0:                                   # lead
            v = max(best_gain, deck_value)
        elif act == 1:                                 # scout
            v = best_bonus + scout_bias
        elif act < 6:                                  # a location
            x = act - 2
            if k == _K_GAIN:
                v = gain_loc[x]
            elif k == _K_SCOUT:
                v = bonus[x]
            elif k == _K_DEPLOY_LOC:
                v = -gain_loc[x]
            elif k == _K_TARGET_LOC:
                v = top_keep[x]
        elif act == 6:                                 # the deck
            v = deck_value if k == _K_GAIN else 0.0
        elif act == 7:                                 # yes
            v = 1.0
        elif act == 8:                                 # no
            v = -1e6 if k == _K_BLOCK else 0.0
        elif act < 15:                                 # die faces (Minerva's re-choice)
            if k == _K_FACE:
                face = act - 8
                if face == 4:
                    v = bonus[1]
                elif face == 5:
                    v = bonus[0]
                elif face == 6:
                    v = bonus[3]
        elif act < 20:                                 # an opponent: the one with most visible points
            q = (p + act - 14) % seats
            v = (fleet_points[min(max(fleet[g, q], 0), last)] + helium_points * helium[g, q]
                 + 2.0 * cubes[g, q] + 5.0 * hand_n[g, q])
        else:                                          # a card: give up own cards, take others
            c = act - 20
            keep = _keep(c, hand, h, core, both_ways, w_cards, w_syn)
            if mine[c]:
                v = -keep + (3.0 if has_ability[c] > 0 else 0.0)
            else:
                v = keep
        j = u_g + (act + 1) * _PHI
        j -= np.floor(j)
        v += noise * j + 1e-9 * j
        if v > best:
            best = v
            choice = act
    return choice


@njit(cache=True, _nrt=False)
def _play_to_end(S, P, w8, where_col, slot, keys, counters, n_strategies, is_uniform, weights, core, core_values,
                 both_ways, has_ability, fleet_points, numbers, hand, mine, seen, bonus, gain_loc, top_keep, bad):
    """Every game to its end, game by game: each decision as the runner's loop would take it
    (the plan's ``_choose_game`` on what the player sees, ``observe_cards``, or ``random``'s
    uniform choice; the seat of slot s draws with ``keys[s, g]`` at counter
    ``counters[g] * 1024``; seats beyond the slots answer 0), then the kernel runs the game
    to its next decision. Return codes: ``engine.run_to_end``."""
    n_actions = S.legal.shape[1]
    helium, fleet, cubes = S.res[:, :, 0], S.res[:, :, 1], S.res[:, :, 2]
    f_actor = S.frame[:, :, rr_state.R_ACTOR]
    for g in range(S.where.shape[0]):
        while not S.done[g]:
            if S.waiting[g]:
                p = np.int64(S.decider[g])
                s = slot[g, max(p, 0)]
                a = 0
                if s < n_strategies:
                    u = kernel.unit_uniform(keys[s, g], counters[g] * 1024)
                    if is_uniform[s]:
                        a = kernel.uniform_choice(S, g, u)
                    else:
                        n_hidden, hidden_sum = observe_cards(w8, where_col, S.automa, S.flipped, S.decider,
                                                             S.legal, S.depth, f_actor, S.f_seen, g, p,
                                                             core_values, mine, seen)
                        a = _choose_game(g, np.int64(S.kind[g]), p, mine, n_hidden, hidden_sum, S.top, helium,
                                         fleet, cubes, S.sovereign, S.hand_n, S.legal, u, core, both_ways,
                                         has_ability, fleet_points, weights[s], numbers, hand, bonus, gain_loc,
                                         top_keep)
                counters[g] += 1
                if a < 0 or a >= n_actions or not S.legal[g, a]:
                    bad[0] = a
                    return -2 - g
                S.action[g] = a
                S.waiting[g] = False
            if kernel.run_game(S, P, g):
                return g
    return -1


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


ScriptedStrategy.group = ScriptedStrategy
for _cls in (FleetRush, HeliumInfluence, EndBonus, Balanced):
    registry.register(_cls.name, f"strategies.red_rising:{_cls.__name__}")
