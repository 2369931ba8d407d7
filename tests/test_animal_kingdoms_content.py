"""Animal Kingdoms content: the default data files (AK-A5, AK-A6, AK-A12, AK-A20, AK-A21, AK-A42)
and the loader's validation (every problem a one-line InputError naming file and place)."""
from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from sim.core.errors import InputError
from sim.core.experiment import load_experiment
from sim.games.animal_kingdoms import content as ak_content
from sim.games.animal_kingdoms.config import Config
from sim.games.animal_kingdoms.content import DATA_DIR, content_hash, load_content
from sim.games.animal_kingdoms.content_types import DECREE_TYPES
from sim.games.animal_kingdoms.vocabulary import PREDICATES, RELATIONS
from tests.scaffold import copy_content, edit, one_line_error

SPECIES = ("Bear", "Eagle", "Fox", "Hare", "Lion", "Owl", "Turtle", "Wolf")


@pytest.fixture(scope="module")
def content():
    return load_content(Config())


def test_cards_64_species_and_ranks_AK_S5_AK_R8_AK_A6(content):
    """AK-S5, AK-R8, AK-A6: 64 cards, 8 species x ranks 1..8, one of each."""
    assert len(content.cards) == 64
    assert content.species == SPECIES
    assert Counter((c.species, c.rank) for c in content.cards) == {(s, r): 1 for s in SPECIES for r in range(1, 9)}
    assert [c.index for c in content.cards] == list(range(64))


def test_decree_deck_AK_S8_AK_A12(content):
    """AK-S8, AK-A12: 30 decrees, the spec's table, every type present (AK-R20..R24)."""
    assert len(content.decrees) == 30
    assert [d.id for d in content.decrees] == [f"DC{i:02d}" for i in range(1, 31)]
    types = Counter(d.type for d in content.decrees)
    assert types == {"SIMPLE": 8, "SELF": 8, "LEFT": 4, "RIGHT": 4, "ALL_OTHERS": 6}
    dc = {d.id: d for d in content.decrees}
    assert (dc["DC03"].condition, dc["DC03"].k) == ("RANK_AT_LEAST", 5)
    assert dc["DC05"].values == (1, 2, 7, 8)
    assert dc["DC07"].values == ("Bear", "Eagle", "Fox", "Hare")
    assert (dc["DC28"].quantifier, dc["DC30"].quantifier, dc["DC25"].quantifier) == ("any", "any", "all")
    for d in content.decrees:
        assert d.type in DECREE_TYPES
        assert d.condition in (PREDICATES if d.type == "SIMPLE" else RELATIONS)


def test_kingdom_layout_AK_S1_AK_A5(content):
    """AK-S1, AK-A5: five kingdoms of sizes 4..8, a council of 2 each, a clockwise ring."""
    ks = content.kingdoms
    assert [(k.id, k.size, k.council_spaces) for k in ks] == [(f"K{n}", n, 2) for n in range(4, 9)]
    assert [ks[k.left].id for k in ks] == ["K8", "K4", "K5", "K6", "K7"]
    assert [ks[k.right].id for k in ks] == ["K5", "K6", "K7", "K8", "K4"]
    assert content.scoring_order == (0, 1, 2, 3, 4)            # AK-E2: from the smallest, clockwise


def test_tiles_AK_A20_AK_A21(content):
    """AK-A20, AK-A21 (and the counts of AK-S11, AK-S14): 15 orange tiles summing to 105, 4 green 2..5."""
    assert sorted(content.first_place) == [4, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 10]
    assert sum(content.first_place) == 105
    assert content.first_place_per_kingdom == 3
    assert sorted(content.first_retreat) == [2, 3, 4, 5]


def test_robot_levels_AK_V18_AK_A42(content):
    """AK-V18..V20, AK-A42: five levels; hard reveals 4 cards, extra hard has two bonus cards."""
    lv = content.robot_levels
    assert list(lv) == ["easy", "medium", "normal", "hard", "extra_hard"]
    assert [(lv[n].battle_cards, lv[n].bonus_cards) for n in lv] == [(2, 0), (3, 0), (3, 1), (4, 1), (4, 2)]
    assert content.robot_markers == 18
    assert content.kingdoms[content.robot_low_rank_default].id == "K4"


