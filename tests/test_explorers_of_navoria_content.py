"""Explorers of Navoria content: the default data files (EN-A1..A10, spec tables A2, A5..A9), the
effect grammar (docs/explorers_of_navoria_model.md) and the loader's validation (every problem a
one-line InputError naming file, line / id or key, and what was expected)."""
from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from sim.core import datafiles
from sim.core.errors import InputError
from sim.games.explorers_of_navoria import content as en_content
from sim.games.explorers_of_navoria.config import Config
from sim.games.explorers_of_navoria.content import (
    DATA_DIR, DEFAULT_FILES, EffectError, content_hash, load_content, parse_effect,
)
from sim.games.explorers_of_navoria.content_types import (
    ANY, BUILD, COLOURS, GOOD, PER_ARTISAN, PTS, STEP, Atom,
)
from tests.scaffold import copy_content, edit, one_line_error


@pytest.fixture(scope="module")
def content():
    return load_content(Config())


def cards_by_id(content):
    return {c.id: c for c in content.cards}


# ---- the defaults match the spec's tables ----------------------------------------------------

def test_sixty_cards_twelve_per_colour_EN_A2(content):
    """EN-A2: 60 cards, 12 per colour, ids BL/YE/RE/PU/GR 01..12 in file order."""
    assert len(content.cards) == 60
    assert Counter(c.colour for c in content.cards) == {c: 12 for c in range(5)}
    prefixes = ("BL", "YE", "RE", "PU", "GR")
    assert [c.id for c in content.cards] == [f"{p}{i:02d}" for p in prefixes for i in range(1, 13)]
    assert content.pile(2) == tuple(range(24, 36))


def test_people_symbols_EN_A3_EN_R77(content):
    """EN-A3, EN-R77: one symbol on non-soldiers, two of one people on soldiers; each people on 3 cards per colour."""
    for card in content.cards:
        if COLOURS[card.colour] == "soldiers":
            assert sorted(card.symbols) == [0, 0, 0, 2]
        else:
            assert sorted(card.symbols) == [0, 0, 0, 1]
    for colour in range(5):
        per_people = Counter(max(range(4), key=lambda q: c.symbols[q]) for c in content.cards if c.colour == colour)
        assert per_people == {0: 3, 1: 3, 2: 3, 3: 3}


def test_trader_income_people_is_its_own_symbol_EN_A4_EN_R62(content):
    """EN-A4, EN-R62: every trader's income people is its own symbol; adventurers have flag income (EN-R82)."""
    for card in content.cards:
        if card.colour == 0:
            assert card.income_people >= 0 and card.symbols[card.income_people] == 1
            assert not card.income_flags
        else:
            assert card.income_people == -1
            assert card.income_flags == (card.colour == 3)


def test_card_spot_checks_table_A2_EN_A2_EN_A14(content):
    """Table A2 as parsed: BL01, YE02 (build first, EN-A14), RE01, PU10, GR01."""
    c = cards_by_id(content)
    assert c["BL01"].immediate == ((Atom(PTS, 0, 2),),) and c["BL01"].income_people == 0
    assert c["BL03"].immediate == ()
    assert c["YE02"].immediate == ((Atom(BUILD, 0, 1),), (Atom(GOOD, ANY, 1),))
    assert c["YE11"].immediate == ((Atom(BUILD, 2, 1),), (Atom(STEP, 2, 1),))
    assert c["RE01"].symbols == (2, 0, 0, 0) and c["RE01"].immediate == ()
    assert (c["RE01"].end_region, c["RE01"].end_points) == (0, 2)
    assert (c["RE08"].end_region, c["RE08"].symbols) == (1, (0, 0, 0, 2))
    assert c["PU10"].immediate == ((Atom(STEP, ANY, 1),),) and c["PU10"].income_flags
    assert c["PU12"].immediate == ((Atom(STEP, ANY, 2),),)
    assert c["PU02"].immediate == ((Atom(STEP, 0, 1),), (Atom(PTS, 0, 2),))
    assert c["GR01"].immediate == ((Atom(PTS, 0, 1),), (Atom(GOOD, 0, 1),), (Atom(GOOD, 1, 1),))
    assert c["GR10"].immediate == ((Atom(GOOD, ANY, 1),), (Atom(GOOD, ANY, 1),))
    assert [k for k in c if c[k].end_region >= 0] == [f"RE{i:02d}" for i in range(1, 13)]


