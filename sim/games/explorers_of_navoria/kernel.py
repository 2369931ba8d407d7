"""Compiled kernels: run every game of a batch to its next decision, in place.

Each kernel loops over the games of the batch; per game it works on the row ``g = m[b]`` of the
state matrix (``state.py`` layout), the game's pile row and its legal-mask row. ``advance``
runs the automatic flow (turn starts, forced draws, effects, orders, income, return, final
scoring) and stops at the first decision with at least two legal actions, leaving that
decision's legal mask in the game's ``legal`` row: a decision with exactly one legal action is
applied on the spot (model doc). ``tab``/``C`` are the flat tables of ``tables.py``.

Random draws: the bag is the only draw after setup; draw ``k`` of a game is
``uniform(bag_key, k)`` of ``sim.core.rng`` (``mix`` below equals ``rng._mix`` bit for bit).

Column constants come from ``state.py`` / ``tables.py`` and numba freezes them into its on-disk
cache, so the cache is keyed on those files too (``sim.core.kernel_cache.watch``).
"""
from __future__ import annotations


import numpy as np
from numba import njit

from sim.core import kernel_cache
from sim.games.explorers_of_navoria import state as st_module
from sim.games.explorers_of_navoria import tables as tb
from sim.games.explorers_of_navoria.state import (
    C_ADVENTURER, C_CARDS, C_CITY, C_EXPLORATION, C_FAVOUR, C_ORDERS, C_SOLDIERS, C_TRADER, C_TREASURE,
    G_ALT, G_BAG, G_BAGK, G_CARD, G_CENTRE, G_CITY, G_CTX, G_DEC, G_DISC, G_DRAWN, G_DREW, G_FDOCK, G_FHOLD,
    G_FIEND, G_FITEM, G_FJ, G_FMASK, G_IEND, G_ITEM, G_KIND, G_LVL, G_OFFER, G_ORDER, G_PARG,
    G_PHASE, G_PILET, G_PLEFT, G_PN, G_POP, G_PTOP, G_ROUND, G_RUN, G_STEPS, G_SUPPLY, G_TURN, G_TURNS, G_WAIT,
    G_FTILE, K_ALT, K_COLLECT, K_DONE, K_GOODS, K_RECRUIT, K_TRACK, OP_BUILD, OP_GOOD, OP_PER_ARTISAN, OP_PTS,
    OP_STEP, P_CENTRE, P_COMP, P_DOCK, P_DOCKN, P_ENDV, P_FAV, P_FINC, P_FTRIED, P_FULF, P_LOST, P_MARK,
    P_NCOL, P_POSTS, P_SCORE, P_SR1, P_SR2, P_SYM, P_TINC, PH_CEFFECT, PH_CSTART, PH_CTURN, PH_DONE,
    PH_INCOME, PH_RDEC, PH_REFFECT, PH_RSTART, SEAT0, SW, W_ALT, W_BUILD, W_GOODS, W_NONE, W_STEP)
from sim.games.explorers_of_navoria.tables import (
    C_A, C_FAVSYM, C_GOODS, C_N, C_NP, C_NREC, C_PLACES, C_S, C_SPLIT, C_STRICT, C_TOKENS, FLAGW,
    O_CARD, O_CITY, O_EFF, O_EXPL, O_FAV, O_FLAGS, O_ITEMS, O_PILE, O_TRK)

kernel_cache.watch(__file__, st_module, tb)


kernel = njit(cache=True, _nrt=False)
ORDER_SIZE0, ORDER_SIZE1, ORDER_SIZE2 = 3, 4, 3


# ---- random numbers (sim.core.rng, scalar) --------------------------------------------------
@kernel
def mix(x):
    z = x + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@kernel
def uniform(key, k):
    x = mix(key ^ mix(np.uint64(k)))
    return np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


# ---- small rules ----------------------------------------------------------------------------
@kernel
def add_points(g, p, comp, v):
    base = SEAT0 + p * SW
    g[base + P_SCORE] += v
    g[base + P_COMP + comp] += v


@kernel
def comp_of(g):
    """Score component of points from the effect being resolved."""
    if g[G_LVL] == 1:
        return C_ORDERS
    return C_CARDS if g[G_CTX] == 0 else C_CITY


