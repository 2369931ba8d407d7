"""The compiled Recall engine's pigs, pig farms and rings (kernel/pigs.py, kernel/rings.py) on small
hand-made positions worked out from the rules (Dorian RC-R210..R215, RC-A36, RC-A46, RC-A57, RC-A72;
Noorderling's rings RC-R233, RC-R234, RC-A31). The 2-player setup of game 0 has only tile L face
up: L.0 excavation in the centre, L.1 / L.4 the start fields of seats 0 / 1 (3 followers each),
L.2 / L.5 sanctuaries, L.3 / L.6 forests (made grain or camp fields by hand below); the printed
river fields are face-up water. The cross-check against the oracle is
tests/test_recall_crosscheck.py (policy ``PIGS``).
"""
from __future__ import annotations

import numpy as np

from sim.core import rng
from sim.games.recall import kernel
from sim.games.recall import state as st
from tests.recall_engine_kit import (SEED, at_main as _at_main, col as _col, field as _f, kind as _kind, names as _names, own,
                                     put as _put, run as _run, step as _step)
from sim.games.recall.game import pig_farms

MONUMENT = 3                                     # P_BLD value


def _own(t, g, name, p=0, stones=6):
    own(t, g, name, p, stones)


def _grain(t, g, field, shown):
    """Make ``field`` a grain field showing ``shown`` pigs."""
    g[st.F_TERR + _f(t, field)] = int(t.C[kernel.C_GRAIN])
    g[st.F_PIGS + _f(t, field)] = shown


def _pigs(t, g, field, n):
    """n pigs from the pig supply onto ``field``."""
    g[st.F_PIGS_ON + _f(t, field)] += n
    g[st.G_PIGS_OUT] += n


def _use(t, s, name):
    _run(s)
    assert _kind(s) == "main"
    _step(t, s, f"use:{name}")


def _on(t, g, field, p=0):
    return int(g[_col(p, st.P_FOL + _f(t, field))]), int(g[st.F_PIGS_ON + _f(t, field)])


# ---- Dorian's ability ---------------------------------------------------------------------------------

def test_dorian_places_a_farm_with_its_pigs_where_present_rc_r210_rc_r211_rc_a36():
    """L.3 (2 pigs shown) and L.6 (3) are grain; seat 0 stands on L.3 only: the farm goes there
    unasked with 2 pigs. With followers on L.6 too the next use asks L.6 alone (L.3 has a farm,
    RC-R211); with 1 pig left in the supply that farm gets 1 (RC-A36). No farm left: nothing."""
    t, s, g = _at_main()
    _own(t, g, "Dorian")
    _grain(t, g, "L.3", 2)
    _grain(t, g, "L.6", 3)
    _put(t, g, 0, "L.3", 1)
    _use(t, s, "Dorian")
    assert _kind(s) == "main" and g[st.F_FARM + _f(t, "L.3")] == 1 and g[st.G_FARMS] == 1
    assert _on(t, g, "L.3") == (1, 2) and g[st.G_PIGS_OUT] == 2
    _put(t, g, 0, "L.6", 1)
    g[st.G_PIGS_OUT] = int(t.C[kernel.C_NPIGS]) - 1
    _step(t, s, "use:Dorian")
    assert _kind(s) == "main" and g[st.F_FARM + _f(t, "L.6")] == 1 and _on(t, g, "L.6") == (1, 1)
    assert g[st.G_PIGS_OUT] == int(t.C[kernel.C_NPIGS])

    t, s, g = _at_main()
    _own(t, g, "Dorian")
    for field in ("L.3", "L.6"):
        _grain(t, g, field, 1)
        _put(t, g, 0, field, 1)
    _use(t, s, "Dorian")
    assert _kind(s) == "ability_field" and _names(t, s) == ["field:L.3", "field:L.6"]
    g[st.G_FARMS] = int(t.C[kernel.C_NFARMS])    # RC-A36: none left, the ability does nothing
    _step(t, s, "field:L.6")
    g[st.F_FARM + _f(t, "L.6")] = 0
    _step(t, s, "use:Dorian")
    assert _kind(s) == "main" and g[st.F_FARM + _f(t, "L.3")] == 0 and g[st.F_FARM + _f(t, "L.6")] == 0


