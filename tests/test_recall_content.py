"""Recall content: the default data (spec section 8 and the addendum), the effect language, the
loader's validation (one-line errors naming file, place and expectation) and edited files."""
from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from sim.core.config import build
from sim.core.errors import InputError
from sim.games.recall.config import Config
from sim.games.recall.content import DATA_DIR, DEFAULT_FILES, content_hash, load_content
from sim.games.recall.content_types import (
    ANY, ARTIFACT_COLOURS, EXCAVATION, GOAL_KINDS, KEY_COLOURS, START, TERRAINS, Atom,
)
from sim.games.recall.effects import EffectError, format_effect, parse_effect


@pytest.fixture(scope="module")
def content():
    return load_content(Config())


def test_every_default_file_loads_and_names_its_source(content):
    """RC-A1: every table is a data file, read at start-up."""
    assert set(content.sources) == set(DEFAULT_FILES)
    for key, path in content.sources.items():
        assert Path(path).name == DEFAULT_FILES[key]
        assert "ASSUMED CONTENT" in Path(path).read_text() or key in ("tribes_file", "path_cards_file", "setup_file")


# ---- the effect language (RC-A2, RC-A63) ------------------------------------------------------

@pytest.mark.parametrize("text", [
    "W:2", "R:1 + W:2", "MOVE:1 | F:1", "K:any:1 | KEYBACK", "DEV:1 + K:any:1", "K:white:2 + R:1",
    "KEACH:1", "FH:2 + R:1", "CHEST + FH:1", "KEY:grey", "PP:4", "ART_DISPLAY", "FREE + W:1",
    "WMOVE+ + MOVE:1 + DEV:1", "PAYOPT{-:2, W:3, R:4, P:5}(MOVE) + DEV:1", "UNITS:2(MOVE:1|DEV:1) + UPC:1",
    "F:2 + BUY{W:1->1, R:1->2, R:1+W:1->3, P:1->4} + SELL:W", "COPY(pay=W:1) + DEV:1", "COPY",
    "COST:W:1->KEYUP", "-",
])
def test_effect_language_round_trips(text):
    """RC-A2, RC-A63: every construct parses, and formatting gives text that parses the same."""
    parsed = parse_effect(text)
    assert parse_effect(format_effect(parsed)) == parsed


def test_effect_language_precedence_and_atoms():
    """RC-A63: '|' binds tighter than '+'; WMOVE+ is the improved water movement (RC-R96)."""
    e = parse_effect("MOVE:3 | DEV:2 + W:1")
    assert e == ((Atom("MOVE", 0, 3), Atom("DEV", 0, 2)), (Atom("CRYSTAL", 0, 1),))
    assert parse_effect("WMOVE+ + DEV:1")[0] == (Atom("WMOVE", 1),)
    assert parse_effect("WMOVE + DEV:1")[0] == (Atom("WMOVE", 0),)
    assert parse_effect("K:any:2") == ((Atom("K", ANY, 2),),)
    buy = parse_effect("BUY{W:1->1, R:1+W:1->3}")[0][0]
    assert buy.options == (((1, 0, 0), 1), ((1, 1, 0), 3))
    pay = parse_effect("PAYOPT{-:2, W:3, R:4, P:5}(MOVE)")[0][0]
    assert pay.options == ((-1, 2), (0, 3), (1, 4), (2, 5)) and pay.what == ("MOVE",)


@pytest.mark.parametrize("text, problem", [
    ("W:0", "from 1"), ("K:blue:1", "unknown track"), ("KEY:white", "unknown key colour"),
    ("W:2 +", "empty atom"), ("GOLD:1", "unknown atom"), ("UNITS:2(MOVE:1|F:1)", "MOVE:1 or DEV:1"),
    ("BUY{W:1}", "->followers"), ("PAYOPT{W:3, W:4}(MOVE)", "given twice"), ("COPY(W:1)", "COPY(pay="),
])
def test_effect_language_rejects_bad_text(text, problem):
    with pytest.raises(EffectError, match=problem.replace("(", r"\(").replace("{", r"\{")):
        parse_effect(text)


# ---- the default tables, each against its assumption ---------------------------------------------

