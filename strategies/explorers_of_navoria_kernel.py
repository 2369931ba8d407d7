"""The scripted Explorers of Navoria plans as one numba kernel: scalar code per game over the observation.

``choose`` reads, for each game of a batch, only the observation's public matrix row (``m``, layout
of ``sim/games/explorers_of_navoria/state.py``; the hidden pile order is never an argument) and the
static tables (``T`` = ``int_table(tables)``: ``C``, ``tab`` and a summary of the dock rewards),
scores only the legal actions of that game's decision kind and returns the one of highest value,
ties broken by the strategy's keyed uniforms exactly as
``strategies.base.argmax_tiebreak(values, legal, rng.uniform(A))`` would (only the candidates
within 1e-9 of the best draw their uniform).

Speed: every helper takes the same three arrays (the game's row ``g``, ``T``, and one float
scratch ``F`` holding the plan's weights, per-decision values and caches); step, build, dock and
card-independent values are computed at most once per decision (``F`` caches), goods runs are
memoised per decision, and nothing allocates (``_nrt=False``; no recursion, no exceptions).

The value model (weights: the ``F_*`` slots, one row of ``fws`` per plan, filled from the plan's
``Params`` by ``strategies.explorers_of_navoria``), in points:

* a **step** on track r: treasure payouts, flags gained x (adventurers in the tableau x ``flags``
  + ``flag_bonus``), the change of this round's exploration place against the other markers as
  they stand x ``exploration``, + ``step`` per space;
* a **build** on track r: soldiers' end points per post (exact) x ``soldier``, + ``build``, the
  uncovered dock reward x its expected fulfilments x ``uncover``, the higher start of the marker
  in later rounds (flags x ``flags`` and ``base`` per space);
* **goods**: each dock's value of one more good of each kind: completing the order = the order's
  rewards (base + uncovered, as valued now) x (``order`` + ``progress``: the rewards, and the
  dock free again); otherwise ``progress`` x order value / order size per good, fading over the
  last ``progress_horizon`` own turns; a run of goods is valued by the best placement among those
  placing as many goods as possible (the engine's rule), ``lost_good`` per good lost;
* a **card**: its immediate effect, plus income projections (traders: symbols of their people
  x income phases left, with expected growth; adventurers: flags now and at the marker's start
  in later rounds), soldiers' end points with the posts built and expected, artisans' share of
  the uncovered per-artisan dock rewards, the income its symbols add to the traders already held,
  the favour races of its peoples (won now, or progress toward the 5 symbols) and favour tiles
  held that count its colour, and the plan's bias for its colour;
* **draw** (bag method): the expected best card of two tokens drawn from the (public) bag content.
* a **city space** (collect): its reward; with ``foresight`` / ``deny`` the rest of the collect
  phase is played out after each choice (every later collector takes its best free space, each
  seat valued with the deciding plan's weights on its own tableau, docks and markers), and the
  choice gains ``foresight`` x the decider's own later takes and loses ``deny`` x the others' (per
  opponent): a space the next collectors want is taken first, one nobody else wants can wait.
"""
from __future__ import annotations


import numpy as np
from numba import njit

from sim.core import kernel_cache
from sim.games.explorers_of_navoria import state as st_module
from sim.games.explorers_of_navoria import tables as tb
from sim.games.explorers_of_navoria.state import (
    CITY_MAX, G_ALT, G_BAG, G_CARD, G_CITY, G_CTX, G_DEC, G_FHOLD, G_FTILE, G_KIND, G_LVL, G_NP,
    G_NREC, G_OFFER, G_ORDER, G_PHASE, G_PILET, G_ROUND, G_RUN, G_STEPS, G_TURN, G_WAIT, K_ALT, K_COLLECT, K_GOODS, K_RECRUIT,
    K_TRACK, OP_BUILD, OP_GOOD, OP_PER_ARTISAN, OP_PTS, OP_STEP, P_DOCK, P_DOCKN, P_ENDV, P_FAV, P_FINC,
    P_FTRIED, P_MARK, P_NCOL, P_POSTS, P_SYM, P_TINC, PH_CEFFECT, PH_CSTART, PH_CTURN, SEAT0, SW,
    W_STEP)
from sim.games.explorers_of_navoria.tables import (
    C_FAVSYM, C_N, C_PLACES, C_S, C_SPLIT, C_STRICT, FLAGW, O_CARD, O_CITY, O_EFF, O_EXPL, O_FAV, O_FLAGS, O_ITEMS,
    O_TRK)

# Numba freezes the imported constants into its on-disk cache: key it on their sources too.
kernel_cache.watch(__file__, st_module, tb)

# fw slots (float weights; ``strategies.explorers_of_navoria.FIELDS`` lists them in this order)
(F_POINTS, F_TREASURE, F_FLAGS, F_FLAG_BONUS, F_EXPLORATION, F_STEP, F_TRADER, F_TRADER_GROWTH,
 F_SYMBOL_INCOME, F_SYMBOL, F_FAVOUR, F_FAVOUR_PROGRESS, F_FAVOUR_FUTURE, F_SOLDIER, F_SOLDIER_FUTURE,
 F_BUILD, F_UNCOVER, F_BASE, F_ADVENTURER, F_ADVENTURER_GROWTH, F_ORDER, F_PROGRESS, F_ARTISAN,
 F_FULFIL_RATE, F_LOST_GOOD, F_DRAW, F_CITY_POINTS, F_BIAS, F_DOCK_FILL, F_HORIZON, F_BLOCK, F_FORESIGHT,
 F_DENY, NF) = (*range(28), 32, 33, 34, 35, 36, 37)
# F_BIAS .. F_BIAS + 4: bias per card of colour c