@kernel
def do_step(g, tab, C, p, r, n):
    """EN-R103..R106: n steps on track r; the treasure pays max(0, p + n - max(p, L - 1)) times."""
    t = C[O_TRK] + 5 * r
    L = tab[t]
    col = SEAT0 + p * SW + P_MARK + r
    pos = g[col]
    pay = pos + n - max(pos, L - 1)
    if pay > 0:
        add_points(g, p, C_TREASURE, pay * tab[t + 4])
    g[col] = min(L, pos + n)


@kernel
def do_build(g, p, r):
    """EN-R66..R71, EN-A21: the next post of dock r on build space posts+1 (nothing if none left)."""
    col = SEAT0 + p * SW + P_POSTS + r
    if g[col] < 3:
        g[col] += 1


@kernel
def exec_atom(g, tab, C, p, op, arg, n):
    """Run one non-goods atom; 1 if it waits for a TRACK decision (G_WAIT set)."""
    if op == OP_PTS:
        add_points(g, p, comp_of(g), n)
    elif op == OP_PER_ARTISAN:
        add_points(g, p, comp_of(g), n * g[SEAT0 + p * SW + P_NCOL + 4])
    elif op == OP_STEP:
        if arg >= 0:
            do_step(g, tab, C, p, arg, n)
        else:
            g[G_WAIT] = W_STEP
            g[G_STEPS] = n
            return 1
    elif op == OP_BUILD:
        if arg >= 0:
            do_build(g, p, arg)
        else:
            g[G_WAIT] = W_BUILD
            return 1
    return 0


@kernel
def start_effect(g, tab, C, e, ctx):
    g[G_CTX] = ctx
    g[G_ITEM] = tab[C[O_EFF] + 2 * e]
    g[G_IEND] = tab[C[O_EFF] + 2 * e + 1]
    g[G_LVL] = 0
    g[G_POP] = -1
    g[G_WAIT] = W_NONE
    for k in range(4):
        g[G_RUN + k] = 0
    g[G_FMASK] = 0
    g[G_FDOCK] = -1


@kernel
def run_open(g):
    return g[G_RUN] + g[G_RUN + 1] + g[G_RUN + 2] + g[G_RUN + 3] > 0


@kernel
def resolve(g, tab, C):
    """Run the pending effect (model doc "Resolving an effect") until it needs a decision (1,
    G_WAIT set) or is finished (0)."""
    p = g[G_DEC]
    N, S = C[C_N], C[C_S]
    oi = C[O_ITEMS]
    for _guard in range(100000):
        if g[G_LVL] == 1:                       # order rewards (EN-R96, EN-R97, EN-A8)
            i = g[G_FITEM]
            if i < g[G_FIEND]:
                g[G_FITEM] = i + 1
                if tab[oi + 6 * i + 3] >= 0:
                    g[G_WAIT] = W_ALT
                    g[G_ALT] = i
                    return 1
                if exec_atom(g, tab, C, p, tab[oi + 6 * i], tab[oi + 6 * i + 1], tab[oi + 6 * i + 2]):
                    return 1
                continue
            d = g[G_FDOCK]
            if d >= 0:
                j = g[G_FJ]
                posts = g[SEAT0 + p * SW + P_POSTS + d]
                while j < 5 and j >= 2 and posts < j - 1:
                    j += 1
                if j < 5:
                    g[G_FJ] = j + 1
                    e = N + S + 5 * d + j
                    g[G_FITEM] = tab[C[O_EFF] + 2 * e]
                    g[G_FIEND] = tab[C[O_EFF] + 2 * e + 1]
                    continue
                g[G_FDOCK] = -1
            mask = g[G_FMASK]
            if mask != 0:
                d = 0
                while not (mask >> d) & 1:
                    d += 1
                g[G_FMASK] = mask & ~(1 << d)
                g[G_FDOCK] = d
                g[G_FJ] = 0
                g[G_FITEM] = 0
                g[G_FIEND] = 0
                base = SEAT0 + p * SW
                for k in range(3):              # EN-R95: the goods go back to the supply
                    g[G_SUPPLY + k] += g[base + P_DOCK + 3 * d + k]
                    g[base + P_DOCK + 3 * d + k] = 0
                g[base + P_DOCKN + d] = 0
                g[base + P_FULF + d] += 1
                continue
            g[G_LVL] = 0
            continue
        op = g[G_POP]
        if op >= 0:
            if op == OP_GOOD:                   # joins the open run (EN-A13)
                a = g[G_PARG]
                g[G_RUN + (3 if a < 0 else a)] += g[G_PN]
                g[G_POP] = -1
                continue
            if run_open(g):                     # the run ends before this atom: place it first
                g[G_WAIT] = W_GOODS
                return 1
            g[G_POP] = -1
            if exec_atom(g, tab, C, p, op, g[G_PARG], g[G_PN]):
                return 1
            continue
        i = g[G_ITEM]
        if i < g[G_IEND]:
            g[G_ITEM] = i + 1
            if tab[oi + 6 * i + 3] >= 0:
                g[G_WAIT] = W_ALT
                g[G_ALT] = i
                return 1
            g[G_POP] = tab[oi + 6 * i]
            g[G_PARG] = tab[oi + 6 * i + 1]
            g[G_PN] = tab[oi + 6 * i + 2]
            continue
        if run_open(g):
            g[G_WAIT] = W_GOODS
            return 1
        return 0
    return 0