def test_content_hash_is_stable_and_ignores_paths(content, tmp_path):
    other = tmp_path / "cards.csv"
    shutil.copy(DATA_DIR / "cards.csv", other)
    assert content_hash(load_content(Config(cards_file=str(other)))) == content_hash(content)


# ---- bad content files -----------------------------------------------------------------------

def error_of(files, **config) -> str:
    return one_line_error(load_content, Config(**{**files, **config}))


@pytest.mark.parametrize("fname,old,new,expected", [
    ("decrees.csv", "DC02,SIMPLE,RANK_ODD", "DC02,SIMPLE,RANK_WEIRD", "decrees.csv: line 7 (DC02), condition: unknown predicate 'RANK_WEIRD'"),
    ("decrees.csv", "DC09,SELF,HIGHER", "DC09,DIAGONAL,HIGHER", "decrees.csv: line 14 (DC09), type: expected one of"),
    ("decrees.csv", "DC03,SIMPLE,RANK_AT_LEAST,5", "DC03,SIMPLE,RANK_AT_LEAST,", "decrees.csv: line 8 (DC03), k: RANK_AT_LEAST needs the parameter k"),
    ("decrees.csv", "Bear Eagle Fox Hare", "Bear Eagle Fox Tiger", "decrees.csv: line 12 (DC07), set: unknown species 'Tiger'"),
    ("decrees.csv", "DC09,SELF,HIGHER,,,,", "DC09,SELF,HIGHER,,,all,", "(DC09), quantifier: only ALL_OTHERS decrees take a quantifier"),
    ("decrees.csv", "DC25,ALL_OTHERS,HIGHER,,,all", "DC25,ALL_OTHERS,HIGHER,,,most", "(DC25), quantifier: expected all or any"),
    ("decrees.csv", "DC30,", "DC29,", "(DC29), id: duplicate id (first on line"),
    ("decrees.csv", "id,type,condition", "id,kind,condition", "decrees.csv: line 5: column kind: unknown key; did you mean 'id'?"),
    ("kingdoms.csv", "K4,4,2,K8,K5", "K4,0,2,K8,K5", "kingdoms.csv: line 4 (K4), size: expected an integer from 1 to 40, got 0"),
    ("kingdoms.csv", "K5,5,2,K4,K6", "K5,5,2,K9,K6", "kingdoms.csv: line 5 (K5), left: unknown kingdom 'K9'"),
    ("kingdoms.csv", "K6,6,2,K5,K7", "K6,6,2,K5,K6", "(K6), right: a kingdom cannot be its own neighbour"),
    ("kingdoms.csv", "K7,7,2,K6,K8", "K7,seven,2,K6,K8", "(K7), size: expected an integer"),
    ("cards.csv", "Bear,3", "Bear,x", "cards.csv: line 6, rank: expected an integer"),
    ("tiles.toml", "first_retreat = [2, 3, 4, 5]", "first_retreat = [2, 3]", "tiles.toml: first_retreat: expected at least 3 tiles"),
    ("tiles.toml", "first_place = [4, 5,", "first_place = [5,", "tiles.toml: first_place: expected at least 15 tiles"),
    ("tiles.toml", "first_place_per_kingdom = 3", "first_place_per_kingdom = 3\nbonus = 1", "tiles.toml: bonus: unknown key"),
    ("robot.toml", "[levels.hard]", "[levels.harder]", "robot.toml: levels.harder: unknown key"),
    ("robot.toml", 'low_rank_default = "K4"', 'low_rank_default = "K2"', "robot.toml: low_rank_default: unknown kingdom 'K2'"),
])
def test_bad_content_files_name_file_and_place(tmp_path, fname, old, new, expected):
    """AK-A5, AK-A6, AK-A12, AK-A20, AK-A21, AK-A42 data: a mistake names the file and the line / key."""
    files = copy_content(ak_content, tmp_path)
    edit(tmp_path / fname, old, new)
    message = error_of(files)
    assert expected in message
    assert str(tmp_path / fname) in message