def test_map_and_tiles_defaults(content):
    """RC-A3 slots and board monument fields, RC-A4 tiles (T1..T10 as the spec; start tiles
    redrawn for RC-A66), RC-A5 start fields, RC-A65 the printed river."""
    m = content.map
    assert [s.id for s in m.slots] == ["L", "R", "N1", "N2", "N3", "N4", "E1", "S1", "S2", "S3", "W1", "W2"]
    assert [b.at for b in m.board_monuments] == [(-1, -3), (-1, 5), (7, -2)]
    assert len(content.area_tiles) == 12 and [t.start for t in content.area_tiles[:2]] == [True, True]
    t3 = content.area_tiles[[t.id for t in content.area_tiles].index("T3")]
    assert [TERRAINS[f.terrain] for f in t3.fields] == ["excavation", "forest", "mountain", "camp", "grain", "water", "water"]
    assert t3.fields[4].pigs == 2 and t3.fields[4].artifact and content.camps[t3.fields[3].camp].id == "c2"
    starts = sorted(f.start for t in content.area_tiles for f in t.fields if f.terrain == START)
    assert starts == [1, 2, 3, 4] and m.start_fields == (1, 2, 3, 4)
    assert len(m.river) == 15


def test_enterability_table(content):
    """RC-A62, RC-R88, RC-R116, RC-R133: normal moves enter land, not water or volcano; which
    terrain takes which building, and the key colour of each workshop terrain."""
    t = {x.name: x for x in content.map.terrains}
    assert not t["water"].move and t["water"].water and not t["volcano"].move
    for name in ("grain", "forest", "mountain", "sanctuary", "monument", "excavation", "camp", "start", "board_monument"):
        assert t[name].move, name
    assert [KEY_COLOURS[t[x].key_colour] for x in ("grain", "forest", "mountain")] == ["yellow", "green", "grey"]
    assert t["camp"].building == -1 and t["excavation"].building == -1 and t["board_monument"].building == 2


def test_tracks_and_time_defaults(content):
    """RC-A8 time board, RC-A9 sectors, RC-A11 knowledge values, RC-A13 score track, RC-A29 tokens."""
    tb = content.time_board
    assert tb.spaces == 18 and tb.path_spaces == (5, 11, 15) and tb.goal_spaces == (9,)
    assert sum(tb.kind(x) == "normal" for x in range(1, 18)) == 13          # RC-R1
    k = content.knowledge
    assert k.points == (0, 0, 1, 2, 3, 4, 6, 8, 10, 12, 15) and (k.third, k.fifth, k.seventh) == (3, 5, 7)
    assert k.bonus_positions == (4, 8) and len(content.light_tokens) == 6 and len(content.dark_tokens) == 6
    assert content.upgrade_symbols == (4, 8, 13, 18, 24, 31)
    assert format_effect(content.dark_tokens[5].reward) == "PP:4"


def test_action_fields_and_upgrades_defaults(content):
    """RC-R23..R35 printed fields, RC-A23 purchase table, RC-A14 upgrade tiles (4 per letter)."""
    base = [format_effect(e) for e in content.base_fields]
    assert base[0] == "F:2 + BUY{W:1->1, R:1->2, R:1+W:1->3, P:1->4} + SELL:W"   # RC-R23..R25, RC-A23
    assert base[1] == "PAYOPT{-:2, W:3, R:4, P:5}(MOVE) + DEV:1"                   # RC-R26..R29
    assert base[3] == "UNITS:2(MOVE:1|DEV:1)"                                        # RC-R31
    assert base[5] == "COPY(pay=W:1)"                                                # RC-R33
    assert [u.count for u in content.upgrades] == [4] * 6
    assert content.upgrades[2].sides[0][0] == (Atom("WMOVE", 1),)                    # RC-R96


def test_player_board_defaults(content):
    """RC-A16 production fields, RC-A17 artifact rows, RC-A19 sanctuaries, RC-A21, RC-A22 costs."""
    b = content.board
    assert [p.id for p in b.production if p.building == -1] == ["P1", "P2", "P3"]     # RC-R39
    p7 = b.production[6]
    assert (p7.id, p7.building, p7.column, p7.position) == ("P7", 1, 1, 1)
    assert b.artifact_rows.follower_cost == (1, 1, 2, 2, 3) and b.artifact_rows.points_under == (1, 3, 6, 10, 15)
    assert format_effect(b.artifact_rows.covered[3][3]) == "KEYUP"
    assert format_effect(b.sanctuaries[5]) == "ART_DISPLAY"                          # RC-R128
    assert b.workshops == (((1, 0, 0), (0, 1, 0)), ((0, 1, 0), (1, 1, 0)), ((1, 1, 0), (0, 0, 1)))
    assert b.monuments == ((1, 0, 0), (0, 1, 0), (1, 1, 0), (0, 0, 1), (0, 1, 1))


