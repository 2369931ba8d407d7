"""Recall oracle: hand-made positions for single rules, each result worked out from the spec.

Positions start from ``RcOracle(..., start=False)`` (setup draws done, no decision asked) and
edit the plain state; single pieces run with ``drive`` (scripted answers, the generator runs to
its end) or ``until`` (stop at the next asked decision and look at the state).
"""
from __future__ import annotations

import dataclasses

import pytest

from sim.games.recall.config import Config
from sim.games.recall.content import load_content
from sim.games.recall.content_types import CAMP, EXCAVATION, FOREST, GRAIN, MONUMENT, VOLCANO, WATER
from tests.oracle_recall import MON, SAN, WKS, RcOracle

CT = load_content(Config())


def oracle(players=4, **kw):
    o = RcOracle(Config(players=players, **kw), CT, 1, 0, start=False)
    for p in range(players):
        o.tribe[p] = tribe(("Zendeling", "Ion", "Lexander", "Noorderling")[p])
        o.items[p] = []
    o.old_tribe = [tribe("Hayla"), tribe("Aynir"), tribe("Colteron")]
    o.item_stack = [[item("Pouch"), item("Horn")], [item("Map"), item("Lens")], [item("Chisel"), item("Scroll")]]
    return o


def tribe(name):
    return [t.id for t in CT.tribes].index(name)


def item(name):
    return [t.id for t in CT.items].index(name)


def kind(card_id):
    return [k.id for k in CT.key_cards].index(card_id)


def field(o, name):
    return o.field_names.index(name)


def opt(o, i):
    return o.A_OPT + i


def fld(o, f):
    return o.A_FIELD + f


def until(o, gen, actions=()):
    """Send ``actions`` and return the next asked decision (the generator stays suspended)."""
    d = next(gen)
    for a in actions:
        assert a in d[2], (o.name(a), [o.name(x) for x in d[2]])
        d = gen.send(a)
    return d


def run(o, gen, actions=(), d=None):
    """Send ``actions``, then answer every further decision with its first non-end action; returns the asked kinds.

    ``d``: the decision a suspended generator is waiting at (else the generator is started).
    """
    actions, kinds = list(actions), []
    try:
        d = next(gen) if d is None else d
        while True:
            kinds.append(d[1])
            if actions:
                a = actions.pop(0)
                assert a in d[2], (o.name(a), [o.name(x) for x in d[2]])
            else:
                a = [x for x in d[2] if x != o.A_END][0]
            d = gen.send(a)
    except StopIteration:
        assert not actions
        return kinds


def plain_slot(o, k, terrain=GRAIN):
    """Make slot k face up with every field of one terrain and nothing on it."""
    o.face_up[k] = True
    for f in range(7 * k, 7 * k + 7):
        o.terr[f], o.camp[f], o.startno[f], o.art[f], o.site[f] = terrain, -1, -1, -1, []


# ---------------------------------------------------------------- worked examples of the spec

def test_example1_final_scoring_of_one_player():
    """Spec example 1: RC-E3..E25 (all six path cards), RC-E26..E28, RC-E43, RC-E29/E30 -> 143."""
    o = oracle()
    p = 0
    o.path_at, o.side_at = [0, 1, 2, 3, 4, 5], [0, 1, 0, 1, 0, 1]
    o.paths[p] = [0, 3, 5]
    o.score[p], o.purple[p] = 41, 4
    o.trk[p] = [7, 4, 2]
    o.stones[p] = [2, 1, 3, 3]
    o.sanct[p] = [True, True, True, False, False, False]
    o.avail[p] = [0] * o.K
    for cid in ("W0", "Y1", "Y2", "G1", "G2", "X1"):
        o.avail[p][kind(cid)] += 1
    o.arts[p] = [2, 1, 0, 3]
    o.bld[p][o.bm_first] = MON                          # the white board monument field
    for f, tile in ((field(o, "N1.0"), 0), (field(o, "N2.0"), 3)):   # M1 (4 points), M4 (3 points)
        o.terr[f] = MONUMENT
        o.bld[p][f] = MON
        o.mon_tile[f] = tile
    o.mons[p] = 3
    o.cr[p] = [2, 3, 1]
    o.fol[p] = [0] * o.NF
    o.fol[p][field(o, "L.1")] = 8
    o.goals[p] = [0]                                    # GC1: 2 artifacts of one colour
    o.final_scoring()
    parts = {k: v[p] for k, v in o.parts.items()}
    assert parts["score_power"] == 22 and parts["score_ambition"] == 10
    assert parts["score_efficiency"] == 12 and parts["score_saints"] == 6
    assert parts["score_ancestors"] == 12 and parts["score_knowledge"] == 15
    assert parts["score_leftover"] == 6 and parts["score_purple"] == 4 and parts["score_goal"] == 15
    assert o.total[p] == 143


def test_example2_excavating_one_site_three_times():
    """Spec example 2: RC-R151..R158, RC-R162..R165 (first on the third field), RC-R167..R169, RC-R171."""
    o = oracle()
    p, x = 0, field(o, "L.0")
    assert o.terr[x] == EXCAVATION
    o.site[x] = [1, 2, 2]
    o.fol[p] = [0] * o.NF
    o.fol[p][x] = 3
    o.cr[p] = [2, 1, 1]
    o.trk[p] = [0, 1, 0]
    o.score[p] = 25
    vp2 = [t.id for t in CT.light_tokens].index("L5")          # VP:2
    o.light[2 * 2 + 0] = vp2                                  # black track, position 4
    # development action 1: the grey stone (W paid, +2), item of the grey stack
    o.drive(o.development(p), [opt(o, 3), opt(o, 1), opt(o, 0)])
    assert o.trk[p][1] == 3 and o.score[p] == 26 and o.third_first[1] and o.items[p] == [item("Map")]
    o.drive(o.development(p), [opt(o, 3), opt(o, 0)])         # a black stone, R paid, +3, item of the black stack
    assert o.trk[p][2] == 3 and o.score[p] == 27 and o.cr[p] == [1, 0, 1]
    o.drive(o.development(p), [opt(o, 3)])                     # the last black stone, P paid, +4
    assert o.site[x] == [] and o.fol[p][x] == 0 and o.cr[p] == [1, 0, 0]
    assert o.trk[p] == [0, 3, 7] and o.score[p] == 29          # +1 +1 +2 points
    assert o.unlocked[p][2] and o.stones[p] == [0, 1, 2, 2]    # grey, black, black + own stone
    assert not o.can_excavate(p, x)                            # RC-R157


