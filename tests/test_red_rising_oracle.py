"""The Red Rising oracle (tests/oracle_red_rising.py) on hand-made positions and scripted games.

Positions are built with the oracle's ``setup_override`` hook (``position(...)`` below): it
replaces the piles after the regular setup; ``forced_rolls`` fixes die results. Expected values
are worked out from shared/specs/red_rising.md and docs/red_rising_model.md; the rule ids each
test checks are in its name or docstring. The last tests play a few hundred random games and
check invariants (cards never created or lost, resources in range, score = sum of parts).
"""
from __future__ import annotations

import dataclasses
import random

import pytest

from sim.core import rng
from sim.games.red_rising.config import Config
from sim.games.red_rising.content_types import (
    AutomaCard, AutomaLevel, Card, Content, EndBonus, Filter, House, Op,
)
from tests.oracle_red_rising import INSTITUTE, JUPITER, LUNA, MARS, OracleGame

# ---- hand-made content -----------------------------------------------------------------------

FLEET = (0, 1, 3, 6, 10, 15, 21, 28, 34, 39, 43)                 # RR-A6
FLEET_EXAMPLES = (0, 1, 3, 6, 10, 14, 19, 24, 30, 35, 40)        # the table of spec section 10
LEVELS = {1: AutomaLevel(4, 1), 2: AutomaLevel(5, 2), 3: AutomaLevel(6, 3),
          4: AutomaLevel(7, 3), 5: AutomaLevel(7, 4), 6: AutomaLevel(8, 4)}   # RR-A9
COLOURS = ("Red", "Orange", "Yellow", "Green", "Blue", "Violet", "Copper",
           "Silver", "Gold", "Grey", "Obsidian", "Pink", "White", "Brown")
AUTOMA_ROWS = """AT01,A,B,star,cw AT02,A,C,none,ccw AT03,B,A,cross,cw AT04,J,A,none,ccw AT05,C,A,star,cw
AT06,A,D,none,cw AT07,B,B,star,ccw AT08,M,A,cross,ccw AT09,D,B,none,cw AT10,A,C,star,ccw AT11,C,J,none,cw
AT12,B,M,star,ccw AT13,L,A,none,cw AT14,A,B,cross,ccw AT15,D,L,star,cw AT16,B,C,none,ccw AT17,C,A,star,ccw
AT18,I,D,none,cw AT19,B,I,cross,cw AT20,A,B,star,ccw AT21,C,D,cross,cw AT22,D,C,star,ccw"""   # RR-A8
AUTOMA = tuple(AutomaCard(*row.split(",")) for row in AUTOMA_ROWS.split())
HOUSES = (
    House("Apollo", on_sovereign=(Op("place_from_deck", to="any"),), first_turn=True, extra_last_turn=True),
    House("Ceres", on_sovereign=(Op("banish_location", where="any", position="top"),),
          start_extra_cards=1, end_banish_from_hand=1),
    House("Diana", on_sovereign=(Op("gain", resource="influence"),)),
    House("Jupiter", on_sovereign=(Op("gain", resource="fleet"),)),
    House("Mars", on_sovereign=(Op("gain", resource="helium"),)),
    House("Minerva", on_sovereign=(Op("roll_die", sovereign_face="rechoose"),)),
)
HOUSE = {h.name: h for h in HOUSES}


def helium_op(amount=1):
    return Op("gain", resource="helium", amount=amount)


# Cards of the scripted tests: (name, colour, core, keyword arguments of Card).
SPECIAL = [
    ("K", "Blue", 5, dict(deploy=(Op("move", which="self", to="Mars"),))),
    ("P", "Green", 3, dict(deploy=(Op("deploy_another"),
                                   Op("if", cond=("resource_at_least", ("helium", 1)),
                                      then=(Op("gain", resource="fleet"),))))),
    ("Q", "Blue", 3, dict(deploy=(helium_op(),))),
    ("Q2", "Pink", 3, dict(deploy=(Op("deploy_another"),))),
    ("T", "Copper", 8, dict(deploy=(Op("trade", pay=(("helium", 2),), get=(("fleet", 1),)),))),
    ("TT", "Copper", 8, dict(deploy=(Op("trade", pay=(("helium", 1),), get=(("fleet", 1),)),) * 2)),
    ("TA", "Copper", 8, dict(deploy=(Op("trade", pay=(("helium", 1),), get=(("fleet", 1),)),
                                     Op("deploy_another")))),
    ("TB", "Copper", 8, dict(deploy=(Op("trade", pay=(("helium", 1),), get=(("influence", 1),)),))),
    ("S", "Obsidian", 6, dict(deploy=(Op("opponent", action="steal"),
                                      Op("if", cond=("prev_done", True), then=(helium_op(),))))),
    ("BL", "Gold", 12, dict(block_against=frozenset({"steal"}))),
    ("OC", "Violet", 6, dict(deploy=(Op("opponent", target="each", action="steal", selection="owner_chooses"),))),
    ("GF", "Copper", 3, dict(deploy=(Op("opponent", target="each", action="gain_free", resource="helium",
                                        amount=2, blockable=False),))),
    ("GFD", "Copper", 3, dict(deploy=(Op("opponent", action="gain_free", resource="die", blockable=False),))),
    ("RR", "Blue", 6, dict(deploy=(Op("opponent", action="reveal_random",
                                      then=(Op("if", cond=("seen_has", Filter(colour=("Gold",))),
                                               then=(helium_op(),)),)),))),
    ("RC", "Blue", 6, dict(deploy=(Op("opponent", action="reveal_choice"),))),
    ("ROQ", "Gold", 6, dict(deploy=(Op("look_opponent_hand", count=6, automa_shuffle=True),))),
    ("EO", "Red", 6, dict(deploy=(Op("look_opponent_hand", count=6,
                                     then=(Op("if", cond=("seen_has", Filter(colour=("Red",))),
                                              then=(Op("gain", resource="influence"),)),)),))),
    ("E1", "White", 15, dict(end_ability=(helium_op(),))),
    ("E2", "White", 15, dict(end_ability=(Op("banish_hand"),))),
    ("LOSE", "Gold", 21, dict(deploy=(Op("opponent", target="neighbours", action="lose",
                                         resource="influence"),))),
    ("SG", "Obsidian", 6, dict(deploy=(Op("opponent", action="steal", filter=Filter(colour=("Gold",))),))),
    ("PSY", "Yellow", 12, dict(end_bonus=(EndBonus("hand_compare", 10, compare="more_than_each_opponent"),))),
    ("ET", "Red", 0, dict(deploy=(Op("end_turn"),))),
    ("ETP", "Obsidian", 0, dict(deploy=(Op("gain_card", from_="other", optional=True),
                                        Op("end_turn", when="if_prev_done")))),
    ("REC", "Red", 8, dict(deploy=(Op("recover", to="hand"),))),
    ("RECL", "Red", 8, dict(deploy=(Op("recover", to="other", filter=Filter(colour=("Gold",))),))),
    ("RO", "Gold", 4, dict(deploy=(Op("reveal_own", filter=Filter(colour=("Gold",)),
                                      then=(Op("if", cond=("seen_has", Filter(colour=("Gold",))),
                                               then=(helium_op(),)),)),))),
    ("MB", "Brown", 6, dict(deploy=(Op("move", which="bottom", from_="other", to="this", to_position="bottom"),))),
    ("BDT", "White", 5, dict(deploy=(Op("banish_deck_top", count=2),))),
    ("PFD", "White", 9, dict(deploy=(Op("place_from_deck", to="other", count=2),))),
]
FILLERS = 40


def make_content(cards, fleet=FLEET, automa=AUTOMA, houses=HOUSES) -> Content:
    return Content(deck_name="test", synthetic=True, colours=COLOURS, cards=tuple(cards), houses=houses,
                   fleet_points=fleet, automa_levels=LEVELS, automa_cards=automa)


def script_content(automa=AUTOMA, houses=HOUSES) -> Content:
    """The special cards above (index = position), then plain fillers F0.. of varied colours."""
    cards = [Card(i, cid, cid, colour, core, **kw) for i, (cid, colour, core, kw) in enumerate(SPECIAL)]
    for k in range(FILLERS):
        i = len(cards)
        colour = COLOURS[k % len(COLOURS)] if COLOURS[k % len(COLOURS)] != "Gold" else "Brown"
        cards.append(Card(i, f"F{k}", f"Filler {k}", colour, k % 16))
    return make_content(cards, automa=automa, houses=houses)


CONTENT = script_content()
IDX = {c.id: c.index for c in CONTENT.cards}


def ids(*names):
    return [IDX[n] for n in names]


