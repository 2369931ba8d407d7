"""The compiled Recall engine's coded abilities of kernel/abilities_2.py on small hand-made
positions worked out from the rules (K-01, RC-R226, RC-R227). The cross-check against the oracle
is tests/test_recall_crosscheck.py.
"""
from __future__ import annotations

from functools import partial

from sim.games.recall import engine, kernel
from sim.games.recall import state as st
from sim.games.recall.kernel import dev
from tests.recall_engine_kit import col, kind as _kind, names as _names, own, run as _run, start as _at_main

_col = partial(col, 0)                                  # seat 0's column: every position here is seat 0's


def _sanctuary_window(t, s, k):
    """Seat 0 owns K-01 with 3 stones and has just gained sanctuary k's reward: its window."""
    g = s.m[0]
    own(t, g, "K-01")
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


def _own_portaal(t, s):
    g = s.m[0]
    own(t, g, "Portaal")
    return g


def _field(t, f):
    return t.action_names[int(t.C[kernel.C_O_FIELD]) + f]


def test_portaal_places_a_new_follower_also_on_another_players_building_rc_r248_rc_r76():
    """Seat 1 has a building on a field where seat 0 has nothing: Portaal's ``place`` offers it
    besides seat 0's own fields; the follower comes from the supply, then back to ``main``."""
    t, s = _at_main()
    g = _own_portaal(t, s)
    own = [f for f in range(g[st.G_NF]) if g[_col(st.P_FOL + f)] > 0 or g[_col(st.P_BLD + f)] > 0
           or g[st.F_START + f] == g[_col(st.P_START)]]
    other = next(f for f in range(g[st.G_NF]) if f not in own)
    g[st.seat_col(1, st.P_BLD + other)] = 1
    supply = int(g[_col(st.P_SUPPLY)])
    _run(s)
    engine.step(s, [t.action_names.index("use:Portaal")])
    assert _kind(s) == "place" and _names(t, s) == [_field(t, f) for f in sorted(own + [other])]
    engine.step(s, [t.action_names.index(_field(t, other))])
    assert g[_col(st.P_FOL + other)] == 1 and g[_col(st.P_SUPPLY)] == supply - 1
    assert _kind(s) == "main" and g[_col(st.P_SKILL)] == 2


def test_portaal_with_an_empty_supply_places_nothing_rc_r248_rc_a73():
    """No follower in the supply: Portaal is paid, nothing is placed, the turn goes on."""
    t, s = _at_main()
    g = _own_portaal(t, s)
    g[_col(st.P_SUPPLY)] = 0
    followers = g[_col(st.P_FOL):_col(st.P_FOL) + st.F_MAX].copy()
    _run(s)
    engine.step(s, [t.action_names.index("use:Portaal")])
    assert _kind(s) == "main" and g[_col(st.P_SKILL)] == 2
    assert list(g[_col(st.P_FOL):_col(st.P_FOL) + st.F_MAX]) == list(followers)
