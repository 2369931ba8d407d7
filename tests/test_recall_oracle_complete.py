"""Recall oracle: the rules part 1 left simplified, each on a hand-made position worked out from the spec.

Helpers and the position conventions are those of ``tests/test_recall_oracle_rules.py``.
"""
from __future__ import annotations

from sim.games.recall.content_types import GRAIN, VOLCANO, WATER
from sim.games.recall.effects import parse_effect
from tests.test_recall_oracle_rules import CT, fld, item as item_id, oracle, opt, plain_slot, run, tribe, until, water_position


# ---------------------------------------------------------------- reward order (RC-A64)

def test_rc_a64_reward_order_is_the_receivers_choice_where_it_matters():
    """RC-A64, RC-R80, RC-A73: "F:2 + F:1" with 2 followers left: the order decides where they go."""
    results = []
    for first in (0, 1):
        o = oracle()
        plain_slot(o, 2, GRAIN)
        a, b = 14, 15
        o.fol[0][a] = o.fol[0][b] = 1
        o.supply[0] = 2
        o.start_field[0] = a
        asked, _ = o.drive(o.gain(0, parse_effect("F:2 + F:1")),
                           [o.A_PICK + first, fld(o, a if first == 0 else b)] + ([] if first == 0 else [fld(o, a)]))
        assert asked[0][1] == "order" and asked[0][2] == (o.A_PICK, o.A_PICK + 1)
        results.append((o.fol[0][a], o.fol[0][b]))
    assert results == [(3, 1), (2, 2)]                         # F:2 first: all on a; F:1 first: 1 on b, the last 1 on a


def test_rc_a64_order_free_items_resolve_first_without_a_decision():
    """RC-A64: crystals and points resolve before the knowledge step, in item order, unasked."""
    o = oracle()
    gen = o.gain(0, parse_effect("K:any:1 + W:1 + VP:1"))
    d = until(o, gen)
    assert d[1] == "track"                                     # no "order": one item is not order-free
    assert o.cr[0][0] == 3 + 1 and o.score[0] == 1


def test_rc_a64_equal_items_need_no_order_decision():
    """RC-A64: two equal items ("F:1 + F:1") are not ordered; a camp with K + F (c5) is."""
    o = oracle()
    plain_slot(o, 2, GRAIN)
    o.fol[0][14] = o.fol[0][15] = 1
    asked, _ = o.drive(o.gain(0, parse_effect("F:1 + F:1")), [fld(o, 14), fld(o, 15)])
    assert [d[1] for d in asked] == ["place", "place"]
    c5 = [c.id for c in CT.camps].index("c5")
    d = until(o, o.gain(0, CT.camps[c5].reward))
    assert d[1] == "order" and d[2] == (o.A_PICK, o.A_PICK + 1)


# ---------------------------------------------------------------- Exoskelet at the payment (RC-R244)

def artifact_position(o, followers):
    """Slot N1 all grain; p0 has ``followers`` on the centre, a white artifact of cost 2 next to it."""
    plain_slot(o, 2, GRAIN)
    c = 14
    o.fol[0] = [0] * o.NF
    o.fol[0][c] = followers
    o.start_field[0] = c
    o.art[c + 1] = 0
    o.arts[0][0] = 2                                            # the third white box: 2 followers (RC-A17)
    o.active = 0
    return c


def test_rc_r244_exoskelet_is_offered_at_the_artifact_inside_a_movement():
    """RC-R244, RC-R102, RC-R99: a group of 1 may enter a cost-2 artifact only by Exoskelet, used at the pick-up."""
    o = oracle()
    c = artifact_position(o, 1)
    assert not o.group_can_enter(0, c, c + 1, 1)                # without Exoskelet: cannot pay, cannot enter
    o.items[0] = [item_id("Exoskelet")]
    assert o.group_can_enter(0, c, c + 1, 1)
    assert o.A_USE + o.abil_index["exoskelet"] not in o.free_actions(0)   # not a free action: it acts at a payment
    asked, _ = o.drive(o.movement(0, 1), [fld(o, c), fld(o, c + 1)])
    assert [d[1] for d in asked] == ["move_from", "move_to"]    # the payment has one legal action: Exoskelet
    assert o.fol[0][c + 1] == 1 and o.arts[0][0] == 3 and o.art[c + 1] == -1 and o.placed[0] == 1


