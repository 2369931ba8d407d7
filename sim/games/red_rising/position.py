"""Score a described end-of-game position of Red Rising (format: docs/positions.md).

A designer writes the end state of one game as JSON (hands, resources, Sovereign, board,
banished pile) and gets the score sheet of every seat, computed by the same ``score_final``
that ends every simulated game. Every problem in the file is an ``InputError`` naming the file,
the JSON path (``players[1].hand[3]``) and what was expected.
"""
from __future__ import annotations

import dataclasses
import difflib
import json
from pathlib import Path

import numpy as np

from sim.core.config import build, unknown_key_error
from sim.core.datafiles import read_json
from sim.core.errors import InputError
from sim.games.red_rising import zones
from sim.games.red_rising.config import Config
from sim.games.red_rising.content import load_content
from sim.games.red_rising.content_types import LOCATIONS, Content
from sim.games.red_rising.scoring import COMPONENTS, score_final, wildcard_choices

MAX_SEATS = 6
CUBES = 10                         # influence cubes per house (RR-S9)
TOP_KEYS = ("comment", "config", "deck_file", "fleet_points", "players", "locations", "banished", "parity")
SEAT_KEYS = ("house", "automa", "hand", "helium", "fleet", "cubes", "sovereign", "wildcards")
PATH_KEYS = ("deck_file", "tables_file", "automa_deck_file")


@dataclasses.dataclass(frozen=True)
class Position:
    """A validated position: the inputs of ``score_final`` for a batch of one game."""

    config: Config
    content: Content
    where: np.ndarray              # int16[1, C]
    helium: np.ndarray             # int[1, P]
    fleet: np.ndarray
    cubes: np.ndarray
    sovereign: np.ndarray          # int[1]
    automa_seat: np.ndarray        # int[1]
    parity: np.ndarray             # int[1]: 0 = EVEN, 1 = ODD
    houses: tuple[str, ...]        # per seat; "" if not given
    pinned: dict                   # wildcard choices fixed by the file: {card index: {"name" | "colour": choice}}


def score_position(path) -> list[dict]:
    """Score sheet per seat (turn order) of the position in ``path``.

    Each dict has ``seat``, ``faction`` (house, ``Au Toma`` or ``none``), ``is_automa``,
    ``hand_size``, the ``score_*`` components, ``score``, ``rank``, ``win_share`` and
    ``wildcards`` ({card id: {"name": ..., "colour": ...}}: the choices scoring fixed, RR-A19).
    """
    pos = load_position(path)
    result = score_final(pos.content, pos.config, pos.where, pos.helium, pos.fleet, pos.cubes,
                         pos.sovereign, pos.automa_seat, pos.parity, pinned=[pos.pinned])
    seats = pos.helium.shape[1]
    choices = wildcard_choices(pos.content, pos.where, pos.automa_seat, seats, pinned=[pos.pinned])[0]
    for c, pins in pos.pinned.items():          # a pinned choice is reported even if it changes nothing
        for kind, value in pins.items():
            if value:
                choices.setdefault(c, {})[kind] = value
    rows = []
    for p in range(seats):
        automa = bool(pos.automa_seat[0] == p)
        row = {"seat": p,
               "faction": "Au Toma" if automa else (pos.houses[p] or "none"),
               "is_automa": automa,
               "hand_size": int((pos.where[0] == zones.hand(p)).sum())}
        row.update({k: int(result[k][0, p]) for k in COMPONENTS + ("score", "rank")})
        row["win_share"] = float(result["win_share"][0, p])
        row["wildcards"] = {pos.content.cards[c].id: choice for c, choice in choices.items()
                            if pos.where[0, c] == zones.hand(p)}
        rows.append(row)
    return rows


# ----------------------------------------------------------------------------------------
# Reading and validating


def load_position(path) -> Position:
    """Read and validate a position file; see docs/positions.md for the format."""
    source = str(path)
    raw = read_json(Path(path))
    _check_keys(raw, source, "", TOP_KEYS)
    seats_raw = _get(raw, "players", list, source, "players", required=True)
    if not 2 <= len(seats_raw) <= MAX_SEATS:
        raise InputError(source, "players", f"expected 2 to {MAX_SEATS} seats (solo: the player and Au Toma), "
                                            f"got {len(seats_raw)}")
    for i, seat in enumerate(seats_raw):
        if not isinstance(seat, dict):
            raise InputError(source, f"players[{i}]", f"expected an object, got {json.dumps(seat)}")
        _check_keys(seat, source, f"players[{i}].", SEAT_KEYS)
    automa = [i for i, s in enumerate(seats_raw) if _get(s, "automa", bool, source, f"players[{i}].automa")]
    if len(automa) > 1:
        raise InputError(source, f"players[{automa[1]}].automa", "only one seat can be Au Toma")
    if automa and len(seats_raw) != 2:
        raise InputError(source, f"players[{automa[0]}].automa",
                         f"Au Toma plays only the solo game: expected 2 seats, got {len(seats_raw)}")
    config = _config(raw, source, Path(path).parent, players=1 if automa else len(seats_raw))
    content = _content(raw, config, source)
    return _position(raw, seats_raw, automa[0] if automa else -1, config, content, source)


