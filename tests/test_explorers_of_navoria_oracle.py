"""The Explorers of Navoria test oracle against the rules: worked examples, hand-made positions
and invariants over random games.

The oracle (tests/oracle_explorers_of_navoria.py) is the reference the vectorised engine is
cross-checked against, so its rules are pinned here: the spec's worked examples X1..X7
(section 10), one hand-made position per rule that the examples do not reach, and conservation
invariants over a few hundred random games. Test names / docstrings name the rule ids checked.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sim.games.explorers_of_navoria.config import Config
from sim.games.explorers_of_navoria.content import load_content, parse_effect
from sim.games.explorers_of_navoria.content_types import COLOURS, PEOPLES, REGIONS, Atom, Dock
from tests.oracle_explorers_of_navoria import PARTS, EnOracle, order_complete

TRADERS, BUILDERS, SOLDIERS, ADVENTURERS, ARTISANS = range(5)
HUMANS, GOBLINS, BEASTS, SPRITES = range(4)
FOREST, DESERT, GLACIER = range(3)
W, M, F = 1, 2, 3                    # goods codes of the GOODS action (0 = nothing)

_CONTENT = {}


def content_for(config):
    key = repr(config)
    if key not in _CONTENT:
        _CONTENT[key] = load_content(config)
    return _CONTENT[key]


def fresh(players=4, seed=1, game=0, content=None, **kw) -> EnOracle:
    """A set-up game that has not started: tests set its fields and drive pieces of it."""
    config = Config(players=players, **kw)
    return EnOracle(config, content or content_for(config), seed, game, start=False)


def cid(o, name: str) -> int:
    return [c.id for c in o.cards].index(name)


def sid(o, name: str) -> int:
    return [s.id for s in o.ct.city].index(name)


def tile(o, name: str):
    return next(t for t in o.ct.favour_tiles + (o.ct.blank_tile,) if t.id == name)


def lay(o, p: int, *names):
    """Put cards straight into a tableau (no effect, no favour check)."""
    for name in names:
        o.tableau[p].append(cid(o, name))


def only_token(o, colour: int, cards):
    """Bag empty, one token of ``colour`` in the city centre, the colour's offer = ``cards``."""
    o.bag = [0] * 5
    o.centre = [0] * 5
    o.centre[colour] = 1
    o.offers[colour] = [cid(o, c) if c else None for c in cards]


def names(o, legal):
    return sorted(o.name(a) for a in legal)


def effect(text):
    return parse_effect(text)


def goods(text):
    """The atoms of an effect made only of single goods, e.g. ``goods("good:W+good:any")``."""
    return tuple(item[0] for item in parse_effect(text))


# ============================================================== worked examples (spec section 10)

def test_x1_income_traders_soldiers_adventurers_flags():
    """X1: EN-R39, EN-R58, EN-R62, EN-R63, EN-R77, EN-R82, EN-R83, EN-A4: 14 trader + 8 adventurer income."""
    o = fresh(players=3)
    o.score[0] = 40
    lay(o, 0, "BL01", "BL03", "BL10", "RE05", "YE08", "GR05", "PU04", "PU10")
    o.marker[0] = [5, 2, 6]
    o.income_phase()
    assert o.parts["score_trader_income"][0] == 14
    assert o.parts["score_adventurer_income"][0] == 8
    # alone off the start on every track: 1st place forest 4 + desert 5 + glacier 6
    assert o.parts["score_exploration"][0] == 15
    assert o.score[0] == 62 + 15
    assert o.score[1] == o.score[2] == 0


def test_x2_exploration_places_with_ties_four_and_three_players():
    """X2: EN-R40, EN-R41, EN-R42, EN-R43, EN-R44, EN-R45, EN-R46, EN-R47 (ties, lapsed places, start)."""
    o = fresh(players=4)
    o.marker = [[5, 4, 3], [5, 6, 0], [3, 6, 3], [0, 6, 7]]
    o.income_phase()
    assert o.parts["score_exploration"] == [7, 9, 9, 11]
    o = fresh(players=3)
    o.marker = [[5, 4, 3], [5, 6, 0], [3, 6, 3]]
    o.income_phase()
    assert o.parts["score_exploration"] == [10, 9, 11]


@pytest.mark.parametrize("posts, gain", [(2, 9), (1, 7)])
def test_x3_order_fulfilled_by_an_artisans_own_goods(posts, gain):
    """X3: EN-R16, EN-R17, EN-R85, EN-R88, EN-R91, EN-R92, EN-R93, EN-R94, EN-R95, EN-R96, EN-R97,
    EN-R100, EN-A8, EN-A12, EN-A13, EN-A14: GR03's W+F complete the forest order (+9 / +7)."""
    o = fresh(players=4)
    o.posts[0][FOREST] = posts
    o.docks[0] = [[1, 1, 0], [0, 0, 2], [0, 0, 0]]
    lay(o, 0, "GR01", "GR04", "GR07")
    o.marker[0][FOREST] = 4
    only_token(o, ARTISANS, ["GR03", None, None])
    asked, got = o.drive(o.recruit_turn(0), [o.goods_action(F, 0, W)])
    assert got is True
    # only the GOODS decision is asked (the single take is automatic); W never on the forest dock
    assert [k for _, k, _ in asked] == ["goods"]
    assert names(o, asked[0][2]) == ["goods:-FW", "goods:-WF", "goods:F-W", "goods:FW-"]
    assert o.score[0] == gain
    assert o.parts["score_cards"][0] == 1 and o.parts["score_orders"][0] == gain - 1
    assert o.marker[0][FOREST] == 5
    assert o.docks[0] == [[0, 0, 0], [0, 0, 2], [1, 0, 0]]
    assert o.fulfilled[0] == [1, 0, 0]
    assert o.tableau[0][-1] == cid(o, "GR03") and len(o.tableau[0]) == 4
    assert o.on_pile[ARTISANS] == 1 and o.centre_takes[0] == 1


def test_x4_treasure_with_extra_steps_and_again_then_return():
    """X4: EN-R78, EN-R103, EN-R104, EN-R105, EN-R106, EN-R34, EN-R49, EN-R82, EN-A25: 12 treasure points."""
    o = fresh(players=3)
    B = 1
    o.marker[B][DESERT] = 9
    o.posts[B][DESERT] = 2                       # farthest desert post on build space 2 = position 5
    only_token(o, ADVENTURERS, ["PU04", None, None])
    asked, _ = o.drive(o.recruit_turn(B))
    assert asked == []
    assert o.parts["score_treasure"][B] == 8 and o.marker[B][DESERT] == 10
    # collect: CR2 (2 W and a step of choice)
    o.on_pile[SOLDIERS] = 1
    asked, _ = o.drive(o.collect_turn(B), [o.A_CITY + sid(o, "CR2"), o.goods_action(W, 0, W), o.A_TRACK + DESERT])
    assert [k for _, k, _ in asked] == ["collect", "goods", "track"]
    assert names(o, asked[1][2]) == ["goods:-WW", "goods:W-W", "goods:WW-"]
    assert o.parts["score_treasure"][B] == 12 and o.marker[B][DESERT] == 10
    assert o.docks[B] == [[1, 0, 0], [0, 0, 0], [1, 0, 0]]
    assert o.flags_reached(B) == 3               # desert flags 3, 6, 9 at income time
    o.return_phase()
    assert o.marker[B][DESERT] == 5 and o.parts["score_treasure"][B] == 12