def test_example3_building_where_others_built():
    """Spec example 3: RC-R115, RC-R119, RC-R120, RC-R121, RC-R80, RC-R131, RC-R133, RC-R134, RC-R135, RC-R136, RC-R144, RC-R145, RC-R40."""
    o = oracle()
    k = 2                                                      # slot N1
    plain_slot(o, k, GRAIN)
    y, c = 7 * k, 7 * k + 1
    o.terr[y] = FOREST
    o.terr[c], o.camp[c] = CAMP, 1                            # c2: K:grey:2
    for q in range(4):
        o.fol[q] = [0] * o.NF
    o.bld[1][y] = o.bld[2][y] = WKS
    o.fol[3][y] = 2
    o.fol[0][y] = 4
    o.supply = [19, 10, 0, 21]
    o.cr[0] = [0, 1, 0]
    o.trk[0][1] = 5
    greens = sum(o.avail[0][kk] for kk in CT.key_kinds(2))
    assert 6 not in o.visible_production(0)                    # P7 before
    o.drive(o.development(0), [opt(o, 1), opt(o, 0)])          # workshop (only field Y), green display card 1
    assert o.fol[0][y] == 1 and o.fol[1][y] == 1 and o.fol[2][y] == 0 and o.fol[3][y] == 2
    assert o.cr[0] == [0, 0, 0] and o.trk[0][1] == 7
    assert sum(o.avail[0][kk] for kk in CT.key_kinds(2)) == greens + 1
    assert all(x is not None for x in o.display[2])           # refilled
    assert 6 in o.visible_production(0)                        # P7 (CHEST) now visible


def test_example3_variant_exoskelet_pays_no_followers():
    """Spec example 3 variant: RC-R244, RC-R245 (no follower to the others), crystals still paid."""
    o = oracle()
    k = 2
    plain_slot(o, k, GRAIN)
    y = 7 * k
    o.terr[y] = FOREST
    for q in range(4):
        o.fol[q] = [0] * o.NF
    o.bld[1][y] = WKS
    o.fol[0][y] = 4
    o.cr[0] = [0, 1, 0]
    o.items[0] = [item("Exoskelet")]
    o.active = 0
    exo = o.A_USE + o.abil_index["exoskelet"]
    asked, _ = o.drive(o.development(0), [opt(o, 1), exo, opt(o, 0)])
    assert asked[1][1] == "payment" and set(asked[1][2]) == {exo, o.A_END}   # offered at the payment (RC-R244)
    assert o.fol[0][y] == 4 and o.fol[1][y] == 0 and o.cr[0] == [0, 0, 0] and o.placed[0] == 1


def test_example4_activation_cost_escalation():
    """Spec example 4: RC-R61, RC-R62 (per ability), RC-R64 (hexagon), RC-R65, RC-R63 (recall resets)."""
    o = oracle()
    p = 0
    o.tribe[p] = tribe("Ion")
    o.items[p] = [item("Booster")]
    o.unlocked[p][0] = True
    o.old_tribe[0] = tribe("Zendeling")
    o.stones[p] = [2, 2, 1, 1]
    o.cr[p] = [0, 0, 0]                                        # Zendeling's development action: nothing to do
    o.active = p
    ion, zen, boo = o.abil_index["ion"], o.abil_index["zendeling"], o.abil_index["booster"]
    costs = []
    for j in (ion, ion, zen):
        costs.append(o.cost(p, j))
        o.drive(o.free_action(p, o.A_USE + j), [])
    assert costs == [1, 2, 1] and o.usable_stones(p) == 2
    assert o.cost(p, ion) == 3 and o.A_USE + ion not in o.free_actions(p)     # would cost 3: not allowed
    asked, _ = o.drive(o.event(p, "artifact"), [o.A_USE + boo])                # artifact #1
    assert len(asked) == 1 and o.usable_stones(p) == 1 and o.cr[p][1] == 1     # once per event: not asked again
    o.drive(o.event(p, "artifact"), [o.A_USE + boo])                           # artifact #2: still 1 (hexagon)
    assert o.usable_stones(p) == 0
    o.drive(o.recall(p), [])
    assert o.usable_stones(p) == 6 and o.recharged and o.free_actions(p) == []  # RC-R45
    o.recharged = False
    assert o.cost(p, ion) == 1