def _check_keys(obj: dict, source: str, prefix: str, known) -> None:
    for key in obj:
        if key not in known:
            raise unknown_key_error(source, prefix, key, known)


_TYPE_NAMES = {list: "a list", dict: "an object", bool: "true or false", int: "an integer", str: "a string"}


def _get(obj: dict, key: str, tp, source: str, place: str, required=False):
    """``obj[key]`` checked to be of type ``tp`` (bools are not integers); ``tp()`` if absent."""
    if key not in obj:
        if required:
            raise InputError(source, place, f"missing; expected {_TYPE_NAMES[tp]}")
        return tp()
    value = obj[key]
    if not isinstance(value, tp) or (tp is int and isinstance(value, bool)):
        raise InputError(source, place, f"expected {_TYPE_NAMES[tp]}, got {json.dumps(value)}")
    return value


def _count(obj: dict, key: str, source: str, place: str, high: int, why: str) -> int:
    value = _get(obj, key, int, source, place)
    if not 0 <= value <= high:
        raise InputError(source, place, f"expected a whole number from 0 to {high} ({why}), got {value}")
    return value


def _config(raw: dict, source: str, folder: Path, players: int) -> Config:
    """The rule config: the file's ``config`` overrides, players from the seat list.

    Content paths (``deck_file`` and the config's file keys) are relative to the position file.
    """
    overrides = dict(_get(raw, "config", dict, source, "config"))
    if "houses" in overrides:
        raise InputError(source, "config.houses", "give each seat's house as players[i].house instead")
    given = overrides.setdefault("players", players)
    config = build(Config, overrides, source, prefix="config.")
    if given != players:
        raise InputError(source, "config.players",
                         f"expected {players} to match the seats in players (solo = 1), got {given!r}")
    if "deck_file" in raw:
        if overrides.get("deck_file"):
            raise InputError(source, "deck_file", "given twice: here and as config.deck_file; keep one")
        config = dataclasses.replace(config, deck_file=_get(raw, "deck_file", str, source, "deck_file"))
    paths = {k: str(folder / getattr(config, k)) for k in PATH_KEYS if getattr(config, k)}
    return dataclasses.replace(config, **paths)


def _content(raw: dict, config: Config, source: str) -> Content:
    """The content the position refers to, with the file's ``fleet_points`` if it has its own."""
    content = load_content(config, source=source)
    if "fleet_points" not in raw:
        return content
    table = _get(raw, "fleet_points", list, source, "fleet_points")
    if len(table) < 2 or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in table):
        raise InputError(source, "fleet_points", "expected a list of at least two whole numbers >= 0 "
                                                 f"(points per space, RR-A6), got {json.dumps(table)}")
    return dataclasses.replace(content, fleet_points=tuple(table))


def _position(raw, seats_raw, automa_seat, config, content, source) -> Position:
    ids = {card.id: card.index for card in content.cards}
    where = np.full(len(content.cards), zones.DECK, dtype=np.int16)
    placed: dict[int, str] = {}

    def put(cards, place, code):
        if not isinstance(cards, list):
            raise InputError(source, place, f"expected a list of card ids, got {json.dumps(cards)}")
        for k, cid in enumerate(cards):
            here = f"{place}[{k}]"
            if not isinstance(cid, str):
                raise InputError(source, here, f"expected a card id (a string), got {json.dumps(cid)}")
            if cid not in ids:
                raise InputError(source, here, _unknown_card(cid, ids, content))
            c = ids[cid]
            if c in placed:
                raise InputError(source, here, f"card {cid} is placed twice (also at {placed[c]})")
            if automa_seat >= 0 and content.cards[c].solo_removed and not _readded(config, content.cards[c]):
                raise InputError(source, here, f"card {cid} is removed from the solo game (RR-V6)")
            placed[c] = here
            where[c] = code

    houses = []
    resources = np.zeros((3, len(seats_raw)), dtype=np.int64)
    sovereign = []
    pinned: dict[int, dict] = {}
    for p, seat in enumerate(seats_raw):
        here = f"players[{p}]"
        is_automa = p == automa_seat
        houses.append(_house(seat, here, is_automa, houses, content, source))
        put(seat.get("hand", []), f"{here}.hand", zones.hand(p))
        pinned.update(_wildcards(seat, here, p, is_automa, where, ids, content, source))
        resources[:, p] = _resources(seat, here, is_automa, content, source)
        if _get(seat, "sovereign", bool, source, f"{here}.sovereign"):
            sovereign.append(p)
    if len(sovereign) > 1:
        raise InputError(source, f"players[{sovereign[1]}].sovereign",
                         f"two Sovereign holders (also players[{sovereign[0]}]); there is one token (RR-R26)")
    locations = _get(raw, "locations", dict, source, "locations")
    _check_keys(locations, source, "locations.", LOCATIONS)
    for x, name in enumerate(LOCATIONS):
        put(locations.get(name, []), f"locations.{name}", x)
    put(raw.get("banished", []), "banished", zones.BANISHED)
    return Position(config=config, content=content, where=where[None, :],
                    helium=resources[0][None], fleet=resources[1][None], cubes=resources[2][None],
                    sovereign=np.array([sovereign[0] if sovereign else -1]),
                    automa_seat=np.array([automa_seat]),
                    parity=np.array([_parity(raw, automa_seat, source)]), houses=tuple(houses), pinned=pinned)


