"""Load and validate the Red Rising content files into the dataclasses of ``content_types``.

Three files (RR-A1..RR-A10, RR-A38; format in docs/red_rising_content.md):

* the deck, ``deck.toml`` (RR-A2): ``[meta]`` and one ``[[card]]`` per character card;
* the tables, ``tables.toml``: ``fleet_points`` (RR-A6), ``automa_levels`` (RR-A9), the houses
  (``[[house]]`` with ``on_sovereign`` ops, RR-R29..RR-R36), ``automa_max``, ``automa_hand_limit``,
  ``die_faces`` (the bonus of each face of the Rising die, RR-R22);
* the Au Toma deck, ``automa_deck.csv`` (RR-A8).

An empty ``Config.deck_file`` / ``tables_file`` / ``automa_deck_file`` means the default file in
``DATA_DIR``; any other path is taken as given (relative paths from the current directory).

Everything is checked before the engine sees it: every problem raises ``InputError`` with one
line naming the file, the card / house / row and the field, and what was expected. The loader
also applies the one rule switch that changes content: ``Config.ceres_banish`` (RR-A13) sets the
``position`` of House Ceres's ``banish_location`` ops: ``"any"`` card of the location (default, the
seed's wording) or its ``"top"`` card.
"""
from __future__ import annotations

import csv
import dataclasses
import difflib
from pathlib import Path

from sim.core import hashing
from sim.core.config import unknown_key_error
from sim.core.datafiles import read_toml
from sim.core.errors import InputError
from sim.games.red_rising.content_types import (
    DIE_BONUSES, LOCATIONS, OPPONENT_ACTIONS, RESOURCES, AutomaCard, AutomaLevel, Card, Content, EndBonus,
    Filter, House, Op,
)

DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_FILES = {"deck_file": "deck.toml", "tables_file": "tables.toml",
                 "automa_deck_file": "automa_deck.csv"}

SELECTORS = ("any", "this", "other") + LOCATIONS
PLAIN_RESOURCES = ("helium", "fleet", "influence")
SEEN_OPS = ("opponent", "look_opponent_hand", "reveal_own")   # ops whose `then` has a seen set
NESTING_OPS = {"then": SEEN_OPS + ("if",), "else": ("if",)}

# op -> its parameters besides `op` and `optional` (RR-A2)
OP_PARAMS = {
    "gain": ("resource", "amount"),
    "lose": ("resource", "amount"),
    "trade": ("pay", "get"),
    "banish_location": ("where", "filter", "position"),
    "banish_hand": ("filter", "count"),
    "banish_deck_top": ("count",),
    "move": ("from", "to", "which", "to_position", "filter"),
    "place_from_deck": ("to", "count"),
    "gain_card": ("from", "filter", "position"),
    "deploy_another": ("filter",),
    "recover": ("filter", "to"),
    "roll_die": ("times", "sovereign_face"),
    "opponent": ("target", "action", "selection", "filter", "resource", "amount", "blockable", "then"),
    "look_opponent_hand": ("target", "count", "automa_shuffle", "then"),
    "reveal_own": ("filter", "then"),
    "if": ("cond", "then", "else"),
    "end_turn": ("when",),
}
OP_REQUIRED = {"gain": ("resource",), "lose": ("resource",), "trade": ("pay", "get"),
               "opponent": ("action",), "if": ("cond",)}
# (op, parameter) -> allowed strings, for parameters whose choices depend on the op
OP_CHOICES = {
    ("gain", "resource"): RESOURCES,
    ("lose", "resource"): PLAIN_RESOURCES,
    ("opponent", "resource"): PLAIN_RESOURCES + ("die",),
    ("banish_location", "where"): SELECTORS,
    ("move", "from"): SELECTORS,
    ("move", "to"): SELECTORS,
    ("place_from_deck", "to"): SELECTORS,
    ("gain_card", "from"): SELECTORS + ("banished", "deck"),
    ("recover", "to"): ("hand",) + SELECTORS,
}
# parameter -> allowed strings, the same for every op that has it
CHOICES = {
    "position": ("top", "any"),
    "which": ("top", "self", "bottom", "filter"),
    "to_position": ("top", "bottom"),
    "sovereign_face": ("gain", "rechoose"),
    "target": ("choose", "each", "neighbours"),
    "action": OPPONENT_ACTIONS,
    "selection": ("random", "owner_chooses", "actor_chooses"),
    "when": ("always", "if_prev_done"),
}
FIELD_NAMES = {"from": "from_", "else": "else_"}        # TOML key -> Op field
COND_KINDS = ("hand_has", "seen_has", "location_top", "banished_has", "resource_at_least", "prev_done")
END_BONUS_KINDS = ("for_each", "if_with", "if_with_no", "for_each_on_locations", "for_each_banished",
                   "hand_compare")
