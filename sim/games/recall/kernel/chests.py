"""Chest tiles: a draw from the stack, the discard pile, and its reshuffle (RC-R150, RC-A27).

A used tile goes onto the discard pile (in the order used). A draw from an empty stack first
makes the discard pile the new stack, shuffled as the model doc's ``chests`` stream with extra
word k says for the k-th reshuffle: ``permutations(key, m)`` over the m tiles in discard order.
The kernel derives the k-th reshuffle's key from the stream's key (``H_CHEST_KEY``, written at
setup) as ``sim.core.rng.stream_keys`` adds an extra word, so any number of reshuffles has its
key and the stack never stops a game; ``bits`` equals ``sim.core.rng.bits`` bit for bit, the
rank of each draw is its stable ``argsort`` position. Both empty: nothing.
"""
from __future__ import annotations

import numpy as np

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common
from sim.games.recall.kernel.common import kernel, seat
from sim.games.recall.state import (
    G_CHEST_DISC, G_CHEST_DN, G_CHEST_K, G_CHEST_N, G_CHEST_TOP, H_CHEST, H_CHEST_KEY, P_CHESTS)

kernel_cache.watch(__file__, st, common)


@kernel
def mix(x):
    """SplitMix64's finaliser (sim.core.rng._mix) on one uint64."""
    z = x + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@kernel
def bits(key, counter):
    return mix(key ^ mix(np.uint64(counter)))


@kernel
def reshuffle_key(h, k):
    """The key of the k-th reshuffle (k >= 1): the ``chests`` stream key (four 16-bit words)
    with extra word k, as ``sim.core.rng.stream_keys(seed, game, "chests", k)``."""
    key = np.uint64(0)
    for w in range(4):
        key |= np.uint64(h[H_CHEST_KEY + w]) << np.uint64(16 * w)
    return mix(key ^ np.uint64(k))


@kernel
def reshuffle(g, h):
    """RC-A27: the discard pile becomes the stack; tile j of the pile goes to the position of
    its draw in the stable sort of the m draws."""
    k = g[G_CHEST_K] + 1
    key = reshuffle_key(h, k)
    m = g[G_CHEST_DN]
    for j in range(m):
        dj = bits(key, j)
        rank = 0
        for i in range(m):
            di = bits(key, i)
            if di < dj or (di == dj and i < j):
                rank += 1
        h[H_CHEST + rank] = g[G_CHEST_DISC + j]
    g[G_CHEST_N] = m
    g[G_CHEST_TOP] = 0
    g[G_CHEST_DN] = 0
    g[G_CHEST_K] = k


@kernel
def draw_chest(g, h, p):
    """RC-R150, RC-R199: the top tile of the stack to seat p (reshuffled first when empty)."""
    if g[G_CHEST_TOP] >= g[G_CHEST_N] and g[G_CHEST_DN] > 0:
        reshuffle(g, h)
    if g[G_CHEST_TOP] < g[G_CHEST_N]:
        g[seat(p) + P_CHESTS + h[H_CHEST + g[G_CHEST_TOP]]] += 1
        g[G_CHEST_TOP] += 1


@kernel
def discard_chest(g, p, x):
    """Seat p uses a chest tile of kind x: it goes onto the discard pile."""
    g[seat(p) + P_CHESTS + x] -= 1
    g[G_CHEST_DISC + g[G_CHEST_DN]] = x
    g[G_CHEST_DN] += 1
