"""The compiled micro-op machine: numba kernels that run the games of a batch to their next decision.

The one implementation of the rules of play (docs/red_rising_model.md; its judge is the
one-game oracle tests/oracle_red_rising.py). One compiled loop goes over the games of the batch
and, for each game, executes its micro-ops with scalar code until the game waits for a decision
or is over (``run_batch``), after storing the answers of a step (``apply_batch``). The state
stays in the batch arrays of ``State`` (passed as a named tuple of arrays, ``pack``); nothing is
copied per game and there is no Python loop over games. Random draws come from the same keyed SplitMix64 streams as ``sim.core.rng`` (``bits``,
``integers``; tested bit for bit), with the same purposes and counters.

The frame stack cannot grow inside the kernel: a game that is about to need more frames than
``State.frame`` holds stops *before* its next micro-op (a clean point: ``mop`` names it), the
kernel returns that game, ``engine.run`` grows the arrays (``state.grow_frames``) and runs the
kernel again.

Compiled once per machine (``cache=True``: numba stores the machine code beside this module
in ``__pycache__``); a process then pays only the loading of the cached code. The cache is keyed
on this file and on the sources whose constants it reads (``sim.core.kernel_cache``).
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from sim.core import kernel_cache

# No reference counting in the kernel (it allocates nothing: scratch buffers come with the arrays);
# with it, every call between kernel functions would count references of every array it passes.
# Only the entry points (called from Python) get numba's CPython and C wrappers: a wrapper unboxes
# the named tuples of arrays (about 1,300 LLVM instructions each, more than most kernel functions),
# and numba would lower, optimise and compile one per function for nothing.
entry = njit(cache=True, _nrt=False)
jit = njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
jit_inline = njit(cache=True, _nrt=False, inline="always")   # small helpers: inlined by numba

from sim.games.red_rising import actions as A
from sim.games.red_rising import zones
from sim.games.red_rising import program as PR
from sim.games.red_rising import state as ST

# The kernel compiles in constants of these modules: its cached code is keyed on their sources too.
kernel_cache.watch(__file__, A, zones, PR, ST)

# ---- constants (module globals are compile-time constants for numba) ---------------------------
LEAD, SCOUT, LOC0, DECK_A, YES, NO, FACE0, OPP0, CARD0 = (A.LEAD, A.SCOUT, A.LOC0, A.DECK, A.YES, A.NO,
                                                          A.FACE0, A.OPP0, A.CARD0)
KD = A.KIND
K_ACTION, K_DEPCARD, K_DEPLOC, K_OPTIONAL = KD["action"], KD["deploy_card"], KD["deploy_location"], KD["optional"]
K_TLOC, K_TCARD, K_TOPP, K_GAIN = KD["target_location"], KD["target_card"], KD["target_opponent"], KD["gain"]
K_SCOUT, K_PLACE, K_FACE, K_BLOCK = KD["scout_location"], KD["place_location"], KD["die_face"], KD["block"]
K_ACCEPT, K_ORDER, K_EBANISH = KD["accept"], KD["end_order"], KD["end_banish"]

Z_DECK, Z_BANISHED, HAND0 = zones.DECK, zones.BANISHED, zones.HAND0
PILE_DECK, PILE_AUTOMA = ST.PILE_DECK, ST.PILE_AUTOMA
LUNA = 2
R_RET, R_PC, R_ACTOR, R_THIS, R_CARD, R_PREV = ST.R_RET, ST.R_PC, ST.R_ACTOR, ST.R_THIS, ST.R_CARD, ST.R_PREV
R_CNT, R_TGT, R_TMASK, R_DONE, R_CHAIN, R_SRC = ST.R_CNT, ST.R_TGT, ST.R_TMASK, ST.R_DONE, ST.R_CHAIN, ST.R_SRC
NREG = ST.NREG
R_TWO, R_ALL, R_STALEMATE, R_ROUND_LIMIT = ST.R_TWO, ST.R_ALL, ST.R_STALEMATE, ST.R_ROUND_LIMIT
ENTER0 = ST.ENTER0
_M = ST.M
(T_START, T_ACTION, T_DEPCARD, T_DEPLOC, T_GAIN_ASK, T_GAIN, T_SCOUT, T_END) = (
    _M["T_START"], _M["T_ACTION"], _M["T_DEPCARD"], _M["T_DEPLOC"], _M["T_GAIN_ASK"], _M["T_GAIN"],
    _M["T_SCOUT"], _M["T_END"])
(E_START, E_PLAYER, E_ORDER_ASK, E_ORDER, E_BANISH, E_CERES, E_SCORE, DONE) = (
    _M["E_START"], _M["E_PLAYER"], _M["E_ORDER_ASK"], _M["E_ORDER"], _M["E_BANISH"], _M["E_CERES"],
    _M["E_SCORE"], _M["DONE"])
(POP, ADV_DONE, ADV_REG, OPT) = (_M["POP"], _M["ADV_DONE"], _M["ADV_REG"], _M["OPT"])
(BANLOC_LOC, BANLOC_CARD, BH_ASK, BH_APPLY, MOVE_SRC, MOVE_CARD, MOVE_DST, PL_ASK, PL_APPLY) = (
    _M["BANLOC_LOC"], _M["BANLOC_CARD"], _M["BH_ASK"], _M["BH_APPLY"], _M["MOVE_SRC"], _M["MOVE_CARD"],
    _M["MOVE_DST"], _M["PL_ASK"], _M["PL_APPLY"])
(GC_LOC, GC_CARD, DA_CARD, DA_LOC, REC_CARD, REC_LOC, RD_NEXT, RD_F1, RD_F2, RD_FC) = (
    _M["GC_LOC"], _M["GC_CARD"], _M["DA_CARD"], _M["DA_LOC"], _M["REC_CARD"], _M["REC_LOC"], _M["RD_NEXT"],
    _M["RD_F1"], _M["RD_F2"], _M["RD_FC"])
(OPP_CHOOSE, OPP_NEXT, OPP_BLOCK, OPP_CARD, OPP_ACCEPT, OPP_THEN, RV_CARD, TRADE_GET, BH_OPT, IF_WILD) = (
    _M["OPP_CHOOSE"], _M["OPP_NEXT"], _M["OPP_BLOCK"], _M["OPP_CARD"], _M["OPP_ACCEPT"], _M["OPP_THEN"],
    _M["RV_CARD"], _M["TRADE_GET"], _M["BH_OPT"], _M["IF_WILD"])

(GAIN, LOSE, TRADE, BANISH_LOC, BANISH_HAND, BANISH_DECK, MOVE, PLACE, GAIN_CARD, DEPLOY_ANOTHER, RECOVER,
 ROLL_DIE, OPPONENT, REVEAL_OWN, IF, END_TURN) = (
    PR.GAIN, PR.LOSE, PR.TRADE, PR.BANISH_LOC, PR.BANISH_HAND, PR.BANISH_DECK, PR.MOVE, PR.PLACE, PR.GAIN_CARD,
    PR.DEPLOY_ANOTHER, PR.RECOVER, PR.ROLL_DIE, PR.OPPONENT, PR.REVEAL_OWN, PR.IF, PR.END_TURN)
(P_OPT, P_RES, P_AMT, P_SEL, P_SEL2, P_POS, P_WHICH, P_TOPOS, P_FILT, P_FACE, P_TGT, P_ACT, P_SELN, P_BLOCK,
 P_SHUF, P_COND, P_CFILT, P_CSEL, P_CRES, P_CAMT, P_WHEN, P_THEN, P_ELSE, P_PAY, P_GET) = (
    PR.P_OPT, PR.P_RES, PR.P_AMT, PR.P_SEL, PR.P_SEL2, PR.P_POS, PR.P_WHICH, PR.P_TOPOS, PR.P_FILT, PR.P_FACE,
    PR.P_TGT, PR.P_ACT, PR.P_SELN, PR.P_BLOCK, PR.P_SHUF, PR.P_COND, PR.P_CFILT, PR.P_CSEL, PR.P_CRES,
    PR.P_CAMT, PR.P_WHEN, PR.P_THEN, PR.P_ELSE, PR.P_PAY, PR.P_GET)
TRADE_GETS = PR.TRADE_GETS
HELIUM, INFLUENCE, SOVEREIGN, DIE = PR.HELIUM, PR.INFLUENCE, PR.SOVEREIGN, PR.DIE
DF_BANISH, DF_PLACE, DF_SOVEREIGN, DF_HELIUM, DF_FLEET, DF_INFLUENCE = (
    PR.DF_BANISH, PR.DF_PLACE, PR.DF_SOVEREIGN, PR.DF_HELIUM, PR.DF_FLEET, PR.DF_INFLUENCE)
SEL_BANISHED, SEL_DECK, SEL_HAND = PR.SEL_BANISHED, PR.SEL_DECK, PR.SEL_HAND
W_TOP, W_SELF, W_BOTTOM, W_FILTER = PR.W_TOP, PR.W_SELF, PR.W_BOTTOM, PR.W_FILTER
T_CHOOSE, T_NEIGHBOURS = PR.T_CHOOSE, PR.T_NEIGHBOURS
A_STEAL, A_BANISH, A_REVEAL_RANDOM, A_REVEAL_CHOICE, A_LOSE, A_GAIN_FREE, A_LOOK = (
    PR.A_STEAL, PR.A_BANISH, PR.A_REVEAL_RANDOM, PR.A_REVEAL_CHOICE, PR.A_LOSE, PR.A_GAIN_FREE, PR.A_LOOK)
S_RANDOM, S_OWNER, S_ACTOR = PR.S_RANDOM, PR.S_OWNER, PR.S_ACTOR
C_HAND, C_SEEN, C_LOCTOP, C_BANISHED, C_RESOURCE = PR.C_HAND, PR.C_SEEN, PR.C_LOCTOP, PR.C_BANISHED, PR.C_RESOURCE
SET_ASIDE = 4
MAX_STEPS = 1_000_000                 # micro-ops of one game between two decisions (a guard)

# SplitMix64 (sim/core/rng.py)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
_TO_UNIT = 1.0 / float(1 << 53)

# ---- the arrays the kernel works on ---------------------------------------------------------------
_STATE_FIELDS = ("where", "under", "top", "size", "hand_n", "res", "cap", "sovereign", "house", "automa",
                 "letter_loc", "luna_bonus", "auto_order", "auto_pos", "auto_shuffles", "key_die", "key_pick",
                 "key_automa", "die_c", "pick_c", "player", "turns", "rounds", "deployed", "skip_gain", "traded",
                 "turn_traded", "changed", "idle", "triggered", "end_reason", "last_turn", "reached", "done",
                 "pend", "flipped", "end_player", "end_pending", "banish_left", "kind", "decider", "legal",
                 "waiting", "action", "mop", "depth", "frame", "f_seen")
# scratch buffers (the kernel allocates nothing): bool[4] x4, bool[C] x3, bool[P], bool[7], bool[3],
# int64[K] x2, uint64[NA], int64[NA]
_SCRATCH = ("w_b4a", "w_b4b", "w_b4c", "w_b4d", "w_c1", "w_c2", "w_c3", "w_p", "w_7", "w_3", "w_k1", "w_k2",
            "w_u", "w_i")
Arrays = namedtuple("Arrays", _STATE_FIELDS + _SCRATCH)
_PROG_FIELDS = ("op", "prm", "fmatch", "wmatch", "blocks", "deploy_pc", "end_pc", "house_pc", "sel", "house_extra_turn",
                "house_end_banish", "auto_deploy", "auto_gain", "auto_extra", "auto_dir", "die", "cfg")
Prog = namedtuple("Prog", _PROG_FIELDS)
# cfg int64 columns
CF_DIE_PC, CF_THRESHOLD, CF_EVER, CF_STALE, CF_MAX_ROUNDS, CF_PER_TURN, CF_CHAIN_REC, CF_WITH_OWN = range(8)


_scratch: dict = {}


def pack(s) -> tuple:
    """(Arrays, Prog) of a state: views of its arrays (no copies) and the program tables."""
    c, p, k, na = s.where.shape[1], s.res.shape[1], s.f_seen.shape[2], s.auto_order.shape[1]
    scratch = _scratch.get((c, p, k, na))
    if scratch is None:
        scratch = tuple(np.zeros(4, np.bool_) for _ in range(4)) + tuple(np.zeros(c, np.bool_) for _ in range(3)) + (
            np.zeros(p, np.bool_), np.zeros(7, np.bool_), np.zeros(3, np.bool_), np.zeros(k, np.int64),
            np.zeros(k, np.int64), np.zeros(na, np.uint64), np.zeros(na, np.int64))
        _scratch[(c, p, k, na)] = scratch
    backings = tuple(getattr(s, name) for name in ST.BACKINGS)
    cached = s.__dict__.get("_kernel_arrays")
    if cached is not None and all(a is b for a, b in zip(cached[0], backings)) and cached[2] is scratch:
        arrays = cached[1]
    else:                                     # views of the backing arrays, kept while those are
        arrays = Arrays(*(getattr(s, name) for name in _STATE_FIELDS), *scratch)
        s.__dict__["_kernel_arrays"] = (backings, arrays, scratch)
    prog = getattr(s.prog, "_kernel_prog", None)
    key = (id(s.config),)
    if prog is None or prog[0] != key or prog[1] is not s.config:
        p, c = s.prog, s.config
        cfg = np.array([p.die_pc, c.threshold, c.threshold_mode == "ever_reached", c.stalemate_rounds, c.max_rounds,
                        c.trade_limit == "per_turn_total", bool(c.chain_deploy_recursive),
                        c.ceres_end_banish == "with_own_end_abilities"], dtype=np.int64)
        tables = Prog(p.op.astype(np.int64), p.prm.astype(np.int64), p.fmatch, p.wmatch, p.blocks,
                      p.deploy_pc.astype(np.int64), p.end_pc.astype(np.int64), p.house_pc.astype(np.int64),
                      p.sel, p.house_extra_turn.astype(np.int64), p.house_end_banish.astype(np.int64),
                      p.auto_deploy.astype(np.int64), p.auto_gain.astype(np.int64), p.auto_extra.astype(np.int64),
                      p.auto_dir.astype(np.int64), p.die.astype(np.int64), cfg)
        prog = (key, s.config, tables)
        object.__setattr__(s.prog, "_kernel_prog", prog)
    return arrays, prog[2]


# ---- random draws -----------------------------------------------------------------------------------

@jit_inline
def mix(z):
    z = z + _GOLDEN
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@jit_inline
def bits(key, counter):
    """rng.bits for one stream: the ``counter``-th 64-bit draw of ``key``."""
    return mix(np.uint64(key) ^ mix(np.uint64(counter)))


@jit_inline
def integers(key, counter, high):
    """rng.integers for one stream: an integer in [0, high)."""
    u = np.float64(bits(key, counter) >> _S11) * _TO_UNIT
    return np.int64(np.floor(u * high))


@njit(cache=True)
def bits_array(keys, counters):
    out = np.empty(len(keys), np.uint64)
    for i in range(len(keys)):
        out[i] = bits(keys[i], counters[i])
    return out


@njit(cache=True)
def integers_array(keys, counters, highs):
    out = np.empty(len(keys), np.int64)
    for i in range(len(keys)):
        out[i] = integers(keys[i], counters[i], highs[i])
    return out


@jit_inline
def roll(S, g):
    face = integers(S.key_die[g], S.die_c[g], 6) + 1
    S.die_c[g] += 1
    return face


@jit_inline
def pick(S, g, cand):
    """Uniform choice among the True entries of ``cand`` (ascending card index), purpose "pick"."""
    m = 0
    for c in range(len(cand)):
        if cand[c]:
            m += 1
    r = integers(S.key_pick[g], S.pick_c[g], max(m, 1))
    S.pick_c[g] += 1
    seen = 0
    for c in range(len(cand)):
        if cand[c]:
            if seen == r:
                return c
            seen += 1
    return 0


# ---- piles ------------------------------------------------------------------------------------------

@jit_inline
def zone_of_pile(S, g, pile):
    if pile == PILE_AUTOMA:
        return HAND0 + S.automa[g]
    return pile


@jit_inline
def pop_top(S, g, pile):
    c = S.top[g, pile]
    S.top[g, pile] = S.under[g, c]
    S.under[g, c] = -1
    S.size[g, pile] -= 1
    S.changed[g] = True
    return c


@jit_inline
def push_top(S, g, pile, c):
    S.under[g, c] = S.top[g, pile]
    S.top[g, pile] = c
    S.size[g, pile] += 1
    S.where[g, c] = zone_of_pile(S, g, pile)
    S.changed[g] = True


@jit_inline
def bottom_of(S, g, zone):
    """The bottom card of the pile whose cards lie in ``zone`` (0 if there is none, like argmax)."""
    for c in range(S.where.shape[1]):
        if S.where[g, c] == zone and S.under[g, c] == -1:
            return c
    return 0


@jit_inline
def push_bottom(S, g, pile, c):
    if S.size[g, pile] == 0:
        push_top(S, g, pile, c)
        return
    zone = zone_of_pile(S, g, pile)
    b = bottom_of(S, g, zone)
    S.under[g, b] = c
    S.under[g, c] = -1
    S.size[g, pile] += 1
    S.where[g, c] = zone
    S.changed[g] = True


@jit_inline
def unlink(S, g, c):
    w = S.where[g, c]
    pile = PILE_AUTOMA if w >= HAND0 else w
    if S.top[g, pile] == c:
        pop_top(S, g, pile)
        return
    for pred in range(S.under.shape[1]):
        if S.under[g, pred] == c:
            break
    S.under[g, pred] = S.under[g, c]
    S.under[g, c] = -1
    S.size[g, pile] -= 1
    S.changed[g] = True


@jit_inline
def remove_card(S, g, c):
    w = S.where[g, c]
    if w <= Z_DECK or w == HAND0 + S.automa[g]:
        unlink(S, g, c)
    if w >= HAND0:
        S.hand_n[g, w - HAND0] -= 1
    S.changed[g] = True


@jit_inline
def to_hand(S, g, p, c):
    if p == S.automa[g]:
        push_top(S, g, PILE_AUTOMA, c)
    S.where[g, c] = HAND0 + p
    S.hand_n[g, p] += 1
    S.changed[g] = True


@jit_inline
def banish(S, g, c):
    S.where[g, c] = Z_BANISHED
    S.changed[g] = True


@jit_inline
def move_card(S, g, c, dest, bottom):
    remove_card(S, g, c)
    if bottom:
        push_bottom(S, g, dest, c)
    else:
        push_top(S, g, dest, c)


@jit_inline
def automa_bottom(S, g):
    return bottom_of(S, g, HAND0 + S.automa[g])


# ---- resources and the end trigger ----------------------------------------------------------------

@jit
def check_trigger(S, P, g):
    if S.triggered[g]:
        return
    thr = P.cfg[CF_THRESHOLD]
    ever = P.cfg[CF_EVER] != 0
    seats = S.res.shape[1]
    two = False
    any_r = S.w_3
    any_r[:] = False
    for q in range(seats):
        n = 0
        for r in range(3):
            m = S.res[g, q, r] >= thr
            if ever:
                if m:
                    S.reached[g, q, r] = True
                m = S.reached[g, q, r]
            if m:
                n += 1
                any_r[r] = True
        if n >= 2:
            two = True
    every = any_r[0] and any_r[1] and any_r[2]
    if two or every:
        S.triggered[g] = True
        S.end_reason[g] = R_TWO if two else R_ALL


@jit_inline
def add(S, P, g, p, d0, d1, d2):
    """Change seat ``p``'s (helium, fleet, cubes) by (d0, d1, d2) within [0, cap]; gains check the trigger."""
    up = False
    for r in range(3):
        d = d0 if r == 0 else (d1 if r == 1 else d2)
        old = np.int64(S.res[g, p, r])
        new = old + d
        cap = np.int64(S.cap[g, p, r])
        if new > cap:
            new = cap
        if new < 0:
            new = 0
        S.res[g, p, r] = new
        if new != old:
            S.changed[g] = True
        if new > old:
            up = True
    if up:
        check_trigger(S, P, g)