ORDER_SIZE = (3, 4, 3)
_kernel = njit(cache=True, _nrt=False, error_model="numpy")     # no reference counting: nothing allocates inside
_inline = njit(cache=True, _nrt=False, error_model="numpy", inline="always")
NEG = -1e18

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
_TO_UNIT = 1.0 / float(1 << 53)

# x slots: per-decision scalars and lazily filled caches (float64 scratch; NaN = not computed yet)
(X_ME, X_BASE, X_ROUND, X_RINC, X_FINC, X_TL, X_OWNLEFT, X_RECLEFT, X_NP, X_DOCKS, X_DECAY, X_FAVDONE,
 X_NOWFLAGS, X_STARTFLAGS, X_STAMP) = range(15)
X_SV = 16           # [3 tracks x 4]: n steps (n = 1..3) on track r
X_SVANY = 28        # [4]: n steps on the best track
X_BV = 32           # [3]: a post on track r
X_BVANY = 35        # a post on the best track with a post left
NX = 56
# the one float scratch array ``F`` of a call: x slots above, then
FW = 60             # the deciding plan's weights (NF)
DV = 100            # [3 docks x 4]: value of one more W, M, F, a good of choice on each dock
PA = 112            # [3]: per-artisan points of each dock's active rewards
SCR = 115           # flags the effect being valued reaches
BESTC = 116         # [5]: best card value per colour
MEMO = 124          # [256]: goods values by run (W + 4M + 16F + 64 any)
MEMOS = 380         # [256]: the decision each MEMO entry belongs to
CP_SA = 640         # [4 peoples x 5 symbol counts] (``_card_prep``)
CP_SB = 660         # [4 x 5]
CP_KOWN = 680       # [4 peoples x 5 colours]
CP_COLV = 700       # [5]
CP_TRA = 705        # [4]
CP_ADV = 709
CP_SOL = 710        # [3]
VALS = 720          # [A]: action values; then, from VALS + A (``scratch``):
OPEN = 0            # [5] value of the city space a token of colour c opens (``_open_values``)
SPV = 5             # [CITY_MAX] value of each free city space to the decider
OV = SPV + CITY_MAX           # [4 seats x CITY_MAX] each seat's value of each free city space (``_seat_values``)
RPILE = OV + 4 * CITY_MAX     # [5] the collect rollout's pile tokens (``_lookahead``)
RTAKEN = RPILE + 5            # [CITY_MAX] 1 = the space is taken in the rollout
# the one int table ``T``: the tables' ``C`` vector (C_SIZE entries), then ``tab`` from TB on
H_SUMM = tb.C_SIZE  # T[H_SUMM]: where the dock rewards' summaries start (``int_table``)
TB = tb.C_SIZE + 1
assert FW + NF <= DV and BESTC + 5 <= MEMO and MEMOS + 256 <= CP_SA
NSUM = 8            # per dock reward: points, per-artisan, steps on tracks 0..2, steps of choice, builds,
                    # 1 = anything else (valued item by item)


def scratch(A: int) -> np.ndarray:
    F = np.zeros(VALS + A + RTAKEN + CITY_MAX, dtype=np.float64)
    F[MEMOS:MEMOS + 256] = -1.0
    return F


def int_table(t) -> np.ndarray:
    """``T``: C, the summaries' offset, tab, then per dock reward (dock-major, base1, base2, under
    posts 1..3) a summary of NSUM ints, as one int32 array (every C entry is small)."""
    C, tab = t.C, t.tab
    summ = np.zeros((15, NSUM), dtype=np.int32)
    for d in range(3):
        for j in range(5):
            e = int(C[tb.C_N] + C[tb.C_S] + 5 * d + j)
            row = summ[5 * d + j]
            first, end = tab[C[tb.O_EFF] + 2 * e], tab[C[tb.O_EFF] + 2 * e + 1]
            for i in range(first, end):
                op, arg, n, op2 = (int(v) for v in tab[C[tb.O_ITEMS] + 6 * i:C[tb.O_ITEMS] + 6 * i + 4])
                if op2 >= 0:
                    row[7] = 1
                elif op == OP_PTS:
                    row[0] += n
                elif op == OP_PER_ARTISAN:
                    row[1] += n
                elif op == OP_STEP and arg >= 0 and row[2 + arg] == 0:
                    row[2 + arg] = n
                elif op == OP_STEP and arg < 0 and row[5] == 0:
                    row[5] = n
                elif op == OP_BUILD:
                    row[6] += 1
                else:
                    row[7] = 1
    head = np.concatenate([C.astype(np.int32), [0]]).astype(np.int32)
    head[H_SUMM] = len(head) + len(tab)
    return np.concatenate([head, tab.astype(np.int32), summ.ravel()]).astype(np.int32)


@_kernel
def _mix(x):
    z = x + _GOLDEN
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@_kernel
def _uniform(key, counter):
    """``sim.core.rng.uniform(key, counter)`` for one stream and counter."""
    return np.float64(_mix(key ^ _mix(np.uint64(counter))) >> _S11) * _TO_UNIT


# ---- small values ---------------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def _flags(T, r, pos):
    return T[TB + T[O_FLAGS] + FLAGW * r + pos]


@_kernel
def _step(g, T, F, r, n, finc):
    """Value of n steps on track r (EN-R103..R106 treasure payouts, flags, exploration place)."""
    me = np.int64(F[X_ME])
    p = np.int64(g[SEAT0 + me * SW + P_MARK + r])
    t = T[O_TRK] + 5 * r
    L = np.int64(T[TB + t])
    q = min(L, p + n)
    pay = max(0, p + n - max(p, L - 1))
    v = pay * T[TB + t + 4] * F[FW + F_TREASURE]
    df = _flags(T, r, q) - _flags(T, r, p)
    v += df * (finc * F[FW + F_FLAGS] + F[FW + F_FLAG_BONUS])
    if q > p:
        # this round's exploration place against the other markers as they stand (EN-R46)
        n_p = np.int64(F[X_NP])
        ahead_p = 0
        ahead_q = 0
        for o in range(n_p):
            if o != me:
                mo = g[SEAT0 + o * SW + P_MARK + r]
                ahead_p += mo > p
                ahead_q += mo > q
        places = T[C_PLACES]
        e = T[O_EXPL] + 3 * r
        gain = 0.0
        if ahead_q < places:
            gain += T[TB + e + ahead_q]
        if p > 0 and ahead_p < places:
            gain -= T[TB + e + ahead_p]
        v += F[FW + F_EXPLORATION] * gain + F[FW + F_STEP] * (q - p)
    return v


