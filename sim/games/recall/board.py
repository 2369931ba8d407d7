"""Recall map geometry: fields, adjacency, terrain of a laid-out board, water areas, reach.

``Board`` is the static geometry of the map data (RC-A3, RC-A65): field index = slot k x 7 +
(0 for the centre, 1 + direction index for a ring field), then the board monument fields, then
the printed river fields. ``Layout`` says which area tile lies in which slot, turned how, and
whether it is face up; ``fields(board, content, layout)`` gives the terrain of every field.
Everything is integer numpy tables so the engine can take them as they are.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.games.recall.content_types import (
    BOARD_MONUMENT, CAMP, NONE, START, TERRAINS, WATER, Content, MapData,
)

FIELD_CODES = {"grain": "g", "forest": "fo", "mountain": "mo", "water": "wa", "volcano": "vo",
               "sanctuary": "sa", "monument": "mn", "excavation": "ex", "camp": "c", "start": "st",
               "board_monument": "BM"}


@dataclass(frozen=True)
class Board:
    coords: tuple[tuple[int, int], ...]   # (q, r) per field
    slot: np.ndarray                       # int[F]: slot index, -1 for printed fields
    neighbours: np.ndarray                 # int[F, 6]: field in direction d, -1 if none
    slot_ids: tuple[str, ...]
    board_monuments: tuple[int, ...]       # field indices
    board_monument_ids: tuple[str, ...]
    river: tuple[int, ...]                 # field indices
    slot_adjacent: np.ndarray              # bool[S, S]

    @property
    def n_fields(self) -> int:
        return len(self.coords)

    @property
    def n_slots(self) -> int:
        return len(self.slot_ids)

    def field_of(self, slot: int, position: int, rotation: int) -> int:
        """Field of a tile's position (0 centre, 1..6 ring) in ``slot`` turned by ``rotation`` (RC-A3)."""
        return slot * 7 + (0 if position == 0 else 1 + (position - 1 + rotation) % 6)

    def name(self, f: int) -> str:
        """``<slot>:<0..6>`` for a tile field, the board monument id or ``river<i>``."""
        if self.slot[f] >= 0:
            return f"{self.slot_ids[self.slot[f]]}:{f % 7}"
        if f in self.board_monuments:
            return self.board_monument_ids[self.board_monuments.index(f)]
        return f"river{self.river.index(f)}"


def build_board(game_map: MapData) -> Board:
    """The static geometry of the map data."""
    coords, slot = [], []
    for k, s in enumerate(game_map.slots):
        q, r = s.centre
        coords.append((q, r))
        coords.extend((q + dq, r + dr) for dq, dr in game_map.directions)
        slot.extend([k] * 7)
    bm = []
    for b in game_map.board_monuments:
        bm.append(len(coords))
        coords.append(b.at)
        slot.append(-1)
    river = []
    for c in game_map.river:
        river.append(len(coords))
        coords.append(c)
        slot.append(-1)
    index = {c: i for i, c in enumerate(coords)}
    neighbours = np.full((len(coords), 6), -1, dtype=np.int16)
    for i, (q, r) in enumerate(coords):
        for d, (dq, dr) in enumerate(game_map.directions):
            neighbours[i, d] = index.get((q + dq, r + dr), -1)
    n = len(game_map.slots)
    adjacent = np.zeros((n, n), dtype=bool)
    slot_arr = np.array(slot, dtype=np.int16)
    for i in range(n * 7):
        for j in neighbours[i]:
            if j >= 0 and slot_arr[j] >= 0 and slot_arr[j] != slot_arr[i]:
                adjacent[slot_arr[i], slot_arr[j]] = True
    return Board(tuple(coords), slot_arr, neighbours, tuple(s.id for s in game_map.slots), tuple(bm),
                 tuple(b.id for b in game_map.board_monuments), tuple(river), adjacent)


@dataclass(frozen=True)
class Layout:
    """Which area tile lies in each slot (tile index), its rotation and whether it is face up."""

    tile: tuple[int, ...]
    rotation: tuple[int, ...]
    face_up: tuple[bool, ...]


@dataclass(frozen=True)
class Fields:
    """Per-field contents of a laid-out board (int[F] arrays, NONE = -1 where not given)."""

    terrain: np.ndarray
    pigs: np.ndarray
    camp: np.ndarray
    start: np.ndarray
    artifact: np.ndarray                  # bool: artifact symbol printed on the tile
    face_up: np.ndarray                   # bool