HAND_COMPARES = ("more_than_each_opponent", "fewer_than_each_opponent")
BLOCKABLE = ("steal", "banish_from_hand", "reveal_random", "reveal_choice", "lose", "any")
FILTER_KEYS = ("colour", "not_colour", "name", "parity", "core_min", "core_max")
CARD_KEYS = ("id", "name", "colour", "core", "solo_removed", "solo_never_readd", "name_wildcard",
             "colour_wildcard", "block", "deploy", "end_bonus", "end_ability")
CARD_FLAGS = ("solo_removed", "solo_never_readd", "name_wildcard", "colour_wildcard")
HOUSE_KEYS = ("name", "on_sovereign", "first_turn", "extra_last_turn", "start_extra_cards",
              "end_banish_from_hand")
TABLES_KEYS = ("fleet_points", "automa_levels", "house", "automa_max", "automa_hand_limit", "die_faces")
DIE_FACES = 6                                              # RR-R22
AUTOMA_COLUMNS = ["id", "deploy", "gain", "extra", "arrow"]
AUTOMA_CHOICES = {"deploy": ("J", "M", "L", "I", "A", "B", "C", "D"),
                  "gain": ("J", "M", "L", "I", "A", "B", "C", "D"),
                  "extra": ("star", "cross", "none"), "arrow": ("cw", "ccw")}
AUTOMA_CARDS = 22                                          # RR-A8, RR-A26
AUTOMA_LEVELS = range(1, 7)                                # RR-A9


def at(place: str, key) -> str:
    """The place of ``key`` inside ``place``: 'card X: deploy[0]' + 'amount' -> '...deploy[0].amount'."""
    if isinstance(key, int):
        return f"{place}[{key}]"
    return f"{place}{key}" if not place or place.endswith(": ") else f"{place}.{key}"


def hint(value, known) -> str:
    close = difflib.get_close_matches(str(value), [str(k) for k in known], n=1)
    return f"did you mean {close[0]!r}?" if close else "expected one of: " + ", ".join(map(str, known))


