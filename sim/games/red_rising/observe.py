"""What a Red Rising player may know (RR-R70, RR-A31): observations, the scrubbed state, the
cards a compiled strategy sees (``observe_cards``) and full states sampled from an observation.

``Observation`` is what ``GAME.observe`` returns: attribute access goes to a scrubbed copy of
the state, built on first use (the fields strategies read most are scrubbed one by one).
``scrub`` erases everything the players may not know; ``visible`` says which card places a
player knows now. ``scrub_where_row`` and ``observe_cards`` are the compiled forms the
strategies' kernels inline; ``sample_state`` deals the hidden cards at random (lookahead).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.core import kernel_cache, rng
from sim.games.red_rising import actions as A
from sim.games.red_rising import state as rr_state
from sim.games.red_rising import zones
from sim.games.red_rising.state import PILE_AUTOMA, PILE_DECK, UNKNOWN, State

# The compiled functions below read constants of these modules: their cache is keyed on them too.
kernel_cache.watch(__file__, A, zones, rr_state)


class Observation:
    """What each game's given player may know (RR-R70, RR-A31).

    Attribute access goes to a *scrubbed* copy of the state (``.state``), built on first use:
    cards in other hands, in the deck and in Au Toma's hand read ``where == UNKNOWN`` (unless
    revealed to this player in the current decision), their pile links are cut, the deck and
    Au Toma's deck order, the random keys, other players' seen sets and pending choices are
    erased. ``player`` is each game's observing player. Public: location stacks in order
    (``top``/``under``/``size``), the banished pile, the flipped card, resources, Sovereign,
    deployed flags, whose turn, decision kind, hand and deck counts, Au Toma's discards.
    """

    def __init__(self, state: State, players):
        self.player = np.asarray(players, dtype=np.int64)
        self._raw = state
        self._view = None

    @property
    def state(self) -> State:
        if self._view is None:
            self._view = scrub(self._raw, self.player)
            self._raw = None
        return self._view

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if self._view is None and name in PUBLIC_FIELDS:      # no copy needed: public as it is
            return getattr(self._raw, name)
        if self._view is None and name in _CHEAP_FIELDS:      # one scrubbed field, not the whole state
            cached = self.__dict__.setdefault("_fields", {})
            if name not in cached:
                cached[name] = _CHEAP_FIELDS[name](self._raw, self.player)
            return cached[name]
        return getattr(self.state, name)

    @property
    def hand_sizes(self):
        return self.state.hand_n

    @property
    def deck_size(self):
        return self.state.size[:, PILE_DECK]

    def stacks(self):
        """int16[B, 4, C]: each location's cards, top first (-1 padding)."""
        s = self.state
        b, c = s.where.shape
        out = np.full((b, 4, c), -1, dtype=np.int16)
        rows = np.arange(b)
        for x in range(4):
            card = s.top[:, x].astype(np.int64)
            for i in range(int(s.size[:, x].max(initial=0))):
                out[:, x, i] = card
                card = np.where(card >= 0, s.under[rows, np.maximum(card, 0)], -1)
        return out


# Observation fields that hold no hidden information, read straight from the state.
PUBLIC_FIELDS = frozenset({
    "config", "content", "prog", "helium", "fleet", "cubes", "res", "cap", "sovereign", "house", "slot",
    "automa", "hand_n", "size", "kind", "decider", "turns", "rounds", "deployed", "flipped",
    "triggered", "done", "prio", "letter_loc", "luna_bonus", "parity",
})


def _scrubbed_where(s: State, players):
    """``where`` as ``visible`` allows (compiled: the field every strategy reads first)."""
    return _where_kernel(s.where, np.asarray(players, dtype=np.int64), s.automa, s.flipped, s.decider,
                         s.legal, s.depth, s.f_actor, s.f_seen)


@njit(cache=True)
def _where_kernel(where, players, automa, flipped, decider, legal, depth, f_actor, f_seen):
    b, c = where.shape
    out = np.empty((b, c), dtype=where.dtype)
    for g in range(b):
        scrub_where_row(where, automa, flipped, decider, legal, depth, f_actor, f_seen, g, players[g], out[g])
    return out


