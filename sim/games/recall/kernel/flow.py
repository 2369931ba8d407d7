"""The flow: ``apply`` an action, ``decide`` at a decision, ``advance`` each game to its next
decision with >= 2 legal actions (``to_decision`` builds each decision's legal mask, ``advance``
applies a decision's only legal action), and ``step_batch`` over the batch.
"""
from __future__ import annotations

import numpy as np

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import (
    abilities, abilities_2, abilities_3, common, frames, chests, draft, queue, gains, rewards, knowledge, movement, dev, explore,
    pigs, rafts, rings, upgrade, water, turn)
from sim.games.recall.kernel.common import (
    A_ARG, A_END, A_N, A_OPTION, A_P, A_R, A_RECALL, A_W, C_AUTO, C_NP, C_COPY_EVER, C_DRAFT, C_EXO,
    C_KEEP3, C_MAXDEC, C_NGOAL_SP, C_NPATH_SP, C_NPROD, C_O_CHEST, C_O_COUNT, C_O_FIELD, C_O_OPT,
    C_O_PICK, C_O_PLAY, C_O_RING, C_O_USE, C_PER_STACK, C_SPACES, C_START1, C_START2, C_TRK_LAST,
    C_T_ABEFF, C_T_CHEST, C_T_DARK, C_T_EVT, C_T_GOAL, C_T_GOAL_SP, C_T_ITEM_AB, C_T_KEY, C_T_OPTS,
    C_T_PATH_SP, C_T_PROD, C_U, DRAFT_RANDOM, S_ABILITY, S_FREE, S_PICK, S_PRODUCTION, S_REWARD,
    can_use, clear_event, kernel, pay_ability, pay_cost, payable, seat, special_index, start_dev,
    stop)
from sim.games.recall.kernel.frames import push_frame
from sim.games.recall.kernel.abilities import ability_field_mask, apply_ability_field, use_coded
from sim.games.recall.kernel.abilities_2 import portaal_mask
from sim.games.recall.kernel.abilities_3 import ability_3_mask, apply_ability_3
from sim.games.recall.kernel.rafts import pay_from, remove_from
from sim.games.recall.kernel.pigs import apply_dorian, carry, dorian_mask, pigs_along, pigs_mask
from sim.games.recall.kernel.rings import apply_ring, ring_mask, start_ring
from sim.games.recall.kernel.chests import discard_chest
from sim.games.recall.kernel.draft import (
    deal_old_tribes, draft_mask, draft_picks, draft_seat, place_start_followers, take_draft)
from sim.games.recall.kernel.queue import (
    field_effect, has_items, push_effect, push_entry, queue_reward, remove_pending)
from sim.games.recall.kernel.gains import apply_gain, gain_mask
from sim.games.recall.kernel.rewards import (
    apply_choose, apply_order, choose_mask, next_step, order_mask)
from sim.games.recall.kernel.knowledge import items_left, knowledge_step
from sim.games.recall.kernel.movement import (
    artifact_cost, exo_usable, move_targets, need_at, take_artifact)
from sim.games.recall.kernel.dev import apply_dev, dev_node, production_visible
from sim.games.recall.kernel.explore import apply_explore, back_to_explorer, explore_node, uniform
from sim.games.recall.kernel.upgrade import apply_upgrade, upgrade_node
from sim.games.recall.kernel.water import apply_water, water_node
from sim.games.recall.kernel.turn import (
    after_event, end_turn, event_mask, event_of, free_actions, main_mask, recharge,
    use_event_ability)
