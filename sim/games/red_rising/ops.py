"""The op interpreter: one vectorised handler per micro-op of the compiled program.

These handlers are the reference implementation of the compiled kernel (kernel.py ports each
of them to scalar code; ``engine.run_vectorised`` runs them; docs/red_rising_engine.md).

Semantics: docs/red_rising_model.md, "Ops". Every handler takes the state and ``g``, the games
(indices) that execute this micro-op now, all of them at the top frame of their stack. An op
starts with its ``ENTER`` handler: not possible -> skipped (``prev_done`` false); optional ->
an ``optional`` decision; else ``begin_*``. A handler ends by asking a decision (``ask``),
pushing a frame (``push``) over its continuation, finishing the op (``advance``), or calling
the next handler of the same op directly (no extra pass of the engine loop).
"""
from __future__ import annotations

import numpy as np

from sim.games.red_rising import actions as A
from sim.games.red_rising import automa, zones
from sim.games.red_rising.program import (
    A_BANISH, A_GAIN_FREE, A_LOOK, A_LOSE, A_REVEAL_CHOICE, A_REVEAL_RANDOM, A_STEAL, BANISH_DECK,
    BANISH_HAND, BANISH_LOC, C_BANISHED, C_HAND, C_LOCTOP, C_RESOURCE, C_SEEN, DEPLOY_ANOTHER, DF_BANISH,
    DF_HELIUM, DF_PLACE, DF_SOVEREIGN, DIE,
    END_TURN, GAIN, GAIN_CARD, HELIUM, IF, INFLUENCE, LOSE, MOVE, OPPONENT, P_ACT, P_AMT, P_BLOCK,
    P_CAMT, P_CFILT, P_COND, P_CRES, P_CSEL, P_ELSE, P_FACE, P_FILT, P_GET, P_OPT, P_PAY, P_POS,
    P_RES, P_SEL, P_SEL2, P_SELN, P_SHUF, P_TGT, P_THEN, P_TOPOS, P_WHEN, P_WHICH, PLACE, RECOVER,
    REVEAL_OWN, ROLL_DIE, S_ACTOR, S_OWNER, S_RANDOM, SEL_BANISHED, SEL_DECK, SEL_HAND, SOVEREIGN,
    T_CHOOSE, T_NEIGHBOURS, TRADE, TRADE_GETS, W_BOTTOM, W_FILTER, W_SELF, W_TOP,
)
from sim.games.red_rising.state import (
    ENTER0, FACE_UNIT, M, PILE_AUTOMA, PILE_DECK, R_ACTOR, R_CARD, R_PC, R_THIS, UNIT, State, add,
    advance, ask, automa_bottom, banish, hand_mask, have, move_card, pick, pop_top, push, push_top,
    receive_sovereign, remove_card, roll, room, to_hand,
)

K = A.KIND
ROWS4 = np.arange(4)
LOWBIT = np.array([0] + [(i & -i).bit_length() - 1 for i in range(1, 64)], dtype=np.int64)


class Frame:
    """The registers of the top frame of games ``g`` (gathered once per handler)."""

    __slots__ = ("g", "d", "pc", "prm", "actor", "this", "card")

    def __init__(self, s: State, g):
        self.g = g
        self.d = s.depth[g].astype(np.intp)
        regs = s.frame[g, self.d]
        self.pc = regs[:, R_PC]
        self.prm = s.prog.prm[self.pc]
        self.actor = regs[:, R_ACTOR]
        self.this = regs[:, R_THIS]
        self.card = regs[:, R_CARD]

    def col(self, c):
        return self.prm[:, c]

    def sub(self, mask) -> "Frame":
        f = Frame.__new__(Frame)
        for name in Frame.__slots__:
            v = getattr(self, name)
            setattr(f, name, v[mask])
        return f


def sel_mask(s: State, f: Frame, col):
    """bool[n, 4]: locations chosen by the selector in parameter ``col`` (RR-A2)."""
    return s.prog.sel[f.col(col), f.this + 1]


def filt(s: State, f: Frame, col=P_FILT):
    """bool[n, C]: cards matching the filter of parameter ``col`` (printed attributes)."""
    return s.prog.fmatch[f.col(col)][:, : s.num_cards]


def top_match(s: State, f: Frame, col=P_FILT):
    """bool[n, 4]: the top card of each location exists and matches the filter."""
    return s.prog.fmatch[f.col(col)[:, None], s.top[f.g, :4]]


def zone_select(s: State, g, locs):
    """bool[n, C]: cards lying on one of the locations ``locs`` (bool[n, 4])."""
    ext = np.zeros((len(g), 16), dtype=bool)
    ext[:, :4] = locs
    return np.take_along_axis(ext, s.where[g].astype(np.intp), axis=1)


def own_hand(s: State, f: Frame):
    return hand_mask(s, f.g, f.actor)


# ---- the generic op gate ----------------------------------------------------------------------

def gate(s: State, f: Frame, possible, begin):
    """Skip impossible ops, ask optional ones, begin the others."""
    fail = ~possible
    if np.count_nonzero(fail):
        advance(s, f.g[fail], f.d[fail], False)
    opt = possible & (f.col(P_OPT) == 1)
    if np.count_nonzero(opt):
        ask(s, f.g[opt], K["optional"], f.actor[opt], M["OPT"], cols=(A.YES, A.NO))
    go = possible & ~opt
    n_go = np.count_nonzero(go)
    if n_go:
        begin(s, f if n_go == len(go) else f.sub(go))


def h_opt(s: State, g):
    """Answer to an optional op: ``yes`` begins it, ``no`` skips it (prev_done false)."""
    f = Frame(s, g)
    yes = s.action[g] == A.YES
    if np.count_nonzero(~yes):
        advance(s, g[~yes], f.d[~yes], False)
    if np.count_nonzero(yes):
        fy = f.sub(yes)
        code = s.prog.op[fy.pc]
        for op in np.unique(code):
            BEGIN[op](s, fy.sub(code == op))


def h_pop(s: State, g):
    d = s.depth[g].astype(np.intp)
    s.mop[g] = s.f_ret[g, d]
    s.depth[g] = d - 1


