"""Compiled kernels of the engine: apply a decision, run the automatic flow, the legal mask.

The state stays the batch arrays of ``state.py``; each kernel is a numba-compiled loop over the
games of the batch that runs the game's branching as scalar code on those arrays, in place
(docs/animal_kingdoms_engine.md explains why this fits the architecture). Every function here
is the scalar form of the rule it names (docs/animal_kingdoms_model.md); random draws use the
same keyed streams, purposes and counters as ``sim.core.rng`` (``mix`` / ``bits`` below are
equal to ``rng._mix`` / ``rng.bits`` bit for bit, which tests/test_animal_kingdoms_kernel.py
checks).

Arguments: ``S`` is the tuple of the state's arrays and the kernels' scratch arrays
(``state_arrays``), ``T`` the tuple of table arrays and ``C`` an int64 vector of sizes and rule switches (``kernel_tables``). Column
indices of the packed arrays are literal constants below, checked against ``state.PACKS`` at
import (numba freezes globals into its on-disk cache, so they must not be computed).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.core import kernel_cache
from sim.games.animal_kingdoms import state as st
from sim.games.animal_kingdoms import tables
from sim.games.animal_kingdoms.tables import BIG, T_ALL, T_SIMPLE

kernel_cache.watch(__file__, st, tables)   # constants of these files are compiled in

# ---- packed columns (state.PACKS) ------------------------------------------------------------
G_PHASE, G_DEC, G_AGE, G_CUR, G_AGE_START, G_AGE_TURNS, G_TURNS, G_ROUNDS, G_LAST_REL = range(9)
G_HUMAN_LAST, G_ROBOT_LAST, G_DTOP, G_DEND, G_MSUP, G_SJ, G_CK, G_BATTLES, G_SHUFFLES = range(9, 18)
G_START_SLOT, G_RT_OWNER = 18, 19
B_RET_AGE, B_RET_EVER, B_CAP_HIT = range(3)
S_CAP_TURN, S_FIRST_CAP, S_SUPPLY, S_PF, S_PS, S_PT, S_PR, S_MODS, S_BCH, S_BMOD = range(10)
S_CLAIMS, S_RALLIES, S_CAPITALS, S_FIRST_RETREATS, S_WON, S_LOST, S_COUNCIL = range(10, 17)
Q_ACTIVE, Q_PART, Q_LOST, Q_BFIRST = range(4)
K_CAP, K_CLEN, K_DECREE, K_FPN, K_LAST = range(5)
KP_ORDM, KP_COUNCIL = range(2)


def _check_layout():
    expect = {"gi": dict(phase=G_PHASE, dec=G_DEC, age=G_AGE, cur=G_CUR, age_start=G_AGE_START,
                         age_turns=G_AGE_TURNS, turns=G_TURNS, rounds=G_ROUNDS, last_rel=G_LAST_REL,
                         human_last=G_HUMAN_LAST, robot_last=G_ROBOT_LAST, dtop=G_DTOP, dend=G_DEND, msup=G_MSUP,
                         sj=G_SJ, ck=G_CK, battles=G_BATTLES, shuffles=G_SHUFFLES, start_slot=G_START_SLOT,
                         rt_owner=G_RT_OWNER),
              "gb": dict(ret_age=B_RET_AGE, ret_ever=B_RET_EVER, cap_hit=B_CAP_HIT),
              "si": dict(cap_turn=S_CAP_TURN, first_cap=S_FIRST_CAP, supply=S_SUPPLY, pf=S_PF, ps=S_PS, pt=S_PT,
                         pr=S_PR, mods=S_MODS, bch=S_BCH, bmod=S_BMOD, st_claims=S_CLAIMS, st_rallies=S_RALLIES,
                         st_capitals=S_CAPITALS, st_first_retreats=S_FIRST_RETREATS, st_battles_won=S_WON,
                         st_battles_lost=S_LOST, st_council=S_COUNCIL),
              "sb": dict(active=Q_ACTIVE, part=Q_PART, lost=Q_LOST, bfirst=Q_BFIRST),
              "ki": dict(cap=K_CAP, clen=K_CLEN, decree=K_DECREE, fpn=K_FPN, last=K_LAST),
              "kp": dict(ordm=KP_ORDM, council=KP_COUNCIL)}
    for pack, names in st.PACKS.items():
        i = 0
        for entry in names:
            name, width = (entry, 1) if isinstance(entry, str) else entry
            assert expect[pack][name] == i, f"kernels: column of {pack}.{name} moved"
            i += width


_check_layout()
assert (st.TURN, st.BCARD, st.BMOD, st.COUNCIL, st.BEGIN, st.NEXT, st.SCORE, st.BROUND, st.REVEAL, st.RESOLVE,
        st.BEND, st.SREVEAL, st.SRESOLVE, st.AGE_END, st.CSEEK, st.NEWAGE, st.DONE) == tuple(range(17))
assert (st.ORDINARY, st.IN_COUNCIL, st.CAPITAL) == (0, 1, 2) and (T_SIMPLE, T_ALL, BIG) == (0, 4, 1 << 30)
TURN, BCARD, BMOD, COUNCIL, BEGIN, NEXT, SCORE, BROUND, REVEAL, RESOLVE = range(10)
BEND, SREVEAL, SRESOLVE, AGE_END, CSEEK, NEWAGE, DONE = range(10, 17)
ORDINARY, IN_COUNCIL, CAPITAL = 0, 1, 2
TY_SIMPLE, TY_ALL = 0, 4
NONE_YET = 1 << 30               # tables.BIG: no capital claim
TOP = 1 << 20                    # a key above every marker count (battle and peace places)
MAX_AUTO = 1_000_000             # automatic phases per game and call (a guard)

# ---- C: sizes and switches ------------------------------------------------------------------
(C_N, C_K, C_H, C_P, C_M, C_T, C_BN, C_RC, C_ROBOT, C_HUMAN, C_SOLO, C_BATTLE_CARDS, C_BONUS_CARDS, C_W,
 C_A_RALLY, C_A_RETREAT, C_A_BATTLE, C_A_MODS, C_A_YES,
 C_VOLUNTARY, C_CLAIMABLE, C_ELIMINATE, C_PRINTED, C_COMPETITION, C_REFILL_FORCED, C_MISSING_FREES,
 C_FORCED_TILE, C_ROBOT_LAST, C_SKIP_STEP, C_BONUS_EFFECT, C_BONUS_CHAIN, C_ROBOT_MODS, C_ROBOT_EQUAL,
 C_ROBOT_COUNCIL, C_TIE_WHOLE_GAME, C_PEACE, C_PEACE_NOTHING, C_BAN_GAME, C_RESHUFFLE, C_REMOVE_UNCLAIMED,
 C_COUNCIL_1, C_COUNCIL_2, C_MAX_TURNS, C_RALLY_POINTS, C_SECOND, C_THIRD, C_MODVAL, C_START_SCORE,
 C_LOW_DEFAULT, C_SIZE) = range(50)
EFFECT_EXTRA_PLAY, EFFECT_EXTRA_MARKER, EFFECT_PLAY_BONUS = 0, 1, 2
RETREAT_ALWAYS, RETREAT_NO_RALLY, RETREAT_FORCED_ONLY = 0, 1, 2

_CACHE = {}

# The kernels run without numba's reference counting (``_nrt=False``): with it, every call of a
# helper that takes arrays costs atomic increfs/decrefs (numba issue #2345), which made a step
# several times slower than the work itself. Without it a kernel may not allocate, so the few
# scratch arrays it needs come with the state arrays (``state_arrays``, indices X_* below).
# The functions of the common path (a turn, the turn passing) are inlined into the kernels:
# a call passes every array descriptor of ``S`` and ``T``, which costs more than their work.
kernel = njit(cache=True, _nrt=False)
inline = njit(cache=True, _nrt=False, inline="always")
X_U, X_IDX, X_MASK, X_SI, X_SB, X_SETS, X_OPEN = range(15, 22)


def kernel_tables(t):
    """(T, C) of a ``Tables``: the table arrays the kernels read and the sizes/switches vector."""
    hit = _CACHE.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1], hit[2]
    cfg = t.config
    c = np.zeros(C_SIZE, dtype=np.int64)
    vals = {
        C_N: t.N, C_K: t.K, C_H: t.H, C_P: t.P, C_M: t.M, C_T: t.T, C_BN: t.BN, C_RC: t.RC, C_ROBOT: t.robot,
        C_HUMAN: t.human, C_SOLO: t.solo, C_BATTLE_CARDS: t.battle_cards, C_BONUS_CARDS: t.bonus_cards, C_W: t.W,
        C_A_RALLY: t.A_RALLY, C_A_RETREAT: t.A_RETREAT, C_A_BATTLE: t.A_BATTLE, C_A_MODS: t.A_MODS,
        C_A_YES: t.A_YES,
        C_VOLUNTARY: ("always", "rally_not_allowed", "forced_only").index(cfg.voluntary_retreat), C_CLAIMABLE: cfg.council_claimable,
        C_ELIMINATE: cfg.multiway_battle == "eliminate_eights",
        C_PRINTED: cfg.one_beats_eight_uses == "printed_rank", C_COMPETITION: cfg.placement_mode == "competition",
        C_REFILL_FORCED: cfg.refill_before_forced_retreat,
        C_MISSING_FREES: cfg.all_others_missing_policy == "any_missing_frees",
        C_FORCED_TILE: cfg.forced_retreat_takes_tile, C_ROBOT_LAST: cfg.robot_low_rank_target == "robot_last_play",
        C_SKIP_STEP: 1 if cfg.robot_skip_direction == "clockwise" else -1,
        C_BONUS_EFFECT: ("extra_play", "extra_marker", "play_bonus_card").index(cfg.robot_bonus_effect),
        C_BONUS_CHAIN: cfg.robot_bonus_chain, C_ROBOT_MODS: cfg.robot_receives_modifiers,
        C_ROBOT_EQUAL: cfg.robot_equal_rank == "robot_wins", C_ROBOT_COUNCIL: cfg.robot_council_move,
        C_TIE_WHOLE_GAME: cfg.start_tie_capital_scope == "whole_game", C_PEACE: cfg.peace,
        C_PEACE_NOTHING: cfg.peace_tied_others == "nothing", C_BAN_GAME: cfg.rally_ban_scope == "game",
        C_RESHUFFLE: cfg.reshuffle_discard_when_empty, C_REMOVE_UNCLAIMED: cfg.remove_unclaimed_tile,
        C_COUNCIL_1: 1 in cfg.council_moves_after_ages, C_COUNCIL_2: 2 in cfg.council_moves_after_ages,
        C_MAX_TURNS: cfg.max_turns_per_age, C_RALLY_POINTS: cfg.rally_points, C_SECOND: cfg.second_place_points,
        C_THIRD: cfg.third_place_points, C_MODVAL: cfg.modifier_value, C_START_SCORE: cfg.start_score,
        C_LOW_DEFAULT: t.content.robot_low_rank_default,
    }
    for i, v in vals.items():
        c[i] = int(v)
    tab = (t.rank.astype(np.int64), t.species.astype(np.int64), t.size.astype(np.int64),
           t.council_spaces.astype(np.int64), t.order.astype(np.int64), t.size_kingdom.astype(np.int64),
           t.dtype.astype(np.int64), t.dany.astype(np.bool_), np.ascontiguousarray(t.simple_bits),
           np.ascontiguousarray(t.rel_flat), t.ref1.astype(np.int64), t.rally_bits.astype(np.bool_),
           t.rally_top.astype(np.int64), t.markers.astype(np.int64))
    _CACHE[id(t)] = (t, tab, c)
    return tab, c


def state_arrays(s):
    """The state's arrays in the order the kernels unpack them, then the kernels' scratch arrays."""
    t = s.t
    return (s.gi, s.gb, s.si, s.sb, s.ki, s.kp, s.hand, s.deck, s.disc, s.col, s.extra, s.fp, s.rt, s.dorder,
            s.deck_key, np.zeros(t.N, dtype=np.uint64), np.zeros(t.N, dtype=np.int64), np.zeros(t.N, dtype=np.bool_),
            np.zeros((4, t.P), dtype=np.int64), np.zeros((8, t.P), dtype=np.bool_),
            np.zeros((t.K, t.W), dtype=np.uint64), np.zeros(t.K, dtype=np.bool_))


# ---- SplitMix64, equal to sim.core.rng ---------------------------------------------------------
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)
_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)
_ONE = np.uint64(1)


@kernel
def mix(x):
    """SplitMix64's finaliser (rng._mix) on one uint64."""
    z = x + _GOLDEN
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@kernel
def bits(key, counter):
    """rng.bits(key, counter) for one stream and one counter (counter >= 0)."""
    return mix(key ^ mix(np.uint64(counter)))


