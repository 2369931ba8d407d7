"""The Red Rising engine: the micro-step loop and the turn flow (docs/red_rising_model.md,
docs/red_rising_engine.md).

Every game of the batch runs a small state machine. ``state.mop[g]`` names what game ``g`` does
next; a game waiting for a decision has ``waiting[g]`` set and its answer's handler in ``mop``.
``step`` stores the answers and ``run`` runs every game that is neither waiting nor done until
it waits for a decision or is over.

``run`` executes the micro-ops with the compiled kernel (kernel.py: a numba loop over the games
of the batch, scalar code per game, the state in the same batch arrays). The vectorised
handlers of this module, ops.py, automa.py and endgame.py are the reference implementation of
those micro-ops: ``run_vectorised`` executes them, grouped by micro-op (one numpy handler per
group of games, handlers never loop over games); a test requires both to leave identical
states.

Turn flow (this module): action -> deploy (card, location, deploy ops) -> gain (location
bonus or die) / scout -> end of turn (trigger, next player, Au Toma's turn, Apollo's extra
turn). Ops: ``ops.py``; Au Toma: ``automa.py``; scoring step 1 and the final score:
``endgame.py``; setup: ``deal.py``.
"""
from __future__ import annotations

import numpy as np

from sim.games.red_rising import actions as A
from sim.games.red_rising import automa, endgame, kernel, ops
from sim.games.red_rising.state import (
    BACKINGS, LOC_UNIT, M, NUM_MOPS, PILE_DECK, R_ROUND_LIMIT, R_STALEMATE, State, add, ask, grow_frames,
    hand_mask, pop_top, push, push_top, receive_sovereign, to_hand,
)

K = A.KIND
JUPITER, MARS, LUNA, INSTITUTE = range(4)
MAX_PASSES = 10_000


# ---- the turn ------------------------------------------------------------------------------------

def h_start(s: State, g):
    """Start of a turn (RR-R1, RR-R2): Au Toma plays hers at once; a player chooses an action."""
    s.deployed[g] = False
    s.skip_gain[g] = False
    s.changed[g] = False
    s.flipped[g] = -1
    traded = g[s.turn_traded[g]]
    if traded.size:
        s.traded[traded] = False
        s.turn_traded[traded] = False
    p = s.player[g]
    auto = p == s.automa[g]
    if np.count_nonzero(auto):
        ga = g[auto]
        automa.turn(s, ga)
        h_end(s, ga)
    pl = ~auto
    if np.count_nonzero(pl):
        gp = g[pl]
        ask(s, gp, K["action"], p[pl], M["T_ACTION"], cols=(A.LEAD, (A.SCOUT, s.size[gp, PILE_DECK] > 0)))


def h_action(s: State, g):
    a = s.action[g]
    p = s.player[g].astype(np.intp)
    scout = a == A.SCOUT
    if np.count_nonzero(scout):                                   # RR-R11: the card is flipped, then placed
        gs = g[scout]
        s.flipped[gs] = s.top[gs, PILE_DECK]
        ask(s, gs, K["scout_location"], p[scout], M["T_SCOUT"], loc=np.ones((len(gs), 4), bool))
    lead = ~scout & (s.hand_n[g, p] > 0)
    if np.count_nonzero(lead):
        gl = g[lead]
        ask(s, gl, K["deploy_card"], p[lead], M["T_DEPCARD"], cards=hand_mask(s, gl, p[lead]))
    empty = ~scout & ~lead                            # RR-R68: only the gain step
    if np.count_nonzero(empty):
        h_gain_ask(s, g[empty])


def h_depcard(s: State, g):
    s.pend[g] = s.action[g] - A.CARD0
    ask(s, g, K["deploy_location"], s.player[g], M["T_DEPLOC"], loc=np.ones((len(g), 4), bool))


def h_deploc(s: State, g):
    """Deploy (RR-R4, RR-R5): the card goes on top, the location is marked, its ops resolve."""
    x = s.action[g].astype(np.intp) - A.LOC0
    c = s.pend[g].astype(np.intp)
    p = s.player[g].astype(np.intp)
    s.hand_n[g, p] -= 1
    push_top(s, g, x, c)
    s.deployed[g, x] = True
    pc = s.prog.deploy_pc[c]
    has = pc >= 0
    if np.count_nonzero(has):
        gh = g[has]
        s.mop[gh] = M["T_GAIN_ASK"]
        push(s, gh, pc[has], p[has], x[has], c[has], False)
    if np.count_nonzero(~has):
        h_gain_ask(s, g[~has])