# ---- goods placement (DP6, DP7, EN-A12, EN-A13) ---------------------------------------------
@kernel
def accepts(g, C, base, x, k):
    """Whether dock x of the seat at ``base`` may take a good of kind k."""
    n = g[base + P_DOCKN + x]
    if C[C_STRICT]:
        if x == 0:
            return g[base + P_DOCK + k] == 0
        if x == 1:
            return n < ORDER_SIZE1
        return n == 0 or g[base + P_DOCK + 6 + k] == n
    size = ORDER_SIZE1 if x == 1 else ORDER_SIZE0
    return n < size


@kernel
def goods_ok(g, C, base, f, d, gl):
    """Placed count if placement (f, d, g) (kinds 0 = nothing, 1..3) is allowed by (i)-(iii), else -1."""
    pw = (f == 1) + (d == 1) + (gl == 1)
    pm = (f == 2) + (d == 2) + (gl == 2)
    pf = (f == 3) + (d == 3) + (gl == 3)
    extra = max(0, pw - g[G_RUN]) + max(0, pm - g[G_RUN + 1]) + max(0, pf - g[G_RUN + 2])
    if extra > g[G_RUN + 3]:
        return -1
    tot = pw + pm + pf
    if tot > g[G_RUN] + g[G_RUN + 1] + g[G_RUN + 2] + g[G_RUN + 3]:
        return -1
    if f > 0 and not accepts(g, C, base, 0, f - 1):
        return -1
    if d > 0 and not accepts(g, C, base, 1, d - 1):
        return -1
    if gl > 0 and not accepts(g, C, base, 2, gl - 1):
        return -1
    if C[C_GOODS] > 0:
        if pw > g[G_SUPPLY] or pm > g[G_SUPPLY + 1] or pf > g[G_SUPPLY + 2]:
            return -1
    return tot


@kernel
def place_goods(g, C, p, a):
    """Apply placement a (0..63), count the lost goods, then start the orders (EN-R94, EN-A14)."""
    base = SEAT0 + p * SW
    placed = 0
    for x in range(3):
        k = (a >> (2 * (2 - x))) & 3
        if k > 0:
            g[base + P_DOCK + 3 * x + k - 1] += 1
            g[base + P_DOCKN + x] += 1
            if C[C_GOODS] > 0:
                g[G_SUPPLY + k - 1] -= 1
            placed += 1
    g[base + P_LOST] += g[G_RUN] + g[G_RUN + 1] + g[G_RUN + 2] + g[G_RUN + 3] - placed
    for k in range(4):
        g[G_RUN + k] = 0
    mask = 0
    if g[base + P_DOCK] == 1 and g[base + P_DOCK + 1] == 1 and g[base + P_DOCK + 2] == 1 and g[base + P_DOCKN] == 3:
        mask |= 1
    if g[base + P_DOCKN + 1] == 4:
        mask |= 2
    if g[base + P_DOCKN + 2] == 3 and (g[base + P_DOCK + 6] == 3 or g[base + P_DOCK + 7] == 3
                                       or g[base + P_DOCK + 8] == 3):
        mask |= 4
    if mask:
        g[G_LVL] = 1
        g[G_FMASK] = mask
        g[G_FDOCK] = -1