def _wildcards(seat, place, p, is_automa, where, ids, content: Content, source) -> dict[int, dict]:
    """A seat's pinned wildcard choices (RR-A19): ``{"GRE-1": {"colour": "Blue"}}`` for cards of
    its hand; ``colour`` / ``name`` need the card's grey / orange wildcard, a colour of the deck
    or a name of one of its cards (the printed one, or null, declines)."""
    raw = _get(seat, "wildcards", dict, source, f"{place}.wildcards")
    if raw and is_automa:
        raise InputError(source, f"{place}.wildcards", "Au Toma never uses wildcards (RR-A27)")
    names = list(dict.fromkeys(c.name for c in content.cards))
    out = {}
    for cid, pins in raw.items():
        here = f"{place}.wildcards.{cid}"
        if cid not in ids:
            raise InputError(source, here, _unknown_card(cid, ids, content))
        c = ids[cid]
        card = content.cards[c]
        if where[c] != zones.hand(p):
            raise InputError(source, here, f"card {cid} is not in this seat's hand")
        if not isinstance(pins, dict):
            raise InputError(source, here, f'expected an object such as {{"colour": "Blue"}}, got {json.dumps(pins)}')
        _check_keys(pins, source, f"{here}.", ("colour", "name"))
        chosen = {}
        for kind, flag, allowed, printed in (("colour", card.colour_wildcard, content.colours, card.colour),
                                             ("name", card.name_wildcard, names, card.name)):
            if kind not in pins:
                continue
            value = pins[kind]
            if not flag:
                raise InputError(source, f"{here}.{kind}", f"card {cid} has no {kind} wildcard (RR-R51, RR-R54)")
            if value is not None and value not in allowed:
                raise InputError(source, f"{here}.{kind}", f"expected one of {', '.join(allowed)} or null, "
                                                           f"got {json.dumps(value)}")
            chosen[kind] = "" if value in (None, printed) else value
        out[c] = chosen
    return out


def _resources(seat: dict, place: str, is_automa: bool, content: Content, source: str):
    """Helium, fleet space and cubes of one seat, within the game's limits."""
    last = len(content.fleet_points) - 1
    if is_automa:                      # Au Toma's caps (RR-V28, RR-V32)
        helium_cap, fleet_cap = content.automa_max, min(last, content.automa_max)
    else:                              # helium is unlimited for players (RR-R18)
        helium_cap, fleet_cap = 10 ** 6, last
    return (_count(seat, "helium", source, f"{place}.helium", helium_cap, "helium tokens"),
            _count(seat, "fleet", source, f"{place}.fleet", fleet_cap, "spaces of the fleet track"),
            _count(seat, "cubes", source, f"{place}.cubes", CUBES, "cubes on The Institute"))


def _unknown_card(cid: str, ids: dict, content: Content) -> str:
    close = difflib.get_close_matches(cid, list(ids), n=1)
    hint = f"did you mean {close[0]!r}?" if close else f"not a card of deck {content.deck_name!r}"
    return f"unknown card id {cid!r}; {hint}"


def _readded(config: Config, card) -> bool:
    """A solo-removed card may be in a solo game only in the RR-V45 variant (not Loan Shark)."""
    return config.solo_readd_removed and not card.solo_never_readd


def _house(seat: dict, place: str, is_automa: bool, taken: list, content: Content, source: str) -> str:
    if "house" not in seat:
        return ""
    name = _get(seat, "house", str, source, f"{place}.house")
    if is_automa:
        raise InputError(source, f"{place}.house", "Au Toma has no house (RR-V8)")
    known = [h.name for h in content.houses]
    if name not in known:
        raise InputError(source, f"{place}.house", f"expected one of {', '.join(known)}, got {name!r}")
    if name in taken:
        raise InputError(source, f"{place}.house",
                         f"house {name} is already at players[{taken.index(name)}] (RR-S8)")
    return name


def _parity(raw: dict, automa_seat: int, source: str) -> int:
    """The odd/even card (RR-V9): required with Au Toma, meaningless without."""
    if automa_seat < 0:
        if "parity" in raw:
            raise InputError(source, "parity", "only used in the solo game (a seat with \"automa\": true)")
        return 0
    if "parity" not in raw:
        raise InputError(source, "parity", "missing; the solo game needs the odd/even card: \"odd\" or \"even\"")
    value = raw["parity"]
    if value not in ("odd", "even"):
        raise InputError(source, "parity", f"expected \"odd\" or \"even\", got {json.dumps(value)}")
    return 1 if value == "odd" else 0
