"""Recall oracle: setup draws (spec section 2 and 7), variants, path-card sides and goal conditions."""
from __future__ import annotations

import pytest

from sim.games.recall.config import Config
from sim.games.recall.content_types import EXCAVATION, GOAL_KINDS, MONUMENT
from tests.oracle_recall import MON, RcOracle
from tests.test_recall_oracle_rules import CT, kind, oracle, opt


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_draws_and_player_material(players):
    """RC-S2..S4, RC-S7..S18, RC-S20..S27, RC-S29, RC-S36..S38, RC-V10, RC-V12, RC-V16, RC-A35, RC-A39, RC-A61 (13 goals)."""
    o = RcOracle(Config(players=players), CT, 3, 7, start=False)
    assert sorted(o.light) == list(range(6)) and sorted(o.dark) == list(range(6))      # RC-S2, RC-S3
    assert sorted(o.path_at) == list(range(6)) and o.side_at == [0] * 6               # RC-S4, RC-S5
    assert len(set(o.mon_display)) == 5                                                # RC-S7
    assert len(o.chest_stack) == 24                                                    # RC-S8
    assert sorted(o.symbol_letter) == list(range(6))                                   # RC-S9
    assert all(v == 5 for v in o.yellow.values())                                      # RC-S10
    assert len(o.display[2]) == 3 and len(o.decks[2]) == 12                            # RC-S11
    assert len(o.display[3]) == 3 and len(o.decks[3]) == 9                             # RC-S12
    assert o.art_display == [1] * 4                                                    # RC-S13
    sid = [s.id for s in CT.map.slots]
    L, R = sid.index("L"), sid.index("R")
    assert o.face_up[L] and o.face_up[R] == (players > 2)                              # RC-S15, RC-S16
    assert sum(o.face_up) == 1 + (players > 2)                                         # RC-S17
    assert sorted(o.slot_tile) == list(range(12))
    on_map = sum(1 for a in o.art if a >= 0)
    symbols = sum(1 for f in range(o.NF) if o.artsym[f] and o.face_up[max(o.slot_of_field[f], 0)])
    assert on_map == symbols and sum(o.bag_art) == 24 - on_map                         # RC-S14, RC-S18
    sites = [f for f in range(o.NF) if o.terr[f] == EXCAVATION]
    assert all(len(o.site[f]) == 3 for f in sites) and sum(o.bag_stone) == 27 - 3 * len(sites)
    assert len(CT.goal_cards) == 13
    per = 3 if players == 1 else 2
    assert all(len(g) == per for g in o.goals) and len({c for g in o.goals for c in g}) == per * players
    for p in range(players):                                                           # RC-S20..S26
        assert o.cr[p] == [3, 0, 0] and o.avail[p][kind("W0")] == 2 and o.stones[p] == [0, 0, 0, 1]
        assert o.trk[p] == [0, 0, 0] and o.score[p] == 0 and o.supply[p] == 23
    o.begin()
    while o.kind in ("draft", "start_field"):
        o.step(o.legal_list()[0])
    for p in range(players):                                                           # RC-S29
        f = o.start_field[p]
        assert o.fol[p][f] == 3 and o.supply[p] == 20 and o.startno[f] in CT.map.start_fields
    assert len(set(o.tribe)) == players                                                # RC-S33, RC-S34
    assert not set(o.old_tribe) & set(o.tribe) and len(set(o.old_tribe)) == 3          # RC-S36
    stacked = [i for s in o.item_stack for i in s]
    assert len(set(stacked)) == 12 and not set(stacked) & {o.items[p][0] for p in range(players)}   # RC-S37
    assert o.kind == "main" and o.decider == 0                                          # RC-S30, RC-R3


