"""The pending list of a turn (effects pushed as items), rewards opened as frames
(kernel/frames.py) and ``execute``, which runs one atom.
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common, frames, chests
from sim.games.recall.kernel.common import (
    A_ALT, A_ARG, A_ITEM, A_N, A_OP, A_P, A_R, A_W, C_T_BASE, C_T_EROWS, C_T_UPG, OP_ART_DISPLAY,
    OP_BUY, OP_CHEST, OP_COPY, OP_COST, OP_CRYSTAL, OP_DEV, OP_EXPLORE, OP_F, OP_FH, OP_FREE, OP_K,
    OP_KEACH, OP_KEY, OP_KEYBACK, OP_KEYUP, OP_MOVE, OP_PAYOPT, OP_PP, OP_SELL, OP_UNITS, OP_UPC,
    OP_VP, OP_WMOVE, S_PICK, S_REWARD, gain_points, kernel, pay_cost, payable, seat, start_dev,
    stop)
from sim.games.recall.kernel.frames import at_once, push_frame, top
from sim.games.recall.kernel.chests import draw_chest
from sim.games.recall.state import (
    ALT_KIND, FR_E, G_ACTIVE, G_EXP_ACTIVE, G_EXP_RET, G_HERE, G_KEACH, G_KLEFT, G_KTRACK, G_KUP, G_LEFT,
    G_MOVES, G_OWNER, G_PEND, G_PEND_N, G_PHASE, G_SUBRET, G_W_PLUS, G_W_RET, PEND_MAX, PEND_W,
    PH_BUY, PH_COPY, PH_CRYSTAL, PH_DISPLAY, PH_EXEC, PH_EXPLORE, PH_FREE, PH_KEY, PH_KEYUP,
    PH_KSTEP, PH_KTRACK, PH_MOVE_FROM, PH_PAY_MOVE, PH_PLACE, PH_SELL, PH_SLOT, PH_STOP, PH_UNITS,
    PH_W_FROM, P_CR, P_FOL, P_PURPLE, P_SUPPLY, P_UPG)

kernel_cache.watch(__file__, st, common, frames, chests)


@kernel
def field_effect(g, p, letter, C, tab):
    """The current version of a field: the upgrade tile's side, else the printed field (RC-A14)."""
    side = g[seat(p) + P_UPG + letter]
    if side >= 0:
        return tab[C[C_T_UPG] + 2 * letter + side]
    return tab[C[C_T_BASE] + letter]


@kernel
def push_effect(g, e, owner, C, tab, atoms):
    """Append effect e's items to the pending list; a ``DEV:n`` item gives n ``DEV:1`` items.
    Returns False when the list would overflow PEND_MAX."""
    r0, r1 = tab[C[C_T_EROWS] + 2 * e], tab[C[C_T_EROWS] + 2 * e + 1]
    r = r0
    while r < r1:
        item = atoms[r, A_ITEM]
        single = r + 1 >= r1 or atoms[r + 1, A_ITEM] != item
        copies = atoms[r, A_N] if single and atoms[r, A_OP] == OP_DEV else 1
        for j in range(copies):
            n = g[G_PEND_N]
            if n >= PEND_MAX:
                return False
            q = G_PEND + PEND_W * n
            g[q], g[q + 1], g[q + 2], g[q + 3] = e, item, owner, 1 if copies > 1 else 0
            g[G_PEND_N] = n + 1
        while r < r1 and atoms[r, A_ITEM] == item:
            r += 1
    return True


@kernel
def push_entry(g, e, item, owner, kind):
    n = g[G_PEND_N]
    if n >= PEND_MAX:
        return False
    q = G_PEND + PEND_W * n
    g[q], g[q + 1], g[q + 2], g[q + 3] = e, item, owner, kind
    g[G_PEND_N] = n + 1
    return True


@kernel
def has_items(e, C, tab):
    return tab[C[C_T_EROWS] + 2 * e + 1] > tab[C[C_T_EROWS] + 2 * e]


@kernel
def remove_pending(g, i):
    n = g[G_PEND_N]
    for j in range(G_PEND + PEND_W * i, G_PEND + PEND_W * (n - 1)):
        g[j] = g[j + PEND_W]
    g[G_PEND_N] = n - 1


@kernel
def atom_frame(g, ret):
    """An empty frame: the atom phase set next (a key, knowledge steps) ends in ``PH_EXEC`` and
    then goes on to phase ``ret``."""
    push_frame(g, -1, ret, 0, -1, -1)


@kernel
def queue_reward(g, e, ret, C, tab, atoms, now):
    """A reward for the active seat (RC-A64): a frame resolved in the model doc's "Reward order"
    (kernel/rewards.py), then phase ``ret``; action atoms run at once if ``now`` (an ability's data
    effect), else they join the pending list. False if the game stopped (frames too deep)."""
    push_frame(g, e, ret, 1 if now else 0, -1, -1)
    return g[G_PHASE] != PH_STOP


@kernel
def alone(atoms, r):
    """Atom row r is an item of its own (no ``|`` alternatives; they follow each other)."""
    return atoms[r, A_ALT] == 0 and (r + 1 == atoms.shape[0] or atoms[r + 1, A_ALT] == 0)


@kernel
def to_pending(g, e, r, atoms):
    """RC-A64: a gained action atom joins the pending list (the item as written, a chosen
    alternative as ALT_KIND + j, a DEV:n as n DEV:1); False when the list is full."""
    item, n = atoms[r, A_ITEM], atoms[r, A_N]
    if not alone(atoms, r):
        return push_entry(g, e, item, -1, ALT_KIND + atoms[r, A_ALT])
    if atoms[r, A_OP] == OP_DEV and n > 1:
        ok = True
        for j in range(n):
            ok = ok and push_entry(g, e, item, -1, 1)
        return ok
    return push_entry(g, e, item, -1, 0)


