"""A quick position value of Recall for the lookahead strategies (generic ``lookahead``, ``rc_greedy``).

The value of a seat is its final score if the game were scored now (``scoring.final_scoring``
on ``game.end_state``: score track, path cards, leftovers, purple points; goal cards left out,
they are met or not only at the end) plus weighted resources that become points later:
crystals, key cards, knowledge steps and followers on the map (and, for the plans of
strategies/recall_plans.py, weights 0 by default: white/grey/black stones owned, artifacts and
buildings), and for the seat whose turn it is (the explorer during another player's camp reward,
``pending_owner``) the items of its turn still to resolve (``pending``: the pending list, plus one
while an item is being
resolved at a decision of its own, so that ending an effect early is not free); minus
``opponents`` x the best other seat's value. A state the engine stopped (``K_STOP``: a rule not compiled yet) is worth
``STOPPED``, so that lookahead players keep to the compiled rules while the engine is not
complete (no effect once nothing stops).
"""
from __future__ import annotations

import numpy as np

from sim.games.recall import state as st
from sim.games.recall.kernel import value as kvalue
from sim.games.recall.scoring import final_scoring, scoring_tables
from sim.core.memo import per_object

DEFAULTS = {"final": 1.0, "purple": 0.0, "crystals": 0.3, "keys": 0.5, "tracks": 0.5, "followers": 0.3,
            "pending": 0.5, "opponents": 0.0, "stones": 0.0, "artifacts": 0.0, "buildings": 0.0}
STOPPED = -1e9
OUTSIDE_ITEMS = kvalue.OUTSIDE_ITEMS     # decisions that do not count the item being resolved as pending


@per_object
def _tables(content):
    return scoring_tables(content)


def components(s) -> dict:
    """float[B, n] per weight of ``DEFAULTS`` but opponents."""
    from sim.games.recall.game import end_state
    t, n = s.t, s.t.config.players
    e = end_state(s)
    sheet = final_scoring(_tables(t.content), e, t.config.goal_stones, np.zeros((s.batch, n), dtype=bool))
    m = s.m
    inside = np.array([k not in OUTSIDE_ITEMS for k in st.KIND_NAMES] + [False])[m[:, st.G_KIND]]   # -1: over
    left = m[:, st.G_PEND_N] + inside
    pending = np.where(np.arange(n)[None, :] == pending_owner(m)[:, None], left[:, None], 0)
    return {"final": sheet["score"].astype(float), "purple": e.purple.astype(float),
            "crystals": e.crystals.sum(axis=2).astype(float), "keys": e.keys.sum(axis=2).astype(float),
            "tracks": e.tracks.sum(axis=2).astype(float), "followers": e.followers.astype(float),
            "pending": pending.astype(float), "stones": e.stones.sum(axis=2).astype(float),
            "artifacts": e.artifacts.sum(axis=2).astype(float),
            "buildings": (s.seat(st.P_BLD, len(t.field_names))[:, :n] > 0).sum(axis=2).astype(float)}


def pending_owner(m) -> np.ndarray:
    """int[B]: the seat whose turn's items are pending: the active seat, but the explorer
    (``G_EXP_ACTIVE - 1``) while another player receives a camp of its exploration (RC-R148,
    docs/recall_engine.md "Exploring": ``G_ACTIVE`` is that receiver meanwhile)."""
    exp = m[:, st.G_EXP_ACTIVE].astype(np.int64)
    return np.where(exp > 0, exp - 1, m[:, st.G_ACTIVE])


def _weights(weights) -> dict:
    w = {**DEFAULTS, **(weights or {})}
    unknown = set(w) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown position_value weights {sorted(unknown)}; expected {sorted(DEFAULTS)}")
    return w


@per_object
def _kernel_tables(t):
    return kvalue.value_tables(t)


def compiled_position_value(s, players, weights) -> np.ndarray:
    """``position_value`` by the compiled kernel (kernel/value.py: the same numbers, to the last
    bit, tests/test_recall_value_kernel.py); what the game offers the lookahead strategies."""
    w = _weights(weights)
    return kvalue.position_value(s, players, np.array([w[k] for k in kvalue.WEIGHTS]), _kernel_tables(s.t))


def position_value(s, players, weights) -> np.ndarray:
    """float[B]: the value of seat ``players[b]`` in game b (module doc); the reference of the kernel's."""
    w = _weights(weights)
    if not any(w[k] for k in DEFAULTS if k != "opponents"):          # every weight 0: the value is 0
        return np.where(s.m[:, st.G_KIND] == st.K_STOP, STOPPED, 0.0)
    parts = components(s)
    total = sum(w[k] * v for k, v in parts.items())
    me = np.asarray(players, dtype=np.int64)
    rows = np.arange(len(me))
    own = total[rows, me]
    if total.shape[1] == 1:
        return np.where(s.m[:, st.G_KIND] == st.K_STOP, STOPPED, own)
    others = np.where(np.arange(total.shape[1])[None, :] == me[:, None], -np.inf, total).max(axis=1)
    own = own - w["opponents"] * others
    return np.where(s.m[:, st.G_KIND] == st.K_STOP, STOPPED, own)