def F(*ks):
    """Filler card indices."""
    return [IDX[f"F{k}"] for k in ks]


def position(houses, **state):
    """setup_override: houses per player index (None = Au Toma) and any state attribute.

    Piles are card indices: ``deck`` top first, ``stacks`` bottom→top, ``hands`` per player.
    Unlisted piles are emptied, so every scripted test starts from exactly what it lists.
    """
    def apply(g):
        by_name = {h.name: h for h in g.content.houses}
        g.house = [by_name[h] if h else None for h in houses]
        g.is_automa = [h is None for h in houses]
        g.deck, g.banished = [], []
        g.stacks = [[] for _ in range(4)]
        g.hands = [[] for _ in houses]
        for key, value in state.items():
            if key in ("stacks", "hands"):
                value = [list(v) for v in value]
            elif isinstance(value, (list, tuple)):
                value = list(value)
            setattr(g, key, value)
    return apply


def new_game(houses, config=None, content=CONTENT, **state) -> OracleGame:
    players = len([h for h in houses if h])
    config = config or Config(players=players)
    slot_houses = tuple(h for h in houses if h)
    return OracleGame(config, content, seed=5, game=0, slot_houses=slot_houses,
                      setup_override=position(houses, **state))


def legal_names(g) -> list[str]:
    return [g.action_names[a] for a in g.legal_list()]


def expect(g, decider, kind, legal=None):
    assert (g.decider(), g.kind()) == (decider, kind), g.log[-8:]
    if legal is not None:
        assert sorted(legal_names(g)) == sorted(legal), g.log[-8:]


def do(g, *names):
    for name in names:
        g.step(g.action_names.index(name))


def cards_of(names_or_ids):
    return [f"card:{CONTENT.cards[i].id}" for i in names_or_ids]


STACKS4 = (F(0), F(1), F(2), F(3))
ALL_LOC = ["loc:Jupiter", "loc:Mars", "loc:Luna", "loc:Institute"]


# ---- setup ------------------------------------------------------------------------------------

def test_setup_four_players_RR_S4_S6_S8_S15_S17_S18():
    """Rules: RR-S2, RR-S4, RR-S6, RR-S8, RR-S10, RR-S11, RR-S12, RR-S13, RR-S15, RR-S16, RR-S17, RR-S18.

    Deck from the "deck" permutation; 2 cards per location; hands in turn order; Ceres 6 cards
    (RR-S17); Apollo starts (RR-S15) and players are indexed from the start slot."""
    cfg = Config(players=4)
    g = OracleGame(cfg, CONTENT, seed=11, game=3, slot_houses=("Mars", "Ceres", "Apollo", "Diana"))
    assert g.slot_of == [2, 3, 0, 1]
    assert [h.name for h in g.house] == ["Apollo", "Diana", "Mars", "Ceres"]
    perm = rng.permutations(rng.stream_keys(11, [3], "deck"), len(CONTENT.cards))[0]
    order = [int(i) for i in perm]
    assert g.stacks == [order[0:2], order[2:4], order[4:6], order[6:8]]
    assert g.hands == [order[8:13], order[13:18], order[18:23], order[23:29]]
    assert g.deck == order[29:]
    assert g.neutral is None and g.sovereign is None
    assert g.helium == g.fleet == g.cubes == [0, 0, 0, 0]
    assert (g.decider(), g.kind()) == (0, "action")


def test_setup_random_houses_and_start_RR_S8_S14_S15():
    """Rules: RR-S8, RR-S14, RR-S15.

    Houses from the "houses" permutation; without Apollo the "start" draw picks the start slot;
    with two seats a neutral house of neutral_cubes cubes exists (RR-S14)."""
    for game in range(30):
        g = OracleGame(Config(players=2), CONTENT, seed=1, game=game)
        perm = rng.permutations(rng.stream_keys(1, [game], "houses"), 6)[0]
        dealt = [HOUSES[perm[0]].name, HOUSES[perm[1]].name]
        assert [g.house[j].name for j in range(2)] == [dealt[s] for s in g.slot_of]
        if "Apollo" in dealt:
            assert g.house[0].name == "Apollo"
        else:
            assert g.slot_of[0] == int(rng.integers(rng.stream_keys(1, [game], "start"), 0, 2)[0])
        assert g.neutral == 3
    assert OracleGame(Config(players=3), CONTENT, 1, 0).neutral is None


def test_setup_solo_RR_V3_V4_V5_V6_V7_V8_V45_V10():
    """Rules: RR-V3, RR-V4, RR-V5, RR-V6, RR-V7, RR-V8, RR-V45, RR-V10."""
    solo_cards = list(CONTENT.cards)
    solo_cards[0] = dataclasses.replace(solo_cards[0], solo_removed=True)
    solo_cards[1] = dataclasses.replace(solo_cards[1], solo_removed=True, solo_never_readd=True)
    content = make_content(solo_cards)
    partner = {"A": "D", "B": "C", "C": "B", "D": "A"}
    starts = set()
    for game in range(20):
        g = OracleGame(Config(players=1), content, seed=2, game=game)
        auto = g.is_automa.index(True)
        assert g.n == 2 and g.neutral == 3 and g.house[auto] is None
        starts.add(auto)
        assert 0 not in g.in_use and 1 not in g.in_use                      # RR-V6
        played = 2 if auto == 0 else 0                  # she starts: her first turn ran already
        assert len(g.hands[auto]) == 2 + played                               # RR-V8
        perm = rng.permutations(rng.stream_keys(2, [game], "priority"), 4)[0]
        assert g.letter_of == ["ABCD"[perm[x]] for x in range(4)]            # RR-V4
        assert g.letter_of[g.luna_bonus_loc] == partner[g.letter_of[LUNA]]    # RR-V5
        assert g.luna_bonus_loc != LUNA
        assert len(g.automa_deck) == 18 - played and len(g.automa_aside) == 4  # RR-V3
        order = rng.permutations(rng.stream_keys(2, [game], "automa"), 22)[0]
        assert g.automa_deck == [int(i) for i in order[4 + played:]]
        # Au Toma's hand: the first card drawn lies at the bottom (contract)
        deck = [g.in_use[i] for i in rng.permutations(rng.stream_keys(2, [game], "deck"), len(g.in_use))[0]]
        first_hand = 8 + (0 if auto == 0 else 5 + g.house[0].start_extra_cards)
        assert g.hands[auto][:2] == deck[first_hand:first_hand + 2]
    assert starts == {0, 1}                                                   # RR-V7: random start
    readd = OracleGame(Config(players=1, solo_readd_removed=True), content, 2, 0)
    assert 0 in readd.in_use and 1 not in readd.in_use                        # RR-V45: Loan Shark out
    for game in range(40):
        g = OracleGame(Config(players=1, solo_exclude_ceres=True), content, 2, game)
        assert "Ceres" not in [g._house_name(p) for p in range(2)]            # RR-V10 switch


def test_odd_even_card_example_9_RR_V9_R66():
    """Rules: RR-V9, RR-R66. Cores 4,7 / 0,9 / 12,3 / 5,10: four even (0 is even), four odd -> EVEN."""
    cards = [Card(i, f"C{i}", f"C{i}", "Red", core) for i, core in enumerate([4, 7, 0, 9, 12, 3, 5, 10, 1])]
    g = new_game(["Mars", None], content=make_content(cards),
                 stacks=([0, 1], [2, 3], [4, 5], [6, 7]))
    assert g.odd_even_card() == "EVEN"
    g.stacks[0][0] = 8                                                       # 4 -> 1: five odd
    assert g.odd_even_card() == "ODD"


# ---- Lead, Scout, the gain step ---------------------------------------------------------------

def test_example_7a_moved_card_counts_at_its_origin_RR_R49_R61_R63():
    """Rules: RR-R2, RR-R3, RR-R4, RR-R5, RR-R7, RR-R49, RR-R50, RR-R61, RR-R63 (example 7a)."""
    g = new_game(["Mars", "Diana"], hands=[ids("K"), []], stacks=STACKS4, deck=F(10, 11, 12))
    expect(g, 0, "action", ["lead", "scout"])
    do(g, "lead")
    expect(g, 0, "deploy_card", ["card:K"])
    do(g, "card:K")
    expect(g, 0, "deploy_location", ALL_LOC)
    do(g, "loc:Luna")
    expect(g, 0, "target_location", ["loc:Mars"])                   # move self, to Mars only
    do(g, "loc:Mars")
    expect(g, 0, "gain", ["loc:Jupiter", "loc:Mars", "loc:Institute", "deck"])   # Luna excluded
    do(g, "loc:Mars")                                               # K itself, now Mars's top
    assert g.hands[0] == ids("K") and g.helium[0] == 1
    assert g.stacks[LUNA] == F(2) and g.stacks[MARS] == F(1)
    expect(g, 1, "action")


