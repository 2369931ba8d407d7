"""Coded abilities (docs/recall_model.md "Abilities", spec 3.22): what a tribe or item does when
the reward language cannot say it. ``use_coded`` runs one after it was paid (a free action, its
event window) or chosen at a free activation; the flow then goes on with the phase it was in.

Compiled: Alambiek (RC-R241: one own follower off the board, then +1 red crystal; ``ability_field``;
no follower on the board: nothing, as the oracle),
GPR (RC-R246: in the ``excavate`` window, 1 more step on the track of the stone taken) and
Schokbron (RC-R249, RC-R250: in the ``production`` window, the field's yield once more); more in
``abilities_2.py``. Any other coded ability stops the game (``G_STOP`` "ability").
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import abilities_2, common, frames, queue
from sim.games.recall.kernel.abilities_2 import use_coded_2
from sim.games.recall.kernel.common import (
    C_ALAMBIEK, C_GPR, C_O_FIELD, C_SCHOKBRON, C_T_PROD, S_ABILITY, kernel, seat, stop)
from sim.games.recall.kernel.frames import push_frame
from sim.games.recall.kernel.queue import atom_frame
from sim.games.recall.state import (
    G_ABIL, G_ABIL_RET, G_ACTIVE, G_DEV_K, G_KEACH, G_KLEFT, G_KTRACK, G_NF, G_PHASE, G_PROD_LAST,
    K_ABILITY_FIELD, PH_ABILITY_FIELD, PH_KSTEP, P_CR, P_FOL, P_SUPPLY)

kernel_cache.watch(__file__, st, abilities_2, common, frames, queue)


@kernel
def use_coded(g, C, tab, a):
    """Run coded ability a for the active seat; the flow returns to the current phase."""
    ret = g[G_PHASE]
    if a == C[C_ALAMBIEK]:
        g[G_ABIL] = a
        g[G_ABIL_RET] = ret
        g[G_PHASE] = PH_ABILITY_FIELD
    elif a == C[C_GPR]:
        atom_frame(g, ret)
        g[G_KTRACK] = g[G_DEV_K]
        g[G_KLEFT] = 1
        g[G_KEACH] = 0
        g[G_PHASE] = PH_KSTEP
    elif a == C[C_SCHOKBRON]:
        push_frame(g, tab[C[C_T_PROD] + g[G_PROD_LAST]], ret, 0, -1, -1)
    elif not use_coded_2(g, C, tab, a):
        stop(g, S_ABILITY)


@kernel
def ability_field_mask(g, lg, C, p):
    """Alambiek: ``field:f`` with own followers (none: nothing happens, -1)."""
    n = 0
    for f in range(g[G_NF]):
        ok = g[seat(p) + P_FOL + f] > 0
        lg[C[C_O_FIELD] + f] = ok
        n += ok
    if n == 0:
        g[G_PHASE] = g[G_ABIL_RET]
        return -1
    return K_ABILITY_FIELD


@kernel
def apply_ability_field(g, C, a):
    f = a - C[C_O_FIELD]
    b = seat(g[G_ACTIVE])
    g[b + P_FOL + f] -= 1
    g[b + P_SUPPLY] += 1
    g[b + P_CR + 1] += 1
    g[G_PHASE] = g[G_ABIL_RET]
