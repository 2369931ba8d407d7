"""Card movements on a subset of games: shuffles, draws, refills and hand edits.

``rows`` is always an array of distinct game indices of the batch; per-row seats ``p`` are
arrays of the same length. Shuffle ``s`` of a game orders the shuffled cards by the keyed draw
``bits(deck_key, s*N + card)`` (ties by card index), exactly as the model doc says, so the
order of a shuffle never depends on the batch.
"""
from __future__ import annotations

import numpy as np

from sim.core import rng

_MAXU = np.iinfo(np.uint64).max


def shuffle_into_deck(s, rows, mask):
    """The cards of ``mask`` (bool[n, N]) become the deck of each row, shuffled; ``shuffles`` +1."""
    if not len(rows):
        return
    N = s.t.N
    u = rng.bits(s.deck_key[rows][:, None], s.shuffles[rows][:, None] * N + np.arange(N)[None, :])
    u = np.where(mask, u, _MAXU)
    order = np.argsort(u, axis=1, kind="stable")
    s.deck[rows] = order.astype(np.int16)
    s.dtop[rows] = 0
    s.dend[rows] = mask.sum(axis=1)
    s.shuffles[rows] += 1


def draw_one(s, rows) -> np.ndarray:
    """Top card of each row's deck (reshuffling the discard pile when empty, AK-A18); SENT if none."""
    N = s.t.N
    out = np.full(len(rows), N, dtype=np.int16)
    if not len(rows):
        return out
    empty = s.dtop[rows] >= s.dend[rows]
    if empty.any() and s.t.config.reshuffle_discard_when_empty:
        er = rows[empty]
        er = er[s.disc[er].any(axis=1)]
        if len(er):
            shuffle_into_deck(s, er, s.disc[er])
            s.disc[er] = False
    have = s.dtop[rows] < s.dend[rows]
    hr = rows[have]
    out[have] = s.deck[hr, s.dtop[hr]]
    s.dtop[hr] += 1
    return out


def hand_count(s, rows, p) -> np.ndarray:
    return (s.hand[rows, p] != s.t.N).sum(axis=1)


def remove_from_hand(s, rows, p, cards):
    """Remove one card per row from seat p's hand (the card must be there) and re-sort."""
    h = s.hand[rows, p]
    h[h == cards[:, None]] = s.t.N
    s.hand[rows, p] = np.sort(h, axis=1)


def refill(s, rows, p):
    """AK-R9: seat p (per row) draws one card at a time until its hand holds H cards."""
    p = np.broadcast_to(np.asarray(p, dtype=np.int64), rows.shape)
    refill_seats(s, rows, p[:, None], np.ones((len(rows), 1), dtype=bool))


def refill_in_order(s, rows, who):
    """Seats marked in ``who`` (bool[n, P]) draw up to H, clockwise from the age's start player (AK-A31)."""
    P = s.t.P
    seats = (s.age_start[rows].astype(np.int64)[:, None] + np.arange(P)[None, :]) % P
    m = who[np.arange(len(rows))[:, None], seats]
    if s.t.robot >= 0:
        m &= seats != s.t.robot
    refill_seats(s, rows, seats, m)


def refill_seats(s, rows, seats, m):
    """Seats ``seats[:, j]`` where ``m`` draw up to H in the order j = 0, 1, ...

    The same as drawing one card at a time: when the deck holds every card needed, the cards
    are its next ones in order (one gather); rows where the deck would run out (and reshuffle,
    AK-A18) draw one card at a time.
    """
    N, H = s.t.N, s.t.H
    if not len(rows):
        return
    hands = s.hand[rows[:, None], seats]                                   # [n, J, H]
    need = np.where(m, (hands == N).sum(axis=2), 0)
    total = need.sum(axis=1)
    avail = (s.dend[rows] - s.dtop[rows]).astype(np.int64)
    fast = total <= avail
    if fast.any():
        fr = rows[fast]
        nd = need[fast]
        before = np.cumsum(nd, axis=1) - nd
        pos = s.dtop[fr].astype(np.int64)[:, None, None] + before[:, :, None] + np.arange(H)[None, None, :]
        got = np.arange(H)[None, None, :] < nd[:, :, None]
        new = np.where(got, np.take_along_axis(s.deck[fr], np.minimum(pos, N - 1).reshape(len(fr), -1),
                                               axis=1).reshape(pos.shape), N)
        merged = np.sort(np.concatenate([hands[fast], new.astype(hands.dtype)], axis=2), axis=2)[:, :, :H]
        s.hand[fr[:, None], seats[fast]] = merged
        s.dtop[fr] += total[fast].astype(s.dtop.dtype)
    slow = np.nonzero(~fast)[0]
    for j in range(seats.shape[1]):
        r = slow[m[slow, j]]
        if len(r):
            _refill_one_by_one(s, rows[r], seats[r, j])


def _refill_one_by_one(s, rows, p):
    N, H = s.t.N, s.t.H
    for _ in range(H):
        need = s.hand[rows, p, H - 1] == N
        if not need.any():
            return
        rows, p = rows[need], p[need]
        c = draw_one(s, rows)
        got = c != N
        rows, p, c = rows[got], p[got], c[got]
        if not len(rows):
            return
        h = s.hand[rows, p]
        h[:, H - 1] = c
        s.hand[rows, p] = np.sort(h, axis=1)
