"""Gains with a decision of their own: a key card from the offer (``key``, RC-R191), upgrading a
key card (``keyup``, RC-R192..R197), taking one back (``slot``, RC-R198), a free activation
(``free``, RC-R200, RC-A43) and a display artifact (``display``, RC-R128, RC-A67).

Each ``*_mask`` marks the legal actions and returns the decision kind, or -1 when none is legal
(the gain does nothing and the reward goes on); ``apply_gain`` applies the chosen action.
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import abilities, abilities_2, abilities_3, chests, common, frames, movement, pigs, queue, rafts
from sim.games.recall.kernel.abilities import use_coded
from sim.games.recall.kernel.common import (
    A_END, C_K, C_NCOLS, C_NGREY, C_NYELLOW, C_O_OPT, C_O_USE, C_T_ABEFF, C_T_FREE, C_T_KCOLOUR,
    C_T_YELLOW, C_U, kernel, seat)
from sim.games.recall.kernel.frames import push_frame
from sim.games.recall.kernel.movement import gain_artifact
from sim.games.recall.state import (
    DECK_MAX, G_ACTIVE, G_DISP_ART, G_GREEN, G_GREEN_END, G_GREEN_TOP, G_GREY, G_GREY_TOP, G_KUP,
    G_LEFT, G_PHASE, G_YELLOW, H_GREEN, H_GREY, K_DISPLAY, K_FREE, K_KEY, K_KEYUP, K_SLOT,
    PH_DISPLAY, PH_EXEC, PH_FREE, PH_KEY, PH_KEYUP, P_ACTS, P_ARTS, P_AVAIL, P_OWN, P_SLOT)

kernel_cache.watch(__file__, st, abilities, abilities_2, abilities_3, chests, common, frames, movement, pigs, queue, rafts)

WHITE, YELLOW, GREEN, GREY = 0, 1, 2, 3


@kernel
def in_offer(g, C, colour, i):
    """Yellow stack i / green or grey display slot i holds a card."""
    if colour == YELLOW:
        return i < C[C_NYELLOW] and g[G_YELLOW + i] > 0
    if colour == GREEN:
        return i < 3 and g[G_GREEN + i] >= 0
    return colour == GREY and i < 3 and g[G_GREY + i] >= 0


@kernel
def offer_mask(g, lg, C, colour):
    n = 0
    for i in range(4):
        ok = in_offer(g, C, colour, i)
        lg[C[C_O_OPT] + i] = ok
        n += ok
    return K_KEY if n > 0 else -1


@kernel
def upgradable(g, C, tab, k):
    """RC-R197: not grey, and the offer holds a card of the next level."""
    colour = tab[C[C_T_KCOLOUR] + k]
    if colour >= GREY:
        return False
    for i in range(4):
        if in_offer(g, C, colour + 1, i):
            return True
    return False


@kernel
def keyup_mask(g, lg, C, tab, p):
    """``opt:s`` the card in slot s, ``opt:6+k`` an available card of kind k (RC-R192, RC-R196)."""
    b = seat(p)
    n = 0
    for s in range(6):
        ok = g[b + P_SLOT + s] >= 0 and upgradable(g, C, tab, g[b + P_SLOT + s])
        lg[C[C_O_OPT] + s] = ok
        n += ok
    for k in range(C[C_K]):
        ok = g[b + P_AVAIL + k] > 0 and upgradable(g, C, tab, k)
        lg[C[C_O_OPT] + 6 + k] = ok
        n += ok
    return K_KEYUP if n > 0 else -1


@kernel
def slot_mask(g, lg, C, p):
    """``opt:s`` occupied slots (RC-R198)."""
    n = 0
    for s in range(6):
        ok = g[seat(p) + P_SLOT + s] >= 0
        lg[C[C_O_OPT] + s] = ok
        n += ok
    return K_SLOT if n > 0 else -1


@kernel
def free_mask(g, lg, C, tab, p):
    """``use:a`` each non-event ability owned (not Exoskelet), no stones needed; ``end``."""
    for a in range(C[C_U]):
        lg[C[C_O_USE] + a] = g[seat(p) + P_OWN + a] == 1 and tab[C[C_T_FREE] + a] == 1
    lg[A_END] = True
    return K_FREE


@kernel
def display_mask(g, lg, C, p):
    """``opt:c`` display artifacts whose colour row is not full (RC-A67: none, the gain is lost)."""
    n = 0
    for c in range(4):
        ok = g[G_DISP_ART + c] > 0 and g[seat(p) + P_ARTS + c] < C[C_NCOLS]
        lg[C[C_O_OPT] + c] = ok
        n += ok
    return K_DISPLAY if n > 0 else -1


@kernel
def gain_mask(g, lg, C, tab, ph, p):
    """The mask of gain phase ``ph``; with nothing legal the gain does nothing (-1)."""
    if ph == PH_KEY:
        kind = offer_mask(g, lg, C, g[G_LEFT])
    elif ph == PH_KEYUP:
        kind = keyup_mask(g, lg, C, tab, p)
    elif ph == PH_FREE:
        kind = free_mask(g, lg, C, tab, p)
    elif ph == PH_DISPLAY:
        kind = display_mask(g, lg, C, p)
    else:
        kind = slot_mask(g, lg, C, p)
    if kind < 0:
        lg[:] = False
        g[G_PHASE] = PH_EXEC
    return kind


@kernel
def give_back(g, h, C, tab, k):
    """The upgraded card: white leaves the game, yellow back onto its stack, green under its deck
    (RC-R193..R195), turned at once into the first empty display slot if there is one (RC-A26:
    the display is refilled whenever it holds fewer than 3 cards and the deck is not empty)."""
    colour = tab[C[C_T_KCOLOUR] + k]
    if colour == YELLOW:
        for i in range(C[C_NYELLOW]):
            if tab[C[C_T_YELLOW] + i] == k:
                g[G_YELLOW + i] += 1
    elif colour == GREEN:
        h[H_GREEN + g[G_GREEN_END] % DECK_MAX] = k
        g[G_GREEN_END] += 1
        for i in range(3):
            if g[G_GREEN + i] < 0 and g[G_GREEN_TOP] < g[G_GREEN_END]:
                g[G_GREEN + i] = h[H_GREEN + g[G_GREEN_TOP] % DECK_MAX]
                g[G_GREEN_TOP] += 1


@kernel
def take_offer(g, h, C, tab, i):
    """The key card of offer place i (the display slot refilled from its deck) goes to the slot
    being upgraded (RC-R196: without activating it), else to the available cards; the upgraded
    card goes back (RC-R193..R195)."""
    b = seat(g[G_ACTIVE])
    colour = g[G_LEFT]
    if colour == YELLOW:
        g[G_YELLOW + i] -= 1
        k = tab[C[C_T_YELLOW] + i]
    else:
        green = colour == GREEN
        col, top = (G_GREEN, G_GREEN_TOP) if green else (G_GREY, G_GREY_TOP)
        deck, size = (H_GREEN, g[G_GREEN_END]) if green else (H_GREY, C[C_NGREY])
        k = g[col + i]
        if g[top] < size:
            g[col + i] = h[deck + g[top] % DECK_MAX]
            g[top] += 1
        else:
            g[col + i] = -1
    x = g[G_KUP]
    if x >= 0:                                        # the upgraded card leaves only now
        old = g[b + P_SLOT + x] if x < 6 else x - 6
        give_back(g, h, C, tab, old)
    if 0 <= x < 6:
        g[b + P_SLOT + x] = k
    else:
        if x >= 6:
            g[b + P_AVAIL + x - 6] -= 1
        g[b + P_AVAIL + k] += 1
    g[G_KUP] = -1


@kernel
def apply_gain(g, h, C, tab, kind, a):
    """Apply ``a`` at a gain decision; the reward goes on (``PH_EXEC``) unless a next step asks."""
    b = seat(g[G_ACTIVE])
    o = C[C_O_OPT]
    g[G_PHASE] = PH_EXEC
    if kind == K_KEY:
        take_offer(g, h, C, tab, a - o)
    elif kind == K_KEYUP:
        x = a - o
        k = g[b + P_SLOT + x] if x < 6 else x - 6
        g[G_KUP] = x
        g[G_LEFT] = tab[C[C_T_KCOLOUR] + k] + 1
        g[G_PHASE] = PH_KEY
    elif kind == K_SLOT:
        k = g[b + P_SLOT + a - o]
        g[b + P_SLOT + a - o] = -1
        g[b + P_AVAIL + k] += 1
    elif kind == K_FREE:
        if a != A_END:
            e = tab[C[C_T_ABEFF] + a - C[C_O_USE]]
            g[b + P_ACTS + a - C[C_O_USE]] += 1        # a free activation counts as one (rc_uses_*)
            if e < 0:
                use_coded(g, C, tab, a - C[C_O_USE])
            else:
                push_frame(g, e, PH_EXEC, 1, -1, -1)
    elif kind == K_DISPLAY:
        g[G_DISP_ART + a - o] -= 1
        gain_artifact(g, a - o, PH_EXEC, C, tab)