def test_example5_exploring_scores_presence_and_camp_goes_to_builder():
    """Spec example 5: RC-R106, RC-R107, RC-R109 (each present player once), RC-R110..R112, RC-R148."""
    o = oracle()
    sid = [s.id for s in CT.map.slots]
    L, R, N1, N2, W1 = (sid.index(x) for x in ("L", "R", "N1", "N2", "W1"))
    t3 = [t.id for t in CT.area_tiles].index("T3")
    o.slot_tile[N2] = t3
    o.face_up[N1] = o.face_up[W1] = True
    for f in range(7 * N1, 7 * N1 + 7):
        o.terr[f] = GRAIN
    for f in range(7 * W1, 7 * W1 + 7):
        o.terr[f] = GRAIN
    for q in range(4):
        o.fol[q] = [0] * o.NF
    o.fol[0][7 * L + 1] = 2
    o.fol[1][7 * L + 2] = 1
    o.bld[1][7 * N1] = WKS
    o.fol[2][7 * R + 1] = 1
    o.fol[3][7 * W1] = 1
    rot, camp_field, green_field = None, None, None
    for r in range(6):                                         # the rotation putting c2 next to a field of L
        g = 7 * N2 + 1 + (3 - 1 + r) % 6
        near = [x for x in o.adj[g] if o.slot_of_field[x] == L]
        if near:
            rot, camp_field, green_field = r, g, near[0]
            break
    assert rot is not None
    o.bld[2][green_field] = WKS
    o.score[0] = 14
    grey = [o.trk[q][1] for q in range(4)]
    assert N2 in o.explorable(0) and N2 not in o.explorable(3)
    o.drive(o.explore(0), [opt(o, N2), opt(o, rot)])
    assert o.score[0] == 17                                    # Red, Blue, Green
    assert o.terr[camp_field] == CAMP and o.trk[2][1] == grey[2] + 2 and o.trk[0][1] == grey[0]
    arts = [f for f in range(7 * N2, 7 * N2 + 7) if o.art[f] >= 0]
    assert len(arts) == 1 and len(o.site[7 * N2]) == 3


@pytest.mark.parametrize("first_move", [False, True])
def test_example6_upgrading_the_field_activated_this_turn(first_move):
    """Spec example 6: RC-R180 (no E effect used yet: upgraded E now), RC-R179 / RC-A15 (one used: old E)."""
    o = oracle()
    p = 0
    o.score[p] = 12
    o.symbol_letter[2] = 4                                     # the symbol at 13 holds E
    o.avail[p][kind("X4")] = 1
    o.active = p
    gen = o.play_card(p, kind("X4"), 4)
    d = next(gen)
    assert d[1] == "effect"
    names = lambda: [(item[0].op, src) for item, src in o.turn["pending"]]
    if first_move:                                             # one move of E's movement first
        d = gen.send(o.A_PICK + names().index(("MOVE", 4)))
        while d[1] != "effect":
            d = gen.send([a for a in d[2] if a != o.A_END][0])
    vp = [i for i, (op, src) in enumerate(names()) if op == "VP"][0]
    d = gen.send(o.A_PICK + vp)
    assert d[1] == "upgrade"
    d = gen.send(opt(o, 0))                                    # side a: MOVE:2 + EXPLORE + DEV:1
    assert o.upg[p][4] == 0 and o.score[p] == 13
    e_parts = sorted(item[0].op + (str(item[0].n) if item[0].op == "MOVE" else "")
                     for item, src in o.turn["pending"] if src == 4)
    if first_move:
        assert e_parts == ["DEV", "EXPLORE"]                   # base E goes on
    else:
        assert e_parts == ["DEV", "EXPLORE", "MOVE2"]          # the new side a


def test_example7_one_production_per_card_taken_back():
    """Spec example 7: RC-R37, RC-R38, RC-R41, RC-R42 (card taken back earlier: none), RC-R50 + RC-R73 cap."""
    o = oracle()
    p = 0
    o.slots[p] = [kind("Y1"), kind("Y2"), -1, kind("G1"), kind("G2"), -1]
    o.avail[p] = [0] * o.K
    o.avail[p][kind("Y3")] = 1                                 # the card Ion took back from C
    o.ws[p] = [1, 1, 0]                                        # P6, P7 visible
    o.cr[p] = [5, 1, 0]
    o.active = p
    assert o.visible_production(p) == [0, 1, 2, 5, 6]
    start = field(o, "L.1")
    o.fol[p] = [0] * o.NF
    o.fol[p][start] = 3
    o.start_field[p] = start
    asked, _ = o.drive(o.recall(p), [opt(o, 0), opt(o, 2), opt(o, 5), opt(o, 6), o.A_END])
    assert [d[1] for d in asked] == ["produce"] * 4 + ["recharge"]   # 4 activations, not 5; free actions before the recharge (RC-R44)
    assert o.cr[p] == [8, 2, 0] and sum(o.chests[p]) == 1 and o.fol[p][start] == 4
    assert o.slots[p] == [-1] * 6 and sum(o.avail[p]) == 5
    o.crystal_cap(p)
    assert o.cr[p] == [5, 3, 0]


# ---------------------------------------------------------------- single rules

def test_slot_f_needs_an_earlier_field_and_copies_it():
    """RC-R33..R35, RC-A40: F only with a card in a slot A-E; it copies that field's current version."""
    o = oracle()
    p = 0
    o.active = p
    assert not o.field_f_ok(p)
    o.slots[p][0] = kind("W0")
    assert o.field_f_ok(p)
    o.avail[p][kind("W0")] = 1
    gen = o.play_card(p, kind("W0"), 5)
    d = next(gen)                                              # only COPY pending, 1 pick + end
    assert d[1] == "effect"
    d = gen.send(o.A_PICK + 0)                                 # copy: only A -> automatic, W:1 paid
    assert o.cr[p][0] == 2 and [item[0].op for item, _ in o.turn["pending"]] == ["F", "BUY", "SELL"]


def test_start_cards_have_no_effects_and_slots_stay_used():
    """RC-R12, RC-R17, RC-R18, RC-R21: a white card activates only the field; a full set of slots forces recall."""
    o = oracle()
    p = 0
    o.slots[p] = [kind("W0")] * 6
    o.avail[p] = [0] * o.K
    o.placed[p] = 1                                            # no stone left: no free action either
    o.active = p
    d = until(o, o.normal_turn(p))
    assert d[1] == "produce"                                   # main had recall only: applied at once
    o2 = oracle()
    o2.active = 0
    gen = o2.play_card(0, kind("W0"), 0)
    next(gen)
    assert o2.turn["pending"] and all(src == 0 for _, src in o2.turn["pending"])


