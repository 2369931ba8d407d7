"""The flow: ``apply`` an action, ``decide`` at a decision, ``advance`` each game to its next
decision with >= 2 legal actions, and ``step_batch`` over the batch.
"""
from __future__ import annotations

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import common, draft, queue, knowledge, movement, turn
from sim.games.recall.kernel.common import (
    A_ARG, A_END, A_ITEM, A_N, A_OP, A_OPTION, A_P, A_R, A_RECALL, A_W, C_AUTO, C_COPY_EVER,
    C_DRAFT, C_EXO, C_KEEP3, C_MAXDEC, C_NGOAL_SP, C_NGREEN, C_NGREY, C_NPATH_SP, C_NPROD,
    C_NYELLOW, C_O_CHEST, C_O_COUNT, C_O_FIELD, C_O_OPT, C_O_PICK, C_O_PLAY, C_O_RING, C_O_USE,
    C_PER_STACK, C_SPACES, C_START1, C_START2, C_TRK_LAST, C_T_ABEFF, C_T_CHEST, C_T_DARK,
    C_T_EROWS, C_T_EVT, C_T_GOAL, C_T_GOAL_SP, C_T_ITEM_AB, C_T_KEY, C_T_OPTS, C_T_PATH_SP,
    C_T_PROD, C_T_PROD_BLD, C_T_YELLOW, C_U, DRAFT_RANDOM, EV_ART, EV_BONUS, EV_KEY, EV_PROD,
    S_ABILITY, S_FREE, S_GUARD, S_PICK, S_PRODUCTION, S_REWARD, can_use, clear_event, kernel,
    pay_ability, pay_cost, payable, seat, special_index, stop)
from sim.games.recall.kernel.draft import (
    deal_old_tribes, draft_mask, draft_picks, draft_seat, place_start_followers, take_draft)
from sim.games.recall.kernel.queue import (
    compiled_atom, enqueue, execute, field_effect, has_items, push_effect, push_entry,
    queue_reward, remove_pending, start_queue)
from sim.games.recall.kernel.knowledge import items_left, knowledge_step
from sim.games.recall.kernel.movement import (
    artifact_cost, exo_usable, move_targets, need_at, pay_followers, take_artifact)
from sim.games.recall.kernel.turn import (
    after_event, end_turn, event_mask, free_actions, main_mask, recharge, use_event_ability)
from sim.games.recall.state import (
    F_ART, F_START, G_ACTIVE, G_CARD, G_DARK, G_DEC, G_DSTEP, G_EVENT_USED, G_FIELD, G_GREEN,
    G_GREEN_TOP, G_GREY, G_GREY_TOP, G_GUARD, G_KIND, G_KLEFT, G_KTRACK, G_LEFT, G_MCOUNT, G_MFROM,
    G_MOVES, G_MTO, G_NF, G_NP, G_OLD_ITEMS, G_OWNER, G_PEND, G_PEND_N, G_PHASE, G_PROD_LEFT,
    G_PROD_USED, G_QI, G_QN, G_RECHARGED, G_RET, G_ROUND, G_SAVE_RET, G_SELLF, G_SUBRET,
    G_TURN_DEC, G_YELLOW, H_GOALS, H_GREEN, H_GREY, K_BUY, K_COPY, K_CRYSTAL, K_DONE, K_DRAFT,
    K_EFFECT, K_EVENT, K_GOAL, K_ITEM, K_KEY, K_MAIN, K_MOVE_COUNT, K_MOVE_FROM, K_MOVE_TO, K_PATH,
    K_PAYMENT, K_PAY_MOVE, K_PLACE, K_PRODUCE, K_RECHARGE, K_SELL, K_SELL_COUNT, K_START_FIELD,
    K_STOP, K_TRACK, K_TURN_END, K_UNITS, PEND_W, PH_ART_EVENT, PH_BONUS_EVENT, PH_BUY, PH_COPY,
    PH_CRYSTAL, PH_DONE, PH_DRAFT, PH_EFFECT, PH_EXEC, PH_GOAL, PH_ITEM, PH_KBONUS, PH_KEY,
    PH_KEY_EVENT, PH_KSTEP, PH_KTRACK, PH_MAIN, PH_MOVE_COUNT, PH_MOVE_FROM, PH_MOVE_TO, PH_NEXT,
    PH_OLD, PH_PATH, PH_PAYMENT, PH_PAY_MOVE, PH_PLACE, PH_PRODUCE, PH_PROD_EVENT, PH_RECHARGE,
    PH_SELL, PH_SELL_COUNT, PH_SOLO, PH_STOP, PH_TURN, PH_TURN_END, PH_UNITS, P_AVAIL, P_CHESTS,
    P_CR, P_EVER, P_FOL, P_OWN, P_PATHS, P_PLAYS, P_RECALLS, P_SLOT, P_START, P_STEPS_LOST,
    P_SUPPLY, P_TRK)

