"""Scoring described positions (docs/animal_kingdoms_positions.md): the shipped examples pin the
scoring of AK-E1..E28, and every mistake in a position file is a one-line InputError with its path."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.core.errors import InputError
from sim.games.animal_kingdoms.game import GAME
from tests.scaffold import cli

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples" / "animal_kingdoms"


def test_example_10_2_file_AK_E13_AK_E14_AK_E17_AK_E18():
    """Worked example 10.2 as a position file: A 3 + 7, B 6 + 5, C 3 and one modifier left."""
    rows = GAME.score_position(EXAMPLES / "example_10_2_battles.json")
    assert [r["name"] for r in rows] == ["A", "B", "C"]
    assert [r["score_first"] + r["score_second"] + r["score_third"] for r in rows] == [10, 11, 3]
    assert [r["modifiers"] for r in rows] == [0, 0, 1]
    assert [r["score"] for r in rows] == [10, 11, 4]
    assert [r["win_share"] for r in rows] == [0.0, 1.0, 0.0]


def test_example_10_1_file_AK_E10_AK_E20():
    """Worked example 10.1 as a position file."""
    rows = GAME.score_position(EXAMPLES / "example_10_1_three_way_tie.json")
    assert [(r["score_first"], r["score_second"], r["score_third"], r["modifiers"]) for r in rows] == \
        [(7, 0, 0, 0), (0, 3, 0, 1), (0, 3, 0, 1), (0, 0, 1, 0)]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]            # B holds K6's capital: ahead of C (AK-A35)


def test_solo_example_AK_V15_AK_A41():
    rows = GAME.score_position(EXAMPLES / "example_solo_robot.json")
    assert [r["faction"] for r in rows] == ["none", "robot"]
    assert [r["score"] for r in rows] == [41, 30]
    assert rows[0]["win_share"] == 1.0


def test_default_battle_policy_plays_highest_cards(tmp_path):
    pos = {"players": [{"name": "A", "hand": ["Bear 2", "Bear 7"]}, {"name": "B", "hand": ["Fox 6", "Fox 3"]}],
           "kingdoms": {"K5": {"ordinary": {"A": 2, "B": 2}, "tiles": [6]}}}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(pos))
    rows = GAME.score_position(path)
    assert [r["score_first"] for r in rows] == [6, 0] and [r["modifiers"] for r in rows] == [0, 1]


def test_components_sum_to_score_and_shares_sum_to_one():
    for f in EXAMPLES.glob("*.json"):
        rows = GAME.score_position(f)
        for r in rows:
            assert r["score"] == sum(v for k, v in r.items() if k.startswith("score_"))
        assert abs(sum(r["win_share"] for r in rows) - 1) < 1e-9


@pytest.mark.parametrize("change,expected", [
    (lambda p: p["players"][1]["hand"].__setitem__(2, "Lino 2"), "players[1].hand[2]: unknown card 'Lino 2'"),
    (lambda p: p["kingdoms"]["K4"].__setitem__("capital", "Z"), "kingdoms.K4.capital: unknown player 'Z'"),
    (lambda p: p["kingdoms"].__setitem__("K9", {}), "kingdoms.K9: unknown key"),
    (lambda p: p["kingdoms"]["K4"]["ordinary"].__setitem__("A", 5), "kingdoms.K4.ordinary: K4 has only 3 ordinary territories"),
    (lambda p: p["players"][0].__setitem__("colour", "red"), "players[0].colour: unknown key"),
    (lambda p: p["players"][0].__setitem__("modifiers", -1), "players[0].modifiers: expected an integer >= 0"),
    (lambda p: p["battles"]["K4"][1].__setitem__("A", "Bear 9"), "battles.K4[1].A: unknown card 'Bear 9'"),
    (lambda p: p["battles"]["K4"][1].__setitem__("A", "Hare 1"), "battles.K4[1].A: Hare 1 is not in A's hand now"),
    (lambda p: p["deck"].append("Wolf 8"), "deck[6]: Wolf 8 is listed more often than the deck holds it"),
    (lambda p: p["battles"]["K4"].pop(), "battles.K4[1].A: the battle needs a card here"),
    (lambda p: p["battles"]["K6"][0]["mods"].__setitem__("A", 2), "battles.K6[0].mods.A: A holds only 1 modifier"),
    (lambda p: p["config"].__setitem__("players", 4), "config.players: does not match the 3 listed seats"),
    (lambda p: p["config"].__setitem__("peace_variant", True), "config.peace_variant: unknown key"),
    (lambda p: p.__setitem__("players", p["players"][:1]), "players: expected 2 to 5 seats"),
])
def test_bad_positions_name_the_json_path(tmp_path, change, expected):
    pos = json.loads((EXAMPLES / "example_10_2_battles.json").read_text())
    change(pos)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(pos))
    with pytest.raises(InputError) as err:
        GAME.score_position(path)
    message = str(err.value)
    assert expected in message and message.startswith(str(path)) and "\n" not in message


@pytest.mark.parametrize("change,expected", [
    (lambda p: p["kingdoms"]["K4"]["ordinary"].__setitem__("A", 1),
     "kingdoms.K4.capital: K4's capital is taken while 1 of its 3 ordinary territories are free (AK-R14"),
    (lambda p: p["players"][0].__setitem__("retreat_tiles", [6]),
     "players[0].retreat_tiles[0]: expected a first-retreat tile not given out yet (tiles 2, 3, 4, 5, AK-A20, AK-R36), got 6"),
    (lambda p: p["players"][0].__setitem__("retreat_tiles", [1]), "players[0].retreat_tiles[0]: expected a first-retreat"),
    (lambda p: (p["players"][0].__setitem__("retreat_tiles", [3]), p["players"][2].__setitem__("retreat_tiles", [3])),
     "players[2].retreat_tiles[0]: expected a first-retreat tile not given out yet"),
    (lambda p: p["players"][1].__setitem__("retreat_tiles", [2, 2]), "players[1].retreat_tiles[1]: expected a first-retreat"),
])
def test_unreachable_positions_are_refused_AK_R14_AK_A20_AK_R36(tmp_path, change, expected):
    """Positions describe reachable states only: a capital is taken last (AK-R14), and the
    first-retreat tiles held are tiles of the box (2..5, AK-A20), each at most once (AK-R36)."""
    pos = json.loads((EXAMPLES / "example_10_2_battles.json").read_text())
    change(pos)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(pos))
    with pytest.raises(InputError) as err:
        GAME.score_position(path)
    message = str(err.value)
    assert expected in message and message.startswith(str(path)) and "\n" not in message


def test_capital_after_councils_when_claimable_AK_A8(tmp_path):
    """AK-A8 with council_claimable: council spaces are claimed before the capital, so a taken
    capital with a free council space is refused; the same board without the switch scores."""
    pos = {"config": {"council_claimable": True},
           "players": [{"name": "A", "hand": ["Bear 2"]}, {"name": "B", "hand": ["Fox 6"]}],
           "kingdoms": {"K4": {"ordinary": {"A": 2, "B": 1}, "capital": "A", "council": ["B"], "tiles": [6]}}}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(pos))
    with pytest.raises(InputError, match=r"kingdoms.K4.capital: K4's capital is taken while council spaces are free"):
        GAME.score_position(path)
    pos["config"] = {}
    path.write_text(json.dumps(pos))
    assert [r["score_first"] for r in GAME.score_position(path)] == [6, 0]


def test_invalid_json_names_the_line(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{\n "players": [\n')
    with pytest.raises(InputError, match=r"broken.json: line \d+, column \d+: invalid JSON"):
        GAME.score_position(path)


def test_score_command_line(tmp_path):
    out = cli("score", "animal_kingdoms", EXAMPLES / "example_10_2_battles.json")
    assert out.returncode == 0, out.stderr
    assert "first" in out.stdout and len(out.stdout.strip().splitlines()) == 4
    bad = tmp_path / "b.json"
    bad.write_text("[]")
    res = cli("score", "animal_kingdoms", bad)
    assert res.returncode == 2 and res.stderr.startswith("error: ") and len(res.stderr.strip().splitlines()) == 1