def test_payment_rule_converts_down_first():
    """RC-A69, RC-R50, RC-R51, RC-R52, RC-R71, RC-R74, RC-R75, RC-A60 (unlimited supply): the fixed paying rule."""
    o = oracle()
    o.cr[0] = [0, 0, 1]
    assert o.plan_payment(0, (1, 0, 0))[0] == [0, 1, 0]        # purple -> red + white, white paid
    o.cr[0] = [0, 1, 0]
    assert o.plan_payment(0, (1, 0, 0))[0] == [1, 0, 0]        # red -> 2 white
    o.cr[0] = [3, 0, 0]
    assert o.plan_payment(0, (0, 1, 0))[0] == [0, 0, 0]        # 3 white -> red
    o.cr[0] = [2, 0, 0]
    assert not o.can_pay(0, (0, 1, 0))
    o.tribe[0] = tribe("Aynir")                                # RC-R207: 2 -> 1
    assert o.can_pay(0, (0, 1, 0))
    o.cr[0] = [0, 9, 0]
    o.tribe[0] = tribe("Zendeling")
    assert o.plan_payment(0, (0, 0, 2))[0] == [0, 3, 0]


def test_lexander_purple_payment_gives_white_and_point():
    """RC-R230, RC-R231, RC-A48: a purple paid for a cost gives 1 white and 1 point; conversions do not."""
    o = oracle()
    o.tribe[0] = tribe("Lexander")
    o.cr[0] = [0, 0, 2]
    o.drive(o.pay_and_points(0, (0, 0, 1)), [])
    assert o.cr[0] == [1, 0, 1] and o.score[0] == 1
    o.drive(o.pay_and_points(0, (0, 1, 0)), [])                 # paid by converting the purple down
    assert o.cr[0] == [2, 0, 0] and o.score[0] == 1


def test_crystal_cap_converts_up_then_discards():
    """RC-R73, RC-A38, RC-A69: end of turn at most 6 of each kind."""
    o = oracle()
    o.cr[0] = [13, 6, 7]                                       # 13 W -> 4 W + 3 R; 9 R -> 6 R + 1 P; P 8 -> 6
    o.crystal_cap(0)
    assert o.cr[0] == [4, 6, 6] and o.stats["rc_crystals_lost"][0] == 2
    o.cr[1] = [8, 0, 0]
    o.crystal_cap(1)
    assert o.cr[1] == [5, 1, 0]


def test_track_end_third_fifth_and_bonus_thresholds():
    """RC-R161, RC-R162, RC-R166 (later players: item, no point), RC-R167, RC-R168, RC-R171..R173, RC-A12."""
    o = oracle()
    o.drive(o.step_track(0, 0, 3), [opt(o, 0)])
    assert o.score[0] == 1 and o.items[0] == [item("Pouch")] and o.revealed[0]
    o.drive(o.step_track(1, 0, 3), [])                          # one item left: applied at once
    assert o.score[1] == 0 and o.items[1] == [item("Horn")]
    o.trk[2][0] = 9
    o.drive(o.step_track(2, 0, 5), [])
    assert o.trk[2][0] == 10 and o.stats["rc_steps_lost"][2] == 4 and not o.unlocked[2][0]
    o.light[0] = [t.id for t in CT.light_tokens].index("L5")   # VP:2 on the white track's position 4
    o.trk[3][0] = 3
    o.drive(o.step_track(3, 0, 2), [])
    assert o.score[3] == 2 and o.unlocked[3][0] and o.stones[3][3] == 2
    assert o.has_tribe(3, "Hayla")                             # RC-R169: the white track's old tribe


def test_movement_blocked_by_water_volcano_face_down_and_unpayable_artifact():
    """RC-R88, RC-R102, RC-R209, RC-A62: what a normal move may enter."""
    o = oracle()
    k = 2
    plain_slot(o, k, GRAIN)
    f = 7 * k
    o.fol[0][f] = 1
    o.terr[f + 1], o.terr[f + 2] = WATER, VOLCANO
    o.art[f + 3] = 0
    o.arts[0][0] = 2                                           # column 3 costs 2
    assert not o.enterable(0, f + 1) and not o.enterable(0, f + 2)
    assert not o.group_can_enter(0, f, f + 3, 1) and o.group_can_enter(0, f, f + 4, 1)
    o.tribe[0] = tribe("Colteron")
    assert o.enterable(0, f + 2)
    o.terr[f + 5] = -1                                         # face-down
    assert not o.enterable(0, f + 5)


def test_artifact_taken_on_entry_paid_from_the_group():
    """RC-R99..R101, RC-R103, RC-R104, RC-R87: the group pays the column's cost, the rest stays."""
    o = oracle()
    k = 2
    plain_slot(o, k, GRAIN)
    f = 7 * k
    o.fol[0] = [0] * o.NF
    o.fol[0][f] = 3
    o.art[f + 1] = 3                                           # brown, column 1: W:1 + F:1, cost 1
    o.start_field[0] = f
    o.drive(o.movement(0, 2), [fld(o, f), fld(o, f + 1), o.A_COUNT + 2 - 1, fld(o, f + 1), o.A_END])
    assert o.arts[0][3] == 1 and o.fol[0][f + 1] == 2 and o.art[f + 1] == -1
    assert o.cr[0][0] == 4 and sum(o.fol[0]) == 3              # 1 paid, 1 gained (placed there)


def test_one_own_building_per_field_and_others_may_share():
    """RC-R117, RC-R118, RC-R116, RC-R123 (no building on a camp)."""
    o = oracle()
    k = 2
    plain_slot(o, k, GRAIN)
    f = 7 * k
    o.fol[0][f] = o.fol[1][f] = 2
    o.bld[0][f] = WKS
    assert not o.can_build(0, WKS, f) and o.can_build(1, WKS, f)
    o.terr[f] = CAMP
    assert not o.can_build(1, WKS, f) and not o.can_build(1, SAN, f)


