"""The scripted Animal Kingdoms plans as one numba kernel: scalar code per game over the observation.

``choose`` scores, for each game of a batch, only what its decision kind needs (a turn: the
claims, one rally subset, the retreat; a battle: each hand card's chance to win; modifiers; a
council) and returns the legal action of highest value, ties broken by the strategy's keyed
uniforms exactly as ``strategies.base.argmax_tiebreak(values, legal, rng.uniform(A))`` would:
the tie-break draw ``1e-9 * u`` can only matter for actions within 1e-9 of the best, so only
those draw their uniform (the same counter-based draw as ``StrategyRng.uniform``).

Battle cards: the cards the observer has not seen (not in its hand, the columns, the discard
pile, the robot's cards or this round's reveal) are where the other hands come from; each
opposing participant is modelled as playing the highest of its hand (AK-E12), drawn from those
cards, and each hand card's value is its chance to win (AK-E12..E15, a printed 1 beats a printed
8, AK-A26/A27; modifiers held on both sides, AK-E14) times the stake (the tile against second
place), minus the cost of spending the card. Solo: the robot's revealed cards are drawn from the
unseen cards (AK-V16, AK-A40).

Parameters arrive as two arrays (numba freezes globals into its on-disk cache, so nothing here
is computed from the content): ``ip`` layout and integer switches, ``fw`` float weights; their
slots are the ``I_*`` and ``F_*`` constants below, filled by ``strategies.animal_kingdoms``; one
row per plan, so several plans (seats) decide in one call.
"""
from __future__ import annotations

import numpy as np
from numba import njit

# ip slots
I_N, I_K, I_H, I_P, I_M, I_T, I_A_RALLY, I_A_RETREAT, I_A_BATTLE, I_A_MODS, I_A_YES, I_SOLO, I_ROBOT_CARDS, \
    I_COUNCIL, I_MODVAL, I_PEACE, I_PEACE_NOTHING, I_BY_VALUE = range(18)
# fw slots
F_FIRST, F_TIE, F_SECOND, F_THIRD, F_CAPITAL, F_SIZE, F_SPREAD, F_CARD, F_RALLY, F_REDRAW, F_RETREAT_BELOW, \
    F_MAX_RALLIES, F_RETREAT_TILE, F_MODIFIER, F_FORFEIT = range(15)
NI, NF = 18, 15

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
_TO_UNIT = 1.0 / float(1 << 53)
_RANKS = 64                      # rank slots of the unseen-card counts (printed ranks are 1..8 by default)


@njit(cache=True)
def _mix(x):
    z = x + _GOLDEN
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def _uniform(key, counter):
    """``sim.core.rng.uniform(key, counter)`` for one stream and counter."""
    return np.float64(_mix(key ^ _mix(np.uint64(counter))) >> _S11) * _TO_UNIT


@njit(cache=True)
def _points(x, ahead, level, tile, first, tie, second, third, modifier, peace, rival_capital, peace_nothing):
    """Points (weighted) of a kingdom for x markers with ``ahead`` opponents above and ``level`` equal.

    Sole first place is never worth less than second, whatever the plan's weights. A tie for
    first is a battle (AK-E10): won (chance ``tie`` against one opponent, shared out among more)
    it is first place, lost it is second place and a modifier (AK-E18, AK-E20), so a tie is worth
    between second place and sole first. In the peace variant (``peace``) there is no battle: a
    tied opponent holding the capital (``rival_capital``) takes first and the others second, or
    nothing (``peace_nothing``, AK-V2, AK-A36); else every tied player scores the tile (AK-V3).
    """
    if x < 1:
        return 0.0
    if ahead == 0:
        win = max(first * tile, second)
        if level == 0:
            return win
        if peace:
            if rival_capital:
                return 0.0 if peace_nothing else second
            return win
        p = min(1.0, tie * 2.0 / (level + 1))
        return min(p * win + (1.0 - p) * (second + modifier), win)
    if ahead == 1:
        return second
    if ahead == 2:
        return third
    return 0.0


