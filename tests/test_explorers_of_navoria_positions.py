"""Scoring described end-of-game positions of Explorers of Navoria (docs/explorers_of_navoria_positions.md):
the spec's worked example X5 pins the final scoring (EN-E3, EN-E4, EN-E7, EN-E8), and every mistake
in a position file is a one-line InputError naming the file and the JSON path."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from sim.core.errors import InputError
from sim.games.explorers_of_navoria.position import score_position

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples" / "explorers_of_navoria"
X5 = EXAMPLES / "example_x5_shared_victory.json"
BLANK = EXAMPLES / "example_two_players_blank_tile.json"


@pytest.fixture(scope="module")
def x5():
    return {r["name"]: r for r in score_position(X5)}


def write(tmp_path, pos, name="pos.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(pos))
    return path


def test_x5_final_scores_C_94_D_94_EN_E1_EN_E2(x5):
    """X5 (EN-E1, EN-E2): C 50 + 14 + 18 + 12 = 94, D 68 + 4 + 8 + 14 = 94; A and B lower."""
    assert x5["C"]["score"] == 94 and x5["D"]["score"] == 94
    assert x5["A"]["score"] == 73 and x5["B"]["score"] == 72


def test_x5_soldiers_score_per_post_EN_E3_EN_R76(x5):
    """EN-E3, EN-R76: C's RE01, RE03 2 x 3 forest posts, RE06 2 x 1 desert, RE09 2 x 0 glacier = 14; D's RE08 2 x 2 = 4."""
    assert x5["C"]["score_soldiers"] == 14
    assert x5["D"]["score_soldiers"] == 4


def test_x5_favour_tiles_per_card_EN_E4_EN_R77_EN_R108_EN_R110_EN_R111(x5):
    """EN-E4, EN-R110, EN-R111: C FT02 first (2 traders + 4 soldiers) x 3 = 18 and FT05 second
    (2 builders + 4 soldiers) x 2 = 12; D FT02 second (3 traders + 1 soldier) x 2 = 8 and FT04 first
    (3 traders + 4 artisans) x 2 = 14. A soldier counts as one card for a tile however many symbols it
    shows (EN-R77); the spaces are the highest free ones (EN-R108)."""
    assert x5["C"]["score_favour"] == 18 + 12
    assert x5["D"]["score_favour"] == 8 + 14
    assert [x5["C"][f"en_favour_{p}"] for p in ("humans", "goblins", "beasts", "sprites")] == [1, 0, 2, 0]
    assert [x5["D"][f"en_favour_{p}"] for p in ("humans", "goblins", "beasts", "sprites")] == [2, 0, 0, 1]


def test_x5_shared_victory_EN_E7_EN_E8(x5):
    """EN-E7, EN-E8: C and D tie for the most points and share the victory (1/2 each)."""
    assert [x5[n]["rank"] for n in "ABCD"] == [3, 4, 1, 1]
    assert [x5[n]["win_share"] for n in "ABCD"] == [0.0, 0.0, 0.5, 0.5]


def test_x5_rows_keep_the_listed_order_and_the_cli_keys():
    rows = score_position(X5)
    assert [(r["seat"], r["name"], r["faction"]) for r in rows] == [(0, "A", "none"), (1, "B", "none"),
                                                                     (2, "C", "none"), (3, "D", "none")]
    assert [k for k in rows[0] if k.startswith("score_")] == ["score_rounds", "score_soldiers", "score_favour"]
    assert [r["score_rounds"] for r in rows] == [55, 60, 50, 68]


def test_blank_tile_scores_nothing_EN_A9_EN_V2():
    """EN-V1, EN-V2, EN-A9: A holds the humans' favour on the blank tile FT00: 0 points for it."""
    a, b = score_position(BLANK)
    assert a["en_favour_humans"] == 1
    assert (a["score_soldiers"], a["score_favour"], a["score"]) == (10, 10, 68)    # favour: FT03 only
    assert (b["score_soldiers"], b["score_favour"], b["score"]) == (14, 23, 89)
    assert (a["win_share"], b["win_share"], a["rank"], b["rank"]) == (0.0, 1.0, 2, 1)


def test_blank_tile_alone_gives_zero_EN_A9(tmp_path):
    """A's only favour is the humans' (5 human symbols, no 5 of another people) on the blank tile FT00."""
    pos = json.loads(BLANK.read_text())
    pos["players"][0].update(cards=["RE01", "RE05", "YE11"], favour={"humans": "first"})
    rows = score_position(write(tmp_path, pos))
    assert rows[0]["score_favour"] == 0


def test_components_sum_to_score_and_shares_sum_to_one():
    for f in EXAMPLES.glob("*.json"):
        rows = score_position(f)
        for r in rows:
            assert r["score"] == sum(v for k, v in r.items() if k.startswith("score_"))
        assert abs(sum(r["win_share"] for r in rows) - 1) < 1e-9


