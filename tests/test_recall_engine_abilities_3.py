"""The compiled Recall engine's map abilities of kernel/abilities_3.py and the raft reaction of
kernel/rafts.py on small hand-made positions worked out from the rules (Enterin RC-R216..R219,
RC-A50; Vinder RC-R235..R239, RC-A49; Hayla RC-R221..R223, RC-A47). The 2-player setup of game 0
has only tile L face up: L.0 excavation in the centre, L.1 / L.4 the start fields of seats 0 / 1,
L.2 / L.5 sanctuaries, L.3 / L.6 forests; the printed river fields are face-up water. The
cross-check against the oracle is tests/test_recall_crosscheck.py.
"""
from __future__ import annotations

from sim.games.recall import kernel
from sim.games.recall import state as st
from sim.games.recall.content import load_content
from tests.recall_engine_kit import (at_main as _at_main, col as _col, field as _f, kind as _kind, names as _names,
                                     own as _own, put as _put, run as _run, step as _step)

SANCTUARY, WORKSHOP, MONUMENT = 1, 2, 3          # P_BLD values


def _use(t, s, name):
    _run(s)
    assert _kind(s) == "main"
    _step(t, s, f"use:{name}")


# ---- Enterin ---------------------------------------------------------------------------------------

def test_enterin_offers_the_free_forest_fields_next_to_own_followers_rc_r216_rc_r203():
    """Seat 0 has followers on L.0 (and its start field L.1): the islands may go on L.3 and L.6
    (free forests next to L.0); not on L.2 / L.5 (sanctuary terrain), L.4 (start), nor on a forest
    with another player's follower (L.6 once seat 1 stands there: then L.3 alone, placed unasked)."""
    t, s, g = _at_main()
    _own(t, g, "Enterin")
    _put(t, g, 0, "L.0", 1)
    _use(t, s, "Enterin")
    assert _kind(s) == "ability_field" and _names(t, s) == ["field:L.3", "field:L.6"]

    t, s, g = _at_main()
    _own(t, g, "Enterin")
    _put(t, g, 0, "L.0", 1)
    _put(t, g, 1, "L.6", 1)
    _use(t, s, "Enterin")
    assert _kind(s) == "main" and g[st.F_ISLAND + _f(t, "L.3")] == 1 and g[st.F_ISLAND + _f(t, "L.6")] == 0


def test_enterin_island_rewards_per_neighbour_with_a_building_rc_r217_rc_r218_rc_r219_rc_a50():
    """Island on L.3: its neighbours L.2 (seat 1's sanctuary), L.4 (a workshop, set by hand) and L.0
    (a monument, set by hand) give 1 follower on the island, 1 white crystal and 1 point; the field
    becomes forest and water (a water movement may start next to it: from L.0)."""
    t, s, g = _at_main()
    _own(t, g, "Enterin")
    _put(t, g, 0, "L.0", 1)
    g[_col(1, st.P_BLD + _f(t, "L.2"))] = SANCTUARY
    g[_col(1, st.P_BLD + _f(t, "L.4"))] = WORKSHOP
    g[_col(0, st.P_BLD + _f(t, "L.0"))] = MONUMENT
    white, score, supply = int(g[_col(0, st.P_CR)]), int(g[_col(0, st.P_SCORE)]), int(g[_col(0, st.P_SUPPLY)])
    _use(t, s, "Enterin")
    _step(t, s, "field:L.3")
    x = _f(t, "L.3")
    assert g[st.F_ISLAND + x] == 1 and g[st.G_ISLANDS] == 1
    assert load_content(t.config).map.terrains[g[st.F_TERR + x]].name == "forest"
    assert g[_col(0, st.P_FOL + x)] == 1 and g[_col(0, st.P_SUPPLY)] == supply - 1
    assert g[_col(0, st.P_CR)] == white + 1 and g[_col(0, st.P_SCORE)] == score + 1
    assert _kind(s) == "main"
    g[st.G_PHASE] = st.PH_W_FROM                   # a water movement: L.0 borders the island now
    g[st.G_W_RET] = st.PH_MAIN
    _run(s)
    assert _kind(s) == "water_from" and "field:L.0" in _names(t, s) and "field:L.3" in _names(t, s)


