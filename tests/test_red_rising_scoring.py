"""Red Rising final scoring (sim/games/red_rising/scoring.py) and described positions (position.py).

* The spec's worked examples 1-4 (section 10) with their variations, through ``score_final``
  and through ``score_position`` on the shipped files in docs/examples/red_rising/.
* One focused test per scoring rule, on small hand-built decks.
* Bad position files: one-line messages naming the file, the JSON path and what was expected.
* Properties over random batches, against a plain one-game-at-a-time reference scorer.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from sim.core.errors import InputError
from sim.games.red_rising import zones
from sim.games.red_rising.config import Config
from sim.games.red_rising.content import load_content
from sim.games.red_rising.content_types import AutomaLevel, Card, Content, EndBonus, Filter, House
from sim.games.red_rising.position import load_position, score_position
from sim.games.red_rising.scoring import COMPONENTS, score_final, wildcard_choices

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples" / "red_rising"
# The worked examples' fleet track (spec section 10: 2->3 ... 8->30); RR-A6's default differs.
EXAMPLE_FLEET = (0, 1, 3, 6, 10, 14, 19, 24, 30, 37, 43)
RR_A6_FLEET = (0, 1, 3, 6, 10, 15, 21, 28, 34, 39, 43)
COLOURS = ("Red", "Orange", "Yellow", "Green", "Blue", "Violet", "Copper",
           "Silver", "Gold", "Grey", "Obsidian", "Pink", "White", "Brown")
LEVELS = {1: (4, 1), 2: (5, 2), 3: (6, 3), 4: (7, 3), 5: (7, 4), 6: (8, 4)}      # RR-A9
LOC = {"J": zones.JUPITER, "M": zones.MARS, "L": zones.LUNA, "I": zones.INSTITUTE}


# ---- building contents and games ------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def example_content() -> Content:
    """The worked examples' deck through the real loader, with the examples' fleet track."""
    content = load_content(Config(deck_file=str(EXAMPLES / "worked_examples_deck.toml")))
    return dataclasses.replace(content, fleet_points=EXAMPLE_FLEET)


@functools.lru_cache(maxsize=None)
def default_content() -> Content:
    return load_content(Config())


def make_content(*specs, colours=COLOURS) -> Content:
    """A hand-built deck: each spec is (id, colour, core, [end bonuses], {card options})."""
    cards = []
    for i, spec in enumerate(specs):
        cid, colour, core = spec[:3]
        bonuses = tuple(spec[3]) if len(spec) > 3 else ()
        options = dict(spec[4]) if len(spec) > 4 else {}
        options.setdefault("name", cid)
        cards.append(Card(index=i, id=cid, colour=colour, core=core, end_bonus=bonuses, **options))
    return Content(deck_name="test", synthetic=True, colours=tuple(colours), cards=tuple(cards),
                   houses=tuple(House(n) for n in ("Apollo", "Ceres", "Diana", "Jupiter", "Mars", "Minerva")),
                   fleet_points=RR_A6_FLEET,
                   automa_levels={n: AutomaLevel(m, u) for n, (m, u) in LEVELS.items()},
                   automa_cards=())


def for_each(points, **filt):
    return EndBonus("for_each", points, Filter(**_tuples(filt)))


def if_with(points, **filt):
    return EndBonus("if_with", points, Filter(**_tuples(filt)))


def if_with_no(points, **filt):
    return EndBonus("if_with_no", points, Filter(**_tuples(filt)))


def on_locations(points, **filt):
    return EndBonus("for_each_on_locations", points, Filter(**_tuples(filt)))


def banished_bonus(points, **filt):
    return EndBonus("for_each_banished", points, Filter(**_tuples(filt)))


def hand_compare(points, compare):
    return EndBonus("hand_compare", points, compare=compare)


def _tuples(filt):
    return {k: tuple(v) if isinstance(v, list) else v for k, v in filt.items()}


GREY = {"colour_wildcard": True}
ORANGE = {"name_wildcard": True}


def game_arrays(content, hands, helium=None, fleet=None, cubes=None, sovereign=-1, automa=-1, parity=0,
                locations=None, banished=()):
    """The ``score_final`` inputs of one game (batch of 1) from card ids."""
    ids = {c.id: c.index for c in content.cards}
    seats = len(hands)
    where = np.full((1, len(content.cards)), zones.DECK, dtype=np.int16)
    for p, hand in enumerate(hands):
        for cid in hand:
            where[0, ids[cid]] = zones.hand(p)
    for loc, cards in (locations or {}).items():
        for cid in cards:
            where[0, ids[cid]] = LOC[loc]
    for cid in banished:
        where[0, ids[cid]] = zones.BANISHED

    def row(values):
        return np.array([values if values is not None else [0] * seats], dtype=np.int64)

    return dict(where=where, helium=row(helium), fleet=row(fleet), cubes=row(cubes),
                sovereign=np.array([sovereign]), automa_seat=np.array([automa]), parity=np.array([parity]))


def score_one(content, hands, config=Config(), **kw) -> dict:
    """Scores of one game: each key maps to a list over seats."""
    result = score_final(content, config, **game_arrays(content, hands, **kw))
    return {k: v[0].tolist() for k, v in result.items()}


def cards_of(content, hands, config=Config(), **kw) -> list[int]:
    return score_one(content, hands, config, **kw)["score_cards"]


# ---- worked example 1 (RR-E9..RR-E14, RR-E17..RR-E19, RR-A11) ----------------------------------

EX1_HANDS = [["E1-A-GOLD-5", "E1-A-RED-8", "E1-A-BLUE-10", "E1-A-PINK-3", "E1-A-BROWN-0"],
             ["E1-B-VIOLET-7", "E1-B-GREEN-7", "E1-B-WHITE-9", "E1-B-YELLOW-2"],
             ["E1-C-COPPER-6", "E1-C-OBSIDIAN-4", "E1-C-SILVER-12"],
             ["E1-D-GOLD-15", "E1-D-RED-1", "E1-D-BLUE-11", "E1-D-PINK-0", "E1-D-BROWN-9"]]
EX1 = dict(helium=[3, 7, 2, 0], fleet=[5, 2, 7, 0], cubes=[7, 7, 4, 2], sovereign=2)


def test_example1_dense_rr_e9_to_e14_e17_e19_shared_victory():
    """Example 1, default `dense` (RR-A11): A 77, B 77, C 70, D 38; A and B share (RR-E19)."""
    s = score_one(example_content(), EX1_HANDS, **EX1)
    assert s["score_cards"] == [26, 25, 22, 36]
    assert s["score_fleet"] == [14, 3, 24, 0]
    assert s["score_helium"] == [9, 21, 6, 0]
    assert s["score_sovereign"] == [0, 0, 10, 0]
    assert s["score_influence"] == [28, 28, 8, 2]
    assert s["score_hand_penalty"] == [0, 0, 0, 0]
    assert s["score_automa_base"] == [0, 0, 0, 0]
    assert s["score"] == [77, 77, 70, 38]
    assert s["rank"] == [1, 1, 3, 4]
    assert s["win_share"] == [0.5, 0.5, 0.0, 0.0]


def test_example1_competition_rr_a11():
    """Example 1 under `competition`: C is third (1 per cube) -> 4 and 66; D keeps 2."""
    s = score_one(example_content(), EX1_HANDS, Config(influence_tie_mode="competition"), **EX1)
    assert s["score_influence"] == [28, 28, 4, 2]
    assert s["score"] == [77, 77, 66, 38]
    assert s["win_share"] == [0.5, 0.5, 0.0, 0.0]


# ---- worked example 2 (RR-S14, RR-E13..RR-E15) -------------------------------------------------

EX2_HANDS = [["E2-P1-GOLD-11", "E2-P1-RED-4", "E2-P1-RED-6", "E2-P1-BLUE-9", "E2-P1-GREEN-2", "E2-P1-PINK-7"],
             ["E2-P2-OBSIDIAN-12", "E2-P2-BROWN-5", "E2-P2-VIOLET-8", "E2-P2-YELLOW-3"]]
EX2 = dict(helium=[7, 2], fleet=[4, 7], cubes=[7, 2], sovereign=1)


def test_example2_neutral_house_rr_e15():
    """P1 45+10+21+0+28 = 104; P2 38+24+6+10+2 = 80 (third behind the neutral house)."""
    s = score_one(example_content(), EX2_HANDS, **EX2)
    assert s["score_cards"] == [45, 38]
    assert s["score_fleet"] == [10, 24]
    assert s["score_helium"] == [21, 6]
    assert s["score_sovereign"] == [0, 10]
    assert s["score_influence"] == [28, 2]
    assert s["score"] == [104, 80]
    assert s["rank"] == [1, 2] and s["win_share"] == [1.0, 0.0]


@pytest.mark.parametrize("mode", ["dense", "competition"])
def test_example2_variation_a_tie_with_neutral_rr_e14(mode):
    """Variation (a): P2 with 3 cubes ties the neutral house for second -> 6, total 84 (both modes)."""
    s = score_one(example_content(), EX2_HANDS, Config(influence_tie_mode=mode), **{**EX2, "cubes": [7, 3]})
    assert s["score_influence"] == [28, 6]
    assert s["score"][1] == 84


@pytest.mark.parametrize("mode, p2", [("dense", 2), ("competition", 1)])
def test_example2_variation_b_tie_for_first_with_neutral_rr_a11(mode, p2):
    """Variation (b): P1 3 ties the neutral 3 for first -> 12; P2 1 cube: 2 (dense) or 1 (competition)."""
    s = score_one(example_content(), EX2_HANDS, Config(influence_tie_mode=mode), **{**EX2, "cubes": [3, 1]})
    assert s["score_influence"] == [12, p2]


# ---- worked example 3 (RR-R41, RR-R51..RR-R59, RR-E9, RR-E16) ----------------------------------

EX3_X = ["E3-X-GOLD-10", "E3-X-OBSIDIAN-8", "E3-X-OBSIDIAN-7", "E3-X-GREY-2", "E3-X-RED-3",
         "E3-X-ORANGE-1", "E3-X-VIOLET-6", "E3-X-BLUE-4", "E3-X-YELLOW-0"]
EX3 = dict(helium=[4, 0, 0], fleet=[6, 0, 0], cubes=[5, 8, 2],
           locations={"J": ["E3-LOC-BLUE-1", "E3-LOC-GREEN-5"], "M": ["E3-LOC-BLUE-2"],
                      "L": ["E3-LOC-RED-6", "E3-LOC-BLUE-3"]},
           banished=["E3-BAN-GOLD-13", "E3-BAN-GOLD-14", "E3-BAN-PINK-2"])


def test_example3_x_scores_104_rr_e9_e16():
    """X: cards 41 + 42 = 83, fleet 19, helium 12, influence second 10, penalty -20: 104."""
    s = score_one(example_content(), [EX3_X, [], []], **EX3)
    assert s["score_cards"][0] == 83
    assert s["score_fleet"][0] == 19
    assert s["score_helium"][0] == 12
    assert s["score_sovereign"][0] == 0
    assert s["score_influence"][0] == 10
    assert s["score_hand_penalty"][0] == -20
    assert s["score"][0] == 104


def test_example3_wildcard_choices_rr_r51_r54_a19():
    """Grey counts as Obsidian, Orange is named Warden."""
    content = example_content()
    arrays = game_arrays(content, [EX3_X, [], []], **EX3)
    chosen = wildcard_choices(content, arrays["where"], arrays["automa_seat"], 3)[0]
    by_id = {content.cards[c].id: v for c, v in chosen.items()}
    assert by_id == {"E3-X-GREY-2": {"colour": "Obsidian"}, "E3-X-ORANGE-1": {"name": "Warden"}}


@pytest.mark.parametrize("colour, expected", [("Obsidian", 83), ("Gold", 79)])
def test_example3_grey_as_obsidian_or_gold_rr_r54(colour, expected):
    """With the grey card fixed to Gold instead, the Gold bonus drops to 8 and card points to 79.

    A printed card of that colour stands in for the fixed choice (no filter names Grey).
    """
    content = example_content()
    cards = list(content.cards)
    grey = next(c for c in cards if c.id == "E3-X-GREY-2")
    cards[grey.index] = dataclasses.replace(grey, colour=colour, colour_wildcard=False)
    fixed = dataclasses.replace(content, cards=tuple(cards))
    assert cards_of(fixed, [EX3_X, [], []], **EX3)[0] == expected


# ---- worked example 4 (RR-V37..RR-V42, RR-E15) -------------------------------------------------

EX4_PLAYER = ["E4-P-GOLD-12", "E4-P-GOLD-10", "E4-P-GOLD-9", "E4-P-GOLD-8", "E4-P-SILVER-6",
              "E4-P-COPPER-5", "E4-P-PINK-0"]
EX4_AU_TOMA = [f"E4-AT-{i:02d}" for i in range(1, 25)]
EX4 = dict(helium=[2, 10], fleet=[3, 8], cubes=[8, 6], sovereign=0, automa=1)


def test_example4_even_rr_v37_to_v42():
    """EVEN: Au Toma 70 + 105 + 30 + 30 + 0 + 12 = 247; the player 95+6+6+10+32 = 149 (RR-V44: she wins)."""
    s = score_one(example_content(), [EX4_PLAYER, EX4_AU_TOMA], parity=0, **EX4)
    assert s["score_automa_base"] == [0, 70]
    assert s["score_cards"] == [95, 105]
    assert s["score_fleet"] == [6, 30]
    assert s["score_helium"] == [6, 30]
    assert s["score_sovereign"] == [10, 0]
    assert s["score_influence"] == [32, 12]
    assert s["score_hand_penalty"] == [0, 0]
    assert s["score"] == [149, 247]
    assert s["rank"] == [2, 1] and s["win_share"] == [0.0, 1.0]


def test_example4_odd_rr_v40_v41():
    """ODD: 9 matching, 15 non-matching, drop 4 non-matching: 9*6 + 11*3 = 87 card points."""
    s = score_one(example_content(), [EX4_PLAYER, EX4_AU_TOMA], parity=1, **EX4)
    assert s["score_cards"] == [95, 87]
    assert s["score"] == [149, 70 + 87 + 30 + 30 + 12]


# ---- the worked examples as position files -----------------------------------------------------

POSITIONS = {
    "example1_four_players.json": {
        "score": [77, 77, 70, 38], "score_cards": [26, 25, 22, 36], "score_fleet": [14, 3, 24, 0],
        "score_helium": [9, 21, 6, 0], "score_sovereign": [0, 0, 10, 0], "score_influence": [28, 28, 8, 2],
        "rank": [1, 1, 3, 4], "win_share": [0.5, 0.5, 0.0, 0.0]},
    "example2_two_players_neutral.json": {
        "score": [104, 80], "score_cards": [45, 38], "score_fleet": [10, 24], "score_helium": [21, 6],
        "score_sovereign": [0, 10], "score_influence": [28, 2], "rank": [1, 2], "win_share": [1.0, 0.0]},
    "example3_end_bonuses_wildcards.json": {
        "score_cards": [83, 0, 0], "score_fleet": [19, 0, 0], "score_helium": [12, 0, 0],
        "score_influence": [10, 32, 2], "score_hand_penalty": [-20, 0, 0], "score": [104, 32, 2]},
    "example4_solo_au_toma.json": {
        "score": [149, 247], "score_cards": [95, 105], "score_automa_base": [0, 70], "score_fleet": [6, 30],
        "score_helium": [6, 30], "score_sovereign": [10, 0], "score_influence": [32, 12],
        "score_hand_penalty": [0, 0], "rank": [2, 1], "win_share": [0.0, 1.0]},
}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_shipped_example_positions(name):
    """The shipped worked-example files score as the spec says (RR-E9..RR-E19, RR-V37..RR-V42)."""
    rows = score_position(EXAMPLES / name)
    for key, expected in POSITIONS[name].items():
        assert [r[key] for r in rows] == expected, key
    for r in rows:
        assert r["score"] == sum(r[k] for k in COMPONENTS)


def test_example3_position_reports_wildcards():
    rows = score_position(EXAMPLES / "example3_end_bonuses_wildcards.json")
    assert rows[0]["wildcards"] == {"E3-X-GREY-2": {"colour": "Obsidian"}, "E3-X-ORANGE-1": {"name": "Warden"}}
    assert rows[0]["hand_size"] == 9


def variant_file(tmp_path, name, change) -> Path:
    """A copy of a shipped example with ``change(data)`` applied, deck path made absolute."""
    data = json.loads((EXAMPLES / name).read_text())
    data["deck_file"] = str(EXAMPLES / data["deck_file"])
    change(data)
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_example1_position_competition_rr_a11(tmp_path):
    path = variant_file(tmp_path, "example1_four_players.json",
                        lambda d: d.setdefault("config", {}).update(influence_tie_mode="competition"))
    assert [r["score"] for r in score_position(path)] == [77, 77, 66, 38]


@pytest.mark.parametrize("cubes, mode, influence", [
    ([7, 3], "dense", [28, 6]), ([7, 3], "competition", [28, 6]),
    ([3, 1], "dense", [12, 2]), ([3, 1], "competition", [12, 1])])
def test_example2_position_variations_rr_e15_a11(tmp_path, cubes, mode, influence):
    def change(d):
        d["config"] = {"influence_tie_mode": mode}
        for seat, n in zip(d["players"], cubes):
            seat["cubes"] = n
    rows = score_position(variant_file(tmp_path, "example2_two_players_neutral.json", change))
    assert [r["score_influence"] for r in rows] == influence


@pytest.mark.parametrize("neutral, influence", [(0, [28, 4]), (3, [28, 2]), (9, [14, 2])])
def test_example2_position_neutral_cubes_rr_s14(tmp_path, neutral, influence):
    """config.neutral_cubes: 0 -> P2 second; 9 -> the neutral house first, P1 second, P2 third."""
    rows = score_position(variant_file(tmp_path, "example2_two_players_neutral.json",
                                       lambda d: d.update(config={"neutral_cubes": neutral})))
    assert [r["score_influence"] for r in rows] == influence


def test_example4_position_odd_rr_v40(tmp_path):
    rows = score_position(variant_file(tmp_path, "example4_solo_au_toma.json", lambda d: d.update(parity="odd")))
    assert [r["score_cards"] for r in rows] == [95, 87]
    assert [r["score"] for r in rows] == [149, 229]
    assert rows[1]["faction"] == "Au Toma" and rows[1]["is_automa"]


# ---- card points: end-bonus kinds (RR-E9, RR-R41, RR-R55..RR-R59) ------------------------------

def test_rr_e9_core_values_plus_bonuses_minus_penalties():
    """RR-E9, RR-R37: core values of the hand, plus end bonuses, minus penalties (negative bonuses)."""
    content = make_content(("W", "White", 15, [for_each(-3, colour=["Violet"])]),
                           ("V1", "Violet", 2), ("V2", "Violet", 1))
    assert cards_of(content, [["W", "V1", "V2"], []]) == [15 + 2 + 1 - 6, 0]


def test_rr_r41_r55_for_each_counts_only_the_other_hand_cards():
    """RR-R41, RR-R55: a Gold counting Golds does not count itself, nor Golds elsewhere."""
    content = make_content(("G1", "Gold", 5, [for_each(2, colour=["Gold"])]), ("G2", "Gold", 3),
                           ("G3", "Gold", 1), ("G4", "Gold", 1), ("G5", "Gold", 1))
    s = cards_of(content, [["G1", "G2"], ["G3"]], locations={"J": ["G4"]}, banished=["G5"])
    assert s == [5 + 3 + 2, 1]


def test_rr_r56_if_with_scores_once():
    """RR-R56: once if at least one other hand card matches, however many."""
    content = make_content(("R", "Red", 3, [if_with(10, colour=["Gold"])]),
                           ("G1", "Gold", 0), ("G2", "Gold", 0), ("G3", "Gold", 0),
                           ("S", "Gold", 0, [if_with(7, colour=["Gold"])]))
    assert cards_of(content, [["R", "G1", "G2", "G3"], []]) == [13, 0]
    assert cards_of(content, [["R"], ["G1"]]) == [3, 0]
    assert cards_of(content, [["S"], []]) == [0, 0]          # RR-R41: never itself


def test_rr_r57_if_with_no():
    """RR-R57: once if no other hand card matches."""
    content = make_content(("O", "Obsidian", 12, [if_with_no(10, colour=["Gold", "Obsidian"])]),
                           ("G", "Gold", 1), ("B", "Brown", 5))
    assert cards_of(content, [["O", "B"], ["G"]]) == [27, 1]   # itself an Obsidian: still +10
    assert cards_of(content, [["O", "G"], []]) == [13, 0]


def test_rr_r58_for_each_on_locations_counts_printed_board_cards():
    """RR-R58: all four stacks count, hand/banished/deck cards don't; a grey on the board stays Grey."""
    content = make_content(("B", "Blue", 4, [on_locations(2, colour=["Blue"])]),
                           ("B1", "Blue", 1), ("B2", "Blue", 2), ("B3", "Blue", 3), ("B4", "Blue", 4),
                           ("B5", "Blue", 5), ("B6", "Blue", 6), ("B7", "Blue", 7),
                           ("GR", "Grey", 0, [], GREY), ("GR2", "Grey", 0, [], GREY))
    s = cards_of(content, [["B", "B4", "GR2"], ["B5"]],
                 locations={"J": ["B1", "GR"], "M": ["B2"], "I": ["B3"]}, banished=["B6"])
    assert s == [4 + 4 + 0 + 3 * 2, 5]


