"""A Recall observation and a state sampled from it, for one game row, in compiled code.

``observe_row`` is ``observe.observe`` for one row (what seat ``me`` may see: face-down tiles,
unrevealed old tribes and item stacks, the other seats' chest kinds scrubbed; tests keep the two
equal). ``sample_row`` deals what the viewer does not know (observe.py's module doc: chest stack
and the other seats' chests, the unseen green and grey cards, the other seats' goal cards, the
old-tribe and item-stack draws while the draft is on, the unrevealed tracks, the face-down tiles)
from one key, and
gives the sampled game its own ``bag``, ``chests`` and ``rings`` stream keys, so that future bag draws,
chest reshuffles and ring draws in a trial follow neither the real game's nor one fixed stream.

Both the Python path (``observe.sample_state``, a compiled loop over the rows) and the compiled
lookahead (strategies/recall_kernel.py) call ``sample_row``, so the same key deals the same state
either way. Draws: ``uniform(key, base + i)`` (the counter-based stream of sim.core.rng), one
counter range per part; shuffles are Fisher-Yates. The content reaches it only as the arrays of
``sample_tables``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.kernel import chests as kchests
from sim.games.recall.kernel import common as kcommon
from sim.games.recall.kernel import explore as kexplore
from sim.games.recall.kernel import rows as krows
from sim.games.recall.kernel.chests import bits
from sim.games.recall.kernel.explore import uniform
from sim.games.recall.kernel.rows import copy_row, fill_row, trial_kernel

kernel_cache.watch(__file__, st, kchests, kcommon, kexplore, krows)

# scalars of ``sample_tables``'s ``sc``
(S_NP, S_K, S_NCH, S_G, S_TRIBES, S_ITEMS, S_PER, S_SLOTS, S_TILES, S_N) = range(10)
# counter bases of the parts' draws (each part draws fewer than 1024)
(R_KEYS, R_CHESTS, R_GREEN, R_GREY, R_GOALS, R_OLDT, R_OLDI, R_TRIBES, R_ITEMS, R_TILES) = (
    1024 * k for k in range(10))
GREEN, GREY = 2, 3                  # key colours of the two decks (content_types.KEY_COLOURS)


def sample_tables(t) -> tuple:
    """(sc int64[S_N], chest counts, green kinds, green counts, grey kinds, grey counts, start tile
    of each slot (-1 none), tile fields int64[tiles, 7, 3]) from the run's tables ``t``."""
    from sim.games.recall.setup_batch import tile_fields
    ct, n = t.content, t.config.players
    sc = np.zeros(S_N, dtype=np.int64)
    sc[S_NP], sc[S_K], sc[S_NCH], sc[S_G] = n, len(ct.key_cards), len(ct.chest_tiles), len(ct.goal_cards)
    sc[S_TRIBES], sc[S_ITEMS], sc[S_PER] = len(ct.tribes), len(ct.items), ct.setup.items_per_stack
    sc[S_SLOTS], sc[S_TILES] = len(ct.map.slots), len(ct.area_tiles)
    slot_ids = [x.id for x in ct.map.slots]
    start = np.full(len(slot_ids), -1, dtype=np.int64)
    for i, slot in enumerate(ct.map.start_tile_slots):
        start[slot_ids.index(slot)] = i
    deck = lambda c: np.array(ct.key_kinds(c), dtype=np.int64)  # noqa: E731
    count = lambda c: np.array([ct.key_cards[k].count for k in ct.key_kinds(c)], dtype=np.int64)  # noqa: E731
    return (sc, np.array([c.count for c in ct.chest_tiles], dtype=np.int64), deck(GREEN), count(GREEN),
            deck(GREY), count(GREY), start, np.ascontiguousarray(tile_fields(ct)[:, 0, :, :3], dtype=np.int64))