# ---- recruit turn ---------------------------------------------------------------------------
@kernel
def do_draw(g, key, C):
    """EN-R9, EN-A17, RND5: draw two tokens (one if the bag holds one); unusable draws go to the
    centre (EN-A18)."""
    usable = False
    for i in range(2):
        tot = 0
        for c in range(5):
            tot += g[G_BAG + c]
        if tot == 0:
            break
        u = uniform(key, g[G_BAGK])
        g[G_BAGK] += 1
        idx = int(u * tot)
        c = 0
        while idx >= g[G_BAG + c]:
            idx -= g[G_BAG + c]
            c += 1
        g[G_BAG + c] -= 1
        g[G_DRAWN + i] = c
        for s in range(3):
            if g[G_OFFER + 3 * c + s] >= 0:
                usable = True
    g[G_DREW] = 1
    if not usable:
        for i in range(2):
            c = g[G_DRAWN + i]
            if c >= 0:
                g[G_CENTRE + c] += 1
            g[G_DRAWN + i] = -1
        g[G_DREW] = 0


@kernel
def do_take(g, tab, C, p, c, s):
    """take:c:s (EN-R10..R17): token onto pile c, the card leaves the offer, its effect starts."""
    if g[G_DREW]:
        used = 0 if g[G_DRAWN] == c else 1
        other = g[G_DRAWN + 1 - used]
        if other >= 0:
            g[G_CENTRE + other] += 1
        g[G_DRAWN] = -1
        g[G_DRAWN + 1] = -1
        g[G_DREW] = 0
    else:
        g[G_CENTRE + c] -= 1
        g[SEAT0 + p * SW + P_CENTRE] += 1
    g[G_PILET + c] += 1
    card = g[G_OFFER + 3 * c + s]
    g[G_OFFER + 3 * c + s] = -1
    g[G_CARD] = card
    start_effect(g, tab, C, card, 0)
    g[G_PHASE] = PH_REFFECT


@kernel
def enter_tableau(g, tab, C, p, card):
    """EN-R17, EN-R112, EN-A22: the card's counters join the tableau, then the favour check."""
    base = SEAT0 + p * SW
    r = C[O_CARD] + 10 * card
    g[base + P_NCOL + tab[r]] += 1
    if tab[r + 1] >= 0:
        g[base + P_TINC + tab[r + 1]] += 1
    g[base + P_FINC] += tab[r + 2]
    if tab[r + 3] >= 0:
        g[base + P_ENDV + tab[r + 3]] += tab[r + 4]
    for q in range(4):
        g[base + P_SYM + q] += tab[r + 5 + q]
    for q in range(4):
        if g[base + P_FTRIED + q] == 0 and g[base + P_SYM + q] >= C[C_FAVSYM]:
            g[base + P_FTRIED + q] = 1
            if g[G_FHOLD + 2 * q] < 0:
                g[G_FHOLD + 2 * q] = p
                g[base + P_FAV + q] = 1
            elif g[G_FHOLD + 2 * q + 1] < 0:
                g[G_FHOLD + 2 * q + 1] = p
                g[base + P_FAV + q] = 2


