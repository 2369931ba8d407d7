"""Load and validate the Explorers of Navoria content files (format: docs/explorers_of_navoria_content.md).

Seven files, each replaceable through a ``*_file`` config key (empty = the default in
``DATA_DIR``): ``cards.csv`` (EN-A2..A4), ``city.csv`` (EN-A5), ``tracks.csv`` (EN-A6),
``exploration_rewards.csv`` (EN-A7), ``docks.csv`` (EN-A8), ``favour_tiles.csv`` (EN-A9) and
``setup.toml`` (EN-A1, EN-A10). Everything is checked before the engine sees it: a problem is
an ``InputError`` naming the file, the line (and the row's id) or key, and what was expected.
Effects (cards' immediate effects, city rewards, dock rewards) use the grammar of
docs/explorers_of_navoria_model.md, parsed by ``parse_effect``.
"""
from __future__ import annotations

from pathlib import Path

from sim.core import datafiles, hashing
from sim.core.datafiles import check_ids, check_keys, integer, read_csv, read_toml
from sim.core.errors import InputError
from sim.games.explorers_of_navoria.content_types import (
    ANY, BUILD, COLOURS, GOOD, GOODS, PEOPLE_SINGULAR, PEOPLES, PER_ARTISAN, PTS, REGIONS, STEP,
    Atom, Card, CitySpace, Content, Dock, Effect, FavourTile, Track,
)

DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_FILES = {"cards_file": "cards.csv", "city_file": "city.csv", "tracks_file": "tracks.csv",
                 "exploration_file": "exploration_rewards.csv", "docks_file": "docks.csv",
                 "favour_file": "favour_tiles.csv", "setup_file": "setup.toml"}
CARD_COLUMNS = ("id", "colour", "symbols", "immediate", "income", "end")
CITY_COLUMNS = ("space", "colour", "reward")
TRACK_COLUMNS = ("track", "length", "build1", "build2", "build3", "flags", "treasure")
EXPLORATION_COLUMNS = ("track", "first", "second", "third")
DOCK_COLUMNS = ("dock", "base1", "base2", "under1", "under2", "under3")
FAVOUR_COLUMNS = ("tile", "kinds", "first", "second")
SETUP_KEYS = ("tokens_per_colour", "favour_space_people")
PLAYER_COUNTS = (2, 3, 4)
MAX_N = 1000                  # bound on every count and point value in the files
NONE_TEXT = ("", "-")         # an empty effect / income / end field

EFFECT_HELP = ("expected items joined by '+', an item one atom or two joined by '|'; atoms pts:<n>, "
               "good:W|M|F|any, step:<forest|desert|glacier|any>:<n>, build:<forest|desert|glacier|any>, "
               "per_artisan:<n>; '-' or empty = no effect")


def resolve(config, key: str) -> Path:
    return datafiles.resolve(config, key, DATA_DIR, DEFAULT_FILES)


# ---- names ------------------------------------------------------------------------------------

def people_index(name: str) -> int | None:
    """Index of a people, given plural (``humans``) or singular (``human``); None if unknown."""
    if name in PEOPLES:
        return PEOPLES.index(name)
    if name in PEOPLE_SINGULAR:
        return PEOPLE_SINGULAR.index(name)
    return None


def _name(path, place, text, names, what) -> int:
    if text not in names:
        raise InputError(path, place, f"unknown {what} {text!r}; expected one of {', '.join(names)}")
    return names.index(text)


def _people(path, place, text) -> int:
    p = people_index(text)
    if p is None:
        raise InputError(path, place, f"unknown people {text!r}; expected one of {', '.join(PEOPLE_SINGULAR)} "
                         f"(or {', '.join(PEOPLES)})")
    return p


# ---- the effect grammar ------------------------------------------------------------------------

class EffectError(ValueError):
    """A problem in an effect text (the caller adds file and place)."""