def test_city_layout_table_A5_EN_A5(content):
    """EN-A5, EN-R29..R36: 15 spaces, 3 per colour, the seven reward kinds."""
    city = content.city
    assert [s.id for s in city] == ["CB1", "CB2", "CB3", "CY1", "CY2", "CY3", "CR1", "CR2", "CR3",
                                    "CP1", "CP2", "CP3", "CG1", "CG2", "CG3"]
    assert [s.colour for s in city] == [c for c in range(5) for _ in range(3)]
    s = {x.id: x.reward for x in city}
    assert [s[k] for k in ("CB1", "CB2", "CB3", "CR3")] == [((Atom(PTS, 0, n),),) for n in (6, 4, 2, 4)]
    assert s["CY1"] == s["CR1"] == ((Atom(BUILD, ANY, 1),),)
    assert s["CY3"] == s["CP3"] == s["CG3"] == ((Atom(GOOD, ANY, 1), Atom(STEP, ANY, 1)),)
    assert s["CY2"] == s["CP1"] == ((Atom(GOOD, ANY, 1),), (Atom(STEP, ANY, 1),))
    assert s["CR2"] == s["CP2"] == ((Atom(GOOD, 0, 1),), (Atom(GOOD, 0, 1),), (Atom(STEP, ANY, 1),))
    assert s["CG1"] == ((Atom(GOOD, 2, 1),), (Atom(GOOD, 2, 1),), (Atom(GOOD, ANY, 1),))
    assert s["CG2"] == ((Atom(GOOD, 1, 1),), (Atom(GOOD, 1, 1),), (Atom(PTS, 0, 2),))


def test_tracks_table_A6_EN_A6(content):
    """EN-A6: lengths 9/10/11, build spaces, flags, treasures 3/4/5."""
    t = content.tracks
    assert [(x.region, x.length, x.build, x.flags, x.treasure) for x in t] == [
        (0, 9, (2, 4, 6), (3, 5, 8), 3), (1, 10, (2, 5, 7), (3, 6, 9), 4), (2, 11, (3, 5, 8), (2, 6, 10), 5)]


def test_exploration_rewards_table_A7_EN_A7(content):
    """EN-A7: 4/2/1, 5/3/1, 6/3/2."""
    assert content.exploration == ((4, 2, 1), (5, 3, 1), (6, 3, 2))


def test_docks_table_A8_EN_A8(content):
    """EN-A8: base rewards and the rewards under posts 1..3; no goods anywhere."""
    f, d, g = content.docks
    assert f.base == (((Atom(PTS, 0, 3),),), ((Atom(STEP, 0, 1),),))
    assert f.under == (((Atom(PER_ARTISAN, 0, 1),),), ((Atom(PTS, 0, 2),),), ((Atom(STEP, ANY, 1),),))
    assert d.base == (((Atom(PTS, 0, 2),),), ((Atom(STEP, 1, 1),),))
    assert d.under == (((Atom(PTS, 0, 2),),), ((Atom(PER_ARTISAN, 0, 1),),), ((Atom(STEP, ANY, 1),),))
    assert g.base == (((Atom(PTS, 0, 4),),), ((Atom(STEP, 2, 1),),))
    assert g.under == (((Atom(PER_ARTISAN, 0, 1),),), ((Atom(STEP, ANY, 1),),), ((Atom(PTS, 0, 3),),))