@jit_inline
def add_unit(S, P, g, p, res, amt):
    """add UNIT[res] * amt (helium, fleet, influence; the Sovereign and the die add nothing)."""
    if res == 0:
        add(S, P, g, p, amt, 0, 0)
    elif res == 1:
        add(S, P, g, p, 0, amt, 0)
    elif res == 2:
        add(S, P, g, p, 0, 0, amt)


@jit_inline
def add_loc(S, P, g, p, x):
    """LOC_UNIT[x]: Jupiter fleet, Mars helium, Luna nothing, Institute a cube."""
    if x == 0:
        add(S, P, g, p, 0, 1, 0)
    elif x == 1:
        add(S, P, g, p, 1, 0, 0)
    elif x == 3:
        add(S, P, g, p, 0, 0, 1)


@jit_inline
def add_face(S, P, g, p, bonus):
    """FACE_UNIT[bonus]: a die bonus's unit (helium, fleet or a cube; other bonuses add nothing)."""
    if bonus == DF_HELIUM:
        add(S, P, g, p, 1, 0, 0)
    elif bonus == DF_FLEET:
        add(S, P, g, p, 0, 1, 0)
    elif bonus == DF_INFLUENCE:
        add(S, P, g, p, 0, 0, 1)


# ---- frames and decisions --------------------------------------------------------------------------