def test_too_few_decrees_for_three_ages(tmp_path):
    """AK-R49, AK-A33: three ages of five decrees need 15 cards."""
    files = copy_content(ak_content, tmp_path)
    lines = (tmp_path / "decrees.csv").read_text().splitlines()
    (tmp_path / "decrees.csv").write_text("\n".join(lines[:5 + 10]) + "\n")
    assert "expected at least 15 decrees" in error_of(files)


def test_missing_content_file(tmp_path):
    with pytest.raises(InputError, match="content file not found"):
        load_content(Config(kingdoms_file=str(tmp_path / "nope.csv")))


def test_a_designer_can_extend_decrees_with_the_vocabulary(tmp_path):
    """AK-A12: a new decree from existing terms (WITHIN with k, SAME_RANK) loads and is used."""
    files = copy_content(ak_content, tmp_path)
    with open(tmp_path / "decrees.csv", "a") as f:
        f.write("DC31,LEFT,WITHIN,1,,,within 1 of the left neighbour\nDC32,ALL_OTHERS,SAME_RANK,,,any,a twin\n")
    content = load_content(Config(**files))
    assert [d.id for d in content.decrees][-2:] == ["DC31", "DC32"]
    assert content.decrees[-2].k == 1


# ---- impossible setups and unknown keys through an experiment file ---------------------------

def write_experiment(tmp_path, config_lines: str, seats: int = 4) -> Path:
    path = tmp_path / "exp.toml"
    path.write_text("[experiment]\nname = \"x\"\ngame = \"animal_kingdoms\"\ngames = 4\nseed = 1\n\n[config]\n"
                    + config_lines + "\n" + "[[seats]]\nstrategy = \"random\"\n" * seats)
    return path


def test_six_players_is_an_input_error_AK_A1(tmp_path):
    """AK-A1: 2..5 players (1 = solo); six players is named as config.players."""
    with pytest.raises(InputError) as err:
        load_experiment(write_experiment(tmp_path, "players = 6", 6))
    assert "exp.toml: config.players: expected a value from 1 to 5, got 6" in str(err.value)


def test_unknown_config_key_is_an_input_error(tmp_path):
    with pytest.raises(InputError) as err:
        load_experiment(write_experiment(tmp_path, "players = 4\npeace_variant = true"))
    assert "exp.toml: config.peace_variant: unknown key" in str(err.value)


def test_bad_switch_value_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="config.placement_mode: expected one of 'dense', 'competition'"):
        load_experiment(write_experiment(tmp_path, "players = 4\nplacement_mode = \"olympic\""))


def test_council_after_age_three_is_refused_AK_R41(tmp_path):
    """AK-R41: no council move after Age III."""
    with pytest.raises(InputError, match="council_moves_after_ages: expected distinct ages from 1 to 2"):
        load_experiment(write_experiment(tmp_path, "players = 4\ncouncil_moves_after_ages = [1, 3]"))


def test_a_kingdom_of_size_zero_through_an_experiment_file(tmp_path):
    """A bad layout file named from the experiment (relative path) fails before anything runs."""
    copy_content(ak_content, tmp_path)
    edit(tmp_path / "kingdoms.csv", "K8,8,2,K7,K4", "K8,0,2,K7,K4")
    exp = load_experiment(write_experiment(tmp_path, "players = 4\nkingdoms_file = \"kingdoms.csv\""))
    with pytest.raises(InputError) as err:
        exp.content("base")
    assert "kingdoms.csv: line 8 (K8), size: expected an integer from 1 to 40, got 0" in str(err.value)


def test_too_few_cards_for_the_players(tmp_path):
    files = copy_content(ak_content, tmp_path)
    rows = [f"{s},{r}" for s in SPECIES for r in (1, 2)]
    (tmp_path / "cards.csv").write_text("species,rank\n" + "\n".join(rows) + "\n")
    assert "5 players with hands of 4 need at least 21 cards, got 16" in error_of(files, players=5)