def test_enterin_without_islands_left_places_nothing_rc_a36():
    t, s, g = _at_main()
    _own(t, g, "Enterin")
    _put(t, g, 0, "L.0", 1)
    g[st.G_ISLANDS] = int(t.C[kernel.C_NISLANDS])
    _use(t, s, "Enterin")
    assert _kind(s) == "main" and g[_col(0, st.P_SKILL)] == 2
    assert not any(g[st.F_ISLAND:st.F_ISLAND + st.F_MAX])


# ---- Vinder ----------------------------------------------------------------------------------------

def _raft(t, s, g, field, p=0):
    _own(t, g, "Vinder", p)
    g[st.G_ACTIVE] = p
    _use(t, s, "Vinder")
    assert _kind(s) == "ability_field"
    _step(t, s, f"field:{field}")


def test_vinder_puts_the_raft_on_a_free_water_field_with_3_followers_and_moves_it_rc_r235_rc_r236():
    """Any free face-up water field (no presence needed): the 15 river fields; not one with a
    follower (river.3). The raft gets 3 followers from the supply; moved, it keeps them and gets 3 more."""
    t, s, g = _at_main()
    _own(t, g, "Vinder")
    _put(t, g, 1, "river.3", 1)
    supply = int(g[_col(0, st.P_SUPPLY)])
    _use(t, s, "Vinder")
    assert _names(t, s) == [f"field:river.{i}" for i in range(15) if i != 3]
    _step(t, s, "field:river.2")
    assert g[_col(0, st.P_RAFT)] == _f(t, "river.2") + 1 and g[_col(0, st.P_RAFT_N)] == 3
    assert g[_col(0, st.P_SUPPLY)] == supply - 3 and _kind(s) == "main"
    _step(t, s, "use:Vinder")
    assert "field:river.2" not in _names(t, s)     # the raft's own field is not free
    _step(t, s, "field:river.8")
    assert g[_col(0, st.P_RAFT)] == _f(t, "river.8") + 1 and g[_col(0, st.P_RAFT_N)] == 6
    assert g[_col(0, st.P_SUPPLY)] == supply - 6


def test_vinder_raft_gets_what_the_supply_has_rc_a49():
    t, s, g = _at_main()
    _own(t, g, "Vinder")
    g[_col(0, st.P_SUPPLY)] = 2
    _use(t, s, "Vinder")
    _step(t, s, "field:river.2")
    assert g[_col(0, st.P_RAFT_N)] == 2 and g[_col(0, st.P_SUPPLY)] == 0


def test_raft_reaction_puts_a_follower_where_one_was_removed_next_to_it_rc_r238_rc_r239_rc_a49():
    """Seat 1's raft on river.2 holds 2 followers. Seat 0 removes a follower from river.3 (next to
    the raft) with Alambiek: seat 1 puts 1 follower from its raft on river.3. A second removal
    there empties the raft, which leaves the board; a third removal brings nothing."""
    t, s, g = _at_main()
    r = _f(t, "river.3")
    g[_col(1, st.P_RAFT)] = _f(t, "river.2") + 1
    g[_col(1, st.P_RAFT_N)] = 2
    g[_col(1, st.P_SUPPLY)] -= 2
    _own(t, g, "Alambiek", stones=12)
    _put(t, g, 0, "river.3", 3)
    for raft_left, seat1_there in ((1, 1), (0, 2), (0, 2)):
        _use(t, s, "Alambiek")
        assert _kind(s) == "ability_field"
        _step(t, s, "field:river.3")
        assert g[_col(1, st.P_RAFT_N)] == raft_left and g[_col(1, st.P_FOL + r)] == seat1_there
    assert g[_col(0, st.P_FOL + r)] == 0 and g[_col(1, st.P_RAFT)] == 0