def test_favour_tiles_table_A9_EN_A9(content):
    """EN-A9: the ten colour pairs, 3/2 with soldiers and 2/1 without; FT00 blank 0/0."""
    tiles = content.favour_tiles
    assert [t.id for t in tiles] == [f"FT{i:02d}" for i in range(1, 11)]
    assert sorted(tuple(sorted(t.kinds)) for t in tiles) == [(a, b) for a in range(5) for b in range(a + 1, 5)]
    for t in tiles:
        assert (t.first, t.second) == ((3, 2) if 2 in t.kinds else (2, 1))
    assert content.blank_tile is not None
    assert (content.blank_tile.id, content.blank_tile.kinds, content.blank_tile.first, content.blank_tile.second) == ("FT00", (), 0, 0)


def test_setup_tokens_and_favour_spaces_EN_A1_EN_A10(content):
    """EN-A1 (EN-S5): 2 tokens per colour with 2 players, 3 with 3-4; EN-A10: humans, goblins, beasts, sprites."""
    assert content.tokens_per_colour == {2: 2, 3: 3, 4: 3}
    assert content.favour_space_people == (0, 1, 2, 3)


def test_every_default_file_has_an_assumption_header():
    for name in DEFAULT_FILES.values():
        first = (DATA_DIR / name).read_text().splitlines()[0]
        assert first.startswith("#") and "ASSUMPTION EN-A" in first


def test_content_hash_is_stable_and_ignores_paths(content, tmp_path):
    other = tmp_path / "cards.csv"
    shutil.copy(DATA_DIR / "cards.csv", other)
    again = load_content(Config(cards_file=str(other)))
    assert again.sources["cards_file"] == str(other)
    assert content_hash(again) == content_hash(content)
    edit(other, "BL01,traders,human,pts:2", "BL01,traders,human,pts:3")
    assert content_hash(load_content(Config(cards_file=str(other)))) != content_hash(content)


# ---- the effect grammar ----------------------------------------------------------------------

def test_parse_effect_grammar():
    assert parse_effect("") == parse_effect("-") == parse_effect("  - ") == ()
    assert parse_effect("good:any|step:any:1") == ((Atom(GOOD, ANY, 1), Atom(STEP, ANY, 1)),)
    assert parse_effect("build:desert + per_artisan:2 + good:F") == (
        (Atom(BUILD, 1, 1),), (Atom(PER_ARTISAN, 0, 2),), (Atom(GOOD, 2, 1),))
    assert parse_effect("pts:1|build:any+step:glacier:3") == (
        (Atom(PTS, 0, 1), Atom(BUILD, ANY, 1)), (Atom(STEP, 2, 3),))


@pytest.mark.parametrize("text,expected", [
    ("pts:x", "'pts:x': expected an integer, got 'x'"),
    ("pts", "'pts': expected pts:<n>"),
    ("good:Z", "unknown good 'Z'"),
    ("good:W|good:M|good:F", "at most two alternatives per item"),
    ("step:forest", "expected step:<region|any>:<n>"),
    ("step:forest:0", "expected an integer from 1"),
    ("step:jungle:1", "unknown region 'jungle'"),
    ("build:moon", "unknown region 'moon'"),
    ("pts:1++pts:2", "empty item"),
    ("gold:1", "unknown atom 'gold:1'"),
    ("per_artisan:-1", "expected an integer from 0"),
])
def test_parse_effect_errors(text, expected):
    with pytest.raises(EffectError) as err:
        parse_effect(text)
    assert expected in str(err.value)


# ---- bad content files -----------------------------------------------------------------------

def error_of(files, **config) -> str:
    return one_line_error(load_content, Config(**{**files, **config}))


