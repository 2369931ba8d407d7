"""Whole Recall games with lookahead (``rc_greedy``, ``lookahead``) and random seats in one compiled call.

``play_batch`` plays every game of a batch to its end (or to an engine stop), game by game, and
makes at each decision the choice the runner's loop would make with the Python strategies:

* a random seat: the legal action of rank ``floor(u x legal count)`` (``strategies.base.choose_uniform``);
* a lookahead seat (``strategies.generic.LookaheadStrategy``): the decider's observation
  (``kernel/sample.py``'s ``observe_row``), a state sampled from it with the key
  ``floor(u x 2**53)`` (``deal_into``: ``sample_row``, which ``GAME.sample_state`` runs, in place), every
  legal action tried on a copy (the last on the sample itself, which is not read again;
  ``kernel/flow.py``'s ``apply`` + ``advance``, the engine's own step), each result valued for the decider (``kernel/value.py``'s ``seat_value`` with the seat's
  weights), the best kept, ties broken by ``1e-9 x u_a`` as ``strategies.base.argmax_tiebreak``.

* a plan seat (``strategies.recall_plans``): the lookahead above with the plan's five rules
  (``_plan_values``; ``recall_plans._Plan._choose`` calls the same code per row through ``plan_tables``);
  at a ``goal`` decision (rule 4, which counts the goals on the scored end state) the game
  pauses: ``play_batch`` leaves it there with ``paused[b] = 1`` and the caller makes that one
  decision in Python (``strategies.recall.compiled_play``), then plays on.

``u``, ``u_a``: the seat's ``StrategyRng`` draws at the game's decision counter
(``uniform(key, 1024 x decisions + a)``; ``decisions`` in and out, per game). Seat kinds and
weights arrive as arrays per slot (``kinds``: 0 random, 1 lookahead, 2 plan; ``weights``
float64[slots, 11] in kernel/value.py's order); a plan's numbers too (``PlanTables``), none
computed from content here (numba would freeze them into its cache).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import flow
from sim.games.recall.kernel.common import C_FIFTH, C_NP
from sim.games.recall.kernel.explore import uniform
from sim.games.recall.kernel.flow import advance, apply, uniform_choice
from sim.games.recall.kernel.rows import copy_row
from sim.games.recall.kernel.sample import deal_into, observe_row, scratch_size
from sim.games.recall.kernel.value import seat_value

# every engine kernel module: apply/advance compile their callees into this file's code
kernel_cache.watch(__file__, st, *sorted(Path(flow.__file__).parent.glob("*.py")))

RANDOM, LOOKAHEAD, PLAN = 0, 1, 2
# ``plan_ints`` columns: the continuation's steps (rule 5), the first ``use:`` action, the
# abilities' count, ``opt:0``, how the tribes are drafted (rule 1: DRAFT_PAIRS RC-S33, DRAFT_ELEMENTS
# the custom draft RC-V2..V5, 0 none), Dorian's ability index (-1 none)
(PI_HORIZON, PI_USE0, PI_NAB, PI_OPT0, PI_DRAFT, PI_DORIAN, PI_N) = range(7)
DRAFT_PAIRS, DRAFT_ELEMENTS = 1, 2
STOPPED = -1e9                           # kernel/value.py's value of a stopped state
WASTED = STOPPED / 2                     # an activation that does nothing: below every real option


@njit(cache=True)
def _continued(tg, th, tlg, cg, ch, clg, bg, bh, blg, me, n, w, vt, u0, horizon, C, tab, atoms):
    """Rule 5 of strategies/recall_plans.py for one trial (``tg``, ``th``, ``tlg``, played on in place):
    up to ``horizon`` greedy steps of seat ``me`` while it decides its own turn and the kind is not a
    stop kind; each step the legal action of best value + 1e-9 x ((u0 x 7919 + 0.618.. x (a + 1) x
    (step + 1)) mod 1), the first of equal scores (np.argmax). Returns the value at the end.
    ``cg``..``blg``: scratch rows; the best trial's result is kept (the engine is deterministic, so it
    is the state the pick leads to) instead of playing the pick again."""
    A = tlg.shape[0]
    for step in range(horizon):
        k = tg[st.G_KIND]
        if (k < 0 or k == st.K_MAIN or k == st.K_PATH or k == st.K_GOAL or k == st.K_DRAFT
                or k == st.K_START_FIELD or k == st.K_STOP or tg[st.G_DEC] != me or tg[st.G_ACTIVE] != me):
            break
        best = -np.inf
        pick = -1
        for x in range(A):
            if not tlg[x]:
                continue
            copy_row(cg, tg)
            copy_row(ch, th)
            apply(cg, ch, C, tab, atoms, x)
            advance(cg, ch, clg, C, tab, atoms)
            v = seat_value(cg, ch, me, n, w, vt)
            tie = (u0 * 7919.0 + 0.6180339887 * (x + 1) * (step + 1)) % 1.0
            score = v + 1e-9 * tie
            if score > best or pick < 0:
                best = score
                pick = x
                cg, bg = bg, cg                             # keep this result: swap the scratch rows
                ch, bh = bh, ch
                clg, blg = blg, clg
        if pick < 0:                                        # no legal action (advance never stops so): as before
            apply(tg, th, C, tab, atoms, pick)
            advance(tg, th, tlg, C, tab, atoms)
            continue
        copy_row(tg, bg)
        copy_row(th, bh)
        copy_row(tlg, blg)
    return seat_value(tg, th, me, n, w, vt)


@njit(cache=True)
def _last_legal(lg):
    """The last legal action's index (-1 none): after its trial the sampled rows are not read again."""
    for x in range(lg.shape[0] - 1, -1, -1):
        if lg[x]:
            return x
    return -1