def test_x5_final_scoring_soldiers_favour_shared_victory():
    """X5: EN-E1, EN-E2, EN-E3, EN-E4, EN-E7, EN-E8, EN-R76, EN-R77, EN-R107, EN-R108, EN-R110,
    EN-R111, EN-R112: C and D both finish on 94 and share the victory."""
    o = fresh(players=4)
    o.tile_of = [tile(o, "FT02"), tile(o, "FT10"), tile(o, "FT05"), tile(o, "FT04")]
    A, B, C, D = range(4)
    o.favour[BEASTS][0] = A                      # another player holds the first beasts space
    o.tried[A][BEASTS] = True
    o.favour_space[A][BEASTS] = 1
    o.score = [80, 70, 50, 68]
    o.posts[C] = [3, 1, 0]
    o.posts[D] = [0, 2, 1]
    for p, cards in ((C, ["BL01", "BL07", "YE01", "YE03", "PU07", "RE01", "RE03", "RE06", "RE09"]),
                     (D, ["BL02", "BL03", "BL10", "GR01", "GR05", "GR04", "GR08", "PU05", "RE08"])):
        for name in cards:                       # laid one by one, favour checked after each
            lay(o, p, name)
            o.favour_check(p)
    assert o.favour[HUMANS] == [C, D] and o.favour[BEASTS] == [A, C] and o.favour[SPRITES] == [D, None]
    assert o.favour_space[C] == [1, 0, 2, 0] and o.favour_space[D] == [2, 0, 0, 1]
    o.final_scoring()
    assert o.parts["score_soldiers"][C] == 14 and o.parts["score_favour"][C] == 30
    assert o.parts["score_soldiers"][D] == 4 and o.parts["score_favour"][D] == 22
    assert o.score == [80, 70, 94, 94]
    s = o.sheet()
    assert s["win_share"] == [0.0, 0.0, 0.5, 0.5] and s["rank"] == [3, 4, 1, 1]


def test_x6_turn_order_after_a_round_and_next_turn_sequences():
    """X6: EN-R53, EN-R54, EN-R6, EN-R7, EN-R25, EN-R21, EN-R22, EN-R38, EN-A27: order B D A C, then the turns."""
    o = fresh(players=4)
    o.score = [30, 34, 30, 34]
    o.return_phase()
    assert o.order == [1, 3, 0, 2]
    seen = []
    recruit, collect = o.recruit_turn, o.collect_turn

    def rec(p):
        seen.append(("R", o.round, p))
        return (yield from recruit(p))

    def col(p):
        seen.append(("C", o.round, p))
        return (yield from collect(p))

    o.recruit_turn, o.collect_turn = rec, col
    o.begin(round=1)
    r = np.random.default_rng(3)
    while not o.done:
        o.step(int(r.choice(o.legal_list())))
    letters = "ABCD"
    assert [letters[p] for k, rd, p in seen if k == "R" and rd == 1] == list("BDAC" * 3)
    assert [letters[p] for k, rd, p in seen if k == "C" and rd == 1] == list("CADB" * 3)


def test_x7_three_goods_at_once_with_restricted_docks():
    """X7: EN-R36, EN-R37, EN-R90, EN-R92, EN-R93, EN-R94, EN-R95, EN-R96, EN-A12, EN-A13: CG1 -> glacier order."""
    o = fresh(players=4)
    E = 2
    o.docks[E] = [[0, 0, 1], [1, 1, 0], [0, 0, 2]]
    o.on_pile[ARTISANS] = 1
    o.city_taken[sid(o, "CG2")] = 0
    o.city_taken[sid(o, "CG3")] = 0                      # CG1 is the only free space: automatic
    asked, _ = o.drive(o.collect_turn(E), [o.goods_action(W, F, F)])
    assert [k for _, k, _ in asked] == ["goods"]
    assert names(o, asked[0][2]) == ["goods:MFF", "goods:WFF"]
    assert o.score[E] == 4 and o.parts["score_orders"][E] == 4 and o.parts["score_city"][E] == 0
    assert o.marker[E][GLACIER] == 1
    assert o.docks[E] == [[1, 0, 1], [1, 1, 1], [0, 0, 0]]
    assert o.fulfilled[E] == [0, 0, 1]


# ============================================================== setup and random draws

def test_setup_offers_piles_tokens_board():
    """EN-S1, EN-S3, EN-S4, EN-S6, EN-S7, EN-S8, EN-S9, EN-S13, EN-S14, EN-S15, EN-S16, EN-S17, EN-S20, EN-A1, EN-A2:
    EN-R87: five shuffled piles, three face-up cards each, 15 tokens in the bag, empty boards, three docks."""
    for players in (3, 4):
        o = fresh(players=players)
        for c in range(5):
            assert len(o.offers[c]) == 3 and all(x is not None for x in o.offers[c])
            assert len(o.piles[c]) == 9
            assert all(o.cards[x].colour == c for x in o.offers[c] + o.piles[c])
        assert o.card_count() == 60
        assert o.bag == [3] * 5 and sum(o.centre) == 0 and sum(o.on_pile) == 0
        assert o.marker == [[0, 0, 0]] * players and o.posts == [[0, 0, 0]] * players
        assert o.docks == [[[0, 0, 0]] * 3] * players and o.score == [0] * players
        assert len(o.ct.docks) == 3
        assert all(not t for t in o.tableau) and o.favour == [[None, None]] * 4
    # the shuffles depend on the game index and on nothing else
    a, b, c = fresh(game=5), fresh(game=5), fresh(game=6)
    assert a.piles == b.piles and a.offers == b.offers
    assert a.piles != c.piles


def test_setup_favour_tiles_drawn_and_placed():
    """EN-S10, EN-S11, EN-S12, EN-A9, EN-A10: four different non-blank tiles, one per people."""
    seen = set()
    for g in range(40):
        o = fresh(game=g)
        ids = [t.id for t in o.tile_of]
        assert len(set(ids)) == 4 and "FT00" not in ids
        seen.update(ids)
    assert len(seen) == 10


def test_setup_start_player_random_or_first_slot():
    """EN-S18, EN-S19: seat j sits on compass space j+1; the start slot is drawn (or slot 0)."""
    starts = {fresh(players=4, game=g).start_slot for g in range(40)}
    assert starts == {0, 1, 2, 3}
    o = fresh(players=3, game=7)
    assert o.order == [0, 1, 2]
    assert o.slot_of == [(o.start_slot + j) % 3 for j in range(3)]
    assert {fresh(players=4, game=g, start_player="first_slot").start_slot for g in range(10)} == {0}


def test_two_player_rules():
    """EN-S5, EN-V4, EN-R21, EN-R42, EN-R43: 2 tokens per colour, 4 cards each, only a first place."""
    o = fresh(players=2)
    assert o.bag == [2] * 5 and o.cfg.recruits_per_round == 4
    o.marker = [[5, 3, 0], [3, 3, 0]]
    o.income_phase()
    assert o.parts["score_exploration"] == [4 + 5, 5]      # forest: no 2nd place; desert: tied 1st
    o = fresh(players=3)
    assert o.cfg.recruits_per_round == 4
    o.marker = [[5, 0, 0], [4, 0, 0], [3, 0, 0]]
    o.income_phase()
    assert o.parts["score_exploration"] == [4, 2, 0]       # no 3rd place with 3 players
    assert fresh(players=4).cfg.recruits_per_round == 3