def test_three_way_tie_shares_a_third_EN_E8(tmp_path):
    pos = {"favour_tiles": {}, "players": [{"name": n, "points": 40} for n in "XYZ"]}
    rows = score_position(write(tmp_path, pos))
    assert [r["win_share"] for r in rows] == [1 / 3] * 3 and [r["rank"] for r in rows] == [1, 1, 1]


def test_soldiers_score_each_post_of_their_region_EN_R76(tmp_path):
    """EN-R76, EN-E3: a soldier counts only the posts on its own region's track; two soldiers stack."""
    pos = {"players": [{"name": "A", "cards": ["RE01", "RE02", "RE12"], "posts": {"forest": 2, "desert": 3, "glacier": 1}},
                       {"name": "B", "posts": {"forest": 3}}]}
    rows = score_position(write(tmp_path, pos))
    assert rows[0]["score_soldiers"] == 2 * 2 + 2 * 2 + 2 * 1 and rows[1]["score_soldiers"] == 0


def test_end_rule_of_a_user_card_file_EN_E5(tmp_path):
    """EN-E5: every card's end rule counts, with the value of the data file (a config content file
    relative to the position file)."""
    cards = (Path(__file__).resolve().parent.parent / "sim/games/explorers_of_navoria/data/cards.csv").read_text()
    (tmp_path / "my_cards.csv").write_text(cards.replace("GR12,artisans,sprite,pts:2+good:F,-,-",
                                                         "GR12,artisans,sprite,pts:2+good:F,-,posts:glacier:5"))
    pos = {"config": {"cards_file": "my_cards.csv"},
           "players": [{"name": "A", "points": 2, "cards": ["GR12"], "posts": {"glacier": 3}}, {"name": "B"}]}
    assert score_position(write(tmp_path, pos))[0]["score_soldiers"] == 15


def x5_with(change):
    pos = json.loads(X5.read_text())
    pos = copy.deepcopy(pos)
    change(pos)
    return pos


@pytest.mark.parametrize("change,expected", [
    (lambda p: p["players"][2]["cards"].__setitem__(0, "BL99"), "players[2].cards[0]: unknown card 'BL99'"),
    (lambda p: p["players"][2]["cards"].__setitem__(0, "BL02"), "players[3].cards[0]: BL02 is already in C's tableau"),
    (lambda p: p["players"][0]["cards"].__setitem__(1, "RE07"), "players[0].cards[1]: RE07 is already in A's tableau"),
    (lambda p: p["players"][0]["cards"].append("RE12"), "players[0].cards: expected at most 9 cards (3 rounds x 3"),
    (lambda p: p["players"][1]["posts"].__setitem__("forest", 4), "players[1].posts.forest: expected an integer from 0 to 3, got 4"),
    (lambda p: p["players"][1]["posts"].__setitem__("jungle", 1), "players[1].posts.jungle: unknown key"),
    (lambda p: p["players"][1].__setitem__("points", -3), "players[1].points: expected an integer >= 0, got -3"),
    (lambda p: p["players"][1].__setitem__("points", "60"), "players[1].points: expected an integer >= 0, got '60'"),
    (lambda p: p["players"][1].__setitem__("colour", "red"), "players[1].colour: unknown key"),
    (lambda p: p["players"][1].__setitem__("name", "A"), "players[1].name: expected a new non-empty name, got 'A'"),
    (lambda p: p["players"][3]["favour"].__setitem__("humans", "first"),
     "players[3].favour.humans: the first space of FT02 (humans) is already C's (one player per space, EN-R108)"),
    (lambda p: p["players"][3]["favour"].__setitem__("humans", "third"), "players[3].favour.humans: expected \"first\" or \"second\""),
    (lambda p: p["players"][3]["favour"].__setitem__("elves", "first"), "players[3].favour.elves: unknown people 'elves'"),
    (lambda p: p["players"][1]["favour"].__setitem__("sprites", "second"),
     "players[1].favour.sprites: B holds 1 sprites symbol(s), fewer than the 5 that win a favour (EN-R107, EN-A22)"),
    (lambda p: p["players"][0].__setitem__("favour", {}),
     "players[2].favour.beasts: C holds the second space of FT05 but nobody holds the first"),
    (lambda p: p["favour_tiles"].pop("sprites"), "players[3].favour.sprites: no favour tile is given for the sprites"),
    (lambda p: p["favour_tiles"].__setitem__("sprites", "FT02"), "favour_tiles.sprites: FT02 already lies on the humans space"),
    (lambda p: p["favour_tiles"].__setitem__("sprites", "FT11"), "favour_tiles.sprites: unknown favour tile 'FT11'"),
    (lambda p: p["favour_tiles"].__setitem__("sprites", "FT00"),
     "favour_tiles.sprites: the blank tile FT00 is used only with config.blank_tile_variant = true (EN-V1)"),
    (lambda p: p["favour_tiles"].__setitem__("dwarves", "FT01"), "favour_tiles.dwarves: unknown people 'dwarves'"),
    (lambda p: p["config"].__setitem__("players", 3), "config.players: does not match the 4 listed players"),
    (lambda p: p["config"].__setitem__("blank_tile_variant", True), "config.blank_tile_variant: the blank favour tile variant is a 2-player variant"),
    (lambda p: p["config"].__setitem__("favor_symbols", 4), "config.favor_symbols: unknown key; did you mean 'favour_symbols'?"),
    (lambda p: p.__setitem__("players", p["players"][:1]), "players: expected 2 to 4 players (EN-S1), got 1"),
    (lambda p: p.__setitem__("board", {}), "board: unknown key"),
])
def test_bad_positions_name_the_json_path(tmp_path, change, expected):
    path = write(tmp_path, x5_with(change), "bad.json")
    with pytest.raises(InputError) as err:
        score_position(path)
    message = str(err.value)
    assert expected in message and message.startswith(str(path)) and "\n" not in message


