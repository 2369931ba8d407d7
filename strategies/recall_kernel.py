"""Whole Recall games with lookahead (``rc_greedy``, ``lookahead``) and random seats in one compiled call.

``play_batch`` plays every game of a batch to its end (or to an engine stop), game by game, and
makes at each decision the choice the runner's loop would make with the Python strategies:

* a random seat: the legal action of rank ``floor(u x legal count)`` (``strategies.base.choose_uniform``);
* a lookahead seat (``strategies.generic.LookaheadStrategy``, ``rc_greedy``): the decider's observation
  (``kernel/sample.py``'s ``observe_row``), a state sampled from it with the key
  ``floor(u x 2**53)`` (``deal_into``: ``sample_row``, which ``GAME.sample_state`` runs, in place), every
  legal action tried on a copy (the last on the sample itself, which is not read again;
  ``kernel/flow.py``'s ``apply`` + ``advance``, the engine's own step), each result valued for the decider (``kernel/value.py``'s ``seat_value`` with the seat's
  weights), the best kept, ties broken by ``1e-9 x u_a`` as ``strategies.base.argmax_tiebreak``;
  at a decision kind of the seat's ``untried_at`` row (``rc_greedy``'s ``uniform_kinds`` and
  ``resolve_kinds``) no sample and no trial: a draw, ``untried_choice``, as ``strategies.recall.Greedy._choose``.

* a plan seat (``strategies.recall_plans``): the lookahead above with the plan's rules
  (``_plan_values``; ``recall_plans._Plan._choose`` calls the same code per row through ``plan_tables``);
  rule 9, at a kind of its ``untried_at`` row (``resolve_kinds``), keeps the best of the decision's own options.

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
from sim.games.recall.content_types import GOAL_KINDS
from sim.games.recall.kernel import flow
from sim.games.recall.kernel.common import (A_END, C_EXC_TERR, C_FIFTH, C_LEX, C_NMON, C_NP, C_NSANCT, C_NYELLOW, C_O_COUNT, C_O_OPT, C_O_USE, C_T_FSLOT, C_T_NEIGH,
                                            C_T_MONCOST, C_T_TBLD, C_T_TKEY, C_T_TMOVE, payable)
from sim.games.recall.kernel.dev import (DEV_EXCAVATE, DEV_MONUMENT, DEV_SANCT, DEV_WORKSHOP, dev_field_ok, follower_cost,
                                         next_camp)
from sim.games.recall.kernel.gains import in_offer
from sim.games.recall.kernel.movement import can_enter, face_up
from sim.games.recall.kernel.explore import uniform
from sim.games.recall.kernel.flow import advance, apply, uniform_choice
from sim.games.recall.kernel.rows import copy_row
from sim.games.recall.kernel.sample import deal_into, observe_row, scratch_size
from sim.games.recall.kernel.value import V_DIV, seat_value

# every engine kernel module: apply/advance compile their callees into this file's code
kernel_cache.watch(__file__, st, *sorted(Path(flow.__file__).parent.glob("*.py")))

RANDOM, LOOKAHEAD, PLAN = 0, 1, 2
TRIED, UNIFORM, RESOLVE = 0, 1, 2        # ``untried_choice``'s codes (``untried_at``; strategies.recall.Greedy.untried)
# ``plan_ints`` columns: the continuation's steps (rule 5), the first ``use:`` action, the
# abilities' count, ``opt:0``, how the tribes are drafted (rule 1: DRAFT_PAIRS RC-S33, DRAFT_ELEMENTS
# the custom draft RC-V2..V5, 0 none), Dorian's ability index (-1 none)
(PI_HORIZON, PI_USE0, PI_NAB, PI_OPT0, PI_DRAFT, PI_DORIAN, PI_N) = range(7)
DRAFT_PAIRS, DRAFT_ELEMENTS = 1, 2
# ``gi`` of ``recall_plans.goal_tables``: goal points (solo: RC-V13's), 1 when the stones goal counts
# them in total (RC-A58), map slots, rounds of the game, 1 in solo, the round of the decision being
# valued (set per decision by ``_plan_values`` in solo for rule 8; -1: each row's own round)
(GI_POINTS, GI_TOTAL, GI_SLOTS, GI_ROUNDS, GI_SOLO, GI_ROOT, GI_N) = range(7)
# rule 8's Params at the end of a plan's ``goal_v`` (after the rates, the steps and the monument share, 2G + ...)
# then rule 8's steps per card (``solo_steps``) from 2G + GV_N
(GV_SOLO, GV_SOLO_RATE, GV_SOLO_FLOOR, GV_REACH, GV_DECAY, GV_N) = (1, 2, 3, 4, 5, 6)
# goal kinds (content_types.GOAL_KINDS order, the ``count`` of ``goal_counts_row``) that rule 4's steps read
(GK_SANCT, GK_MON, GK_KEYS, GK_OLD, GK_CAMPS, GK_AREAS) = (
    GOAL_KINDS.index(k) for k in ("sanctuaries", "monuments", "key_cards", "old_tribes", "camps", "area_tiles"))
(GK_ART1, GK_ARTS, GK_STONE3, GK_STONES) = (
    GOAL_KINDS.index(k) for k in ("artifacts_one_colour", "artifact_colours", "stone_colours", "stones"))
STOPPED = -1e9                           # kernel/value.py's value of a stopped state
WASTED = STOPPED / 2                     # an activation that changes nothing: below every real option
NO_KIND = -99                            # ``_continued``'s ``until`` when it stops only at its own kinds
EXCHANGE = 1e-6                          # rule 7: per follower traded at field A; above the 1e-9 tie-break, below real gains


@njit(cache=True)
def _trade_bonus(g, me, x, w, C, vt):
    """Rule 7 of strategies/recall_plans.py for action ``x`` at seat ``me``'s decision in ``g``: field
    A's trades (RC-R24 buy, RC-R25 sell) are worth nothing to the value (a follower and a white
    crystal weigh the same), so each follower traded costs ``EXCHANGE`` and a tie stops (``end``,
    the smallest count; a sale is valued once closed, ``_closed_sale``): no followers bought to be
    sold in the same turn. A crystal upgrade (``crystal``: RC-R72, RC-R114, RC-R229) adds a
    white-crystal equivalent, ``final`` / 3 of a leftover point (RC-E26..E28) that rounding down
    hides, so it beats ``end``; to a holder of Lexander's permanent effect a purple crystal also
    returns 1 point and 1 white crystal when paid (RC-R230), worth ``final`` + ``crystals`` more."""
    k = g[st.G_KIND]
    if k == st.K_BUY or k == st.K_SELL:
        return -EXCHANGE if x != A_END else 0.0
    if k == st.K_SELL_COUNT:
        return -EXCHANGE * (x - C[C_O_COUNT] + 1)
    if k == st.K_CRYSTAL and x != A_END:
        v = w[0] / vt[0][V_DIV]
        lex = C[C_LEX]
        if x == C[C_O_OPT] + 1 and lex >= 0 and g[st.SEAT0 + me * st.SW + st.P_OWN + lex] == 1:
            v += w[0] + w[2]
        return v
    return 0.0


@njit(cache=True)
def _closed_sale(tg, th, tlg, cg, ch, clg, me, n, w, vt, goal, gk, gn, gi, rate, C, tab, atoms):
    """Rule 7: the value of a trial of field A's sale (RC-R25) once the sale is closed: at ``sell``
    after ``end``, at ``sell_count`` the best count, each then closed (less ``EXCHANGE`` per follower
    sold). A trial still inside the loop does not reach the turn's end, whose crystal cap (RC-R73)
    and round's end the trial of ``end`` sees, so one more sale always looked better than stopping.
    ``tg``/``th``/``tlg`` are played on in place; ``cg``/``ch``/``clg`` are scratch rows."""
    k = tg[st.G_KIND]
    if k == st.K_SELL and tg[st.G_DEC] == me:
        apply(tg, th, C, tab, atoms, A_END)
        advance(tg, th, tlg, C, tab, atoms)
    elif k == st.K_SELL_COUNT and tg[st.G_DEC] == me:
        best = -np.inf
        for x in range(tlg.shape[0]):
            if not tlg[x]:
                continue
            copy_row(cg, tg)
            copy_row(ch, th)
            apply(cg, ch, C, tab, atoms, x)
            advance(cg, ch, clg, C, tab, atoms)
            if cg[st.G_KIND] == st.K_SELL and cg[st.G_DEC] == me:
                apply(cg, ch, C, tab, atoms, A_END)
                advance(cg, ch, clg, C, tab, atoms)
            v = _valued(cg, ch, me, n, w, vt, goal, gk, gn, gi, rate, C, tab)
            best = max(best, v - EXCHANGE * (x - C[C_O_COUNT] + 1))
        return best
    return _valued(tg, th, me, n, w, vt, goal, gk, gn, gi, rate, C, tab)


@njit(cache=True)
def _continued(tg, th, tlg, cg, ch, clg, bg, bh, blg, me, n, w, vt, u0, horizon, C, tab, atoms, goal, gk, gn, gi,
               rate, until, phase):
    """Rule 5 of strategies/recall_plans.py for one trial (``tg``, ``th``, ``tlg``, played on in place):
    up to ``horizon`` greedy steps of seat ``me`` while it decides its own turn and the kind is not a
    stop kind; each step the legal action of best value + 1e-9 x ((u0 x 7919 + 0.618.. x (a + 1) x
    (step + 1)) mod 1), the first of equal scores (np.argmax); a value is ``_valued``'s (with the goal
    cards' chance, rule 4). Stops also where the kind is ``until`` or the phase ``phase`` (``NO_KIND``:
    never). Returns
    (the value at the end, the steps taken).
    ``cg``..``blg``: scratch rows; the best trial's result is kept (the engine is deterministic, so it
    is the state the pick leads to) instead of playing the pick again."""
    A = tlg.shape[0]
    for step in range(horizon):
        k = tg[st.G_KIND]
        if (k < 0 or k == st.K_MAIN or k == st.K_PATH or k == st.K_GOAL or k == st.K_DRAFT
                or k == st.K_START_FIELD or k == st.K_STOP or k == until or tg[st.G_PHASE] == phase
                or tg[st.G_DEC] != me or tg[st.G_ACTIVE] != me):
            return _valued(tg, th, me, n, w, vt, goal, gk, gn, gi, rate, C, tab), step
        best = -np.inf
        pick = -1
        for x in range(A):
            if not tlg[x]:
                continue
            copy_row(cg, tg)
            copy_row(ch, th)
            apply(cg, ch, C, tab, atoms, x)
            advance(cg, ch, clg, C, tab, atoms)
            v = _valued(cg, ch, me, n, w, vt, goal, gk, gn, gi, rate, C, tab)
            tie = (u0 * 7919.0 + 0.6180339887 * (x + 1) * (step + 1)) % 1.0
            score = v + _trade_bonus(tg, me, x, w, C, vt) + 1e-9 * tie
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
    return _valued(tg, th, me, n, w, vt, goal, gk, gn, gi, rate, C, tab), horizon


@njit(cache=True)
def _valued(g, h, me, n, w, vt, goal, gk, gn, gi, rate, C, tab):
    """A plan's value of a position: ``seat_value`` plus ``goal`` x the goal cards' chance (rule 4,
    ``goal_chance``); a stopped position stays ``STOPPED``."""
    v = seat_value(g, h, me, n, w, vt)
    if (goal != 0.0 or gi[GI_SOLO]) and v > STOPPED:
        v = v + goal_value(g, h, me, goal, gk, gn, gi, rate, C, tab)
    return v


@njit(cache=True)
def _no_effect(sg, tg, own, ab, n_ab):
    """Whether a trial ``tg`` (where the activation is resolved) leaves seat ``own``'s position as in ``sg``
    but for an activation's cost (stones from the skill field, RC-R61..R64, and the counts of
    ability ``ab``'s uses; ``ab`` = ``n_ab`` for a ring): its seat block, the pieces it has on the
    board outside it (pigs and pig farms, RC-R210) and the turn's items still to resolve unchanged."""
    if tg[st.G_PEND_N] != sg[st.G_PEND_N]:
        return False
    for c in range(st.SW):
        if c == st.P_SKILL or c == st.P_PLACED:
            continue
        if ab < n_ab and (c == st.P_USES + ab or c == st.P_ACTS + ab):
            continue
        if tg[own + c] != sg[own + c]:
            return False
    for c in range(st.F_PIGS_ON, st.G_FARMS + 1):
        if tg[c] != sg[c]:
            return False
    return True