def test_dorian_presence_on_the_tile_allows_a_farm_on_any_grain_field_of_it_rc_a57():
    """``dorian_presence = "tile"``: seat 0 stands only on L.1 (its start field) and L.3 is grain:
    the farm may go on L.3 (same tile); with ``"field"`` it may not (nothing happens)."""
    for presence, farm in (("tile", 1), ("field", 0)):
        t, s, g = _at_main(dorian_presence=presence)
        _own(t, g, "Dorian")
        _grain(t, g, "L.3", 2)
        _use(t, s, "Dorian")
        assert _kind(s) == "main" and g[st.F_FARM + _f(t, "L.3")] == farm


# ---- pigs pay first ------------------------------------------------------------------------------------

def _monument_on_bm_grey(t, s, g):
    """Seat 1 has a monument on BM_grey (seat 0's follower cost there: 1 + 1 other builder = 2);
    seat 0 begins a development action with crystals for any monument."""
    g[_col(1, st.P_BLD + _f(t, "BM_grey"))] = MONUMENT
    g[_col(0, st.P_CR):_col(0, st.P_CR) + 3] = (6, 6, 6)
    g[st.G_DEV_RET], g[st.G_HERE], g[st.G_PHASE] = st.PH_TURN_END, 0, st.PH_DEV
    _run(s)


def test_pigs_pay_a_development_cost_before_followers_rc_r213_rc_a72():
    """Seat 0 (Dorian) has 1 follower and 2 pigs on BM_grey: the cost 2 is payable (RC-R213) and
    paid by the 2 pigs, which go back to the pig supply; the follower stays. Without Dorian the
    same position cannot build there (1 follower < 2)."""
    t, s, g = _at_main()
    _own(t, g, "Dorian")
    _put(t, g, 0, "BM_grey", 1)
    _pigs(t, g, "BM_grey", 2)
    _monument_on_bm_grey(t, s, g)
    assert _kind(s) == "dev" and "opt:2" in _names(t, s)
    _step(t, s, "opt:2")                          # a monument; BM_grey the only field
    bm = _f(t, "BM_grey")
    assert g[_col(0, st.P_BLD + bm)] == MONUMENT and _on(t, g, "BM_grey") == (1, 0)
    assert g[st.G_PIGS_OUT] == 0 and g[_col(1, st.P_FOL + bm)] == 1    # RC-R121: seat 1's follower

    t, s, g = _at_main()
    _put(t, g, 0, "BM_grey", 1)
    _pigs(t, g, "BM_grey", 2)
    _monument_on_bm_grey(t, s, g)
    assert "opt:2" not in _names(t, s)


# ---- move_pigs -----------------------------------------------------------------------------------------

def test_move_pigs_range_from_the_artifact_need_to_the_pigs_on_the_source_rc_r212_rc_a18():
    """Seat 0 (Dorian, Boots: MOVE:1) has 1 follower and 3 pigs on L.0; L.3 holds a white artifact
    in seat 0's third box (2 followers). The group of 1 follower (``move_count`` 1..1, unasked)
    must bring 1 pig at least: ``move_pigs`` 1..3. With 2 pigs along, both pay the artifact
    (pigs first): the follower stays on L.3, 1 pig is left on L.0, the artifact is taken."""
    t, s, g = _at_main()
    _own(t, g, "Dorian")
    _own(t, g, "Boots")
    _put(t, g, 0, "L.0", 1)
    _pigs(t, g, "L.0", 3)
    g[st.F_ART + _f(t, "L.3")] = 0
    g[_col(0, st.P_ARTS)] = 2
    _use(t, s, "Boots")
    assert _kind(s) == "move_from"
    _step(t, s, "field:L.0")
    assert "field:L.3" in _names(t, s)           # enterable: 1 follower + 3 pigs >= 2
    _step(t, s, "field:L.3")
    assert _kind(s) == "move_pigs" and _names(t, s) == ["opt:1", "opt:2", "opt:3"]
    _step(t, s, "opt:2")
    assert _on(t, g, "L.3") == (1, 0) and _on(t, g, "L.0") == (0, 1) and g[st.G_PIGS_OUT] == 1
    assert g[_col(0, st.P_ARTS)] == 3 and g[st.F_ART + _f(t, "L.3")] == -1


