"""What a player may know (model doc "What a player observes"), sampling a state from it, and a
quick position value for the generic lookahead strategy.

Everything in the state matrix ``m`` is public (tableaus as counters, offers, docks, posts,
markers, scores, favour, tokens, the drawn tokens of the turn); the only hidden information is
the order of the cards in the piles, kept outside ``m`` (``state.piles``). An observation is

* ``m``: a read-only view of the state's matrix (no copy: valid until the state is stepped, the
  runner's strategies use it right away), with the named views of ``state.py``
  (``obs.score``, ``obs.marker``, ``obs.offer``, ...), and
* ``piles``: made on first use (a compiled scrub): each pile with the part not yet turned up in
  ascending card order, so two states that differ only in the piles' order give equal arrays.
"""
from __future__ import annotations

import numpy as np

from sim.core import rng
from sim.games.explorers_of_navoria import engine, kernel
from sim.games.explorers_of_navoria import state as st


class Obs(st.Views):
    """One observation per game of a batch; ``t`` = the static tables, ``player`` = observer seat."""

    def __init__(self, t, player, m, piles_src=None, piles=None):
        self.t = t
        self.player = player
        self.m = m
        self._src = piles_src
        self._piles = piles

    @property
    def batch(self) -> int:
        return len(self.player)

    @property
    def piles(self) -> np.ndarray:
        """int16[b, N]: cards turned up so far (``ptop``) as they were, the unseen rest sorted."""
        if self._piles is None:
            out = np.empty(self._src.shape, dtype=np.int16)
            kernel.sorted_piles(self.m, self._src, self.t.tab, self.t.C, out)
            self._piles = out
            self._src = None
        return self._piles

    def unseen(self) -> list:
        """Per game and colour the sorted card ids still in the pile (a convenience for tools)."""
        t, p = self.t, self.piles
        return [[p[b, t.pile_off[c] + self.ptop[b, c]: t.pile_off[c] + t.pile_n[c]].tolist() for c in range(5)]
                for b in range(self.batch)]


def observe(s: st.State, players) -> Obs:
    m = s.m.view()
    m.flags.writeable = False
    return Obs(s.t, np.asarray(players, dtype=np.int64), m, piles_src=s.piles)


def sample_state(obs: Obs, keys) -> st.State:
    """A full state consistent with ``obs``: the unseen part of each pile shuffled by ``keys``,
    future bag draws keyed by ``keys`` too."""
    t = obs.t
    keys = np.asarray(keys, dtype=np.uint64)
    b = obs.batch
    s = st.empty_state(t, b)
    s.m[:] = obs.m
    s.bag_key[:] = rng.stream_keys(0, keys, "sample_bag")
    piles = obs.piles.copy()
    u = rng.bits(keys[:, None], np.arange(t.N)[None, :])
    for c in range(5):
        off, k = int(t.pile_off[c]), int(t.pile_n[c])
        if not k:
            continue
        top = obs.ptop[:, c].astype(np.int64)
        seg = piles[:, off:off + k]
        hidden = np.arange(k)[None, :] >= top[:, None]
        order = np.argsort(np.where(hidden, u[:, off:off + k], 0), axis=1, kind="stable")
        # seen positions sort first (key 0, stable) and keep their order; the rest is shuffled
        piles[:, off:off + k] = np.take_along_axis(seg, order, axis=1)
    s.piles[:] = piles
    return engine.advance(s)


DEFAULTS = {"score": 1.0, "income": 1.0, "endgame": 1.0, "exploration": 0.5, "opponents": 0.5}


def projected(s) -> np.ndarray:
    """float[B, P] per component of ``DEFAULTS`` but opponents: (score, income, endgame, exploration)."""
    t = s.t
    n = t.P
    tab, C = t.tab, t.C
    score = s.score[:, :n].astype(float)
    left = np.maximum(0, 3 - s.round.astype(np.int64) - (s.kind == st.K_DONE))[:, None]
    trader = (s.tinc[:, :n] * s.sym[:, :n]).sum(axis=2)
    flags = tab[C[kernel.O_FLAGS]:C[kernel.O_FLAGS] + 3 * kernel.FLAGW].reshape(3, kernel.FLAGW)
    mark = s.marker[:, :n].astype(np.int64)
    nflags = sum(flags[r][mark[:, :, r]] for r in range(3))
    income = (trader + s.finc[:, :n] * nflags) * left
    endgame = (s.endv[:, :n] * s.posts[:, :n]).sum(axis=2).astype(float)
    fav = tab[C[kernel.O_FAV]:C[kernel.O_FAV] + 7 * (t.T + 1)].reshape(t.T + 1, 7)
    tiles = s.ftile.astype(np.int64)                       # [B, 4]
    ncol = s.ncol[:, :n].astype(np.int64)                  # [B, n, 5]
    for q in range(4):
        row = fav[tiles[:, q]]                             # [B, 7]
        sp = s.fav[:, :n, q].astype(np.int64)
        per = np.where(sp == 1, row[:, None, 0], np.where(sp == 2, row[:, None, 1], 0))
        endgame += per * (ncol * row[:, None, 2:7]).sum(axis=2)
    expl = np.zeros_like(score)
    places = int(C[kernel.C_PLACES])
    ex = tab[C[kernel.O_EXPL]:C[kernel.O_EXPL] + 9].reshape(3, 3)
    for r in range(3):
        pos = mark[:, :, r]
        place = 1 + (pos[:, None, :] > pos[:, :, None]).sum(axis=2)
        got = (pos > 0) & (place <= places)
        expl += np.where(got, ex[r][np.minimum(place, 3) - 1], 0) * (left > 0)
    return score, income.astype(float), endgame, expl


def position_value(s, players, weights) -> np.ndarray:
    """score + income x (income phases left) + endgame (soldiers, favour as held now) +
    exploration (this round's places if scored now), minus ``opponents`` x the best other seat."""
    w = {**DEFAULTS, **(weights or {})}
    unknown = set(w) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown position_value weights {sorted(unknown)}; expected {sorted(DEFAULTS)}")
    score, income, endgame, expl = projected(s)
    total = w["score"] * score + w["income"] * income + w["endgame"] * endgame + w["exploration"] * expl
    me = np.asarray(players, dtype=np.int64)
    rows = np.arange(len(me))
    own = total[rows, me]
    others = np.where(np.arange(total.shape[1])[None, :] == me[:, None], -np.inf, total).max(axis=1)
    return own - w["opponents"] * others