def h_adv_done(s: State, g):
    advance(s, g, s.depth[g].astype(np.intp), True)


def h_adv_reg(s: State, g):
    d = s.depth[g].astype(np.intp)
    advance(s, g, d, s.f_done[g, d])


# ---- gain / lose / trade ----------------------------------------------------------------------

def enter_gain(s, g):
    f = Frame(s, g)
    res = f.col(P_RES)
    possible = (res == HELIUM) | (res == SOVEREIGN) | (room(s, g, f.actor, res) > 0)
    gate(s, f, possible, begin_gain)


def begin_gain(s, f: Frame):
    res, amt = f.col(P_RES), f.col(P_AMT)
    add(s, f.g, f.actor, UNIT[res] * amt[:, None])
    sov = res == SOVEREIGN
    if np.count_nonzero(~sov):
        advance(s, f.g[~sov], f.d[~sov], True)
    if np.count_nonzero(sov):
        gs = f.g[sov]
        s.mop[gs] = M["ADV_DONE"]
        receive_sovereign(s, gs, f.actor[sov])


def enter_lose(s, g):
    f = Frame(s, g)
    gate(s, f, have(s, g, f.actor, f.col(P_RES)) > 0, begin_lose)


def begin_lose(s, f: Frame):
    res, amt = f.col(P_RES), f.col(P_AMT)
    add(s, f.g, f.actor, -UNIT[res] * amt[:, None])
    advance(s, f.g, f.d, True)


def enter_trade(s, g):
    f = Frame(s, g)
    pay = f.prm[:, P_PAY:P_PAY + 3]
    payable = (s.res[g, f.actor] >= pay).all(axis=1)
    if s.config.trade_limit == "per_turn_total":
        allowed = ~s.turn_traded[g]
    else:
        allowed = ~s.traded[g, f.card]                 # card -1: the "no card" column (house ops)
    gate(s, f, payable & allowed, begin_trade)


def begin_trade(s, f: Frame):
    """Pay everything, then the gets in list order (RR-A20, RR-A21)."""
    g = f.g
    pay = f.prm[:, P_PAY:P_PAY + 3]
    add(s, g, f.actor, -pay)
    s.turn_traded[g] = True
    s.traded[g, f.card] = True
    s.f_cnt[g, f.d] = 0
    h_trade_get(s, g)


def h_trade_get(s, g):
    """The gets of a trade from the one in ``f_cnt`` on; a Sovereign get pauses for house ops."""
    f = Frame(s, g)
    start = s.f_cnt[g, f.d]
    live = np.ones(len(g), dtype=bool)
    for i in range(TRADE_GETS):
        res, amt = f.col(P_GET + 2 * i), f.col(P_GET + 2 * i + 1)
        now = live & (start <= i) & (amt > 0)
        plain = now & (res != SOVEREIGN)
        if np.count_nonzero(plain):
            r, a = res[plain], amt[plain]
            add(s, g[plain], f.actor[plain], UNIT[r] * a[:, None])
        sov = now & (res == SOVEREIGN)
        if np.count_nonzero(sov):
            gs = g[sov]
            s.f_cnt[gs, f.d[sov]] = i + 1
            s.mop[gs] = M["TRADE_GET"]
            receive_sovereign(s, gs, f.actor[sov])
            live &= ~sov
    if np.count_nonzero(live):
        advance(s, g[live], f.d[live], True)


# ---- banish ----------------------------------------------------------------------------------------

def location_candidates(s, f: Frame, sel_col):
    """(cand_loc bool[n, 4], cand_card bool[n, C]) for selector ``sel_col`` and the op's filter:
    top mode (``P_POS`` = 0) uses the matching top cards, any mode any matching stack card."""
    locs = sel_mask(s, f, sel_col)
    cand_loc = locs & top_match(s, f)
    cand_card = zone_select(s, f.g, locs) & filt(s, f)
    anymode = f.col(P_POS) == 1
    cand_loc &= ~anymode[:, None]
    cand_card &= anymode[:, None]
    return cand_loc, cand_card


def enter_banish_loc(s, g):
    f = Frame(s, g)
    cl, cc = location_candidates(s, f, P_SEL)
    gate(s, f, cl.any(axis=1) | cc.any(axis=1), begin_banish_loc)


def begin_banish_loc(s, f: Frame):
    cl, cc = location_candidates(s, f, P_SEL)
    top = f.col(P_POS) == 0
    if np.count_nonzero(top):
        ask(s, f.g[top], K["target_location"], f.actor[top], M["BANLOC_LOC"], loc=cl[top])
    if np.count_nonzero(~top):
        ask(s, f.g[~top], K["target_card"], f.actor[~top], M["BANLOC_CARD"], cards=cc[~top])


def h_banloc_loc(s, g):
    x = s.action[g].astype(np.intp) - A.LOC0
    banish(s, g, pop_top(s, g, x))
    advance(s, g, s.depth[g].astype(np.intp), True)


def h_banloc_card(s, g):
    c = s.action[g].astype(np.intp) - A.CARD0
    remove_card(s, g, c)
    banish(s, g, c)
    advance(s, g, s.depth[g].astype(np.intp), True)


def enter_banish_hand(s, g):
    f = Frame(s, g)
    gate(s, f, (own_hand(s, f) & filt(s, f)).any(axis=1), begin_banish_hand)


def begin_banish_hand(s, f: Frame):
    s.f_cnt[f.g, f.d] = f.col(P_AMT)
    h_bh_ask(s, f.g)


def h_bh_ask(s, g):
    f = Frame(s, g)
    cand = own_hand(s, f) & filt(s, f)
    ok = (s.f_cnt[g, f.d] > 0) & cand.any(axis=1)
    if np.count_nonzero(ok):
        ask(s, g[ok], K["target_card"], f.actor[ok], M["BH_APPLY"], cards=cand[ok])
    if np.count_nonzero(~ok):
        advance(s, g[~ok], f.d[~ok], True)


def h_bh_apply(s, g):
    c = s.action[g].astype(np.intp) - A.CARD0
    remove_card(s, g, c)
    banish(s, g, c)
    d = s.depth[g].astype(np.intp)
    s.f_cnt[g, d] -= 1
    h_bh_ask(s, g)


