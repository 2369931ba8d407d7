"""Load and validate the Animal Kingdoms content files (format: docs/animal_kingdoms_content.md).

Five files, each replaceable through a ``*_file`` config key (empty = the default in
``DATA_DIR``): ``cards.csv`` (AK-A6), ``decrees.csv`` (AK-A12, vocabulary in
``vocabulary.py``), ``kingdoms.csv`` (AK-A5), ``tiles.toml`` (AK-A20, AK-A21) and
``robot.toml`` (AK-A37..A42). Everything is checked before the engine sees it: a problem is
an ``InputError`` naming the file, the line (and the row's id) or key, and what was expected.
CSV files may hold ``#`` comment lines and blank lines.
"""
from __future__ import annotations

from pathlib import Path

from sim.core import datafiles, hashing
from sim.core.datafiles import check_keys, integer, read_csv, read_text, read_toml  # noqa: F401 (re-exported)
from sim.core.errors import InputError
from sim.games.animal_kingdoms.config import LEVELS
from sim.games.animal_kingdoms.content_types import (
    AGES, DECREE_TYPES, QUANTIFIERS, Card, Content, Decree, Kingdom, RobotLevel,
)
from sim.games.animal_kingdoms.vocabulary import PREDICATES, RELATIONS

DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_FILES = {"cards_file": "cards.csv", "decrees_file": "decrees.csv",
                 "kingdoms_file": "kingdoms.csv", "tiles_file": "tiles.toml", "robot_file": "robot.toml"}
CARD_COLUMNS = ("species", "rank")
DECREE_COLUMNS = ("id", "type", "condition", "k", "set", "quantifier", "text")
KINGDOM_COLUMNS = ("id", "size", "council_spaces", "left", "right")
TILE_KEYS = ("first_place", "first_place_per_kingdom", "first_retreat")
ROBOT_KEYS = ("markers", "low_rank_default", "levels")
LEVEL_KEYS = ("battle_cards", "bonus_cards")
MAX_KINGDOMS = 12


def resolve(config, key: str) -> Path:
    return datafiles.resolve(config, key, DATA_DIR, DEFAULT_FILES)


def load_cards(path: Path) -> tuple[tuple[Card, ...], tuple[str, ...]]:
    cards, species = [], []
    for number, row in read_csv(path, CARD_COLUMNS, CARD_COLUMNS):
        place = f"line {number}"
        name = row["species"]
        if not name:
            raise InputError(path, place + ", species", "expected a species name")
        rank = integer(path, place + ", rank", row["rank"], 1, 99)
        if name not in species:
            species.append(name)
        cards.append(Card(len(cards), name, rank))
    if len(cards) < 2:
        raise InputError(path, None, f"expected at least 2 cards, got {len(cards)}")
    return tuple(cards), tuple(species)


def load_decrees(path: Path, species: tuple[str, ...]) -> tuple[Decree, ...]:
    decrees, seen = [], {}
    for number, row in read_csv(path, DECREE_COLUMNS, ("id", "type", "condition")):
        did = row["id"]
        place = f"line {number} ({did})" if did else f"line {number}"
        if not did:
            raise InputError(path, f"line {number}, id", "expected a decree id")
        if did in seen:
            raise InputError(path, place + ", id", f"duplicate id (first on line {seen[did]})")
        seen[did] = number
        dtype = row["type"]
        if dtype not in DECREE_TYPES:
            raise InputError(path, place + ", type", f"expected one of {', '.join(DECREE_TYPES)}, got {dtype!r}")
        vocab = PREDICATES if dtype == "SIMPLE" else RELATIONS
        kind = "predicate" if dtype == "SIMPLE" else "relation"
        cond = row["condition"]
        if cond not in vocab:
            raise InputError(path, place + ", condition",
                             f"unknown {kind} {cond!r} for a {dtype} decree; expected one of {', '.join(vocab)}")
        term = vocab[cond]
        k, values = None, ()
        if "k" in term.params:
            if not row.get("k"):
                raise InputError(path, place + ", k", f"{cond} needs the parameter k (an integer)")
            k = integer(path, place + ", k", row["k"])
        elif row.get("k"):
            raise InputError(path, place + ", k", f"{cond} takes no parameter k")
        if "set" in term.params:
            items = row.get("set", "").split()
            if not items:
                raise InputError(path, place + ", set", f"{cond} needs a set (values separated by spaces)")
            if term.set_kind == "rank":
                values = tuple(integer(path, place + ", set", v, 1, 99) for v in items)
            else:
                for v in items:
                    if v not in species:
                        raise InputError(path, place + ", set",
                                         f"unknown species {v!r}; expected one of {', '.join(species)}")
                values = tuple(items)
        elif row.get("set"):
            raise InputError(path, place + ", set", f"{cond} takes no set")
        quantifier = row.get("quantifier", "")
        if dtype == "ALL_OTHERS":
            quantifier = quantifier or "all"
            if quantifier not in QUANTIFIERS:
                raise InputError(path, place + ", quantifier", f"expected all or any, got {quantifier!r}")
        elif quantifier:
            raise InputError(path, place + ", quantifier", f"only ALL_OTHERS decrees take a quantifier, not {dtype}")
        else:
            quantifier = "all"
        decrees.append(Decree(len(decrees), did, dtype, cond, k, values, quantifier, row.get("text", "")))
    return tuple(decrees)


