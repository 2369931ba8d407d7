"""Knowledge tracks: one step at a time (RC-A12, RC-R160..R170); a light token's reward as a frame."""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common, frames
from sim.games.recall.kernel.common import (
    C_FIFTH, C_NBONUS, C_PER_STACK, C_THIRD, C_TRK_LAST, C_T_BONUS, C_T_LIGHT, S_REWARD,
    clear_event, gain_points, kernel, seat, stop)
from sim.games.recall.kernel.frames import push_frame
from sim.games.recall.state import (
    G_ACTIVE, G_BONUS_LAST, G_KEACH, G_KLEFT, G_KTRACK, G_LIGHT, G_OLD_ITEMS, G_OLD_TRIBE, G_PHASE, G_REVEALED,
    G_THIRD, PH_EXEC, PH_ITEM, PH_KBONUS, P_OWN, P_SKILL, P_STEPS_LOST, P_STONES, P_TRK, P_UNLOCK)

kernel_cache.watch(__file__, st, common, frames)


@kernel
def items_left(g, t, C):
    n = 0
    for j in range(C[C_PER_STACK]):
        n += g[G_OLD_ITEMS + C[C_PER_STACK] * t + j] >= 0
    return n


@kernel
def track_done(g):
    """The steps on G_KTRACK are made: KEACH goes on with the next track, else the reward does."""
    if g[G_KEACH] > 0 and g[G_KTRACK] < 2:
        g[G_KTRACK] += 1
        g[G_KLEFT] = g[G_KEACH]
    else:
        g[G_KEACH] = 0
        g[G_PHASE] = PH_EXEC


@kernel
def knowledge_step(g, C, tab, atoms):
    """One step on track G_KTRACK (RC-A12, RC-R160..R170); sets the phase of what follows.
    ``KEACH:n`` makes n steps on each track in track order."""
    p = g[G_ACTIVE]
    b = seat(p)
    t = g[G_KTRACK]
    if g[G_KLEFT] <= 0:
        track_done(g)
        return
    if g[b + P_TRK + t] >= C[C_TRK_LAST]:             # RC-R161: the rest is lost
        g[b + P_STEPS_LOST] += g[G_KLEFT]
        g[G_KLEFT] = 0
        track_done(g)
        return
    g[G_KLEFT] -= 1
    pos = g[b + P_TRK + t] + 1
    g[b + P_TRK + t] = pos
    if pos == C[C_THIRD]:                             # RC-R162..R166
        if g[G_THIRD + t] == 0:
            g[G_THIRD + t] = 1
            g[G_REVEALED + t] = 1
            if not gain_points(g, p, 1, C, tab):
                stop(g, S_REWARD)
                return
        if items_left(g, t, C) > 0:
            g[G_PHASE] = PH_ITEM
        return
    if pos == C[C_FIFTH]:                             # RC-R167..R169
        g[b + P_SKILL] += 1
        g[b + P_STONES + 3] += 1
        g[b + P_UNLOCK + t] = 1
        g[b + P_OWN + g[G_OLD_TRIBE + t]] = 1
        return
    for k in range(C[C_NBONUS]):                      # a light bonus token: its reward, then the window
        if tab[C[C_T_BONUS] + k] == pos:
            clear_event(g)
            g[G_BONUS_LAST] = tab[C[C_T_LIGHT] + g[G_LIGHT + 2 * t + k]]
            push_frame(g, g[G_BONUS_LAST], PH_KBONUS, 0, -1, -1)
            return
