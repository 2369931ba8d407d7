"""The reward order and the choices of a reward (docs/recall_model.md "Reward order", RC-A64,
RC-R202): ``PH_EXEC`` resolves the top frame's next item; ``order`` asks which item next,
``choose`` which alternative of an ``a|b`` item.

A whole reward resolves its order-free items first in item order (every alternative gains
crystals, points, purple points, a chest, or is an action atom that joins the pending list),
then the others: if they are all equal the next one without asking, else ``order`` (``pick:i``
for the first of each distinct item left). An item resolves whole: ``choose`` if it has
alternatives, then its atom (``queue.execute``), depth first.
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import chests, common, frames, queue
from sim.games.recall.kernel.common import (
    A_ALT, A_ITEM, A_N, A_OP, C_O_OPT, C_O_PICK, C_T_EROWS, OP_CHEST, OP_COPY, OP_CRYSTAL, OP_MOVE,
    OP_PP, OP_VP, kernel)
from sim.games.recall.kernel.frames import pop_frame, top
from sim.games.recall.kernel.queue import execute
from sim.games.recall.state import (
    FR_ALT, FR_DONE, FR_E, FR_ITEM, FR_ONCE, G_CHROW, G_PHASE, K_CHOOSE, K_ORDER, PH_CHOOSE,
    PH_EXEC, PH_ORDER)

kernel_cache.watch(__file__, st, common, frames, chests, queue)


@kernel
def item_rows(atoms, C, tab, e, item):
    """First atom row of ``item`` of effect e and its number of alternatives."""
    r0, r1 = tab[C[C_T_EROWS] + 2 * e], tab[C[C_T_EROWS] + 2 * e + 1]
    first, n = -1, 0
    for r in range(r0, r1):
        if atoms[r, A_ITEM] == item:
            if first < 0:
                first = r
            n += 1
    return first, n


@kernel
def order_free(atoms, first, n, once):
    """Every alternative gains W/R/P, VP, PP, CHEST, or is an action atom joining the pending list."""
    for r in range(first, first + n):
        op = atoms[r, A_OP]
        if not (op == OP_CRYSTAL or op == OP_VP or op == OP_PP or op == OP_CHEST
                or (OP_MOVE <= op <= OP_COPY and once == 0)):
            return False
    return True


@kernel
def same_item(atoms, a, na, b, nb):
    """Two items with the same atoms (alternative by alternative)."""
    if na != nb:
        return False
    for j in range(na):
        for c in range(A_OP, atoms.shape[1]):
            if atoms[a + j, c] != atoms[b + j, c]:
                return False
    return True


@kernel
def resolve(g, h, C, tab, atoms, first, n, alt):
    """Resolve an item whole: its chosen alternative, or ``choose`` among its alternatives."""
    if n > 1 and alt < 0:
        g[G_CHROW] = first
        g[G_PHASE] = PH_CHOOSE
        return
    r = first + max(alt, 0)
    execute(g, h, C, tab, atoms, r, atoms[r, A_N])


@kernel
def next_step(g, h, C, tab, atoms):
    """PH_EXEC: the top frame's next item, or close the frame when every item is resolved."""
    f = top(g)
    e = g[f + FR_E]
    if g[f + FR_ITEM] >= 0 or e < 0:                 # one picked item (or a movement of UNITS)
        if g[f + FR_DONE] or e < 0:
            pop_frame(g)
            return
        g[f + FR_DONE] = 1
        first, n = item_rows(atoms, C, tab, e, g[f + FR_ITEM])
        resolve(g, h, C, tab, atoms, first, n, g[f + FR_ALT])
        return
    r0, r1 = tab[C[C_T_EROWS] + 2 * e], tab[C[C_T_EROWS] + 2 * e + 1]
    once = g[f + FR_ONCE]
    other, distinct = -1, 0
    r = r0
    while r < r1:
        item = atoms[r, A_ITEM]
        first, n = item_rows(atoms, C, tab, e, item)
        if (g[f + FR_DONE] >> item) & 1 == 0:
            if order_free(atoms, first, n, once):
                g[f + FR_DONE] |= 1 << item
                resolve(g, h, C, tab, atoms, first, n, -1)
                return
            if other < 0:
                other = first
                distinct = 1
            elif not same_item(atoms, other, item_rows(atoms, C, tab, e, atoms[other, A_ITEM])[1], first, n):
                distinct = 2
        r = first + n
    if other < 0:
        pop_frame(g)
    elif distinct == 1:
        item = atoms[other, A_ITEM]
        g[f + FR_DONE] |= 1 << item
        resolve(g, h, C, tab, atoms, other, item_rows(atoms, C, tab, e, item)[1], -1)
    else:
        g[G_PHASE] = PH_ORDER


@kernel
def order_mask(g, lg, C, tab, atoms):
    """``order``: ``pick:i`` for the first of each distinct item not resolved (RC-A64)."""
    f = top(g)
    e = g[f + FR_E]
    r0, r1 = tab[C[C_T_EROWS] + 2 * e], tab[C[C_T_EROWS] + 2 * e + 1]
    r = r0
    while r < r1:
        item = atoms[r, A_ITEM]
        first, n = item_rows(atoms, C, tab, e, item)
        if (g[f + FR_DONE] >> item) & 1 == 0:
            new = True
            q = r0
            while q < first:
                it = atoms[q, A_ITEM]
                f0, n0 = item_rows(atoms, C, tab, e, it)
                if (g[f + FR_DONE] >> it) & 1 == 0 and same_item(atoms, f0, n0, first, n):
                    new = False
                q = f0 + n0
            lg[C[C_O_PICK] + item] = new
        r = first + n
    return K_ORDER


@kernel
def choose_mask(g, lg, C, atoms):
    """``choose``: ``opt:j`` per alternative of the item (RC-R202)."""
    first = g[G_CHROW]
    j = 0
    while first + j < atoms.shape[0] and atoms[first + j, A_ITEM] == atoms[first, A_ITEM] and (
            j == 0 or atoms[first + j, A_ALT] > 0):
        lg[C[C_O_OPT] + j] = True
        j += 1
    return K_CHOOSE


@kernel
def apply_order(g, h, C, tab, atoms, a):
    f = top(g)
    e = g[f + FR_E]
    item = a - C[C_O_PICK]
    g[f + FR_DONE] |= 1 << item
    g[G_PHASE] = PH_EXEC
    first, n = item_rows(atoms, C, tab, e, item)
    resolve(g, h, C, tab, atoms, first, n, -1)


@kernel
def apply_choose(g, h, C, tab, atoms, a):
    r = g[G_CHROW] + a - C[C_O_OPT]
    g[G_PHASE] = PH_EXEC
    execute(g, h, C, tab, atoms, r, atoms[r, A_N])
