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
8, AK-A26; with three or more the round's rule, AK-A27; modifiers held on both sides, AK-E14)
times the stake (the tile against second place), minus the cost of spending the card. A capital
claim counts the retreat it forces (AK-R16: the first-retreat tile while free, less the player's
share of the rest of the age), weighted by the plan's ``forced``. Solo: the robot's revealed
cards are drawn from the unseen cards (AK-V16, AK-A40).

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
    I_COUNCIL, I_MODVAL, I_PEACE, I_PEACE_NOTHING, I_BY_VALUE, I_NINE = range(19)
# fw slots
F_FIRST, F_TIE, F_SECOND, F_THIRD, F_CAPITAL, F_SIZE, F_SPREAD, F_CARD, F_RALLY, F_REDRAW, F_RETREAT_BELOW, \
    F_MAX_RALLIES, F_RETREAT_TILE, F_MODIFIER, F_FORFEIT, F_TILE, F_FORCED = range(17)
NI, NF = 19, 17

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
def _rest(filled, spaces, markers, active, g, P):
    """The claims the rest of the age would still bring the player, as a share of a full age's fair
    share (spaces / P): the free territories split among the active players, at most its markers."""
    n = 0
    for p in range(P):
        n += active[g, p]
    mine = min(max(spaces - filled, 0.0) / max(n, 1), max(np.float64(markers), 0.0))
    return mine * P / max(spaces, 1.0)


@njit(cache=True, inline="always")
def _turn_values(g, me, vals, cnt, capitals, hrank, cost, legal, hand, ordm, cap, council, fpn, fp, st_rallies,
                 rt_owner, age, active, supply, rank, size, ips, fws, m):
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
    later = np.float64(max(2 - np.int64(age[g]), 0))       # later ages a council marker counts in
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
        # a capital marker moves to the council after Ages I and II and counts in every later
        # scoring (AK-R37, AK-R40): the hunter's taste, x size x the later ages / 2 (none in Age III)
        bonus = bonus + (fws[m, F_CAPITAL] * sz * later / 2.0) * (1.0 if capital else 0.0)
        bonus = bonus + fws[m, F_SPREAD] * (1.0 if mine == 0 else 0.0)
        for h in range(H):
            a = h * K + k
            v = bonus - cost[h]
            vals[a] = v
        capitals[k] = capital
    # a capital claim ends the claimer's age at once (AK-R16): the first-retreat tile while it is
    # free (AK-R34), less the claims the rest of the age would have brought
    tile_free = rt_owner[g, np.int64(age[g])] < 0
    tile = fws[m, F_TILE] if tile_free else 0.0
    left = _rest(filled + 1.0, spaces, supply[g, me] - 1, active, g, P)
    forced = fws[m, F_FORCED] * (tile - fws[m, F_FORFEIT] * left)
    for k in range(K):
        if capitals[k]:
            for h in range(H):
                vals[h * K + k] += forced
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
    # would bring (``forfeit`` x the player's share of the claims left, a retreat gives up every
    # later claim of the age); else only when nothing is worth more (a plan that weighs a capital
    # claim's forced retreat, ``forced``, weighs a voluntary one's loss alike)
    rest = fws[m, F_FORFEIT] * _rest(filled, spaces, supply[g, me], active, g, P)
    by_tile = fws[m, F_RETREAT_TILE] - rest if tile_free and fws[m, F_RETREAT_TILE] > 0.0 else -1e9
    vals[A_RETREAT] = max(fws[m, F_RETREAT_BELOW] - fws[m, F_FORCED] * rest, by_tile)


@njit(cache=True, inline="always")
def _is(x, vx, want, by_value):
    """Card of printed rank x (battle value vx) is "a 1" / "an 8": printed, or by value (AK-A26)."""
    return (vx if by_value else x) == want


@njit(cache=True, inline="always")
def _round_beats(x, vx, y, vy, triggered, nine, by_value):
    """Chance that printed x (value vx) beats printed y (value vy) in a battle round: 1, 1/2 (both
    go on to a new round, AK-E15) or 0. ``triggered``: some card of the round is a 1 (or, with
    ``nine``, an 8); then every 8 is out (AK-A27 ``eliminate_eights``; with two players this is
    AK-E13's "1 beats 8"), or every 1 counts as 9 (``one_counts_as_nine``)."""
    if triggered:
        if nine:
            vx += 8 if _is(x, vx, 1, by_value) else 0
            vy += 8 if _is(y, vy, 1, by_value) else 0
        else:
            if _is(x, vx, 8, by_value):
                return 0.0
            if _is(y, vy, 8, by_value):
                return 1.0
    if vx > vy:
        return 1.0
    return 0.5 if vx == vy else 0.0