def test_move_pigs_to_a_field_without_artifact_from_none_to_all_rc_r212():
    """No artifact on the way: ``move_pigs`` 0..2 after the count; the pigs chosen go along."""
    t, s, g = _at_main()
    _own(t, g, "Dorian")
    _own(t, g, "Boots")
    _pigs(t, g, "L.1", 2)
    _use(t, s, "Boots")
    _step(t, s, "field:L.1")
    _step(t, s, "field:L.0")
    _step(t, s, "count:2")
    assert _kind(s) == "move_pigs" and _names(t, s) == ["opt:0", "opt:1", "opt:2"]
    _step(t, s, "opt:1")
    assert _on(t, g, "L.0") == (2, 1) and _on(t, g, "L.1") == (1, 1)


def test_no_move_pigs_without_the_dorian_ability_rc_r212_rc_a46():
    """Pigs move only with a Dorian holder's group: without Dorian they stay, nothing is asked."""
    t, s, g = _at_main()
    _own(t, g, "Boots")
    _pigs(t, g, "L.1", 2)
    _use(t, s, "Boots")
    _step(t, s, "field:L.1")
    _step(t, s, "field:L.0")
    _step(t, s, "count:2")
    assert _kind(s) == "main" and _on(t, g, "L.0") == (2, 0) and _on(t, g, "L.1") == (1, 2)


# ---- Hayla takes pigs along ------------------------------------------------------------------------------

def test_hayla_jump_and_scatter_take_pigs_along_rc_r212_rc_r222_rc_r223():
    """Jump from L.1 (3 followers, 2 pigs) over L.0 to L.4: ``ability_count`` 1..3, then
    ``move_pigs`` 0..2. Scatter of L.0 (2 followers, 1 pig): the first follower's field, then
    ``move_pigs`` 0..1; the second follower has no pig left to take (nothing asked)."""
    t, s, g = _at_main()
    _own(t, g, "Dorian")
    _own(t, g, "Hayla")
    _pigs(t, g, "L.1", 2)
    _use(t, s, "Hayla")
    _step(t, s, "opt:0")
    assert _kind(s) == "ability_count" and _names(t, s) == ["count:1", "count:2", "count:3"]
    _step(t, s, "count:2")
    assert _kind(s) == "move_pigs" and _names(t, s) == ["opt:0", "opt:1", "opt:2"]
    _step(t, s, "opt:1")
    assert _kind(s) == "main" and _on(t, g, "L.4") == (2, 1) and _on(t, g, "L.1") == (1, 1)

    t, s, g = _at_main()
    _own(t, g, "Dorian")
    _own(t, g, "Hayla")
    _put(t, g, 0, "L.0", 2)
    _pigs(t, g, "L.0", 1)
    _use(t, s, "Hayla")
    _step(t, s, "opt:1")
    _step(t, s, "field:L.0")
    _step(t, s, "field:L.2")
    assert _kind(s) == "move_pigs" and _names(t, s) == ["opt:0", "opt:1"]
    _step(t, s, "opt:1")
    assert _kind(s) == "ability_field"
    _step(t, s, "field:L.5")
    assert _kind(s) == "main"
    assert _on(t, g, "L.2") == (1, 1) and _on(t, g, "L.5") == (1, 0) and _on(t, g, "L.0") == (0, 0)


# ---- fields with pigs or a farm are not free ---------------------------------------------------------------

