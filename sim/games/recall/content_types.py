"""The parsed, validated content of Recall: every table of spec section 8 and the addendum.

``content.py`` builds a ``Content`` from the data files in ``data/``; nothing here reads files.
Names are index-ordered tuples: the engine's integer arrays, the oracle's lists and the
position files all use these indices (docs/recall_content.md lists them). Every number the seed
leaves open is a field of one of these records, never a constant in rules code (RC-A1).
"""
from __future__ import annotations

from dataclasses import dataclass, field

# ---- names (index order is the integer id everywhere) -------------------------------------
CRYSTALS = ("white", "red", "purple")            # RC-R69; W, R, P in the reward language
CRYSTAL_CODES = ("W", "R", "P")
TRACKS = ("white", "grey", "black")              # knowledge tracks = skill-stone colours (RC-E46..E48)
ARTIFACT_COLOURS = ("white", "grey", "black", "brown")   # RC-R105
KEY_COLOURS = ("white", "yellow", "green", "grey")       # key-card levels, low to high (RC-R192)
LETTERS = ("A", "B", "C", "D", "E", "F")                 # action fields and upgrade-tile letters
BUILDINGS = ("sanctuary", "workshop", "monument")
WORKSHOP_TERRAINS = ("grain", "forest", "mountain")      # columns of the workshop area (RC-R130)
PATHS = ("knowledge", "ancestors", "saints", "efficiency", "ambition", "power")   # RC-S4
SIDES = ("a", "b")
# Field terrains of the map legend (RC-A4); ``start`` and ``camp`` fields carry their number.
TERRAINS = ("grain", "forest", "mountain", "water", "volcano", "sanctuary", "monument",
            "excavation", "camp", "start", "board_monument")
GRAIN, FOREST, MOUNTAIN, WATER, VOLCANO, SANCTUARY, MONUMENT, EXCAVATION, CAMP, START, BOARD_MONUMENT = range(11)
# Goal-card condition kinds (RC-E30..E42), each with a parameter ``n``.
GOAL_KINDS = ("artifacts_one_colour",    # n artifacts of one colour (E30, E31)
              "artifact_colours",        # artifacts of n different colours (E32, E33 with n = 4)
              "stone_colours",           # >= 1 white, grey and black stone (E34, n = 3)
              "stones",                  # n white/grey/black stones (E35, RC-A58)
              "upgrade_tiles",           # E36
              "sanctuaries",             # E37
              "monuments",               # E38
              "key_cards",               # E39 (start cards and cards in slots count)
              "old_tribes",              # E40 (n = 3)
              "camps",                   # E41
              "area_tiles")              # E42
ANY = -1                                  # "of the receiver's choice" (K:any, KEY:any)
NONE = -1                                 # no camp / start number / building / key colour

# ---- the reward and effect language (RC-A2, RC-A63) ---------------------------------------
# Atom operations. Gains: CRYSTAL (arg = crystal), F, FH, VP, PP, K (arg = track or ANY),
# KEACH, UPC, KEY (arg = key colour), KEYUP, KEYBACK, CHEST, FREE, ART_DISPLAY. Action atoms
# (they join the turn's pending effects, RC-A64): MOVE, WMOVE (arg 1 = improved, RC-R96),
# DEV, EXPLORE, and the field grammar of RC-A63: PAYOPT (``options`` = ((crystal or NONE,
# count), ...), ``what`` = the atom paid for), UNITS (n units, ``what`` = the allowed ops),
# BUY (``options`` = ((Crystals, followers), ...)), SELL (arg = crystal gained per follower),
# COPY (``cost`` paid), COST (``cost`` paid, then ``inner``).
OPS = ("CRYSTAL", "F", "FH", "VP", "PP", "K", "KEACH", "UPC", "KEY", "KEYUP", "KEYBACK", "CHEST",
       "FREE", "ART_DISPLAY", "MOVE", "WMOVE", "DEV", "EXPLORE", "PAYOPT", "UNITS", "BUY", "SELL",
       "COPY", "COST")
ACTION_OPS = ("MOVE", "WMOVE", "DEV", "EXPLORE", "PAYOPT", "UNITS", "BUY", "SELL", "COPY")

Crystals = tuple[int, int, int]           # white, red, purple counts (a cost or a gain)


@dataclass(frozen=True)
class Atom:
    """One effect of the reward language; fields an op does not use keep their defaults."""

    op: str
    arg: int = 0
    n: int = 1
    cost: Crystals = (0, 0, 0)
    options: tuple = ()
    what: tuple[str, ...] = ()
    inner: tuple = ()                     # COST: the Effect bought


# An item is one atom or a choice among atoms (``a|b``); an effect is items joined by ``+``
# ("|" binds tighter than "+", RC-A63); the receiver chooses the order of the items (RC-R15).
Item = tuple[Atom, ...]
Effect = tuple[Item, ...]