# ---- legal mask -----------------------------------------------------------------------------
@kernel
def fill_legal(g, lg, tab, C):
    """Write the legal mask of the game's decision point into ``lg``; returns (count, one action)."""
    A = C[C_A]
    for a in range(A):
        lg[a] = False
    S = C[C_S]
    cnt = 0
    one = -1
    ph = g[G_PHASE]
    p = g[G_DEC]
    if ph == PH_RDEC:
        if g[G_DREW]:
            for i in range(2):
                c = g[G_DRAWN + i]
                if c >= 0:
                    for s in range(3):
                        a = 1 + 3 * c + s
                        if g[G_OFFER + 3 * c + s] >= 0 and not lg[a]:
                            lg[a] = True
                            cnt += 1
                            one = a
        else:
            tot = 0
            for c in range(5):
                tot += g[G_BAG + c]
            if tot > 0:
                lg[0] = True
                cnt += 1
                one = 0
            for c in range(5):
                if g[G_CENTRE + c] > 0:
                    for s in range(3):
                        if g[G_OFFER + 3 * c + s] >= 0:
                            lg[1 + 3 * c + s] = True
                            cnt += 1
                            one = 1 + 3 * c + s
        return cnt, one
    if ph == PH_CTURN:
        oc = C[O_CITY]
        for c in range(5):
            if g[G_PILET + c] > 0:
                free = 0
                for x in range(S):
                    if tab[oc + x] == c and g[G_CITY + x] < 0:
                        lg[16 + x] = True
                        cnt += 1
                        one = 16 + x
                        free += 1
                if free == 0:
                    lg[16 + S + c] = True
                    cnt += 1
                    one = 16 + S + c
        return cnt, one
    w = g[G_WAIT]
    if w == W_STEP:
        for r in range(3):
            lg[21 + S + r] = True
        return 3, 21 + S + 2
    if w == W_BUILD:
        for r in range(3):
            if g[SEAT0 + p * SW + P_POSTS + r] < 3:
                lg[21 + S + r] = True
                cnt += 1
                one = 21 + S + r
        return cnt, one
    if w == W_ALT:
        lg[88 + S] = True
        lg[89 + S] = True
        return 2, 89 + S
    if w == W_GOODS:
        base = SEAT0 + p * SW
        best = 0
        for a in range(64):
            v = goods_ok(g, C, base, a >> 4, (a >> 2) & 3, a & 3)
            if v > best:
                best = v
        for a in range(64):
            if goods_ok(g, C, base, a >> 4, (a >> 2) & 3, a & 3) == best:
                lg[24 + S + a] = True
                cnt += 1
                one = 24 + S + a
        return cnt, one
    return 0, -1


@kernel
def kind_of(g):
    ph = g[G_PHASE]
    if ph == PH_RDEC:
        return K_RECRUIT
    if ph == PH_CTURN:
        return K_COLLECT
    w = g[G_WAIT]
    if w == W_GOODS:
        return K_GOODS
    if w == W_ALT:
        return K_ALT
    return K_TRACK


# ---- applying a decision --------------------------------------------------------------------
@kernel
def apply(g, key, tab, C, a):
    S = C[C_S]
    p = g[G_DEC]
    ph = g[G_PHASE]
    if ph == PH_RDEC:
        if a == 0:
            do_draw(g, key, C)
        else:
            c = (a - 1) // 3
            do_take(g, tab, C, p, c, (a - 1) % 3)
        return
    if ph == PH_CTURN:
        if a < 16 + S:                          # city:x (EN-R26..R28)
            x = a - 16
            c = tab[C[O_CITY] + x]
            g[G_PILET + c] -= 1
            g[G_CITY + x] = p
            start_effect(g, tab, C, C[C_N] + x, 1)
            g[G_PHASE] = PH_CEFFECT
        else:                                   # back:c (EN-A20)
            c = a - 16 - S
            g[G_PILET + c] -= 1
            g[G_BAG + c] += 1
            g[G_TURN] += 1
            g[G_TURNS] += 1
        return
    w = g[G_WAIT]
    g[G_WAIT] = W_NONE
    if w == W_STEP:
        r = a - 21 - S
        if C[C_SPLIT]:
            do_step(g, tab, C, p, r, 1)
            g[G_STEPS] -= 1
            if g[G_STEPS] > 0:
                g[G_WAIT] = W_STEP
        else:
            do_step(g, tab, C, p, r, g[G_STEPS])
    elif w == W_BUILD:
        if a >= 0:
            do_build(g, p, a - 21 - S)
    elif w == W_GOODS:
        place_goods(g, C, p, a - 24 - S)
    elif w == W_ALT:
        i = g[G_ALT]
        col = C[O_ITEMS] + 6 * i + (3 if a == 89 + S else 0)
        op, arg, n = tab[col], tab[col + 1], tab[col + 2]
        if g[G_LVL] == 1:
            exec_atom(g, tab, C, p, op, arg, n)
        else:
            g[G_POP] = op
            g[G_PARG] = arg
            g[G_PN] = n