@njit(cache=True, inline="always")
def _win_chance(x, vx, g, me, pmax, unseen, top, part, lost, mods, MV, P, nine, by_value):
    """Chance that card x (value vx) wins a battle round against every other participant's highest
    card (``pmax``, independent). The trigger card (a 1, or an 8 with ``nine``) changes the round
    for all (AK-A27), so: P(win, nobody triggers) + P(win, someone triggers)."""
    trigger = 8 if nine else 1
    on = 1.0                     # P(beat all | the round is triggered), over every opposing card
    on_quiet = 1.0               # the same, only where no opponent plays the trigger
    off_quiet = 1.0              # P(beat all, no opponent plays the trigger | not triggered by me)
    for p in range(P):
        if p == me or not part[g, p] or lost[g, p]:
            continue
        vmod = MV * np.int64(mods[g, p])
        s_on = 0.0
        n_on = 0.0
        n_off = 0.0
        for y in range(top + 1):
            if unseen[y]:
                b_on = pmax[p, y] * _round_beats(x, vx, y, y + vmod, True, nine, by_value)
                s_on += b_on
                if not _is(y, y + vmod, trigger, by_value):
                    n_on += b_on
                    n_off += pmax[p, y] * _round_beats(x, vx, y, y + vmod, False, nine, by_value)
        on *= s_on
        on_quiet *= n_on
        off_quiet *= n_off
    if _is(x, vx, trigger, by_value):
        return on
    return off_quiet + on - on_quiet


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
            # modifiers are chosen after the reveal: the better of all held and none (AK-E14)
            by_value, nine = ips[m, I_BY_VALUE] != 0, ips[m, I_NINE] != 0
            win = max(_win_chance(x, vx, g, me, pmax, unseen, top, part, lost, mods, MV, P, nine, by_value),
                      _win_chance(x, x, g, me, pmax, unseen, top, part, lost, mods, MV, P, nine, by_value))
        vals[ips[m, I_A_BATTLE] + h] = stake * win - fws[m, F_CARD] * np.float64(x) / 8.0


@njit(cache=True, inline="always")
def _mod_choice(g, me, revealed, rcards, mods, rank, ips, m):
    """The fewest modifiers that beat every revealed opposing card (else none), by the round's rule:
    a printed 1 beats a printed 8 whatever the modifiers (AK-E13, AK-A26), and with three or more
    a revealed 1 puts every 8 out (or makes every 1 a 9, AK-A27), so an 8 that is out need not be
    beaten; with battle values (AK-A26) modifiers lift an 8 out of a 1's reach and spoil a 1."""
    N, P = ips[m, I_N], ips[m, I_P]
    mine = np.int64(rank[min(np.int64(revealed[g, me]), N)])
    held = np.int64(mods[g, me])
    if ips[m, I_SOLO]:
        need = -(1 << 62)
        for i in range(rcards.shape[1]):
            c = np.int64(rcards[g, i])
            if c < N:
                r = np.int64(rank[c])
                if r == 1 and mine == 8:
                    return 0
                if not (mine == 1 and r == 8):
                    need = max(need, r)
        for k in range(ips[m, I_M] + 1):
            if k <= held and mine + ips[m, I_MODVAL] * k >= need:
                return k
        return 0
    by_value, nine = ips[m, I_BY_VALUE] != 0, ips[m, I_NINE] != 0
    trigger = 8 if nine else 1
    for k in range(min(ips[m, I_M], held) + 1):
        v = mine + ips[m, I_MODVAL] * k
        triggered = _is(mine, v, trigger, by_value)
        for p in range(P):
            c = np.int64(revealed[g, p])
            if p != me and c < N:
                r = np.int64(rank[c])
                triggered |= _is(r, r, trigger, by_value)
        ok = True
        for p in range(P):
            c = np.int64(revealed[g, p])
            if p != me and c < N:
                r = np.int64(rank[c])
                ok &= _round_beats(mine, v, r, r, triggered, nine, by_value) == 1.0
        if ok:
            return k
    return 0


@njit(cache=True)
def choose(player, phase, legal, keys, counter, hand, hand_count, ordm, cap, council, fpn, fp, st_rallies, rt_owner,
           age, active, supply, col, disc, bonus, revealed, rcards, part, lost, mods, sj, order, rank, size, which, ips,
           fws):
    """int64[b] actions; row g decided by plan ``which[g]`` (its rows of ``ips`` / ``fws``)."""
    b, A = legal.shape
    out = np.zeros(b, dtype=np.int64)
    vals = np.empty(A, dtype=np.float64)
    cnt = np.empty(ips[0, I_P], dtype=np.int64)
    capitals = np.zeros(ips[0, I_K], dtype=np.bool_)
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
            _turn_values(g, me, vals, cnt, capitals, hrank, cost, legal, hand, ordm, cap, council, fpn, fp,
                         st_rallies, rt_owner, age, active, supply, rank, size, ips, fws, m)
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