@njit(cache=True, inline="always")
def scrub_where_row(where, automa, flipped, decider, legal, depth, f_actor, f_seen, g, p, out):
    """Row ``g`` of ``where`` as player ``p`` sees it (``visible``), into ``out`` [C]; the
    arguments are the State's arrays (inlined by ``_where_kernel``)."""
    c = where.shape[1]
    d = depth[g]
    acting = d > 0 and f_actor[g, d] == p
    own = zones.HAND0 + p if p != automa[g] else -1000      # the own hand (none for Au Toma)
    shown = flipped[g]
    deciding = decider[g] == p
    for card in range(c):                   # branch-free (| not or): several times faster
        z = where[g, card]
        vis = ((z <= zones.INSTITUTE) | (z == zones.BANISHED) | (z == zones.OUT) | (z == own)
               | (card == shown) | (deciding & legal[g, A.CARD0 + card]))
        out[card] = z if vis else UNKNOWN
    if acting:
        for k in range(f_seen.shape[2]):
            card = f_seen[g, d, k]
            if card >= 0:
                out[card] = where[g, card]


@njit(cache=True, inline="always")
def observe_cards(w8, where_col, automa, flipped, decider, legal, depth, f_actor, f_seen, g, p, values, mine, seen):
    """What player ``p`` sees of game ``g``'s cards, summed up for compiled strategies without a
    scrubbed copy (``scrub_where_row`` gives the same): ``mine[c]`` = card c reads as in p's hand,
    and the count and ``values`` sum (int64 [C]) of the cards that read ``UNKNOWN``.

    ``w8`` is the state's int8 backing array and ``where_col`` the column of ``where`` in it
    (``State.layout``): unit-stride rows, so the loop compiles to vector code. ``seen`` is a
    bool [C] scratch buffer, all False (it is left so).
    """
    c = mine.shape[0]
    d = depth[g]
    acting = d > 0 and f_actor[g, d] == p
    if acting:
        for k in range(f_seen.shape[2]):
            card = f_seen[g, d, k]
            if card >= 0:
                seen[card] = True
    hand = zones.HAND0 + p
    own = hand if p != automa[g] else -1000
    shown = flipped[g]
    deciding = decider[g] == p
    n_hidden = 0
    hidden_sum = 0
    for card in range(c):
        z = w8[g, where_col + card]
        vis = ((z <= zones.INSTITUTE) | (z == zones.BANISHED) | (z == zones.OUT) | (z == own)
               | (card == shown) | (deciding & legal[g, A.CARD0 + card]) | seen[card])
        mine[card] = vis & (z == hand)
        n_hidden += not vis
        hidden_sum += 0 if vis else values[card]
    if acting:
        for k in range(f_seen.shape[2]):
            card = f_seen[g, d, k]
            if card >= 0:
                seen[card] = False
    return n_hidden, hidden_sum


def _scrubbed_top(s: State, players):
    top = s.top.copy()
    top[:, PILE_DECK] = np.where(s.flipped >= 0, s.flipped, -1)
    top[:, PILE_AUTOMA] = -1
    return top


def _scrubbed_legal(s: State, players):
    return s.legal & (s.decider == np.asarray(players))[:, None]


# Fields a strategy reads most, each scrubbed on its own exactly as ``scrub`` does it.
_CHEAP_FIELDS = {"where": _scrubbed_where, "top": _scrubbed_top, "legal": _scrubbed_legal}


def visible(s: State, players):
    """bool[B, C]: cards whose place the given player may know now."""
    w = s.where
    rows = np.arange(len(players))
    public = (w <= zones.INSTITUTE) | (w == zones.BANISHED) | (w == zones.OUT)
    own = (w == zones.HAND0 + players[:, None]) & (players != s.automa)[:, None]
    flipped = np.zeros_like(public)
    f = s.flipped >= 0
    flipped[rows[f], s.flipped[f]] = True
    vis = public | own | flipped
    # cards shown to this player in the current decision: its legal card choices, the seen
    # set of the frame it acts in
    decider = s.decider == players
    vis |= s.legal[:, A.CARD0:] & decider[:, None]
    d = s.depth.astype(np.intp)
    mine = (s.f_actor[rows, d] == players) & (d > 0)
    seen = s.f_seen[rows, d]                                   # [B, K]
    for k in range(seen.shape[1]):
        ok = mine & (seen[:, k] >= 0)
        vis[rows[ok], seen[ok, k]] = True
    return vis