def enter_banish_deck(s, g):
    f = Frame(s, g)
    gate(s, f, s.size[g, PILE_DECK] > 0, begin_banish_deck)


def begin_banish_deck(s, f: Frame):
    g = f.g
    k = np.minimum(f.col(P_AMT), s.size[g, PILE_DECK])
    for i in range(int(k.max())):
        gi = g[k > i]
        banish(s, gi, pop_top(s, gi, PILE_DECK))
    advance(s, g, f.d, True)


# ---- move / place ------------------------------------------------------------------------------

def move_candidates(s, f: Frame):
    """Per ``which``: source locations bool[n, 4] (top/bottom) or cards bool[n, C] (self/filter)."""
    g = f.g
    which = f.col(P_WHICH)
    src = sel_mask(s, f, P_SEL)
    dst = sel_mask(s, f, P_SEL2)
    n_dst = dst.sum(axis=1)
    # a card on location x has a destination iff dst has a location other than x
    has_dst = (n_dst[:, None] - dst) > 0                               # [n, 4]
    fm = s.prog.fmatch[f.col(P_FILT)]
    bottoms = np.full((len(g), 4), -1, dtype=np.int64)
    bot = which == W_BOTTOM
    if np.count_nonzero(bot):
        gb = g[bot]
        is_bottom = (s.under[gb] == -1) & (s.where[gb] < 4)                    # [n, C]
        for x in range(4):
            here = is_bottom & (s.where[gb] == x)
            bottoms[bot, x] = np.where(here.any(axis=1), np.argmax(here, axis=1), -1)
    ends = np.where(bot[:, None], bottoms, s.top[g, :4])                      # the card that would move
    src_loc = src & (ends >= 0) & fm[np.arange(len(g))[:, None], ends] & has_dst
    src_loc &= ((which == W_TOP) | bot)[:, None]
    onloc = zone_select(s, g, src & has_dst)
    cards = onloc & filt(s, f) & (which == W_FILTER)[:, None]
    selfc = (which == W_SELF) & (f.card >= 0)
    if np.count_nonzero(selfc):
        c = f.card[selfc]
        w = s.where[g[selfc], c].astype(np.intp)
        on = w < 4
        ok = on & has_dst[np.flatnonzero(selfc), np.minimum(w, 3)]
        rows = np.flatnonzero(selfc)[ok]
        cards[rows, c[ok]] = True
    return src_loc, cards, dst


def enter_move(s, g):
    f = Frame(s, g)
    src_loc, cards, _ = move_candidates(s, f)
    gate(s, f, src_loc.any(axis=1) | cards.any(axis=1), begin_move)


def begin_move(s, f: Frame):
    src_loc, cards, dst = move_candidates(s, f)
    which = f.col(P_WHICH)
    loc = (which == W_TOP) | (which == W_BOTTOM)
    if np.count_nonzero(loc):
        ask(s, f.g[loc], K["target_location"], f.actor[loc], M["MOVE_SRC"], loc=src_loc[loc])
    fil = which == W_FILTER
    if np.count_nonzero(fil):
        ask(s, f.g[fil], K["target_card"], f.actor[fil], M["MOVE_CARD"], cards=cards[fil])
    me = which == W_SELF
    if np.count_nonzero(me):
        ask_destination(s, f.sub(me), f.card[me], dst[me])


def ask_destination(s, f: Frame, c, dst):
    """Remember card ``c`` and ask where it moves: the ``to`` locations but its own (RR-A2)."""
    s.f_src[f.g, f.d] = c
    here = s.where[f.g, c].astype(np.intp)
    ask(s, f.g, K["target_location"], f.actor, M["MOVE_DST"], loc=dst & (ROWS4[None, :] != here[:, None]))


def h_move_src(s, g):
    f = Frame(s, g)
    x = s.action[g].astype(np.intp) - A.LOC0
    bottom = f.col(P_WHICH) == W_BOTTOM
    c = s.top[g, x].astype(np.intp)
    if np.count_nonzero(bottom):
        gb = g[bottom]
        c[bottom] = np.argmax((s.where[gb] == x[bottom][:, None]) & (s.under[gb] == -1), axis=1)
    ask_destination(s, f, c, sel_mask(s, f, P_SEL2))


def h_move_card(s, g):
    f = Frame(s, g)
    ask_destination(s, f, s.action[g].astype(np.intp) - A.CARD0, sel_mask(s, f, P_SEL2))


def h_move_dst(s, g):
    f = Frame(s, g)
    y = s.action[g].astype(np.intp) - A.LOC0
    c = s.f_src[g, f.d].astype(np.intp)
    move_card(s, g, c, y, bottom=f.col(P_TOPOS) == 1)
    advance(s, g, f.d, True)


def enter_place(s, g):
    f = Frame(s, g)
    gate(s, f, (s.size[g, PILE_DECK] > 0) & sel_mask(s, f, P_SEL).any(axis=1), begin_place)


def begin_place(s, f: Frame):
    s.f_cnt[f.g, f.d] = f.col(P_AMT)
    h_pl_ask(s, f.g)


def h_pl_ask(s, g):
    f = Frame(s, g)
    ok = (s.f_cnt[g, f.d] > 0) & (s.size[g, PILE_DECK] > 0)
    if np.count_nonzero(ok):
        go = g[ok]
        s.flipped[go] = s.top[go, PILE_DECK]
        ask(s, go, K["place_location"], f.actor[ok], M["PL_APPLY"], loc=sel_mask(s, f, P_SEL)[ok])
    if np.count_nonzero(~ok):
        advance(s, g[~ok], f.d[~ok], True)


def h_pl_apply(s, g):
    x = s.action[g].astype(np.intp) - A.LOC0
    push_top(s, g, x, pop_top(s, g, PILE_DECK))
    s.flipped[g] = -1
    s.f_cnt[g, s.depth[g].astype(np.intp)] -= 1
    h_pl_ask(s, g)


# ---- gain_card / recover / deploy_another ----------------------------------------------------------

