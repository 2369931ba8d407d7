"""Coded abilities of the map (docs/recall_model.md "Abilities", spec 3.21), run by
``abilities.use_coded`` like the others (after their payment, or chosen at a free activation) in
phase ``PH_ABILITY_3``; the flow then goes on with the phase it was in (``G_ABIL_RET``).

Enterin (RC-R216..R219, RC-A50): ``ability_field`` a free water, grain, forest or mountain field
next to an own follower or building (islands left, RC-A36); the field becomes an island (water and
forest, its pigs gone); per neighbouring field with a building: a workshop 1 white crystal, a
sanctuary 1 follower on the island (the supply allowing), a monument 1 point.
Vinder (RC-R235, RC-R236, RC-A49): ``ability_field`` a free water field that is not an island;
the own raft goes there (or moves there with its followers) and gets min(3, supply) followers.
Its reaction is kernel/rafts.py.
Hayla (RC-R221..R223, RC-A47): ``ability`` opt:0 jump / opt:1 scatter. Jump: ``ability_field``
the source, ``ability_field`` the landing field two steps in one direction over an existing
face-up field, ``ability_count`` (at least the landing field's artifact cost). Scatter:
``ability_field`` the source, then for each of its followers ``ability_field`` an adjacent field
one follower may enter; a follower without one stays. An artifact on the landing field is taken
as in a movement (``payment`` when Exoskelet is usable). A Dorian holder takes pigs along
(RC-R212): ``move_pigs`` after the jump's count and after each scattered follower's field; the
pigs along count for the landing field's artifact (RC-A18) and pay it first (RC-A72).
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common, frames, movement, pigs, rafts
from sim.games.recall.kernel.common import (
    A_END, C_ENTERIN, C_EXO, C_FOREST, C_HAYLA, C_NISLANDS, C_O_COUNT, C_O_FIELD, C_O_OPT, C_O_USE,
    C_T_ISLE, C_T_NEIGH, C_T_TWATER, C_VINDER, gain_points, kernel, pay_ability, seat)
from sim.games.recall.kernel.movement import (
    artifact_cost, can_enter, exo_usable, face_up, gain_artifact, need_at)
from sim.games.recall.kernel.rafts import pay_from
from sim.games.recall.kernel.pigs import carry, pigs_along, pigs_mask
from sim.games.recall.state import (
    F_ART, F_FARM, F_ISLAND, F_PIGS, F_PIGS_ON, F_RING, F_TERR, G_ABIL, G_ABIL_RET, G_ABIL_STEP, G_ACTIVE, G_ISLANDS,
    G_MCOUNT, G_MFROM, G_MOVES, G_MTO, G_NF, G_NP, G_PHASE, K_ABILITY, K_ABILITY_COUNT,
    K_ABILITY_FIELD, K_MOVE_PIGS, K_PAYMENT, PH_ABILITY_3, P_BLD, P_CR, P_FOL, P_RAFT, P_RAFT_N, P_SUPPLY)

kernel_cache.watch(__file__, st, common, frames, movement, pigs, rafts)

# G_ABIL_STEP: the stage of the ability in progress
(AS_FIELD, AS_MODE, AS_JUMP_FROM, AS_JUMP_TO, AS_JUMP_COUNT, AS_SCATTER_FROM, AS_SCATTER_TO,
 AS_PAY_JUMP, AS_PAY_SCATTER, AS_DONE, AS_JUMP_PIGS, AS_SCATTER_PIGS) = range(12)
SANCTUARY, WORKSHOP, MONUMENT = 1, 2, 3        # P_BLD values (kernel/dev.py DEV_TYPES + 1)


@kernel
def use_coded_3(g, C, tab, a):
    """Start coded ability a if it is one of this module's; False if it is not."""
    if a != C[C_ENTERIN] and a != C[C_VINDER] and a != C[C_HAYLA]:
        return False
    g[G_ABIL] = a
    g[G_ABIL_RET] = g[G_PHASE]
    g[G_ABIL_STEP] = AS_MODE if a == C[C_HAYLA] else AS_FIELD
    g[G_PHASE] = PH_ABILITY_3
    return True


