"""Load and validate the Recall content files (format: docs/recall_content.md).

Fifteen files, each replaceable through a ``*_file`` config key (empty = the default in
``DATA_DIR``). Everything is checked before the engine sees it: a problem is an
``InputError`` naming the file, the line (and the row's id) or key, and what was expected.
Rewards and effects use the language of ``effects.py`` (RC-A2, RC-A63).
"""
from __future__ import annotations

from pathlib import Path

from sim.core import datafiles, hashing
from sim.core.datafiles import check_ids, check_keys, integer, read_csv, read_toml
from sim.core.errors import InputError
from sim.games.recall.content_types import (
    ARTIFACT_COLOURS, BUILDINGS, CAMP, GOAL_KINDS, KEY_COLOURS, LETTERS, NONE, PATHS, START,
    TERRAINS, TRACKS, WORKSHOP_TERRAINS, Ability, AreaTile, ArtifactRows, BoardMonument,
    BonusToken, Camp, Content, Effect, GoalCard, KeyCard, KnowledgeTracks, MapData, MonumentTile,
    PathCard, PlayerBoard, ProductionField, Setup, Slot, Terrain, Tile, TileField, TimeBoard,
    UpgradeTile,
)
from sim.games.recall.effects import HELP, MAX_N, NONE_TEXT, EffectError, parse_crystals, parse_effect

DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_FILES = {
    "map_file": "map.toml", "area_tiles_file": "area_tiles.csv", "tracks_file": "tracks.toml",
    "action_fields_file": "action_fields.toml", "player_board_file": "player_board.toml",
    "key_cards_file": "key_cards.csv", "chest_tiles_file": "chest_tiles.csv",
    "monument_tiles_file": "monument_tiles.csv", "camps_file": "camps.csv", "rings_file": "rings.csv",
    "tribes_file": "tribes.csv", "items_file": "items.csv", "goal_cards_file": "goal_cards.csv",
    "path_cards_file": "path_cards.csv", "setup_file": "setup.toml",
}
TILE_COLUMNS = ("tile", "start", "centre", "p1", "p2", "p3", "p4", "p5", "p6")
TERRAIN_CODES = {"fo": "forest", "mo": "mountain", "wa": "water", "vo": "volcano",
                 "sa": "sanctuary", "mn": "monument", "ex": "excavation"}
PLAYERS = 4


def resolve(config, key: str) -> Path:
    return datafiles.resolve(config, key, DATA_DIR, DEFAULT_FILES)


# ---- small readers ---------------------------------------------------------------------------

def effect(path, place, text) -> Effect:
    """An effect text, with errors naming the file and place."""
    if not isinstance(text, str):
        raise InputError(path, place, f"expected an effect text, got {text!r}")
    try:
        return parse_effect(text)
    except EffectError as err:
        raise InputError(path, place, f"cannot parse {text!r}: {err}; {HELP}") from None


def crystals(path, place, text, lo: int = 1):
    """A crystal amount (``R:1 + W:1``), or nothing for '-'."""
    if not isinstance(text, str):
        raise InputError(path, place, f"expected a crystal amount such as 'R:1 + W:1', got {text!r}")
    if text.strip() in NONE_TEXT:
        return (0, 0, 0)
    try:
        return parse_crystals(text, lo)
    except EffectError as err:
        raise InputError(path, place, f"cannot parse {text!r}: {err}") from None


def _name(path, place, text, names, what) -> int:
    if text not in names:
        raise InputError(path, place, f"unknown {what} {text!r}; expected one of {', '.join(names)}")
    return names.index(text)


def _flag(path, place, text) -> bool:
    if text not in ("yes", "no"):
        raise InputError(path, place, f"expected yes or no, got {text!r}")
    return text == "yes"


def _list(path, key, value, n=None) -> list:
    if not isinstance(value, list) or (n is not None and len(value) != n):
        raise InputError(path, key, f"expected a list{'' if n is None else f' of {n} entries'}, got {value!r}")
    return value


def _ints(path, key, value, n=None, lo=0, hi=MAX_N) -> tuple[int, ...]:
    return tuple(integer(path, f"{key}[{i}]", v, lo, hi) for i, v in enumerate(_list(path, key, value, n)))


def _table(path, key, value) -> dict:
    if not isinstance(value, dict):
        raise InputError(path, key, f"expected a table, got {value!r}")
    return value