def h_gain_ask(s: State, g):
    """The gain step (RR-R7..R10, RR-R63, RR-A17), unless an ``end_turn`` op fired (RR-R48)."""
    loc = ~s.deployed[g] & (s.size[g, :4] > 0)
    deck = s.size[g, PILE_DECK] > 0
    ok = ~s.skip_gain[g] & (loc.any(axis=1) | deck)
    if np.count_nonzero(ok):
        go = g[ok]
        ask(s, go, K["gain"], s.player[go], M["T_GAIN"], loc=loc[ok], cols=((A.DECK, deck[ok]),))
    if np.count_nonzero(~ok):
        h_end(s, g[~ok])


def h_gain(s: State, g):
    a = s.action[g].astype(np.intp)
    p = s.player[g].astype(np.intp)
    deck = a == A.DECK
    if np.count_nonzero(deck):                                    # option B: card, then the die (RR-R8)
        gd = g[deck]
        to_hand(s, gd, p[deck], pop_top(s, gd, PILE_DECK))
        s.mop[gd] = M["T_END"]
        push(s, gd, s.prog.die_pc, p[deck], -1, -1, False)
    loc = ~deck
    if np.count_nonzero(loc):                                     # option A: card, then the bonus
        gl, x = g[loc], a[loc] - A.LOC0
        to_hand(s, gl, p[loc], pop_top(s, gl, x))
        location_bonus(s, gl, p[loc], x)


def h_scout(s: State, g):
    x = s.action[g].astype(np.intp) - A.LOC0
    push_top(s, g, x, pop_top(s, g, PILE_DECK))
    s.flipped[g] = -1
    location_bonus(s, g, s.player[g].astype(np.intp), x)   # RR-R13


def location_bonus(s: State, g, p, x):
    """The bonus of location ``x`` for player ``p`` (RR-R15..R20), then the end of the turn."""
    luna = x == LUNA
    if np.count_nonzero(luna):
        gl = g[luna]
        s.mop[gl] = M["T_END"]
        receive_sovereign(s, gl, p[luna])
    plain = ~luna
    if np.count_nonzero(plain):
        gp, xp = g[plain], x[plain]
        add(s, gp, p[plain], LOC_UNIT[xp])
        h_end(s, gp)


def h_end(s: State, g):
    """End of a turn: stalemate guard, end sequence (RR-E4, RR-E5, RR-A18), next player."""
    cfg = s.config
    seats = s.seats
    s.turns[g] += 1
    s.idle[g] = np.where(s.changed[g], 0, s.idle[g] + 1)
    stale = ~s.triggered[g] & (s.idle[g] >= seats * cfg.stalemate_rounds)
    if np.count_nonzero(stale):
        gs = g[stale]
        s.triggered[gs] = True
        s.end_reason[gs] = R_STALEMATE
    p = s.player[g]
    last = p == seats - 1
    limit = last & ~s.triggered[g] & (s.rounds[g] >= cfg.max_rounds)   # a guard, ends like a trigger
    if np.count_nonzero(limit):
        gl = g[limit]
        s.triggered[gl] = True
        s.end_reason[gl] = R_ROUND_LIMIT
    over = s.last_turn[g].copy()                      # the extra last turn is done
    ending = ~over & last & s.triggered[g]
    extra = np.zeros(len(g), dtype=bool)
    if np.count_nonzero(ending):                                  # RR-E5: the extra_last_turn player plays once more
        ge = g[ending]
        extra_flag = s.prog.house_extra_turn[s.house[ge]] > 0            # [n, P]
        has = extra_flag.any(axis=1)
        seat = np.argmax(extra_flag, axis=1)
        extra[np.flatnonzero(ending)[has]] = True
        gx = ge[has]
        s.player[gx] = seat[has]
        s.rounds[gx] += (seat[has] == 0)
        s.last_turn[gx] = True
        over[np.flatnonzero(ending)[~has]] = True
    if np.count_nonzero(over):
        endgame.h_start(s, g[over])
    nxt = ~over & ~extra
    if np.count_nonzero(nxt):
        gn = g[nxt]
        s.player[gn] = (p[nxt] + 1) % seats
        s.rounds[gn] += s.player[gn] == 0
    go = ~over
    if np.count_nonzero(go):
        h_start(s, g[go])


# ---- the loop ------------------------------------------------------------------------------------

def _handlers():
    table = [None] * NUM_MOPS
    turn = {"T_START": h_start, "T_ACTION": h_action, "T_DEPCARD": h_depcard, "T_DEPLOC": h_deploc,
            "T_GAIN_ASK": h_gain_ask, "T_GAIN": h_gain, "T_SCOUT": h_scout, "T_END": h_end}
    for name, h in turn.items():
        table[M[name]] = h
    for code, h in endgame.handlers().items():
        table[code] = h
    for code, h in ops.handlers().items():
        table[code] = h
    return table


HANDLERS = _handlers()