@kernel
def neighbour(C, tab, f, d):
    return tab[C[C_T_NEIGH] + 6 * f + d]


@kernel
def free(g, f):
    """RC-R203, RC-A46: no building, follower, artifact, pig or special tile (island, raft, ring,
    pig farm) on f."""
    if g[F_ART + f] >= 0 or g[F_ISLAND + f] == 1 or g[F_RING + f] == 1 or g[F_FARM + f] == 1 or g[F_PIGS_ON + f] > 0:
        return False
    for q in range(g[G_NP]):
        b = seat(q)
        if g[b + P_FOL + f] > 0 or g[b + P_BLD + f] > 0 or g[b + P_RAFT] == f + 1:
            return False
    return True


@kernel
def island_ok(g, p, f, C, tab):
    """RC-R216: a free face-up water, grain, forest or mountain field next to own followers or buildings."""
    if not face_up(g, f, C, tab) or tab[C[C_T_ISLE] + g[F_TERR + f]] == 0 or not free(g, f):
        return False
    b = seat(p)
    for d in range(6):
        x = neighbour(C, tab, f, d)
        if x >= 0 and (g[b + P_FOL + x] > 0 or g[b + P_BLD + x] > 0):
            return True
    return False


@kernel
def raft_ok(g, f, C, tab):
    """RC-R235, RC-A49: a free face-up water field, not an island (islands are forest terrain)."""
    return face_up(g, f, C, tab) and tab[C[C_T_TWATER] + g[F_TERR + f]] == 1 and free(g, f)


@kernel
def jump_to(g, p, x, d, C, tab):
    """RC-A47: the landing field two steps from x in direction d over an existing face-up field,
    enterable by the followers on x (their artifact cost), or -1."""
    y = neighbour(C, tab, x, d)
    if y < 0 or not face_up(g, y, C, tab):
        return -1
    z = neighbour(C, tab, y, d)
    if z >= 0 and can_enter(g, p, z, g[seat(p) + P_FOL + x] + pigs_along(g, p, x, C), C, tab):
        return z
    return -1


@kernel
def jumps(g, p, x, C, tab):
    n = 0
    for d in range(6):
        n += jump_to(g, p, x, d, C, tab) >= 0
    return n


@kernel
def steps(g, p, x, C, tab):
    """Fields next to x one follower may enter (RC-A47's scatter: it pays an artifact alone, with
    the pigs it may take along)."""
    n = 0
    for d in range(6):
        n += can_enter(g, p, neighbour(C, tab, x, d), 1 + pigs_along(g, p, x, C), C, tab)
    return n


