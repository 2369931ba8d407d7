"""Scripted Recall plans with different aims: ``rc_knowledge``, ``rc_artifacts``, ``rc_builder``, ``rc_keys``.

Every plan is the one-step lookahead of ``rc_greedy`` (a state sampled from the observation,
``GAME.sample_state``, never the real one; each legal action tried and valued by
``sim.games.recall.value``) with its own position-value weights and rules on top
(docs/recall_strategies.md, "Plans"; rule 8 is solo's goal term, in ``recall_kernel``):

1. ``draft``: the value of display pair i is ``tribes[tribe] + items[item]`` (points-equivalents)
   on top of the lookahead (which sees no difference between the pairs); in the custom draft
   (RC-V2..V5, one element a pick) an element is worth its table value plus its lead over the
   best other element of its kind on the display;
2. abilities: an activation (``use:a`` in any window, Exoskelet at ``payment``, a free
   activation, an event window) gets ``ability`` on top of its value, so an ability whose worth
   the lookahead cannot see (it comes at later decisions) is still used; a stopped trial stays
   ``value.STOPPED``; an activation whose trial, where it is resolved, changes nothing but its cost
   (the player's seat, pieces on the board, pending items; e.g. Lexander with no crystal to
   upgrade), or a Dorian activation that places no pig farm, is valued below every real option
   (wasted). Items gained at a third field (``item``) are chosen by ``items`` too;
3. ``path``: the lookahead value of each card (the path's points if scored now) plus
   ``paths[card]`` for the card's later growth under the plan's aim;
4. goal cards (RC-E29, RC-R189, solo RC-V13..V15): every valued position gets ``goal`` x goal
   points x the chance of meeting the goal card(s): per card P(Poisson(rate x rounds left) >=
   what is still missing), the rate ``goal_rates[kind] x (1 + goals[kind])`` (components of the
   kind gained per round; ``goals`` the plan's fit), so the last missing component is worth much
   and the first little; before the goal round the better held card, after it the kept one;
   solo the best pair of held cards, both to be met (one component for one card). A share
   ``goal_steps[kind]`` of the next component counts as gained once it is prepared
   (``recall_kernel.prepared``: a sanctuary, monument, workshop with its key card in the offer,
   building next to a new camp or on a new area tile one development action away; else
   ``monument_precondition`` (0.5) of a monument per precondition in place, follower on a free
   monument field or its crystals; a track's steps towards an old tribe). A goal decision's
   discard option is so worth its bottom reward (the lookahead) plus the chance of
   what it keeps (``recall_kernel.goal_chance``);
5. turn plans: a ``main`` choice (which card into which slot, or the recall), a development
   action's type and field, the ``units`` split and every ability activation are valued after a
   greedy continuation of ``horizon`` steps on the sampled state
   (the plan's own one-step choice at each of its decisions) until the turn's active player
   changes, another seat decides, the next ``main``, ``path`` or ``goal`` comes, or the game
   ends (each step valued with rule 4 too); so a card's items and the field's items are chained
   before they are compared;
6. old tribes (RC-S36, RC-R169): a trial that unlocks an old tribe gains ``tribes[its tribe]``
   when the viewer sees it (revealed, or ``known_old_tribes`` RC-V6), else the mean of
   ``tribes`` over the tribes it may be (RC-A68: from the observation, not the sampled draw);
7. trades (``recall_kernel._trade_bonus``): field A's purchase and sale (RC-R24, RC-R25) change
   nothing in the value (a follower and a white crystal weigh the same), so each follower traded
   costs 1e-6 and a tie goes to ``end`` or the smallest count, and a sale is valued once the sale
   is closed (``_closed_sale``: the turn's end and its crystal cap seen, RC-R73, as ``end`` sees
   them): no followers bought and sold back in one turn, none sold to postpone the turn's end;
   a crystal upgrade (``crystal``, RC-R72) gets ``final`` / 3, the third of a leftover
   point its white-crystal equivalent adds (RC-E26..E28) that rounding down hides, and for a
   holder of Lexander's permanent effect an upgrade to purple ``final`` + ``crystals`` more, the
   point and white crystal a purple crystal returns when paid (RC-R230); both also in rule 5's steps;
9. no early end (``resolve_kinds``, default ``effect``, ``produce``, ``dev`` as rc_greedy's): at
   such a decision with an option of its own legal (a pending effect RC-R15, a production field
   RC-R38, a development type RC-R113) the best of those is taken, never ``end`` nor a free
   action there; the value saw the turn's end or a development's cost at once and their gain
   later, and tuned plans ended turns with effects pending and productions unused (2v2: 0.57-0.64
   of the win to the rule, docs/recall_strategies.md). Rule 5's continuation does not apply it.

Without a replay hook the runner plays seats of these plans (beside ``rc_greedy``, ``lookahead``
and ``random``) in one compiled call: every rule is compiled (strategies/recall_kernel.py
``_plan_values``), and ``_choose`` below, the step-by-step path, calls the same code per row
(``plan_tables``).

All numbers are Params (defaults per plan below), set in the experiment file under a seat's
``params``; table keys are content ids (tribes.csv, items.csv, path_cards.csv) and goal kinds
(``content_types.GOAL_KINDS``), checked when the strategy is made.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from sim.core.memo import per_object
from sim.games.recall.content_types import GOAL_KINDS
from sim.games.recall.engine import abilities
from strategies import registry
from strategies.base import argmax_tiebreak
from strategies.generic import LookaheadParams, LookaheadStrategy
from strategies.recall import GREEDY_WEIGHTS, RESOLVE_KINDS, unknown_kinds, untried_codes, untried_table

# Rule 4's rates: components of each goal kind gained per round (the chance of meeting a card is
# P(Poisson(rate x rounds left) >= what is missing); a plan's ``goals`` fit raises its kinds' rates).
GOAL_RATES = {"artifacts_one_colour": 0.08, "artifact_colours": 0.08, "stone_colours": 0.1, "stones": 0.2,
              "upgrade_tiles": 0.1, "sanctuaries": 0.05, "monuments": 0.05, "key_cards": 0.15, "old_tribes": 0.05,
              "camps": 0.05, "area_tiles": 0.1}
# Rule 4's steps: the share of the next component a plan counts as gained when it is prepared
# (``recall_kernel.prepared``: a building only a development action away, a workshop for a key card,
# half a monument per precondition, a knowledge track's steps towards an old tribe), so moving
# followers to a site or climbing a track is worth part of a card.
GOAL_STEPS = {"sanctuaries": 0.5, "monuments": 0.5, "key_cards": 0.5, "old_tribes": 0.5, "camps": 0.5,
              "area_tiles": 0.5}
# Rule 8's steps (solo only): rule 4's, and an artifact of a wanted colour or a skill stone one step away
# (``recall_kernel._one_step_away``) counts as half gained too.
SOLO_STEPS = {**GOAL_STEPS, "artifacts_one_colour": 0.5, "artifact_colours": 0.5, "stone_colours": 0.5, "stones": 0.5}


def _table(default: dict):
    return dataclasses.field(default_factory=lambda: dict(default))


@dataclasses.dataclass(frozen=True)
class PlanParams(LookaheadParams):
    """What a plan values (points-equivalents); every table is overridable key by key."""

    weights: dict = _table(GREEDY_WEIGHTS)   # position value (sim/games/recall/value.py DEFAULTS keys)
    tribes: dict = _table({})                # draft: tribe id -> value of owning it
    items: dict = _table({})                 # draft and third-field items: item id -> value
    paths: dict = _table({})                 # path decision: path card id -> bonus for its disc
    goals: dict = _table({})                 # goal kind -> the plan's fit: its rate is goal_rates x (1 + fit)
    goal_rates: dict = _table(GOAL_RATES)    # goal kind -> components gained per round (rule 4's chance)
    goal_steps: dict = _table(GOAL_STEPS)    # goal kind -> share of the next component once prepared, 0..1 (rule 4)
    monument_precondition: float = 0.5       # share of a monument prepared per precondition in place, 0..0.5 (rule 4)
    ability: float = 1.0                     # bonus per ability activation whose trial does not stop
    goal: float = 1.0                        # x goal points x the chance of meeting the goal cards (0: no goal play)
    horizon: int = 6                         # greedy steps after a main / dev / units choice or an activation (0 = one step)
    solo: float = 30.0                       # solo only (rule 8): x log(chance of meeting the best pair + solo_floor)
    solo_rate: float = 1.0                   # solo only (rule 8): each goal_rates x (1 + goals) x this in its chance
    solo_floor: float = 0.001                # solo only (rule 8): added to the pair's chance inside the log, > 0
    solo_steps: dict = _table(SOLO_STEPS)    # solo only (rule 8): goal kind -> share of the next component once prepared
    solo_reach: int = 3                      # solo only (rule 8): a component's site this many moves away counts (0: none)
    solo_decay: float = 0.7                  # solo only (rule 8): prepared share x this per move still needed, 0..1
    resolve_kinds: tuple[str, ...] = RESOLVE_KINDS   # rule 9: decision kinds taken among their own options, no end

    def validate(self):
        if self.horizon < 0:
            return "horizon", "expected a number of steps >= 0"
        for name in ("tribes", "items", "paths", "goals", "goal_rates", "goal_steps", "solo_steps"):
            table = getattr(self, name)
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in table.values()):
                return name, "expected a table of numbers"
        if any(v < 0 for v in self.goal_rates.values()):
            return "goal_rates", "expected components per round >= 0"
        if any(v < -1 for v in self.goals.values()):
            return "goals", "expected fits >= -1 (a rate x (1 + fit) is never negative)"
        for name in ("goal_steps", "solo_steps"):
            if any(not 0 <= v <= 1 for v in getattr(self, name).values()):
                return name, "expected shares of a component between 0 and 1"
        if self.solo < 0:
            return "solo", "expected a weight >= 0"
        if self.solo_rate < 0:
            return "solo_rate", "expected a factor >= 0"
        if self.solo_reach < 0:
            return "solo_reach", "expected a number of moves >= 0"
        if not 0 <= self.solo_decay <= 1:
            return "solo_decay", "expected a share between 0 and 1"
        if self.solo_floor <= 0:
            return "solo_floor", "expected a chance > 0 (the log of 0 has no value)"
        if not 0 <= self.monument_precondition <= 0.5:
            return "monument_precondition", "expected a share between 0 and 0.5 (two preconditions make one monument)"
        return unknown_kinds(self, "resolve_kinds")


class _Plan(LookaheadStrategy):
    """The shared rules; subclasses set ``name`` and ``Params`` (other defaults)."""

    games = ("recall",)
    Params = PlanParams

    def __init__(self, game, content, params):
        super().__init__(game, content, params)
        known = {"tribes": [t.id for t in content.tribes], "items": [i.id for i in content.items],
                 "paths": [c.id for c in content.path_cards], "goals": list(GOAL_KINDS),
                 "goal_rates": list(GOAL_KINDS), "goal_steps": list(GOAL_KINDS), "solo_steps": list(GOAL_KINDS)}
        for name, ids in known.items():
            bad = sorted(set(getattr(params, name)) - set(ids))
            if bad:
                raise ValueError(f"params.{name}: unknown {bad}; expected some of {ids}")
        self.tribe_value = np.array([params.tribes.get(i, 0.0) for i in known["tribes"]] + [0.0])
        self.item_value = np.array([params.items.get(i, 0.0) for i in known["items"]] + [0.0])
        self.path_value = np.array([params.paths.get(i, 0.0) for i in known["paths"]])
        kinds = [GOAL_KINDS[c.kind] for c in content.goal_cards]     # per card: its rate, then its steps' share,
        self.goal_rate = np.array([params.goal_rates.get(k, 0.0) * (1.0 + params.goals.get(k, 0.0)) for k in kinds]
                                  + [params.goal_steps.get(k, 0.0) for k in kinds]
                                  + [params.monument_precondition]           # then the monument share,
                                  + [params.solo, params.solo_rate, params.solo_floor,    # then rule 8's,
                                     params.solo_reach, params.solo_decay]
                                  + [params.solo_steps.get(k, 0.0) for k in kinds])       # its steps per card
        source = abilities(content)[1]
        self.event_bound = np.array([bool(x.event) for x in source])
        self.fixed_cost = np.array([bool(x.hexagon) for x in source])
        self.untried = untried_table(resolve_kinds=params.resolve_kinds)

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
        """Every rule is the kernel's (``_values``), the best legal action kept as the lookahead does;
        rule 9: at a decision of ``resolve_kinds`` the best among the decision's own options when one
        is legal (``strategies.recall.untried_codes``)."""
        u = rng.uniform(legal.shape[1])
        table = self._values(obs, legal, u[:, 0], members, which)
        allowed = untried_codes(obs, legal, members, which)[2]
        return argmax_tiebreak(np.where(np.isfinite(table), table, 0.0), allowed, u)

    def _values(self, obs, legal, u0, members, which):
        """float[B, A]: the plan's value of each action (-inf where illegal) on a state sampled from
        ``obs`` with the keys ``floor(u0 x 2**53)``, row r by member ``which[r]`` of ``members``:
        ``recall_kernel.plan_tables``, the code the compiled whole-game play runs."""
        from sim.games.recall import value
        from sim.games.recall.kernel import value as kvalue
        from strategies import recall_kernel as rk
        from strategies.recall import _kernel_tables
        t = obs.t
        state = self.game.sample_state(obs, (u0 * 2**53).astype(np.uint64))
        numbers = [m.kernel_numbers(t) for m in members]
        weights = np.array([[w[k] for k in kvalue.WEIGHTS] for w in (value._weights(m.params.weights) for m in members)])
        stack = lambda name: np.stack([getattr(m, name) for m in members]).astype(np.float64)  # noqa: E731
        return rk.plan_tables(np.ascontiguousarray(obs.m), state.m, state.hidden, np.ascontiguousarray(legal),
                              np.asarray(obs.player, dtype=np.int64), np.ascontiguousarray(u0),
                              np.asarray(which, dtype=np.int64), weights, np.stack([x[0] for x in numbers]),
                              np.stack([x[1] for x in numbers]), stack("tribe_value"), stack("item_value"),
                              stack("path_value"), stack("goal_rate"), self.event_bound.astype(np.int64),
                              self.fixed_cost.astype(np.int64), *goal_tables(t), t.C, t.tab, t.atoms,
                              _kernel_tables(t)[0])

    def _goal_chance(self, s, players):
        """Rule 4's term without Param ``goal`` (``recall_kernel.goal_chance``) per row of state ``s``
        for seat ``players[r]``: goal points x the chance of meeting its goal cards. The player's own
        cards: in a sampled state they are the real ones, known to the viewer (RC-A68)."""
        from strategies import recall_kernel as rk
        return rk.goal_chance_rows(s.m, s.hidden, np.asarray(players, dtype=np.int64), *goal_tables(s.t),
                                   self.goal_rate, s.t.C, s.t.tab)


_Plan.group = _Plan


@per_object
def goal_tables(t) -> tuple:
    """(kind index int64[G], n int64[G], ``recall_kernel.GI_*`` numbers) for ``recall_kernel.goal_chance``,
    from the run's tables ``t``."""
    from sim.games.recall.scoring import scoring_tables
    from strategies import recall_kernel as rk
    sc = scoring_tables(t.content)
    solo = t.config.players == 1
    info = np.zeros(rk.GI_N, dtype=np.int64)
    info[[rk.GI_POINTS, rk.GI_TOTAL, rk.GI_SLOTS, rk.GI_ROUNDS, rk.GI_SOLO, rk.GI_ROOT]] = [
        sc.goal_points_solo if solo else sc.goal_points, t.config.goal_stones == "total", len(t.content.map.slots),
        t.content.time_board.spaces - 1, solo, -1]
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
