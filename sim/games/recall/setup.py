"""The random setup of Recall (spec section 7) from counter-based streams.

Every draw is ``sim.core.rng`` keyed by (seed, game index, purpose); the purposes and the
order in which each stream is used are the table in docs/recall_content.md ("Random setup"),
so an independent implementation (the oracle) reproduces a game's setup exactly. ``deal``
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

    start_player: int                      # seat index (RC-S28)
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
    draws: tuple[int, int]                 # artifact and stone draws used so far (the next counters)
    goal_cards: tuple[tuple[int, ...], ...]  # per seat (RC-S27, RC-V12)
    tribe_display: tuple[int, ...]         # players + 1 tribe cards (RC-S32)
    item_display: tuple[int, ...]          # the item next to each (RC-S32)


def _keys(seed: int, game_index: int, purpose: str, *extra):
    return rng.stream_keys(seed, [game_index], purpose, *extra)


def shuffle(seed: int, game_index: int, purpose: str, n: int, counter: int = 0) -> tuple[int, ...]:
    """The ``counter``-th shuffle of range(n) of one purpose."""
    return tuple(int(x) for x in rng.permutations(_keys(seed, game_index, purpose), n, counter)[0])


def draw_colour(seed: int, game_index: int, purpose: str, counter: int, left: list[int]) -> int:
    """Draw one piece uniformly among those ``left`` (counts per colour; RC-A35); -1 if none."""
    total = sum(left)
    if total == 0:
        return -1
    pick = int(rng.integers(_keys(seed, game_index, purpose), counter, total)[0])
    for colour, n in enumerate(left):
        if pick < n:
            left[colour] -= 1
            return colour
        pick -= n
    raise AssertionError("unreachable")


def _copies(items) -> list[int]:
    """Kind index of every copy, in file order (a stack before shuffling)."""
    return [i for i, item in enumerate(items) for _ in range(item.count)]


def _sides(config, seed, game_index) -> tuple[int, ...]:
    fixed = config.sides()
    if fixed is not None:
        return fixed
    u = rng.uniform(_keys(seed, game_index, "rc_path_sides"), np.arange(6))
    return tuple(int(x >= 0.5) for x in u)


def deal(config, content: Content, seed: int, game_index: int, board: Board | None = None) -> GameSetup:
    """The setup of one game (RC-S2..S38, RC-V1, RC-A10, RC-A35, RC-A66)."""
    board = board or build_board(content.map)
    n = config.players
    start_player = (int(rng.integers(_keys(seed, game_index, "rc_start_player"), 0, n)[0])
                    if config.start_player == "random" else 0)
    by_seat = content.map.start_fields
    seat_fields = tuple(by_seat[:n]) if config.start_fields == "by_seat" else tuple(
        by_seat[i] for i in shuffle(seed, game_index, "rc_start_fields", n))
    light = shuffle(seed, game_index, "rc_light_tokens", len(content.light_tokens))
    dark = shuffle(seed, game_index, "rc_dark_tokens", len(content.dark_tokens))
    order = shuffle(seed, game_index, "rc_path_order", len(content.path_cards))
    card_sides = _sides(config, seed, game_index)            # by path card (file order)
    monuments = shuffle(seed, game_index, "rc_monument_tiles", len(content.monument_tiles))
    chest = _copies(content.chest_tiles)
    chest_order = shuffle(seed, game_index, "rc_chest", len(chest))
    letters = shuffle(seed, game_index, "rc_upgrade_letters", len(content.upgrade_symbols))
    decks = []
    for colour, purpose in ((2, "rc_green_deck"), (3, "rc_grey_deck")):
        cards = [i for i in content.key_kinds(colour) for _ in range(content.key_cards[i].count)]
        decks.append(tuple(cards[j] for j in shuffle(seed, game_index, purpose, len(cards))))

    # Area tiles (RC-S15..S17): start tiles on their slots, the others shuffled over the rest in slot order.
    slot_ids = board.slot_ids
    start_slots = [slot_ids.index(s) for s in content.map.start_tile_slots]
    others = [k for k in range(board.n_slots) if k not in start_slots]
    other_tiles = shuffle(seed, game_index, "rc_area_tiles", len(others))
    tile = [0] * board.n_slots
    rotation = [0] * board.n_slots
    face_up = [False] * board.n_slots
    turns = rng.integers(_keys(seed, game_index, "rc_start_rotation"), np.arange(2), 6)
    for side, k in enumerate(start_slots):
        tile[k] = side
        face_up[k] = side == 0 or n > 2                       # RC-S16, RC-V10, RC-V16
        rotation[k] = int(turns[side]) if face_up[k] else 0
    for j, k in enumerate(others):
        tile[k] = 2 + other_tiles[j]
    layout = Layout(tuple(tile), tuple(rotation), tuple(face_up))

    # Fill the face-up start tiles from the bag (RC-S18, RC-A35): tiles left then right, positions 0..6.
    s = content.setup
    bag_a = [c - s.display_per_colour for c in s.artifacts_per_colour]
    bag_s = list(s.stones_per_colour)
    fl = fields(board, content, layout)
    artifacts, sites, na, ns = [], [], 0, 0
    for k in start_slots:
        if not face_up[k]:
            continue
        for p in range(7):
            f = board.field_of(k, p, rotation[k])
            if fl.artifact[f]:
                colour = draw_colour(seed, game_index, "rc_bag_artifacts", na, bag_a)
                na += 1
                if colour >= 0:
                    artifacts.append((f, colour))
            if fl.terrain[f] == EXCAVATION:
                stones = []
                for _ in range(s.stones_per_site):
                    colour = draw_colour(seed, game_index, "rc_bag_stones", ns, bag_s)
                    ns += 1
                    if colour >= 0:
                        stones.append(colour)
                sites.append((f, tuple(stones)))

    goals = shuffle(seed, game_index, "rc_goal_cards", len(content.goal_cards))
    per = s.goal_cards_dealt_solo if n == 1 else s.goal_cards_dealt
    goal_cards = tuple(tuple(goals[i * per:(i + 1) * per]) for i in range(n))
    tribes = shuffle(seed, game_index, "rc_tribes", len(content.tribes))
    items = shuffle(seed, game_index, "rc_items", len(content.items))
    return GameSetup(
        start_player=start_player, start_fields=seat_fields, light_tokens=light, dark_tokens=dark,
        path_cards=order, path_sides=tuple(card_sides[c] for c in order),
        monument_tiles=monuments[:s.monument_tiles_shown], chest_stack=tuple(chest[j] for j in chest_order),
        upgrade_letters=letters, green_deck=decks[0], grey_deck=decks[1], layout=layout,
        artifacts=tuple(artifacts), sites=tuple(sites), bag_artifacts=tuple(bag_a), bag_stones=tuple(bag_s),
        draws=(na, ns), goal_cards=goal_cards, tribe_display=tribes[:n + 1], item_display=items[:n + 1])


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
    t_order = shuffle(seed, game_index, "rc_old_tribes", len(tribes))
    i_order = shuffle(seed, game_index, "rc_old_items", len(items))
    per = s.items_per_stack
    return (tuple(tribes[t_order[k]] for k in range(len(TRACKS))),
            tuple(tuple(items[i_order[k * per + j]] for j in range(per)) for k in range(len(TRACKS))))