def fields(board: Board, content: Content, layout: Layout) -> Fields:
    """The terrain of every field; a face-down tile's fields keep its terrain but are not face up."""
    F = board.n_fields
    terrain = np.full(F, WATER, dtype=np.int8)          # river fields are water (RC-A65)
    pigs = np.zeros(F, dtype=np.int8)
    camp = np.full(F, NONE, dtype=np.int8)
    start = np.full(F, NONE, dtype=np.int8)
    artifact = np.zeros(F, dtype=bool)
    face_up = np.ones(F, dtype=bool)
    for f in board.board_monuments:
        terrain[f] = BOARD_MONUMENT
    for k in range(board.n_slots):
        tile = content.area_tiles[layout.tile[k]]
        for p, tf in enumerate(tile.fields):
            f = board.field_of(k, p, layout.rotation[k])
            terrain[f], pigs[f], camp[f], start[f], artifact[f] = tf.terrain, tf.pigs, tf.camp, tf.start, tf.artifact
            face_up[f] = layout.face_up[k]
    return Fields(terrain, pigs, camp, start, artifact, face_up)


def enterable(content: Content, fl: Fields, volcano: bool = False) -> np.ndarray:
    """bool[F]: fields a normal move may enter (RC-R88, RC-A62; Colteron's volcanoes, RC-A45)."""
    move = np.array([t.move for t in content.map.terrains])
    ok = move[fl.terrain] & fl.face_up
    if volcano:
        ok |= (fl.terrain == TERRAINS.index("volcano")) & fl.face_up
    return ok


def water_areas(board: Board, content: Content, fl: Fields) -> np.ndarray:
    """int[F]: label of each face-up water field's connected water area (RC-A7(a)), -1 elsewhere."""
    water = np.array([t.water for t in content.map.terrains])[fl.terrain] & fl.face_up
    label = np.full(board.n_fields, -1, dtype=np.int16)
    n = 0
    for f in range(board.n_fields):
        if water[f] and label[f] < 0:
            stack, label[f] = [f], n
            while stack:
                g = stack.pop()
                for h in board.neighbours[g]:
                    if h >= 0 and water[h] and label[h] < 0:
                        label[h] = n
                        stack.append(h)
            n += 1
    return label


def distances(board: Board, ok: np.ndarray, source: int, limit: int) -> np.ndarray:
    """int[F]: fewest normal moves from ``source`` over fields in ``ok`` (-1 beyond ``limit``)."""
    dist = np.full(board.n_fields, -1, dtype=np.int16)
    dist[source] = 0
    frontier = [source]
    for step in range(1, limit + 1):
        nxt = []
        for g in frontier:
            for h in board.neighbours[g]:
                if h >= 0 and ok[h] and dist[h] < 0:
                    dist[h] = step
                    nxt.append(h)
        frontier = nxt
    return dist


def start_field(fl: Fields, number: int) -> int:
    """The field of start field ``number`` (1..4), or -1 if its tile is not on the board."""
    hit = np.nonzero(fl.start == number)[0]
    return int(hit[0]) if len(hit) else -1


def field_code(content: Content, fl: Fields, f: int) -> str:
    """The map-legend code of one field (``g2+a``, ``c3``, ``st1``, ``BM``, ``??`` face down)."""
    if not fl.face_up[f]:
        return "??"
    name = TERRAINS[fl.terrain[f]]
    code = FIELD_CODES[name]
    if fl.terrain[f] == TERRAINS.index("grain"):
        code += str(int(fl.pigs[f]))
    elif fl.terrain[f] == CAMP:
        code = content.camps[fl.camp[f]].id
    elif fl.terrain[f] == START:
        code += str(int(fl.start[f]))
    return code + ("+a" if fl.artifact[f] else "")


def render(board: Board, content: Content, fl: Fields, marks: dict | None = None) -> list[str]:
    """The map as hex rows of field codes (5 characters each); ``marks`` overrides a field's text."""
    qs = [q for q, _ in board.coords]
    rs = [r for _, r in board.coords]
    index = {c: i for i, c in enumerate(board.coords)}
    lines = []
    for r in range(min(rs), max(rs) + 1):
        cells = []
        for q in range(min(qs), max(qs) + 1):
            f = index.get((q, r))
            text = "" if f is None else (marks or {}).get(f, field_code(content, fl, f))
            cells.append(text.center(5) if f is not None else "  .  ")
        lines.append("   " * (r - min(rs)) + " ".join(cells).rstrip())
    return lines
