"""Scripted Red Rising strategies: one value model, different plans by its weights.

Every decision is scored action by action from what the deciding player may see (the
observation: own hand, public stacks, resources, Sovereign) and the best legal action is
taken (ties broken at random by the strategy's own stream). The value model:

* a card's *keep value* for the player: its core value plus the end-bonus points it would add
  with the current hand, both ways (``synergy``), and a cost once the hand is at the limit;
* a location bonus's value: marginal fleet points, helium points, the Sovereign (and the
  house ability it triggers), an influence cube, each times the plan's weight;
* the deck: the mean core value of the cards the player cannot see, plus the die's mean bonus;
* the board (banishes, moves, cards placed on a location): the best gain still to come this turn
  less ``deny`` x the best card left on top for the opponents;
* an optional effect (the op being resolved, read from the program): what it gains less what it
  pays, against 0 for ``no``.

The choice is compiled (numba) per game over the observation arrays. docs/red_rising_strategies.md
describes every decision; tests/test_red_rising_plan_choices.py pins them on hand-made positions.

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
from sim.games.red_rising.program import (
    A_BANISH, BANISH_HAND, BANISH_LOC, END_TURN, FLEET, GAIN, GAIN_CARD, HELIUM, INFLUENCE, LOSE, MOVE, P_ACT, P_AMT,
    P_FILT, P_GET, P_PAY, P_POS, P_RES, P_SEL, P_SEL2, P_TOPOS, P_WHEN, P_WHICH, RECOVER, SEL_BANISHED, SEL_DECK,
    SEL_HAND, SOVEREIGN, TRADE, TRADE_GETS, W_BOTTOM, W_FILTER, W_SELF, W_TOP, program_for)
from sim.games.red_rising.zones import BANISHED
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
    deny: float = 0.5           # weight of the best card a banish, move or placement leaves the opponents


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
        prog = program_for(content)            # what the op being resolved does (the kernel's tables)
        self.op, self.prm, self.sel, self.fmatch = (prog.op.astype(np.int64), prog.prm.astype(np.int64), prog.sel,
                                                    prog.fmatch)

    def weights(self) -> np.ndarray:
        p = self.params
        return np.array([p.cards, p.synergy, p.fleet, p.helium, p.influence, p.sovereign,
                         p.hand_limit_cost, p.scout_bias, p.noise, p.deny], dtype=np.float64)

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
                 np.stack([m.weights() if isinstance(m, ScriptedStrategy) else np.zeros(N_WEIGHTS) for m in by_slot]),
                 first.core, first.core_values, first.both_ways, first.has_ability, first.fleet_points,
                 _numbers(cfg), np.empty(n_cards, np.int64), np.zeros(n_cards, np.bool_), np.zeros(n_cards, np.bool_),
                 np.empty(4), np.empty(4), np.empty(4), np.empty(4, np.int64), np.empty(4, np.int64))
        return engine.run_to_end(state, _play_to_end, lambda s: (s.b_i8, s.layout.slots["where"][1]) + fixed)

    @classmethod
    def act_group(cls, members, which, obs, legal, rng: StrategyRng):
        """All plans share the chooser; each row uses its own plan's weights."""
        cfg, first, s = obs.config, members[0], obs.state
        weights = np.stack([m.weights() for m in members])[which]
        return _choose(np.asarray(obs.kind, np.int64), np.asarray(obs.player, np.int64), s.where, s.top, s.under,
                       s.size, s.deployed, s.flipped, s.player, s.skip_gain, s.mop, s.depth, s.frame, s.helium,
                       s.fleet, s.cubes, s.sovereign, s.hand_n, legal, rng.uniform(1)[:, 0], first.core,
                       first.core_values, first.both_ways, first.has_ability, first.fleet_points, weights,
                       _numbers(cfg), first.op, first.prm, first.sel, first.fmatch)


def _numbers(cfg) -> np.ndarray:
    return np.array([cfg.helium_points, cfg.sovereign_points, cfg.hand_limit, cfg.hand_penalty], dtype=np.float64)


