"""The turn's masks and windows: free actions (RC-A70), ``main`` (RC-R8, RC-R13, RC-R34), event
windows (RC-R65, RC-A74), the recharge (RC-R43..R46) and the end of a turn.
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import (
    abilities, abilities_2, abilities_3, chests, common, explore, frames, movement, pigs, queue, rafts, rings)
from sim.games.recall.kernel.rings import can_ring
from sim.games.recall.kernel.abilities import use_coded
from sim.games.recall.kernel.common import (
    A_END, A_RECALL, C_COPY_EVER, C_JHE, C_K, C_NCH, C_O_CHEST, C_O_PLAY, C_O_RING,
    C_O_USE, C_T_ABEFF, C_T_EVT, C_T_FREE, C_T_KEY, C_U, EV_ART, EV_BONUS, EV_CAMP,
    EV_EXC, EV_KEY, EV_PROD, EV_SANCT, S_PICK, can_use, crystal_cap, kernel,
    pay_ability, seat, stop)
from sim.games.recall.kernel.frames import push_frame
from sim.games.recall.kernel.queue import push_effect
from sim.games.recall.state import (
    G_ACTIVE, G_ART_RET, G_CARD, G_EVENT_USED, G_PEND_N, G_PHASE, G_RECHARGED,
    PH_ART_EVENT, PH_BONUS_EVENT, PH_CAMP_EVENT, PH_DEV_NEXT, PH_EFFECT, PH_EXC_EVENT,
    PH_KBONUS, PH_KEY_EVENT, PH_KSTEP, PH_NEXT, PH_PRODUCE, PH_PROD_EVENT, PH_SANCT_EVENT,
    PH_TURN_END, P_AVAIL, P_CHESTS, P_EVER, P_PLACED, P_SKILL, P_SLOT, P_USES)

kernel_cache.watch(__file__, st, abilities, abilities_2, abilities_3, common, frames, chests, explore, movement, pigs, queue,
                   rafts, rings)


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
    lg[C[C_O_RING]] = can_ring(g, p, C)


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
def use_event_ability(g, a, C, tab, atoms):
    """Pay and run an event-bound ability: J'He appends the card's items again; a data effect
    (Booster, Decoder, Vertolker) runs as a reward, a coded one (kernel/abilities.py) as it says;
    then the same window again."""
    p = g[G_ACTIVE]
    pay_ability(g, p, a, C, tab)
    g[G_EVENT_USED + a] = 1
    if a == C[C_JHE] and g[G_CARD] >= 0:
        if not push_effect(g, tab[C[C_T_KEY] + g[G_CARD]], -1, C, tab, atoms):
            stop(g, S_PICK)
    elif tab[C[C_T_ABEFF] + a] < 0:
        use_coded(g, C, tab, a)
    else:
        push_frame(g, tab[C[C_T_ABEFF] + a], g[G_PHASE], 1, -1, -1)


@kernel
def after_event(g, ph):
    """Where the flow goes once an event window is over."""
    if ph == PH_KEY_EVENT:
        return PH_EFFECT
    if ph == PH_PROD_EVENT:
        return PH_PRODUCE
    if ph == PH_KBONUS:
        return PH_KSTEP
    if ph == PH_ART_EVENT:
        return g[G_ART_RET]
    if ph == PH_SANCT_EVENT or ph == PH_EXC_EVENT or ph == PH_CAMP_EVENT:
        return PH_DEV_NEXT
    return PH_TURN_END


@kernel
def event_of(ph):
    """The event (``EVENTS`` index) whose window phase ``ph`` is, 0 for any other phase."""
    if ph == PH_KEY_EVENT:
        return EV_KEY
    if ph == PH_PROD_EVENT:
        return EV_PROD
    if ph == PH_ART_EVENT:
        return EV_ART
    if ph == PH_BONUS_EVENT or ph == PH_KBONUS:
        return EV_BONUS
    if ph == PH_SANCT_EVENT:
        return EV_SANCT
    if ph == PH_EXC_EVENT:
        return EV_EXC
    if ph == PH_CAMP_EVENT:
        return EV_CAMP
    return 0


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
