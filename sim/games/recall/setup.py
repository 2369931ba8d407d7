"""The random setup of Recall (spec section 7) from counter-based streams.

Every draw is ``sim.core.rng`` keyed by (seed, game index, purpose[, extra word]); the purposes
and how each stream is read are the contract's table (docs/recall_model.md, "Random draws",
repeated in docs/recall_content.md), so the oracle and the engine reproduce a game's setup
exactly. ``deal``
gives everything fixed before the tribe draft; ``old_tribes`` the old tribes and their item
stacks once the draft has taken its tribes and items (RC-S36, RC-S37).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core import rng
from sim.games.recall.board import Board, Layout, build_board, fields
from sim.games.recall.content_types import EXCAVATION, TRACKS, Content


@dataclass(frozen=True)
class GameSetup:
    """One game's setup before the tribe draft; all indices into the content's tuples."""

    start_slot: int                        # experiment slot of the start player = seat 0 (RC-S28)
    start_fields: tuple[int, ...]          # start field number of each seat in turn order (RC-S29, RC-A66)
    light_tokens: tuple[int, ...]          # token on bonus field i = track i // n, i-th bonus position (RC-S2)
    dark_tokens: tuple[int, ...]           # token beside path position 1..6 (RC-S3)
    path_cards: tuple[int, ...]            # path card at positions 1..6, top to bottom (RC-S4)
    path_sides: tuple[int, ...]            # side (0 a, 1 b) of the card at each position (RC-S5, RC-S6)
    monument_tiles: tuple[int, ...]        # the face-up monument tiles (RC-S7)
    chest_stack: tuple[int, ...]           # chest kind of each tile, top first (RC-S8)
    upgrade_letters: tuple[int, ...]       # letter of the stack at upgrade symbol i (RC-S9)
    green_deck: tuple[int, ...]            # key kind of each green card, top first; first 3 face up (RC-S11)
    grey_deck: tuple[int, ...]             # (RC-S12)
    layout: Layout                         # area tile, rotation (face-down: 0) and face-up per slot (RC-S15..S17)
    artifacts: tuple[tuple[int, int], ...]  # (field, colour) placed on face-up start tiles (RC-S18)
    sites: tuple[tuple[int, tuple[int, ...]], ...]   # (field, stone colours) on excavation sites (RC-S18)
    bag_artifacts: tuple[int, ...]         # artifacts left in the bag per colour (RC-S14)
    bag_stones: tuple[int, ...]            # stones left in the bag per colour
    bag_draws: int                         # bag draws used so far (the next counter of the bag stream)
    goal_cards: tuple[tuple[int, ...], ...]  # per seat (RC-S27, RC-V12)
    tribe_display: tuple[int, ...]         # players + 1 tribe cards (RC-S32)
    item_display: tuple[int, ...]          # the item next to each (RC-S32)


def _keys(seed: int, game_index: int, purpose: str, *extra):
    return rng.stream_keys(seed, [game_index], purpose, *extra)


def shuffle(seed: int, game_index: int, purpose: str, n: int, *extra) -> tuple[int, ...]:
    """A shuffle of range(n): position i holds ``perm[i]``."""
    return tuple(int(x) for x in rng.permutations(_keys(seed, game_index, purpose, *extra), n)[0])


def draw_colour(seed: int, game_index: int, counter: int, left: list[int]) -> int:
    """The game's ``counter``-th bag draw among the pieces ``left`` (counts per colour, RC-A35).

    ``floor(u * total)`` with ``u`` the counter-th uniform of the ``bag`` stream indexes the
    pieces left listed by colour; -1 (and no draw used) if the pool is empty.
    """
    total = sum(left)
    if total == 0:
        return -1
    pick = int(float(rng.uniform(_keys(seed, game_index, "bag"), counter)[0]) * total)
    for colour, n in enumerate(left):
        if pick < n:
            left[colour] -= 1
            return colour
        pick -= n
    raise AssertionError("unreachable")


def _copies(items) -> list[int]:
    """Kind index of every copy, in file order (a stack before shuffling)."""
    return [i for i, item in enumerate(items) for _ in range(item.count)]


def _sides(config, seed, game_index, order) -> tuple[int, ...]:
    """Side of the card at each position: drawn per position, or the config's per card (RC-A10)."""
    fixed = config.sides()
    if fixed is not None:
        return tuple(fixed[c] for c in order)
    return tuple(int(x) for x in rng.integers(_keys(seed, game_index, "sides"), np.arange(len(order)), 2))


