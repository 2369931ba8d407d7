"""Compiled kernel: run every game of a batch to its next decision, in place.

``step_batch`` loops over the games of the batch with scalar code on the game's row ``g = m[b]``
(``state.py`` layout), its hidden row ``h`` and its legal-mask row ``lg``. ``advance`` runs the
automatic flow and stops at the first decision with at least two legal actions, leaving that
decision's legal mask in ``lg``; a decision with exactly one legal action is applied at once,
one with none is skipped (docs/recall_model.md, "The action space").

Compiled so far (docs/recall_engine.md): the solo start field (RC-V11), the tribe draft in its
three forms (RC-S33, RC-V1, RC-V2..V5), old tribes and item stacks (RC-S36, RC-S37), and of the
turn: ``main`` (RC-R8, RC-R13, RC-R34), the pending list of a played card and field with the
``key_card`` window (J'He), ``effect`` up to its ``end``, the recall with its ``produce``
decisions up to ``end``, the ``recharge`` window and the recharge (RC-R36..R47), ``turn_end``,
the crystal cap (RC-R73, RC-A38), the rounds and the hourglass (RC-R1..R7), path rounds
(RC-R184..R186) and the goal round (RC-R189) with the rewards made only of crystals, green and
purple points, and the turn guard (RC-A68). Anything else stops the game at ``K_STOP`` with its
reason in ``G_STOP``; ``engine.step`` refuses to step a stopped game.

Tables: ``C`` int64 scalars and offsets into ``tab`` (int64, the content's index arrays,
``engine.build_tables``); ``atoms`` is sim.games.recall.tables' atom table.

Column constants come from ``state.py`` and numba freezes them into its on-disk cache, so the
cache is keyed on state.py too (``sim.core.kernel_cache.watch``): editing it recompiles.
"""
from __future__ import annotations

from numba import njit

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.state import (
    F_CAMP, F_RING, F_START, G_ACTIVE, G_CARD, G_DARK, G_DEC, G_DSTEP, G_EVENT_USED, G_FIELD, G_GUARD,
    G_CHEST_N, G_CHEST_TOP, G_ITEM_DISP, G_KIND, G_NF, G_NP, G_OLD_ITEMS, G_OLD_TRIBE, G_PEND, G_PEND_N, G_PHASE, G_PROD_LEFT,
    G_PROD_USED, G_RECHARGED, G_RINGS, G_ROUND, G_STOP, G_TRIBE_DISP, G_TURN_DEC, H_CHEST, H_GOALS, H_OLDI, H_OLDT,
    K_DONE, K_DRAFT, K_EFFECT, K_EVENT, K_GOAL, K_MAIN, K_PATH, K_PRODUCE, K_RECHARGE, K_START_FIELD, K_STOP,
    K_TURN_END, P_AVAIL, P_CHESTS, P_CR, P_CR_LOST, P_EVER, P_FOL, P_ITEM, P_OWN, P_PATHS, P_PLACED, P_PLAYS,
    P_PURPLE, P_RECALLS, P_SCORE, P_SKILL, P_SLOT, P_START, P_SUPPLY, P_TRIBE, P_UPG, P_USES, PEND_MAX, PEND_W,
    PH_BONUS_EVENT, PH_DRAFT, PH_EFFECT, PH_GOAL, PH_KEY_EVENT, PH_MAIN, PH_NEXT, PH_OLD, PH_PATH, PH_PRODUCE,
    PH_RECHARGE, PH_SOLO, PH_STOP, PH_TURN, PH_TURN_END, SEAT0, SW, U_MAX,
    G_Q, G_QN, G_QI, G_RET, G_LEFT, G_SELLF, Q_MAX, PH_PROD_EVENT, PH_EXEC, PH_PLACE, PH_CRYSTAL, PH_BUY,
    PH_SELL, PH_SELL_COUNT, K_PLACE, K_CRYSTAL, K_BUY, K_SELL, K_SELL_COUNT, G_OWNER, PH_COPY, PH_UNITS,
    K_COPY, K_UNITS, G_SUBRET, G_KTRACK, G_KLEFT, G_THIRD, PH_KTRACK, PH_KSTEP, PH_ITEM, PH_KBONUS, K_TRACK,
    K_ITEM, P_STEPS_LOST, P_TRK, P_UNLOCK, P_STONES, G_LIGHT, G_REVEALED, G_MOVES, G_MFROM, G_MTO, P_ARTS,
    PH_PAY_MOVE, PH_MOVE_FROM, PH_MOVE_TO, PH_MOVE_COUNT, K_PAY_MOVE, K_MOVE_FROM, K_MOVE_TO, K_MOVE_COUNT,
    F_ART, F_TERR, G_UP, PH_DONE, G_MCOUNT, G_SAVE_RET, PH_PAYMENT, PH_ART_EVENT, K_PAYMENT, PH_KEY, K_KEY,
    G_YELLOW, G_GREEN, G_GREY, G_GREEN_TOP, G_GREY_TOP, H_GREEN, H_GREY)


kernel_cache.watch(__file__, st)

kernel = njit(cache=True, _nrt=False)