def test_cards_tiles_and_abilities_defaults(content):
    """RC-A25 key cards, RC-A27 chests, RC-A28 monument tiles, RC-A30 camps, RC-A31 rings,
    RC-A32 items, RC-A33 hexagons, RC-A34 goal cards, RC-A35 bag."""
    by_colour = {c: sum(k.count for k in content.key_cards if KEY_COLOURS[k.colour] == c) for c in KEY_COLOURS}
    assert by_colour == {"white": 2, "yellow": 15, "green": 15, "grey": 12}           # RC-S10..S12, RC-S25
    assert sum(t.count for t in content.chest_tiles) == 24 and len(content.monument_tiles) == 8
    assert [(m.id, m.points) for m in content.monument_tiles][6] == ("M7", 5)
    assert [format_effect(c.reward) for c in content.camps][1] == "K:grey:2"
    assert sum(r.count for r in content.rings) == 9
    assert len(content.tribes) == 14 and len(content.items) == 18
    assert {i.id for i in content.items if i.hexagon} == {"Booster", "Decoder", "GPR", "Vertolker"}
    assert [i for i in content.items if i.id == "Multitool"][0].parts == ("Pouch", "Horn", "Boots", "Lens")
    assert len(content.goal_cards) == 13 and {GOAL_KINDS[g.kind] for g in content.goal_cards} == set(GOAL_KINDS)
    s = content.setup
    assert s.artifacts_per_colour == (7, 7, 7, 7) and s.stones_per_colour == (9, 9, 9)
    assert s.follower_units == 23 and s.start_crystals == (3, 0, 0)                  # RC-A39, RC-S26
    assert len(ARTIFACT_COLOURS) == 4 and content.area_tiles[0].fields[0].terrain == EXCAVATION


def test_content_hash_is_stable_and_ignores_where_files_were_read(content, tmp_path):
    copy = tmp_path / "data"
    shutil.copytree(DATA_DIR, copy)
    other = load_content(Config(camps_file=str(copy / "camps.csv")))
    assert content_hash(other) == content_hash(content)


# ---- edited files change behaviour; bad files are refused --------------------------------------

def _copy(tmp_path, name, old, new):
    text = (DATA_DIR / name).read_text()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1))
    return path


def test_an_edited_file_changes_the_content_without_code_changes(tmp_path, content):
    """RC-A1: a user's camps file and path-card numbers are what the game uses."""
    camps = _copy(tmp_path, "camps.csv", "c2,K:grey:2", "c2,VP:5")
    edited = load_content(Config(camps_file=str(camps)))
    assert format_effect(edited.camps[1].reward) == "VP:5"
    assert content_hash(edited) != content_hash(content)


def _error(tmp_path, name, old, new, key):
    path = _copy(tmp_path, name, old, new)
    with pytest.raises(InputError) as err:
        load_content(Config(**{key: str(path)}))
    return str(err.value)