class Checker:
    """Typed reads from parsed TOML/CSV that raise ``InputError`` naming the file and place."""

    def __init__(self, source: str, colours=(), names=frozenset()):
        self.source, self.colours, self.names = source, tuple(colours), frozenset(names)

    def fail(self, place, problem):
        raise InputError(self.source, (place or "").removesuffix(": ") or None, problem)

    # ---- plain values -----------------------------------------------------------------
    def table(self, raw, place, allowed, required=()) -> dict:
        """A table with only ``allowed`` keys and every ``required`` key."""
        if not isinstance(raw, dict):
            self.fail(place, f"expected a table, got {raw!r}")
        for key in raw:
            if key not in allowed:
                raise unknown_key_error(self.source, at(place, ""), key, allowed)
        for key in required:
            if key not in raw:
                self.fail(place, f"missing required key '{key}'")
        return raw

    def integer(self, value, place, lo=None) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(place, f"expected an integer, got {value!r}")
        if lo is not None and value < lo:
            self.fail(place, f"expected an integer >= {lo}, got {value}")
        return value

    def boolean(self, value, place) -> bool:
        if not isinstance(value, bool):
            self.fail(place, f"expected true or false, got {value!r}")
        return value

    def text(self, value, place) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(place, f"expected a non-empty string, got {value!r}")
        return value

    def choice(self, value, place, choices, what="value") -> str:
        if not isinstance(value, str):
            self.fail(place, f"expected a string, one of: {', '.join(choices)}; got {value!r}")
        if value not in choices:
            self.fail(place, f"unknown {what} {value!r}; {hint(value, choices)}")
        return value

    def array(self, value, place, what="an array") -> list:
        if not isinstance(value, list):
            self.fail(place, f"expected {what}, got {value!r}")
        return value

    # ---- filters, conditions, ops ---------------------------------------------------------
    def colour_list(self, value, place) -> tuple[str, ...]:
        for i, c in enumerate(self.array(value, place, "an array of colour names")):
            self.choice(c, at(place, i), self.colours, "colour")
        return tuple(value)

    def name_list(self, value, place) -> tuple[str, ...]:
        for i, n in enumerate(self.array(value, place, "an array of card names")):
            if not isinstance(n, str) or n not in self.names:
                self.fail(at(place, i), f"no card is named {n!r}; {hint(n, sorted(self.names))}")
        return tuple(value)

    def filter(self, raw, place) -> Filter:
        """A card filter (RR-A2); omitted keys match anything."""
        self.table(raw, place, FILTER_KEYS)
        out = {}
        for key in ("colour", "not_colour"):
            if key in raw:
                out[key] = self.colour_list(raw[key], at(place, key))
        if "name" in raw:
            out["name"] = self.name_list(raw["name"], at(place, "name"))
        if "parity" in raw:
            out["parity"] = self.choice(raw["parity"], at(place, "parity"), ("odd", "even"), "parity")
        for key in ("core_min", "core_max"):
            if key in raw:
                out[key] = self.integer(raw[key], at(place, key), lo=0)
        if "core_min" in out and "core_max" in out and out["core_min"] > out["core_max"]:
            self.fail(at(place, "core_min"), f"core_min {out['core_min']} is above core_max {out['core_max']}")
        return Filter(**out)

    def exchange(self, value, place, resources) -> tuple[tuple[str, int], ...]:
        """A trade's pay/get list of {resource, amount}, normalised to (resource, amount) pairs."""
        pairs = []
        for i, item in enumerate(self.array(value, place, "an array of {resource, amount} tables")):
            p = at(place, i)
            self.table(item, p, ("resource", "amount"), required=("resource",))
            pairs.append((self.choice(item["resource"], at(p, "resource"), resources, "resource"),
                          self.integer(item.get("amount", 1), at(p, "amount"), lo=1)))
        if not pairs:
            self.fail(place, "expected at least one {resource, amount} table")
        return tuple(pairs)

    def cond(self, raw, place, seen) -> tuple[str, object]:
        """An `if` condition: a table with one key, the condition kind."""
        if not isinstance(raw, dict) or len(raw) != 1:
            self.fail(place, f"expected a table with exactly one key, one of: {', '.join(COND_KINDS)}; "
                             f"got {raw!r}")
        (kind, value), = raw.items()
        if kind not in COND_KINDS:
            self.fail(at(place, kind), f"unknown cond kind; {hint(kind, COND_KINDS)}")
        p = at(place, kind)
        if kind == "seen_has" and not seen:
            self.fail(p, "seen_has needs cards just looked at or revealed: use it only inside the "
                         f"'then' of {', '.join(SEEN_OPS)}")
        if kind in ("hand_has", "seen_has", "banished_has"):
            return kind, self.filter(value, p)
        if kind == "location_top":
            self.table(value, p, ("where", "filter"))
            where = self.choice(value.get("where", "any"), at(p, "where"), SELECTORS, "location selector")
            return kind, (where, self.filter(value.get("filter", {}), at(p, "filter")))
        if kind == "resource_at_least":
            self.table(value, p, ("resource", "amount"), required=("resource",))
            return kind, (self.choice(value["resource"], at(p, "resource"), RESOURCES, "resource"),
                          self.integer(value.get("amount", 1), at(p, "amount"), lo=0))
        if value is not True:
            self.fail(p, f"expected prev_done = true, got {value!r}")
        return kind, True

    def ops(self, raw, place, seen=False) -> tuple[Op, ...]:
        self.array(raw, place, "an array of op tables")
        return tuple(self.op(item, at(place, i), seen) for i, item in enumerate(raw))

    def op(self, raw, place, seen) -> Op:
        """One op (RR-A2): its name, then each parameter checked for that op."""
        if not isinstance(raw, dict):
            self.fail(place, f"expected an op table, got {raw!r}")
        if "op" not in raw:
            self.fail(place, "missing required key 'op'")
        name = self.choice(raw["op"], at(place, "op"), tuple(OP_PARAMS), "op")
        allowed = ("op", "optional") + OP_PARAMS[name]
        for key in raw:
            if key in NESTING_OPS and key not in allowed:
                self.fail(at(place, key), f"'{key}' is not allowed in a '{name}' op; only in: "
                                          f"{', '.join(NESTING_OPS[key])}")
        self.table(raw, place, allowed, required=OP_REQUIRED.get(name, ()))
        values = {"op": name}
        for key, value in raw.items():
            if key != "op":
                values[FIELD_NAMES.get(key, key)] = self.param(name, key, value, at(place, key), seen)
        if name == "opponent":
            self.check_opponent(raw, values, place)
        if name == "move" and "filter" in raw and values.get("which") != "filter":
            self.fail(at(place, "filter"), "a move's filter is used only with which = 'filter'")
        return Op(**values)

    def param(self, name, key, value, place, seen):
        if key in ("optional", "blockable", "automa_shuffle"):
            return self.boolean(value, place)
        if key in ("amount", "count", "times"):
            return self.integer(value, place, lo=1)
        if key == "filter":
            return self.filter(value, place)
        if key in ("pay", "get"):   # the Sovereign can be gained in a trade but not paid
            return self.exchange(value, place, PLAIN_RESOURCES if key == "pay" else RESOURCES)
        if key == "cond":
            return self.cond(value, place, seen)
        if key == "then":
            return self.ops(value, place, seen or name in SEEN_OPS)
        if key == "else":
            return self.ops(value, place, seen)
        choices = OP_CHOICES.get((name, key)) or CHOICES[key]
        what = "location selector" if key in ("where", "from", "to") else key.replace("_", " ")
        return self.choice(value, place, choices, what)

    def check_opponent(self, raw, values, place):
        """Opponent ops: resource only (and always) with lose / gain_free; gain_free unblockable."""
        action = values["action"]
        if action in ("lose", "gain_free"):
            if "resource" not in raw:
                self.fail(place, f"missing required key 'resource' (action '{action}')")
            if action == "lose" and values["resource"] == "die":
                self.fail(at(place, "resource"), "action 'lose' takes helium, fleet or influence, not 'die'")
            values.setdefault("blockable", action != "gain_free")
        else:
            for key in ("resource", "amount"):
                if key in raw:
                    self.fail(at(place, key), f"'{key}' is used only with action 'lose' or 'gain_free'")
        if "filter" in raw and action in ("lose", "gain_free"):
            self.fail(at(place, "filter"), f"a filter is not used with action '{action}'")

    def end_bonus(self, raw, place) -> EndBonus:
        """One end-bonus term (RR-R55..RR-R59, hand_compare)."""
        if not isinstance(raw, dict):
            self.fail(place, f"expected an end-bonus table, got {raw!r}")
        if "kind" not in raw:
            self.fail(place, "missing required key 'kind'")
        kind = self.choice(raw["kind"], at(place, "kind"), END_BONUS_KINDS, "end-bonus kind")
        if kind == "hand_compare":
            self.table(raw, place, ("kind", "points", "compare"), required=("points", "compare"))
            return EndBonus(kind, self.integer(raw["points"], at(place, "points")),
                            compare=self.choice(raw["compare"], at(place, "compare"), HAND_COMPARES,
                                                "comparison"))
        self.table(raw, place, ("kind", "points", "filter"), required=("points",))
        return EndBonus(kind, self.integer(raw["points"], at(place, "points")),
                        filter=self.filter(raw.get("filter", {}), at(place, "filter")))


