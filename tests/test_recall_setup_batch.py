"""The vectorised setup (``setup_batch.deal_batch``) equals ``setup.deal`` game by game
(RC-S2..S38, RC-V1, RC-A10, RC-A35, RC-A66): for 1-4 players and every setup switch, 64
games each (32 configurations: 2,048 games in all), every column of the state and hidden matrices.

The reference below writes one ``deal`` into the layout, field by field (it was the engine's
setup before the batch version): slow, plain, and kept only here as the oracle of the layout.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.core import config as cfgmod
from sim.core import rng
from sim.games.recall import engine
from sim.games.recall import state as st
from sim.games.recall.board import build_board, fields
from sim.games.recall.config import Config
from sim.games.recall.content import load_content
from sim.games.recall.content_types import KEY_COLOURS
from sim.games.recall.setup import deal


def _put(row, col, values):
    values = list(values)
    row[col:col + len(values)] = values


def reference_setup(t, board, g: np.ndarray, h: np.ndarray, seed: int, game: int):
    """One game's setup (docs/recall_model.md "Setup order") into its state and hidden rows."""
    cfg, ct = t.config, t.content
    n = cfg.players
    d = deal(cfg, ct, seed, game, board)
    g[st.G_NP] = n
    g[st.G_START_SLOT] = d.start_slot
    g[st.G_BAGK] = d.bag_draws
    _put(g, st.G_BAG_ART, d.bag_artifacts)
    _put(g, st.G_BAG_STONE, d.bag_stones)
    _put(g, st.G_DISP_ART, [ct.setup.display_per_colour] * 4)
    _put(g, st.G_TRIBE_DISP, [-1] * 5)
    _put(g, st.G_ITEM_DISP, [-1] * 5)
    _put(g, st.G_TRIBE_DISP, d.tribe_display)
    _put(g, st.G_ITEM_DISP, d.item_display)
    _put(g, st.G_OLD_TRIBE, [-1] * 15)
    _put(g, st.G_REVEALED, [int(cfg.known_old_tribes)] * 3)
    yellow = [i for i, k in enumerate(ct.key_cards) if KEY_COLOURS[k.colour] == "yellow"]
    _put(g, st.G_YELLOW, [ct.key_cards[i].count for i in yellow])
    shown = ct.setup.key_display
    for col, deck, top in ((st.G_GREEN, d.green_deck, st.G_GREEN_TOP), (st.G_GREY, d.grey_deck, st.G_GREY_TOP)):
        up = min(shown, len(deck))
        _put(g, col, list(deck[:up]) + [-1] * (3 - up))
        g[top] = up
    g[st.G_GREEN_END] = len(d.green_deck)
    _put(g, st.G_MON_DISP, d.monument_tiles)
    _put(g, st.G_LIGHT, d.light_tokens)
    _put(g, st.G_DARK, d.dark_tokens)
    _put(g, st.G_PATH, d.path_cards)
    _put(g, st.G_SIDE, d.path_sides)
    _put(g, st.G_UPG_LETTER, d.upgrade_letters)
    left = [0] * 6
    for u in ct.upgrades:
        left[u.letter] += u.count
    _put(g, st.G_UPG_LEFT, left)
    g[st.G_CHEST_N] = len(d.chest_stack)
    lay = d.layout
    _put(g, st.G_TILE, lay.tile)
    _put(g, st.G_ROT, lay.rotation)
    _put(g, st.G_UP, [int(x) for x in lay.face_up])
    fl = fields(board, ct, lay)
    nf = board.n_fields
    g[st.G_NF] = nf
    _put(g, st.F_TERR, fl.terrain)
    _put(g, st.F_PIGS, fl.pigs)
    _put(g, st.F_CAMP, fl.camp)
    _put(g, st.F_START, [s if up else -1 for s, up in zip(fl.start, fl.face_up)])
    _put(g, st.F_ART, [-1] * st.F_MAX)
    for f, colour in d.artifacts:
        g[st.F_ART + f] = colour
    for f, stones in d.sites:
        for c in stones:
            g[st.F_SITE + 3 * f + c] += 1
    for p in range(n):
        b = st.SEAT0 + p * st.SW
        _put(g, b + st.P_CR, ct.setup.start_crystals)
        g[b + st.P_STONES + 3] = 1
        g[b + st.P_SKILL] = 1
        g[b + st.P_SUPPLY] = ct.setup.follower_units
        g[b + st.P_START] = d.start_fields[p]
        g[b + st.P_AVAIL + 0] = ct.key_cards[0].count
        _put(g, b + st.P_SLOT, [-1] * 6)
        g[b + st.P_TRIBE] = -1
        g[b + st.P_ITEM] = -1
        for j, goal in enumerate(d.goal_cards[p]):
            h[st.H_GOALS + 3 * p + j] = goal
    if cfg.tribe_draft == "random":                       # RC-V1: seat j gets display pair j
        for p in range(n):
            g[st.SEAT0 + p * st.SW + st.P_TRIBE] = d.tribe_display[p]
            g[st.SEAT0 + p * st.SW + st.P_ITEM] = d.item_display[p]
            g[st.G_TRIBE_DISP + p] = -1
            g[st.G_ITEM_DISP + p] = -1
    _put(h, st.H_CHEST, d.chest_stack)
    _put(h, st.H_GREEN, d.green_deck)
    _put(h, st.H_GREY, d.grey_deck)
    keys = lambda purpose: rng.stream_keys(seed, [game], purpose)  # noqa: E731
    r_t, r_i = len(ct.tribes) - n, len(ct.items) - n
    _put(h, st.H_OLDT, rng.permutations(keys("old_tribes"), r_t)[0])
    _put(h, st.H_OLDI, rng.permutations(keys("old_items"), r_i)[0])
    key = int(rng.stream_keys(seed, [game], "chests")[0])   # RC-A27: the reshuffles' keys derive from it
    _put(h, st.H_CHEST_KEY, [(key >> (16 * w)) & 0xFFFF for w in range(4)])
    key = int(rng.stream_keys(seed, [game], "rings")[0])
    _put(h, st.H_RINGKEY, [(key >> (16 * w)) & 0xFFFF for w in range(4)])
    g[st.G_CARD] = g[st.G_FIELD] = g[st.G_KUP] = -1
    for p in range(n):
        b = st.SEAT0 + p * st.SW
        _put(g, b + st.P_UPG, [-1] * 6)
        _put(g, b + st.P_PATHS, [-1] * 3)
    g[st.G_PHASE] = st.PH_SOLO