def run(s: State) -> State:
    """Run every game that is not waiting for a decision until all wait or are done.

    The compiled kernel (kernel.py) runs the micro-op machine game by game; when a game needs
    a deeper frame stack it stops at a micro-op boundary, the arrays grow here and the kernel
    goes on.
    """
    if s.batch <= 1:
        return _as_pair(s, run)
    while True:
        arrays, prog = kernel.pack(s)
        g = kernel.run_batch(arrays, prog)
        if g < 0:
            return s
        grow_frames(s, s.frame.shape[1] + 1)


def run_to_end(s: State, driver, args_of) -> State:
    """Play every game of ``s`` to its end with a compiled whole-game driver; updates ``s`` in place.

    ``driver(arrays, prog, *args_of(s), bad)`` is compiled code that, game by game, answers each
    decision and runs the game on (``kernel.run_game``) until it is over: ``kernel.play_uniform``
    (random play) or a strategy's (strategies/red_rising.py). It returns -1 when every game is
    over, a game that needs more frames (they grow here, which lays out the state's arrays anew,
    hence ``args_of``; the driver is called again and goes on where it stopped), or -2 - g when
    game g's answer ``bad[0]`` is illegal (``ValueError``, as in ``step``). Needs two games or
    more (a one-game state has other array types).
    """
    if s.batch < 2:
        raise ValueError("run_to_end needs a batch of two games or more")
    bad = np.zeros(1, dtype=np.int64)
    while True:
        arrays, prog = kernel.pack(s)
        g = driver(arrays, prog, *args_of(s), bad)
        if g == -1:
            return s
        if g >= 0:
            grow_frames(s, s.frame.shape[1] + 1)
            continue
        g = -2 - g
        raise ValueError(f"illegal action {int(bad[0])} in game {int(s.game_id[g])} "
                         f"(decision {A.DECISION_KINDS[int(s.kind[g])]})")


def play_uniform(s: State, keys, n_strategies: int) -> State:
    """Play every game to its end, every decision of the seats of slots ``< n_strategies`` a
    uniform random legal action drawn with ``keys[slot, game]`` (uint64 [slots, B]) exactly as the
    runner's loop with the ``random`` strategy draws it (``kernel.play_uniform``)."""
    args = (np.ascontiguousarray(s.slot, dtype=np.int64), np.ascontiguousarray(keys, dtype=np.uint64),
            np.zeros(s.batch, dtype=np.int64), int(n_strategies))
    return run_to_end(s, kernel.play_uniform, lambda _: args)


def _as_pair(s: State, fn, *args) -> State:
    """Run ``fn(pair, *args)`` on a two-game copy of a one-game state (the second game is over)
    and keep the first game. With one row every view of the state is contiguous, and numba would
    compile the whole kernel again for those array types."""
    if s.batch == 0:
        return s
    from sim.core.game import take
    pair = take(s, np.array([0, 0]))
    pair.done[1] = True
    pair.waiting[1] = False
    fn(pair, *args)
    for name in BACKINGS:
        setattr(s, name, getattr(pair, name)[:1].copy())
    s.layout = pair.layout
    return s


def run_vectorised(s: State) -> State:
    """``run`` with the vectorised handlers (the reference implementation of the kernel).

    In each pass, every ready game executes its micro-op, grouped by micro-op (one numpy
    handler per group), until every game waits for a decision or is over.
    """
    for _ in range(MAX_PASSES):
        ready = np.flatnonzero(~(s.waiting | s.done))
        if ready.size == 0:
            return s
        m = s.mop[ready]
        first = m[0]
        if (m == first).all():
            HANDLERS[first](s, ready)
            continue
        order = np.argsort(m, kind="stable")
        ms = m[order]
        cuts = np.flatnonzero(ms[1:] != ms[:-1]) + 1
        bounds = np.concatenate(([0], cuts, [len(ms)]))
        for a, b in zip(bounds[:-1], bounds[1:]):
            HANDLERS[ms[a]](s, ready[order[a:b]])
    raise RuntimeError("Red Rising engine: no decision reached after many passes")


def step(s: State, actions, vectorised: bool = False) -> State:
    """Apply one action per game (ignored for games that are over) and run to the next decisions.

    Updates ``s`` in place and returns it. ``vectorised``: run with the numpy handlers
    (``run_vectorised``) instead of the compiled kernel.
    """
    actions = np.asarray(actions)
    if actions.shape != (s.batch,):
        raise ValueError(f"expected {s.batch} actions, got an array of shape {actions.shape}")
    if s.batch == 1 and not vectorised:
        return _as_pair(s, step, np.concatenate([actions.astype(np.int64), [0]]))
    arrays, _ = kernel.pack(s)
    bad = kernel.apply_batch(arrays, actions.astype(np.int64))
    if bad >= 0:
        raise ValueError(f"illegal action {int(actions[bad])} in game {int(s.game_id[bad])} "
                         f"(decision {A.DECISION_KINDS[int(s.kind[bad])]})")
    return run_vectorised(s) if vectorised else run(s)
