"""The compiled Recall engine: development actions, exploring and upgrade tiles on small positions.

Each position is a game at its first ``main`` with a hand edit: seat 0 owns no ability (no
Exoskelet payment, no windows), holds followers on one field whose terrain is set by the test,
and has a ``DEV:1`` item pending (or an ``EXPLORE``); the expected result is worked out from
docs/recall_model.md ("Development action", "Explore") and the default content
(player_board.toml, setup.toml). The lockstep cross-check is tests/test_recall_crosscheck.py.
"""
from __future__ import annotations

import numpy as np

from sim.core import rng
from sim.games.recall import kernel
from sim.games.recall import state as st
from sim.games.recall.content_types import TERRAINS
from sim.games.recall.game import end_state
from sim.games.recall.kernel.dev import production_visible
from sim.games.recall.kernel.explore import explorable
from tests.recall_engine_kit import (SEED, col as _col, kind as _kind, names as _names, run as _run, start, step as _step,
                                     tables as _tables)

W, R, P = 0, 1, 2


def _field(t, s):
    """A field of a face-up area tile that is not a start field and has no artifact."""
    g = s.m[0]
    slot = t.part(kernel.C_T_FSLOT, len(t.field_names))
    for f in range(len(t.field_names)):
        if slot[f] >= 0 and g[st.G_UP + slot[f]] == 1 and g[st.F_START + f] < 0 and g[st.F_ART + f] < 0:
            return f
    raise AssertionError("no field")


def _position(terrain, followers=2, players=2, pending=(-1, -1, -1, 1)):
    """Seat 0 at ``effect`` with one pending item (default a ``DEV:1``) and ``followers`` on a
    field of ``terrain``; no abilities, no camps on the map."""
    t, s = start(players)
    g = s.m[0]
    g[_col(0, st.P_OWN):_col(0, st.P_OWN) + st.U_MAX] = 0
    g[st.F_CAMP:st.F_CAMP + st.F_MAX] = -1
    f = _field(t, s)
    g[st.F_TERR + f] = TERRAINS.index(terrain)
    g[st.F_SITE + 3 * f:st.F_SITE + 3 * f + 3] = 0
    g[_col(0, st.P_FOL) + f] = followers
    g[_col(0, st.P_SUPPLY)] -= followers
    g[st.G_PEND_N] = 1
    g[st.G_PEND:st.G_PEND + st.PEND_W] = pending
    g[st.G_PHASE] = st.PH_EFFECT
    _run(s)
    assert _kind(s) == "effect"
    return t, s, f


def _dev(t, s, option):
    """Pick the pending DEV:1 and choose type ``option`` (``opt:t``)."""
    _step(t, s, "pick:0")
    assert _kind(s) == "dev"
    _step(t, s, f"opt:{option}")


def test_dev_offers_the_types_with_a_legal_target_rc_r113_rc_r114_rc_r116():
    """Followers on a sanctuary field, 3 white crystals: sanctuary (0) and the crystal upgrade (4);
    no workshop, monument or excavation site to build on."""
    t, s, f = _position("sanctuary")
    _step(t, s, "pick:0")
    assert _kind(s) == "dev" and _names(t, s) == ["end", "opt:0", "opt:4"]


def test_a_sanctuary_asks_its_position_then_pays_a_follower_and_gives_its_reward_rc_r119_rc_r124_rc_r127():
    """Sanctuary 2 (``P:1``): one follower back to the supply, the building on the field, a
    purple crystal, the sanctuary off the player board, its production field P4 uncovered (RC-A16)."""
    t, s, f = _position("sanctuary")
    supply = int(s.m[0, _col(0, st.P_SUPPLY)])
    _dev(t, s, 0)
    assert _kind(s) == "sanctuary" and _names(t, s) == [f"opt:{i}" for i in range(6)]
    g = s.m[0]
    assert not production_visible(g, 0, 3, t.C, t.tab)
    _step(t, s, "opt:1")
    assert g[_col(0, st.P_FOL) + f] == 1 and g[_col(0, st.P_SUPPLY)] == supply + 1
    assert g[_col(0, st.P_BLD) + f] == 1 and g[_col(0, st.P_CR) + P] == 1 and g[_col(0, st.P_SANCT)] == 0b10
    assert production_visible(g, 0, 3, t.C, t.tab)
    assert _kind(s) == "turn_end" or _kind(s) == "main"