# Decision kinds, micro-ops, frame registers and program codes as plain ints for the compiled chooser.
_K_GAIN, _K_SCOUT, _K_DEPLOY_LOC = KIND["gain"], KIND["scout_location"], KIND["deploy_location"]
_K_BLOCK, _K_TARGET_LOC, _K_FACE = KIND["block"], KIND["target_location"], KIND["die_face"]
_K_DEPLOY_CARD, _K_PLACE, _K_OPTIONAL = KIND["deploy_card"], KIND["place_location"], KIND["optional"]
_M = rr_state.M
_M_OPT, _M_BH_OPT, _M_T_GAIN_ASK = _M["OPT"], _M["BH_OPT"], _M["T_GAIN_ASK"]
_M_BANLOC_LOC, _M_BANLOC_CARD, _M_RD_F1 = _M["BANLOC_LOC"], _M["BANLOC_CARD"], _M["RD_F1"]
_M_MOVE_SRC, _M_MOVE_CARD, _M_MOVE_DST = _M["MOVE_SRC"], _M["MOVE_CARD"], _M["MOVE_DST"]
_M_DA_CARD, _M_DA_LOC, _M_REC_LOC, _M_OPP_CARD = _M["DA_CARD"], _M["DA_LOC"], _M["REC_LOC"], _M["OPP_CARD"]
_R_RET, _R_PC, _R_ACTOR, _R_THIS, _R_CARD, _R_SRC = (rr_state.R_RET, rr_state.R_PC, rr_state.R_ACTOR,
                                                      rr_state.R_THIS, rr_state.R_CARD, rr_state.R_SRC)
_PHI = 0.6180339887498949
_TIE = 0.1          # weight of "worth more to the others than to me" among equally good banishes
N_WEIGHTS = 10


@njit(cache=True, inline="always")
def _keep(c, hand, h, core, both_ways, w_cards, w_syn):
    """Value of holding card ``c`` with the ``h`` cards of ``hand``: core value and end bonuses."""
    syn = 0.0
    for i in range(h):
        syn += both_ways[hand[i], c]
    return w_cards * core[c] + w_syn * syn


@njit(cache=True, inline="always")
def _context(mop, depth, frame, player, skip_gain, g, p):
    """What game g's pending decision is about, as player p may know it: the micro-op its answer
    goes to, the instruction row of the op being resolved, its ``this`` location and card, the card an
    earlier answer of p chose (a move's card; hidden in other players' frames, as the observation
    hides it) and whether p's gain step is still to come this turn (a deploy ability resolving)."""
    d = depth[g]
    pending = player[g] == p and d >= 1 and frame[g, 1, _R_RET] == _M_T_GAIN_ASK and not skip_gain[g]
    src = np.int64(frame[g, d, _R_SRC]) if frame[g, d, _R_ACTOR] == p else np.int64(-1)
    return (np.int64(mop[g]), max(np.int64(frame[g, d, _R_PC]), np.int64(0)), np.int64(frame[g, d, _R_THIS]),
            np.int64(frame[g, d, _R_CARD]), src, pending)


@njit(cache=True, inline="always")
def _base_board(top, under, g, tops, uot):
    """tops[x] = top card of location x, uot[x] = the card under it (-1: none)."""
    for x in range(4):
        t = np.int64(top[g, x])
        tops[x] = t
        uot[x] = under[g, t] if t >= 0 else -1


@njit(cache=True, inline="always")
def _lift(under, g, tops, uot, x):
    """The top card of location x leaves it (banished, moved): the card below becomes the top."""
    t = uot[x]
    tops[x] = t
    uot[x] = under[g, t] if t >= 0 else -1


@njit(cache=True, inline="always")
def _put(tops, uot, x, c, bottom):
    """Card c goes onto location x (on top, or at the bottom)."""
    if not bottom or tops[x] < 0:
        uot[x] = tops[x]
        tops[x] = c
    elif uot[x] < 0:
        uot[x] = c


@njit(cache=True, inline="always")
def _take_off(under, g, tops, uot, c, w):
    """Card c leaves location w (wherever it lies in the stack)."""
    if tops[w] == c:
        _lift(under, g, tops, uot, w)
    elif uot[w] == c:
        uot[w] = under[g, c]