def _increasing(path, key, values) -> None:
    for a, b in zip(values, values[1:]):
        if b <= a:
            raise InputError(path, key, f"expected strictly increasing values, got {a} then {b}")


def _coord(path, key, value) -> tuple[int, int]:
    v = _list(path, key, value, 2)
    return (integer(path, key + "[0]", v[0], -MAX_N, MAX_N), integer(path, key + "[1]", v[1], -MAX_N, MAX_N))


# ---- map and tiles ---------------------------------------------------------------------------

MAP_KEYS = ("directions", "slots", "board_monuments", "river", "start_tile_slots", "start_fields", "terrain")
TERRAIN_KEYS = ("move", "water", "building", "key")


def load_map(path: Path) -> MapData:
    raw = read_toml(path)
    check_keys(path, raw, MAP_KEYS)
    directions = tuple(_coord(path, f"directions[{i}]", d) for i, d in enumerate(_list(path, "directions", raw["directions"], 6)))
    for i, (q, r) in enumerate(directions):
        if (q, r) not in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)) or directions.index((q, r)) != i:
            raise InputError(path, f"directions[{i}]", f"expected the six distinct axial unit steps, got {[q, r]}")
    slots, taken = [], {}

    def claim(cell, key):
        if cell in taken:
            raise InputError(path, key, f"field {list(cell)} is also a field of {taken[cell]}")
        taken[cell] = key

    for i, s in enumerate(_list(path, "slots", raw["slots"])):
        key = f"slots[{i}]"
        s = _list(path, key, s, 3)
        if not isinstance(s[0], str) or not s[0] or any(x.id == s[0] for x in slots):
            raise InputError(path, key, f"expected a new slot id, got {s[0]!r}")
        centre = _coord(path, key, s[1:])
        for cell in [centre] + [(centre[0] + dq, centre[1] + dr) for dq, dr in directions]:
            claim(cell, f"{key} ({s[0]})")
        slots.append(Slot(s[0], centre))
    monuments = []
    for i, b in enumerate(_list(path, "board_monuments", raw["board_monuments"])):
        key = f"board_monuments[{i}]"
        b = _list(path, key, b, 4)
        at = _coord(path, key, b[1:3])
        claim(at, f"{key} ({b[0]})")
        monuments.append(BoardMonument(str(b[0]), at, _name(path, key, b[3], TRACKS, "track")))
    river = []
    for i, c in enumerate(_list(path, "river", raw["river"])):
        cell = _coord(path, f"river[{i}]", c)
        claim(cell, f"river[{i}]")
        river.append(cell)
    terrain_raw = _table(path, "terrain", raw["terrain"])
    check_keys(path, terrain_raw, TERRAINS, "terrain.")
    terrains = []
    for name in TERRAINS:
        t = _table(path, f"terrain.{name}", terrain_raw[name])
        check_keys(path, t, TERRAIN_KEYS, f"terrain.{name}.")
        for flag in ("move", "water"):
            if not isinstance(t[flag], bool):
                raise InputError(path, f"terrain.{name}.{flag}", f"expected true or false, got {t[flag]!r}")
        building = NONE if t["building"] == "none" else _name(path, f"terrain.{name}.building", t["building"],
                                                              BUILDINGS + ("none",), "building")
        key = NONE if t["key"] == "none" else _name(path, f"terrain.{name}.key", t["key"], KEY_COLOURS + ("none",), "key colour")
        terrains.append(Terrain(name, t["move"], t["water"], building, key))
    ids = [s.id for s in slots]
    start_slots = _list(path, "start_tile_slots", raw["start_tile_slots"], 2)
    for i, s in enumerate(start_slots):
        _name(path, f"start_tile_slots[{i}]", s, ids, "slot")
    if start_slots[0] == start_slots[1]:
        raise InputError(path, "start_tile_slots", "expected two different slots")
    start_fields = _ints(path, "start_fields", raw["start_fields"], PLAYERS, 1, PLAYERS)
    if len(set(start_fields)) != PLAYERS:
        raise InputError(path, "start_fields", f"expected each start field 1..{PLAYERS} once, got {list(start_fields)}")
    return MapData(directions, tuple(slots), tuple(monuments), tuple(river), tuple(terrains),
                   tuple(start_slots), start_fields)


