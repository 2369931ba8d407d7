"""The setup decisions: start followers, the tribe draft (RC-S33, RC-V1..V5), old tribes and items
(RC-S36, RC-S37).
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common
from sim.games.recall.kernel.common import (
    C_DRAFT, C_ITEMS, C_O_OPT, C_PER_STACK, C_START_FOL, C_TRIBES, C_T_ITEM_AB, DRAFT_CUSTOM,
    kernel, seat)
from sim.games.recall.state import (
    F_START, G_DSTEP, G_ITEM_DISP, G_NF, G_NP, G_OLD_ITEMS, G_OLD_TRIBE, G_TRIBE_DISP, H_OLDI,
    H_OLDT, P_FOL, P_ITEM, P_OWN, P_START, P_SUPPLY, P_TRIBE)

kernel_cache.watch(__file__, st, common)


@kernel
def place_start_followers(g, C):
    """3 followers on each seat's start field (RC-S29, RC-S30)."""
    for p in range(g[G_NP]):
        b = seat(p)
        for f in range(g[G_NF]):
            if g[F_START + f] == g[b + P_START]:
                g[b + P_FOL + f] += C[C_START_FOL]
                g[b + P_SUPPLY] -= C[C_START_FOL]
                break


@kernel
def draft_seat(g):
    """Seat of the current draft pick: n-1 .. 0 (RC-S33, RC-V3), then 0 .. n-1 (RC-V4)."""
    n, d = g[G_NP], g[G_DSTEP]
    return n - 1 - d if d < n else d - n


@kernel
def draft_mask(g, lg, C):
    """``opt:i`` display pairs left; custom: ``opt:i`` tribe i / ``opt:5+i`` item i of the kind
    the seat may take (either in the first pass, the missing kind in the second)."""
    o = C[C_O_OPT]
    b = seat(draft_seat(g))
    custom = C[C_DRAFT] == DRAFT_CUSTOM
    for i in range(g[G_NP] + 1):
        if not custom:
            lg[o + i] = g[G_TRIBE_DISP + i] >= 0
        else:
            lg[o + i] = g[G_TRIBE_DISP + i] >= 0 and g[b + P_TRIBE] < 0
            lg[o + 5 + i] = g[G_ITEM_DISP + i] >= 0 and g[b + P_ITEM] < 0


@kernel
def take_draft(g, C, i):
    b = seat(draft_seat(g))
    if C[C_DRAFT] != DRAFT_CUSTOM or i < 5:
        g[b + P_TRIBE] = g[G_TRIBE_DISP + i]
        g[G_TRIBE_DISP + i] = -1
    if C[C_DRAFT] != DRAFT_CUSTOM or i >= 5:
        j = i if i < 5 else i - 5
        g[b + P_ITEM] = g[G_ITEM_DISP + j]
        g[G_ITEM_DISP + j] = -1
    g[G_DSTEP] += 1


@kernel
def draft_picks(g, C):
    return g[G_NP] * (2 if C[C_DRAFT] == DRAFT_CUSTOM else 1)


@kernel
def nth_unowned(g, col, total, j):
    """The j-th tribe (``col`` = P_TRIBE) or item (P_ITEM) in content order that no seat owns."""
    for x in range(total):
        mine = False
        for p in range(g[G_NP]):
            mine = mine or g[seat(p) + col] == x
        if not mine:
            if j == 0:
                return x
            j -= 1
    return -1


@kernel
def deal_old_tribes(g, h, C, tab):
    """RC-S36, RC-S37: the unowned tribes / items in content order, read through the drawn
    permutations; then each seat owns its tribe's and item's abilities."""
    for t in range(3):
        g[G_OLD_TRIBE + t] = nth_unowned(g, P_TRIBE, C[C_TRIBES], h[H_OLDT + t])
    for k in range(3 * C[C_PER_STACK]):
        g[G_OLD_ITEMS + k] = nth_unowned(g, P_ITEM, C[C_ITEMS], h[H_OLDI + k])
    for p in range(g[G_NP]):
        b = seat(p)
        g[b + P_OWN + g[b + P_TRIBE]] = 1
        it = g[b + P_ITEM]
        for a in range(tab[C[C_T_ITEM_AB] + 2 * it], tab[C[C_T_ITEM_AB] + 2 * it] + tab[C[C_T_ITEM_AB] + 2 * it + 1]):
            g[b + P_OWN + a] = 1