def test_rr_r59_for_each_banished():
    """RR-R59: banished cards count whoever banished them; an empty filter counts them all."""
    content = make_content(("Y", "Yellow", 0, [banished_bonus(3, colour=["Gold"]), banished_bonus(1)]),
                           ("G1", "Gold", 0), ("G2", "Gold", 0), ("P", "Pink", 0), ("G3", "Gold", 0))
    s = cards_of(content, [["Y", "G3"], []], banished=["G1", "G2", "P"])
    assert s == [2 * 3 + 3 * 1, 0]


def test_rr_r66_parity_filter_zero_is_even():
    """RR-R66: for parity filters 0 is even."""
    content = make_content(("E", "Red", 1, [for_each(5, parity="even")]),
                           ("Z", "Red", 0), ("T", "Red", 2), ("N", "Red", 3))
    assert cards_of(content, [["E", "Z", "T", "N"], []])[0] == 1 + 0 + 2 + 3 + 2 * 5


def test_filter_keys_combine_rr_a2():
    """colour + not_colour + core range must all hold; names match the printed name."""
    content = make_content(("K", "Red", 0, [for_each(1, colour=["Gold", "Grey"], core_min=2, core_max=5),
                                            for_each(10, not_colour=["Gold"]),
                                            for_each(100, name=["Target"])]),
                           ("A", "Gold", 1), ("B", "Gold", 3), ("C", "Grey", 5), ("D", "Gold", 6),
                           ("E", "Pink", 0, [], {"name": "Target"}))
    assert cards_of(content, [["K", "A", "B", "C", "D", "E"], []])[0] == 15 + 2 * 1 + 2 * 10 + 100