def _tile_field(path, place, code, camp_ids) -> TileField:
    base, plus, overlay = code.partition("+")
    if plus and overlay != "a":
        raise InputError(path, place, f"{code!r}: the only overlay is '+a' (artifact symbol)")
    artifact = bool(plus)
    if base in TERRAIN_CODES:
        return TileField(TERRAINS.index(TERRAIN_CODES[base]), artifact=artifact)
    if base in ("g1", "g2", "g3"):
        return TileField(TERRAINS.index("grain"), pigs=int(base[1]), artifact=artifact)
    if base in camp_ids:
        if artifact:
            raise InputError(path, place, f"{code!r}: a camp cannot carry an artifact symbol")
        return TileField(CAMP, camp=camp_ids.index(base))
    if base in ("st1", "st2", "st3", "st4"):
        if artifact:
            raise InputError(path, place, f"{code!r}: a start field cannot carry an artifact symbol")
        return TileField(START, start=int(base[2]))
    raise InputError(path, place, f"unknown field code {code!r}; expected g1, g2, g3, fo, mo, wa, vo, sa, mn, ex, "
                     f"a camp id ({', '.join(camp_ids)}) or st1..st4, optionally with '+a'")


def load_area_tiles(path: Path, camp_ids: list[str], slots: int) -> tuple[AreaTile, ...]:
    rows = read_csv(path, TILE_COLUMNS, TILE_COLUMNS)
    check_ids(path, rows, "tile", "tile")
    starts, others, seen_start = [], [], {}
    for number, row in rows:
        place = f"line {number} ({row['tile']})"
        is_start = _flag(path, place + ", start", row["start"])
        fields = tuple(_tile_field(path, f"{place}, {c}", row[c], camp_ids) for c in TILE_COLUMNS[2:])
        for c, f in zip(TILE_COLUMNS[2:], fields):
            if f.start != NONE:
                if not is_start:
                    raise InputError(path, f"{place}, {c}", "start fields lie only on start tiles (start = yes, RC-A5)")
                if f.start in seen_start:
                    raise InputError(path, f"{place}, {c}", f"start field {f.start} is also on line {seen_start[f.start]}")
                seen_start[f.start] = number
        (starts if is_start else others).append(AreaTile(row["tile"], is_start, fields))
    if len(starts) != 2:
        raise InputError(path, None, f"expected exactly 2 start tiles (start = yes, RC-S15), got {len(starts)}")
    if len(others) != slots - 2:
        raise InputError(path, None, f"expected {slots - 2} other tiles for the {slots} slots of the map "
                         f"(RC-S17), got {len(others)}")
    for k in range(1, PLAYERS + 1):
        if k not in seen_start:
            raise InputError(path, None, f"start field st{k} is on no start tile (RC-A5)")
    return tuple(starts + others)


# ---- tracks ----------------------------------------------------------------------------------