def test_blank_variant_needs_the_blank_among_four_tiles_EN_V1(tmp_path):
    pos = json.loads(BLANK.read_text())
    pos["favour_tiles"]["humans"] = "FT01"
    pos["players"][0]["favour"] = {"goblins": "first"}
    with pytest.raises(InputError, match="favour_tiles: with blank_tile_variant one of the four tiles is the blank tile FT00"):
        score_position(write(tmp_path, pos))


def test_five_symbols_without_favour_while_a_space_is_free_is_unreachable_EN_R107_EN_R108_EN_A22(tmp_path):
    """D has 5+ human symbols; without D's marker the second space of FT02 would be free, but D
    tried the humans' favour on reaching five and took it (EN-A22): no such end state exists."""
    pos = x5_with(lambda p: p["players"][3]["favour"].pop("humans"))
    path = write(tmp_path, pos, "bad.json")
    with pytest.raises(InputError) as err:
        score_position(path)
    message = str(err.value)
    assert message.startswith(f"{path}: players[3].favour: D holds ") and "\n" not in message
    assert "humans symbols but no favour marker of them while the second space of FT02 is free" in message


def test_five_symbols_need_the_tile_of_their_people_EN_R107_EN_A22(tmp_path):
    """Five human symbols won a humans' space (EN-A22); without a tile on that space none is held."""
    pos = {"players": [{"name": "A", "cards": ["RE01", "RE05", "YE11"]}, {"name": "B"}]}
    with pytest.raises(InputError, match=r"players\[0\].favour: A holds 5 humans symbols but no favour marker of "
                                         r"them while a space of the humans' tile \(none given"):
        score_position(write(tmp_path, pos))


def test_both_spaces_taken_leave_a_five_symbol_player_without_favour_EN_A22(tmp_path):
    """EN-A22: C reaches five humans after A and B took both spaces of FT02: a valid end state."""
    players = [{"name": "A", "cards": ["RE01", "RE05", "YE11"], "favour": {"humans": "first"}},
               {"name": "B", "cards": ["RE09", "YE01", "PU01", "GR01"], "points": 3, "favour": {"humans": "second"}},
               {"name": "C", "cards": ["BL01", "BL02", "BL03", "YE08", "PU05"], "points": 9}]
    rows = score_position(write(tmp_path, {"favour_tiles": {"humans": "FT02"}, "players": players}))
    assert [r["en_favour_humans"] for r in rows] == [1, 2, 0]


def test_points_below_what_the_cards_gave_are_unreachable_EN_R17_EN_R62(tmp_path):
    """BL01 gives 2 points when recruited (EN-R17) and, being a human trader, 1 for its own symbol
    in that round's income (EN-R62); GR12 gives 2: A has at least 5 points."""
    def pos(points):
        return {"players": [{"name": "A", "points": points, "cards": ["BL01", "GR12"]}, {"name": "B"}]}
    assert score_position(write(tmp_path, pos(5)))[0]["score"] == 5
    with pytest.raises(InputError, match=r"players\[0\].points: A's cards gave at least 5 points .*, got 4$"):
        score_position(write(tmp_path, pos(4)))


def test_favour_symbols_setting_is_used_EN_A22(tmp_path):
    """With favour_symbols = 7 (EN-R107 as a config parameter) C's 6 humans cannot hold a favour."""
    pos = x5_with(lambda p: p["config"].__setitem__("favour_symbols", 7))
    with pytest.raises(InputError, match=r"players\[2\].favour.humans: C holds 6 humans symbol\(s\), fewer than the 7"):
        score_position(write(tmp_path, pos))


def test_invalid_json_and_missing_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{\n "players": [\n')
    with pytest.raises(InputError, match=r"broken.json: line \d+, column \d+: invalid JSON"):
        score_position(path)
    with pytest.raises(InputError, match="nope.json: position file not found"):
        score_position(tmp_path / "nope.json")
    path.write_text("[]")
    with pytest.raises(InputError, match="broken.json: expected an object"):
        score_position(path)
