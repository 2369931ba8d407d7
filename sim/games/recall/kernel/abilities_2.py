"""More coded abilities (docs/recall_model.md "Abilities", spec 3.21-3.22), run by
``abilities.use_coded`` like the first ones: after their payment, in their event window.

Compiled: K-01 (RC-R226, RC-R227: in the ``sanctuary`` window the sanctuary's reward once more;
for the display artifact reward no second artifact, its covered reward once more instead; no
artifact taken: nothing) and Portaal (RC-R248: 1 new follower, ``place`` also on a field with
another player's building; an empty supply: nothing, RC-A73).
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common, frames
from sim.games.recall.kernel.common import C_K01, C_O_FIELD, C_PORTAAL, C_SANCT_ART, C_T_SANCT, kernel, seat
from sim.games.recall.kernel.frames import push_frame
from sim.games.recall.state import (
    F_START, G_ACTIVE, G_ART_LAST, G_DEV_K, G_LEFT, G_NF, G_NP, G_PHASE, G_SUBRET, PH_PORTAAL, P_BLD,
    P_FOL, P_START, P_SUPPLY)

kernel_cache.watch(__file__, st, common, frames)


@kernel
def use_coded_2(g, C, tab, a):
    """Run coded ability a if it is one of this module's; False if it is not."""
    ret = g[G_PHASE]
    if a == C[C_K01]:
        i = g[G_DEV_K]
        if (C[C_SANCT_ART] >> i) & 1 == 0:
            push_frame(g, tab[C[C_T_SANCT] + i], ret, 0, -1, -1)
        elif g[G_ART_LAST] > 0:
            push_frame(g, g[G_ART_LAST] - 1, ret, 0, -1, -1)
        return True
    if a == C[C_PORTAAL]:
        if g[seat(g[G_ACTIVE]) + P_SUPPLY] > 0:
            g[G_LEFT] = 1
            g[G_SUBRET] = ret
            g[G_PHASE] = PH_PORTAAL
        return True
    return False


@kernel
def portaal_mask(g, lg, C, p):
    """RC-R248, RC-R76: ``field:f`` with own followers or buildings, the own start field, or
    another player's building; applied as a ``place`` (K_PLACE)."""
    b = seat(p)
    for f in range(g[G_NF]):
        ok = g[b + P_FOL + f] > 0 or g[b + P_BLD + f] > 0 or g[F_START + f] == g[b + P_START]
        for q in range(g[G_NP]):
            ok = ok or (q != p and g[seat(q) + P_BLD + f] > 0)
        lg[C[C_O_FIELD] + f] = ok