def gain_card_candidates(s, f: Frame):
    """(locations bool[n, 4], cards bool[n, C], deck bool[n]) a gain_card can take from."""
    sel = f.col(P_SEL)
    onloc = sel < SEL_BANISHED
    cl, cc = location_candidates(s, f, P_SEL)
    cl &= onloc[:, None]
    cc &= onloc[:, None]
    banished = sel == SEL_BANISHED
    if np.count_nonzero(banished):
        cc[banished] = (s.where[f.g[banished]] == zones.BANISHED) & filt(s, f.sub(banished))
    deck = (sel == SEL_DECK) & s.prog.fmatch[f.col(P_FILT), s.top[f.g, PILE_DECK]]
    return cl, cc, deck


def enter_gain_card(s, g):
    f = Frame(s, g)
    cl, cc, deck = gain_card_candidates(s, f)
    gate(s, f, cl.any(axis=1) | cc.any(axis=1) | deck, begin_gain_card)


def begin_gain_card(s, f: Frame):
    cl, cc, deck = gain_card_candidates(s, f)
    sel = f.col(P_SEL)
    top = (sel < SEL_BANISHED) & (f.col(P_POS) == 0)
    if np.count_nonzero(top):
        ask(s, f.g[top], K["target_location"], f.actor[top], M["GC_LOC"], loc=cl[top])
    card = ~top & ~deck
    if np.count_nonzero(card):
        ask(s, f.g[card], K["target_card"], f.actor[card], M["GC_CARD"], cards=cc[card])
    if np.count_nonzero(deck):
        gd = f.g[deck]
        to_hand(s, gd, f.actor[deck], pop_top(s, gd, PILE_DECK))
        advance(s, gd, f.d[deck], True)


def h_gc_loc(s, g):
    f = Frame(s, g)
    x = s.action[g].astype(np.intp) - A.LOC0
    to_hand(s, g, f.actor, pop_top(s, g, x))
    advance(s, g, f.d, True)


def h_gc_card(s, g):
    f = Frame(s, g)
    c = s.action[g].astype(np.intp) - A.CARD0
    remove_card(s, g, c)
    to_hand(s, g, f.actor, c)
    advance(s, g, f.d, True)


def enter_recover(s, g):
    f = Frame(s, g)
    cand = (s.where[g] == zones.BANISHED) & filt(s, f)
    to_hand_ = f.col(P_SEL2) == SEL_HAND
    target = to_hand_ | sel_mask(s, f, P_SEL2).any(axis=1)
    gate(s, f, cand.any(axis=1) & target, begin_recover)


def begin_recover(s, f: Frame):
    cand = (s.where[f.g] == zones.BANISHED) & filt(s, f)
    ask(s, f.g, K["target_card"], f.actor, M["REC_CARD"], cards=cand)


def h_rec_card(s, g):
    f = Frame(s, g)
    c = s.action[g].astype(np.intp) - A.CARD0
    hand = f.col(P_SEL2) == SEL_HAND
    if np.count_nonzero(hand):
        gh = g[hand]
        remove_card(s, gh, c[hand])
        to_hand(s, gh, f.actor[hand], c[hand])
        advance(s, gh, f.d[hand], True)
    loc = ~hand
    if np.count_nonzero(loc):
        gl = g[loc]
        s.f_src[gl, f.d[loc]] = c[loc]
        ask(s, gl, K["target_location"], f.actor[loc], M["REC_LOC"], loc=sel_mask(s, f, P_SEL2)[loc])


def h_rec_loc(s, g):
    d = s.depth[g].astype(np.intp)
    x = s.action[g].astype(np.intp) - A.LOC0
    c = s.f_src[g, d].astype(np.intp)
    remove_card(s, g, c)
    push_top(s, g, x, c)
    advance(s, g, d, True)


def enter_deploy_another(s, g):
    f = Frame(s, g)
    possible = (own_hand(s, f) & filt(s, f)).any(axis=1)
    if not s.config.chain_deploy_recursive:
        possible &= s.f_chain[g, f.d] == 0
    gate(s, f, possible, begin_deploy_another)


def begin_deploy_another(s, f: Frame):
    ask(s, f.g, K["target_card"], f.actor, M["DA_CARD"], cards=own_hand(s, f) & filt(s, f))


def h_da_card(s, g):
    d = s.depth[g].astype(np.intp)
    s.f_src[g, d] = s.action[g] - A.CARD0
    ask(s, g, K["target_location"], s.f_actor[g, d], M["DA_LOC"], loc=np.ones((len(g), 4), bool))


def h_da_loc(s, g):
    """Deploy the chosen card (RR-R62): on top, marked deployed, its own deploy ops first."""
    f = Frame(s, g)
    x = s.action[g].astype(np.intp) - A.LOC0
    c = s.f_src[g, f.d].astype(np.intp)
    remove_card(s, g, c)
    push_top(s, g, x, c)
    s.deployed[g, x] = True
    pc = s.prog.deploy_pc[c]
    has = pc >= 0
    if np.count_nonzero(~has):
        advance(s, g[~has], f.d[~has], True)
    if np.count_nonzero(has):
        gh = g[has]
        s.mop[gh] = M["ADV_DONE"]
        push(s, gh, pc[has], f.actor[has], x[has], c[has], True)


# ---- the die ---------------------------------------------------------------------------------------

def begin_roll(s, f: Frame):
    s.f_cnt[f.g, f.d] = f.col(P_AMT)
    h_rd_next(s, f.g)


def enter_roll(s, g):
    gate(s, Frame(s, g), np.ones(len(g), dtype=bool), begin_roll)


def h_rd_next(s, g):
    d = s.depth[g].astype(np.intp)
    cnt = s.f_cnt[g, d]
    fin = cnt <= 0
    if np.count_nonzero(fin):
        advance(s, g[fin], d[fin], True)
    g, d = g[~fin], d[~fin]
    if g.size == 0:
        return
    s.f_cnt[g, d] -= 1
    rechoose = s.prog.prm[s.f_pc[g, d], P_FACE] == 1
    apply_face(s, g, s.f_actor[g, d].astype(np.intp), roll(s, g), rechoose)