# ---- files -------------------------------------------------------------------------------

def resolve(config, key: str, source: str) -> Path:
    """The path of one content file: the config's value, or the default file in DATA_DIR."""
    given = getattr(config, key)
    path = Path(given) if given else DATA_DIR / DEFAULT_FILES[key]
    if not path.is_file():
        raise InputError(source, key, f"content file not found: {str(path)!r} (resolved to {path.resolve()}); "
                                      f"expected an existing file, or empty for the default {DEFAULT_FILES[key]}")
    return path


# ---- the deck ------------------------------------------------------------------------------

def load_deck(path: Path) -> tuple[dict, tuple[Card, ...]]:
    """The deck file (RR-A2): meta and cards, Card.index = position in the file."""
    raw = read_toml(path)
    check = Checker(str(path))
    check.table(raw, "", ("meta", "card"), required=("meta", "card"))
    meta = check.table(raw["meta"], "meta", ("name", "synthetic", "colours"), required=("colours",))
    colours = check.array(meta["colours"], "meta.colours", "an array of colour names")
    if not colours or not all(isinstance(c, str) and c for c in colours) or len(set(colours)) != len(colours):
        check.fail("meta.colours", f"expected distinct non-empty colour names, got {colours!r}")
    meta = {"name": check.text(meta.get("name", path.stem), "meta.name"),
            "synthetic": check.boolean(meta.get("synthetic", False), "meta.synthetic"),
            "colours": tuple(colours)}
    raw_cards = check.array(raw["card"], "card", "an array of [[card]] tables")
    if not raw_cards:
        check.fail("card", "expected at least one [[card]]")
    names = {c["name"] for c in raw_cards if isinstance(c, dict) and isinstance(c.get("name"), str)}
    check = Checker(str(path), colours, names)
    cards, first = [], {}
    for index, item in enumerate(raw_cards):
        card = load_card(check, item, index)
        if card.id in first:
            check.fail(f"card {card.id}: id", f"duplicate id (also card #{first[card.id] + 1} in the file)")
        first[card.id] = index
        cards.append(card)
    return meta, tuple(cards)


