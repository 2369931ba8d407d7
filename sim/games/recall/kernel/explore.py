"""Exploring (RC-R106..R112, RC-A6, model doc "Explore"): ``explore`` a face-down slot next to a
slot where the explorer is present, ``rotation``, a point per player present next to it, the bag
draws (artifacts on the artifact symbols in field order, then the stones of each excavation
site, RC-A35), then the new tile's camps for the builders next to them (RC-R148).

The bag draws use the game's ``bag`` stream (``sim.core.rng.uniform(bag_key, k)`` for the k-th
draw, counter ``G_BAGK``), so they equal the oracle's and the setup's draws.

A camp reward for a player other than the explorer is received and decided by its owner outside
its turn (RC-R148, RC-A52, RC-A64): while it resolves ``G_ACTIVE`` is that receiver (every atom
and decision of the kernel acts for ``G_ACTIVE``) and ``G_EXP_ACTIVE`` keeps the explorer, who
is the active seat again once the reward is over (``back_to_explorer``); the receiver's action
atoms that would join the pending list are lost (kernel/queue.py), an upgrade tile it gains
replaces no pending item (kernel/upgrade.py). An exploration inside such a reward (an ability's
data effect with ``EXPLORE``, not in the default content) is not compiled: the game stops.
"""
from __future__ import annotations

import numpy as np

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common, frames, chests, queue
from sim.games.recall.kernel.common import (
    C_EXC_TERR, C_O_OPT, C_PER_SITE, C_T_CAMP, C_T_NEIGH, C_T_SADJ, C_T_TILE, S_REWARD,
    clear_event, gain_points, kernel, seat, stop)
from sim.games.recall.kernel.chests import bits
from sim.games.recall.kernel.queue import queue_reward
from sim.games.recall.state import (
    F_ART, F_CAMP, F_PIGS, F_SITE, F_START, F_TERR, G_ACTIVE, G_BAGK, G_BAG_ART, G_BAG_STONE,
    G_EXP_ACTIVE, G_EXP_RET, G_EXP_SLOT, G_HERE, G_NP, G_PHASE, G_ROT, G_TILE, G_UP, H_BAGKEY, K_EXPLORE,
    K_ROTATION, PH_EXPLORE, PH_EXPLORE_NEXT, PH_ROTATION, P_BLD, P_CAMPS, P_EXPL, P_FOL, S_MAX)

kernel_cache.watch(__file__, st, common, frames, chests, queue)

T_TERR, T_PIGS, T_CAMP, T_START, T_ART = range(5)     # the per-position columns of C_T_TILE [tile, 7, 5]