# ---- map (RC-A3, RC-A4, RC-A5, RC-A62, RC-A65, RC-A66) -------------------------------------
@dataclass(frozen=True)
class Terrain:
    """Enterability and building rule of one terrain (RC-A62, RC-R116)."""

    name: str
    move: bool                            # a normal move may enter it
    water: bool                           # part of water areas (RC-A7)
    building: int                         # index into BUILDINGS, or NONE
    key_colour: int                       # workshop terrains: key colour gained (RC-R133), else NONE


@dataclass(frozen=True)
class Slot:
    id: str
    centre: tuple[int, int]               # axial (q, r)


@dataclass(frozen=True)
class BoardMonument:
    id: str
    at: tuple[int, int]
    track: int                            # knowledge track scored (RC-E23)


@dataclass(frozen=True)
class MapData:
    directions: tuple[tuple[int, int], ...]   # d0..d5 (RC-A3)
    slots: tuple[Slot, ...]                   # slot index k -> fields 7k..7k+6
    board_monuments: tuple[BoardMonument, ...]
    river: tuple[tuple[int, int], ...]        # printed water fields (RC-A65), after the board monuments
    terrains: tuple[Terrain, ...]             # by TERRAINS index
    start_tile_slots: tuple[str, str]         # slot of the left and the right start tile (RC-S15)
    start_fields: tuple[int, ...]             # seat k -> start field number (RC-A66), 1-based


@dataclass(frozen=True)
class TileField:
    """One field of an area tile (RC-A4 legend)."""

    terrain: int                          # TERRAINS index
    pigs: int = 0                         # grain fields: pigs shown (Dorian, RC-R210)
    camp: int = NONE                      # camp index (camps file) for a camp field
    start: int = NONE                     # start field number 1..4
    artifact: bool = False                # artifact symbol overlay


@dataclass(frozen=True)
class AreaTile:
    id: str
    start: bool                           # S on the back (RC-S15)
    fields: tuple[TileField, ...]         # centre, ring positions 1..6


# ---- tracks and time (RC-A8, RC-A9, RC-A11, RC-A13, RC-A29) ---------------------------------
@dataclass(frozen=True)
class TimeBoard:
    spaces: int                           # the last space ends the game (RC-R7)
    path_spaces: tuple[int, ...]          # k-th entry = space of path sector k (RC-A9)
    goal_spaces: tuple[int, ...]          # goal-card rounds (RC-R189)

    def kind(self, space: int) -> str:
        if space in self.path_spaces:
            return "path"
        if space in self.goal_spaces:
            return "goal"
        return "end" if space == self.spaces else "normal"


@dataclass(frozen=True)
class KnowledgeTracks:
    points: tuple[int, ...]               # value at positions 0..last (RC-E6)
    third: int
    fifth: int
    seventh: int
    bonus_positions: tuple[int, ...]      # light-token positions on each track

    @property
    def last(self) -> int:
        return len(self.points) - 1


@dataclass(frozen=True)
class BonusToken:
    id: str
    reward: Effect


# ---- action fields and upgrades (RC-A14, RC-A23, RC-A63) ------------------------------------
@dataclass(frozen=True)
class UpgradeTile:
    letter: int                           # LETTERS index
    count: int                            # tiles in the stack (RC-A14: 4)
    sides: tuple[Effect, Effect]          # a, b: each replaces the printed field (RC-A14)


# ---- player board (RC-A16, RC-A17, RC-A19, RC-A21, RC-A22) ---------------------------------
@dataclass(frozen=True)
class ProductionField:
    id: str
    yield_: Effect
    building: int = NONE                  # BUILDINGS index whose removal uncovers it; NONE = visible at start
    column: int = NONE                    # workshops: WORKSHOP_TERRAINS index
    position: int = 0                     # 1-based position of that building (sanctuaries top->bottom,
                                          # workshops and monuments counted from the bottom)


@dataclass(frozen=True)
class ArtifactRows:
    follower_cost: tuple[int, ...]        # per column (RC-R101)
    points_under: tuple[int, ...]         # per column (RC-E19)
    covered: tuple[tuple[Effect, ...], ...]   # [colour][column] reward (RC-R103)

    @property
    def columns(self) -> int:
        return len(self.follower_cost)


@dataclass(frozen=True)
class PlayerBoard:
    production: tuple[ProductionField, ...]
    artifact_rows: ArtifactRows
    sanctuaries: tuple[Effect, ...]       # rewards, top (1) to bottom (RC-A19)
    workshops: tuple[tuple[Crystals, ...], ...]   # [terrain column][bottom first] crystal cost
    monuments: tuple[Crystals, ...]       # bottom (first built) to top (RC-R138)


# ---- cards, tiles, tokens -------------------------------------------------------------------
@dataclass(frozen=True)
class KeyCard:
    """One kind of key card; ``count`` copies (white: per player, RC-S25)."""

    id: str
    colour: int                           # KEY_COLOURS index
    count: int
    effect: Effect
    points: int                           # end points (RC-E16, RC-A25)