@_inline
def _sv_track(g, T, F, r, n):
    """n steps on track r with the adventurers held (cached for n <= 3)."""
    if n <= 3:
        c = F[X_SV + 4 * r + n]
        if c == c:
            return c
        c = _step(g, T, F, r, n, F[X_FINC])
        F[X_SV + 4 * r + n] = c
        return c
    return _step(g, T, F, r, n, F[X_FINC])


@_inline
def _sv(g, T, F, r, n):
    """n steps on track r, or on the best track when r < 0 (a marker of choice)."""
    if r >= 0:
        return _sv_track(g, T, F, r, n)
    if n <= 3:
        c = F[X_SVANY + n]
        if c == c:
            return c
    best = max(_sv_track(g, T, F, 0, n), _sv_track(g, T, F, 1, n),
               _sv_track(g, T, F, 2, n))
    if n <= 3:
        F[X_SVANY + n] = best
    return best


@_inline
def _ef(g, T, F, d):
    """Expected further fulfilments of dock d (time left, goods already there)."""
    base = np.int64(F[X_BASE])
    return F[FW + F_FULFIL_RATE] * F[X_TL] + F[FW + F_DOCK_FILL] * g[base + P_DOCKN + d] / ORDER_SIZE[d]


@_inline
def _atom_simple(g, T, F, op, arg, n):
    """A non-goods atom of a dock reward (builds valued without their own uncovered reward)."""
    if op == OP_PTS:
        return n * F[FW + F_POINTS]
    if op == OP_PER_ARTISAN:
        return n * g[np.int64(F[X_BASE]) + P_NCOL + 4] * F[FW + F_POINTS]
    if op == OP_STEP:
        return _sv(g, T, F, arg, n)
    if op == OP_BUILD:
        return F[FW + F_BUILD]
    return 0.0


@_inline
def _eff_simple(g, T, F, e):
    """Value of a goods-free effect (dock rewards); ``a|b`` items take the better side."""
    oi = T[O_ITEMS]
    v = 0.0
    for i in range(T[TB + T[O_EFF] + 2 * e], T[TB + T[O_EFF] + 2 * e + 1]):
        a = _atom_simple(g, T, F, T[TB + oi + 6 * i], T[TB + oi + 6 * i + 1], T[TB + oi + 6 * i + 2])
        if T[TB + oi + 6 * i + 3] >= 0:
            a = max(a, _atom_simple(g, T, F, T[TB + oi + 6 * i + 3], T[TB + oi + 6 * i + 4],
                                    T[TB + oi + 6 * i + 5]))
        v += a
    return v


@_kernel
def _build(g, T, F, r, finc):
    """Value of building the next post on track r (EN-R66..R73; nothing when no post is left)."""
    base = np.int64(F[X_BASE])
    k = np.int64(g[base + P_POSTS + r])
    if k >= 3:
        return 0.0
    v = F[FW + F_BUILD] + F[FW + F_SOLDIER] * g[base + P_ENDV + r]
    e = T[C_N] + T[C_S] + 5 * r + 2 + k
    v += F[FW + F_UNCOVER] * _ef(g, T, F, r) * _eff_simple(g, T, F, e)
    after = 2 - np.int64(F[X_ROUND])
    if after > 0:
        t = T[O_TRK] + 5 * r
        old = np.int64(T[TB + t + k]) if k > 0 else 0
        new = np.int64(T[TB + t + k + 1])
        df = _flags(T, r, new) - _flags(T, r, old)
        v += after * (df * (finc * F[FW + F_FLAGS] + F[FW + F_FLAG_BONUS]) + F[FW + F_BASE] * (new - old))
    return v


@_inline
def _bv(g, T, F, r):
    """A post on track r, or on the best track with a post left when r < 0 (cached)."""
    if r >= 0:
        c = F[X_BV + r]
        if c != c:
            c = _build(g, T, F, r, F[X_FINC])
            F[X_BV + r] = c
        return c
    c = F[X_BVANY]
    if c == c:
        return c
    base = np.int64(F[X_BASE])
    best = NEG
    for k in range(3):
        if g[base + P_POSTS + k] < 3:
            c = F[X_BV + k]
            if c != c:
                c = _build(g, T, F, k, F[X_FINC])
                F[X_BV + k] = c
            best = max(best, c)
    if best <= NEG:
        best = 0.0
    F[X_BVANY] = best
    return best


