"""The compiled Recall engine's coded abilities of part 2 (Goliath, ...) on small positions
worked out from the rules (docs/recall_model.md "Abilities", spec 3.21). The cross-check against
the oracle is tests/test_recall_crosscheck.py.
"""
from __future__ import annotations

import numpy as np

from sim.games.recall import state as st
from tests.recall_engine_kit import (col as _col, kind as _kind, names as _names, own, run as _run, start as _at_main,
                                     step as _step)


def test_goliath_repeats_the_light_and_the_dark_token_reward_nested_rc_r220_rc_r65():
    """Path round: dark token D3 (`K:any:2`); its first white step lands on light token L5 (`VP:2`):
    Goliath in that inner window gives VP:2 again; back in the dark token's window Goliath (cost
    now 2, RC-R61) repeats K:any:2, not the inner token's VP:2 (the register is per frame)."""
    t, s = _at_main()
    g = s.m[0]
    own(t, g, "Goliath")
    g[st.G_ROUND] = 4                                       # the hourglass on path space 5
    g[st.G_DARK + 0] = 2                                    # D3 beside path position 0
    g[st.G_LIGHT + 0] = 4                                   # L5 on white position 4
    g[_col(0, st.P_TRK)] = 3
    g[_col(0, st.P_SCORE)] = 19                             # 19 + 4 stays below the symbol 24
    g[st.G_PHASE] = st.PH_PATH
    _run(s)
    assert _kind(s) == "path"
    _step(t, s, "opt:0")
    assert _kind(s) == "track"
    _step(t, s, "opt:0")                                    # white: 3 -> 4, the light token
    assert g[_col(0, st.P_SCORE)] == 21
    assert _kind(s) == "event" and _names(t, s) == ["end", "use:Goliath"]
    _step(t, s, "use:Goliath")
    assert g[_col(0, st.P_SCORE)] == 23 and g[_col(0, st.P_TRK)] == 5   # the second step went on
    assert g[_col(0, st.P_SKILL)] == 3                      # 3 - 1 paid + the fifth field's stone
    assert _kind(s) == "event" and _names(t, s) == ["end", "use:Goliath"]
    _step(t, s, "use:Goliath")                              # the dark token's window
    assert g[_col(0, st.P_SKILL)] == 1 and _kind(s) == "track"
    _step(t, s, "opt:1")                                    # grey: 0 -> 2
    assert g[_col(0, st.P_TRK + 1)] == 2 and g[_col(0, st.P_SCORE)] == 23
    assert not (_kind(s) == "event" and "use:Goliath" in _names(t, s))


def _volcanoes(t, s):
    """Volcano fields of the map; every tile holding one turned face up (a hand-made position)."""
    from sim.games.recall import kernel
    g = s.m[0]
    vol = [f for f in range(int(g[st.G_NF])) if g[st.F_TERR + f] == t.C[kernel.C_VOLCANO]]
    for f in vol:
        k = int(t.tab[t.C[kernel.C_T_FSLOT] + f])
        if k >= 0:
            g[st.G_UP + k] = 1
    return vol


def test_colteron_moves_followers_between_volcanoes_and_gains_a_white_crystal_rc_r208_rc_a45():
    """2 own followers on a volcano: `use:Colteron` (+1 W), source, another volcano, count 2."""
    from sim.games.recall import kernel
    t, s = _at_main()
    g = s.m[0]
    own(t, g, "Colteron")
    vol = _volcanoes(t, s)
    assert len(vol) >= 2
    x, z = vol[0], vol[-1]
    g[_col(0, st.P_FOL + x)] = 2
    white = int(g[_col(0, st.P_CR)])
    _run(s)
    _step(t, s, "use:Colteron")
    assert g[_col(0, st.P_CR)] == white + 1 and _kind(s) == "ability_field"
    field = int(t.C[kernel.C_O_FIELD])
    assert _names(t, s) == ["end", t.action_names[field + x]]
    _step(t, s, t.action_names[field + x])
    assert _kind(s) == "ability_field"
    assert _names(t, s) == [t.action_names[field + f] for f in vol if f != x]
    _step(t, s, t.action_names[field + z])
    assert _kind(s) == "ability_count" and _names(t, s) == ["count:1", "count:2"]
    _step(t, s, "count:2")
    assert g[_col(0, st.P_FOL + x)] == 0 and g[_col(0, st.P_FOL + z)] == 2
    assert _kind(s) == "main" and g[_col(0, st.P_SKILL)] == 2


def test_colteron_without_followers_on_a_volcano_still_gains_the_white_crystal_rc_a45():
    """No own follower on a volcano: only `end`, applied at once; the white crystal is gained."""
    t, s = _at_main()
    g = s.m[0]
    own(t, g, "Colteron")
    for f in _volcanoes(t, s):
        g[_col(0, st.P_FOL + f)] = 0
    white = int(g[_col(0, st.P_CR)])
    _run(s)
    _step(t, s, "use:Colteron")
    assert g[_col(0, st.P_CR)] == white + 1 and _kind(s) == "main"


