"""What a player may know (docs/recall_model.md "What a player observes", RC-A68).

An observation of seat ``v`` is

* ``m``: a copy of the state matrix with what ``v`` may not see overwritten by -1: the contents
  of face-down area tiles (tile, rotation and the fields' terrain, pigs, camp and start number),
  the old tribes and item stacks of tracks not revealed yet (RC-R163, RC-V6), and the chest
  kinds held by the other seats (zeroed: their number stays public as ``chests``); the pigs on
  the fields, pig farms and rings (``F_PIGS_ON``, ``F_FARM``, ``F_RING``, the rings of each kind
  placed) are public and kept;
* ``chests`` int[B, MAXP]: the number of chest tiles each seat holds;
* ``goals`` int[B, 3]: the viewer's own goal cards (-1 = none);
* ``goal_n`` int[B, MAXP]: how many goal cards each seat holds;
* ``legal``: the legal mask of the pending decision (the decider's options: public).

``sample_state(obs, keys)`` deals what the viewer does not know at random (for the lookahead
strategies): the chest stack, the unseen part of the green and grey decks, the other seats'
goal cards, the old tribes and item stacks not revealed, the face-down area tiles and the
future bag and ring draws. The pools are what the viewer can count (a good approximation: chest tiles
used and items gained from stacks are not subtracted).

The hidden matrix (chest stack, green and grey deck order, goal cards of others, the old-tribe
draws) never enters it; the bag is public only as counts by colour, which ``m`` holds.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core import rng
from sim.games.recall import state as st
from sim.games.recall.setup_batch import tile_fields


@dataclass
class Obs:
    t: object
    player: np.ndarray          # int64[B] observing seat
    m: np.ndarray               # int32[B, W] scrubbed copy
    chests: np.ndarray          # int[B, MAXP]
    goals: np.ndarray           # int[B, 3]
    goal_n: np.ndarray          # int[B, MAXP]
    legal: np.ndarray           # bool[B, A]

    @property
    def batch(self) -> int:
        return len(self.player)


def observe(s: st.State, players) -> Obs:
    players = np.asarray(players, dtype=np.int64)
    B = s.batch
    rows = np.arange(B)
    m = s.m.copy()
    # face-down tiles (RC-S16, RC-S17): nothing of them is known
    down = m[:, st.G_UP:st.G_UP + st.S_MAX] == 0
    down &= np.arange(st.S_MAX)[None, :] < len(s.t.content.map.slots)
    m[:, st.G_TILE:st.G_TILE + st.S_MAX][down] = -1
    m[:, st.G_ROT:st.G_ROT + st.S_MAX][down] = -1
    fdown = np.zeros((B, st.F_MAX), dtype=bool)
    fdown[:, :7 * st.S_MAX] = np.repeat(down, 7, axis=1)[:, :st.F_MAX]
    for col in (st.F_TERR, st.F_PIGS, st.F_CAMP, st.F_START):
        m[:, col:col + st.F_MAX][fdown] = -1
    # old tribes and item stacks before their track reveals them
    hide = m[:, st.G_REVEALED:st.G_REVEALED + 3] == 0
    m[:, st.G_OLD_TRIBE:st.G_OLD_TRIBE + 3][hide] = -1
    m[:, st.G_OLD_ITEMS:st.G_OLD_ITEMS + 12][np.repeat(hide, 4, axis=1)] = -1
    # other seats' chest kinds: only their number
    chests = s.seat(st.P_CHESTS, st.C_MAX).sum(axis=2)
    blocks = m[:, st.SEAT0:st.SEAT0 + st.MAXP * st.SW].reshape(B, st.MAXP, st.SW)
    others = np.arange(st.MAXP)[None, :] != players[:, None]
    kinds = blocks[:, :, st.P_CHESTS:st.P_CHESTS + st.C_MAX]
    kinds[others] = 0
    held = s.hidden[:, st.H_GOALS:st.H_GOALS + 3 * st.MAXP].reshape(B, st.MAXP, 3)
    return Obs(s.t, players, m, chests, held[rows, players].copy(), (held >= 0).sum(axis=2), s.legal)


def _shuffled_pool(counts: np.ndarray, u: np.ndarray) -> np.ndarray:
    """int[B, N]: per row the multiset ``counts[b, k]`` copies of kind k in a random order
    (``u`` float[B, N] uniforms, N >= every row's total), -1 after the row's total."""
    B, N = u.shape
    cum = np.cumsum(counts, axis=1)
    j = np.arange(N)
    kinds = (j[None, :, None] >= cum[:, None, :]).sum(axis=2)
    valid = j[None, :] < cum[:, -1:]
    order = np.argsort(np.where(valid, u, 2.0), axis=1, kind="stable")
    return np.where(valid, kinds, -1)[np.arange(B)[:, None], order]


def _fill(dest: np.ndarray, col: int, size: int, start: np.ndarray, values: np.ndarray) -> None:
    """``dest[b, col + start[b] + i] = values[b, i]`` for ``start[b] + i < size``."""
    B, N = values.shape
    pos = start[:, None] + np.arange(N)[None, :]
    ok = pos < size
    rows = np.broadcast_to(np.arange(B)[:, None], pos.shape)
    dest[rows[ok], col + pos[ok]] = values[ok]


def sample_state(obs: Obs, keys) -> st.State:
    """A full state consistent with ``obs`` (module doc), the unknown parts dealt by ``keys``."""
    t, ct = obs.t, obs.t.content
    keys = np.asarray(keys, dtype=np.uint64)
    B = obs.batch
    rows = np.arange(B)
    me = obs.player
    s = st.empty_state(t, B)
    s.m[:] = obs.m
    s.legal[:] = obs.legal
    s.bag_key[:] = rng.stream_keys(0, keys, "sample_bag")
    ring_key = rng.stream_keys(0, keys, "sample_rings")      # the rings left are public (m), their draw order not
    for w in range(4):
        s.hidden[:, st.H_RINGKEY + w] = (ring_key >> np.uint64(16 * w)) & np.uint64(0xFFFF)
    draw = lambda purpose, n: rng.uniform(rng.stream_keys(0, keys, purpose)[:, None], np.arange(n)[None, :])  # noqa: E731
    own = s.seat(st.P_AVAIL, st.K_MAX)[:, :, :len(ct.key_cards)].sum(axis=1).astype(np.int64)
    slots = s.seat(st.P_SLOT, 6).reshape(B, -1)
    for k in range(len(ct.key_cards)):
        own[:, k] += (slots == k).sum(axis=1)
    # chest tiles: the other seats' (their number is public) and the stack below the tiles
    # drawn, dealt from every tile but the viewer's own (RC-S8)
    total = np.array([c.count for c in ct.chest_tiles], dtype=np.int64)
    mine = s.seat(st.P_CHESTS, st.C_MAX)[rows, me, :len(total)].astype(np.int64)
    pool = _shuffled_pool(np.maximum(total[None, :] - mine, 0), draw("sample_chests", int(total.sum())))
    used = np.zeros(B, dtype=np.int64)
    for p in range(t.config.players):
        for j in range(int(obs.chests[:, p].max(initial=0))):
            give = np.flatnonzero((me != p) & (j < obs.chests[:, p]))
            kind = pool[give, np.minimum(used[give], pool.shape[1] - 1)]
            ok = kind >= 0
            s.m[give[ok], st.seat_col(p, st.P_CHESTS) + kind[ok]] += 1
            used[give] += 1
    rest = pool[rows[:, None], np.minimum(used[:, None] + np.arange(pool.shape[1])[None, :], pool.shape[1] - 1)]
    rest = np.where(used[:, None] + np.arange(pool.shape[1])[None, :] < pool.shape[1], rest, -1)
    _fill(s.hidden, st.H_CHEST, st.CHEST_MAX, s.m[:, st.G_CHEST_TOP].astype(np.int64), rest)
    # green and grey decks below the cards turned: all cards of the colour but those in sight
    for colour, col, top_col, hcol in ((2, st.G_GREEN, st.G_GREEN_TOP, st.H_GREEN), (3, st.G_GREY, st.G_GREY_TOP, st.H_GREY)):
        kinds = list(ct.key_kinds(colour))
        count = np.array([ct.key_cards[k].count for k in kinds], dtype=np.int64)
        shown = s.m[:, col:col + 3]
        seen = np.stack([own[:, k] + (shown == k).sum(axis=1) for k in kinds], axis=1)
        deck = _shuffled_pool(np.maximum(count[None, :] - seen, 0), draw(f"sample_{colour}", int(count.sum())))
        deck = np.where(deck >= 0, np.array(kinds)[np.maximum(deck, 0)], -1)
        _fill(s.hidden, hcol, st.DECK_MAX, s.m[:, top_col].astype(np.int64), deck)
    # goal cards: the viewer's as they are, the others' from the cards the viewer does not hold
    G = len(ct.goal_cards)
    held = np.zeros((B, G), dtype=np.int64)
    for j in range(3):
        ok = obs.goals[:, j] >= 0
        held[rows[ok], obs.goals[ok, j]] = 1
    pool = _shuffled_pool(1 - held, draw("sample_goals", G))
    used = np.zeros(B, dtype=np.int64)
    for p in range(t.config.players):
        for j in range(3):
            mine_p = me == p
            give = ~mine_p & (j < obs.goal_n[:, p])
            col = st.H_GOALS + 3 * p + j
            s.hidden[:, col] = np.where(mine_p, obs.goals[:, j], np.where(give, pool[rows, np.minimum(used, G - 1)], -1))
            used += give
    # old tribes and item stacks: fresh draws before they are dealt, else the unrevealed ones
    n = t.config.players
    s.hidden[:, st.H_OLDT:st.H_OLDT + len(ct.tribes) - n] = rng.permutations(rng.stream_keys(0, keys, "sample_oldt"), len(ct.tribes) - n)
    s.hidden[:, st.H_OLDI:st.H_OLDI + len(ct.items) - n] = rng.permutations(rng.stream_keys(0, keys, "sample_oldi"), len(ct.items) - n)
    _deal_unrevealed(s, draw)
    _deal_face_down(s, draw)
    return s


def _deal_unrevealed(s: st.State, draw) -> None:
    """Tribes and item stacks of tracks not revealed (scrubbed to -1 once dealt): from the tribes
    and items nobody owns and no face-up track shows."""
    ct, B, n = s.t.content, s.batch, s.t.config.players
    dealt = ~np.isin(s.m[:, st.G_PHASE], (st.PH_SOLO, st.PH_DRAFT, st.PH_OLD))
    hidden = (s.m[:, st.G_REVEALED:st.G_REVEALED + 3] == 0) & dealt[:, None]
    if not hidden.any():
        return
    per = ct.setup.items_per_stack
    for col, seat_col, width, names, purpose in ((st.G_OLD_TRIBE, st.P_TRIBE, 1, ct.tribes, "sample_old_tribes"),
                                                 (st.G_OLD_ITEMS, st.P_ITEM, per, ct.items, "sample_old_items")):
        free = np.ones((B, len(names)), dtype=np.int64)
        rows = np.arange(B)[:, None]
        free[rows, np.maximum(s.seat(seat_col)[:, :n, 0], 0)] = 0
        shown = s.m[:, col:col + 3 * width]
        for j in range(3 * width):
            ok = shown[:, j] >= 0
            free[np.flatnonzero(ok), shown[ok, j]] = 0
        pool = _shuffled_pool(free, draw(purpose, len(names)))
        fill = np.repeat(hidden, width, axis=1)
        k = np.cumsum(fill, axis=1) - 1
        vals = pool[rows, np.maximum(k, 0)]
        s.m[:, col:col + 3 * width] = np.where(fill, vals, shown)


def _slot_index(ct, slot_id: str) -> int:
    return [x.id for x in ct.map.slots].index(slot_id)


def _deal_face_down(s: st.State, draw) -> None:
    """Face-down area tiles (scrubbed to -1): the tiles not face up, shuffled over those slots."""
    ct, B = s.t.content, s.batch
    S = len(ct.map.slots)
    down = s.m[:, st.G_UP:st.G_UP + S] == 0
    if not down.any():
        return
    tiles = len(ct.area_tiles)
    free = np.ones((B, tiles), dtype=np.int64)
    free[:, :2] = 0                                   # the start tiles lie on their slots (RC-S15)
    rows = np.arange(B)[:, None]
    up_tiles = np.where(~down, s.m[:, st.G_TILE:st.G_TILE + S], 0)
    free[rows, up_tiles] = np.where(~down, 0, free[rows, up_tiles])
    pool = _shuffled_pool(free, draw("sample_tiles", tiles))
    start = np.full(S, -1)
    start[[_slot_index(ct, x) for x in ct.map.start_tile_slots]] = [0, 1][:len(ct.map.start_tile_slots)]
    other = down & (start[None, :] < 0)
    k = np.cumsum(other, axis=1) - 1
    tile = np.where(other, pool[rows, np.maximum(k, 0)], s.m[:, st.G_TILE:st.G_TILE + S])
    tile = np.where(down & (start[None, :] >= 0), start[None, :], tile)
    s.m[:, st.G_TILE:st.G_TILE + S] = tile
    s.m[:, st.G_ROT:st.G_ROT + S] = np.where(down, 0, s.m[:, st.G_ROT:st.G_ROT + S])
    tt = tile_fields(ct)
    for k in range(S):
        d = np.flatnonzero(down[:, k])
        if not len(d):
            continue
        cell = tt[np.maximum(tile[d, k], 0), 0]                       # [b, 7, 5]
        for i, col in enumerate((st.F_TERR, st.F_PIGS, st.F_CAMP)):
            s.m[d[:, None], col + 7 * k + np.arange(7)[None, :]] = cell[:, :, i]