def load_tracks(path: Path, letters: int, path_positions: int):
    raw = read_toml(path)
    check_keys(path, raw, ("time_board", "knowledge", "score_track", "bonus_tokens"))
    tb = _table(path, "time_board", raw["time_board"])
    check_keys(path, tb, ("spaces", "path_spaces", "goal_spaces"), "time_board.")
    spaces = integer(path, "time_board.spaces", tb["spaces"], 2, MAX_N)
    sectors = path_positions // 2
    path_spaces = _ints(path, "time_board.path_spaces", tb["path_spaces"], sectors, 1, spaces - 1)
    goal_spaces = _ints(path, "time_board.goal_spaces", tb["goal_spaces"], None, 1, spaces - 1)
    _increasing(path, "time_board.path_spaces", path_spaces)
    if set(path_spaces) & set(goal_spaces) or len(set(goal_spaces)) != len(goal_spaces):
        raise InputError(path, "time_board.goal_spaces", "a space is either a path space or a goal space, once")
    kn = _table(path, "knowledge", raw["knowledge"])
    check_keys(path, kn, ("points", "third", "fifth", "seventh", "bonus_positions"), "knowledge.")
    points = _ints(path, "knowledge.points", kn["points"])
    if len(points) < 2:
        raise InputError(path, "knowledge.points", "expected the values of positions 0..last (at least 2)")
    for a, b in zip(points, points[1:]):
        if b < a:
            raise InputError(path, "knowledge.points", f"values never decrease along a track (RC-A11), got {a} then {b}")
    last = len(points) - 1
    marks = {k: integer(path, f"knowledge.{k}", kn[k], 1, last) for k in ("third", "fifth", "seventh")}
    bonus = _ints(path, "knowledge.bonus_positions", kn["bonus_positions"], None, 1, last)
    _increasing(path, "knowledge.bonus_positions", bonus)
    st = _table(path, "score_track", raw["score_track"])
    check_keys(path, st, ("upgrade_symbols",), "score_track.")
    symbols = _ints(path, "score_track.upgrade_symbols", st["upgrade_symbols"], letters, 1)
    _increasing(path, "score_track.upgrade_symbols", symbols)
    bt = _table(path, "bonus_tokens", raw["bonus_tokens"])
    check_keys(path, bt, ("light", "dark"), "bonus_tokens.")
    tokens = {}
    for kind, n in (("light", len(TRACKS) * len(bonus)), ("dark", path_positions)):
        out = []
        for i, t in enumerate(_list(path, f"bonus_tokens.{kind}", bt[kind], n)):
            t = _list(path, f"bonus_tokens.{kind}[{i}]", t, 2)
            out.append(BonusToken(str(t[0]), effect(path, f"bonus_tokens.{kind}[{i}] ({t[0]})", t[1])))
        tokens[kind] = tuple(out)
    return (TimeBoard(spaces, path_spaces, goal_spaces),
            KnowledgeTracks(points, marks["third"], marks["fifth"], marks["seventh"], bonus),
            symbols, tokens["light"], tokens["dark"])


# ---- action fields ---------------------------------------------------------------------------

def load_action_fields(path: Path):
    raw = read_toml(path)
    check_keys(path, raw, ("base", "upgrades"))
    base = _table(path, "base", raw["base"])
    check_keys(path, base, LETTERS, "base.")
    fields = tuple(effect(path, f"base.{x}", base[x]) for x in LETTERS)
    ups = _table(path, "upgrades", raw["upgrades"])
    check_keys(path, ups, LETTERS, "upgrades.")
    tiles = []
    for i, x in enumerate(LETTERS):
        u = _table(path, f"upgrades.{x}", ups[x])
        check_keys(path, u, ("count", "a", "b"), f"upgrades.{x}.")
        tiles.append(UpgradeTile(i, integer(path, f"upgrades.{x}.count", u["count"], 0, MAX_N),
                                 (effect(path, f"upgrades.{x}.a", u["a"]), effect(path, f"upgrades.{x}.b", u["b"]))))
    return fields, tuple(tiles)


# ---- player board ----------------------------------------------------------------------------

def _uncovered_by(path, place, text, sanctuaries, workshops, monuments) -> dict:
    if text == "start":
        return {}
    what, colon, k = text.partition(":")
    limits = {"sanctuary": (0, NONE, sanctuaries), "monument": (2, NONE, monuments)}
    for c, terrain in enumerate(WORKSHOP_TERRAINS):
        limits[f"workshop_{terrain}"] = (1, c, len(workshops[c]))
    if what not in limits or not colon:
        raise InputError(path, place, f"expected start or <building>:<position> with building one of "
                         f"{', '.join(limits)}, got {text!r}")
    building, column, n = limits[what]
    return {"building": building, "column": column, "position": integer(path, place, k, 1, n)}