@jit_inline
def push(S, P, g, pc, actor, this, card, chain, seen_mode):
    """A new frame for the block at ``pc``; the current ``mop`` is its return.

    seen_mode: 0 = empty seen set; 1 = keep the child slot (already written); 2 = copy the parent's.
    """
    d = S.depth[g] + 1
    S.depth[g] = d
    fr = S.frame
    fr[g, d, R_RET] = S.mop[g]
    fr[g, d, R_PC] = pc
    fr[g, d, R_ACTOR] = actor
    fr[g, d, R_THIS] = this
    fr[g, d, R_CARD] = card
    fr[g, d, R_PREV] = 0
    fr[g, d, R_CNT] = 0
    fr[g, d, R_TGT] = -1
    fr[g, d, R_TMASK] = 0
    fr[g, d, R_DONE] = 0
    fr[g, d, R_CHAIN] = chain
    fr[g, d, R_SRC] = -1
    k = S.f_seen.shape[2]
    if seen_mode == 0:
        for i in range(k):
            S.f_seen[g, d, i] = -1
    elif seen_mode == 2:
        for i in range(k):
            S.f_seen[g, d, i] = S.f_seen[g, d - 1, i]
    S.mop[g] = ENTER0 + P.op[pc]


@jit_inline
def advance(S, P, g, d, prev):
    pc = S.frame[g, d, R_PC] + 1
    S.frame[g, d, R_PC] = pc
    S.frame[g, d, R_PREV] = 1 if prev else 0
    op = P.op[pc]
    if op == 0:
        S.mop[g] = S.frame[g, d, R_RET]
        S.depth[g] = d - 1
    else:
        S.mop[g] = ENTER0 + op


@jit_inline
def clear_legal(S, g):
    for i in range(S.legal.shape[1]):
        S.legal[g, i] = False


@jit_inline
def ask(S, g, kind, decider, nxt):
    """Game ``g`` waits for a decision (the caller has written the legal row)."""
    S.kind[g] = kind
    S.decider[g] = decider
    S.waiting[g] = True
    S.mop[g] = nxt


@jit_inline
def ask_all_locs(S, g, kind, decider, nxt):
    clear_legal(S, g)
    for x in range(4):
        S.legal[g, LOC0 + x] = True
    ask(S, g, kind, decider, nxt)


@jit_inline
def ask_hand(S, g, kind, decider, p, nxt):
    """A choice among the cards of seat ``p``'s hand."""
    clear_legal(S, g)
    z = HAND0 + p
    for c in range(S.where.shape[1]):
        if S.where[g, c] == z:
            S.legal[g, CARD0 + c] = True
    ask(S, g, kind, decider, nxt)


@jit_inline
def ask_cards(S, g, kind, decider, cand, nxt):
    clear_legal(S, g)
    for c in range(S.where.shape[1]):
        if cand[c]:
            S.legal[g, CARD0 + c] = True
    ask(S, g, kind, decider, nxt)


@jit_inline
def ask_locs(S, g, kind, decider, locs, nxt):
    clear_legal(S, g)
    for x in range(4):
        if locs[x]:
            S.legal[g, LOC0 + x] = True
    ask(S, g, kind, decider, nxt)


@jit_inline
def ask_yes_no(S, g, kind, decider, nxt):
    clear_legal(S, g)
    S.legal[g, YES] = True
    S.legal[g, NO] = True
    ask(S, g, kind, decider, nxt)


@jit_inline
def receive_sovereign(S, P, g, p):
    """Seat ``p`` takes the Sovereign, then its house ops (pushed over the caller's ``mop``)."""
    if S.sovereign[g] != p:
        S.changed[g] = True
    S.sovereign[g] = p
    h = S.house[g, p]
    pc = P.house_pc[h] if h >= 0 else -1
    if pc >= 0:
        push(S, P, g, pc, p, -1, -1, 0, 0)


# ---- the turn ---------------------------------------------------------------------------------------

@jit_inline
def h_start(S, P, g):
    for x in range(4):
        S.deployed[g, x] = False
    S.skip_gain[g] = False
    S.changed[g] = False
    S.flipped[g] = -1
    if S.turn_traded[g]:
        for i in range(S.traded.shape[1]):
            S.traded[g, i] = False
        S.turn_traded[g] = False
    p = S.player[g]
    if p == S.automa[g]:
        automa_turn(S, P, g)
        S.mop[g] = T_END
        return
    clear_legal(S, g)
    S.legal[g, LEAD] = True
    S.legal[g, SCOUT] = S.size[g, PILE_DECK] > 0
    ask(S, g, K_ACTION, p, T_ACTION)


@jit_inline
def h_action(S, P, g):
    a = S.action[g]
    p = S.player[g]
    if a == SCOUT:
        S.flipped[g] = S.top[g, PILE_DECK]
        ask_all_locs(S, g, K_SCOUT, p, T_SCOUT)
    elif S.hand_n[g, p] > 0:
        ask_hand(S, g, K_DEPCARD, p, p, T_DEPCARD)
    else:
        S.mop[g] = T_GAIN_ASK


@jit_inline
def h_deploc(S, P, g):
    x = S.action[g] - LOC0
    c = S.pend[g]
    p = S.player[g]
    S.hand_n[g, p] -= 1
    push_top(S, g, x, c)
    S.deployed[g, x] = True
    pc = P.deploy_pc[c]
    S.mop[g] = T_GAIN_ASK
    if pc >= 0:
        push(S, P, g, pc, p, x, c, 0, 0)


@jit_inline
def h_gain_ask(S, P, g):
    deck = S.size[g, PILE_DECK] > 0
    some = deck
    for x in range(4):
        if not S.deployed[g, x] and S.size[g, x] > 0:
            some = True
    if S.skip_gain[g] or not some:
        S.mop[g] = T_END
        return
    clear_legal(S, g)
    for x in range(4):
        S.legal[g, LOC0 + x] = (not S.deployed[g, x]) and S.size[g, x] > 0
    S.legal[g, DECK_A] = deck
    ask(S, g, K_GAIN, S.player[g], T_GAIN)


@jit_inline
def location_bonus(S, P, g, p, x):
    S.mop[g] = T_END
    if x == LUNA:
        receive_sovereign(S, P, g, p)
    else:
        add_loc(S, P, g, p, x)


@jit_inline
def h_gain(S, P, g):
    a = S.action[g]
    p = S.player[g]
    if a == DECK_A:
        to_hand(S, g, p, pop_top(S, g, PILE_DECK))
        S.mop[g] = T_END
        push(S, P, g, P.cfg[CF_DIE_PC], p, -1, -1, 0, 0)
    else:
        x = a - LOC0
        to_hand(S, g, p, pop_top(S, g, x))
        location_bonus(S, P, g, p, x)


@jit_inline
def h_scout(S, P, g):
    x = S.action[g] - LOC0
    push_top(S, g, x, pop_top(S, g, PILE_DECK))
    S.flipped[g] = -1
    location_bonus(S, P, g, S.player[g], x)


