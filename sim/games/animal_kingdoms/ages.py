"""Setup, the end of an age, council moves and the start of a new age.

Rules: AK-S1..S18 (setup, with the random draws of the model doc), AK-R37..R52 (councils and
new ages) with AK-A31..A34, and the robot's bonus cards (AK-A39).
"""
from __future__ import annotations

import numpy as np

from sim.core import rng
from sim.games.animal_kingdoms import cards as cd
from sim.games.animal_kingdoms.state import BEGIN, COUNCIL, CSEEK, DONE, NEWAGE, empty_state
from sim.games.animal_kingdoms.tables import BIG, Tables

AGES = 3


def init(t: Tables, game_ids, seed: int):
    """AK-S1..S18: a batch of games at the start of Age I (not yet advanced to a decision)."""
    cfg, ct = t.config, t.content
    gid = np.asarray(game_ids, dtype=np.int64)
    B, K = len(gid), t.K
    s = empty_state(t, B)
    s.gid[:] = gid
    if t.solo or cfg.start_player_age1 == "first_slot":
        s.start_slot[:] = 0
    else:
        s.start_slot[:] = rng.integers(rng.stream_keys(seed, gid, "start"), 0, cfg.players)
    s.deck_key[:] = rng.stream_keys(seed, gid, "deck")
    s.dorder[:] = rng.permutations(rng.stream_keys(seed, gid, "decrees"), t.D)
    values = np.array(ct.first_place, dtype=np.int16)
    perm = rng.permutations(rng.stream_keys(seed, gid, "first_place"), len(values))
    tiles = values[perm[:, :K * t.T]].reshape(B, K, t.T)
    s.fp[:] = np.sort(tiles, axis=2)
    rvalues = np.array(ct.first_retreat, dtype=np.int16)
    s.rt[:] = rvalues[rng.permutations(rng.stream_keys(seed, gid, "first_retreat"), t.R)]
    rows = np.arange(B)
    cd.shuffle_into_deck(s, rows, np.ones((B, t.N), dtype=bool))
    for p in range(t.P):
        if p != t.robot:
            cd.refill(s, rows, np.full(B, p))
    s.decree[:] = s.dorder[:, :K]
    deal_bonus(s, rows)
    s.phase[:] = BEGIN
    return s


def deal_bonus(s, rows):
    """AK-A39: the top card(s) of the deck become the robot's face-up bonus cards."""
    t = s.t
    s.bonus[rows] = t.N
    if t.solo:
        for i in range(t.bonus_cards):
            s.bonus[rows, i] = cd.draw_one(s, rows)


def age_end(s, rows):
    """AGE_END: the game ends after Age III (AK-E23); else council moves (AK-R37) or a new age."""
    t = s.t
    last = s.age[rows] >= AGES - 1
    s.phase[rows[last]] = DONE
    s.dec[rows[last]] = -1
    rows = rows[~last]
    council = np.isin(s.age[rows] + 1, np.array(t.config.council_moves_after_ages))
    s.ck[rows[council]] = 0
    s.phase[rows[council]] = CSEEK
    s.phase[rows[~council]] = NEWAGE


def council_seek(s, rows):
    """CSEEK: kingdoms in scoring order until a player's council decision or the new age."""
    for _ in range(s.t.K + 1):
        council_seek_one(s, rows)
        rows = rows[s.phase[rows] == CSEEK]
        if not len(rows):
            return


def council_seek_one(s, rows):
    """The next kingdom (scoring order) whose capital owner may move to its council."""
    t = s.t
    j = np.arange(t.K)[None, :]
    order = t.order[None, :]
    cap = s.cap[rows][:, t.order]                                           # [n, K] in scoring order
    room = s.council[rows][:, t.order].sum(axis=2) < t.council_spaces[order]
    cand = (cap >= 0) & room & (j >= s.ck[rows][:, None])
    has = cand.any(axis=1)
    s.phase[rows[~has]] = NEWAGE
    rows, cand, cap = rows[has], cand[has], cap[has]
    jj = np.argmax(cand, axis=1)
    owner = cap[np.arange(len(rows)), jj].astype(np.int64)
    k = t.order[jj]
    bot = owner == t.robot
    if bot.any():
        r = rows[bot]
        if t.config.robot_council_move:
            move_to_council(s, r, k[bot], owner[bot])
        s.ck[r] = jj[bot] + 1
    r = rows[~bot]
    s.ck[r] = jj[~bot]
    s.phase[r] = COUNCIL
    s.dec[r] = owner[~bot]


def move_to_council(s, rows, k, owner):
    """AK-R37, AK-R39: the capital marker moves to the council of the same kingdom (AK-A32)."""
    s.council[rows, k, owner] += 1
    s.cap[rows, k] = -1
    s.st_council[rows, owner] += 1


def council_decision(s, rows, actions):
    """A COUNCIL decision: yes moves the marker; then the next kingdom."""
    t = s.t
    k = t.order[s.ck[rows].astype(np.int64)]
    yes = actions == t.A_YES
    move_to_council(s, rows[yes], k[yes], s.dec[rows[yes]].astype(np.int64))
    s.ck[rows] += 1
    s.phase[rows] = CSEEK


def new_age_start(s, rows) -> np.ndarray:
    """AK-R50, AK-R51, AK-A34: last on the track starts; ties by capital claims, then clockwise."""
    t = s.t
    P = t.P
    track = t.config.start_score + s.pf[rows] + s.ps[rows] + s.pt[rows] + s.pr[rows]
    tied = track == track.min(axis=1, keepdims=True)
    when = s.cap_turn[rows] if t.config.start_tie_capital_scope == "age_just_ended" else s.first_cap[rows]
    claimers = tied & (when < BIG)
    by_claim = np.argmin(np.where(claimers, when, BIG), axis=1)
    seats = (s.age_start[rows].astype(np.int64)[:, None] + np.arange(P)[None, :]) % P
    m = tied[np.arange(len(rows))[:, None], seats]
    by_seat = seats[np.arange(len(rows)), np.argmax(m, axis=1)]
    return np.where(claimers.any(axis=1), by_claim, by_seat)


def new_age(s, rows):
    """NEWAGE (AK-R44..R49, AK-A31, AK-A33): markers back, reshuffle, refills, new decrees."""
    t = s.t
    K, N = t.K, t.N
    start = new_age_start(s, rows)
    s.age[rows] += 1
    s.ordm[rows] = 0
    s.cap[rows] = -1
    s.supply[rows] = t.markers[None, :] - s.council[rows].sum(axis=1)
    in_hand = np.zeros((len(rows), N + 1), dtype=bool)
    hands = s.hand[rows].reshape(len(rows), -1).astype(np.int64)
    in_hand[np.arange(len(rows))[:, None], hands] = True
    cd.shuffle_into_deck(s, rows, ~in_hand[:, :N])
    s.col[rows] = N
    s.clen[rows] = 0
    s.last[rows] = N
    s.disc[rows] = False
    s.bonus[rows] = N
    s.age_start[rows] = start
    cd.refill_in_order(s, rows, np.ones((len(rows), t.P), dtype=bool))
    idx = s.age[rows].astype(np.int64)[:, None] * K + np.arange(K)[None, :]
    s.decree[rows] = np.take_along_axis(s.dorder[rows], idx, axis=1)
    deal_bonus(s, rows)
    s.active[rows] = True
    s.ret_age[rows] = False
    s.age_turns[rows] = 0
    s.last_rel[rows] = -1
    s.cap_turn[rows] = BIG
    s.human_last[rows] = -1
    s.robot_last[rows] = -1
    s.cur[rows] = start
    s.phase[rows] = BEGIN