def test_key_card_upgrade_returns_cards():
    """RC-R192..R197, RC-A26: white leaves, yellow back on its stack, green under its deck; slot keeps it."""
    o = oracle()
    p = 0
    y1 = kind("Y1")
    o.avail[p] = [0] * o.K
    o.slots[p][2] = kind("W0")
    o.drive(o.key_upgrade(p), [opt(o, 0)])                     # the only option: slot C's white -> Y1
    assert o.slots[p][2] == y1 and o.yellow[y1] == CT.key_cards[y1].count - 1
    green0 = o.display[2][0]
    o.drive(o.key_upgrade(p), [opt(o, 0)])                     # slot C's Y1 -> green display card 0
    assert o.slots[p][2] == green0 and o.yellow[y1] == CT.key_cards[y1].count
    grey0 = o.display[3][0]
    o.drive(o.key_upgrade(p), [opt(o, 0)])
    assert o.slots[p][2] == grey0 and o.decks[2][-1] == green0
    asked, _ = o.drive(o.key_upgrade(p), [])                   # grey cannot be upgraded
    assert asked == [] and o.slots[p][2] == grey0


def test_camp_reward_once_per_player():
    """RC-R144..R146, RC-R150: first building next to a camp gives its reward, later ones not."""
    o = oracle()
    k = 2
    plain_slot(o, k, GRAIN)
    c = 7 * k
    o.terr[c], o.camp[c] = CAMP, 0                            # c1: K:white:2
    a, b = 7 * k + 1, 7 * k + 2
    o.fol[0][a] = o.fol[0][b] = 2
    o.cr[0] = [5, 5, 0]
    o.drive(o.development(0), [opt(o, 1), fld(o, a), opt(o, 0)])
    assert o.trk[0][0] == 2
    o.drive(o.development(0), [opt(o, 1), opt(o, 0)])
    assert o.trk[0][0] == 2 and o.ws[0][0] == 2


def test_upgrade_tile_once_per_symbol_and_not_after_the_end():
    """RC-R177, RC-R181, RC-E2, RC-A13: one tile per symbol; none once the hourglass is on the last space."""
    o = oracle()
    o.drive(o.gain_points(0, 9), [opt(o, 0), opt(o, 1)])       # symbols 4 and 8
    assert sum(1 for x in o.upg[0] if x >= 0) == 2
    o.score[0] = 0
    o.drive(o.gain_points(0, 5), [])
    assert sum(1 for x in o.upg[0] if x >= 0) == 2
    o.space = CT.time_board.spaces
    o.drive(o.gain_points(0, 20), [])
    assert sum(1 for x in o.upg[0] if x >= 0) == 2


def test_draft_order_start_player_picks_last():
    """RC-S31..S33: the player right of the start player first, counter-clockwise; one pair more than players."""
    o = RcOracle(Config(players=3), CT, 4, 2)
    assert o.kind == "draft" and o.decider == 2
    o.step(o.legal_list()[0])
    assert o.decider == 1
    o.step(o.legal_list()[0])
    assert o.kind == "draft" and o.decider == 0 and len(o.legal_list()) == 2   # the start player picks last
    o.step(o.legal_list()[0])
    assert len(set(o.tribe)) == 3 and -1 not in o.old_tribe and all(len(s) == 4 for s in o.item_stack)


def test_tie_breaks_by_tracks():
    """RC-E45..E49: most points, then white, grey, black track; then a shared win."""
    o = oracle(players=3)
    o.final_scoring()
    o.total = [50, 50, 50]
    o.trk = [[3, 0, 0], [3, 1, 0], [3, 1, 0]]
    s = o.sheet()
    assert s["rank"] == [3, 1, 1] and s["win_share"] == [0.0, 0.5, 0.5]


def test_solo_two_goals_need_separate_components():
    """RC-V13..V15, RC-A54: two artifact goals split the artifacts."""
    o = oracle(players=1)
    gc = [g.id for g in CT.goal_cards]
    o.arts[0] = [2, 1, 1, 0]
    two, three_colours = gc.index("GC1"), gc.index("GC3")
    assert o.two_goals_met(0, two, three_colours) is False     # 2 white + 3 colours needs 5 artifacts
    o.arts[0] = [2, 1, 1, 1]
    assert o.two_goals_met(0, two, three_colours)
    o.sanct[0] = [True] * 6
    assert not o.two_goals_met(0, gc.index("GC8"), gc.index("GC8"))


def test_special_round_path_choice_gives_dark_token():
    """RC-R184, RC-R185, RC-R186, RC-R188, RC-A9: sector k offers positions 2k and 2k+1; the disc and the dark token beside it."""
    o = oracle()
    o.active = 0
    o.dark[3] = [t.id for t in CT.dark_tokens].index("D2")      # VP:3 beside position 3
    o.drive(o.path_turn(0, 1), [opt(o, 1)])
    assert o.paths[0][1] == 3 and o.score[0] == 3


def test_goal_round_discards_and_gains_the_bottom_reward():
    """RC-R189, RC-R190: the discarded card's reward; the kept card stays."""
    o = oracle()
    o.active = 0
    gc = [g.id for g in CT.goal_cards]
    o.goals[0] = [gc.index("GC6"), gc.index("GC2")]            # VP:2 / P:1
    o.drive(o.goal_turn(0), [opt(o, 0)])
    assert o.goals[0] == [gc.index("GC2")] and o.score[0] == 2