def load_card(check: Checker, raw, index: int) -> Card:
    """One [[card]] table; places in messages read 'card <id>: <field>'."""
    place = f"card #{index + 1}"
    if not isinstance(raw, dict):
        check.fail(place, f"expected a [[card]] table, got {raw!r}")
    if "id" in raw:
        place = f"card {check.text(raw['id'], at(place + ': ', 'id'))}"
    check.table(raw, place + ": ", CARD_KEYS, required=("id", "name", "colour", "core"))
    p = place + ": "
    block = frozenset()
    if "block" in raw:
        check.table(raw["block"], at(p, "block"), ("against",), required=("against",))
        against = check.array(raw["block"]["against"], at(p, "block.against"), "an array of opponent actions")
        block = frozenset(check.choice(a, at(p, f"block.against[{i}]"), BLOCKABLE, "blockable action")
                          for i, a in enumerate(against))
    return Card(
        index=index, id=raw["id"], name=check.text(raw["name"], at(p, "name")),
        colour=check.choice(raw["colour"], at(p, "colour"), check.colours, "colour"),
        core=check.integer(raw["core"], at(p, "core"), lo=0),
        **{flag: check.boolean(raw.get(flag, False), at(p, flag)) for flag in CARD_FLAGS},
        block_against=block,
        deploy=check.ops(raw.get("deploy", []), at(p, "deploy")),
        end_bonus=tuple(check.end_bonus(b, at(at(p, "end_bonus"), i))
                        for i, b in enumerate(check.array(raw.get("end_bonus", []), at(p, "end_bonus"),
                                                          "an array of end-bonus tables"))),
        end_ability=check.ops(raw.get("end_ability", []), at(p, "end_ability")),
    )


# ---- the tables ----------------------------------------------------------------------------

