"""The parsed, validated content of Explorers of Navoria (docs/explorers_of_navoria_model.md).

Names are index-ordered tuples: every array of the engine and every list of the oracle uses
these indices. ``content.py`` builds a ``Content`` from the data files; nothing here reads files.
"""
from __future__ import annotations

from dataclasses import dataclass, field

COLOURS = ("traders", "builders", "soldiers", "adventurers", "artisans")
PEOPLES = ("humans", "goblins", "beasts", "sprites")
PEOPLE_SINGULAR = ("human", "goblin", "beast", "sprite")
REGIONS = ("forest", "desert", "glacier")
GOODS = ("W", "M", "F")
ANY = -1                      # "of the player's choice" in an Atom's ``arg``
OFFER_SLOTS = 3               # EN-S9
ORDER_SIZE = (3, 4, 3)        # forest W+M+F, desert any 4, glacier 3 of one kind (EN-R88..R90)

# Atom operations.
PTS, GOOD, STEP, BUILD, PER_ARTISAN = "pts", "good", "step", "build", "per_artisan"
OPS = (PTS, GOOD, STEP, BUILD, PER_ARTISAN)


@dataclass(frozen=True)
class Atom:
    """One reward: ``pts`` (n points), ``good`` (arg = good kind or ANY), ``step`` (arg = region
    or ANY, n steps), ``build`` (arg = region or ANY), ``per_artisan`` (n points per artisan)."""

    op: str
    arg: int = 0
    n: int = 1


# An item is one atom or a choice between two (``a|b``); an effect is a sequence of items.
Item = tuple[Atom, ...]
Effect = tuple[Item, ...]


@dataclass(frozen=True)
class Card:
    id: str
    colour: int                        # index into COLOURS
    symbols: tuple[int, int, int, int]  # count per people (EN-R55, EN-R77)
    immediate: Effect                  # EN-R57
    income_people: int = -1            # EN-R62: 1 point per symbol of this people, or -1
    income_flags: bool = False         # EN-R82: 1 point per flag reached
    end_region: int = -1               # EN-R76: ``end_points`` per post on this track, or -1
    end_points: int = 0


@dataclass(frozen=True)
class CitySpace:
    id: str
    colour: int
    reward: Effect


@dataclass(frozen=True)
class Track:
    region: int
    length: int                        # L: position of the treasure (start = 0)
    build: tuple[int, int, int]        # positions of build spaces 1, 2, 3
    flags: tuple[int, ...]             # positions
    treasure: int                      # points per payout


@dataclass(frozen=True)
class Dock:
    region: int
    base: tuple[Effect, Effect]        # always received (EN-R96)
    under: tuple[Effect, Effect, Effect]  # under posts 1, 2, 3 (EN-R97, EN-A8); no goods


@dataclass(frozen=True)
class FavourTile:
    id: str
    kinds: tuple[int, ...]             # colours counted; empty for the blank tile
    first: int                         # points per card, first space
    second: int                        # points per card, second space


@dataclass(frozen=True)
class Content:
    cards: tuple[Card, ...]            # row order of cards.csv = card index
    city: tuple[CitySpace, ...]        # row order = space index
    tracks: tuple[Track, Track, Track]  # by region index
    exploration: tuple[tuple[int, int, int], ...]  # [region][place 0..2] points (EN-A7)
    docks: tuple[Dock, Dock, Dock]     # by region index
    favour_tiles: tuple[FavourTile, ...]  # the non-blank tiles, file order (drawn from, EN-S10)
    blank_tile: FavourTile | None      # EN-V1 (None if the file has no blank row)
    tokens_per_colour: dict            # {players: tokens of each colour} (EN-A1)
    favour_space_people: tuple[int, int, int, int]  # people of favour spaces 0..3 (EN-A10)
    sources: dict = field(default_factory=dict)      # file role -> path read

    def pile(self, colour: int) -> tuple[int, ...]:
        """Card indices of one colour, in file order (the order the "piles" shuffle permutes)."""
        return tuple(i for i, c in enumerate(self.cards) if c.colour == colour)