@njit(cache=True, inline="always")
def _turn_values(g, me, vals, cnt, hrank, cost, legal, hand, ordm, cap, council, fpn, fp, st_rallies, rt_owner, age,
                 rank, size, ips, fws, m):
    N, K, H, P, T = ips[m, I_N], ips[m, I_K], ips[m, I_H], ips[m, I_P], ips[m, I_T]
    A_RALLY, A_RETREAT = ips[m, I_A_RALLY], ips[m, I_A_RETREAT]
    for a in range(vals.shape[0]):
        vals[a] = -1e9
    card = fws[m, F_CARD]
    for h in range(H):
        c = hand[g, h]
        hrank[h] = rank[c] if c < N else 0
        cost[h] = card * np.float64(hrank[h]) / 8.0
    first, tie, second, third = fws[m, F_FIRST], fws[m, F_TIE], fws[m, F_SECOND], fws[m, F_THIRD]
    peace, peace_nothing = ips[m, I_PEACE] != 0, ips[m, I_PEACE_NOTHING] != 0
    modifier = 0.0 if peace else fws[m, F_MODIFIER]         # the peace variant has no modifiers (AK-V4)
    filled = 0.0
    spaces = 0.0
    for k in range(K):
        ordinary = 0
        for p in range(P):
            o = np.int64(ordm[g, k, p])
            ordinary += o
            cnt[p] = o + (1 if cap[g, k] == p else 0) + np.int64(council[g, k, p])
        mine = cnt[me]
        j = min(np.int64(fpn[g, k]), T - 1)
        tile = np.float64(fp[g, k, j])
        ahead0 = level0 = ahead1 = level1 = 0
        for p in range(P):
            if p != me:
                c = cnt[p]
                ahead0 += c > mine
                level0 += c == mine
                ahead1 += c > mine + 1
                level1 += c == mine + 1
        holder = np.int64(cap[g, k])
        rival0 = holder >= 0 and holder != me and cnt[holder] == mine         # a tied rival holds the capital
        rival1 = holder >= 0 and holder != me and cnt[holder] == mine + 1
        gain = (_points(mine + 1, ahead1, level1, tile, first, tie, second, third, modifier, peace, rival1,
                        peace_nothing)
                - _points(mine, ahead0, level0, tile, first, tie, second, third, modifier, peace, rival0,
                          peace_nothing))
        capital = ordinary >= np.int64(size[k]) - 1 and cap[g, k] < 0
        sz = np.float64(size[k])
        filled += np.float64(ordinary) + (1.0 if cap[g, k] >= 0 else 0.0)
        spaces += sz
        bonus = gain + fws[m, F_SIZE] * sz
        bonus = bonus + (fws[m, F_CAPITAL] * sz) * (1.0 if capital else 0.0)
        bonus = bonus + fws[m, F_SPREAD] * (1.0 if mine == 0 else 0.0)
        for h in range(H):
            a = h * K + k
            v = bonus - cost[h]
            vals[a] = v
    # rally (AK-R29, AK-R30): its points, plus fresh cards for those no kingdom allows now (they
    # are the ones discarded; else the lowest card)
    subset = 0
    dead = 0
    lowest = 0
    low = 99
    for h in range(H):
        valid = hand[g, h] < N
        playable = False
        for k in range(K):
            playable |= legal[g, h * K + k]
        if valid and not playable:
            subset |= 1 << h
            dead += 1
        r = hrank[h] if valid else 99
        if r < low:
            low = r
            lowest = h
    if subset == 0:
        subset = 1 << lowest
    may_rally = st_rallies[g, me] < fws[m, F_MAX_RALLIES]
    vals[A_RALLY + subset - 1] = fws[m, F_RALLY] + fws[m, F_REDRAW] * dead if may_rally else -1e8
    # retreat: the age's first-retreat tile while it is free (AK-R34), less what the rest of the age
    # would bring (``forfeit`` x the share of the board still unclaimed: a retreat gives up every
    # later claim of the age); else only when nothing is worth more
    tile_free = rt_owner[g, np.int64(age[g])] < 0
    rest = 1.0 - filled / max(spaces, 1.0)
    by_tile = fws[m, F_RETREAT_TILE] - fws[m, F_FORFEIT] * rest if tile_free and fws[m, F_RETREAT_TILE] > 0.0 else -1e9
    vals[A_RETREAT] = max(fws[m, F_RETREAT_BELOW], by_tile)


