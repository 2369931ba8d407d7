"""Small helpers every kernel module uses: the ``C`` scalar indices and atom / op constants,
seats, stopping, crystals (paying rule RC-A69, the cap RC-R73), points, ability costs.
"""
from __future__ import annotations

from numba import njit

from sim.core import kernel_cache
from sim.core.kernel_typing import njit_once_per_type
from sim.games.recall import state as st
from sim.games.recall.state import (
    G_DEV_RET, G_EVENT_USED, G_HERE, G_PHASE, G_RECHARGED, G_ROUND, G_STOP, G_UPG_BITS, G_UPG_SEAT,
    PH_DEV, PH_STOP, P_CR, P_CR_LOST, P_OWN, P_PLACED, P_SCORE, P_SKILL, P_SYM, P_USES, P_ACTS, SEAT0, SW,
    U_MAX)

kernel_cache.watch(__file__, st)

kernel = njit_once_per_type(njit(cache=True, _nrt=False))     # one compiled copy per type, not per constant

# scalar constants and offsets ``C`` (engine.build_tables)
(C_NP, C_K, C_NF, C_U, C_NCH, C_TRIBES, C_ITEMS, C_DRAFT, C_RINGS, C_NOORD, C_PER_STACK, C_START1,
 C_START2, C_START_FOL, C_O_PLAY, C_O_USE, C_O_CHEST, C_O_RING, C_O_OPT, C_O_PICK,
 C_T_FREE, C_T_HEX, C_T_EVT, C_T_ITEM_AB, C_T_KEY, C_T_BASE, C_T_UPG, C_T_DARK, C_T_GOAL, C_T_PROD,
 C_T_PROD_BLD, C_NPROD, C_T_SYM, C_NSYM, C_SPACES, C_T_PATH_SP, C_NPATH_SP, C_T_GOAL_SP, C_NGOAL_SP,
 C_MAXDEC, C_AUTO, C_COPY_EVER, C_JHE, C_AYNIR, C_CAP, C_KEEP3, C_GOALS_HELD, C_T_EROWS, C_T_OPTS,
 C_O_FIELD, C_O_COUNT, C_T_ABEFF, C_T_CHEST, C_T_LIGHT, C_THIRD, C_FIFTH, C_TRK_LAST, C_T_BONUS, C_NBONUS,
 C_T_NEIGH, C_T_FSLOT, C_T_TMOVE, C_T_ACOST, C_NCOLS, C_VOLCANO, C_COLTERON, C_EXO, C_T_COVERED,
 C_T_YELLOW, C_NYELLOW, C_NGREEN, C_NGREY, C_LEX,
 C_T_TBLD, C_T_TCOL, C_T_TKEY, C_T_WSCOST, C_T_WSN, C_WSW, C_T_MONCOST, C_NMON, C_T_SANCT, C_NSANCT, C_T_EXC,
 C_T_MTILE, C_T_CAMP, C_T_PROD_COL, C_T_PROD_POS, C_T_FTRACK, C_EXC_TERR, C_T_KCOLOUR,
 C_T_SADJ, C_T_TILE, C_PER_SITE, C_FREE_UPG, C_T_TWATER, C_WSTAY, C_ALAMBIEK, C_GPR, C_SCHOKBRON,
 C_GOLIATH, C_K01, C_SANCT_ART, C_PORTAAL,
 C_ENTERIN, C_VINDER, C_HAYLA, C_NISLANDS, C_FOREST, C_T_ISLE,
 C_DORIAN, C_NPIGS, C_NFARMS, C_DPTILE, C_GRAIN, C_T_RING, C_T_RING_N, C_NRINGK) = range(118)
NC = 118
DRAFT_PAIRS, DRAFT_RANDOM, DRAFT_CUSTOM = 0, 1, 2
A_END, A_RECALL = 0, 1
EVENTS = ("", "bonus_token", "key_card", "sanctuary", "artifact", "excavate", "production", "camp")
EV_BONUS, EV_KEY, EV_SANCT, EV_ART, EV_EXC, EV_PROD, EV_CAMP = 1, 2, 3, 4, 5, 6, 7
# sim.games.recall.content_types.OPS indices used here; atom columns of tables.ATOM_COLUMNS
(OP_CRYSTAL, OP_F, OP_VP, OP_PP, OP_K, OP_UPC, OP_KEY, OP_CHEST, OP_MOVE, OP_DEV, OP_PAYOPT, OP_UNITS, OP_BUY,
 OP_SELL, OP_COPY, OP_FH, OP_EXPLORE, OP_WMOVE) = 0, 1, 3, 4, 5, 7, 8, 11, 14, 16, 18, 19, 20, 21, 22, 2, 17, 15
OP_KEACH, OP_KEYUP, OP_KEYBACK, OP_FREE, OP_ART_DISPLAY, OP_COST = 6, 9, 10, 12, 13, 23
# action atoms (content_types.ACTION_OPS) are the ops OP_MOVE .. OP_COPY
A_ITEM, A_ALT, A_OP, A_ARG, A_N, A_W, A_R, A_P, A_OPTION = range(9)
(S_NONE, S_PICK, S_FREE, S_PRODUCTION, S_ABILITY, S_REWARD, S_SCORING) = range(7)


@kernel
def seat(p):
    return SEAT0 + p * SW


@kernel
def start_dev(g, ret):
    """Begin a development action (kernel/dev.py) that returns to phase ``ret`` when it is over."""
    g[G_DEV_RET] = ret
    g[G_HERE] = 0
    g[G_PHASE] = PH_DEV


@kernel
def stop(g, why):
    g[G_PHASE] = PH_STOP
    g[G_STOP] = why


@kernel
def clear_event(g):
    for a in range(U_MAX):
        g[G_EVENT_USED + a] = 0


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
def gain_points(g, p, n, C, tab):
    """Green points (never below 0, RC-R175). An upgrade symbol reached for the first time by p
    (RC-R177, RC-A13; never again after moving back, RC-A67) before the hourglass is on the last
    space (RC-R181) owes an ``upgrade`` decision: ``G_UPG_BITS``, asked by the flow before it
    goes on (kernel/upgrade.py). Returns True (the callers' False branch is for stops)."""
    b = seat(p)
    old, new = g[b + P_SCORE], max(0, g[b + P_SCORE] + n)
    for i in range(C[C_NSYM]):
        sym = tab[C[C_T_SYM] + i]
        if old < sym <= new and (g[b + P_SYM] >> i) & 1 == 0:
            g[b + P_SYM] |= 1 << i
            if g[G_ROUND] + 1 < C[C_SPACES]:
                g[G_UPG_BITS] |= 1 << i
                g[G_UPG_SEAT] = p
    g[b + P_SCORE] = new
    return True


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
    g[b + P_ACTS + a] += 1                        # the game's count (outcome rc_uses_*), never reset


@kernel
def special_index(g, C, tab, off, count):
    """k if the hourglass stands on the k-th space of the list at ``off`` (path / goal spaces), else -1."""
    for k in range(count):
        if tab[off + k] == g[G_ROUND] + 1:
            return k
    return -1