@kernel
def bits_many(keys, counters, out):
    """out[i] = rng.bits(keys[i], counters[i]) (for the equality test)."""
    for i in range(len(keys)):
        out[i] = bits(keys[i], counters[i])


# ---- cards -------------------------------------------------------------------------------------

@inline
def _sort_hand(hand, b, p, H):
    for i in range(1, H):
        v = hand[b, p, i]
        j = i - 1
        while j >= 0 and hand[b, p, j] > v:
            hand[b, p, j + 1] = hand[b, p, j]
            j -= 1
        hand[b, p, j + 1] = v


@kernel
def _shuffle(S, C, b, mask):
    """The cards of ``mask`` become game b's deck in ascending (bits(deck_key, s*N + c), c) order."""
    gi, deck, deck_key = S[0], S[7], S[14]
    N = C[C_N]
    sh = np.int64(gi[b, G_SHUFFLES])
    key = deck_key[b]
    u, idx = S[X_U], S[X_IDX]
    n = 0
    for c in range(N):
        if mask[c]:
            u[n] = bits(key, sh * N + c)
            idx[n] = c
            n += 1
    for i in range(1, n):                    # stable insertion sort by u
        uv, iv = u[i], idx[i]
        j = i - 1
        while j >= 0 and u[j] > uv:
            u[j + 1] = u[j]
            idx[j + 1] = idx[j]
            j -= 1
        u[j + 1] = uv
        idx[j + 1] = iv
    for i in range(n):
        deck[b, i] = idx[i]
    m = n
    for c in range(N):                       # the rest as numpy's argsort leaves them (never drawn)
        if not mask[c]:
            deck[b, m] = c
            m += 1
    gi[b, G_DTOP] = 0
    gi[b, G_DEND] = n
    gi[b, G_SHUFFLES] = sh + 1


