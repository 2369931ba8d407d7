"""The seeded setup of a batch of Recall games, vectorised: numpy over the batch.

It makes the same draws as ``setup.deal`` (the contract's streams of docs/recall_model.md,
"Random draws", each keyed by seed and game index) and writes them straight into ``state.py``'s
layout, so the result is ``deal`` game by game (tests/test_recall_setup_batch.py compares the
two) at a fraction of the cost: one numpy call per draw kind for the whole batch instead of a
Python ``deal`` per game. The bag draws that fill the start tiles (RC-S18, RC-A35) are
sequential within a game, so they run as a short loop over the fields of the start tiles, each
step vectorised over the games.
"""
from __future__ import annotations

import numpy as np

from sim.core import rng
from sim.core.memo import per_object
from sim.games.recall import state as st
from sim.games.recall.board import Board
from sim.games.recall.content_types import BOARD_MONUMENT, EXCAVATION, KEY_COLOURS, NONE, WATER, Content


def _put(m: np.ndarray, col: int, values) -> None:
    """Write columns ``col ..`` of every row: ``values`` [B, k] or one row [k] for all."""
    values = np.asarray(values)
    k = values.shape[-1]
    m[:, col:col + k] = values


@per_object
def tile_fields(content: Content) -> np.ndarray:
    """int[tiles, 6 rotations, 7, 5]: per field of a slot (index j) the terrain, pigs, camp,
    start number and artifact flag of the tile position that lands there (``Board.field_of``)."""
    out = np.zeros((len(content.area_tiles), 6, 7, 5), dtype=np.int64)
    for i, tile in enumerate(content.area_tiles):
        for r in range(6):
            for p, tf in enumerate(tile.fields):
                j = 0 if p == 0 else 1 + (p - 1 + r) % 6          # Board.field_of in slot 0
                out[i, r, j] = (tf.terrain, tf.pigs, tf.camp, tf.start, int(tf.artifact))
    return out


def _draw(keys: np.ndarray, draws: np.ndarray, pool: np.ndarray, want: np.ndarray) -> np.ndarray:
    """``setup.draw_colour`` for the games ``want``: colour drawn (-1 none), pool and counter updated.

    ``floor(u * total)`` with ``u`` the game's ``draws``-th uniform of the bag stream indexes the
    pieces left listed by colour (RC-A35); an empty pool draws nothing and uses no draw."""
    total = pool.sum(axis=1)
    go = want & (total > 0)
    u = rng.uniform(keys, draws)
    pick = (u * total).astype(np.int64)
    colour = (pick[:, None] >= np.cumsum(pool, axis=1)).sum(axis=1)
    colour = np.where(go, colour, -1)
    rows = np.flatnonzero(go)
    pool[rows, colour[rows]] -= 1
    draws += go
    return colour


def _permutations(seed: int, ids: np.ndarray, purpose: str, n: int, *extra) -> np.ndarray:
    return rng.permutations(rng.stream_keys(seed, ids, purpose, *extra), n)