def test_setup_reproducible_and_game_dependent():
    """RC-S28 and the brief: every draw is a function of (seed, game index, purpose)."""
    a = RcOracle(Config(players=4), CT, 3, 7, start=False)
    b = RcOracle(Config(players=4), CT, 3, 7, start=False)
    c = RcOracle(Config(players=4), CT, 3, 8, start=False)
    assert (a.start_slot, a.path_at, a.chest_stack, a.slot_tile) == (b.start_slot, b.path_at, b.chest_stack, b.slot_tile)
    assert (a.path_at, a.chest_stack, a.slot_tile) != (c.path_at, c.chest_stack, c.slot_tile)
    assert a.slot_of == [(a.start_slot + j) % 4 for j in range(4)]                     # RC-R2


def test_random_path_sides():
    """RC-S6, RC-A10: with ``random`` each position's side is drawn; some games show b-sides."""
    sides = [RcOracle(Config(players=2, path_sides="random"), CT, 1, g, start=False).side_at for g in range(10)]
    assert any(1 in s for s in sides) and any(0 in s for s in sides)
    explicit = RcOracle(Config(players=2, path_sides="bbbbbb"), CT, 1, 0, start=False)
    assert explicit.side_at == [1] * 6


def test_custom_tribe_draft_order():
    """RC-V2, RC-V3, RC-V4, RC-V5: one element counter-clockwise, then the other kind clockwise."""
    o = RcOracle(Config(players=3, tribe_draft="custom"), CT, 2, 0)
    seen = []
    while o.kind == "draft":
        seen.append(o.decider)
        o.step(o.legal_list()[0])
    assert seen[:3] == [2, 1, 0] and seen[3:] == [0, 1, 2][:len(seen) - 3]
    assert all(t >= 0 for t in o.tribe) and all(len(i) == 1 for i in o.items)


def test_random_tribes_variant_asks_nothing():
    """RC-V1: a random tribe card and item per player, no draft decision."""
    o = RcOracle(Config(players=4, tribe_draft="random"), CT, 2, 0)
    assert o.kind == "main" and o.tribe == o.tperm[:4] and [i[0] for i in o.items] == o.iperm[:4]


def test_known_old_tribes_still_give_the_point():
    """RC-V6, RC-V7: old tribes face up from the start; the first on the third field still scores 1."""
    o = oracle(known_old_tribes=True)
    assert o.revealed == [True] * 3
    o.drive(o.step_track(0, 0, 3), [opt(o, 0)])
    assert o.score[0] == 1


def test_free_upgrade_choice_variant():
    """RC-V8, RC-V9: any letter left in the player's own set, either side."""
    o = oracle(free_upgrade_choice=True)
    asked, _ = o.drive(o.gain_points(0, 4), [opt(o, 2 * 3 + 1)])     # D, side b
    assert len(asked[0][2]) == 12 and o.upg[0][3] == 1 and not o.upg_set[0][3]
    asked, _ = o.drive(o.gain_points(0, 4), [opt(o, 0)])
    assert len(asked[0][2]) == 10


def test_solo_start_field_choice_and_three_goals():
    """RC-V11, RC-V12, RC-V16, RC-A54: start field 1 or 2; three goal cards; one discarded in the goal round."""
    o = RcOracle(Config(players=1), CT, 5, 0)
    assert o.kind == "start_field" and len(o.legal_list()) == 2
    o.step(o.A_OPT + 1)
    assert o.startno[o.start_field[0]] == CT.map.start_fields[1] and len(o.goals[0]) == 3


# ---------------------------------------------------------------- path cards, both sides

def scored_player():
    o = oracle()
    p = 0
    o.trk[p] = [7, 4, 9]
    o.stones[p] = [2, 1, 3, 2]
    o.sanct[p] = [True] * 3 + [False] * 3
    o.avail[p] = [0] * o.K
    for cid in ("W0", "Y1", "G1", "X1", "X2"):
        o.avail[p][kind(cid)] += 1
    o.arts[p] = [2, 1, 1, 3]
    o.bld[p][o.bm_first + 2] = MON                            # black board field: black value 12
    f = o.field_names.index("N1.0")
    o.terr[f], o.bld[p][f], o.mon_tile[f] = MONUMENT, MON, 0   # M1: 4 points
    o.mons[p] = 2
    return o, p


