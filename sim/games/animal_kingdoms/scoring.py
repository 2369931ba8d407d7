"""Age scoring, battles and the final score sheet.

Rules: AK-E1..E28 with AK-A22..A31 and AK-A35; the peace variant AK-V1..V4 with AK-A36; solo
battles AK-V15..V19 with AK-A40, AK-A41. ``sj`` indexes the scoring order; every kingdom before
the next battle is scored at once, and a tie for first in the standard game turns into battle
decisions, so the scoring of an age may span several steps.
"""
from __future__ import annotations

import numpy as np

from sim.games.animal_kingdoms import cards as cd
from sim.games.animal_kingdoms.state import (
    AGE_END, BCARD, BEND, BMOD, BROUND, RESOLVE, REVEAL, SCORE, SREVEAL, SRESOLVE,
)
from sim.games.animal_kingdoms.turns import counts

TOP = 1 << 20                     # a key above every marker count (battle and peace places)
COMPONENTS = ("score_start", "score_first", "score_second", "score_third", "score_rally",
              "score_retreat", "score_modifiers")
STAT_COLUMNS = ("claims", "rallies", "capitals", "first_retreats", "battles_won", "battles_lost", "council")


def places(cfg, key, present) -> np.ndarray:
    """AK-A22: the place of every seat (last axis) from entries of equal ``key``, highest first."""
    P = key.shape[-1]
    greater = present[..., None, :] & (key[..., None, :] > key[..., :, None])        # [..., p, q]: q ahead of p
    if cfg.placement_mode == "competition":
        return 1 + greater.sum(axis=-1)
    earlier = np.triu(np.ones((P, P), dtype=bool), 1)                              # [i, j]: i < j
    same = present[..., :, None] & present[..., None, :] & (key[..., :, None] == key[..., None, :])
    first_of_value = present & ~(same & earlier).any(axis=-2)
    return 1 + (greater & first_of_value[..., None, :]).sum(axis=-1)


def points(s, rows, tile, place, present):
    """Add the points of places (AK-E4, AK-E6..E8) to the track; ``tile`` broadcasts like ``place``."""
    cfg = s.t.config
    s.pf[rows] += np.where(present & (place == 1), tile, 0).reshape(len(rows), -1, s.t.P).sum(axis=1)
    s.ps[rows] += np.where(present & (place == 2), cfg.second_place_points, 0).reshape(len(rows), -1, s.t.P).sum(axis=1)
    s.pt[rows] += np.where(present & (place == 3), cfg.third_place_points, 0).reshape(len(rows), -1, s.t.P).sum(axis=1)


def leftmost_tile(s, rows, k) -> np.ndarray:
    t = s.t
    fpn = s.fpn[rows, k].astype(np.int64)
    return np.where(fpn < t.T, s.fp[rows, k, np.minimum(fpn, t.T - 1)], 0).astype(np.int64)


def award(s, rows, k, key, present):
    """Places and points of one kingdom ``k`` (per row)."""
    points(s, rows, leftmost_tile(s, rows, k)[:, None], places(s.t.config, key, present), present)


def first_in_order(s, rows, mask) -> np.ndarray:
    """The first seat of ``mask`` (bool[n, P]) clockwise from the age's start player; -1 if none."""
    P = s.t.P
    seats = (s.age_start[rows].astype(np.int64)[:, None] + np.arange(P)[None, :]) % P
    m = mask[np.arange(len(rows))[:, None], seats]
    return np.where(m.any(axis=1), seats[np.arange(len(rows)), np.argmax(m, axis=1)], -1)


def all_counts(s, rows) -> np.ndarray:
    """int[n, K, P]: every seat's markers in every kingdom (AK-E3)."""
    P = s.t.P
    return (s.ordm[rows].astype(np.int64) + (s.cap[rows][:, :, None] == np.arange(P)[None, None, :])
            + s.council[rows])