def apply_face(s, g, actor, face, rechoose):
    """Gain a die face's bonus (RR-R22, RR-R25, RR-R36); the roll_die op continues at RD_NEXT."""
    s.mop[g] = M["RD_NEXT"]
    die = s.prog.die
    bonus = die[face].astype(np.int64)
    f1 = bonus == DF_BANISH
    if np.count_nonzero(f1):
        g1 = g[f1]
        nonempty = s.size[g1, :4] > 0
        ok = nonempty.any(axis=1)
        if np.count_nonzero(ok):
            ask(s, g1[ok], K["target_location"], actor[f1][ok], M["RD_F1"], loc=nonempty[ok])
    f2 = (bonus == DF_PLACE) & (s.size[g, PILE_DECK] > 0)
    if np.count_nonzero(f2):
        g2 = g[f2]
        s.flipped[g2] = s.top[g2, PILE_DECK]
        ask(s, g2, K["place_location"], actor[f2], M["RD_F2"], loc=np.ones((len(g2), 4), bool))
    f3 = bonus == DF_SOVEREIGN
    faces = [A.FACE0 + f - 1 for f in range(1, 7) if die[f] != DF_SOVEREIGN]   # RR-R36
    choose = f3 & rechoose
    if np.count_nonzero(choose) and faces:
        ask(s, g[choose], K["die_face"], actor[choose], M["RD_FC"], cols=faces)
    sov = f3 & ~rechoose
    if np.count_nonzero(sov):
        receive_sovereign(s, g[sov], actor[sov])
    plain = bonus >= DF_HELIUM
    if np.count_nonzero(plain):
        add(s, g[plain], actor[plain], FACE_UNIT[bonus[plain]])


def h_rd_f1(s, g):
    x = s.action[g].astype(np.intp) - A.LOC0
    banish(s, g, pop_top(s, g, x))
    s.mop[g] = M["RD_NEXT"]


def h_rd_f2(s, g):
    x = s.action[g].astype(np.intp) - A.LOC0
    push_top(s, g, x, pop_top(s, g, PILE_DECK))
    s.flipped[g] = -1
    s.mop[g] = M["RD_NEXT"]


def h_rd_fc(s, g):
    d = s.depth[g].astype(np.intp)
    face = s.action[g].astype(np.int64) - A.FACE0 + 1
    apply_face(s, g, s.f_actor[g, d].astype(np.intp), face, np.zeros(len(g), dtype=bool))


# ---- opponents --------------------------------------------------------------------------------------

def eligible(s, f: Frame):
    """bool[n, P]: the seats the opponent op may target (docs/red_rising_model.md)."""
    g = f.g
    n = len(g)
    act = f.col(P_ACT)
    seats = np.arange(s.seats)
    hands = s.where[g][:, None, :] == (zones.HAND0 + seats)[None, :, None]          # [n, P, C]
    has_match = (hands & filt(s, f)[:, None, :]).any(axis=2)
    units = s.res[g, :, np.minimum(f.col(P_RES), 2)] > 0                        # [n, P]
    out = np.where((act == A_LOSE)[:, None], units,
                   np.where((act == A_GAIN_FREE)[:, None], True,
                            np.where((act == A_LOOK)[:, None], s.hand_n[g] > 0, has_match)))
    auto = s.automa[g].astype(np.intp)
    card_act = (auto >= 0) & ((act == A_STEAL) | (act == A_BANISH) | (act == A_REVEAL_CHOICE))
    if np.count_nonzero(card_act):
        rows = np.flatnonzero(card_act)
        gs, a = g[rows], auto[rows]
        bottom = automa_bottom(s, gs)
        out[rows, a] = (s.hand_n[gs, a] > 0) & s.prog.fmatch[f.col(P_FILT)[rows], bottom]   # RR-V33
    out[np.arange(n), f.actor] = False
    return out


def offsets(s, actor):
    """int[n, P-1]: the seat ``k`` places clockwise from ``actor``, k = 1..P-1."""
    return (actor[:, None] + np.arange(1, s.seats)[None, :]) % s.seats


def enter_opponent(s, g):
    f = Frame(s, g)
    gate(s, f, eligible(s, f).any(axis=1), begin_opponent)


def begin_opponent(s, f: Frame):
    g = f.g
    elig = eligible(s, f)
    by_k = elig[np.arange(len(g))[:, None], offsets(s, f.actor)]              # [n, P-1]
    tgt = f.col(P_TGT)
    choose = tgt == T_CHOOSE
    if np.count_nonzero(choose):
        cols = [(A.OPP0 + k, by_k[choose, k]) for k in range(s.seats - 1)]
        ask(s, g[choose], K["target_opponent"], f.actor[choose], M["OPP_CHOOSE"], cols=cols)
    rest = ~choose
    if np.count_nonzero(rest):
        bits = (1 << np.arange(1, s.seats, dtype=np.int64))[None, :]
        wanted = np.ones_like(by_k)
        neighbours = tgt == T_NEIGHBOURS
        if np.count_nonzero(neighbours):
            wanted[neighbours] = False
            wanted[neighbours, 0] = True
            wanted[neighbours, -1] = True
        mask = ((by_k & wanted) * bits).sum(axis=1)
        gr = g[rest]
        s.f_tmask[gr, f.d[rest]] = mask[rest]
        s.f_done[gr, f.d[rest]] = False
        h_opp_next(s, gr)


def h_opp_choose(s, g):
    d = s.depth[g].astype(np.intp)
    k = s.action[g].astype(np.int64) - A.OPP0 + 1
    s.f_tmask[g, d] = 1 << k
    s.f_done[g, d] = False
    h_opp_next(s, g)


