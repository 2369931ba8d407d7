"""Scripted Recall plans with different aims: ``rc_knowledge``, ``rc_artifacts``, ``rc_builder``, ``rc_keys``.

Every plan is the one-step lookahead of ``rc_greedy`` (a state sampled from the observation,
``GAME.sample_state``, never the real one; each legal action tried and valued by
``sim.games.recall.value``) with its own position-value weights and five rules on top
(docs/recall_strategies.md, "Plans"):

1. ``draft``: the value of display pair i is ``tribes[tribe] + items[item]`` (points-equivalents)
   on top of the lookahead (which sees no difference between the pairs); in the custom draft
   (RC-V2..V5, one element a pick) an element is worth its table value plus its lead over the
   best other element of its kind on the display;
2. abilities: an activation (``use:a`` in any window, Exoskelet at ``payment``, a free
   activation, an event window) gets ``ability`` on top of its value, so an ability whose worth
   the lookahead cannot see (it comes at later decisions) is still used; a stopped trial stays
   ``value.STOPPED``; a Dorian activation that places no pig farm is valued below every real option (wasted). Items gained at a third field (``item``) are chosen by ``items`` too;
3. ``path``: the lookahead value of each card (the path's points if scored now) plus
   ``paths[card]`` for the card's later growth under the plan's aim;
4. ``goal``: each discard option is worth its reward (the lookahead) plus ``goal_points`` x the
   chance of meeting the kept card(s): the progress now (count / n, from the sampled state)
   plus ``goals[kind]``, the plan's fit, capped at 1 (solo: the product over the kept cards);
5. turn plans: a ``main`` choice (which card into which slot, or the recall), a development
   action's type and field, the ``units`` split and every ability activation are valued after a
   greedy continuation of ``horizon`` steps on the sampled state
   (the plan's own one-step choice at each of its decisions) until the turn's active player
   changes, another seat decides, the next ``main``, ``path`` or ``goal`` comes, or the game
   ends; so a card's items and the field's items are chained before they are compared;
6. old tribes (RC-S36, RC-R169): a trial that unlocks an old tribe gains ``tribes[its tribe]``
   when the viewer sees it (revealed, or ``known_old_tribes`` RC-V6), else the mean of
   ``tribes`` over the tribes it may be (RC-A68: from the observation, not the sampled draw).

Without a replay hook the runner plays seats of these plans (beside ``rc_greedy``, ``lookahead``
and ``random``) in one compiled call: rules 1-3 and 5 (and Param ``goal``) are compiled
(strategies/recall_kernel.py ``_plan_values``; rule 6 too), and ``_choose`` below, the step-by-step path, calls
the same code per row (``plan_tables``); rule 4 is Python here (``_goal_bonus``: the goal counts of
the scored end state), where the whole-game play pauses at each goal decision of a plan.

All numbers are Params (defaults per plan below), set in the experiment file under a seat's
``params``; table keys are content ids (tribes.csv, items.csv, path_cards.csv) and goal kinds
(``content_types.GOAL_KINDS``), checked when the strategy is made.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from sim.core.game import take
from sim.core.memo import per_object
from sim.games.recall import state as st
from sim.games.recall.content_types import GOAL_KINDS
from sim.games.recall.engine import abilities
from strategies import registry
from strategies.base import argmax_tiebreak
from strategies.generic import LookaheadParams, LookaheadStrategy
from strategies.recall import GREEDY_WEIGHTS

def _table(default: dict):
    return dataclasses.field(default_factory=lambda: dict(default))


@dataclasses.dataclass(frozen=True)
class PlanParams(LookaheadParams):
    """What a plan values (points-equivalents); every table is overridable key by key."""

    weights: dict = _table(GREEDY_WEIGHTS)   # position value (sim/games/recall/value.py DEFAULTS keys)
    tribes: dict = _table({})                # draft: tribe id -> value of owning it
    items: dict = _table({})                 # draft and third-field items: item id -> value
    paths: dict = _table({})                 # path decision: path card id -> bonus for its disc
    goals: dict = _table({})                 # goal decision: goal kind -> chance added to the progress
    ability: float = 1.0                     # bonus per ability activation whose trial does not stop
    goal: float = 0.0                        # x goal points x progress (count / n) of the best held goal card
    horizon: int = 6                         # greedy steps after a main / dev / units choice or an activation (0 = one step)

    def validate(self):
        if self.horizon < 0:
            return "horizon", "expected a number of steps >= 0"
        for name in ("tribes", "items", "paths", "goals"):
            table = getattr(self, name)
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in table.values()):
                return name, "expected a table of numbers"
        return None


class _Plan(LookaheadStrategy):
    """The shared rules; subclasses set ``name`` and ``Params`` (other defaults)."""

    games = ("recall",)
    Params = PlanParams

    def __init__(self, game, content, params):
        super().__init__(game, content, params)
        known = {"tribes": [t.id for t in content.tribes], "items": [i.id for i in content.items],
                 "paths": [c.id for c in content.path_cards], "goals": list(GOAL_KINDS)}
        for name, ids in known.items():
            bad = sorted(set(getattr(params, name)) - set(ids))
            if bad:
                raise ValueError(f"params.{name}: unknown {bad}; expected some of {ids}")
        self.tribe_value = np.array([params.tribes.get(i, 0.0) for i in known["tribes"]] + [0.0])
        self.item_value = np.array([params.items.get(i, 0.0) for i in known["items"]] + [0.0])
        self.path_value = np.array([params.paths.get(i, 0.0) for i in known["paths"]])
        self.goal_fit = np.array([params.goals.get(GOAL_KINDS[c.kind], 0.0) for c in content.goal_cards])
        source = abilities(content)[1]
        self.event_bound = np.array([bool(x.event) for x in source])
        self.fixed_cost = np.array([bool(x.hexagon) for x in source])

    def kernel_numbers(self, t) -> tuple:
        """(int64[PI_N], float64[2]) of this plan for strategies/recall_kernel.py: horizon, first
        ``use:`` action, abilities, ``opt:0``, how tribes are drafted (rule 1), Dorian's ability; (ability, goal)."""
        from strategies import recall_kernel as rk
        ints = np.zeros(rk.PI_N, dtype=np.int64)
        ints[[rk.PI_HORIZON, rk.PI_USE0, rk.PI_NAB, rk.PI_OPT0, rk.PI_DRAFT, rk.PI_DORIAN]] = [
            self.params.horizon, t.action_names.index(f"use:{t.ability_names[0]}"), len(self.event_bound),
            t.action_names.index("opt:0"), {"draft": rk.DRAFT_PAIRS, "custom": rk.DRAFT_ELEMENTS}.get(t.config.tribe_draft, 0),
            t.ability_names.index("Dorian") if "Dorian" in t.ability_names else -1]
        return ints, np.array([self.params.ability, self.params.goal], dtype=np.float64)

    def _choose(self, obs, legal, rng, members, which):
        """Rules 1-3 and 5 (and the ``goal`` Param) are the kernel's (``recall_kernel.plan_tables``, the
        code the compiled whole-game play runs); rule 4 is added here for the goal decisions."""
        from sim.games.recall import value
        from sim.games.recall.kernel import value as kvalue
        from strategies import recall_kernel as rk
        from strategies.recall import _kernel_tables
        b, a = legal.shape
        t = obs.t
        u = rng.uniform(a)
        state = self.game.sample_state(obs, (u[:, 0] * 2**53).astype(np.uint64))
        numbers = [m.kernel_numbers(t) for m in members]
        weights = np.array([[w[k] for k in kvalue.WEIGHTS] for w in (value._weights(m.params.weights) for m in members)])
        stack = lambda name: np.stack([getattr(m, name) for m in members]).astype(np.float64)  # noqa: E731
        table = rk.plan_tables(np.ascontiguousarray(obs.m), state.m, state.hidden, np.ascontiguousarray(legal),
                               np.asarray(obs.player, dtype=np.int64), np.ascontiguousarray(u[:, 0]),
                               np.asarray(which, dtype=np.int64), weights, np.stack([x[0] for x in numbers]),
                               np.stack([x[1] for x in numbers]), stack("tribe_value"), stack("item_value"),
                               stack("path_value"), self.event_bound.astype(np.int64), self.fixed_cost.astype(np.int64),
                               *goal_tables(t), t.C, t.tab, t.atoms, _kernel_tables(t)[0])
        kind = obs.m[:, st.G_KIND]
        opt0 = t.action_names.index("opt:0")
        for k, m in enumerate(members):
            goal = np.flatnonzero((np.asarray(which) == k) & (kind == st.K_GOAL))
            if len(goal):
                table[goal] += m._goal_bonus(obs, state, goal, opt0, a)
        return argmax_tiebreak(np.where(np.isfinite(table), table, 0.0), legal, u)

    def _goal_progress(self, s, players):
        """Param ``goal``'s term without the Param (``recall_kernel.goal_progress``): goal points x
        count / n, at most 1, of the best goal card seat ``players[r]`` holds, by cheap counts of
        the state rows (camps: the camp rewards received; the scoring counts the camps next to own
        buildings, nearly the same). The player's own cards: in a sampled state they are the real
        ones, known to the viewer."""
        from strategies import recall_kernel as rk
        return rk.goal_progress_rows(s.m, s.hidden, np.asarray(players, dtype=np.int64), *goal_tables(s.t))

    # ---- rule 4, on the sampled state ------------------------------------------------------------------

    def _goal_bonus(self, obs, state, rows, opt0, a):
        """Rule 4: per discard option, goal points x the chance of meeting what is kept."""
        from sim.games.recall.game import end_state
        from sim.games.recall.scoring import goal_counts, scoring_tables
        sc = scoring_tables(obs.t.content)
        sub = take(state, rows)
        me = np.asarray(obs.player)[rows]
        counts = goal_counts(sc, end_state(sub), obs.t.config.goal_stones)[np.arange(len(rows)), me]   # [r, G]
        chance = np.clip(np.minimum(counts / sc.goal_n, 1.0) + self.goal_fit[None, :], 0.0, 1.0)
        held = obs.goals[rows]                                                        # [r, 3], -1 none
        solo = obs.t.config.players == 1
        points = sc.goal_points_solo if solo else sc.goal_points
        out = np.zeros((len(rows), a))
        for i in range(held.shape[1]):
            keep = [j for j in range(held.shape[1]) if j != i]
            c = np.where(held[:, keep] >= 0, chance[np.arange(len(rows))[:, None], np.maximum(held[:, keep], 0)], np.nan)
            if solo:
                got = np.nanprod(c, axis=1)
            else:
                got = np.nanmax(np.where(np.isnan(c), -np.inf, c), axis=1)
            out[:, opt0 + i] = np.where(held[:, i] >= 0, points * got, 0.0)
        return out