def test_rc_r244_exoskelet_or_followers_when_both_can_pay():
    """RC-R244, RC-R101: with 3 followers the payment asks Exoskelet or the followers; followers pay 2."""
    for use in (True, False):
        o = oracle()
        c = artifact_position(o, 3)
        o.items[0] = [item_id("Exoskelet")]
        exo = o.A_USE + o.abil_index["exoskelet"]
        gen = o.movement(0, 1)
        d = until(o, gen, [fld(o, c), fld(o, c + 1), o.A_COUNT + 2])
        assert d[1] == "payment" and set(d[2]) == {exo, o.A_END}
        run(o, gen, [exo if use else o.A_END], d)
        assert o.fol[0][c + 1] == (3 if use else 1) and o.placed[0] == (1 if use else 0)


# ---------------------------------------------------------------- pigs move with every movement (RC-R212)

def test_rc_r212_pigs_go_with_a_water_movement_and_pay_first():
    """RC-R212, RC-R213, RC-A72, RC-A7: a Dorian holder's group takes pigs over the water; a water artifact is paid by a pig."""
    o = oracle()
    c, w1, w2 = water_position(o)
    o.tribe[0] = tribe("Dorian")
    o.pigs[c], o.pigs_left = 2, o.pigs_left - 2
    o.art[w2] = 0                                               # white, cost 1
    gen = o.water_movement(0)
    d = until(o, gen, [fld(o, c), o.A_COUNT + 1])
    assert d[1] == "move_pigs" and d[2] == (opt(o, 0), opt(o, 1), opt(o, 2))
    d = gen.send(opt(o, 2))
    assert o.transit[0] == 2 and o.transit_pigs[0] == 2 and o.pigs[c] == 0
    run(o, gen, [fld(o, w1), fld(o, w2)], d)
    landed = [g for g in range(o.NF) if o.fol[0][g]]
    assert len(landed) == 1 and o.fol[0][landed[0]] == 2 and o.pigs[landed[0]] == 1   # the pig paid
    assert o.pigs_left + sum(o.pigs) == CT.setup.pigs and o.arts[0][0] == 1


def test_rc_r212_pigs_go_with_a_hayla_jump():
    """RC-R212, RC-R221, RC-A47: a Dorian holder's jump with Hayla (unlocked) takes the pigs along."""
    o = oracle()
    plain_slot(o, 2, GRAIN)
    c = 14
    o.fol[0] = [0] * o.NF
    o.fol[0][c] = 1
    o.tribe[0] = tribe("Dorian")
    o.unlocked[0][0] = True                                     # old tribe 0 is Hayla (helper)
    o.pigs[c], o.pigs_left = 2, o.pigs_left - 2
    gen = o.ab_hayla(0)
    d = until(o, gen, [opt(o, 0)])                              # jump
    assert d[1] == "ability_field"
    z = d[2][0] - o.A_FIELD
    d = gen.send(d[2][0])
    assert d[1] == "move_pigs"
    run(o, gen, [opt(o, 2)], d)
    assert o.fol[0][z] == 1 and o.pigs[z] == 2 and o.pigs[c] == 0 and z not in o.adj[c]


# ---------------------------------------------------------------- Vinder and a group on the water (RC-R238)

def test_rc_r238_raft_reacts_to_followers_paid_from_a_group_on_the_water():
    """RC-R238, RC-A49, RC-R97: a water artifact paid next to another player's raft puts a raft follower there."""
    o = oracle()
    c, w1, w2 = water_position(o)
    o.tribe[1] = tribe("Vinder")
    o.raft[1], o.raft_fol[1], o.supply[1] = w1, 2, o.supply[1] - 2
    o.art[w2] = 0
    gen = o.water_movement(0)
    run(o, gen, [fld(o, c), o.A_COUNT + 1, fld(o, w2)])
    assert o.fol[1][w2] == 1 and o.raft_fol[1] == 1 and o.arts[0][0] == 1


# ---------------------------------------------------------------- water movement from the water (RC-A7(b))

def test_rc_a7_water_movement_may_start_on_a_water_field():
    """RC-A7(b), RC-A7(d): followers on a water field start there; they may leave at once next to it."""
    o = oracle()
    c, w1, w2 = water_position(o)
    o.fol[0][c], o.fol[0][w1] = 0, 2
    gen = o.water_movement(0)
    d = until(o, gen, [fld(o, w1), o.A_COUNT + 1])
    assert d[1] == "water_step" and fld(o, w2) in d[2] and o.A_END in d[2]    # w1 is the path's first field
    d = gen.send(o.A_END)
    assert d[1] == "water_exit" and {a - o.A_FIELD for a in d[2]} <= set(o.adj[w1]) - {w1}
    run(o, gen, [], d)
    assert o.fol[0][w1] == 0 and sum(o.fol[0]) == 2