@njit(cache=True, inline="always")
def _beats(x, vx, y, vy, by_value):
    """Chance that printed rank x (battle value vx) beats printed y (value vy): 1, 1/2 (a new round)
    or 0. "1 beats 8" compares printed ranks, or battle values (``by_value``, AK-A26)."""
    if (vx == 1 and vy == 8) if by_value else (x == 1 and y == 8):
        return 1.0
    if (vx == 8 and vy == 1) if by_value else (x == 8 and y == 1):
        return 0.0
    if vx > vy:
        return 1.0
    return 0.5 if vx == vy else 0.0


@njit(cache=True, inline="always")
def _battle_values(g, me, vals, unseen, seen, pmax, hand, hand_count, col, disc, bonus, rcards, revealed, part, lost,
                   mods, fpn, fp, sj, order, rank, ips, fws, m):
    """Each hand card's chance to win the battle x the stake, minus the card's cost."""
    N, H, P, T = ips[m, I_N], ips[m, I_H], ips[m, I_P], ips[m, I_T]
    MV = ips[m, I_MODVAL]
    for r in range(_RANKS):
        unseen[r] = 0
    for c in range(N + 1):
        seen[c] = False
    for h in range(H):
        seen[min(np.int64(hand[g, h]), N)] = True
    for k in range(col.shape[1]):
        for i in range(col.shape[2]):
            seen[min(np.int64(col[g, k, i]), N)] = True
    for i in range(bonus.shape[1]):
        seen[min(np.int64(bonus[g, i]), N)] = True
    for i in range(rcards.shape[1]):
        seen[min(np.int64(rcards[g, i]), N)] = True
    for p in range(P):
        seen[min(np.int64(revealed[g, p]), N)] = True
    total = 0
    top = 0
    for c in range(N):
        if not seen[c] and not disc[g, c]:
            r = np.int64(rank[c])
            unseen[r] += 1
            total += 1
            top = max(top, r)
    k = order[np.int64(sj[g])]
    tile = np.float64(fp[g, k, min(np.int64(fpn[g, k]), T - 1)])
    stake = max(fws[m, F_FIRST] * tile - fws[m, F_SECOND] - fws[m, F_MODIFIER], 0.5)
    solo = ips[m, I_SOLO] != 0
    if not solo:
        # each opposing participant's highest card: P(max = y) = F(y) - F(y - 1), where
        # F(y) = C(unseen cards <= y, hc) / C(unseen cards, hc)
        for p in range(P):
            if p == me or not part[g, p] or lost[g, p]:
                continue
            hc = min(np.int64(hand_count[g, p]), total)
            below = 0
            prev = 0.0
            for y in range(top + 1):
                below += unseen[y]
                f = 1.0
                for i in range(hc):
                    f *= max(below - i, 0) / (total - i)
                pmax[p, y] = f - prev
                prev = f
    mine_mods = np.int64(mods[g, me])
    for h in range(H):
        c = np.int64(hand[g, h])
        if c >= N:
            continue
        x = np.int64(rank[c])
        vx = x + MV * mine_mods
        win = 1.0
        if solo:
            # the robot reveals its cards from the unseen ones; any card that beats ours wins (AK-A40)
            safe = 0
            for y in range(top + 1):
                if unseen[y] and not ((y == 1 and x == 8) or (not (x == 1 and y == 8) and y > vx)):
                    safe += unseen[y]
            q = safe / max(total, 1)
            win = q ** ips[m, I_ROBOT_CARDS]
        else:
            by_value = ips[m, I_BY_VALUE] != 0
            win0 = 1.0                              # without own modifiers (by value a 1 may need none)
            for p in range(P):
                if p == me or not part[g, p] or lost[g, p]:
                    continue
                vmod = MV * np.int64(mods[g, p])
                beat = 0.0
                beat0 = 0.0
                for y in range(top + 1):
                    if unseen[y]:
                        beat += pmax[p, y] * _beats(x, vx, y, y + vmod, by_value)
                        beat0 += pmax[p, y] * _beats(x, x, y, y + vmod, by_value)
                win *= beat
                win0 *= beat0
            if by_value:
                win = max(win, win0)                # modifiers are chosen after the reveal
        vals[ips[m, I_A_BATTLE] + h] = stake * win - fws[m, F_CARD] * np.float64(x) / 8.0