@jit_inline
def h_end(S, P, g):
    seats = S.res.shape[1]
    S.turns[g] += 1
    if S.changed[g]:
        S.idle[g] = 0
    else:
        S.idle[g] += 1
    if not S.triggered[g] and S.idle[g] >= seats * P.cfg[CF_STALE]:
        S.triggered[g] = True
        S.end_reason[g] = R_STALEMATE
    p = S.player[g]
    last = p == seats - 1
    if last and not S.triggered[g] and S.rounds[g] >= P.cfg[CF_MAX_ROUNDS]:
        S.triggered[g] = True
        S.end_reason[g] = R_ROUND_LIMIT
    over = S.last_turn[g]
    extra = False
    if not over and last and S.triggered[g]:
        seat = -1
        for q in range(seats):
            h = S.house[g, q]
            if h >= 0 and P.house_extra_turn[h] > 0:
                seat = q
                break
        if seat >= 0:
            extra = True
            S.player[g] = seat
            if seat == 0:
                S.rounds[g] += 1
            S.last_turn[g] = True
        else:
            over = True
    if over:
        S.mop[g] = E_START
        return
    if not extra:
        np_ = (p + 1) % seats
        S.player[g] = np_
        if np_ == 0:
            S.rounds[g] += 1
    S.mop[g] = T_START


# ---- Au Toma ---------------------------------------------------------------------------------------

@entry
def build_deck(S, g):
    n = S.auto_order.shape[1]
    draws = S.w_u
    order = S.w_i
    base = np.int64(S.auto_shuffles[g]) * n
    for i in range(n):                          # a stable insertion sort of the draws (argsort)
        v = bits(S.key_automa[g], base + i)
        j = i
        while j > 0 and draws[j - 1] > v:
            draws[j] = draws[j - 1]
            order[j] = order[j - 1]
            j -= 1
        draws[j] = v
        order[j] = i
    for i in range(n):
        S.auto_order[g, i] = order[i]
    S.auto_pos[g] = SET_ASIDE


@jit_inline
def resolve_part(S, g, part):
    if part < 4:
        return part
    return np.int64(S.letter_loc[g, part - 4])


@jit_inline
def can_gain(S, g, a, loc):
    for r in range(3):
        unit = (loc == 0 and r == 1) or (loc == 1 and r == 0) or (loc == 3 and r == 2)
        if unit and loc != LUNA and not (S.res[g, a, r] < S.cap[g, a, r]):
            return False
    return True


@jit_inline
def take_sovereign(S, g, a):
    if S.sovereign[g] != a:
        S.changed[g] = True
    S.sovereign[g] = a


@jit
def automa_location_bonus(S, P, g, start, step):
    a = S.automa[g]
    chosen = -1
    for i in range(4):
        x = (start + i * step) % 4
        if x == LUNA or can_gain(S, g, a, x):
            chosen = x
            break
    if chosen != LUNA:
        add_loc(S, P, g, a, chosen % 4)
        return
    take_sovereign(S, g, a)
    extra = np.int64(S.luna_bonus[g])
    for i in range(4):
        x = (extra + i * step) % 4
        if x != LUNA and can_gain(S, g, a, x):
            add_loc(S, P, g, a, x)
            return


@jit
def automa_turn(S, P, g):
    a = S.automa[g]
    n_cards = S.auto_order.shape[1]
    for _ in range(2):
        if S.auto_pos[g] >= n_cards:
            S.auto_shuffles[g] += 1
            build_deck(S, g)
        card = S.auto_order[g, S.auto_pos[g]]
        S.auto_pos[g] += 1
        deploy = resolve_part(S, g, P.auto_deploy[card])
        gain = resolve_part(S, g, P.auto_gain[card])
        step = P.auto_dir[card]
        extra = P.auto_extra[card]
        if S.size[g, PILE_DECK] > 0:
            push_top(S, g, deploy, pop_top(S, g, PILE_DECK))
        loc = -1
        for i in range(4):
            x = (gain + i * step) % 4
            if S.size[g, x] > 0:
                loc = x
                break
        if loc >= 0:
            to_hand(S, g, a, pop_top(S, g, loc))
            if extra == 1:
                automa_location_bonus(S, P, g, loc, step)
        if extra == 2 and S.size[g, PILE_DECK] > 0:
            banish(S, g, pop_top(S, g, PILE_DECK))


@jit
def free_die(S, P, g):
    a = S.automa[g]
    ok = S.w_7                              # by bonus code (DF_*): could Au Toma gain it (RR-A36)
    ok[:] = False
    for x in range(4):
        if S.size[g, x] > 0:
            ok[DF_BANISH] = True
    ok[DF_PLACE] = S.size[g, PILE_DECK] > 0
    ok[DF_SOVEREIGN] = S.sovereign[g] != a
    for r in range(3):
        ok[DF_HELIUM + r] = S.res[g, a, r] < S.cap[g, a, r]
    some = False
    for f in range(1, 7):
        if ok[P.die[f]]:
            some = True
    if not some:
        return
    face = roll(S, g)
    while not ok[P.die[face]]:
        face = roll(S, g)
    bonus = P.die[face]
    if bonus == DF_BANISH:
        x = np.int64(S.letter_loc[g, 0])
        for i in range(4):
            if S.size[g, S.letter_loc[g, i]] > 0:
                x = np.int64(S.letter_loc[g, i])
                break
        banish(S, g, pop_top(S, g, x))
    elif bonus == DF_PLACE:
        push_top(S, g, S.letter_loc[g, 0], pop_top(S, g, PILE_DECK))
    elif bonus == DF_SOVEREIGN:
        take_sovereign(S, g, a)
    else:
        add_face(S, P, g, a, bonus)


@jit
def free_gain(S, P, g, res, amount):
    a = S.automa[g]
    if res <= INFLUENCE:
        add_unit(S, P, g, a, res, amount)
    elif res == SOVEREIGN:
        take_sovereign(S, g, a)
    elif res == DIE:
        free_die(S, P, g)


# ---- end of the game: scoring step 1 ---------------------------------------------------------

@jit
def e_player(S, P, g):
    seats = S.res.shape[1]
    with_own = P.cfg[CF_WITH_OWN] != 0
    ncard = S.where.shape[1]
    found = -1
    for q in range(S.end_player[g], seats):
        if q == S.automa[g]:
            continue
        work = False
        z = HAND0 + q
        for c in range(ncard):
            if S.where[g, c] == z and P.end_pc[c] >= 0:
                work = True
                break
        if with_own and not work:
            h = S.house[g, q]
            work = (h >= 0 and P.house_end_banish[h] > 0) and S.hand_n[g, q] > 0
        if work:
            found = q
            break
    if found < 0:
        if with_own:
            S.mop[g] = E_SCORE
        else:
            m = 0
            for q in range(seats):
                h = S.house[g, q]
                if h >= 0 and P.house_end_banish[h] > m:
                    m = P.house_end_banish[h]
            S.banish_left[g] = m
            S.mop[g] = E_CERES
        return
    q = found
    S.end_player[g] = q
    for i in range(S.traded.shape[1]):
        S.traded[g, i] = False
    S.turn_traded[g] = False
    z = HAND0 + q
    for c in range(ncard):
        S.end_pending[g, c] = S.where[g, c] == z and P.end_pc[c] >= 0
    if with_own:
        h = S.house[g, q]
        S.banish_left[g] = P.house_end_banish[h] if h >= 0 else 0
    S.mop[g] = E_ORDER_ASK


@jit
def e_order_ask(S, P, g):
    p = S.end_player[g]
    z = HAND0 + p
    due = S.banish_left[g] > 0 and S.hand_n[g, p] > 0
    pending = False
    for c in range(S.where.shape[1]):
        if S.end_pending[g, c] and S.where[g, c] == z:
            pending = True
            break
    if pending:
        clear_legal(S, g)
        for c in range(S.where.shape[1]):
            if S.end_pending[g, c] and S.where[g, c] == z:
                S.legal[g, CARD0 + c] = True
        S.legal[g, YES] = due
        ask(S, g, K_ORDER, p, E_ORDER)
    elif due:
        ask_hand(S, g, K_EBANISH, p, p, E_BANISH)
    else:
        S.end_player[g] += 1
        S.mop[g] = E_PLAYER


@jit
def e_order(S, P, g):
    a = S.action[g]
    p = S.end_player[g]
    if a == YES:
        ask_hand(S, g, K_EBANISH, p, p, E_BANISH)
        return
    c = a - CARD0
    S.end_pending[g, c] = False
    S.mop[g] = E_ORDER_ASK
    push(S, P, g, P.end_pc[c], p, -1, c, 0, 0)


@jit
def e_banish(S, P, g):
    c = S.action[g] - CARD0
    p = S.decider[g]
    remove_card(S, g, c)
    banish(S, g, c)
    S.banish_left[g] -= 1
    if S.banish_left[g] > 0 and S.hand_n[g, p] > 0:
        ask_hand(S, g, K_EBANISH, p, p, E_BANISH)
        return
    S.banish_left[g] = 0
    S.mop[g] = E_ORDER_ASK if P.cfg[CF_WITH_OWN] != 0 else E_CERES


@jit
def e_ceres(S, P, g):
    seat = 0
    for q in range(S.res.shape[1]):
        h = S.house[g, q]
        if h >= 0 and P.house_end_banish[h] > 0:
            seat = q
            break
    if S.banish_left[g] > 0 and S.hand_n[g, seat] > 0:
        ask_hand(S, g, K_EBANISH, seat, seat, E_BANISH)
    else:
        S.mop[g] = E_SCORE


@jit_inline
def e_score(S, g):
    S.done[g] = True
    S.waiting[g] = False
    S.decider[g] = -1
    S.kind[g] = 0
    clear_legal(S, g)
    S.mop[g] = DONE


# ---- ops ----------------------------------------------------------------------------------------

@jit_inline
def fm(P, f, c):
    """fmatch[f, c] with c = -1 the sentinel column (False)."""
    if c < 0:
        return False
    return P.fmatch[f, c]


@jit_inline
def sel_loc(P, code, this, x):
    return P.sel[code, this + 1, x]