def load_player_board(path: Path) -> PlayerBoard:
    raw = read_toml(path)
    check_keys(path, raw, ("production", "artifact_rows", "sanctuaries", "workshops", "monuments"))
    sanctuaries = tuple(effect(path, f"sanctuaries[{i}]", s) for i, s in enumerate(_list(path, "sanctuaries", raw["sanctuaries"])))
    if not sanctuaries:
        raise InputError(path, "sanctuaries", "expected at least one sanctuary")
    ws = _table(path, "workshops", raw["workshops"])
    check_keys(path, ws, WORKSHOP_TERRAINS, "workshops.")
    workshops = tuple(tuple(crystals(path, f"workshops.{t}[{i}]", c) for i, c in enumerate(_list(path, f"workshops.{t}", ws[t])))
                      for t in WORKSHOP_TERRAINS)
    mon = _table(path, "monuments", raw["monuments"])
    check_keys(path, mon, ("costs",), "monuments.")
    monuments = tuple(crystals(path, f"monuments.costs[{i}]", c) for i, c in enumerate(_list(path, "monuments.costs", mon["costs"])))
    if not monuments:
        raise InputError(path, "monuments.costs", "expected at least one monument")
    production, seen = [], {}
    for i, p in enumerate(_list(path, "production", raw["production"])):
        key = f"production[{i}]"
        p = _list(path, key, p, 3)
        if not isinstance(p[0], str) or not p[0] or p[0] in seen:
            raise InputError(path, key, f"expected a new production field id, got {p[0]!r}")
        where = _uncovered_by(path, f"{key} ({p[0]})", p[2], len(sanctuaries), workshops, len(monuments))
        for other, (j, w) in seen.items():
            if where and w == where:
                raise InputError(path, f"{key} ({p[0]})", f"the same building already uncovers {other} (production[{j}])")
        seen[p[0]] = (i, where)
        production.append(ProductionField(p[0], effect(path, f"{key} ({p[0]})", p[1]), **where))
    ar = _table(path, "artifact_rows", raw["artifact_rows"])
    check_keys(path, ar, ("follower_cost", "points_under") + ARTIFACT_COLOURS, "artifact_rows.")
    cost = _ints(path, "artifact_rows.follower_cost", ar["follower_cost"])
    if not cost:
        raise InputError(path, "artifact_rows.follower_cost", "expected at least one column")
    under = _ints(path, "artifact_rows.points_under", ar["points_under"], len(cost))
    covered = tuple(tuple(effect(path, f"artifact_rows.{c}[{i}]", e)
                          for i, e in enumerate(_list(path, f"artifact_rows.{c}", ar[c], len(cost))))
                    for c in ARTIFACT_COLOURS)
    return PlayerBoard(tuple(production), ArtifactRows(cost, under, covered), sanctuaries, workshops, monuments)


# ---- cards, tiles, abilities -----------------------------------------------------------------

def load_key_cards(path: Path) -> tuple[KeyCard, ...]:
    columns = ("id", "colour", "count", "effect", "points")
    rows = read_csv(path, columns, columns)
    check_ids(path, rows, "id", "key card")
    cards = []
    for number, row in rows:
        place = f"line {number} ({row['id']})"
        colour = _name(path, place + ", colour", row["colour"], KEY_COLOURS, "key colour")
        cards.append(KeyCard(row["id"], colour, integer(path, place + ", count", row["count"], 0, MAX_N),
                             effect(path, place + ", effect", row["effect"]),
                             integer(path, place + ", points", row["points"], 0, MAX_N)))
    cards.sort(key=lambda k: k.colour)
    whites = [k for k in cards if k.colour == 0]
    if len(whites) != 1 or whites[0].effect:
        raise InputError(path, None, "expected exactly one white kind, the start card, without effect (RC-R17)")
    for c in (1, 2, 3):
        if not any(k.colour == c for k in cards):
            raise InputError(path, None, f"no {KEY_COLOURS[c]} key card: every offer needs at least one kind (RC-S10..S12)")
    return tuple(cards)


def load_tiles(path: Path, count: bool = True) -> tuple[Tile, ...]:
    columns = ("id", "count", "reward") if count else ("id", "reward")
    rows = read_csv(path, columns, columns)
    check_ids(path, rows, "id", "tile")
    return tuple(Tile(row["id"], integer(path, f"line {n} ({row['id']}), count", row["count"], 0, MAX_N) if count else 1,
                      effect(path, f"line {n} ({row['id']}), reward", row["reward"])) for n, row in rows)


def load_monument_tiles(path: Path) -> tuple[MonumentTile, ...]:
    columns = ("id", "reward", "points")
    rows = read_csv(path, columns, columns)
    check_ids(path, rows, "id", "monument tile")
    return tuple(MonumentTile(row["id"], effect(path, f"line {n} ({row['id']}), reward", row["reward"]),
                              integer(path, f"line {n} ({row['id']}), points", row["points"], 0, MAX_N)) for n, row in rows)


def load_camps(path: Path) -> tuple[Camp, ...]:
    return tuple(Camp(t.id, t.reward) for t in load_tiles(path, count=False))