# ---------------------------------------------------------------- a water group that cannot leave (config)

def test_water_no_exit_switch_back_or_stay():
    """RC-A7, RC-R95 (model doc "Water movement", config ``water_no_exit``): a dead end returns the group, or leaves it there."""
    for rule, where in (("back", "c"), ("stay", "w2")):
        o = oracle(water_no_exit=rule)
        o.terr = [-1] * o.NF
        plain_slot(o, 2, VOLCANO)
        c, w1, w2 = 14, 15, 16
        o.terr[c], o.terr[w1], o.terr[w2] = GRAIN, WATER, WATER
        o.fol[0] = [0] * o.NF
        o.fol[0][c] = 2
        asked, _ = o.drive(o.water_movement(0), [fld(o, c), o.A_COUNT + 1, fld(o, w1)])
        assert asked[-1][1] == "water_step"                      # then w2 alone, then stuck
        assert o.fol[0][{"c": c, "w2": w2}[where]] == 2 and o.transit[0] == 0


# ---------------------------------------------------------------- free actions during a recall (RC-R44)

def test_rc_r44_free_actions_before_the_recharge_also_with_empty_slots():
    """RC-R44, RC-R47, RC-A70: a recall with no card in a slot still offers free actions before the recharge."""
    o = oracle()
    p = o.active = 0
    o.stones[p] = [1, 0, 0, 1]
    o.placed[p] = 1                                             # 1 stone left: Zendeling (cost 1) is usable
    o.chests[p][0] = 1                                          # CH1: W:2
    zendeling = o.A_USE + o.abil_index["zendeling"]
    gen = o.recall(p)
    d = until(o, gen)
    assert d[1] == "recharge" and set(d[2]) == {o.A_END, zendeling, o.A_CHEST}
    d = gen.send(o.A_CHEST)
    assert d[1] == "recharge" and o.cr[p][0] == 5 and not o.recharged
    run(o, gen, [o.A_END], d)
    assert o.recharged and o.placed[p] == 0
    assert zendeling not in o.free_actions(p)                   # stones back, but unusable this turn (RC-R45)


# ---------------------------------------------------------------- solo goals: one component, one card (RC-V15)