@inline
def draw_one(S, C, b):
    """The top card (AK-A18: the discard pile is reshuffled when the deck is empty); N if none."""
    gi, disc, deck = S[0], S[8], S[7]
    N = C[C_N]
    if gi[b, G_DTOP] >= gi[b, G_DEND] and C[C_RESHUFFLE]:
        some = False
        for c in range(N):
            if disc[b, c]:
                some = True
                break
        if some:
            mask = S[X_MASK]
            for c in range(N):
                mask[c] = disc[b, c]
                disc[b, c] = False
            _shuffle(S, C, b, mask)
    if gi[b, G_DTOP] < gi[b, G_DEND]:
        c = np.int64(deck[b, gi[b, G_DTOP]])
        gi[b, G_DTOP] += 1
        return c
    return N


@inline
def refill(S, C, b, p):
    """AK-R9: seat p draws one card at a time until its hand holds H cards (or no card is left)."""
    hand = S[6]
    N, H = C[C_N], C[C_H]
    while hand[b, p, H - 1] == N:
        c = draw_one(S, C, b)
        if c == N:
            return
        hand[b, p, H - 1] = c
        _sort_hand(hand, b, p, H)


@inline
def refill_in_order(S, C, b, who):
    """Seats of ``who`` (bool[P]) draw up to H, clockwise from the age's start player (AK-A31)."""
    gi = S[0]
    P = C[C_P]
    for d in range(P):
        seat = (gi[b, G_AGE_START] + d) % P
        if who[seat] and seat != C[C_ROBOT]:
            refill(S, C, b, seat)


@inline
def remove_from_hand(S, C, b, p, card):
    hand = S[6]
    N, H = C[C_N], C[C_H]
    for i in range(H):
        if hand[b, p, i] == card:
            hand[b, p, i] = N
    _sort_hand(hand, b, p, H)


@inline
def first_in_order(S, C, b, mask):
    """The first seat of ``mask`` (bool[P]) clockwise from the age's start player; -1 if none."""
    gi = S[0]
    P = C[C_P]
    for d in range(P):
        seat = (gi[b, G_AGE_START] + d) % P
        if mask[seat]:
            return seat
    return -1


# ---- turns ---------------------------------------------------------------------------------------

@inline
def place_marker(S, T, C, b, p, k):
    """AK-R13, AK-R14, AK-A8: a marker of seat p in kingdom k; returns where it went."""
    gi, si, ki, kp = S[0], S[2], S[4], S[5]
    size, council_spaces = T[2], T[3]
    P = C[C_P]
    si[b, p, S_SUPPLY] -= 1
    n_ord = 0
    n_council = 0
    for q in range(P):
        n_ord += kp[b, k, q, KP_ORDM]
        n_council += kp[b, k, q, KP_COUNCIL]
    if n_ord < size[k] - 1:
        kp[b, k, p, KP_ORDM] += 1
        return ORDINARY
    if n_council < council_spaces[k] and C[C_CLAIMABLE]:
        kp[b, k, p, KP_COUNCIL] += 1
        return IN_COUNCIL
    ki[b, k, K_CAP] = p
    si[b, p, S_CAP_TURN] = gi[b, G_AGE_TURNS]
    si[b, p, S_FIRST_CAP] = min(si[b, p, S_FIRST_CAP], gi[b, G_TURNS])
    si[b, p, S_CAPITALS] += 1
    return CAPITAL


@inline
def retreat(S, C, b, p, forced):
    """AK-R32..R35: seat p retreats; the age's first retreater takes a first-retreat tile."""
    gi, gb, si, sb = S[0], S[1], S[2], S[3]
    sb[b, p, Q_ACTIVE] = False
    gb[b, B_RET_AGE] = True
    gb[b, B_RET_EVER] = True
    if forced and not C[C_FORCED_TILE]:
        return
    a = G_RT_OWNER + gi[b, G_AGE]
    if gi[b, a] < 0:
        gi[b, a] = p
        si[b, p, S_FIRST_RETREATS] += 1


@inline
def claim(S, T, C, b, p, slot, k):
    """AK-R10..R17 in the order of AK-A14."""
    gi, si, ki, hand, col = S[0], S[2], S[4], S[6], S[9]
    N, H = C[C_N], C[C_H]
    c = hand[b, p, slot]
    col[b, k, ki[b, k, K_CLEN]] = c
    ki[b, k, K_CLEN] += 1
    ki[b, k, K_LAST] = c
    where = place_marker(S, T, C, b, p, k)
    si[b, p, S_CLAIMS] += 1
    if C[C_SOLO]:
        gi[b, G_HUMAN_LAST] = k
    leave = where == CAPITAL or si[b, p, S_SUPPLY] == 0
    hand[b, p, slot] = N
    _sort_hand(hand, b, p, H)
    if not leave or C[C_REFILL_FORCED]:
        refill(S, C, b, p)
    if leave:
        retreat(S, C, b, p, True)


@inline
def rally(S, T, C, b, p, subset):
    """AK-R29, AK-R30, AK-A17: +points, discard the chosen slots, draw up to H."""
    si, hand, disc = S[2], S[6], S[8]
    rally_bits = T[11]
    N, H = C[C_N], C[C_H]
    for i in range(H):
        if rally_bits[subset, i]:
            disc[b, hand[b, p, i]] = True
            hand[b, p, i] = N
    _sort_hand(hand, b, p, H)
    si[b, p, S_PR] += C[C_RALLY_POINTS]
    si[b, p, S_RALLIES] += 1
    refill(S, C, b, p)