def test_aynir_makes_up_to_four_exchanges_of_followers_crystals_and_points_rc_r205_rc_a44():
    """No crystals, 6 points, followers on two fields: giving a white crystal is not legal;
    (VP,W), (F,VP) with ``ability_field``, (W,F) and (VP,F) placed on the start field; after the fourth
    exchange the ability ends by itself."""
    from sim.games.recall import kernel
    t, s = _at_main()
    g = s.m[0]
    own(t, g, "Aynir")
    g[_col(0, st.P_CR):_col(0, st.P_CR) + 3] = 0
    g[_col(0, st.P_SCORE)] = 6
    start = int(np.flatnonzero(s.seat(st.P_FOL, st.F_MAX)[0, 0] > 0)[0])
    g[_col(0, st.P_FOL + start)] -= 1
    g[_col(0, st.P_FOL + start + 1)] += 1
    supply = int(g[_col(0, st.P_SUPPLY)])
    field = int(t.C[kernel.C_O_FIELD])
    _run(s)
    _step(t, s, "use:Aynir")
    assert _kind(s) == "ability" and _names(t, s) == ["end", "opt:0", "opt:1", "opt:4", "opt:5"]
    _step(t, s, "opt:5")                                    # a point for a white crystal
    assert g[_col(0, st.P_SCORE)] == 5 and g[_col(0, st.P_CR)] == 1
    assert _kind(s) == "ability" and "opt:2" in _names(t, s)
    _step(t, s, "opt:1")                                    # a follower for a point
    assert _kind(s) == "ability_field" and len(_names(t, s)) == 2
    _step(t, s, t.action_names[field + start + 1])
    assert g[_col(0, st.P_FOL + start + 1)] == 0 and g[_col(0, st.P_SUPPLY)] == supply + 1
    assert g[_col(0, st.P_SCORE)] == 6
    _step(t, s, "opt:2")                                    # a follower for the white crystal: the
    assert g[_col(0, st.P_CR)] == 0                         # start field is the only place (applied)
    assert g[_col(0, st.P_FOL + start)] == 3 and g[_col(0, st.P_SUPPLY)] == supply
    assert _kind(s) == "ability"
    _step(t, s, "opt:4")                                    # a follower for a point
    assert g[_col(0, st.P_FOL + start)] == 4 and g[_col(0, st.P_SCORE)] == 5
    assert _kind(s) == "main" and g[_col(0, st.P_SKILL)] == 2


def test_aynir_end_stops_and_points_never_go_below_zero_rc_a44():
    """0 points and no crystals: only follower exchanges; `end` at once gives nothing."""
    t, s = _at_main()
    g = s.m[0]
    own(t, g, "Aynir")
    g[_col(0, st.P_CR):_col(0, st.P_CR) + 3] = 0
    g[_col(0, st.P_SCORE)] = 0
    _run(s)
    _step(t, s, "use:Aynir")
    assert _kind(s) == "ability" and _names(t, s) == ["end", "opt:0", "opt:1"]
    _step(t, s, "end")
    assert _kind(s) == "main" and g[_col(0, st.P_SCORE)] == 0 and g[_col(0, st.P_CR)] == 0


def test_aynir_receives_a_follower_only_from_the_supply_rc_r205_rc_a44():
    """An empty supply (seed: "Heb je geen volgelingen meer in je voorraad, dan krijg je geen
    nieuwe"): (W,F) and (VP,F) receive nothing, so they are no exchange and not legal; giving a
    follower back first, (F,W), fills the supply and makes them legal (found by the cross-check,
    4 players, game 301075)."""
    from sim.games.recall import kernel
    t, s = _at_main()
    g = s.m[0]
    own(t, g, "Aynir")
    g[_col(0, st.P_CR):_col(0, st.P_CR) + 3] = (1, 0, 0)
    g[_col(0, st.P_SCORE)] = 4
    g[_col(0, st.P_SUPPLY)] = 0
    start = int(np.flatnonzero(s.seat(st.P_FOL, st.F_MAX)[0, 0] > 0)[0])
    g[_col(0, st.P_FOL + start)] -= 1                       # followers on two fields: asked
    g[_col(0, st.P_FOL + start + 1)] += 1
    _run(s)
    _step(t, s, "use:Aynir")
    assert _kind(s) == "ability" and _names(t, s) == ["end", "opt:0", "opt:1", "opt:3", "opt:5"]
    _step(t, s, "opt:0")                                    # a follower for a white crystal
    assert _kind(s) == "ability_field"
    _step(t, s, t.action_names[int(t.C[kernel.C_O_FIELD]) + start])
    assert g[_col(0, st.P_FOL + start)] == 1 and g[_col(0, st.P_SUPPLY)] == 1 and g[_col(0, st.P_CR)] == 2
    assert _kind(s) == "ability" and _names(t, s) == ["end"] + [f"opt:{i}" for i in range(6)]