kernel_cache.watch(__file__, st, common, draft, queue, knowledge, movement, turn)


@kernel
def apply(g, h, C, tab, atoms, a):
    """Apply action ``a`` at the pending decision (legal: checked by the caller)."""
    k = g[G_KIND]
    o = C[C_O_OPT]
    p = g[G_ACTIVE]
    b = seat(p)
    free = a >= C[C_O_USE] and k != K_PAYMENT
    if k == K_START_FIELD:
        g[seat(0) + P_START] = C[C_START1] if a == o else C[C_START2]
        g[G_PHASE] = PH_DRAFT
        place_start_followers(g, C)
    elif k == K_DRAFT:
        take_draft(g, C, a - o)
    elif k == K_EVENT:
        if a == A_END:
            g[G_PHASE] = after_event(g[G_PHASE])
        else:
            use_event_ability(g, a - C[C_O_USE], C, tab, atoms)
    elif free:                                              # RC-A70: then the same node again
        if a == C[C_O_RING]:
            stop(g, S_FREE)
        elif a >= C[C_O_CHEST]:
            x = a - C[C_O_CHEST]
            g[b + P_CHESTS + x] -= 1
            if not queue_reward(g, tab[C[C_T_CHEST] + x], g[G_PHASE], C, tab, atoms, False):
                stop(g, S_FREE)
        else:
            u = a - C[C_O_USE]
            pay_ability(g, p, u, C, tab)
            e = tab[C[C_T_ABEFF] + u]
            if e < 0 or not queue_reward(g, e, g[G_PHASE], C, tab, atoms, True):
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
            e, item, dev1 = g[q], g[q + 1], g[q + 3]
            g[G_OWNER] = g[q + 2]
            remove_pending(g, i)
            r, alts = -1, 0
            if e >= 0:
                for x in range(tab[C[C_T_EROWS] + 2 * e], tab[C[C_T_EROWS] + 2 * e + 1]):
                    if atoms[x, A_ITEM] == item:
                        r = x
                        alts += 1
            start_queue(g, PH_EFFECT)
            if alts != 1 or not compiled_atom(atoms[r, A_OP]) or dev1:
                stop(g, S_PICK)
            else:
                enqueue(g, r, atoms[r, A_N])
                g[G_PHASE] = PH_EXEC
    elif k == K_PRODUCE:
        if a == A_END:
            g[G_PHASE] = PH_RECHARGE
        else:                                               # RC-R38, RC-R41
            i = a - o
            g[G_PROD_USED] |= 1 << i
            g[G_PROD_LEFT] -= 1
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
        f, x = g[G_MFROM], g[G_MTO]
        g[b + P_FOL + f] -= c
        g[b + P_FOL + x] += c
        g[G_MOVES] -= 1
        g[G_MCOUNT] = c
        g[G_PHASE] = PH_MOVE_FROM
        if g[F_ART + x] >= 0:                               # RC-R99..R101, RC-A18
            if artifact_cost(g, p, x, C, tab) > 0 and exo_usable(g, p, C, tab):
                g[G_PHASE] = PH_PAYMENT
            else:
                pay_followers(g, p, x, artifact_cost(g, p, x, C, tab))
                take_artifact(g, C, tab, atoms)
    elif k == K_KEY:
        i = a - o
        if g[G_LEFT] == 1:
            g[G_YELLOW + i] -= 1
            g[b + P_AVAIL + tab[C[C_T_YELLOW] + i]] += 1
        else:                                               # the display slot refilled from the deck
            green = g[G_LEFT] == 2
            col, top = (G_GREEN, G_GREEN_TOP) if green else (G_GREY, G_GREY_TOP)
            deck, size = (H_GREEN, C[C_NGREEN]) if green else (H_GREY, C[C_NGREY])
            g[b + P_AVAIL + g[col + i]] += 1
            if g[top] < size:
                g[col + i] = h[deck + g[top]]
                g[top] += 1
            else:
                g[col + i] = -1
        g[G_PHASE] = PH_EXEC
    elif k == K_PAYMENT:                                    # RC-R244: Exoskelet, or the followers
        x = g[G_MTO]
        if a == A_END:
            pay_followers(g, p, x, artifact_cost(g, p, x, C, tab))
        else:
            pay_ability(g, p, C[C_EXO], C, tab)
        take_artifact(g, C, tab, atoms)
    elif k == K_SELL_COUNT:
        c = a - C[C_O_COUNT] + 1
        g[b + P_FOL + g[G_SELLF]] -= c
        g[b + P_SUPPLY] += c
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
        if not queue_reward(g, tab[C[C_T_DARK] + g[G_DARK + pos]], PH_BONUS_EVENT, C, tab, atoms, False):
            stop(g, S_REWARD)
    elif k == K_GOAL:                                       # RC-R189
        col = H_GOALS + 3 * p + a - o
        goal = h[col]
        h[col] = -1
        if not queue_reward(g, tab[C[C_T_GOAL] + goal], PH_TURN_END, C, tab, atoms, False):
            stop(g, S_REWARD)


