"""The scripted Animal Kingdoms plans as one numba kernel: scalar code per game over the observation.

``choose`` scores, for each game of a batch, only what its decision kind needs (a turn: the
claims, one rally subset, the retreat; a battle: the hand's ranks; modifiers; a council) and
returns the legal action of highest value, ties broken by the strategy's keyed uniforms exactly
as ``strategies.base.argmax_tiebreak(values, legal, rng.uniform(A))`` would: the tie-break draw
``1e-9 * u`` can only matter for actions within 1e-9 of the best, so only those draw their
uniform (the same counter-based draw as ``StrategyRng.uniform``).

Parameters arrive as two arrays (numba freezes globals into its on-disk cache, so nothing here
is computed from the content): ``ip`` layout and integer switches, ``fw`` float weights; their
slots are the ``I_*`` and ``F_*`` constants below, filled by ``strategies.animal_kingdoms``; one
row per plan, so several plans (seats) decide in one call.
"""
from __future__ import annotations

import numpy as np
from numba import njit

# ip slots
I_N, I_K, I_H, I_P, I_M, I_T, I_A_RALLY, I_A_RETREAT, I_A_BATTLE, I_A_MODS, I_A_YES, I_SOLO, I_ONLY_TILE, \
    I_COUNCIL, I_MODVAL = range(15)
# fw slots
F_FIRST, F_TIE, F_SECOND, F_THIRD, F_CAPITAL, F_SIZE, F_SPREAD, F_CARD, F_RALLY_BELOW, F_RETREAT_BELOW, \
    F_MAX_RALLIES, F_RETREAT_AFTER = range(12)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
_TO_UNIT = 1.0 / float(1 << 53)


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
def _points(x, ahead, level, tile, first, tie, second, third):
    """Points (weighted) of a kingdom for x markers with ``ahead`` opponents above and ``level`` equal."""
    if x < 1:
        return 0.0
    if ahead == 0:
        return (first if level == 0 else tie) * tile
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
    best = -np.inf
    claims_now = 0
    for k in range(K):
        ordinary = 0
        for p in range(P):
            o = np.int64(ordm[g, k, p])
            ordinary += o
            cnt[p] = o + (1 if cap[g, k] == p else 0) + np.int64(council[g, k, p])
        claims_now += np.int64(ordm[g, k, me]) + (1 if cap[g, k] == me else 0)
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
        gain = (_points(mine + 1, ahead1, level1, tile, first, tie, second, third)
                - _points(mine, ahead0, level0, tile, first, tie, second, third))
        capital = ordinary >= np.int64(size[k]) - 1 and cap[g, k] < 0
        sz = np.float64(size[k])
        bonus = gain + fws[m, F_SIZE] * sz
        bonus = bonus + (fws[m, F_CAPITAL] * sz) * (1.0 if capital else 0.0)
        bonus = bonus + fws[m, F_SPREAD] * (1.0 if mine == 0 else 0.0)
        for h in range(H):
            a = h * K + k
            v = bonus - cost[h]
            vals[a] = v
            best = max(best, v if legal[g, a] else -1e9)
    # rally: discard the cards no kingdom allows now, else the lowest card
    subset = 0
    lowest = 0
    low = 99
    for h in range(H):
        valid = hand[g, h] < N
        playable = False
        for k in range(K):
            playable |= legal[g, h * K + k]
        if valid and not playable:
            subset |= 1 << h
        r = hrank[h] if valid else 99
        if r < low:
            low = r
            lowest = h
    if subset == 0:
        subset = 1 << lowest
    may_rally = best < fws[m, F_RALLY_BELOW] and st_rallies[g, me] < fws[m, F_MAX_RALLIES]
    vals[A_RALLY + subset - 1] = fws[m, F_RALLY_BELOW] if may_rally else -1e8
    # retreat
    tile_free = rt_owner[g, np.int64(age[g])] < 0
    early = claims_now >= fws[m, F_RETREAT_AFTER] and (tile_free or ips[m, I_ONLY_TILE] == 0)
    vals[A_RETREAT] = 1e9 if early else fws[m, F_RETREAT_BELOW]


@njit(cache=True, inline="always")
def _mod_choice(g, me, revealed, rcards, mods, rank, ips, m):
    """The fewest modifiers that beat every revealed opposing card (else none)."""
    N, P = ips[m, I_N], ips[m, I_P]
    mine = np.int64(rank[min(np.int64(revealed[g, me]), N)])
    need = -(1 << 62)
    if ips[m, I_SOLO]:
        for i in range(rcards.shape[1]):
            c = np.int64(rcards[g, i])
            need = max(need, np.int64(rank[c]) if c < N else 0)
    else:
        for p in range(P):
            c = N if p == me else np.int64(revealed[g, p])
            need = max(need, np.int64(rank[c]) if c < N else 0)
        need += 1
    held = np.int64(mods[g, me])
    for k in range(ips[m, I_M] + 1):
        if k <= held and mine + ips[m, I_MODVAL] * k >= need:
            return k
    return 0


@njit(cache=True)
def choose(player, phase, legal, keys, counter, hand, ordm, cap, council, fpn, fp, st_rallies, rt_owner, age,
           revealed, rcards, mods, rank, size, which, ips, fws):
    """int64[b] actions; row g decided by plan ``which[g]`` (its rows of ``ips`` / ``fws``)."""
    b, A = legal.shape
    out = np.zeros(b, dtype=np.int64)
    vals = np.empty(A, dtype=np.float64)
    cnt = np.empty(ips[0, I_P], dtype=np.int64)
    hrank = np.empty(ips[0, I_H], dtype=np.int64)
    cost = np.empty(ips[0, I_H], dtype=np.float64)
    for g in range(b):
        m = which[g]
        N, H, M = ips[m, I_N], ips[m, I_H], ips[m, I_M]
        me = np.int64(player[g])
        ph = phase[g]
        if ph == 0:
            _turn_values(g, me, vals, cnt, hrank, cost, legal, hand, ordm, cap, council, fpn, fp, st_rallies,
                         rt_owner, age, rank, size, ips, fws, m)
        else:
            for a in range(A):
                vals[a] = 0.0
            if ph == 1:
                for h in range(H):
                    c = np.int64(hand[g, h])
                    vals[ips[m, I_A_BATTLE] + h] = rank[c] if c < N else -1
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
