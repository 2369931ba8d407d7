"""``position_value``: a quick estimate of how good a position is for a seat (lookahead strategy).

value = ``score`` x (points sure so far: track, own first-retreat tiles, modifiers)
      + ``standing`` x (points the seat would score if the age were scored now, AK-E3..E8, a
        tie for first counted as half the tile)
      + ``hand`` x (sum of hand ranks / H: battle strength, AK-E11)
      + ``supply`` x (markers left in supply / markers per player)
      - ``opponents`` x (the best other seat's score + standing)
Default weights: score 1, standing 1, hand 0, supply 0, opponents 0.5. The estimate reads only
what the seat may know in the sampled state (other seats' tile values are sampled there).
"""
from __future__ import annotations

import numpy as np

from sim.games.animal_kingdoms.turns import counts

DEFAULTS = {"score": 1.0, "standing": 1.0, "hand": 0.0, "supply": 0.0, "opponents": 0.5}


def standing(s) -> np.ndarray:
    """float[B, P]: points each seat would get if the current age were scored now."""
    t, cfg = s.t, s.t.config
    B, P = s.batch, t.P
    rows = np.arange(B)
    out = np.zeros((B, P))
    for k in range(t.K):
        cnt = counts(s, rows, np.full(B, k))
        present = cnt >= 1
        higher = (present[:, None, :] & (cnt[:, None, :] > cnt[:, :, None])).sum(axis=2)
        tied = (present & (cnt == cnt.max(axis=1, keepdims=True))).sum(axis=1, keepdims=True)
        fpn = np.minimum(s.fpn[:, k].astype(np.int64), t.T - 1)
        tile = s.fp[rows, k, fpn].astype(float)[:, None]
        first = present & (higher == 0)
        out += np.where(first, np.where(tied > 1, tile / 2, tile), 0)
        out += np.where(present & (higher == 1), cfg.second_place_points, 0)
        out += np.where(present & (higher == 2), cfg.third_place_points, 0)
    return out


def sure_points(s) -> np.ndarray:
    cfg = s.t.config
    pts = (s.pf + s.ps + s.pt + s.pr).astype(float) + cfg.start_score
    pts += s.mods * cfg.modifier_endgame_points
    for a in range(3):
        owner = s.rt_owner[:, a].astype(np.int64)
        has = owner >= 0
        pts[np.nonzero(has)[0], owner[has]] += s.rt[has, a] + cfg.first_retreat_shift
    return pts


def position_value(s, players, weights) -> np.ndarray:
    t = s.t
    w = {**DEFAULTS, **(weights or {})}
    unknown = set(w) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown position_value weights {sorted(unknown)}; expected {sorted(DEFAULTS)}")
    B = s.batch
    rows = np.arange(B)
    me = np.asarray(players, dtype=np.int64)
    base = w["score"] * sure_points(s) + w["standing"] * standing(s)
    own = base[rows, me]
    others = np.where(np.arange(t.P)[None, :] == me[:, None], -np.inf, base).max(axis=1)
    hand = s.hand[rows, me].astype(np.int64)
    strength = np.where(hand < t.N, t.rank[np.minimum(hand, t.N)], 0).sum(axis=1) / t.H
    supply = s.supply[rows, me] / max(1, t.config.markers_per_player)
    return own + w["hand"] * strength + w["supply"] * supply - w["opponents"] * np.where(np.isfinite(others), others, 0)
