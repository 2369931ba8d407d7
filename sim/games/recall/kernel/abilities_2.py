"""More coded abilities (docs/recall_model.md "Abilities", spec 3.21-3.22), run by
``abilities.use_coded`` like the first ones: after their payment, in their event window.

Compiled: K-01 (RC-R226, RC-R227: in the ``sanctuary`` window the sanctuary's reward once more;
for the display artifact reward no second artifact, its covered reward once more instead; no
artifact taken: nothing).
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common, frames
from sim.games.recall.kernel.common import C_K01, C_SANCT_ART, C_T_SANCT, kernel
from sim.games.recall.kernel.frames import push_frame
from sim.games.recall.state import G_ART_LAST, G_DEV_K, G_PHASE

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
    return False
