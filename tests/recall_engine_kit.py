"""Helpers for the hand-made Recall engine positions of tests/test_recall_engine_*.py (one copy, so
that every engine test builds and edits its positions the same way): a game at its first main
decision, as dealt or with no artifacts on the map, and steps by action name."""
from __future__ import annotations

import numpy as np

from sim.games.recall import engine
from sim.games.recall import state as st
from sim.games.recall.config import Config
from sim.games.recall.content import load_content

SEED = 321


def tables(players=2, **overrides):
    """The engine tables of the default content for ``players`` seats, tribes drawn at random."""
    config = Config(players=players, tribe_draft="random", **overrides)
    return engine.build_tables(config, load_content(config))


def start(players=2, game=0, seed=SEED, **overrides):
    """(tables, state) of one game at its first ``main``, as dealt."""
    t = tables(players, **overrides)
    return t, engine.init(t, [game], seed)


def at_main(**overrides):
    """(tables, state, game row) of 2-player game 0 (``SEED``) at its first ``main``, every
    field's artifact removed, so each field is as the test sets it."""
    t, s = start(**overrides)
    g = s.m[0]
    for f in range(g[st.G_NF]):
        g[st.F_ART + f] = -1
    return t, s, g


def run(s):
    """Advance the hand-edited game to its next decision."""
    engine._run(s, np.zeros(1, dtype=np.int64), False)


def kind(s):
    return st.KIND_NAMES[s.m[0, st.G_KIND]]


def names(t, s):
    return [t.action_names[a] for a in np.flatnonzero(s.legal[0])]


def col(p, c):
    return st.seat_col(p, c)


def step(t, s, name):
    engine.step(s, [t.action_names.index(name)])


def field(t, name):
    return t.field_names.index(name)


def own(t, g, name, p=0, stones=3):
    """Seat ``p`` holds ability ``name`` with ``stones`` skill stones."""
    g[col(p, st.P_OWN + t.ability_names.index(name))] = 1
    g[col(p, st.P_SKILL)] = stones


def put(t, g, p, name, n):
    """``n`` followers of seat ``p`` from its supply onto field ``name``."""
    g[col(p, st.P_FOL + field(t, name))] += n
    g[col(p, st.P_SUPPLY)] -= n