@kernel
def uniform(key, k):
    """``sim.core.rng.uniform(key, k)`` for one key."""
    return np.float64(bits(key, k) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@kernel
def draw(g, key, col, n):
    """One bag draw among the ``n`` colours counted from column ``col``: ``floor(u * total)``
    indexes the pieces left listed by colour; -1 and no draw used when the pool is empty."""
    total = 0
    for c in range(n):
        total += g[col + c]
    if total == 0:
        return -1
    pick = int(uniform(key, g[G_BAGK]) * total)
    g[G_BAGK] += 1
    for c in range(n):
        if pick < g[col + c]:
            g[col + c] -= 1
            return c
        pick -= g[col + c]
    return -1


@kernel
def present(g, p, k):
    """RC-R82: a follower or a building of p on slot k's area tile."""
    b = seat(p)
    for f in range(7 * k, 7 * k + 7):
        if g[b + P_FOL + f] > 0 or g[b + P_BLD + f] > 0:
            return True
    return False


@kernel
def explorable(g, p, k, C, tab):
    """RC-R107, RC-A6: slot k face down, next to a face-up slot where p is present."""
    if g[G_UP + k] == 1:
        return False
    for j in range(S_MAX):
        if tab[C[C_T_SADJ] + S_MAX * k + j] == 1 and g[G_UP + j] == 1 and present(g, p, j):
            return True
    return False


@kernel
def tile_field(k, pos, rot):
    """The field of position ``pos`` (0 centre, 1..6 ring) of slot k turned by ``rot`` (RC-A3)."""
    return 7 * k + (0 if pos == 0 else 1 + (pos - 1 + rot) % 6)


@kernel
def bag_key(h):
    """The game's ``bag`` stream key from its four 16-bit words (``engine.setup``)."""
    key = np.uint64(0)
    for w in range(4):
        key |= np.uint64(h[H_BAGKEY + w]) << np.uint64(16 * w)
    return key


@kernel
def turn_tile(g, h, k, rot, C, tab):
    """RC-R108, RC-R110, RC-R111: slot k face up turned by ``rot``, then the bag draws: the
    artifacts on the symbols in field order, then 3 stones per excavation site in field order."""
    g[G_UP + k] = 1
    g[G_ROT + k] = rot
    tile = g[G_TILE + k]
    for pos in range(7):
        f = tile_field(k, pos, rot)
        x = C[C_T_TILE] + 5 * (7 * tile + pos)
        g[F_TERR + f] = tab[x + T_TERR]
        g[F_PIGS + f] = tab[x + T_PIGS]
        g[F_CAMP + f] = tab[x + T_CAMP]
        g[F_START + f] = -1                          # RC-A6: an explored start tile's start fields are plain fields
        g[F_ART + f] = -1
    key = bag_key(h)
    for f in range(7 * k, 7 * k + 7):
        if tab[C[C_T_TILE] + 5 * (7 * tile + tile_pos(k, f, rot)) + T_ART] == 1:
            g[F_ART + f] = draw(g, key, G_BAG_ART, 4)
    for f in range(7 * k, 7 * k + 7):
        if g[F_TERR + f] == C[C_EXC_TERR]:
            for j in range(C[C_PER_SITE]):
                c = draw(g, key, G_BAG_STONE, 3)
                if c >= 0:
                    g[F_SITE + 3 * f + c] += 1


@kernel
def tile_pos(k, f, rot):
    """The tile position lying on field f of slot k turned by ``rot`` (inverse of ``tile_field``)."""
    return 0 if f == 7 * k else 1 + (f - 7 * k - 1 - rot) % 6


@kernel
def explore_points(g, p, k, C, tab):
    """RC-R109: 1 point per player present on a slot next to slot k (each once); False when the
    points pass an upgrade symbol (not compiled)."""
    n = 0
    for q in range(g[G_NP]):
        for j in range(S_MAX):
            if tab[C[C_T_SADJ] + S_MAX * k + j] == 1 and g[G_UP + j] == 1 and present(g, q, j):
                n += 1
                break
    return gain_points(g, p, n, C, tab)


@kernel
def back_to_explorer(g):
    """The explorer is the active seat again after another player's camp reward."""
    if g[G_EXP_ACTIVE] > 0:
        g[G_ACTIVE] = g[G_EXP_ACTIVE] - 1
        g[G_EXP_ACTIVE] = 0


@kernel
def explore_camps(g, C, tab, atoms):
    """RC-R112, RC-R148: each camp of the explored tile in field order, for every player with a
    building next to it who has not had it, in seat order from the explorer; then the end."""
    back_to_explorer(g)
    k = g[G_EXP_SLOT]
    a = g[G_ACTIVE]
    for x in range(7 * k, 7 * k + 7):
        c = g[F_CAMP + x]
        if c < 0:
            continue
        for i in range(g[G_NP]):
            q = (a + i) % g[G_NP]
            if (g[seat(q) + P_CAMPS] >> c) & 1 == 1 or not next_to_building(g, q, x, C, tab):
                continue
            if q != a:                               # decided by its owner outside its turn
                g[G_EXP_ACTIVE] = a + 1
                g[G_ACTIVE] = q
            g[seat(q) + P_CAMPS] |= 1 << c
            g[G_HERE] = x + 1
            clear_event(g)
            if not queue_reward(g, tab[C[C_T_CAMP] + c], PH_EXPLORE_NEXT, C, tab, atoms, False):
                stop(g, S_REWARD)
            return
    g[G_HERE] = 0
    g[G_PHASE] = g[G_EXP_RET]


@kernel
def next_to_building(g, q, x, C, tab):
    for d in range(6):
        y = tab[C[C_T_NEIGH] + 6 * x + d]
        if y >= 0 and g[seat(q) + P_BLD + y] > 0:
            return True
    return False


@kernel
def explore_node(g, lg, C, tab, atoms, p):
    """The mask of ``explore`` / ``rotation``; returns its kind, or -1 after the camp stage."""
    ph = g[G_PHASE]
    o = C[C_O_OPT]
    if ph == PH_EXPLORE and g[G_EXP_ACTIVE] > 0:     # inside another player's camp reward: not compiled
        stop(g, S_REWARD)
        return -1
    if ph == PH_EXPLORE:                             # RC-R106, RC-R107; none: skipped (RC-A6)
        n = 0
        for k in range(S_MAX):
            lg[o + k] = explorable(g, p, k, C, tab)
            n += lg[o + k]
        if n > 0:
            return K_EXPLORE
        g[G_PHASE] = g[G_EXP_RET]
        return -1
    if ph == PH_ROTATION:                            # RC-R108
        for r in range(6):
            lg[o + r] = True
        return K_ROTATION
    explore_camps(g, C, tab, atoms)
    return -1


@kernel
def apply_explore(g, h, C, tab, k, a):
    """Apply ``explore`` (the slot) or ``rotation`` (turn it, points, bag draws, then the camps)."""
    if k == K_EXPLORE:
        g[G_EXP_SLOT] = a - C[C_O_OPT]
        g[G_PHASE] = PH_ROTATION
    else:
        p = g[G_ACTIVE]
        s = g[G_EXP_SLOT]
        g[seat(p) + P_EXPL] += 1
        turn_tile(g, h, s, a - C[C_O_OPT], C, tab)
        g[G_PHASE] = PH_EXPLORE_NEXT
        if not explore_points(g, p, s, C, tab):
            stop(g, S_REWARD)
