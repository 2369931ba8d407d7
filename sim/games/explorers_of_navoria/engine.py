"""The engine: setup (keyed draws in numpy), then the compiled kernels for everything after.

A game is always at a decision with at least two legal actions (``kind`` 0..4, decider
``dec``, mask in ``legal``) or over (``kind`` -1). ``step`` applies one action per game and
runs the automatic flow until each game's next such decision (``kernel.step_batch``).
"""
from __future__ import annotations

import numpy as np

from sim.core import rng
from sim.core.game import check_legal
from sim.games.explorers_of_navoria import kernel
from sim.games.explorers_of_navoria import state as st
from sim.games.explorers_of_navoria.state import empty_state
from sim.games.explorers_of_navoria.tables import Tables

class _Decisions:
    """Each game's pending decision as text ("round 2 turn 5, goods of seat 1"), made only when
    ``check_legal`` names a refused one: ``np.asarray`` of it builds the strings."""

    def __init__(self, m):
        self.m = m

    def __array__(self, dtype=None, copy=None):
        m = self.m
        return np.array([f"round {r + 1} turn {t + 1}, {st.KIND_NAMES[k]} of seat {p}" for r, t, k, p in
                         zip(m[:, st.G_ROUND], m[:, st.G_TURN], m[:, st.G_KIND], m[:, st.G_DEC])])


def setup(t: Tables, game_ids, seed: int) -> st.State:
    """EN-S1..S20 with the model doc's keyed draws; the state is left before round 1's first turn."""
    game_ids = np.asarray(game_ids, dtype=np.int64)
    B, n, cfg, content = len(game_ids), t.P, t.config, t.content
    s = empty_state(t, B)
    s.gid[:] = game_ids
    s.bag_key[:] = rng.stream_keys(seed, game_ids, "bag")
    m = s.m
    if cfg.start_player == "random":
        start = rng.integers(rng.stream_keys(seed, game_ids, "start"), 0, n)
    else:
        start = np.zeros(B, dtype=np.int64)
    g = m[:, :st.SEAT0]
    g[:, st.G_NP] = n
    g[:, st.G_NREC] = int(t.C[kernel.C_NREC])
    g[:, st.G_START_SLOT] = start
    g[:, st.G_ORDER:st.G_ORDER + st.MAXP] = -1
    g[:, st.G_ORDER:st.G_ORDER + n] = np.arange(n)
    g[:, st.G_BAG:st.G_BAG + 5] = int(t.C[kernel.C_TOKENS])
    g[:, st.G_DRAWN:st.G_DRAWN + 2] = -1
    g[:, st.G_SUPPLY:st.G_SUPPLY + 3] = cfg.goods_per_kind
    g[:, st.G_FHOLD:st.G_FHOLD + 8] = -1
    g[:, st.G_CITY:st.G_CITY + st.CITY_MAX] = -1
    g[:, st.G_CARD] = -1
    g[:, st.G_POP] = -1
    g[:, st.G_FDOCK] = -1
    g[:, st.G_PHASE] = st.PH_RSTART
    # piles (RND1) and offers (EN-S9)
    for c in range(5):
        cards = np.array(content.pile(c), dtype=np.int64)
        off, k = int(t.pile_off[c]), int(t.pile_n[c])
        if k:
            perm = rng.permutations(rng.stream_keys(seed, game_ids, "piles", c), k)
            s.piles[:, off:off + k] = cards[perm]
        up = min(3, k)
        g[:, st.G_OFFER + 3 * c:st.G_OFFER + 3 * c + 3] = -1
        g[:, st.G_OFFER + 3 * c:st.G_OFFER + 3 * c + up] = s.piles[:, off:off + up]
        g[:, st.G_PTOP + c] = up
        g[:, st.G_PLEFT + c] = k - up
    # favour tiles (RND2, RND3, EN-A10)
    T = t.T
    perm = rng.permutations(rng.stream_keys(seed, game_ids, "favour"), T)[:, :4]
    if cfg.blank_tile_variant:
        space = rng.integers(rng.stream_keys(seed, game_ids, "blank"), 0, 4)
        perm[np.arange(B), space] = T
    people = np.array(content.favour_space_people, dtype=np.int64)
    g[:, st.G_FTILE + people] = perm
    return s


def advance(s: st.State) -> st.State:
    kernel.step_batch(s.m, s.piles, s.bag_key, s.legal, s.t.tab, s.t.C, np.zeros(0, dtype=np.int64), False)
    return s


def step(s: st.State, actions) -> st.State:
    """Apply one action per game (ignored for finished games), then advance. In place.

    An action outside its game's legal mask is refused before any game of the batch moves."""
    actions = np.ascontiguousarray(actions, dtype=np.int64)
    check_legal(s.legal, actions, s.m[:, st.G_KIND] != st.K_DONE, s.gid, _Decisions(s.m), s.t.action_names)
    kernel.step_batch(s.m, s.piles, s.bag_key, s.legal, s.t.tab, s.t.C, actions, True)
    return s


def init(t: Tables, game_ids, seed: int) -> st.State:
    return advance(setup(t, game_ids, seed))