@kernel
def ability_3_mask(g, lg, C, tab, p):
    """The legal mask of the ability's next parameter; -1 after it moved on without a decision."""
    b = seat(p)
    step = g[G_ABIL_STEP]
    nf = g[G_NF]
    fo = C[C_O_FIELD]
    n = 0
    kind = K_ABILITY_FIELD
    if step == AS_FIELD:
        for f in range(nf):
            ok = raft_ok(g, f, C, tab) if g[G_ABIL] == C[C_VINDER] else (
                g[G_ISLANDS] < C[C_NISLANDS] and island_ok(g, p, f, C, tab))
            lg[fo + f] = ok
            n += ok
    elif step == AS_MODE:
        jump = scatter = False
        for f in range(nf):
            if g[b + P_FOL + f] > 0:
                jump = jump or jumps(g, p, f, C, tab) > 0
                scatter = scatter or steps(g, p, f, C, tab) > 0
        lg[C[C_O_OPT]] = jump
        lg[C[C_O_OPT] + 1] = scatter
        n = jump + scatter
        kind = K_ABILITY
    elif step == AS_JUMP_FROM or step == AS_SCATTER_FROM:
        for f in range(nf):
            ok = g[b + P_FOL + f] > 0 and (jumps(g, p, f, C, tab) if step == AS_JUMP_FROM else steps(g, p, f, C, tab)) > 0
            lg[fo + f] = ok
            n += ok
    elif step == AS_JUMP_TO:
        for d in range(6):
            z = jump_to(g, p, g[G_MFROM], d, C, tab)
            if z >= 0:
                lg[fo + z] = True
                n += 1
    elif step == AS_JUMP_COUNT:                      # RC-R84: at least the artifact's cost (pigs along help)
        need = need_at(g, p, g[G_MTO], C, tab) - pigs_along(g, p, g[G_MFROM], C)
        for c in range(max(1, need), min(g[b + P_FOL + g[G_MFROM]], 23) + 1):
            lg[C[C_O_COUNT] + c - 1] = True
            n += 1
        kind = K_ABILITY_COUNT
    elif step == AS_JUMP_PIGS or step == AS_SCATTER_PIGS:     # RC-R212
        lo = need_at(g, p, g[G_MTO], C, tab) - (g[G_MCOUNT] if step == AS_JUMP_PIGS else 1)
        pigs_mask(g, lg, C, lo, pigs_along(g, p, g[G_MFROM], C))
        return K_MOVE_PIGS
    elif step == AS_SCATTER_TO:
        if g[G_MOVES] > 0:
            for d in range(6):
                x = neighbour(C, tab, g[G_MFROM], d)
                if can_enter(g, p, x, 1 + pigs_along(g, p, g[G_MFROM], C), C, tab):
                    lg[fo + x] = True
                    n += 1
    elif step == AS_PAY_JUMP or step == AS_PAY_SCATTER:     # RC-R244: Exoskelet, or the followers pay
        lg[C[C_O_USE] + C[C_EXO]] = True
        lg[A_END] = g[G_MCOUNT] >= artifact_cost(g, p, g[G_MTO], C, tab)
        return K_PAYMENT
    if n == 0:                                       # nothing (more) to do, or AS_DONE
        lg[:] = False
        g[G_PHASE] = g[G_ABIL_RET]
        return -1
    return kind


@kernel
def place_island(g, p, f, C, tab):
    """RC-R217..R219, RC-A50: the island, then the rewards of its neighbours with buildings."""
    b = seat(p)
    g[F_ISLAND + f] = 1
    g[F_TERR + f] = C[C_FOREST]
    g[F_PIGS + f] = 0
    g[G_ISLANDS] += 1
    sanctuaries = 0
    for d in range(6):
        x = neighbour(C, tab, f, d)
        if x < 0:
            continue
        bld = 0                                      # the field's building type (one per terrain)
        for q in range(g[G_NP]):
            if g[seat(q) + P_BLD + x] > 0:
                bld = g[seat(q) + P_BLD + x]
        if bld == WORKSHOP:
            g[b + P_CR] += 1
        elif bld == SANCTUARY:
            sanctuaries += 1
        elif bld == MONUMENT:
            gain_points(g, p, 1, C, tab)
    n = min(sanctuaries, g[b + P_SUPPLY])
    g[b + P_FOL + f] += n
    g[b + P_SUPPLY] -= n


@kernel
def place_raft(g, p, f):
    """RC-R235, RC-R236, RC-A49: the raft on f (moved with its followers), + min(3, supply)."""
    b = seat(p)
    n = min(3, g[b + P_SUPPLY])
    g[b + P_RAFT] = f + 1
    g[b + P_RAFT_N] += n
    g[b + P_SUPPLY] -= n
    if g[b + P_RAFT_N] == 0:                         # RC-R239: an empty raft leaves the board
        g[b + P_RAFT] = 0