@njit(cache=True)
def _own(x, free0):
    """Whether action ``x`` is an option of the decision itself: not ``end``, not a free action
    (``use:``, ``chest:``, ``ring``: from ``free0``, the first ``use:``)."""
    return x != A_END and x < free0


@njit(cache=True)
def _any_own(lg, free0):
    """Whether an option of the decision itself (``_own``) is legal."""
    for x in range(1, free0):
        if lg[x]:
            return True
    return False


@njit(cache=True)
def untried_choice(lg, key, base, code, free0):
    """rc_greedy's choice without a trial (``strategies.recall.Greedy._choose``), -1 to try: at
    ``code`` UNIFORM (its ``uniform_kinds``) the legal action of the largest draw ``uniform(key,
    base + a)`` (``argmax_tiebreak`` of equal values); at RESOLVE (its ``resolve_kinds``) the same
    draw among the decision's own options (``_own``), -1 when none is legal; at TRIED -1."""
    if code == TRIED:
        return -1
    a = -1
    best = -np.inf
    for x in range(lg.shape[0]):
        if lg[x] and (code == UNIFORM or _own(x, free0)):
            score = 1e-9 * uniform(key, base + x)
            if score > best:
                best = score
                a = x
    return a


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
def goal_counts_row(g, me, gi, count):
    """What each goal kind counts for seat ``me`` in row ``g`` into ``count`` (int64[11],
    content_types.GOAL_KINDS order), by cheap counts of the row: ``scoring.goal_counts`` but camps as
    the camp rewards received and monuments as those built (the scoring counts the camps next to own
    buildings and the monument tiles too, nearly the same). ``gi``: ``recall_plans.goal_tables``."""
    base = st.SEAT0 + me * st.SW
    count[:] = 0
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
    count[3] = total if gi[GI_TOTAL] else most
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
    for k in range(gi[GI_SLOTS]):
        built = False
        for i in range(7):
            built = built or g[base + st.P_BLD + 7 * k + i] > 0
        count[10] += built


