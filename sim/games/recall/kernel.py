"""Compiled kernel: run every game of a batch to its next decision, in place.

``step_batch`` loops over the games of the batch with scalar code on the game's row ``g = m[b]``
(``state.py`` layout), its hidden row ``h`` and its legal-mask row ``lg``. ``advance`` runs the
automatic flow and stops at the first decision with at least two legal actions, leaving that
decision's legal mask in ``lg``; a decision with exactly one legal action is applied at once,
one with none is skipped (docs/recall_model.md, "The action space").

Compiled so far: the solo start field (RC-V11), the tribe draft in its three forms (RC-S33,
RC-V1, RC-V2..V5), the old tribes and item stacks (RC-S36, RC-S37) and each game's first
``main`` decision (RC-R8, RC-R13 with the free actions of RC-A70). ``FRONTIER`` is the first
kind whose step is not compiled yet; ``engine.step`` refuses it.

Column constants come from ``state.py`` and numba freezes them into its on-disk cache, which
follows only THIS file: ``LAYOUT`` is a checksum of state.py's constants, checked at import, so
a layout change forces an edit here (and a fresh compile).
"""
from __future__ import annotations

import zlib

import numpy as np
from numba import njit

from sim.games.recall import state as st
from sim.games.recall.state import (
    F_CAMP, F_RING, F_START, G_ACTIVE, G_DEC, G_DSTEP, G_ITEM_DISP, G_KIND, G_NF, G_NP, G_OLD_ITEMS,
    G_OLD_TRIBE, G_PHASE, G_RINGS, G_ROUND, G_TRIBE_DISP, H_OLDI, H_OLDT, K_DONE, K_DRAFT, K_MAIN,
    K_START_FIELD, P_AVAIL, P_CHESTS, P_FOL, P_ITEM, P_OWN, P_SKILL, P_SLOT, P_START, P_SUPPLY, P_TRIBE,
    P_USES, PH_DRAFT, PH_MAIN, PH_OLD, PH_SOLO, PH_TURN, SEAT0, SW)


def layout_sum() -> int:
    """crc32 of state.py's integer constants (names and values)."""
    items = sorted((k, v) for k, v in vars(st).items() if k.isupper() and isinstance(v, int))
    return zlib.crc32(repr(items).encode())


LAYOUT = 1503780703

if layout_sum() != LAYOUT:
    raise ImportError(f"recall kernel: the state constants changed; set LAYOUT = {layout_sum()} in "
                      f"kernel.py (this also invalidates numba's cache)")

kernel = njit(cache=True, _nrt=False)
FRONTIER = K_MAIN

# scalar constants ``C`` (engine.build_tables)
(C_NP, C_K, C_NF, C_U, C_NCH, C_TRIBES, C_ITEMS, C_DRAFT, C_RINGS, C_NOORD, C_PER_STACK, C_START1,
 C_START2, C_START_FOL, C_O_PLAY, C_O_USE, C_O_CHEST, C_O_RING, C_O_OPT) = range(19)
NC = 19
DRAFT_PAIRS, DRAFT_RANDOM, DRAFT_CUSTOM = 0, 1, 2
A_END, A_RECALL = 0, 1


@kernel
def seat(p):
    return SEAT0 + p * SW


# ---- setup decisions -------------------------------------------------------------------------------
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
def deal_old_tribes(g, h, C, item_ab):
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
        for a in range(item_ab[it, 0], item_ab[it, 0] + item_ab[it, 1]):
            g[b + P_OWN + a] = 1


# ---- the turn -----------------------------------------------------------------------------------------
@kernel
def ability_cost(g, p, a, ab_hex):
    """RC-R61, RC-R64: 1 with the hexagon, else 1 + activations since the last recall."""
    return 1 if ab_hex[a] else 1 + g[seat(p) + P_USES + a]