def _count(text: str, atom: str, lo: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise EffectError(f"{atom!r}: expected an integer, got {text!r}") from None
    if not lo <= value <= MAX_N:
        raise EffectError(f"{atom!r}: expected an integer from {lo} to {MAX_N}, got {value}")
    return value


def _region_or_any(text: str, atom: str) -> int:
    if text == "any":
        return ANY
    if text not in REGIONS:
        raise EffectError(f"{atom!r}: unknown region {text!r}; expected one of {', '.join(REGIONS)}, any")
    return REGIONS.index(text)


def parse_atom(text: str) -> Atom:
    """One atom: ``pts:n``, ``good:W|M|F|any``, ``step:<region|any>:n``, ``build:<region|any>``, ``per_artisan:n``."""
    parts = [p.strip() for p in text.strip().split(":")]
    op, args = parts[0], parts[1:]
    shapes = {PTS: "pts:<n>", GOOD: "good:<W|M|F|any>", STEP: "step:<region|any>:<n>",
              BUILD: "build:<region|any>", PER_ARTISAN: "per_artisan:<n>"}
    if op not in shapes:
        raise EffectError(f"unknown atom {text.strip()!r}; expected one of {', '.join(shapes.values())}")
    arity = 2 if op == STEP else 1
    if len(args) != arity or not all(args):
        raise EffectError(f"{text.strip()!r}: expected {shapes[op]}")
    if op == PTS:
        return Atom(PTS, 0, _count(args[0], text.strip(), 0))
    if op == PER_ARTISAN:
        return Atom(PER_ARTISAN, 0, _count(args[0], text.strip(), 0))
    if op == GOOD:
        if args[0] == "any":
            return Atom(GOOD, ANY, 1)
        if args[0] not in GOODS:
            raise EffectError(f"{text.strip()!r}: unknown good {args[0]!r}; expected one of W, M, F, any")
        return Atom(GOOD, GOODS.index(args[0]), 1)
    if op == BUILD:
        return Atom(BUILD, _region_or_any(args[0], text.strip()), 1)
    return Atom(STEP, _region_or_any(args[0], text.strip()), _count(args[1], text.strip(), 1))


def parse_effect(text: str) -> Effect:
    """An effect text as a tuple of items, each a tuple of one atom or two alternatives.

    Raises ``EffectError`` with what is wrong; ``effect`` (below) turns it into an InputError.
    """
    text = text.strip()
    if text in NONE_TEXT:
        return ()
    items = []
    for item in text.split("+"):
        if not item.strip():
            raise EffectError(f"empty item in {text!r} (two '+' in a row, or one at an end)")
        alts = item.split("|")
        if len(alts) > 2:
            raise EffectError(f"{item.strip()!r}: at most two alternatives per item (a|b)")
        items.append(tuple(parse_atom(a) for a in alts))
    return tuple(items)


def effect(path, place, text: str, goods: bool = True) -> Effect:
    """``parse_effect`` with errors naming the file and place; ``goods=False`` forbids good atoms."""
    try:
        parsed = parse_effect(text)
    except EffectError as err:
        raise InputError(path, place, f"cannot parse {text!r}: {err}; {EFFECT_HELP}") from None
    if not goods and any(a.op == GOOD for item in parsed for a in item):
        raise InputError(path, place, f"{text!r}: a dock reward may not give goods (good:...), "
                         "so that order rewards never start another order (docs/explorers_of_navoria_model.md)")
    return parsed


# ---- the files -----------------------------------------------------------------------------------

def _symbols(path, place, text) -> tuple[int, int, int, int]:
    counts = [0, 0, 0, 0]
    if text in NONE_TEXT:
        raise InputError(path, place, "expected one or more people symbols (EN-R55), e.g. human or human:2")
    for part in text.split("+"):
        name, colon, n = part.strip().partition(":")
        p = _people(path, place, name.strip())
        counts[p] += integer(path, place, n, 1, MAX_N) if colon else 1
    return tuple(counts)


def load_cards(path: Path) -> tuple[Card, ...]:
    rows = read_csv(path, CARD_COLUMNS, CARD_COLUMNS)
    check_ids(path, rows, "id", "card")
    cards = []
    for number, row in rows:
        place = f"line {number} ({row['id']})"
        colour = _name(path, place + ", colour", row["colour"], COLOURS, "colour")
        symbols = _symbols(path, place + ", symbols", row["symbols"])
        immediate = effect(path, place + ", immediate", row["immediate"])
        income, people, flags = row["income"], -1, False
        if income == "flags":
            flags = True
        elif income.startswith("people:"):
            people = _people(path, place + ", income", income[len("people:"):].strip())
        elif income not in NONE_TEXT:
            raise InputError(path, place + ", income", f"expected people:<people>, flags or '-', got {income!r}")
        end, region, points = row["end"], -1, 0
        if end not in NONE_TEXT:
            parts = [p.strip() for p in end.split(":")]
            if len(parts) != 3 or parts[0] != "posts":
                raise InputError(path, place + ", end", f"expected posts:<region>:<points per post> or '-', got {end!r}")
            region = _name(path, place + ", end", parts[1], REGIONS, "region")
            points = integer(path, place + ", end", parts[2], 0, MAX_N)
        cards.append(Card(row["id"], colour, symbols, immediate, people, flags, region, points))
    for c, name in enumerate(COLOURS):
        if not any(card.colour == c for card in cards):
            raise InputError(path, None, f"no {name} card: every colour needs at least one card "
                             "(fewer than 3 is allowed, EN-A19)")
    return tuple(cards)


def load_city(path: Path) -> tuple[CitySpace, ...]:
    rows = read_csv(path, CITY_COLUMNS, CITY_COLUMNS)
    check_ids(path, rows, "space", "city space")
    spaces = []
    for number, row in rows:
        place = f"line {number} ({row['space']})"
        colour = _name(path, place + ", colour", row["colour"], COLOURS, "colour")
        spaces.append(CitySpace(row["space"], colour, effect(path, place + ", reward", row["reward"])))
    for c, name in enumerate(COLOURS):
        if not any(s.colour == c for s in spaces):
            raise InputError(path, None, f"no city space of colour {name}: every colour's area needs at least one space (EN-A5)")
    return tuple(spaces)


def _by_region(path, rows, column) -> list:
    """The rows of a per-region file in region order; each region exactly once."""
    out = [None, None, None]
    for number, row in rows:
        r = _name(path, f"line {number}, {column}", row[column], REGIONS, "region")
        if out[r] is not None:
            raise InputError(path, f"line {number} ({row[column]}), {column}",
                             f"duplicate region (first on line {out[r][0]})")
        out[r] = (number, row)
    for r, found in enumerate(out):
        if found is None:
            raise InputError(path, None, f"missing the {REGIONS[r]} row (expected one row for each of {', '.join(REGIONS)})")
    return out


def _increasing_inside(path, place, values, length, what) -> None:
    for v in values:
        if not 1 <= v <= length - 1:
            raise InputError(path, place, f"{what} must lie strictly between the start 0 and the treasure {length} "
                             f"(1..{length - 1}), got {v}")
    for a, b in zip(values, values[1:]):
        if b <= a:
            raise InputError(path, place, f"{what} must be strictly increasing, got {a} then {b}")


def load_tracks(path: Path) -> tuple[Track, Track, Track]:
    tracks = []
    for number, row in _by_region(path, read_csv(path, TRACK_COLUMNS, TRACK_COLUMNS), "track"):
        place = f"line {number} ({row['track']})"
        length = integer(path, place + ", length", row["length"], 4, MAX_N)
        build = tuple(integer(path, f"{place}, build{k}", row[f"build{k}"]) for k in (1, 2, 3))
        _increasing_inside(path, place + ", build1..build3", build, length, "build spaces")
        flag_text = row["flags"]
        flags = () if flag_text in NONE_TEXT else tuple(
            integer(path, place + ", flags", f) for f in flag_text.split(";"))
        _increasing_inside(path, place + ", flags", flags, length, "flags")
        treasure = integer(path, place + ", treasure", row["treasure"], 0, MAX_N)
        tracks.append(Track(REGIONS.index(row["track"]), length, build, flags, treasure))
    return tuple(tracks)


def load_exploration(path: Path) -> tuple[tuple[int, int, int], ...]:
    out = []
    for number, row in _by_region(path, read_csv(path, EXPLORATION_COLUMNS, EXPLORATION_COLUMNS), "track"):
        place = f"line {number} ({row['track']})"
        out.append(tuple(integer(path, f"{place}, {k}", row[k], 0, MAX_N) for k in ("first", "second", "third")))
    return tuple(out)


def load_docks(path: Path) -> tuple[Dock, Dock, Dock]:
    docks = []
    for number, row in _by_region(path, read_csv(path, DOCK_COLUMNS, DOCK_COLUMNS), "dock"):
        place = f"line {number} ({row['dock']})"
        rewards = {k: effect(path, f"{place}, {k}", row[k], goods=False) for k in DOCK_COLUMNS[1:]}
        docks.append(Dock(REGIONS.index(row["dock"]), (rewards["base1"], rewards["base2"]),
                          (rewards["under1"], rewards["under2"], rewards["under3"])))
    return tuple(docks)


def load_favour(path: Path) -> tuple[tuple[FavourTile, ...], FavourTile | None]:
    rows = read_csv(path, FAVOUR_COLUMNS, FAVOUR_COLUMNS)
    check_ids(path, rows, "tile", "favour tile")
    tiles, blank, blank_line = [], None, None
    for number, row in rows:
        place = f"line {number} ({row['tile']})"
        first = integer(path, place + ", first", row["first"], 0, MAX_N)
        second = integer(path, place + ", second", row["second"], 0, MAX_N)
        if row["kinds"] in NONE_TEXT:
            if blank is not None:
                raise InputError(path, place + ", kinds", f"a second blank tile (empty kinds; the first is on line {blank_line}): "
                                 "at most one blank tile (EN-V1)")
            blank, blank_line = FavourTile(row["tile"], (), first, second), number
            continue
        names = [k.strip() for k in row["kinds"].split("+")]
        if len(names) != 2:
            raise InputError(path, place + ", kinds", f"expected two colours joined by '+' (EN-R110), got {row['kinds']!r}")
        kinds = tuple(_name(path, place + ", kinds", k, COLOURS, "colour") for k in names)
        if kinds[0] == kinds[1]:
            raise InputError(path, place + ", kinds", f"expected two different colours, got {row['kinds']!r}")
        tiles.append(FavourTile(row["tile"], kinds, first, second))
    if len(tiles) < 4:
        raise InputError(path, None, f"expected at least 4 favour tiles that are not blank (4 are drawn, EN-S10), got {len(tiles)}")
    return tuple(tiles), blank


def load_setup(path: Path) -> dict:
    raw = read_toml(path)
    check_keys(path, raw, SETUP_KEYS)
    tokens_raw = raw["tokens_per_colour"]
    if not isinstance(tokens_raw, dict):
        raise InputError(path, "tokens_per_colour", f"expected a table {{2 = n, 3 = n, 4 = n}}, got {tokens_raw!r}")
    check_keys(path, tokens_raw, [str(n) for n in PLAYER_COUNTS], "tokens_per_colour.")
    tokens = {n: integer(path, f"tokens_per_colour.{n}", tokens_raw[str(n)], 0, MAX_N) for n in PLAYER_COUNTS}
    people_raw = raw["favour_space_people"]
    if not isinstance(people_raw, list) or len(people_raw) != 4:
        raise InputError(path, "favour_space_people", f"expected a list of the 4 peoples, got {people_raw!r}")
    people = []
    for i, name in enumerate(people_raw):
        place = f"favour_space_people[{i}]"
        p = _people(path, place, name) if isinstance(name, str) else None
        if p is None:
            raise InputError(path, place, f"expected a people name, got {name!r}")
        if p in people:
            raise InputError(path, place, f"{name!r} appears twice; expected each of {', '.join(PEOPLES)} once")
        people.append(p)
    return {"tokens_per_colour": tokens, "favour_space_people": tuple(people)}


def load_content(config, source: str = "<config>") -> Content:
    """All content files of ``config``, validated against each other and the config."""
    paths = {key: resolve(config, key) for key in DEFAULT_FILES}
    cards = load_cards(paths["cards_file"])
    city = load_city(paths["city_file"])
    tracks = load_tracks(paths["tracks_file"])
    exploration = load_exploration(paths["exploration_file"])
    docks = load_docks(paths["docks_file"])
    tiles, blank = load_favour(paths["favour_file"])
    setup = load_setup(paths["setup_file"])
    if getattr(config, "blank_tile_variant", False) and blank is None:
        raise InputError(paths["favour_file"], None, "blank_tile_variant = true needs a blank tile "
                         "(a row with empty kinds, EN-V1)")
    return Content(cards=cards, city=city, tracks=tracks, exploration=exploration, docks=docks,
                   favour_tiles=tiles, blank_tile=blank, **setup,
                   sources={k: str(p) for k, p in paths.items()})


def content_hash(content) -> str:
    """16 hex digits identifying the content (not where its files were read from)."""
    return hashing.content_hash(content)