@njit(cache=True)
def _bits(x):
    c = 0
    while x > 0:
        c += x & 1
        x >>= 1
    return c


@njit(cache=True)
def goal_progress(g, h, me, gk, gn, gi):
    """``recall_plans`` Param ``goal``'s term without the Param: goal points x count / n (at most 1) of
    the best goal card seat ``me`` holds (``h``'s goal cards), by cheap counts of row ``g``
    (camps: the camp rewards received). ``gk``/``gn``: kind index and n per goal card;
    ``gi``: (goal points, 1 when stones count in total, map slots)."""
    base = st.SEAT0 + me * st.SW
    count = np.zeros(11, np.int64)              # content_types.GOAL_KINDS order
    for c in range(4):
        a = g[base + st.P_ARTS + c]
        count[0] = max(count[0], a) if c else a
        count[1] += a > 0
    total, most = 0, 0
    for c in range(3):
        x = g[base + st.P_STONES + c]
        count[2] += x > 0
        total += x
        most = max(most, x) if c else x
    count[3] = total if gi[1] else most
    for j in range(6):
        count[4] += g[base + st.P_UPG + j] >= 0
        count[7] += g[base + st.P_SLOT + j] >= 0
    count[5] = _bits(g[base + st.P_SANCT])
    count[6] = g[base + st.P_MON]
    for k in range(st.K_MAX):
        count[7] += g[base + st.P_AVAIL + k]
    for t in range(3):
        count[8] += g[base + st.P_UNLOCK + t]
    count[9] = _bits(g[base + st.P_CAMPS])
    for k in range(gi[2]):
        built = False
        for i in range(7):
            built = built or g[base + st.P_BLD + 7 * k + i] > 0
        count[10] += built
    got = 0.0
    for j in range(3):
        card = h[st.H_GOALS + 3 * me + j]
        progress = min(count[gk[max(card, 0)]] / gn[max(card, 0)], 1.0) if card >= 0 else 0.0
        got = max(got, progress) if j else progress
    return gi[0] * got


@njit(cache=True)
def goal_progress_rows(m, hidden, players, gk, gn, gi):
    """float[B]: ``goal_progress`` per row (``recall_plans._Plan._goal_progress``)."""
    out = np.zeros(m.shape[0])
    for b in range(m.shape[0]):
        out[b] = goal_progress(m[b], hidden[b], players[b], gk, gn, gi)
    return out


@njit(cache=True)
def _element_bonus(og, opt0, tribe_v, item_v, bonus):
    """Rule 1 for the custom draft (RC-V2..V5: ``opt:i`` tribe i, ``opt:5+i`` item i, one element a
    pick): an element is worth its table value plus what taking it now saves, its lead over the
    best other element of its kind left (the one it would be replaced by if a later seat took it),
    so the first pass takes the kind whose best is scarcest."""
    for kind in range(2):
        col = st.G_TRIBE_DISP if kind == 0 else st.G_ITEM_DISP
        table = tribe_v if kind == 0 else item_v
        for i in range(5):
            x = og[col + i]
            if x < 0:
                continue
            rest = -np.inf
            for j in range(5):
                y = og[col + j]
                if j != i and y >= 0:
                    rest = max(rest, table[y])
            lead = table[x] - rest if rest > -np.inf else 0.0
            bonus[opt0 + 5 * kind + i] = table[x] + max(lead, 0.0)