from sim.games.recall.state import (
    G_PIGS_OUT, G_START_SLOT, G_W_PIGS, K_MOVE_PIGS, PH_DORIAN, PH_MOVE_PIGS, PH_RING, G_PROD_LAST, K_ABILITY_FIELD, PH_ABILITY_FIELD, PH_ABILITY_3, G_BONUS_LAST, K_ABILITY_COUNT, K_ABILITY,
    ALT_KIND, F_ART, F_START, G_ACTIVE, G_CARD, G_DARK, G_DEC, G_DSTEP, G_EVENT_USED, G_FIELD,
    G_FR_N, G_GUARD, G_KIND, G_KLEFT, G_KTRACK, G_LEFT, G_MCOUNT, G_MFROM, G_MOVES, G_MTO, G_NF,
    G_NP, G_OLD_ITEMS, G_OWNER, G_PEND, G_PEND_N, G_PHASE, G_PICKED, G_PROD_LEFT, G_PROD_USED,
    G_RECHARGED, G_ROUND, G_SELLF, G_SUBRET, G_TURN_DEC, G_UPG_BITS, G_UPG_RET, G_UPG_SEAT,
    G_W_GROUP, H_GOALS, K_BUY, K_CHOOSE, K_COPY, K_CRYSTAL, K_DISPLAY, K_DONE, K_DRAFT, K_EFFECT,
    K_EVENT, K_EXPLORE, K_FREE, K_GOAL, K_ITEM, K_KEY, K_KEYUP, K_MAIN, K_MOVE_COUNT, K_MOVE_FROM,
    K_MOVE_TO, K_ORDER, K_PATH, K_PAYMENT, K_PAY_MOVE, K_PLACE, K_PRODUCE, K_RECHARGE, K_ROTATION,
    K_SELL, K_SELL_COUNT, K_SLOT, K_START_FIELD, K_STOP, K_TRACK, K_TURN_END, K_UNITS, K_UPGRADE,
    PEND_W, PH_BONUS_EVENT, PH_BUY, PH_CHOOSE, PH_COPY, PH_CRYSTAL, PH_DEV, PH_DEV_NEXT,
    PH_DISPLAY, PH_DONE, PH_DRAFT, PH_EFFECT, PH_EXEC, PH_EXPLORE, PH_EXPLORE_NEXT, PH_FREE,
    PH_GOAL, PH_ITEM, PH_KEY, PH_KEYUP, PH_KEY_EVENT, PH_KSTEP, PH_KTRACK, PH_MAIN, PH_MOVE_COUNT,
    PH_MOVE_FROM, PH_MOVE_TO, PH_NEXT, PH_OLD, PH_ORDER, PH_PATH, PH_PAYMENT, PH_PAY_MOVE,
    PH_PLACE, PH_PORTAAL, PH_PRODUCE, PH_PROD_EVENT, PH_RECHARGE, PH_SELL, PH_SELL_COUNT, PH_SLOT, PH_SOLO,
    PH_STOP, PH_TURN, PH_TURN_END, PH_UNITS, PH_UPGRADE, PH_W_END, PH_W_FROM, P_AVAIL, P_BLD, P_CR,
    P_EVER, P_FOL, P_OWN, P_PATHS, P_PLAYS, P_RECALLS, P_SLOT, P_START, P_STEPS_LOST, P_SUPPLY,
    P_TRK)

kernel_cache.watch(__file__, st, abilities, abilities_2, abilities_3, pigs, rafts, rings,
                   common, frames, chests, draft, queue, gains, rewards, knowledge, movement, dev, explore, upgrade, water, turn)


@kernel
def move_arrive(g, p, c, m, C, tab, atoms):
    """One move of a movement: c followers and m pigs (RC-R212) from G_MFROM to G_MTO; an
    artifact there is taken, paid by the group, pigs first (RC-R99..R101, RC-A18, RC-A72), or
    ``payment`` when Exoskelet is usable."""
    b = seat(p)
    f, x = g[G_MFROM], g[G_MTO]
    g[b + P_FOL + f] -= c
    g[b + P_FOL + x] += c
    carry(g, f, x, m)
    g[G_MOVES] -= 1
    g[G_MCOUNT] = c + m
    g[G_PHASE] = PH_MOVE_FROM
    if g[F_ART + x] >= 0:
        if artifact_cost(g, p, x, C, tab) > 0 and exo_usable(g, p, C, tab):
            g[G_PHASE] = PH_PAYMENT
        else:
            pay_from(g, p, x, artifact_cost(g, p, x, C, tab), C, tab)
            take_artifact(g, C, tab, atoms)