def test_turn_guard_ends_a_runaway_turn():
    """RC-A68: past the decision limit the turn ends and is counted."""
    cfg = dataclasses.replace(Config(players=2), max_decisions_per_turn=2)
    o = RcOracle(cfg, CT, 1, 0)
    import numpy as np
    r = np.random.default_rng(0)
    while not o.done:
        legal = [a for a in o.legal_list() if a != o.A_END] or list(o.legal_list())
        o.step(legal[int(r.integers(len(legal)))])
    assert o.guard_hits > 0 and o.sheet()["turns"] == 34


# ---------------------------------------------------------------- fields, water, recall

def water_position(o):
    """Slot N1 all grain except a line of two water fields; p0 has 2 followers on the centre."""
    k = 2
    plain_slot(o, k, GRAIN)
    c = 7 * k
    w1, w2 = c + 1, c + 2                                      # ring d0, d1: adjacent to each other
    o.terr[w1] = o.terr[w2] = WATER
    for q in range(o.n):
        o.fol[q] = [0] * o.NF
    o.fol[0][c] = 2
    return c, w1, w2


def test_water_movement_moves_one_group_across_the_water():
    """RC-R93, RC-R94, RC-R95, RC-R97, RC-R98, RC-A7: start next to the water, a path, one exit field."""
    o = oracle()
    c, w1, w2 = water_position(o)
    o.art[w2] = 0                                              # white artifact on the water: cost 1
    assert o.water_area(w1) == {w1, w2} or o.water_area(w1) >= {w1, w2}
    gen = o.water_movement(0)
    d = until(o, gen, [fld(o, c), o.A_COUNT + 1])             # the whole group of 2
    assert d[1] == "water_step" and fld(o, w1) in d[2] and o.A_END not in d[2]
    run(o, gen, [fld(o, w1), fld(o, w2)], d)                   # enters the artifact: 1 paid from the group
    assert o.arts[0][0] == 1 and o.transit[0] == 0 and o.fol[0][c] == 0
    landed = [g for g in range(o.NF) if o.fol[0][g]]
    assert len(landed) == 1 and o.fol[0][landed[0]] == 1 and landed[0] in o.adj[w2] and landed[0] != c


def test_improved_water_movement_spreads_the_group():
    """RC-R96, RC-A56: with WMOVE+ the group may end on several fields bordering the water area."""
    o = oracle()
    c, w1, w2 = water_position(o)
    o.fol[0][c] = 3
    gen = o.water_movement(0, improved=True)
    d = until(o, gen, [fld(o, c), o.A_COUNT + 2, fld(o, w1), o.A_END])
    assert d[1] == "water_exit"
    exits = [a - o.A_FIELD for a in d[2]]
    near_area = {g for w in (w1, w2) for g in o.adj[w] if o.enterable(0, g) and g != c}
    assert set(exits) == near_area
    d = gen.send(fld(o, exits[0]))
    assert d[1] == "water_exit_count"
    d = gen.send(o.A_COUNT + 0)                                # 1 there
    d = gen.send(fld(o, exits[1]))
    with pytest.raises(StopIteration):
        gen.send(o.A_COUNT + 1)                                # the other 2 there
    assert o.fol[0][exits[0]] == 1 and o.fol[0][exits[1]] == 2


def test_field_a_gain_buy_and_sell():
    """RC-R23, RC-R24, RC-R25, RC-A23, RC-A59 (a purchase may buy fewer: one option at most)."""
    o = oracle()
    p, f = 0, field(o, "L.1")
    o.start_field[p] = f
    o.fol[p] = [0] * o.NF
    o.fol[p][f] = 3
    o.cr[p] = [1, 1, 0]
    o.active = p
    items = o.pending_items(CT.base_fields[0], 0)
    assert [i[0][0].op for i in items] == ["F", "BUY", "SELL"]
    o.drive(o.do_atom(p, items[0][0][0]), [])                  # F:2 on the only field
    assert o.fol[p][f] == 5
    o.drive(o.run_action(p, items[1][0][0]), [opt(o, 2)])     # R:1 + W:1 -> 3 followers
    assert o.cr[p] == [0, 0, 0] and o.fol[p][f] == 8
    o.drive(o.run_action(p, items[2][0][0]), [fld(o, f), o.A_COUNT + 3, o.A_END])   # sell 4
    assert o.fol[p][f] == 4 and o.cr[p] == [4, 0, 0]


def test_field_b_pay_one_crystal_for_more_moves():
    """RC-R26, RC-R27, RC-R28, RC-R29, RC-A23: no crystal 2 moves, white 3, red 4, purple 5; plus DEV:1."""
    o = oracle()
    items = o.pending_items(CT.base_fields[1], 1)
    payopt = items[0][0][0]
    assert payopt.op == "PAYOPT" and dict(payopt.options) == {-1: 2, 0: 3, 1: 4, 2: 5}
    assert items[1][0][0].op == "DEV"
    o.cr[0] = [0, 1, 0]
    gen = o.run_action(0, payopt)
    d = next(gen)
    assert d[1] == "pay_move" and d[2] == (opt(o, 0), opt(o, 1), opt(o, 2))   # red payable as red or 2 white
    run(o, gen, [opt(o, 2)], d)
    assert o.cr[0] == [0, 0, 0]


def test_field_c_d_e_printed_effects():
    """RC-R30 (C: WMOVE + DEV), RC-R31 (D: 2 moves / 2 dev / 1 + 1), RC-R32 (E: move, explore, dev)."""
    ops = lambda letter: [i[0][0].op for i in RcOracle.pending_items(None, CT.base_fields[letter], letter)]
    assert ops(2) == ["WMOVE", "DEV"] and ops(3) == ["UNITS"] and ops(4) == ["MOVE", "EXPLORE", "DEV"]
    o = oracle()
    o.active = 0
    o.turn = {"p": 0, "pending": [], "letter": 3, "touched": {3}, "card": 0}
    o.drive(o.run_action(0, CT.base_fields[3][0][0], src=3), [opt(o, 1)])
    assert sorted((i[0].op, i[0].n) for i, _ in o.turn["pending"]) == [("DEV", 1), ("MOVE", 1)]