@kernel
def execute(g, h, C, tab, atoms, r, n):
    """Run atom row r (n times its unit) for the active seat; atoms with a decision set its phase.
    In a reward an action atom joins the pending list (RC-A64) unless its frame runs it at once."""
    p = g[G_ACTIVE]
    b = seat(p)
    op = atoms[r, A_OP]
    if OP_MOVE <= op <= OP_COPY and not at_once(g):
        if g[G_EXP_ACTIVE] == 0 and not to_pending(g, g[top(g) + FR_E], r, atoms):
            stop(g, S_PICK)                           # another player's (kernel/explore.py): lost
    elif op == OP_CRYSTAL:
        g[b + P_CR + atoms[r, A_ARG]] += n
    elif op == OP_PP:
        g[b + P_PURPLE] += n
    elif op == OP_VP:
        if not gain_points(g, p, n, C, tab):
            stop(g, S_REWARD)
    elif op == OP_CHEST:                              # RC-R150, RC-A27
        for j in range(n):
            draw_chest(g, h, p)
    elif op == OP_F:                                  # RC-R76, RC-A71, RC-A73
        g[G_LEFT] = min(n, g[b + P_SUPPLY])
        g[G_SUBRET] = PH_EXEC
        if g[G_LEFT] > 0:
            g[G_PHASE] = PH_PLACE
    elif op == OP_FH:                                 # RC-A67: followers "on this field" (G_HERE)
        if g[G_HERE] == 0:
            stop(g, S_REWARD)
            return
        c = min(n, g[b + P_SUPPLY])
        g[b + P_FOL + g[G_HERE] - 1] += c
        g[b + P_SUPPLY] -= c
    elif op == OP_DEV:                                # RC-R113: one development action, n - 1 DEV:1 items appended
        for j in range(n - 1):
            if not push_entry(g, -1, -1, g[G_OWNER], 1):
                stop(g, S_PICK)
                return
        start_dev(g, PH_EXEC)
    elif op == OP_EXPLORE:                            # RC-R106: kernel/explore.py
        g[G_EXP_RET] = PH_EXEC
        g[G_PHASE] = PH_EXPLORE
    elif op == OP_KEY:                                # RC-R191: one card of that colour from the offer
        g[G_LEFT] = atoms[r, A_ARG]
        g[G_KUP] = -1
        g[G_PHASE] = PH_KEY
    elif op == OP_MOVE:                               # RC-R83..R92
        g[G_MOVES] = n
        g[G_PHASE] = PH_MOVE_FROM
    elif op == OP_PAYOPT:                             # RC-R27, RC-R28
        g[G_LEFT] = r
        g[G_PHASE] = PH_PAY_MOVE
    elif op == OP_K:                                  # RC-A12: one track, then step by step
        g[G_KTRACK] = atoms[r, A_ARG]
        g[G_KLEFT] = n
        g[G_KEACH] = 0
        g[G_PHASE] = PH_KTRACK if atoms[r, A_ARG] < 0 else PH_KSTEP
    elif op == OP_KEACH:                              # n steps on each track, in track order
        g[G_KTRACK] = 0
        g[G_KLEFT] = n
        g[G_KEACH] = n
        g[G_PHASE] = PH_KSTEP
    elif op == OP_KEYUP:                              # RC-R192..R197
        g[G_PHASE] = PH_KEYUP
    elif op == OP_KEYBACK:                            # RC-R198
        g[G_PHASE] = PH_SLOT
    elif op == OP_FREE:                               # RC-R200, RC-A43
        g[G_PHASE] = PH_FREE
    elif op == OP_ART_DISPLAY:                        # RC-R128, RC-A67
        g[G_PHASE] = PH_DISPLAY
    elif op == OP_COST:                               # pay, then the effect bought; unpaid: nothing
        if payable(g, p, C, atoms[r, A_W], atoms[r, A_R], atoms[r, A_P]):
            if not pay_cost(g, p, C, tab, atoms[r, A_W], atoms[r, A_R], atoms[r, A_P]):
                stop(g, S_REWARD)
            else:
                push_frame(g, atoms[r, A_ARG], PH_EXEC, 1 if at_once(g) else 0, -1, -1)
    elif op == OP_UPC:                                # RC-R72
        g[G_LEFT] = n
        g[G_PHASE] = PH_CRYSTAL
    elif op == OP_BUY:                                # RC-R24, RC-A23
        g[G_LEFT] = r
        g[G_PHASE] = PH_BUY
    elif op == OP_SELL:                               # RC-R25
        g[G_PHASE] = PH_SELL
    elif op == OP_COPY:                               # RC-R33, RC-R35, RC-A40: nothing if unpaid
        if payable(g, p, C, atoms[r, A_W], atoms[r, A_R], atoms[r, A_P]):
            g[G_LEFT] = r
            g[G_PHASE] = PH_COPY
    elif op == OP_WMOVE:                              # RC-R93: kernel/water.py (arg 1: improved, RC-R96)
        g[G_W_RET] = PH_EXEC
        g[G_W_PLUS] = atoms[r, A_ARG]
        g[G_PHASE] = PH_W_FROM
    elif op == OP_UNITS:                              # RC-A63 UNITS:n(MOVE:1|DEV:1)
        g[G_LEFT] = r
        g[G_PHASE] = PH_UNITS
    else:
        stop(g, S_PICK)
