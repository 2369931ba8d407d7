"""Pigs and pig farms (Dorian, RC-R210..R215, RC-A36, RC-A46, RC-A57, RC-A72; docs/recall_model.md
"move_pigs", "Abilities").

The pigs lying on a field are ``F_PIGS_ON`` (``F_PIGS`` is the field's picture: how many a farm
brings); ``G_PIGS_OUT`` counts the pigs out of the pig supply, so the supply is ``C_NPIGS`` minus
it and a zeroed state starts full. Pigs move only with a moving group of a Dorian-ability holder
(``move_pigs``, asked by every group move: a movement, a water movement and its improved exits,
Hayla's jump and each scattered follower, Colteron's volcano move); they pay a follower cost
before followers (RC-R213, RC-A72: ``pay_pigs_first``, used by ``rafts.pay_from``, so by every
payer of a development action or an artifact) and go back to the supply when they pay.
Dorian's ability (``use_dorian``, phase ``PH_DORIAN``): ``ability_field`` a face-up grain field
without a farm where the player is present (RC-A57 ``dorian_presence``: on the field, or on its
area tile), the farm and min(picture, supply) pigs there; no farm left or no field: nothing.
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common
from sim.games.recall.kernel.common import (
    C_DORIAN, C_DPTILE, C_GRAIN, C_NFARMS, C_NPIGS, C_O_FIELD, C_O_OPT, C_T_FSLOT, kernel, seat)
from sim.games.recall.state import (
    F_FARM, F_PIGS, F_PIGS_ON, F_TERR, G_ABIL_RET, G_FARMS, G_NF, G_PHASE, G_PIGS_OUT, G_UP,
    K_ABILITY_FIELD, PH_DORIAN, P_BLD, P_FOL)

kernel_cache.watch(__file__, st, common)


@kernel
def dorian(g, p, C):
    """p holds the Dorian ability (own tribe or unlocked old tribe, RC-R215)."""
    return C[C_DORIAN] >= 0 and g[seat(p) + st.P_OWN + C[C_DORIAN]] == 1


@kernel
def pigs_along(g, p, f, C):
    """Pigs on f that p's group may take along or pay with (RC-R212, RC-R213)."""
    return g[F_PIGS_ON + f] if f >= 0 and dorian(g, p, C) else 0


@kernel
def pigs_left(g, C):
    return C[C_NPIGS] - g[G_PIGS_OUT]


@kernel
def pay_pigs_first(g, p, f, k, C):
    """A follower cost k paid on field f: the pigs there first for a Dorian holder (RC-A72), back
    to the pig supply (RC-A46). Returns the followers still to pay."""
    use = min(pigs_along(g, p, f, C), k)
    g[F_PIGS_ON + f] -= use
    g[G_PIGS_OUT] -= use
    return k - use


@kernel
def carry(g, f, x, m):
    """m pigs go with a group from field f to field x."""
    g[F_PIGS_ON + f] -= m
    g[F_PIGS_ON + x] += m


@kernel
def pigs_mask(g, lg, C, lo, hi):
    """``move_pigs``: ``opt:m`` for m pigs from max(0, lo) to hi; returns how many are legal."""
    n = 0
    for m in range(max(0, lo), hi + 1):
        lg[C[C_O_OPT] + m] = True
        n += 1
    return n


@kernel
def present(g, p, f, C, tab):
    """RC-A57: p has a follower or building on f, or (``dorian_presence = "tile"``) on a field of
    f's area tile; board monument and river fields are no tile."""
    b = seat(p)
    k = tab[C[C_T_FSLOT] + f]
    if C[C_DPTILE] == 0 or k < 0:
        return g[b + P_FOL + f] > 0 or g[b + P_BLD + f] > 0
    for x in range(7 * k, 7 * k + 7):
        if g[b + P_FOL + x] > 0 or g[b + P_BLD + x] > 0:
            return True
    return False


@kernel
def farm_ok(g, p, f, C, tab):
    """RC-R210, RC-R211: a face-up grain field (an island is forest) without a farm, p present."""
    k = tab[C[C_T_FSLOT] + f]
    if (k >= 0 and g[G_UP + k] == 0) or g[F_TERR + f] != C[C_GRAIN] or g[F_FARM + f] == 1:
        return False
    return present(g, p, f, C, tab)


@kernel
def use_dorian(g, C, tab, a):
    """Start Dorian's ability if a is it (then ``PH_DORIAN``); False if it is not."""
    if a != C[C_DORIAN]:
        return False
    g[G_ABIL_RET] = g[G_PHASE]
    g[G_PHASE] = PH_DORIAN
    return True


@kernel
def dorian_mask(g, lg, C, tab, p):
    """``ability_field`` the farm's field; -1 (back to the flow) when no farm is left or no field fits."""
    n = 0
    if g[G_FARMS] < C[C_NFARMS]:
        for f in range(g[G_NF]):
            ok = farm_ok(g, p, f, C, tab)
            lg[C[C_O_FIELD] + f] = ok
            n += ok
    if n == 0:
        lg[:] = False
        g[G_PHASE] = g[G_ABIL_RET]
        return -1
    return K_ABILITY_FIELD


@kernel
def apply_dorian(g, C, a):
    """RC-R210, RC-A36: the farm on the field and as many pigs as it shows, the supply allowing."""
    f = a - C[C_O_FIELD]
    g[F_FARM + f] = 1
    g[G_FARMS] += 1
    k = min(g[F_PIGS + f], pigs_left(g, C))
    g[F_PIGS_ON + f] += k
    g[G_PIGS_OUT] += k
    g[G_PHASE] = g[G_ABIL_RET]