# ---- wildcards (RR-R51..RR-R54, RR-A19) ----------------------------------------------------------

def choices(content, hands, automa=-1):
    arrays = game_arrays(content, hands, automa=automa)
    chosen = wildcard_choices(content, arrays["where"], arrays["automa_seat"], len(hands))[0]
    return {content.cards[c].id: " + ".join(v.values()) for c, v in chosen.items()}


def test_rr_r51_r52_orange_takes_only_the_name():
    """RR-R51, RR-R52: named "Warden" the orange card satisfies a name filter but not Warden's colour."""
    content = make_content(("O", "Orange", 1, [], ORANGE),
                           ("V", "Violet", 6, [if_with(8, name=["Warden"])]),
                           ("R", "Red", 3, [if_with(5, colour=["White"])]),
                           ("W", "White", 9, [], {"name": "Warden"}))
    assert cards_of(content, [["O", "V", "R"], []])[0] == 1 + 6 + 3 + 8
    assert choices(content, [["O", "V", "R"], []]) == {"O": "Warden"}


def test_rr_r53_same_name_gives_nothing_extra():
    """RR-R53: two cards of the same name score nothing for it; a name bonus counts once."""
    content = make_content(("T1", "Red", 2, [], {"name": "Twin"}), ("T2", "Blue", 3, [], {"name": "Twin"}),
                           ("K", "Gold", 1, [if_with(4, name=["Twin"])]))
    assert cards_of(content, [["T1", "T2"], []])[0] == 5
    assert cards_of(content, [["T1", "T2", "K"], []])[0] == 6 + 4