def h_opp_next(s, g):
    """Next target in turn order from the actor's left; block decision or the effect.

    With ``each`` / ``neighbours`` a target's eligibility is checked again when its turn comes
    (a chosen target is eligible by construction).
    """
    f = Frame(s, g)
    tm = s.f_tmask[g, f.d].astype(np.int64)
    tgt = np.full(len(g), -1, dtype=np.intp)
    single = (tm != 0) & (f.col(P_TGT) == T_CHOOSE)
    k = LOWBIT[tm]
    tgt[single] = ((f.actor + k) % s.seats)[single]
    tm[single] = 0
    multi = (tm != 0) & ~single
    if np.count_nonzero(multi):
        rows = np.flatnonzero(multi)
        fm = f.sub(multi)
        elig = eligible(s, fm)
        tmm, found = tm[rows], np.full(len(rows), -1, dtype=np.intp)
        r = np.arange(len(rows))
        for _ in range(s.seats):
            look = (found < 0) & (tmm != 0)
            if not np.count_nonzero(look):
                break
            km = LOWBIT[tmm]
            cand = (fm.actor + km) % s.seats
            tmm = np.where(look, tmm & ~(1 << km), tmm)
            ok = look & elig[r, cand]
            found[ok] = cand[ok]
        tm[rows], tgt[rows] = tmm, found
    s.f_tmask[g, f.d] = tm
    fin = tgt < 0
    if np.count_nonzero(fin):
        advance(s, g[fin], f.d[fin], s.f_done[g[fin], f.d[fin]])
        if fin.all():
            return
        f, tgt = f.sub(~fin), tgt[~fin]
    g = f.g
    s.f_tgt[g, f.d] = tgt
    act = f.col(P_ACT)
    blockable = (f.col(P_BLOCK) == 1) & (tgt != s.automa[g])
    can = np.zeros(len(g), dtype=bool)
    if np.count_nonzero(blockable):
        blockers = hand_mask(s, g, tgt) & s.prog.blocks[act][:, : s.num_cards] & blockable[:, None]
        can = blockers.any(axis=1)
        if np.count_nonzero(can):
            ask(s, g[can], K["block"], tgt[can], M["OPP_BLOCK"], cards=blockers[can], cols=(A.NO,))
    if np.count_nonzero(~can):
        effect(s, f.sub(~can) if np.count_nonzero(can) else f, tgt[~can])


def h_opp_block(s, g):
    no = s.action[g] == A.NO
    if np.count_nonzero(no):
        f = Frame(s, g[no])
        effect(s, f, s.f_tgt[f.g, f.d].astype(np.intp))
    if np.count_nonzero(~no):
        h_opp_next(s, g[~no])                          # blocked: no effect, no `then` (RR-A28)


def effect(s, f: Frame, tgt):
    """The effect of the op on target ``tgt`` (not blocked); its seen set goes to the child slot."""
    g = f.g
    s.f_done[g, f.d] = True
    s.f_seen[g, f.d + 1] = -1
    act = f.col(P_ACT)
    if (act == act[0]).all():
        EFFECT[int(act[0])](s, f, tgt)
        return
    for a in np.unique(act):
        m = act == a
        EFFECT[int(a)](s, f.sub(m), tgt[m])


def effect_take(s, f: Frame, tgt):
    """steal / banish_from_hand: Au Toma's bottom card (RR-V33), a pick, or a choice."""
    g = f.g
    is_auto = tgt == s.automa[g]
    if np.count_nonzero(is_auto):
        take_card(s, f.sub(is_auto), automa_bottom(s, g[is_auto]))
    if is_auto.all():
        return
    f, tgt = f.sub(~is_auto), tgt[~is_auto]
    g = f.g
    cand = hand_mask(s, g, tgt) & filt(s, f)
    sel = f.col(P_SELN)
    rand = sel == S_RANDOM
    if np.count_nonzero(rand):
        take_card(s, f.sub(rand), pick(s, g[rand], cand[rand]))
    owner = sel == S_OWNER
    if np.count_nonzero(owner):
        ask(s, g[owner], K["target_card"], tgt[owner], M["OPP_CARD"], cards=cand[owner])
    actor = sel == S_ACTOR
    if np.count_nonzero(actor):
        ask(s, g[actor], K["target_card"], f.actor[actor], M["OPP_CARD"], cards=cand[actor])


def effect_reveal(s, f: Frame, tgt):
    """reveal_random (a pick) / reveal_choice (the target chooses; Au Toma: her bottom card).
    A card revealed by Au Toma goes back on top of her hand (RR-V34)."""
    g = f.g
    is_auto = tgt == s.automa[g]
    choice = f.col(P_ACT) == A_REVEAL_CHOICE
    ask_ = choice & ~is_auto
    cand = hand_mask(s, g, tgt) & filt(s, f)
    if np.count_nonzero(ask_):
        ask(s, g[ask_], K["target_card"], tgt[ask_], M["OPP_CARD"], cards=cand[ask_])
    now = ~ask_
    if not np.count_nonzero(now):
        return
    g, tgt, is_auto, choice, cand = g[now], tgt[now], is_auto[now], choice[now], cand[now]
    c = np.full(len(g), -1, dtype=np.intp)
    rr = ~choice
    if np.count_nonzero(rr):
        c[rr] = pick(s, g[rr], cand[rr])
    if np.count_nonzero(choice):
        c[choice] = automa_bottom(s, g[choice])
    s.f_seen[g, s.depth[g].astype(np.intp) + 1, 0] = c
    if np.count_nonzero(is_auto):
        ga = g[is_auto]
        remove_card(s, ga, c[is_auto])
        to_hand(s, ga, tgt[is_auto], c[is_auto])
    h_opp_then(s, g)


def effect_lose(s, f: Frame, tgt):
    res, amt = f.col(P_RES), f.col(P_AMT)
    add(s, f.g, tgt, -UNIT[res] * amt[:, None])
    h_opp_then(s, f.g)


def effect_gain_free(s, f: Frame, tgt):
    """Au Toma always accepts (RR-V35); a player is asked (``accept``)."""
    g = f.g
    is_auto = tgt == s.automa[g]
    if np.count_nonzero(is_auto):
        ga = g[is_auto]
        automa.free_gain(s, ga, f.col(P_RES)[is_auto], f.col(P_AMT)[is_auto])
        h_opp_then(s, ga)
    if np.count_nonzero(~is_auto):
        ask(s, g[~is_auto], K["accept"], tgt[~is_auto], M["OPP_ACCEPT"], cols=(A.YES, A.NO))


def effect_look(s, f: Frame, tgt):
    look_cards(s, f, tgt)
    h_opp_then(s, f.g)


EFFECT = {A_STEAL: effect_take, A_BANISH: effect_take, A_REVEAL_RANDOM: effect_reveal,
          A_REVEAL_CHOICE: effect_reveal, A_LOSE: effect_lose, A_GAIN_FREE: effect_gain_free,
          A_LOOK: effect_look}