@pytest.mark.parametrize("fname,old,new,expected", [
    # cards.csv (EN-A2..A4)
    ("cards.csv", "id,colour,symbols", "id,color,symbols", "cards.csv: line 8: column color: unknown key; did you mean 'colour'?"),
    ("cards.csv", "id,colour,symbols,immediate,income,end", "id,colour,symbols,immediate,income",
     "cards.csv: line 8: missing column 'end'"),
    ("cards.csv", "BL02,traders,human,pts:1", "BL02,merchants,human,pts:1",
     "cards.csv: line 10 (BL02), colour: unknown colour 'merchants'; expected one of traders, builders"),
    ("cards.csv", "BL03,traders,human,", "BL03,traders,elf,", "cards.csv: line 11 (BL03), symbols: unknown people 'elf'"),
    ("cards.csv", "RE01,soldiers,human:2", "RE01,soldiers,human:two", "cards.csv: line 33 (RE01), symbols: expected an integer, got 'two'"),
    ("cards.csv", "RE01,soldiers,human:2", "RE01,soldiers,human:", "cards.csv: line 33 (RE01), symbols: expected an integer, got ''"),
    ("cards.csv", "RE01,soldiers,human:2", "RE01,soldiers,human:0", "cards.csv: line 33 (RE01), symbols: expected an integer from 1"),
    ("cards.csv", "RE02,soldiers,goblin:2", "RE02,soldiers,", "cards.csv: line 34 (RE02), symbols: expected one or more people symbols"),
    ("cards.csv", "YE02,builders,goblin,build:forest+good:any", "YE02,builders,goblin,build:forest+good:gold",
     "cards.csv: line 22 (YE02), immediate: cannot parse 'build:forest+good:gold': 'good:gold': unknown good 'gold'"),
    ("cards.csv", "PU10,adventurers,goblin,step:any:1", "PU10,adventurers,goblin,step:any",
     "cards.csv: line 54 (PU10), immediate: cannot parse 'step:any': 'step:any': expected step:<region|any>:<n>"),
    ("cards.csv", "GR01,artisans,human,pts:1+good:W+good:M", "GR01,artisans,human,pts:1+good:W|good:M|good:F",
     "cards.csv: line 57 (GR01), immediate: cannot parse"),
    ("cards.csv", "BL04,traders,goblin,pts:2,people:goblin", "BL04,traders,goblin,pts:2,people:orc",
     "cards.csv: line 12 (BL04), income: unknown people 'orc'"),
    ("cards.csv", "PU01,adventurers,human,step:forest:2,flags", "PU01,adventurers,human,step:forest:2,flag",
     "cards.csv: line 45 (PU01), income: expected people:<people>, flags or '-', got 'flag'"),
    ("cards.csv", "posts:forest:2\nRE02", "posts:forst:2\nRE02", "cards.csv: line 33 (RE01), end: unknown region 'forst'"),
    ("cards.csv", "posts:forest:2\nRE02", "points:forest:2\nRE02", "cards.csv: line 33 (RE01), end: expected posts:<region>:<points per post>"),
    ("cards.csv", "posts:forest:2\nRE02", "posts:forest:-2\nRE02", "cards.csv: line 33 (RE01), end: expected an integer from 0"),
    ("cards.csv", "GR12,", "GR11,", "cards.csv: line 68 (GR11), id: duplicate id (first on line 67)"),
    ("cards.csv", "BL05,traders,goblin,pts:1,people:goblin,-", "BL05,traders,goblin,pts:1,people:goblin,-,extra",
     "cards.csv: line 13: expected 6 fields"),
    # city.csv (EN-A5)
    ("city.csv", "CB2,traders,pts:4", "CB2,traders,points:4", "city.csv: line 6 (CB2), reward: cannot parse 'points:4': unknown atom"),
    ("city.csv", "CY3,builders", "CY3,builder", "city.csv: line 10 (CY3), colour: unknown colour 'builder'"),
    ("city.csv", "CR3,", "CR2,", "city.csv: line 13 (CR2), space: duplicate id (first on line 12)"),
    ("city.csv", "CG1,artisans,good:F+good:F+good:any", "CG1,artisans,good:F+good:F+good:any+", "city.csv: line 17 (CG1), reward: cannot parse"),
    # tracks.csv (EN-A6)
    ("tracks.csv", "forest,9,2,4,6", "forest,9,2,4,9", "tracks.csv: line 6 (forest), build1..build3: build spaces must lie strictly between the start 0 and the treasure 9 (1..8), got 9"),
    ("tracks.csv", "desert,10,2,5,7", "desert,10,5,2,7", "tracks.csv: line 7 (desert), build1..build3: build spaces must be strictly increasing, got 5 then 2"),
    ("tracks.csv", "3;6;9", "3;6;6", "tracks.csv: line 7 (desert), flags: flags must be strictly increasing, got 6 then 6"),
    ("tracks.csv", "2;6;10", "0;6;10", "tracks.csv: line 8 (glacier), flags: flags must lie strictly between the start 0 and the treasure 11"),
    ("tracks.csv", "2;6;10", "2;6;11", "tracks.csv: line 8 (glacier), flags: flags must lie strictly between"),
    ("tracks.csv", "3;5;8", "3;five;8", "tracks.csv: line 6 (forest), flags: expected an integer, got 'five'"),
    ("tracks.csv", "glacier,11", "glacier,3", "tracks.csv: line 8 (glacier), length: expected an integer from 4"),
    ("tracks.csv", "glacier,11,3,5,8,2;6;10,5", "glacier,11,3,5,8,2;6;10,x", "tracks.csv: line 8 (glacier), treasure: expected an integer"),
    ("tracks.csv", "glacier,11", "tundra,11", "tracks.csv: line 8, track: unknown region 'tundra'"),
    ("tracks.csv", "glacier,11", "desert,11", "tracks.csv: line 8 (desert), track: duplicate region (first on line 7)"),
    # exploration_rewards.csv (EN-A7)
    ("exploration_rewards.csv", "desert,5,3,1", "desert,5,3.5,1", "exploration_rewards.csv: line 6 (desert), second: expected an integer, got '3.5'"),
    ("exploration_rewards.csv", "forest,4,2,1", "forest,pts:4,2,1", "exploration_rewards.csv: line 5 (forest), first: expected an integer"),
    ("exploration_rewards.csv", "glacier,6,3,2\n", "", "exploration_rewards.csv: missing the glacier row"),
    # docks.csv (EN-A8)
    ("docks.csv", "forest,pts:3", "forest,good:W", "docks.csv: line 5 (forest), base1: 'good:W': a dock reward may not give goods"),
    ("docks.csv", "per_artisan:1,step:any:1\n", "per_artisan:1,pts:1|good:any\n", "docks.csv: line 6 (desert), under3: 'pts:1|good:any': a dock reward may not give goods"),
    ("docks.csv", "glacier,pts:4", "glacier,pts:four", "docks.csv: line 7 (glacier), base1: cannot parse 'pts:four'"),
    ("docks.csv", "dock,base1", "dock,bonus1", "docks.csv: line 4: column bonus1: unknown key"),
    # favour_tiles.csv (EN-A9)
    ("favour_tiles.csv", "FT01,traders+builders", "FT01,traders+traders", "favour_tiles.csv: line 5 (FT01), kinds: expected two different colours"),
    ("favour_tiles.csv", "FT02,traders+soldiers", "FT02,traders+soldiers+builders", "favour_tiles.csv: line 6 (FT02), kinds: expected two colours joined by '+'"),
    ("favour_tiles.csv", "FT03,traders+adventurers", "FT03,traders+pirates", "favour_tiles.csv: line 7 (FT03), kinds: unknown colour 'pirates'"),
    ("favour_tiles.csv", "FT04,traders+artisans,2,1", "FT04,traders+artisans,2,-1", "favour_tiles.csv: line 8 (FT04), second: expected an integer from 0"),
    ("favour_tiles.csv", "FT10,adventurers+artisans", "FT10,", "favour_tiles.csv: line 15 (FT00), kinds: a second blank tile (empty kinds; the first is on line 14)"),
    ("favour_tiles.csv", "FT10,", "FT09,", "favour_tiles.csv: line 14 (FT09), tile: duplicate id (first on line 13)"),
    # setup.toml (EN-A1, EN-A10)
    ("setup.toml", "{2 = 2, 3 = 3, 4 = 3}", "{2 = 2, 3 = 3}", "setup.toml: tokens_per_colour.4: missing key"),
    ("setup.toml", "{2 = 2, 3 = 3, 4 = 3}", "{2 = 2, 3 = 3, 4 = -1}", "setup.toml: tokens_per_colour.4: expected an integer from 0"),
    ("setup.toml", "{2 = 2, 3 = 3, 4 = 3}", "{2 = 2, 3 = 3, 4 = 3, 5 = 3}", "setup.toml: tokens_per_colour.5: unknown key"),
    ("setup.toml", "{2 = 2, 3 = 3, 4 = 3}", "{2 = 2, 3 = 3, 4 = \"three\"}", "setup.toml: tokens_per_colour.4: expected an integer, got 'three'"),
    ("setup.toml", "{2 = 2, 3 = 3, 4 = 3}", "3", "setup.toml: tokens_per_colour: expected a table"),
    ("setup.toml", '"beasts", "sprites"]', '"beasts", "humans"]', "setup.toml: favour_space_people[3]: 'humans' appears twice"),
    ("setup.toml", '"beasts", "sprites"]', '"beasts", "elves"]', "setup.toml: favour_space_people[3]: unknown people 'elves'"),
    ("setup.toml", '"beasts", "sprites"]', '"beasts"]', "setup.toml: favour_space_people: expected a list of the 4 peoples"),
    ("setup.toml", "favour_space_people", "favor_space_people", "setup.toml: favor_space_people: unknown key; did you mean 'favour_space_people'?"),
    ("setup.toml", "tokens_per_colour = {2 = 2, 3 = 3, 4 = 3}", "tokens_per_colour = {2 = 2, 3 = 3, 4 = 3", "setup.toml: not valid TOML"),
])
def test_bad_content_files_name_file_and_place_EN_A1_to_A10(tmp_path, fname, old, new, expected):
    """EN-A1..A10 data: a mistake names the file, the line and id (or key) and what was expected."""
    files = copy_content(en_content, tmp_path)
    edit(tmp_path / fname, old, new)
    message = error_of(files)
    assert expected in message
    assert message.startswith(str(tmp_path / fname))