# scalar constants and offsets ``C`` (engine.build_tables)
(C_NP, C_K, C_NF, C_U, C_NCH, C_TRIBES, C_ITEMS, C_DRAFT, C_RINGS, C_NOORD, C_PER_STACK, C_START1,
 C_START2, C_START_FOL, C_O_PLAY, C_O_USE, C_O_CHEST, C_O_RING, C_O_OPT, C_O_PICK,
 C_T_FREE, C_T_HEX, C_T_EVT, C_T_ITEM_AB, C_T_KEY, C_T_BASE, C_T_UPG, C_T_DARK, C_T_GOAL, C_T_PROD,
 C_T_PROD_BLD, C_NPROD, C_T_SYM, C_NSYM, C_SPACES, C_T_PATH_SP, C_NPATH_SP, C_T_GOAL_SP, C_NGOAL_SP,
 C_MAXDEC, C_AUTO, C_COPY_EVER, C_JHE, C_AYNIR, C_CAP, C_KEEP3, C_GOALS_HELD, C_T_EROWS, C_T_OPTS,
 C_O_FIELD, C_O_COUNT, C_T_ABEFF, C_T_CHEST, C_T_LIGHT, C_THIRD, C_FIFTH, C_TRK_LAST, C_T_BONUS, C_NBONUS,
 C_T_NEIGH, C_T_FSLOT, C_T_TMOVE, C_T_ACOST, C_NCOLS, C_VOLCANO, C_COLTERON, C_EXO, C_T_COVERED,
 C_T_YELLOW, C_NYELLOW, C_NGREEN, C_NGREY, C_LEX) = range(73)
NC = 73
DRAFT_PAIRS, DRAFT_RANDOM, DRAFT_CUSTOM = 0, 1, 2
A_END, A_RECALL = 0, 1
EVENTS = ("", "bonus_token", "key_card", "sanctuary", "artifact", "excavate", "production", "camp")
EV_BONUS, EV_KEY, EV_ART, EV_PROD = 1, 2, 4, 6
# sim.games.recall.content_types.OPS indices used here; atom columns of tables.ATOM_COLUMNS
(OP_CRYSTAL, OP_F, OP_VP, OP_PP, OP_K, OP_UPC, OP_KEY, OP_CHEST, OP_MOVE, OP_DEV, OP_PAYOPT, OP_UNITS, OP_BUY,
 OP_SELL, OP_COPY) = 0, 1, 3, 4, 5, 7, 8, 11, 14, 16, 18, 19, 20, 21, 22
A_ITEM, A_ALT, A_OP, A_ARG, A_N, A_W, A_R, A_P, A_OPTION = range(9)
(S_NONE, S_PICK, S_FREE, S_PRODUCTION, S_ABILITY, S_REWARD, S_SCORING, S_GUARD) = range(8)


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


# ---- crystals, abilities -----------------------------------------------------------------------------
@kernel
def conv_rate(g, p, C):
    """k crystals of one kind make one of the next: 3, with Aynir 2 (RC-R207)."""
    return 2 if C[C_AYNIR] >= 0 and g[seat(p) + P_OWN + C[C_AYNIR]] == 1 else 3


@kernel
def payable(g, p, C, w, r, pp):
    """RC-A69's fixed paying rule on a copy of the crystals: purple, then red, then white."""
    b = seat(p)
    W, R, P = g[b + P_CR], g[b + P_CR + 1], g[b + P_CR + 2]
    k = conv_rate(g, p, C)
    while P < pp:
        while R < k:
            if W < k:
                return False
            W -= k
            R += 1
        R -= k
        P += 1
    P -= pp
    while R < r:
        if P > 0:
            P -= 1
            R += 1
            W += 1
        elif W >= k:
            W -= k
            R += 1
        else:
            return False
    R -= r
    while W < w:
        if R > 0:
            R -= 1
            W += 2
        elif P > 0:
            P -= 1
            R += 1
            W += 1
        else:
            return False
    return True


@kernel
def crystal_cap(g, p, C):
    """RC-R73, RC-A38, RC-A69: whites up to reds, reds up to purples, then cut to the cap."""
    b = seat(p)
    k, cap = conv_rate(g, p, C), C[C_CAP]
    while g[b + P_CR] > cap and g[b + P_CR] >= k:
        g[b + P_CR] -= k
        g[b + P_CR + 1] += 1
    while g[b + P_CR + 1] > cap and g[b + P_CR + 1] >= k:
        g[b + P_CR + 1] -= k
        g[b + P_CR + 2] += 1
    for c in range(3):
        if g[b + P_CR + c] > cap:
            g[b + P_CR_LOST] += g[b + P_CR + c] - cap
            g[b + P_CR + c] = cap


@kernel
def ability_cost(g, p, a, C, tab):
    """RC-R61, RC-R64: 1 with the hexagon, else 1 + activations since the last recall."""
    return 1 if tab[C[C_T_HEX] + a] else 1 + g[seat(p) + P_USES + a]


@kernel
def can_use(g, p, a, C, tab):
    return g[seat(p) + P_OWN + a] == 1 and g[G_RECHARGED] == 0 and g[seat(p) + P_SKILL] >= ability_cost(g, p, a, C, tab)


@kernel
def pay_ability(g, p, a, C, tab):
    b = seat(p)
    c = ability_cost(g, p, a, C, tab)
    g[b + P_SKILL] -= c
    g[b + P_PLACED] += c
    g[b + P_USES + a] += 1


@kernel
def free_actions(g, lg, C, tab, p, uses):
    """RC-A70 free actions of the active seat: ``use:a`` (if ``uses``: owned, a free action,
    payable from the skill field, not after the recharge), ``chest:x`` (held), ``ring``
    (Noorderling holder with a follower on a camp field without ring, rings left)."""
    b = seat(p)
    for a in range(C[C_U]):
        lg[C[C_O_USE] + a] = uses and tab[C[C_T_FREE] + a] == 1 and can_use(g, p, a, C, tab)
    for x in range(C[C_NCH]):
        lg[C[C_O_CHEST] + x] = g[b + P_CHESTS + x] > 0
    ring = False
    nd = C[C_NOORD]
    if nd >= 0 and g[b + P_OWN + nd] == 1 and g[G_RINGS] < C[C_RINGS]:
        for f in range(g[G_NF]):
            ring = ring or (g[F_CAMP + f] >= 0 and g[F_RING + f] == 0 and g[b + P_FOL + f] > 0)
    lg[C[C_O_RING]] = ring