def take_card(s, f: Frame, c):
    """Steal (to the actor's hand) or banish_from_hand card ``c``; seen = {c}."""
    g = f.g
    remove_card(s, g, c)
    steal = f.col(P_ACT) == A_STEAL
    if np.count_nonzero(steal):
        to_hand(s, g[steal], f.actor[steal], c[steal])
    if np.count_nonzero(~steal):
        banish(s, g[~steal], c[~steal])
    s.f_seen[g, f.d + 1] = -1
    s.f_seen[g, f.d + 1, 0] = c
    h_opp_then(s, g)


def look_cards(s, f: Frame, tgt):
    """look_opponent_hand: the seen set (RR-V47, RR-V49 for Au Toma)."""
    g = f.g
    count = f.col(P_AMT)
    kk = s.f_seen.shape[2]
    seen = np.full((len(g), kk), -1, dtype=np.int16)
    is_auto = tgt == s.automa[g]
    if np.count_nonzero(is_auto):
        ga = g[is_auto]
        cards = automa.hand_top(s, ga, count[is_auto])
        seen[is_auto] = cards
        shuffle = f.col(P_SHUF)[is_auto] == 1
        if np.count_nonzero(shuffle):
            reorder_automa_top(s, ga[shuffle], cards[shuffle])
    players = ~is_auto
    if np.count_nonzero(players):
        gp = g[players]
        hand = hand_mask(s, gp, tgt[players])
        n_hand = hand.sum(axis=1)
        cnt = count[players]
        chosen = hand & (n_hand <= cnt)[:, None]
        for i in range(int(cnt.max())):
            draw = (n_hand > cnt) & (i < cnt)
            if not np.count_nonzero(draw):
                break
            rows = np.flatnonzero(draw)
            c = pick(s, gp[rows], hand[rows] & ~chosen[rows])
            chosen[rows, c] = True
        order = np.argsort(~chosen, axis=1, kind="stable")[:, :kk]
        seen[players] = np.where(np.take_along_axis(chosen, order, axis=1), order, -1)
    s.f_seen[g, f.d + 1] = seen


def reorder_automa_top(s, g, cards):
    """RR-V49 (Roque): shuffle Au Toma's top cards with ``pick`` draws and put them back on top.

    One pick at a time among the remaining ones (by ascending card index); the first card
    drawn becomes her new top card, the next one lies below it, and so on.
    """
    present = cards >= 0
    k = present.sum(axis=1)
    mask = np.zeros((len(g), s.num_cards), dtype=bool)
    nz = np.nonzero(present)
    mask[nz[0], cards[present]] = True
    drawn = np.full(cards.shape, -1, dtype=np.int64)
    for i in range(cards.shape[1]):
        rows = np.flatnonzero(k > i)
        if rows.size == 0:
            break
        c = pick(s, g[rows], mask[rows])
        mask[rows, c] = False
        drawn[rows, i] = c
    for i in range(cards.shape[1]):
        rows = np.flatnonzero(k > i)
        if rows.size:
            pop_top(s, g[rows], PILE_AUTOMA)
    for i in range(cards.shape[1] - 1, -1, -1):
        rows = np.flatnonzero(k > i)
        if rows.size:
            push_top(s, g[rows], PILE_AUTOMA, drawn[rows, i])


def h_opp_card(s, g):
    """A card chosen by the target or the actor for steal / banish_from_hand / reveal_choice."""
    f = Frame(s, g)
    c = s.action[g].astype(np.intp) - A.CARD0
    reveal = f.col(P_ACT) == A_REVEAL_CHOICE
    if np.count_nonzero(reveal):
        gr = g[reveal]
        s.f_seen[gr, f.d[reveal] + 1] = -1
        s.f_seen[gr, f.d[reveal] + 1, 0] = c[reveal]
        h_opp_then(s, gr)
    if np.count_nonzero(~reveal):
        take_card(s, f.sub(~reveal), c[~reveal])


def h_opp_accept(s, g):
    """The target's answer to a free gain (RR-R6): yes -> gain it, making its own choices."""
    f = Frame(s, g)
    tgt = s.f_tgt[g, f.d].astype(np.intp)
    yes = s.action[g] == A.YES
    res, amt = f.col(P_RES), f.col(P_AMT)
    plain = yes & (res <= INFLUENCE)
    if np.count_nonzero(plain):
        add(s, g[plain], tgt[plain], UNIT[res[plain]] * amt[plain][:, None])
    now = ~yes | plain
    if np.count_nonzero(now):
        h_opp_then(s, g[now])
    sov = yes & (res == SOVEREIGN)
    if np.count_nonzero(sov):
        s.mop[g[sov]] = M["OPP_THEN"]
        receive_sovereign(s, g[sov], tgt[sov])
    die = yes & (res == DIE)
    if np.count_nonzero(die):
        gd = g[die]
        s.mop[gd] = M["OPP_THEN"]
        s.f_seen[gd, f.d[die] + 1] = -1
        push(s, gd, s.prog.die_pc, tgt[die], -1, -1, False)


def h_opp_then(s, g):
    """The op's ``then`` for this target, resolved by the actor with its seen set."""
    f = Frame(s, g)
    pc = f.col(P_THEN)
    has = pc >= 0
    free = f.col(P_ACT) == A_GAIN_FREE
    if np.count_nonzero(~has):
        h_opp_next(s, g[~has])
    if np.count_nonzero(has):
        fh = f.sub(has)
        seen = s.f_seen[fh.g, fh.d + 1]
        seen[free[has]] = -1
        s.mop[fh.g] = M["OPP_NEXT"]
        push(s, fh.g, pc[has], fh.actor, fh.this, fh.card, s.f_chain[fh.g, fh.d], seen)


# ---- reveal_own / if / end_turn ------------------------------------------------------------------

def enter_reveal_own(s, g):
    f = Frame(s, g)
    gate(s, f, (own_hand(s, f) & filt(s, f)).any(axis=1), begin_reveal_own)