def test_fewer_cards_per_colour_are_legal_EN_A19(tmp_path):
    """EN-A19: a colour with fewer than 3 cards loads (its offer is simply short)."""
    files = copy_content(en_content, tmp_path)
    rows = ["id,colour,symbols,immediate,income,end",
            "T1,traders,human,,people:humans,", "Y1,builders,goblin,build:any,,", "R1,soldiers,beast:2,,,posts:glacier:3",
            "P1,adventurers,sprite,step:any:2,flags,", "G1,artisans,human+goblin,good:any|pts:1,,"]
    (tmp_path / "cards.csv").write_text("\n".join(rows) + "\n")
    content = load_content(Config(**files))
    assert [c.id for c in content.cards] == ["T1", "Y1", "R1", "P1", "G1"]
    assert content.cards[4].symbols == (1, 1, 0, 0)
    assert (content.cards[2].end_region, content.cards[2].end_points) == (2, 3)
    assert content.pile(3) == (3,)


def test_a_colour_without_cards_is_refused_EN_A2(tmp_path):
    files = copy_content(en_content, tmp_path)
    lines = [ln for ln in (tmp_path / "cards.csv").read_text().splitlines() if not ln.startswith("PU")]
    (tmp_path / "cards.csv").write_text("\n".join(lines) + "\n")
    message = error_of(files)
    assert message.startswith(str(tmp_path / "cards.csv")) and "no adventurers card" in message