_Plan.group = _Plan


@per_object
def goal_tables(t) -> tuple:
    """(kind index int64[G], n int64[G], (goal points, 1 when stones count in total, map slots)) for
    ``recall_kernel.goal_progress``, from the run's tables ``t``."""
    from sim.games.recall.scoring import scoring_tables
    sc = scoring_tables(t.content)
    info = np.array([sc.goal_points, t.config.goal_stones == "total", len(t.content.map.slots)], dtype=np.int64)
    return np.ascontiguousarray(sc.goal_kind, dtype=np.int64), np.ascontiguousarray(sc.goal_n, dtype=np.int64), info


def _plan_defaults(*, weights: dict, tribes: dict, items: dict, paths: dict, goals: dict):
    """Class decorator: a frozen ``PlanParams`` subclass whose tables default to these (``weights``
    as changes to ``GREEDY_WEIGHTS``), so each plan below states only its numbers."""
    tables = {"weights": {**GREEDY_WEIGHTS, **weights}, "tribes": tribes, "items": items,
              "paths": paths, "goals": goals}

    def make(cls):
        cls.__annotations__ = {**cls.__dict__.get("__annotations__", {}), **dict.fromkeys(tables, dict)}
        for name, default in tables.items():
            setattr(cls, name, _table(default))
        return dataclasses.dataclass(frozen=True)(cls)
    return make