# ---- effects -------------------------------------------------------------------------------------------
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
def gain_points(g, p, n, C, tab):
    """Green points (never below 0); passing an upgrade symbol is not compiled: False."""
    b = seat(p)
    old, new = g[b + P_SCORE], max(0, g[b + P_SCORE] + n)
    for i in range(C[C_NSYM]):
        sym = tab[C[C_T_SYM] + i]
        if old < sym <= new:
            return False
    g[b + P_SCORE] = new
    return True


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
def pay(g, p, C, w, r, pp):
    """Pay a payable cost by RC-A69's fixed rule (the same steps as ``payable``)."""
    b = seat(p)
    k = conv_rate(g, p, C)
    while g[b + P_CR + 2] < pp:
        while g[b + P_CR + 1] < k:
            g[b + P_CR] -= k
            g[b + P_CR + 1] += 1
        g[b + P_CR + 1] -= k
        g[b + P_CR + 2] += 1
    g[b + P_CR + 2] -= pp
    while g[b + P_CR + 1] < r:
        if g[b + P_CR + 2] > 0:
            g[b + P_CR + 2] -= 1
            g[b + P_CR + 1] += 1
            g[b + P_CR] += 1
        else:
            g[b + P_CR] -= k
            g[b + P_CR + 1] += 1
    g[b + P_CR + 1] -= r
    while g[b + P_CR] < w:
        if g[b + P_CR + 1] > 0:
            g[b + P_CR + 1] -= 1
            g[b + P_CR] += 2
        else:
            g[b + P_CR + 2] -= 1
            g[b + P_CR + 1] += 1
            g[b + P_CR] += 1
    g[b + P_CR] -= w


@kernel
def pay_cost(g, p, C, tab, w, r, pp):
    """``pay``, then Lexander's permanent effect: per purple crystal paid for a cost, 1 white
    crystal and 1 point (RC-R230, RC-R231, RC-A48: conversions do not count). False when the
    points pass an upgrade symbol (not compiled: the caller stops)."""
    pay(g, p, C, w, r, pp)
    lex = C[C_LEX]
    if pp > 0 and lex >= 0 and g[seat(p) + P_OWN + lex] == 1:
        g[seat(p) + P_CR] += pp
        return gain_points(g, p, pp, C, tab)
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


@kernel
def face_up(g, f, C, tab):
    k = tab[C[C_T_FSLOT] + f]
    return k < 0 or g[G_UP + k] == 1


@kernel
def exo_usable(g, p, C, tab):
    return C[C_EXO] >= 0 and can_use(g, p, C[C_EXO], C, tab)


@kernel
def need_at(g, p, f, C, tab):
    """Followers an entry into f must pay: its artifact's cost (RC-R101, RC-A18), 0 when
    Exoskelet can pay it; -1 when the artifact's row is full (not enterable, RC-A62)."""
    c = g[F_ART + f]
    if c < 0:
        return 0
    col = g[seat(p) + P_ARTS + c]
    if col >= C[C_NCOLS]:
        return -1
    return 0 if exo_usable(g, p, C, tab) else tab[C[C_T_ACOST] + col]


@kernel
def artifact_cost(g, p, f, C, tab):
    return tab[C[C_T_ACOST] + g[seat(p) + P_ARTS + g[F_ART + f]]]


@kernel
def pay_followers(g, p, f, k):
    g[seat(p) + P_FOL + f] -= k
    g[seat(p) + P_SUPPLY] += k


@kernel
def can_enter(g, p, f, group, C, tab):
    """RC-A62: face-up land, start, camp, board monument fields (volcano for a Colteron
    holder), never water; the group must pay the artifact lying there."""
    if f < 0 or not face_up(g, f, C, tab):
        return False
    terr = g[F_TERR + f]
    ok = tab[C[C_T_TMOVE] + terr] == 1 or (terr == C[C_VOLCANO] and C[C_COLTERON] >= 0
                                           and g[seat(p) + P_OWN + C[C_COLTERON]] == 1)
    if not ok:
        return False
    need = need_at(g, p, f, C, tab)
    return need >= 0 and need <= group


@kernel
def move_targets(g, lg, p, f, C, tab):
    """Mark (if ``lg`` is given, length > 0) and count the fields the followers on f may enter."""
    n = 0
    group = g[seat(p) + P_FOL + f]
    for d in range(6):
        x = tab[C[C_T_NEIGH] + 6 * f + d]
        if x >= 0 and can_enter(g, p, x, group, C, tab):
            n += 1
            if lg.shape[0] > 0:
                lg[C[C_O_FIELD] + x] = True
    return n


# ---- the turn -------------------------------------------------------------------------------------------
@kernel
def copy_possible(g, p, C):
    """RC-R34, RC-A40: F may be played once a field A..E holds a card (``ever``: was activated);
    its COPY item checks its cost only when picked."""
    b = seat(p)
    for s in range(5):
        if (g[b + P_EVER + s] == 1) if C[C_COPY_EVER] else (g[b + P_SLOT + s] >= 0):
            return True
    return False


@kernel
def main_mask(g, lg, C, tab, atoms, p):
    """RC-R8, RC-R13, RC-R34: ``recall``; ``play:k:s`` for an available card of kind k into a free
    slot s (F only after another field, ``copy_possible``); the free actions."""
    b = seat(p)
    lg[A_RECALL] = True
    f_ok = g[b + P_SLOT + 5] < 0 and copy_possible(g, p, C)
    for k in range(C[C_K]):
        if g[b + P_AVAIL + k] > 0:
            for s in range(5):
                lg[C[C_O_PLAY] + 6 * k + s] = g[b + P_SLOT + s] < 0
            lg[C[C_O_PLAY] + 6 * k + 5] = f_ok
    free_actions(g, lg, C, tab, p, True)