def deal(config, content: Content, seed: int, game_index: int, board: Board | None = None) -> GameSetup:
    """The setup of one game (RC-S2..S38, RC-V1, RC-A10, RC-A35, RC-A66)."""
    board = board or build_board(content.map)
    n = config.players
    start_slot = int(rng.integers(_keys(seed, game_index, "start"), 0, n)[0]) if config.start_player == "random" else 0
    light = shuffle(seed, game_index, "light", len(content.light_tokens))
    dark = shuffle(seed, game_index, "dark", len(content.dark_tokens))
    order = shuffle(seed, game_index, "paths", len(content.path_cards))
    monuments = shuffle(seed, game_index, "monuments", len(content.monument_tiles))
    chest = _copies(content.chest_tiles)
    chest_order = shuffle(seed, game_index, "chests", len(chest), 0)
    letters = shuffle(seed, game_index, "upgrades", len(content.upgrade_symbols))
    decks = []
    for colour, purpose in ((2, "green"), (3, "grey")):
        cards = [i for i in content.key_kinds(colour) for _ in range(content.key_cards[i].count)]
        decks.append(tuple(cards[j] for j in shuffle(seed, game_index, purpose, len(cards))))

    # Area tiles (RC-S15..S17): start tiles on their slots, the others shuffled over the rest in slot order.
    start_slots = [board.slot_ids.index(x) for x in content.map.start_tile_slots]
    others = [k for k in range(board.n_slots) if k not in start_slots]
    other_tiles = shuffle(seed, game_index, "tiles", len(others))
    tile = [0] * board.n_slots
    rotation = [0] * board.n_slots
    face_up = [False] * board.n_slots
    for side, k in enumerate(start_slots):
        tile[k] = side
        face_up[k] = side == 0 or n > 2                       # RC-S16, RC-V10, RC-V16
        if face_up[k]:
            rotation[k] = int(rng.integers(_keys(seed, game_index, "rotation"), k, 6)[0])
    for j, k in enumerate(others):
        tile[k] = 2 + other_tiles[j]
    layout = Layout(tuple(tile), tuple(rotation), tuple(face_up))

    # Fill the face-up start tiles (RC-S18, RC-A35): slots L then R; per tile the artifacts, then
    # the stones, each in field-index order; one bag stream for both pools.
    s = content.setup
    bag_a = [c - s.display_per_colour for c in s.artifacts_per_colour]
    bag_s = list(s.stones_per_colour)
    fl = fields(board, content, layout)
    artifacts, sites, draws = [], [], 0
    for k in start_slots:
        if not face_up[k]:
            continue
        for f in range(7 * k, 7 * k + 7):
            if fl.artifact[f]:
                colour = draw_colour(seed, game_index, draws, bag_a)
                draws += colour >= 0
                if colour >= 0:
                    artifacts.append((f, colour))
        for f in range(7 * k, 7 * k + 7):
            if fl.terrain[f] == EXCAVATION:
                stones = []
                for _ in range(s.stones_per_site):
                    colour = draw_colour(seed, game_index, draws, bag_s)
                    draws += colour >= 0
                    if colour >= 0:
                        stones.append(colour)
                sites.append((f, tuple(stones)))

    # Start fields (RC-S29, RC-A66): by seat, or a shuffle of the start fields on face-up tiles.
    by_seat = content.map.start_fields
    if config.start_fields == "by_seat":
        seat_fields = tuple(by_seat[:n])
    else:
        pool = [x for x in by_seat if (fl.start == x).any() and fl.face_up[fl.start == x].all()]
        perm = shuffle(seed, game_index, "start_fields", len(pool))
        seat_fields = tuple(pool[perm[j]] for j in range(n))

    goals = shuffle(seed, game_index, "goals", len(content.goal_cards))
    per = s.goal_cards_dealt_solo if n == 1 else s.goal_cards_dealt
    goal_cards = tuple(tuple(goals[i * per:(i + 1) * per]) for i in range(n))
    tribes = shuffle(seed, game_index, "tribes", len(content.tribes))
    items = shuffle(seed, game_index, "items", len(content.items))
    return GameSetup(
        start_slot=start_slot, start_fields=seat_fields, light_tokens=light, dark_tokens=dark,
        path_cards=order, path_sides=_sides(config, seed, game_index, order),
        monument_tiles=monuments[:s.monument_tiles_shown], chest_stack=tuple(chest[j] for j in chest_order),
        upgrade_letters=letters, green_deck=decks[0], grey_deck=decks[1], layout=layout,
        artifacts=tuple(artifacts), sites=tuple(sites), bag_artifacts=tuple(bag_a), bag_stones=tuple(bag_s),
        bag_draws=draws, goal_cards=goal_cards, tribe_display=tribes[:n + 1], item_display=items[:n + 1])


def random_tribes(setup: GameSetup, players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """RC-V1: seat k (turn order) gets display pair k; the last pair stays unchosen."""
    return setup.tribe_display[:players], setup.item_display[:players]


def old_tribes(content: Content, seed: int, game_index: int, chosen_tribes, chosen_items):
    """(tribe per track, 4 items per track) after the draft (RC-S35..S38).

    The tribes and items nobody owns, in file order, are shuffled once each; the first tribes
    go to the white, grey, black tribe fields and the first items, 4 by 4, to their stacks.
    """
    s = content.setup
    tribes = [i for i in range(len(content.tribes)) if i not in chosen_tribes]
    items = [i for i in range(len(content.items)) if i not in chosen_items]
    t_order = shuffle(seed, game_index, "old_tribes", len(tribes))
    i_order = shuffle(seed, game_index, "old_items", len(items))
    per = s.items_per_stack
    return (tuple(tribes[t_order[k]] for k in range(len(TRACKS))),
            tuple(tuple(items[i_order[k * per + j]] for j in range(per)) for k in range(len(TRACKS))))
