"""A turn: legal claims (decrees), claims, rallies, retreats, turn passing and the robot's turn.

Rules: AK-R2..R36 (turns, claims, decrees, rally, retreat), AK-A9..A18, AK-A44 (turn cap) and
the solo robot AK-V6..V14 with AK-A37..A39. All functions work on a subset ``rows`` of the
batch (distinct game indices).
"""
from __future__ import annotations

import numpy as np

from sim.games.animal_kingdoms import cards as cd
from sim.games.animal_kingdoms.state import BEGIN, CAPITAL, IN_COUNCIL, NEXT, ORDINARY, SCORE, TURN
from sim.games.animal_kingdoms.tables import T_ALL, T_SIMPLE


def last_cards(s, rows) -> np.ndarray:
    """int64[n, K]: each kingdom's last card (SENT for an empty column)."""
    return s.last[rows].astype(np.int64)


ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


def legal_sets(s, rows) -> np.ndarray:
    """uint64[n, K, W]: the cards each kingdom's decree allows now (AK-R19..R27, AK-A13).

    ``t.rel_flat[d, r]`` is the set of cards related to reference card r, and for r = "no card"
    the identity of the decree's quantifier, so SELF / LEFT / RIGHT are one lookup and
    ALL_OTHERS an AND (all) or OR (any) over the other kingdoms' lookups; an ``any`` decree
    without any reference allows every card (AK-R25).
    """
    t = s.t
    K, N = t.K, t.N
    n = len(rows)
    d = s.decree[rows].astype(np.int64)                        # [n, K]
    last = last_cards(s, rows)                                 # [n, J]
    ty = t.dtype[d]                                            # [n, K]
    base = d * (N + 1)
    flat = t.rel_flat
    ref = last.ravel().take(np.arange(n)[:, None] * K + t.ref1[ty, np.arange(K)[None, :]])
    out = flat.take(base + ref, axis=0)                        # SELF / LEFT / RIGHT
    idx = base[:, :, None] + last[:, None, :]                  # [n, K, J]
    idx[:, t.eye] = base + N                                   # j = k is no reference
    g = flat.take(idx, axis=0)                                 # [n, K, J, W]
    acc_all, acc_any = g[:, :, 0], g[:, :, 0]
    for j in range(1, K):
        acc_all = acc_all & g[:, :, j]
        acc_any = acc_any | g[:, :, j]
    empty = last == N                                          # [n, J]
    none_other = (empty[:, None, :] | t.eye[None]).all(axis=2)
    many = np.where(t.dany[d][..., None], np.where(none_other[..., None], ONES, acc_any), acc_all)
    if t.config.all_others_missing_policy == "any_missing_frees":
        missing = (empty[:, None, :] & ~t.eye[None]).any(axis=2)
        many = np.where(missing[..., None], ONES, many)
    out = np.where((ty == T_ALL)[..., None], many, out)
    return np.where((ty == T_SIMPLE)[..., None], t.simple_bits[d], out)