def score_kingdom(s, rows):
    """SCORE (AK-E2..E10): the kingdoms left in this age's scoring order, up to the next battle.

    Kingdoms without a battle do not interact (points only add up, each removes its own tile),
    so all of them before the first battle are scored at once; a standard-game tie for first
    stops there and starts the battle (AK-E19: it is fought in its turn of the order).
    """
    t, cfg = s.t, s.t.config
    P, K = t.P, t.K
    n = len(rows)
    cnt = all_counts(s, rows)[:, t.order]                  # [n, K, P], kingdoms in scoring order
    present = cnt >= 1
    top = cnt.max(axis=2)
    g1 = present & (cnt == top[..., None])
    tie = g1.sum(axis=2) >= 2
    pending = np.arange(K)[None, :] >= s.sj[rows][:, None]
    key = cnt
    if cfg.peace:                                          # AK-V1..V3, AK-A36
        holder = g1 & (s.cap[rows][:, t.order][..., None] == np.arange(P)) & tie[..., None]
        has = holder.any(axis=2, keepdims=True)
        key = np.where(has & holder, TOP + 1, np.where(has & g1, TOP, cnt))
        if cfg.peace_tied_others == "nothing":
            present = present & ~(has & g1 & ~holder)
        battle = np.zeros_like(tie)
    else:
        battle = tie & pending
    first_battle = np.where(battle.any(axis=1), np.argmax(battle, axis=1), K)
    now = pending & (np.arange(K)[None, :] < first_battle[:, None])
    fpn = s.fpn[rows][:, t.order].astype(np.int64)
    tile = np.where(fpn < t.T, np.take_along_axis(s.fp[rows][:, t.order], np.minimum(fpn, t.T - 1)[..., None],
                                                  axis=2)[..., 0], 0)
    scored = now[..., None] & present
    points(s, rows, tile[..., None], places(cfg, key, scored), scored)
    remove = now & (present.any(axis=2) | cfg.remove_unclaimed_tile)   # AK-E5, AK-A23
    rr = np.repeat(rows, K)[remove.reshape(-1)]
    s.fpn[rr, np.tile(t.order, n)[remove.reshape(-1)]] += 1
    s.sj[rows] = first_battle
    over = first_battle >= K
    s.phase[rows[over]] = AGE_END
    fight = ~over
    rows, j = rows[fight], first_battle[fight]
    if not len(rows):
        return
    g1 = g1[fight, j]
    s.battles[rows] += 1
    s.part[rows] = g1
    s.lost[rows] = False
    s.bfirst[rows] = False
    if t.solo:                                               # AK-V15, AK-A40
        h = t.human
        nocard = s.hand[rows, h, 0] == t.N
        r = rows[nocard]
        s.bfirst[r, t.robot] = True
        s.lost[r, h] = True
        s.phase[r] = BEND
        r = rows[~nocard]
        s.bch[r] = t.N
        s.phase[r] = BCARD
        s.dec[r] = h
    else:
        s.phase[rows] = BROUND


def battle_round(s, rows):
    """BROUND: card-less participants lose or share first (AK-A28); else a round of card choices."""
    t = s.t
    has = s.hand[rows, :, 0] != t.N
    part = s.part[rows]
    allnone = ~(part & has).any(axis=1)
    r = rows[allnone]
    s.bfirst[r] = s.part[r]
    s.phase[r] = BEND
    rows, part, has = rows[~allnone], part[~allnone], has[~allnone]
    s.lost[rows] |= part & ~has
    part = part & has
    s.part[rows] = part
    one = part.sum(axis=1) == 1
    r = rows[one]
    s.bfirst[r] = s.part[r]
    s.phase[r] = BEND
    rows = rows[~one]
    s.bch[rows] = t.N
    s.phase[rows] = BCARD
    s.dec[rows] = first_in_order(s, rows, s.part[rows])


def battle_card(s, rows, actions):
    """A BCARD decision: the decider's secret card; the next participant, or the reveal."""
    t = s.t
    p = s.dec[rows].astype(np.int64)
    s.bch[rows, p] = s.hand[rows, p, actions.astype(np.int64) - t.A_BATTLE]
    if t.solo:
        s.phase[rows] = SREVEAL
        return
    nxt = first_in_order(s, rows, s.part[rows] & (s.bch[rows] == t.N))
    more = nxt >= 0
    s.dec[rows[more]] = nxt[more]
    s.phase[rows[~more]] = REVEAL