@jit_inline
def own_match_any(S, P, g, actor, f, wild=False):
    """Does seat ``actor`` hold a card matching filter ``f`` (``wild``: using its wildcards, RR-A19)?"""
    z = HAND0 + actor
    for c in range(S.where.shape[1]):
        if S.where[g, c] == z and (P.wmatch[f, c] if wild else P.fmatch[f, c]):
            return True
    return False


@jit_inline
def own_match(S, P, g, actor, f, wild=False):
    """w_c1 = the cards of seat ``actor`` matching filter ``f`` (``wild``: wildcards that can match too)."""
    n = S.where.shape[1]
    out = S.w_c1
    z = HAND0 + actor
    for c in range(n):
        out[c] = S.where[g, c] == z and (P.wmatch[f, c] if wild else P.fmatch[f, c])


@jit_inline
def gate(S, P, g, d, possible, wild_only=False):
    """Skip impossible ops, ask optional ones, begin the others. ``wild_only``: only a wildcard of the
    actor's hand can make the op possible; the actor may decline to use it (``optional``, RR-A19)."""
    pc = S.frame[g, d, R_PC]
    if not possible:
        advance(S, P, g, d, False)
    elif P.prm[pc, P_OPT] == 1 or wild_only:
        ask_yes_no(S, g, K_OPTIONAL, S.frame[g, d, R_ACTOR], OPT)
    else:
        begin(S, P, g, d, P.op[pc])


@jit
def loc_candidates(S, P, g, d, sel_col, cl, cc):
    """Fill cl bool[4] / cc bool[C] (top mode / any mode of a location selector and the filter)."""
    pc = S.frame[g, d, R_PC]
    this = S.frame[g, d, R_THIS]
    code = P.prm[pc, sel_col]
    f = P.prm[pc, P_FILT]
    anymode = P.prm[pc, P_POS] == 1
    some = False
    for x in range(4):
        v = (not anymode) and sel_loc(P, code, this, x) and fm(P, f, S.top[g, x])
        cl[x] = v
        some |= v
    for c in range(S.where.shape[1]):
        w = S.where[g, c]
        v = anymode and w < 4 and sel_loc(P, code, this, w) and P.fmatch[f, c]
        cc[c] = v
        some |= v
    return some


@jit
def gain_card_candidates(S, P, g, d, cl, cc):
    """Fill cl / cc; returns (anything possible, deck)."""
    pc = S.frame[g, d, R_PC]
    code = P.prm[pc, P_SEL]
    f = P.prm[pc, P_FILT]
    some = False
    if code < SEL_BANISHED:
        some = loc_candidates(S, P, g, d, P_SEL, cl, cc)
    else:
        for x in range(4):
            cl[x] = False
        for c in range(S.where.shape[1]):
            v = code == SEL_BANISHED and S.where[g, c] == Z_BANISHED and P.fmatch[f, c]
            cc[c] = v
            some |= v
    deck = code == SEL_DECK and fm(P, f, S.top[g, PILE_DECK])
    return some or deck, deck


@jit
def move_candidates(S, P, g, d, src_loc, cards, dst):
    pc = S.frame[g, d, R_PC]
    this = S.frame[g, d, R_THIS]
    which = P.prm[pc, P_WHICH]
    f = P.prm[pc, P_FILT]
    card = S.frame[g, d, R_CARD]
    n_dst = 0
    for x in range(4):
        dst[x] = sel_loc(P, P.prm[pc, P_SEL2], this, x)
        n_dst += 1 if dst[x] else 0
    has_dst = S.w_b4c
    src = S.w_b4d
    for x in range(4):
        has_dst[x] = n_dst - (1 if dst[x] else 0) > 0
        src[x] = sel_loc(P, P.prm[pc, P_SEL], this, x)
    some = False
    for x in range(4):
        if which == W_BOTTOM:
            end = -1
            for c in range(S.where.shape[1]):
                if S.where[g, c] == x and S.under[g, c] == -1:
                    end = c
                    break
        else:
            end = S.top[g, x]
        v = (which == W_TOP or which == W_BOTTOM) and src[x] and end >= 0 and fm(P, f, end) and has_dst[x]
        src_loc[x] = v
        some |= v
    for c in range(S.where.shape[1]):
        w = S.where[g, c]
        v = which == W_FILTER and w < 4 and src[w] and has_dst[w] and P.fmatch[f, c]
        cards[c] = v
        some |= v
    if which == W_SELF and card >= 0:
        w = S.where[g, card]
        if w < 4 and has_dst[w]:
            cards[card] = True
            some = True
    return some


@jit
def ask_destination(S, P, g, d, c, dst):
    S.frame[g, d, R_SRC] = c
    here = S.where[g, c]
    clear_legal(S, g)
    for x in range(4):
        S.legal[g, LOC0 + x] = dst[x] and x != here
    ask(S, g, K_TLOC, S.frame[g, d, R_ACTOR], MOVE_DST)


@jit
def eligible(S, P, g, d):
    """S.w_p = bool[P]: the seats an opponent op may target."""
    seats = S.res.shape[1]
    pc = S.frame[g, d, R_PC]
    act = P.prm[pc, P_ACT]
    f = P.prm[pc, P_FILT]
    actor = S.frame[g, d, R_ACTOR]
    out = S.w_p
    for q in range(seats):
        if act == A_LOSE:
            out[q] = S.res[g, q, min(P.prm[pc, P_RES], 2)] > 0
        elif act == A_GAIN_FREE:
            out[q] = True
        elif act == A_LOOK:
            out[q] = S.hand_n[g, q] > 0
        else:
            out[q] = own_match_any(S, P, g, q, f)
    a = S.automa[g]
    if a >= 0 and (act == A_STEAL or act == A_BANISH or act == A_REVEAL_CHOICE):
        out[a] = S.hand_n[g, a] > 0 and P.fmatch[f, automa_bottom(S, g)]
    out[actor] = False


@jit
def enter(S, P, g, op):
    d = S.depth[g]
    pc = S.frame[g, d, R_PC]
    actor = S.frame[g, d, R_ACTOR]
    f = P.prm[pc, P_FILT]
    ncard = S.where.shape[1]
    wild_only = False
    if op == GAIN:
        res = P.prm[pc, P_RES]
        r = min(res, 2)
        possible = res == HELIUM or res == SOVEREIGN or S.cap[g, actor, r] - S.res[g, actor, r] > 0
    elif op == LOSE:
        possible = S.res[g, actor, min(P.prm[pc, P_RES], 2)] > 0
    elif op == TRADE:
        possible = True
        for r in range(3):
            if S.res[g, actor, r] < P.prm[pc, P_PAY + r]:
                possible = False
        if P.cfg[CF_PER_TURN] != 0:
            possible = possible and not S.turn_traded[g]
        else:
            card = S.frame[g, d, R_CARD]
            possible = possible and not S.traded[g, card if card >= 0 else ncard]
    elif op == BANISH_LOC:
        possible = loc_candidates(S, P, g, d, P_SEL, S.w_b4a, S.w_c2)
    elif op == BANISH_HAND or op == REVEAL_OWN:
        possible = own_match_any(S, P, g, actor, f, True)
        wild_only = possible and not own_match_any(S, P, g, actor, f)
    elif op == BANISH_DECK:
        possible = S.size[g, PILE_DECK] > 0
    elif op == MOVE:
        possible = move_candidates(S, P, g, d, S.w_b4a, S.w_c2, S.w_b4b)
    elif op == PLACE:
        possible = False
        if S.size[g, PILE_DECK] > 0:
            for x in range(4):
                if sel_loc(P, P.prm[pc, P_SEL], S.frame[g, d, R_THIS], x):
                    possible = True
    elif op == GAIN_CARD:
        possible, _ = gain_card_candidates(S, P, g, d, S.w_b4a, S.w_c2)
    elif op == DEPLOY_ANOTHER:
        possible = own_match_any(S, P, g, actor, f, True)
        if P.cfg[CF_CHAIN_REC] == 0:
            possible = possible and S.frame[g, d, R_CHAIN] == 0
        wild_only = possible and not own_match_any(S, P, g, actor, f)
    elif op == RECOVER:
        cand = False
        for c in range(ncard):
            if S.where[g, c] == Z_BANISHED and P.fmatch[f, c]:
                cand = True
                break
        target = P.prm[pc, P_SEL2] == SEL_HAND
        for x in range(4):
            if sel_loc(P, P.prm[pc, P_SEL2], S.frame[g, d, R_THIS], x):
                target = True
        possible = cand and target
    elif op == OPPONENT:
        eligible(S, P, g, d)
        el = S.w_p
        possible = False
        for q in range(len(el)):
            if el[q]:
                possible = True
    elif op == END_TURN:
        possible = P.prm[pc, P_WHEN] == 0 or S.frame[g, d, R_PREV] != 0
    else:                                   # ROLL_DIE, IF: always possible
        possible = True
    gate(S, P, g, d, possible, wild_only)