def test_rr_r54_grey_counts_as_grey_and_the_chosen_colour():
    """RR-R54: a grey card counts as Grey and as its chosen colour at once."""
    content = make_content(("GR", "Grey", 2, [], GREY),
                           ("G", "Gold", 10, [for_each(4, colour=["Obsidian"])]),
                           ("S", "Silver", 1, [for_each(3, colour=["Grey"])]))
    assert cards_of(content, [["GR", "G", "S"], []])[0] == 13 + 4 + 3
    assert choices(content, [["GR", "G", "S"], []]) == {"GR": "Obsidian"}


def test_rr_a19_declining_comes_first():
    """Every colour either changes nothing or costs points: the grey stays plain Grey."""
    content = make_content(("GR", "Grey", 2, [], GREY),
                           ("P", "Pink", 0, [if_with_no(10, colour=["Obsidian"])]),
                           ("S", "Silver", 0, [for_each(1, not_colour=["Red", "Blue"])]))
    assert cards_of(content, [["GR", "P", "S"], []])[0] == 2 + 10 + 2
    assert choices(content, [["GR", "P", "S"], []]) == {}


def test_rr_a19_first_best_colour_in_meta_order():
    """Obsidian and Pink tie: the one earlier in meta.colours wins."""
    specs = (("GR", "Grey", 0, [], GREY), ("G", "Gold", 0, [if_with(5, colour=["Obsidian"])]),
             ("S", "Silver", 0, [if_with(5, colour=["Pink"])]))
    assert choices(make_content(*specs), [["GR", "G", "S"], []]) == {"GR": "Obsidian"}
    reordered = tuple(c for c in COLOURS if c != "Obsidian") + ("Obsidian",)
    assert choices(make_content(*specs, colours=reordered), [["GR", "G", "S"], []]) == {"GR": "Pink"}


def test_rr_a19_names_in_card_index_order():
    content = make_content(("O", "Orange", 0, [], ORANGE), ("A", "Red", 0, [], {"name": "Alpha"}),
                           ("B", "Red", 0, [], {"name": "Bravo"}),
                           ("V", "Violet", 0, [if_with(5, name=["Bravo"])]),
                           ("U", "Blue", 0, [if_with(5, name=["Alpha"])]))
    assert choices(content, [["O", "V", "U"], []]) == {"O": "Alpha"}


def test_rr_a19_two_wildcards_in_one_hand_each_take_their_own_best():
    """RR-A19: two greys, two different bonuses: one becomes Obsidian, the other Pink (5 + 4)."""
    content = make_content(("GR1", "Grey", 0, [], GREY), ("GR2", "Grey", 0, [], GREY),
                           ("G", "Gold", 0, [if_with(5, colour=["Obsidian"])]),
                           ("S", "Silver", 0, [if_with(4, colour=["Pink"])]))
    assert choices(content, [["GR1", "GR2", "G", "S"], []]) == {"GR1": "Obsidian", "GR2": "Pink"}
    assert cards_of(content, [["GR1", "GR2", "G", "S"], []])[0] == 9


def test_rr_a19_interacting_wildcards_take_the_best_assignment_not_one_at_a_time():
    """RR-A19 at final scoring: two greys, "+10 if with no Blue" and "+6 for each Blue". One at a
    time, each grey stays Grey (Blue alone: +6 - 10), scoring 10; together both Blue score 12."""
    content = make_content(("GR1", "Grey", 0, [], GREY), ("GR2", "Grey", 0, [], GREY),
                           ("N", "Red", 0, [if_with_no(10, colour=["Blue"])]),
                           ("E", "Gold", 0, [for_each(6, colour=["Blue"])]))
    hands = [["GR1", "GR2", "N", "E"], []]
    assert cards_of(content, hands)[0] == 12
    assert choices(content, hands) == {"GR1": "Blue", "GR2": "Blue"}
    where = game_arrays(content, hands)["where"][0]
    assert reference_scores(content, Config(), where, [0, 0], [0, 0], [0, 0], -1, -1, 0)[0]["score_cards"] == 12


def test_rr_a19_the_best_assignment_is_the_first_best():
    """RR-A19: Obsidian + Pink (+6 + 5 = 11) beats Pink + Pink (2 x 5 = 10)."""
    content = make_content(("GR1", "Grey", 0, [], GREY), ("GR2", "Grey", 0, [], GREY),
                           ("G", "Gold", 0, [if_with(6, colour=["Obsidian"])]),
                           ("S", "Silver", 0, [for_each(5, colour=["Pink"])]))
    assert choices(content, [["GR1", "GR2", "G", "S"], []]) == {"GR1": "Obsidian", "GR2": "Pink"}
    assert cards_of(content, [["GR1", "GR2", "G", "S"], []])[0] == 11


def test_rr_a19_pinned_wildcard_choices_are_kept():
    """RR-A19: a choice pinned in advance (position files) is kept; the other wildcard takes the best
    given it. Pinning GR1 to Pink leaves GR2 Obsidian (+5 + 6 = 11, GR1 Obsidian was the search's
    choice); pinning both to Obsidian scores only G's +6."""
    content = make_content(("GR1", "Grey", 0, [], GREY), ("GR2", "Grey", 0, [], GREY),
                           ("G", "Gold", 0, [if_with(6, colour=["Obsidian"])]),
                           ("S", "Silver", 0, [for_each(5, colour=["Pink"])]))
    hands = [["GR1", "GR2", "G", "S"], []]
    arrays = game_arrays(content, hands)
    ids = {c.id: c.index for c in content.cards}
    pins = [{ids["GR1"]: {"colour": "Pink"}}]
    out = score_final(content, Config(), **arrays, pinned=pins)
    assert out["score_cards"][0, 0] == 11
    chosen = wildcard_choices(content, arrays["where"], arrays["automa_seat"], 2, pinned=pins)[0]
    assert chosen == {ids["GR1"]: {"colour": "Pink"}, ids["GR2"]: {"colour": "Obsidian"}}
    pins = [{ids["GR1"]: {"colour": "Obsidian"}, ids["GR2"]: {"colour": "Obsidian"}}]
    assert score_final(content, Config(), **arrays, pinned=pins)["score_cards"][0, 0] == 6


def test_rr_a19_own_terms_ignore_own_choice():
    """A grey's own bonus counts the other cards, so its choice is made for the rest of the hand."""
    content = make_content(("GR", "Grey", 1, [for_each(3, colour=["Gold"])], GREY),
                           ("G", "Gold", 0), ("R", "Red", 0, [if_with(2, colour=["Blue"])]))
    assert cards_of(content, [["GR", "G", "R"], []])[0] == 1 + 3 + 2
    assert choices(content, [["GR", "G", "R"], []]) == {"GR": "Blue"}


def test_rr_a19_card_with_both_wildcards_takes_its_best_pair():
    """RR-A19: a card with both wildcards gets the best (name, colour) pair: Obsidian and no name,
    +5 (C) + 10 (B), beats Alpha alone (+3 + 10) and both (+3 + 5, B lost). One at a time, name
    first, would have kept Alpha (13)."""
    content = make_content(("D", "Grey", 0, [], {**GREY, **ORANGE}), ("AL", "Red", 0, [], {"name": "Alpha"}),
                           ("A", "Red", 0, [if_with(3, name=["Alpha"])]),
                           ("B", "Red", 0, [if_with_no(10, colour=["Obsidian"], name=["Alpha"])]),
                           ("C", "Red", 0, [if_with(5, colour=["Obsidian"])]))
    assert choices(content, [["D", "A", "B", "C"], []]) == {"D": "Obsidian"}
    assert cards_of(content, [["D", "A", "B", "C"], []])[0] == 15