@kernel
def event_mask(g, lg, C, tab, p, ev):
    """An event window (RC-R65, RC-A74): ``use:a`` for each ability of event ``ev`` not used in
    this window and payable, and ``end``. Returns the number of usable abilities."""
    n = 0
    for a in range(C[C_U]):
        ok = tab[C[C_T_EVT] + a] == ev and g[G_EVENT_USED + a] == 0 and can_use(g, p, a, C, tab)
        lg[C[C_O_USE] + a] = ok
        n += ok
    lg[A_END] = True
    return n


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
def take_artifact(g, C, tab, atoms):
    """RC-R99..R105: the artifact on G_MTO into the leftmost empty box of its colour; its covered
    reward runs as its own queue, then the ``artifact`` window; then the movement goes on."""
    p = g[G_ACTIVE]
    b = seat(p)
    x = g[G_MTO]
    c = g[F_ART + x]
    col = g[b + P_ARTS + c]
    g[F_ART + x] = -1
    g[b + P_ARTS + c] = col + 1
    if g[G_QI] < g[G_QN]:                                # an outer queue still running: not compiled
        stop(g, S_PICK)
        return
    g[G_SAVE_RET] = g[G_RET]
    clear_event(g)
    if not queue_reward(g, tab[C[C_T_COVERED] + C[C_NCOLS] * c + col], PH_ART_EVENT, C, tab, atoms, False):
        stop(g, S_REWARD)


@kernel
def clear_event(g):
    for a in range(U_MAX):
        g[G_EVENT_USED + a] = 0


@kernel
def stop(g, why):
    g[G_PHASE] = PH_STOP
    g[G_STOP] = why


@kernel
def use_event_ability(g, a, C, tab, atoms):
    """Pay and run an event-bound ability: J'He appends the card's items again; others stop."""
    p = g[G_ACTIVE]
    pay_ability(g, p, a, C, tab)
    g[G_EVENT_USED + a] = 1
    if a == C[C_JHE] and g[G_CARD] >= 0:
        if not push_effect(g, tab[C[C_T_KEY] + g[G_CARD]], -1, C, tab, atoms):
            stop(g, S_PICK)
    elif tab[C[C_T_ABEFF] + a] < 0 or not apply_simple(g, p, tab[C[C_T_ABEFF] + a], C, tab, atoms):
        stop(g, S_ABILITY)


@kernel
def after_event(ph):
    """Where the flow goes once an event window is over."""
    if ph == PH_KEY_EVENT:
        return PH_EFFECT
    if ph == PH_PROD_EVENT:
        return PH_PRODUCE
    if ph == PH_KBONUS:
        return PH_KSTEP
    if ph == PH_ART_EVENT:
        return PH_MOVE_FROM
    return PH_TURN_END


@kernel
def remove_pending(g, i):
    n = g[G_PEND_N]
    for j in range(G_PEND + PEND_W * i, G_PEND + PEND_W * (n - 1)):
        g[j] = g[j + PEND_W]
    g[G_PEND_N] = n - 1


@kernel
def special_index(g, C, tab, off, count):
    """k if the hourglass stands on the k-th space of the list at ``off`` (path / goal spaces), else -1."""
    for k in range(count):
        if tab[off + k] == g[G_ROUND] + 1:
            return k
    return -1


@kernel
def end_turn(g, C):
    p = g[G_ACTIVE]
    g[G_PEND_N] = 0
    crystal_cap(g, p, C)
    g[G_PHASE] = PH_NEXT


@kernel
def recharge(g, C):
    """RC-R43, RC-R45, RC-R46: placed stones back on the skill field, escalation counts reset."""
    b = seat(g[G_ACTIVE])
    g[b + P_SKILL] += g[b + P_PLACED]
    g[b + P_PLACED] = 0
    for a in range(C[C_U]):
        g[b + P_USES + a] = 0
    g[G_RECHARGED] = 1


