"""Scripted Recall plans with different aims: ``rc_knowledge``, ``rc_artifacts``, ``rc_builder``, ``rc_keys``.

Every plan is the one-step lookahead of ``rc_greedy`` (a state sampled from the observation,
``GAME.sample_state``, never the real one; each legal action tried and valued by
``sim.games.recall.value``) with its own position-value weights and five rules on top
(docs/recall_strategies.md, "Plans"):

1. ``draft``: the value of display pair i is ``tribes[tribe] + items[item]`` (points-equivalents)
   on top of the lookahead (which sees no difference between the pairs);
2. abilities: an activation (``use:a`` in any window, Exoskelet at ``payment``, a free
   activation, an event window) gets ``ability`` on top of its value, so an ability whose worth
   the lookahead cannot see (it comes at later decisions) is still used; a stopped trial stays
   ``value.STOPPED``. Items gained at a third field (``item``) are chosen by ``items`` too;
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
   ends; so a card's items and the field's items are chained before they are compared.

Without a replay hook the runner plays seats of these plans (beside ``rc_greedy``, ``lookahead``
and ``random``) in one compiled call: strategies/recall_kernel.py ``_plan_choice`` is the same
definition as ``_choose`` below (rules 1-3 and 5; rule 4's goal decisions pause the kernel and are
made here), decision for decision (tests/test_recall_plans.py); a plan with Param ``goal`` != 0
plays step by step. A change to a rule here must be made there too.

All numbers are Params (defaults per plan below), set in the experiment file under a seat's
``params``; table keys are content ids (tribes.csv, items.csv, path_cards.csv) and goal kinds
(``content_types.GOAL_KINDS``), checked when the strategy is made.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from sim.core.game import take
from sim.games.recall import state as st
from sim.games.recall.content_types import GOAL_KINDS
from sim.games.recall.engine import abilities
from sim.games.recall.value import STOPPED
from strategies import registry
from strategies.base import argmax_tiebreak
from strategies.generic import LookaheadParams, LookaheadStrategy
from strategies.recall import GREEDY_WEIGHTS

# kinds a continuation stops before (the next turn's choice, a special round's)
_STOP_KINDS = np.array([st.K_MAIN, st.K_PATH, st.K_GOAL, st.K_DRAFT, st.K_START_FIELD, st.K_STOP])
# decisions valued after the continuation (rule 5): the turn's card and field, the development
# action's type and field (a one-step trial of the type sees none of the building), the UNITS split
_PLAN_KINDS = np.array([st.K_MAIN, st.K_DEV, st.K_DEV_FIELD, st.K_UNITS])
_CHUNK = 1500            # trial rows continued at once (each expands to its legal actions)


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

    def _choose(self, obs, legal, rng, members, which):
        b, a = legal.shape
        t = obs.t
        players = np.asarray(obs.player)
        u = rng.uniform(a)
        state = self.game.sample_state(obs, (u[:, 0] * 2**53).astype(np.uint64))
        rows, acts = np.nonzero(legal)
        trial = self.game.step(take(state, rows), acts)
        value = np.zeros(len(rows))
        kind = obs.m[:, st.G_KIND]
        use0 = t.action_names.index(f"use:{t.ability_names[0]}")
        activation = ((acts >= use0) & (acts < use0 + len(t.ability_names))) | (acts == a - 1)
        for k, m in enumerate(members):
            mine = np.flatnonzero(which[rows] == k)
            if not len(mine):
                continue
            value[mine] = m._trial_values(take(trial, mine), players[rows[mine]],
                                          np.isin(kind[rows[mine]], _PLAN_KINDS) | activation[mine], u[rows[mine], 0])
            value[mine] += np.where(activation[mine] & (value[mine] > STOPPED),
                                    m._activation_bonus(obs, take(trial, mine), rows[mine], acts[mine] - use0), 0.0)
        table = np.full((b, a), -np.inf)
        table[rows, acts] = value
        for k, m in enumerate(members):
            mine = which == k
            m._plan_bonus(obs, state, table, mine)
        return argmax_tiebreak(np.where(np.isfinite(table), table, 0.0), legal, u)

    def _activation_bonus(self, obs, trial, rows, ability):
        """Rule 2: ``ability`` per activation; minus that for a non-event one that leaves fewer stones on
        the skill field than the cheapest owned event-bound ability costs (its window would find
        none: K-01, Decoder, Vertolker... are offered only when their cost is payable, RC-R65)."""
        me = np.asarray(obs.player)[rows]
        n_ab = len(self.event_bound)
        owned = _seat(obs.m[rows], me, st.P_OWN, n_ab) > 0
        uses = _seat(obs.m[rows], me, st.P_USES, n_ab)
        cost = np.where(self.fixed_cost[None, :], 1, 1 + uses)
        reserve = np.where(owned & self.event_bound[None, :], cost, 1 << 20).min(axis=1)
        reserve = np.where(reserve == 1 << 20, 0, reserve)
        left = _seat(trial.m, me, st.P_SKILL, 1)[:, 0]
        event = self.event_bound[np.clip(ability, 0, n_ab - 1)] & (ability < n_ab)
        ok = event | (left >= reserve)
        return np.where(ok, self.params.ability, -self.params.ability)

    # ---- values of the trials ----------------------------------------------------------------------

    def _trial_values(self, trial, players, cont, u0):
        """Each trial's value; the ``cont`` rows after the greedy continuation (rule 5)."""
        w = self.params.weights
        value = self.game.position_value(trial, players, w)
        go = np.flatnonzero(cont & (value > STOPPED)) if self.params.horizon else np.zeros(0, dtype=np.int64)
        if self.params.goal:                         # the continued rows get it at their end (_continued)
            value += np.where((value > STOPPED) & ~np.isin(np.arange(len(value)), go),
                              self.params.goal * self._goal_progress(trial, players), 0.0)
        for start in range(0, len(go), _CHUNK):
            part = go[start:start + _CHUNK]
            value[part] = self._continued(take(trial, part), players[part], u0[part])
        return value

    def _goal_progress(self, s, players):
        """Goal points x the progress (count / n, at most 1) of the best goal card seat ``players[r]``
        holds, by cheap counts of the state rows (camps: the camp rewards received; the scoring
        counts the camps next to own buildings, nearly the same). The player's own cards: in a
        sampled state they are the real ones, known to the viewer."""
        from sim.games.recall.scoring import scoring_tables
        sc = scoring_tables(s.t.content)
        m, p = s.m, players
        r = np.arange(len(p))
        arts = _seat(m, p, st.P_ARTS, 4)
        stones = _seat(m, p, st.P_STONES, 3)
        slots = len(s.t.content.map.slots)
        bld = _seat(m, p, st.P_BLD, 7 * slots)
        bits = lambda col: np.array([bin(int(x)).count("1") for x in _seat(m, p, col, 1)[:, 0]])  # noqa: E731
        keys = _seat(m, p, st.P_AVAIL, st.K_MAX).sum(axis=1) + (_seat(m, p, st.P_SLOT, 6) >= 0).sum(axis=1)
        count = {"artifacts_one_colour": arts.max(axis=1), "artifact_colours": (arts > 0).sum(axis=1),
                 "stone_colours": (stones > 0).sum(axis=1),
                 "stones": stones.sum(axis=1) if s.t.config.goal_stones == "total" else stones.max(axis=1),
                 "upgrade_tiles": (_seat(m, p, st.P_UPG, 6) >= 0).sum(axis=1), "sanctuaries": bits(st.P_SANCT),
                 "monuments": _seat(m, p, st.P_MON, 1)[:, 0], "key_cards": keys,
                 "old_tribes": _seat(m, p, st.P_UNLOCK, 3).sum(axis=1), "camps": bits(st.P_CAMPS),
                 "area_tiles": (bld.reshape(len(p), slots, 7) > 0).any(axis=2).sum(axis=1)}
        table = np.stack([count[k] for k in GOAL_KINDS], axis=1)[:, sc.goal_kind]          # [r, G]
        progress = np.minimum(table / sc.goal_n, 1.0)
        held = s.hidden[r[:, None], st.H_GOALS + 3 * p[:, None] + np.arange(3)[None, :]]   # [r, 3]
        got = np.where(held >= 0, progress[r[:, None], np.maximum(held, 0)], 0.0).max(axis=1)
        return sc.goal_points * got

    def _continued(self, s, players, u0):
        """The value after up to ``horizon`` greedy steps of ``players`` on states ``s``."""
        w = self.params.weights
        for step in range(self.params.horizon):
            m = s.m
            go = ((m[:, st.G_KIND] >= 0) & ~np.isin(m[:, st.G_KIND], _STOP_KINDS)
                  & (m[:, st.G_DEC] == players) & (m[:, st.G_ACTIVE] == players))
            idx = np.flatnonzero(go)
            if not len(idx):
                break
            sub = take(s, idx)
            rows, acts = np.nonzero(sub.legal)
            tried = self.game.step(take(sub, rows), acts)
            v = self.game.position_value(tried, players[idx][rows], w)
            tie = (u0[idx][rows] * 7919.0 + 0.6180339887 * (acts + 1) * (step + 1)) % 1.0
            table = np.full(sub.legal.shape, -np.inf)
            table[rows, acts] = v + 1e-9 * tie
            pos = np.full(sub.legal.shape, -1)
            pos[rows, acts] = np.arange(len(rows))
            chosen = take(tried, pos[np.arange(len(idx)), np.argmax(table, axis=1)])
            s = _put(s, idx, chosen)
        value = self.game.position_value(s, players, w)
        if self.params.goal:                         # valued at the end of the continuation, like the rest
            value += np.where(value > STOPPED, self.params.goal * self._goal_progress(s, players), 0.0)
        return value

    # ---- the plan's rules per decision kind ------------------------------------------------------------

    def _plan_bonus(self, obs, state, table, mine):
        """Adds rules 1, 3 and 4 (and the item choice of rule 2) to ``table`` for the rows ``mine``."""
        t, kind, m = obs.t, obs.m[:, st.G_KIND], obs.m
        opt0 = t.action_names.index("opt:0")
        draft = np.flatnonzero(mine & (kind == st.K_DRAFT))
        if len(draft) and t.config.tribe_draft == "draft":
            pairs = m[draft, st.G_TRIBE_DISP:st.G_TRIBE_DISP + 5]
            items = m[draft, st.G_ITEM_DISP:st.G_ITEM_DISP + 5]
            table[draft, opt0:opt0 + 5] += self.tribe_value[pairs] + self.item_value[items]
        item = np.flatnonzero(mine & (kind == st.K_ITEM))
        for r in item:
            track = m[r, st.G_KTRACK]
            left = [x for x in m[r, st.G_OLD_ITEMS + 4 * track:st.G_OLD_ITEMS + 4 * track + 4] if x >= 0]
            table[r, opt0:opt0 + len(left)] += self.item_value[left]
        path = np.flatnonzero(mine & (kind == st.K_PATH))
        if len(path):
            me = np.asarray(obs.player)[path]
            chosen = state.seat(st.P_PATHS, 3)[path, me] >= 0
            sector = chosen.sum(axis=1)
            cards = np.stack([m[path, st.G_PATH + 2 * sector], m[path, st.G_PATH + 2 * sector + 1]], axis=1)
            table[path, opt0:opt0 + 2] += self.path_value[cards]
        goal = np.flatnonzero(mine & (kind == st.K_GOAL))
        if len(goal):
            table[goal] += self._goal_bonus(obs, state, goal, opt0, table.shape[1])

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


