"""Recall position files (docs/recall_positions.md): the examples score as their comments say,
and bad positions are refused with one InputError naming the file and the JSON path."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from sim.core.errors import InputError
from sim.games.recall.game import GAME
from sim.games.recall.position import load_position, score_position

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples" / "recall"
BASE = json.loads((EXAMPLES / "example1_full_final_scoring.json").read_text())
PIGS = json.loads((EXAMPLES / "example_tie_break_and_pigs.json").read_text())


def write(tmp_path, data, name="pos.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_every_example_loads_and_scores():
    files = sorted(EXAMPLES.glob("*.json"))
    assert len(files) >= 3
    for f in files:
        rows = GAME.score_position(f)
        assert rows and sum(r["win_share"] for r in rows) in (0.0, 1.0)
        for r in rows:
            assert r["score"] == (r["score_track"] + r["score_paths"] + r["score_leftover"] + r["score_pigs"]
                                  + r["score_purple"] + r["score_goal"])


def test_tie_break_and_pig_example():
    """RC-E44, RC-R214: Ada (Dorian) scores 2 per pig farm where present; RC-E46: Bo and Cy tie
    on 48 and Cy, further on the white track, wins. RC-R185, RC-R188: every player has a disc in
    each of the three sectors, several on the same card."""
    rows = {r["name"]: r for r in score_position(EXAMPLES / "example_tie_break_and_pigs.json")}
    assert (rows["Ada"]["score"], rows["Ada"]["score_pigs"], rows["Ada"]["faction"]) == (46, 4, "Dorian")
    assert rows["Bo"]["score"] == rows["Cy"]["score"] == 48
    assert (rows["Cy"]["rank"], rows["Bo"]["rank"], rows["Ada"]["rank"]) == (1, 2, 3)
    assert rows["Cy"]["win_share"] == 1.0


def test_dorian_presence_switch(tmp_path):
    """RC-A57: presence on a pig farm per field (default) or per area tile."""
    data = copy.deepcopy(PIGS)
    data["players"][0]["buildings"] = []                    # Ada keeps followers on S2:2 only
    by_field = score_position(write(tmp_path, data))[0]
    data["config"]["dorian_presence"] = "tile"
    by_tile = score_position(write(tmp_path, data, "tile.json"))[0]
    assert (by_field["score_pigs"], by_tile["score_pigs"]) == (2, 4)


def test_every_dorian_holder_scores_the_farms(tmp_path):
    """RC-R215: all holders of the Dorian ability (here two players who unlocked it as the
    white old tribe, RC-R169) score for the farms where they are present, whoever laid them."""
    data = copy.deepcopy(PIGS)
    data["players"][0]["tribe"] = "Aynir"
    data["old_tribes"] = {"white": "Dorian"}
    data["players"][1]["tracks"] = {"white": 5}
    data["players"][1]["followers"] = {"S2:2": 1}
    data["players"][2]["tracks"] = {"white": 6}
    data["players"][2]["followers"] = {"S2:6": 1}
    rows = score_position(write(tmp_path, data))
    assert [r["score_pigs"] for r in rows] == [0, 2, 2]


def test_own_colour_stones_and_old_tribes_are_derived(tmp_path):
    """RC-E10: own-colour stones never count (a position lists only white/grey/black stones);
    RC-R167, RC-R168, RC-E40: old tribes unlocked = tracks at or past the fifth field."""
    data = copy.deepcopy(BASE)
    data["players"][0]["tracks"] = {"white": 5, "grey": 6, "black": 10}
    pos = load_position(write(tmp_path, data))
    assert int(pos.end.old_tribes[0, 0]) == 3 and pos.end.stones[0, 0].tolist() == [2, 1, 3]


def test_camps_and_area_tiles_come_from_the_map(tmp_path):
    """RC-E41, RC-E42: different camps next to own buildings, area tiles with a building
    (board monument fields are not area tiles, RC-A3)."""
    pos = load_position(EXAMPLES / "example1_full_final_scoring.json")
    # Blue: sanctuaries on L (two) and N1:6 (next to camp c1 at N1:0); monuments on BM_white,
    # N2:0 and W1:6 (next to camp c3 at W1:5): camps c1, c3; tiles L, N1, N2, W1.
    assert int(pos.end.camps[0, 0]) == 2 and int(pos.end.area_tiles[0, 0]) == 4


def test_duplicate_json_keys_are_refused(tmp_path):
    path = tmp_path / "dup.json"
    path.write_text('{"players": [], "players": []}')
    with pytest.raises(InputError, match="players: key given twice in one object"):
        score_position(path)
    deep = tmp_path / "deep.json"
    deep.write_text('{"players": ' + "[" * 40 + "]" * 40 + "}")
    with pytest.raises(InputError, match="nested too deep"):     # the shared reader's depth limit
        score_position(deep)


def _bad(tmp_path, edit):
    data = copy.deepcopy(BASE)
    edit(data)
    with pytest.raises(InputError) as err:
        score_position(write(tmp_path, data))
    message = str(err.value)
    assert "pos.json" in message and "\n" not in message
    return message


def _set(path, value):
    def edit(data):
        *keys, last = path
        node = data
        for k in keys:
            node = node[k]
        node[last] = value
    return edit


BLUE = ("players", 0)


@pytest.mark.parametrize("edit, expected", [
    (_set(BLUE + ("key_cards", "Z9"), 1), "players[0].key_cards.Z9: unknown key; expected one of"),
    (_set(BLUE + ("tribe",), "Vikings"), "players[0].tribe: unknown tribe 'Vikings'"),
    (_set(BLUE + ("goals",), ["GC99"]), "players[0].goals[0]: unknown goal card 'GC99'"),
    (_set(BLUE + ("goals",), ["GC1", "GC2"]), "expected 1 kept goal card(s)"),
    (_set(("players", 1, "goals"), ["GC1"]), "players[1].goals[0]: GC1 is already kept by Blue"),
    (_set(BLUE + ("artifacts", "white"), 6), "players[0].artifacts.white: expected an integer from 0 to 5"),
    (_set(BLUE + ("tracks", "grey"), 11), "players[0].tracks.grey: expected an integer from 0 to 10"),
    (_set(BLUE + ("crystals", "red"), 7), "players[0].crystals.red: expected an integer from 0 to 6"),
    (_set(BLUE + ("key_cards", "W0"), 3), "at most 2 white start cards per player"),
    (_set(BLUE + ("key_cards", "X4"), 4), "4 X4 key cards in all, the game has 3"),
    (_set(BLUE + ("stones", "black"), 10), "10 black stones in all, the bag holds 9"),
    (_set(BLUE + ("followers",), {"L:0": 24}), "24 followers on the board, a player has 23"),
    (_set(BLUE + ("buildings",), [{"kind": "sanctuary", "at": "L:2"}, {"kind": "sanctuary", "at": "L:2"}]),
     "players[0].buildings[1].at: Blue already has a building on L:2 (buildings[0]; one own building per field, RC-R117)"),
    (_set(BLUE + ("buildings",), [{"kind": "workshop", "at": "L:2"}]), "a workshop cannot stand on L:2 (sanctuary, RC-R116)"),
    (_set(BLUE + ("buildings",), [{"kind": "temple", "at": "L:2"}]), "players[0].buildings[0].kind: unknown building 'temple'"),
    (_set(BLUE + ("buildings",), [{"kind": "sanctuary", "at": "S1:2"}]), "field S1:2 lies on a face-down tile"),
    (_set(BLUE + ("buildings",), [{"kind": "monument", "at": "N2:0"}, {"kind": "monument", "at": "X:0"}]),
     "players[0].buildings[1].at: unknown field 'X:0'"),
    (_set(BLUE + ("followers",), {"N2:5": 2}), "followers cannot stand on N2:5 (water, RC-R88, RC-A62)"),
    (_set(BLUE + ("followers",), {"N2:3": 2}), "only with Colteron's ability"),
    (_set(BLUE + ("paths",), ["knowledge", "power", "efficiency"]), "players[0].paths[1]: power lies at position 6, not in path sector 2"),
    (_set(BLUE + ("paths",), ["knowledge"]), "expected the path card chosen in each of the 3 path rounds"),
    (_set(BLUE + ("upgrade_tiles",), 7), "players[0].upgrade_tiles: expected an integer from 0 to 6"),
    (_set(BLUE + ("score",), 7), "2 upgrade tiles, but a score of 7 passed only 1 upgrade symbols"),
    (_set(("monument_tiles", "N2:0"), "M9"), "monument_tiles.N2:0: unknown monument tile 'M9'"),
    (_set(("monument_tiles", "W1:6"), "M1"), "monument_tiles.W1:6: M1 already lies on N2:0"),
    (_set(("monument_tiles", "N1:0"), "M2"), "monument_tiles.N1:0: N1:0 is not a monument field"),
    (_set(("board", "N2", "tile"), "SL"), "board.N2.tile: SL already lies in slot L"),
    (_set(("board", "S1"), {"tile": "SR"}), "board.S1.tile: SR lies in R"),
    (_set(("board", "N2", "rotation"), 6), "board.N2.rotation: expected an integer from 0 to 5"),
    (_set(("path_cards",), ["knowledge:a"] * 6), "path_cards[1]: knowledge is already at position 1"),
    (_set(("path_cards", 0), "wisdom:a"), "path_cards[0]: unknown path 'wisdom'"),
    (_set(("config", "path_sides"), "all_a"), "path_cards[1]: side b of ancestors, but config.path_sides = 'all_a'"),
    (_set(("config", "players"), 3), "config.players: does not match the 2 listed players"),
    (_set(("pig_farms",), ["L:2"]), "pig_farms[0]: a pig farm lies on a grain field"),
    (_set(("players",), []), "players: expected 1 to 4 players"),
    (_set(("extra",), 1), "extra: unknown key"),
])
def test_bad_positions_are_refused(tmp_path, edit, expected):
    assert expected in _bad(tmp_path, edit)


def test_unreachable_monument_tile_and_pig_farm_states(tmp_path):
    """A monument tile lies only where someone built (RC-R142); pig farms need a Dorian holder (RC-R210)."""
    def orphan_tile(data):
        data["players"][0]["buildings"] = [b for b in data["players"][0]["buildings"] if b["at"] != "W1:6"]
    assert "M4 lies on W1:6 but nobody built a monument there" in _bad(tmp_path, orphan_tile)

    def no_tile(data):
        del data["monument_tiles"]["W1:6"]
    assert "a monument on W1:6: the first builder lays a monument tile there" in _bad(tmp_path, no_tile)
    data = copy.deepcopy(PIGS)
    data["players"][0]["tribe"] = "Aynir"
    with pytest.raises(InputError, match="pig farms are laid by a Dorian-ability holder"):
        score_position(write(tmp_path, data))
    data = copy.deepcopy(PIGS)
    data["pig_farms"] = ["S2:2", "S2:2"]
    with pytest.raises(InputError, match=r"pig_farms\[1\]: a second pig farm on S2:2"):
        score_position(write(tmp_path, data))


def test_start_tiles_must_be_face_up(tmp_path):
    """RC-S15, RC-S16: the left start tile is always face up; with 3-4 players the right one too."""
    data = copy.deepcopy(PIGS)
    del data["board"]["R"]
    with pytest.raises(InputError, match="the start tile of slot R is face up from the start"):
        score_position(write(tmp_path, data))


def test_missing_and_invalid_files(tmp_path):
    with pytest.raises(InputError, match="position file not found"):
        score_position(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(InputError, match="invalid JSON"):
        score_position(bad)


def test_content_files_are_relative_to_the_position(tmp_path):
    """A position may point at edited content (RC-A1): a camps file next to it."""
    (tmp_path / "my_cards.csv").write_text(
        "id,path,base,a,b\nPK,knowledge,2,1,4\nPA,ancestors,2,2,7\nPS,saints,2,2,5\n"
        "PE,efficiency,1,2,3\nPM,ambition,1,6,1\nPP,power,1,3,1\n")
    data = copy.deepcopy(BASE)
    data["config"]["path_cards_file"] = "my_cards.csv"
    blue = score_position(write(tmp_path, data))[0]
    assert blue["score_path_knowledge"] == 2 * 12 + 3 and blue["score"] == 143 + 12


def test_islands_take_forest_workshops_and_followers(tmp_path):
    """RC-R217, RC-A50: an island counts as a forest field (a workshop and followers may stand on
    it, the water field it covers included); it needs an Enterin holder (RC-R216)."""
    data = copy.deepcopy(BASE)
    data["players"][1]["tribe"] = "Enterin"
    data["islands"] = ["N2:5"]                                  # a water field of T2
    data["players"][1]["buildings"] = [{"kind": "workshop", "at": "N2:5"}]
    data["players"][1]["followers"] = {"N2:5": 3}
    red = score_position(write(tmp_path, data))[1]
    assert red["score_leftover"] == 1 and red["faction"] == "Enterin"
    data["players"][1]["tribe"] = "Ion"
    with pytest.raises(InputError, match="islands are laid by an Enterin-ability holder"):
        score_position(write(tmp_path, data, "no_enterin.json"))
    data["players"][1]["tribe"] = "Enterin"
    data["islands"] = ["N2:0"]                                  # a monument field
    with pytest.raises(InputError, match=r"islands\[0\]: an island lies on a water \(printed river included"):
        score_position(write(tmp_path, data, "bad_island.json"))


def test_an_island_may_lie_on_a_printed_river_field_rc_r216_rc_a65(tmp_path):
    """RC-A65: printed river water counts as water for every rule, so Enterin's island (RC-R216:
    a free water field) may cover a river field; it then takes a forest workshop (RC-A50)."""
    data = copy.deepcopy(BASE)
    data["players"][1]["tribe"] = "Enterin"
    data["islands"] = ["river0"]
    data["players"][1]["buildings"] = [{"kind": "workshop", "at": "river0"}]
    data["players"][1]["followers"] = {"river0": 3}
    red = score_position(write(tmp_path, data))[1]
    assert red["faction"] == "Enterin" and red["score_leftover"] == 1