def scrub(s: State, players) -> State:
    """A copy of ``s`` in which everything the players may not know is erased (canonical)."""
    o = s.copy()
    players = np.asarray(players, dtype=np.int64)
    vis = visible(s, players)
    hidden = ~vis
    o.where[hidden] = UNKNOWN
    in_pile_hidden = hidden | (s.where == zones.DECK) | (s.where == zones.HAND0 + s.automa[:, None])
    o.under[in_pile_hidden] = -1
    o.top = _scrubbed_top(s, players)
    o.key_die[:] = 0
    o.key_pick[:] = 0
    o.key_automa[:] = 0
    if s.auto_order.shape[1]:
        pos = np.arange(s.auto_order.shape[1])[None, :]
        public = (pos >= 4) & (pos < s.auto_pos[:, None])     # her discard pile (RR-V21)
        o.auto_order[~public] = -1
    o.legal = _scrubbed_legal(s, players)
    o.action[:] = 0
    mine_turn = s.player == players
    o.pend[~mine_turn] = -1
    o.end_pending[~(s.end_player == players)] = False
    o.end_pending &= vis
    frames = (s.f_actor != players[:, None]) | (np.arange(s.f_actor.shape[1])[None, :] > s.depth[:, None])
    o.f_seen[frames] = -1                         # other players' and finished frames' seen cards
    o.f_src[frames] = -1
    o.traded &= np.concatenate([vis, np.ones((len(players), 1), bool)], axis=1)
    return o


SAMPLE_TRIES = 32      # re-deals of a game whose deal cannot follow the pending decision


def sample_state(obs: Observation, keys) -> State:
    """A full state consistent with ``obs``: hidden cards dealt at random (uint64 ``keys``),
    re-dealt (up to ``SAMPLE_TRIES`` times) where an answer the observer may give now would
    lead to a decision with no legal answer.

    The legal mask of a decision can tell what the observer cannot see: an optional effect is
    offered because an opponent's hand holds a card it can target, so a deal without one would
    ask, after "yes", for a target card among none (``IllegalActionError`` in a rollout). Deals
    that contradict the pending decision that way are rejected (``_follows``), which conditions
    the sample on what the decision shows.
    """
    keys = np.asarray(keys, dtype=np.uint64)
    s = _deal(obs, keys)
    todo = np.flatnonzero(~_follows(s))
    for attempt in range(1, SAMPLE_TRIES):
        if not len(todo):
            break
        again = _deal(Rows(obs, todo), rng.bits(keys[todo], attempt))
        ok = _follows(again)
        _put(s, todo[ok], again, np.flatnonzero(ok))
        todo = todo[~ok]
    return s


class Rows:
    """The observation of some games only, repeats allowed (re-deals, the search player's samples)."""

    def __init__(self, obs: Observation, rows):
        from sim.core.game import take
        self.state = take(obs.state, rows)


def _put(s: State, rows, src: State, src_rows) -> None:
    """Games ``src_rows`` of ``src`` written over games ``rows`` of ``s`` (same layout)."""
    import dataclasses
    for f in dataclasses.fields(s):
        v = getattr(s, f.name)
        if isinstance(v, np.ndarray) and v.ndim >= 1 and v.shape[0] == s.batch and f.name != "game_id":
            v[rows] = getattr(src, f.name)[src_rows]


def _follows(s: State) -> np.ndarray:
    """bool[B]: every legal answer of the pending decision leads to a decision with a legal
    answer (or ends the game) in this deal."""
    from sim.core.game import take
    from sim.games.red_rising import engine
    rows, acts = np.nonzero(s.legal & ~s.done[:, None])
    ok = np.ones(s.batch, dtype=bool)
    if not len(rows):
        return ok
    after = engine.step(take(s, rows), acts)
    stuck = ~after.done & ~after.legal.any(axis=1)
    ok[rows[stuck]] = False
    return ok


