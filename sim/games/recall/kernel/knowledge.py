"""Knowledge tracks: one step at a time (RC-A12, RC-R160..R170)."""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common
from sim.games.recall.kernel.common import (
    A_ARG, A_N, A_OP, C_FIFTH, C_NBONUS, C_PER_STACK, C_THIRD, C_TRK_LAST, C_T_BONUS, C_T_EROWS,
    C_T_LIGHT, OP_CRYSTAL, OP_F, OP_PP, OP_VP, S_REWARD, clear_event, gain_points, kernel, seat,
    stop)
from sim.games.recall.state import (
    G_ACTIVE, G_KLEFT, G_KTRACK, G_LEFT, G_LIGHT, G_OLD_ITEMS, G_OLD_TRIBE, G_PHASE, G_REVEALED,
    G_SUBRET, G_THIRD, PH_EXEC, PH_ITEM, PH_KBONUS, PH_PLACE, P_CR, P_OWN, P_PURPLE, P_SKILL,
    P_STEPS_LOST, P_STONES, P_SUPPLY, P_TRK, P_UNLOCK)

kernel_cache.watch(__file__, st, common)


@kernel
def items_left(g, t, C):
    n = 0
    for j in range(C[C_PER_STACK]):
        n += g[G_OLD_ITEMS + C[C_PER_STACK] * t + j] >= 0
    return n


@kernel
def knowledge_step(g, C, tab, atoms):
    """One step on track G_KTRACK (RC-A12, RC-R160..R170); sets the phase of what follows."""
    p = g[G_ACTIVE]
    b = seat(p)
    t = g[G_KTRACK]
    if g[G_KLEFT] <= 0:
        g[G_PHASE] = PH_EXEC
        return
    if g[b + P_TRK + t] >= C[C_TRK_LAST]:             # RC-R161: the rest is lost
        g[b + P_STEPS_LOST] += g[G_KLEFT]
        g[G_KLEFT] = 0
        g[G_PHASE] = PH_EXEC
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
            e = tab[C[C_T_LIGHT] + g[G_LIGHT + 2 * t + k]]
            clear_event(g)
            g[G_PHASE] = PH_KBONUS
            r0, r1 = tab[C[C_T_EROWS] + 2 * e], tab[C[C_T_EROWS] + 2 * e + 1]
            for r in range(r0, r1):
                op, n = atoms[r, A_OP], atoms[r, A_N]
                if r1 - r0 != 1:
                    stop(g, S_REWARD)
                elif op == OP_CRYSTAL:
                    g[b + P_CR + atoms[r, A_ARG]] += n
                elif op == OP_PP:
                    g[b + P_PURPLE] += n
                elif op == OP_VP:
                    if not gain_points(g, p, n, C, tab):
                        stop(g, S_REWARD)
                elif op == OP_F:
                    g[G_LEFT] = min(n, g[b + P_SUPPLY])
                    g[G_SUBRET] = PH_KBONUS
                    if g[G_LEFT] > 0:
                        g[G_PHASE] = PH_PLACE
                else:
                    stop(g, S_REWARD)
            return