@kernel
def apply(g, h, C, tab, atoms, a):
    """Apply action ``a`` at the pending decision (legal: checked by the caller)."""
    k = g[G_KIND]
    o = C[C_O_OPT]
    p = g[G_ACTIVE]
    b = seat(p)
    free = a >= C[C_O_USE] and k != K_PAYMENT and k != K_FREE
    if k == K_START_FIELD:
        g[seat(0) + P_START] = C[C_START1] if a == o else C[C_START2]
        g[G_PHASE] = PH_DRAFT
        place_start_followers(g, C)
    elif k == K_DRAFT:
        take_draft(g, C, a - o)
    elif k == K_EVENT:
        if a == A_END:
            g[G_PHASE] = after_event(g, g[G_PHASE])
        else:
            use_event_ability(g, a - C[C_O_USE], C, tab, atoms)
    elif g[G_PHASE] >= PH_W_FROM and g[G_PHASE] <= PH_W_END:     # a water-movement decision
        apply_water(g, C, tab, k, a)
    elif k == K_UPGRADE:
        apply_upgrade(g, C, tab, atoms, a)
    elif k == K_EXPLORE or k == K_ROTATION:
        apply_explore(g, h, C, tab, k, a)
    elif g[G_PHASE] >= PH_DEV and g[G_PHASE] <= PH_DEV_NEXT:      # a development decision
        apply_dev(g, C, tab, k, a)
    elif g[G_PHASE] == PH_ABILITY_3:                    # Enterin, Vinder, Hayla
        apply_ability_3(g, C, tab, k, a)
    elif g[G_PHASE] == PH_DORIAN:
        apply_dorian(g, C, a)
    elif g[G_PHASE] == PH_RING:
        apply_ring(g, h, C, tab, p, a)
    elif g[G_PHASE] == PH_MOVE_PIGS:                        # RC-R212: the pigs going with the move
        move_arrive(g, p, g[G_MCOUNT], a - o, C, tab, atoms)
    elif free:                                              # RC-A70: then the same node again
        if a == C[C_O_RING]:
            start_ring(g)
        elif a >= C[C_O_CHEST]:
            x = a - C[C_O_CHEST]
            discard_chest(g, p, x)
            if not queue_reward(g, tab[C[C_T_CHEST] + x], g[G_PHASE], C, tab, atoms, True):      # its action atoms at once
                stop(g, S_FREE)
        else:
            u = a - C[C_O_USE]
            pay_ability(g, p, u, C, tab)
            e = tab[C[C_T_ABEFF] + u]
            if e < 0:
                use_coded(g, C, tab, u)
            elif not queue_reward(g, e, g[G_PHASE], C, tab, atoms, True):
                stop(g, S_ABILITY)
    elif k == K_MAIN:
        if a == A_RECALL:                                   # RC-R36, RC-R37
            c = 0
            for s in range(6):
                kind = g[b + P_SLOT + s]
                if kind >= 0:
                    g[b + P_AVAIL + kind] += 1
                    g[b + P_SLOT + s] = -1
                    c += 1
            g[b + P_RECALLS] += 1
            g[G_PROD_LEFT] = c
            g[G_PROD_USED] = 0
            g[G_PHASE] = PH_PRODUCE
        else:                                               # RC-R13, RC-R14
            kind, s = divmod(a - C[C_O_PLAY], 6)
            g[b + P_AVAIL + kind] -= 1
            g[b + P_SLOT + s] = kind
            g[b + P_EVER + s] = 1
            g[b + P_PLAYS + s] += 1
            g[G_CARD] = kind
            g[G_FIELD] = s
            e = tab[C[C_T_KEY] + kind]
            ok = push_effect(g, e, -1, C, tab, atoms) and push_effect(g, field_effect(g, p, s, C, tab), s, C, tab, atoms)
            g[G_PHASE] = PH_KEY_EVENT if has_items(e, C, tab) else PH_EFFECT
            clear_event(g)
            if not ok:
                stop(g, S_PICK)
    elif k == K_EFFECT:
        if a == A_END:                                      # RC-R19: the rest is dropped
            g[G_PEND_N] = 0
            g[G_PHASE] = PH_TURN_END
        else:                                               # RC-R15, RC-R89: the item whole
            i = a - C[C_O_PICK]
            q = G_PEND + PEND_W * i
            e, item, kind = g[q], g[q + 1], g[q + 3]
            g[G_OWNER] = g[q + 2]
            if g[q + 2] >= 0:                               # RC-R179, RC-A15: field l has begun
                g[G_PICKED] |= 1 << g[q + 2]
            remove_pending(g, i)
            if kind == 0 or kind >= ALT_KIND:               # the item (its alternative chosen, RC-A64)
                push_frame(g, e, PH_EFFECT, 1, item, kind - ALT_KIND if kind else -1)
            elif kind == 1:                                 # a DEV:1 split off (DEV:n, UNITS)
                start_dev(g, PH_EFFECT)
            else:                                           # UNITS' movement of kind - 2 moves (RC-A63)
                push_frame(g, -1, PH_EFFECT, 1, -1, -1)
                g[G_MOVES] = kind - 2
                g[G_PHASE] = PH_MOVE_FROM
    elif k == K_PRODUCE:
        if a == A_END:
            g[G_PHASE] = PH_RECHARGE
        else:                                               # RC-R38, RC-R41
            i = a - o
            g[G_PROD_USED] |= 1 << i
            g[G_PROD_LEFT] -= 1
            g[G_PROD_LAST] = i
            clear_event(g)
            if not queue_reward(g, tab[C[C_T_PROD] + i], PH_PROD_EVENT, C, tab, atoms, False):
                stop(g, S_PRODUCTION)
    elif k == K_PLACE:
        f = a - C[C_O_FIELD]
        g[b + P_FOL + f] += g[G_LEFT]
        g[b + P_SUPPLY] -= g[G_LEFT]
        g[G_PHASE] = g[G_SUBRET]
    elif k == K_CRYSTAL:
        if a == A_END:
            g[G_LEFT] = 0
        else:
            c = a - o
            g[b + P_CR + c] -= 1
            g[b + P_CR + c + 1] += 1
            g[G_LEFT] -= 1
    elif k == K_BUY:
        if a == A_END:
            g[G_PHASE] = PH_EXEC
        else:
            x = C[C_T_OPTS] + 4 * (atoms[g[G_LEFT], A_OPTION] + a - o)
            ok = pay_cost(g, p, C, tab, tab[x], tab[x + 1], tab[x + 2])
            g[G_LEFT] = min(tab[x + 3], g[b + P_SUPPLY])
            g[G_SUBRET] = PH_EXEC
            g[G_PHASE] = PH_PLACE if g[G_LEFT] > 0 else PH_EXEC
            if not ok:
                stop(g, S_REWARD)
    elif k == K_SELL:
        if a == A_END:
            g[G_PHASE] = PH_EXEC
        else:
            g[G_SELLF] = a - C[C_O_FIELD]
            g[G_PHASE] = PH_SELL_COUNT
    elif k == K_COPY:
        r = g[G_LEFT]
        g[G_PHASE] = PH_EXEC
        if not pay_cost(g, p, C, tab, atoms[r, A_W], atoms[r, A_R], atoms[r, A_P]):
            stop(g, S_REWARD)
        elif not push_effect(g, field_effect(g, p, a - o, C, tab), 5, C, tab, atoms):
            stop(g, S_PICK)
    elif k == K_UNITS:
        r = g[G_LEFT]
        n, m = atoms[r, A_N], a - o
        ok = m == 0 or push_entry(g, -1, -1, g[G_OWNER], 2 + m)
        for j in range(n - m):
            ok = ok and push_entry(g, -1, -1, g[G_OWNER], 1)
        g[G_PHASE] = PH_EXEC
        if not ok:
            stop(g, S_PICK)
    elif k == K_TRACK:
        g[G_KTRACK] = a - o
        g[G_PHASE] = PH_KSTEP
    elif k == K_ITEM:
        t = g[G_KTRACK]
        i = a - o
        for j in range(C[C_PER_STACK]):
            col = G_OLD_ITEMS + C[C_PER_STACK] * t + j
            if g[col] >= 0:
                if i == 0:
                    it = g[col]
                    g[col] = -1
                    for u in range(tab[C[C_T_ITEM_AB] + 2 * it], tab[C[C_T_ITEM_AB] + 2 * it] + tab[C[C_T_ITEM_AB] + 2 * it + 1]):
                        g[b + P_OWN + u] = 1
                    break
                i -= 1
        g[G_PHASE] = PH_KSTEP
    elif k == K_PAY_MOVE:
        r = g[G_LEFT]
        x = C[C_T_OPTS] + 4 * (atoms[r, A_OPTION] + a - o)
        c = tab[x]
        g[G_MOVES] = tab[x + 3]
        g[G_PHASE] = PH_MOVE_FROM
        if c >= 0 and not pay_cost(g, p, C, tab, 1 if c == 0 else 0, 1 if c == 1 else 0, 1 if c == 2 else 0):
            stop(g, S_REWARD)
    elif k == K_MOVE_FROM:
        if a == A_END:                                      # RC-R92: the rest is lost
            g[G_MOVES] = 0
            g[G_PHASE] = PH_EXEC
        else:
            g[G_MFROM] = a - C[C_O_FIELD]
            g[G_PHASE] = PH_MOVE_TO
    elif k == K_MOVE_TO:
        g[G_MTO] = a - C[C_O_FIELD]
        g[G_PHASE] = PH_MOVE_COUNT
    elif k == K_MOVE_COUNT:
        c = a - C[C_O_COUNT] + 1
        if pigs_along(g, p, g[G_MFROM], C) > 0:            # then ``move_pigs``
            g[G_MCOUNT] = c
            g[G_PHASE] = PH_MOVE_PIGS
        else:
            move_arrive(g, p, c, 0, C, tab, atoms)
    elif k == K_KEY or k == K_KEYUP or k == K_SLOT or k == K_FREE or k == K_DISPLAY:
        apply_gain(g, h, C, tab, k, a)
    elif k == K_ABILITY_FIELD or k == K_ABILITY_COUNT or k == K_ABILITY or k == K_MOVE_PIGS:   # Colteron's pigs
        apply_ability_field(g, C, tab, k, a)
    elif k == K_ORDER:
        apply_order(g, h, C, tab, atoms, a)
    elif k == K_CHOOSE:
        apply_choose(g, h, C, tab, atoms, a)
    elif k == K_PAYMENT:                                    # RC-R244: Exoskelet, or the followers
        x = g[G_MTO]
        if a == A_END:
            pay_from(g, p, x, artifact_cost(g, p, x, C, tab), C, tab)
        else:
            pay_ability(g, p, C[C_EXO], C, tab)
        take_artifact(g, C, tab, atoms)
    elif k == K_SELL_COUNT:
        c = a - C[C_O_COUNT] + 1
        remove_from(g, p, g[G_SELLF], c, C, tab)     # RC-A49: a raft next to it reacts
        g[b + P_CR] += c
        g[G_PHASE] = PH_SELL
    elif k == K_RECHARGE:
        recharge(g, C)
        g[G_PHASE] = PH_TURN_END
    elif k == K_TURN_END:
        end_turn(g, C)
    elif k == K_PATH:                                       # RC-R184..R186
        sector = special_index(g, C, tab, C[C_T_PATH_SP], C[C_NPATH_SP])
        pos = 2 * sector + a - o
        g[b + P_PATHS + sector] = pos
        clear_event(g)
        g[G_BONUS_LAST] = tab[C[C_T_DARK] + g[G_DARK + pos]]
        if not queue_reward(g, g[G_BONUS_LAST], PH_BONUS_EVENT, C, tab, atoms, False):
            stop(g, S_REWARD)
    elif k == K_GOAL:                                       # RC-R189
        col = H_GOALS + 3 * p + a - o
        goal = h[col]
        h[col] = -1
        if not queue_reward(g, tab[C[C_T_GOAL] + goal], PH_TURN_END, C, tab, atoms, False):
            stop(g, S_REWARD)