def test_rr_a19_a27_wildcards_elsewhere_or_with_au_toma_choose_nothing():
    content = make_content(("GR", "Grey", 0, [], GREY), ("G", "Gold", 0, [if_with(5, colour=["Obsidian"])]))
    assert choices(content, [["G"], ["GR"]], automa=1) == {}
    assert choices(content, [["G"], []]) == {}


# ---- hand comparisons (RR-V48) ------------------------------------------------------------------

def test_hand_compare_between_players():
    content = make_content(("PS", "Yellow", 0, [hand_compare(10, "more_than_each_opponent")]),
                           ("FW", "Yellow", 0, [hand_compare(7, "fewer_than_each_opponent")]),
                           *[(f"X{i}", "Red", 0) for i in range(8)])
    x = [f"X{i}" for i in range(8)]
    assert cards_of(content, [["PS", x[0], x[1]], [x[2], x[3]], [x[4]]]) == [10, 0, 0]
    assert cards_of(content, [["PS", x[0]], [x[2], x[3]], [x[4]]]) == [0, 0, 0]      # a tie is not more
    assert cards_of(content, [["FW"], [x[2], x[3]], [x[4], x[5]]]) == [7, 0, 0]
    assert cards_of(content, [["FW"], [x[2]], [x[4], x[5]]]) == [0, 0, 0]


@pytest.mark.parametrize("automa_cards, bonus", [(20, 10), (21, 0), (23, 0), (24, 0), (17, 10)])
def test_rr_v48_au_toma_hand_counts_a_third_before_reduction(automa_cards, bonus):
    """Psychologist with 7 cards vs Au Toma: her size is floor(n/3), taken before RR-V41."""
    content = make_content(("PS", "Yellow", 0, [hand_compare(10, "more_than_each_opponent")]),
                           *[(f"X{i}", "Red", 0) for i in range(40)])
    player = ["PS"] + [f"X{i}" for i in range(6)]
    automa = [f"X{i}" for i in range(6, 6 + automa_cards)]
    assert cards_of(content, [player, automa], automa=1)[0] == bonus


# ---- Au Toma (RR-V37..RR-V43, RR-A9, RR-A23, RR-A27) --------------------------------------------

def au_toma_content():
    return make_content(*[(f"E{i}", "Red", 2 * i) for i in range(15)],
                        *[(f"O{i}", "Blue", 2 * i + 1) for i in range(15)],
                        ("B", "Gold", 9, [for_each(5, colour=["Red"])]))


def test_rr_v38_v40_v42_start_points_and_parity():
    """RR-V38, RR-V40, RR-V42: 70 + 6 per matching + 3 per other; core 0 counts as even (RR-R66)."""
    content = au_toma_content()
    s = score_one(content, [[], ["E0", "E1", "O0"]], automa=1, parity=0)
    assert s["score_automa_base"] == [0, 70]
    assert s["score_cards"] == [0, 2 * 6 + 3]
    assert score_one(content, [[], ["E0", "E1", "O0"]], automa=1, parity=1)["score_cards"] == [0, 6 + 2 * 3]


@pytest.mark.parametrize("matching, other, expected", [
    (15, 9, 15 * 6 + 5 * 3),      # drop 4 non-matching
    (15, 4, 15 * 6 + 4 * 3),      # 19 cards: nothing dropped
    (15, 5, 15 * 6 + 5 * 3),      # exactly 20
    (15, 7, 15 * 6 + 5 * 3),
    (15, 15, 15 * 6 + 5 * 3),
])
def test_rr_v41_reduction_drops_non_matching_first(matching, other, expected):
    content = au_toma_content()
    hand = [f"E{i}" for i in range(matching)] + [f"O{i}" for i in range(other)]
    assert cards_of(content, [[], hand], automa=1, parity=0)[1] == expected


def test_rr_v41_then_matching_cards():
    content = make_content(*[(f"E{i}", "Red", 2 * i) for i in range(25)], ("O", "Red", 1))
    hand = [f"E{i}" for i in range(22)] + ["O"]
    assert cards_of(content, [[], hand], automa=1, parity=0)[1] == 20 * 6


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_rr_v43_a9_difficulty_levels(level):
    """Level table of the default tables.toml (RR-A9): points per matching / non-matching card."""
    content = dataclasses.replace(au_toma_content(), automa_levels=default_content().automa_levels)
    matching, other = LEVELS[level]
    s = score_one(content, [[], ["E1", "E2", "O1"]], Config(players=1, automa_level=level), automa=1, parity=0)
    assert s["score_cards"][1] == 2 * matching + other
    assert s["score_automa_base"][1] == 70


def test_rr_v39_au_toma_fleet_helium_sovereign_influence_like_a_player():
    """RR-V39: fleet, helium, Sovereign and influence (neutral house as third) as for a player."""
    content = au_toma_content()
    s = score_one(content, [["E0"], ["E1"]], helium=[1, 10], fleet=[2, 10], cubes=[2, 5],
                  sovereign=1, automa=1)
    assert s["score_fleet"] == [RR_A6_FLEET[2], RR_A6_FLEET[10]]
    assert s["score_helium"] == [3, 30]
    assert s["score_sovereign"] == [0, 10]
    assert s["score_influence"] == [2 * 1, 5 * 4]          # neutral 3 cubes second (RR-E15)


def test_rr_a23_a27_au_toma_no_penalty_no_end_bonuses_not_counted_by_the_player():
    """Her 9 cards: no hand penalty, her Gold's bonus is ignored, the player's Gold ignores her Reds."""
    content = au_toma_content()
    s = score_one(content, [["B"], ["B", "E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8"][1:] + ["O1"]],
                  automa=1, parity=0)
    assert s["score_hand_penalty"] == [0, 0]
    assert s["score_cards"] == [9, 8 * 6 + 3]
    s = score_one(content, [["E0"], ["B"] + [f"E{i}" for i in range(1, 10)]], automa=1, parity=1)
    assert s["score_cards"][1] == 3 * 9 + 6          # B (core 9) matches ODD; no +5 per Red
    assert s["score_hand_penalty"] == [0, 0]


# ---- fleet, helium, Sovereign, influence, penalty (RR-E10..RR-E16) ------------------------------

def simple_content(n=12):
    return make_content(*[(f"C{i}", "Red", 1) for i in range(n)])


def test_rr_e10_fleet_points_by_space():
    """RR-E10: the points printed under the fleet space (tables.toml, RR-A6)."""
    s = score_one(simple_content(), [[], [], []], fleet=[0, 7, 10])
    assert s["score_fleet"] == [0, RR_A6_FLEET[7], RR_A6_FLEET[10]]


def test_rr_e11_e12_helium_and_sovereign_points_from_config():
    """RR-E11: 3 per helium; RR-E12, RR-R26: 10 to the Sovereign holder; both sweepable in the config."""
    s = score_one(simple_content(), [[], [], []], helium=[0, 4, 9], sovereign=2)
    assert s["score_helium"] == [0, 12, 27]
    assert s["score_sovereign"] == [0, 0, 10]
    s = score_one(simple_content(), [[], [], []], Config(helium_points=5, sovereign_points=7),
                  helium=[0, 4, 9], sovereign=0)
    assert s["score_helium"] == [0, 20, 45] and s["score_sovereign"] == [7, 0, 0]


@pytest.mark.parametrize("cubes, dense, competition", [
    ([5, 5, 3, 3, 1], [20, 20, 6, 6, 1], [20, 20, 3, 3, 1]),
    ([6, 4, 4, 2], [24, 8, 8, 2], [24, 8, 8, 2]),
    ([3, 3, 3], [12, 12, 12], [12, 12, 12]),
    ([0, 0, 2, 1, 1, 1], [0, 0, 8, 2, 2, 2], [0, 0, 8, 2, 2, 2]),
    ([10, 0, 0], [40, 0, 0], [40, 0, 0]),
])
def test_rr_e13_e14_a11_influence_tie_modes(cubes, dense, competition):
    """RR-E13, RR-E14, RR-A11: 4/2/1 per cube by place; ties share a place; the next place by mode."""
    hands = [[] for _ in cubes]
    assert score_one(simple_content(), hands, cubes=cubes)["score_influence"] == dense
    assert score_one(simple_content(), hands, Config(influence_tie_mode="competition"),
                     cubes=cubes)["score_influence"] == competition


