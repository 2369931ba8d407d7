"""End of the game: scoring step 1 (end abilities, Ceres's end banish) and the final score.

Step 1 (RR-E7, RR-E8, RR-A14): player 0 first, then clockwise (Au Toma skipped). The cards
with an end ability in the player's hand when their step starts are resolved one at a time,
chosen with ``end_order`` among those still in hand. With ``ceres_end_banish =
"with_own_end_abilities"`` the Ceres player may answer ``yes`` instead (banish now, once);
by default the Ceres player banishes after everyone's step 1. Steps 2..7: ``scoring.py``.
The handlers are the reference implementation of the kernel's (kernel.py, ``engine.run_vectorised``).
"""
from __future__ import annotations

import numpy as np

from sim.games.red_rising import actions as A
from sim.games.red_rising import zones
from sim.games.red_rising.scoring import COMPONENTS, score_final
from sim.games.red_rising.state import (
    M, State, ask, banish, hand_mask, push, remove_card,
)

K = A.KIND
RESULT_KEYS = COMPONENTS + ("score",)


def with_own(s: State) -> bool:
    return s.config.ceres_end_banish == "with_own_end_abilities"


def h_start(s: State, g):
    s.end_player[g] = 0
    s.banish_left[g] = 0
    h_player(s, g)


def h_player(s: State, g):
    """Go to the first seat from ``end_player`` on that has something to do in step 1."""
    seats = np.arange(s.seats)
    has_end = (s.prog.end_pc[: s.num_cards] >= 0)
    hands = s.where[g][:, None, :] == (zones.HAND0 + seats)[None, :, None]          # [n, P, C]
    work = (hands & has_end[None, None, :]).any(axis=2)
    if with_own(s):
        work |= (s.prog.house_end_banish[s.house[g]] > 0) & (s.hand_n[g] > 0)
    work &= (seats[None, :] >= s.end_player[g][:, None]) & (seats[None, :] != s.automa[g][:, None])
    some = work.any(axis=1)
    fin = ~some
    if np.count_nonzero(fin):
        gf = g[fin]
        if with_own(s):
            h_score(s, gf)
        else:
            s.banish_left[gf] = s.prog.house_end_banish[s.house[gf]].max(axis=1)
            h_ceres(s, gf)
    if np.count_nonzero(some):
        gr = g[some]
        pr = np.argmax(work[some], axis=1)
        s.end_player[gr] = pr
        s.traded[gr] = False                      # each player's step 1 starts a fresh trade record
        s.turn_traded[gr] = False
        s.end_pending[gr] = hands[some, pr] & has_end[None, :]
        if with_own(s):
            s.banish_left[gr] = s.prog.house_end_banish[s.house[gr, pr]]
        h_order_ask(s, gr)


def h_order_ask(s: State, g):
    """``end_order`` while end abilities are pending (with ``yes`` = the Ceres banish, if due);
    when none is left and the banish is still due, ``end_banish`` directly."""
    p = s.end_player[g].astype(np.intp)
    cards = s.end_pending[g] & hand_mask(s, g, p)
    due = (s.banish_left[g] > 0) & (s.hand_n[g, p] > 0)
    pending = cards.any(axis=1)
    if np.count_nonzero(pending):
        ask(s, g[pending], K["end_order"], p[pending], M["E_ORDER"], cards=cards[pending],
            cols=((A.YES, due[pending]),))
    banish_now = ~pending & due
    if np.count_nonzero(banish_now):
        gb = g[banish_now]
        ask(s, gb, K["end_banish"], p[banish_now], M["E_BANISH"], cards=hand_mask(s, gb, p[banish_now]))
    nxt = ~pending & ~due
    if np.count_nonzero(nxt):
        gn = g[nxt]
        s.end_player[gn] += 1
        h_player(s, gn)


def h_order(s: State, g):
    a = s.action[g].astype(np.intp)
    p = s.end_player[g].astype(np.intp)
    yes = a == A.YES
    if np.count_nonzero(yes):
        gy = g[yes]
        ask(s, gy, K["end_banish"], p[yes], M["E_BANISH"], cards=hand_mask(s, gy, p[yes]))
    card = ~yes
    if np.count_nonzero(card):
        gc, c = g[card], a[card] - A.CARD0
        s.end_pending[gc, c] = False
        s.mop[gc] = M["E_ORDER_ASK"]
        push(s, gc, s.prog.end_pc[c], p[card], -1, c, False)


def h_banish(s: State, g):
    """One card of the Ceres end banish (RR-E8); the same player banishes again while due."""
    c = s.action[g].astype(np.intp) - A.CARD0
    p = s.decider[g].astype(np.intp)
    remove_card(s, g, c)
    banish(s, g, c)
    s.banish_left[g] -= 1
    more = (s.banish_left[g] > 0) & (s.hand_n[g, p] > 0)
    if np.count_nonzero(more):
        gm = g[more]
        ask(s, gm, K["end_banish"], p[more], M["E_BANISH"], cards=hand_mask(s, gm, p[more]))
    g = g[~more]
    s.banish_left[g] = 0
    if with_own(s):
        h_order_ask(s, g)
    else:
        h_ceres(s, g)


def h_ceres(s: State, g):
    """RR-E8 (default timing): the Ceres player banishes a hand card after step 1."""
    flag = s.prog.house_end_banish[s.house[g]] > 0
    seat = np.argmax(flag, axis=1)
    ok = (s.banish_left[g] > 0) & (s.hand_n[g, seat] > 0)
    if np.count_nonzero(ok):
        go = g[ok]
        ask(s, go, K["end_banish"], seat[ok], M["E_BANISH"], cards=hand_mask(s, go, seat[ok]))
    if np.count_nonzero(~ok):
        h_score(s, g[~ok])


def h_score(s: State, g):
    """The game is over; steps 2..7 are computed on demand (``final_scores``)."""
    s.done[g] = True
    s.waiting[g] = False
    s.decider[g] = -1
    s.kind[g] = 0
    s.legal[g] = False
    s.mop[g] = M["DONE"]


def final_scores(s: State) -> dict:
    """Steps 2..7 of scoring (scoring.score_final) on the current position of every game."""
    return score_final(s.content, s.config, s.where, s.helium, s.fleet, s.cubes, s.sovereign,
                       s.automa, s.parity)


def handlers() -> dict[int, object]:
    return {M["E_START"]: h_start, M["E_PLAYER"]: h_player, M["E_ORDER_ASK"]: h_order_ask,
            M["E_ORDER"]: h_order, M["E_BANISH"]: h_banish, M["E_CERES"]: h_ceres, M["E_SCORE"]: h_score}