def _ability(path, place, row) -> dict:
    text = row["effect"]
    coded = text == "coded"
    event = "" if row["event"] in NONE_TEXT else row["event"]
    return {"effect": () if coded else effect(path, place + ", effect", text), "coded": coded, "event": event,
            "hexagon": _flag(path, place + ", hexagon", row["hexagon"])}


def load_tribes(path: Path) -> tuple[Ability, ...]:
    columns = ("id", "effect", "event", "hexagon", "permanent")
    rows = read_csv(path, columns, columns)
    check_ids(path, rows, "id", "tribe")
    return tuple(Ability(row["id"], permanent=_flag(path, f"line {n} ({row['id']}), permanent", row["permanent"]),
                         **_ability(path, f"line {n} ({row['id']})", row)) for n, row in rows)


def load_items(path: Path) -> tuple[Ability, ...]:
    columns = ("id", "rare", "effect", "event", "hexagon", "parts")
    rows = read_csv(path, columns, columns)
    check_ids(path, rows, "id", "item")
    ids = [row["id"] for _, row in rows]
    items = []
    for n, row in rows:
        place = f"line {n} ({row['id']})"
        parts = () if row["parts"] in NONE_TEXT else tuple(p.strip() for p in row["parts"].split(";"))
        for p in parts:
            if p not in ids or p == row["id"]:
                raise InputError(path, place + ", parts", f"unknown item {p!r}; a part is another item id of this file")
        items.append(Ability(row["id"], rare=_flag(path, place + ", rare", row["rare"]), parts=parts,
                             **_ability(path, place, row)))
    return tuple(items)


def load_goal_cards(path: Path) -> tuple[GoalCard, ...]:
    columns = ("id", "kind", "n", "reward")
    rows = read_csv(path, columns, columns)
    check_ids(path, rows, "id", "goal card")
    return tuple(GoalCard(row["id"], _name(path, f"line {n} ({row['id']}), kind", row["kind"], GOAL_KINDS, "goal kind"),
                          integer(path, f"line {n} ({row['id']}), n", row["n"], 1, MAX_N),
                          effect(path, f"line {n} ({row['id']}), reward", row["reward"])) for n, row in rows)


def load_path_cards(path: Path) -> tuple[PathCard, ...]:
    columns = ("id", "path", "base", "a", "b")
    rows = read_csv(path, columns, columns)
    check_ids(path, rows, "id", "path card")
    by_path = [None] * len(PATHS)
    for n, row in rows:
        place = f"line {n} ({row['id']})"
        p = _name(path, place + ", path", row["path"], PATHS, "path")
        if by_path[p] is not None:
            raise InputError(path, place + ", path", f"a second card of the path {PATHS[p]} (one card per path, RC-S4)")
        by_path[p] = PathCard(row["id"], p, *(integer(path, f"{place}, {k}", row[k], 0, MAX_N) for k in ("base", "a", "b")))
    for p, card in enumerate(by_path):
        if card is None:
            raise InputError(path, None, f"missing the {PATHS[p]} card (expected one row for each of {', '.join(PATHS)})")
    return tuple(by_path)


SETUP_INTS = ("display_per_colour", "stones_per_site", "follower_units", "start_followers", "crystal_cap",
              "key_display", "monument_tiles_shown", "goal_cards_dealt", "goal_cards_dealt_solo", "goal_points",
              "goal_points_solo", "items_per_stack", "old_tribes", "own_stones", "pigs", "pig_farms", "islands",
              "rafts", "leftover_divisor", "pig_farm_points")
SETUP_LISTS = {"artifacts_per_colour": len(ARTIFACT_COLOURS), "stones_per_colour": len(TRACKS),
               "start_crystals": 3, "crystal_value": 3}


CRYSTAL_LETTERS = ("W", "R", "P")                  # CRYSTALS in the reward language's letters


def load_setup(path: Path) -> Setup:
    raw = read_toml(path)
    check_keys(path, raw, SETUP_INTS + tuple(SETUP_LISTS) + ("excavation_crystal", "excavation_steps"))
    values = {k: integer(path, k, raw[k], 1 if k == "leftover_divisor" else 0, MAX_N) for k in SETUP_INTS}
    values.update({k: _ints(path, k, raw[k], n) for k, n in SETUP_LISTS.items()})
    k = values["stones_per_site"]
    paid = [_name(path, f"excavation_crystal[{i}]", c, CRYSTAL_LETTERS, "crystal")
            for i, c in enumerate(_list(path, "excavation_crystal", raw["excavation_crystal"], k))]
    steps = _ints(path, "excavation_steps", raw["excavation_steps"], k, 1)
    values["excavation"] = tuple(zip(paid, steps))        # RC-R152..R154, by stones on the site
    return Setup(**values)


