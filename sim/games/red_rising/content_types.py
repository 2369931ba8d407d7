"""Validated Red Rising content: the deck (RR-A2), houses, tables and the Au Toma deck.

These frozen dataclasses are what the loader (``content.py``) produces from the data files and
what the engine, the oracle, strategies and scoring read. Every optional parameter of the
file format is filled with its default here, so readers never need ``.get``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

LOCATIONS = ("Jupiter", "Mars", "Luna", "Institute")
RESOURCES = ("helium", "fleet", "influence", "sovereign")
OPPONENT_ACTIONS = ("steal", "banish_from_hand", "reveal_random", "reveal_choice", "lose", "gain_free")
# The bonuses a face of the Rising die can give (RR-R22); the printed die has them in this order
# (face 1 banish ... face 6 influence), which is the default ``Content.die_faces``.
DIE_BONUSES = ("banish", "place", "sovereign", "helium", "fleet", "influence")


@dataclass(frozen=True)
class Filter:
    """Card filter (RR-A2); ``None`` = matches anything for that key."""

    colour: tuple[str, ...] | None = None
    not_colour: tuple[str, ...] | None = None
    name: tuple[str, ...] | None = None
    parity: str | None = None          # "odd" | "even" (0 is even, RR-R66)
    core_min: int | None = None
    core_max: int | None = None


@dataclass(frozen=True)
class Op:
    """One op of an ability (RR-A2 vocabulary), with all parameters normalised.

    ``op`` is the op name; the parameters that an op does not use keep their defaults.
    Selectors are location selectors: "any" | "this" | "other" | a location name.
    """

    op: str
    optional: bool = False
    # gain / lose / opponent
    resource: str = ""                 # helium | fleet | influence | sovereign | die (opponent gain_free)
    amount: int = 1
    # trade
    pay: tuple[tuple[str, int], ...] = ()
    get: tuple[tuple[str, int], ...] = ()
    # selection
    where: str = "any"                 # banish_location
    from_: str = "any"                 # move, gain_card (location selector | "banished" | "deck")
    to: str = "any"                    # move, place_from_deck, recover ("hand" | selector)
    which: str = "top"                 # move: top | self | bottom | filter
    to_position: str = "top"           # move
    position: str = "top"              # banish_location, gain_card: top | any
    filter: Filter = field(default_factory=Filter)
    count: int = 1                     # banish_hand, banish_deck_top, place_from_deck, look_opponent_hand
    times: int = 1                     # roll_die
    sovereign_face: str = "gain"       # roll_die: gain | rechoose (House Minerva, RR-R36)
    # opponent / look_opponent_hand
    target: str = "choose"             # choose | each | neighbours
    action: str = ""                   # one of OPPONENT_ACTIONS
    selection: str = "random"          # random | owner_chooses | actor_chooses
    blockable: bool = True
    automa_shuffle: bool = False       # look_opponent_hand: Roque vs Au Toma (RR-V49)
    # if
    cond: tuple[str, object] | None = None   # (kind, value): hand_has/seen_has/banished_has -> Filter,
                                             # location_top -> (selector, Filter),
                                             # resource_at_least -> (resource, amount), prev_done -> True
    # end_turn
    when: str = "always"               # always | if_prev_done
    # nested lists
    then: tuple["Op", ...] = ()
    else_: tuple["Op", ...] = ()


@dataclass(frozen=True)
class EndBonus:
    """One end-bonus term (RR-R55..R59, hand_compare for Psychologist)."""

    kind: str                          # for_each | if_with | if_with_no | for_each_on_locations | for_each_banished | hand_compare
    points: int
    filter: Filter = field(default_factory=Filter)
    compare: str = ""                  # hand_compare: more_than_each_opponent | fewer_than_each_opponent


@dataclass(frozen=True)
class Card:
    index: int                         # position in the deck file (0-based); action "card:<id>" = 20 + index
    id: str
    name: str
    colour: str
    core: int
    solo_removed: bool = False         # RR-V6
    solo_never_readd: bool = False     # Loan Shark stays out in the RR-V45 variant
    name_wildcard: bool = False        # RR-R51
    colour_wildcard: bool = False      # RR-R54
    block_against: frozenset[str] = frozenset()
    deploy: tuple[Op, ...] = ()
    end_bonus: tuple[EndBonus, ...] = ()
    end_ability: tuple[Op, ...] = ()


@dataclass(frozen=True)
class House:
    name: str
    on_sovereign: tuple[Op, ...] = ()  # RR-R27..R36
    first_turn: bool = False           # Apollo (RR-S15)
    extra_last_turn: bool = False      # Apollo (RR-E5)
    start_extra_cards: int = 0         # Ceres (RR-S17)
    end_banish_from_hand: int = 0      # Ceres (RR-E8)


@dataclass(frozen=True)
class AutomaCard:
    id: str
    deploy: str                        # J M L I (location) or A B C D (priority letter)
    gain: str
    extra: str                         # star | cross | none
    arrow: str                         # cw (J->M->L->I) | ccw


@dataclass(frozen=True)
class AutomaLevel:
    matching: int
    non_matching: int
    start_points: int = 70


@dataclass(frozen=True)
class Content:
    deck_name: str
    synthetic: bool
    colours: tuple[str, ...]
    cards: tuple[Card, ...]
    houses: tuple[House, ...]
    fleet_points: tuple[int, ...]      # points by space; the last index is the last space
    automa_levels: dict                # level (1..6) -> AutomaLevel
    automa_cards: tuple[AutomaCard, ...]
    automa_max: int = 10               # Au Toma's caps (RR-V28, RR-A25)
    automa_hand_limit: int = 20        # RR-V41
    die_faces: tuple[str, ...] = DIE_BONUSES   # bonus of die face 1..6 (RR-R22), names from DIE_BONUSES
    sources: dict = field(default_factory=dict)  # "deck" / "tables" / "automa" -> file path