@inline
def apply_turn(S, T, C, b, a):
    """A TURN decision (claim, rally or retreat); the turn then passes on (NEXT)."""
    gi = S[0]
    K = C[C_K]
    p = np.int64(gi[b, G_CUR])
    if a < C[C_A_RALLY]:
        claim(S, T, C, b, p, a // K, a % K)
    elif a < C[C_A_RETREAT]:
        rally(S, T, C, b, p, a - C[C_A_RALLY])
    elif a == C[C_A_RETREAT]:
        retreat(S, C, b, p, False)
    gi[b, G_PHASE] = NEXT


@inline
def next_turn(S, C, b):
    """NEXT: the next active seat clockwise takes the turn; nobody active → the age ends (AK-E1)."""
    gi, sb = S[0], S[3]
    P = C[C_P]
    for d in range(1, P + 1):
        seat = (gi[b, G_CUR] + d) % P
        if sb[b, seat, Q_ACTIVE]:
            gi[b, G_CUR] = seat
            gi[b, G_PHASE] = BEGIN
            return
    gi[b, G_PHASE] = SCORE
    gi[b, G_SJ] = 0


@inline
def begin_turn(S, T, C, b):
    """BEGIN: the turn cap (AK-A44), an empty supply (AK-R17), else the turn is taken."""
    gi, gb, si, sb = S[0], S[1], S[2], S[3]
    P = C[C_P]
    if gi[b, G_AGE_TURNS] >= C[C_MAX_TURNS]:
        cur = gi[b, G_CUR]
        for d in range(P):
            seat = (cur + d) % P
            if sb[b, seat, Q_ACTIVE]:
                retreat(S, C, b, seat, True)
        gb[b, B_CAP_HIT] = True
        gi[b, G_PHASE] = SCORE
        gi[b, G_SJ] = 0
        return
    p = np.int64(gi[b, G_CUR])
    if si[b, p, S_SUPPLY] <= 0:
        retreat(S, C, b, p, True)
        gi[b, G_PHASE] = NEXT
        return
    gi[b, G_TURNS] += 1
    gi[b, G_AGE_TURNS] += 1
    rel = (p - gi[b, G_AGE_START]) % P
    if gi[b, G_LAST_REL] < 0 or rel <= gi[b, G_LAST_REL]:
        gi[b, G_ROUNDS] += 1
    gi[b, G_LAST_REL] = rel
    if p == C[C_ROBOT]:
        robot_turn(S, T, C, b)
        gi[b, G_PHASE] = NEXT
        return
    gi[b, G_PHASE] = TURN
    gi[b, G_DEC] = p


# ---- the robot -------------------------------------------------------------------------------------

@inline
def _any_open(S, C, b):
    ki = S[4]
    for k in range(C[C_K]):
        if ki[b, k, K_CAP] < 0:
            return True
    return False


@inline
def robot_turn(S, T, C, b):
    """AK-A37: no free territory → retreat; else one robot play."""
    if not _any_open(S, C, b):
        retreat(S, C, b, C[C_ROBOT], True)
    else:
        robot_play(S, T, C, b, False, -1)


@kernel
def robot_kingdom(S, T, C, b, c):
    """AK-V8..V12, AK-A38: the kingdom a robot card goes to."""
    gi, ki, kp = S[0], S[4], S[5]
    rank, size, council_spaces, size_kingdom = T[0], T[2], T[3], T[5]
    K, P, robot, human = C[C_K], C[C_P], C[C_ROBOT], C[C_HUMAN]
    target = size_kingdom[rank[c]]
    if target < 0:
        last = gi[b, G_ROBOT_LAST] if C[C_ROBOT_LAST] else gi[b, G_HUMAN_LAST]
        target = last if last >= 0 else C[C_LOW_DEFAULT]
    first_free = -1
    for i in range(K):
        k = (target + C[C_SKIP_STEP] * i) % K
        cap = ki[b, k, K_CAP]
        if cap >= 0:
            continue
        if first_free < 0:
            first_free = k
        rcount = kp[b, k, robot, KP_ORDM] + kp[b, k, robot, KP_COUNCIL]
        hcount = kp[b, k, human, KP_ORDM] + kp[b, k, human, KP_COUNCIL]
        n_ord = 0
        n_council = 0
        for q in range(P):
            n_ord += kp[b, k, q, KP_ORDM]
            n_council += kp[b, k, q, KP_COUNCIL]
        only_capital = n_ord >= size[k] - 1 and not (C[C_CLAIMABLE] and n_council < council_spaces[k])
        if rcount - hcount < 2 and not only_capital:
            return k
    if first_free >= 0:
        return first_free
    return target % K


@kernel
def robot_play(S, T, C, b, extra, card):
    """A robot play (AK-V6..V14): draw (or, ``card`` >= 0, take) a card, place it, then its bonus."""
    gi, si, ki, col, extra_cards = S[0], S[2], S[4], S[9], S[10]
    rank, species = T[0], T[1]
    N, BN, robot = C[C_N], C[C_BN], C[C_ROBOT]
    c = card
    while True:
        if c < 0:
            c = draw_one(S, C, b)
            if c == N:
                retreat(S, C, b, robot, True)
                return
        k = robot_kingdom(S, T, C, b, c)
        col[b, k, ki[b, k, K_CLEN]] = c
        ki[b, k, K_CLEN] += 1
        ki[b, k, K_LAST] = c
        gi[b, G_ROBOT_LAST] = k
        si[b, robot, S_CLAIMS] += 1
        where = place_marker(S, T, C, b, robot, k)
        if where == CAPITAL or si[b, robot, S_SUPPLY] == 0:
            retreat(S, C, b, robot, True)
            return
        if extra and not C[C_BONUS_CHAIN]:
            return
        match = -1
        for i in range(BN):
            bc = extra_cards[b, i]
            if bc != N and (species[bc] == species[c] or rank[bc] == rank[c]):
                match = i
                break
        if match < 0:
            return
        effect = C[C_BONUS_EFFECT]
        if effect == EFFECT_EXTRA_PLAY:
            if not _any_open(S, C, b):
                return
            extra = True
            c = -1
        elif effect == EFFECT_PLAY_BONUS:             # the seed's literal reading: the bonus card is played
            if not _any_open(S, C, b):
                return
            c = np.int64(extra_cards[b, match])
            extra_cards[b, match] = draw_one(S, C, b)
            extra = True
        else:
            if ki[b, k, K_CAP] < 0:
                where = place_marker(S, T, C, b, robot, k)
                if where == CAPITAL or si[b, robot, S_SUPPLY] == 0:
                    retreat(S, C, b, robot, True)
            return


# ---- scoring and battles ---------------------------------------------------------------------------

@inline
def _counts(S, C, b, k, cnt):
    ki, kp = S[4], S[5]
    for p in range(C[C_P]):
        cnt[p] = kp[b, k, p, KP_ORDM] + kp[b, k, p, KP_COUNCIL] + (1 if ki[b, k, K_CAP] == p else 0)


@kernel
def _award(S, C, b, k, key, present):
    """Places (AK-A22) and points (AK-E4, AK-E6..E8) of kingdom k; the leftmost tile is not removed."""
    si, ki, fp = S[2], S[4], S[11]
    P, T_ = C[C_P], C[C_T]
    fpn = ki[b, k, K_FPN]
    tile = np.int64(fp[b, k, fpn]) if fpn < T_ else 0
    for p in range(P):
        if not present[p]:
            continue
        place = 1
        for q in range(P):
            if not present[q] or key[q] <= key[p]:
                continue
            if C[C_COMPETITION]:
                place += 1
            else:                                  # dense: count each greater value once (its first seat)
                first = True
                for r in range(q):
                    if present[r] and key[r] == key[q]:
                        first = False
                        break
                if first:
                    place += 1
        if place == 1:
            si[b, p, S_PF] += tile
        elif place == 2:
            si[b, p, S_PS] += C[C_SECOND]
        elif place == 3:
            si[b, p, S_PT] += C[C_THIRD]


@kernel
def score_kingdom(S, T, C, b):
    """SCORE (AK-E2..E10): the kingdoms left in this age's scoring order, up to the next battle."""
    gi, si, sb, ki, hand = S[0], S[2], S[3], S[4], S[6]
    order = T[4]
    K, P, N = C[C_K], C[C_P], C[C_N]
    cnt, key, present, g1 = S[X_SI][0], S[X_SI][1], S[X_SB][0], S[X_SB][1]
    j = gi[b, G_SJ]
    while j < K:
        k = order[j]
        _counts(S, C, b, k, cnt)
        top = 0
        for p in range(P):
            present[p] = cnt[p] >= 1
            top = max(top, cnt[p])
        n1 = 0
        for p in range(P):
            g1[p] = present[p] and cnt[p] == top
            n1 += g1[p]
            key[p] = cnt[p]
        tie = n1 >= 2
        if C[C_PEACE]:                                       # AK-V1..V3, AK-A36
            has = False
            if tie:
                for p in range(P):
                    if g1[p] and ki[b, k, K_CAP] == p:
                        has = True
            if has:
                for p in range(P):
                    holder = g1[p] and ki[b, k, K_CAP] == p
                    if holder:
                        key[p] = TOP + 1
                    elif g1[p]:
                        key[p] = TOP
                        if C[C_PEACE_NOTHING]:
                            present[p] = False
        elif tie:
            break
        _award(S, C, b, k, key, present)
        anyone = False
        for p in range(P):
            anyone = anyone or present[p]
        if anyone or C[C_REMOVE_UNCLAIMED]:              # AK-E5, AK-A23
            ki[b, k, K_FPN] += 1
        j += 1
    gi[b, G_SJ] = j
    if j >= K:
        gi[b, G_PHASE] = AGE_END
        return
    gi[b, G_BATTLES] += 1
    for p in range(P):
        sb[b, p, Q_PART] = g1[p]
        sb[b, p, Q_LOST] = False
        sb[b, p, Q_BFIRST] = False
    if C[C_SOLO]:                                            # AK-V15, AK-A40
        h = C[C_HUMAN]
        if hand[b, h, 0] == N:
            sb[b, C[C_ROBOT], Q_BFIRST] = True
            sb[b, h, Q_LOST] = True
            gi[b, G_PHASE] = BEND
        else:
            for p in range(P):
                si[b, p, S_BCH] = N
            gi[b, G_PHASE] = BCARD
            gi[b, G_DEC] = h
    else:
        gi[b, G_PHASE] = BROUND


@kernel
def battle_round(S, C, b):
    """BROUND: card-less participants lose or share first (AK-A28); else a round of card choices."""
    gi, si, sb, hand = S[0], S[2], S[3], S[6]
    P, N = C[C_P], C[C_N]
    some = False
    for p in range(P):
        if sb[b, p, Q_PART] and hand[b, p, 0] != N:
            some = True
    if not some:
        for p in range(P):
            sb[b, p, Q_BFIRST] = sb[b, p, Q_PART]
        gi[b, G_PHASE] = BEND
        return
    n = 0
    for p in range(P):
        if sb[b, p, Q_PART] and hand[b, p, 0] == N:
            sb[b, p, Q_LOST] = True
            sb[b, p, Q_PART] = False
        n += sb[b, p, Q_PART]
    if n == 1:
        for p in range(P):
            sb[b, p, Q_BFIRST] = sb[b, p, Q_PART]
        gi[b, G_PHASE] = BEND
        return
    for p in range(P):
        si[b, p, S_BCH] = N
    gi[b, G_PHASE] = BCARD
    gi[b, G_DEC] = first_in_order(S, C, b, sb[b, :, Q_PART])


@kernel
def battle_card(S, C, b, a):
    """A BCARD decision: the decider's secret card; the next participant, or the reveal."""
    gi, si, sb, hand = S[0], S[2], S[3], S[6]
    P, N = C[C_P], C[C_N]
    p = gi[b, G_DEC]
    si[b, p, S_BCH] = hand[b, p, a - C[C_A_BATTLE]]
    if C[C_SOLO]:
        gi[b, G_PHASE] = SREVEAL
        return
    mask = S[X_SB][3]
    for q in range(P):
        mask[q] = sb[b, q, Q_PART] and si[b, q, S_BCH] == N
    nxt = first_in_order(S, C, b, mask)
    if nxt >= 0:
        gi[b, G_DEC] = nxt
    else:
        gi[b, G_PHASE] = REVEAL


@kernel
def reveal(S, C, b):
    """REVEAL (AK-A24): the chosen cards leave the hands; holders of modifiers decide (AK-A25)."""
    gi, si, sb = S[0], S[2], S[3]
    P = C[C_P]
    asking = S[X_SB][3]
    ask = False
    for p in range(P):
        if sb[b, p, Q_PART]:
            remove_from_hand(S, C, b, p, si[b, p, S_BCH])
        asking[p] = sb[b, p, Q_PART] and si[b, p, S_MODS] > 0
        si[b, p, S_BMOD] = -1 if asking[p] else 0
        ask = ask or asking[p]
    if ask:
        gi[b, G_PHASE] = BMOD
        gi[b, G_DEC] = first_in_order(S, C, b, asking)
    else:
        gi[b, G_PHASE] = RESOLVE


@kernel
def battle_mods(S, C, b, a):
    """A BMOD decision: the decider's secret number of modifiers."""
    gi, si, sb = S[0], S[2], S[3]
    P = C[C_P]
    p = gi[b, G_DEC]
    si[b, p, S_BMOD] = a - C[C_A_MODS]
    if C[C_SOLO]:
        gi[b, G_PHASE] = SRESOLVE
        return
    mask = S[X_SB][3]
    for q in range(P):
        mask[q] = sb[b, q, Q_PART] and si[b, q, S_BMOD] < 0
    nxt = first_in_order(S, C, b, mask)
    if nxt >= 0:
        gi[b, G_DEC] = nxt
    else:
        gi[b, G_PHASE] = RESOLVE


@kernel
def resolve(S, T, C, b):
    """RESOLVE (AK-E12..E15, AK-A26, AK-A27): values, eliminations, winners of the round."""
    gi, si, sb, disc = S[0], S[2], S[3], S[8]
    rank = T[0]
    P, N, modval = C[C_P], C[C_N], C[C_MODVAL]
    value, used, one, eight = S[X_SI][2], S[X_SI][3], S[X_SB][4], S[X_SB][5]
    any_one = False
    any_eight = False
    for p in range(P):
        part = sb[b, p, Q_PART]
        used[p] = si[b, p, S_BMOD] if part else 0
        si[b, p, S_MODS] -= used[p]
        gi[b, G_MSUP] += used[p]
        r = rank[si[b, p, S_BCH]]
        value[p] = r + modval * used[p]
        v = r if C[C_PRINTED] else value[p]          # AK-A26: "is a 1 / an 8"
        one[p] = part and v == 1
        eight[p] = part and v == 8
        any_one = any_one or one[p]
        any_eight = any_eight or eight[p]
    best = -1
    remaining = S[X_SB][6]
    for p in range(P):
        part = sb[b, p, Q_PART]
        if C[C_ELIMINATE]:
            remaining[p] = part and not (any_one and eight[p])
        else:
            if one[p] and any_eight:
                value[p] = 9 + modval * used[p]
            remaining[p] = part
        if remaining[p]:
            best = max(best, value[p])
    n = 0
    for p in range(P):
        winner = remaining[p] and value[p] == best
        if sb[b, p, Q_PART]:
            if not winner:
                sb[b, p, Q_LOST] = True
            disc[b, si[b, p, S_BCH]] = True
        si[b, p, S_BCH] = N
        sb[b, p, Q_PART] = winner
        n += winner
    if n == 1:
        for p in range(P):
            sb[b, p, Q_BFIRST] = sb[b, p, Q_PART]
        gi[b, G_PHASE] = BEND
    else:
        gi[b, G_PHASE] = BROUND


@kernel
def solo_reveal(S, C, b):
    """SREVEAL (AK-V16, AK-V19, AK-A40): the human's card is revealed, the robot's cards drawn."""
    gi, si, extra = S[0], S[2], S[10]
    N, BN, h = C[C_N], C[C_BN], C[C_HUMAN]
    remove_from_hand(S, C, b, h, si[b, h, S_BCH])
    for i in range(C[C_RC]):
        extra[b, BN + i] = N
    for i in range(C[C_BATTLE_CARDS]):
        extra[b, BN + i] = draw_one(S, C, b)
    if si[b, h, S_MODS] > 0:
        si[b, h, S_BMOD] = -1
        gi[b, G_PHASE] = BMOD
        gi[b, G_DEC] = h
    else:
        si[b, h, S_BMOD] = 0
        gi[b, G_PHASE] = SRESOLVE


@kernel
def solo_resolve(S, T, C, b):
    """SRESOLVE (AK-V17, AK-A40): does any robot card beat the human's?"""
    gi, si, sb, disc, extra = S[0], S[2], S[3], S[8], S[10]
    rank = T[0]
    P, N, BN, h, rb = C[C_P], C[C_N], C[C_BN], C[C_HUMAN], C[C_ROBOT]
    used = np.int64(si[b, h, S_BMOD])
    si[b, h, S_MODS] -= used
    gi[b, G_MSUP] += used
    hc = si[b, h, S_BCH]
    h_rank = rank[hc]
    h_value = h_rank + C[C_MODVAL] * used
    v = h_rank if C[C_PRINTED] else h_value
    h_one = v == 1
    h_eight = v == 8
    robot_wins = False
    disc[b, hc] = True
    for i in range(C[C_RC]):
        rc = extra[b, BN + i]
        if rc == N:
            continue
        rr = rank[rc]
        higher = rr > h_value or (rr == h_value and C[C_ROBOT_EQUAL] != 0)
        if (rr == 1 and h_eight) or (not (h_one and rr == 8) and higher):
            robot_wins = True
        disc[b, rc] = True
        extra[b, BN + i] = N
    for p in range(P):
        si[b, p, S_BCH] = N
        sb[b, p, Q_BFIRST] = False
        sb[b, p, Q_LOST] = False
    if robot_wins:
        sb[b, rb, Q_BFIRST] = True
        sb[b, h, Q_LOST] = True
    else:
        sb[b, h, Q_BFIRST] = True
        sb[b, rb, Q_LOST] = True
    gi[b, G_PHASE] = BEND


@kernel
def battle_end(S, T, C, b):
    """BEND: modifiers to losers (AK-E20, AK-A29), refills (AK-E21, AK-A31), places (AK-E17, AK-E18)."""
    gi, si, sb, ki = S[0], S[2], S[3], S[4]
    order = T[4]
    P = C[C_P]
    for d in range(P):
        seat = (gi[b, G_AGE_START] + d) % P
        give = sb[b, seat, Q_LOST] and gi[b, G_MSUP] > 0
        if C[C_SOLO]:
            give = give and (seat == C[C_HUMAN] or C[C_ROBOT_MODS] != 0)
        if give:
            si[b, seat, S_MODS] += 1
            gi[b, G_MSUP] -= 1
    took = S[X_SB][2]
    for p in range(P):
        took[p] = sb[b, p, Q_BFIRST] or sb[b, p, Q_LOST]
    refill_in_order(S, C, b, took)
    k = order[gi[b, G_SJ]]
    cnt, key, present = S[X_SI][0], S[X_SI][1], S[X_SB][0]
    _counts(S, C, b, k, cnt)
    for p in range(P):
        si[b, p, S_WON] += sb[b, p, Q_BFIRST]
        si[b, p, S_LOST] += sb[b, p, Q_LOST]
        key[p] = TOP + 2 if sb[b, p, Q_BFIRST] else (TOP + 1 if sb[b, p, Q_LOST] else cnt[p])
        present[p] = cnt[p] >= 1
    _award(S, C, b, k, key, present)
    ki[b, k, K_FPN] += 1
    gi[b, G_SJ] += 1
    for p in range(P):
        sb[b, p, Q_PART] = False
        sb[b, p, Q_LOST] = False
        sb[b, p, Q_BFIRST] = False
    gi[b, G_PHASE] = SCORE


# ---- ages, councils, setup ---------------------------------------------------------------------------

@kernel
def deal_bonus(S, C, b):
    """AK-A39: the top card(s) of the deck become the robot's face-up bonus cards."""
    extra = S[10]
    for i in range(C[C_BN]):
        extra[b, i] = C[C_N]
    if C[C_SOLO]:
        for i in range(C[C_BONUS_CARDS]):
            extra[b, i] = draw_one(S, C, b)


@kernel
def age_end(S, C, b):
    """AGE_END: the game ends after Age III (AK-E23); else council moves (AK-R37) or a new age."""
    gi = S[0]
    age = gi[b, G_AGE]
    if age >= 2:
        gi[b, G_PHASE] = DONE
        gi[b, G_DEC] = -1
        return
    if (age == 0 and C[C_COUNCIL_1]) or (age == 1 and C[C_COUNCIL_2]):
        gi[b, G_CK] = 0
        gi[b, G_PHASE] = CSEEK
    else:
        gi[b, G_PHASE] = NEWAGE


@kernel
def move_to_council(S, b, k, owner):
    """AK-R37, AK-R39: the capital marker moves to the council of the same kingdom (AK-A32)."""
    si, ki, kp = S[2], S[4], S[5]
    kp[b, k, owner, KP_COUNCIL] += 1
    ki[b, k, K_CAP] = -1
    si[b, owner, S_COUNCIL] += 1


@kernel
def council_seek(S, T, C, b):
    """CSEEK: kingdoms in scoring order until a player's council decision or the new age."""
    gi, ki, kp = S[0], S[4], S[5]
    order, council_spaces = T[4], T[3]
    K, P = C[C_K], C[C_P]
    while True:
        found = -1
        for j in range(gi[b, G_CK], K):
            k = order[j]
            if ki[b, k, K_CAP] < 0:
                continue
            n = 0
            for q in range(P):
                n += kp[b, k, q, KP_COUNCIL]
            if n < council_spaces[k]:
                found = j
                break
        if found < 0:
            gi[b, G_PHASE] = NEWAGE
            return
        k = order[found]
        owner = np.int64(ki[b, k, K_CAP])
        if owner == C[C_ROBOT]:
            if C[C_ROBOT_COUNCIL]:
                move_to_council(S, b, k, owner)
            gi[b, G_CK] = found + 1
            continue
        gi[b, G_CK] = found
        gi[b, G_PHASE] = COUNCIL
        gi[b, G_DEC] = owner
        return


@kernel
def council_decision(S, T, C, b, a):
    """A COUNCIL decision: yes moves the marker; then the next kingdom."""
    gi = S[0]
    order = T[4]
    k = order[gi[b, G_CK]]
    if a == C[C_A_YES]:
        move_to_council(S, b, k, np.int64(gi[b, G_DEC]))
    gi[b, G_CK] += 1
    gi[b, G_PHASE] = CSEEK


@kernel
def new_age_start(S, C, b):
    """AK-R50, AK-R51, AK-A34: last on the track starts; ties by capital claims, then clockwise."""
    gi, si = S[0], S[2]
    P = C[C_P]
    low = np.int64(1) << 62
    for p in range(P):
        low = min(low, C[C_START_SCORE] + si[b, p, S_PF] + si[b, p, S_PS] + si[b, p, S_PT] + si[b, p, S_PR])
    when_col = S_FIRST_CAP if C[C_TIE_WHOLE_GAME] else S_CAP_TURN
    best = -1
    best_when = NONE_YET
    for p in range(P):
        track = C[C_START_SCORE] + si[b, p, S_PF] + si[b, p, S_PS] + si[b, p, S_PT] + si[b, p, S_PR]
        if track == low and si[b, p, when_col] < best_when:
            best = p
            best_when = si[b, p, when_col]
    if best >= 0:
        return best
    for d in range(P):
        seat = (gi[b, G_AGE_START] + d) % P
        track = C[C_START_SCORE] + si[b, seat, S_PF] + si[b, seat, S_PS] + si[b, seat, S_PT] + si[b, seat, S_PR]
        if track == low:
            return seat
    return -1


@kernel
def new_age(S, T, C, b):
    """NEWAGE (AK-R44..R49, AK-A31, AK-A33): markers back, reshuffle, refills, new decrees."""
    gi, gb, si, sb, ki, kp, hand, disc, col, dorder = S[0], S[1], S[2], S[3], S[4], S[5], S[6], S[8], S[9], S[13]
    markers = T[13]
    N, K, P, H = C[C_N], C[C_K], C[C_P], C[C_H]
    start = new_age_start(S, C, b)
    gi[b, G_AGE] += 1
    for p in range(P):
        n = 0
        for k in range(K):
            kp[b, k, p, KP_ORDM] = 0
            n += kp[b, k, p, KP_COUNCIL]
        si[b, p, S_SUPPLY] = markers[p] - n
    mask = S[X_MASK]
    mask[:] = True
    for p in range(P):
        for i in range(H):
            c = hand[b, p, i]
            if c != N:
                mask[c] = False
    _shuffle(S, C, b, mask)
    for k in range(K):
        ki[b, k, K_CAP] = -1
        ki[b, k, K_CLEN] = 0
        ki[b, k, K_LAST] = N
        for i in range(col.shape[2]):
            col[b, k, i] = N
    disc[b, :] = False
    for i in range(C[C_BN]):
        S[10][b, i] = N
    gi[b, G_AGE_START] = start
    everyone = S[X_SB][7]
    everyone[:] = True
    refill_in_order(S, C, b, everyone)
    age = gi[b, G_AGE]
    for k in range(K):
        ki[b, k, K_DECREE] = dorder[b, age * K + k]
    deal_bonus(S, C, b)
    for p in range(P):
        sb[b, p, Q_ACTIVE] = True
        si[b, p, S_CAP_TURN] = NONE_YET
    gb[b, B_RET_AGE] = False
    gi[b, G_AGE_TURNS] = 0
    gi[b, G_LAST_REL] = -1
    gi[b, G_HUMAN_LAST] = -1
    gi[b, G_ROBOT_LAST] = -1
    gi[b, G_CUR] = start
    gi[b, G_PHASE] = BEGIN


@kernel
def setup_cards(S, T, C):
    """AK-S5..S7, AK-S8, AK-A39 for every game: shuffle 0 of all cards, hands, Age I decrees, bonus cards."""
    gi, ki, dorder = S[0], S[4], S[13]
    K, P = C[C_K], C[C_P]
    mask = S[X_MASK]
    for b in range(gi.shape[0]):
        mask[:] = True
        _shuffle(S, C, b, mask)
        for p in range(P):
            if p != C[C_ROBOT]:
                refill(S, C, b, p)
        for k in range(K):
            ki[b, k, K_DECREE] = dorder[b, k]
        deal_bonus(S, C, b)


# ---- the flow -------------------------------------------------------------------------------------------

@inline
def advance_one(S, T, C, b):
    """Run game b's automatic phases until it waits for a decision or is over."""
    gi = S[0]
    for _ in range(MAX_AUTO):
        ph = gi[b, G_PHASE]
        if ph < BEGIN or ph == DONE:
            return
        if ph == BEGIN:
            begin_turn(S, T, C, b)
        elif ph == NEXT:
            next_turn(S, C, b)
        elif ph == SCORE:
            score_kingdom(S, T, C, b)
        elif ph == BROUND:
            battle_round(S, C, b)
        elif ph == REVEAL:
            reveal(S, C, b)
        elif ph == RESOLVE:
            resolve(S, T, C, b)
        elif ph == BEND:
            battle_end(S, T, C, b)
        elif ph == SREVEAL:
            solo_reveal(S, C, b)
        elif ph == SRESOLVE:
            solo_resolve(S, T, C, b)
        elif ph == AGE_END:
            age_end(S, C, b)
        elif ph == CSEEK:
            council_seek(S, T, C, b)
        elif ph == NEWAGE:
            new_age(S, T, C, b)
        else:
            raise RuntimeError("animal kingdoms: unknown phase")
    raise RuntimeError("animal kingdoms: automatic phases did not settle")


@kernel
def step(S, T, C, actions, decide):
    """Apply one decision per game (if ``decide``; none for finished games), then advance each game.

    ``advance`` is this kernel with ``decide`` false: one compiled copy of the whole flow.
    """
    gi = S[0]
    for b in range(gi.shape[0]):
        if decide:
            ph = gi[b, G_PHASE]
            a = actions[b]
            if ph == TURN:
                apply_turn(S, T, C, b, a)
            elif ph == BCARD:
                battle_card(S, C, b, a)
            elif ph == BMOD:
                battle_mods(S, C, b, a)
            elif ph == COUNCIL:
                council_decision(S, T, C, b, a)
        advance_one(S, T, C, b)


@inline
def legal_sets_one(S, T, C, b, sets, open_only):
    """sets[K, W]: the cards each kingdom's decree allows now (AK-R19..R27, AK-A13).

    With ``open_only`` the sets of full kingdoms (no claim possible, AK-A9) are left as they are.
    """
    ki = S[4]
    dtype_, dany, simple_bits, rel_flat, ref1 = T[6], T[7], T[8], T[9], T[10]
    N, K, W = C[C_N], C[C_K], C[C_W]
    for k in range(K):
        if open_only and ki[b, k, K_CAP] >= 0:
            continue
        d = ki[b, k, K_DECREE]
        ty = dtype_[d]
        base = d * (N + 1)
        if ty == TY_SIMPLE:
            for w in range(W):
                sets[k, w] = simple_bits[d, w]
        elif ty == TY_ALL:
            none_other = True
            missing = False
            for j in range(K):
                if j != k:
                    if ki[b, j, K_LAST] == N:
                        missing = True
                    else:
                        none_other = False
            for w in range(W):
                acc_all = _ONES
                acc_any = np.uint64(0)
                for j in range(K):
                    ref = N if j == k else ki[b, j, K_LAST]
                    g = rel_flat[base + ref, w]
                    acc_all &= g
                    acc_any |= g
                if dany[d]:
                    v = _ONES if none_other else acc_any
                else:
                    v = acc_all
                if C[C_MISSING_FREES] and missing:
                    v = _ONES
                sets[k, w] = v
        else:
            ref = ki[b, ref1[ty, k], K_LAST]
            for w in range(W):
                sets[k, w] = rel_flat[base + ref, w]


@kernel
def legal_actions(S, T, C, out):
    """out[B, A] (zeros on entry): the legal actions of every game's pending decision."""
    gi, gb, si, ki, hand = S[0], S[1], S[2], S[4], S[6]
    rally_top = T[12]
    N, K, H, M = C[C_N], C[C_K], C[C_H], C[C_M]
    A_RALLY, A_RETREAT = C[C_A_RALLY], C[C_A_RETREAT]
    sets = S[X_SETS]
    is_open = S[X_OPEN]
    for b in range(gi.shape[0]):
        ph = gi[b, G_PHASE]
        if ph == TURN:
            p = gi[b, G_CUR]
            legal_sets_one(S, T, C, b, sets, True)
            for k in range(K):
                is_open[k] = ki[b, k, K_CAP] < 0
            count = 0
            some = False
            for i in range(H):                   # branch-free: the outcomes are random
                c = np.int64(hand[b, p, i])
                valid = c != N
                c = c if valid else 0
                count += valid
                word = c // 64
                bit = np.uint64(c % 64)
                for k in range(K):
                    v = valid & is_open[k] & (((sets[k, word] >> bit) & _ONE) != 0)
                    out[b, i * K + k] = v
                    some |= v
            allowed = not (gb[b, B_RET_EVER] if C[C_BAN_GAME] else gb[b, B_RET_AGE])
            rally = False
            for r in range(A_RETREAT - A_RALLY):
                v = allowed & (rally_top[r] < count)
                out[b, A_RALLY + r] = v
                rally |= v
            mode = C[C_VOLUNTARY]                # AK-A15, AK-R32, AK-A10
            out[b, A_RETREAT] = (mode == RETREAT_ALWAYS or not rally
                                 and (mode == RETREAT_NO_RALLY or not some))
        elif ph == BCARD:
            p = gi[b, G_DEC]
            for i in range(H):
                out[b, C[C_A_BATTLE] + i] = hand[b, p, i] != N
        elif ph == BMOD:
            p = gi[b, G_DEC]
            for m in range(M + 1):
                out[b, C[C_A_MODS] + m] = m <= si[b, p, S_MODS]
        elif ph == COUNCIL:
            out[b, C[C_A_YES]] = True
            out[b, C[C_A_YES] + 1] = True


@kernel
def legal_sets_rows(S, T, C, rows, out):
    """out[n, K, W]: ``legal_sets_one`` of the games ``rows``."""
    for i in range(len(rows)):
        legal_sets_one(S, T, C, rows[i], out[i], False)


@kernel
def new_age_start_rows(S, C, rows, out):
    """out[n]: ``new_age_start`` of the games ``rows``."""
    for i in range(len(rows)):
        out[i] = new_age_start(S, C, rows[i])


# ---- observation (AK-A45) ------------------------------------------------------------------------------

@kernel
def observe_private(gi, si, sb, hand_all, rt, C, players, hand, hand_count, deck_count, own_rt, my_card, my_mods,
                    revealed):
    """The per-observer fields of ``observe.Obs`` (outputs after ``players``), one pass per game.

    Own hand, every seat's hand size, the deck size, the values of own first-retreat tiles, own
    pending battle card and modifier choice, and the battle cards revealed this round: in the
    multi-player battle from the modifier decisions on (the cards have left the hands), in the
    solo battle the human's card together with the robot's cards.
    """
    N, P, H = C[C_N], C[C_P], C[C_H]
    for b in range(gi.shape[0]):
        p = max(players[b], 0)
        for q in range(P):
            n = 0
            for i in range(H):
                n += hand_all[b, q, i] != N
            hand_count[b, q] = n
            revealed[b, q] = N
        for i in range(H):
            hand[b, i] = hand_all[b, p, i]
        deck_count[b] = gi[b, G_DEND] - gi[b, G_DTOP]
        for a in range(3):
            own_rt[b, a] = rt[b, a] if gi[b, G_RT_OWNER + a] == p else -1
        my_card[b] = si[b, p, S_BCH]
        my_mods[b] = si[b, p, S_BMOD]
        ph = gi[b, G_PHASE]
        if C[C_SOLO]:
            if ph == BMOD or ph == SRESOLVE:
                revealed[b, C[C_HUMAN]] = si[b, C[C_HUMAN], S_BCH]
        elif ph == BMOD:
            for q in range(P):
                if sb[b, q, Q_PART]:
                    revealed[b, q] = si[b, q, S_BCH]