# ---- docks and goods ------------------------------------------------------------------------
@_kernel
def _docks(g, T, F):
    """F[DV + 4d + k]: value of one more good of kind k on dock d (NEG = not accepted; k = 3: a good of
    choice), F[PA + d]: per-artisan points of the dock's active rewards; once per decision."""
    if F[X_DOCKS] > 0:
        return
    F[X_DOCKS] = 1.0
    base = np.int64(F[X_BASE])
    strict = T[C_STRICT] != 0
    N, S = T[C_N], T[C_S]
    decay = F[X_DECAY]
    ncol4 = g[base + P_NCOL + 4]
    w_pts = F[FW + F_POINTS]
    for d in range(3):
        posts = np.int64(g[base + P_POSTS + d])
        R = 0.0
        p_a = 0
        for j in range(5):
            if j >= 2 and posts < j - 1:
                continue
            o = T[H_SUMM] + NSUM * (5 * d + j)
            if T[o + 7]:
                R += _eff_simple(g, T, F, N + S + 5 * d + j)
            else:
                R += (T[o] + T[o + 1] * ncol4) * w_pts + T[o + 6] * F[FW + F_BUILD]
                for r in range(3):
                    if T[o + 2 + r]:
                        R += _sv(g, T, F, r, T[o + 2 + r])
                if T[o + 5]:
                    R += _sv(g, T, F, -1, T[o + 5])
            p_a += T[o + 1]
        F[PA + d] = p_a
        size = ORDER_SIZE[d]
        n = np.int64(g[base + P_DOCKN + d])
        best = NEG
        for k in range(3):
            have = np.int64(g[base + P_DOCK + 3 * d + k])
            if strict:
                if d == 0:
                    ok = have == 0
                elif d == 1:
                    ok = n < size
                else:
                    ok = n == 0 or have == n
            else:
                ok = n < size
            if not ok:
                F[DV + 4 * d + k] = NEG
                continue
            # the dock after the good: complete, still completable, or blocked (free placement)
            if d == 0:
                w0 = np.int64(g[base + P_DOCK]) + (k == 0)
                w1 = np.int64(g[base + P_DOCK + 1]) + (k == 1)
                w2 = np.int64(g[base + P_DOCK + 2]) + (k == 2)
                complete = w0 == 1 and w1 == 1 and w2 == 1
                alive = w0 <= 1 and w1 <= 1 and w2 <= 1
            elif d == 1:
                complete = n + 1 == 4
                alive = True
            else:
                complete = n + 1 == 3 and have + 1 == 3
                alive = have + 1 == n + 1
            pot = F[FW + F_PROGRESS] * R * decay / size
            if complete:
                v = (F[FW + F_ORDER] + F[FW + F_PROGRESS] * decay) * R   # the rewards, and the dock is free again
            elif alive:
                v = pot
            else:
                v = -pot * n - F[FW + F_PROGRESS] * R
            F[DV + 4 * d + k] = v
            best = max(best, v)
        F[DV + 4 * d + 3] = best


@_inline
def _single(F, k):
    """Best dock for one good of kind k (3 = of choice), NEG if none accepts it."""
    return max(F[DV + k], max(F[DV + 4 + k], F[DV + 8 + k]))


@_inline
def _pair(F, k1, k2):
    """Best two different docks for goods of kinds k1, k2, NEG if no such placement."""
    best = NEG
    for d1 in range(3):
        v1 = F[DV + 4 * d1 + k1]
        if v1 <= NEG:
            continue
        for d2 in range(3):
            if d2 != d1:
                v2 = F[DV + 4 * d2 + k2]
                if v2 > NEG:
                    best = max(best, v1 + v2)
    return best


@_kernel
def _goods(g, T, F, cw, cm, cf, ca):
    """Value of goods received at the same time: the best placement among those placing the most
    goods (EN-A12, EN-A13), each placed good worth dv, each good lost ``lost_good`` less."""
    tot = cw + cm + cf + ca
    if tot <= 0:
        return 0.0
    _docks(g, T, F)
    lost = F[FW + F_LOST_GOOD]
    if tot <= 3:                                      # the goods one by one: kinds k1, k2, k3
        k1 = 0 if cw else (1 if cm else (2 if cf else 3))
        if tot == 1:
            best = _single(F, k1)
            return best if best > NEG else -lost
        code = cw + 4 * cm + 16 * cf + 64 * ca
        if F[MEMOS + code] == F[X_STAMP]:
            return F[MEMO + code]
        rw, rm, rf = cw - (k1 == 0), cm - (k1 == 1), cf - (k1 == 2)
        k2 = 0 if rw else (1 if rm else (2 if rf else 3))
        if tot == 2:
            v = _pair(F, k1, k2)
            if v <= NEG:
                v = max(_single(F, k1), _single(F, k2))
                v = v - lost if v > NEG else -2 * lost
        else:
            rw, rm, rf = rw - (k2 == 0), rm - (k2 == 1), rf - (k2 == 2)
            k3 = 0 if rw else (1 if rm else (2 if rf else 3))
            v = NEG
            for d1 in range(3):
                v1 = F[DV + 4 * d1 + k1]
                if v1 <= NEG:
                    continue
                for d2 in range(3):
                    if d2 == d1:
                        continue
                    v2 = F[DV + 4 * d2 + k2]
                    v3 = F[DV + 4 * (3 - d1 - d2) + k3]
                    if v2 > NEG and v3 > NEG:
                        v = max(v, v1 + v2 + v3)
            if v <= NEG:
                v = max(_pair(F, k1, k2), max(_pair(F, k1, k3), _pair(F, k2, k3)))
                if v > NEG:
                    v -= lost
                else:
                    v = max(_single(F, k1), max(_single(F, k2), _single(F, k3)))
                    v = v - 2 * lost if v > NEG else -3 * lost
        F[MEMOS + code] = F[X_STAMP]
        F[MEMO + code] = v
        return v
    best_n = 0                                        # more than 3 goods: every placement
    best_v = 0.0
    for f in range(4):
        vf = 0.0
        if f > 0:
            vf = F[DV + f - 1]
            if vf <= NEG:
                continue
        for d in range(4):
            vd = 0.0
            if d > 0:
                vd = F[DV + 4 + d - 1]
                if vd <= NEG:
                    continue
            for gl in range(4):
                vg = 0.0
                if gl > 0:
                    vg = F[DV + 8 + gl - 1]
                    if vg <= NEG:
                        continue
                cnt = (f > 0) + (d > 0) + (gl > 0)
                if cnt < best_n:
                    continue
                pw = (f == 1) + (d == 1) + (gl == 1)
                pm = (f == 2) + (d == 2) + (gl == 2)
                pf = (f == 3) + (d == 3) + (gl == 3)
                if max(0, pw - cw) + max(0, pm - cm) + max(0, pf - cf) > ca:
                    continue
                v = vf + vd + vg
                if cnt > best_n or v > best_v:
                    best_n = cnt
                    best_v = v
    return best_v - lost * (tot - best_n)