def test_example_7b_chained_deploy_one_gain_step_RR_R62_R63_A22():
    """Rules: RR-R62, RR-R63, RR-A22, RR-R40.

    Q (chained) resolves before the rest of P's list; both locations are excluded."""
    g = new_game(["Mars", "Diana"], hands=[ids("P", "Q") + F(5), []], stacks=STACKS4, deck=F(10, 11))
    do(g, "lead", "card:P", "loc:Jupiter")
    expect(g, 0, "target_card", ["card:Q", "card:F5"])
    do(g, "card:Q")
    expect(g, 0, "target_location", ALL_LOC)
    do(g, "loc:Institute")
    assert g.helium[0] == 1 and g.fleet[0] == 1                     # Q's gain, then P's "if"
    expect(g, 0, "gain", ["loc:Mars", "loc:Luna", "deck"])


@pytest.mark.parametrize("recursive", [True, False])
def test_chain_deploy_recursive_switch_RR_A22(recursive):
    """Rules: RR-A22."""
    cfg = Config(players=2, chain_deploy_recursive=recursive)
    g = new_game(["Mars", "Diana"], config=cfg, hands=[ids("P", "Q2", "Q"), []], stacks=STACKS4, deck=F(10))
    do(g, "lead", "card:P", "loc:Jupiter", "card:Q2", "loc:Mars")
    if recursive:
        expect(g, 0, "target_card", ["card:Q"])
        do(g, "card:Q", "loc:Institute")
        assert (g.helium[0], g.fleet[0]) == (1, 1)
        expect(g, 0, "gain", ["loc:Luna", "deck"])
    else:                                                           # Q2's deploy_another is skipped
        assert (g.helium[0], g.fleet[0]) == (0, 0)
        expect(g, 0, "gain", ["loc:Luna", "loc:Institute", "deck"])


def test_scout_places_after_seeing_and_gives_the_bonus_RR_R11_R12_R13_R14_A32():
    """Rules: RR-R11, RR-R12, RR-R13, RR-R14, RR-A32."""
    g = new_game(["Mars", "Diana"], hands=[ids("Q"), []], stacks=(F(0), F(1), F(2), []), deck=ids("Q2") + F(10))
    do(g, "scout")
    expect(g, 0, "scout_location", ALL_LOC)
    assert g.limbo == ids("Q2")                                     # flipped before the choice
    do(g, "loc:Institute")                                          # empty location allowed
    assert g.stacks[INSTITUTE] == ids("Q2") and g.cubes[0] == 1
    assert g.hands[0] == ids("Q") and g.deck == F(10) and g.helium[0] == 0   # no deploy ability
    expect(g, 1, "action")


def test_empty_deck_and_no_legal_gain_RR_A16_A17_R68():
    """Rules: RR-A16, RR-A17, RR-R68, RR-R67, RR-R9, RR-R10.

    No Scout with an empty deck; Lead with an empty hand is only the gain step; no allowed
    non-empty location and no deck: the gain step is skipped."""
    g = new_game(["Mars", "Diana"], hands=[[], F(4)], stacks=([], [], [], []))
    expect(g, 0, "action", ["lead"])
    do(g, "lead")                                                   # nothing to deploy, nothing to gain
    expect(g, 1, "action", ["lead"])
    do(g, "lead", "card:F4", "loc:Mars")
    assert g.stacks[MARS] == F(4)
    expect(g, 0, "action", ["lead"])                                # P1 could not gain from Mars
    do(g, "lead")
    expect(g, 0, "gain", ["loc:Mars"])


def test_location_bonuses_and_limits_RR_R15_R16_R17_R18_R20():
    """Rules: RR-R15, RR-R16, RR-R17, RR-R18, RR-R20."""
    g = new_game(["Mars", "Diana"], config=Config(players=2, threshold=11),
                 stacks=(F(0, 1), F(2, 3), F(4), F(5, 6)), deck=F(10), fleet=[10, 0], cubes=[10, 0])
    do(g, "lead", "loc:Jupiter")                                    # fleet already on the last space
    assert g.fleet[0] == 10 and g.hands[0] == F(1)
    do(g, "lead", "loc:Institute")                                  # P1: one cube
    assert g.cubes[1] == 1
    do(g, "scout", "loc:Institute")                                 # P0: all ten cubes placed
    assert g.cubes[0] == 10 and g.stacks[INSTITUTE] == F(5, 10)
    do(g, "lead", "card:F6", "loc:Jupiter", "loc:Mars")
    assert g.helium[1] == 1 and g.hands[1] == F(3)


# ---- the Rising die ---------------------------------------------------------------------------

def die_game(face, content=CONTENT, **state):
    base = dict(stacks=(F(0), F(1), F(2), F(3)), deck=F(10, 11, 12), forced_rolls=[face])
    base.update(state)
    g = new_game(["Mars", "Diana"], content=content, **base)
    do(g, "lead")
    expect(g, 0, "gain", ALL_LOC + ["deck"])
    do(g, "deck")
    assert F(10)[0] in g.hands[0] and g.die_counter == 1
    return g


def test_die_face_1_banish_RR_R22():
    """Rules: RR-R8, RR-R22, RR-R44."""
    g = die_game(1)
    expect(g, 0, "target_location", ALL_LOC)
    do(g, "loc:Mars")
    assert g.stacks[MARS] == [] and g.banished == F(1)


def test_die_face_2_place_without_bonus_RR_R22_R24():
    """Rules: RR-R22, RR-R24."""
    g = die_game(2)
    expect(g, 0, "place_location", ALL_LOC)
    do(g, "loc:Luna")
    assert g.stacks[LUNA] == F(2, 11) and g.sovereign is None
    g = die_game(2, deck=F(10))                                     # deck now empty: nothing
    expect(g, 1, "action")


def test_die_face_3_sovereign_and_house_RR_R25_R27_R28():
    """Rules: RR-R25, RR-R27, RR-R28."""
    g = die_game(3)
    assert g.sovereign == 0 and g.helium[0] == 1                    # House Mars
    expect(g, 1, "action")


@pytest.mark.parametrize("face,attr,start,after", [
    (4, "helium", 0, 1), (5, "fleet", 0, 1), (6, "cubes", 0, 1), (5, "fleet", 10, 10), (6, "cubes", 10, 10)])
def test_die_faces_4_5_6_and_limits_RR_R22_R23(face, attr, start, after):
    """Rules: RR-R22, RR-R23."""
    g = die_game(face, **{attr: [start, 0]})
    assert getattr(g, attr)[0] == after
    expect(g, 1, "action")


def test_example_8_minerva_rechooses_the_sovereign_face_RR_R19_R27_R36_A35():
    """Rules: RR-R19, RR-R27, RR-R36, RR-A35."""
    g = new_game(["Minerva", "Mars"], hands=[F(20), []], stacks=STACKS4, deck=F(10, 11),
                 helium=[2, 0], fleet=[1, 0], cubes=[3, 0], sovereign=1, forced_rolls=[3])
    do(g, "lead", "card:F20", "loc:Jupiter")
    expect(g, 0, "gain", ["loc:Mars", "loc:Luna", "loc:Institute", "deck"])
    do(g, "loc:Luna")
    expect(g, 0, "die_face", ["face:1", "face:2", "face:4", "face:5", "face:6"])
    do(g, "face:6")
    assert g.sovereign == 0 and (g.helium[0], g.fleet[0], g.cubes[0]) == (2, 1, 4)
    expect(g, 1, "action")
    g = new_game(["Minerva", "Mars"], hands=[F(20), []], stacks=STACKS4, deck=F(10), forced_rolls=[1])
    do(g, "lead", "card:F20", "loc:Jupiter", "loc:Luna")
    expect(g, 0, "target_location", ["loc:Jupiter", "loc:Mars", "loc:Institute"])   # Luna now empty
    do(g, "loc:Jupiter")
    assert g.banished == F(20)


# ---- house abilities --------------------------------------------------------------------------

def luna_game(house, content=CONTENT, **state):
    base = dict(stacks=(F(0), F(1), F(2, 3), []), deck=F(10, 11))
    base.update(state)
    g = new_game([house, "Diana"], content=content, **base)
    do(g, "lead", "loc:Luna")
    assert g.sovereign == 0
    return g


