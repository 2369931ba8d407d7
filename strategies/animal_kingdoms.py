"""Scripted Animal Kingdoms plans: each scores every legal action from the observation alone.

All plans share one evaluation (``PlanParams``) and differ in their default weights:

* ``ak_greedy``: claims where a marker gains most places now (AK-E4..E8).
* ``ak_capital_hunter``: values capitals of large kingdoms for their council markers (AK-R37,
  AK-R40) and weighs the retreat a capital claim forces (AK-R16, AK-R34): it claims one when
  that pays.
* ``ak_spreader``: enters many kingdoms for second and third places (AK-E6..E8).
* ``ak_early_retreat``: retreats for the first-retreat tile (AK-R34) as soon as no claim is
  worth more than the tile.

A claim's value is the change in the points the kingdom would give the player if the age
were scored now (a tie for first counts as the battle's chance of the tile, else second place
and a modifier, AK-E10..E20), plus the plan's bonuses, minus a cost for the card's rank (high
cards win battles, AK-E12). A rally is worth its point plus ``redraw`` per card no kingdom
allows now (those are discarded); a retreat is worth the expected first-retreat tile x
``retreat_tile`` while the age's tile is free, else ``retreat_below``; a capital claim's forced
retreat counts x ``forced``. Battles: the card with the best chance to win against the unseen
cards the others may hold, by the round's rule with any number of players (a 1 when an 8 is
likely, a low card when it is enough, AK-E12, AK-E13, AK-A27), less its cost; modifiers: the
fewest that beat every revealed card. Every number comes from the experiment file (``params``); the plans read
only the observation (hidden information is never in it, ``sim/games/animal_kingdoms/observe.py``).
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
    tie: float = 0.5             # chance to win a two-way battle when the claim ties for first
    solo_tie: float = 0.15       # the same against the robot (solo; it keeps adding markers, AK-V6..V14)
    second: float = 1.0          # x second-place points when it makes the player second
    third: float = 1.0           # x third-place points
    capital: float = 0.0         # x size x later ages / 2 for a claim that takes the capital (its council marker)
    size: float = 0.0            # x kingdom size for any claim
    spread: float = 0.0          # bonus for a first marker in a kingdom
    card: float = 0.3            # cost per rank / 8 of the card played (claims and battles)
    rally: float = 1.0           # x rally points: a rally's worth (AK-R29)
    redraw: float = 0.5          # per card a rally discards that no kingdom allows now (AK-R30)
    max_rallies: int = 3         # rallies per game at most
    retreat_tile: float = 0.0    # x expected first-retreat tile: a retreat's worth while the tile is free (0: off) ...
    forfeit: float = 12.0        # ... less this x the player's share of the free board (the rest of the age)
    retreat_below: float = -1.0  # a retreat's worth otherwise
    forced: float = 0.0          # x a capital claim's forced retreat (AK-R16): tile while free less the rest of the age
    council: bool = True         # move capital markers to councils (AK-R37)

    def validate(self):
        if self.max_rallies < 0:
            return "max_rallies", "expected a number >= 0"
        for name in ("tie", "solo_tie"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                return name, "expected a chance between 0 and 1"
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
        ip = np.zeros(K.NI, dtype=np.int64)
        ip[[K.I_N, K.I_K, K.I_H, K.I_P, K.I_M, K.I_T]] = t.N, t.K, t.H, t.P, t.M, t.T
        ip[[K.I_A_RALLY, K.I_A_RETREAT, K.I_A_BATTLE, K.I_A_MODS, K.I_A_YES]] = (
            t.A_RALLY, t.A_RETREAT, t.A_BATTLE, t.A_MODS, t.A_YES)
        ip[[K.I_SOLO, K.I_ROBOT_CARDS, K.I_COUNCIL, K.I_MODVAL]] = (
            bool(t.solo), t.battle_cards, bool(w.council), cfg.modifier_value)
        ip[[K.I_PEACE, K.I_PEACE_NOTHING, K.I_BY_VALUE, K.I_NINE]] = (
            bool(cfg.peace), cfg.peace_tied_others == "nothing", cfg.one_beats_eight_uses == "battle_value",
            cfg.multiway_battle == "one_counts_as_nine")
        tile = float(np.mean(t.content.first_retreat)) + cfg.first_retreat_shift   # a set-aside tile, unseen
        fw = np.zeros(K.NF, dtype=np.float64)
        fw[K.F_FIRST], fw[K.F_TIE] = w.first, (w.solo_tie if t.solo else w.tie)
        fw[K.F_SECOND] = w.second * cfg.second_place_points
        fw[K.F_THIRD] = w.third * cfg.third_place_points
        fw[K.F_CAPITAL], fw[K.F_SIZE], fw[K.F_SPREAD], fw[K.F_CARD] = w.capital, w.size, w.spread, w.card
        fw[K.F_RALLY], fw[K.F_REDRAW] = w.rally * cfg.rally_points, w.redraw
        fw[K.F_RETREAT_BELOW], fw[K.F_MAX_RALLIES] = w.retreat_below, w.max_rallies
        fw[K.F_RETREAT_TILE], fw[K.F_FORFEIT] = w.retreat_tile * tile, w.forfeit
        fw[K.F_TILE], fw[K.F_FORCED] = tile, w.forced
        fw[K.F_MODIFIER] = cfg.modifier_endgame_points
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
                    obs.hand_count, obs.ordm, obs.cap, obs.council, obs.fpn, obs.fp, obs.st_rallies, obs.rt_owner,
                    obs.age, obs.active, obs.supply, obs.col, obs.disc, obs.bonus, obs.revealed, obs.rcards,
                    obs.part, obs.lost, obs.mods, obs.sj, t.order, t.rank, t.size, which, ips, fws)


class Greedy(_Plan):
    name = "ak_greedy"


@dataclasses.dataclass(frozen=True)
class CapitalParams(PlanParams):
    capital: float = 1.5
    size: float = 0.3
    card: float = 0.2
    forced: float = 1.0


class CapitalHunter(_Plan):
    name = "ak_capital_hunter"
    Params = CapitalParams


@dataclasses.dataclass(frozen=True)
class SpreadParams(PlanParams):
    first: float = 1.2           # a lead above second place (1.5 x 3) for every tile (4..10, AK-A21)
    second: float = 1.5
    third: float = 1.5
    spread: float = 2.0


class Spreader(_Plan):
    name = "ak_spreader"
    Params = SpreadParams


@dataclasses.dataclass(frozen=True)
class EarlyParams(PlanParams):
    retreat_tile: float = 1.0
    max_rallies: int = 1


class EarlyRetreat(_Plan):
    name = "ak_early_retreat"
    Params = EarlyParams


for _cls in (Greedy, CapitalHunter, Spreader, EarlyRetreat):
    registry.register(_cls.name, f"strategies.animal_kingdoms:{_cls.__name__}")