@trial_kernel
def observe_row(g, h, me, n_slots, om, chests, goals, goal_n):
    """``observe.observe`` of seat ``me`` for one game: the scrubbed row into ``om``, the chest
    tiles of each seat into ``chests``, ``me``'s goal cards into ``goals``, goal counts into ``goal_n``."""
    copy_row(om, g)
    for k in range(st.S_MAX):
        if om[st.G_UP + k] == 0 and k < n_slots:
            om[st.G_TILE + k] = -1
            om[st.G_ROT + k] = -1
            for f in range(7 * k, min(7 * k + 7, st.F_MAX)):
                om[st.F_TERR + f] = -1
                om[st.F_PIGS + f] = -1
                om[st.F_CAMP + f] = -1
                om[st.F_START + f] = -1
    for t in range(3):
        if om[st.G_REVEALED + t] == 0:
            om[st.G_OLD_TRIBE + t] = -1
            for i in range(4):
                om[st.G_OLD_ITEMS + 4 * t + i] = -1
    for p in range(st.MAXP):
        base = st.SEAT0 + p * st.SW + st.P_CHESTS
        c = 0
        for k in range(st.C_MAX):
            c += g[base + k]
            if p != me:
                om[base + k] = 0
        chests[p] = c
        held = 0
        for j in range(3):
            held += h[st.H_GOALS + 3 * p + j] >= 0
        goal_n[p] = held
    for j in range(3):
        goals[j] = h[st.H_GOALS + 3 * me + j]


@trial_kernel
def _pool(counts, key, base, out):
    """``out[:total]``: counts[k] copies of each kind k in a uniform random order (Fisher-Yates
    with the draws ``base + i``), -1 after; returns the total."""
    total = 0
    for k in range(len(counts)):
        for _ in range(max(counts[k], 0)):
            if total < len(out):
                out[total] = k
                total += 1
    for i in range(total, len(out)):
        out[i] = -1
    for i in range(total - 1, 0, -1):
        j = min(int(uniform(key, base + i) * (i + 1)), i)
        out[i], out[j] = out[j], out[i]
    return total


@trial_kernel
def _put_key(h, col, key):
    """A stream key as four 16-bit words, low first (engine.setup's layout)."""
    for w in range(4):
        h[col + w] = np.int32((key >> np.uint64(16 * w)) & np.uint64(0xFFFF))


@njit(cache=True)
def sample_row(om, legal_in, chests, goals, goal_n, me, key, g, h, legal, tables):
    """A full game row consistent with the observation (``om`` etc. from ``observe_row``), the
    unknown parts dealt by ``key`` (module doc), into ``g``, ``h``, ``legal``; returns the bag key."""
    copy_row(g, om)
    return deal_row(g, legal_in, chests, goals, goal_n, me, key, h, legal, tables)


@trial_kernel
def _part(work, at, n, value):
    """(``work[at:at + n]`` filled with ``value``, ``at + n``): the scratch arrays of ``deal_row``
    carved from one allocation (a lookahead deals once per decision; 17 small allocations cost more
    than the dealing)."""
    v = work[at:at + n]
    fill_row(v, value)
    return v, at + n


@trial_kernel
def scratch_size(tables):
    """The length of ``deal_into``'s scratch array for these ``sample_tables``."""
    sc, chest_total, green_kinds, green_count, grey_kinds, grey_count, start_of_slot, tt = tables
    K, nch, G, tiles = sc[S_K], sc[S_NCH], sc[S_G], sc[S_TILES]
    names = max(sc[S_TRIBES], sc[S_ITEMS], 1)
    need = K + nch + max(chest_total.sum(), 1) + len(green_kinds) + max(green_count.sum(), 1) + len(grey_kinds)
    return need + max(grey_count.sum(), 1) + G + max(G, 1) + 8 * names + 2 * max(tiles, 1)


@njit(cache=True)
def deal_row(g, legal_in, chests, goals, goal_n, me, key, h, legal, tables):
    """``sample_row`` in place: ``g`` holds the observation's row and becomes the sample."""
    return deal_into(g, legal_in, chests, goals, goal_n, me, key, h, legal, tables,
                     np.empty(scratch_size(tables), np.int64))