def test_rc_v15_a_sanctuary_counts_for_one_card_in_oracle_and_scoring():
    """RC-V15, RC-A54, RC-E37, RC-E42, RC-V13: "4 sanctuaries" + "6 area tiles" with 4 sanctuaries and
    2 workshops on 6 tiles is not met (the sanctuaries serve one card, 2 buildings are left); with
    4 more workshops on the sanctuaries' tiles it is. Oracle and scoring.py read it the same way."""
    from sim.games.recall.scoring import Components, two_cards_met
    from tests.oracle_recall import SAN, WKS
    gc = [g.id for g in CT.goal_cards]
    four_sanct, six_tiles = gc.index("GC8"), gc.index("GC13")
    for extra in (False, True):
        o = oracle(players=1)
        o.bld[0] = [-1] * o.NF
        built = [(SAN, k) for k in range(4)] + [(WKS, 4), (WKS, 5)] + ([(WKS, k) for k in range(4)] if extra else [])
        for j, (kind, k) in enumerate(built):
            o.bld[0][7 * k + 1 + j // 6] = kind                 # a different field for each building
        o.sanct[0] = [True] * 4 + [False] * 2
        assert len(o.built_slots(0)) == 6 and sum(o.sanct[0]) == 4
        comps = Components((0, 0, 0, 0), (0, 0, 0), 0, 0, 0,
                           tuple((kind, k, frozenset()) for kind, k in built))
        ours = o.two_goals_met(0, four_sanct, six_tiles)
        theirs = two_cards_met(comps, ("sanctuaries", 4), ("area_tiles", 6))
        assert ours == theirs == extra


# ---------------------------------------------------------------- excavation table and pig points are data

def test_rc_r152_r214_excavation_table_and_pig_points_come_from_setup_toml(tmp_path):
    """RC-R152, RC-R153, RC-R154, RC-R214, RC-E44, RC-A1: an edited setup.toml changes the oracle's excavation
    and both implementations' pig-farm points."""
    import numpy as np

    from sim.games.recall import content as content_module
    from sim.games.recall.config import Config
    from sim.games.recall.content import load_content
    from sim.games.recall.content_types import EXCAVATION
    from sim.games.recall.scoring import scoring_tables
    from tests.oracle_recall import RcOracle
    from tests.scaffold import copy_content, edit
    files = copy_content(content_module, tmp_path)
    edit(tmp_path / "setup.toml", 'excavation_crystal = ["P", "R", "W"]', 'excavation_crystal = ["P", "R", "R"]')
    edit(tmp_path / "setup.toml", "excavation_steps = [4, 3, 2]", "excavation_steps = [4, 3, 5]")
    edit(tmp_path / "setup.toml", "pig_farm_points = 2", "pig_farm_points = 3")
    cfg = Config(players=4, **files)
    ct = load_content(cfg)
    assert ct.setup.excavation == ((2, 4), (1, 3), (1, 5)) and scoring_tables(ct).pig_farm_points == 3
    o = RcOracle(cfg, ct, 1, 0, start=False)
    plain_slot(o, 2, GRAIN)
    x = 14
    o.terr[x], o.site[x] = EXCAVATION, [0, 0, 0]
    o.fol[0][x], o.cr[0], o.trk[0] = 2, [0, 1, 0], [0, 0, 0]
    o.light[0] = [t.id for t in ct.light_tokens].index("L5")   # the white bonus token passed: VP:2
    assert o.can_excavate(0, x)                                # 1 red pays for 3 stones (edited)
    o.drive(o.excavate(0, x), [])                              # one stone colour: nothing asked
    assert o.trk[0][0] == 5 and o.cr[0] == [0, 0, 0]          # 3 stones: 1 red (edited), 5 steps (edited)
    o.tribe[0] = tribe("Dorian")
    o.farm[x] = True                                            # the player is present there (1 follower left)
    o.final_scoring()
    assert o.parts["score_pigs"][0] == 3
    default = scoring_tables(load_content(Config()))
    assert default.pig_farm_points == 2
    from sim.games.recall.scoring import final_scoring
    from tests.test_recall_scoring import _end_from_oracle
    e, _ = _end_from_oracle(o, ct)
    assert final_scoring(scoring_tables(ct), e)["score_pigs"][0, 0] == 3 * int(np.asarray(e.pig_farms)[0, 0])


# ---------------------------------------------------------------- the digital companion is not simulated (RC-A55)

def test_rc_a55_solo_result_is_the_goals_only_no_companion_comparison():
    """RC-A55, RC-V13, RC-V14: a solo game is won by its two goals alone; no comparison with the
    companion's old civilisations enters the result, and the sheet has no such column."""
    import random

    from sim.games.recall.config import Config
    from tests.oracle_recall import PARTS, RcOracle
    for game in range(3):
        o = RcOracle(Config(players=1), CT, 5, game)
        r = random.Random(game)
        while not o.done:
            o.step(r.choice(o.legal_list()))
        sheet = o.sheet()
        assert sheet["win_share"] == [1.0 if sheet["rc_goal_met"][0] else 0.0]
        assert sheet["score"][0] == sum(sheet[k][0] for k in PARTS)
        assert not [k for k in sheet if "companion" in k or "civilisation" in k]


def test_rc_r212_pigs_go_with_colterons_volcano_move():
    """RC-R212, RC-R208, RC-A45: a holder of Dorian and Colteron (unlocked) takes pigs from volcano to volcano."""
    o = oracle()
    plain_slot(o, 2, VOLCANO)
    a, b = 14, 17
    o.fol[0] = [0] * o.NF
    o.fol[0][a] = 2
    o.tribe[0] = tribe("Dorian")
    o.unlocked[0][2] = True                                     # old tribe 2 is Colteron (helper)
    o.pigs[a], o.pigs_left = 1, o.pigs_left - 1
    white = o.cr[0][0]
    gen = o.ab_colteron(0)
    d = until(o, gen, [fld(o, a), fld(o, b), o.A_COUNT + 1])
    assert d[1] == "move_pigs" and d[2] == (opt(o, 0), opt(o, 1))
    run(o, gen, [opt(o, 1)], d)
    assert o.fol[0][b] == 2 and o.pigs[b] == 1 and o.pigs[a] == 0 and o.cr[0][0] == white + 1