@kernel
def decide(g, lg, C, kind, p):
    """Stop at the decision if it has >= 2 legal actions or exactly one (True: ``advance``
    applies a single one at once); none: on with the flow (False).
    In a turn, the asked decision after ``max_decisions_per_turn`` ends the turn (RC-A68)."""
    count = legal_count(lg)
    g[G_KIND] = kind
    g[G_DEC] = p
    if count >= 2:
        if g[G_PHASE] >= PH_MAIN:
            if g[G_TURN_DEC] >= C[C_MAXDEC]:          # the turn ends: rewards and pending dropped
                lg[:] = False
                g[G_GUARD] += 1
                g[G_FR_N] = 0
                g[seat(g[G_ACTIVE]) + P_SUPPLY] += g[G_W_GROUP]     # a water group in transit: the supply
                g[G_W_GROUP] = 0
                g[G_PIGS_OUT] -= g[G_W_PIGS]                # and its pigs the pig supply
                g[G_W_PIGS] = 0
                g[G_UPG_BITS] = 0
                back_to_explorer(g)                   # inside another player's camp reward
                end_turn(g, C)
                return False
            g[G_TURN_DEC] += 1
        return True
    return count == 1


@kernel
def legal_count(lg):
    """The number of legal actions in ``lg``, eight flags a step: a uint64 of eight 0/1 bytes times
    0x0101010101010101 holds their sum in its top byte. About 2.4x faster than a loop over the flags
    (numba widens those to int64 lanes; timed alone on a 289-flag mask), and ``decide`` and
    ``advance`` count the mask of every decision and trial step."""
    n = lg.shape[0]
    m = n - n % 8
    words = lg[:m].view(np.uint64)
    count = 0
    for i in range(words.shape[0]):
        count += np.int64((words[i] * np.uint64(0x0101010101010101)) >> np.uint64(56))
    for a in range(m, n):
        count += lg[a]
    return count