@njit(cache=True)
def _at_least(m, lam):
    """P(X >= m) for X Poisson(``lam``): the chance of gaining ``m`` more components when ``lam`` are
    expected; 1 when nothing is missing."""
    if m <= 0:
        return 1.0
    term = np.exp(-lam)
    below = term
    for k in range(1, m):
        term *= lam / k
        below += term
    return max(1.0 - below, 0.0)


@njit(cache=True)
def _buildable(g, me, f, C, tab):
    """Whether seat ``me`` could build on field ``f`` now with one development action: an own follower
    there, the terrain's building not built there yet, its crystals and followers payable
    (``dev.dev_field_ok`` for a sanctuary, workshop or monument, RC-R116..R139)."""
    for t in range(DEV_SANCT, DEV_MONUMENT + 1):
        if dev_field_ok(g, me, t, f, C, tab):
            return True
    return False


@njit(cache=True)
def _key_offered(g, f, C, tab):
    """Whether a workshop on field ``f`` would bring a key card: the terrain's colour (RC-R133: grain
    yellow, forest green, mountain grey) still has a card in the offer (RC-R136, RC-A26)."""
    colour = tab[C[C_T_TKEY] + g[st.F_TERR + f]]
    for i in range(max(C[C_NYELLOW], 3)):
        if in_offer(g, C, colour, i):
            return True
    return False


