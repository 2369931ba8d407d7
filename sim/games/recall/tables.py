"""The content as flat integer numpy tables for a compiled engine (numba takes them as they are).

Every ``Effect`` of the content is encoded once into one atom table: ``atoms`` int32[N, 9] with
columns ``ATOM_COLUMNS`` (item index within the effect, alternative index within the item, op
code = index into ``OPS``, arg, n, the crystal cost w / r / p, the first option row), and
``options`` int32[M, 4] for PAYOPT (crystal kind or -1, 0, 0, count; the atom's ``arg`` = number of
options, ``n`` = the bit of the op paid for) and BUY (cost w, r, p, followers). An effect is the
row range ``effect_rows[e] = (start, end)``; ``effect_id`` maps a named place of the content
(``("key", k)``, ``("base", letter)``, ``("upgrade", letter, side)``, ...) to its effect
index. UNITS keeps its allowed ops as bits in ``arg`` (1 = MOVE, 2 = DEV); COST keeps the
effect index of what it buys in ``arg``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.games.recall.board import Board, build_board
from sim.games.recall.content_types import OPS, WORKSHOP_TERRAINS, Atom, Content, Effect
from sim.games.recall.scoring import ScoringTables, scoring_tables

ATOM_COLUMNS = ("item", "alt", "op", "arg", "n", "cost_w", "cost_r", "cost_p", "option")
UNIT_BITS = {"MOVE": 1, "DEV": 2}


@dataclass(frozen=True)
class Tables:
    board: Board
    atoms: np.ndarray               # int32[N, 9]
    options: np.ndarray             # int32[M, 4]
    effect_rows: np.ndarray         # int32[E, 2]
    effect_id: dict                 # named place -> effect index
    tile_terrain: np.ndarray        # int8[tiles, 7] by tile position; pigs, camp, start, artifact alike
    tile_pigs: np.ndarray
    tile_camp: np.ndarray
    tile_start: np.ndarray
    tile_artifact: np.ndarray
    terrain_move: np.ndarray        # bool[terrains] (RC-A62)
    terrain_water: np.ndarray
    terrain_building: np.ndarray    # int8
    terrain_key: np.ndarray         # int8
    scoring: ScoringTables          # knowledge values, key points and colours, artifact points, ... (scoring.py)
    thresholds: np.ndarray          # int64[3]: third, fifth, seventh field
    bonus_positions: np.ndarray
    upgrade_symbols: np.ndarray
    key_count: np.ndarray           # int64[K]
    artifact_cost: np.ndarray       # int64[columns] followers (RC-R101)
    workshop_cost: np.ndarray       # int64[3, max per terrain, 3]; workshop_count[3]
    workshop_count: np.ndarray
    monument_cost: np.ndarray       # int64[monuments, 3]
    production: np.ndarray          # int64[P, 3]: building (-1 visible at start), column, position


class _Encoder:
    def __init__(self):
        self.atoms, self.options, self.rows, self.ids = [], [], [], {}

    def add(self, name, effect: Effect) -> int:
        start = len(self.atoms)
        later = []
        for i, item in enumerate(effect):
            for j, a in enumerate(item):
                option, arg, n = -1, a.arg, a.n
                if a.op in ("PAYOPT", "BUY"):
                    option, arg = len(self.options), len(a.options)
                    for opt, count in a.options:
                        self.options.append(((opt, 0, 0) if a.op == "PAYOPT" else opt) + (count,))
                    if a.op == "PAYOPT":
                        n = UNIT_BITS[a.what[0]]
                elif a.op == "UNITS":
                    arg = sum(UNIT_BITS[w] for w in a.what)
                elif a.op == "COST":
                    later.append((len(self.atoms), a.inner))
                self.atoms.append([i, j, OPS.index(a.op), arg, n, *a.cost, option])
        end = len(self.atoms)
        index = len(self.rows)
        self.rows.append((start, end))
        if name is not None:
            self.ids[name] = index
        for row, inner in later:
            self.atoms[row][3] = self.add(None, inner)
        return index


def build_tables(content: Content) -> Tables:
    """All integer tables of ``content`` (built once per content, shared by every game)."""
    enc = _Encoder()
    for x, e in enumerate(content.base_fields):
        enc.add(("base", x), e)
    for u in content.upgrades:
        for side, e in enumerate(u.sides):
            enc.add(("upgrade", u.letter, side), e)
    groups = (("key", content.key_cards, "effect"), ("chest", content.chest_tiles, "reward"),
              ("monument_tile", content.monument_tiles, "reward"), ("camp", content.camps, "reward"),
              ("ring", content.rings, "reward"), ("light", content.light_tokens, "reward"),
              ("dark", content.dark_tokens, "reward"), ("goal", content.goal_cards, "reward"),
              ("tribe", content.tribes, "effect"), ("item", content.items, "effect"),
              ("production", content.board.production, "yield_"))
    for kind, items, attr in groups:
        for k, x in enumerate(items):
            enc.add((kind, k), getattr(x, attr))
    for c, row in enumerate(content.board.artifact_rows.covered):
        for col, e in enumerate(row):
            enc.add(("covered", c, col), e)
    for k, e in enumerate(content.board.sanctuaries):
        enc.add(("sanctuary", k), e)
    tiles = content.area_tiles
    tile = lambda attr: np.array([[getattr(f, attr) for f in t.fields] for t in tiles], dtype=np.int8)  # noqa: E731
    terrains = content.map.terrains
    ws = content.board.workshops
    width = max(len(c) for c in ws)
    workshop_cost = np.zeros((len(WORKSHOP_TERRAINS), width, 3), dtype=np.int64)
    for c, column in enumerate(ws):
        for k, cost in enumerate(column):
            workshop_cost[c, k] = cost
    kn = content.knowledge
    return Tables(
        board=build_board(content.map), atoms=np.array(enc.atoms, dtype=np.int32).reshape(-1, len(ATOM_COLUMNS)),
        options=np.array(enc.options, dtype=np.int32).reshape(-1, 4), effect_rows=np.array(enc.rows, dtype=np.int32),
        effect_id=enc.ids, tile_terrain=tile("terrain"), tile_pigs=tile("pigs"), tile_camp=tile("camp"),
        tile_start=tile("start"), tile_artifact=tile("artifact"),
        terrain_move=np.array([t.move for t in terrains]), terrain_water=np.array([t.water for t in terrains]),
        terrain_building=np.array([t.building for t in terrains], dtype=np.int8),
        terrain_key=np.array([t.key_colour for t in terrains], dtype=np.int8),
        scoring=scoring_tables(content), thresholds=np.array([kn.third, kn.fifth, kn.seventh]),
        bonus_positions=np.array(kn.bonus_positions, dtype=np.int64),
        upgrade_symbols=np.array(content.upgrade_symbols, dtype=np.int64),
        key_count=np.array([k.count for k in content.key_cards], dtype=np.int64),
        artifact_cost=np.array(content.board.artifact_rows.follower_cost, dtype=np.int64),
        workshop_cost=workshop_cost, workshop_count=np.array([len(c) for c in ws], dtype=np.int64),
        monument_cost=np.array(content.board.monuments, dtype=np.int64).reshape(-1, 3),
        production=np.array([(p.building, p.column, p.position) for p in content.board.production], dtype=np.int64))


def decode(t: Tables, index: int) -> Effect:
    """The ``Effect`` of one effect index, rebuilt from the tables (for tests and logs)."""
    start, end = t.effect_rows[index]
    items: dict = {}
    for row in t.atoms[start:end]:
        item, alt, op, arg, n, w, r, p, option = (int(x) for x in row)
        name = OPS[op]
        kw = {"cost": (w, r, p)}
        if name in ("PAYOPT", "BUY"):
            opts = t.options[option:option + arg]
            kw["options"] = tuple((int(o[0]), int(o[3])) for o in opts) if name == "PAYOPT" else tuple(
                ((int(o[0]), int(o[1]), int(o[2])), int(o[3])) for o in opts)
            arg = 0
        if name == "PAYOPT":
            kw["what"] = tuple(w_ for w_, bit in UNIT_BITS.items() if n & bit)
            n = 1
        if name == "UNITS":
            kw["what"] = tuple(w_ for w_, bit in UNIT_BITS.items() if arg & bit)
            arg = 0
        if name == "COST":
            kw["inner"] = decode(t, arg)
            arg = 0
        items.setdefault(item, []).append(Atom(name, arg, n, **kw))
    return tuple(tuple(items[i]) for i in sorted(items))
