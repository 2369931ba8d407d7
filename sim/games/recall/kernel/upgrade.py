"""Upgrade tiles (RC-R177..R181, RC-A13..A15, RC-V8, RC-V9): the ``upgrade`` decisions owed for the
score-track symbols reached (``common.gain_points`` sets ``G_UPG_BITS``), one per symbol in
score order. The flow asks them before it goes on with the phase it was about to run
(``G_UPG_RET``), so the decision comes right after the points, as in the oracle.

A tile on field l replaces the field's version (``queue.field_effect``). RC-R180 / RC-A15: if
items of l are pending from this turn and none of l's items has been picked yet (``G_PICKED``),
they are replaced by the new version's items, appended at the end of the pending list.
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common, frames, chests, queue
from sim.games.recall.kernel.common import C_FREE_UPG, C_O_OPT, S_PICK, kernel, seat, stop
from sim.games.recall.kernel.queue import field_effect, push_effect, remove_pending
from sim.games.recall.state import (
    G_EXP_ACTIVE, G_PEND, G_PEND_N, G_PHASE, G_PICKED, G_UPG_BITS, G_UPG_LEFT, G_UPG_LETTER, G_UPG_RET,
    G_UPG_SEAT, K_UPGRADE, PEND_W, P_UPG)

kernel_cache.watch(__file__, st, common, frames, chests, queue)


@kernel
def lowest(bits):
    i = 0
    while (bits >> i) & 1 == 0:
        i += 1
    return i


@kernel
def upgrade_node(g, lg, C):
    """The mask of the next ``upgrade`` owed (RC-R178: side a / b; RC-V9: letter and side from
    the player's own set); a symbol whose stack is empty, or with no letter left, gives nothing.
    Returns K_UPGRADE, or -1 when nothing is owed any more (the flow goes on)."""
    o = C[C_O_OPT]
    b = seat(g[G_UPG_SEAT])
    while g[G_UPG_BITS] != 0:
        i = lowest(g[G_UPG_BITS])
        n = 0
        if C[C_FREE_UPG]:
            for letter in range(6):
                if g[b + P_UPG + letter] < 0:
                    lg[o + 2 * letter] = True
                    lg[o + 2 * letter + 1] = True
                    n += 2
        elif g[G_UPG_LEFT + g[G_UPG_LETTER + i]] > 0:
            lg[o] = True
            lg[o + 1] = True
            n = 2
        if n > 0:
            return K_UPGRADE
        g[G_UPG_BITS] &= ~(1 << i)
    g[G_PHASE] = g[G_UPG_RET]
    return -1


@kernel
def apply_upgrade(g, C, tab, atoms, a):
    """Place the tile: side a - opt (RC-V9: letter and side); then RC-R180's replacement."""
    i = lowest(g[G_UPG_BITS])
    g[G_UPG_BITS] &= ~(1 << i)
    p = g[G_UPG_SEAT]
    x = a - C[C_O_OPT]
    if C[C_FREE_UPG]:
        letter, side = x // 2, x % 2
    else:
        letter, side = g[G_UPG_LETTER + i], x
        g[G_UPG_LEFT + letter] -= 1
    g[seat(p) + P_UPG + letter] = side
    if (g[G_PICKED] >> letter) & 1 == 1 or g[G_EXP_ACTIVE] > 0:   # RC-R179: this turn goes on with the
        return                                       # old version; another player's tile: not its turn
    found = False
    j = 0
    while j < g[G_PEND_N]:
        if g[G_PEND + PEND_W * j + 2] == letter:
            remove_pending(g, j)
            found = True
        else:
            j += 1
    if found and not push_effect(g, field_effect(g, p, letter, C, tab), letter, C, tab, atoms):
        stop(g, S_PICK)