def test_rr_e15_neutral_house_only_with_two_seats():
    """RR-E15, RR-S14: the neutral house takes a place with two seats only; neutral_cubes sets its size."""
    assert score_one(simple_content(), [[], []], cubes=[2, 1])["score_influence"] == [4, 1]     # neutral first
    assert score_one(simple_content(), [[], [], []], cubes=[2, 1, 0])["score_influence"] == [8, 2, 0]
    assert score_one(simple_content(), [[], []], Config(neutral_cubes=0),
                     cubes=[2, 1])["score_influence"] == [8, 2]


@pytest.mark.parametrize("size, penalty", [(0, 0), (7, 0), (8, -10), (10, -30)])
def test_rr_e16_hand_penalty(size, penalty):
    """RR-E16: -10 per card above seven; the cards' own points are kept."""
    hand = [f"C{i}" for i in range(size)]
    s = score_one(simple_content(), [hand, []])
    assert s["score_hand_penalty"] == [penalty, 0]
    assert s["score_cards"][0] == size                  # RR-E16: points of step 2 are kept


def test_rr_e16_hand_limit_and_penalty_from_config():
    hand = [f"C{i}" for i in range(8)]
    s = score_one(simple_content(), [hand, []], Config(hand_limit=5, hand_penalty=4))
    assert s["score_hand_penalty"] == [-12, 0]


# ---- winner (RR-E17..RR-E20) ---------------------------------------------------------------------

def test_rr_e17_highest_total_wins():
    """RR-E17: the highest total wins."""
    s = score_one(simple_content(), [[], [], []], helium=[1, 3, 2])
    assert s["rank"] == [3, 1, 2] and s["win_share"] == [0.0, 1.0, 0.0]


def test_rr_e18_sovereign_holder_wins_a_tie():
    """RR-E18, RR-R26: among tied leaders the Sovereign holder wins alone."""
    s = score_one(simple_content(), [[], [], []], helium=[10, 7, 10], sovereign=1)
    assert s["score"] == [30, 31, 30]
    s = score_one(simple_content(), [[], [], []], helium=[10, 0, 10], fleet=[0, 0, 0], sovereign=2,
                  cubes=[0, 0, 0], config=Config(sovereign_points=0))
    assert s["score"] == [30, 0, 30]
    assert s["rank"] == [2, 3, 1] and s["win_share"] == [0.0, 0.0, 1.0]


def test_rr_e19_tied_without_sovereign_share():
    """RR-E19: tied leaders without the token share the victory (1/k each)."""
    s = score_one(simple_content(), [[], [], [], []], helium=[4, 4, 4, 1], sovereign=3)
    assert s["score"] == [12, 12, 12, 13]
    s = score_one(simple_content(), [[], [], [], []], helium=[4, 4, 4, 0], sovereign=3)
    assert s["rank"] == [1, 1, 1, 4]
    assert s["win_share"] == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0.0])


def test_rr_e20_high_scores_are_plain_totals():
    """RR-E20: 300 or more is only a high score; nothing changes."""
    s = score_one(simple_content(), [[], []], helium=[100, 0])
    assert s["score"] == [300, 0] and s["rank"] == [1, 2]


def test_rr_a19_position_files_pin_wildcard_choices(tmp_path):
    """RR-A19: a seat's ``wildcards`` pins a choice. GRE-2 (core 7) with YEL-1 (core 1, +4 for each
    Green): free, the grey counts as Green, 7 + 1 + 4; pinned to Blue it gains nothing, 7 + 1;
    pinned to null it declines. Bad pins are input errors naming the key."""
    def seat(**extra):
        return {"players": [{"hand": ["GRE-2", "YEL-1"], **extra}, {}]}
    free = score_position(write(tmp_path, seat()))[0]
    assert free["score_cards"] == 12 and free["wildcards"] == {"GRE-2": {"colour": "Green"}}
    blue = score_position(write(tmp_path, seat(wildcards={"GRE-2": {"colour": "Blue"}})))[0]
    assert blue["score_cards"] == 8 and blue["wildcards"] == {"GRE-2": {"colour": "Blue"}}
    declined = score_position(write(tmp_path, seat(wildcards={"GRE-2": {"colour": None}})))[0]
    assert declined["score_cards"] == 8 and declined["wildcards"] == {}
    for pins, place, words in (({"YEL-1": {"colour": "Green"}}, "players[0].wildcards.YEL-1.colour",
                                "has no colour wildcard"),
                               ({"GRE-1": {"colour": "Green"}}, "players[0].wildcards.GRE-1", "not in this seat's hand"),
                               ({"GRE-2": {"colour": "Mauve"}}, "players[0].wildcards.GRE-2.colour", "expected one of"),
                               ({"GRE-2": {"hue": "Blue"}}, "players[0].wildcards.GRE-2.hue", "unknown"),
                               ({"GRE-2": "Blue"}, "players[0].wildcards.GRE-2", "expected an object")):
        message = error_of(write(tmp_path, seat(wildcards=pins)))
        assert place in message and words in message, message


# ---- bad position files ---------------------------------------------------------------------------

GOOD = {
    "deck_file": str(EXAMPLES / "worked_examples_deck.toml"),
    "players": [{"hand": ["E2-P1-RED-4"], "helium": 1}, {"hand": ["E2-P1-RED-6"], "sovereign": True}],
}


def write(tmp_path, data, name="pos.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2))
    return path


def error_of(path) -> str:
    with pytest.raises(InputError) as info:
        score_position(path)
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(path))
    return message


def with_seat(i, **changes):
    data = json.loads(json.dumps(GOOD))
    data["players"][i].update(changes)
    return data


def test_good_minimal_position_scores(tmp_path):
    rows = score_position(write(tmp_path, GOOD))
    assert [r["score"] for r in rows] == [4 + 3 + 0, 6 + 10]
    assert [r["faction"] for r in rows] == ["none", "none"]


@pytest.mark.parametrize("data, place, words", [
    (with_seat(1, hand=["E2-P1-RED-6", "E2-P1-GOLD-11", "E1-A-RED-8", "NOPE"]), "players[1].hand[3]",
     "unknown card id 'NOPE'"),
    (with_seat(1, hand=["E2-P1-RED-4"]), "players[1].hand[0]", "placed twice (also at players[0].hand[0])"),
    (with_seat(0, sovereign=True), "players[1].sovereign", "two Sovereign holders"),
    (with_seat(0, helum=3), "players[0].helum", "did you mean 'helium'"),
    (with_seat(0, helium="3"), "players[0].helium", "expected an integer"),
    (with_seat(0, sovereign=1), "players[0].sovereign", "expected true or false"),
    (with_seat(0, cubes=-1), "players[0].cubes", "from 0 to 10"),
    (with_seat(0, cubes=11), "players[0].cubes", "from 0 to 10"),
    (with_seat(0, helium=-2), "players[0].helium", "expected a whole number"),
    (with_seat(0, fleet=11), "players[0].fleet", "from 0 to 10"),
    (with_seat(0, hand="E2-P1-RED-4"), "players[0].hand", "expected a list of card ids"),
    (with_seat(0, hand=[3]), "players[0].hand[0]", "expected a card id"),
    (with_seat(0, house="Venus"), "players[0].house", "expected one of Apollo"),
    ({**with_seat(0, house="Mars"), "players": [{"house": "Mars"}, {"house": "Mars"}]}, "players[1].house",
     "already at players[0]"),
    ({**GOOD, "players": [{}] * 7}, "players", "expected 2 to 6 seats"),
    ({**GOOD, "players": [{}]}, "players", "expected 2 to 6 seats"),
    ({**GOOD, "players": [{}, 3]}, "players[1]", "expected an object"),
    ({**GOOD, "players": {}}, "players", "expected a list"),
    ({k: v for k, v in GOOD.items() if k != "players"}, "players", "missing"),
    ({**GOOD, "playerz": []}, "playerz", "did you mean 'players'"),
    ({**GOOD, "locations": {"Venus": []}}, "locations.Venus", "unknown key"),
    ({**GOOD, "locations": {"Luna": ["E2-P1-RED-4"]}}, "locations.Luna[0]", "placed twice"),
    ({**GOOD, "banished": ["E2-P1-RED-6"]}, "banished[0]", "placed twice (also at players[1].hand[0])"),
    ({**GOOD, "config": {"influence_tie_mode": "fancy"}}, "config.influence_tie_mode", "expected one of"),
    ({**GOOD, "config": {"hand_limt": 3}}, "config.hand_limt", "did you mean 'hand_limit'"),
    ({**GOOD, "config": {"players": 3}}, "config.players", "expected 2"),
    ({**GOOD, "config": {"houses": ["Mars"]}}, "config.houses", "players[i].house"),
    ({**GOOD, "config": []}, "config", "expected an object"),
    ({**GOOD, "config": {"deck_file": "x.toml"}}, "deck_file", "given twice"),
    ({**GOOD, "parity": "odd"}, "parity", "only used in the solo game"),
    ({**GOOD, "fleet_points": [1]}, "fleet_points", "at least two"),
    ({**GOOD, "fleet_points": [0, -1]}, "fleet_points", "at least two whole numbers >= 0"),
    (with_seat(1, automa=True), "parity", "missing"),
    ({**with_seat(1, automa=True), "parity": "both"}, "parity", "expected \"odd\" or \"even\""),
    ({**with_seat(1, automa=True, house="Mars"), "parity": "odd"}, "players[1].house", "Au Toma has no house"),
    ({**with_seat(1, automa=True, helium=11), "parity": "odd"}, "players[1].helium", "from 0 to 10"),  # RR-V32
    ({**GOOD, "players": [{"automa": True}, {"automa": True}]}, "players[1].automa", "only one seat"),
    ({**GOOD, "players": [{}, {"automa": True}, {}]}, "players[1].automa", "expected 2 seats"),
    ({**GOOD, "players": [{"automa": "yes"}, {}]}, "players[0].automa", "expected true or false"),
])
def test_bad_positions(tmp_path, data, place, words):
    message = error_of(write(tmp_path, data))
    assert f": {place}: " in message and words in message, message