@njit(cache=True)
def _monument_half(g, me, C, tab, half):
    """The monument step when no monument is one development action away: ``half`` (Param
    ``monument_precondition``, 0.5 by default) for each of its two preconditions in place, an own
    follower on a free monument field with the follower cost there (RC-R137, RC-R139), the next
    monument's crystals payable (RC-R138, RC-A22); 0 when all are built."""
    base = st.SEAT0 + me * st.SW
    k = g[base + st.P_MON]
    if k >= C[C_NMON]:
        return 0.0
    x = C[C_T_MONCOST] + 3 * k
    share = half if payable(g, me, C, tab[x], tab[x + 1], tab[x + 2]) else 0.0
    for f in range(g[st.G_NF]):
        n = g[base + st.P_FOL + f]
        if (n > 0 and tab[C[C_T_TBLD] + g[st.F_TERR + f]] == DEV_MONUMENT and g[base + st.P_BLD + f] == 0
                and follower_cost(g, me, DEV_MONUMENT, f) <= n):
            return share + half
    return share


@njit(cache=True)
def _wanted_artifact(g, base, kind, c):
    """Whether an artifact of colour ``c`` brings seat block ``base`` nearer a card of ``kind``: one of
    the colours it has most of (RC-E30, RC-E31), or a colour it has none of (RC-E32, RC-E33)."""
    have = g[base + st.P_ARTS + c]
    if kind == GK_ARTS:
        return have == 0
    for x in range(4):
        if g[base + st.P_ARTS + x] > have:
            return False
    return True


@njit(cache=True)
def _one_step_away(g, me, kind, C, tab):
    """Rule 8's steps for the resource cards: an artifact of a wanted colour (``_wanted_artifact``) on a
    field next to an own group that may enter it (``movement.can_enter``: the group pays its cost,
    RC-R99..R102), so one move picks it up; a skill stone (RC-R151: an own follower on an excavation
    site with stones, its crystal payable, ``dev.dev_field_ok``), for ``stone_colours`` (RC-E34) of a
    colour the seat has none of."""
    base = st.SEAT0 + me * st.SW
    for f in range(g[st.G_NF]):
        n = g[base + st.P_FOL + f]
        if n <= 0:
            continue
        if kind == GK_STONE3 or kind == GK_STONES:
            if g[st.F_TERR + f] != C[C_EXC_TERR] or not dev_field_ok(g, me, DEV_EXCAVATE, f, C, tab):
                continue
            if kind == GK_STONES:
                return True
            for c in range(3):
                if g[st.F_SITE + 3 * f + c] > 0 and g[base + st.P_STONES + c] == 0:
                    return True
        else:
            for d in range(6):
                x = tab[C[C_T_NEIGH] + 6 * f + d]
                if x >= 0 and _target(g, me, kind, x, C, tab) and can_enter(g, me, x, n, C, tab):
                    return True
    return False


