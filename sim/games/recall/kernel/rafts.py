"""Vinder's raft reaction (RC-R238, RC-R239, RC-A49): whenever followers are removed from a field
next to a raft (a payment, an artifact's cost, a sale, Alambiek, Aynir's gift; not a movement),
the raft's owner puts 1 follower from the raft on that field; an empty raft leaves the board.
The reaction is automatic (RC-A52), so the callers of a removal call ``removed`` right after it.
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common, frames, movement, pigs
from sim.games.recall.kernel.common import C_T_NEIGH, kernel, seat
from sim.games.recall.kernel.movement import pay_followers
from sim.games.recall.kernel.pigs import pay_pigs_first
from sim.games.recall.state import G_NP, P_FOL, P_RAFT, P_RAFT_N

kernel_cache.watch(__file__, st, common, frames, movement, pigs)


@kernel
def removed(g, f, C, tab):
    """Followers were removed from field f: each raft next to f gives its owner 1 follower on f."""
    for q in range(g[G_NP]):
        b = seat(q)
        r = g[b + P_RAFT] - 1
        if r < 0:
            continue
        for d in range(6):
            if tab[C[C_T_NEIGH] + 6 * f + d] == r:
                g[b + P_FOL + f] += 1
                g[b + P_RAFT_N] -= 1
                if g[b + P_RAFT_N] <= 0:                    # RC-R239
                    g[b + P_RAFT] = 0
                break


@kernel
def remove_from(g, p, f, k, C, tab):
    """k of p's followers on f go to the supply (``movement.pay_followers``), then the reaction
    (a sale: no pigs)."""
    pay_followers(g, p, f, k)
    if k > 0:
        removed(g, f, C, tab)


@kernel
def pay_from(g, p, f, k, C, tab):
    """A follower cost k of a development action or an artifact paid on f: the pigs there first
    for a Dorian holder (RC-R213, RC-A72), then followers (``remove_from``, the reaction)."""
    remove_from(g, p, f, pay_pigs_first(g, p, f, k, C), C, tab)
