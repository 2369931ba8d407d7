"""Coded abilities (docs/recall_model.md "Abilities", spec 3.22): what a tribe or item does when
the reward language cannot say it. ``use_coded`` runs one after it was paid (a free action, its
event window) or chosen at a free activation; the flow then goes on with the phase it was in.

Compiled: Alambiek (RC-R241: one own follower off the board, then +1 red crystal; ``ability_field``;
no follower on the board: nothing, as the oracle),
GPR (RC-R246: in the ``excavate`` window, 1 more step on the track of the stone taken) and
Schokbron (RC-R249, RC-R250: in the ``production`` window, the field's yield once more),
Goliath (RC-R220: in the ``bonus_token`` window, the token's reward once more; the reward is the
register ``G_BONUS_LAST``, kept per frame so a token reached inside a token's reward does not
change the outer one) and Colteron (RC-R208, RC-A45: +1 white crystal; ``ability_field`` a source
volcano or ``end``, the destination volcano, ``ability_count``, then ``move_pigs`` for a Dorian
holder with pigs on the source, RC-R212) and
Aynir (RC-R205, RC-R206, RC-A44: up to 4 ``ability`` exchanges or ``end``; a follower given is
asked with ``ability_field``, one received with ``place``). More in ``abilities_2.py`` and
``abilities_3.py`` (Enterin, Vinder, Hayla) and ``pigs.py`` (Dorian). Any other coded ability
stops the game (``G_STOP`` "ability").
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import abilities_2, abilities_3, chests, common, frames, movement, pigs, queue, rafts
from sim.games.recall.kernel.abilities_2 import use_coded_2
from sim.games.recall.kernel.abilities_3 import use_coded_3
from sim.games.recall.kernel.rafts import removed
from sim.games.recall.kernel.pigs import carry, pigs_along, pigs_mask, use_dorian
from sim.games.recall.kernel.common import (
    A_END, C_ALAMBIEK, C_AYNIR, C_COLTERON, C_GOLIATH, C_GPR, C_O_COUNT, C_O_FIELD, C_SCHOKBRON, C_T_PROD,
    C_O_OPT, C_VOLCANO, S_ABILITY, gain_points, kernel, pay, payable, seat, stop)
from sim.games.recall.kernel.frames import push_frame
from sim.games.recall.kernel.movement import face_up
from sim.games.recall.kernel.queue import atom_frame
from sim.games.recall.state import (
    F_TERR, G_ABIL, G_ABIL_DST, G_ABIL_RET, G_ABIL_SRC, G_ABIL_STEP, G_ACTIVE, G_BONUS_LAST, G_DEV_K,
    G_KEACH, G_KLEFT, G_KTRACK, G_LEFT, G_MCOUNT, G_NF, K_MOVE_PIGS, G_PHASE, G_PROD_LAST, G_SUBRET, K_ABILITY,
    K_ABILITY_COUNT, K_ABILITY_FIELD, PH_ABILITY_FIELD, PH_KSTEP, PH_PLACE, P_CR, P_FOL, P_SCORE,
    P_SUPPLY)

kernel_cache.watch(__file__, st, abilities_2, abilities_3, chests, common, frames, movement, pigs, queue, rafts)


@kernel
def use_coded(g, C, tab, a):
    """Run coded ability a for the active seat; the flow returns to the current phase."""
    ret = g[G_PHASE]
    if a == C[C_ALAMBIEK] or a == C[C_COLTERON] or a == C[C_AYNIR]:
        if a == C[C_COLTERON]:
            g[seat(g[G_ACTIVE]) + P_CR] += 1                # +1 white crystal, also without a move
        g[G_ABIL] = a
        g[G_ABIL_RET] = ret
        g[G_ABIL_STEP] = 0
        g[G_ABIL_SRC] = -1
        g[G_PHASE] = PH_ABILITY_FIELD
    elif a == C[C_GPR]:
        atom_frame(g, ret)
        g[G_KTRACK] = g[G_DEV_K]
        g[G_KLEFT] = 1
        g[G_KEACH] = 0
        g[G_PHASE] = PH_KSTEP
    elif a == C[C_SCHOKBRON]:
        push_frame(g, tab[C[C_T_PROD] + g[G_PROD_LAST]], ret, 0, -1, -1)
    elif a == C[C_GOLIATH]:
        push_frame(g, g[G_BONUS_LAST], ret, 0, -1, -1)
    elif not use_coded_2(g, C, tab, a) and not use_coded_3(g, C, tab, a) and not use_dorian(g, C, tab, a):
        stop(g, S_ABILITY)


@kernel
def volcano(g, f, C, tab):
    """A volcano field on the board or a face-up tile (Colteron, RC-A45)."""
    return g[F_TERR + f] == C[C_VOLCANO] and face_up(g, f, C, tab)


GIVE = (0, 0, 1, 1, 2, 2)          # Aynir's exchange i (RC-A44): units F = 0, W = 1, VP = 2
GET = (1, 2, 0, 2, 0, 1)


@kernel
def followers_on_board(g, p):
    n = 0
    for f in range(g[G_NF]):
        n += g[seat(p) + P_FOL + f]
    return n


@kernel
def can_exchange(g, p, i, C):
    """Aynir's exchange i trades one unit for another (RC-A44): it gives a follower on the board, a
    white crystal (the paying rule) or a point, and receives one; a follower is received only from
    the supply (seed: "Heb je geen volgelingen meer in je voorraad, dan krijg je geen nieuwe")."""
    give = GIVE[i]
    if GET[i] == 0 and g[seat(p) + P_SUPPLY] == 0:
        return False
    if give == 0:
        return followers_on_board(g, p) > 0
    if give == 1:
        return payable(g, p, C, 1, 0, 0)
    return g[seat(p) + P_SCORE] > 0


@kernel
def aynir_get(g, p, i, C, tab):
    """The unit received by exchange i: a follower from the supply placed (``place``), a white
    crystal or a point; then the next exchange."""
    g[G_PHASE] = PH_ABILITY_FIELD
    if GET[i] == 0:
        g[G_LEFT] = 1
        g[G_SUBRET] = PH_ABILITY_FIELD
        g[G_PHASE] = PH_PLACE
    elif GET[i] == 1:
        g[seat(p) + P_CR] += 1
    else:
        gain_points(g, p, 1, C, tab)


@kernel
def ability_field_mask(g, lg, C, tab, p):
    """The parameters of a coded ability: Alambiek ``field:f`` with own followers (none: nothing
    happens, -1); Colteron a source volcano with own followers (another volcano to go to) or
    ``end``, then the destination volcano, then ``ability_count``."""
    b = seat(p)
    if g[G_ABIL] == C[C_AYNIR]:                             # RC-R205, RC-A44
        if g[G_ABIL_SRC] < 0:
            if g[G_ABIL_STEP] >= 4:
                g[G_PHASE] = g[G_ABIL_RET]
                return -1
            for i in range(6):
                lg[C[C_O_OPT] + i] = can_exchange(g, p, i, C)
            lg[A_END] = True
            return K_ABILITY
    if g[G_ABIL] == C[C_COLTERON]:
        if g[G_ABIL_STEP] == 3:                             # RC-R212: the pigs going along
            pigs_mask(g, lg, C, 0, pigs_along(g, p, g[G_ABIL_SRC], C))
            return K_MOVE_PIGS
        if g[G_ABIL_STEP] == 2:
            for c in range(1, g[b + P_FOL + g[G_ABIL_SRC]] + 1):
                lg[C[C_O_COUNT] + c - 1] = True
            return K_ABILITY_COUNT
        n = 0
        for f in range(g[G_NF]):
            n += volcano(g, f, C, tab)
        for f in range(g[G_NF]):
            if g[G_ABIL_STEP] == 0:
                lg[C[C_O_FIELD] + f] = g[b + P_FOL + f] > 0 and volcano(g, f, C, tab) and n >= 2
            else:
                lg[C[C_O_FIELD] + f] = f != g[G_ABIL_SRC] and volcano(g, f, C, tab)
        lg[A_END] = g[G_ABIL_STEP] == 0
        return K_ABILITY_FIELD
    n = 0
    for f in range(g[G_NF]):
        ok = g[b + P_FOL + f] > 0
        lg[C[C_O_FIELD] + f] = ok
        n += ok
    if n == 0:
        g[G_PHASE] = g[G_ABIL_RET]
        return -1
    return K_ABILITY_FIELD


@kernel
def apply_ability_field(g, C, tab, kind, a):
    """Apply a parameter of the coded ability in progress; after the last one, back to the flow."""
    p = g[G_ACTIVE]
    b = seat(p)
    if g[G_ABIL] == C[C_AYNIR]:
        if a == A_END:
            g[G_PHASE] = g[G_ABIL_RET]
        elif kind == K_ABILITY:
            i = a - C[C_O_OPT]
            g[G_ABIL_STEP] += 1
            if GIVE[i] == 0:
                g[G_ABIL_SRC] = i                           # ``ability_field``: which follower
                return
            if GIVE[i] == 1:
                pay(g, p, C, 1, 0, 0)
            else:
                gain_points(g, p, -1, C, tab)
            aynir_get(g, p, i, C, tab)
        else:
            g[b + P_FOL + a - C[C_O_FIELD]] -= 1
            g[b + P_SUPPLY] += 1
            removed(g, a - C[C_O_FIELD], C, tab)            # RC-A49: a raft next to it reacts
            i = g[G_ABIL_SRC]
            g[G_ABIL_SRC] = -1
            aynir_get(g, p, i, C, tab)
        return
    if g[G_ABIL] == C[C_COLTERON]:
        if kind == K_ABILITY_COUNT and pigs_along(g, p, g[G_ABIL_SRC], C) > 0:
            g[G_MCOUNT] = a - C[C_O_COUNT] + 1              # then ``move_pigs``
            g[G_ABIL_STEP] = 3
            return
        if kind == K_ABILITY_COUNT or kind == K_MOVE_PIGS:  # RC-R208: c followers (and m pigs) across
            c = a - C[C_O_COUNT] + 1 if kind == K_ABILITY_COUNT else g[G_MCOUNT]
            g[b + P_FOL + g[G_ABIL_SRC]] -= c
            g[b + P_FOL + g[G_ABIL_DST]] += c
            if kind == K_MOVE_PIGS:
                carry(g, g[G_ABIL_SRC], g[G_ABIL_DST], a - C[C_O_OPT])
        elif a != A_END:
            g[G_ABIL_SRC + g[G_ABIL_STEP]] = a - C[C_O_FIELD]
            g[G_ABIL_STEP] += 1
            return
        g[G_PHASE] = g[G_ABIL_RET]
        return
    f = a - C[C_O_FIELD]
    g[b + P_FOL + f] -= 1
    g[b + P_SUPPLY] += 1
    removed(g, f, C, tab)
    g[b + P_CR + 1] += 1
    g[G_PHASE] = g[G_ABIL_RET]