@jit
def begin(S, P, g, d, op):
    pc = S.frame[g, d, R_PC]
    actor = S.frame[g, d, R_ACTOR]
    f = P.prm[pc, P_FILT]
    ncard = S.where.shape[1]
    if op == GAIN:
        res = P.prm[pc, P_RES]
        add_unit(S, P, g, actor, res, P.prm[pc, P_AMT])
        if res != SOVEREIGN:
            advance(S, P, g, d, True)
        else:
            S.mop[g] = ADV_DONE
            receive_sovereign(S, P, g, actor)
    elif op == LOSE:
        res = P.prm[pc, P_RES]
        add_unit(S, P, g, actor, res, -P.prm[pc, P_AMT])
        advance(S, P, g, d, True)
    elif op == TRADE:
        add(S, P, g, actor, -P.prm[pc, P_PAY], -P.prm[pc, P_PAY + 1], -P.prm[pc, P_PAY + 2])
        S.turn_traded[g] = True
        card = S.frame[g, d, R_CARD]
        S.traded[g, card if card >= 0 else ncard] = True
        S.frame[g, d, R_CNT] = 0
        S.mop[g] = TRADE_GET
    elif op == BANISH_LOC:
        cl = S.w_b4a
        cc = S.w_c2
        loc_candidates(S, P, g, d, P_SEL, cl, cc)
        if P.prm[pc, P_POS] == 0:
            ask_locs(S, g, K_TLOC, actor, cl, BANLOC_LOC)
        else:
            ask_cards(S, g, K_TCARD, actor, cc, BANLOC_CARD)
    elif op == BANISH_HAND:
        S.frame[g, d, R_CNT] = P.prm[pc, P_AMT]
        S.mop[g] = BH_ASK
    elif op == BANISH_DECK:
        k = min(P.prm[pc, P_AMT], S.size[g, PILE_DECK])
        for _ in range(k):
            banish(S, g, pop_top(S, g, PILE_DECK))
        advance(S, P, g, d, True)
    elif op == MOVE:
        src_loc = S.w_b4a
        cards = S.w_c2
        dst = S.w_b4b
        move_candidates(S, P, g, d, src_loc, cards, dst)
        which = P.prm[pc, P_WHICH]
        if which == W_TOP or which == W_BOTTOM:
            ask_locs(S, g, K_TLOC, actor, src_loc, MOVE_SRC)
        elif which == W_FILTER:
            ask_cards(S, g, K_TCARD, actor, cards, MOVE_CARD)
        else:
            ask_destination(S, P, g, d, S.frame[g, d, R_CARD], dst)
    elif op == PLACE:
        S.frame[g, d, R_CNT] = P.prm[pc, P_AMT]
        S.mop[g] = PL_ASK
    elif op == GAIN_CARD:
        cl = S.w_b4a
        cc = S.w_c2
        _, deck = gain_card_candidates(S, P, g, d, cl, cc)
        sel = P.prm[pc, P_SEL]
        if sel < SEL_BANISHED and P.prm[pc, P_POS] == 0:
            ask_locs(S, g, K_TLOC, actor, cl, GC_LOC)
        elif not deck:
            ask_cards(S, g, K_TCARD, actor, cc, GC_CARD)
        else:
            to_hand(S, g, actor, pop_top(S, g, PILE_DECK))
            advance(S, P, g, d, True)
    elif op == DEPLOY_ANOTHER or op == REVEAL_OWN:
        own_match(S, P, g, actor, f, True)
        ask_cards(S, g, K_TCARD, actor, S.w_c1, DA_CARD if op == DEPLOY_ANOTHER else RV_CARD)
    elif op == RECOVER:
        cc = S.w_c2
        for c in range(ncard):
            cc[c] = S.where[g, c] == Z_BANISHED and P.fmatch[f, c]
        ask_cards(S, g, K_TCARD, actor, cc, REC_CARD)
    elif op == ROLL_DIE:
        S.frame[g, d, R_CNT] = P.prm[pc, P_AMT]
        S.mop[g] = RD_NEXT
    elif op == OPPONENT:
        begin_opponent(S, P, g, d)
    elif op == IF:
        begin_if(S, P, g, d)
    else:                                   # END_TURN
        S.skip_gain[g] = True
        advance(S, P, g, d, True)


@jit
def trade_get(S, P, g):
    d = S.depth[g]
    pc = S.frame[g, d, R_PC]
    actor = S.frame[g, d, R_ACTOR]
    start = S.frame[g, d, R_CNT]
    for i in range(TRADE_GETS):
        res = P.prm[pc, P_GET + 2 * i]
        amt = P.prm[pc, P_GET + 2 * i + 1]
        if start <= i and amt > 0:
            if res != SOVEREIGN:
                add_unit(S, P, g, actor, res, amt)
            else:
                S.frame[g, d, R_CNT] = i + 1
                S.mop[g] = TRADE_GET
                receive_sovereign(S, P, g, actor)
                return
    advance(S, P, g, d, True)


@jit
def apply_face(S, P, g, actor, face, rechoose):
    S.mop[g] = RD_NEXT
    bonus = P.die[face]
    if bonus == DF_BANISH:
        some = False
        for x in range(4):
            if S.size[g, x] > 0:
                some = True
        if some:
            clear_legal(S, g)
            for x in range(4):
                S.legal[g, LOC0 + x] = S.size[g, x] > 0
            ask(S, g, K_TLOC, actor, RD_F1)
    elif bonus == DF_PLACE:
        if S.size[g, PILE_DECK] > 0:
            S.flipped[g] = S.top[g, PILE_DECK]
            ask_all_locs(S, g, K_PLACE, actor, RD_F2)
    elif bonus == DF_SOVEREIGN:
        if rechoose:                        # RR-R36: one of the faces whose bonus is not the Sovereign
            some = False
            for f in range(1, 7):
                if P.die[f] != DF_SOVEREIGN:
                    some = True
            if some:
                clear_legal(S, g)
                for f in range(1, 7):
                    S.legal[g, FACE0 + f - 1] = P.die[f] != DF_SOVEREIGN
                ask(S, g, K_FACE, actor, RD_FC)
        else:
            receive_sovereign(S, P, g, actor)
    else:
        add_face(S, P, g, actor, bonus)


@jit_inline
def lowbit(x):
    k = 0
    while not (x >> k) & 1:
        k += 1
    return k


@jit
def begin_opponent(S, P, g, d):
    seats = S.res.shape[1]
    pc = S.frame[g, d, R_PC]
    actor = S.frame[g, d, R_ACTOR]
    eligible(S, P, g, d)
    el = S.w_p
    tgt = P.prm[pc, P_TGT]
    if tgt == T_CHOOSE:
        clear_legal(S, g)
        for k in range(1, seats):
            S.legal[g, OPP0 + k - 1] = el[(actor + k) % seats]
        ask(S, g, K_TOPP, actor, OPP_CHOOSE)
        return
    mask = 0
    for k in range(1, seats):
        wanted = tgt != T_NEIGHBOURS or k == 1 or k == seats - 1
        if wanted and el[(actor + k) % seats]:
            mask |= 1 << k
    S.frame[g, d, R_TMASK] = mask
    S.frame[g, d, R_DONE] = 0
    S.mop[g] = OPP_NEXT


@jit
def opp_next(S, P, g):
    seats = S.res.shape[1]
    d = S.depth[g]
    pc = S.frame[g, d, R_PC]
    actor = S.frame[g, d, R_ACTOR]
    tm = np.int64(S.frame[g, d, R_TMASK])
    tgt = -1
    if tm != 0 and P.prm[pc, P_TGT] == T_CHOOSE:
        tgt = (actor + lowbit(tm)) % seats
        tm = 0
    elif tm != 0:
        eligible(S, P, g, d)
        el = S.w_p
        for _ in range(seats):
            if tm == 0:
                break
            k = lowbit(tm)
            cand = (actor + k) % seats
            tm &= ~(1 << k)
            if el[cand]:
                tgt = cand
                break
    S.frame[g, d, R_TMASK] = tm
    if tgt < 0:
        advance(S, P, g, d, S.frame[g, d, R_DONE] != 0)
        return
    S.frame[g, d, R_TGT] = tgt
    act = P.prm[pc, P_ACT]
    if P.prm[pc, P_BLOCK] == 1 and tgt != S.automa[g]:
        z = HAND0 + tgt
        can = False
        for c in range(S.where.shape[1]):
            if S.where[g, c] == z and P.blocks[act, c]:
                can = True
                break
        if can:
            clear_legal(S, g)
            for c in range(S.where.shape[1]):
                S.legal[g, CARD0 + c] = S.where[g, c] == z and P.blocks[act, c]
            S.legal[g, NO] = True
            ask(S, g, K_BLOCK, tgt, OPP_BLOCK)
            return
    effect(S, P, g, d, tgt)


@jit_inline
def clear_child_seen(S, g, d):
    for i in range(S.f_seen.shape[2]):
        S.f_seen[g, d + 1, i] = -1


@jit
def effect(S, P, g, d, tgt):
    pc = S.frame[g, d, R_PC]
    actor = S.frame[g, d, R_ACTOR]
    f = P.prm[pc, P_FILT]
    S.frame[g, d, R_DONE] = 1
    clear_child_seen(S, g, d)
    act = P.prm[pc, P_ACT]
    is_auto = tgt == S.automa[g]
    if act == A_STEAL or act == A_BANISH:
        if is_auto:
            take_card(S, P, g, d, automa_bottom(S, g))
            return
        seln = P.prm[pc, P_SELN]
        own_match(S, P, g, tgt, f, seln == S_OWNER)        # the owner may hand over a wildcard (RR-A19)
        cand = S.w_c1
        if seln == S_RANDOM:
            take_card(S, P, g, d, pick(S, g, cand))
        elif seln == S_OWNER:
            ask_cards(S, g, K_TCARD, tgt, cand, OPP_CARD)
        else:
            ask_cards(S, g, K_TCARD, actor, cand, OPP_CARD)
    elif act == A_REVEAL_RANDOM or act == A_REVEAL_CHOICE:
        choice = act == A_REVEAL_CHOICE
        own_match(S, P, g, tgt, f, choice and not is_auto)
        cand = S.w_c1
        if choice and not is_auto:
            ask_cards(S, g, K_TCARD, tgt, cand, OPP_CARD)
            return
        if choice:
            c = automa_bottom(S, g)
        else:
            c = pick(S, g, cand)
        S.f_seen[g, d + 1, 0] = c
        if is_auto:
            remove_card(S, g, c)
            to_hand(S, g, tgt, c)
        S.mop[g] = OPP_THEN
    elif act == A_LOSE:
        add_unit(S, P, g, tgt, P.prm[pc, P_RES], -P.prm[pc, P_AMT])
        S.mop[g] = OPP_THEN
    elif act == A_GAIN_FREE:
        if is_auto:
            free_gain(S, P, g, P.prm[pc, P_RES], P.prm[pc, P_AMT])
            S.mop[g] = OPP_THEN
        else:
            ask_yes_no(S, g, K_ACCEPT, tgt, OPP_ACCEPT)
    else:                                   # A_LOOK
        look_cards(S, P, g, d, tgt)
        S.mop[g] = OPP_THEN


