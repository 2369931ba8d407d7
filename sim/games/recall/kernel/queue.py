"""The pending list of a turn and the atom queue: effects pushed as items, rewards queued in the
model doc's reward order, and ``execute``, which runs one queued atom.
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common
from sim.games.recall.kernel.common import (
    A_ALT, A_ARG, A_ITEM, A_N, A_OP, A_P, A_R, A_W, C_T_BASE, C_T_EROWS, C_T_UPG, OP_BUY, OP_CHEST,
    OP_COPY, OP_CRYSTAL, OP_DEV, OP_F, OP_K, OP_KEY, OP_MOVE, OP_PAYOPT, OP_PP, OP_SELL, OP_UNITS,
    OP_UPC, OP_VP, S_PICK, S_REWARD, gain_points, kernel, payable, seat, stop)
from sim.games.recall.state import (
    G_ACTIVE, G_CHEST_N, G_CHEST_TOP, G_KLEFT, G_KTRACK, G_LEFT, G_MOVES, G_PEND, G_PEND_N,
    G_PHASE, G_Q, G_QI, G_QN, G_RET, G_SUBRET, H_CHEST, PEND_MAX, PEND_W, PH_BUY, PH_COPY,
    PH_CRYSTAL, PH_EXEC, PH_KEY, PH_KSTEP, PH_KTRACK, PH_MOVE_FROM, PH_PAY_MOVE, PH_PLACE, PH_SELL,
    PH_UNITS, P_CHESTS, P_CR, P_PURPLE, P_SUPPLY, P_UPG, Q_MAX)

kernel_cache.watch(__file__, st, common)


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
def compiled_atom(op):
    return (op == OP_CRYSTAL or op == OP_VP or op == OP_PP or op == OP_CHEST or op == OP_F or op == OP_UPC
            or op == OP_BUY or op == OP_SELL or op == OP_COPY or op == OP_UNITS or op == OP_K or op == OP_MOVE
            or op == OP_PAYOPT or op == OP_KEY)


@kernel
def order_free(op):
    return op == OP_CRYSTAL or op == OP_VP or op == OP_PP or op == OP_CHEST


@kernel
def same_atom(atoms, r, q):
    for c in range(A_ITEM + 1, atoms.shape[1]):
        if c != A_ALT and atoms[r, c] != atoms[q, c]:
            return False
    return True


@kernel
def enqueue(g, r, n):
    q = g[G_QN]
    if q >= Q_MAX:
        return False
    g[G_Q + 2 * q] = r
    g[G_Q + 2 * q + 1] = n
    g[G_QN] = q + 1
    return True


@kernel
def start_queue(g, ret):
    g[G_QN] = 0
    g[G_QI] = 0
    g[G_RET] = ret


@kernel
def queue_reward(g, e, ret, C, tab, atoms, at_once):
    """A reward for the active seat (RC-A64, model doc "Reward order"): the order-free items first
    in item order, then the others. Compiled: single-alternative items of compiled atoms, the
    others all equal or one; a movement only ``at_once`` (an ability's data effect); False
    (nothing queued) otherwise."""
    r0, r1 = tab[C[C_T_EROWS] + 2 * e], tab[C[C_T_EROWS] + 2 * e + 1]
    other = -1
    for r in range(r0, r1):
        alone = (r == r0 or atoms[r - 1, A_ITEM] != atoms[r, A_ITEM]) and (r + 1 == r1 or atoms[r + 1, A_ITEM] != atoms[r, A_ITEM])
        op = atoms[r, A_OP]
        if not alone or not compiled_atom(op) or op == OP_COPY or op == OP_UNITS or op == OP_PAYOPT:
            return False
        if op == OP_MOVE and not at_once:
            return False
        if not order_free(atoms[r, A_OP]):
            if other >= 0 and not same_atom(atoms, r, other):
                return False
            other = r
    start_queue(g, ret)
    for free_first in (True, False):
        for r in range(r0, r1):
            if order_free(atoms[r, A_OP]) == free_first and not enqueue(g, r, atoms[r, A_N]):
                return False
    g[G_PHASE] = PH_EXEC
    return True


@kernel
def apply_simple(g, p, e, C, tab, atoms):
    """Gain an effect of single crystal / purple-point items at once (an event ability's data
    effect inside a window, e.g. Booster's R:1); False, nothing gained, for anything else."""
    r0, r1 = tab[C[C_T_EROWS] + 2 * e], tab[C[C_T_EROWS] + 2 * e + 1]
    for r in range(r0, r1):
        alone = (r == r0 or atoms[r - 1, A_ITEM] != atoms[r, A_ITEM]) and (r + 1 == r1 or atoms[r + 1, A_ITEM] != atoms[r, A_ITEM])
        if not alone or (atoms[r, A_OP] != OP_CRYSTAL and atoms[r, A_OP] != OP_PP):
            return False
    for r in range(r0, r1):
        if atoms[r, A_OP] == OP_CRYSTAL:
            g[seat(p) + P_CR + atoms[r, A_ARG]] += atoms[r, A_N]
        else:
            g[seat(p) + P_PURPLE] += atoms[r, A_N]
    return True


@kernel
def execute(g, h, C, tab, atoms):
    """Run the next queued atom for the active seat; atoms with a decision set its phase."""
    p = g[G_ACTIVE]
    b = seat(p)
    i = g[G_QI]
    r, n = g[G_Q + 2 * i], g[G_Q + 2 * i + 1]
    g[G_QI] = i + 1
    op = atoms[r, A_OP]
    if op == OP_CRYSTAL:
        g[b + P_CR + atoms[r, A_ARG]] += n
    elif op == OP_PP:
        g[b + P_PURPLE] += n
    elif op == OP_VP:
        if not gain_points(g, p, n, C, tab):
            stop(g, S_REWARD)
    elif op == OP_CHEST:                              # RC-R150: the top tiles of the stack
        for j in range(n):
            if g[G_CHEST_TOP] >= g[G_CHEST_N]:
                stop(g, S_REWARD)                     # the reshuffle (RC-A27) is not compiled
                return
            g[b + P_CHESTS + h[H_CHEST + g[G_CHEST_TOP]]] += 1
            g[G_CHEST_TOP] += 1
    elif op == OP_F:                                  # RC-R76, RC-A71, RC-A73
        g[G_LEFT] = min(n, g[b + P_SUPPLY])
        g[G_SUBRET] = PH_EXEC
        if g[G_LEFT] > 0:
            g[G_PHASE] = PH_PLACE
    elif op == OP_KEY:                                # RC-R191: one card of that colour from the offer
        g[G_LEFT] = atoms[r, A_ARG]
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
        g[G_PHASE] = PH_KTRACK if atoms[r, A_ARG] < 0 else PH_KSTEP
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
    elif op == OP_UNITS:                              # RC-A63 UNITS:n(MOVE:1|DEV:1)
        g[G_LEFT] = r
        g[G_PHASE] = PH_UNITS
    else:
        stop(g, S_PICK)