@njit(cache=True, inline="always")
def _mod_choice(g, me, revealed, rcards, mods, rank, ips, m):
    """The fewest modifiers that beat every revealed opposing card (else none); a printed 1 beats a
    printed 8 whatever the modifiers (AK-E13, AK-A26), so they neither help nor are needed there."""
    N, P = ips[m, I_N], ips[m, I_P]
    mine = np.int64(rank[min(np.int64(revealed[g, me]), N)])
    held = np.int64(mods[g, me])
    if ips[m, I_BY_VALUE] and not ips[m, I_SOLO]:
        # "1 beats 8" by battle values (AK-A26): modifiers can lift an 8 out of a 1's reach, and
        # spoil a 1 against an 8; the fewest that beat every revealed card by value, else none
        for k in range(min(ips[m, I_M], held) + 1):
            v = mine + ips[m, I_MODVAL] * k
            ok = True
            for p in range(P):
                c = N if p == me else np.int64(revealed[g, p])
                if c < N:
                    r = np.int64(rank[c])
                    ok &= (v == 1 and r == 8) or (not (v == 8 and r == 1) and v > r)
            if ok:
                return k
        return 0
    need = -(1 << 62)
    if ips[m, I_SOLO]:
        for i in range(rcards.shape[1]):
            c = np.int64(rcards[g, i])
            if c < N:
                r = np.int64(rank[c])
                if r == 1 and mine == 8:
                    return 0
                if not (mine == 1 and r == 8):
                    need = max(need, r)
    else:
        for p in range(P):
            c = N if p == me else np.int64(revealed[g, p])
            if c < N:
                r = np.int64(rank[c])
                if r == 1 and mine == 8:
                    return 0
                if not (mine == 1 and r == 8):
                    need = max(need, r + 1)
    for k in range(ips[m, I_M] + 1):
        if k <= held and mine + ips[m, I_MODVAL] * k >= need:
            return k
    return 0


@njit(cache=True)
def choose(player, phase, legal, keys, counter, hand, hand_count, ordm, cap, council, fpn, fp, st_rallies, rt_owner,
           age, col, disc, bonus, revealed, rcards, part, lost, mods, sj, order, rank, size, which, ips, fws):
    """int64[b] actions; row g decided by plan ``which[g]`` (its rows of ``ips`` / ``fws``)."""
    b, A = legal.shape
    out = np.zeros(b, dtype=np.int64)
    vals = np.empty(A, dtype=np.float64)
    cnt = np.empty(ips[0, I_P], dtype=np.int64)
    hrank = np.empty(ips[0, I_H], dtype=np.int64)
    cost = np.empty(ips[0, I_H], dtype=np.float64)
    unseen = np.empty(_RANKS, dtype=np.int64)
    seen = np.empty(ips[0, I_N] + 1, dtype=np.bool_)
    pmax = np.zeros((ips[0, I_P], _RANKS), dtype=np.float64)
    for g in range(b):
        m = which[g]
        M = ips[m, I_M]
        me = np.int64(player[g])
        ph = phase[g]
        if ph == 0:
            _turn_values(g, me, vals, cnt, hrank, cost, legal, hand, ordm, cap, council, fpn, fp, st_rallies,
                         rt_owner, age, rank, size, ips, fws, m)
        else:
            for a in range(A):
                vals[a] = 0.0
            if ph == 1:
                _battle_values(g, me, vals, unseen, seen, pmax, hand, hand_count, col, disc, bonus, rcards, revealed,
                               part, lost, mods, fpn, fp, sj, order, rank, ips, fws, m)
            elif ph == 2:
                fwin = _mod_choice(g, me, revealed, rcards, mods, rank, ips, m)
                for k in range(M + 1):
                    vals[ips[m, I_A_MODS] + k] = -abs(k - fwin)
            elif ph == 3:
                vals[ips[m, I_A_YES]] = 1.0 if ips[m, I_COUNCIL] else -1.0
        # argmax over legal actions of vals + 1e-9 * u (first index on equal scores); branch-free
        # masking first, then the rare candidates within 1e-9 of the best draw their uniform
        top = -np.inf
        for a in range(A):
            v = vals[a] if legal[g, a] else -np.inf
            vals[a] = v
            top = max(top, v)
        pick = 0
        if top > -np.inf:
            bestscore = -np.inf
            base = np.int64(counter[g]) * 1024
            for a in range(A):
                if vals[a] + 1e-9 >= top:
                    s = vals[a] + 1e-9 * _uniform(np.uint64(keys[g]), base + a)
                    if s > bestscore:
                        bestscore = s
                        pick = a
        out[g] = pick
    return out
