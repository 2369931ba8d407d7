"""Development actions (RC-R113..R158, model doc "Development action"): ``dev`` -> ``dev_field``
-> the type's choice (``sanctuary`` / ``stone``), the follower payment (``payment`` with
Exoskelet, RC-R244, RC-R245), the crystals, the other builders' followers (RC-R121, RC-A52),
the gain (sanctuary reward and window, workshop key card, monument tile and its reward, the
excavated stone, its steps and window), then the adjacent camps (RC-R144..R150) with their window.

A development action runs as a small program: ``G_DEV_STEP`` is its next stage and the stage
machine ``dev_next`` runs in ``PH_DEV_NEXT``; rewards and knowledge steps run on the atom queue
and come back to ``PH_DEV_NEXT``; the action ends in ``G_DEV_RET``. Pigs (Dorian) do not exist
in the compiled part yet, so only followers pay.
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common, frames, chests, queue, movement, pigs, rafts
from sim.games.recall.kernel.common import (
    A_END, C_EXC_TERR, C_EXO, C_NMON, C_NSANCT, C_O_FIELD, C_O_OPT, C_O_USE, C_T_CAMP, C_T_EXC,
    C_T_FSLOT, C_T_MONCOST, C_T_MTILE, C_T_NEIGH, C_T_PROD_BLD, C_T_PROD_COL, C_T_PROD_POS,
    C_T_SANCT, C_T_TBLD, C_T_TCOL, C_T_TKEY, C_T_WSCOST, C_T_WSN, C_WSW, S_REWARD, clear_event,
    kernel, pay_ability, pay_cost, payable, seat, stop)
from sim.games.recall.kernel.queue import atom_frame, queue_reward
from sim.games.recall.kernel.movement import exo_usable, face_up
from sim.games.recall.kernel.rafts import pay_from
from sim.games.recall.kernel.pigs import pigs_along
from sim.games.recall.state import (
    F_CAMP, F_MONTILE, F_SITE, F_TERR, G_ACTIVE, G_ART_LAST, G_DEV_EXO, G_DEV_F, G_DEV_K, G_DEV_RET,
    G_DEV_STEP, G_DEV_T, G_HERE, G_KLEFT, G_KTRACK, G_LEFT, G_MON_DISP, G_NF, G_NP, G_PHASE,
    K_CRYSTAL, K_DEV, K_DEV_FIELD, K_MON_TILE, K_PAYMENT, K_SANCTUARY, K_STONE, PH_CAMP_EVENT,
    PH_DEV, PH_DEV_CRYSTAL, PH_DEV_FIELD, PH_DEV_NEXT, PH_DEV_PAY, PH_EXC_EVENT, PH_KEY, PH_KSTEP,
    PH_MON_TILE, PH_SANCTUARY, PH_SANCT_EVENT, PH_STONE, P_BLD, P_CAMPS, P_CR, P_FOL, P_MON,
    P_SANCT, P_SKILL, P_STONES, P_SUPPLY, P_WS)

kernel_cache.watch(__file__, st, common, frames, chests, queue, movement, pigs, rafts)

DEV_SANCT, DEV_WORKSHOP, DEV_MONUMENT, DEV_EXCAVATE, DEV_CRYSTAL = range(5)   # ``opt:t`` of ``dev``
(DS_PAY, DS_COST, DS_GAIN, DS_TILE, DS_EXC_WINDOW, DS_CAMPS, DS_END) = range(7)


@kernel
def other_builders(g, p, f):
    n = 0
    for q in range(g[G_NP]):
        n += q != p and g[seat(q) + P_BLD + f] > 0
    return n


@kernel
def follower_cost(g, p, t, f):
    """RC-R119, RC-R120, RC-R122: 1 + 1 per other builder on the field; excavating 1."""
    return 1 if t == DEV_EXCAVATE else 1 + other_builders(g, p, f)


@kernel
def site_stones(g, f):
    return g[F_SITE + 3 * f] + g[F_SITE + 3 * f + 1] + g[F_SITE + 3 * f + 2]


@kernel
def dev_crystals(g, p, t, f, C, tab):
    """(possible, w, r, p): the crystal cost of building type t on f, or impossible when nothing is
    left to build (RC-A21, RC-A22, RC-R126, RC-R152..R154, RC-R157)."""
    b = seat(p)
    if t == DEV_SANCT:
        return g[b + P_SANCT] != (1 << C[C_NSANCT]) - 1, 0, 0, 0
    if t == DEV_WORKSHOP:
        col = tab[C[C_T_TCOL] + g[F_TERR + f]]
        k = g[b + P_WS + col]
        if k >= tab[C[C_T_WSN] + col]:
            return False, 0, 0, 0
        x = C[C_T_WSCOST] + 3 * (C[C_WSW] * col + k)
        return True, tab[x], tab[x + 1], tab[x + 2]
    if t == DEV_MONUMENT:
        k = g[b + P_MON]
        if k >= C[C_NMON]:
            return False, 0, 0, 0
        x = C[C_T_MONCOST] + 3 * k
        return True, tab[x], tab[x + 1], tab[x + 2]
    s = site_stones(g, f)
    if s == 0:
        return False, 0, 0, 0
    c = tab[C[C_T_EXC] + 2 * (s - 1)]
    return True, 1 if c == 0 else 0, 1 if c == 1 else 0, 1 if c == 2 else 0


@kernel
def dev_field_ok(g, p, t, f, C, tab):
    """RC-R116..R123, RC-R157: an own follower there; the terrain's building (never on a camp),
    no own building yet, or an excavation site with stones; the crystals payable; the followers
    (and a Dorian holder's pigs, RC-R213) for the cost there, or Exoskelet usable."""
    b = seat(p)
    if g[b + P_FOL + f] <= 0:
        return False
    terr = g[F_TERR + f]
    if t == DEV_EXCAVATE:
        if terr != C[C_EXC_TERR]:
            return False
    elif tab[C[C_T_TBLD] + terr] != t or g[b + P_BLD + f] > 0:
        return False
    ok, w, r, pp = dev_crystals(g, p, t, f, C, tab)
    if not ok or not payable(g, p, C, w, r, pp):
        return False
    return follower_cost(g, p, t, f) <= g[b + P_FOL + f] + pigs_along(g, p, f, C) or exo_usable(g, p, C, tab)


@kernel
def production_visible(g, p, i, C, tab):
    """RC-A16: a production field is visible from the start or once the building covering it is
    built: sanctuary position k (from the top), the k-th workshop of its column, the k-th monument."""
    bld = tab[C[C_T_PROD_BLD] + i]
    if bld < 0:
        return True
    b = seat(p)
    k = tab[C[C_T_PROD_POS] + i]
    if bld == DEV_SANCT:
        return (g[b + P_SANCT] >> (k - 1)) & 1 == 1
    if bld == DEV_WORKSHOP:
        return g[b + P_WS + tab[C[C_T_PROD_COL] + i]] >= k
    return g[b + P_MON] >= k


@kernel
def dev_node(g, lg, C, tab, atoms, p):
    """The legal mask of the development decision at ``G_PHASE``; returns its kind, or -1 after
    running the automatic stages (``PH_DEV_NEXT``)."""
    ph = g[G_PHASE]
    b = seat(p)
    o = C[C_O_OPT]
    if ph == PH_DEV:                                 # RC-R113, RC-R114: types with a legal target
        lg[A_END] = True
        found = 0                                    # bit t: a field for type t
        for f in range(g[G_NF]):                     # fields outside, so a field without own
            if g[b + P_FOL + f] <= 0:                # followers is skipped once, not per type
                continue
            for t in range(4):
                if (found >> t) & 1 == 0 and dev_field_ok(g, p, t, f, C, tab):
                    found |= 1 << t
        for t in range(4):
            if (found >> t) & 1:
                lg[o + t] = True
        lg[o + DEV_CRYSTAL] = g[b + P_CR] > 0 or g[b + P_CR + 1] > 0
        return K_DEV
    if ph == PH_DEV_FIELD:
        for f in range(g[G_NF]):
            lg[C[C_O_FIELD] + f] = dev_field_ok(g, p, g[G_DEV_T], f, C, tab)
        return K_DEV_FIELD
    if ph == PH_SANCTUARY:                           # RC-R127
        for i in range(C[C_NSANCT]):
            lg[o + i] = (g[b + P_SANCT] >> i) & 1 == 0
        return K_SANCTUARY
    if ph == PH_STONE:                               # RC-R158, RC-A51
        for c in range(3):
            lg[o + c] = g[F_SITE + 3 * g[G_DEV_F] + c] > 0
        return K_STONE
    if ph == PH_MON_TILE:                            # RC-R142
        for j in range(5):
            lg[o + j] = g[G_MON_DISP + j] >= 0
        return K_MON_TILE
    if ph == PH_DEV_CRYSTAL:                         # RC-R72 once, no ``end`` (unlike ``UPC``)
        lg[o] = g[b + P_CR] > 0
        lg[o + 1] = g[b + P_CR + 1] > 0
        return K_CRYSTAL
    if ph == PH_DEV_PAY:                             # RC-R244: Exoskelet, or the followers pay
        lg[C[C_O_USE] + C[C_EXO]] = True
        lg[A_END] = g[b + P_FOL + g[G_DEV_F]] + pigs_along(g, p, g[G_DEV_F], C) >= follower_cost(g, p, g[G_DEV_T], g[G_DEV_F])
        return K_PAYMENT
    dev_next(g, C, tab, atoms)
    return -1


@kernel
def apply_dev(g, C, tab, k, a):
    """Apply action ``a`` at a development decision of kind ``k``."""
    p = g[G_ACTIVE]
    o = C[C_O_OPT]
    if k == K_DEV:
        if a == A_END:
            g[G_PHASE] = g[G_DEV_RET]
        elif a - o == DEV_CRYSTAL:                   # RC-R114: one crystal up by one kind
            g[G_DEV_T] = DEV_CRYSTAL
            g[G_DEV_STEP] = DS_END
            g[G_PHASE] = PH_DEV_CRYSTAL
        else:
            g[G_DEV_T] = a - o
            g[G_PHASE] = PH_DEV_FIELD
    elif k == K_DEV_FIELD:
        g[G_DEV_F] = a - C[C_O_FIELD]
        g[G_DEV_STEP] = DS_PAY
        t = g[G_DEV_T]
        g[G_PHASE] = PH_SANCTUARY if t == DEV_SANCT else (PH_STONE if t == DEV_EXCAVATE else PH_DEV_NEXT)
    elif k == K_CRYSTAL:
        c = a - o
        g[seat(p) + P_CR + c] -= 1
        g[seat(p) + P_CR + c + 1] += 1
        g[G_PHASE] = PH_DEV_NEXT
    elif k == K_SANCTUARY or k == K_STONE:
        g[G_DEV_K] = a - o
        g[G_PHASE] = PH_DEV_NEXT
    elif k == K_MON_TILE:
        j = a - o                                    # the j-th tile left; the rest close up
        g[F_MONTILE + g[G_DEV_F]] = g[G_MON_DISP + j] + 1
        for i in range(j, 4):
            g[G_MON_DISP + i] = g[G_MON_DISP + i + 1]
        g[G_MON_DISP + 4] = -1
        g[G_PHASE] = PH_DEV_NEXT
    elif k == K_PAYMENT:
        if a == A_END:
            pay_from(g, p, g[G_DEV_F], follower_cost(g, p, g[G_DEV_T], g[G_DEV_F]), C, tab)
            g[G_DEV_EXO] = 0
        else:
            pay_ability(g, p, C[C_EXO], C, tab)
            g[G_DEV_EXO] = 1
        g[G_DEV_STEP] = DS_COST
        g[G_PHASE] = PH_DEV_NEXT


@kernel
def next_camp(g, p, f, C, tab):
    """The face-up camp field next to f with the smallest index whose reward p has not had (RC-R145), or -1."""
    best = -1
    for d in range(6):
        x = tab[C[C_T_NEIGH] + 6 * f + d]
        if x >= 0 and g[F_CAMP + x] >= 0 and face_up(g, x, C, tab) and (g[seat(p) + P_CAMPS] >> g[F_CAMP + x]) & 1 == 0:
            if best < 0 or x < best:
                best = x
    return best


@kernel
def dev_next(g, C, tab, atoms):
    """Run the automatic stages of the development action from ``G_DEV_STEP`` up to its next
    decision, reward or knowledge step (each comes back to ``PH_DEV_NEXT``) or its end."""
    p = g[G_ACTIVE]
    b = seat(p)
    t, f = g[G_DEV_T], g[G_DEV_F]
    step = g[G_DEV_STEP]
    if step == DS_PAY:                               # RC-R119, RC-R120, RC-R244
        if exo_usable(g, p, C, tab):
            g[G_PHASE] = PH_DEV_PAY
            return
        pay_from(g, p, f, follower_cost(g, p, t, f), C, tab)
        g[G_DEV_EXO] = 0
        g[G_DEV_STEP] = DS_COST
    elif step == DS_COST:                            # the crystals, then RC-R121 / RC-A52 (not after Exoskelet, RC-R245)
        ok, w, r, pp = dev_crystals(g, p, t, f, C, tab)
        g[G_DEV_STEP] = DS_GAIN
        if not pay_cost(g, p, C, tab, w, r, pp):
            stop(g, S_REWARD)
            return
        if g[G_DEV_EXO] == 0:
            for q in range(g[G_NP]):
                bq = seat(q)
                if q != p and g[bq + P_BLD + f] > 0 and g[bq + P_SUPPLY] > 0:
                    g[bq + P_FOL + f] += 1
                    g[bq + P_SUPPLY] -= 1
    elif step == DS_GAIN:
        if t == DEV_SANCT:                           # RC-R124, RC-R125, then the sanctuary window
            i = g[G_DEV_K]
            g[b + P_SANCT] |= 1 << i
            g[b + P_BLD + f] = 1 + DEV_SANCT
            g[G_HERE] = f + 1
            g[G_DEV_STEP] = DS_CAMPS
            clear_event(g)
            g[G_ART_LAST] = 0
            if not queue_reward(g, tab[C[C_T_SANCT] + i], PH_SANCT_EVENT, C, tab, atoms, False):
                stop(g, S_REWARD)
        elif t == DEV_WORKSHOP:                      # RC-R130..R136: the terrain's key colour
            col = tab[C[C_T_TCOL] + g[F_TERR + f]]
            g[b + P_WS + col] += 1
            g[b + P_BLD + f] = 1 + DEV_WORKSHOP
            g[G_DEV_STEP] = DS_CAMPS
            atom_frame(g, PH_DEV_NEXT)
            g[G_LEFT] = tab[C[C_T_TKEY] + g[F_TERR + f]]
            g[G_PHASE] = PH_KEY
        elif t == DEV_MONUMENT:                      # RC-R137..R143
            g[b + P_MON] += 1
            g[b + P_BLD + f] = 1 + DEV_MONUMENT
            g[G_DEV_STEP] = DS_TILE
            if tab[C[C_T_FSLOT] + f] >= 0 and g[F_MONTILE + f] == 0:
                for j in range(5):
                    if g[G_MON_DISP + j] >= 0:
                        g[G_PHASE] = PH_MON_TILE
                        return
        else:                                        # RC-R151..R155: the stone, then its steps
            c = g[G_DEV_K]
            steps = tab[C[C_T_EXC] + 2 * (site_stones(g, f) - 1) + 1]
            g[F_SITE + 3 * f + c] -= 1
            g[b + P_SKILL] += 1
            g[b + P_STONES + c] += 1
            g[G_DEV_STEP] = DS_EXC_WINDOW
            atom_frame(g, PH_DEV_NEXT)
            g[G_KTRACK] = c
            g[G_KLEFT] = steps
            g[G_PHASE] = PH_KSTEP
    elif step == DS_TILE:                            # RC-R143: the tile's reward to the builder
        g[G_DEV_STEP] = DS_CAMPS
        if g[F_MONTILE + f] > 0:
            g[G_HERE] = f + 1
            if not queue_reward(g, tab[C[C_T_MTILE] + g[F_MONTILE + f] - 1], PH_DEV_NEXT, C, tab, atoms, False):
                stop(g, S_REWARD)
    elif step == DS_EXC_WINDOW:                      # the excavate window (GPR), no camps (RC-R147)
        g[G_DEV_STEP] = DS_END
        clear_event(g)
        g[G_PHASE] = PH_EXC_EVENT
    elif step == DS_CAMPS:                           # RC-R144..R146, RC-R150: in field order
        x = next_camp(g, p, f, C, tab)
        if x < 0:
            g[G_DEV_STEP] = DS_END
        else:
            g[b + P_CAMPS] |= 1 << g[F_CAMP + x]
            g[G_HERE] = x + 1
            clear_event(g)
            if not queue_reward(g, tab[C[C_T_CAMP] + g[F_CAMP + x]], PH_CAMP_EVENT, C, tab, atoms, False):
                stop(g, S_REWARD)
    else:
        g[G_HERE] = 0
        g[G_PHASE] = g[G_DEV_RET]