# ---- everything ------------------------------------------------------------------------------

def _cross_checks(paths, c: Content, players: int) -> None:
    s = c.setup
    if s.old_tribes != len(TRACKS):
        raise InputError(paths["setup_file"], "old_tribes", f"expected one old tribe per knowledge track ({len(TRACKS)})")
    if len(c.tribes) < players + 1 + s.old_tribes:
        raise InputError(paths["tribes_file"], None, f"expected at least {players + 1 + s.old_tribes} tribes "
                         f"(players + 1 on display, RC-S32, and {s.old_tribes} old tribes, RC-S36), got {len(c.tribes)}")
    if len(c.items) < players + 1 + s.old_tribes * s.items_per_stack:
        raise InputError(paths["items_file"], None, f"expected at least {players + 1 + s.old_tribes * s.items_per_stack} "
                         f"items (RC-S32, RC-S37), got {len(c.items)}")
    if len(c.monument_tiles) < s.monument_tiles_shown:
        raise InputError(paths["monument_tiles_file"], None, f"expected at least {s.monument_tiles_shown} monument tiles "
                         f"(setup.toml monument_tiles_shown, RC-S7), got {len(c.monument_tiles)}")
    dealt = s.goal_cards_dealt_solo if players == 1 else s.goal_cards_dealt * players
    if len(c.goal_cards) < dealt:
        raise InputError(paths["goal_cards_file"], None, f"expected at least {dealt} goal cards for {players} "
                         f"player(s) (RC-S27, RC-V12), got {len(c.goal_cards)}")
    for i, n in enumerate(s.artifacts_per_colour):
        if n < s.display_per_colour:
            raise InputError(paths["setup_file"], f"artifacts_per_colour[{i}]",
                             f"expected at least display_per_colour = {s.display_per_colour} (RC-S13)")
    if s.start_followers > s.follower_units:
        raise InputError(paths["setup_file"], "start_followers", f"expected at most follower_units = {s.follower_units}")
    white = c.key_cards[0]
    if white.count < 1:
        raise InputError(paths["key_cards_file"], white.id, "expected at least 1 white start card per player (RC-S25)")


def load_content(config, source: str = "<config>") -> Content:
    """All content files of ``config``, validated against each other and the config."""
    paths = {key: resolve(config, key) for key in DEFAULT_FILES}
    game_map = load_map(paths["map_file"])
    camps = load_camps(paths["camps_file"])
    tiles = load_area_tiles(paths["area_tiles_file"], [c.id for c in camps], len(game_map.slots))
    path_cards = load_path_cards(paths["path_cards_file"])
    time_board, knowledge, symbols, light, dark = load_tracks(paths["tracks_file"], len(LETTERS), len(PATHS))
    base, upgrades = load_action_fields(paths["action_fields_file"])
    content = Content(
        map=game_map, area_tiles=tiles, time_board=time_board, knowledge=knowledge, upgrade_symbols=symbols,
        light_tokens=light, dark_tokens=dark, base_fields=base, upgrades=upgrades,
        board=load_player_board(paths["player_board_file"]), key_cards=load_key_cards(paths["key_cards_file"]),
        chest_tiles=load_tiles(paths["chest_tiles_file"]), monument_tiles=load_monument_tiles(paths["monument_tiles_file"]),
        camps=camps, rings=load_tiles(paths["rings_file"]), tribes=load_tribes(paths["tribes_file"]),
        items=load_items(paths["items_file"]), goal_cards=load_goal_cards(paths["goal_cards_file"]),
        path_cards=path_cards, setup=load_setup(paths["setup_file"]),
        sources={k: str(p) for k, p in paths.items()})
    _cross_checks(paths, content, config.players)
    return content


def content_hash(content) -> str:
    """16 hex digits identifying the content (not where its files were read from)."""
    return hashing.content_hash(content)