def test_apollo_places_the_flipped_card_RR_R29_R15():
    """Rules: RR-R29, RR-R15."""
    g = luna_game("Apollo")
    expect(g, 0, "place_location", ALL_LOC)
    assert g.limbo == F(10)
    do(g, "loc:Institute")
    assert g.stacks[INSTITUTE] == F(10) and g.cubes[0] == 0        # no location bonus
    g = luna_game("Apollo", deck=[])                                # RR-A16: nothing to place
    expect(g, 1, "action")


def test_ceres_banishes_a_location_top_RR_R31_A13():
    """Rules: RR-R31, RR-A13."""
    g = luna_game("Ceres")
    expect(g, 0, "target_location", ["loc:Jupiter", "loc:Mars", "loc:Luna"])
    do(g, "loc:Luna")
    assert g.banished == F(2)
    wide = tuple(dataclasses.replace(h, on_sovereign=(Op("banish_location", where="any", position="any"),))
                 if h.name == "Ceres" else h for h in HOUSES)      # what the loader does for ceres_banish=any
    g = luna_game("Ceres", content=script_content(houses=wide), stacks=(F(0, 4), F(1), F(2, 3), []))
    expect(g, 0, "target_card", cards_of(F(0, 4, 1, 2)))
    do(g, "card:F0")
    assert g.stacks[JUPITER] == F(4)


@pytest.mark.parametrize("house,attr", [("Diana", "cubes"), ("Jupiter", "fleet"), ("Mars", "helium")])
def test_resource_houses_RR_R33_R34_R35(house, attr):
    """Rules: RR-R33, RR-R34, RR-R35."""
    g = luna_game(house)
    assert getattr(g, attr)[0] == 1
    expect(g, 1, "action")


def test_receiving_the_sovereign_again_triggers_the_house_again_RR_R27():
    """Rules: RR-R27."""
    g = luna_game("Mars", sovereign=0, stacks=(F(0), F(1), F(2, 3, 4), []))
    assert g.helium[0] == 1
    do(g, "lead", "loc:Luna")                                       # Diana (P1) takes it
    assert g.sovereign == 1 and g.cubes[1] == 1
    do(g, "scout", "loc:Luna")                                      # RR-R28: any way of receiving
    assert g.sovereign == 0 and g.helium[0] == 2


# ---- ops ------------------------------------------------------------------------------------

def test_end_turn_skips_the_gain_step_RR_R48():
    """Rules: RR-R48."""
    g = new_game(["Mars", "Diana"], hands=[ids("ET"), []], stacks=STACKS4, deck=F(10))
    do(g, "lead", "card:ET", "loc:Mars")
    expect(g, 1, "action")


@pytest.mark.parametrize("take", [True, False])
def test_optional_take_then_end_turn_if_done_RR_R6_R48_R60(take):
    """Rules: RR-R6, RR-R48, RR-R60."""
    g = new_game(["Mars", "Diana"], hands=[ids("ETP"), []], stacks=STACKS4, deck=F(10))
    do(g, "lead", "card:ETP", "loc:Mars")
    expect(g, 0, "optional", ["yes", "no"])
    if take:
        do(g, "yes")
        expect(g, 0, "target_location", ["loc:Jupiter", "loc:Luna", "loc:Institute"])
        do(g, "loc:Luna")                                           # no location bonus (RR-R60)
        assert g.hands[0] == F(2) and g.sovereign is None
        expect(g, 1, "action")
    else:
        do(g, "no")
        expect(g, 0, "gain", ["loc:Jupiter", "loc:Luna", "loc:Institute", "deck"])


def test_recover_from_the_banished_pile_RR_R46_R45():
    """Rules: RR-R46, RR-R45."""
    g = new_game(["Mars", "Diana"], hands=[ids("REC"), []], stacks=STACKS4, deck=F(10), banished=F(8, 9))
    do(g, "lead", "card:REC", "loc:Mars")
    expect(g, 0, "target_card", cards_of(F(8, 9)))
    do(g, "card:F9")
    assert g.hands[0] == F(9) and g.banished == F(8)
    g = new_game(["Mars", "Diana"], hands=[ids("RECL"), []], stacks=STACKS4, deck=F(10),
                 banished=F(8) + ids("BL"))
    do(g, "lead", "card:RECL", "loc:Mars")
    expect(g, 0, "target_card", ["card:BL"])                        # filter Gold
    do(g, "card:BL")
    expect(g, 0, "target_location", ["loc:Jupiter", "loc:Luna", "loc:Institute"])
    do(g, "loc:Luna")
    assert g.stacks[LUNA] == F(2) + ids("BL")


def test_reveal_own_unlocks_then_RR_R47_A20():
    """Rules: RR-R47, RR-A20."""
    g = new_game(["Mars", "Diana"], hands=[ids("RO", "BL", "SG"), []], stacks=STACKS4, deck=F(10))
    do(g, "lead", "card:RO", "loc:Mars")
    expect(g, 0, "target_card", ["card:BL"])                        # only Gold cards
    do(g, "card:BL")
    assert g.helium[0] == 1 and sorted(g.hands[0]) == sorted(ids("BL", "SG"))
    g = new_game(["Mars", "Diana"], hands=[ids("RO", "SG"), []], stacks=STACKS4, deck=F(10))
    do(g, "lead", "card:RO", "loc:Mars")                            # nothing to reveal: skipped
    expect(g, 0, "gain")


def test_move_bottom_card_to_the_bottom_of_this_RR_R49_R50():
    """Rules: RR-R49, RR-R50."""
    g = new_game(["Mars", "Diana"], hands=[ids("MB"), []], stacks=(F(0, 4), F(1), F(2, 5), []), deck=F(10))
    do(g, "lead", "card:MB", "loc:Mars")
    expect(g, 0, "target_location", ["loc:Jupiter", "loc:Luna"])   # non-empty "other" stacks
    do(g, "loc:Luna")
    expect(g, 0, "target_location", ["loc:Mars"])
    do(g, "loc:Mars")
    assert g.stacks[MARS] == F(2, 1) + ids("MB") and g.stacks[LUNA] == F(5)


def test_banish_deck_top_and_place_from_deck_RR_R44_R67_A16():
    """Rules: RR-R44, RR-R67, RR-A16."""
    g = new_game(["Mars", "Diana"], hands=[ids("BDT"), []], stacks=STACKS4, deck=F(10, 11, 12))
    do(g, "lead", "card:BDT", "loc:Mars")
    assert g.banished == F(10, 11) and g.deck == F(12)
    g = new_game(["Mars", "Diana"], hands=[ids("PFD"), []], stacks=STACKS4, deck=F(10))
    do(g, "lead", "card:PFD", "loc:Mars")
    expect(g, 0, "place_location", ["loc:Jupiter", "loc:Luna", "loc:Institute"])
    do(g, "loc:Jupiter")                                            # deck empty: second skipped
    assert g.stacks[JUPITER] == F(0, 10)
    expect(g, 0, "gain", ["loc:Jupiter", "loc:Luna", "loc:Institute"])


# ---- ops: trade limits, opponents, blocks -----------------------------------------------------

@pytest.mark.parametrize("limit,cubes,helium", [("per_ability", 1, 1), ("per_turn_total", 0, 2)])
def test_trade_limit_switch_RR_R65_A21(limit, cubes, helium):
    """Rules: RR-R65, RR-A21."""
    cfg = Config(players=2, trade_limit=limit)
    g = new_game(["Mars", "Diana"], config=cfg, hands=[ids("TA", "TB"), []], stacks=STACKS4,
                 deck=F(10), helium=[3, 0])
    do(g, "lead", "card:TA", "loc:Jupiter")
    assert (g.helium[0], g.fleet[0]) == (2, 1)
    do(g, "card:TB", "loc:Mars")
    assert (g.helium[0], g.cubes[0]) == (helium, cubes)


def test_one_card_trades_once_per_turn_RR_R65_A20():
    """Rules: RR-R65, RR-A20, RR-R64 (a card whose ability cannot resolve is still deployed)."""
    g = new_game(["Mars", "Diana"], hands=[ids("TT"), []], stacks=STACKS4, deck=F(10), helium=[3, 0])
    do(g, "lead", "card:TT", "loc:Jupiter")
    assert (g.helium[0], g.fleet[0]) == (2, 1)
    expect(g, 0, "gain")
    g = new_game(["Mars", "Diana"], hands=[ids("T"), []], stacks=STACKS4, deck=F(10), helium=[1, 0])
    do(g, "lead", "card:T", "loc:Jupiter")                         # cannot pay 2: skipped (RR-A20)
    assert (g.helium[0], g.fleet[0]) == (1, 0)


