"""Scripted Explorers of Navoria plans: each scores every legal action from the observation alone.

All plans share one value model (``PlanParams``, compiled in ``strategies.explorers_of_navoria_kernel``,
whose docstring describes it) and differ only in their default weights; every weight can be set
in the experiment file under a seat's ``params``. Plans (docs/explorers_of_navoria_strategies.md):

* ``en_traders``: traders and income: traders of the peoples whose symbols it holds, cards with
  symbols of those peoples (EN-R62), the favour races those symbols lead to (EN-R107).
* ``en_builders``: builders and soldiers: trading posts (EN-R64..R73) on the tracks of its
  soldiers (EN-R76), uncovering dock rewards (EN-R97), a farther start for the markers.
* ``en_adventurers``: adventurers and treasures: steps, flags (EN-R82), exploration places
  (EN-R41..R47) and treasures (EN-R103..R106), and the posts that keep its markers' progress
  for the next rounds (EN-R49).
* ``en_artisans``: orders and artisans: goods that complete orders (EN-R94..R98), per-artisan
  order rewards (EN-R85).
* ``en_balanced``: the same model without a plan bias; the all-rounder.

Decisions: RECRUIT (each card in a usable offer by its value, plus the city space its token
opens: worth ``block`` x the space's value if the decider will collect it, minus that if another
player will; the bag method by the expected best card of two tokens drawn from the public bag
content), COLLECT (each free city space by its reward; ``foresight`` and ``deny`` add the rest of
the collect phase played out after it: the decider's own later takes, and the others' takes,
less), TRACK (steps or build on each track), GOODS (the placement whose docks gain most:
completed orders first), ALT (the better side). The plans read only ``obs.m`` (public) and the
tables; the hidden pile order is never read (``sim/games/explorers_of_navoria/observe.py``).
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from sim.core.memo import per_object
from strategies import explorers_of_navoria_kernel as K
from strategies import registry
from strategies.base import Strategy

_RANGE = (-1000.0, 1000.0)


def _w(default: float):
    return dataclasses.field(default=default, metadata={"range": _RANGE})


@dataclasses.dataclass(frozen=True)
class PlanParams:
    """Weights of the value model (points-equivalents; the ``K.F_*`` slots in this order)."""

    points: float = _w(1.0)              # immediate points (cards, city, orders)
    treasure: float = _w(1.6)            # x treasure payouts (EN-R103..R106)
    flags: float = _w(1.0)               # x flags gained x adventurers held (this round's income)
    flag_bonus: float = _w(0.3)          # per flag gained, for adventurers still to come
    exploration: float = _w(0.5)         # x change of this round's exploration reward (EN-R41)
    step: float = _w(1.6)                # per space a marker moves
    trader: float = _w(1.6)              # x projected income of a new trader (EN-R62)
    trader_growth: float = _w(0.9)       # symbols of its people expected per card still to come
    symbol_income: float = _w(1.75)      # x income a new symbol adds to the traders held
    symbol: float = _w(0.1)              # per people symbol of a card
    favour: float = _w(1.45)             # x favour points won now / per card on a held tile (EN-E4)
    favour_progress: float = _w(1.1)     # x favour points x share of the 5 symbols a card brings
    favour_future: float = _w(2.35)      # tile-kind cards expected per card still to come x kinds / 5
    soldier: float = _w(0.65)            # x soldier end points with the posts built (EN-R76)
    soldier_future: float = _w(0.15)     # x soldier end points for the posts still possible x time left
    build: float = _w(0.15)              # per post built
    uncover: float = _w(0.3)             # x uncovered dock reward x expected fulfilments (EN-R97)
    base: float = _w(2.7)                # per space the marker starts farther in later rounds (EN-R49)
    adventurer: float = _w(1.0)          # x projected flag income of a new adventurer (EN-R82)
    adventurer_growth: float = _w(1.45)  # flags per later round expected beyond the start
    order: float = _w(0.5)               # x rewards of an order completed (EN-R96, EN-R97)
    progress: float = _w(0.55)           # x order rewards per good toward an order
    artisan: float = _w(0.2)             # x per-artisan dock points x expected fulfilments (EN-R85)
    fulfil_rate: float = _w(3.0)         # fulfilments of a dock expected over a whole game
    lost_good: float = _w(0.0)           # per good that cannot be placed (EN-A13)
    draw: float = _w(0.0)                # bonus of the bag method over a city-centre token
    city_points: float = _w(0.0)         # extra per point of a city space
    bias_traders: float = _w(0.0)        # bonus per card of each colour (the plan's aim)
    bias_builders: float = _w(0.0)
    bias_soldiers: float = _w(0.0)
    bias_adventurers: float = _w(0.0)
    bias_artisans: float = _w(0.0)
    dock_fill: float = _w(0.5)           # extra fulfilments expected per full dock's worth of goods on it
    progress_horizon: float = _w(4.0)    # own turns left below which partial orders fade
    block: float = _w(0.3)               # x value of the city space a recruit's token opens: + if the
                                         # decider will collect it, - if another player will (EN-R25)
    foresight: float = _w(0.0)           # collect: x the decider's own later takes of the phase played out
    deny: float = _w(0.0)                # collect: x the others' later takes (per opponent), less (EN-R25)

    def validate(self):
        for f in dataclasses.fields(self):
            if not math.isfinite(getattr(self, f.name)):
                return f.name, "expected a finite number"
        for name in ("fulfil_rate", "favour_future", "trader_growth", "dock_fill"):
            if getattr(self, name) < 0:
                return name, "expected a number >= 0"
        if self.progress_horizon <= 0:
            return "progress_horizon", "expected a number > 0"
        return None


FIELDS = tuple(f.name for f in dataclasses.fields(PlanParams))
assert len(FIELDS) == K.NF and FIELDS.index("bias_traders") == K.F_BIAS and FIELDS.index("draw") == K.F_DRAW
assert FIELDS.index("dock_fill") == K.F_DOCK_FILL and FIELDS.index("progress_horizon") == K.F_HORIZON
assert FIELDS.index("block") == K.F_BLOCK and FIELDS.index("deny") == K.F_DENY


def weights(params) -> np.ndarray:
    """float64[NF]: the kernel's weight row of a plan's parameters."""
    return np.array([float(getattr(params, f)) for f in FIELDS], dtype=np.float64)


class _Plan(Strategy):
    """The shared evaluation; subclasses set ``name`` and ``Params`` (other defaults).

    ``act`` is one numba kernel over the observation (``K.choose``): per game it scores only the
    legal actions of the decision and picks the best, ties broken by this decision's keyed
    uniforms (the same choice as ``argmax_tiebreak`` over every action).
    """

    games = ("explorers_of_navoria",)
    Params = PlanParams

    def __init__(self, game, content, params):
        super().__init__(game, content, params)
        self.fw = weights(params)

    def act(self, obs, legal, rng):
        return _choose(obs, legal, rng, np.zeros(len(obs.player), dtype=np.int64), self.fw[None])

    @classmethod
    def act_group(cls, members, which, obs, legal, rng):
        """Every plan's rows in one kernel call (row i decided by ``members[which[i]]``)."""
        fws = np.stack([m.fw for m in members])
        return _choose(obs, legal, rng, np.asarray(which, dtype=np.int64), fws)