def test_building_beside_another_builder_pays_one_more_and_gives_them_a_follower_rc_r117_rc_r120_rc_r121():
    """Seat 1 has a sanctuary there: seat 0 pays 1 + 1 followers, seat 1 places 1 from its
    supply (RC-A52). With a single follower seat 0 cannot build; nobody builds twice (RC-R117)."""
    t, s, f = _position("sanctuary", followers=1)
    s.m[0, _col(1, st.P_BLD) + f] = 1
    _step(t, s, "pick:0")
    assert "opt:0" not in _names(t, s)
    t, s, f = _position("sanctuary", followers=2)
    g = s.m[0]
    g[_col(1, st.P_BLD) + f] = 1
    supply1 = int(g[_col(1, st.P_SUPPLY)])
    _dev(t, s, 0)
    _step(t, s, "opt:1")
    assert g[_col(0, st.P_FOL) + f] == 0 and g[_col(1, st.P_FOL) + f] == 1 and g[_col(1, st.P_SUPPLY)] == supply1 - 1
    assert g[_col(0, st.P_BLD) + f] == 1
    t, s, f = _position("sanctuary", followers=3)
    s.m[0, _col(0, st.P_BLD) + f] = 1
    _step(t, s, "pick:0")
    assert "opt:0" not in _names(t, s)


def test_a_workshop_pays_its_crystals_and_takes_a_key_card_of_its_colour_rc_r131_rc_r133():
    """The first grain workshop costs W:1 (RC-A21) and gives a yellow card (``key`` over the three
    yellow stacks); it uncovers production field P6 (``workshop_grain:1``)."""
    t, s, f = _position("grain")
    g = s.m[0]
    _dev(t, s, 1)
    assert g[_col(0, st.P_CR)] == 2 and g[_col(0, st.P_WS)] == 1 and g[_col(0, st.P_BLD) + f] == 2
    assert _kind(s) == "key" and _names(t, s) == ["opt:0", "opt:1", "opt:2"]
    y2 = [i for i, k in enumerate(t.content.key_cards) if k.id == "Y2"][0]
    before = int(g[st.G_YELLOW + 1])
    _step(t, s, "opt:1")
    assert g[_col(0, st.P_AVAIL) + y2] == 1 and g[st.G_YELLOW + 1] == before - 1
    assert production_visible(g, 0, 5, t.C, t.tab) and not production_visible(g, 0, 6, t.C, t.tab)


def test_a_workshop_needs_its_crystal_cost_rc_r131():
    """A forest workshop costs R:1; with no crystal at all nothing can pay it."""
    t, s, f = _position("forest")
    g = s.m[0]
    g[_col(0, st.P_CR):_col(0, st.P_CR) + 3] = 0
    _step(t, s, "pick:0")                                   # ``dev`` has only ``end``: not asked
    assert g[st.G_PEND_N] == 0 and g[_col(0, st.P_WS) + 1] == 0 and g[_col(0, st.P_BLD) + f] == 0
    assert g[_col(0, st.P_FOL) + f] == 2


def test_the_first_monument_on_an_area_field_lays_a_tile_and_every_builder_gains_it_rc_r142_rc_r143():
    t, s, f = _position("monument")
    g = s.m[0]
    g[st.G_MON_DISP:st.G_MON_DISP + 5] = [1, 6, -1, -1, -1]           # M2 (P:1), M7 (VP:3)
    _dev(t, s, 2)
    assert g[_col(0, st.P_CR)] == 2 and g[_col(0, st.P_MON)] == 1        # the first monument: W:1
    assert _kind(s) == "monument_tile" and _names(t, s) == ["opt:0", "opt:1"]
    _step(t, s, "opt:0")
    assert g[st.F_MONTILE + f] == 2 and list(g[st.G_MON_DISP:st.G_MON_DISP + 2]) == [6, -1]    # closed up
    assert g[_col(0, st.P_CR) + P] == 1
    e = end_state(s)
    assert e.monument_tiles[0, 0, 1] == 1 and e.monument_tiles[0, 0].sum() == 1