def three_players(**state):
    return new_game(["Mars", "Diana", "Jupiter"], stacks=STACKS4, deck=F(10, 11), **state)


def test_steal_blocked_or_not_RR_R42_R47_A28_D15_D22():
    """Rules: RR-R42, RR-R47, RR-A28 (D15, D22); prev_done after a blocked op (C1)."""
    g = three_players(hands=[ids("S") + F(5), ids("BL") + F(6), F(7)])
    do(g, "lead", "card:S", "loc:Jupiter")
    expect(g, 0, "target_opponent", ["opp:+1", "opp:+2"])
    do(g, "opp:+1")
    expect(g, 1, "block", ["no", "card:BL"])
    do(g, "card:BL")
    assert sorted(g.hands[1]) == sorted(ids("BL") + F(6)) and g.helium[0] == 0   # op not done
    expect(g, 0, "gain")
    g = three_players(hands=[ids("S") + F(5), ids("BL") + F(6), F(7)])
    do(g, "lead", "card:S", "loc:Jupiter", "opp:+1", "no")
    cands = sorted(ids("BL") + F(6))
    stolen = cands[int(rng.integers(rng.stream_keys(5, [0], "pick"), 0, 2)[0])]
    assert stolen in g.hands[0] and stolen not in g.hands[1] and g.helium[0] == 1
    assert g.pick_counter == 1


def test_owner_chooses_each_opponent_in_turn_order_RR_R42_D16():
    """Rules: RR-R42, RR-R47 (D16: the owner chooses)."""
    g = three_players(hands=[ids("OC"), F(5, 6), F(7)])
    do(g, "lead", "card:OC", "loc:Jupiter")
    expect(g, 1, "target_card", cards_of(F(5, 6)))
    do(g, "card:F6")
    expect(g, 2, "target_card", cards_of(F(7)))
    do(g, "card:F7")
    assert sorted(g.hands[0]) == sorted(F(6, 7)) and g.hands[1] == F(5)


def test_gain_free_is_accepted_or_declined_RR_R6_D17():
    """Rules: RR-R6 (D17: each opponent may accept)."""
    g = three_players(hands=[ids("GF"), [], []])
    do(g, "lead", "card:GF", "loc:Jupiter")
    expect(g, 1, "accept", ["yes", "no"])
    do(g, "yes")
    expect(g, 2, "accept", ["yes", "no"])
    do(g, "no")
    assert g.helium == [0, 2, 0]


def test_lose_neighbours_RR_A34():
    """Rules: RR-A34."""
    g = three_players(hands=[ids("LOSE"), [], []], cubes=[0, 2, 1])
    do(g, "lead", "card:LOSE", "loc:Jupiter")
    assert g.cubes == [0, 1, 0]
    g = new_game(["Mars", "Diana"], hands=[ids("LOSE"), []], stacks=STACKS4, cubes=[0, 2])
    do(g, "lead", "card:LOSE", "loc:Jupiter")
    assert g.cubes == [0, 1]                                        # one neighbour in 2 seats


# ---- solo: the player's abilities against Au Toma ---------------------------------------------

SOLO_LETTERS = dict(letter_of=["C", "A", "B", "D"], loc_of_letter={"C": 0, "A": 1, "B": 2, "D": 3},
                    luna_bonus_loc=JUPITER, parity_even=True)


def solo_game(config=None, content=CONTENT, **state):
    base = dict(stacks=STACKS4, deck=F(10, 11, 12, 13, 14, 15), **SOLO_LETTERS)
    base.update(state)
    return new_game(["Mars", None], config=config or Config(players=1), content=content, **base)


def test_steal_from_au_toma_takes_her_bottom_card_RR_V33_V36():
    """Rules: RR-V33, RR-V36, RR-A27 (she never blocks)."""
    g = solo_game(hands=[ids("S"), F(20, 21, 22)])
    do(g, "lead", "card:S", "loc:Jupiter")
    expect(g, 0, "target_opponent", ["opp:+1"])                     # no block decision for her
    do(g, "opp:+1")
    assert g.hands == [F(20), F(21, 22)] and g.pick_counter == 0 and g.helium[0] == 1
    g = solo_game(hands=[ids("SG"), F(20) + ids("BL")])            # her bottom card is not Gold
    do(g, "lead", "card:SG", "loc:Jupiter")
    expect(g, 0, "gain")


def test_reveals_return_to_the_top_of_her_hand_RR_V34():
    """Rules: RR-V34."""
    g = solo_game(hands=[ids("RC"), F(20, 21, 22)])
    do(g, "lead", "card:RC", "loc:Jupiter", "opp:+1")
    assert g.hands[1] == F(21, 22, 20)
    g = solo_game(hands=[ids("RR"), F(20) + ids("BL") + F(22)])
    do(g, "lead", "card:RR", "loc:Jupiter", "opp:+1")
    cands = sorted(F(20) + ids("BL") + F(22))
    shown = cands[int(rng.integers(rng.stream_keys(5, [0], "pick"), 0, 3)[0])]
    assert g.hands[1][-1] == shown and sorted(g.hands[1]) == cands
    assert g.helium[0] == (1 if shown == IDX["BL"] else 0)         # seen_has Gold


# ---- the die as data (content.die_faces) ---------------------------------------------------------

TWO_SOVEREIGN = ("sovereign", "helium", "sovereign", "fleet", "banish", "fleet")


def with_die(faces):
    return dataclasses.replace(CONTENT, die_faces=faces)


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_custom_die_all_helium_RR_R22_R23(face):
    """RR-R22 as data: with six helium faces every deck gain gives one helium, whatever the face."""
    g = die_game(face, content=with_die(("helium",) * 6))
    assert (g.helium[0], g.fleet[0], g.cubes[0], g.sovereign) == (1, 0, 0, None)
    assert g.stacks == [F(0), F(1), F(2), F(3)] and g.banished == []
    expect(g, 1, "action")


def test_custom_die_faces_give_their_bonus_RR_R22_R25():
    """RR-R22, RR-R25: the face's bonus counts, not its number (face 1 Sovereign -> House Mars)."""
    g = die_game(1, content=with_die(TWO_SOVEREIGN))
    assert g.sovereign == 0 and g.helium[0] == 1
    g = die_game(5, content=with_die(TWO_SOVEREIGN))
    expect(g, 0, "target_location", ALL_LOC)
    g = die_game(6, content=with_die(TWO_SOVEREIGN))
    assert (g.fleet[0], g.cubes[0]) == (1, 0)


def test_minerva_rechoice_offers_the_non_sovereign_faces_RR_R36_A35():
    """RR-R36, RR-A35 with a custom die: re-choice on every face whose bonus is the Sovereign, among
    exactly the faces whose bonus is not; with no such face she gains nothing."""
    g = new_game(["Minerva", "Mars"], content=with_die(TWO_SOVEREIGN), hands=[F(20), []], stacks=STACKS4,
                 deck=F(10, 11), forced_rolls=[3])
    do(g, "lead", "card:F20", "loc:Jupiter", "loc:Luna")
    expect(g, 0, "die_face", ["face:2", "face:4", "face:5", "face:6"])
    do(g, "face:5")
    expect(g, 0, "target_location", ["loc:Jupiter", "loc:Mars", "loc:Institute"])
    die = ("banish", "place", "helium", "influence", "fleet", "sovereign")
    g = new_game(["Minerva", "Mars"], content=with_die(die), hands=[F(20), []], stacks=STACKS4,
                 deck=F(10, 11), forced_rolls=[3])
    do(g, "lead", "card:F20", "loc:Jupiter", "loc:Luna")
    assert g.helium[0] == 1 and g.sovereign == 0                    # printed face 3 is helium here
    expect(g, 1, "action")
    g = new_game(["Minerva", "Mars"], content=with_die(("sovereign",) * 6), hands=[F(20), []],
                 stacks=STACKS4, deck=F(10, 11))
    do(g, "lead", "card:F20", "loc:Jupiter", "loc:Luna")
    assert g.sovereign == 0 and g.die_counter == 1
    assert (g.helium[0], g.fleet[0], g.cubes[0]) == (0, 0, 0)
    expect(g, 1, "action")


def test_au_toma_free_die_by_face_bonus_RR_V46_A36():
    """RR-V46, RR-A36 with a custom die: she re-rolls until a face whose bonus she can gain, and
    does not roll when no face of the die has one."""
    die = ("helium",) * 5 + ("banish",)
    g = solo_game(content=with_die(die), hands=[ids("GFD"), F(20)], helium=[0, 10], stacks=([], F(1, 2), F(3), []),
                  forced_rolls=[1, 4, 6])
    do(g, "lead", "card:GFD", "loc:Institute", "opp:+1")
    assert g.die_counter == 3 and g.banished == F(2)               # A = Mars
    g = solo_game(content=with_die(("helium",) * 6), hands=[ids("GFD"), F(20)], helium=[0, 10])
    do(g, "lead", "card:GFD", "loc:Institute", "opp:+1")
    assert g.die_counter == 0 and g.helium == [0, 10]