@jit
def take_card(S, P, g, d, c):
    pc = S.frame[g, d, R_PC]
    remove_card(S, g, c)
    if P.prm[pc, P_ACT] == A_STEAL:
        to_hand(S, g, S.frame[g, d, R_ACTOR], c)
    else:
        banish(S, g, c)
    clear_child_seen(S, g, d)
    S.f_seen[g, d + 1, 0] = c
    S.mop[g] = OPP_THEN


@jit
def look_cards(S, P, g, d, tgt):
    pc = S.frame[g, d, R_PC]
    count = P.prm[pc, P_AMT]
    kk = S.f_seen.shape[2]
    ncard = S.where.shape[1]
    seen = S.w_k1
    seen[:] = -1
    if tgt == S.automa[g]:
        c = S.top[g, PILE_AUTOMA]
        for i in range(kk):
            if c < 0 or i >= count:
                break
            seen[i] = c
            c = S.under[g, c]
        if P.prm[pc, P_SHUF] == 1:
            reorder_automa_top(S, g, seen)
    else:
        z = HAND0 + tgt
        hand = S.w_c2
        hand[:] = False
        n_hand = 0
        for c in range(ncard):
            if S.where[g, c] == z:
                hand[c] = True
                n_hand += 1
        if n_hand <= count:
            chosen = hand
        else:
            chosen = S.w_c3
            chosen[:] = False
            rest = S.w_c1
            for i in range(count):
                for c in range(ncard):
                    rest[c] = hand[c] and not chosen[c]
                chosen[pick(S, g, rest)] = True
        i = 0
        for c in range(ncard):
            if chosen[c] and i < kk:
                seen[i] = c
                i += 1
    for i in range(kk):
        S.f_seen[g, d + 1, i] = seen[i]


@jit
def reorder_automa_top(S, g, cards):
    k = 0
    mask = S.w_c1
    mask[:] = False
    for i in range(len(cards)):
        if cards[i] >= 0:
            mask[cards[i]] = True
            k += 1
    drawn = S.w_k2
    for i in range(k):
        c = pick(S, g, mask)
        mask[c] = False
        drawn[i] = c
    for i in range(k):
        pop_top(S, g, PILE_AUTOMA)
    for i in range(k - 1, -1, -1):
        push_top(S, g, PILE_AUTOMA, drawn[i])


@jit
def opp_then(S, P, g):
    d = S.depth[g]
    pc = S.frame[g, d, R_PC]
    then = P.prm[pc, P_THEN]
    if then < 0:
        S.mop[g] = OPP_NEXT
        return
    if P.prm[pc, P_ACT] == A_GAIN_FREE:
        clear_child_seen(S, g, d)
    S.mop[g] = OPP_NEXT
    push(S, P, g, then, S.frame[g, d, R_ACTOR], S.frame[g, d, R_THIS], S.frame[g, d, R_CARD],
         S.frame[g, d, R_CHAIN], 1)


@jit
def condition(S, P, g, d):
    pc = S.frame[g, d, R_PC]
    actor = S.frame[g, d, R_ACTOR]
    kind = P.prm[pc, P_COND]
    cf = P.prm[pc, P_CFILT]
    if kind == C_HAND:
        return own_match_any(S, P, g, actor, cf)
    if kind == C_SEEN:
        for i in range(S.f_seen.shape[2]):
            if fm(P, cf, S.f_seen[g, d, i]):
                return True
        return False
    if kind == C_LOCTOP:
        this = S.frame[g, d, R_THIS]
        for x in range(4):
            if sel_loc(P, P.prm[pc, P_CSEL], this, x) and fm(P, cf, S.top[g, x]):
                return True
        return False
    if kind == C_BANISHED:
        for c in range(S.where.shape[1]):
            if S.where[g, c] == Z_BANISHED and P.fmatch[cf, c]:
                return True
        return False
    if kind == C_RESOURCE:
        res = P.prm[pc, P_CRES]
        amt = P.prm[pc, P_CAMT]
        if res == SOVEREIGN:
            return S.sovereign[g] == actor or amt <= 0
        return S.res[g, actor, min(res, 2)] >= amt
    return S.frame[g, d, R_PREV] != 0


@jit_inline
def condition_wild(S, P, g, d):
    """Can the actor make a false ``hand_has`` / ``seen_has`` condition true with a wildcard of
    its own hand (RR-A19)? Cards of other players count as printed (their owners decline)."""
    pc = S.frame[g, d, R_PC]
    actor = S.frame[g, d, R_ACTOR]
    kind = P.prm[pc, P_COND]
    cf = P.prm[pc, P_CFILT]
    if kind == C_HAND:
        return own_match_any(S, P, g, actor, cf, True)
    if kind == C_SEEN:
        for i in range(S.f_seen.shape[2]):
            c = S.f_seen[g, d, i]
            if c >= 0 and S.where[g, c] == HAND0 + actor and P.wmatch[cf, c]:
                return True
    return False


@jit
def begin_if(S, P, g, d):
    val = condition(S, P, g, d)
    if not val and condition_wild(S, P, g, d):
        ask_yes_no(S, g, K_OPTIONAL, S.frame[g, d, R_ACTOR], IF_WILD)
        return
    resolve_if(S, P, g, d, val)


@jit
def resolve_if(S, P, g, d, val):
    pc = S.frame[g, d, R_PC]
    S.frame[g, d, R_DONE] = 1 if val else 0
    nxt = P.prm[pc, P_THEN] if val else P.prm[pc, P_ELSE]
    if nxt < 0:
        advance(S, P, g, d, val)
        return
    S.mop[g] = ADV_REG
    push(S, P, g, nxt, S.frame[g, d, R_ACTOR], S.frame[g, d, R_THIS], S.frame[g, d, R_CARD],
         S.frame[g, d, R_CHAIN], 2)


# ---- answered decisions and the other micro-ops of the interpreter --------------------------------