@pytest.mark.parametrize("name, key, old, new, expected", [
    ("camps.csv", "camps_file", "c2,K:grey:2", "c2,K:blue:2", "camps.csv: line 5 (c2), reward: cannot parse 'K:blue:2'"),
    ("key_cards.csv", "key_cards_file", "G2,green,3", "G1,green,3", "key_cards.csv: line 11 (G1), id: duplicate id (first on line 10)"),
    ("key_cards.csv", "key_cards_file", "X4,grey,3,P:1 + VP:1,3", "X4,gray,3,P:1 + VP:1,3", "unknown key colour 'gray'"),
    ("area_tiles.csv", "area_tiles_file", "T3,no,ex,fo", "T3,no,ex,fx", "line 13 (T3), p1: unknown field code 'fx'"),
    ("area_tiles.csv", "area_tiles_file", "T1,no,c1,g3", "T1,no,st1,g3", "start fields lie only on start tiles"),
    ("map.toml", "map_file", '["BM_grey", -1, 5, "grey"]', '["BM_grey", 0, 0, "grey"]',
     "board_monuments[1] (BM_grey): field [0, 0] is also a field of slots[0] (L)"),
    ("map.toml", "map_file", "start_fields = [1, 2, 3, 4]", "start_fields = [1, 2, 3, 3]", "start_fields: expected each start field"),
    ("tracks.toml", "tracks_file", "upgrade_symbols = [4, 8, 13, 18, 24, 31]", "upgrade_symbols = [4, 8, 13, 12, 24, 31]",
     "score_track.upgrade_symbols: expected strictly increasing values, got 13 then 12"),
    ("tracks.toml", "tracks_file", "points = [0, 0, 1, 2, 3, 4, 6, 8, 10, 12, 15]", "points = [0, 0, 1, 2, 3, 4, 6, 5, 10, 12, 15]",
     "values never decrease along a track (RC-A11)"),
    ("action_fields.toml", "action_fields_file", 'D = "UNITS:2(MOVE:1|DEV:1)"', 'D = "UNITS:2(MOVE:1|EXPLORE)"', "base.D: cannot parse"),
    ("player_board.toml", "player_board_file", '"sanctuary:4"', '"sanctuary:9"', "production[4] (P5): expected an integer from 1 to 6"),
    ("player_board.toml", "player_board_file", '["P5", "UPC:2", "sanctuary:4"]', '["P5", "UPC:2", "sanctuary:2"]',
     "the same building already uncovers P4"),
    ("goal_cards.csv", "goal_cards_file", "GC9,monuments,3", "GC9,temples,3", "line 15 (GC9), kind: unknown goal kind 'temples'"),
    ("path_cards.csv", "path_cards_file", "PS,saints", "PS,knowledge", "a second card of the path knowledge"),
    ("items.csv", "items_file", "Pouch;Horn;Boots;Lens", "Pouch;Horn;Boots;Lamp", "unknown item 'Lamp'"),
    ("setup.toml", "setup_file", "crystal_cap = 6", "crystal_cap = -1", "crystal_cap: expected an integer from 0"),
    ("setup.toml", "setup_file", "pigs = 10", "pigz = 10", "unknown key; did you mean 'pigs'?"),
    ("setup.toml", "setup_file", 'excavation_crystal = ["P", "R", "W"]', 'excavation_crystal = ["P", "X", "W"]',
     "excavation_crystal[1]: unknown crystal 'X'; expected one of W, R, P"),
    ("setup.toml", "setup_file", "excavation_steps = [4, 3, 2]", "excavation_steps = [4, 3]",
     "excavation_steps: expected a list of 3 entries"),
])
def test_bad_files_name_file_place_and_expectation(tmp_path, name, key, old, new, expected):
    """RC-A1: every error is one line naming the file, the row or key, and what was expected."""
    message = _error(tmp_path, name, old, new, key)
    assert expected in message and name in message and "\n" not in message


def test_missing_file_and_cross_checks(tmp_path):
    with pytest.raises(InputError, match="content file not found"):
        load_content(Config(rings_file=str(tmp_path / "nope.csv")))
    lines = (DATA_DIR / "goal_cards.csv").read_text().splitlines()
    short = tmp_path / "goal_cards.csv"
    short.write_text("\n".join(lines[:9]) + "\n")              # header + 3 cards
    with pytest.raises(InputError, match="expected at least 8 goal cards for 4 player"):
        load_content(Config(goal_cards_file=str(short)))        # RC-S27


@pytest.mark.parametrize("raw, expected", [
    ({"players": 5}, "config.players: expected a value from 1 to 4"),
    ({"path_sides": "abab"}, "config.path_sides: expected 'all_a', 'random' or six letters"),
    ({"tribe_draft": "auction"}, "config.tribe_draft: expected one of 'draft', 'random', 'custom'"),
    ({"dorian_presence": "slot"}, "config.dorian_presence"),
    ({"water_no_exit": "sink"}, "config.water_no_exit: expected one of 'back', 'stay'"),
    ({"solo_goals": "keep_three"}, "config.solo_goals: the solo goal rule (RC-A54) applies to 1 player"),
    ({"start_feilds": "random"}, "did you mean 'start_fields'"),
])
def test_config_validation(raw, expected):
    """Config switches of RC-A10, RC-V1..V9, RC-A40, RC-A54, RC-A57, RC-A58, RC-A66, RC-A74."""
    with pytest.raises(InputError) as err:
        build(Config, raw, "exp.toml", "config.")
    assert expected in str(err.value)