def deal_batch(t, board: Board, m: np.ndarray, hidden: np.ndarray, seed: int, game_ids: np.ndarray) -> None:
    """Every game's setup (docs/recall_model.md "Setup order"; RC-S2..S38, RC-V1, RC-A10,
    RC-A35, RC-A66) into the zeroed rows ``m`` and the -1 rows ``hidden``."""
    cfg, ct = t.config, t.content
    n = cfg.players
    B = len(game_ids)
    ids = np.asarray(game_ids, dtype=np.int64)
    keys = lambda purpose, *extra: rng.stream_keys(seed, ids, purpose, *extra)  # noqa: E731
    perm = lambda purpose, k, *extra: _permutations(seed, ids, purpose, k, *extra)  # noqa: E731
    s = ct.setup

    m[:, st.G_NP] = n
    m[:, st.G_START_SLOT] = rng.integers(keys("start"), 0, n) if cfg.start_player == "random" else 0
    _put(m, st.G_LIGHT, perm("light", len(ct.light_tokens)))
    _put(m, st.G_DARK, perm("dark", len(ct.dark_tokens)))
    order = perm("paths", len(ct.path_cards))
    _put(m, st.G_PATH, order)
    fixed = cfg.sides()
    if fixed is not None:
        _put(m, st.G_SIDE, np.array(fixed)[order])
    else:
        _put(m, st.G_SIDE, rng.integers(keys("sides")[:, None], np.arange(len(ct.path_cards))[None, :], 2))
    _put(m, st.G_MON_DISP, perm("monuments", len(ct.monument_tiles))[:, :s.monument_tiles_shown])
    chest = np.array([i for i, c in enumerate(ct.chest_tiles) for _ in range(c.count)], dtype=np.int64)
    _put(hidden, st.H_CHEST, chest[perm("chests", len(chest), 0)])
    m[:, st.G_CHEST_N] = len(chest)
    _put(m, st.G_UPG_LETTER, perm("upgrades", len(ct.upgrade_symbols)))
    left = [0] * 6
    for u in ct.upgrades:
        left[u.letter] += u.count
    _put(m, st.G_UPG_LEFT, left)

    # key cards (RC-S10..S12): yellow stacks, green and grey decks with their display
    yellow = [i for i, k in enumerate(ct.key_cards) if KEY_COLOURS[k.colour] == "yellow"]
    _put(m, st.G_YELLOW, [ct.key_cards[i].count for i in yellow])
    for colour, purpose, col, top, hcol in ((2, "green", st.G_GREEN, st.G_GREEN_TOP, st.H_GREEN),
                                            (3, "grey", st.G_GREY, st.G_GREY_TOP, st.H_GREY)):
        cards = np.array([i for i in ct.key_kinds(colour) for _ in range(ct.key_cards[i].count)], dtype=np.int64)
        deck = cards[perm(purpose, len(cards))]
        _put(hidden, hcol, deck)
        up = min(s.key_display, len(cards))
        _put(m, col, np.concatenate([deck[:, :up], np.full((B, 3 - up), -1)], axis=1))
        m[:, top] = up
        if colour == 2:
            m[:, st.G_GREEN_END] = len(cards)

    # area tiles (RC-S15..S17): start tiles on their slots, the others shuffled over the rest
    start_slots = [board.slot_ids.index(x) for x in ct.map.start_tile_slots]
    others = [k for k in range(board.n_slots) if k not in start_slots]
    tile = np.zeros((B, board.n_slots), dtype=np.int64)
    rot = np.zeros((B, board.n_slots), dtype=np.int64)
    up = np.zeros(board.n_slots, dtype=bool)
    rkeys = keys("rotation")
    for side, k in enumerate(start_slots):
        tile[:, k] = side
        up[k] = side == 0 or n > 2                             # RC-S16, RC-V10, RC-V16
        if up[k]:
            rot[:, k] = rng.integers(rkeys, k, 6)
    tile[:, others] = 2 + perm("tiles", len(others))
    _put(m, st.G_TILE, tile)
    _put(m, st.G_ROT, rot)
    _put(m, st.G_UP, up.astype(np.int64))

    # the fields of the laid-out map (board.fields, per game)
    nf = board.n_fields
    m[:, st.G_NF] = nf
    terr = np.full((B, nf), WATER, dtype=np.int64)   # river fields: RC-A65
    terr[:, list(board.board_monuments)] = BOARD_MONUMENT
    pigs = np.zeros((B, nf), dtype=np.int64)
    camp = np.full((B, nf), NONE, dtype=np.int64)
    start = np.full((B, nf), NONE, dtype=np.int64)          # as printed, face-down tiles too
    art = np.zeros((B, nf), dtype=bool)
    field_up = np.ones(nf, dtype=bool)
    tt = tile_fields(ct)
    for k in range(board.n_slots):
        f = slice(7 * k, 7 * k + 7)
        cell = tt[tile[:, k], rot[:, k]]                       # [B, 7, 5]
        terr[:, f], pigs[:, f], camp[:, f] = cell[:, :, 0], cell[:, :, 1], cell[:, :, 2]
        start[:, f] = cell[:, :, 3]
        art[:, f] = cell[:, :, 4] > 0
        field_up[f] = up[k]
    _put(m, st.F_TERR, terr)
    _put(m, st.F_PIGS, pigs)
    _put(m, st.F_CAMP, camp)
    _put(m, st.F_START, np.where(field_up[None, :], start, NONE))

    # bag (RC-S13, RC-S14, RC-S18, RC-A35): artifacts, then stones, per face-up start tile
    _put(m, st.G_DISP_ART, [s.display_per_colour] * 4)
    m[:, st.F_ART:st.F_ART + st.F_MAX] = -1
    bag_key = keys("bag")
    bag_a = np.tile(np.array([c - s.display_per_colour for c in s.artifacts_per_colour], dtype=np.int64), (B, 1))
    bag_s = np.tile(np.array(s.stones_per_colour, dtype=np.int64), (B, 1))
    draws = np.zeros(B, dtype=np.int64)
    rows = np.arange(B)
    for k in start_slots:
        if not up[k]:
            continue
        for f in range(7 * k, 7 * k + 7):
            colour = _draw(bag_key, draws, bag_a, art[:, f])
            got = colour >= 0
            m[got, st.F_ART + f] = colour[got]
        for f in range(7 * k, 7 * k + 7):
            site = terr[:, f] == EXCAVATION
            for _ in range(s.stones_per_site):
                colour = _draw(bag_key, draws, bag_s, site)
                got = np.flatnonzero(colour >= 0)
                m[rows[got], st.F_SITE + 3 * f + colour[got]] += 1
    m[:, st.G_BAGK] = draws
    _put(m, st.G_BAG_ART, bag_a)
    _put(m, st.G_BAG_STONE, bag_s)

    # start fields (RC-S29, RC-A66): by seat, or a shuffle of those on face-up tiles
    by_seat = list(ct.map.start_fields)
    if cfg.start_fields == "by_seat":
        seat_fields = np.tile(np.array(by_seat[:n], dtype=np.int64), (B, 1))
    else:
        on_map = np.stack([(start == x).any(axis=1) & ~((start == x) & ~field_up[None, :]).any(axis=1)
                           for x in by_seat], axis=1)
        seat_fields = np.zeros((B, n), dtype=np.int64)
        sizes = on_map.sum(axis=1)
        for size in np.unique(sizes):
            sel = np.flatnonzero(sizes == size)
            listed = np.array([np.array(by_seat)[on_map[b]] for b in sel]).reshape(len(sel), size)
            order_sf = _permutations(seed, ids[sel], "start_fields", int(size))
            seat_fields[sel] = np.take_along_axis(listed, order_sf[:, :n], axis=1)

    # goal cards (RC-S27, RC-V12), the tribe display (RC-S32) and the old tribes' draws
    goals = perm("goals", len(ct.goal_cards))
    per = s.goal_cards_dealt_solo if n == 1 else s.goal_cards_dealt
    tribes = perm("tribes", len(ct.tribes))[:, :n + 1]
    items = perm("items", len(ct.items))[:, :n + 1]
    _put(m, st.G_TRIBE_DISP, np.full(5, -1))
    _put(m, st.G_ITEM_DISP, np.full(5, -1))
    _put(m, st.G_TRIBE_DISP, tribes)
    _put(m, st.G_ITEM_DISP, items)
    _put(m, st.G_OLD_TRIBE, np.full(15, -1))
    _put(m, st.G_REVEALED, [int(cfg.known_old_tribes)] * 3)
    for p in range(n):
        b = st.SEAT0 + p * st.SW
        _put(m, b + st.P_CR, list(s.start_crystals))
        m[:, b + st.P_STONES + 3] = 1
        m[:, b + st.P_SKILL] = 1
        m[:, b + st.P_SUPPLY] = s.follower_units
        m[:, b + st.P_START] = seat_fields[:, p]
        m[:, b + st.P_AVAIL + 0] = ct.key_cards[0].count
        _put(m, b + st.P_SLOT, np.full(6, -1))
        _put(m, b + st.P_UPG, np.full(6, -1))
        _put(m, b + st.P_PATHS, np.full(3, -1))
        m[:, b + st.P_TRIBE] = -1
        m[:, b + st.P_ITEM] = -1
        _put(hidden, st.H_GOALS + 3 * p, goals[:, p * per:(p + 1) * per])
    if cfg.tribe_draft == "random":                       # RC-V1: seat j gets display pair j
        for p in range(n):
            m[:, st.SEAT0 + p * st.SW + st.P_TRIBE] = tribes[:, p]
            m[:, st.SEAT0 + p * st.SW + st.P_ITEM] = items[:, p]
        m[:, st.G_TRIBE_DISP:st.G_TRIBE_DISP + n] = -1
        m[:, st.G_ITEM_DISP:st.G_ITEM_DISP + n] = -1
    _put(hidden, st.H_OLDT, perm("old_tribes", len(ct.tribes) - n))
    _put(hidden, st.H_OLDI, perm("old_items", len(ct.items) - n))
    key = rng.stream_keys(seed, game_ids, "chests")          # RC-A27: the reshuffles' keys derive from it
    for w in range(4):
        hidden[:, st.H_CHEST_KEY + w] = (key >> np.uint64(16 * w)) & np.uint64(0xFFFF)
    key = rng.stream_keys(seed, game_ids, "rings")           # the ring draws (kernel/rings.py)
    for w in range(4):
        hidden[:, st.H_RINGKEY + w] = (key >> np.uint64(16 * w)) & np.uint64(0xFFFF)
    m[:, st.G_CARD] = m[:, st.G_FIELD] = m[:, st.G_KUP] = -1
    m[:, st.G_PHASE] = st.PH_SOLO