def test_island_and_raft_refused_on_a_field_with_pigs_or_a_farm_rc_r203_rc_a46():
    """Enterin next to L.0 offers the forests L.3 and L.6; a pig on L.3 leaves L.6 alone (placed
    unasked); a pig on L.3 and a farm on L.6 leave none. Vinder: a pig on river.2 takes it out."""
    t, s, g = _at_main()
    _own(t, g, "Enterin")
    _put(t, g, 0, "L.0", 1)
    _pigs(t, g, "L.3", 1)
    _use(t, s, "Enterin")
    assert _kind(s) == "main" and g[st.F_ISLAND + _f(t, "L.6")] == 1 and g[st.F_ISLAND + _f(t, "L.3")] == 0

    t, s, g = _at_main()
    _own(t, g, "Enterin")
    _put(t, g, 0, "L.0", 1)
    _pigs(t, g, "L.3", 1)
    g[st.F_FARM + _f(t, "L.6")] = 1
    _use(t, s, "Enterin")
    assert _kind(s) == "main" and not g[st.F_ISLAND:st.F_ISLAND + st.F_MAX].any()

    t, s, g = _at_main()
    _own(t, g, "Vinder")
    _pigs(t, g, "river.2", 1)
    _use(t, s, "Vinder")
    assert _kind(s) == "ability_field" and "field:river.2" not in _names(t, s) and "field:river.3" in _names(t, s)


# ---- rings ---------------------------------------------------------------------------------------------

def test_ring_placement_costs_a_follower_and_draws_from_the_rings_left_rc_r233_rc_r234_rc_a31():
    """Seat 0 (Noorderling) has 2 followers on camp field L.3 and 1 on camp field L.6. ``ring``
    asks the camp, 1 follower goes to the supply, the ring is the ``rings`` stream's draw 0 among
    9 (index 2: RG3, K:any:1, so ``track``), then draw 1 among the 8 left (index 1: RG2, W:2). A
    camp with a ring takes no second one (RC-R234): no ``ring`` is offered afterwards."""
    t, s, g = _at_main()
    _own(t, g, "Noorderling")
    for field in ("L.3", "L.6"):
        g[st.F_CAMP + _f(t, field)] = 0
    _put(t, g, 0, "L.3", 2)
    _put(t, g, 0, "L.6", 1)
    key = rng.stream_keys(SEED, [0], "rings")
    assert int(rng.integers(key, 0, 9)[0]) == 2 and int(rng.integers(key, 1, 8)[0]) == 1
    supply, white, track = int(g[_col(0, st.P_SUPPLY)]), int(g[_col(0, st.P_CR)]), int(g[_col(0, st.P_TRK)])
    _run(s)
    assert "ring" in _names(t, s)
    _step(t, s, "ring")
    assert _kind(s) == "ability_field" and _names(t, s) == ["field:L.3", "field:L.6"]
    _step(t, s, "field:L.3")
    assert _kind(s) == "track"                    # RG3: K:any:1
    _step(t, s, "opt:0")
    assert g[_col(0, st.P_TRK)] == track + 1 and g[st.F_RING + _f(t, "L.3")] == 1
    assert _on(t, g, "L.3") == (1, 0) and g[_col(0, st.P_SUPPLY)] == supply + 1
    assert g[st.G_RINGS] == 1 and g[st.G_RING_USED + 2] == 1
    assert _kind(s) == "main" and "ring" in _names(t, s)
    _step(t, s, "ring")                           # L.6 the only camp without a ring: unasked
    assert g[_col(0, st.P_CR)] == white + 2 and g[st.G_RING_USED + 1] == 1 and g[st.G_RINGS] == 2
    assert _on(t, g, "L.6") == (0, 0) and "ring" not in _names(t, s)


# ---- pig farms at the end ------------------------------------------------------------------------------------

def test_pig_farm_end_points_under_both_presence_readings_rc_r214_rc_r215_rc_a57():
    """Farms on L.3 and L.6. Seat 0 (Dorian) stands on L.6 and L.0; seat 1 (no Dorian) on L.3.
    ``dorian_presence = "field"``: seat 0 is present on 1 farm (L.6), seat 1 scores none; "tile":
    seat 0 is present on tile L, so on both farms. Seat 1 with Dorian too (RC-R215): 1 farm
    (L.3) by field, 2 by tile (its start field L.4 is on tile L)."""
    for presence, seat0, seat1 in (("field", 1, 1), ("tile", 2, 2)):
        t, s, g = _at_main(dorian_presence=presence)
        _own(t, g, "Dorian")
        for field in ("L.3", "L.6"):
            g[st.F_FARM + _f(t, field)] = 1
        _put(t, g, 0, "L.6", 1)
        _put(t, g, 0, "L.0", 1)
        _put(t, g, 1, "L.3", 1)
        assert pig_farms(s).tolist() == [[seat0, 0]]
        _own(t, g, "Dorian", p=1)
        assert pig_farms(s).tolist() == [[seat0, seat1]]