@trial_kernel
def deal_into(g, legal_in, chests, goals, goal_n, me, key, h, legal, tables, work):
    """``deal_row`` with its scratch ``work`` (``scratch_size`` long, carved by ``_part``) given: a
    lookahead allocates it once per batch instead of once per decision (about a fifth of a deal)."""
    sc, chest_total, green_kinds, green_count, grey_kinds, grey_count, start_of_slot, tt = tables
    n, K = sc[S_NP], sc[S_K]
    nch, G = sc[S_NCH], sc[S_G]
    fill_row(h, -1)
    copy_row(legal, legal_in)
    bag_key = bits(key, R_KEYS)
    _put_key(h, st.H_BAGKEY, bag_key)
    _put_key(h, st.H_CHEST_KEY, bits(key, R_KEYS + 1))
    _put_key(h, st.H_RINGKEY, bits(key, R_KEYS + 2))      # the rings left are public (m), their order not
    # key cards in sight: every seat's available and slotted cards
    own, at = _part(work, 0, K, 0)
    for p in range(n):
        base = st.SEAT0 + p * st.SW
        for k in range(K):
            own[k] += g[base + st.P_AVAIL + k]
        for j in range(6):
            k = g[base + st.P_SLOT + j]
            if k >= 0 and k < K:
                own[k] += 1
    # chest tiles: the other seats' (their number is public), then the stack below the tiles drawn,
    # from every tile but the viewer's own (RC-S8)
    counts, at = _part(work, at, nch, 0)
    total = 0
    for c in range(nch):
        counts[c] = chest_total[c] - g[st.SEAT0 + me * st.SW + st.P_CHESTS + c]
        total += chest_total[c]
    pool, at = _part(work, at, max(total, 1), -1)
    left = _pool(counts, key, R_CHESTS, pool)
    used = 0
    for p in range(n):
        if p == me:
            continue
        for _ in range(chests[p]):
            if used < left:
                g[st.SEAT0 + p * st.SW + st.P_CHESTS + pool[used]] += 1
            used += 1
    top = g[st.G_CHEST_TOP]
    for i in range(used, left):
        pos = top + i - used
        if 0 <= pos < st.CHEST_MAX:
            h[st.H_CHEST + pos] = pool[i]
    # green and grey decks below the cards turned: the cards of the colour not in sight
    for colour in range(2):
        kinds = green_kinds if colour == 0 else grey_kinds
        full = green_count if colour == 0 else grey_count
        col = st.G_GREEN if colour == 0 else st.G_GREY
        hcol = st.H_GREEN if colour == 0 else st.H_GREY
        top = g[st.G_GREEN_TOP if colour == 0 else st.G_GREY_TOP]
        counts, at = _part(work, at, len(kinds), 0)
        total = 0
        for i in range(len(kinds)):
            seen = own[kinds[i]]
            for j in range(3):
                seen += g[col + j] == kinds[i]
            counts[i] = full[i] - seen
            total += full[i]
        deck, at = _part(work, at, max(total, 1), -1)
        left = _pool(counts, key, R_GREEN if colour == 0 else R_GREY, deck)
        for i in range(left):
            if 0 <= top + i < st.DECK_MAX:
                h[hcol + top + i] = kinds[deck[i]]
    # goal cards: the viewer's as they are, the others' from the cards the viewer does not hold
    counts, at = _part(work, at, G, 1)
    for j in range(3):
        if goals[j] >= 0:
            counts[goals[j]] = 0
    pool, at = _part(work, at, max(G, 1), -1)
    left = _pool(counts, key, R_GOALS, pool)
    used = 0
    for p in range(n):
        for j in range(3):
            col = st.H_GOALS + 3 * p + j
            if p == me:
                h[col] = goals[j]
            elif j < goal_n[p]:
                h[col] = pool[used] if used < left else -1
                used += 1
    # the old-tribe and item-stack draws of the setup: read once, when the draft ends
    # (draft.deal_old_tribes); left -1 after it, where nothing reads them
    for part in range(2 if _drafting(g) else 0):
        size = (sc[S_TRIBES] if part == 0 else sc[S_ITEMS]) - n
        perm, at = _part(work, at, max(size, 1), -1)
        ones, at = _part(work, at, max(size, 0), 1)
        _pool(ones, key, R_OLDT if part == 0 else R_OLDI, perm)
        col = st.H_OLDT if part == 0 else st.H_OLDI
        for i in range(size):
            h[col + i] = perm[i]
    at = _deal_unrevealed(g, key, sc, work, at)
    _deal_face_down(g, key, sc, start_of_slot, tt, work, at)
    return bag_key