def test_blank_tile_variant_replaces_one_tile():
    """EN-V1, EN-V2, EN-V3, EN-A9: the blank tile takes one drawn tile's space and scores 0."""
    hit = set()
    for g in range(30):
        base = fresh(players=2, game=g)
        var = fresh(players=2, game=g, blank_tile_variant=True)
        diff = [q for q in range(4) if base.tile_of[q].id != var.tile_of[q].id]
        assert len(diff) == 1 and var.tile_of[diff[0]].id == "FT00"
        hit.add(diff[0])
    assert hit == {0, 1, 2, 3}
    o = fresh(players=2, blank_tile_variant=True)
    q = [t.id for t in o.tile_of].index("FT00")
    lay(o, 0, *[c.id for c in o.cards if c.colour != SOLDIERS][:10])
    o.favour[q] = [0, 1]
    o.favour_space[0][q], o.favour_space[1][q] = 1, 2
    o.final_scoring()
    assert o.parts["score_favour"] == [0, 0]
    assert Config(players=3, blank_tile_variant=True).validate() is not None


# ============================================================== recruit phase

def test_recruit_centre_empty_forces_a_draw_and_the_other_token_goes_to_the_centre():
    """EN-R8, EN-R9, EN-R10, EN-R11, EN-R13, EN-R14, EN-R15, EN-R19, RND5: automatic draw, choice among the drawn colours."""
    o = fresh(players=4, game=3)
    o.begin()
    assert o.kind == "recruit" and o.decider == o.order[0]
    assert sum(o.bag) == 13 and len(o.drawn) == 2
    legal = o.legal_list()
    assert o.A_DRAW not in legal
    assert {(a - 1) // 3 for a in legal} == set(o.drawn)
    assert len(legal) == 3 * len(set(o.drawn))
    c = o.drawn[0]
    other = o.drawn[1]
    card = o.offers[c][1]
    o.step(o.A_TAKE + 3 * c + 1)
    # (possibly decisions of the card's effect)
    r = np.random.default_rng(0)
    while o.decider == o.order[0] and o.kind != "recruit":
        o.step(int(r.choice(o.legal_list())))
    assert card in o.tableau[o.order[0]]
    assert o.offers[c][1] is None                           # EN-R19: the slot stays empty
    assert o.on_pile[c] == 1 and o.centre[other] == 1 and sum(o.centre) == 1


def test_recruit_centre_method_and_bag_method_both_offered():
    """EN-R8, EN-R12, EN-A16, EN-R75, DP1, DP3: with tokens in the centre the player may draw or take any
    centre colour; a soldier has no immediate effect."""
    o = fresh(players=4)
    o.centre = [1, 0, 2, 0, 0]
    o.bag = [2, 3, 1, 3, 3]
    o.offers[SOLDIERS][0] = None
    gen = o.recruit_turn(0)
    who, kind, legal = next(gen)
    assert kind == "recruit" and who == 0
    assert names(o, legal) == sorted(["draw", "take:traders:1", "take:traders:2", "take:traders:3",
                                      "take:soldiers:2", "take:soldiers:3"])
    card = o.offers[SOLDIERS][2]
    with pytest.raises(StopIteration):
        gen.send(o.A_TAKE + 3 * SOLDIERS + 2)               # soldiers have no immediate effect
    assert o.centre == [1, 0, 1, 0, 0] and o.on_pile[SOLDIERS] == 1 and o.centre_takes[0] == 1
    assert o.tableau[0] == [card] and sum(o.bag) == 12 and o.draws == 0


def test_recruit_bag_with_one_token_and_unusable_tokens():
    """EN-A17, EN-A18: a lone bag token must be used; drawn tokens without a card go to the centre."""
    o = fresh(players=4)
    o.bag = [0, 0, 0, 1, 0]
    o.centre = [0] * 5
    o.offers[ADVENTURERS] = [cid(o, "PU01"), cid(o, "PU04"), None]
    asked, got = o.drive(o.recruit_turn(0), [o.A_TAKE + 3 * ADVENTURERS + 1])
    assert names(o, asked[0][2]) == ["take:adventurers:1", "take:adventurers:2"]
    assert got and sum(o.centre) == 0 and o.on_pile[ADVENTURERS] == 1 and o.draws == 1
    assert o.marker[0] == [0, 2, 0]
    # EN-A18: the bag's only colour has no card left -> both drawn go to the centre, then the
    # centre token of a colour with cards is the only choice
    o = fresh(players=4)
    o.bag = [0, 0, 2, 0, 0]
    o.offers[SOLDIERS] = [None, None, None]
    o.centre = [0, 1, 0, 0, 0]
    o.offers[BUILDERS] = [cid(o, "YE01"), None, None]
    gen = o.recruit_turn(0)
    who, kind, legal = next(gen)                             # draw or take the builder
    assert names(o, legal) == ["draw", "take:builders:1"]
    with pytest.raises(StopIteration):
        gen.send(o.A_DRAW)                                   # soldiers drawn: unusable -> centre, builder taken
    assert o.centre == [0, 0, 2, 0, 0] and o.posts[0][FOREST] == 1 and o.score[0] == 2
    # nothing usable at all: the turn passes without a card
    o = fresh(players=4)
    o.bag = [0] * 5
    o.centre = [0, 0, 1, 0, 0]
    o.offers[SOLDIERS] = [None, None, None]
    asked, got = o.drive(o.recruit_turn(0))
    assert got is False and asked == [] and o.tableau[0] == []


def test_recruit_draws_follow_the_bag_stream():
    """RND5, EN-R9: the k-th token is floor(u_k * tokens in bag) of the bag listed by colour."""
    from sim.core import rng
    o = fresh(players=4, seed=9, game=4)
    o.bag = [1, 0, 2, 0, 1]
    key = rng.stream_keys(9, [4], "bag")
    expect = []
    bag = [1, 0, 2, 0, 1]
    for k in range(4):
        i = int(np.floor(float(rng.uniform(key, k)[0]) * sum(bag)))
        for c in range(5):
            if i < bag[c]:
                bag[c] -= 1
                expect.append(c)
                break
            i -= bag[c]
    assert [o.draw_token() for _ in range(4)] == expect and o.bag == [0, 0, 0, 0, 0]


def test_immediate_effect_before_the_card_enters_the_tableau():
    """EN-R16, EN-R17, EN-R57, EN-R84, EN-R85, EN-R112: per-artisan rewards and favour ignore the card being taken."""
    o = fresh(players=4)
    o.posts[0][GLACIER] = 1                                  # glacier under post 1: 1 point per artisan
    o.docks[0][GLACIER] = [0, 0, 2]
    lay(o, 0, "GR01")
    only_token(o, ARTISANS, ["GR12", None, None])            # 2 points + F
    o.drive(o.recruit_turn(0), [o.goods_action(0, 0, F)])
    assert o.parts["score_cards"][0] == 2
    assert o.parts["score_orders"][0] == 4 + 1                  # base 4 + 1 artisan (GR12 not yet laid)
    assert len(o.tableau[0]) == 2


def test_trader_taken_immediate_points_and_people():
    """EN-R55, EN-R56, EN-R60, EN-R61, EN-R62, EN-A4: a trader pays its immediate points, shows one people
    symbol and a colour, and from then on earns income for its people (itself included)."""
    o = fresh(players=4)
    only_token(o, TRADERS, ["BL04", None, None])
    o.drive(o.recruit_turn(0))
    card = o.cards[o.tableau[0][0]]
    assert card.colour == TRADERS and sum(card.symbols) >= 1 and card.income_people == GOBLINS
    assert o.parts["score_cards"][0] == 2 and o.symbols(0, GOBLINS) == 1
    lay(o, 0, "RE02")
    o.income_phase()
    assert o.parts["score_trader_income"][0] == 3


# ============================================================== collect phase

def test_collect_reverse_order_centre_back_and_city_rewards():
    """EN-R20, EN-R23, EN-R24, EN-R25, EN-R26, EN-R27, EN-R28, EN-R29, EN-R30, EN-R38, EN-A27: collect until the
    piles are empty, starting from the last compass space."""
    o = fresh(players=3)
    o.centre = [1, 0, 0, 0, 1]
    o.on_pile = [2, 0, 0, 0, 0]
    order = []
    col = o.collect_turn

    def spy(p):
        order.append(p)
        return (yield from col(p))

    o.collect_turn = spy
    o.order = [2, 0, 1]
    asked, _ = o.drive(o.collect_phase(), [o.A_CITY + sid(o, "CB1"), o.A_CITY + sid(o, "CB3")])
    assert order == [1, 0] and o.bag == [4, 3, 3, 3, 4] and o.centre == [0] * 5
    assert [d[0] for d in asked] == [1, 0]
    assert names(o, asked[0][2]) == ["city:CB1", "city:CB2", "city:CB3"]
    assert o.score == [2, 6, 0] and o.parts["score_city"] == [2, 6, 0]
    assert o.city_taken[sid(o, "CB1")] == 1 and o.city_taken[sid(o, "CB2")] is None


def test_collect_area_full_token_goes_back():
    """EN-A20, EN-R27: a token whose area is full goes back to the bag without reward."""
    o = fresh(players=4)
    for x in ("CB1", "CB2", "CB3"):
        o.city_taken[sid(o, x)] = 3
    o.on_pile = [1, 0, 0, 0, 1]
    o.city_taken[sid(o, "CG1")] = o.city_taken[sid(o, "CG2")] = 3
    gen = o.collect_turn(0)
    who, kind, legal = next(gen)
    assert names(o, legal) == ["back:traders", "city:CG3"]
    with pytest.raises(StopIteration):
        gen.send(o.A_BACK + TRADERS)
    assert o.on_pile == [0, 0, 0, 0, 1] and o.bag[TRADERS] == 4 and o.score[0] == 0


def test_city_reward_kinds_and_alternatives():
    """EN-R31, EN-R32, EN-R33, EN-R35, DP8, DP9, EN-A5: build / good and step / good or step / M+M+2."""
    o = fresh(players=4)
    o.on_pile[BUILDERS] = 3
    # CY3: good OR step -> alt decision first
    asked, _ = o.drive(o.collect_turn(0), [o.A_CITY + sid(o, "CY3"), o.A_ALT + 1, o.A_TRACK + GLACIER])
    assert [k for _, k, _ in asked] == ["collect", "alt", "track"]
    assert o.marker[0] == [0, 0, 1] and sum(map(sum, o.docks[0])) == 0
    asked, _ = o.drive(o.collect_turn(1), [o.A_CITY + sid(o, "CY2"), o.goods_action(0, M, 0), o.A_TRACK + FOREST])
    assert [k for _, k, _ in asked] == ["collect", "goods", "track"]
    assert len(asked[1][2]) == 9                              # any kind on any of the three docks
    assert o.docks[1][DESERT] == [0, 1, 0] and o.marker[1][FOREST] == 1
    asked, _ = o.drive(o.collect_turn(2), [o.A_TRACK + DESERT])   # CY1 only space left: build
    assert [k for _, k, _ in asked] == ["track"] and o.posts[2] == [0, 1, 0]
    o.on_pile[ARTISANS] = 1
    asked, _ = o.drive(o.collect_turn(3), [o.A_CITY + sid(o, "CG2"), o.goods_action(M, M, 0)])
    assert o.score[3] == 2 and o.docks[3][FOREST] == [0, 1, 0] and o.docks[3][DESERT] == [0, 1, 0]
    assert names(o, asked[1][2]) == ["goods:-MM", "goods:M-M", "goods:MM-"]


def test_city_points_after_an_order_with_a_decision():
    """EN-R35, EN-R37, EN-A13, EN-A14, EN-R97: CG2 = M, M, then 2 points; the goods complete the glacier order
    (step of choice under post 2) before the 2 points come, and the 2 points are still 2."""
    o = fresh(players=2)
    o.posts[1][GLACIER] = 2
    o.docks[1][GLACIER] = [0, 2, 0]
    o.on_pile[ARTISANS] = 1
    asked, _ = o.drive(o.collect_turn(1), [o.A_CITY + sid(o, "CG2"), o.goods_action(M, 0, M), o.A_TRACK + DESERT])
    assert [k for _, k, _ in asked] == ["collect", "goods", "track"]
    assert o.parts["score_city"][1] == 2
    assert o.parts["score_orders"][1] == 4 + 0                  # base 4, per artisan (none), step of choice
    assert o.marker[1] == [0, 1, 1] and o.score[1] == 6


# ============================================================== building

def test_build_posts_in_order_marker_need_not_reach_and_return_position():
    """EN-R64, EN-R65, EN-R66, EN-R67, EN-R68, EN-R69, EN-R70, EN-R71, EN-R72, EN-R73, EN-R74: posts 1-2-3, return to the farthest."""
    o = fresh(players=4)
    only_token(o, BUILDERS, ["YE11", "YE12", None])
    o.centre[BUILDERS] = 2
    o.drive(o.recruit_turn(0), [o.A_TAKE + 3 * BUILDERS + 0])
    assert o.posts[0] == [0, 0, 1] and o.marker[0][GLACIER] == 1 and o.score[0] == 0
    o.drive(o.recruit_turn(0))
    assert o.posts[0] == [0, 0, 2] and o.score[0] == 1
    o.posts[1][GLACIER] = 2                                  # another player on the same spaces
    o.return_phase()
    assert o.marker[0] == [0, 0, o.ct.tracks[GLACIER].build[1]] == [0, 0, 5]
    assert o.marker[1][GLACIER] == 5


def test_build_with_no_post_left():
    """EN-A21, EN-R74: a fixed build without posts does nothing (the rest still applies); a build of choice skips full docks."""
    o = fresh(players=4)
    o.posts[0] = [3, 0, 0]
    only_token(o, BUILDERS, ["YE01", None, None])
    o.drive(o.recruit_turn(0))
    assert o.posts[0] == [3, 0, 0] and o.score[0] == 2
    o.on_pile[BUILDERS] = 1
    o.city_taken[sid(o, "CY2")] = o.city_taken[sid(o, "CY3")] = 1
    asked, _ = o.drive(o.collect_turn(0), [o.A_TRACK + GLACIER])
    assert names(o, asked[0][2]) == ["track:desert", "track:glacier"]
    o.posts[0] = [3, 3, 2]
    o.on_pile[SOLDIERS] = 1
    o.city_taken[sid(o, "CR2")] = o.city_taken[sid(o, "CR3")] = 1
    asked, _ = o.drive(o.collect_turn(0))
    assert asked == [] and o.posts[0] == [3, 3, 3]
    o.on_pile[SOLDIERS] = 1
    o.city_taken[sid(o, "CR1")] = None
    asked, _ = o.drive(o.collect_turn(0))
    assert asked == [] and o.posts[0] == [3, 3, 3] and o.score[0] == 2


def test_builder_build_first_uncovers_the_reward_its_good_earns():
    """EN-A14, EN-R97: YE10 builds on the glacier first, so its good completes a glacier order with post 1 uncovered."""
    o = fresh(players=4)
    o.docks[0][GLACIER] = [0, 2, 0]
    lay(o, 0, "GR01", "GR02")
    only_token(o, BUILDERS, ["YE10", None, None])
    o.drive(o.recruit_turn(0), [o.goods_action(0, 0, M)])
    assert o.posts[0][GLACIER] == 1
    assert o.parts["score_orders"][0] == 4 + 2                  # base 4 + per artisan (2)
    assert o.marker[0][GLACIER] == 1


# ============================================================== exploration tracks

@pytest.mark.parametrize("L", [9, 10, 11])
def test_treasure_payouts_equal_single_steps(L):
    """EN-R102, EN-R103, EN-R104, EN-R105, EN-R106: payouts of n steps = steps ending on the treasure."""
    o = fresh(players=4)
    r = [t.length for t in o.ct.tracks].index(L)
    pts = o.ct.tracks[r].treasure
    for p0 in range(L + 1):
        for n in range(0, 5):
            pos, pays = p0, 0
            for _ in range(n):                                # one step at a time
                pos = min(L, pos + 1)
                pays += pos == L
            o.marker[0][r] = p0
            o.parts["score_treasure"][0] = o.score[0] = 0
            o.step_marker(0, r, n)
            assert o.marker[0][r] == pos and o.score[0] == pays * pts == o.parts["score_treasure"][0]


def test_adventurer_steps_fixed_and_question_mark():
    """EN-R78, EN-R79, EN-R80, EN-R81, EN-R99, EN-A15 (question_mark_split both ways)."""
    o = fresh(players=4)
    only_token(o, ADVENTURERS, ["PU02", None, None])
    o.drive(o.recruit_turn(0))
    assert o.marker[0] == [1, 0, 0] and o.score[0] == 2
    o.marker[1] = [1, 0, 0]                                  # markers share a space
    for split, script, after in ((False, [o.A_TRACK + DESERT], [0, 2, 0]),
                                 (True, [o.A_TRACK + DESERT, o.A_TRACK + GLACIER], [0, 1, 1])):
        o = fresh(players=4, question_mark_split=split)
        only_token(o, ADVENTURERS, ["PU12", None, None])
        asked, _ = o.drive(o.recruit_turn(0), script)
        assert [k for _, k, _ in asked] == ["track"] * len(script)
        assert all(len(l) == 3 for _, _, l in asked)
        assert o.marker[0] == after


def test_flags_reached_or_passed():
    """EN-R82, EN-R101, EN-R83: a marker on a flag has reached it; one below has not."""
    o = fresh(players=4)
    o.marker[0] = [3, 2, 10]           # forest 3 (flag), desert 2 (< 3), glacier 10 (flags 2, 6, 10)
    o.marker[1] = [2, 9, 11]
    assert o.flags_reached(0) == 1 + 0 + 3
    assert o.flags_reached(1) == 0 + 3 + 3
    lay(o, 1, "PU01", "PU05", "PU09")
    o.income_phase()
    assert o.parts["score_adventurer_income"] == [0, 18, 0, 0]


def test_exploration_four_way_tie_and_start_markers():
    """EN-A23, EN-R46, EN-R47, EN-R44, EN-R45, EN-A24: four tied all get 1st; markers on the start get nothing."""
    o = fresh(players=4)
    o.marker = [[3, 0, 1], [3, 0, 0], [3, 0, 0], [3, 2, 0]]
    o.income_phase()
    assert o.parts["score_exploration"] == [4 + 6, 4, 4, 4 + 5]
    o = fresh(players=3)
    o.marker = [[0, 4, 0], [0, 0, 0], [0, 4, 0]]
    o.income_phase()
    assert o.parts["score_exploration"] == [5, 0, 5]           # B on the start: no 2nd place (lapsed anyway)
    o = fresh(players=3)
    o.marker = [[2, 0, 0], [0, 0, 0], [0, 0, 0]]
    o.income_phase()
    assert o.parts["score_exploration"] == [4, 0, 0]           # EN-R47: 2nd place in use but on the start


# ============================================================== goods, docks, orders

def test_strict_dock_placement():
    """EN-A12 (strict), EN-R88, EN-R89, EN-R90, EN-R91: forest one of each, desert any, glacier one kind."""
    o = fresh(players=4)
    o.docks[0] = [[1, 0, 0], [1, 1, 1], [0, 0, 1]]
    legal, lost = o.placements(0, goods("good:any"))
    assert lost == 0
    assert names(o, legal) == ["goods:--F", "goods:-F-", "goods:-M-", "goods:-W-", "goods:F--", "goods:M--"]


def test_free_dock_placement_and_blocked_docks():
    """EN-A12 (free), EN-R94, EN-R98: any good on a dock below its order size; a mixed full dock stays blocked."""
    o = fresh(players=4, dock_placement="free")
    o.docks[0] = [[2, 0, 0], [0, 0, 0], [1, 1, 0]]
    legal, _ = o.placements(0, goods("good:any"))
    assert len(legal) == 9
    o.drive(o.receive_goods(0, goods("good:M")), [o.goods_action(M, 0, 0)])
    assert o.docks[0][FOREST] == [2, 1, 0] and o.fulfilled[0] == [0, 0, 0]
    o.drive(o.receive_goods(0, goods("good:F")), [o.goods_action(0, 0, F)])
    assert o.docks[0][GLACIER] == [1, 1, 1] and o.fulfilled[0] == [0, 0, 0]
    legal, lost = o.placements(0, goods("good:W"))
    assert names(o, legal) == ["goods:-W-"] and lost == 0
    asked, _ = o.drive(o.receive_goods(0, goods("good:W")))
    assert asked == [] and o.docks[0][DESERT] == [1, 0, 0]


def test_orders_repeat_and_glacier_of_one_kind():
    """EN-R90, EN-R95, EN-R96, EN-R98: the same order can be fulfilled again; goods go back to the supply."""
    o = fresh(players=4, goods_per_kind=5)
    for _ in range(2):
        o.docks[0][GLACIER] = [2, 0, 0]
        o.supply = [3, 5, 5]
        o.drive(o.receive_goods(0, goods("good:W")), [o.goods_action(0, 0, W)])
        assert o.docks[0][GLACIER] == [0, 0, 0] and o.supply == [5, 5, 5]
    assert o.fulfilled[0] == [0, 0, 2] and o.parts["score_orders"][0] == 8 and o.marker[0][GLACIER] == 2


def test_goods_lost_when_docks_cannot_take_them():
    """EN-A13, EN-R92: as many goods as possible on pairwise different docks; the rest is lost."""
    o = fresh(players=4)
    o.docks[0] = [[1, 1, 0], [0, 0, 0], [0, 0, 1]]
    legal, lost = o.placements(0, goods("good:W+good:W+good:W"))
    assert names(o, legal) == ["goods:-W-"] and lost == 2
    o.drive(o.receive_goods(0, goods("good:W+good:W+good:W")))
    assert o.goods_lost[0] == 2 and o.docks[0][DESERT] == [1, 0, 0]
    # four goods at once: at most three docks -> at least one lost
    o = fresh(players=4)
    atoms = goods("good:W+good:M+good:F+good:any")
    legal, lost = o.placements(0, atoms)
    assert lost == 1 and all(0 not in o.goods_triple(a) for a in legal)
    # must place as many as possible: two goods that fit -> placing one is not offered
    o = fresh(players=4)
    legal, lost = o.placements(0, goods("good:W+good:M"))
    assert lost == 0 and all(sum(1 for x in o.goods_triple(a) if x) == 2 for a in legal)


def test_goods_run_of_an_effect_and_alternatives():
    """EN-A13, EN-A14, EN-R32, EN-R34, EN-R36, DP6, DP7, DP9: consecutive goods (also a chosen good side) arrive together."""
    o = fresh(players=4)
    eff = effect("good:W+good:any|step:forest:1+good:M")
    asked, _ = o.drive(o.resolve(0, eff, "score_city"), [o.A_ALT, o.goods_action(W, M, M)])
    assert [k for _, k, _ in asked] == ["alt", "goods"]    # W, any, M: one run of three
    assert o.docks[0] == [[1, 0, 0], [0, 1, 0], [0, 1, 0]]
    o = fresh(players=4)
    asked, _ = o.drive(o.resolve(0, eff, "score_city"),
                       [o.A_ALT + 1, o.goods_action(W, 0, 0), o.goods_action(0, M, 0)])
    assert [k for _, k, _ in asked] == ["alt", "goods", "goods"]   # the step splits the run
    assert o.marker[0][FOREST] == 1 and o.docks[0] == [[1, 0, 0], [0, 1, 0], [0, 0, 0]]


def test_goods_supply_finite():
    """EN-A11, EN-S3, EN-R86: with a finite supply a good of an empty kind is not received."""
    o = fresh(players=4, goods_per_kind=1)
    atoms = goods("good:W+good:W")
    legal, lost = o.placements(0, atoms)
    assert lost == 1 and len(legal) == 3
    o.drive(o.receive_goods(0, atoms), [o.goods_action(W, 0, 0)])
    assert o.supply == [0, 1, 1] and o.goods_lost[0] == 1
    legal, lost = o.placements(0, (Atom("good", -1, 1),))
    assert names(o, legal) == ["goods:--F", "goods:--M", "goods:-F-", "goods:-M-", "goods:F--", "goods:M--"]


def _custom_docks(content, forest=None, desert=None, glacier=None):
    docks = list(content.docks)
    for r, spec in enumerate((forest, desert, glacier)):
        if spec is not None:
            base, under = spec
            docks[r] = Dock(r, tuple(effect(b) for b in base), tuple(effect(u) for u in under))
    return dataclasses.replace(content, docks=tuple(docks))


def test_orders_fulfilled_forest_desert_glacier_and_rewards_in_order():
    """EN-A14, EN-R96, EN-R97: docks complete together are fulfilled forest, desert, glacier;
    base rewards first, an under-post reward counts when its post stands by its turn."""
    config = Config(players=4)
    ct = _custom_docks(content_for(config),
                       forest=(["build:desert", "-"], ["-", "-", "-"]),
                       desert=(["-", "build:glacier"], ["pts:5", "-", "-"]),
                       glacier=(["-", "-"], ["pts:7", "-", "-"]))
    o = EnOracle(config, ct, 1, 0, start=False)
    o.docks[0] = [[1, 1, 0], [1, 1, 1], [0, 0, 2]]
    asked, _ = o.drive(o.receive_goods(0, goods("good:F+good:M+good:F")))
    assert asked == []                                       # the only full placement: F, M, F
    # forest first builds the desert post -> desert's under1 pays; desert builds glacier -> 7
    assert o.fulfilled[0] == [1, 1, 1] and o.posts[0] == [0, 1, 1]
    assert o.parts["score_orders"][0] == 12
    # the reverse order of the same docks would pay nothing
    ct2 = _custom_docks(content_for(config),
                        forest=(["-", "-"], ["pts:5", "-", "-"]),
                        desert=(["build:forest", "-"], ["-", "-", "-"]))
    o = EnOracle(config, ct2, 1, 0, start=False)
    o.docks[0] = [[1, 1, 0], [1, 1, 1], [0, 0, 0]]
    o.drive(o.receive_goods(0, goods("good:F+good:M")), [o.goods_action(F, M, 0)])
    assert o.posts[0] == [1, 0, 0] and o.parts["score_orders"][0] == 0
    # a base reward's build uncovers the same dock's reward in time (its turn comes after)
    ct3 = _custom_docks(content_for(config), glacier=(["build:glacier", "-"], ["pts:7", "-", "-"]))
    o = EnOracle(config, ct3, 1, 0, start=False)
    o.docks[0][GLACIER] = [0, 0, 2]
    o.drive(o.receive_goods(0, goods("good:F")), [o.goods_action(0, 0, F)])
    assert o.parts["score_orders"][0] == 7


def test_order_reward_step_of_choice():
    """EN-A8, DP8, EN-R97: the third desert post uncovers a step of choice (TRACK decision)."""
    o = fresh(players=4)
    o.posts[0][DESERT] = 3
    o.docks[0][DESERT] = [1, 1, 1]
    lay(o, 0, "GR01", "GR02", "GR03")
    asked, _ = o.drive(o.receive_goods(0, goods("good:W")), [o.goods_action(0, W, 0), o.A_TRACK + GLACIER])
    assert [k for _, k, _ in asked] == ["goods", "track"]
    assert o.parts["score_orders"][0] == 2 + 2 + 3 and o.marker[0] == [0, 1, 1]


# ============================================================== favour

def test_favour_first_second_never():
    """EN-R107, EN-R108, EN-R109, EN-R112, EN-A22: first two to five symbols win; the third never can."""
    o = fresh(players=4)
    for p in range(3):
        lay(o, p, "BL01", "BL02", "BL03")
        o.favour_check(p)
        assert o.favour_space[p][HUMANS] == 0 and not o.tried[p][HUMANS]
    for p in range(3):
        lay(o, p, "RE01")                        # 3 -> 5 humans at once
        o.favour_check(p)
    assert o.favour[HUMANS] == [0, 1]
    assert [o.favour_space[p][HUMANS] for p in range(4)] == [1, 2, 0, 0]
    assert o.tried[2][HUMANS]
    lay(o, 2, "RE05")
    o.favour_check(2)
    assert o.favour_space[2][HUMANS] == 0
    # EN-R109: a player wins a favour once; a later free space does not come back to them
    o.favour[HUMANS][1] = None
    lay(o, 0, "RE09")
    o.favour_check(0)
    assert o.favour[HUMANS] == [0, None]


def test_favour_soldier_from_four_to_six_and_threshold_switch():
    """EN-A22, EN-R77, EN-R107: 4 -> 6 symbols wins; ``favour_symbols`` changes the threshold."""
    o = fresh(players=4)
    lay(o, 0, "BL04", "BL05", "BL06", "YE05")
    o.favour_check(0)
    assert o.favour[GOBLINS] == [None, None]
    only_token(o, SOLDIERS, ["RE02", None, None])
    o.drive(o.recruit_turn(0))
    assert o.favour[GOBLINS] == [0, None] and o.symbols(0, GOBLINS) == 6
    o = fresh(players=4, favour_symbols=2)
    only_token(o, SOLDIERS, ["RE12", None, None])
    o.drive(o.recruit_turn(3))
    assert o.favour[SPRITES] == [3, None] and o.favour_space[3] == [0, 0, 0, 1]


def test_favour_tile_scores_cards_of_its_two_kinds():
    """EN-E4, EN-R110, EN-R111, EN-A9: value of the space x cards of the tile's two kinds."""
    o = fresh(players=4)
    o.tile_of[BEASTS] = tile(o, "FT08")                      # soldiers + adventurers 3/2
    o.favour[BEASTS] = [1, 0]
    lay(o, 0, "RE01", "PU01", "PU02", "BL01")
    lay(o, 1, "RE03", "GR01")
    o.final_scoring()
    assert o.parts["score_favour"][:2] == [3 * 2, 1 * 3]
    assert o.parts["score_soldiers"][:2] == [0, 0]               # no posts built


# ============================================================== return phase and end

def test_return_phase_steps():
    """EN-R48, EN-R49, EN-R50, EN-R51, EN-R52, EN-R53, EN-R54, EN-A19, EN-A25: markers, tokens, offers, order."""
    o = fresh(players=3)
    o.marker[0] = [7, 1, 11]
    o.posts[0] = [3, 0, 1]
    o.bag = [0, 1, 0, 2, 0]
    o.on_pile = [0] * 5
    for x in range(0, 12):
        o.city_taken[x] = x % 3
    o.offers[TRADERS][1] = None
    kept = [o.offers[c][s] for c in range(5) for s in range(3) if o.offers[c][s] is not None]
    tops = [o.piles[c][:3] for c in range(5)]
    o.piles[ARTISANS] = o.piles[ARTISANS][:2]                # a short pile (EN-A19)
    o.score = [10, 12, 10]
    o.order = [2, 0, 1]
    o.return_phase()
    assert o.marker[0] == [6, 0, 3] and o.parts["score_treasure"][0] == 0
    assert o.bag == [3] * 5 and all(x is None for x in o.city_taken)
    assert sorted(o.discarded) == sorted(kept)
    assert [o.offers[c] for c in range(4)] == tops[:4]
    assert o.offers[ARTISANS] == tops[4][:2] + [None]
    assert o.order == [1, 2, 0]
    assert o.card_count() == 60 - 1 - 7                      # the emptied slot, 7 artisans cut above


def test_full_game_flow_rounds_and_end():
    """EN-R1, EN-R2, EN-R3, EN-R4, EN-E1, EN-E2, EN-E5, EN-E6, EN-E7, EN-E8, EN-R58, EN-R59: three rounds, no return at the end."""
    o = fresh(players=4, game=11)
    calls = []
    for name in ("income_phase", "return_phase", "final_scoring"):
        f = getattr(o, name)
        setattr(o, name, (lambda f, name: lambda: (calls.append(name), f())[1])(f, name))
    o.begin()
    r = np.random.default_rng(1)
    while not o.done:
        o.step(int(r.choice(o.legal_list())))
    assert calls == ["income_phase", "return_phase", "income_phase", "return_phase", "income_phase", "final_scoring"]
    s = o.sheet()
    assert s["rounds"] == 3 and s["end_reason"] == "three_rounds" and s["turns"] == 3 * 2 * 12
    assert o.decider == -1 and o.kind is None and not o.legal().any()
    columns = (["score"] + list(PARTS) + [f"en_cards_{c}" for c in COLOURS] + [f"en_posts_{r}" for r in REGIONS]
               + [f"en_fulfilled_{r}" for r in REGIONS] + ["en_goods_lost", "en_centre_takes", "en_score_r1",
                                                          "en_score_r2"] + [f"en_favour_{q}" for q in PEOPLES])
    assert all(len(s[k]) == 4 for k in columns)
    assert all(isinstance(s[f"en_tile_{q}"], str) for q in PEOPLES) and s["start_slot"] in range(4)
    out = o.outcome()
    assert set(columns) <= set(out["per_seat"]) and out["per_game"]["turns"] == s["turns"]
    assert sum(s["win_share"]) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        o.step(0)


def test_score_after_rounds_recorded():
    """EN-R5, EN-R53: en_score_r1 / en_score_r2 are the scores after rounds 1 and 2's income."""
    o = fresh(players=3, game=2)
    orders = []
    ret = o.return_phase

    def spy():
        orders.append(list(o.score))
        ret()

    o.return_phase = spy
    o.begin()
    r = np.random.default_rng(2)
    while not o.done:
        o.step(int(r.choice(o.legal_list())))
    s = o.sheet()
    assert [s["en_score_r1"], s["en_score_r2"]] == orders


# ============================================================== switches

def test_cards_per_round_switch():
    """EN-R21, EN-R22: cards_per_round overrides the seed's 4/4/3."""
    for players, cpr in ((2, 2), (2, 5), (3, 5), (4, 1)):
        o = fresh(players=players, cards_per_round=cpr)
        o.begin()
        r = np.random.default_rng(players)
        while not o.done:
            o.step(int(r.choice(o.legal_list())))
        assert o.recruited == [[cpr] * 3] * players and o.turns == 3 * 2 * cpr * players
    # 4 players x 4 cards = 16 turns but 15 tokens: the 16th turn passes without a card
    o = fresh(players=4, cards_per_round=4, game=1)
    o.begin()
    r = np.random.default_rng(5)
    while not o.done:
        o.step(int(r.choice(o.legal_list())))
    assert sum(sum(x) for x in o.recruited) == 45 and o.turns == 3 * (16 + 15)


# ============================================================== action space

def test_action_space_layout():
    """Model doc action table: A = 90 + S (105 with 15 city spaces) and the names of the ranges."""
    o = fresh(players=4)
    assert o.A == 105 and o.legal().shape == (105,)
    assert o.name(0) == "draw" and o.name(1) == "take:traders:1" and o.name(15) == "take:artisans:3"
    assert o.name(16) == "city:CB1" and o.name(30) == "city:CG3"
    assert o.name(31) == "back:traders" and o.name(36) == "track:forest" and o.name(38) == "track:glacier"
    assert o.name(39) == "goods:---" and o.name(39 + 16 * 1 + 4 * 0 + 3) == "goods:W-F"
    assert o.name(103) == "alt:1" and o.name(104) == "alt:2"


# ============================================================== invariants over random games

INVARIANT_CONFIGS = [
    dict(players=2), dict(players=3), dict(players=4),
    dict(players=2, blank_tile_variant=True, dock_placement="free"),
    dict(players=3, question_mark_split=True, goods_per_kind=4, start_player="first_slot"),
    dict(players=4, dock_placement="free", favour_symbols=3, goods_per_kind=2),
]
GAMES = 60


def _check_state(o: EnOracle):
    assert o.card_count() == len(o.cards)                        # EN-A2, EN-A19: no card created or lost
    assert o.token_counts() == o.token_total                     # EN-S4, EN-S5, EN-R14, EN-R23, EN-R51
    assert min(o.bag + o.centre + o.on_pile) >= 0
    for p in range(o.n):
        for r in range(3):
            g = o.docks[p][r]
            # a full dock is either awaiting its turn of fulfilment (EN-A14) or blocked (free mode)
            assert min(g) >= 0 and sum(g) <= (3, 4, 3)[r]
            assert sum(g) < (3, 4, 3)[r] or order_complete(r, g) or o.cfg.dock_placement == "free"
            if o.cfg.dock_placement == "strict":
                assert not (r == 0 and max(g) > 1) and not (r == 2 and sum(1 for k in g if k) > 1)
        assert all(0 <= x <= 3 for x in o.posts[p])
        assert all(0 <= o.marker[p][r] <= o.ct.tracks[r].length for r in range(3))
    if o.supply is not None:
        for k in range(3):
            assert o.supply[k] >= 0
            assert o.supply[k] + sum(o.docks[p][r][k] for p in range(o.n) for r in range(3)) == o.cfg.goods_per_kind
    assert o.score == [sum(o.parts[k][p] for k in PARTS) for p in range(o.n)]
    assert min(o.score) >= 0                                     # EN-R5, EN-A28: points are never lost


@pytest.mark.parametrize("number", range(len(INVARIANT_CONFIGS)))
def test_invariants_over_random_games(number):
    """EN-S4, EN-S5, EN-R14, EN-R21, EN-R22, EN-R38, EN-R51, EN-R52, EN-A1, EN-A2, EN-A19, EN-A26, EN-A28:
    cards and tokens conserved, goods >= 0, score = sum of its components, every decision has
    at least two legal actions, every player recruits cards_per_round cards per round."""
    kw = INVARIANT_CONFIGS[number]
    config = Config(**kw)
    content = content_for(config)
    n = config.players
    r = np.random.default_rng(100 + number)
    for g in range(GAMES):
        o = EnOracle(config, content, 40 + number, g)
        _check_state(o)
        decisions = 0
        while not o.done:
            legal = o.legal()
            assert legal.sum() >= 2 and o.kind in ("recruit", "collect", "track", "goods", "alt")
            assert 0 <= o.decider < n
            o.step(int(r.choice(np.nonzero(legal)[0])))
            decisions += 1
            _check_state(o)
        s = o.sheet()
        assert s["score"] == [sum(s[k][p] for k in PARTS) for p in range(n)]
        cpr = config.recruits_per_round
        assert o.recruited == [[cpr] * 3] * n                    # EN-R21, EN-R22
        assert [len(t) for t in o.tableau] == [3 * cpr] * n
        assert s["turns"] == 3 * 2 * cpr * n                     # EN-R38: as many collect as recruit turns
        assert sum(s[f"en_cards_{c}"][p] for c in COLOURS for p in range(n)) == 3 * cpr * n
        assert sum(s["win_share"]) == pytest.approx(1.0) and min(s["rank"]) == 1
        assert s["start_slot"] == (0 if config.start_player == "first_slot" else s["start_slot"])
        assert sorted(s["slot"]) == list(range(n))
        assert len({s[f"en_tile_{q}"] for q in PEOPLES}) == 4
        for q in PEOPLES:
            held = s[f"en_favour_{q}"]
            assert held.count(1) <= 1 and held.count(2) <= 1 and (held.count(2) == 0 or held.count(1) == 1)
        for reg in REGIONS:
            assert all(0 <= x <= 3 for x in s[f"en_posts_{reg}"])
        assert decisions > 0


SCARCE_CARDS = """id,colour,symbols,immediate,income,end
BL01,traders,human,pts:2+good:any|step:any:2,people:human,-
BL02,traders,goblin:2,good:W+good:any|pts:1+good:M,people:goblin,-
BL03,traders,beast,-,people:sprite,-
BL04,traders,sprite,build:any+good:any,flags,posts:desert:1
YE01,builders,human,build:forest+good:any|build:any+good:F,-,-
YE02,builders,goblin+beast,build:any+build:any,-,-
YE03,builders,beast,build:glacier+good:any+good:any,-,-
YE04,builders,sprite,step:any:3+per_artisan:2,-,-
RE01,soldiers,human:2,-,-,posts:forest:2
RE02,soldiers,goblin:3,good:F|good:W,-,posts:glacier:3
RE03,soldiers,beast:2,-,-,posts:desert:2
RE04,soldiers,sprite:2+human,pts:1,people:human,posts:forest:1
PU01,adventurers,human,step:forest:4,flags,-
PU02,adventurers,goblin,step:any:2+pts:2,flags,-
PU03,adventurers,beast,step:glacier:12,flags,-
PU04,adventurers,sprite,step:any:1|good:any,flags,-
GR01,artisans,human,good:W+good:M+good:F+good:any,-,-
GR02,artisans,goblin,good:any+good:any+good:any,-,-
GR03,artisans,beast,per_artisan:1+good:W+good:W,-,-
GR04,artisans,sprite,good:F+good:F+good:F,-,-
"""
SCARCE_CITY = """space,colour,reward
C1,traders,good:any|step:any:1+good:W
C2,builders,build:any+good:M+good:M
C3,soldiers,pts:3
C4,adventurers,good:F+good:any|pts:2
C5,artisans,good:W+good:M+good:F
"""


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_with_scarce_content(tmp_path, players):
    """EN-A17, EN-A18, EN-A19, EN-A20, EN-A13, EN-A14, EN-R19: 4 cards per colour and one city space per colour
    make empty offers, unusable tokens, passed turns and full areas happen; the invariants still hold."""
    (tmp_path / "cards.csv").write_text(SCARCE_CARDS)
    (tmp_path / "city.csv").write_text(SCARCE_CITY)
    config = Config(players=players, cards_file=str(tmp_path / "cards.csv"), city_file=str(tmp_path / "city.csv"))
    content = load_content(config)
    r = np.random.default_rng(players)
    backs = passes = unusable = 0
    for g in range(40):
        o = EnOracle(config, content, 3, g)
        assert o.A == 95
        while not o.done:
            assert o.legal().sum() >= 2
            o.step(int(r.choice(o.legal_list())))
            _check_state(o)
        backs += sum(1 for line in o.log if "back:" in line)
        passes += o.passes
        unusable += o.unusable_draws
        assert o.card_count() == 20
        assert sum(map(sum, o.recruited)) + o.passes == 3 * config.recruits_per_round * players
    assert backs > 0 and passes > 0 and unusable > 0


def test_replay_is_deterministic():
    """RND1..RND5: the same seed, game index and actions give the same game."""
    config = Config(players=3)
    content = content_for(config)
    for g in range(5):
        a, b = EnOracle(config, content, 8, g), EnOracle(config, content, 8, g)
        r = np.random.default_rng(g)
        while not a.done:
            assert a.decider == b.decider and a.kind == b.kind and a.legal_list() == b.legal_list()
            x = int(r.choice(a.legal_list()))
            a.step(x)
            b.step(x)
        assert b.done and a.sheet() == b.sheet()