@njit(cache=True, inline="always")
def _board(tops, uot, pending, deployed, g, deck_n, hand, h, core, both_ways, w_cards, w_syn, bonus, card_cost,
           deck_value, deny):
    """Value of the location tops ``tops`` for the player: the best gain it can still make this
    turn (if its gain step is to come: a top card of a location it has not deployed to, or the
    deck) less ``deny`` x the core value of the best card left on top for the opponents after it."""
    take = -1
    mine = 0.0
    if pending:
        best = deck_value if deck_n > 0 else -1e300
        for x in range(4):
            t = tops[x]
            if t >= 0 and not deployed[g, x]:
                v = _keep(t, hand, h, core, both_ways, w_cards, w_syn) + bonus[x] - card_cost
                if v > best:
                    best = v
                    take = x
        mine = best if best > -1e299 else 0.0
    threat = 0.0
    for x in range(4):
        t = uot[x] if x == take else tops[x]
        if t >= 0 and core[t] > threat:
            threat = core[t]
    return mine - deny * threat


@njit(cache=True, inline="always")
def _bottom_card(where, under, g, x):
    for c in range(where.shape[1]):
        if where[g, c] == x and under[g, c] == -1:
            return np.int64(c)
    return np.int64(-1)


@njit(cache=True)
def _choose(kind, me, where, top, under, size, deployed, flipped, player, skip_gain, mop, depth, frame, helium,
            fleet, cubes, sovereign, hand_n, legal, u, core, core_values, both_ways, has_ability, fleet_points, w,
            numbers, op, prm, sel, fmatch):
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
    tops = np.empty(4, np.int64)
    uot = np.empty(4, np.int64)
    for g in range(b):
        p = me[g]
        n_hidden = 0
        hidden_sum = 0
        for c in range(n_cards):
            z = where[g, c]
            mine[c] = z == 10 + p
            n_hidden += z == -1
            hidden_sum += core_values[c] if z == -1 else 0
        out[g] = _choose_game(g, kind[g], p, mine, n_hidden, hidden_sum, where, top, under, size, deployed, flipped,
                              _context(mop, depth, frame, player, skip_gain, g, p), helium, fleet, cubes, sovereign,
                              hand_n, legal, u[g], core, both_ways, has_ability, fleet_points, w[g], numbers, op,
                              prm, sel, fmatch, hand, bonus, gain_loc, top_keep, tops, uot)
    return out