def test_raft_reaction_not_for_a_removal_elsewhere_rc_a49():
    """A removal from L.1 (not next to the raft on river.2) leaves the raft as it is."""
    t, s, g = _at_main()
    g[_col(0, st.P_RAFT)] = _f(t, "river.2") + 1
    g[_col(0, st.P_RAFT_N)] = 3
    _own(t, g, "Alambiek")
    _use(t, s, "Alambiek")                          # seat 0's only followers: its start field L.1
    assert g[_col(0, st.P_FOL + _f(t, "L.1"))] == 2 and g[_col(0, st.P_RAFT_N)] == 3


# ---- Hayla -----------------------------------------------------------------------------------------

def test_hayla_jump_over_the_excavation_site_to_the_other_start_field_rc_r222_rc_a47():
    """From L.1 the only jump goes over L.0 (its neighbour in that direction) to L.4; over L.2 /
    L.6 it would land on face-down tiles. Seat 0 chooses the jump (the scatter is possible too),
    the source and landing field are the only ones (unasked), then ``ability_count`` 1..3."""
    t, s, g = _at_main()
    _own(t, g, "Hayla")
    _use(t, s, "Hayla")
    assert _kind(s) == "ability" and _names(t, s) == ["opt:0", "opt:1"]
    _step(t, s, "opt:0")
    assert _kind(s) == "ability_count" and _names(t, s) == ["count:1", "count:2", "count:3"]
    _step(t, s, "count:2")
    assert g[_col(0, st.P_FOL + _f(t, "L.1"))] == 1 and g[_col(0, st.P_FOL + _f(t, "L.4"))] == 2
    assert _kind(s) == "main"


def test_hayla_jump_onto_an_artifact_pays_it_from_the_group_rc_a47_rc_r99_rc_a18():
    """A white artifact on L.4 (first box: cost 1 follower, covered K:white:1): the count starts
    at 1, the group of 2 pays 1 follower on L.4 and seat 0 takes the artifact and its step."""
    t, s, g = _at_main()
    _own(t, g, "Hayla")
    g[st.F_ART + _f(t, "L.4")] = 0
    track, supply = int(g[_col(0, st.P_TRK)]), int(g[_col(0, st.P_SUPPLY)])
    _use(t, s, "Hayla")
    _step(t, s, "opt:0")
    _step(t, s, "count:2")
    assert g[_col(0, st.P_FOL + _f(t, "L.4"))] == 1 and g[_col(0, st.P_SUPPLY)] == supply + 1
    assert g[_col(0, st.P_ARTS)] == 1 and g[st.F_ART + _f(t, "L.4")] == -1
    assert g[_col(0, st.P_TRK)] == track + 1


def test_hayla_scatter_moves_each_follower_of_the_field_to_a_neighbour_rc_r223_rc_a47():
    """Seat 0 has 2 followers on L.0 and 3 on L.1; the scatter's source is asked, then each of
    L.0's followers is moved one at a time to a neighbour of L.0 (L.1 .. L.6, all enterable)."""
    t, s, g = _at_main()
    _own(t, g, "Hayla")
    _put(t, g, 0, "L.0", 2)
    _use(t, s, "Hayla")
    _step(t, s, "opt:1")
    assert _kind(s) == "ability_field" and _names(t, s) == ["field:L.0", "field:L.1"]
    _step(t, s, "field:L.0")
    assert _kind(s) == "ability_field" and _names(t, s) == [f"field:L.{i}" for i in range(1, 7)]
    _step(t, s, "field:L.2")
    assert _kind(s) == "ability_field"
    _step(t, s, "field:L.5")
    assert [g[_col(0, st.P_FOL + _f(t, f"L.{i}"))] for i in (0, 2, 5)] == [0, 1, 1]
    assert _kind(s) == "main"