def test_au_toma_accepts_free_gains_within_her_caps_RR_V35_A25():
    """Rules: RR-V35, RR-A25."""
    g = solo_game(hands=[ids("GF"), F(20)], helium=[0, 9])
    do(g, "lead", "card:GF", "loc:Jupiter")
    assert g.helium == [0, 10]
    expect(g, 0, "gain")


def test_au_toma_free_die_rerolls_until_usable_RR_V46_A36():
    """Rules: RR-V46, RR-A36."""
    g = solo_game(hands=[ids("GFD"), F(20)], helium=[0, 10], fleet=[0, 10], cubes=[0, 10], sovereign=1,
                  deck=[], stacks=([], F(1, 2), F(3), []), forced_rolls=[4, 5, 3, 6, 2, 1])
    do(g, "lead", "card:GFD", "loc:Institute", "opp:+1")
    assert g.die_counter == 6 and g.banished == F(2)               # A = Mars: first non-empty by letter
    g = solo_game(hands=[ids("GFD"), F(20)], helium=[0, 10], fleet=[0, 10], cubes=[0, 10], sovereign=1,
                  forced_rolls=[2])
    do(g, "lead", "card:GFD", "loc:Institute", "opp:+1")
    assert g.stacks[MARS] == F(1, 10)                               # face 2: the A location


def test_eo_looks_at_her_top_six_in_order_RR_V47_A27():
    """Rules: RR-V47, RR-A27."""
    hand = F(0) + F(21, 22, 23, 24, 25, 26)                         # F0 is Red, at the bottom
    g = solo_game(hands=[ids("EO"), hand], stacks=(F(1), F(2), F(3), F(4)))
    do(g, "lead", "card:EO", "loc:Jupiter", "opp:+1")
    assert g.cubes[0] == 0 and g.hands[1] == hand
    hand = F(21, 22, 23, 24, 25) + F(0)                             # Red on top
    g = solo_game(hands=[ids("EO"), hand], stacks=(F(1), F(2), F(3), F(4)))
    do(g, "lead", "card:EO", "loc:Jupiter", "opp:+1")
    assert g.cubes[0] == 1 and g.hands[1] == hand


def test_roque_reshuffles_her_top_six_RR_V49():
    """Rules: RR-V49."""
    hand = F(20, 21, 22, 23, 24, 25, 26, 27)
    g = solo_game(hands=[ids("ROQ"), hand])
    do(g, "lead", "card:ROQ", "loc:Jupiter", "opp:+1")
    keys = rng.stream_keys(5, [0], "pick")
    rest, drawn = sorted(hand[2:]), []
    for i in range(6):
        drawn.append(rest.pop(int(rng.integers(keys, i, len(rest))[0])))
    assert g.hands[1] == hand[:2] + drawn[::-1] and g.pick_counter == 6


# ---- solo: Au Toma's turn ---------------------------------------------------------------------

def automa_content(*rows):
    """Au Toma deck whose first cards are the given rows (then the RR-A8 cards)."""
    cards = tuple(AutomaCard(f"X{i}", *r.split(",")) for i, r in enumerate(rows))
    return script_content(automa=cards + AUTOMA[len(cards):])


def automa_turn(rows, threshold=11, **state):
    """The player scouts F10 to Jupiter, then Au Toma resolves the first two Au Toma cards."""
    content = automa_content(*rows)
    base = dict(stacks=(F(0), F(1), F(2, 3), []), deck=F(10, 11, 12, 13), automa_deck=[0, 1, 2, 3],
                hands=[[], F(20)])
    base.update(state)
    g = solo_game(config=Config(players=1, threshold=threshold), content=content, **base)
    do(g, "scout", "loc:Jupiter")
    if not g.done():
        expect(g, 0, "action")
    return g


def test_au_toma_finishes_her_turn_after_triggering_the_end_RR_V12_V23_V24():
    """Rules: RR-V12, RR-V23, RR-V24."""
    g = automa_turn(["J,M,star,cw", "J,J,none,cw"], threshold=7, helium=[0, 6], cubes=[0, 7])
    assert g.done() and g.result()["end_reason"] == "two_thresholds"
    assert g.hands[1] == F(20, 1, 12) and g.helium[1] == 7


def test_example_6_au_toma_resolves_one_card_RR_V5_V17_V18_V19_V22_V25_V26_V27_V28_V29_V31():
    """Rules: RR-V5, RR-V15, RR-V16, RR-V17, RR-V18, RR-V19, RR-V20, RR-V21, RR-V22, RR-V25, RR-V26,
    RR-V27, RR-V28, RR-V29, RR-V31 (example 6)."""
    g = automa_turn(["A,D,star,ccw", "J,J,none,cw"], helium=[0, 5], fleet=[0, 10], cubes=[0, 4], sovereign=0)
    assert g.stacks[MARS] == F(1, 11)                               # deploy A = Mars
    assert g.stacks[LUNA] == F(2)                                   # Institute empty -> ccw -> Luna
    assert g.sovereign == 1 and (g.helium[1], g.fleet[1], g.cubes[1]) == (5, 10, 5)
    assert g.helium[0] == 0 and g.fleet[0] == 1                     # no house ability for her
    assert g.hands[1] == F(20) + F(3) + F(12)                       # second card: deploy J, take it back
    assert g.stacks[JUPITER] == F(0, 10) and g.automa_discard == [0, 1]


def test_au_toma_maxed_bonus_search_reaches_luna_RR_V28_A24():
    """Rules: RR-V28, RR-A24."""
    g = automa_turn(["J,M,star,cw", "J,J,none,cw"], helium=[0, 10], cubes=[0, 3],
                    luna_bonus_loc=INSTITUTE)
    assert g.sovereign == 1 and g.cubes[1] == 4 and g.helium[1] == 10


def test_au_toma_luna_card_bonus_search_skips_luna_RR_V30_A24():
    """Rules: RR-V30, RR-A24."""
    g = automa_turn(["J,L,star,cw", "J,J,none,cw"], fleet=[0, 10])   # Luna card: Jupiter (maxed)
    assert g.sovereign == 1 and g.helium[1] == 1                    # cw from Jupiter: Mars
    g = automa_turn(["J,L,star,cw", "J,J,none,cw"], helium=[0, 10], fleet=[0, 10], cubes=[0, 10])
    assert g.sovereign == 1                                         # nothing left: only the token


def test_au_toma_cross_and_empty_gain_RR_V19_V27_A16_A30():
    """Rules: RR-V19, RR-V27, RR-A16, RR-A30."""
    g = automa_turn(["J,M,cross,cw", "J,J,none,cw"])
    assert g.banished == F(12) and g.hands[1] == F(20, 1, 13)
    g = automa_turn(["J,I,star,cw", "J,J,none,cw"], stacks=([], [], [], []), deck=F(10))
    assert g.hands[1] == F(20, 10) and g.sovereign is None         # deck empty: no deploy; star from Jupiter
    assert g.fleet[1] == 1


def test_au_toma_rebuilds_her_deck_RR_V13_V14_A26():
    """Rules: RR-V13, RR-V14, RR-A26."""
    g = automa_turn(["J,J,none,cw", "J,J,none,cw"], automa_deck=[0])
    order = rng.permutations(rng.stream_keys(5, [0], "automa"), 22, counter=1)[0]
    assert g.automa_shuffles == 1
    assert g.automa_deck == [int(i) for i in order[5:]] and g.automa_aside == [int(i) for i in order[:4]]


# ---- end of the game --------------------------------------------------------------------------

def end_game(houses, **state):
    base = dict(stacks=STACKS4, deck=F(10, 11, 12, 13, 14, 15))
    base.update(state)
    return new_game(houses, **base)


def test_example_5_trigger_timing_and_apollo_RR_E1_E2_E3_E4_E5():
    """Rules: RR-E1, RR-E2, RR-E3, RR-E4, RR-E5, RR-R30, RR-S16, RR-S18 (example 5)."""
    g = end_game(["Apollo", "Mars", "Diana"], helium=[7, 0, 0], fleet=[0, 6, 0], cubes=[0, 0, 6])
    do(g, "scout", "loc:Mars")
    do(g, "scout", "loc:Jupiter")                                   # H (A) and F (B): no trigger
    assert not g.triggered and g.fleet[1] == 7
    do(g, "scout", "loc:Institute")                                 # I (C): all three
    assert g.end_reason == "all_thresholds"
    expect(g, 0, "action")                                          # Apollo's extra turn
    do(g, "scout", "loc:Mars")
    assert g.done()
    r = g.result()
    assert (r["turns"], r["rounds"], r["end_reason"]) == (4, 2, "all_thresholds")