@njit(cache=True)
def _target(g, me, kind, f, C, tab):
    """Whether field ``f`` is where seat ``me`` gains the next component of ``kind`` (rule 8's distance):
    a free site of its own building type (no own building there; sanctuaries and monuments while one is
    left to build, a workshop while its terrain's key colour is in the offer), an excavation site with
    stones (``stone_colours``: one of a colour the seat lacks), a wanted artifact (``_wanted_artifact``)."""
    base = st.SEAT0 + me * st.SW
    terr = g[st.F_TERR + f]
    if kind == GK_ART1 or kind == GK_ARTS:
        return g[st.F_ART + f] >= 0 and _wanted_artifact(g, base, kind, g[st.F_ART + f])
    if kind == GK_STONE3 or kind == GK_STONES:
        if terr != C[C_EXC_TERR]:
            return False
        for c in range(3):
            if g[st.F_SITE + 3 * f + c] > 0 and (kind == GK_STONES or g[base + st.P_STONES + c] == 0):
                return True
        return False
    if g[base + st.P_BLD + f] > 0:
        return False
    t = tab[C[C_T_TBLD] + terr]
    if kind == GK_SANCT:
        return t == DEV_SANCT and g[base + st.P_SANCT] != (1 << C[C_NSANCT]) - 1
    if kind == GK_MON:
        return t == DEV_MONUMENT and g[base + st.P_MON] < C[C_NMON]
    if kind == GK_KEYS:
        return t == DEV_WORKSHOP and _key_offered(g, f, C, tab)
    return False


@njit(cache=True)
def distance(g, me, kind, reach, C, tab):
    """Rule 8: the fewest single moves (RC-R91: to a neighbouring field a normal move may enter,
    ``movement.face_up`` and the terrain's move table; artifacts on the way not paid) from a field with
    an own follower to a ``_target`` field of ``kind``, if at most ``reach``; else -1 (and -1 for kinds
    without targets: camps, area tiles, upgrade tiles, old tribes)."""
    if not (kind == GK_ART1 or kind == GK_ARTS or kind == GK_STONE3 or kind == GK_STONES or kind == GK_SANCT
            or kind == GK_MON or kind == GK_KEYS):
        return -1
    base = st.SEAT0 + me * st.SW
    nf = g[st.G_NF]
    dist = np.full(nf, -1, np.int64)
    queue = np.empty(nf, np.int64)
    head, tail = 0, 0
    for f in range(nf):
        if g[base + st.P_FOL + f] > 0:
            if _target(g, me, kind, f, C, tab):
                return 0
            dist[f] = 0
            queue[tail] = f
            tail += 1
    while head < tail:
        f = queue[head]
        head += 1
        if dist[f] >= reach:
            continue
        for d in range(6):
            x = tab[C[C_T_NEIGH] + 6 * f + d]
            if x < 0 or dist[x] >= 0 or not face_up(g, x, C, tab) or tab[C[C_T_TMOVE] + g[st.F_TERR + x]] != 1:
                continue
            dist[x] = dist[f] + 1
            if _target(g, me, kind, x, C, tab):
                return dist[x]
            queue[tail] = x
            tail += 1
    return -1


@njit(cache=True)
def prepared(g, me, kind, C, tab, half):
    """How much of the next component of goal kind ``kind`` seat ``me`` has prepared, 0..1 (rule 4's
    steps): 1 when only a development action is missing for the next sanctuary or monument (a
    follower on a free site of the type, the crystals payable, ``dev.dev_field_ok``), a key card (a
    workshop so, its key colour in the offer, RC-R133, RC-E39), a camp (such a building next to a camp
    whose reward the seat has not had, RC-R144, RC-E41) or an area tile (such a building on a tile
    without an own building, RC-E42); a monument otherwise ``half`` per precondition in place
    (``_monument_half``); for old tribes (RC-E40) the steps of the furthest track not unlocked
    towards its fifth space (RC-R169) / the fifth; 0 for other kinds."""
    base = st.SEAT0 + me * st.SW
    if kind == GK_OLD:
        fifth = C[C_FIFTH]
        best = 0.0
        for t in range(3):
            if g[base + st.P_UNLOCK + t] == 0:
                best = max(best, min(max(g[base + st.P_TRK + t], 0), fifth) / fifth)
        return best
    if kind == GK_ART1 or kind == GK_ARTS or kind == GK_STONE3 or kind == GK_STONES:
        return 1.0 if _one_step_away(g, me, kind, C, tab) else 0.0
    if kind != GK_SANCT and kind != GK_MON and kind != GK_KEYS and kind != GK_CAMPS and kind != GK_AREAS:
        return 0.0
    for f in range(g[st.G_NF]):
        if g[base + st.P_FOL + f] <= 0:
            continue
        if kind == GK_SANCT or kind == GK_MON:
            if dev_field_ok(g, me, DEV_SANCT if kind == GK_SANCT else DEV_MONUMENT, f, C, tab):
                return 1.0
        elif kind == GK_KEYS:
            if dev_field_ok(g, me, DEV_WORKSHOP, f, C, tab) and _key_offered(g, f, C, tab):
                return 1.0
        elif kind == GK_CAMPS:
            if next_camp(g, me, f, C, tab) >= 0 and _buildable(g, me, f, C, tab):
                return 1.0
        else:
            k = tab[C[C_T_FSLOT] + f]
            if k < 0:
                continue
            own = False
            for i in range(7):
                own = own or g[base + st.P_BLD + 7 * k + i] > 0
            if not own and _buildable(g, me, f, C, tab):
                return 1.0
    return _monument_half(g, me, C, tab, half) if kind == GK_MON else 0.0