def test_bad_position_unknown_card_suggests_a_close_id(tmp_path):
    message = error_of(write(tmp_path, {"players": [{"hand": ["GOL-55"]}, {}]}))
    assert message.endswith(": players[0].hand[0]: unknown card id 'GOL-55'; did you mean 'GOL-5'?")


def test_bad_position_missing_file(tmp_path):
    assert "file not found" in error_of(tmp_path / "nowhere.json")


def test_bad_position_invalid_json_names_the_line(tmp_path):
    message = error_of(write(tmp_path, '{\n  "players": [\n    {"hand": [}\n  ]\n}\n'))
    assert ": line 3, column " in message and "invalid JSON" in message


def test_bad_position_not_an_object(tmp_path):
    assert "expected an object at the top level, got [1, 2]" in error_of(write(tmp_path, "[1, 2]"))


def test_bad_position_missing_deck_file(tmp_path):
    """A relative deck_file is read next to the position file; the loader's error names it."""
    message = error_of(write(tmp_path, {**GOOD, "deck_file": "missing_deck.toml"}))
    assert "deck_file" in message and "missing_deck.toml" in message


def test_bad_position_solo_removed_card_rr_v6(tmp_path):
    """RR-V6 / RR-V45: the five removed cards are out of a solo position unless re-added."""
    data = {"players": [{"hand": ["GOL-4"]}, {"automa": True}], "parity": "even"}
    message = error_of(write(tmp_path, data))
    assert ": players[0].hand[0]: " in message and "removed from the solo game" in message
    data["config"] = {"solo_readd_removed": True}
    assert score_position(write(tmp_path, data, "readd.json"))[0]["hand_size"] == 1


def test_position_deck_file_relative_to_the_position(tmp_path):
    deck = tmp_path / "decks" / "d.toml"
    deck.parent.mkdir()
    deck.write_text((EXAMPLES / "worked_examples_deck.toml").read_text())
    sub = tmp_path / "sub"
    sub.mkdir()
    path = write(sub, {**GOOD, "deck_file": "../decks/d.toml", "config": {"hand_limit": 0}})
    assert [r["score_hand_penalty"] for r in score_position(path)] == [-10, -10]
    assert load_position(path).content.deck_name == "worked-examples"


def test_position_default_deck_when_no_deck_file(tmp_path):
    rows = score_position(write(tmp_path, {"players": [{"hand": ["RED-1"], "house": "Ceres"}, {}]}))
    assert rows[0]["faction"] == "Ceres" and rows[0]["score_cards"] == default_content().cards[0].core


# ---- properties over random batches ---------------------------------------------------------------

def reference_match(filt: Filter, colours, names, core) -> bool:
    """Plain restatement of RR-A2 filters for the reference scorer."""
    return ((filt.colour is None or any(c in filt.colour for c in colours))
            and (filt.not_colour is None or not any(c in filt.not_colour for c in colours))
            and (filt.name is None or any(n in filt.name for n in names))
            and (filt.parity is None or filt.parity == ("even" if core % 2 == 0 else "odd"))
            and (filt.core_min is None or core >= filt.core_min)
            and (filt.core_max is None or core <= filt.core_max))