@_inline
def _atom(g, T, F, op, arg, n):
    """Value of one atom alone (a good: that good received on its own)."""
    if op == OP_GOOD:
        if arg < 0:
            return _goods(g, T, F, 0, 0, 0, n)
        return _goods(g, T, F, n * (arg == 0), n * (arg == 1), n * (arg == 2), 0)
    if op == OP_BUILD:
        return _bv(g, T, F, arg)
    return _atom_simple(g, T, F, op, arg, n)


@_kernel
def _effect(g, T, F, e):
    """Value of effect e (a card's immediate effect or a city space); runs of consecutive goods are
    valued together; ``F[SCR]`` gets the flags its fixed-track steps reach (for a new adventurer)."""
    oi = T[O_ITEMS]
    v = 0.0
    rw = rm = rf = ra = 0
    dfl = 0
    base = np.int64(F[X_BASE])
    for i in range(T[TB + T[O_EFF] + 2 * e], T[TB + T[O_EFF] + 2 * e + 1]):
        op, arg, n = T[TB + oi + 6 * i], T[TB + oi + 6 * i + 1], T[TB + oi + 6 * i + 2]
        if T[TB + oi + 6 * i + 3] < 0 and op == OP_GOOD:
            if arg < 0:
                ra += n
            elif arg == 0:
                rw += n
            elif arg == 1:
                rm += n
            else:
                rf += n
            continue
        if rw + rm + rf + ra > 0:
            v += _goods(g, T, F, rw, rm, rf, ra)
            rw = rm = rf = ra = 0
        a = _atom(g, T, F, op, arg, n)
        if T[TB + oi + 6 * i + 3] >= 0:
            a = max(a, _atom(g, T, F, T[TB + oi + 6 * i + 3], T[TB + oi + 6 * i + 4],
                             T[TB + oi + 6 * i + 5]))
        elif op == OP_STEP and arg >= 0:
            p = np.int64(g[base + P_MARK + arg])
            L = np.int64(T[TB + T[O_TRK] + 5 * arg])
            dfl += _flags(T, arg, min(L, p + n)) - _flags(T, arg, p)
        v += a
    if rw + rm + rf + ra > 0:
        v += _goods(g, T, F, rw, rm, rf, ra)
    F[SCR] = dfl
    return v


# ---- cards ----------------------------------------------------------------------------------
@_kernel
def _card_prep(g, T, F):
    """Once per decision, the parts of a card's value that depend on the player only: per people
    q and symbol count s (0..4), SA (income the symbols add, favour points) and SB (x the points
    of a favour tile counting the card's colour, KOWN); per colour COLV (plan bias; artisans:
    per-artisan dock rewards), per people TRA (a trader's income), ADV (an adventurer's), per
    region SOL (a soldier's end points per point per post)."""
    if F[X_FAVDONE] > 0:
        return
    F[X_FAVDONE] = 1.0
    base = np.int64(F[X_BASE])
    ofv = TB + T[O_FAV]
    rinc = F[X_RINC]
    rl = F[X_RECLEFT]
    favsym = T[C_FAVSYM]
    w_fav, w_prog = F[FW + F_FAVOUR], F[FW + F_FAVOUR_PROGRESS]
    for q in range(4):
        sp = np.int64(g[base + P_FAV + q])
        tile = np.int64(g[G_FTILE + q])
        have = np.int64(g[base + P_SYM + q])
        inc = F[FW + F_SYMBOL_INCOME] * rinc * g[base + P_TINC + q] + F[FW + F_SYMBOL]
        state = 0                                     # favour out of reach
        per = 0.0
        p0 = 0.0
        if sp > 0:
            state = 1                                 # held: its tile's colours count
            per = T[ofv + 7 * tile + sp - 1]
        elif g[base + P_FTRIED + q] == 0:
            space = -1
            if g[G_FHOLD + 2 * q] < 0:
                space = 0
            elif g[G_FHOLD + 2 * q + 1] < 0:
                space = 1
            if space >= 0 and T[ofv + 7 * tile + space] > 0:
                state = 2                             # open: the first free space
                per = T[ofv + 7 * tile + space]
                kinds = 0
                cards = 0
                for c in range(5):
                    if T[ofv + 7 * tile + 2 + c]:
                        kinds += 1
                        cards += g[base + P_NCOL + c]
                p0 = per * (cards + F[FW + F_FAVOUR_FUTURE] * rl * kinds / 5.0)
        for c in range(5):
            F[CP_KOWN + 5 * q + c] = per * T[ofv + 7 * tile + 2 + c] if state > 0 else 0.0
        need = favsym - have
        for s in range(5):
            sa = s * inc
            sb = 0.0
            if state == 1:
                sb = w_fav
            elif state == 2:
                if s > 0 and s >= need:               # wins the favour now (EN-R107, EN-A22)
                    sa += w_fav * p0
                    sb = w_fav
                elif rl * 2 >= need - s:              # still reachable with the cards to come
                    sa += w_prog * p0 * s / need
                    sb = w_prog * (s / need + have / favsym)
            F[CP_SA + 5 * q + s] = sa
            F[CP_SB + 5 * q + s] = sb
        F[CP_TRA + q] = F[FW + F_TRADER] * (rinc * have + F[FW + F_TRADER_GROWTH] * rl * (rinc - 1) * 0.5)
    for c in range(5):
        F[CP_COLV + c] = F[FW + F_BIAS + c]
    if F[FW + F_ARTISAN] != 0.0:                      # artisans count on per-artisan rewards (EN-R85)
        _docks(g, T, F)
        s_a = 0.0
        for d in range(3):
            if F[PA + d]:
                s_a += F[PA + d] * _ef(g, T, F, d)
        F[CP_COLV + 4] += F[FW + F_ARTISAN] * s_a
    F[CP_ADV] = F[FW + F_ADVENTURER] * (F[X_NOWFLAGS] + (rinc - 1) * (F[X_STARTFLAGS]
                                                                        + F[FW + F_ADVENTURER_GROWTH]))
    for r in range(3):
        posts = np.int64(g[base + P_POSTS + r])
        F[CP_SOL + r] = F[FW + F_SOLDIER] * posts + F[FW + F_SOLDIER_FUTURE] * (3 - posts) * F[X_TL]