@njit(cache=True)
def _old_tribe_value(og, t, tribe_v):
    """The plan's draft value of track t's old tribe as the viewer knows it (RC-A68): ``tribe_v`` of
    it when visible (revealed, or ``known_old_tribes`` RC-V6), else the mean over the tribes it may
    be (no seat's tribe, no visible old tribe)."""
    x = og[st.G_OLD_TRIBE + t]
    if x >= 0:
        return tribe_v[x]
    s, c = 0.0, 0
    for y in range(tribe_v.shape[0] - 1):
        taken = False
        for p in range(og[st.G_NP]):
            taken = taken or og[st.SEAT0 + p * st.SW + st.P_TRIBE] == y
        for k in range(3):
            taken = taken or og[st.G_OLD_TRIBE + k] == y
        if not taken:
            s += tribe_v[y]
            c += 1
    return s / c if c else 0.0


@njit(cache=True)
def _unlock_value(og, sg, tg, own, tribe_v, fifth):
    """Rule 6 (RC-S36, RC-R169, RC-V6/V7): the steps a trial makes towards a track's fifth space,
    where its old tribe is unlocked, are worth that tribe's value (``_old_tribe_value``) x steps /
    ``fifth``; so the track choice follows the old tribes the player knows."""
    total = 0.0
    for t in range(3):
        if sg[own + st.P_UNLOCK + t] != 0:
            continue
        before = min(max(sg[own + st.P_TRK + t], 0), fifth)
        after = min(max(tg[own + st.P_TRK + t], 0), fifth)
        if after > before:
            total += _old_tribe_value(og, t, tribe_v) * (after - before) / fifth
    return total


@njit(cache=True)
def _plan_values(og, sg, sh, slg, tg, th, tlg, cg, ch, clg, bg, bh, blg, me, n, u0, w, vt, C, tab, atoms,
                 ints, pf, tribe_v, item_v, path_v, event_bound, fixed_cost, gk, gn, gi, out):
    """The plan's value of each legal action into ``out`` (-inf where illegal): ``og`` the observation's
    row, ``sg``/``sh``/``slg`` the state sampled from it; every legal action tried and valued (after
    the continuation for the plan kinds and activations, rule 5; Param ``goal``'s progress term at
    the end), the activation bonus (rule 2) and rules 1-3 added. ``pf``: (ability, goal). Rule 4
    (a goal decision's discard) is added by the caller (``recall_plans._Plan._goal_bonus``). A Dorian
    activation that places no pig farm (no grain field fits, RC-R210: the ability does nothing but
    its cost is paid) is wasted: ``WASTED``, below every real option (the continuation after it, rule 5,
    would otherwise let it tie with or beat the options it only postpones)."""
    A = slg.shape[0]
    kind = og[st.G_KIND]
    horizon, use0, n_ab, opt0 = ints[PI_HORIZON], ints[PI_USE0], ints[PI_NAB], ints[PI_OPT0]
    ability, goal = pf[0], pf[1]
    plan_kind = kind == st.K_MAIN or kind == st.K_DEV or kind == st.K_DEV_FIELD or kind == st.K_UNITS
    # rule 2's reserve: the cheapest owned event-bound ability's cost (RC-R65), 0 when none
    own = st.SEAT0 + me * st.SW
    reserve = 1 << 20
    for i in range(n_ab):
        if og[own + st.P_OWN + i] > 0 and event_bound[i] != 0:
            cost = 1 if fixed_cost[i] != 0 else 1 + og[own + st.P_USES + i]
            reserve = min(reserve, cost)
    if reserve == 1 << 20:
        reserve = 0
    # rules 1-3's bonus per option (rows of other kinds: none)
    bonus = np.zeros(A)
    if kind == st.K_DRAFT and ints[PI_DRAFT] == DRAFT_PAIRS:
        for i in range(5):
            bonus[opt0 + i] = tribe_v[og[st.G_TRIBE_DISP + i]] + item_v[og[st.G_ITEM_DISP + i]]
    elif kind == st.K_DRAFT and ints[PI_DRAFT] == DRAFT_ELEMENTS:
        _element_bonus(og, opt0, tribe_v, item_v, bonus)
    elif kind == st.K_ITEM:
        track = og[st.G_KTRACK]
        j = 0
        for i in range(4):
            x = og[st.G_OLD_ITEMS + 4 * track + i]
            if x >= 0:
                bonus[opt0 + j] = item_v[x]
                j += 1
    elif kind == st.K_PATH:
        sector = 0
        for i in range(3):
            sector += sg[own + st.P_PATHS + i] >= 0
        for i in range(2):
            bonus[opt0 + i] = path_v[og[st.G_PATH + 2 * sector + i]]
    for x in range(A):
        out[x] = -np.inf
        if not slg[x]:
            continue
        copy_row(tg, sg)
        copy_row(th, sh)
        apply(tg, th, C, tab, atoms, x)
        advance(tg, th, tlg, C, tab, atoms)
        left = tg[own + st.P_SKILL]
        v = seat_value(tg, th, me, n, w, vt)
        activation = (x >= use0 and x < use0 + n_ab) or x == A - 1
        if horizon > 0 and (plan_kind or activation) and v > STOPPED:
            v = _continued(tg, th, tlg, cg, ch, clg, bg, bh, blg, me, n, w, vt, u0, horizon, C, tab, atoms)
        if v > STOPPED:
            v = v + _unlock_value(og, sg, tg, own, tribe_v, C[C_FIFTH])
        if goal != 0.0 and v > STOPPED:             # after the continuation, or of the one step
            v = v + goal * goal_progress(tg, th, me, gk, gn, gi)
        if activation and v > STOPPED:
            ab = x - use0
            event = ab < n_ab and event_bound[min(max(ab, 0), n_ab - 1)] != 0      # as np.clip there
            wasted = ab == ints[PI_DORIAN] and tg[st.G_FARMS] == sg[st.G_FARMS] and tg[st.G_KIND] != st.K_ABILITY_FIELD
            v = v + (ability if event or left >= reserve else -ability)
            if wasted:                              # the continuation's edge would still choose it
                v = WASTED
        out[x] = v + bonus[x]