# ---- automatic phases -----------------------------------------------------------------------
@kernel
def income(g, tab, C):
    """EN-R39..R47, EN-A24: card income, then exploration places from the same markers."""
    n = C[C_NP]
    of = C[O_FLAGS]
    for p in range(n):
        base = SEAT0 + p * SW
        ti = 0
        for q in range(4):
            ti += g[base + P_TINC + q] * g[base + P_SYM + q]
        if ti:
            add_points(g, p, C_TRADER, ti)
        if g[base + P_FINC]:
            fl = 0
            for r in range(3):
                fl += tab[of + FLAGW * r + g[base + P_MARK + r]]
            if fl:
                add_points(g, p, C_ADVENTURER, fl * g[base + P_FINC])
    places = C[C_PLACES]
    for r in range(3):
        for p in range(n):
            pos = g[SEAT0 + p * SW + P_MARK + r]
            if pos <= 0:
                continue
            place = 1
            for q in range(n):
                if g[SEAT0 + q * SW + P_MARK + r] > pos:
                    place += 1
            if place <= places:
                v = tab[C[O_EXPL] + 3 * r + place - 1]
                if v:
                    add_points(g, p, C_EXPLORATION, v)


@kernel
def return_phase(g, pl, tab, C):
    """EN-R48..R54, EN-A19, EN-A25."""
    n = C[C_NP]
    for p in range(n):
        base = SEAT0 + p * SW
        for r in range(3):
            k = g[base + P_POSTS + r]
            g[base + P_MARK + r] = tab[C[O_TRK] + 5 * r + k] if k > 0 else 0
    for c in range(5):
        g[G_BAG + c] = C[C_TOKENS]
        g[G_CENTRE + c] = 0
        g[G_PILET + c] = 0
    for x in range(C[C_S]):
        g[G_CITY + x] = -1
    op = C[O_PILE]
    for c in range(5):
        off = tab[op + 2 * c]
        for s in range(3):
            if g[G_OFFER + 3 * c + s] >= 0:
                g[G_DISC + c] += 1
            if g[G_PLEFT + c] > 0:
                g[G_OFFER + 3 * c + s] = pl[off + g[G_PTOP + c]]
                g[G_PTOP + c] += 1
                g[G_PLEFT + c] -= 1
            else:
                g[G_OFFER + 3 * c + s] = -1
    for i in range(1, n):                       # stable sort by score, descending
        j = i
        while j > 0:
            a = g[G_ORDER + j - 1]
            b = g[G_ORDER + j]
            if g[SEAT0 + b * SW + P_SCORE] > g[SEAT0 + a * SW + P_SCORE]:
                g[G_ORDER + j - 1] = b
                g[G_ORDER + j] = a
                j -= 1
            else:
                break


@kernel
def final_scoring(g, tab, C):
    """EN-E3, EN-E4: soldiers, then favour tiles."""
    n = C[C_NP]
    ofv = C[O_FAV]
    for p in range(n):
        base = SEAT0 + p * SW
        v = 0
        for r in range(3):
            v += g[base + P_ENDV + r] * g[base + P_POSTS + r]
        if v:
            add_points(g, p, C_SOLDIERS, v)
        for q in range(4):
            sp = g[base + P_FAV + q]
            if sp > 0:
                tile = g[G_FTILE + q]
                per = tab[ofv + 7 * tile + sp - 1]
                cards = 0
                for c in range(5):
                    if tab[ofv + 7 * tile + 2 + c]:
                        cards += g[base + P_NCOL + c]
                if per * cards:
                    add_points(g, p, C_FAVOUR, per * cards)