@kernel
def decide(g, h, lg, C, tab, atoms, kind, p):
    """Stop at the decision if it has >= 2 legal actions (True); apply a single one at once.
    In a turn, the asked decision after ``max_decisions_per_turn`` ends the turn (RC-A68)."""
    count = 0
    one = -1
    for a in range(lg.shape[0]):
        if lg[a]:
            count += 1
            one = a
    g[G_KIND] = kind
    g[G_DEC] = p
    if count >= 2:
        if g[G_PHASE] >= PH_MAIN:
            if g[G_TURN_DEC] >= C[C_MAXDEC]:
                lg[:] = False
                g[G_GUARD] += 1
                stop(g, S_GUARD)
                return False
            g[G_TURN_DEC] += 1
        return True
    if count == 1:
        lg[one] = False
        apply(g, h, C, tab, atoms, one)
    return False


@kernel
def advance(g, h, lg, C, tab, atoms):
    lg[:] = False
    while True:
        ph = g[G_PHASE]
        p = g[G_ACTIVE]
        if ph == PH_SOLO:
            if g[G_NP] == 1:                      # RC-V11: start field 1 or 2
                lg[C[C_O_OPT]] = True
                lg[C[C_O_OPT] + 1] = True
                if decide(g, h, lg, C, tab, atoms, K_START_FIELD, 0):
                    return
            else:
                place_start_followers(g, C)
                g[G_PHASE] = PH_DRAFT
        elif ph == PH_DRAFT:
            if C[C_DRAFT] == DRAFT_RANDOM or g[G_DSTEP] >= draft_picks(g, C):
                g[G_PHASE] = PH_OLD
            else:
                draft_mask(g, lg, C)
                if decide(g, h, lg, C, tab, atoms, K_DRAFT, draft_seat(g)):
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
            if special_index(g, C, tab, C[C_T_PATH_SP], C[C_NPATH_SP]) >= 0:
                g[G_PHASE] = PH_PATH
            elif special_index(g, C, tab, C[C_T_GOAL_SP], C[C_NGOAL_SP]) >= 0:
                g[G_PHASE] = PH_GOAL
            else:
                g[G_PHASE] = PH_MAIN
        elif ph == PH_MAIN:
            main_mask(g, lg, C, tab, atoms, p)
            if decide(g, h, lg, C, tab, atoms, K_MAIN, p):
                return
        elif ph == PH_KEY_EVENT or ph == PH_BONUS_EVENT or ph == PH_PROD_EVENT or ph == PH_KBONUS or ph == PH_ART_EVENT:
            ev = EV_KEY if ph == PH_KEY_EVENT else (EV_PROD if ph == PH_PROD_EVENT else (EV_ART if ph == PH_ART_EVENT else EV_BONUS))
            n = event_mask(g, lg, C, tab, p, ev)
            if n > 0 and C[C_AUTO]:
                lg[:] = False
                for a in range(C[C_U]):
                    if g[G_EVENT_USED + a] == 0 and tab[C[C_T_EVT] + a] == ev and can_use(g, p, a, C, tab):
                        use_event_ability(g, a, C, tab, atoms)
                        break
            elif n > 0:
                if decide(g, h, lg, C, tab, atoms, K_EVENT, p):
                    return
            else:
                lg[:] = False
                g[G_PHASE] = after_event(ph)
        elif ph == PH_EFFECT:                     # RC-R15, RC-R16, RC-R19
            if g[G_PEND_N] == 0:
                g[G_PHASE] = PH_TURN_END
            else:
                for i in range(g[G_PEND_N]):
                    lg[C[C_O_PICK] + i] = True
                lg[A_END] = True
                free_actions(g, lg, C, tab, p, True)
                if decide(g, h, lg, C, tab, atoms, K_EFFECT, p):
                    return
        elif ph == PH_PRODUCE:                    # RC-R38, RC-R41
            if g[G_PROD_LEFT] > 0:
                for i in range(C[C_NPROD]):
                    lg[C[C_O_OPT] + i] = tab[C[C_T_PROD_BLD] + i] < 0 and (g[G_PROD_USED] >> i) & 1 == 0
                lg[A_END] = True
                free_actions(g, lg, C, tab, p, True)
                if decide(g, h, lg, C, tab, atoms, K_PRODUCE, p):
                    return
            else:
                g[G_PHASE] = PH_RECHARGE
        elif ph == PH_RECHARGE:                   # RC-R44, RC-A70
            lg[A_END] = True
            free_actions(g, lg, C, tab, p, True)
            if decide(g, h, lg, C, tab, atoms, K_RECHARGE, p):
                return
        elif ph == PH_TURN_END:                   # RC-R9: free actions before the turn ends
            lg[A_END] = True
            free_actions(g, lg, C, tab, p, g[G_RECHARGED] == 0)
            if decide(g, h, lg, C, tab, atoms, K_TURN_END, p):
                return
        elif ph == PH_PATH:
            lg[C[C_O_OPT]] = True
            lg[C[C_O_OPT] + 1] = True
            free_actions(g, lg, C, tab, p, True)
            if decide(g, h, lg, C, tab, atoms, K_PATH, p):
                return
        elif ph == PH_GOAL:
            if g[G_NP] == 1 and C[C_KEEP3]:
                g[G_PHASE] = PH_TURN_END
            else:
                for i in range(3):
                    lg[C[C_O_OPT] + i] = h[H_GOALS + 3 * p + i] >= 0
                free_actions(g, lg, C, tab, p, True)
                if decide(g, h, lg, C, tab, atoms, K_GOAL, p):
                    return
        elif ph == PH_EXEC:
            if g[G_QI] >= g[G_QN]:
                g[G_PHASE] = g[G_RET]
            else:
                execute(g, h, C, tab, atoms)
        elif ph == PH_PLACE:                      # RC-R76: own followers or the own start field
            b = seat(p)
            for f in range(g[G_NF]):
                lg[C[C_O_FIELD] + f] = g[b + P_FOL + f] > 0 or g[F_START + f] == g[b + P_START]
            if decide(g, h, lg, C, tab, atoms, K_PLACE, p):
                return
        elif ph == PH_CRYSTAL:
            if g[G_LEFT] <= 0:
                g[G_PHASE] = PH_EXEC
            else:
                b = seat(p)
                lg[A_END] = True
                lg[C[C_O_OPT]] = g[b + P_CR] > 0
                lg[C[C_O_OPT] + 1] = g[b + P_CR + 1] > 0
                if decide(g, h, lg, C, tab, atoms, K_CRYSTAL, p):
                    return
        elif ph == PH_BUY:
            lg[A_END] = True
            r = g[G_LEFT]
            for i in range(atoms[r, A_ARG]):
                x = C[C_T_OPTS] + 4 * (atoms[r, A_OPTION] + i)
                lg[C[C_O_OPT] + i] = payable(g, p, C, tab[x], tab[x + 1], tab[x + 2])
            if decide(g, h, lg, C, tab, atoms, K_BUY, p):
                return
        elif ph == PH_SELL:
            b = seat(p)
            lg[A_END] = True
            for f in range(g[G_NF]):
                lg[C[C_O_FIELD] + f] = g[b + P_FOL + f] > 0
            if decide(g, h, lg, C, tab, atoms, K_SELL, p):
                return
        elif ph == PH_SELL_COUNT:
            for c in range(min(g[seat(p) + P_FOL + g[G_SELLF]], 23)):
                lg[C[C_O_COUNT] + c] = True
            if decide(g, h, lg, C, tab, atoms, K_SELL_COUNT, p):
                return
        elif ph == PH_COPY:                       # the letters RC-A40 allows
            b = seat(p)
            for x in range(5):
                lg[C[C_O_OPT] + x] = (g[b + P_EVER + x] == 1) if C[C_COPY_EVER] else (g[b + P_SLOT + x] >= 0)
            if decide(g, h, lg, C, tab, atoms, K_COPY, p):
                return
        elif ph == PH_UNITS:
            r = g[G_LEFT]
            bits = atoms[r, A_ARG]
            n = atoms[r, A_N]
            for m in range(n + 1):
                lg[C[C_O_OPT] + m] = (m == 0 or bits & 1) and (m == n or bits & 2)
            if decide(g, h, lg, C, tab, atoms, K_UNITS, p):
                return
        elif ph == PH_KTRACK:                     # K:any: one track for all steps
            b = seat(p)
            for t in range(3):
                lg[C[C_O_OPT] + t] = g[b + P_TRK + t] < C[C_TRK_LAST]
            if not lg[C[C_O_OPT]:C[C_O_OPT] + 3].any():
                g[b + P_STEPS_LOST] += g[G_KLEFT]
                g[G_PHASE] = PH_EXEC
            elif decide(g, h, lg, C, tab, atoms, K_TRACK, p):
                return
        elif ph == PH_KSTEP:
            knowledge_step(g, C, tab, atoms)
        elif ph == PH_ITEM:                       # RC-R164, RC-R166: an item left on the stack
            t = g[G_KTRACK]
            for i in range(items_left(g, t, C)):
                lg[C[C_O_OPT] + i] = True
            if decide(g, h, lg, C, tab, atoms, K_ITEM, p):
                return
        elif ph == PH_KEY:                        # RC-R133, RC-R191; none left: nothing (RC-A21)
            colour = g[G_LEFT]
            if colour == 1:
                for i in range(C[C_NYELLOW]):
                    lg[C[C_O_OPT] + i] = g[G_YELLOW + i] > 0
            else:
                col = G_GREEN if colour == 2 else G_GREY
                for i in range(3):
                    lg[C[C_O_OPT] + i] = g[col + i] >= 0
            if not lg[C[C_O_OPT]:C[C_O_OPT] + 4].any():
                g[G_PHASE] = PH_EXEC
            elif decide(g, h, lg, C, tab, atoms, K_KEY, p):
                return
        elif ph == PH_PAYMENT:
            lg[C[C_O_USE] + C[C_EXO]] = True
            lg[A_END] = g[G_MCOUNT] >= artifact_cost(g, p, g[G_MTO], C, tab)
            if decide(g, h, lg, C, tab, atoms, K_PAYMENT, p):
                return
        elif ph == PH_PAY_MOVE:                   # the options whose crystal is payable (- always)
            r = g[G_LEFT]
            for i in range(atoms[r, A_ARG]):
                x = C[C_T_OPTS] + 4 * (atoms[r, A_OPTION] + i)
                c = tab[x]
                lg[C[C_O_OPT] + i] = c < 0 or payable(g, p, C, 1 if c == 0 else 0, 1 if c == 1 else 0, 1 if c == 2 else 0)
            if decide(g, h, lg, C, tab, atoms, K_PAY_MOVE, p):
                return
        elif ph == PH_MOVE_FROM:
            if g[G_SAVE_RET] >= 0:                # back from an artifact's reward: the outer queue
                g[G_QN] = 1
                g[G_QI] = 1
                g[G_RET] = g[G_SAVE_RET]
                g[G_SAVE_RET] = -1
            if g[G_MOVES] <= 0:
                g[G_PHASE] = PH_EXEC
            else:
                b = seat(p)
                lg[A_END] = True
                for f in range(g[G_NF]):
                    lg[C[C_O_FIELD] + f] = g[b + P_FOL + f] > 0 and move_targets(g, lg[:0], p, f, C, tab) > 0
                if decide(g, h, lg, C, tab, atoms, K_MOVE_FROM, p):
                    return
        elif ph == PH_MOVE_TO:
            move_targets(g, lg, p, g[G_MFROM], C, tab)
            if decide(g, h, lg, C, tab, atoms, K_MOVE_TO, p):
                return
        elif ph == PH_MOVE_COUNT:                 # RC-R84, RC-R87
            need = need_at(g, p, g[G_MTO], C, tab)
            for c in range(max(1, need), min(g[seat(p) + P_FOL + g[G_MFROM]], 23) + 1):
                lg[C[C_O_COUNT] + c - 1] = True
            if decide(g, h, lg, C, tab, atoms, K_MOVE_COUNT, p):
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
def step_batch(m, hidden, legal, C, tab, atoms, actions, decide_now):
    """Apply each game's action (if ``decide_now``; games over or stopped are skipped), then
    advance every game. The actions must be legal: ``engine.step`` checks them first."""
    for b in range(m.shape[0]):
        g = m[b]
        if decide_now:
            if g[G_KIND] == K_DONE or g[G_KIND] == K_STOP:
                continue
            apply(g, hidden[b], C, tab, atoms, actions[b])
        advance(g, hidden[b], legal[b], C, tab, atoms)