_Plan.group = _Plan


def _choose(obs, legal, rng, which, fws):
    t = obs.t
    legal = np.ascontiguousarray(legal)
    out = np.zeros(len(legal), dtype=np.int64)
    K.choose(obs.m, legal, np.ascontiguousarray(rng.keys, dtype=np.uint64),
             np.ascontiguousarray(rng.counter, dtype=np.int64), _int_table(t), which,
             np.ascontiguousarray(fws), out, K.scratch(legal.shape[1]))
    return out


@per_object
def _int_table(t):
    return K.int_table(t)


class Balanced(_Plan):
    name = "en_balanced"


@dataclasses.dataclass(frozen=True)
class TradersParams(PlanParams):
    trader: float = _w(2.4)
    trader_growth: float = _w(1.2)
    symbol_income: float = _w(2.5)
    symbol: float = _w(0.6)
    bias_traders: float = _w(2.0)


class Traders(_Plan):
    name = "en_traders"
    Params = TradersParams


@dataclasses.dataclass(frozen=True)
class BuildersParams(PlanParams):
    build: float = _w(2.0)
    soldier: float = _w(1.5)
    soldier_future: float = _w(1.0)
    uncover: float = _w(1.5)
    base: float = _w(3.0)
    bias_builders: float = _w(2.0)
    bias_soldiers: float = _w(2.0)


class Builders(_Plan):
    name = "en_builders"
    Params = BuildersParams


@dataclasses.dataclass(frozen=True)
class AdventurersParams(PlanParams):
    treasure: float = _w(2.0)
    flag_bonus: float = _w(1.2)
    exploration: float = _w(0.9)
    step: float = _w(2.2)
    adventurer: float = _w(1.8)
    adventurer_growth: float = _w(2.5)
    bias_adventurers: float = _w(2.0)
    build: float = _w(2.0)               # posts keep the markers' progress from round to round (EN-R49)
    base: float = _w(6.0)


class Adventurers(_Plan):
    name = "en_adventurers"
    Params = AdventurersParams


@dataclasses.dataclass(frozen=True)
class ArtisansParams(PlanParams):
    order: float = _w(1.5)
    progress: float = _w(1.5)
    artisan: float = _w(1.5)
    fulfil_rate: float = _w(4.0)
    lost_good: float = _w(0.5)
    bias_artisans: float = _w(2.0)


class Artisans(_Plan):
    name = "en_artisans"
    Params = ArtisansParams


PLANS = (Traders, Builders, Adventurers, Artisans, Balanced)
for _cls in PLANS:
    registry.register(_cls.name, f"strategies.explorers_of_navoria:{_cls.__name__}")
