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
from strategies import animal_kingdoms_kernel as K
from strategies.base import Strategy


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
    """The shared evaluation; subclasses set ``name`` and ``Params`` (with other defaults).

    ``act`` is one numba kernel over the observation arrays (``strategies.animal_kingdoms_kernel``):
    per game it scores only what the decision needs and picks the best legal action, ties broken
    by this decision's keyed uniforms (the same choice as ``argmax_tiebreak`` over every action).
    """

    games = ("animal_kingdoms",)
    Params = PlanParams

    def __init__(self, game, content, params):
        super().__init__(game, content, params)
        self._packed = {}            # Tables id -> (tables, ip, fw)

    def _pack(self, t):
        """The kernel's integer layout and float weights for the tables ``t`` (built once per tables)."""
        got = self._packed.get(id(t))
        if got is not None and got[0] is t:
            return got[1], got[2]
        w, cfg = self.params, t.config
        ip = np.zeros(15, dtype=np.int64)
        ip[[K.I_N, K.I_K, K.I_H, K.I_P, K.I_M, K.I_T]] = t.N, t.K, t.H, t.P, t.M, t.T
        ip[[K.I_A_RALLY, K.I_A_RETREAT, K.I_A_BATTLE, K.I_A_MODS, K.I_A_YES]] = (
            t.A_RALLY, t.A_RETREAT, t.A_BATTLE, t.A_MODS, t.A_YES)
        ip[[K.I_SOLO, K.I_ONLY_TILE, K.I_COUNCIL, K.I_MODVAL]] = (
            bool(t.solo), bool(w.only_for_tile), bool(w.council), cfg.modifier_value)
        fw = np.zeros(12, dtype=np.float64)
        fw[K.F_FIRST], fw[K.F_TIE] = w.first, w.tie
        fw[K.F_SECOND] = w.second * cfg.second_place_points
        fw[K.F_THIRD] = w.third * cfg.third_place_points
        fw[K.F_CAPITAL], fw[K.F_SIZE], fw[K.F_SPREAD], fw[K.F_CARD] = w.capital, w.size, w.spread, w.card
        fw[K.F_RALLY_BELOW], fw[K.F_RETREAT_BELOW] = w.rally_below, w.retreat_below
        fw[K.F_MAX_RALLIES], fw[K.F_RETREAT_AFTER] = w.max_rallies, w.retreat_after
        self._packed[id(t)] = (t, ip, fw)
        return ip, fw

    def act(self, obs, legal, rng):
        ip, fw = self._pack(obs.t)
        return _choose(obs, legal, rng, np.zeros(len(obs.player), dtype=np.int64), ip[None], fw[None])

    @classmethod
    def act_group(cls, members, which, obs, legal, rng):
        """Every plan's rows in one kernel call (row i decided by ``members[which[i]]``)."""
        packs = [m._pack(obs.t) for m in members]
        ips = np.stack([p[0] for p in packs])
        fws = np.stack([p[1] for p in packs])
        return _choose(obs, legal, rng, np.asarray(which, dtype=np.int64), ips, fws)


_Plan.group = _Plan


def _choose(obs, legal, rng, which, ips, fws):
    t = obs.t
    return K.choose(obs.player, obs.phase, np.ascontiguousarray(legal), rng.keys, rng.counter, obs.hand,
                    obs.ordm, obs.cap, obs.council, obs.fpn, obs.fp, obs.st_rallies, obs.rt_owner, obs.age,
                    obs.revealed, obs.rcards, obs.mods, t.rank, t.size, which, ips, fws)


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