@kernel
def advance(g, pl, key, lg, tab, C):
    """Run the automatic flow until a decision with >= 2 legal actions (mask left in ``lg``) or
    the end of the game."""
    n = C[C_NP]
    for _guard in range(1000000):
        ph = g[G_PHASE]
        if ph == PH_REFFECT or ph == PH_CEFFECT:
            if g[G_WAIT] == W_NONE:
                if resolve(g, tab, C) == 0:
                    if ph == PH_REFFECT:
                        enter_tableau(g, tab, C, g[G_DEC], g[G_CARD])
                        g[G_CARD] = -1
                        g[G_PHASE] = PH_RSTART
                    else:
                        g[G_PHASE] = PH_CTURN
                    g[G_TURN] += 1
                    g[G_TURNS] += 1
                    continue
            cnt, one = fill_legal(g, lg, tab, C)
            if cnt >= 2:
                g[G_KIND] = kind_of(g)
                return
            lg[max(one, 0)] = False
            apply(g, key, tab, C, one)
            continue
        if ph == PH_RSTART:
            if g[G_TURN] >= C[C_NREC]:
                g[G_PHASE] = PH_CSTART
                continue
            g[G_DEC] = g[G_ORDER + g[G_TURN] % n]
            g[G_DREW] = 0
            g[G_DRAWN] = -1
            g[G_DRAWN + 1] = -1
            g[G_PHASE] = PH_RDEC
            tot_c = 0
            tot_b = 0
            for c in range(5):
                tot_c += g[G_CENTRE + c]
                tot_b += g[G_BAG + c]
            if tot_c == 0 and tot_b > 0:
                do_draw(g, key, C)
            continue
        if ph == PH_RDEC or ph == PH_CTURN:
            if ph == PH_CTURN:
                tot = 0
                for c in range(5):
                    tot += g[G_PILET + c]
                if tot == 0:
                    g[G_PHASE] = PH_INCOME
                    continue
                g[G_DEC] = g[G_ORDER + n - 1 - g[G_TURN] % n]
            cnt, one = fill_legal(g, lg, tab, C)
            if cnt >= 2:
                g[G_KIND] = K_RECRUIT if ph == PH_RDEC else K_COLLECT
                return
            if cnt == 1:
                lg[one] = False
                apply(g, key, tab, C, one)
            else:                                # no legal action: the turn passes
                g[G_TURN] += 1
                g[G_TURNS] += 1
                g[G_PHASE] = PH_RSTART
            continue
        if ph == PH_CSTART:
            for c in range(5):
                g[G_BAG + c] += g[G_CENTRE + c]
                g[G_CENTRE + c] = 0
            g[G_TURN] = 0
            g[G_PHASE] = PH_CTURN
            continue
        if ph == PH_INCOME:
            income(g, tab, C)
            rd = g[G_ROUND]
            if rd < 2:
                for p in range(n):
                    g[SEAT0 + p * SW + (P_SR1 if rd == 0 else P_SR2)] = g[SEAT0 + p * SW + P_SCORE]
                return_phase(g, pl, tab, C)
                g[G_ROUND] = rd + 1
                g[G_TURN] = 0
                g[G_PHASE] = PH_RSTART
                continue
            final_scoring(g, tab, C)
            g[G_PHASE] = PH_DONE
            continue
        # PH_DONE
        g[G_KIND] = K_DONE
        g[G_DEC] = -1
        for a in range(C[C_A]):
            lg[a] = False
        return


@kernel
def step_batch(m, piles, keys, legal, tab, C, actions, decide):
    """Apply each game's action (if ``decide``; games over are skipped), then advance every game.
    The actions must be legal: ``engine.step`` checks them before (``sim.core.game.check_legal``)."""
    for b in range(m.shape[0]):
        g = m[b]
        lg = legal[b]
        if decide:
            if g[G_PHASE] == PH_DONE:
                continue
            a = actions[b]
            lg[a] = False
            apply(g, keys[b], tab, C, a)
        advance(g, piles[b], keys[b], lg, tab, C)


@kernel
def sorted_piles(m, piles, tab, C, out):
    """Observation scrub: each pile's unseen part in ascending card order (the seen part kept)."""
    op = C[O_PILE]
    orank = op + 10                 # PRANK, then PCARD (tables.py)
    ocard = orank + C[C_N]
    for b in range(m.shape[0]):
        for c in range(5):
            off = tab[op + 2 * c]
            size = tab[op + 2 * c + 1]
            top = m[b, G_PTOP + c]
            mask = np.int64(0)
            for i in range(size):
                v = piles[b, off + i]
                if i < top:
                    out[b, off + i] = v
                else:
                    mask |= np.int64(1) << np.int64(tab[orank + v])
            j = off + top
            r = 0
            while mask != 0:
                if mask & 1:
                    out[b, j] = tab[ocard + off + r]
                    j += 1
                mask >>= 1
                r += 1