@njit(cache=True)
def _card_chance(g, me, kind, missing, lam, step, half, C, tab, reach=0, decay=0.0):
    """One card's chance of being met: P(Poisson(``lam``) >= ``missing``), with a share ``step`` x
    ``prepared`` (``half``: its monument share per precondition) of the next component counted as
    gained (rule 4's steps: the chance interpolated between ``missing`` and one less), so the
    preconditions of a component are worth part of it. With ``reach`` > 0 (rule 8, solo) the share is
    at least ``decay`` ** (moves still needed) (``distance``: a site 1 move away is ``decay``, an
    artifact 1 move away is picked up by the move, as ``prepared`` counts it)."""
    p = _at_least(missing, lam)
    if missing <= 0 or step == 0.0:
        return p
    ready = prepared(g, me, kind, C, tab, half)
    if reach > 0 and ready < 1.0:
        d = distance(g, me, kind, reach, C, tab)
        if d >= 0:
            if kind == GK_ART1 or kind == GK_ARTS:
                d -= 1
            ready = max(ready, decay ** d)
    s = min(step * ready, 1.0)
    return p + s * (_at_least(missing - 1, lam) - p) if s > 0.0 else p


@njit(cache=True)
def _best_chance(g, h, me, gk, gn, gi, rate, C, tab, count, rounds, steps, reach, decay):
    """The chance term of ``goal_chance`` (without the points) with ``rounds`` rounds left: the better
    held card, solo the best pair of held cards (see there); ``count``: ``goal_counts_row`` of ``g``;
    each card's step share at ``rate[steps + card]``; ``reach``, ``decay``: ``_card_chance``'s."""
    G = gk.shape[0]
    half = rate[2 * G]
    best = 0.0
    for i in range(3):
        a = h[st.H_GOALS + 3 * me + i]
        if a < 0:
            continue
        ka = gk[a]
        pa = _card_chance(g, me, ka, gn[a] - count[ka], rate[a] * rounds, rate[steps + a], half, C, tab, reach, decay)
        if not gi[GI_SOLO]:
            best = max(best, pa)
            continue
        for j in range(i + 1, 3):
            b = h[st.H_GOALS + 3 * me + j]
            if b < 0:
                continue
            kb = gk[b]
            group = ka // 2 if ka < 4 and kb < 4 and ka // 2 == kb // 2 else -1    # 0 artifacts, 1 stones
            if group >= 0:
                have = 0
                for c in range(4 if group == 0 else 3):
                    have += g[st.SEAT0 + me * st.SW + (st.P_ARTS if group == 0 else st.P_STONES) + c]
                need = max(gn[a] - count[ka], gn[b] - count[kb], gn[a] + gn[b] - have)
                p = _at_least(need, max(rate[a], rate[b]) * rounds)
            else:
                p = pa * _card_chance(g, me, kb, gn[b] - count[kb], rate[b] * rounds, rate[steps + b], half, C, tab,
                                      reach, decay)
            best = max(best, p)
    return best


@njit(cache=True)
def goal_chance(g, h, me, gk, gn, gi, rate, C, tab):
    """Rule 4's value of the goal cards seat ``me`` holds in ``g``/``h`` (its own cards, in the
    observation, RC-A68): goal points x the chance of meeting them at the end, each card's chance
    ``_card_chance(missing, rate[card] x rounds left, steps)`` (``rate``: per card the plan's
    components per round for its kind, then per card its ``goal_steps`` share, ``prepared``, then the
    ``monument_precondition`` share, ``_monument_half``), so the
    last missing component is worth much, the first little and nothing once met. Before the goal
    round (RC-R189) the better held card counts (the one to keep), after it the kept one; solo
    (RC-V13..V15, RC-A54) the best pair of held cards, both to be met: the product of their chances,
    or for two cards of one resource (artifacts, stones; RC-V15: one component for one card) the
    chance of the components both need together."""
    count = np.zeros(11, np.int64)
    goal_counts_row(g, me, gi, count)
    rounds = max(gi[GI_ROUNDS] - g[st.G_ROUND], 0)
    return gi[GI_POINTS] * _best_chance(g, h, me, gk, gn, gi, rate, C, tab, count, rounds, gk.shape[0], 0, 0.0)