def _seat(m, players, col: int, n: int) -> np.ndarray:
    """int[rows, n]: columns ``col .. col + n`` of seat ``players[r]``'s block in rows ``m``."""
    start = st.SEAT0 + np.asarray(players, dtype=np.int64) * st.SW + col
    return m[np.arange(len(m))[:, None], start[:, None] + np.arange(n)[None, :]]


def _put(s, idx, sub):
    """A copy of the states ``s`` with rows ``idx`` replaced by the states ``sub``."""
    out = st.copy_state(s)
    for f in dataclasses.fields(out):
        value = getattr(out, f.name)
        if isinstance(value, np.ndarray):
            value[idx] = getattr(sub, f.name)
    return out


def _weights(**changes) -> dict:
    return {**GREEDY_WEIGHTS, **changes}


# Defaults per plan: the aim's resources weigh more in the position value, its tribes, items,
# path cards and goal kinds are preferred. Dorian is valued low by every plan: its ability (pigs)
# still stops the engine, so a plan holding it could never use it (docs/recall_strategies.md).
@dataclasses.dataclass(frozen=True)
class KnowledgeParams(PlanParams):
    """Knowledge tracks and excavation (stones to the skill field, steps, bonus tokens, old tribes)."""

    weights: dict = _table(_weights(tracks=1.0, stones=1.0))
    tribes: dict = _table({"Goliath": 3.0, "Lexander": 2.5, "Zendeling": 2.5, "K-01": 1.5, "Lentefee": 1.0,
                           "Dorian": -3.0})
    items: dict = _table({"GPR": 3.0, "Scroll": 2.5, "Decoder": 2.0, "Vertolker": 2.0, "Chisel": 1.5,
                          "Lens": 1.0, "Multitool": 1.5})
    paths: dict = _table({"PK": 3.0, "PA": 3.0})
    goals: dict = _table({"stone_colours": 0.3, "stones": 0.3, "old_tribes": 0.25, "upgrade_tiles": 0.1})