# ---- flow ---------------------------------------------------------------------------------------------
@kernel
def apply(g, h, C, tab, atoms, a):
    """Apply action ``a`` at the pending decision (legal: checked by the caller)."""
    k = g[G_KIND]
    o = C[C_O_OPT]
    p = g[G_ACTIVE]
    b = seat(p)
    free = a >= C[C_O_USE] and k != K_PAYMENT
    if k == K_START_FIELD:
        g[seat(0) + P_START] = C[C_START1] if a == o else C[C_START2]
        g[G_PHASE] = PH_DRAFT
        place_start_followers(g, C)
    elif k == K_DRAFT:
        take_draft(g, C, a - o)
    elif k == K_EVENT:
        if a == A_END:
            g[G_PHASE] = after_event(g[G_PHASE])
        else:
            use_event_ability(g, a - C[C_O_USE], C, tab, atoms)
    elif free:                                              # RC-A70: then the same node again
        if a == C[C_O_RING]:
            stop(g, S_FREE)
        elif a >= C[C_O_CHEST]:
            x = a - C[C_O_CHEST]
            g[b + P_CHESTS + x] -= 1
            if not queue_reward(g, tab[C[C_T_CHEST] + x], g[G_PHASE], C, tab, atoms, False):
                stop(g, S_FREE)
        else:
            u = a - C[C_O_USE]
            pay_ability(g, p, u, C, tab)
            e = tab[C[C_T_ABEFF] + u]
            if e < 0 or not queue_reward(g, e, g[G_PHASE], C, tab, atoms, True):
                stop(g, S_ABILITY)
    elif k == K_MAIN:
        if a == A_RECALL:                                   # RC-R36, RC-R37
            c = 0
            for s in range(6):
                kind = g[b + P_SLOT + s]
                if kind >= 0:
                    g[b + P_AVAIL + kind] += 1
                    g[b + P_SLOT + s] = -1
                    c += 1
            g[b + P_RECALLS] += 1
            g[G_PROD_LEFT] = c
            g[G_PROD_USED] = 0
            g[G_PHASE] = PH_PRODUCE
        else:                                               # RC-R13, RC-R14
            kind, s = divmod(a - C[C_O_PLAY], 6)
            g[b + P_AVAIL + kind] -= 1
            g[b + P_SLOT + s] = kind
            g[b + P_EVER + s] = 1
            g[b + P_PLAYS + s] += 1
            g[G_CARD] = kind
            g[G_FIELD] = s
            e = tab[C[C_T_KEY] + kind]
            ok = push_effect(g, e, -1, C, tab, atoms) and push_effect(g, field_effect(g, p, s, C, tab), s, C, tab, atoms)
            g[G_PHASE] = PH_KEY_EVENT if has_items(e, C, tab) else PH_EFFECT
            clear_event(g)
            if not ok:
                stop(g, S_PICK)
    elif k == K_EFFECT:
        if a == A_END:                                      # RC-R19: the rest is dropped
            g[G_PEND_N] = 0
            g[G_PHASE] = PH_TURN_END
        else:                                               # RC-R15, RC-R89: the item whole
            i = a - C[C_O_PICK]
            q = G_PEND + PEND_W * i
            e, item, dev1 = g[q], g[q + 1], g[q + 3]
            g[G_OWNER] = g[q + 2]
            remove_pending(g, i)
            r, alts = -1, 0
            if e >= 0:
                for x in range(tab[C[C_T_EROWS] + 2 * e], tab[C[C_T_EROWS] + 2 * e + 1]):
                    if atoms[x, A_ITEM] == item:
                        r = x
                        alts += 1
            start_queue(g, PH_EFFECT)
            if alts != 1 or not compiled_atom(atoms[r, A_OP]) or dev1:
                stop(g, S_PICK)
            else:
                enqueue(g, r, atoms[r, A_N])
                g[G_PHASE] = PH_EXEC
    elif k == K_PRODUCE:
        if a == A_END:
            g[G_PHASE] = PH_RECHARGE
        else:                                               # RC-R38, RC-R41
            i = a - o
            g[G_PROD_USED] |= 1 << i
            g[G_PROD_LEFT] -= 1
            clear_event(g)
            if not queue_reward(g, tab[C[C_T_PROD] + i], PH_PROD_EVENT, C, tab, atoms, False):
                stop(g, S_PRODUCTION)
    elif k == K_PLACE:
        f = a - C[C_O_FIELD]
        g[b + P_FOL + f] += g[G_LEFT]
        g[b + P_SUPPLY] -= g[G_LEFT]
        g[G_PHASE] = g[G_SUBRET]
    elif k == K_CRYSTAL:
        if a == A_END:
            g[G_LEFT] = 0
        else:
            c = a - o
            g[b + P_CR + c] -= 1
            g[b + P_CR + c + 1] += 1
            g[G_LEFT] -= 1
    elif k == K_BUY:
        if a == A_END:
            g[G_PHASE] = PH_EXEC
        else:
            x = C[C_T_OPTS] + 4 * (atoms[g[G_LEFT], A_OPTION] + a - o)
            ok = pay_cost(g, p, C, tab, tab[x], tab[x + 1], tab[x + 2])
            g[G_LEFT] = min(tab[x + 3], g[b + P_SUPPLY])
            g[G_SUBRET] = PH_EXEC
            g[G_PHASE] = PH_PLACE if g[G_LEFT] > 0 else PH_EXEC
            if not ok:
                stop(g, S_REWARD)
    elif k == K_SELL:
        if a == A_END:
            g[G_PHASE] = PH_EXEC
        else:
            g[G_SELLF] = a - C[C_O_FIELD]
            g[G_PHASE] = PH_SELL_COUNT
    elif k == K_COPY:
        r = g[G_LEFT]
        g[G_PHASE] = PH_EXEC
        if not pay_cost(g, p, C, tab, atoms[r, A_W], atoms[r, A_R], atoms[r, A_P]):
            stop(g, S_REWARD)
        elif not push_effect(g, field_effect(g, p, a - o, C, tab), 5, C, tab, atoms):
            stop(g, S_PICK)
    elif k == K_UNITS:
        r = g[G_LEFT]
        n, m = atoms[r, A_N], a - o
        ok = m == 0 or push_entry(g, -1, -1, g[G_OWNER], 2 + m)
        for j in range(n - m):
            ok = ok and push_entry(g, -1, -1, g[G_OWNER], 1)
        g[G_PHASE] = PH_EXEC
        if not ok:
            stop(g, S_PICK)
    elif k == K_TRACK:
        g[G_KTRACK] = a - o
        g[G_PHASE] = PH_KSTEP
    elif k == K_ITEM:
        t = g[G_KTRACK]
        i = a - o
        for j in range(C[C_PER_STACK]):
            col = G_OLD_ITEMS + C[C_PER_STACK] * t + j
            if g[col] >= 0:
                if i == 0:
                    it = g[col]
                    g[col] = -1
                    for u in range(tab[C[C_T_ITEM_AB] + 2 * it], tab[C[C_T_ITEM_AB] + 2 * it] + tab[C[C_T_ITEM_AB] + 2 * it + 1]):
                        g[b + P_OWN + u] = 1
                    break
                i -= 1
        g[G_PHASE] = PH_KSTEP
    elif k == K_PAY_MOVE:
        r = g[G_LEFT]
        x = C[C_T_OPTS] + 4 * (atoms[r, A_OPTION] + a - o)
        c = tab[x]
        g[G_MOVES] = tab[x + 3]
        g[G_PHASE] = PH_MOVE_FROM
        if c >= 0 and not pay_cost(g, p, C, tab, 1 if c == 0 else 0, 1 if c == 1 else 0, 1 if c == 2 else 0):
            stop(g, S_REWARD)
    elif k == K_MOVE_FROM:
        if a == A_END:                                      # RC-R92: the rest is lost
            g[G_MOVES] = 0
            g[G_PHASE] = PH_EXEC
        else:
            g[G_MFROM] = a - C[C_O_FIELD]
            g[G_PHASE] = PH_MOVE_TO
    elif k == K_MOVE_TO:
        g[G_MTO] = a - C[C_O_FIELD]
        g[G_PHASE] = PH_MOVE_COUNT
    elif k == K_MOVE_COUNT:
        c = a - C[C_O_COUNT] + 1
        f, x = g[G_MFROM], g[G_MTO]
        g[b + P_FOL + f] -= c
        g[b + P_FOL + x] += c
        g[G_MOVES] -= 1
        g[G_MCOUNT] = c
        g[G_PHASE] = PH_MOVE_FROM
        if g[F_ART + x] >= 0:                               # RC-R99..R101, RC-A18
            if artifact_cost(g, p, x, C, tab) > 0 and exo_usable(g, p, C, tab):
                g[G_PHASE] = PH_PAYMENT
            else:
                pay_followers(g, p, x, artifact_cost(g, p, x, C, tab))
                take_artifact(g, C, tab, atoms)
    elif k == K_KEY:
        i = a - o
        if g[G_LEFT] == 1:
            g[G_YELLOW + i] -= 1
            g[b + P_AVAIL + tab[C[C_T_YELLOW] + i]] += 1
        else:                                               # the display slot refilled from the deck
            green = g[G_LEFT] == 2
            col, top = (G_GREEN, G_GREEN_TOP) if green else (G_GREY, G_GREY_TOP)
            deck, size = (H_GREEN, C[C_NGREEN]) if green else (H_GREY, C[C_NGREY])
            g[b + P_AVAIL + g[col + i]] += 1
            if g[top] < size:
                g[col + i] = h[deck + g[top]]
                g[top] += 1
            else:
                g[col + i] = -1
        g[G_PHASE] = PH_EXEC
    elif k == K_PAYMENT:                                    # RC-R244: Exoskelet, or the followers
        x = g[G_MTO]
        if a == A_END:
            pay_followers(g, p, x, artifact_cost(g, p, x, C, tab))
        else:
            pay_ability(g, p, C[C_EXO], C, tab)
        take_artifact(g, C, tab, atoms)
    elif k == K_SELL_COUNT:
        c = a - C[C_O_COUNT] + 1
        g[b + P_FOL + g[G_SELLF]] -= c
        g[b + P_SUPPLY] += c
        g[b + P_CR] += c
        g[G_PHASE] = PH_SELL
    elif k == K_RECHARGE:
        recharge(g, C)
        g[G_PHASE] = PH_TURN_END
    elif k == K_TURN_END:
        end_turn(g, C)
    elif k == K_PATH:                                       # RC-R184..R186
        sector = special_index(g, C, tab, C[C_T_PATH_SP], C[C_NPATH_SP])
        pos = 2 * sector + a - o
        g[b + P_PATHS + sector] = pos
        clear_event(g)
        if not queue_reward(g, tab[C[C_T_DARK] + g[G_DARK + pos]], PH_BONUS_EVENT, C, tab, atoms, False):
            stop(g, S_REWARD)
    elif k == K_GOAL:                                       # RC-R189
        col = H_GOALS + 3 * p + a - o
        goal = h[col]
        h[col] = -1
        if not queue_reward(g, tab[C[C_T_GOAL] + goal], PH_TURN_END, C, tab, atoms, False):
            stop(g, S_REWARD)