@pytest.mark.parametrize("path,side,base,bonus", [
    ("knowledge", 0, 8 + 3 + 12, 8),          # RC-E6, RC-E7: second-highest once more
    ("knowledge", 1, 8 + 3 + 12, 8),          # RC-E8: 4 per track at >= 7 (white 7, black 9)
    ("ancestors", 0, 12, 12),                 # RC-E9, RC-E10, RC-E11
    ("ancestors", 1, 12, 7),                  # RC-E12: one set
    ("saints", 0, 6, 6),                      # RC-E13, RC-E14
    ("saints", 1, 6, 5),                      # RC-E15: 3 sanctuaries -> 5
    ("efficiency", 0, 0 + 1 + 2 + 3 + 3, 8),  # RC-E16, RC-E17: 4 coloured cards
    ("efficiency", 1, 9, 6),                  # RC-E18: 2 grey cards
    ("ambition", 0, 3 + 1 + 1 + 6, 6),        # RC-E19, RC-E20: one set of four
    ("ambition", 1, 11, 6),                   # RC-E21: best colour again
    ("power", 0, 12 + 4, 6),                  # RC-E22, RC-E23, RC-E24
    ("power", 1, 16, 4),                      # RC-E25: tile monuments again
])
def test_path_card_base_and_both_sides(path, side, base, bonus):
    """RC-E3, RC-E4 (everyone scores the base), RC-E5 (the disc adds the bonus), RC-A24 (stones on abilities count)."""
    o, p = scored_player()
    card = CT.path_cards[[c.path for c in CT.path_cards].index(["knowledge", "ancestors", "saints", "efficiency",
                                                                  "ambition", "power"].index(path))]
    assert o.path_score(p, path, card, side) == (base, bonus)


def test_bonus_only_with_a_disc_on_the_card():
    """RC-E4, RC-E5, RC-R185, RC-R187: the base for all cards; the bonus only where the disc lies."""
    o, p = scored_player()
    o.path_at, o.side_at = [0, 1, 2, 3, 4, 5], [0] * 6
    o.paths[p] = [-1, -1, -1]
    o.final_scoring()
    without = o.parts["score_saints"][p]
    o.paths[p] = [-1, 2, -1]                                   # sector 2, position 3 = saints
    o.final_scoring()
    assert without == 6 and o.parts["score_saints"][p] == 12


def test_leftover_resources():
    """RC-E26, RC-E27, RC-E28, RC-A49 (raft followers do not count)."""
    o = oracle()
    o.cr[0] = [1, 1, 1]
    o.fol[0] = [0] * o.NF
    o.fol[0][5] = 2
    o.raft_fol[0] = 3
    o.final_scoring()
    assert o.parts["score_leftover"][0] == (1 + 2 + 3 + 2) // 3


# ---------------------------------------------------------------- goal cards

def goal(cid):
    return [g.id for g in CT.goal_cards].index(cid)


def test_goal_conditions():
    """RC-E29..E42, RC-E43 (purple points), RC-A34, RC-A58: each condition kind met and not met."""
    o = oracle()
    p = 0
    assert not any(o.goal_met(p, c) for c in range(len(CT.goal_cards)))
    o.arts[p] = [3, 1, 1, 1]
    for cid in ("GC1", "GC2", "GC3", "GC4"):
        assert o.goal_met(p, goal(cid))
    o.stones[p] = [1, 1, 3, 1]
    assert o.goal_met(p, goal("GC5")) and o.goal_met(p, goal("GC6"))
    o2 = oracle(goal_stones="one_colour")
    o2.stones[0] = [1, 1, 3, 1]
    assert not o2.goal_met(0, goal("GC6"))
    o.upg[p] = [0, 1, 0, 0, -1, -1]
    o.sanct[p] = [True] * 4 + [False] * 2
    o.mons[p] = 3
    o.unlocked[p] = [True] * 3
    for cid in ("GC7", "GC8", "GC9", "GC11"):
        assert o.goal_met(p, goal(cid))
    o.avail[p][kind("Y1")] = 5
    assert o.goal_met(p, goal("GC10"))
    assert GOAL_KINDS[CT.goal_cards[goal("GC12")].kind] == "camps" and not o.goal_met(p, goal("GC12"))
    o.purple[p] = 3
    o.goals[p] = [goal("GC1")]
    o.final_scoring()
    assert o.parts["score_goal"][p] == 15 and o.parts["score_purple"][p] == 3