def reference_scores(content, config, where, helium, fleet, cubes, sovereign, automa, parity):
    """One game, the rules read literally: scores per seat (a cross-check of the vectorised code)."""
    seats = len(helium)
    hands = [[c for c in content.cards if where[c.index] == zones.hand(p)] for p in range(seats)]
    board = [c for c in content.cards if where[c.index] <= zones.INSTITUTE]
    banished = [c for c in content.cards if where[c.index] == zones.BANISHED]
    sizes = [len(h) for h in hands]
    names = list(dict.fromkeys(c.name for c in content.cards))

    def counts_as(card, fixed):
        colours, card_names = {card.colour}, {card.name}
        if fixed.get((card.index, "colour")):
            colours.add(fixed[card.index, "colour"])
        if fixed.get((card.index, "name")):
            card_names.add(fixed[card.index, "name"])
        return colours, card_names, card.core

    def card_points(p, fixed):
        total = 0
        for card in hands[p]:
            total += card.core
            others = [c for c in hands[p] if c is not card]
            for term in card.end_bonus:
                if term.kind == "hand_compare":
                    opp = [sizes[q] // 3 if q == automa else sizes[q] for q in range(seats) if q != p]
                    more = term.compare == "more_than_each_opponent"
                    won = all(sizes[p] > o for o in opp) if more else all(sizes[p] < o for o in opp)
                    total += term.points * won
                    continue
                if term.kind == "for_each_on_locations":
                    n = sum(reference_match(term.filter, {c.colour}, {c.name}, c.core) for c in board)
                elif term.kind == "for_each_banished":
                    n = sum(reference_match(term.filter, {c.colour}, {c.name}, c.core) for c in banished)
                else:
                    n = sum(reference_match(term.filter, *counts_as(c, fixed)) for c in others)
                if term.kind == "if_with":
                    n = n > 0
                elif term.kind == "if_with_no":
                    n = n == 0
                total += term.points * n
        return total

    def best(p):
        """Every combination of the hand's wildcard choices (RR-A19); colours and names that no
        end bonus of the hand mentions change nothing, so they are left out."""
        filters = [term.filter for card in hands[p] for term in card.end_bonus]
        mentioned = {x for f in filters for x in (f.colour or ()) + (f.not_colour or ()) + (f.name or ())}
        slots, options = [], []
        for card in hands[p]:
            for kind, flag in (("name", card.name_wildcard), ("colour", card.colour_wildcard)):
                if flag:
                    own = card.colour if kind == "colour" else card.name
                    pool = content.colours if kind == "colour" else names
                    slots.append((card.index, kind))
                    options.append([None] + [x for x in pool if x in mentioned and x != own])
        return max(card_points(p, dict(zip(slots, combo))) for combo in itertools.product(*options))

    def influence(p):
        entries = list(cubes) + ([config.neutral_cubes] if seats == 2 else [])
        if config.influence_tie_mode == "dense":
            place = len({e for e in entries if e > cubes[p]})
        else:
            place = sum(e > cubes[p] for e in entries)
        return (4, 2, 1)[min(place, 2)] * cubes[p]

    level = content.automa_levels[config.automa_level]
    out = []
    for p in range(seats):
        row = {"score_fleet": content.fleet_points[fleet[p]], "score_helium": config.helium_points * helium[p],
               "score_sovereign": config.sovereign_points * (sovereign == p), "score_influence": influence(p)}
        if p == automa:
            match = sum(c.core % 2 == parity for c in hands[p])
            other = sizes[p] - match
            excess = max(sizes[p] - content.automa_hand_limit, 0)
            drop = min(other, excess)
            row.update(score_cards=level.matching * (match - (excess - drop)) + level.non_matching * (other - drop),
                       score_hand_penalty=0, score_automa_base=level.start_points)
        else:
            row.update(score_cards=best(p), score_automa_base=0,
                       score_hand_penalty=-config.hand_penalty * max(sizes[p] - config.hand_limit, 0))
        row["score"] = sum(row[k] for k in COMPONENTS)
        out.append(row)
    return out


def random_batch(content, batch, seats, rng, solo_share=0.5, max_hand=12):
    """Random end states: hands of 0..max_hand cards, the rest on the board, banished, deck or out."""
    n = len(content.cards)
    where = np.empty((batch, n), dtype=np.int16)
    automa = np.full(batch, -1)
    for b in range(batch):
        order = rng.permutation(n)
        sizes = rng.integers(0, max_hand + 1, seats)
        if sizes.sum() > n:                        # a small deck: shrink the hands to fit
            sizes = sizes * n // sizes.sum()
        if seats == 2 and rng.random() < solo_share:
            automa[b] = rng.integers(0, 2)
            room = n - sizes.sum() + sizes[automa[b]]
            sizes[automa[b]] = rng.integers(0, min(27, room) + 1)
        codes = np.concatenate([np.full(k, zones.hand(p)) for p, k in enumerate(sizes)]) if sizes.sum() else []
        rest = rng.choice([0, 1, 2, 3, zones.DECK, zones.DECK, zones.BANISHED, zones.OUT], n - len(codes))
        where[b, order] = np.concatenate([codes, rest])[: n]
    fleet_max = len(content.fleet_points) - 1
    return dict(where=where, helium=rng.integers(0, 12, (batch, seats)),
                fleet=rng.integers(0, fleet_max + 1, (batch, seats)),
                cubes=rng.integers(0, 11, (batch, seats)), sovereign=rng.integers(-1, seats, batch),
                automa_seat=automa, parity=rng.integers(0, 2, batch))


def wildcard_content():
    """A small deck where wildcards, names and every end-bonus kind collide often."""
    return make_content(
        ("GR1", "Grey", 1, [for_each(2, colour=["Gold"])], GREY),
        ("OR1", "Orange", 2, [if_with(5, name=["Alpha"])], ORANGE),
        ("GR2", "Grey", 0, [if_with_no(4, colour=["Obsidian"])], {**GREY, **ORANGE}),
        ("AL", "Gold", 3, [if_with(6, colour=["Obsidian"])], {"name": "Alpha"}),
        ("BR", "Gold", 4, [for_each(3, colour=["Pink"]), for_each(-2, not_colour=["Gold", "Grey"])],
         {"name": "Bravo"}),
        ("OB", "Obsidian", 5, [if_with(4, name=["Bravo"]), on_locations(1, colour=["Gold"])]),
        ("PK", "Pink", 6, [if_with_no(7, colour=["Pink"]), banished_bonus(2, colour=["Grey"])]),
        ("OR2", "Orange", 7, [hand_compare(9, "more_than_each_opponent")], ORANGE),
        ("YE", "Yellow", 0, [hand_compare(5, "fewer_than_each_opponent"), for_each(1, parity="even")]),
        ("RD", "Red", 8, [for_each(2, colour=["Grey"], core_max=2)]),
        ("CJ", "Copper", 1, [if_with_no(6, colour=["Gold"], name=["Alpha"]),
                             for_each(3, colour=["Obsidian", "Pink"], name=["Bravo", "Alpha"])]),
        *[(f"F{i}", COLOURS[i % 14], i) for i in range(28)],
    )


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
@pytest.mark.parametrize("which", ["default", "wildcards"])
def test_property_batches_match_the_reference_and_single_games(seats, which):
    """score = sum of components, win shares sum to 1, batch == each game alone == the reference."""
    content = default_content() if which == "default" else wildcard_content()
    rng = np.random.default_rng(1000 * seats + len(which))
    for config in (Config(), Config(influence_tie_mode="competition", hand_limit=5, neutral_cubes=4,
                                    automa_level=5, helium_points=2)):
        arrays = random_batch(content, 40, seats, rng, max_hand=12 if which == "default" else 9)
        result = score_final(content, config, **arrays)
        assert set(result) == set(COMPONENTS) | {"score", "rank", "win_share"}
        total = sum(result[k] for k in COMPONENTS)
        assert np.array_equal(result["score"], total)
        assert all(result[k].dtype == np.int32 for k in COMPONENTS + ("score",))
        assert result["rank"].dtype == np.int8 and result["win_share"].dtype == np.float64
        assert np.allclose(result["win_share"].sum(axis=1), 1.0)
        assert (result["score_hand_penalty"] <= 0).all()
        for b in range(arrays["where"].shape[0]):
            alone = score_final(content, config, **{k: v[b:b + 1] for k, v in arrays.items()})
            for key in result:
                assert np.array_equal(alone[key][0], result[key][b]), (b, key)
            expected = reference_scores(content, config, arrays["where"][b], arrays["helium"][b].tolist(),
                                        arrays["fleet"][b].tolist(), arrays["cubes"][b].tolist(),
                                        int(arrays["sovereign"][b]), int(arrays["automa_seat"][b]),
                                        int(arrays["parity"][b]))
            for p, row in enumerate(expected):
                for key, value in row.items():
                    assert result[key][b, p] == value, (b, p, key)


def test_property_rank_matches_the_tie_rule():
    """rank = 1 + #seats with a greater (score, holds Sovereign); shares 1/k over rank 1."""
    content = default_content()
    rng = np.random.default_rng(7)
    arrays = random_batch(content, 200, 4, rng, max_hand=3)
    arrays["helium"] = rng.integers(0, 3, (200, 4))          # many ties
    result = score_final(content, Config(), **arrays)
    for b in range(200):
        key = [(int(s), int(arrays["sovereign"][b] == p)) for p, s in enumerate(result["score"][b])]
        ranks = [1 + sum(k2 > k1 for k2 in key) for k1 in key]
        assert result["rank"][b].tolist() == ranks
        k = ranks.count(1)
        assert result["win_share"][b].tolist() == [1 / k if r == 1 else 0.0 for r in ranks]


def test_docs_positions_example_is_valid(tmp_path):
    """The full example of docs/positions.md scores as it says (worked example 2)."""
    text = (ROOT / "docs" / "positions.md").read_text()
    block = text.split("```json\n", 1)[1].split("```", 1)[0]
    data = json.loads(block)
    data["deck_file"] = str(EXAMPLES / data["deck_file"])
    rows = score_position(write(tmp_path, data))
    assert [r["score"] for r in rows] == [104, 80]
    assert [r["faction"] for r in rows] == ["Diana", "Mars"]


def test_rr_a19_wildcard_search_in_small_chunks_finds_the_same_assignments(monkeypatch):
    """RR-A19: the search over a hand's wildcard assignments goes in chunks (memory bound); chunks
    of 3 combinations give the same scores and choices as one chunk."""
    from sim.games.red_rising import scoring

    content = wildcard_content()
    arrays = random_batch(content, 60, 3, np.random.default_rng(5), max_hand=9)
    whole = score_final(content, Config(), **arrays)
    chosen = wildcard_choices(content, arrays["where"], arrays["automa_seat"], 3)
    monkeypatch.setattr(scoring, "_SEARCH_CHUNK", 3)
    small = score_final(content, Config(), **arrays)
    assert np.array_equal(small["score_cards"], whole["score_cards"])
    assert wildcard_choices(content, arrays["where"], arrays["automa_seat"], 3) == chosen
    assert sum(len(c) for c in chosen) > 20                          # many hands do hold wildcards