def load_kingdoms(path: Path) -> tuple[Kingdom, ...]:
    rows = read_csv(path, KINGDOM_COLUMNS, KINGDOM_COLUMNS)
    if not 2 <= len(rows) <= MAX_KINGDOMS:
        raise InputError(path, None, f"expected 2 to {MAX_KINGDOMS} kingdoms, got {len(rows)}")
    ids = {}
    for number, row in rows:
        if not row["id"]:
            raise InputError(path, f"line {number}, id", "expected a kingdom id")
        if row["id"] in ids:
            raise InputError(path, f"line {number} ({row['id']}), id", f"duplicate id (first on line {ids[row['id']]})")
        ids[row["id"]] = number
    order = {kid: i for i, kid in enumerate(ids)}
    kingdoms = []
    for i, (number, row) in enumerate(rows):
        place = f"line {number} ({row['id']})"
        size = integer(path, place + ", size", row["size"], 1, 40)
        council = integer(path, place + ", council_spaces", row["council_spaces"], 0, 10)
        sides = {}
        for side in ("left", "right"):
            ref = row[side]
            if ref not in order:
                raise InputError(path, f"{place}, {side}", f"unknown kingdom {ref!r}; expected one of {', '.join(order)}")
            if order[ref] == i:
                raise InputError(path, f"{place}, {side}", "a kingdom cannot be its own neighbour")
            sides[side] = order[ref]
        kingdoms.append(Kingdom(i, row["id"], size, council, sides["left"], sides["right"]))
    return tuple(kingdoms)


_check_keys = check_keys


def _int_list(path, place, value, lo) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise InputError(path, place, f"expected a non-empty list of integers, got {value!r}")
    return tuple(integer(path, f"{place}[{i}]", v, lo) for i, v in enumerate(value))


def load_tiles(path: Path, kingdoms) -> dict:
    raw = read_toml(path)
    _check_keys(path, raw, TILE_KEYS)
    per = integer(path, "first_place_per_kingdom", raw["first_place_per_kingdom"], AGES, 20)
    first = _int_list(path, "first_place", raw["first_place"], -100)
    if len(first) < per * len(kingdoms):
        raise InputError(path, "first_place", f"expected at least {per * len(kingdoms)} tiles "
                         f"({per} per kingdom x {len(kingdoms)} kingdoms), got {len(first)}")
    retreat = _int_list(path, "first_retreat", raw["first_retreat"], -100)
    if len(retreat) < AGES:
        raise InputError(path, "first_retreat", f"expected at least {AGES} tiles (one per age, AK-R36), got {len(retreat)}")
    return {"first_place": first, "first_place_per_kingdom": per, "first_retreat": retreat}


def load_robot(path: Path, kingdoms) -> dict:
    raw = read_toml(path)
    _check_keys(path, raw, ROBOT_KEYS)
    markers = integer(path, "markers", raw["markers"], 1, 100)
    ids = [k.id for k in kingdoms]
    if raw["low_rank_default"] not in ids:
        raise InputError(path, "low_rank_default", f"unknown kingdom {raw['low_rank_default']!r}; expected one of {', '.join(ids)}")
    levels_raw = raw["levels"]
    if not isinstance(levels_raw, dict):
        raise InputError(path, "levels", "expected [levels.<name>] tables")
    _check_keys(path, levels_raw, LEVELS, "levels.")
    levels = {}
    for name in LEVELS:
        table = levels_raw[name]
        if not isinstance(table, dict):
            raise InputError(path, f"levels.{name}", "expected a table with battle_cards and bonus_cards")
        _check_keys(path, table, LEVEL_KEYS, f"levels.{name}.")
        levels[name] = RobotLevel(name, integer(path, f"levels.{name}.battle_cards", table["battle_cards"], 0, 8),
                                  integer(path, f"levels.{name}.bonus_cards", table["bonus_cards"], 0, 4))
    return {"robot_markers": markers, "robot_low_rank_default": ids.index(raw["low_rank_default"]),
            "robot_levels": levels}


def load_content(config, source: str = "<config>") -> Content:
    """All content files of ``config``, validated against each other and the config."""
    paths = {key: resolve(config, key) for key in DEFAULT_FILES}
    cards, species = load_cards(paths["cards_file"])
    decrees = load_decrees(paths["decrees_file"], species)
    kingdoms = load_kingdoms(paths["kingdoms_file"])
    if len(decrees) < AGES * len(kingdoms):
        raise InputError(paths["decrees_file"], None, f"expected at least {AGES * len(kingdoms)} decrees "
                         f"({AGES} ages x {len(kingdoms)} kingdoms, AK-R49), got {len(decrees)}")
    tiles = load_tiles(paths["tiles_file"], kingdoms)
    robot = load_robot(paths["robot_file"], kingdoms)
    need = config.players * config.hand_size + 1
    if len(cards) < need:
        raise InputError(paths["cards_file"], None, f"{config.players} players with hands of {config.hand_size} "
                         f"need at least {need} cards, got {len(cards)}")
    if config.solo and robot["robot_levels"][config.robot_level].bonus_cards + need > len(cards):
        raise InputError(paths["robot_file"], f"levels.{config.robot_level}.bonus_cards", "more bonus cards than the deck holds")
    return Content(cards=cards, species=species, decrees=decrees, kingdoms=kingdoms, **tiles, **robot,
                   hand_size=config.hand_size, modifier_tiles=config.modifier_tiles,
                   sources={k: str(p) for k, p in paths.items()})


content_hash = hashing.content_hash   # re-exported: games offer content_hash(content)