@trial_kernel
def _drafting(g):
    """Whether the setup's draft is still on (solo start field, draft, old tribes not dealt yet)."""
    ph = g[st.G_PHASE]
    return ph == st.PH_SOLO or ph == st.PH_DRAFT or ph == st.PH_OLD


@trial_kernel
def _deal_unrevealed(g, key, sc, work, at):
    """Old tribes and item stacks of tracks not revealed (scrubbed to -1) once they are dealt:
    from the tribes and items nobody owns and no face-up track shows. ``work[at:]``: scratch;
    returns the offset after the part used."""
    hidden = 0
    for t in range(3):
        hidden += g[st.G_REVEALED + t] == 0
    if _drafting(g) or hidden == 0:              # nothing dealt yet, or nothing left to deal
        return at
    n = sc[S_NP]
    for part in range(2):
        names = sc[S_TRIBES] if part == 0 else sc[S_ITEMS]
        width = 1 if part == 0 else sc[S_PER]
        col = st.G_OLD_TRIBE if part == 0 else st.G_OLD_ITEMS
        seat_col = st.P_TRIBE if part == 0 else st.P_ITEM
        free, at = _part(work, at, names, 1)
        for p in range(n):
            free[max(g[st.SEAT0 + p * st.SW + seat_col], 0)] = 0
        for j in range(3 * width):
            if g[col + j] >= 0:
                free[g[col + j]] = 0
        pool, at = _part(work, at, max(names, 1), -1)
        left = _pool(free, key, R_TRIBES if part == 0 else R_ITEMS, pool)
        k = 0
        for j in range(3 * width):
            if g[st.G_REVEALED + j // width] == 0:
                g[col + j] = pool[k] if k < left else -1
                k += 1
    return at


@trial_kernel
def _deal_face_down(g, key, sc, start_of_slot, tt, work, at):
    """Face-down area tiles (scrubbed to -1): the start tiles on their slots (RC-S15), the tiles
    not face up shuffled over the other face-down slots, each unturned (rotation 0). ``work[at:]``: scratch."""
    S, tiles = sc[S_SLOTS], sc[S_TILES]
    free, at = _part(work, at, tiles, 1)
    for i in range(min(2, tiles)):         # a loop: numba's slice assignment is its slow generic path
        free[i] = 0
    down = 0
    for k in range(S):
        if g[st.G_UP + k] == 0:
            down += 1
        else:
            free[g[st.G_TILE + k]] = 0
    if down == 0:
        return
    pool, at = _part(work, at, max(tiles, 1), -1)
    left = _pool(free, key, R_TILES, pool)
    used = 0
    for k in range(S):
        if g[st.G_UP + k] != 0:
            continue
        if start_of_slot[k] >= 0:
            tile = start_of_slot[k]
        else:
            tile = pool[used] if used < left else -1
            used += 1
        g[st.G_TILE + k] = tile
        g[st.G_ROT + k] = 0
        for i in range(7):
            g[st.F_TERR + 7 * k + i] = tt[max(tile, 0), i, 0]
            g[st.F_PIGS + 7 * k + i] = tt[max(tile, 0), i, 1]
            g[st.F_CAMP + 7 * k + i] = tt[max(tile, 0), i, 2]


@njit(cache=True)
def sample_batch(om, legal_in, chests, goals, goal_n, me, keys, m, hidden, legal, bag_keys, tables):
    """``sample_row`` for every row of a batch (``observe.sample_state``)."""
    for b in range(om.shape[0]):
        bag_keys[b] = sample_row(om[b], legal_in[b], chests[b], goals[b], goal_n[b], me[b], keys[b], m[b], hidden[b],
                                 legal[b], tables)
