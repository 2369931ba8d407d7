"""The compiled Recall engine's coded abilities of kernel/abilities_2.py on small hand-made
positions worked out from the rules (K-01, RC-R226, RC-R227). The cross-check against the oracle
is tests/test_recall_crosscheck.py.
"""
from __future__ import annotations

import numpy as np

from sim.games.recall import engine, kernel
from sim.games.recall import state as st
from sim.games.recall.config import Config
from sim.games.recall.content import load_content
from sim.games.recall.kernel import dev

SEED = 321


def _at_main(players=2):
    config = Config(players=players, tribe_draft="random")
    t = engine.build_tables(config, load_content(config))
    return t, engine.init(t, [0], SEED)


def _run(s):
    engine._run(s, np.zeros(1, dtype=np.int64), False)


def _kind(s):
    return st.KIND_NAMES[s.m[0, st.G_KIND]]


def _names(t, s):
    return [t.action_names[a] for a in np.flatnonzero(s.legal[0])]


def _col(c):
    return st.seat_col(0, c)


def _sanctuary_window(t, s, k):
    """Seat 0 owns K-01 with 3 stones and has just gained sanctuary k's reward: its window."""
    g = s.m[0]
    g[_col(st.P_OWN + t.ability_names.index("K-01"))] = 1
    g[_col(st.P_SKILL)] = 3
    g[st.G_DEV_K], g[st.G_DEV_STEP], g[st.G_DEV_RET] = k, dev.DS_END, st.PH_TURN_END
    g[st.G_PHASE] = st.PH_SANCT_EVENT
    _run(s)
    assert _kind(s) == "event" and _names(t, s) == ["end", "use:K-01"]
    return g


def test_k01_gains_the_sanctuarys_reward_once_more_rc_r226():
    """Sanctuary 2 (``P:1``, RC-A19): K-01 gives a second purple crystal for one stone."""
    t, s = _at_main()
    g = _sanctuary_window(t, s, 1)
    purple = int(g[_col(st.P_CR + 2)])
    engine.step(s, [t.action_names.index("use:K-01")])
    assert g[_col(st.P_CR + 2)] == purple + 1 and g[_col(st.P_SKILL)] == 2


def test_k01_on_the_display_artifact_gives_its_covered_reward_not_a_second_artifact_rc_r227():
    """Sanctuary 6 (``ART_DISPLAY``) gave the first white artifact (covered ``K:white:1``): K-01
    moves the white track once more and takes no artifact."""
    t, s = _at_main()
    g = s.m[0]
    g[_col(st.P_ARTS)] = 1
    g[st.G_ART_LAST] = int(t.tab[t.C[kernel.C_T_COVERED]]) + 1
    g = _sanctuary_window(t, s, 5)
    track, display = int(g[_col(st.P_TRK)]), list(g[st.G_DISP_ART:st.G_DISP_ART + 4])
    engine.step(s, [t.action_names.index("use:K-01")])
    assert g[_col(st.P_TRK)] == track + 1 and g[_col(st.P_ARTS)] == 1
    assert list(g[st.G_DISP_ART:st.G_DISP_ART + 4]) == display


def test_k01_on_the_display_reward_without_an_artifact_taken_gives_nothing_rc_r227():
    """No artifact was on the display (G_ART_LAST 0): K-01 is paid and nothing is gained."""
    t, s = _at_main()
    g = _sanctuary_window(t, s, 5)
    before = g.copy()
    engine.step(s, [t.action_names.index("use:K-01")])
    assert g[_col(st.P_SKILL)] == 2 and list(g[_col(st.P_TRK):_col(st.P_TRK) + 3]) == list(
        before[_col(st.P_TRK):_col(st.P_TRK) + 3]) and g[_col(st.P_ARTS)] == before[_col(st.P_ARTS)]