@kernel
def take(g, p, exo, C, tab):
    """The artifact on G_MTO (RC-R99..R103): Exoskelet or the entering followers pay (then the
    raft reaction); its reward and window, then the ability goes on."""
    x = g[G_MTO]
    if exo:
        pay_ability(g, p, C[C_EXO], C, tab)
    else:
        pay_from(g, p, x, artifact_cost(g, p, x, C, tab), C, tab)
    c = g[F_ART + x]
    g[F_ART + x] = -1
    gain_artifact(g, c, PH_ABILITY_3, C, tab)


@kernel
def arrive(g, p, x, c, m, after, C, tab):
    """c followers and m pigs from G_MFROM enter x; an artifact there is taken (the group of
    c + m pays it, pigs first); then stage ``after``."""
    b = seat(p)
    g[b + P_FOL + g[G_MFROM]] -= c
    g[b + P_FOL + x] += c
    carry(g, g[G_MFROM], x, m)
    g[G_MTO] = x
    g[G_MCOUNT] = c + m
    g[G_ABIL_STEP] = after
    if g[F_ART + x] < 0:
        return
    if artifact_cost(g, p, x, C, tab) > 0 and exo_usable(g, p, C, tab):
        g[G_ABIL_STEP] = AS_PAY_SCATTER if after == AS_SCATTER_TO else AS_PAY_JUMP
    else:
        take(g, p, False, C, tab)


@kernel
def apply_ability_3(g, C, tab, kind, a):
    """Apply a parameter of the ability in progress."""
    p = g[G_ACTIVE]
    b = seat(p)
    step = g[G_ABIL_STEP]
    f = a - C[C_O_FIELD]
    if step == AS_FIELD:
        if g[G_ABIL] == C[C_VINDER]:
            place_raft(g, p, f)
        else:
            place_island(g, p, f, C, tab)
        g[G_PHASE] = g[G_ABIL_RET]
    elif step == AS_MODE:
        g[G_ABIL_STEP] = AS_JUMP_FROM if a == C[C_O_OPT] else AS_SCATTER_FROM
    elif step == AS_JUMP_FROM:
        g[G_MFROM] = f
        g[G_ABIL_STEP] = AS_JUMP_TO
    elif step == AS_JUMP_TO:
        g[G_MTO] = f
        g[G_ABIL_STEP] = AS_JUMP_COUNT
    elif step == AS_JUMP_COUNT:
        c = a - C[C_O_COUNT] + 1
        if pigs_along(g, p, g[G_MFROM], C) > 0:
            g[G_MCOUNT] = c
            g[G_ABIL_STEP] = AS_JUMP_PIGS
        else:
            arrive(g, p, g[G_MTO], c, 0, AS_DONE, C, tab)
    elif step == AS_JUMP_PIGS:
        arrive(g, p, g[G_MTO], g[G_MCOUNT], a - C[C_O_OPT], AS_DONE, C, tab)
    elif step == AS_SCATTER_PIGS:
        arrive(g, p, g[G_MTO], 1, a - C[C_O_OPT], AS_SCATTER_TO, C, tab)
    elif step == AS_SCATTER_FROM:                    # RC-R223: every follower on f, one at a time
        g[G_MFROM] = f
        g[G_MOVES] = g[b + P_FOL + f]
        g[G_ABIL_STEP] = AS_SCATTER_TO
    elif step == AS_SCATTER_TO:
        g[G_MOVES] -= 1
        if pigs_along(g, p, g[G_MFROM], C) > 0:
            g[G_MTO] = f
            g[G_ABIL_STEP] = AS_SCATTER_PIGS
        else:
            arrive(g, p, f, 1, 0, AS_SCATTER_TO, C, tab)
    else:                                            # a payment
        g[G_ABIL_STEP] = AS_SCATTER_TO if step == AS_PAY_SCATTER else AS_DONE
        take(g, p, a != A_END, C, tab)