def test_excavating_takes_the_chosen_stone_pays_by_the_stones_left_and_steps_rc_r151_rc_r152_rc_r158():
    """3 stones on the site (1 white, 2 grey): a white crystal, the grey stone to the skill field,
    2 steps on the grey track; 1 follower back; camps give nothing (RC-R147)."""
    t, s, f = _position("excavation")
    g = s.m[0]
    g[st.F_SITE + 3 * f:st.F_SITE + 3 * f + 3] = [1, 2, 0]
    skill = int(g[_col(0, st.P_SKILL)])
    _dev(t, s, 3)
    assert _kind(s) == "stone" and _names(t, s) == ["opt:0", "opt:1"]
    _step(t, s, "opt:1")
    assert list(g[st.F_SITE + 3 * f:st.F_SITE + 3 * f + 3]) == [1, 1, 0]
    assert g[_col(0, st.P_CR)] == 2 and g[_col(0, st.P_SKILL)] == skill + 1 and g[_col(0, st.P_STONES) + 1] == 1
    assert g[_col(0, st.P_TRK) + 1] == 2 and g[_col(0, st.P_FOL) + f] == 1 and g[_col(0, st.P_BLD) + f] == 0


def test_one_stone_left_costs_a_purple_crystal_rc_r154_rc_r157():
    """One stone left: P:1 (made from 3 red, RC-A69) and 4 steps, one at a time (the third field asks
    ``item`` on the way); an empty site is no target."""
    t, s, f = _position("excavation")
    g = s.m[0]
    g[st.F_SITE + 3 * f:st.F_SITE + 3 * f + 3] = [0, 0, 1]
    g[_col(0, st.P_CR):_col(0, st.P_CR) + 3] = [0, 3, 0]
    _dev(t, s, 3)
    assert list(g[_col(0, st.P_CR):_col(0, st.P_CR) + 3]) == [0, 0, 0]
    assert _kind(s) == "item" and g[_col(0, st.P_TRK) + 2] == 3 and g[_col(0, st.P_SCORE)] == 1   # RC-R162..R164
    _step(t, s, "opt:0")
    assert g[_col(0, st.P_TRK) + 2] == 4
    t, s, f = _position("excavation")
    _step(t, s, "pick:0")
    assert "opt:3" not in _names(t, s)


def test_a_building_next_to_a_camp_gains_its_reward_once_rc_r144_rc_r145():
    """Camp c1 (``K:white:2``) next to the field: the first building there gives 2 white steps;
    a later building next to the same camp gives nothing more."""
    t, s, f = _position("sanctuary")
    g = s.m[0]
    nb = t.part(kernel.C_T_NEIGH, 6 * len(t.field_names)).reshape(-1, 6)
    slot = t.part(kernel.C_T_FSLOT, len(t.field_names))
    x = [int(v) for v in nb[f] if v >= 0 and slot[v] == slot[f] and g[st.F_START + v] < 0][0]
    g[st.F_CAMP + x] = 0
    g[st.F_TERR + x] = TERRAINS.index("camp")
    _dev(t, s, 0)
    _step(t, s, "opt:1")
    assert g[_col(0, st.P_CAMPS)] == 1 and g[_col(0, st.P_TRK)] == 2
    assert end_state(s).camps[0, 0] == 1 and end_state(s).sanctuaries[0, 0] == 1 and end_state(s).area_tiles[0, 0] == 1


def test_a_development_action_may_upgrade_one_crystal_rc_r114_rc_r72():
    """Only white crystals: W -> R without a further question (no ``end`` here, unlike ``UPC``)."""
    t, s, f = _position("start")
    g = s.m[0]
    _dev(t, s, 4)
    assert list(g[_col(0, st.P_CR):_col(0, st.P_CR) + 3]) == [2, 1, 0]
    t, s, f = _position("start")
    s.m[0, _col(0, st.P_CR):_col(0, st.P_CR) + 3] = [1, 1, 0]
    _dev(t, s, 4)
    assert _kind(s) == "crystal" and _names(t, s) == ["opt:0", "opt:1"]