def test_a_colour_without_city_spaces_is_refused_EN_A5(tmp_path):
    files = copy_content(en_content, tmp_path)
    lines = [ln for ln in (tmp_path / "city.csv").read_text().splitlines() if not ln.startswith("CG")]
    (tmp_path / "city.csv").write_text("\n".join(lines) + "\n")
    assert "city.csv: no city space of colour artisans" in error_of(files)


def test_fewer_than_four_favour_tiles_is_refused_EN_S10_EN_A9(tmp_path):
    files = copy_content(en_content, tmp_path)
    lines = (tmp_path / "favour_tiles.csv").read_text().splitlines()
    (tmp_path / "favour_tiles.csv").write_text("\n".join(lines[:4 + 3] + lines[-1:]) + "\n")
    assert "favour_tiles.csv: expected at least 4 favour tiles that are not blank (4 are drawn, EN-S10), got 3" in error_of(files)


def test_blank_variant_needs_a_blank_tile_EN_V1(tmp_path):
    """EN-V1: the 2-player variant draws on the blank tile; without one the config is refused."""
    files = copy_content(en_content, tmp_path)
    edit(tmp_path / "favour_tiles.csv", "FT00,,0,0\n", "")
    content = load_content(Config(**files))
    assert content.blank_tile is None
    message = error_of(files, players=2, blank_tile_variant=True)
    assert "favour_tiles.csv: blank_tile_variant = true needs a blank tile" in message