def test_effects_in_any_order_and_end_drops_the_rest():
    """RC-R14, RC-R15, RC-R16, RC-R19, RC-R20 (the pending list replaces the helper cubes), RC-A59: any order; END ends the turn."""
    o = oracle()
    p = 0
    o.active = p
    o.placed[p] = 1
    o.avail[p][kind("Y3")] = 1                                 # W:2
    gen = o.play_card(p, kind("Y3"), 4)                        # + field E
    d = next(gen)
    assert d[1] == "effect" and len(d[2]) == 5                 # W:2, MOVE, EXPLORE, DEV, end
    d = gen.send(o.A_PICK + 3)                                 # E's development action first
    while d[1] != "effect":
        d = gen.send(o.A_END)
    with pytest.raises(StopIteration):
        gen.send(o.A_END)
    assert o.cr[p][0] == 3                                     # W:2 dropped


def test_recall_recharges_stones_and_allows_empty_slots():
    """RC-R43, RC-R44, RC-R45, RC-R46, RC-R47, RC-R60, RC-A42."""
    o = oracle()
    p = 0
    o.active = p
    o.stones[p] = [1, 0, 0, 1]
    o.placed[p] = 2
    o.uses[p] = {o.abil_index["zendeling"]: 3}
    asked, _ = o.drive(o.recall(p), [])
    assert asked == [] and o.placed[p] == 0 and o.uses[p] == {} and o.recharged


def test_free_actions_only_in_windows_of_the_active_player():
    """RC-R9, RC-R48, RC-R53, RC-R57, RC-R58, RC-R59, RC-A37, RC-A70: chests and abilities at the main choice."""
    o = oracle()
    p = 0
    o.active = p
    o.chests[p][0] = 1
    o.chests[1][0] = 1
    main = until(o, o.normal_turn(p))
    assert o.A_CHEST + 0 in main[2] and o.A_USE + o.abil_index["zendeling"] in main[2]
    d = until(o, o.step_track(1, 0, 3))                         # a decision of a non-active player
    assert d[0] == 1 and d[1] == "item" and all(a < o.A_USE for a in d[2])
    o.drive(o.free_action(p, o.A_CHEST + 0), [])               # CH1: W:2
    assert o.cr[p][0] == 5 and o.chest_discard == [0]


def test_chest_stack_reshuffles_the_discard_pile():
    """RC-R49, RC-R199, RC-A27: an empty stack is refilled by shuffling the discard pile; both empty: nothing."""
    o = oracle()
    o.chest_stack, o.chest_discard = [], [3, 4]
    o.draw_chest(0)
    assert sum(o.chests[0]) == 1 and len(o.chest_stack) == 1 and o.chest_discard == []
    o.chest_stack = []
    o.draw_chest(0)
    assert sum(o.chests[0]) == 1


def test_follower_gain_limited_by_supply_and_placed_on_one_field():
    """RC-R76, RC-R80, RC-R82, RC-A39, RC-A71, RC-A73 (units: RC-R54, RC-R55, RC-R79, RC-R81 need no action)."""
    o = oracle()
    p, f, g = 0, field(o, "L.1"), field(o, "L.2")
    o.fol[p] = [0] * o.NF
    o.fol[p][g] = 1
    o.start_field[p] = f
    o.supply[p] = 2
    o.drive(o.gain_followers(p, 5), [fld(o, g)])
    assert o.fol[p][g] == 3 and o.supply[p] == 0 and o.present_slot(p, 0)
    asked, _ = o.drive(o.gain_followers(p, 1), [])
    assert asked == []


def test_upgrade_crystal_development_and_conversion_bounds():
    """RC-R72, RC-R114, RC-R69, RC-R70: a development action may upgrade a crystal by one kind."""
    o = oracle()
    o.fol[0] = [0] * o.NF
    o.cr[0] = [0, 1, 0]
    o.drive(o.development(0), [opt(o, 4)])
    assert o.cr[0] == [0, 0, 1]
    asked, _ = o.drive(o.development(0), [])                   # purple cannot be upgraded: nothing to do
    assert asked == []


def test_monument_order_and_tile_reward_for_everyone():
    """RC-R137, RC-R138, RC-R139, RC-R140, RC-R142, RC-R143, RC-A22, RC-A28: bottom first; the first chooses the tile, all gain it."""
    o = oracle()
    k = 2
    plain_slot(o, k, GRAIN)
    m = 7 * k
    o.terr[m] = MONUMENT
    o.fol[0][m] = o.fol[1][m] = 3
    o.cr[0] = [1, 0, 0]
    o.cr[1] = [1, 0, 0]
    shown = list(o.mon_display)
    m7 = [t.id for t in CT.monument_tiles].index("M7")          # VP:3
    o.mon_display = [m7] + shown[1:]
    o.drive(o.development(0), [opt(o, 2), opt(o, 0)])           # monument (first: W:1), tile M7
    assert o.mons[0] == 1 and o.mon_tile[m] == m7 and o.score[0] == 3 and o.cr[0] == [0, 0, 0]
    o.drive(o.development(1), [opt(o, 2)])                      # 2 followers (1 + Red's building)
    assert o.score[1] == 3 and o.fol[1][m] == 1 and o.fol[0][m] == 3
    assert o.build_cost(0, MON, m) == CT.board.monuments[1]


def test_sanctuary_choice_and_display_artifact():
    """RC-R124..R129, RC-A19, RC-A20: any sanctuary, its reward; the bottom one takes a display artifact."""
    o = oracle()
    k = 2
    plain_slot(o, k, GRAIN)
    s = 7 * k
    o.terr[s] = 5                                               # sanctuary symbol
    o.fol[0][s] = 2
    o.cr[0] = [0, 0, 0]
    o.drive(o.development(0), [opt(o, 0), opt(o, 5), opt(o, 3)])   # bottom sanctuary, the brown display artifact
    assert o.sanct[0][5] and o.arts[0][3] == 1 and o.art_display[3] == 0 and o.cr[0][0] == 1
    assert o.cr[0] == [1, 0, 0] and o.fol[0][s] == 2            # -1 paid, +1 from the brown reward (F:1)