@jit
def h_op(S, P, g, m):
    """Micro-ops of the interpreter that are not ENTER (answers, loops of multi-step ops)."""
    d = S.depth[g]
    pc = S.frame[g, d, R_PC]
    actor = S.frame[g, d, R_ACTOR]
    a = np.int64(S.action[g])
    if m == POP:
        S.mop[g] = S.frame[g, d, R_RET]
        S.depth[g] = d - 1
    elif m == ADV_DONE:
        advance(S, P, g, d, True)
    elif m == ADV_REG:
        advance(S, P, g, d, S.frame[g, d, R_DONE] != 0)
    elif m == OPT:
        if a == YES:
            begin(S, P, g, d, P.op[pc])
        else:
            advance(S, P, g, d, False)
    elif m == BANLOC_LOC:
        banish(S, g, pop_top(S, g, a - LOC0))
        advance(S, P, g, d, True)
    elif m == BANLOC_CARD:
        c = a - CARD0
        remove_card(S, g, c)
        banish(S, g, c)
        advance(S, P, g, d, True)
    elif m == BH_ASK:
        f = P.prm[pc, P_FILT]
        cnt = S.frame[g, d, R_CNT]
        if cnt > 0 and own_match_any(S, P, g, actor, f, True):
            if cnt < P.prm[pc, P_AMT] and not own_match_any(S, P, g, actor, f):
                ask_yes_no(S, g, K_OPTIONAL, actor, BH_OPT)          # only wildcards left (RR-A19)
            else:
                own_match(S, P, g, actor, f, True)
                ask_cards(S, g, K_TCARD, actor, S.w_c1, BH_APPLY)
        else:
            advance(S, P, g, d, True)
    elif m == BH_OPT:
        if a == YES:
            own_match(S, P, g, actor, P.prm[pc, P_FILT], True)
            ask_cards(S, g, K_TCARD, actor, S.w_c1, BH_APPLY)
        else:
            advance(S, P, g, d, True)
    elif m == IF_WILD:
        resolve_if(S, P, g, d, a == YES)
    elif m == BH_APPLY:
        c = a - CARD0
        remove_card(S, g, c)
        banish(S, g, c)
        S.frame[g, d, R_CNT] -= 1
        S.mop[g] = BH_ASK
    elif m == MOVE_SRC:
        x = a - LOC0
        if P.prm[pc, P_WHICH] == W_BOTTOM:
            c = -1
            for cc in range(S.where.shape[1]):
                if S.where[g, cc] == x and S.under[g, cc] == -1:
                    c = cc
                    break
            if c < 0:
                c = 0
        else:
            c = S.top[g, x]
        ask_destination(S, P, g, d, c, P.sel[P.prm[pc, P_SEL2], S.frame[g, d, R_THIS] + 1])
    elif m == MOVE_CARD:
        ask_destination(S, P, g, d, a - CARD0, P.sel[P.prm[pc, P_SEL2], S.frame[g, d, R_THIS] + 1])
    elif m == MOVE_DST:
        move_card(S, g, S.frame[g, d, R_SRC], a - LOC0, P.prm[pc, P_TOPOS] == 1)
        advance(S, P, g, d, True)
    elif m == PL_ASK:
        if S.frame[g, d, R_CNT] > 0 and S.size[g, PILE_DECK] > 0:
            S.flipped[g] = S.top[g, PILE_DECK]
            ask_locs(S, g, K_PLACE, actor, P.sel[P.prm[pc, P_SEL], S.frame[g, d, R_THIS] + 1], PL_APPLY)
        else:
            advance(S, P, g, d, True)
    elif m == PL_APPLY:
        push_top(S, g, a - LOC0, pop_top(S, g, PILE_DECK))
        S.flipped[g] = -1
        S.frame[g, d, R_CNT] -= 1
        S.mop[g] = PL_ASK
    elif m == GC_LOC:
        to_hand(S, g, actor, pop_top(S, g, a - LOC0))
        advance(S, P, g, d, True)
    elif m == GC_CARD:
        c = a - CARD0
        remove_card(S, g, c)
        to_hand(S, g, actor, c)
        advance(S, P, g, d, True)
    elif m == REC_CARD:
        c = a - CARD0
        if P.prm[pc, P_SEL2] == SEL_HAND:
            remove_card(S, g, c)
            to_hand(S, g, actor, c)
            advance(S, P, g, d, True)
        else:
            S.frame[g, d, R_SRC] = c
            ask_locs(S, g, K_TLOC, actor, P.sel[P.prm[pc, P_SEL2], S.frame[g, d, R_THIS] + 1], REC_LOC)
    elif m == REC_LOC:
        c = S.frame[g, d, R_SRC]
        remove_card(S, g, c)
        push_top(S, g, a - LOC0, c)
        advance(S, P, g, d, True)
    elif m == DA_CARD:
        S.frame[g, d, R_SRC] = a - CARD0
        ask_all_locs(S, g, K_TLOC, actor, DA_LOC)
    elif m == DA_LOC:
        x = a - LOC0
        c = S.frame[g, d, R_SRC]
        remove_card(S, g, c)
        push_top(S, g, x, c)
        S.deployed[g, x] = True
        dpc = P.deploy_pc[c]
        if dpc < 0:
            advance(S, P, g, d, True)
        else:
            S.mop[g] = ADV_DONE
            push(S, P, g, dpc, actor, x, c, 1, 0)
    elif m == RD_NEXT:
        if S.frame[g, d, R_CNT] <= 0:
            advance(S, P, g, d, True)
        else:
            S.frame[g, d, R_CNT] -= 1
            apply_face(S, P, g, actor, roll(S, g), P.prm[pc, P_FACE] == 1)
    elif m == RD_F1:
        banish(S, g, pop_top(S, g, a - LOC0))
        S.mop[g] = RD_NEXT
    elif m == RD_F2:
        push_top(S, g, a - LOC0, pop_top(S, g, PILE_DECK))
        S.flipped[g] = -1
        S.mop[g] = RD_NEXT
    elif m == RD_FC:
        apply_face(S, P, g, actor, a - FACE0 + 1, False)
    elif m == OPP_CHOOSE:
        S.frame[g, d, R_TMASK] = 1 << (a - OPP0 + 1)
        S.frame[g, d, R_DONE] = 0
        S.mop[g] = OPP_NEXT
    elif m == OPP_NEXT:
        opp_next(S, P, g)
    elif m == OPP_BLOCK:
        if a == NO:
            effect(S, P, g, d, S.frame[g, d, R_TGT])
        else:
            S.mop[g] = OPP_NEXT
    elif m == OPP_CARD:
        c = a - CARD0
        if P.prm[pc, P_ACT] == A_REVEAL_CHOICE:
            clear_child_seen(S, g, d)
            S.f_seen[g, d + 1, 0] = c
            S.mop[g] = OPP_THEN
        else:
            take_card(S, P, g, d, c)
    elif m == OPP_ACCEPT:
        tgt = S.frame[g, d, R_TGT]
        res = P.prm[pc, P_RES]
        if a != YES:
            S.mop[g] = OPP_THEN
        elif res <= INFLUENCE:
            add_unit(S, P, g, tgt, res, P.prm[pc, P_AMT])
            S.mop[g] = OPP_THEN
        elif res == SOVEREIGN:
            S.mop[g] = OPP_THEN
            receive_sovereign(S, P, g, tgt)
        elif res == DIE:
            S.mop[g] = OPP_THEN
            clear_child_seen(S, g, d)
            push(S, P, g, P.cfg[CF_DIE_PC], tgt, -1, -1, 0, 0)
    elif m == OPP_THEN:
        opp_then(S, P, g)
    elif m == RV_CARD:
        c = a - CARD0
        then = P.prm[pc, P_THEN]
        if then < 0:
            advance(S, P, g, d, True)
        else:
            S.mop[g] = ADV_DONE
            push(S, P, g, then, actor, S.frame[g, d, R_THIS], S.frame[g, d, R_CARD], S.frame[g, d, R_CHAIN], 0)
            S.f_seen[g, d + 1, 0] = c
    elif m == TRADE_GET:
        trade_get(S, P, g)
    else:
        raise RuntimeError("Red Rising kernel: unknown micro-op")


@jit_inline
def run_game(S, P, g):
    """Run game ``g`` until it waits for a decision or is over. Returns 1 if it needs more frames.

    Inlined into its callers (``run_batch``, ``play_uniform``, whole-game drivers of strategies):
    a call between compiled functions passes every array of ``S`` and ``P`` (hundreds of words),
    which cost more than the micro-ops of a typical decision."""
    dmax = S.frame.shape[1]
    for _ in range(MAX_STEPS):
        if S.waiting[g] or S.done[g]:
            return 0
        if S.depth[g] + 1 >= dmax:
            return 1
        m = S.mop[g]
        if m >= ENTER0:
            op = m - ENTER0
            if op == 0:
                d = S.depth[g]
                S.mop[g] = S.frame[g, d, R_RET]
                S.depth[g] = d - 1
            else:
                enter(S, P, g, op)
        elif m == T_START:
            h_start(S, P, g)
        elif m == T_ACTION:
            h_action(S, P, g)
        elif m == T_DEPCARD:
            S.pend[g] = S.action[g] - CARD0
            ask_all_locs(S, g, K_DEPLOC, S.player[g], T_DEPLOC)
        elif m == T_DEPLOC:
            h_deploc(S, P, g)
        elif m == T_GAIN_ASK:
            h_gain_ask(S, P, g)
        elif m == T_GAIN:
            h_gain(S, P, g)
        elif m == T_SCOUT:
            h_scout(S, P, g)
        elif m == T_END:
            h_end(S, P, g)
        elif m == E_START:
            S.end_player[g] = 0
            S.banish_left[g] = 0
            S.mop[g] = E_PLAYER
        elif m == E_PLAYER:
            e_player(S, P, g)
        elif m == E_ORDER_ASK:
            e_order_ask(S, P, g)
        elif m == E_ORDER:
            e_order(S, P, g)
        elif m == E_BANISH:
            e_banish(S, P, g)
        elif m == E_CERES:
            e_ceres(S, P, g)
        elif m == E_SCORE:
            e_score(S, g)
        else:
            h_op(S, P, g, m)
    raise RuntimeError("Red Rising engine: no decision reached after many micro-ops")


@entry
def run_batch(S, P):
    """Run every game that is neither waiting nor done; returns a game that needs more frames, or -1."""
    for g in range(S.where.shape[0]):
        if S.waiting[g] or S.done[g]:
            continue
        if run_game(S, P, g):
            return g
    return -1


@jit_inline
def unit_uniform(key, counter):
    """rng.uniform for one stream: the ``counter``-th draw of ``key`` as a float in [0, 1)."""
    return np.float64(bits(key, counter) >> _S11) * _TO_UNIT


@jit_inline
def uniform_choice(S, g, u):
    """``strategies.base.choose_uniform`` for game ``g``: its legal action of rank floor(u * n_legal)."""
    n_actions = S.legal.shape[1]
    count = 0
    for a in range(n_actions):
        count += S.legal[g, a]
    rank = min(int(u * count), max(count - 1, 0))
    for a in range(n_actions):
        if S.legal[g, a]:
            if rank == 0:
                return a
            rank -= 1
    return 0


@entry
def play_uniform(S, P, slot, keys, counters, n_strategies, bad):
    """Play every game to its end, each decision a uniform random legal action (the ``random``
    strategy, strategies/generic.py) drawn exactly as the runner's loop would draw it.

    ``slot`` [B, seats] is each seat's experiment slot; the seats of slots ``< n_strategies`` choose
    with ``keys[slot, g]`` at counter ``counters[g] * 1024`` (``StrategyRng.uniform``); other
    seats (Au Toma's) answer 0. ``counters[g]`` counts game g's decisions (``StrategyRng``'s
    counter) and goes on across calls. Returns -1 when every game is over, a game that needs
    more frames (grow them and call again), or -2 - g for an illegal action (stored in ``bad[0]``).
    """
    n_actions = S.legal.shape[1]
    for g in range(S.where.shape[0]):
        while not S.done[g]:
            if S.waiting[g]:
                s = np.int64(slot[g, max(S.decider[g], 0)])
                a = 0
                if s < n_strategies:
                    a = uniform_choice(S, g, unit_uniform(keys[s, g], counters[g] * 1024))
                counters[g] += 1
                if a < 0 or a >= n_actions or not S.legal[g, a]:
                    bad[0] = a
                    return -2 - g
                S.action[g] = a
                S.waiting[g] = False
            if run_game(S, P, g):
                return g
    return -1


@entry
def apply_batch(S, actions):
    """Store the answers of the waiting games (``engine.step`` has checked them, ``check_legal``)."""
    for g in range(S.where.shape[0]):
        if S.waiting[g]:
            S.action[g] = actions[g]
            S.waiting[g] = False