def test_missing_and_empty_content_files(tmp_path):
    with pytest.raises(InputError, match="nope.csv: content file not found"):
        load_content(Config(docks_file=str(tmp_path / "nope.csv")))
    (tmp_path / "empty.csv").write_text("# only a comment\n")
    with pytest.raises(InputError, match="empty.csv: empty file: expected a header line track,length"):
        load_content(Config(tracks_file=str(tmp_path / "empty.csv")))


def test_comment_lines_and_singular_or_plural_peoples(tmp_path):
    """Data files may hold comment and blank lines; peoples may be written singular or plural."""
    files = copy_content(en_content, tmp_path)
    edit(tmp_path / "cards.csv", "BL01,traders,human,pts:2,people:human", "\n# a note\nBL01,traders,humans,pts:2,people:humans")
    edit(tmp_path / "setup.toml", '"humans", "goblins"', '"human", "goblin"')
    content = load_content(Config(**files))
    assert content.cards[0].symbols == (1, 0, 0, 0) and content.cards[0].income_people == 0
    assert content.favour_space_people == (0, 1, 2, 3)


# ---- the shared file helpers and Animal Kingdoms -------------------------------------------------

def test_animal_kingdoms_uses_the_core_file_helpers_unchanged():
    """The helpers moved to sim/core/datafiles.py; AK's content (and its hash) is what it was."""
    from sim.games.animal_kingdoms import content as ak
    from sim.games.animal_kingdoms.config import Config as AKConfig
    assert ak.read_csv is datafiles.read_csv and ak.read_text is datafiles.read_text
    assert ak.read_toml is datafiles.read_toml and ak.integer is datafiles.integer
    assert ak.resolve(AKConfig(), "cards_file") == ak.DATA_DIR / "cards.csv"
    assert ak.content_hash(ak.load_content(AKConfig())) == "73b5dabc578a4987"   # value before the move


def test_datafiles_resolve_uses_config_value_or_default(tmp_path):
    assert datafiles.resolve(Config(), "cards_file", DATA_DIR, DEFAULT_FILES) == DATA_DIR / "cards.csv"
    assert datafiles.resolve(Config(cards_file="x/y.csv"), "cards_file", DATA_DIR, DEFAULT_FILES) == Path("x/y.csv")