VARIANTS = [{}, {"start_player": "first_slot"}, {"start_fields": "random"}, {"tribe_draft": "random"},
            {"tribe_draft": "custom"}, {"path_sides": "random"}, {"path_sides": "abbaba"}, {"known_old_tribes": True}]


def _config(players, overrides):
    return cfgmod.build(Config, {"players": players, **overrides}, "test", "")


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("overrides", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "plain")
def test_vectorised_setup_equals_deal_game_by_game(players, overrides):
    """RC-S2..S38, RC-A35 (bag draws), RC-A66 (start fields), RC-V1 (random tribes): 64 games."""
    config = _config(players, overrides)
    content = load_content(config)
    t = engine.build_tables(config, content)
    seed, ids = 11, np.arange(1000, 1064)
    fast = engine.setup(t, ids, seed)
    board = build_board(content.map)
    m = np.zeros_like(fast.m)
    hidden = np.full_like(fast.hidden, -1)
    for b, game in enumerate(ids):
        reference_setup(t, board, m[b], hidden[b], seed, int(game))
    key = rng.stream_keys(seed, ids, "bag")
    for w in range(4):                       # written by engine.setup, not by deal (the kernel's bag key)
        hidden[:, st.H_BAGKEY + w] = (key >> np.uint64(16 * w)) & np.uint64(0xFFFF)
    for b in range(len(ids)):
        diff = np.flatnonzero(m[b] != fast.m[b])
        assert not len(diff), f"game {ids[b]}: state columns {diff[:10].tolist()} differ"
    np.testing.assert_array_equal(hidden, fast.hidden)
    np.testing.assert_array_equal(fast.bag_key, rng.stream_keys(seed, ids, "bag"))
    np.testing.assert_array_equal(fast.gid, ids)
