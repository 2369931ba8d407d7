"""What a player may know (AK-A45, model doc "What a player observes"), and sampling a state from it.

``observe`` gives the public parts of the state (views, ``Public``) plus copies of the
observer's own hand, own first-retreat tile values and own pending battle choice. Other hands, the deck order, other
players' tile values, the tiles not yet taken and other players' pending battle choices never
enter an observation. ``sample_state`` is the inverse used by the lookahead strategy: a full
state consistent with an observation, the hidden parts dealt at random from its own keys.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from sim.core import rng
from sim.games.animal_kingdoms import kernel
from sim.games.animal_kingdoms.state import BCARD, PACKS, State, empty_state

# Public state fields an observation carries unchanged.
PUBLIC = ("phase", "dec", "age", "cur", "age_start", "active", "ret_age", "ret_ever", "age_turns", "turns",
          "rounds", "last_rel", "cap_turn", "first_cap", "human_last", "robot_last", "cap_hit", "disc", "col",
          "clen", "last", "bonus", "rcards", "decree", "ordm", "cap", "council", "supply", "fp", "fpn", "rt_owner", "pf",
          "ps", "pt", "pr", "mods", "msup", "sj", "part", "lost", "bfirst", "ck", "st_claims", "st_rallies",
          "st_capitals", "st_first_retreats", "st_battles_won", "st_battles_lost", "st_council", "battles",
          "start_slot")


@dataclass
class Obs:
    """One observation per game of a batch (arrays, batch axis first); ``t`` = the static tables."""

    t: object
    player: np.ndarray          # int[b]: the observer's seat
    hand: np.ndarray            # int16[b, H]: own hand (SENT = empty)
    hand_count: np.ndarray      # int[b, P]: every seat's hand size
    deck_count: np.ndarray      # int[b]
    own_rt: np.ndarray          # int[b, 3]: value of own first-retreat tile of each age, -1 otherwise
    my_card: np.ndarray         # int32[b]: own pending battle card (SENT = none)
    my_mods: np.ndarray         # int32[b]: own pending modifier choice (-1 = none)
    revealed: np.ndarray        # int16[b, P]: battle cards revealed this round (SENT = none)
    public: Mapping             # field name -> array, the PUBLIC fields of the state (``Public``)

    def __getattr__(self, name):
        public = self.__dict__.get("public")
        if public is not None and name in public:
            return public[name]
        raise AttributeError(name)


def _public_views():
    """(name, pack, column or slice) of every PUBLIC field stored in a pack, else (name, None, None)."""
    where = {}
    for pack, names in PACKS.items():
        i = 0
        for entry in names:
            name, width = (entry, None) if isinstance(entry, str) else entry
            where[name] = (pack, i if width is None else slice(i, i + width))
            i += 1 if width is None else width
    return [(f, *where.get(f, (None, None))) for f in PUBLIC]


_VIEWS = _public_views()
# Packs that hold public knowledge only (flow, counters, flags, the board): their PUBLIC fields
# become views when first read. The other fields (in packs that also hold hands, the deck or
# pending battle choices) are made at once, so an observation keeps no reference to those packs.
_LAZY_PACKS = ("gi", "gb", "sb", "ki", "kp")
_LAZY = {f: (pack, col) for f, pack, col in _VIEWS if pack in _LAZY_PACKS}
_EAGER = [(f, pack, col) for f, pack, col in _VIEWS if pack not in _LAZY_PACKS]


class Public(Mapping):
    """field name -> array: the PUBLIC fields of a state (views, made on first use where cheap)."""

    def __init__(self, s: State):
        self._packs = {p: getattr(s, p) for p in _LAZY_PACKS}
        self._made = {f: getattr(s, f) if pack is None else getattr(s, pack)[..., col] for f, pack, col in _EAGER}

    def __getitem__(self, name):
        view = self._made.get(name)
        if view is None:
            pack, col = _LAZY[name]
            view = self._made[name] = self._packs[pack][..., col]
        return view

    def __iter__(self):
        return iter(PUBLIC)

    def __len__(self):
        return len(PUBLIC)


def observe(s: State, players) -> Obs:
    t = s.t
    b = s.batch
    players = np.asarray(players, dtype=np.int64)
    out = dict(hand=np.empty((b, t.H), dtype=np.int16), hand_count=np.empty((b, t.P), dtype=np.int64),
               deck_count=np.empty(b, dtype=np.int64), own_rt=np.empty((b, 3), dtype=np.int16),
               my_card=np.empty(b, dtype=np.int32), my_mods=np.empty(b, dtype=np.int32),
               revealed=np.empty((b, t.P), dtype=np.int16))
    kernel.observe_private(s.gi, s.si, s.sb, s.hand, s.rt, kernel.kernel_tables(t)[1], players, *out.values())
    return Obs(t=t, player=players, public=Public(s), **out)


def _public_cards(obs: Obs) -> np.ndarray:
    """bool[b, N]: cards whose place the observer knows."""
    t = obs.t
    b, N = len(obs.player), t.N
    known = np.zeros((b, N + 1), dtype=bool)
    ar = np.arange(b)[:, None]
    known[ar, obs.hand.astype(np.int64)] = True
    known[ar, obs.col.reshape(b, t.K * t.S).astype(np.int64)] = True
    known[ar, obs.bonus.astype(np.int64)] = True
    known[ar, obs.rcards.astype(np.int64)] = True
    known[ar, obs.revealed.astype(np.int64)] = True
    known[:, :N] |= obs.disc
    return known[:, :N]


def sample_state(obs: Obs, keys) -> State:
    """A full state consistent with ``obs``: unseen cards and tile values dealt at random by ``keys``."""
    t = obs.t
    b, N, P, H = len(obs.player), t.N, t.P, t.H
    keys = np.asarray(keys, dtype=np.uint64)
    me = obs.player
    ar = np.arange(b)
    fields = {f: np.array(v, copy=True) for f, v in obs.public.items()}
    # cards: own hand as seen; unseen cards in random order to the other hands, then the deck
    unseen = ~_public_cards(obs)
    u = rng.bits(keys[:, None], np.arange(N)[None, :])
    order = np.argsort(np.where(unseen, u, np.iinfo(np.uint64).max), axis=1, kind="stable")
    hand = np.full((b, P, H), N, dtype=np.int16)
    hand[ar, me] = obs.hand
    offset = np.zeros(b, dtype=np.int64)
    for p in range(P):
        cnt = np.where(me == p, 0, obs.hand_count[:, p])
        take = np.arange(H)[None, :] < cnt[:, None]
        idx = np.minimum(offset[:, None] + np.arange(H)[None, :], N - 1)
        dealt = np.where(take, np.take_along_axis(order, idx, axis=1), N)
        other = me != p
        hand[other, p] = np.sort(dealt[other], axis=1)
        offset += cnt
    deck = np.full((b, N), N, dtype=np.int16)
    dcount = obs.deck_count
    didx = np.minimum(offset[:, None] + np.arange(N)[None, :], N - 1)
    deck[:] = np.where(np.arange(N)[None, :] < dcount[:, None], np.take_along_axis(order, didx, axis=1), N)
    # first-retreat tiles: own values as known, the rest of the multiset at random
    rt = _sample_retreat_tiles(obs, keys)
    # pending secret choices of participants who chose before the observer (BCARD) get a random card
    bch = np.full((b, P), N, dtype=np.int16)
    bmod = np.zeros((b, P), dtype=np.int16)
    bch[ar, me] = obs.my_card
    bmod[ar, me] = obs.my_mods
    shown = obs.revealed != N
    bch[shown] = obs.revealed[shown]
    pick = rng.integers(keys[:, None], 1000 + np.arange(P)[None, :], np.maximum((hand != N).sum(axis=2), 1))
    in_card = fields["phase"] == BCARD
    for p in range(P):
        before = in_card & fields["part"][:, p] & (me != p) & _chose_before(obs, p)
        r = np.nonzero(before)[0]
        bch[r, p] = hand[r, p, pick[r, p]]
    state = empty_state(t, b)
    for f, v in fields.items():
        getattr(state, f)[...] = v
    state.deck_key[:] = keys
    state.hand[:] = hand
    state.deck[:] = deck
    state.dtop[:] = 0
    state.dend[:] = dcount
    state.rt[:] = rt
    state.bch[:] = bch
    state.bmod[:] = bmod
    state.dorder[:] = _sample_decree_order(obs, keys)
    return state


def _chose_before(obs: Obs, p: int) -> np.ndarray:
    """bool[b]: in the current battle round, seat p decides before the observer (order from the start player)."""
    P = obs.t.P
    rel_p = (p - obs.age_start) % P
    rel_me = (obs.player - obs.age_start) % P
    return rel_p < rel_me


def _sample_retreat_tiles(obs: Obs, keys) -> np.ndarray:
    t = obs.t
    b, R = len(obs.player), t.R
    values = np.array(t.content.first_retreat, dtype=np.int64)
    avail = np.ones((b, R), dtype=bool)
    rt = np.zeros((b, R), dtype=np.int64)
    own = obs.own_rt >= 0
    for a in range(3):
        v = obs.own_rt[:, a]
        match = avail & (values[None, :] == v[:, None]) & own[:, a:a + 1]
        first = np.argmax(match, axis=1)
        has = match.any(axis=1)
        avail[np.nonzero(has)[0], first[has]] = False
        rt[:, a] = np.where(own[:, a], v, 0)
    u = rng.bits(keys[:, None], 2000 + np.arange(R)[None, :])
    order = np.argsort(np.where(avail, u, np.iinfo(np.uint64).max), axis=1, kind="stable")
    slots = np.ones((b, R), dtype=bool)
    slots[:, :3] = ~own
    cum = np.cumsum(slots, axis=1) - 1
    fill = values[np.take_along_axis(order, np.maximum(cum, 0), axis=1)]
    return np.where(slots, fill, rt).astype(np.int16)


def _sample_decree_order(obs: Obs, keys) -> np.ndarray:
    """Decrees of later ages are unknown: a random order of the decrees not yet seen."""
    t = obs.t
    b, D, K = len(obs.player), t.D, t.K
    out = np.zeros((b, D), dtype=np.int16)
    seen = np.zeros((b, D), dtype=bool)
    seen[np.arange(b)[:, None], obs.decree.astype(np.int64)] = True
    u = rng.bits(keys[:, None], 3000 + np.arange(D)[None, :])
    rest = np.argsort(np.where(seen, np.iinfo(np.uint64).max, u), axis=1, kind="stable")
    age = obs.age.astype(np.int64)
    for a in range(3):
        m = age == a
        cur = obs.decree[m].astype(np.int64)
        out[m, a * K:(a + 1) * K] = cur
        out[m, (a + 1) * K:] = rest[m, :D - (a + 1) * K]
        out[m, :a * K] = rest[m, D - (a + 1) * K:D - K]
    return out