def load_tables(path: Path, colours, names) -> dict:
    """tables.toml: fleet track (RR-A6), Au Toma levels (RR-A9) and caps, houses (RR-A38), the die (RR-R22)."""
    raw = read_toml(path)
    check = Checker(str(path), colours, names)
    check.table(raw, "", TABLES_KEYS, required=("fleet_points", "automa_levels", "house"))
    fleet = check.array(raw["fleet_points"], "fleet_points", "an array of points per space")
    for i, points in enumerate(fleet):
        check.integer(points, f"fleet_points[{i}]", lo=0)
        if i and points < fleet[i - 1]:
            check.fail(f"fleet_points[{i}]", f"expected non-decreasing points, got {points} after {fleet[i - 1]}")
    if len(fleet) < 2:
        check.fail("fleet_points", "expected at least two spaces (0 and a last space)")
    houses = check.array(raw["house"], "house", "an array of [[house]] tables")
    if not houses:
        check.fail("house", "expected at least one [[house]]")
    return {"fleet_points": tuple(fleet),
            "automa_levels": load_levels(check, raw["automa_levels"]),
            "houses": load_houses(check, houses),
            "automa_max": check.integer(raw.get("automa_max", 10), "automa_max", lo=1),
            "automa_hand_limit": check.integer(raw.get("automa_hand_limit", 20), "automa_hand_limit", lo=1),
            "die_faces": load_die(check, raw.get("die_faces", list(DIE_BONUSES)))}


def load_die(check: Checker, raw) -> tuple[str, ...]:
    """die_faces: the bonus of faces 1..6 of the Rising die (RR-R22), names from DIE_BONUSES."""
    faces = check.array(raw, "die_faces", f"an array of {DIE_FACES} die bonus names")
    for i, name in enumerate(faces):
        if not isinstance(name, str) or name not in DIE_BONUSES:
            check.fail(f"die_faces[{i}]", f"unknown die bonus {name!r}; expected one of: {', '.join(DIE_BONUSES)}")
    if len(faces) != DIE_FACES:
        check.fail("die_faces", f"expected exactly {DIE_FACES} faces (RR-R22), got {len(faces)}")
    return tuple(faces)


def load_levels(check: Checker, raw) -> dict:
    """automa_levels: a table with keys "1".."6", each {matching, non_matching, start_points}."""
    check.table(raw, "automa_levels", raw if isinstance(raw, dict) else ())
    for key in raw:
        if key not in [str(n) for n in AUTOMA_LEVELS]:
            check.fail(f"automa_levels.{key}", "unknown level; expected levels 1..6 (RR-A9)")
    for n in AUTOMA_LEVELS:
        if str(n) not in raw:
            check.fail("automa_levels", f"missing level {n}; expected levels 1..6 (RR-A9)")
    levels = {}
    for n in AUTOMA_LEVELS:
        p = f"automa_levels.{n}"
        row = check.table(raw[str(n)], p, ("matching", "non_matching", "start_points"),
                          required=("matching", "non_matching"))
        levels[n] = AutomaLevel(check.integer(row["matching"], at(p, "matching"), lo=0),
                                check.integer(row["non_matching"], at(p, "non_matching"), lo=0),
                                check.integer(row.get("start_points", 70), at(p, "start_points")))
    return levels


def load_houses(check: Checker, raw_houses) -> tuple[House, ...]:
    houses = []
    for i, raw in enumerate(raw_houses):
        place = f"house #{i + 1}"
        if isinstance(raw, dict) and isinstance(raw.get("name"), str):
            place = f"house {raw['name']}"
        check.table(raw, place + ": ", HOUSE_KEYS, required=("name",))
        p = place + ": "
        name = check.text(raw["name"], at(p, "name"))
        if any(h.name == name for h in houses):
            check.fail(at(p, "name"), "duplicate house name")
        houses.append(House(
            name=name, on_sovereign=check.ops(raw.get("on_sovereign", []), at(p, "on_sovereign")),
            first_turn=check.boolean(raw.get("first_turn", False), at(p, "first_turn")),
            extra_last_turn=check.boolean(raw.get("extra_last_turn", False), at(p, "extra_last_turn")),
            start_extra_cards=check.integer(raw.get("start_extra_cards", 0), at(p, "start_extra_cards"), lo=0),
            end_banish_from_hand=check.integer(raw.get("end_banish_from_hand", 0), at(p, "end_banish_from_hand"),
                                           lo=0)))
    return tuple(houses)


def apply_ceres_banish(houses, mode: str) -> tuple[House, ...]:
    """RR-A13, RR-R31: House Ceres banishes ``mode`` = "any" card of a location or its "top" card."""
    def fix(op):
        return dataclasses.replace(op, position=mode) if op.op == "banish_location" else op
    return tuple(dataclasses.replace(h, on_sovereign=tuple(map(fix, h.on_sovereign)))
                 if h.name == "Ceres" else h for h in houses)