def test_trigger_on_the_start_players_turn_completes_the_round_RR_E2_E4_E5():
    """Rules: RR-E2, RR-E4, RR-E5."""
    g = end_game(["Apollo", "Mars", "Diana"], helium=[6, 0, 0], cubes=[7, 0, 0])
    do(g, "scout", "loc:Mars")
    assert g.end_reason == "two_thresholds"
    expect(g, 1, "action")
    do(g, "scout", "loc:Mars", "scout", "loc:Mars")
    expect(g, 0, "action")
    do(g, "scout", "loc:Mars")
    assert g.done() and g.result()["turns"] == 4


def test_without_apollo_the_game_ends_with_the_round_RR_E4():
    """Rules: RR-E4."""
    g = end_game(["Mars", "Diana", "Jupiter"], helium=[7, 0, 0], fleet=[0, 6, 0], cubes=[0, 0, 6])
    do(g, "scout", "loc:Mars", "scout", "loc:Jupiter", "scout", "loc:Institute")
    assert g.done() and g.result()["turns"] == 3 and g.result()["end_reason"] == "all_thresholds"


@pytest.mark.parametrize("mode,triggered", [("current", False), ("ever_reached", True)])
def test_threshold_mode_RR_A15(mode, triggered):
    """Rules: RR-A15. P0 reaches 7 helium, later trades 2 of them for its 7th fleet space."""
    cfg = Config(players=2, threshold_mode=mode)
    g = end_game(["Mars", "Diana"], config=cfg, hands=[ids("T"), []], helium=[6, 0], fleet=[6, 0])
    do(g, "scout", "loc:Mars", "scout", "loc:Luna")
    assert not g.triggered
    do(g, "lead", "card:T", "loc:Jupiter")
    assert (g.helium[0], g.fleet[0]) == (5, 7) and g.triggered == triggered


def test_end_abilities_in_chosen_order_then_ceres_banish_RR_E7_E8_A14():
    """Rules: RR-E7, RR-E8, RR-R32, RR-R43, RR-A14."""
    g = end_game(["Mars", "Ceres"], hands=[ids("E1", "E2") + F(5), F(6, 7)], helium=[6, 0], cubes=[7, 0])
    do(g, "scout", "loc:Mars", "scout", "loc:Jupiter")
    expect(g, 0, "end_order", ["card:E1", "card:E2"])
    do(g, "card:E2")
    expect(g, 0, "target_card", cards_of(ids("E1", "E2") + F(5)))
    do(g, "card:E1")                                                # E1 leaves the hand unresolved
    expect(g, 1, "end_banish", cards_of(F(6, 7)))
    do(g, "card:F6")
    assert g.done() and g.helium[0] == 7 and sorted(g.banished) == sorted(ids("E1") + F(6))


def test_ceres_end_banish_with_own_end_abilities_RR_E8_A14():
    """Rules: RR-E8, RR-A14."""
    cfg = Config(players=2, ceres_end_banish="with_own_end_abilities")
    g = end_game(["Mars", "Ceres"], config=cfg, hands=[[], ids("E1") + F(6)], helium=[6, 0], cubes=[7, 0])
    do(g, "scout", "loc:Mars", "scout", "loc:Jupiter")
    expect(g, 1, "end_order", ["card:E1", "yes"])
    do(g, "yes")
    expect(g, 1, "end_banish", cards_of(ids("E1") + F(6)))
    do(g, "card:F6")
    expect(g, 1, "end_order", ["card:E1"])
    do(g, "card:E1")
    assert g.done() and g.helium[1] == 1 and g.banished == F(6)


def test_stalemate_ends_the_game_like_a_trigger_RR_A18():
    """Rules: RR-A18."""
    g = end_game(["Mars", "Diana"], stacks=([], [], [], []), deck=[])
    for _ in range(4):
        expect(g, g.decider(), "action", ["lead"])
        do(g, "lead")
    r = g.result()
    assert g.done() and (r["end_reason"], r["turns"], r["rounds"]) == ("stalemate", 4, 2)
    g = end_game(["Apollo", "Diana"], stacks=([], [], [], []), deck=[])
    for _ in range(5):
        do(g, "lead")
    assert g.done() and (g.result()["turns"], g.result()["rounds"]) == (5, 3)


def test_round_limit_guard():
    """The max_rounds guard ends the game like a trigger (C9), Apollo's extra turn included."""
    cfg = Config(players=3, max_rounds=2)
    for game in range(10):
        g = OracleGame(cfg, CONTENT, seed=8, game=game)
        play_randomly(g, random.Random(game))
        r = g.result()
        apollo = "Apollo" in r["house"]
        assert r["end_reason"] == "round_limit" and r["rounds"] == 2 + apollo and r["turns"] == 6 + apollo


# ---- scoring: worked examples 1-4 of the spec -------------------------------------------------

def scoring_game(hands_spec, config, extra_cards=(), houses=None, **state):
    """Build cards for the hands ((colour, core, kwargs) per card) and return the game."""
    cards, hands = [], []
    for spec in hands_spec:
        hand = []
        for colour, core, kw in spec:
            i = len(cards)
            cards.append(Card(i, f"H{i}", kw.pop("name", f"{colour} {core}"), colour, core, **kw))
            hand.append(i)
        hands.append(hand)
    for colour, core, kw in extra_cards:
        i = len(cards)
        cards.append(Card(i, f"X{i}", kw.pop("name", f"{colour} x{i}"), colour, core, **kw))
    content = make_content(cards, fleet=FLEET_EXAMPLES)
    houses = houses or ["Mars", "Diana", "Jupiter", "Minerva"][:len(hands)]
    extra_ids = list(range(len(cards) - len(extra_cards), len(cards)))
    return new_game(houses, config=config, content=content, hands=hands, **state), extra_ids


def plain(*cores_by_colour):
    return [(colour, core, {}) for colour, core in cores_by_colour]


EXAMPLE_1 = [plain(("Gold", 5), ("Red", 8), ("Blue", 10), ("Pink", 3), ("Brown", 0)),
             plain(("Violet", 7), ("Green", 7), ("White", 9), ("Yellow", 2)),
             plain(("Copper", 6), ("Obsidian", 4), ("Silver", 12)),
             plain(("Gold", 15), ("Red", 1), ("Blue", 11), ("Pink", 0), ("Brown", 9))]


@pytest.mark.parametrize("mode,c_total", [("dense", 70), ("competition", 66)])
def test_example_1_influence_ties_and_shared_victory_RR_E9_E13_E14_E17_E19_A11(mode, c_total):
    """Rules: RR-E9, RR-E13, RR-E14, RR-E17, RR-E19, RR-A11."""
    g, _ = scoring_game([list(h) for h in EXAMPLE_1], Config(players=4, influence_tie_mode=mode),
                        helium=[3, 7, 2, 0], fleet=[5, 2, 7, 0], cubes=[7, 7, 4, 2], sovereign=2)
    r = g.score()
    assert r["score"] == [77, 77, c_total, 38]
    assert r["score_cards"] == [26, 25, 22, 36] and r["score_fleet"] == [14, 3, 24, 0]
    assert r["score_influence"] == [28, 28, 8 if mode == "dense" else 4, 2]
    assert r["rank"] == [1, 1, 3, 4] and r["win_share"] == [0.5, 0.5, 0.0, 0.0]


def example_2(p2_cubes, p1_cubes=7, mode="dense"):
    p1 = [("Gold", 11, dict(end_bonus=(EndBonus("for_each", 3, Filter(colour=("Red",))),)))]
    p1 += plain(("Red", 4), ("Red", 6), ("Blue", 9), ("Green", 2), ("Pink", 7))
    p2 = [("Obsidian", 12, dict(end_bonus=(EndBonus("if_with_no", 10, Filter(colour=("Gold",))),)))]
    p2 += plain(("Brown", 5), ("Violet", 8), ("Yellow", 3))
    g, _ = scoring_game([p1, p2], Config(players=2, influence_tie_mode=mode), helium=[7, 2], fleet=[4, 7],
                        cubes=[p1_cubes, p2_cubes], sovereign=1)
    return g.score()