@kernel
def free_actions(g, lg, C, ab_free, ab_hex, p):
    """RC-A70 free actions of the active seat: ``use:a`` (owned, a free action (``ab_free``),
    payable from the skill field), ``chest:x`` (held), ``ring`` (Noorderling holder on a camp field without ring)."""
    b = seat(p)
    for a in range(C[C_U]):
        lg[C[C_O_USE] + a] = g[b + P_OWN + a] == 1 and ab_free[a] == 1 and g[b + P_SKILL] >= ability_cost(g, p, a, ab_hex)
    for x in range(C[C_NCH]):
        lg[C[C_O_CHEST] + x] = g[b + P_CHESTS + x] > 0
    ring = False
    nd = C[C_NOORD]
    if nd >= 0 and g[b + P_OWN + nd] == 1 and g[G_RINGS] < C[C_RINGS]:
        for f in range(g[G_NF]):
            ring = ring or (g[F_CAMP + f] >= 0 and g[F_RING + f] == 0 and g[b + P_FOL + f] > 0)
    lg[C[C_O_RING]] = ring


@kernel
def main_mask(g, lg, C, ab_free, ab_hex, p):
    """RC-R8, RC-R13, RC-R34: ``recall``; ``play:k:s`` for an available card of kind k into a free
    slot s (F only with a card in A..E); the free actions."""
    b = seat(p)
    lg[A_RECALL] = True
    filled = False
    for s in range(5):
        filled = filled or g[b + P_SLOT + s] >= 0
    for k in range(C[C_K]):
        if g[b + P_AVAIL + k] > 0:
            for s in range(6):
                lg[C[C_O_PLAY] + 6 * k + s] = g[b + P_SLOT + s] < 0 and (s < 5 or filled)
    free_actions(g, lg, C, ab_free, ab_hex, p)


# ---- flow -----------------------------------------------------------------------------------------------
@kernel
def apply(g, h, C, a):
    """Apply action ``a`` at the pending decision (legal: checked by the caller)."""
    k = g[G_KIND]
    o = C[C_O_OPT]
    if k == K_START_FIELD:
        g[seat(0) + P_START] = C[C_START1] if a == o else C[C_START2]
        g[G_PHASE] = PH_DRAFT
        place_start_followers(g, C)
    elif k == K_DRAFT:
        take_draft(g, C, a - o)


@kernel
def decide(g, h, lg, C, kind, p):
    """Stop at the decision if it has >= 2 legal actions (True); apply a single one at once."""
    count = 0
    one = -1
    for a in range(lg.shape[0]):
        if lg[a]:
            count += 1
            one = a
    g[G_KIND] = kind
    g[G_DEC] = p
    if count >= 2:
        return True
    if count == 1:
        lg[one] = False
        apply(g, h, C, one)
    return False


@kernel
def advance(g, h, lg, C, ab_free, ab_hex, item_ab):
    lg[:] = False
    while True:
        ph = g[G_PHASE]
        if ph == PH_SOLO:
            if g[G_NP] == 1:                      # RC-V11: start field 1 or 2
                lg[C[C_O_OPT]] = True
                lg[C[C_O_OPT] + 1] = True
                if decide(g, h, lg, C, K_START_FIELD, 0):
                    return
            else:
                place_start_followers(g, C)
                g[G_PHASE] = PH_DRAFT
        elif ph == PH_DRAFT:
            if C[C_DRAFT] == DRAFT_RANDOM or g[G_DSTEP] >= draft_picks(g, C):
                g[G_PHASE] = PH_OLD
            else:
                draft_mask(g, lg, C)
                if decide(g, h, lg, C, K_DRAFT, draft_seat(g)):
                    return
        elif ph == PH_OLD:
            deal_old_tribes(g, h, C, item_ab)
            g[G_ROUND] = 0
            g[G_ACTIVE] = 0
            g[G_PHASE] = PH_TURN
        elif ph == PH_TURN:
            g[G_PHASE] = PH_MAIN
            main_mask(g, lg, C, ab_free, ab_hex, g[G_ACTIVE])
            if decide(g, h, lg, C, K_MAIN, g[G_ACTIVE]):
                return
        else:
            return


@kernel
def step_batch(m, hidden, legal, C, ab_free, ab_hex, item_ab, actions, decide_now):
    """Apply each game's action (if ``decide_now``; games over are skipped), then advance every
    game. The actions must be legal: ``engine.step`` checks them first."""
    for b in range(m.shape[0]):
        g = m[b]
        if decide_now:
            if g[G_KIND] == K_DONE:
                continue
            apply(g, hidden[b], C, actions[b])
        advance(g, hidden[b], legal[b], C, ab_free, ab_hex, item_ab)
