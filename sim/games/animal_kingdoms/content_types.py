"""Validated Animal Kingdoms content: cards, decrees, kingdom layout, tiles and the robot.

These frozen dataclasses are what the loader (``content.py``) produces from the data files and
what the engine, the oracle, strategies and scoring read. ``Content`` also carries the two
config numbers that size the action space (hand size, modifier tiles), so that the game's
``num_actions(content)`` needs nothing else.
"""
from __future__ import annotations

from dataclasses import dataclass, field

DECREE_TYPES = ("SIMPLE", "SELF", "LEFT", "RIGHT", "ALL_OTHERS")
QUANTIFIERS = ("all", "any")
AGES = 3                                       # AK-R1


@dataclass(frozen=True)
class Card:
    index: int
    species: str
    rank: int

    @property
    def name(self) -> str:
        return f"{self.species} {self.rank}"


@dataclass(frozen=True)
class Decree:
    """One decree card (AK-A12): ``condition`` is a predicate (SIMPLE) or a relation."""

    index: int
    id: str
    type: str
    condition: str
    k: int | None = None
    values: tuple = ()                          # RANK_IN: ints; SPECIES_IN: species names
    quantifier: str = "all"
    text: str = ""


@dataclass(frozen=True)
class Kingdom:
    index: int                                  # ring position (clockwise)
    id: str
    size: int                                   # ordinary territories + capital (AK-A5)
    council_spaces: int
    left: int                                   # ring index of the left neighbour
    right: int


@dataclass(frozen=True)
class RobotLevel:
    name: str
    battle_cards: int
    bonus_cards: int


@dataclass(frozen=True)
class Content:
    cards: tuple[Card, ...]
    species: tuple[str, ...]                    # in order of first appearance in cards.csv
    decrees: tuple[Decree, ...]
    kingdoms: tuple[Kingdom, ...]
    first_place: tuple[int, ...]
    first_place_per_kingdom: int
    first_retreat: tuple[int, ...]
    robot_markers: int
    robot_low_rank_default: int                 # ring index
    robot_levels: dict = field(default_factory=dict)   # level name -> RobotLevel
    hand_size: int = 4                          # from Config (sizes the action space)
    modifier_tiles: int = 18                    # from Config (sizes the action space)
    sources: dict = field(default_factory=dict)  # file role -> path read

    @property
    def scoring_order(self) -> tuple[int, ...]:
        """AK-E2: from the smallest kingdom (first in ring order among equals), clockwise."""
        sizes = [k.size for k in self.kingdoms]
        first = sizes.index(min(sizes))
        n = len(self.kingdoms)
        return tuple((first + i) % n for i in range(n))