@njit(cache=True)
def solo_term(g, h, me, gk, gn, gi, rate, C, tab):
    """Rule 8 (solo only, RC-V13..V15, RC-A54): Param ``solo`` x log(the chance of meeting the best pair
    of held cards + ``solo_floor``), the chance as ``goal_chance``'s but with each rate x ``solo_rate``,
    the steps ``solo_steps`` (which also count an artifact or a stone one step away, ``_one_step_away``,
    and a site ``solo_reach`` moves away or nearer, ``solo_decay`` per move, ``distance``)
    and the rounds left counted from the decision being valued (``gi[GI_ROOT]``, so a trial that
    reaches the round's end is not worth less than one that does not). The log makes a component
    worth about as much whatever the other card's chance (a product of two small chances has no
    slope), and the most reachable pair the one played for; 0 in games of 2-4 players."""
    G = gk.shape[0]
    weight = rate[2 * G + GV_SOLO]
    if not gi[GI_SOLO] or weight == 0.0:
        return 0.0
    count = np.zeros(11, np.int64)
    goal_counts_row(g, me, gi, count)
    root = gi[GI_ROOT] if gi[GI_ROOT] >= 0 else g[st.G_ROUND]
    rounds = max(gi[GI_ROUNDS] - root, 0) * rate[2 * G + GV_SOLO_RATE]
    p = _best_chance(g, h, me, gk, gn, gi, rate, C, tab, count, rounds, 2 * G + GV_N, int(rate[2 * G + GV_REACH]),
                     rate[2 * G + GV_DECAY])
    return weight * np.log(p + rate[2 * G + GV_SOLO_FLOOR])


@njit(cache=True)
def goal_value(g, h, me, goal, gk, gn, gi, rate, C, tab):
    """Rules 4 and 8 on a position: ``goal`` x ``goal_chance`` (when ``goal`` is not 0) + ``solo_term``."""
    v = goal * goal_chance(g, h, me, gk, gn, gi, rate, C, tab) if goal != 0.0 else 0.0
    return v + solo_term(g, h, me, gk, gn, gi, rate, C, tab)


@njit(cache=True)
def goal_chance_rows(m, hidden, players, gk, gn, gi, rate, C, tab):
    """float[B]: ``goal_chance`` per row (``recall_plans._Plan._goal_chance``)."""
    out = np.zeros(m.shape[0])
    for b in range(m.shape[0]):
        out[b] = goal_chance(m[b], hidden[b], players[b], gk, gn, gi, rate, C, tab)
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
                 ints, pf, tribe_v, item_v, path_v, goal_v, event_bound, fixed_cost, gk, gn, gi, out):
    """The plan's value of each legal action into ``out`` (-inf where illegal): ``og`` the observation's
    row, ``sg``/``sh``/``slg`` the state sampled from it; every legal action tried and valued (after
    the continuation for the plan kinds and activations, rule 5), with the goal cards' chance (rule 4,
    ``goal_chance`` with the per-card rates and steps ``goal_v``: at a goal decision the trial holds the kept
    cards), the activation bonus (rule 2) and rules 1-3 and 7 added. ``pf``: (ability, goal). An activation
    whose trial, where it is resolved, changes nothing but its cost (``_no_effect``: e.g. Lexander with
    no crystal to upgrade), or a Dorian activation that places no farm (RC-R210; at a closing window
    the flow moves on, which ``_no_effect`` counts as a change), is ``WASTED``, below every real
    option: the continuation after it (rule 5) would otherwise let it tie with or beat the options
    it only postpones, and the bonus reward it."""
    A = slg.shape[0]
    kind = og[st.G_KIND]
    horizon, use0, n_ab, opt0 = ints[PI_HORIZON], ints[PI_USE0], ints[PI_NAB], ints[PI_OPT0]
    ability, goal = pf[0], pf[1]
    if gi[GI_SOLO]:                                  # rule 8 counts the rounds left from this decision
        gi = gi.copy()
        gi[GI_ROOT] = og[st.G_ROUND]
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
    # rules 1-3's and 7's bonus per option (rows of other kinds: none)
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
    elif kind == st.K_BUY or kind == st.K_SELL or kind == st.K_SELL_COUNT or kind == st.K_CRYSTAL:
        for x in range(A):
            if slg[x]:
                bonus[x] = _trade_bonus(og, me, x, w, C, vt)
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
        wasted = False
        if horizon > 0 and (plan_kind or activation) and v > STOPPED:
            # an activation: first to where its effect is resolved (the decision's kind or phase again),
            # checked there for no effect, then on with the rest of the turn (rule 5)
            v, used = _continued(tg, th, tlg, cg, ch, clg, bg, bh, blg, me, n, w, vt, u0, horizon, C, tab, atoms, goal,
                                 gk, gn, gi, goal_v, kind if activation else NO_KIND,
                                 sg[st.G_PHASE] if activation else NO_KIND)
            if activation:
                wasted = _no_effect(sg, tg, own, min(x - use0, n_ab), n_ab)
                if used < horizon and v > STOPPED:
                    v, used = _continued(tg, th, tlg, cg, ch, clg, bg, bh, blg, me, n, w, vt, u0, horizon - used, C,
                                         tab, atoms, goal, gk, gn, gi, goal_v, NO_KIND, NO_KIND)
        elif v > STOPPED and (kind == st.K_SELL or kind == st.K_SELL_COUNT):
            v = _closed_sale(tg, th, tlg, cg, ch, clg, me, n, w, vt, goal, gk, gn, gi, goal_v, C, tab, atoms)
        elif v > STOPPED:
            wasted = activation and _no_effect(sg, tg, own, min(x - use0, n_ab), n_ab)
            if goal != 0.0 or gi[GI_SOLO]:          # the one step's position with the goal cards' chance
                v = v + goal_value(tg, th, me, goal, gk, gn, gi, goal_v, C, tab)
        if v > STOPPED:
            v = v + _unlock_value(og, sg, tg, own, tribe_v, C[C_FIFTH])
        if activation and v > STOPPED:
            ab = x - use0
            event = ab < n_ab and event_bound[min(max(ab, 0), n_ab - 1)] != 0      # as np.clip there
            v = v + (ability if event or left >= reserve else -ability)
            # Dorian with no farm placed (RC-R210): also where the window closes after it and the flow
            # moves on (turn end, recharge), which ``_no_effect`` sees as a change
            dorian = ab == ints[PI_DORIAN] and tg[st.G_FARMS] == sg[st.G_FARMS] and tg[st.G_KIND] != st.K_ABILITY_FIELD
            if wasted or dorian:                    # the cost paid for nothing
                v = WASTED
        out[x] = v + bonus[x]