@_inline
def _card(g, T, F, card):
    """Value of recruiting ``card`` now (immediate effect + what it adds to the tableau)."""
    _card_prep(g, T, F)
    rc = TB + T[O_CARD] + 10 * card
    col = np.int64(T[rc])
    v = F[CP_COLV + col] + _effect(g, T, F, card)
    for q in range(4):
        s = min(np.int64(T[rc + 5 + q]), 4)
        v += F[CP_SA + 5 * q + s] + F[CP_SB + 5 * q + s] * F[CP_KOWN + 5 * q + col]
    ip = np.int64(T[rc + 1])
    if ip >= 0:                                      # trader income (EN-R62)
        v += F[CP_TRA + ip] + F[FW + F_TRADER] * F[X_RINC] * T[rc + 5 + ip]
    fl = T[rc + 2]
    if fl:                                           # adventurer income (EN-R82)
        v += fl * (F[CP_ADV] + F[FW + F_ADVENTURER] * F[SCR])
    er = np.int64(T[rc + 3])
    if er >= 0:                                      # soldiers (EN-R76)
        v += T[rc + 4] * F[CP_SOL + er]
    return v


@_kernel
def _open_values(g, T, F, top, lg):
    """F[top + OPEN + c]: what recruiting with a token of colour c is worth through the city space
    the token opens (EN-R10, EN-R25..R28): pile c's tokens will fill the best free spaces of colour c,
    one more token opens the next one; the opened spaces go in collect order (reverse compass,
    EN-R25), best first, so the space's rank among all opened spaces tells who takes it: the
    decider (+ ``block`` x its value) or another player (- ``block`` x its value). Spaces are valued
    as the decider values them (a proxy for everyone's). Only the colours of the tokens the decider
    may use now are scored (not the bag method's unknown tokens), and only when there are two or
    more: a term shared by every option changes nothing; so only the spaces of those colours and of
    colours with pile tokens are valued."""
    S, N = T[C_S], T[C_N]
    n = np.int64(g[G_NP])
    me = np.int64(F[X_ME])
    oc = TB + T[O_CITY]
    for c in range(5):
        F[top + OPEN + c] = 0.0
    usable = 0
    mask = 0
    for c in range(5):
        if lg[1 + 3 * c] or lg[2 + 3 * c] or lg[3 + 3 * c]:
            usable += 1
            mask |= 1 << c
    if usable < 2:
        return
    for x in range(S):
        cx = T[oc + x]
        wanted = (mask >> cx) & 1 or g[G_PILET + cx] > 0
        F[top + SPV + x] = _effect(g, T, F, N + x) if g[G_CITY + x] < 0 and wanted else NEG
    for c in range(5):
        if not (mask >> c) & 1:
            continue
        k = np.int64(g[G_PILET + c])
        # the free space of colour c with exactly k better ones: the one the next token opens
        nxt = -1
        for x in range(S):
            vx = F[top + SPV + x]
            if T[oc + x] != c or vx <= NEG:
                continue
            better = 0
            for y in range(S):
                vy = F[top + SPV + y]
                if T[oc + y] == c and vy > NEG and (vy > vx or (vy == vx and y < x)):
                    better += 1
            if better == k:
                nxt = x
        if nxt < 0:
            continue                                  # no space left: the token goes back (EN-A20)
        v = F[top + SPV + nxt]
        # opened spaces (the best pilet[c'] of each colour c') worth more than it: taken before it
        r = 0
        for x in range(S):
            vx = F[top + SPV + x]
            cx = T[oc + x]
            if vx <= NEG or vx <= v:
                continue
            better = 0
            for y in range(S):
                vy = F[top + SPV + y]
                if T[oc + y] == cx and vy > NEG and (vy > vx or (vy == vx and y < x)):
                    better += 1
            if better < g[G_PILET + cx]:
                r += 1
        who = np.int64(g[G_ORDER + n - 1 - r % n])
        F[top + OPEN + c] = F[FW + F_BLOCK] * (v if who == me else -v)


# ---- collect: the spaces the others will take (EN-R25..R28) ------------------------------
@_kernel
def _space(g, T, F, x):
    """Value of city space x to the seat being valued (its reward, + ``city_points`` per point)."""
    e = T[C_N] + x
    v = _effect(g, T, F, e)
    cp = F[FW + F_CITY_POINTS]
    if cp != 0.0:
        oi = TB + T[O_ITEMS]
        for it in range(T[TB + T[O_EFF] + 2 * e], T[TB + T[O_EFF] + 2 * e + 1]):
            if T[oi + 6 * it] == OP_PTS:
                v += cp * T[oi + 6 * it + 2]
    return v