def test_excavation_red_and_purple_costs_and_choice_of_stone():
    """RC-R153, RC-R154, RC-R156, RC-R158, RC-R160, RC-A51."""
    o = oracle()
    x = field(o, "L.0")
    o.site[x] = [0, 2]
    o.fol[0][x] = 2
    o.cr[0] = [0, 1, 1]
    assert o.can_excavate(0, x)
    o.light[0] = [t.id for t in CT.light_tokens].index("L5")   # VP:2 at white position 4
    o.drive(o.excavate(0, x), [opt(o, 2), opt(o, 0)])          # black: 3 steps for a red; an item
    assert o.trk[0][2] == 3 and o.cr[0] == [0, 0, 1]
    o.drive(o.excavate(0, x), [opt(o, 0), opt(o, 0)])          # white: 4 steps for a purple; item; 4 points: a tile
    assert o.trk[0][0] == 4 and o.cr[0] == [0, 0, 0] and o.stones[0][:3] == [1, 0, 1]


def test_path_and_goal_rounds_on_their_spaces():
    """RC-R1, RC-R6, RC-R182, RC-R183, RC-A8: path spaces 5, 11, 15; goal space 9; the rest normal."""
    tb = CT.time_board
    kinds = [tb.kind(s) for s in range(1, tb.spaces + 1)]
    assert kinds.count("normal") == 13 and kinds.count("path") == 3 and kinds.count("goal") == 1
    assert kinds[-1] == "end"
    o = RcOracle(Config(players=2), CT, 2, 1)
    seen = set()
    while not o.done:
        if o.kind in ("path", "goal"):
            seen.add((o.space, o.kind))
            assert o.A_RECALL not in o.legal_list()
        legal = o.legal_list()
        o.step(legal[0])
    assert seen == {(5, "path"), (11, "path"), (15, "path"), (9, "goal")}
    assert all(min(x) >= 0 for x in o.paths)


def test_moves_of_one_movement_for_several_groups():
    """RC-R83, RC-R84, RC-R85, RC-R86, RC-R87, RC-R89, RC-R91, RC-R92: part of a field, several groups, end early."""
    o = oracle()
    k = 2
    plain_slot(o, k, GRAIN)
    c = 7 * k
    o.fol[0] = [0] * o.NF
    o.fol[0][c] = 3
    asked, _ = o.drive(o.movement(0, 3), [fld(o, c), fld(o, c + 1), o.A_COUNT + 0,     # 1 of 3 to d0
                                           fld(o, c), fld(o, c + 3), o.A_COUNT + 1,     # 2 others to d3
                                           o.A_END])                                    # third move lost
    assert o.fol[0][c + 1] == 1 and o.fol[0][c + 3] == 2 and o.fol[0][c] == 0
    assert [d[1] for d in asked].count("move_from") == 3


def test_camp_reward_for_several_players_not_for_excavating():
    """RC-R146, RC-R147, RC-R149: each player's first building next to a camp; excavating gives nothing."""
    o = oracle()
    k = 2
    plain_slot(o, k, GRAIN)
    c = 7 * k
    o.terr[c], o.camp[c] = CAMP, 0                            # c1: K:white:2
    o.terr[c + 1] = EXCAVATION
    o.site[c + 1] = [1, 1, 1]
    for q in (0, 1):
        o.fol[q][c + 2] = 2
        o.cr[q] = [5, 0, 0]
    o.fol[0][c + 1] = 1
    o.drive(o.excavate(0, c + 1), [])
    assert o.trk[0][0] == 0
    o.drive(o.build(0, WKS, c + 2), [opt(o, 0)])
    o.drive(o.build(1, WKS, c + 2), [opt(o, 0)])
    assert o.trk[0][0] == 2 and o.trk[1][0] == 2
    assert o.enterable(0, c) and not o.can_build(0, WKS, c)


def test_third_field_items_and_shared_thresholds():
    """RC-R163, RC-R164, RC-R165, RC-R170, RC-R172, RC-R173: reveal, choose, rest stays; tokens and tribes shared."""
    o = oracle()
    o.light[0] = [t.id for t in CT.light_tokens].index("L5")   # VP:2 at white 4
    o.drive(o.step_track(0, 0, 5), [opt(o, 1)])                 # third (item Horn), token, fifth
    assert o.revealed[0] and o.items[0] == [item("Horn")] and o.item_stack[0] == [item("Pouch")]
    o.drive(o.step_track(1, 0, 5), [])                           # the last item; the token again; unlocked too
    assert o.score[0] == 3 and o.score[1] == 2 and o.unlocked[0][0] and o.unlocked[1][0]
    o.drive(o.step_track(0, 0, 2), [])
    assert o.score[0] == 3 and o.stones[0][3] == 2               # each threshold once per player


def test_hourglass_one_space_per_round_then_the_end():
    """RC-R4, RC-R5, RC-R7, RC-E1, RC-S22 (markers start at 0; discs placed in the path rounds)."""
    o = RcOracle(Config(players=2), CT, 6, 3)
    spaces = []
    while not o.done:
        spaces.append(o.space)
        o.step(o.legal_list()[-1])
    assert spaces == sorted(spaces) and 1 <= min(spaces) and max(spaces) == 17
    assert {5, 9, 11, 15} <= set(spaces) and o.rounds_played == 17 and o.space == 18
    assert all(o.paths[p] == [2 * k + (o.paths[p][k] % 2) for k in range(3)] for p in range(2))