# Defaults per plan: the aim's resources weigh more in the position value, its tribes, items,
# path cards and goal kinds are preferred. Dorian (RC-R210..R214: pigs pay followers' costs of
# development actions and artifacts, 2 points per pig farm where present) is worth 1 to the two
# plans that pay most followers (artifacts, builder), 0 to the others: rc_greedy's Dorian seats
# win below the fair share (docs/findings.md), so no plan values it among its best.
@_plan_defaults(weights=dict(tracks=1.0, stones=1.0),
                tribes={"Goliath": 3.0, "Lexander": 2.5, "Zendeling": 2.5, "K-01": 1.5, "Lentefee": 1.0},
                items={"GPR": 3.0, "Scroll": 2.5, "Decoder": 2.0, "Vertolker": 2.0, "Chisel": 1.5, "Lens": 1.0,
                       "Multitool": 1.5},
                paths={"PK": 3.0, "PA": 3.0},
                goals={"stone_colours": 0.3, "stones": 0.3, "old_tribes": 0.25, "upgrade_tiles": 0.1})
class KnowledgeParams(PlanParams):
    """Knowledge tracks and excavation (stones to the skill field, steps, bonus tokens, old tribes)."""


@_plan_defaults(weights=dict(artifacts=1.5, followers=0.5),
                tribes={"Hayla": 3.0, "Colteron": 2.5, "Vinder": 2.5, "Noorderling": 2.0, "Enterin": 1.5, "Dorian": 1.0},
                items={"Booster": 3.0, "Exoskelet": 3.0, "Boots": 2.5, "Paddle": 2.0, "Portaal": 1.0,
                       "Multitool": 1.5},
                paths={"PM": 4.0, "PP": 1.0},
                goals={"artifacts_one_colour": 0.3, "artifact_colours": 0.3, "camps": 0.1})