def _explore_position():
    """An EXPLORE item pending for seat 0 (its effect and item index from field E's version)."""
    t = _tables(2)
    e = int(t.tab[int(t.C[kernel.C_T_BASE]) + 4])
    rows = t.tab[int(t.C[kernel.C_T_EROWS]) + 2 * e:int(t.C[kernel.C_T_EROWS]) + 2 * e + 2]
    item = [int(t.atoms[r, 0]) for r in range(rows[0], rows[1]) if t.atoms[r, 2] == kernel.OP_EXPLORE][0]
    return _position("start", followers=0, pending=(e, item, 4, 0))


def test_explore_offers_face_down_slots_next_to_presence_then_six_rotations_rc_r106_rc_r107_rc_r108():
    t, s, f = _explore_position()
    g = s.m[0]
    adj = t.tab[int(t.C[kernel.C_T_SADJ]):int(t.C[kernel.C_T_SADJ]) + st.S_MAX ** 2].reshape(st.S_MAX, st.S_MAX)
    mine = {int(t.tab[int(t.C[kernel.C_T_FSLOT]) + x]) for x in np.flatnonzero(s.seat(st.P_FOL, st.F_MAX)[0, 0])}
    want = [k for k in range(len(t.content.map.slots)) if g[st.G_UP + k] == 0 and any(adj[k, j] for j in mine)]
    assert want and [k for k in range(st.S_MAX) if explorable(g, 0, k, t.C, t.tab)] == want
    _step(t, s, "pick:0")
    assert _kind(s) == ("explore" if len(want) > 1 else "rotation")


def test_an_explored_tile_gets_its_fields_points_and_bag_draws_rc_r109_rc_r110_rc_r111_rc_a35():
    """The tile is turned as chosen; 1 point per player present next to it; its artifact symbols
    and excavation sites are filled by the game's ``bag`` stream from the counter reached."""
    t, s, f = _explore_position()
    g = s.m[0]
    _step(t, s, "pick:0")
    if _kind(s) == "explore":
        _step(t, s, _names(t, s)[0])
    k = int(g[st.G_EXP_SLOT])
    draws, arts, stones = int(g[st.G_BAGK]), list(g[st.G_BAG_ART:st.G_BAG_ART + 4]), list(g[st.G_BAG_STONE:st.G_BAG_STONE + 3])
    score = int(g[_col(0, st.P_SCORE)])
    adj = t.tab[int(t.C[kernel.C_T_SADJ]):int(t.C[kernel.C_T_SADJ]) + st.S_MAX ** 2].reshape(st.S_MAX, st.S_MAX)
    slot = t.part(kernel.C_T_FSLOT, len(t.field_names))
    near = sum(any(adj[k, slot[x]] for x in np.flatnonzero(s.seat(st.P_FOL, st.F_MAX)[0, p]) if slot[x] >= 0)
               for p in range(2))
    _step(t, s, "opt:2")
    assert g[st.G_UP + k] == 1 and g[st.G_ROT + k] == 2 and g[_col(0, st.P_EXPL)] == 1
    assert near >= 1 and g[_col(0, st.P_SCORE)] == score + near
    tile = t.content.area_tiles[int(g[st.G_TILE + k])]
    key = rng.stream_keys(SEED, [0], "bag")

    def draw(left):
        nonlocal draws
        total = sum(left)
        if total == 0:
            return -1
        pick = int(float(rng.uniform(key, draws)[0]) * total)
        draws += 1
        for c, n in enumerate(left):
            if pick < n:
                left[c] -= 1
                return c
            pick -= n

    field = lambda pos: 7 * k + (0 if pos == 0 else 1 + (pos - 1 + 2) % 6)  # noqa: E731
    on = {field(pos): tf for pos, tf in enumerate(tile.fields)}
    for x in sorted(on):
        assert g[st.F_TERR + x] == on[x].terrain
        assert g[st.F_ART + x] == (draw(arts) if on[x].artifact else -1)
    for x in sorted(on):
        if on[x].terrain == TERRAINS.index("excavation"):
            want = [0, 0, 0]
            for _ in range(3):
                want[draw(stones)] += 1
            assert list(g[st.F_SITE + 3 * x:st.F_SITE + 3 * x + 3]) == want
    assert g[st.G_BAGK] == draws


