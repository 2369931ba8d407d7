"""Reward frames: the rewards being resolved, nested depth first (RC-A64).

A frame is one reward (``FR_ITEM`` = -1: every item, in the model doc's "Reward order") or one
picked pending item (``FR_ITEM`` = its item, ``FR_ALT`` its chosen alternative or -1 to ask).
``PH_EXEC`` resolves the top frame's next item (kernel/rewards.py). A reward gained while an atom
is in progress (an artifact's covered reward inside a movement, a light token inside knowledge
steps, a free activation) opens a frame on top: the registers of the atom in progress
(``state.REGS``) and the abilities used in the open event window (``G_EVENT_USED``, RC-R65) are
saved in the new frame and restored when it closes, so the outer atom goes on where it was and a
window opened inside (a light token's) does not reset the outer one's.
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common
from sim.games.recall.kernel.common import S_REWARD, kernel, stop
from sim.games.recall.state import (
    FR_ALT, FR_DONE, FR_E, FR_EV, FR_EV_WORDS, FR_ITEM, FR_MAX, FR_ONCE, FR_REGS, FR_RET, FR_W, G_EVENT_USED,
    G_FR, G_FR_N, G_PHASE, PH_EXEC, REGS, U_MAX)

kernel_cache.watch(__file__, st, common)


@kernel
def top(g):
    """Column of the top frame."""
    return G_FR + FR_W * (g[G_FR_N] - 1)


@kernel
def push_frame(g, e, ret, at_once, item, alt):
    """Open a frame for effect ``e`` (``item`` -1: the whole reward) returning to phase ``ret``;
    ``at_once``: its action atoms run at once (a picked item, an ability's effect), else they
    join the pending list (RC-A64). Too deep: the game stops."""
    n = g[G_FR_N]
    if n >= FR_MAX:
        stop(g, S_REWARD)
        return
    f = G_FR + FR_W * n
    g[f + FR_E], g[f + FR_DONE], g[f + FR_RET] = e, 0, ret
    g[f + FR_ONCE], g[f + FR_ITEM], g[f + FR_ALT] = at_once, item, alt
    for w in range(FR_EV_WORDS):
        bits = 0
        for j in range(31):
            if 31 * w + j < U_MAX and g[G_EVENT_USED + 31 * w + j] == 1:
                bits |= 1 << j
        g[f + FR_EV + w] = bits
    for j in range(len(REGS)):
        g[f + FR_REGS + FR_EV_WORDS - 1 + j] = g[REGS[j]]
    g[G_FR_N] = n + 1
    g[G_PHASE] = PH_EXEC


@kernel
def pop_frame(g):
    """Close the top frame: the outer atom's registers back, on to the frame's return phase."""
    f = top(g)
    for j in range(len(REGS)):
        g[REGS[j]] = g[f + FR_REGS + FR_EV_WORDS - 1 + j]
    for a in range(U_MAX):
        g[G_EVENT_USED + a] = (g[f + FR_EV + a // 31] >> (a % 31)) & 1
    g[G_FR_N] -= 1
    g[G_PHASE] = g[f + FR_RET]


@kernel
def at_once(g):
    """True if the action atoms of the reward being resolved run at once."""
    return g[G_FR_N] > 0 and g[top(g) + FR_ONCE] == 1