class ArtifactParams(PlanParams):
    """Artifacts and ambition: movement over land and water to the artifacts, their rows."""


@_plan_defaults(weights=dict(buildings=1.5, followers=0.5),
                tribes={"Zendeling": 3.0, "K-01": 3.0, "Aynir": 2.0, "Enterin": 1.5, "Colteron": 1.0, "Dorian": 1.0},
                items={"Chisel": 3.0, "Decoder": 2.5, "Exoskelet": 2.5, "Horn": 2.0, "Portaal": 2.0, "Alambiek": 1.0},
                paths={"PS": 3.0, "PP": 3.0},
                goals={"sanctuaries": 0.3, "monuments": 0.25, "camps": 0.25, "area_tiles": 0.1})
class BuilderParams(PlanParams):
    """Sanctuaries and monuments: development actions, camps next to the buildings."""


@_plan_defaults(weights=dict(keys=2.0, crystals=0.6),
                tribes={"J'He": 3.0, "Ion": 2.5, "Lentefee": 2.5, "Lexander": 1.5, "Aynir": 1.0},
                items={"Keyring": 3.0, "Schokbron": 2.5, "Multitool": 2.0, "Lens": 1.5, "Pouch": 1.5, "Map": 1.0},
                paths={"PE": 4.0, "PK": 1.0},
                goals={"key_cards": 0.35, "upgrade_tiles": 0.25})
class KeysParams(PlanParams):
    """Key cards and efficiency: more and better cards, their effects repeated, crystals to pay."""


class Knowledge(_Plan):
    """Knowledge tracks and excavation: steps, stones to the skill field, bonus tokens, old tribes."""

    name = "rc_knowledge"
    Params = KnowledgeParams


class Artifacts(_Plan):
    """Artifacts and ambition: movement over land and water to the artifacts, full colour rows."""

    name = "rc_artifacts"
    Params = ArtifactParams


class Builder(_Plan):
    """Sanctuaries and monuments: development actions and the camps next to the buildings."""

    name = "rc_builder"
    Params = BuilderParams


class Keys(_Plan):
    """Key cards and efficiency: more and better cards, their effects repeated, crystals to pay."""

    name = "rc_keys"
    Params = KeysParams


PLANS = (Knowledge, Artifacts, Builder, Keys)
for _cls in PLANS:
    registry.register(_cls.name, f"strategies.recall_plans:{_cls.__name__}")