@njit(cache=True)
def _choose_game(g, k, p, mine, n_hidden, hidden_sum, where, top, under, size, deployed, flipped, ctx, helium, fleet,
                 cubes, sovereign, hand_n, legal, u_g, core, both_ways, has_ability, fleet_points, w_g, numbers, op,
                 prm, sel, fmatch, hand, bonus, gain_loc, top_keep, tops, uot):
    """The choice of game ``g`` (row ``g`` of the batch arrays) by player ``p`` for a decision of
    kind ``k`` with its plan's weights ``w_g``: the body of ``_choose``, also called by the
    whole-game driver (``_play_to_end``; not inlined: a call of more than 30 arguments cannot be). What p sees of the cards: ``mine`` [C] (cards read as
    in p's hand), the count and core sum of the unknown cards, the location stacks (``top``,
    ``under``; ``where`` of location cards). ``ctx``: ``_context``. ``op``, ``prm``, ``sel``,
    ``fmatch``: the program's tables (what the resolving op does). ``hand``, ``bonus``,
    ``gain_loc``, ``top_keep``, ``tops``, ``uot`` are scratch buffers."""
    a = legal.shape[1]
    n_cards = core.shape[0]
    seats = helium.shape[1]
    m, pc, this, self_card, src, pending = ctx
    helium_points, sovereign_points, hand_limit, hand_penalty = numbers[0], numbers[1], numbers[2], numbers[3]
    last = fleet_points.shape[0] - 1
    w_cards, w_syn, w_fleet, w_helium, w_inf, w_sov, w_limit, scout_bias, noise, deny = (
        w_g[0], w_g[1], w_g[2], w_g[3], w_g[4], w_g[5], w_g[6], w_g[7], w_g[8], w_g[9])
    deck_n = size[g, 4]
    # own hand (branch-free); the unknown cards' mean core value
    h = 0
    for c in range(n_cards):
        hand[h] = c
        h += mine[c]
    deck_card = 0.0
    if n_hidden > 0:
        deck_card = np.float64(hidden_sum) / n_hidden     # whole numbers: the float sum, exactly
    card_cost = w_limit * hand_penalty if hand_n[g, p] + 1 - hand_limit > 0 else 0.0
    lead_cost = w_limit * hand_penalty if hand_n[g, p] + (1 if h == 0 else 0) - hand_limit > 0 else 0.0
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
    cube_value = w_inf * (rate + lead_bonus)
    bonus[3] = cube_value if own_cubes < 10 else 0.0
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
    o = op[pc]
    best = -1e300
    choice = 0
    for act in range(a):
        if not legal[g, act]:
            continue
        v = 0.0
        if act == 0:                                   # lead: the best gain (its card replaces the one deployed)
            v = max(best_gain, deck_value) + card_cost - lead_cost
        elif act == 1:                                 # scout
            v = best_bonus + scout_bias
        elif act < 6:                                  # a location
            x = act - 2
            if k == _K_GAIN:
                v = gain_loc[x]
            elif k == _K_DEPLOY_LOC or (k == _K_TARGET_LOC and m == _M_DA_LOC):
                v = -gain_loc[x]                       # keep the best gains open
            elif k == _K_SCOUT or k == _K_PLACE or (k == _K_TARGET_LOC and m == _M_REC_LOC):
                card = np.int64(flipped[g]) if k != _K_TARGET_LOC else src
                _base_board(top, under, g, tops, uot)
                _put(tops, uot, x, card, False)
                v = _board(tops, uot, pending, deployed, g, deck_n, hand, h, core, both_ways, w_cards, w_syn,
                           bonus, card_cost, deck_value, deny)
                if k == _K_SCOUT:
                    v += bonus[x]
            elif k == _K_TARGET_LOC and (m == _M_BANLOC_LOC or m == _M_RD_F1):
                _base_board(top, under, g, tops, uot)
                _lift(under, g, tops, uot, x)
                v = _board(tops, uot, pending, deployed, g, deck_n, hand, h, core, both_ways, w_cards, w_syn,
                           bonus, card_cost, deck_value, deny)
            elif k == _K_TARGET_LOC and m == _M_MOVE_SRC:
                card = _bottom_card(where, under, g, x) if prm[pc, P_WHICH] == W_BOTTOM else np.int64(top[g, x])
                v = -1e300
                for y in range(4):
                    if y != x and sel[prm[pc, P_SEL2], this + 1, y]:
                        _base_board(top, under, g, tops, uot)
                        _take_off(under, g, tops, uot, card, x)
                        _put(tops, uot, y, card, prm[pc, P_TOPOS] == 1)
                        v = max(v, _board(tops, uot, pending, deployed, g, deck_n, hand, h, core, both_ways,
                                          w_cards, w_syn, bonus, card_cost, deck_value, deny))
            elif k == _K_TARGET_LOC and m == _M_MOVE_DST:
                _base_board(top, under, g, tops, uot)
                _take_off(under, g, tops, uot, src, where[g, src])
                _put(tops, uot, x, src, prm[pc, P_TOPOS] == 1)
                v = _board(tops, uot, pending, deployed, g, deck_n, hand, h, core, both_ways, w_cards, w_syn,
                           bonus, card_cost, deck_value, deny)
            elif k == _K_TARGET_LOC:                   # a card to take (gain_card) and the rest
                v = top_keep[x]
        elif act == 6:                                 # the deck
            v = deck_value if k == _K_GAIN else 0.0
        elif act == 7:                                 # yes
            v = 1.0
            if k == _K_OPTIONAL and (m == _M_OPT or m == _M_BH_OPT):
                v = _yes_value(g, p, m, o, pc, this, self_card, pending, where, top, under, deployed, deck_n,
                               hand, h, hand_n, fleet, op, prm, sel, fmatch, core, both_ways, fleet_points, bonus,
                               w_cards, w_syn, w_fleet, w_helium, w_limit, helium_points, hand_limit, hand_penalty,
                               cube_value, die_mean, deck_card, card_cost, deck_value, deny, tops, uot)
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
        else:                                          # a card
            c = act - 20
            keep = _keep(c, hand, h, core, both_ways, w_cards, w_syn)
            if m == _M_BANLOC_CARD:                    # banish a location card: the board without it
                _base_board(top, under, g, tops, uot)
                _take_off(under, g, tops, uot, c, where[g, c])
                v = _board(tops, uot, pending, deployed, g, deck_n, hand, h, core, both_ways, w_cards, w_syn,
                           bonus, card_cost, deck_value, deny) + _TIE * (core[c] - keep)
            elif m == _M_MOVE_CARD:
                v = -1e300
                for y in range(4):
                    if y != where[g, c] and sel[prm[pc, P_SEL2], this + 1, y]:
                        _base_board(top, under, g, tops, uot)
                        _take_off(under, g, tops, uot, c, where[g, c])
                        _put(tops, uot, y, c, prm[pc, P_TOPOS] == 1)
                        v = max(v, _board(tops, uot, pending, deployed, g, deck_n, hand, h, core, both_ways,
                                          w_cards, w_syn, bonus, card_cost, deck_value, deny))
            elif mine[c]:                              # give up own cards: the least worth
                deploying = k == _K_DEPLOY_CARD or m == _M_DA_CARD
                v = -keep + (3.0 if deploying and has_ability[c] > 0 else 0.0)
            elif m == _M_OPP_CARD and prm[pc, P_ACT] == A_BANISH:
                v = core[c]                            # banish an opponent's card: its worth to them
            else:                                      # take others' cards: the most worth
                v = keep
        j = u_g + (act + 1) * _PHI
        j -= np.floor(j)
        v += noise * j + 1e-9 * j
        if v > best:
            best = v
            choice = act
    return choice