def test_hayla_scatter_follower_pays_an_artifact_alone_rc_a47():
    """A scattered follower pays an artifact alone: L.3's grey artifact (first box: 1 follower) may
    be entered, the follower pays itself away and the artifact is taken; L.6's white one (seat 0
    has 2 white artifacts: third box, 2 followers) may not."""
    t, s, g = _at_main()
    _own(t, g, "Hayla")
    _put(t, g, 0, "L.0", 1)
    g[st.F_ART + _f(t, "L.3")] = 1                 # grey, first box: 1 follower
    g[st.F_ART + _f(t, "L.6")] = 0
    g[_col(0, st.P_ARTS)] = 2                      # white's third box: 2 followers
    supply = int(g[_col(0, st.P_SUPPLY)])
    _use(t, s, "Hayla")
    _step(t, s, "opt:1")
    _step(t, s, "field:L.0")
    assert _names(t, s) == ["field:L.1", "field:L.2", "field:L.3", "field:L.4", "field:L.5"]
    _step(t, s, "field:L.3")
    assert g[_col(0, st.P_FOL + _f(t, "L.3"))] == 0 and g[_col(0, st.P_SUPPLY)] == supply + 1
    assert g[_col(0, st.P_ARTS + 1)] == 1 and g[st.F_ART + _f(t, "L.3")] == -1


def test_hayla_jump_onto_an_artifact_with_exoskelet_asks_the_payment_rc_a47_rc_r244():
    """With Exoskelet usable the landing field's artifact needs no follower (count from 1) and the
    ``payment`` decision comes: Exoskelet pays, the 2 followers that jumped all stay on L.4."""
    t, s, g = _at_main()
    _own(t, g, "Hayla", stones=4)
    g[_col(0, st.P_OWN + t.ability_names.index("Exoskelet"))] = 1
    g[st.F_ART + _f(t, "L.4")] = 0
    _use(t, s, "Hayla")
    _step(t, s, "opt:0")
    assert _names(t, s) == ["count:1", "count:2", "count:3"]
    _step(t, s, "count:2")
    assert _kind(s) == "payment" and _names(t, s) == ["end", "use:Exoskelet"]
    _step(t, s, "use:Exoskelet")
    assert g[_col(0, st.P_FOL + _f(t, "L.4"))] == 2 and g[_col(0, st.P_ARTS)] == 1
    assert g[_col(0, st.P_SKILL)] == 2                 # 4 - Hayla 1 - Exoskelet 1


def test_raft_reaction_after_a_development_actions_follower_cost_rc_r238_rc_a49_rc_r119():
    """Seat 0 builds a monument on BM_grey (next to the river fields 5, 6 and 7) and pays 1
    follower there; seat 1's raft on river.6 puts 1 follower of seat 1 on BM_grey."""
    t, s, g = _at_main()
    bm = _f(t, "BM_grey")
    _put(t, g, 0, "BM_grey", 2)
    g[_col(0, st.P_CR):_col(0, st.P_CR) + 3] = (6, 6, 6)
    g[_col(1, st.P_RAFT)] = _f(t, "river.6") + 1
    g[_col(1, st.P_RAFT_N)] = 3
    g[st.G_DEV_RET], g[st.G_HERE], g[st.G_PHASE] = st.PH_TURN_END, 0, st.PH_DEV
    _run(s)
    assert _kind(s) == "dev" and "opt:2" in _names(t, s)
    _step(t, s, "opt:2")                               # a monument; BM_grey the only field
    assert g[_col(0, st.P_BLD + bm)] == MONUMENT and g[_col(0, st.P_FOL + bm)] == 1
    assert g[_col(1, st.P_FOL + bm)] == 1 and g[_col(1, st.P_RAFT_N)] == 2