@kernel
def single_legal(lg):
    """The legal action when ``lg`` has exactly one, else -1."""
    one = -1
    for a in range(lg.shape[0]):
        if lg[a]:
            if one >= 0:
                return -1
            one = a
    return one


@kernel
def advance(g, h, lg, C, tab, atoms):
    """Each game on to its next decision with >= 2 legal actions (or its end): a decision with
    one legal action is applied here, not in ``decide``, so ``apply`` has few call sites and
    is compiled as a function of its own, not inlined into ``decide`` (compile time, issue #11)."""
    while True:
        to_decision(g, h, lg, C, tab, atoms)
        if legal_count(lg) != 1:              # the count first: a decision has >= 2 nearly always
            return
        one = single_legal(lg)
        lg[one] = False
        apply(g, h, C, tab, atoms, one)


@kernel
def to_decision(g, h, lg, C, tab, atoms):
    """The automatic flow up to the next decision: there with its legal mask in ``lg`` (True
    from ``decide``: >= 2 legal actions, or one for ``advance`` to apply), or at the end."""
    lg[:] = False
    while True:
        ph = g[G_PHASE]
        p = g[G_ACTIVE]
        if g[G_UPG_BITS] != 0 and ph != PH_UPGRADE and ph != PH_STOP and ph != PH_DONE:
            g[G_UPG_RET] = ph                     # RC-R177: the tile right after the points
            g[G_PHASE] = PH_UPGRADE
            continue
        if ph == PH_SOLO:
            if g[G_NP] == 1:                      # RC-V11: start field 1 or 2
                lg[C[C_O_OPT]] = True
                lg[C[C_O_OPT] + 1] = True
                if decide(g, lg, C, K_START_FIELD, 0):
                    return
            else:
                place_start_followers(g, C)
                g[G_PHASE] = PH_DRAFT
        elif ph == PH_DRAFT:
            if C[C_DRAFT] == DRAFT_RANDOM or g[G_DSTEP] >= draft_picks(g, C):
                g[G_PHASE] = PH_OLD
            else:
                draft_mask(g, lg, C)
                if decide(g, lg, C, K_DRAFT, draft_seat(g)):
                    return
        elif ph == PH_OLD:
            deal_old_tribes(g, h, C, tab)
            g[G_ROUND] = 0
            g[G_ACTIVE] = 0
            g[G_PHASE] = PH_TURN
        elif ph == PH_TURN:                       # RC-R3, RC-R6
            g[G_TURN_DEC] = 0
            g[G_RECHARGED] = 0
            g[G_CARD] = -1
            g[G_FIELD] = -1
            g[G_PEND_N] = 0
            g[G_PICKED] = 0
            if special_index(g, C, tab, C[C_T_PATH_SP], C[C_NPATH_SP]) >= 0:
                g[G_PHASE] = PH_PATH
            elif special_index(g, C, tab, C[C_T_GOAL_SP], C[C_NGOAL_SP]) >= 0:
                g[G_PHASE] = PH_GOAL
            else:
                g[G_PHASE] = PH_MAIN
        elif ph == PH_MAIN:
            main_mask(g, lg, C, tab, atoms, p)
            if decide(g, lg, C, K_MAIN, p):
                return
        elif ph >= PH_W_FROM and ph <= PH_W_END:
            kind = water_node(g, lg, C, tab, p)
            if kind >= 0 and decide(g, lg, C, kind, p):
                return
        elif ph == PH_UPGRADE:
            kind = upgrade_node(g, lg, C)
            if kind >= 0 and decide(g, lg, C, kind, g[G_UPG_SEAT]):
                return
        elif ph >= PH_EXPLORE and ph <= PH_EXPLORE_NEXT:
            kind = explore_node(g, lg, C, tab, atoms, p)
            if kind >= 0 and decide(g, lg, C, kind, p):
                return
        elif ph >= PH_DEV and ph <= PH_DEV_NEXT:
            kind = dev_node(g, lg, C, tab, atoms, p)
            if kind >= 0 and decide(g, lg, C, kind, p):
                return
        elif event_of(ph) > 0:
            ev = event_of(ph)
            n = event_mask(g, lg, C, tab, p, ev)
            if n > 0 and C[C_AUTO]:
                lg[:] = False
                for a in range(C[C_U]):
                    if g[G_EVENT_USED + a] == 0 and tab[C[C_T_EVT] + a] == ev and can_use(g, p, a, C, tab):
                        use_event_ability(g, a, C, tab, atoms)
                        break
            elif n > 0:
                if decide(g, lg, C, K_EVENT, p):
                    return
            else:
                lg[:] = False
                g[G_PHASE] = after_event(g, ph)
        elif ph == PH_EFFECT:                     # RC-R15, RC-R16, RC-R19
            if g[G_PEND_N] == 0:
                g[G_PHASE] = PH_TURN_END
            else:
                for i in range(g[G_PEND_N]):
                    lg[C[C_O_PICK] + i] = True
                lg[A_END] = True
                free_actions(g, lg, C, tab, p, True)
                if decide(g, lg, C, K_EFFECT, p):
                    return
        elif ph == PH_PRODUCE:                    # RC-R38, RC-R41
            if g[G_PROD_LEFT] > 0:
                for i in range(C[C_NPROD]):
                    lg[C[C_O_OPT] + i] = production_visible(g, p, i, C, tab) and (g[G_PROD_USED] >> i) & 1 == 0
                lg[A_END] = True
                free_actions(g, lg, C, tab, p, True)
                if decide(g, lg, C, K_PRODUCE, p):
                    return
            else:
                g[G_PHASE] = PH_RECHARGE
        elif ph == PH_RECHARGE:                   # RC-R44, RC-A70
            lg[A_END] = True
            free_actions(g, lg, C, tab, p, True)
            if decide(g, lg, C, K_RECHARGE, p):
                return
        elif ph == PH_TURN_END:                   # RC-R9: free actions before the turn ends
            lg[A_END] = True
            free_actions(g, lg, C, tab, p, g[G_RECHARGED] == 0)
            if decide(g, lg, C, K_TURN_END, p):
                return
        elif ph == PH_PATH:
            lg[C[C_O_OPT]] = True
            lg[C[C_O_OPT] + 1] = True
            free_actions(g, lg, C, tab, p, True)
            if decide(g, lg, C, K_PATH, p):
                return
        elif ph == PH_GOAL:
            if g[G_NP] == 1 and C[C_KEEP3]:
                g[G_PHASE] = PH_TURN_END
            else:
                for i in range(3):
                    lg[C[C_O_OPT] + i] = h[H_GOALS + 3 * p + i] >= 0
                free_actions(g, lg, C, tab, p, True)
                if decide(g, lg, C, K_GOAL, p):
                    return
        elif ph == PH_EXEC:
            next_step(g, h, C, tab, atoms)
        elif ph == PH_ABILITY_FIELD:
            kind = ability_field_mask(g, lg, C, tab, p)
            if kind >= 0 and decide(g, lg, C, kind, p):
                return
        elif ph == PH_ABILITY_3:
            kind = ability_3_mask(g, lg, C, tab, p)
            if kind >= 0 and decide(g, lg, C, kind, p):
                return
        elif ph == PH_ORDER or ph == PH_CHOOSE:    # RC-A64, RC-R202
            kind = order_mask(g, lg, C, tab, atoms) if ph == PH_ORDER else choose_mask(g, lg, C, atoms)
            if decide(g, lg, C, kind, p):
                return
        elif ph == PH_KEY or ph == PH_KEYUP or ph == PH_SLOT or ph == PH_FREE or ph == PH_DISPLAY:
            kind = gain_mask(g, lg, C, tab, ph, p)
            if kind >= 0 and decide(g, lg, C, kind, p):
                return
        elif ph == PH_PLACE:                      # RC-R76: own followers or buildings, the own start field
            b = seat(p)
            for f in range(g[G_NF]):
                lg[C[C_O_FIELD] + f] = g[b + P_FOL + f] > 0 or g[b + P_BLD + f] > 0 or g[F_START + f] == g[b + P_START]
            if decide(g, lg, C, K_PLACE, p):
                return
        elif ph == PH_PORTAAL:
            portaal_mask(g, lg, C, p)
            if decide(g, lg, C, K_PLACE, p):
                return
        elif ph == PH_CRYSTAL:
            if g[G_LEFT] <= 0:
                g[G_PHASE] = PH_EXEC
            else:
                b = seat(p)
                lg[A_END] = True
                lg[C[C_O_OPT]] = g[b + P_CR] > 0
                lg[C[C_O_OPT] + 1] = g[b + P_CR + 1] > 0
                if decide(g, lg, C, K_CRYSTAL, p):
                    return
        elif ph == PH_BUY:
            lg[A_END] = True
            r = g[G_LEFT]
            for i in range(atoms[r, A_ARG]):
                x = C[C_T_OPTS] + 4 * (atoms[r, A_OPTION] + i)
                lg[C[C_O_OPT] + i] = payable(g, p, C, tab[x], tab[x + 1], tab[x + 2])
            if decide(g, lg, C, K_BUY, p):
                return
        elif ph == PH_SELL:
            b = seat(p)
            lg[A_END] = True
            for f in range(g[G_NF]):
                lg[C[C_O_FIELD] + f] = g[b + P_FOL + f] > 0
            if decide(g, lg, C, K_SELL, p):
                return
        elif ph == PH_SELL_COUNT:
            for c in range(min(g[seat(p) + P_FOL + g[G_SELLF]], 23)):
                lg[C[C_O_COUNT] + c] = True
            if decide(g, lg, C, K_SELL_COUNT, p):
                return
        elif ph == PH_COPY:                       # the letters RC-A40 allows; none (a card taken back): nothing
            b = seat(p)
            n = 0
            for x in range(5):
                lg[C[C_O_OPT] + x] = (g[b + P_EVER + x] == 1) if C[C_COPY_EVER] else (g[b + P_SLOT + x] >= 0)
                n += lg[C[C_O_OPT] + x]
            if n == 0:
                g[G_PHASE] = PH_EXEC
            elif decide(g, lg, C, K_COPY, p):
                return
        elif ph == PH_UNITS:
            r = g[G_LEFT]
            bits = atoms[r, A_ARG]
            n = atoms[r, A_N]
            for m in range(n + 1):
                lg[C[C_O_OPT] + m] = (m == 0 or bits & 1) and (m == n or bits & 2)
            if decide(g, lg, C, K_UNITS, p):
                return
        elif ph == PH_KTRACK:                     # K:any: one track for all steps
            b = seat(p)
            for t in range(3):
                lg[C[C_O_OPT] + t] = g[b + P_TRK + t] < C[C_TRK_LAST]
            if not lg[C[C_O_OPT]:C[C_O_OPT] + 3].any():
                g[b + P_STEPS_LOST] += g[G_KLEFT]
                g[G_PHASE] = PH_EXEC
            elif decide(g, lg, C, K_TRACK, p):
                return
        elif ph == PH_KSTEP:
            knowledge_step(g, C, tab, atoms)
        elif ph == PH_ITEM:                       # RC-R164, RC-R166: an item left on the stack
            t = g[G_KTRACK]
            for i in range(items_left(g, t, C)):
                lg[C[C_O_OPT] + i] = True
            if decide(g, lg, C, K_ITEM, p):
                return
        elif ph == PH_PAYMENT:
            lg[C[C_O_USE] + C[C_EXO]] = True
            lg[A_END] = g[G_MCOUNT] >= artifact_cost(g, p, g[G_MTO], C, tab)
            if decide(g, lg, C, K_PAYMENT, p):
                return
        elif ph == PH_PAY_MOVE:                   # the options whose crystal is payable (- always)
            r = g[G_LEFT]
            for i in range(atoms[r, A_ARG]):
                x = C[C_T_OPTS] + 4 * (atoms[r, A_OPTION] + i)
                c = tab[x]
                lg[C[C_O_OPT] + i] = c < 0 or payable(g, p, C, 1 if c == 0 else 0, 1 if c == 1 else 0, 1 if c == 2 else 0)
            if decide(g, lg, C, K_PAY_MOVE, p):
                return
        elif ph == PH_MOVE_FROM:
            if g[G_MOVES] <= 0:
                g[G_PHASE] = PH_EXEC
            else:
                b = seat(p)
                lg[A_END] = True
                for f in range(g[G_NF]):
                    lg[C[C_O_FIELD] + f] = g[b + P_FOL + f] > 0 and move_targets(g, lg[:0], p, f, C, tab) > 0
                if decide(g, lg, C, K_MOVE_FROM, p):
                    return
        elif ph == PH_MOVE_TO:
            move_targets(g, lg, p, g[G_MFROM], C, tab)
            if decide(g, lg, C, K_MOVE_TO, p):
                return
        elif ph == PH_MOVE_COUNT:                 # RC-R84, RC-R87: pigs along pay too (RC-A18)
            need = need_at(g, p, g[G_MTO], C, tab)
            for c in range(max(1, need - pigs_along(g, p, g[G_MFROM], C)), min(g[seat(p) + P_FOL + g[G_MFROM]], 23) + 1):
                lg[C[C_O_COUNT] + c - 1] = True
            if decide(g, lg, C, K_MOVE_COUNT, p):
                return
        elif ph == PH_MOVE_PIGS:                  # RC-R212: enough pigs for the artifact's cost
            pigs_mask(g, lg, C, need_at(g, p, g[G_MTO], C, tab) - g[G_MCOUNT], pigs_along(g, p, g[G_MFROM], C))
            if decide(g, lg, C, K_MOVE_PIGS, p):
                return
        elif ph == PH_DORIAN:
            kind = dorian_mask(g, lg, C, tab, p)
            if kind >= 0 and decide(g, lg, C, kind, p):
                return
        elif ph == PH_RING:
            if ring_mask(g, lg, C, p) >= 0 and decide(g, lg, C, K_ABILITY_FIELD, p):
                return
        elif ph == PH_NEXT:                       # RC-R3, RC-R5, RC-R7
            g[G_ACTIVE] += 1
            if g[G_ACTIVE] == g[G_NP]:
                g[G_ACTIVE] = 0
                g[G_ROUND] += 1
            if g[G_ROUND] + 1 >= C[C_SPACES]:     # the last space: final scoring (engine.py)
                g[G_PHASE] = PH_DONE
            else:
                g[G_PHASE] = PH_TURN
        else:                                     # PH_STOP, PH_DONE
            lg[:] = False
            g[G_KIND] = K_STOP if ph == PH_STOP else K_DONE
            g[G_DEC] = -1
            return