@njit(cache=True, inline="always")
def _unit_value(res, amt, gain, f, last, fleet_points, w_fleet, w_helium, helium_points, cube_value, bonus,
                die_mean):
    """Points (times the plan's weights) of gaining (``gain``) or paying ``amt`` units of ``res``."""
    if res == HELIUM:
        return w_helium * helium_points * amt
    if res == FLEET:
        if gain:
            return w_fleet * (fleet_points[min(f + amt, last)] - fleet_points[f])
        return w_fleet * (fleet_points[f] - fleet_points[max(f - amt, 0)])
    if res == INFLUENCE:
        return (bonus[3] if gain else cube_value) * amt
    if res == SOVEREIGN:
        return bonus[2]
    return die_mean * amt


@njit(cache=True)
def _yes_value(g, p, m, o, pc, this, self_card, pending, where, top, under, deployed, deck_n, hand, h, hand_n,
               fleet, op, prm, sel, fmatch, core, both_ways, fleet_points, bonus, w_cards, w_syn, w_fleet, w_helium,
               w_limit, helium_points, hand_limit, hand_penalty, cube_value, die_mean, deck_card, card_cost, deck_value,
               deny, tops, uot):
    """Worth of answering ``yes`` to an optional op (``no`` is worth 0): resources gained less
    those paid, a card taken less its hand-limit cost, the board after a banish or move against
    the board now, a hand card banished against the hand penalty it saves; 1 for the others."""
    last = fleet_points.shape[0] - 1
    f = min(max(fleet[g, p], 0), last)
    filt = prm[pc, P_FILT]
    relief = w_limit * hand_penalty if hand_n[g, p] > hand_limit else 0.0
    if m == _M_BH_OPT or o == BANISH_HAND:               # banish an own card: the least worth
        worst = 1e300
        for i in range(h):
            c = hand[i]
            if fmatch[filt, c] or m == _M_BH_OPT:
                worst = min(worst, _keep(c, hand, h, core, both_ways, w_cards, w_syn))
        return relief - worst if worst < 1e299 else 0.0
    if o == GAIN:
        return _unit_value(prm[pc, P_RES], prm[pc, P_AMT], True, f, last, fleet_points, w_fleet, w_helium,
                           helium_points, cube_value, bonus, die_mean)
    if o == LOSE:
        return -_unit_value(prm[pc, P_RES], prm[pc, P_AMT], False, f, last, fleet_points, w_fleet, w_helium,
                            helium_points, cube_value, bonus, die_mean)
    if o == TRADE:
        v = 0.0
        for r in range(3):
            v -= _unit_value(r, prm[pc, P_PAY + r], False, f, last, fleet_points, w_fleet, w_helium,
                             helium_points, cube_value, bonus, die_mean)
        for i in range(TRADE_GETS):
            if prm[pc, P_GET + 2 * i + 1] > 0:
                v += _unit_value(prm[pc, P_GET + 2 * i], prm[pc, P_GET + 2 * i + 1], True, f, last, fleet_points,
                                 w_fleet, w_helium, helium_points, cube_value, bonus, die_mean)
        return v
    if o == GAIN_CARD or (o == RECOVER and prm[pc, P_SEL2] == SEL_HAND):
        best = -1e300
        code = prm[pc, P_SEL]
        for c in range(where.shape[1]):
            z = where[g, c]
            if not fmatch[filt, c]:
                continue
            if o == RECOVER or code == SEL_BANISHED:
                ok = z == BANISHED
            elif code == SEL_DECK:
                ok = False
            else:
                ok = 0 <= z < 4 and sel[code, this + 1, z] and (prm[pc, P_POS] == 1 or top[g, z] == c)
            if ok:
                best = max(best, _keep(c, hand, h, core, both_ways, w_cards, w_syn))
        if o == GAIN_CARD and code == SEL_DECK:
            best = w_cards * deck_card
        # the gain step still to come adds a card after this one
        cost = w_limit * hand_penalty if hand_n[g, p] + 1 + (1 if pending else 0) - hand_limit > 0 else 0.0
        v = best - cost if best > -1e299 else 0.0
        if op[pc + 1] == END_TURN and prm[pc + 1, P_WHEN] == 1 and pending:   # taking it ends the turn
            _base_board(top, under, g, tops, uot)
            v -= max(_board(tops, uot, pending, deployed, g, deck_n, hand, h, core, both_ways, w_cards, w_syn,
                            bonus, card_cost, deck_value, 0.0), 0.0)
        return v
    if o == BANISH_LOC or o == MOVE:
        _base_board(top, under, g, tops, uot)
        now = _board(tops, uot, pending, deployed, g, deck_n, hand, h, core, both_ways, w_cards, w_syn, bonus,
                     card_cost, deck_value, deny)
        best = -1e300
        code = prm[pc, P_SEL]
        for c in range(where.shape[1]):
            z = where[g, c]
            if not (0 <= z < 4 and sel[code, this + 1, z]):
                continue
            if o == BANISH_LOC:
                if not (fmatch[filt, c] and (prm[pc, P_POS] == 1 or top[g, z] == c)):
                    continue
                _base_board(top, under, g, tops, uot)
                _take_off(under, g, tops, uot, c, z)
                best = max(best, _board(tops, uot, pending, deployed, g, deck_n, hand, h, core, both_ways, w_cards,
                                        w_syn, bonus, card_cost, deck_value, deny))
                continue
            which = prm[pc, P_WHICH]
            if which == W_SELF:
                ok = c == self_card
            else:
                ok = fmatch[filt, c] and ((which == W_TOP and top[g, z] == c) or which == W_FILTER
                                          or (which == W_BOTTOM and under[g, c] == -1))
            if not ok:
                continue
            for y in range(4):
                if y != z and sel[prm[pc, P_SEL2], this + 1, y]:
                    _base_board(top, under, g, tops, uot)
                    _take_off(under, g, tops, uot, c, z)
                    _put(tops, uot, y, c, prm[pc, P_TOPOS] == 1)
                    best = max(best, _board(tops, uot, pending, deployed, g, deck_n, hand, h, core, both_ways,
                                            w_cards, w_syn, bonus, card_cost, deck_value, deny))
        return best - now if best > -1e299 else 0.0
    return 1.0


@njit(cache=True, _nrt=False)
def _play_to_end(S, P, w8, where_col, slot, keys, counters, n_strategies, is_uniform, weights, core, core_values,
                 both_ways, has_ability, fleet_points, numbers, hand, mine, seen, bonus, gain_loc, top_keep, tops, uot,
                 bad):
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
                        ctx = _context(S.mop, S.depth, S.frame, S.player, S.skip_gain, g, p)
                        a = _choose_game(g, np.int64(S.kind[g]), p, mine, n_hidden, hidden_sum, S.where, S.top,
                                         S.under, S.size, S.deployed, S.flipped, ctx, helium, fleet, cubes,
                                         S.sovereign, S.hand_n, S.legal, u, core, both_ways, has_ability,
                                         fleet_points, weights[s], numbers, P.op, P.prm, P.sel, P.fmatch, hand,
                                         bonus, gain_loc, top_keep, tops, uot)
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