def reveal(s, rows):
    """REVEAL (AK-A24): the chosen cards leave the hands; holders of modifiers decide (AK-A25)."""
    t = s.t
    for p in range(t.P):
        m = s.part[rows, p]
        if m.any():
            r = rows[m]
            cd.remove_from_hand(s, r, np.full(len(r), p), s.bch[r, p])
    asking = s.part[rows] & (s.mods[rows] > 0)
    s.bmod[rows] = np.where(asking, -1, 0)
    ask = asking.any(axis=1)
    r = rows[ask]
    s.phase[r] = BMOD
    s.dec[r] = first_in_order(s, r, asking[ask])
    s.phase[rows[~ask]] = RESOLVE


def battle_mods(s, rows, actions):
    """A BMOD decision: the decider's secret number of modifiers."""
    t = s.t
    p = s.dec[rows].astype(np.int64)
    s.bmod[rows, p] = actions - t.A_MODS
    if t.solo:
        s.phase[rows] = SRESOLVE
        return
    nxt = first_in_order(s, rows, s.part[rows] & (s.bmod[rows] < 0))
    more = nxt >= 0
    s.dec[rows[more]] = nxt[more]
    s.phase[rows[~more]] = RESOLVE


def one_eight(t, rank, value):
    if t.config.one_beats_eight_uses == "printed_rank":
        return rank == 1, rank == 8
    return value == 1, value == 8


def resolve(s, rows):
    """RESOLVE (AK-E12..E15, AK-A26, AK-A27): values, eliminations, winners of the round."""
    t, cfg = s.t, s.t.config
    part = s.part[rows]
    used = np.where(part, s.bmod[rows], 0).astype(np.int64)
    s.mods[rows] -= used.astype(np.int16)
    s.msup[rows] += used.sum(axis=1).astype(np.int16)
    ch = s.bch[rows].astype(np.int64)
    rank = t.rank[ch].astype(np.int64)
    value = rank + cfg.modifier_value * used
    one, eight = one_eight(t, rank, value)
    one, eight = one & part, eight & part
    if cfg.multiway_battle == "eliminate_eights":
        remaining = part & ~(one.any(axis=1, keepdims=True) & eight)
    else:
        value = np.where(one & eight.any(axis=1, keepdims=True), 9 + cfg.modifier_value * used, value)
        remaining = part
    best = np.where(remaining, value, -1).max(axis=1)
    winners = remaining & (value == best[:, None])
    s.lost[rows] |= part & ~winners
    rr = np.repeat(rows, t.P)[part.reshape(-1)]
    s.disc[rr, ch[part]] = True
    s.bch[rows] = t.N
    s.part[rows] = winners
    one_left = winners.sum(axis=1) == 1
    r = rows[one_left]
    s.bfirst[r] = winners[one_left]
    s.phase[r] = BEND
    s.phase[rows[~one_left]] = BROUND


def solo_reveal(s, rows):
    """SREVEAL (AK-V16, AK-V19, AK-A40): the human's card is revealed, the robot's cards drawn."""
    t = s.t
    h = t.human
    cd.remove_from_hand(s, rows, np.full(len(rows), h), s.bch[rows, h])
    s.rcards[rows] = t.N
    for i in range(t.battle_cards):
        s.rcards[rows, i] = cd.draw_one(s, rows)
    ask = s.mods[rows, h] > 0
    s.bmod[rows, h] = np.where(ask, -1, 0)
    s.phase[rows[ask]] = BMOD
    s.dec[rows[ask]] = h
    s.phase[rows[~ask]] = SRESOLVE