@_kernel
def _seat_values(g, T, F, top, stamp):
    """F[top + OV + CITY_MAX x o + x]: seat o's value of each free city space that a pile token can
    still fill (NEG otherwise), every seat valued with the decider's weights on its own tableau,
    docks and markers (a proxy for the others' plans); the decider's context is restored."""
    n = np.int64(g[G_NP])
    oc = TB + T[O_CITY]
    for o in range(n):
        _context(g, T, F, o)
        F[X_STAMP] = stamp + 1 + o
        for x in range(T[C_S]):
            free = g[G_CITY + x] < 0 and g[G_PILET + T[oc + x]] > 0
            F[top + OV + CITY_MAX * o + x] = _space(g, T, F, x) if free else NEG
    _context(g, T, F, np.int64(g[G_DEC]))
    F[X_STAMP] = stamp


@_kernel
def _lookahead(g, T, F, top, lg, a_city):
    """Adds to each city choice x the rest of this collect phase played out after it: every later
    collect turn (reverse compass order, EN-R25) takes its collector's best free space that a pile
    token can fill (``_seat_values``; a token without a free space goes back, EN-A20), until the
    piles are empty (EN-R38). x is worth ``foresight`` x the decider's own later takes more and
    ``deny`` x the others' takes (per opponent) less: a space nobody else wants can wait, one the
    next collectors want is taken now."""
    n = np.int64(g[G_NP])
    S = T[C_S]
    me = np.int64(g[G_DEC])
    oc = TB + T[O_CITY]
    fs, dn = F[FW + F_FORESIGHT], F[FW + F_DENY]
    t0 = np.int64(g[G_TURN])
    for x in range(S):
        if not lg[a_city + x]:
            continue
        tot = 0
        for c in range(5):
            F[top + RPILE + c] = g[G_PILET + c]
            tot += g[G_PILET + c]
        for y in range(S):
            F[top + RTAKEN + y] = 0.0 if g[G_CITY + y] < 0 else 1.0
        F[top + RTAKEN + x] = 1.0
        F[top + RPILE + T[oc + x]] -= 1.0
        tot -= 1
        mine = 0.0
        theirs = 0.0
        u = t0
        while tot > 0:
            u += 1
            o = np.int64(g[G_ORDER + n - 1 - u % n])
            best = NEG
            bx = -1
            for y in range(S):
                if F[top + RTAKEN + y] == 0.0 and F[top + RPILE + T[oc + y]] > 0:
                    v = F[top + OV + CITY_MAX * o + y]
                    if v > best:
                        best = v
                        bx = y
            tot -= 1
            if bx < 0:                                # only tokens without a free space: one goes back
                for c in range(5):
                    if F[top + RPILE + c] > 0:
                        F[top + RPILE + c] -= 1.0
                        break
                continue
            F[top + RTAKEN + bx] = 1.0
            F[top + RPILE + T[oc + bx]] -= 1.0
            if o == me:
                mine += best
            else:
                theirs += best
        F[VALS + a_city + x] += fs * mine - dn * theirs / max(n - 1, 1)


