"""Scripted Animal Kingdoms plans: each scores every legal action from the observation alone.

All plans share one evaluation (``PlanParams``) and differ in their default weights:

* ``ak_greedy``: claims where a marker gains most places now (AK-E4..E8), rallies a little.
* ``ak_capital_hunter``: values capitals of large kingdoms (AK-R14, AK-R16, AK-E28).
* ``ak_spreader``: enters many kingdoms for second and third places (AK-E6..E8).
* ``ak_early_retreat``: retreats after a few claims while the first-retreat tile is free (AK-R34).

A claim's value is the change in the points the kingdom would give the player if the age
were scored now, plus the plan's bonuses, minus a cost for the card's rank (high cards win
battles, AK-E12). Rally when no claim is worth ``rally_below`` (discarding the cards no decree
allows, else the lowest); retreat when nothing is worth ``retreat_below``. Battles: the highest
card; modifiers: the fewest that beat every revealed card. Every number comes from the
experiment file (``params``); the plans read only the observation (hidden information is
never in it, ``sim/games/animal_kingdoms/observe.py``).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from strategies import registry
from strategies.base import Strategy, argmax_tiebreak


@dataclasses.dataclass(frozen=True)
class PlanParams:
    first: float = 1.0           # x tile value when the claim makes the player sole first
    tie: float = 0.5             # x tile value when it makes the player tied first
    second: float = 1.0          # x second-place points when it makes the player second
    third: float = 1.0           # x third-place points
    capital: float = 0.0         # x kingdom size for a claim that takes the capital
    size: float = 0.0            # x kingdom size for any claim
    spread: float = 0.0          # bonus for a first marker in a kingdom
    card: float = 0.3            # cost per rank / 8 of the card played
    rally_below: float = 0.5     # rally if the best claim is worth less (and rallying is legal)
    max_rallies: int = 2         # rallies per game at most
    retreat_below: float = -1.0  # retreat if the best claim and the rally are worth less
    retreat_after: int = 1000    # retreat after this many claims in the age ...
    only_for_tile: bool = False  # ... only while the age's first-retreat tile is still free
    council: bool = True         # move capital markers to councils (AK-R37)

    def validate(self):
        if self.max_rallies < 0:
            return "max_rallies", "expected a number >= 0"
        if self.retreat_after < 0:
            return "retreat_after", "expected a number >= 0"
        return None


class _Plan(Strategy):
    """The shared evaluation; subclasses set ``name`` and ``Params`` (with other defaults)."""

    games = ("animal_kingdoms",)
    Params = PlanParams

    def act(self, obs, legal, rng):
        t = obs.t
        b = len(obs.player)
        values = np.zeros((b, t.A))
        phase = obs.phase
        turn = phase == 0
        if turn.any():
            values[turn] = self.turn_values(obs, turn, legal[turn])
        card = phase == 1
        if card.any():
            ranks = np.where(obs.hand[card] < t.N, t.rank[np.minimum(obs.hand[card], t.N)], -1)
            values[card, t.A_BATTLE:t.A_BATTLE + t.H] = ranks
        mods = phase == 2
        if mods.any():
            values[mods, t.A_MODS:t.A_MODS + t.M + 1] = self.mod_values(obs, mods)
        council = phase == 3
        if council.any():
            values[council, t.A_YES] = 1.0 if self.params.council else -1.0
        return argmax_tiebreak(values, legal, rng.uniform(t.A))

    # ---- a turn ------------------------------------------------------------------------
    def turn_values(self, obs, m, legal):
        t, w = obs.t, self.params
        cfg = t.config
        n = int(m.sum())
        me = obs.player[m]
        ar = np.arange(n)
        hand = obs.hand[m]                                           # [n, H]
        cnt = (obs.ordm[m].astype(np.int64) + (obs.cap[m][:, :, None] == np.arange(t.P)) + obs.council[m])
        mine = cnt[ar, :, me]                                        # [n, K]
        others = np.where(np.arange(t.P)[None, None, :] == me[:, None, None], -1, cnt)
        fpn = np.minimum(obs.fpn[m].astype(np.int64), t.T - 1)
        tile = np.take_along_axis(obs.fp[m], fpn[..., None], axis=2)[..., 0].astype(float)

        def worth(x):                                                # [n, K] points for x markers
            ahead = (others > x[..., None]).sum(axis=2)
            level = (others == x[..., None]).sum(axis=2)
            present = x >= 1
            v = np.where(ahead == 0, np.where(level == 0, w.first, w.tie) * tile, 0.0)
            v = np.where(ahead == 1, w.second * cfg.second_place_points, v)
            v = np.where(ahead == 2, w.third * cfg.third_place_points, v)
            return np.where(present, v, 0.0)

        gain = worth(mine + 1) - worth(mine)                         # [n, K]
        ordinary_full = obs.ordm[m].sum(axis=2) >= t.size[None, :] - 1
        capital = ordinary_full & (obs.cap[m] < 0)
        bonus = gain + w.size * t.size + w.capital * t.size * capital + w.spread * (mine == 0)
        rank = np.where(hand < t.N, t.rank[np.minimum(hand, t.N)], 0)
        claim = bonus[:, None, :] - w.card * rank[:, :, None] / 8.0  # [n, H, K]
        values = np.full((n, t.A), -1e9)
        values[:, :t.A_RALLY] = claim.reshape(n, -1)
        best = np.where(legal[:, :t.A_RALLY], values[:, :t.A_RALLY], -1e9).max(axis=1)
        # rally: discard the cards no kingdom allows now, else the lowest card
        playable = legal[:, :t.A_RALLY].reshape(n, t.H, t.K).any(axis=2)
        valid = hand < t.N
        dead = valid & ~playable
        lowest = np.argmin(np.where(valid, rank, 99), axis=1)
        want = np.where(dead.any(axis=1, keepdims=True), dead, np.arange(t.H)[None, :] == lowest[:, None])
        subset = (want * (1 << np.arange(t.H))[None, :]).sum(axis=1)
        may_rally = (best < w.rally_below) & (obs.st_rallies[m][ar, me] < w.max_rallies)
        rally_value = np.where(may_rally, w.rally_below, -1e8)
        values[ar, t.A_RALLY + np.maximum(subset, 1) - 1] = rally_value
        # retreat
        claims_now = obs.ordm[m][ar, :, me].sum(axis=1) + (obs.cap[m] == me[:, None]).sum(axis=1)
        tile_free = obs.rt_owner[m][ar, obs.age[m].astype(np.int64)] < 0
        early = (claims_now >= w.retreat_after) & (tile_free | (not w.only_for_tile))
        values[:, t.A_RETREAT] = np.where(early, 1e9, w.retreat_below)
        return values

    # ---- modifiers after the reveal ----------------------------------------------------
    def mod_values(self, obs, m):
        """Use the fewest modifiers that beat every revealed opposing card (else none)."""
        t = obs.t
        n = int(m.sum())
        me = obs.player[m]
        ar = np.arange(n)
        rev = obs.revealed[m].astype(np.int64)
        mine = t.rank[np.minimum(rev[ar, me], t.N)].astype(np.int64)
        opp = np.where(np.arange(t.P)[None, :] == me[:, None], t.N, rev)
        if t.solo:
            opp = obs.rcards[m].astype(np.int64)
        opp_rank = np.where(opp < t.N, t.rank[np.minimum(opp, t.N)], 0)
        need_value = opp_rank.max(axis=1) + (0 if t.solo else 1)     # robot needs > value to beat
        k = np.arange(t.M + 1)[None, :]
        value = mine[:, None] + t.config.modifier_value * k
        held = obs.mods[m][ar, me][:, None]
        wins = (value >= need_value[:, None]) & (k <= held)
        first_win = np.where(wins.any(axis=1), np.argmax(wins, axis=1), 0)
        return -np.abs(k - first_win[:, None]).astype(float)


class Greedy(_Plan):
    name = "ak_greedy"


@dataclasses.dataclass(frozen=True)
class CapitalParams(PlanParams):
    capital: float = 1.5
    size: float = 0.3
    card: float = 0.2


class CapitalHunter(_Plan):
    name = "ak_capital_hunter"
    Params = CapitalParams


@dataclasses.dataclass(frozen=True)
class SpreadParams(PlanParams):
    first: float = 0.7
    second: float = 1.5
    third: float = 1.5
    spread: float = 2.0


class Spreader(_Plan):
    name = "ak_spreader"
    Params = SpreadParams


@dataclasses.dataclass(frozen=True)
class EarlyParams(PlanParams):
    retreat_after: int = 3
    only_for_tile: bool = True
    max_rallies: int = 0


class EarlyRetreat(_Plan):
    name = "ak_early_retreat"
    Params = EarlyParams


for _cls in (Greedy, CapitalHunter, Spreader, EarlyRetreat):
    registry.register(_cls.name, f"strategies.animal_kingdoms:{_cls.__name__}")
