"""Whole Recall games with lookahead (``rc_greedy``, ``lookahead``) and random seats in one compiled call.

``play_batch`` plays every game of a batch to its end (or to an engine stop), game by game, and
makes at each decision the choice the runner's loop would make with the Python strategies:

* a random seat: the legal action of rank ``floor(u x legal count)`` (``strategies.base.choose_uniform``);
* a lookahead seat (``strategies.generic.LookaheadStrategy``): the decider's observation
  (``kernel/sample.py``'s ``observe_row``), a state sampled from it with the key
  ``floor(u x 2**53)`` (``deal_row``: ``sample_row``, which ``GAME.sample_state`` runs, in place), every
  legal action tried on a copy (``kernel/flow.py``'s ``apply`` + ``advance``, the engine's own
  step), each result valued for the decider (``kernel/value.py``'s ``seat_value`` with the seat's
  weights), the best kept, ties broken by ``1e-9 x u_a`` as ``strategies.base.argmax_tiebreak``.

``u``, ``u_a``: the seat's ``StrategyRng`` draws at the game's decision counter
(``uniform(key, 1024 x decisions + a)``). Seat kinds and weights arrive as arrays per slot
(``kinds``: 0 random, 1 lookahead; ``weights`` float64[slots, 8] in kernel/value.py's order).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import flow
from sim.games.recall.kernel.common import C_NP
from sim.games.recall.kernel.explore import uniform
from sim.games.recall.kernel.flow import advance, apply
from sim.games.recall.kernel.sample import deal_row, observe_row
from sim.games.recall.kernel.value import seat_value

# every engine kernel module: apply/advance compile their callees into this file's code
kernel_cache.watch(__file__, st, *sorted(Path(flow.__file__).parent.glob("*.py")))

RANDOM, LOOKAHEAD = 0, 1


@njit(cache=True)
def _uniform_choice(lg, u):
    """``strategies.base.choose_uniform`` for one row."""
    count = 0
    for a in range(lg.shape[0]):
        count += lg[a]
    rank = min(int(u * count), max(count - 1, 0))
    for a in range(lg.shape[0]):
        if lg[a]:
            if rank == 0:
                return a
            rank -= 1
    return 0


@njit(cache=True)
def play_batch(m, hidden, legal, C, tab, atoms, keys, n_strategies, kinds, weights, vt, stab, n_slots):
    """Every game of the batch to its end (module doc), in place; returns each game's decisions."""
    B, W = m.shape
    A = legal.shape[1]
    n = C[C_NP]
    sg = np.empty(W, np.int32)
    tg = np.empty(W, np.int32)
    sh = np.empty(hidden.shape[1], np.int32)
    th = np.empty(hidden.shape[1], np.int32)
    slg = np.zeros(A, np.bool_)
    tlg = np.zeros(A, np.bool_)
    seat_chests = np.zeros(st.MAXP, np.int64)
    goals = np.zeros(3, np.int64)
    goal_n = np.zeros(st.MAXP, np.int64)
    decisions = np.zeros(B, np.int64)
    for b in range(B):
        g, h, lg = m[b], hidden[b], legal[b]
        d = 0
        while g[st.G_KIND] != st.K_DONE and g[st.G_KIND] != st.K_STOP:
            me = g[st.G_DEC]
            slot = (g[st.G_START_SLOT] + max(me, 0)) % n
            a = 0
            if slot < n_strategies:
                key = keys[slot, b]
                base = d * 1024
                if kinds[slot] == RANDOM:
                    a = _uniform_choice(lg, uniform(key, base))
                else:
                    skey = np.uint64(uniform(key, base) * 9007199254740992.0)
                    observe_row(g, h, me, n_slots, sg, seat_chests, goals, goal_n)
                    deal_row(sg, lg, seat_chests, goals, goal_n, me, skey, sh, slg, stab)   # sample_row in place
                    w = weights[slot]
                    best = -np.inf
                    for x in range(A):
                        if not lg[x]:
                            continue
                        tg[:] = sg
                        th[:] = sh
                        apply(tg, th, C, tab, atoms, x)
                        advance(tg, th, tlg, C, tab, atoms)
                        v = seat_value(tg, th, me, n, w, vt)
                        if not np.isfinite(v):
                            v = 0.0
                        score = v + 1e-9 * uniform(key, base + x)
                        if score > best:
                            best = score
                            a = x
            apply(g, h, C, tab, atoms, a)
            advance(g, h, lg, C, tab, atoms)
            d += 1
        decisions[b] = d
    return decisions