def begin_reveal_own(s, f: Frame):
    ask(s, f.g, K["target_card"], f.actor, M["RV_CARD"], cards=own_hand(s, f) & filt(s, f))


def h_rv_card(s, g):
    f = Frame(s, g)
    c = s.action[g].astype(np.int16) - A.CARD0
    pc = f.col(P_THEN)
    has = pc >= 0
    if np.count_nonzero(~has):
        advance(s, g[~has], f.d[~has], True)
    if np.count_nonzero(has):
        fh = f.sub(has)
        seen = np.full((len(fh.g), s.f_seen.shape[2]), -1, dtype=np.int16)
        seen[:, 0] = c[has]
        s.mop[fh.g] = M["ADV_DONE"]
        push(s, fh.g, pc[has], fh.actor, fh.this, fh.card, s.f_chain[fh.g, fh.d], seen)


def condition(s, f: Frame):
    """Value of an ``if`` op's condition (RR-A2)."""
    g = f.g
    kind = f.col(P_COND)
    fm = filt(s, f, P_CFILT)
    val = np.zeros(len(g), dtype=bool)
    for code in np.unique(kind):
        m = kind == code
        fs = f.sub(m)
        if code == C_HAND:
            v = (own_hand(s, fs) & fm[m]).any(axis=1)
        elif code == C_SEEN:
            seen = s.f_seen[fs.g, fs.d]
            v = s.prog.fmatch[fs.col(P_CFILT)[:, None], seen].any(axis=1)
        elif code == C_LOCTOP:
            v = (sel_mask(s, fs, P_CSEL) & top_match(s, fs, P_CFILT)).any(axis=1)
        elif code == C_BANISHED:
            v = ((s.where[fs.g] == zones.BANISHED) & fm[m]).any(axis=1)
        elif code == C_RESOURCE:
            res, amt = fs.col(P_CRES), fs.col(P_CAMT)
            v = np.where(res == SOVEREIGN, (s.sovereign[fs.g] == fs.actor) | (amt <= 0),
                         have(s, fs.g, fs.actor, res) >= amt)
        else:
            v = s.f_prev[fs.g, fs.d] != 0
        val[m] = v
    return val


def enter_if(s, g):
    gate(s, Frame(s, g), np.ones(len(g), dtype=bool), begin_if)


def begin_if(s, f: Frame):
    g = f.g
    val = condition(s, f)
    s.f_done[g, f.d] = val
    pc = np.where(val, f.col(P_THEN), f.col(P_ELSE))
    has = pc >= 0
    if np.count_nonzero(~has):
        advance(s, g[~has], f.d[~has], val[~has])
    if np.count_nonzero(has):
        fh = f.sub(has)
        s.mop[fh.g] = M["ADV_REG"]
        push(s, fh.g, pc[has], fh.actor, fh.this, fh.card, s.f_chain[fh.g, fh.d], s.f_seen[fh.g, fh.d])


def enter_end_turn(s, g):
    f = Frame(s, g)
    possible = (f.col(P_WHEN) == 0) | (s.f_prev[g, f.d] != 0)
    gate(s, f, possible, begin_end_turn)


def begin_end_turn(s, f: Frame):
    s.skip_gain[f.g] = True
    advance(s, f.g, f.d, True)


BEGIN = {GAIN: begin_gain, LOSE: begin_lose, TRADE: begin_trade,
         BANISH_LOC: begin_banish_loc, BANISH_HAND: begin_banish_hand, BANISH_DECK: begin_banish_deck,
         MOVE: begin_move, PLACE: begin_place, GAIN_CARD: begin_gain_card,
         DEPLOY_ANOTHER: begin_deploy_another, RECOVER: begin_recover, ROLL_DIE: begin_roll,
         OPPONENT: begin_opponent, REVEAL_OWN: begin_reveal_own, IF: begin_if, END_TURN: begin_end_turn}

ENTER = {GAIN: enter_gain, LOSE: enter_lose, TRADE: enter_trade, BANISH_LOC: enter_banish_loc,
         BANISH_HAND: enter_banish_hand, BANISH_DECK: enter_banish_deck, MOVE: enter_move,
         PLACE: enter_place, GAIN_CARD: enter_gain_card, DEPLOY_ANOTHER: enter_deploy_another,
         RECOVER: enter_recover, ROLL_DIE: enter_roll, OPPONENT: enter_opponent,
         REVEAL_OWN: enter_reveal_own, IF: enter_if, END_TURN: enter_end_turn}


def handlers() -> dict[int, object]:
    """Micro-op -> handler for everything the interpreter owns."""
    out = {ENTER0 + op: h for op, h in ENTER.items()}
    out[ENTER0 + 0] = h_pop                   # the END row of a block
    out.update({M["POP"]: h_pop, M["ADV_DONE"]: h_adv_done, M["ADV_REG"]: h_adv_reg, M["OPT"]: h_opt,
                M["BANLOC_LOC"]: h_banloc_loc, M["BANLOC_CARD"]: h_banloc_card,
                M["BH_ASK"]: h_bh_ask, M["BH_APPLY"]: h_bh_apply,
                M["MOVE_SRC"]: h_move_src, M["MOVE_CARD"]: h_move_card, M["MOVE_DST"]: h_move_dst,
                M["PL_ASK"]: h_pl_ask, M["PL_APPLY"]: h_pl_apply, M["GC_LOC"]: h_gc_loc,
                M["GC_CARD"]: h_gc_card, M["DA_CARD"]: h_da_card, M["DA_LOC"]: h_da_loc,
                M["REC_CARD"]: h_rec_card, M["REC_LOC"]: h_rec_loc, M["RD_NEXT"]: h_rd_next,
                M["RD_F1"]: h_rd_f1, M["RD_F2"]: h_rd_f2, M["RD_FC"]: h_rd_fc,
                M["OPP_CHOOSE"]: h_opp_choose, M["OPP_NEXT"]: h_opp_next, M["OPP_BLOCK"]: h_opp_block,
                M["OPP_CARD"]: h_opp_card, M["OPP_ACCEPT"]: h_opp_accept, M["OPP_THEN"]: h_opp_then,
                M["RV_CARD"]: h_rv_card, M["TRADE_GET"]: h_trade_get})
    return out
