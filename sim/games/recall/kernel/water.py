"""Water movement (RC-R93..R98, RC-A7, RC-A56, model doc "Water movement"): ``water_from`` ->
``water_count`` -> ``water_step`` until ``end`` -> ``water_exit`` (improved, ``WMOVE+``: then
``water_exit_count``, repeated until the group is placed).

The group is in transit (``G_W_GROUP``, neither on the board nor in the supply) meanwhile; its
path is marked in ``G_W_ON``. A water field with an artifact is entered only if the group can
pay it (or Exoskelet is usable: ``payment``); the artifact is taken at once
(``movement.gain_artifact``). A group that cannot leave follows ``water_no_exit`` ("back": to
its start field; "stay": on the last water field of its path, its start field if it never left
it). Islands (Enterin) are water fields too; a follower paid away next to a raft brings the raft's
reaction (Vinder, kernel/rafts.py). A Dorian holder takes pigs along (RC-R212): ``move_pigs``
after ``water_count`` (``G_W_PIGS`` in transit); the group's artifacts are payable by followers +
pigs and paid pigs first (RC-A72); a group left without followers ends the movement and its pigs
go back to the pig supply; the exit takes them all, or (improved) ``move_pigs`` after each
``water_exit_count`` that leaves followers in transit, the last part taking the rest.
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common, frames, movement, pigs, rafts
from sim.games.recall.kernel.common import (
    A_END, C_EXO, C_O_COUNT, C_O_FIELD, C_O_OPT, C_O_USE, C_T_NEIGH, C_T_TWATER, C_WSTAY, kernel,
    pay_ability, seat)
from sim.games.recall.kernel.movement import (
    artifact_cost, can_enter, exo_usable, face_up, gain_artifact, need_at)
from sim.games.recall.kernel.rafts import pay_from, removed
from sim.games.recall.kernel.pigs import dorian, pigs_along, pigs_mask
from sim.games.recall.state import (
    F_ART, F_ISLAND, F_PIGS_ON, F_TERR, G_ACTIVE, G_NF, G_PHASE, G_PIGS_OUT, G_W_AREA, G_W_CUR, G_W_ENTER,
    G_W_EXIT, G_W_FROM, G_W_GROUP, G_W_MODE, G_W_ON, G_W_PIGS, G_W_PLUS, G_W_RET, K_MOVE_PIGS, K_PAYMENT,
    K_WATER_COUNT, K_WATER_EXIT, K_WATER_EXIT_COUNT, K_WATER_FROM, K_WATER_STEP, PH_W_COUNT, PH_W_END,
    PH_W_EXIT, PH_W_EXIT_COUNT, PH_W_EXIT_PIGS, PH_W_FROM, PH_W_PAY, PH_W_PIGS, PH_W_STEP, P_FOL,
    P_SUPPLY)

kernel_cache.watch(__file__, st, common, frames, movement, pigs, rafts)

AT_STEP, AT_EXIT = 0, 1              # G_W_MODE: where a ``payment`` for an artifact is made


@kernel
def is_water(g, f, C, tab):
    """A face-up water field or an island (RC-R217, RC-A50: an island's terrain is forest)."""
    return f >= 0 and face_up(g, f, C, tab) and (tab[C[C_T_TWATER] + g[F_TERR + f]] == 1 or g[F_ISLAND + f] == 1)


@kernel
def neighbour(C, tab, f, d):
    return tab[C[C_T_NEIGH] + 6 * f + d]


@kernel
def borders_water(g, f, C, tab):
    for d in range(6):
        if is_water(g, neighbour(C, tab, f, d), C, tab):
            return True
    return False


@kernel
def mark_area(g, C, tab):
    """RC-A56: ``G_W_AREA`` = the water fields connected to the path's water fields."""
    for f in range(g[G_NF]):
        g[G_W_AREA + f] = g[G_W_ON + f]
    changed = True
    while changed:
        changed = False
        for f in range(g[G_NF]):
            if g[G_W_AREA + f] == 0 and is_water(g, f, C, tab):
                for d in range(6):
                    x = neighbour(C, tab, f, d)
                    if x >= 0 and g[G_W_AREA + x] == 1:
                        g[G_W_AREA + f] = 1
                        changed = True
                        break


@kernel
def exit_ok(g, p, x, C, tab):
    """RC-A7(d), RC-A56: x enterable by the group in transit (its artifact payable), not the
    start field, next to the last water field (improved: to a water field of the path's area,
    ``mark_area`` first)."""
    if x < 0 or x == g[G_W_FROM] or not can_enter(g, p, x, g[G_W_GROUP] + g[G_W_PIGS], C, tab):
        return False
    for d in range(6):
        y = neighbour(C, tab, x, d)
        if y >= 0 and (g[G_W_AREA + y] == 1 if g[G_W_PLUS] else y == g[G_W_CUR]):
            return True
    return False


@kernel
def exits(g, lg, p, C, tab):
    """Mark (``lg`` of length > 0) and count the exit fields."""
    if g[G_W_PLUS]:
        mark_area(g, C, tab)
    n = 0
    for x in range(g[G_NF]):
        if exit_ok(g, p, x, C, tab):
            n += 1
            if lg.shape[0] > 0:
                lg[C[C_O_FIELD] + x] = True
    return n


@kernel
def step_ok(g, p, w, C, tab):
    """RC-A7(c), RC-R95, RC-A7(e): a water field next to the current one (the start field
    before the first step), not visited, not the start field, its artifact payable by the group
    or Exoskelet usable, its row not full."""
    if not is_water(g, w, C, tab) or g[G_W_ON + w] == 1 or w == g[G_W_FROM]:
        return False
    need = need_at(g, p, w, C, tab)
    return need >= 0 and need <= g[G_W_GROUP] + g[G_W_PIGS]


@kernel
def finish(g, p, f):
    """The group and its pigs end on field f (a water field when ``stay`` leaves it there)."""
    g[seat(p) + P_FOL + f] += g[G_W_GROUP]
    g[G_W_GROUP] = 0
    g[F_PIGS_ON + f] += g[G_W_PIGS]
    g[G_W_PIGS] = 0
    g[G_PHASE] = PH_W_END


@kernel
def water_node(g, lg, C, tab, p):
    """The mask of the water decision at ``G_PHASE``; returns its kind, or -1 when the flow
    moved on without a decision."""
    ph = g[G_PHASE]
    b = seat(p)
    if ph == PH_W_FROM:                                  # RC-A7(b)
        lg[A_END] = True
        for f in range(g[G_NF]):
            lg[C[C_O_FIELD] + f] = g[b + P_FOL + f] > 0 and (is_water(g, f, C, tab) or borders_water(g, f, C, tab))
        return K_WATER_FROM
    if ph == PH_W_COUNT:
        for c in range(min(g[b + P_FOL + g[G_W_FROM]], 23)):
            lg[C[C_O_COUNT] + c] = True
        return K_WATER_COUNT
    if ph == PH_W_PIGS:                                  # RC-R212: the pigs going along
        pigs_mask(g, lg, C, 0, pigs_along(g, p, g[G_W_FROM], C))
        return K_MOVE_PIGS
    if ph == PH_W_EXIT_PIGS:                             # enough pigs for the exit's artifact
        pigs_mask(g, lg, C, need_at(g, p, g[G_W_EXIT], C, tab) - g[G_W_ENTER], g[G_W_PIGS])
        return K_MOVE_PIGS
    if ph == PH_W_STEP:
        if g[G_W_GROUP] == 0:                            # paid away: the movement ends, the pigs
            g[G_PIGS_OUT] -= g[G_W_PIGS]                 # go back to the pig supply
            g[G_W_PIGS] = 0
            g[G_PHASE] = PH_W_END
            return -1
        cur = g[G_W_CUR] if g[G_W_CUR] >= 0 else g[G_W_FROM]
        n = 0
        for d in range(6):
            w = neighbour(C, tab, cur, d)
            if w >= 0 and step_ok(g, p, w, C, tab):
                lg[C[C_O_FIELD] + w] = True
                n += 1
        lg[A_END] = g[G_W_CUR] >= 0 and exits(g, lg[:0], p, C, tab) > 0
        if n > 0 or lg[A_END]:
            return K_WATER_STEP
        lg[:] = False                                     # nowhere to go (model doc: water_no_exit)
        finish(g, p, g[G_W_CUR] if C[C_WSTAY] and g[G_W_CUR] >= 0 else g[G_W_FROM])
        return -1
    if ph == PH_W_EXIT:
        if g[G_W_GROUP] == 0:
            g[G_PHASE] = PH_W_END
            return -1
        if exits(g, lg, p, C, tab) > 0:
            return K_WATER_EXIT
        finish(g, p, g[G_W_CUR] if C[C_WSTAY] else g[G_W_FROM])
        return -1
    if ph == PH_W_EXIT_COUNT:                            # RC-A56: the part that enters this field
        need = need_at(g, p, g[G_W_EXIT], C, tab) - g[G_W_PIGS]
        for c in range(max(1, need), min(g[G_W_GROUP], 23) + 1):
            lg[C[C_O_COUNT] + c - 1] = True
        return K_WATER_EXIT_COUNT
    if ph == PH_W_PAY:                                   # RC-R244: Exoskelet, or the group pays
        lg[C[C_O_USE] + C[C_EXO]] = True
        x = g[G_W_CUR] if g[G_W_MODE] == AT_STEP else g[G_W_EXIT]
        have = g[G_W_GROUP] + g[G_W_PIGS] if g[G_W_MODE] == AT_STEP else g[G_W_ENTER]
        lg[A_END] = have >= artifact_cost(g, p, x, C, tab)
        return K_PAYMENT
    g[G_PHASE] = g[G_W_RET]                              # PH_W_END
    return -1


@kernel
def pick_up(g, p, x, mode, exo, C, tab):
    """The artifact on x is taken (RC-R99..R103): paid by Exoskelet, else from the group on the
    water (``AT_STEP``) or from the followers that entered x (``AT_EXIT``); then its reward and
    window, then the water movement goes on."""
    if exo:
        pay_ability(g, p, C[C_EXO], C, tab)
    elif mode == AT_STEP:                            # the pigs in transit first (RC-A72)
        k = artifact_cost(g, p, x, C, tab)
        use = min(g[G_W_PIGS], k) if dorian(g, p, C) else 0
        g[G_W_PIGS] -= use
        g[G_PIGS_OUT] -= use
        k -= use
        g[G_W_GROUP] -= k
        g[seat(p) + P_SUPPLY] += k
        if k > 0:
            removed(g, x, C, tab)                    # paid on water field x: a raft next to x reacts
    else:
        pay_from(g, p, x, artifact_cost(g, p, x, C, tab), C, tab)
    c = g[F_ART + x]
    g[F_ART + x] = -1
    gain_artifact(g, c, PH_W_STEP if mode == AT_STEP else PH_W_EXIT, C, tab)


@kernel
def enter(g, p, x, mode, C, tab):
    """An artifact on x: ``payment`` when Exoskelet is usable, else paid at once; none: go on."""
    if g[F_ART + x] < 0:
        g[G_PHASE] = PH_W_STEP if mode == AT_STEP else PH_W_EXIT
    elif artifact_cost(g, p, x, C, tab) > 0 and exo_usable(g, p, C, tab):
        g[G_W_MODE] = mode
        g[G_PHASE] = PH_W_PAY
    else:
        pick_up(g, p, x, mode, False, C, tab)


@kernel
def exit_part(g, p, c, m, C, tab):
    """c followers and m pigs of the group in transit enter the exit G_W_EXIT; its artifact is
    paid by them (``G_W_ENTER`` = c + m; the field's pigs first, RC-A72)."""
    x = g[G_W_EXIT]
    g[seat(p) + P_FOL + x] += c
    g[G_W_GROUP] -= c
    g[F_PIGS_ON + x] += m
    g[G_W_PIGS] -= m
    g[G_W_ENTER] = c + m
    enter(g, p, x, AT_EXIT, C, tab)


@kernel
def apply_water(g, C, tab, k, a):
    """Apply action ``a`` at a water decision of kind ``k``."""
    p = g[G_ACTIVE]
    b = seat(p)
    if k == K_WATER_FROM:
        if a == A_END:
            g[G_PHASE] = g[G_W_RET]
            return
        f = a - C[C_O_FIELD]
        g[G_W_FROM] = f
        for x in range(g[G_NF]):
            g[G_W_ON + x] = 0
        g[G_W_CUR] = -1
        if is_water(g, f, C, tab):                       # a start on water is the path's first field
            g[G_W_ON + f] = 1
            g[G_W_CUR] = f
        g[G_PHASE] = PH_W_COUNT
    elif k == K_WATER_COUNT:
        c = a - C[C_O_COUNT] + 1
        g[b + P_FOL + g[G_W_FROM]] -= c
        g[G_W_GROUP] = c
        g[G_W_PIGS] = 0
        g[G_PHASE] = PH_W_PIGS if pigs_along(g, p, g[G_W_FROM], C) > 0 else PH_W_STEP
    elif k == K_MOVE_PIGS and g[G_PHASE] == PH_W_PIGS:
        m = a - C[C_O_OPT]
        g[F_PIGS_ON + g[G_W_FROM]] -= m
        g[G_W_PIGS] = m
        g[G_PHASE] = PH_W_STEP
    elif k == K_MOVE_PIGS:                               # PH_W_EXIT_PIGS
        exit_part(g, p, g[G_W_ENTER], a - C[C_O_OPT], C, tab)
    elif k == K_WATER_STEP:
        if a == A_END:
            g[G_PHASE] = PH_W_EXIT
        else:
            w = a - C[C_O_FIELD]
            g[G_W_ON + w] = 1
            g[G_W_CUR] = w
            enter(g, p, w, AT_STEP, C, tab)
    elif k == K_WATER_EXIT:
        x = a - C[C_O_FIELD]
        g[G_W_EXIT] = x
        if g[G_W_PLUS]:
            g[G_PHASE] = PH_W_EXIT_COUNT
        else:
            exit_part(g, p, g[G_W_GROUP], g[G_W_PIGS], C, tab)
    elif k == K_WATER_EXIT_COUNT:
        c = a - C[C_O_COUNT] + 1
        if c < g[G_W_GROUP] and g[G_W_PIGS] > 0:         # followers stay in transit: ``move_pigs``
            g[G_W_ENTER] = c
            g[G_PHASE] = PH_W_EXIT_PIGS
        else:                                            # the last part takes every pig left
            exit_part(g, p, c, g[G_W_PIGS], C, tab)
    else:                                                # K_PAYMENT
        x = g[G_W_CUR] if g[G_W_MODE] == AT_STEP else g[G_W_EXIT]
        pick_up(g, p, x, g[G_W_MODE], a != A_END, C, tab)