def decree_ok(s, rows, cards) -> np.ndarray:
    """bool[n, H', K]: card ``cards[:, i]`` satisfies kingdom k's decree."""
    sets = legal_sets(s, rows)                                 # [n, K, W]
    c = np.minimum(cards.astype(np.int64), s.t.N - 1)
    if s.t.W == 1:
        words = sets[:, None, :, 0]
    else:
        words = np.take_along_axis(sets[:, None, :, :], (c // 64)[:, :, None, None], axis=3)[..., 0]
    return ((words >> (c % 64).astype(np.uint64)[:, :, None]) & np.uint64(1)).astype(bool)


def rally_allowed(s, rows) -> np.ndarray:
    flag = s.ret_ever if s.t.config.rally_ban_scope == "game" else s.ret_age
    return ~flag[rows]


def turn_legal(s, rows) -> np.ndarray:
    """bool[n, A] of a TURN decision (model doc "TURN")."""
    t = s.t
    n = len(rows)
    out = np.zeros((n, t.A), dtype=bool)
    p = s.cur[rows].astype(np.int64)
    hand = s.hand[rows, p]                                     # [n, H]
    valid = hand != t.N
    full = s.cap[rows] >= 0
    claims = valid[:, :, None] & decree_ok(s, rows, hand) & ~full[:, None, :]
    out[:, :t.A_RALLY] = claims.reshape(n, -1)
    count = valid.sum(axis=1)
    rally = rally_allowed(s, rows)[:, None] & (t.rally_top[None, :] < count[:, None])
    out[:, t.A_RALLY:t.A_RETREAT] = rally
    if t.config.voluntary_retreat_always_allowed:
        out[:, t.A_RETREAT] = True
    else:
        out[:, t.A_RETREAT] = ~out[:, :t.A_RETREAT].any(axis=1)
    return out


def counts(s, rows, k) -> np.ndarray:
    """int[n, P]: markers of each seat in kingdom k (per row): ordinary + capital + council (AK-E3)."""
    P = s.t.P
    return (s.ordm[rows, k].astype(np.int64) + (s.cap[rows, k][:, None] == np.arange(P)[None, :])
            + s.council[rows, k])


def place_marker(s, rows, p, k) -> np.ndarray:
    """AK-R13, AK-R14, AK-A8: a marker of seat p in kingdom k; returns where it went."""
    t = s.t
    s.supply[rows, p] -= 1
    ord_free = s.ordm[rows, k].sum(axis=1) < t.size[k] - 1
    council_free = s.council[rows, k].sum(axis=1) < t.council_spaces[k]
    where = np.where(ord_free, ORDINARY, np.where(council_free & t.config.council_claimable, IN_COUNCIL, CAPITAL))
    m = where == ORDINARY
    s.ordm[rows[m], k[m], p[m]] += 1
    m = where == IN_COUNCIL
    s.council[rows[m], k[m], p[m]] += 1
    m = where == CAPITAL
    r, pm = rows[m], p[m]
    s.cap[r, k[m]] = pm
    s.cap_turn[r, pm] = s.age_turns[r]
    s.first_cap[r, pm] = np.minimum(s.first_cap[r, pm], s.turns[r])
    s.st_capitals[r, pm] += 1
    return where


def retreat(s, rows, p, forced: bool):
    """AK-R32..R35: seat p retreats; the age's first retreater takes a first-retreat tile."""
    s.active[rows, p] = False
    s.ret_age[rows] = True
    s.ret_ever[rows] = True
    if forced and not s.t.config.forced_retreat_takes_tile:
        return
    age = s.age[rows].astype(np.int64)
    take = s.rt_owner[rows, age] < 0
    r = rows[take]
    s.rt_owner[r, age[take]] = p[take]
    s.st_first_retreats[r, p[take]] += 1


def apply_turn(s, rows, actions):
    """Resolve TURN decisions (claim, rally or retreat); the turn then passes on (NEXT)."""
    t = s.t
    p = s.cur[rows].astype(np.int64)
    a = actions.astype(np.int64)
    m = a < t.A_RALLY
    if m.any():
        claim(s, rows[m], p[m], a[m] // t.K, a[m] % t.K)
    m = (a >= t.A_RALLY) & (a < t.A_RETREAT)
    if m.any():
        rally(s, rows[m], p[m], a[m] - t.A_RALLY)
    m = a == t.A_RETREAT
    if m.any():
        retreat(s, rows[m], p[m], forced=False)
    s.phase[rows] = NEXT


def claim(s, rows, p, slot, k):
    """AK-R10..R17 in the order of AK-A14."""
    t = s.t
    N, H = t.N, t.H
    c = s.hand[rows, p, slot]
    s.col[rows, k, s.clen[rows, k]] = c
    s.clen[rows, k] += 1
    s.last[rows, k] = c
    where = place_marker(s, rows, p, k)
    s.st_claims[rows, p] += 1
    if t.solo:
        s.human_last[rows] = k
    leave = (where == CAPITAL) | (s.supply[rows, p] == 0)
    draw = ~leave | t.config.refill_before_forced_retreat
    # usual case: a full hand and a deck with cards: the played card's slot takes the top card
    hand = s.hand[rows, p]
    quick = draw & (hand[:, H - 1] != N) & (s.dtop[rows] < s.dend[rows])
    qr = rows[quick]
    hand[quick, slot[quick]] = s.deck[qr, s.dtop[qr]]
    s.dtop[qr] += 1
    hand[~quick, slot[~quick]] = N
    s.hand[rows, p] = np.sort(hand, axis=1)
    slow = draw & ~quick
    cd.refill(s, rows[slow], p[slow])
    if leave.any():
        retreat(s, rows[leave], p[leave], forced=True)


def rally(s, rows, p, subset):
    """AK-R29, AK-R30, AK-A17: +points, discard the chosen slots, draw up to H."""
    t = s.t
    bits = t.rally_bits[subset]                                # [n, H]
    hand = s.hand[rows, p]
    rr = np.repeat(rows, t.H)[bits.reshape(-1)]
    s.disc[rr, hand[bits]] = True
    s.hand[rows, p] = np.sort(np.where(bits, t.N, hand), axis=1)
    s.pr[rows, p] += t.config.rally_points
    s.st_rallies[rows, p] += 1
    cd.refill(s, rows, p)


def next_turn(s, rows):
    """NEXT: the next active seat clockwise takes the turn; nobody active → the age ends (AK-E1)."""
    P = s.t.P
    seats = (s.cur[rows].astype(np.int64)[:, None] + np.arange(1, P + 1)[None, :]) % P
    act = s.active[rows[:, None], seats]
    has = act.any(axis=1)
    nxt = seats[np.arange(len(rows)), np.argmax(act, axis=1)]
    s.cur[rows[has]] = nxt[has]
    s.phase[rows[has]] = BEGIN
    end = rows[~has]
    s.phase[end] = SCORE
    s.sj[end] = 0


def begin_turn(s, rows):
    """BEGIN: the turn cap (AK-A44), an empty supply (AK-R17), else the turn is taken."""
    t = s.t
    P = t.P
    capped = s.age_turns[rows] >= t.config.max_turns_per_age
    cr = rows[capped]
    if len(cr):
        for d in range(P):
            seat = (s.cur[cr].astype(np.int64) + d) % P
            m = s.active[cr, seat]
            retreat(s, cr[m], seat[m], forced=True)
        s.cap_hit[cr] = True
        s.phase[cr] = SCORE
        s.sj[cr] = 0
    rows = rows[~capped]
    p = s.cur[rows].astype(np.int64)
    empty = s.supply[rows, p] <= 0
    if empty.any():
        retreat(s, rows[empty], p[empty], forced=True)
        s.phase[rows[empty]] = NEXT
    rows, p = rows[~empty], p[~empty]
    if not len(rows):
        return
    s.turns[rows] += 1
    s.age_turns[rows] += 1
    rel = (p - s.age_start[rows]) % P
    new_round = (s.last_rel[rows] < 0) | (rel <= s.last_rel[rows])
    s.rounds[rows] += new_round
    s.last_rel[rows] = rel
    if t.robot >= 0:
        bot = p == t.robot
        robot_turn(s, rows[bot])
        s.phase[rows[bot]] = NEXT
        rows, p = rows[~bot], p[~bot]
    s.phase[rows] = TURN
    s.dec[rows] = p


# ---- the robot ---------------------------------------------------------------------------

def robot_turn(s, rows):
    """AK-A37: no free territory → retreat; else one robot play."""
    if not len(rows):
        return
    r = np.full(len(rows), s.t.robot, dtype=np.int64)
    allfull = (s.cap[rows] >= 0).all(axis=1)
    retreat(s, rows[allfull], r[allfull], forced=True)
    robot_play(s, rows[~allfull], extra=False)


def only_capital_free(s, rows) -> np.ndarray:
    """bool[n, K]: every territory but the capital is taken (AK-V11)."""
    t = s.t
    ordinary_full = s.ordm[rows].sum(axis=2) >= t.size[None, :] - 1
    council_full = ~(t.config.council_claimable & (s.council[rows].sum(axis=2) < t.council_spaces[None, :]))
    return ordinary_full & council_full & (s.cap[rows] < 0)


def robot_kingdom(s, rows, c) -> np.ndarray:
    """AK-V8..V12, AK-A38: the kingdom a robot card goes to."""
    t = s.t
    n, K = len(rows), t.K
    target = t.size_kingdom[t.rank[c]]
    last = s.human_last[rows] if t.config.robot_low_rank_target == "human_last_claim" else s.robot_last[rows]
    fallback = np.where(last >= 0, last, t.content.robot_low_rank_default)
    target = np.where(target >= 0, target, fallback)
    step = 1 if t.config.robot_skip_direction == "clockwise" else -1
    order = (target[:, None] + step * np.arange(K)[None, :]) % K
    ar = np.arange(n)[:, None]
    full = (s.cap[rows] >= 0)[ar, order]
    rcount = (s.ordm[rows, :, t.robot] + (s.cap[rows] == t.robot) + s.council[rows, :, t.robot]).astype(np.int64)
    hcount = (s.ordm[rows, :, t.human] + (s.cap[rows] == t.human) + s.council[rows, :, t.human]).astype(np.int64)
    skip = ((rcount - hcount) >= 2) | only_capital_free(s, rows)
    ok = ~full & ~skip[ar, order]
    free = ~full
    pick = np.where(ok.any(axis=1), np.argmax(ok, axis=1), np.argmax(free, axis=1))
    return order[np.arange(n), pick]


def robot_play(s, rows, extra: bool):
    """One robot play (AK-V6): draw the top card and place it (no card: the robot retreats)."""
    t = s.t
    if not len(rows):
        return
    c = cd.draw_one(s, rows)
    none = c == t.N
    retreat(s, rows[none], np.full(int(none.sum()), t.robot), forced=True)
    robot_place(s, rows[~none], c[~none], extra)


def robot_place(s, rows, c, extra: bool):
    """Card c goes under the robot's kingdom with a marker (AK-V8..V13); then its bonus (AK-V14, AK-A39)."""
    t = s.t
    if not len(rows):
        return
    r = np.full(len(rows), t.robot, dtype=np.int64)
    k = robot_kingdom(s, rows, c)
    s.col[rows, k, s.clen[rows, k]] = c
    s.clen[rows, k] += 1
    s.last[rows, k] = c
    s.robot_last[rows] = k
    s.st_claims[rows, r] += 1
    where = place_marker(s, rows, r, k)
    leave = (where == CAPITAL) | (s.supply[rows, r] == 0)
    retreat(s, rows[leave], r[leave], forced=True)
    stay = ~leave
    rows, r, c, k = rows[stay], r[stay], c[stay], k[stay]
    if not len(rows) or (extra and not t.config.robot_bonus_chain):
        return
    b = s.bonus[rows]
    match = ((t.species[b] == t.species[c][:, None]) | (t.rank[b] == t.rank[c][:, None])) & (b != t.N)
    go = match.any(axis=1)
    rows, r, k, match = rows[go], r[go], k[go], match[go]
    if not len(rows):
        return
    effect = t.config.robot_bonus_effect
    if effect == "extra_play":
        some = (s.cap[rows] < 0).any(axis=1)
        robot_play(s, rows[some], extra=True)
    elif effect == "play_bonus_card":                # the seed's literal reading: the bonus card is played
        some = (s.cap[rows] < 0).any(axis=1)
        rows, match = rows[some], match[some]
        i = np.argmax(match, axis=1)
        card = s.bonus[rows, i].copy()
        s.bonus[rows, i] = cd.draw_one(s, rows)
        robot_place(s, rows, card, extra=True)
    else:
        open_ = s.cap[rows, k] < 0
        rows, r, k = rows[open_], r[open_], k[open_]
        where = place_marker(s, rows, r, k)
        leave = (where == CAPITAL) | (s.supply[rows, r] == 0)
        retreat(s, rows[leave], r[leave], forced=True)
