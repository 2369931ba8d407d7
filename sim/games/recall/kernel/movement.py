"""Follower movement: enterable fields (RC-A62), artifacts on entry (RC-R99..R105, RC-A18)."""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common, frames, pigs
from sim.games.recall.kernel.common import (
    C_COLTERON, C_EXO, C_NCOLS, C_O_FIELD, C_T_ACOST, C_T_COVERED, C_T_FSLOT, C_T_NEIGH, C_T_TMOVE,
    C_VOLCANO, can_use, clear_event, kernel, seat)
from sim.games.recall.kernel.frames import push_frame
from sim.games.recall.kernel.pigs import pigs_along
from sim.games.recall.state import (
    F_ART, F_TERR, G_ACTIVE, G_ART_LAST, G_ART_RET, G_MTO, G_UP, PH_ART_EVENT, PH_MOVE_FROM, P_ARTS, P_FOL,
    P_OWN, P_SUPPLY)

kernel_cache.watch(__file__, st, common, frames, pigs)


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
    """Mark (if ``lg`` is given, length > 0) and count the fields the followers on f may enter
    (the group: its followers and, for a Dorian holder, the pigs there, RC-R212, RC-A18)."""
    n = 0
    group = g[seat(p) + P_FOL + f] + pigs_along(g, p, f, C)
    for d in range(6):
        x = tab[C[C_T_NEIGH] + 6 * f + d]
        if x >= 0 and can_enter(g, p, x, group, C, tab):
            n += 1
            if lg.shape[0] > 0:
                lg[C[C_O_FIELD] + x] = True
    return n


@kernel
def gain_artifact(g, c, ret, C, tab):
    """RC-R104, RC-R105: an artifact of colour c into the leftmost empty box of its row; its
    covered reward as a frame, then the ``artifact`` window (Booster), then phase ``ret``."""
    b = seat(g[G_ACTIVE])
    col = g[b + P_ARTS + c]
    g[b + P_ARTS + c] = col + 1
    g[G_ART_RET] = ret
    clear_event(g)
    g[G_ART_LAST] = tab[C[C_T_COVERED] + C[C_NCOLS] * c + col] + 1
    push_frame(g, g[G_ART_LAST] - 1, PH_ART_EVENT, 0, -1, -1)


@kernel
def take_artifact(g, C, tab, atoms):
    """RC-R99..R103: the artifact on G_MTO is picked up; then the movement goes on."""
    x = g[G_MTO]
    c = g[F_ART + x]
    g[F_ART + x] = -1
    gain_artifact(g, c, PH_MOVE_FROM, C, tab)