@njit(cache=True)
def plan_tables(om, sm, shid, slegal, players, u0, which, weights, plan_ints, plan_f, tribe_v, item_v, path_v,
                event_bound, fixed_cost, gk, gn, gi, C, tab, atoms, vt):
    """float[B, A]: ``_plan_values`` of each row (observation ``om[b]``, sampled state ``sm``/``shid``/
    ``slegal``, decider ``players[b]``, the plan of member ``which[b]``): the step-by-step path
    (``recall_plans._Plan._choose``) calls the kernel's own rules."""
    B, W = om.shape
    A = slegal.shape[1]
    n = C[C_NP]
    tg = np.empty(W, np.int32)
    cg = np.empty(W, np.int32)
    bg = np.empty(W, np.int32)
    th = np.empty(shid.shape[1], np.int32)
    ch = np.empty(shid.shape[1], np.int32)
    bh = np.empty(shid.shape[1], np.int32)
    tlg = np.zeros(A, np.bool_)
    clg = np.zeros(A, np.bool_)
    blg = np.zeros(A, np.bool_)
    out = np.empty((B, A))
    for b in range(B):
        k = which[b]
        _plan_values(om[b], sm[b], shid[b], slegal[b], tg, th, tlg, cg, ch, clg, bg, bh, blg, players[b], n, u0[b],
                     weights[k], vt,
                     C, tab, atoms, plan_ints[k], plan_f[k], tribe_v[k], item_v[k], path_v[k], event_bound, fixed_cost,
                     gk, gn, gi, out[b])
    return out