# ---- the decision ---------------------------------------------------------------------------
@_kernel
def _context(g, T, F, me):
    """The per-decision scalars and empty caches for valuing as seat ``me`` (the decider, or an
    opponent whose choices the collect lookahead predicts)."""
    base = SEAT0 + me * SW
    n = np.int64(g[G_NP])
    nrec = np.int64(g[G_NREC])
    rd = np.int64(g[G_ROUND])
    ph = g[G_PHASE]
    collect = ph == PH_CSTART or ph == PH_CTURN or ph == PH_CEFFECT
    cpr = nrec / max(n, 1)
    # own turns after this one: turn t of a phase is the decider's, and so is every n-th turn after
    # it, in both phases (recruit and collect turns both run through the compass one seat at a
    # time), so (nrec - 1 - t) // n more this phase; then this round's collect turns when
    # recruiting, 2 x cpr per later round. (Not (turns left of everyone) / n - 1, which is short by
    # up to (n - 1) / n turn depending on the compass space.)
    t = np.int64(g[G_TURN])
    own_left = max(0.0, np.float64((nrec - 1 - t) // max(n, 1)) + (0.0 if collect else cpr)
                   + (2 - rd) * 2.0 * cpr)
    ncards = 0
    for c in range(5):
        ncards += g[base + P_NCOL + c]
    recruiting = 0 if collect else 1                 # the card being recruited is not in the tableau yet
    F[X_ME] = me
    F[X_BASE] = base
    F[X_ROUND] = rd
    F[X_RINC] = 3 - rd
    F[X_FINC] = np.float64(g[base + P_FINC])
    F[X_TL] = own_left / max(6.0 * cpr, 1.0)
    F[X_OWNLEFT] = own_left
    F[X_RECLEFT] = max(0.0, 3 * cpr - ncards - recruiting)
    F[X_NP] = n
    F[X_DOCKS] = 0.0
    F[X_DECAY] = min(1.0, own_left / F[FW + F_HORIZON])
    F[X_FAVDONE] = 0.0
    now = 0
    start = 0
    for r in range(3):
        now += _flags(T, r, g[base + P_MARK + r])
        k = np.int64(g[base + P_POSTS + r])
        start += _flags(T, r, T[TB + T[O_TRK] + 5 * r + k] if k > 0 else 0)
    F[X_NOWFLAGS] = now
    F[X_STARTFLAGS] = start
    for j in range(X_SV, X_BVANY + 1):
        F[j] = np.nan


@_kernel
def choose(m, legal, keys, counter, T, which, fws, out, F):
    """Writes out[g], the action of game g, decided by plan ``which[g]`` (its row of ``fws``);
    ``T`` = ``int_table(tables)``, ``F`` = ``scratch(A)``."""
    b, A = legal.shape
    S = T[C_S]
    A_CITY, A_TRACK, A_GOODS, A_ALT = 16, 21 + S, 24 + S, 88 + S
    oi = TB + T[O_ITEMS]
    prev = -1
    for i in range(b):
        g = m[i]
        lg = legal[i]
        w_row = which[i]
        if w_row != prev:
            for j in range(NF):
                F[FW + j] = fws[w_row, j]
            prev = w_row
        me = np.int64(g[G_DEC])
        _context(g, T, F, me)
        F[X_STAMP] = 8 * i                            # goods memo entries: one stamp per game and seat valued
        kind = g[G_KIND]
        lo = 0
        hi = A
        if kind == K_RECRUIT:
            lo, hi = 0, 16
            for a in range(16):
                F[VALS + a] = NEG
            draw = lg[0]
            top = VALS + A
            if F[FW + F_BLOCK] != 0.0:
                _open_values(g, T, F, top, lg)
            for c in range(5):
                opened = F[top + OPEN + c] if F[FW + F_BLOCK] != 0.0 else 0.0
                bc = NEG
                for s in range(3):
                    a = 1 + 3 * c + s
                    card = np.int64(g[G_OFFER + 3 * c + s])
                    if card >= 0 and (draw or lg[a]):
                        v = _card(g, T, F, card) + opened
                        F[VALS + a] = v
                        bc = max(bc, v)
                F[BESTC + c] = bc
            if draw:                                  # bag method: expected best of two tokens
                tot = 0
                for c in range(5):
                    tot += g[G_BAG + c]
                ev = 0.0
                if tot == 1:
                    for c in range(5):
                        if g[G_BAG + c] > 0:
                            ev = F[BESTC + c] if F[BESTC + c] > NEG else 0.0
                elif tot > 1:
                    for c1 in range(5):
                        b1 = g[G_BAG + c1]
                        if b1 == 0:
                            continue
                        for c2 in range(5):
                            b2 = g[G_BAG + c2] - (c1 == c2)
                            if b2 <= 0:
                                continue
                            bv = max(F[BESTC + c1], F[BESTC + c2])
                            ev += b1 * b2 * (bv if bv > NEG else 0.0)
                    ev /= tot * (tot - 1.0)
                F[VALS] = ev + F[FW + F_DRAW]
        elif kind == K_COLLECT:
            lo, hi = A_CITY, A_TRACK
            for a in range(lo, hi):
                F[VALS + a] = 0.0                     # back:c (EN-A20) and anything unscored
            look = F[FW + F_FORESIGHT] != 0.0 or F[FW + F_DENY] != 0.0
            if look:
                _seat_values(g, T, F, VALS + A, 8 * i)
            for xs in range(S):
                if lg[A_CITY + xs]:
                    F[VALS + A_CITY + xs] = F[VALS + A + OV + CITY_MAX * me + xs] if look else _space(g, T, F, xs)
            if look:
                _lookahead(g, T, F, VALS + A, lg, A_CITY)
        elif kind == K_TRACK:
            lo, hi = A_TRACK, A_TRACK + 3
            finc = F[X_FINC]
            card = np.int64(g[G_CARD])
            if g[G_CTX] == 0 and card >= 0 and g[G_LVL] == 0:
                finc += T[TB + T[O_CARD] + 10 * card + 2]   # a new adventurer counts its own steps
            w = g[G_WAIT]
            for r in range(3):
                v = NEG
                if lg[A_TRACK + r]:
                    if w == W_STEP:
                        n = 1 if T[C_SPLIT] else np.int64(g[G_STEPS])
                        v = _step(g, T, F, r, n, finc)
                    else:
                        v = _build(g, T, F, r, finc)
                F[VALS + A_TRACK + r] = v
        elif kind == K_GOODS:
            lo, hi = A_GOODS, A_GOODS + 64
            _docks(g, T, F)
            for a in range(64):
                v = NEG
                if lg[A_GOODS + a]:
                    v = 0.0
                    f, d, gl = a >> 4, (a >> 2) & 3, a & 3
                    if f > 0:
                        v += F[DV + f - 1]
                    if d > 0:
                        v += F[DV + 4 + d - 1]
                    if gl > 0:
                        v += F[DV + 8 + gl - 1]
                F[VALS + A_GOODS + a] = v
        elif kind == K_ALT:
            lo, hi = A_ALT, A_ALT + 2
            it = np.int64(g[G_ALT])
            rw, rm, rf, ra = g[G_RUN], g[G_RUN + 1], g[G_RUN + 2], g[G_RUN + 3]
            open_v = 0.0
            if rw + rm + rf + ra > 0:
                open_v = _goods(g, T, F, rw, rm, rf, ra)
            for side in range(2):
                o = oi + 6 * it + 3 * side
                op, arg, n = T[o], T[o + 1], T[o + 2]
                if op == OP_GOOD and g[G_LVL] == 0:
                    v = _goods(g, T, F, rw + n * (arg == 0), rm + n * (arg == 1), rf + n * (arg == 2),
                               ra + n * (arg < 0)) - open_v
                else:
                    v = _atom(g, T, F, op, arg, n)
                F[VALS + A_ALT + side] = v
        # argmax over legal actions of vals + 1e-9 * u (first index on equal scores)
        top = NEG
        for a in range(lo, hi):
            if lg[a] and F[VALS + a] > top:
                top = F[VALS + a]
        pick = -1
        bestscore = -np.inf
        base_c = np.int64(counter[i]) * 1024
        for a in range(lo, hi):
            if lg[a] and F[VALS + a] + 1e-9 >= top:
                sc = F[VALS + a] + 1e-9 * _uniform(np.uint64(keys[i]), base_c + a)
                if sc > bestscore:
                    bestscore = sc
                    pick = a
        if pick < 0:                                  # nothing scored (a game over): first legal
            pick = 0
            for a in range(A):
                if lg[a]:
                    pick = a
                    break
        out[i] = pick