def test_example_2_two_players_and_the_neutral_house_RR_S14_E13_E15():
    """Rules: RR-S14, RR-E13, RR-E15."""
    r = example_2(2)
    assert r["score"] == [104, 80] and r["score_cards"] == [45, 38] and r["win_share"] == [1.0, 0.0]
    assert example_2(3)["score"][1] == 84 and example_2(3, mode="competition")["score"][1] == 84
    assert example_2(1, p1_cubes=3)["score_influence"] == [12, 2]
    assert example_2(1, p1_cubes=3, mode="competition")["score_influence"] == [12, 1]


def test_example_3_end_bonus_kinds_wildcards_and_penalty_RR_R41_R51_R54_R55_R56_R57_R58_R59_E16_A19():
    """Rules: RR-R41, RR-R51, RR-R54, RR-R55, RR-R56, RR-R57, RR-R58, RR-R59, RR-E16, RR-A19."""
    x = [("Gold", 10, dict(end_bonus=(EndBonus("for_each", 4, Filter(colour=("Obsidian",))),))),
         ("Obsidian", 8, {}), ("Obsidian", 7, {}),
         ("Grey", 2, dict(colour_wildcard=True)),
         ("Red", 3, dict(end_bonus=(EndBonus("if_with", 10, Filter(colour=("Gold",))),))),
         ("Orange", 1, dict(name_wildcard=True)),
         ("Violet", 6, dict(end_bonus=(EndBonus("if_with", 8, Filter(name=("Warden",))),))),
         ("Blue", 4, dict(end_bonus=(EndBonus("for_each_on_locations", 2, Filter(colour=("Blue",))),))),
         ("Yellow", 0, dict(end_bonus=(EndBonus("for_each_banished", 3, Filter(colour=("Gold",))),)))]
    extra = [("Blue", 1, {}), ("Blue", 2, {}), ("Blue", 3, {}), ("White", 5, dict(name="Warden")),
             ("Gold", 1, {}), ("Gold", 2, {})]
    g, e = scoring_game([x, [], []], Config(players=3), extra_cards=extra,
                        helium=[4, 0, 0], fleet=[6, 0, 0], cubes=[5, 8, 2])
    g.stacks = [[e[0], e[3]], [e[1]], [e[2]], []]
    g.banished = [e[4], e[5]]
    r = g.score()
    assert r["score_cards"][0] == 83 and r["score_hand_penalty"][0] == -20
    assert r["score_influence"][0] == 10 and r["score"][0] == 104


def test_example_4_au_toma_scoring_RR_V37_V38_V39_V40_V41_V42_A23():
    """Rules: RR-V37, RR-V38, RR-V39, RR-V40, RR-V41, RR-V42, RR-A23."""
    cores = [0, 0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 14, 1, 3, 3, 5, 5, 7, 9, 11, 13]
    player = [("Gold", 12, dict(end_bonus=(EndBonus("for_each", 6, Filter(colour=("Gold",))),))),
              ("Gold", 10, {}), ("Gold", 9, {}), ("Gold", 8, {}),
              ("Silver", 6, dict(end_bonus=(EndBonus("if_with", 12, Filter(colour=("Gold",))),))),
              ("Copper", 5, dict(end_bonus=(EndBonus("if_with_no", 15, Filter(colour=("Red",))),))),
              ("Pink", 0, {})]
    for even, cards in ((True, 105), (False, 87)):
        g, _ = scoring_game([player, plain(*[("Red", c) for c in cores])], Config(players=1),
                            houses=["Mars", None], helium=[2, 10], fleet=[3, 8], cubes=[8, 6], sovereign=0,
                            parity_even=even)
        r = g.score()
        assert r["score_cards"][1] == cards and r["score_automa_base"][1] == 70
        assert r["score_influence"] == [32, 12] and r["score_hand_penalty"][1] == 0
        if even:
            assert r["score"] == [149, 247] and r["win_share"] == [0.0, 1.0]


def test_psychologist_against_au_toma_uses_a_third_of_her_hand_RR_V48():
    """Rules: RR-V48."""
    psy = [("Yellow", 0, dict(end_bonus=(EndBonus("hand_compare", 10, compare="more_than_each_opponent"),)))]
    for her, points in ((3, 10), (5, 10), (6, 0), (9, 0)):
        g, _ = scoring_game([psy + plain(("Red", 1)), plain(*[("Red", 2)] * her)], Config(players=1),
                            houses=["Mars", None], parity_even=True)
        assert g.score()["score_cards"][0] == 1 + points            # 2 cards > her hand // 3


def test_sovereign_breaks_ties_RR_E17_E18():
    """Rules: RR-E17, RR-E18."""
    g, _ = scoring_game([plain(("Red", 10)), plain(("Red", 0))], Config(players=2), sovereign=1,
                        neutral=0)
    r = g.score()
    assert r["score"] == [10, 10] and r["rank"] == [2, 1] and r["win_share"] == [0.0, 1.0]


# ---- random games: invariants -----------------------------------------------------------------

def play_randomly(g, rnd, check=None):
    while not g.done():
        if check:
            check(g)
        g.step(rnd.choice(g.legal_list()))


def check_invariants(g):
    """Every card in exactly one place; resources in range; a legal decision for a player."""
    places = g.card_places()
    assert sorted(places) == sorted(g.in_use) and set(places.values()) == {1}
    assert len(g.limbo) <= 1
    for p in range(g.n):
        assert g.helium[p] >= 0 and 0 <= g.cubes[p] <= 10 and 0 <= g.fleet[p] <= len(g.content.fleet_points) - 1
        if g.is_automa[p]:
            assert g.helium[p] <= g.content.automa_max
    assert not g.is_automa[g.decider()] and g.legal().any() and g.legal().sum() == len(g.legal_list())


RANDOM_CONFIGS = [Config(players=p) for p in range(1, 7)] + [
    Config(players=3, influence_tie_mode="competition", threshold_mode="ever_reached", trade_limit="per_turn_total"),
    Config(players=4, ceres_end_banish="with_own_end_abilities", chain_deploy_recursive=False, ceres_banish="any"),
    Config(players=1, solo_readd_removed=True, automa_level=6),
    Config(players=1, solo_exclude_ceres=True, automa_level=1),
    Config(players=2, stalemate_rounds=1, max_rounds=25),
]


def default_content(config):
    """The shipped content (loader of another module); the hand-made deck if it is unavailable."""
    try:
        from sim.games.red_rising.content import load_content
        return load_content(config)
    except Exception:                                               # pragma: no cover
        return CONTENT


@pytest.mark.parametrize("config", RANDOM_CONFIGS, ids=lambda c: f"{c.players}p")
def test_random_games_invariants_RR_S2_R44_E6_E9_E17_E19(config):
    """Rules: RR-S2, RR-R44, RR-R69, RR-E6, RR-E9, RR-E17, RR-E19, RR-V2.

    Cards never created or lost, resources in range, score = sum of parts, shares sum to 1."""
    for content in (default_content(config), CONTENT):
        for game in range(12):
            g = OracleGame(config, content, seed=77, game=game)
            play_randomly(g, random.Random(game), check_invariants)
            r = g.result()
            parts = [k for k in r if k.startswith("score_")]
            for p in range(g.n):
                assert r["score"][p] == sum(r[k][p] for k in parts)
                assert r["score_hand_penalty"][p] <= 0
            assert abs(sum(r["win_share"]) - 1) < 1e-9 and min(r["rank"]) == 1
            assert r["end_reason"] in ("two_thresholds", "all_thresholds", "stalemate", "round_limit")
            assert r["turns"] >= r["rounds"] >= 1 and r["deck_empty"] == (not g.deck)
            places = g.card_places()
            assert sorted(places) == sorted(g.in_use) and set(places.values()) == {1} and not g.limbo
            assert r["is_automa"].count(True) == (config.players == 1)
            assert sorted(r["slot"]) == list(range(g.n))


def test_replay_is_deterministic_and_illegal_actions_raise():
    """Same seed and game index -> same game (random draws are data); illegal actions raise."""
    cfg = Config(players=4)
    runs = []
    for _ in range(2):
        g = OracleGame(cfg, CONTENT, seed=3, game=9)
        play_randomly(g, random.Random(1))
        runs.append((g.result(), g.log))
    assert runs[0] == runs[1]
    g = OracleGame(cfg, CONTENT, seed=3, game=9)
    illegal = next(a for a in range(g.num_actions) if not g.legal()[a])
    with pytest.raises(ValueError):
        g.step(illegal)
    play_randomly(g, random.Random(2))
    assert g.decider() == -1 and g.kind() == "none" and not g.legal().any()
    with pytest.raises(ValueError):
        g.step(0)