@kernel
def uniform_pick(g, lg, C, keys, n_strategies, d):
    """The action the runner's loop with the ``random`` strategy draws (``strategies.base.choose_uniform``:
    the legal action of rank ``floor(u x count)``, ``u = uniform(keys[slot], 1024 x decisions)``;
    a seat of no experiment slot takes action 0); ``d``: the game's decisions so far."""
    n = C[C_NP]
    me = g[G_DEC]
    if me < 0:                                    # as numpy's index -1 in game.slot_of's table
        me += n
    slot = (g[G_START_SLOT] + me) % n
    if slot >= n_strategies:
        return 0
    return uniform_choice(lg, uniform(keys[slot], d * 1024))


@kernel
def uniform_choice(lg, u):
    """``strategies.base.choose_uniform`` for one row: the legal action of rank ``floor(u x count)``
    (0 when none is legal)."""
    count = 0
    for x in range(lg.shape[0]):
        count += lg[x]
    rank = min(int(u * count), max(count - 1, 0))
    for x in range(lg.shape[0]):
        if lg[x]:
            if rank == 0:
                return x
            rank -= 1
    return 0


@kernel
def step_batch(m, hidden, legal, C, tab, atoms, actions, decide_now, keys, n_strategies, decisions):
    """Apply each game's action (if ``decide_now``; games over or stopped are skipped), then
    advance every game. The actions must be legal: ``engine.step`` checks them first.
    With ``keys`` (uint64[slots, B]; of length 0 otherwise) every game instead plays from its
    decision to its end (or an engine stop) with uniform random choices (``uniform_pick``), game
    by game (``game.play_uniform``), its ``decisions[b]`` counted on. One entry point for both and
    one call of ``apply`` and ``advance`` in it, so the engine is compiled once (a separate
    whole-game function would re-optimise the whole engine again: issue #11); a whole game at a
    time keeps its row in the cache."""
    play = keys.shape[0] > 0
    for b in range(m.shape[0]):
        g, h, lg = m[b], hidden[b], legal[b]
        act = decide_now or play
        d = decisions[b] if play else 0
        while True:
            if act:
                if g[G_KIND] == K_DONE or g[G_KIND] == K_STOP:
                    break
                a = uniform_pick(g, lg, C, keys[:, b], n_strategies, d) if play else actions[b]
                apply(g, h, C, tab, atoms, a)
            advance(g, h, lg, C, tab, atoms)
            if not play:
                break
            d += 1
            act = True
        if play:
            decisions[b] = d