# ---- the Au Toma deck ----------------------------------------------------------------------

def load_automa(path: Path) -> tuple[AutomaCard, ...]:
    """automa_deck.csv (RR-A8): header id,deploy,gain,extra,arrow and 22 rows."""
    check = Checker(str(path))
    try:
        with path.open(newline="", encoding="utf-8-sig") as f:
            reader = csv.reader(f)
            header = [h.strip() for h in next(reader, [])]
            if header != AUTOMA_COLUMNS:
                check.fail("line 1", f"expected the columns {','.join(AUTOMA_COLUMNS)}, got {','.join(header)!r}")
            cards, seen = [], {}
            for row in reader:
                if not any(cell.strip() for cell in row):
                    continue
                cards.append(automa_row(check, row, f"line {reader.line_num}", seen))
    except UnicodeDecodeError as e:
        raise InputError(str(path), None, f"not a UTF-8 text file: {e}") from None
    if len(cards) != AUTOMA_CARDS:
        check.fail(None, f"expected {AUTOMA_CARDS} Au Toma cards (RR-A8), got {len(cards)}")
    return tuple(cards)


def automa_row(check: Checker, row, place, seen) -> AutomaCard:
    if len(row) != len(AUTOMA_COLUMNS):
        check.fail(place, f"expected {len(AUTOMA_COLUMNS)} values ({','.join(AUTOMA_COLUMNS)}), got {len(row)}")
    values = dict(zip(AUTOMA_COLUMNS, (cell.strip() for cell in row)))
    if not values["id"]:
        check.fail(f"{place}, column id", "expected a card id, got an empty value")
    if values["id"] in seen:
        check.fail(f"{place}, column id", f"duplicate id {values['id']!r} (also on {seen[values['id']]})")
    seen[values["id"]] = place
    for key, choices in AUTOMA_CHOICES.items():
        check.choice(values[key], f"{place}, column {key}", choices, key)
    return AutomaCard(**values)


# ---- everything together ---------------------------------------------------------------------

def load_content(config, source: str = "<config>") -> Content:
    """Load, validate and build the content named by ``config`` (``source`` names the config)."""
    paths = {key: resolve(config, key, source) for key in DEFAULT_FILES}
    meta, cards = load_deck(paths["deck_file"])
    tables = load_tables(paths["tables_file"], meta["colours"], {c.name for c in cards})
    houses = apply_ceres_banish(tables["houses"], config.ceres_banish)
    check_houses_for_config(config, houses, source, str(paths["tables_file"]))
    return Content(
        deck_name=meta["name"], synthetic=meta["synthetic"], colours=meta["colours"], cards=cards,
        houses=houses, fleet_points=tables["fleet_points"], automa_levels=tables["automa_levels"],
        automa_cards=load_automa(paths["automa_deck_file"]), automa_max=tables["automa_max"],
        automa_hand_limit=tables["automa_hand_limit"], die_faces=tables["die_faces"],
        sources={"deck": str(paths["deck_file"].resolve()), "tables": str(paths["tables_file"].resolve()),
                 "automa": str(paths["automa_deck_file"].resolve())})


def check_houses_for_config(config, houses, source: str, tables_source: str):
    """The config's fixed houses must exist, and there must be a house for every player (RR-S8)."""
    known = [h.name for h in houses]
    for i, name in enumerate(config.houses):
        if name not in known:
            raise InputError(source, f"houses[{i}]", f"unknown house {name!r}; {hint(name, known)} "
                                                     f"(houses of {tables_source})")
    usable = [n for n in known if not (config.players == 1 and config.solo_exclude_ceres and n == "Ceres")]
    if len(usable) < config.players:
        raise InputError(tables_source, "house", f"{len(usable)} usable houses, but {config.players} "
                                                  "players need one each (RR-S8)")


# ---- hashing ---------------------------------------------------------------------------------

content_hash = hashing.content_hash   # re-exported: games offer content_hash(content)