@kernel
def decide(g, h, lg, C, tab, atoms, kind, p):
    """Stop at the decision if it has >= 2 legal actions (True); apply a single one at once.
    In a turn, the asked decision after ``max_decisions_per_turn`` ends the turn (RC-A68)."""
    count = 0
    one = -1
    for a in range(lg.shape[0]):
        if lg[a]:
            count += 1
            one = a
    g[G_KIND] = kind
    g[G_DEC] = p
    if count >= 2:
        if g[G_PHASE] >= PH_MAIN:
            if g[G_TURN_DEC] >= C[C_MAXDEC]:
                lg[:] = False
                g[G_GUARD] += 1
                stop(g, S_GUARD)
                return False
            g[G_TURN_DEC] += 1
        return True
    if count == 1:
        lg[one] = False
        apply(g, h, C, tab, atoms, one)
    return False


@kernel
def advance(g, h, lg, C, tab, atoms):
    lg[:] = False
    while True:
        ph = g[G_PHASE]
        p = g[G_ACTIVE]
        if ph == PH_SOLO:
            if g[G_NP] == 1:                      # RC-V11: start field 1 or 2
                lg[C[C_O_OPT]] = True
                lg[C[C_O_OPT] + 1] = True
                if decide(g, h, lg, C, tab, atoms, K_START_FIELD, 0):
                    return
            else:
                place_start_followers(g, C)
                g[G_PHASE] = PH_DRAFT
        elif ph == PH_DRAFT:
            if C[C_DRAFT] == DRAFT_RANDOM or g[G_DSTEP] >= draft_picks(g, C):
                g[G_PHASE] = PH_OLD
            else:
                draft_mask(g, lg, C)
                if decide(g, h, lg, C, tab, atoms, K_DRAFT, draft_seat(g)):
                    return
        elif ph == PH_OLD:
            deal_old_tribes(g, h, C, tab)
            g[G_ROUND] = 0
            g[G_ACTIVE] = 0
            g[G_PHASE] = PH_TURN
        elif ph == PH_TURN:                       # RC-R3, RC-R6
            g[G_TURN_DEC] = 0
            g[G_RECHARGED] = 0
            g[G_CARD] = -1
            g[G_FIELD] = -1
            g[G_PEND_N] = 0
            if special_index(g, C, tab, C[C_T_PATH_SP], C[C_NPATH_SP]) >= 0:
                g[G_PHASE] = PH_PATH
            elif special_index(g, C, tab, C[C_T_GOAL_SP], C[C_NGOAL_SP]) >= 0:
                g[G_PHASE] = PH_GOAL
            else:
                g[G_PHASE] = PH_MAIN
        elif ph == PH_MAIN:
            main_mask(g, lg, C, tab, atoms, p)
            if decide(g, h, lg, C, tab, atoms, K_MAIN, p):
                return
        elif ph == PH_KEY_EVENT or ph == PH_BONUS_EVENT or ph == PH_PROD_EVENT or ph == PH_KBONUS or ph == PH_ART_EVENT:
            ev = EV_KEY if ph == PH_KEY_EVENT else (EV_PROD if ph == PH_PROD_EVENT else (EV_ART if ph == PH_ART_EVENT else EV_BONUS))
            n = event_mask(g, lg, C, tab, p, ev)
            if n > 0 and C[C_AUTO]:
                lg[:] = False
                for a in range(C[C_U]):
                    if g[G_EVENT_USED + a] == 0 and tab[C[C_T_EVT] + a] == ev and can_use(g, p, a, C, tab):
                        use_event_ability(g, a, C, tab, atoms)
                        break
            elif n > 0:
                if decide(g, h, lg, C, tab, atoms, K_EVENT, p):
                    return
            else:
                lg[:] = False
                g[G_PHASE] = after_event(ph)
        elif ph == PH_EFFECT:                     # RC-R15, RC-R16, RC-R19
            if g[G_PEND_N] == 0:
                g[G_PHASE] = PH_TURN_END
            else:
                for i in range(g[G_PEND_N]):
                    lg[C[C_O_PICK] + i] = True
                lg[A_END] = True
                free_actions(g, lg, C, tab, p, True)
                if decide(g, h, lg, C, tab, atoms, K_EFFECT, p):
                    return
        elif ph == PH_PRODUCE:                    # RC-R38, RC-R41
            if g[G_PROD_LEFT] > 0:
                for i in range(C[C_NPROD]):
                    lg[C[C_O_OPT] + i] = tab[C[C_T_PROD_BLD] + i] < 0 and (g[G_PROD_USED] >> i) & 1 == 0
                lg[A_END] = True
                free_actions(g, lg, C, tab, p, True)
                if decide(g, h, lg, C, tab, atoms, K_PRODUCE, p):
                    return
            else:
                g[G_PHASE] = PH_RECHARGE
        elif ph == PH_RECHARGE:                   # RC-R44, RC-A70
            lg[A_END] = True
            free_actions(g, lg, C, tab, p, True)
            if decide(g, h, lg, C, tab, atoms, K_RECHARGE, p):
                return
        elif ph == PH_TURN_END:                   # RC-R9: free actions before the turn ends
            lg[A_END] = True
            free_actions(g, lg, C, tab, p, g[G_RECHARGED] == 0)
            if decide(g, h, lg, C, tab, atoms, K_TURN_END, p):
                return
        elif ph == PH_PATH:
            lg[C[C_O_OPT]] = True
            lg[C[C_O_OPT] + 1] = True
            free_actions(g, lg, C, tab, p, True)
            if decide(g, h, lg, C, tab, atoms, K_PATH, p):
                return
        elif ph == PH_GOAL:
            if g[G_NP] == 1 and C[C_KEEP3]:
                g[G_PHASE] = PH_TURN_END
            else:
                for i in range(3):
                    lg[C[C_O_OPT] + i] = h[H_GOALS + 3 * p + i] >= 0
                free_actions(g, lg, C, tab, p, True)
                if decide(g, h, lg, C, tab, atoms, K_GOAL, p):
                    return
        elif ph == PH_EXEC:
            if g[G_QI] >= g[G_QN]:
                g[G_PHASE] = g[G_RET]
            else:
                execute(g, h, C, tab, atoms)
        elif ph == PH_PLACE:                      # RC-R76: own followers or the own start field
            b = seat(p)
            for f in range(g[G_NF]):
                lg[C[C_O_FIELD] + f] = g[b + P_FOL + f] > 0 or g[F_START + f] == g[b + P_START]
            if decide(g, h, lg, C, tab, atoms, K_PLACE, p):
                return
        elif ph == PH_CRYSTAL:
            if g[G_LEFT] <= 0:
                g[G_PHASE] = PH_EXEC
            else:
                b = seat(p)
                lg[A_END] = True
                lg[C[C_O_OPT]] = g[b + P_CR] > 0
                lg[C[C_O_OPT] + 1] = g[b + P_CR + 1] > 0
                if decide(g, h, lg, C, tab, atoms, K_CRYSTAL, p):
                    return
        elif ph == PH_BUY:
            lg[A_END] = True
            r = g[G_LEFT]
            for i in range(atoms[r, A_ARG]):
                x = C[C_T_OPTS] + 4 * (atoms[r, A_OPTION] + i)
                lg[C[C_O_OPT] + i] = payable(g, p, C, tab[x], tab[x + 1], tab[x + 2])
            if decide(g, h, lg, C, tab, atoms, K_BUY, p):
                return
        elif ph == PH_SELL:
            b = seat(p)
            lg[A_END] = True
            for f in range(g[G_NF]):
                lg[C[C_O_FIELD] + f] = g[b + P_FOL + f] > 0
            if decide(g, h, lg, C, tab, atoms, K_SELL, p):
                return
        elif ph == PH_SELL_COUNT:
            for c in range(min(g[seat(p) + P_FOL + g[G_SELLF]], 23)):
                lg[C[C_O_COUNT] + c] = True
            if decide(g, h, lg, C, tab, atoms, K_SELL_COUNT, p):
                return
        elif ph == PH_COPY:                       # the letters RC-A40 allows
            b = seat(p)
            for x in range(5):
                lg[C[C_O_OPT] + x] = (g[b + P_EVER + x] == 1) if C[C_COPY_EVER] else (g[b + P_SLOT + x] >= 0)
            if decide(g, h, lg, C, tab, atoms, K_COPY, p):
                return
        elif ph == PH_UNITS:
            r = g[G_LEFT]
            bits = atoms[r, A_ARG]
            n = atoms[r, A_N]
            for m in range(n + 1):
                lg[C[C_O_OPT] + m] = (m == 0 or bits & 1) and (m == n or bits & 2)
            if decide(g, h, lg, C, tab, atoms, K_UNITS, p):
                return
        elif ph == PH_KTRACK:                     # K:any: one track for all steps
            b = seat(p)
            for t in range(3):
                lg[C[C_O_OPT] + t] = g[b + P_TRK + t] < C[C_TRK_LAST]
            if not lg[C[C_O_OPT]:C[C_O_OPT] + 3].any():
                g[b + P_STEPS_LOST] += g[G_KLEFT]
                g[G_PHASE] = PH_EXEC
            elif decide(g, h, lg, C, tab, atoms, K_TRACK, p):
                return
        elif ph == PH_KSTEP:
            knowledge_step(g, C, tab, atoms)
        elif ph == PH_ITEM:                       # RC-R164, RC-R166: an item left on the stack
            t = g[G_KTRACK]
            for i in range(items_left(g, t, C)):
                lg[C[C_O_OPT] + i] = True
            if decide(g, h, lg, C, tab, atoms, K_ITEM, p):
                return
        elif ph == PH_KEY:                        # RC-R133, RC-R191; none left: nothing (RC-A21)
            colour = g[G_LEFT]
            if colour == 1:
                for i in range(C[C_NYELLOW]):
                    lg[C[C_O_OPT] + i] = g[G_YELLOW + i] > 0
            else:
                col = G_GREEN if colour == 2 else G_GREY
                for i in range(3):
                    lg[C[C_O_OPT] + i] = g[col + i] >= 0
            if not lg[C[C_O_OPT]:C[C_O_OPT] + 4].any():
                g[G_PHASE] = PH_EXEC
            elif decide(g, h, lg, C, tab, atoms, K_KEY, p):
                return
        elif ph == PH_PAYMENT:
            lg[C[C_O_USE] + C[C_EXO]] = True
            lg[A_END] = g[G_MCOUNT] >= artifact_cost(g, p, g[G_MTO], C, tab)
            if decide(g, h, lg, C, tab, atoms, K_PAYMENT, p):
                return
        elif ph == PH_PAY_MOVE:                   # the options whose crystal is payable (- always)
            r = g[G_LEFT]
            for i in range(atoms[r, A_ARG]):
                x = C[C_T_OPTS] + 4 * (atoms[r, A_OPTION] + i)
                c = tab[x]
                lg[C[C_O_OPT] + i] = c < 0 or payable(g, p, C, 1 if c == 0 else 0, 1 if c == 1 else 0, 1 if c == 2 else 0)
            if decide(g, h, lg, C, tab, atoms, K_PAY_MOVE, p):
                return
        elif ph == PH_MOVE_FROM:
            if g[G_SAVE_RET] >= 0:                # back from an artifact's reward: the outer queue
                g[G_QN] = 1
                g[G_QI] = 1
                g[G_RET] = g[G_SAVE_RET]
                g[G_SAVE_RET] = -1
            if g[G_MOVES] <= 0:
                g[G_PHASE] = PH_EXEC
            else:
                b = seat(p)
                lg[A_END] = True
                for f in range(g[G_NF]):
                    lg[C[C_O_FIELD] + f] = g[b + P_FOL + f] > 0 and move_targets(g, lg[:0], p, f, C, tab) > 0
                if decide(g, h, lg, C, tab, atoms, K_MOVE_FROM, p):
                    return
        elif ph == PH_MOVE_TO:
            move_targets(g, lg, p, g[G_MFROM], C, tab)
            if decide(g, h, lg, C, tab, atoms, K_MOVE_TO, p):
                return
        elif ph == PH_MOVE_COUNT:                 # RC-R84, RC-R87
            need = need_at(g, p, g[G_MTO], C, tab)
            for c in range(max(1, need), min(g[seat(p) + P_FOL + g[G_MFROM]], 23) + 1):
                lg[C[C_O_COUNT] + c - 1] = True
            if decide(g, h, lg, C, tab, atoms, K_MOVE_COUNT, p):
                return
        elif ph == PH_NEXT:                       # RC-R3, RC-R5, RC-R7
            g[G_ACTIVE] += 1
            if g[G_ACTIVE] == g[G_NP]:
                g[G_ACTIVE] = 0
                g[G_ROUND] += 1
            if g[G_ROUND] + 1 >= C[C_SPACES]:     # the last space: final scoring (engine.py)
                g[G_PHASE] = PH_DONE
            else:
                g[G_PHASE] = PH_TURN
        else:                                     # PH_STOP, PH_DONE
            lg[:] = False
            g[G_KIND] = K_STOP if ph == PH_STOP else K_DONE
            g[G_DEC] = -1
            return


@kernel
def step_batch(m, hidden, legal, C, tab, atoms, actions, decide_now):
    """Apply each game's action (if ``decide_now``; games over or stopped are skipped), then
    advance every game. The actions must be legal: ``engine.step`` checks them first."""
    for b in range(m.shape[0]):
        g = m[b]
        if decide_now:
            if g[G_KIND] == K_DONE or g[G_KIND] == K_STOP:
                continue
            apply(g, hidden[b], C, tab, atoms, actions[b])
        advance(g, hidden[b], legal[b], C, tab, atoms)
