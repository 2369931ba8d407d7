"""Rings (Noorderling, RC-R233, RC-R234, RC-A31; docs/recall_model.md "Free actions", table of
random streams "rings").

The free action ``ring`` (offered by kernel/turn.py ``free_actions``) asks ``ability_field``: a
camp field with an own follower and no ring (phase ``PH_RING``). One follower there goes to the
supply (a removal: a raft next to it reacts, RC-A49), the ring is drawn from the rings left and
its reward is received at once on that field (``FH``), action atoms run at once as for a chest.
The k-th ring of the game (counter ``G_RINGS``) is ``floor(u * left)`` with u the k-th draw of
the game's ``rings`` stream (``sim.core.rng.integers(key, k, left)``; the key is in the hidden
columns ``H_RINGKEY``), indexing the copies left in content order (``G_RING_USED`` per kind).
"""
from __future__ import annotations

import numpy as np

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common, chests, explore, frames, movement, pigs, queue, rafts
from sim.games.recall.kernel.common import (
    C_NOORD, C_NRINGK, C_O_FIELD, C_RINGS, C_T_RING, C_T_RING_N, kernel, seat)
from sim.games.recall.kernel.explore import uniform
from sim.games.recall.kernel.frames import push_frame
from sim.games.recall.kernel.movement import pay_followers
from sim.games.recall.kernel.rafts import removed
from sim.games.recall.state import (
    F_CAMP, F_RING, G_ABIL_RET, G_HERE, G_NF, G_PHASE, G_RINGS, G_RING_USED, H_RINGKEY,
    K_ABILITY_FIELD, PH_RING, P_FOL, P_OWN, P_RINGS)

kernel_cache.watch(__file__, st, common, chests, explore, frames, movement, pigs, queue, rafts)


@kernel
def ring_field(g, p, f):
    """RC-R233, RC-R234: a camp field with one of p's followers and no ring."""
    return g[F_CAMP + f] >= 0 and g[F_RING + f] == 0 and g[seat(p) + P_FOL + f] > 0


@kernel
def can_ring(g, p, C):
    """The free action ``ring``: a Noorderling holder, rings left, a camp field for it (RC-A31)."""
    nd = C[C_NOORD]
    if nd < 0 or g[seat(p) + P_OWN + nd] == 0 or g[G_RINGS] >= C[C_RINGS]:
        return False
    for f in range(g[G_NF]):
        if ring_field(g, p, f):
            return True
    return False


@kernel
def start_ring(g):
    """The free action ``ring`` was taken: ask its camp field, then back to the window."""
    g[G_ABIL_RET] = g[G_PHASE]
    g[G_PHASE] = PH_RING


@kernel
def ring_mask(g, lg, C, p):
    n = 0
    for f in range(g[G_NF]):
        ok = ring_field(g, p, f)
        lg[C[C_O_FIELD] + f] = ok
        n += ok
    if n == 0:                                        # not offered then (turn.free_actions)
        g[G_PHASE] = g[G_ABIL_RET]
        return -1
    return K_ABILITY_FIELD


@kernel
def ring_key(h):
    key = np.uint64(0)
    for w in range(4):
        key |= np.uint64(h[H_RINGKEY + w]) << np.uint64(16 * w)
    return key


@kernel
def draw_ring(g, h, C, tab):
    """The kind of the next ring: index floor(u * left) among the copies left, in content order."""
    left = C[C_RINGS] - g[G_RINGS]
    i = int(uniform(ring_key(h), g[G_RINGS]) * left)
    g[G_RINGS] += 1
    for k in range(C[C_NRINGK]):
        here = tab[C[C_T_RING_N] + k] - g[G_RING_USED + k]
        if i < here:
            g[G_RING_USED + k] += 1
            return k
        i -= here
    return -1


@kernel
def apply_ring(g, h, C, tab, p, a):
    """The ring on camp field f: 1 follower off it (the raft reaction), the ring drawn, its reward
    on f at once (its frame keeps ``G_HERE`` of the window and gives it back)."""
    f = a - C[C_O_FIELD]
    pay_followers(g, p, f, 1)
    removed(g, f, C, tab)
    k = draw_ring(g, h, C, tab)
    g[F_RING + f] = 1
    g[seat(p) + P_RINGS] += 1                     # statistics (outcome rc_rings)
    push_frame(g, tab[C[C_T_RING] + k], g[G_ABIL_RET], 1, -1, -1)
    g[G_HERE] = f + 1