@dataclass(frozen=True)
class Tile:
    """A chest tile, ring or bonus-like tile kind: ``count`` copies of one reward."""

    id: str
    count: int
    reward: Effect


@dataclass(frozen=True)
class MonumentTile:
    id: str
    reward: Effect                        # to everyone building there (RC-R143)
    points: int                           # Path of Power (RC-E22)


@dataclass(frozen=True)
class Camp:
    id: str
    reward: Effect


@dataclass(frozen=True)
class Ability:
    """A tribe card or an item tile (RC-R204, RC-A32, RC-A33).

    ``effect`` is the ability in the reward language when it has one (common items, Zendeling,
    Noorderling, ...); abilities the language cannot say (``coded``) are rules in the engine,
    keyed by ``id``. ``parts`` lists the separate abilities of a multi-item (Multitool, RC-R247).
    """

    id: str
    effect: Effect = ()
    coded: bool = False
    event: str = ""                       # event name for event-bound abilities (RC-R65), "" = none
    hexagon: bool = False                 # fixed cost 1 (RC-R64)
    permanent: bool = False               # has a grey-background permanent effect (RC-R67)
    rare: bool = False
    parts: tuple[str, ...] = ()


@dataclass(frozen=True)
class GoalCard:
    id: str
    kind: int                             # GOAL_KINDS index
    n: int
    reward: Effect                        # bottom reward when discarded (RC-R189)


@dataclass(frozen=True)
class PathCard:
    """The numbers of one path card's base and specialisation rules (RC-E6..E25).

    The shape of each rule is code (scoring.py); the numbers are data: ``base`` the base
    multiplier, ``a`` / ``b`` the specialisation number of each side (see docs/recall_content.md).
    """

    id: str
    path: int                             # PATHS index
    base: int
    a: int
    b: int


@dataclass(frozen=True)
class Setup:
    """Counts of the setup and the supply (RC-S, RC-A35, RC-A39)."""

    artifacts_per_colour: tuple[int, ...]      # in the game, per ARTIFACT_COLOURS (RC-A35)
    display_per_colour: int                    # RC-S13
    stones_per_colour: tuple[int, ...]         # in the bag, per TRACKS (RC-A35)
    stones_per_site: int                       # RC-S18, RC-R111
    follower_units: int                        # RC-A39: 14 + 3 x 3
    start_followers: int                       # RC-S29
    start_crystals: Crystals                   # RC-S26
    crystal_cap: int                           # RC-R73
    key_display: int                           # face-up green / grey cards (RC-S11, RC-S12)
    monument_tiles_shown: int                  # RC-S7
    goal_cards_dealt: int                      # RC-S27
    goal_cards_dealt_solo: int                 # RC-V12
    goal_points: int                           # RC-E29
    goal_points_solo: int                      # RC-V13
    items_per_stack: int                       # RC-S37
    old_tribes: int                            # RC-S36
    own_stones: int                            # RC-S21: own-colour skill stones per player
    pigs: int
    pig_farms: int
    islands: int
    rafts: int
    leftover_divisor: int                      # RC-E28
    crystal_value: Crystals                    # white equivalents (RC-E26)
    pig_farm_points: int                       # RC-R214, RC-E44
    excavation: tuple[tuple[int, int], ...]    # [stones on the site - 1] -> (crystal paid, steps) (RC-R152..R154)


@dataclass(frozen=True)
class Content:
    map: MapData
    area_tiles: tuple[AreaTile, ...]           # start tiles first (left, right), then the others
    time_board: TimeBoard
    knowledge: KnowledgeTracks
    upgrade_symbols: tuple[int, ...]           # score-track positions (RC-A13)
    light_tokens: tuple[BonusToken, ...]
    dark_tokens: tuple[BonusToken, ...]
    base_fields: tuple[Effect, ...]            # printed A..F (RC-R23..R35)
    upgrades: tuple[UpgradeTile, ...]          # by letter
    board: PlayerBoard
    key_cards: tuple[KeyCard, ...]             # white first, then yellow, green, grey kinds
    chest_tiles: tuple[Tile, ...]
    monument_tiles: tuple[MonumentTile, ...]
    camps: tuple[Camp, ...]
    rings: tuple[Tile, ...]
    tribes: tuple[Ability, ...]
    items: tuple[Ability, ...]
    goal_cards: tuple[GoalCard, ...]
    path_cards: tuple[PathCard, ...]           # one per PATHS entry, in PATHS order
    setup: Setup
    sources: dict = field(default_factory=dict)   # file role -> path read

    def key_kinds(self, colour: int) -> tuple[int, ...]:
        """Indices of the key-card kinds of one colour, in file order."""
        return tuple(i for i, k in enumerate(self.key_cards) if k.colour == colour)

    @property
    def start_tiles(self) -> tuple[int, int]:
        return (0, 1)