def test_config_defaults_are_the_spec_defaults():
    """The variant switches exist with the seed's rules as defaults: RC-V1 (random tribes) and
    RC-V2..RC-V5 (custom tribe) as ``tribe_draft``, RC-V6, RC-V7 ``known_old_tribes``, RC-V8,
    RC-V9 ``free_upgrade_choice``, RC-A10 sides."""
    assert build(Config, {"tribe_draft": "custom", "known_old_tribes": True, "free_upgrade_choice": True},
                 "x", "").tribe_draft == "custom"
    c = Config()
    assert not c.known_old_tribes and not c.free_upgrade_choice
    assert (c.players, c.path_sides, c.tribe_draft, c.copy_field, c.dorian_presence, c.goal_stones,
            c.start_fields, c.event_abilities, c.max_decisions_per_turn) == (
        4, "all_a", "draft", "slot", "field", "total", "by_seat", "ask", 500)
    assert Config(path_sides="babaab").sides() == (1, 0, 1, 0, 0, 1) and Config().sides() == (0,) * 6
    assert Config(path_sides="random").sides() is None


def test_player_board_and_supply_counts(content):
    """RC-S19 pieces of the tribes (10 pigs, 9 farms, 9 islands, 4 rafts, 9 rings); RC-S21 4 own
    stones; RC-S23 one unlock tile per old tribe; RC-S24 6 sanctuaries, 6 workshops (2 per
    terrain, RC-R130, built bottom first RC-R132), 5 monuments with increasing costs (RC-R138);
    RC-R126 a sanctuary costs no crystals (the board has no sanctuary costs)."""
    s, b = content.setup, content.board
    assert (s.pigs, s.pig_farms, s.islands, s.rafts, sum(r.count for r in content.rings)) == (10, 9, 9, 4, 9)
    assert s.own_stones == 4 and s.old_tribes == 3
    assert len(b.sanctuaries) == 6 and sum(len(c) for c in b.workshops) == 6 and len(b.monuments) == 5
    worth = [c[0] + 2 * c[1] + 3 * c[2] for c in b.monuments]
    assert worth == sorted(worth) and not hasattr(b, "sanctuary_costs")


def test_key_levels_fields_and_abilities(content):
    """RC-R11, RC-R22: six action fields and slots; RC-R192, RC-R193, RC-R197: key levels
    white < yellow < green < grey (grey the highest); RC-R105 four artifact colours; RC-R201 the
    'follower on this field' atom FH; RC-R204, RC-R67 permanent effects and RC-R65, RC-R66
    event-bound abilities are flags of the tribe and item files."""
    assert len(content.base_fields) == 6 and KEY_COLOURS == ("white", "yellow", "green", "grey")
    assert len(content.board.artifact_rows.covered) == 4
    assert any(a.op == "FH" for item in content.board.sanctuaries[2] for a in item)
    permanent = {t.id for t in content.tribes if t.permanent}
    assert permanent == {"Aynir", "Colteron", "Dorian", "Lexander", "Noorderling", "Vinder"}
    events = {a.id: a.event for a in content.tribes + content.items if a.event}
    assert set(events) == {"Goliath", "J'He", "K-01", "Booster", "Decoder", "GPR", "Schokbron", "Vertolker"}


def test_integer_tables_encode_every_effect(content):
    """RC-A1, RC-A63: the engine's integer tables hold every effect of the content exactly
    (decoding the atom table gives the parsed effects back), and the numeric tables agree."""
    from sim.games.recall.tables import build_tables, decode
    t = build_tables(content)
    named = {("base", 1): content.base_fields[1], ("upgrade", 0, 1): content.upgrades[0].sides[1],
             ("tribe", [x.id for x in content.tribes].index("Lentefee")): content.tribes[9].effect,
             ("covered", 3, 3): content.board.artifact_rows.covered[3][3]}
    for k, card in enumerate(content.key_cards):
        named[("key", k)] = card.effect
    for x, e in enumerate(content.base_fields):
        named[("base", x)] = e
    for u in content.upgrades:
        named[("upgrade", u.letter, 0)], named[("upgrade", u.letter, 1)] = u.sides
    for name, effect in named.items():
        assert decode(t, t.effect_id[name]) == effect, name
    assert t.atoms.dtype == np.int32 and t.tile_terrain.shape == (12, 7)
    assert t.workshop_cost[2, 1].tolist() == [0, 0, 1] and t.monument_cost.shape == (5, 3)
    assert t.scoring.track_points[7] == 8 and t.scoring.key_points.sum() == 1 * 3 + 2 * 5 + 3 * 4