@njit(cache=True)
def plan_tables(om, sm, shid, slegal, players, u0, which, weights, plan_ints, plan_f, tribe_v, item_v, path_v,
                goal_v, event_bound, fixed_cost, gk, gn, gi, C, tab, atoms, vt):
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
                     C, tab, atoms, plan_ints[k], plan_f[k], tribe_v[k], item_v[k], path_v[k], goal_v[k], event_bound,
                     fixed_cost,
                     gk, gn, gi, out[b])
    return out


@njit(cache=True)
def play_batch(m, hidden, legal, C, tab, atoms, keys, n_strategies, kinds, weights, vt, stab, n_slots,
               decisions, plan_ints, plan_f, tribe_v, item_v, path_v, goal_v, event_bound, fixed_cost, gk, gn, gi, span,
               counts, untried_at):
    """Every game of the batch to its end (module doc), in place; ``decisions`` counted on.
    ``counts`` int64[B, slots, 2, abilities + 1] (or of length 0: not counted) adds up per game and
    slot the activations chosen ([.., 0, a]: ``use:a``, last ``ring``) and the decisions where each
    was legal ([.., 1, a]), as analyses/recall_plans.py counts them; ``span`` = (first ``use:``, abilities).
    ``untried_at`` int64[slots, decision kinds]: a lookahead seat's ``untried_choice`` code per kind (module doc)."""
    B, W = m.shape
    A = legal.shape[1]
    n = C[C_NP]
    free0 = C[C_O_USE]
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
    values = np.empty(A)
    work = np.empty(scratch_size(stab), np.int64)         # the deal's scratch, once per batch
    for b in range(B):
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
                    skey = np.uint64(uniform(key, base) * 9007199254740992.0)
                    observe_row(g, h, me, n_slots, og, seat_chests, goals, goal_n)
                    copy_row(sg, og)
                    deal_into(sg, lg, seat_chests, goals, goal_n, me, skey, sh, slg, stab, work)
                    _plan_values(og, sg, sh, slg, tg, th, tlg, cg, ch, clg, bg, bh, blg, me, n, uniform(key, base),
                                 weights[slot],
                                 vt, C, tab, atoms, plan_ints[slot], plan_f[slot], tribe_v[slot], item_v[slot],
                                 path_v[slot], goal_v[slot], event_bound, fixed_cost, gk, gn, gi, values)
                    best = -np.inf
                    resolve = untried_at[slot, g[st.G_KIND]] == RESOLVE and _any_own(slg, free0)   # rule 9
                    for x in range(A):                   # strategies.base.argmax_tiebreak, non-finite as 0
                        if not slg[x] or (resolve and not _own(x, free0)):
                            continue
                        v = values[x] if np.isfinite(values[x]) else 0.0
                        score = v + 1e-9 * uniform(key, base + x)
                        if score > best:
                            best = score
                            a = x
                else:
                    a = untried_choice(lg, key, base, untried_at[slot, g[st.G_KIND]], free0)
                if kinds[slot] == LOOKAHEAD and a < 0:
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