def test_camp_and_area_tile_goals():
    """RC-E41, RC-E42: different camps next to own buildings; buildings on different area tiles."""
    o = oracle()
    p = 0
    assert not o.goal_met(p, goal("GC13")) and not o.goal_met(p, goal("GC12"))
    for k in range(6):
        f = 7 * k + 1
        o.terr[f] = 0
        o.bld[p][f] = 1
    assert len(o.built_slots(p)) == 6 and o.goal_met(p, goal("GC13"))
    for k in range(3):
        o.terr[7 * k + 2], o.camp[7 * k + 2] = 8, k
    assert o.camps_next_to(p) == {2, 9, 16} and o.goal_met(p, goal("GC12"))


# ---------------------------------------------------------------- the contract's setup, two readings

@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("variant", [{}, {"path_sides": "random", "start_fields": "random"}])
def test_setup_agrees_with_the_content_setup_module(players, variant):
    """Model doc "Random draws": the oracle and ``sim.games.recall.setup.deal`` read every stream alike.

    RC-S2..S18, RC-S27, RC-S28, RC-S31, RC-S32, RC-S36, RC-S37, RC-A10, RC-A35, RC-A66.
    """
    from sim.games.recall.setup import deal, old_tribes
    cfg = Config(players=players, **variant)
    for game in range(6):
        o = RcOracle(cfg, CT, 13, game)
        while o.kind in ("draft", "start_field"):
            o.step(o.legal_list()[-1])
        d = deal(cfg, CT, 13, game)
        assert d.start_slot == o.start_slot
        assert list(d.light_tokens) == o.light and list(d.dark_tokens) == o.dark
        assert list(d.path_cards) == o.path_at and list(d.path_sides) == o.side_at
        assert list(d.monument_tiles) == o.mon_display and list(d.upgrade_letters) == o.symbol_letter
        assert list(d.chest_stack) == o.chest_stack
        assert list(d.green_deck) == o.display[2] + o.decks[2] and list(d.grey_deck) == o.display[3] + o.decks[3]
        assert list(d.layout.tile) == o.slot_tile and list(d.layout.face_up) == o.face_up
        assert [d.layout.rotation[k] for k in range(o.NS) if o.face_up[k]] == [o.rotation[k] for k in range(o.NS) if o.face_up[k]]
        assert sorted(d.artifacts) == sorted((f, c) for f, c in enumerate(o.art) if c >= 0)
        assert sorted((f, tuple(s)) for f, s in d.sites) == sorted((f, tuple(s)) for f, s in enumerate(o.site) if s)
        assert list(d.bag_artifacts) == o.bag_art and list(d.bag_stones) == o.bag_stone and d.bag_draws == o.bag_draws
        assert [list(g) for g in d.goal_cards] == o.goals
        assert list(d.tribe_display) == o.tperm[:players + 1] and list(d.item_display) == o.iperm[:players + 1]
        if players > 1:
            assert list(d.start_fields) == [o.startno[o.start_field[j]] for j in range(players)]
        tribes, stacks = old_tribes(CT, 13, game, set(o.tribe), {i for its in o.items for i in its})
        assert list(tribes) == o.old_tribe and [list(s) for s in stacks] == o.item_stack