# ---- what a player observes -----------------------------------------------------------------------------

def test_pigs_farms_and_rings_are_public_and_kept_by_sample_state_rc_a68():
    """Pigs on a field, a farm and a ring (and the rings of each kind placed) are in every
    player's observation and in a state sampled from it; the ring draws to come are not known:
    the sampled state has its own key for them."""
    from sim.games.recall.observe import observe, sample_state
    t, s, g = _at_main()
    _pigs(t, g, "L.3", 2)
    g[st.F_FARM + _f(t, "L.6")] = 1
    g[st.F_RING + _f(t, "L.2")] = 1
    g[st.G_RINGS], g[st.G_RING_USED + 4] = 1, 1
    cols = [st.F_PIGS_ON + _f(t, "L.3"), st.F_FARM + _f(t, "L.6"), st.F_RING + _f(t, "L.2"), st.G_RINGS,
            st.G_RING_USED + 4, st.G_PIGS_OUT]
    for viewer in (0, 1):
        obs = observe(s, [viewer])
        assert obs.m[0, cols].tolist() == [2, 1, 1, 1, 1, 2]
        sampled = sample_state(obs, np.array([7], dtype=np.uint64))
        assert sampled.m[0, cols].tolist() == [2, 1, 1, 1, 1, 2]
        words = sampled.hidden[0, st.H_RINGKEY:st.H_RINGKEY + 4]
        assert (words >= 0).all() and words.tolist() != s.hidden[0, st.H_RINGKEY:st.H_RINGKEY + 4].tolist()


def test_water_group_takes_pigs_along_and_they_pay_first_on_the_water_rc_r212_rc_a72_rc_a7():
    """Seat 0 (Dorian) has 2 followers and 2 pigs on BM_grey (next to river.5..7); river.6 holds a
    white artifact in seat 0's third box (2 followers). ``water_count`` 1, ``move_pigs`` 0..2 (2):
    the group of 1 follower + 2 pigs may enter river.6 (3 >= 2) and its 2 pigs pay the artifact,
    back to the pig supply; the follower goes on. With 1 pig along and 2 followers, the pig and 1
    follower pay (the follower to the supply)."""
    for count, pigs, group_after, supply_back in ((1, 2, 1, 0), (2, 1, 1, 1)):
        t, s, g = _at_main()
        _own(t, g, "Dorian")
        _put(t, g, 0, "BM_grey", 2)
        _pigs(t, g, "BM_grey", 2)
        g[st.F_ART + _f(t, "river.6")] = 0
        g[_col(0, st.P_ARTS)] = 2
        g[st.G_PHASE], g[st.G_W_RET] = st.PH_W_FROM, st.PH_MAIN
        supply = int(g[_col(0, st.P_SUPPLY)])
        _run(s)
        _step(t, s, "field:BM_grey")
        _step(t, s, f"count:{count}")
        assert _kind(s) == "move_pigs" and _names(t, s) == ["opt:0", "opt:1", "opt:2"]
        _step(t, s, f"opt:{pigs}")
        assert g[st.G_W_GROUP] == count and g[st.G_W_PIGS] == pigs and _on(t, g, "BM_grey") == (2 - count, 2 - pigs)
        assert _kind(s) == "water_step" and "field:river.6" in _names(t, s)
        _step(t, s, "field:river.6")
        assert g[st.G_W_GROUP] == group_after and g[st.G_W_PIGS] == 0 and g[st.G_PIGS_OUT] == 2 - pigs
        assert g[_col(0, st.P_ARTS)] == 3 and g[_col(0, st.P_SUPPLY)] == supply + supply_back