def _deal(obs, keys) -> State:
    """One random deal of the hidden cards (``sample_state`` without the check).

    Unknown cards are shuffled (draws keyed by ``keys``) and dealt to the hidden places in the
    order deck (below a flipped card), then each hand with hidden cards in seat order. Au Toma's
    hand order and her deck's hidden part are shuffled too; the random streams get fresh keys,
    so simulated dice and draws are not the real future ones.
    """
    s = obs.state.copy()
    keys = np.asarray(keys, dtype=np.uint64)
    c = s.where.shape[1]
    unknown = s.where == UNKNOWN
    order = np.argsort(np.where(unknown, rng.uniform(keys[:, None], np.arange(c)[None, :]), 2.0),
                       axis=1, kind="stable")                              # unknown cards first
    known_hand = np.stack([(s.where == zones.HAND0 + q).sum(axis=1) for q in range(s.seats)], axis=1)
    need_hand = np.maximum(s.hand_n - known_hand, 0)
    deck_known = (s.flipped >= 0).astype(np.int64)
    need_deck = np.maximum(s.size[:, PILE_DECK] - deck_known, 0)
    # the shuffled unknown cards in order: the deck's (below a flipped card), then each hand's in
    # seat order; all games at once, with no loop over the deck's cards (that loop was most of
    # the search player's time in Red Rising, docs/search.md "Speed")
    bounds = np.cumsum(np.concatenate([need_deck[:, None], need_hand], axis=1), axis=1)     # [B, 1 + P]
    part = (np.arange(c)[None, :, None] >= bounds[:, None, :]).sum(axis=2)                  # 0 deck, 1 + q hand q
    g, i = np.nonzero(part <= s.seats)
    codes = np.concatenate([[zones.DECK], zones.HAND0 + np.arange(s.seats)]).astype(s.where.dtype)
    s.where[g, order[g, i]] = codes[part[g, i]]
    # the deck: a flipped card stays on top, the hidden cards linked below it in that order
    deck = i < need_deck[g]
    g, i = g[deck], i[deck]
    card = order[g, i]
    above = np.where(i > 0, order[g, np.maximum(i - 1, 0)], s.flipped[g])
    s.under[g[above >= 0], above[above >= 0]] = card[above >= 0]
    s.top[:, PILE_DECK] = np.where(s.flipped >= 0, s.flipped, np.where(need_deck > 0, order[:, 0], -1))
    # Au Toma's hand: all her cards in a random order
    solo = np.flatnonzero(s.automa >= 0)
    if solo.size:
        gs = solo
        mine = s.where[gs] == (zones.HAND0 + s.automa[gs])[:, None]
        u = np.where(mine, rng.uniform(keys[gs, None], c + np.arange(c)[None, :]), 2.0)
        hand_order = np.argsort(u, axis=1, kind="stable")
        s.top[gs, PILE_AUTOMA] = -1
        s.under[gs[:, None], np.arange(c)[None, :]] = np.where(mine, -1, s.under[gs])
        for i in range(int(mine.sum(axis=1).max(initial=0))):
            ok = mine.sum(axis=1) > i
            g, card = gs[ok], hand_order[ok, i]
            s.under[g, card] = s.top[g, PILE_AUTOMA]
            s.top[g, PILE_AUTOMA] = card
        # her Au Toma deck: hidden positions refilled with the missing cards in random order
        na = s.auto_order.shape[1]
        for j, g in enumerate(gs):
            row = s.auto_order[g]
            missing = np.setdiff1d(np.arange(na), row[row >= 0])
            perm = np.argsort(rng.uniform(keys[g:g + 1, None], 2 * c + np.arange(len(missing))[None, :])[0])
            row[row < 0] = missing[perm]
        del j
    s.key_die[:] = rng.stream_keys(0, keys, "die")
    s.key_pick[:] = rng.stream_keys(0, keys, "pick")
    s.key_automa[:] = rng.stream_keys(0, keys, "automa")
    return s