@njit(cache=True)
def play_batch(m, hidden, legal, C, tab, atoms, keys, n_strategies, kinds, weights, vt, stab, n_slots,
               decisions, active, plan_ints, plan_f, tribe_v, item_v, path_v, event_bound, fixed_cost, gk, gn, gi, span,
               counts):
    """Every ``active`` game of the batch to its end or to a plan's ``goal`` decision (module doc),
    in place; ``decisions`` counted on; returns int64[B], 1 where a game paused at a plan's goal.
    ``counts`` int64[B, slots, 2, abilities + 1] (or of length 0: not counted) adds up per game and
    slot the activations chosen ([.., 0, a]: ``use:a``, last ``ring``) and the decisions where each
    was legal ([.., 1, a]), as analyses/recall_plans.py counts them; ``span`` = (first ``use:``, abilities)."""
    B, W = m.shape
    A = legal.shape[1]
    n = C[C_NP]
    og = np.empty(W, np.int32)
    sg = np.empty(W, np.int32)
    tg = np.empty(W, np.int32)
    cg = np.empty(W, np.int32)
    bg = np.empty(W, np.int32)
    sh = np.empty(hidden.shape[1], np.int32)
    th = np.empty(hidden.shape[1], np.int32)
    ch = np.empty(hidden.shape[1], np.int32)
    bh = np.empty(hidden.shape[1], np.int32)
    slg = np.zeros(A, np.bool_)
    tlg = np.zeros(A, np.bool_)
    clg = np.zeros(A, np.bool_)
    blg = np.zeros(A, np.bool_)
    seat_chests = np.zeros(st.MAXP, np.int64)
    goals = np.zeros(3, np.int64)
    goal_n = np.zeros(st.MAXP, np.int64)
    paused = np.zeros(B, np.int64)
    values = np.empty(A)
    work = np.empty(scratch_size(stab), np.int64)         # the deal's scratch, once per batch
    for b in range(B):
        if not active[b]:
            continue
        g, h, lg = m[b], hidden[b], legal[b]
        d = decisions[b]
        while g[st.G_KIND] != st.K_DONE and g[st.G_KIND] != st.K_STOP:
            me = g[st.G_DEC]
            slot = (g[st.G_START_SLOT] + max(me, 0)) % n
            a = 0
            if slot < n_strategies:
                key = keys[slot, b]
                base = d * 1024
                if kinds[slot] == RANDOM:
                    a = uniform_choice(lg, uniform(key, base))
                elif kinds[slot] == PLAN:
                    if g[st.G_KIND] == st.K_GOAL:
                        paused[b] = 1
                        break
                    skey = np.uint64(uniform(key, base) * 9007199254740992.0)
                    observe_row(g, h, me, n_slots, og, seat_chests, goals, goal_n)
                    copy_row(sg, og)
                    deal_into(sg, lg, seat_chests, goals, goal_n, me, skey, sh, slg, stab, work)
                    _plan_values(og, sg, sh, slg, tg, th, tlg, cg, ch, clg, bg, bh, blg, me, n, uniform(key, base),
                                 weights[slot],
                                 vt, C, tab, atoms, plan_ints[slot], plan_f[slot], tribe_v[slot], item_v[slot],
                                 path_v[slot], event_bound, fixed_cost, gk, gn, gi, values)
                    best = -np.inf
                    for x in range(A):                   # strategies.base.argmax_tiebreak, non-finite as 0
                        if not slg[x]:
                            continue
                        v = values[x] if np.isfinite(values[x]) else 0.0
                        score = v + 1e-9 * uniform(key, base + x)
                        if score > best:
                            best = score
                            a = x
                else:
                    skey = np.uint64(uniform(key, base) * 9007199254740992.0)
                    observe_row(g, h, me, n_slots, sg, seat_chests, goals, goal_n)
                    deal_into(sg, lg, seat_chests, goals, goal_n, me, skey, sh, slg, stab, work)   # sample_row in place
                    w = weights[slot]
                    best = -np.inf
                    last = _last_legal(lg)
                    for x in range(A):
                        if not lg[x]:
                            continue
                        tx, hx = sg, sh                  # the last trial steps the sample itself: no copy
                        if x != last:
                            copy_row(tg, sg)
                            copy_row(th, sh)
                            tx, hx = tg, th
                        apply(tx, hx, C, tab, atoms, x)
                        advance(tx, hx, tlg, C, tab, atoms)
                        v = seat_value(tx, hx, me, n, w, vt)
                        if not np.isfinite(v):
                            v = 0.0
                        score = v + 1e-9 * uniform(key, base + x)
                        if score > best:
                            best = score
                            a = x
            if counts.shape[0] > 0 and slot < n_strategies:
                use0, n_ab = span[0], span[1]
                for i in range(n_ab):
                    counts[b, slot, 1, i] += lg[use0 + i]
                counts[b, slot, 1, n_ab] += lg[A - 1]
                if a == A - 1:
                    counts[b, slot, 0, n_ab] += 1
                elif a >= use0 and a < use0 + n_ab:
                    counts[b, slot, 0, a - use0] += 1
            apply(g, h, C, tab, atoms, a)
            advance(g, h, lg, C, tab, atoms)
            d += 1
        decisions[b] = d
    return paused