def _points(t, s, n):
    """Give seat 0 a pending ``VP:n`` reward item (a production-like effect picked from the list)."""
    e = [k for k in range(len(t.content.board.production)) if t.content.board.production[k].id == "P10"][0]
    effect = int(t.tab[int(t.C[kernel.C_T_PROD]) + e])                   # P10 = VP:2
    assert n == 2
    g = s.m[0]
    g[st.G_PEND_N] = 1
    g[st.G_PEND:st.G_PEND + st.PEND_W] = (effect, 0, -1, 0)
    g[st.G_PHASE] = st.PH_EFFECT
    _run(s)
    _step(t, s, "pick:0")


def test_reaching_an_upgrade_symbol_asks_the_side_of_its_letter_once_rc_r177_rc_r178_rc_a13():
    """Score 3 + 2 passes the symbol at 4: ``upgrade`` (side a / b) for that symbol's letter, a
    tile off its stack; moving back and passing it again gives nothing (RC-A13, RC-A67)."""
    t, s, f = _position("start")
    g = s.m[0]
    g[_col(0, st.P_SCORE)] = 3
    letter = int(g[st.G_UPG_LETTER])
    left = int(g[st.G_UPG_LEFT + letter])
    _points(t, s, 2)
    assert _kind(s) == "upgrade" and _names(t, s) == ["opt:0", "opt:1"] and s.m[0, st.G_DEC] == 0
    _step(t, s, "opt:1")
    assert g[_col(0, st.P_SCORE)] == 5 and g[_col(0, st.P_UPG) + letter] == 1
    assert g[st.G_UPG_LEFT + letter] == left - 1 and g[_col(0, st.P_SYM)] == 1
    t, s, f = _position("start")                                      # the symbol reached before
    g = s.m[0]
    g[_col(0, st.P_SCORE)] = 3
    g[_col(0, st.P_SYM)] = 1
    _points(t, s, 2)
    assert _kind(s) != "upgrade" and g[_col(0, st.P_SCORE)] == 5 and g[_col(0, st.P_UPG) + letter] == -1