@dataclasses.dataclass(frozen=True)
class ArtifactParams(PlanParams):
    """Artifacts and ambition: movement over land and water to the artifacts, their rows."""

    weights: dict = _table(_weights(artifacts=1.5, followers=0.5))
    tribes: dict = _table({"Hayla": 3.0, "Colteron": 2.5, "Vinder": 2.5, "Noorderling": 2.0, "Enterin": 1.5,
                           "Dorian": -3.0})
    items: dict = _table({"Booster": 3.0, "Exoskelet": 3.0, "Boots": 2.5, "Paddle": 2.0, "Portaal": 1.0,
                          "Multitool": 1.5})
    paths: dict = _table({"PM": 4.0, "PP": 1.0})
    goals: dict = _table({"artifacts_one_colour": 0.3, "artifact_colours": 0.3, "camps": 0.1})


@dataclasses.dataclass(frozen=True)
class BuilderParams(PlanParams):
    """Sanctuaries and monuments: development actions, camps next to the buildings."""

    weights: dict = _table(_weights(buildings=1.5, followers=0.5))
    tribes: dict = _table({"Zendeling": 3.0, "K-01": 3.0, "Aynir": 2.0, "Enterin": 1.5, "Colteron": 1.0,
                           "Dorian": -3.0})
    items: dict = _table({"Chisel": 3.0, "Decoder": 2.5, "Exoskelet": 2.5, "Horn": 2.0, "Portaal": 2.0,
                          "Alambiek": 1.0})
    paths: dict = _table({"PS": 3.0, "PP": 3.0})
    goals: dict = _table({"sanctuaries": 0.3, "monuments": 0.25, "camps": 0.25, "area_tiles": 0.1})


@dataclasses.dataclass(frozen=True)
class KeysParams(PlanParams):
    """Key cards and efficiency: more and better cards, their effects repeated, crystals to pay."""

    weights: dict = _table(_weights(keys=2.0, crystals=0.6))
    tribes: dict = _table({"J'He": 3.0, "Ion": 2.5, "Lentefee": 2.5, "Lexander": 1.5, "Aynir": 1.0,
                           "Dorian": -3.0})
    items: dict = _table({"Keyring": 3.0, "Schokbron": 2.5, "Multitool": 2.0, "Lens": 1.5, "Pouch": 1.5,
                          "Map": 1.0})
    paths: dict = _table({"PE": 4.0, "PK": 1.0})
    goals: dict = _table({"key_cards": 0.35, "upgrade_tiles": 0.25})


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