def solo_resolve(s, rows):
    """SRESOLVE (AK-V17, AK-A40): does any robot card beat the human's?"""
    t, cfg = s.t, s.t.config
    h, rb = t.human, t.robot
    used = s.bmod[rows, h].astype(np.int64)
    s.mods[rows, h] -= used.astype(np.int16)
    s.msup[rows] += used.astype(np.int16)
    hc = s.bch[rows, h].astype(np.int64)
    h_rank = t.rank[hc].astype(np.int64)
    h_value = h_rank + cfg.modifier_value * used
    h_one, h_eight = one_eight(t, h_rank, h_value)
    rc = s.rcards[rows].astype(np.int64)
    rr = t.rank[rc].astype(np.int64)
    real = rc != t.N
    higher = (rr > h_value[:, None]) | ((rr == h_value[:, None]) & (cfg.robot_equal_rank == "robot_wins"))
    beats = real & (((rr == 1) & h_eight[:, None]) | (~(h_one[:, None] & (rr == 8)) & higher))
    robot_wins = beats.any(axis=1)
    s.disc[rows, hc] = True
    rrow = np.repeat(rows, t.RC)[real.reshape(-1)]
    s.disc[rrow, rc[real]] = True
    s.rcards[rows] = t.N
    s.bch[rows] = t.N
    winner = np.where(robot_wins, rb, h)
    loser = np.where(robot_wins, h, rb)
    s.bfirst[rows] = False
    s.lost[rows] = False
    s.bfirst[rows, winner] = True
    s.lost[rows, loser] = True
    s.phase[rows] = BEND


def battle_end(s, rows):
    """BEND: modifiers to losers (AK-E20, AK-A29), refills (AK-E21, AK-A31), places (AK-E17, AK-E18)."""
    t, cfg = s.t, s.t.config
    P = t.P
    for d in range(P):
        seat = (s.age_start[rows].astype(np.int64) + d) % P
        give = s.lost[rows, seat] & (s.msup[rows] > 0)
        if t.solo:
            give &= (seat == t.human) | cfg.robot_receives_modifiers
        r = rows[give]
        s.mods[r, seat[give]] += 1
        s.msup[r] -= 1
    took_part = s.bfirst[rows] | s.lost[rows]
    cd.refill_in_order(s, rows, took_part)
    s.st_battles_won[rows] += s.bfirst[rows]
    s.st_battles_lost[rows] += s.lost[rows]
    k = t.order[s.sj[rows].astype(np.int64)]
    cnt = counts(s, rows, k)
    key = np.where(s.bfirst[rows], TOP + 2, np.where(s.lost[rows], TOP + 1, cnt))
    award(s, rows, k, key, cnt >= 1)
    s.fpn[rows, k] += 1
    s.sj[rows] += 1
    s.part[rows] = False
    s.lost[rows] = False
    s.bfirst[rows] = False
    s.phase[rows] = SCORE


# ---- the end of the game -------------------------------------------------------------------

def final_sheet(s) -> dict:
    """Per-seat score components, score, rank and win share (AK-E23..E28, AK-A35, AK-A41)."""
    t, cfg = s.t, s.t.config
    B, P = s.batch, t.P
    retreat = np.zeros((B, P), dtype=np.int64)
    for a in range(3):
        owner = s.rt_owner[:, a].astype(np.int64)
        has = owner >= 0
        retreat[np.nonzero(has)[0], owner[has]] += s.rt[has, a] + cfg.first_retreat_shift
    comp = {"score_start": np.full((B, P), cfg.start_score, dtype=np.int64),
            "score_first": s.pf.astype(np.int64), "score_second": s.ps.astype(np.int64),
            "score_third": s.pt.astype(np.int64), "score_rally": s.pr.astype(np.int64),
            "score_retreat": retreat,
            "score_modifiers": s.mods.astype(np.int64) * cfg.modifier_endgame_points}
    score = sum(comp.values())
    if cfg.final_tiebreak == "largest_capital_age3":
        held = s.cap[:, :, None] == np.arange(P)[None, None, :]              # [B, K, P]
        tie = np.where(held, t.size[None, :, None], 0).max(axis=1)
    else:
        tie = np.zeros((B, P), dtype=np.int64)
    key = score * 1000 + tie
    rank = 1 + (key[:, None, :] > key[:, :, None]).sum(axis=2)
    winners = rank == 1
    out = dict(comp)
    out["score"] = score
    out["rank"] = rank
    out["win_share"] = winners / winners.sum(axis=1, keepdims=True)
    out["tiebreak"] = tie
    return out