def test_free_upgrade_choice_offers_every_letter_left_and_both_sides_rc_v8_rc_v9():
    t, s = start(free_upgrade_choice=True)
    g = s.m[0]
    g[_col(0, st.P_OWN):_col(0, st.P_OWN) + st.U_MAX] = 0
    g[_col(0, st.P_SCORE)] = 3
    g[_col(0, st.P_UPG) + 2] = 0                                       # C already upgraded
    _points(t, s, 2)
    assert _kind(s) == "upgrade" and _names(t, s) == [f"opt:{i}" for i in range(12) if i // 2 != 2]
    _step(t, s, "opt:7")                                               # letter D, side b
    assert g[_col(0, st.P_UPG) + 3] == 1


def test_an_upgrade_before_any_item_of_the_field_replaces_its_pending_items_rc_r179_rc_r180_rc_a15():
    """Field E's items are pending and none picked: the new side's items replace them (at the end
    of the list); after one E item was picked the old items stay (RC-R179)."""
    for picked in (False, True):
        t, s, f = _position("start")
        g = s.m[0]
        g[st.G_UPG_LETTER] = 4                                         # the symbol at 4 holds E
        g[_col(0, st.P_SCORE)] = 3
        base = int(t.tab[int(t.C[kernel.C_T_BASE]) + 4])
        e = [k for k in range(len(t.content.board.production)) if t.content.board.production[k].id == "P10"][0]
        vp = int(t.tab[int(t.C[kernel.C_T_PROD]) + e])
        entries = [(vp, 0, -1, 0), (base, 1, 4, 0), (base, 2, 4, 0)]
        if not picked:
            entries.append((base, 0, 4, 0))
        g[st.G_PEND_N] = len(entries)
        g[st.G_PEND:st.G_PEND + st.PEND_W * len(entries)] = np.array(entries).ravel()
        if picked:
            g[st.G_PICKED] = 1 << 4
        g[st.G_PHASE] = st.PH_EFFECT
        _run(s)
        _step(t, s, "pick:0")                                          # VP:2: the symbol at 4
        assert _kind(s) == "upgrade"
        _step(t, s, "opt:0")
        pend = g[st.G_PEND:st.G_PEND + st.PEND_W * g[st.G_PEND_N]].reshape(-1, st.PEND_W)
        side_a = int(t.tab[int(t.C[kernel.C_T_UPG]) + 2 * 4])
        if picked:
            assert [tuple(x) for x in pend] == [(base, 1, 4, 0), (base, 2, 4, 0)]
        else:
            assert set(pend[:, 0]) == {side_a} and set(pend[:, 2]) == {4}


def _water_position(around, **kw):
    """Seat 0's only followers (2) on a land field f next to one water field w; every other field
    is grain, w's other neighbours are ``around``; field C's WMOVE pending (RC-A7)."""
    t, s = start(**kw)
    g = s.m[0]
    nf = len(t.field_names)
    g[_col(0, st.P_OWN):_col(0, st.P_OWN) + st.U_MAX] = 0
    g[st.F_CAMP:st.F_CAMP + st.F_MAX] = -1
    g[st.F_ART:st.F_ART + nf] = -1
    g[st.F_TERR:st.F_TERR + nf] = TERRAINS.index("grain")
    g[_col(0, st.P_FOL):_col(0, st.P_FOL) + nf] = 0
    f = _field(t, s)
    nb = t.part(kernel.C_T_NEIGH, 6 * nf).reshape(-1, 6)
    slot = t.part(kernel.C_T_FSLOT, nf)
    w = [int(x) for x in nb[f] if x >= 0 and slot[x] == slot[f]][0]
    g[st.F_TERR + w] = TERRAINS.index("water")
    for x in nb[w]:
        if x >= 0 and x != f:
            g[st.F_TERR + x] = TERRAINS.index(around)
    g[_col(0, st.P_FOL) + f] = 2
    e = int(t.tab[int(t.C[kernel.C_T_BASE]) + 2])                       # C = WMOVE + DEV:1
    g[st.G_PEND_N] = 1
    g[st.G_PEND:st.G_PEND + st.PEND_W] = (e, 0, 2, 0)
    g[st.G_PHASE] = st.PH_EFFECT
    _run(s)
    _step(t, s, "pick:0")
    assert _kind(s) == "water_from" and _names(t, s) == ["end", f"field:{t.field_names[f]}"]
    _step(t, s, f"field:{t.field_names[f]}")
    assert _kind(s) == "water_count" and _names(t, s) == ["count:1", "count:2"]
    _step(t, s, "count:2")
    return t, s, f, w, [int(x) for x in nb[w] if x >= 0 and x != f]


def test_a_water_movement_crosses_the_water_and_leaves_next_to_its_last_field_rc_a7_rc_r93_rc_r94():
    """The only step is w (taken unasked: no exit before a water field is on the path); then
    the only way on is to leave: ``water_exit`` offers w's face-up land neighbours but the start
    field; the whole group ends there."""
    t, s, f, w, others = _water_position("grain")
    g = s.m[0]
    slot = t.part(kernel.C_T_FSLOT, len(t.field_names))
    up = [x for x in others if slot[x] < 0 or g[st.G_UP + slot[x]] == 1]
    assert _kind(s) == "water_exit" and _names(t, s) == [f"field:{t.field_names[x]}" for x in sorted(up)]
    _step(t, s, f"field:{t.field_names[up[0]]}")
    assert g[_col(0, st.P_FOL) + up[0]] == 2 and g[_col(0, st.P_FOL) + f] == 0 and g[st.G_W_GROUP] == 0


def test_a_group_that_cannot_leave_the_water_goes_back_or_stays_water_no_exit():
    """No exit next to w (volcanoes): "back" returns the group to its start field, "stay" leaves
    it on w (the model doc's ``water_no_exit``)."""
    t, s, f, w, others = _water_position("volcano")
    assert s.m[0, _col(0, st.P_FOL) + f] == 2 and s.m[0, st.G_W_GROUP] == 0
    t, s, f, w, others = _water_position("volcano", water_no_exit="stay")
    assert s.m[0, _col(0, st.P_FOL) + w] == 2 and s.m[0, _col(0, st.P_FOL) + f] == 0
