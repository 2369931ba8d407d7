"""Compiled position value of Recall: ``value.position_value`` game by game, seat by seat.

The same definition as sim/games/recall/value.py (the final score if scored now by the rules of
scoring.py on game.end_state, goal cards left out as there, plus weighted resources, minus ``opponents`` x the best other
seat), on the state rows directly, so that a compiled lookahead can value its trial steps
without leaving numba. The numbers come as arrays (``value_tables``), never compiled in.
Weights ``w`` float64[11] in the order of ``WEIGHTS``; every component is summed in that order,
so the result equals value.py's to the last bit.

``seat_value`` and what it calls are ``kernel/rows.py``'s ``trial_kernel`` (no reference counts):
with them, each call of ``seat_total`` released every table array it took out of ``vt`` through an
indirect runtime call, about half of its time (docs/recall_strategies.md "Speed").
"""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.core import kernel_cache
from sim.games.recall import state as st
from sim.games.recall.content_types import BUILDINGS
from sim.games.recall.kernel.rows import trial_kernel

kernel_cache.watch(__file__, st)

WEIGHTS = ("final", "purple", "crystals", "keys", "tracks", "followers", "pending", "opponents", "stones",
           "artifacts", "buildings")
STOPPED = -1e9
# Decisions that do not count the item being resolved as pending (every other kind does: crystal,
# move_to, ...). Field A's purchase and removal (RC-R24, RC-R25) are optional loops that ``end``
# closes at no loss, so their decisions (and the placement of what is bought) are outside too: when
# they counted, ending cost ``pending`` and the lookahead sold followers one more at a time, then
# bought followers back to stay inside the item (docs/recall_strategies.md, "Replays").
OUTSIDE_ITEMS = ("draft", "start_field", "main", "effect", "event", "produce", "recharge", "turn_end", "path",
                 "goal", "stopped", "buy", "sell", "sell_count", "place")
assert "move_pigs" in st.KIND_NAMES
# scalars of ``value_tables``'s int64 vector ``C``
(V_NF, V_SEVENTH, V_DIV, V_SANCT, V_MON, V_DORIAN, V_PIGPTS, V_DPTILE, V_N) = range(9)


def value_tables(t) -> tuple:
    """(C int64[V_N], arrays...) for ``seat_values``, from the run's tables ``t`` (content, map)."""
    from sim.games.recall.game import board_of
    from sim.games.recall.scoring import scoring_tables
    ct = t.content
    sc = scoring_tables(ct)
    board = board_of(ct.map)
    nf = len(t.field_names)
    C = np.zeros(V_N, dtype=np.int64)
    C[V_NF], C[V_SEVENTH], C[V_DIV] = nf, sc.seventh, sc.leftover_divisor
    C[V_SANCT], C[V_MON] = 1 + BUILDINGS.index("sanctuary"), 1 + BUILDINGS.index("monument")
    C[V_DORIAN] = t.ability_names.index("Dorian") if "Dorian" in t.ability_names else -1
    C[V_PIGPTS], C[V_DPTILE] = sc.pig_farm_points, int(t.config.dorian_presence == "tile")
    inside = np.array([k not in OUTSIDE_ITEMS for k in st.KIND_NAMES] + [False], dtype=np.int64)
    card_path = np.array([c.path for c in ct.path_cards], dtype=np.int64)
    bm_field = np.array(board.board_monuments, dtype=np.int64)
    bm_track = np.array([b.track for b in ct.map.board_monuments], dtype=np.int64)
    ints = (sc.track_points, sc.key_points, sc.key_colour, sc.monument_points,
            np.concatenate([[0], sc.points_under]), sc.path_base, sc.path_a, sc.path_b, 
            sc.crystal_value, card_path, bm_field, bm_track, inside, np.asarray(board.slot)[:nf])
    if len(sc.monument_points) > 62:
        raise ValueError(f"monument tiles: expected at most 62 (seat_total keeps them as bits), got {len(sc.monument_points)}")
    return (C,) + tuple(np.ascontiguousarray(a, dtype=np.int64) for a in ints)


def position_value(s, players, weights: np.ndarray, vt) -> np.ndarray:
    """float[B]: value.position_value of seat ``players[b]`` (weights float64[11] in ``WEIGHTS`` order)."""
    return values_batch(s.m, s.hidden, np.asarray(players, dtype=np.int64), s.t.config.players,
                        np.asarray(weights, dtype=np.float64), vt)


@njit(cache=True)
def values_batch(m, hidden, players, n, w, vt):
    out = np.zeros(m.shape[0])
    for b in range(m.shape[0]):
        out[b] = seat_value(m[b], hidden[b], players[b], n, w, vt)
    return out


@trial_kernel
def seat_value(g, h, me, n, w, vt):
    """The value of seat ``me`` in one game (rows ``g``, ``h``): value.position_value."""
    stopped = g[st.G_KIND] == st.K_STOP
    zero = True
    for k in range(len(w)):
        if k != 7 and w[k] != 0.0:
            zero = False
    if zero:
        return STOPPED if stopped else 0.0
    if w[7] == 0.0 or n == 1:                      # no opponents term: own - 0 x best is own, bit for bit
        own = seat_total(g, h, me, w, vt)
        return STOPPED if stopped else own
    own = 0.0
    best = -np.inf
    for p in range(n):
        v = seat_total(g, h, p, w, vt)
        if p == me:
            own = v
        elif v > best:
            best = v
    if n > 1:
        own = own - w[7] * best
    return STOPPED if stopped else own


@trial_kernel
def present(g, base, f):
    return g[base + st.P_FOL + f] > 0 or g[base + st.P_BLD + f] > 0


@trial_kernel
def pig_points(g, p, C, fslot):
    """RC-R214, RC-E44, RC-A57 (game.pig_farms): the farms where a Dorian holder is present."""
    base = st.SEAT0 + p * st.SW
    if C[V_DORIAN] < 0 or g[base + st.P_OWN + C[V_DORIAN]] != 1:
        return 0
    farms = 0
    for f in range(C[V_NF]):
        if g[st.F_FARM + f] != 1:
            continue
        k = fslot[f]
        if C[V_DPTILE] == 0 or k < 0:
            farms += present(g, base, f)
        else:
            for x in range(C[V_NF]):
                if fslot[x] == k and present(g, base, x):
                    farms += 1
                    break
    return C[V_PIGPTS] * farms


@trial_kernel
def seat_total(g, h, p, w, vt):
    """Seat p's weighted components, summed in ``WEIGHTS`` order (value.components). Scalars and
    tuples only, no array allocated: a lookahead values every trial with it. The seat's columns are
    read through a view of its block (``seat``): indexed ``g[base + ...]`` with ``p`` an argument, each
    read tested for a negative index (numba's wraparound) and the loops were not vectorised; with
    the view the same sums took about half the time (2026-12-06, docs/recall_strategies.md "Speed")."""
    C, track_points, key_points, key_colour, monument_points, under = vt[0], vt[1], vt[2], vt[3], vt[4], vt[5]
    path_base, path_a, path_b, crystal_value = vt[6], vt[7], vt[8], vt[9]
    card_path, bm_field, bm_track, inside, fslot = vt[10], vt[11], vt[12], vt[13], vt[14]
    base = st.SEAT0 + p * st.SW
    seat = g[base: base + st.SW]
    nf = C[V_NF]
    t0, t1, t2 = seat[st.P_TRK], seat[st.P_TRK + 1], seat[st.P_TRK + 2]
    tp0, tp1, tp2 = track_points[t0], track_points[t1], track_points[t2]
    s0, s1, s2 = seat[st.P_STONES], seat[st.P_STONES + 1], seat[st.P_STONES + 2]
    crystals = 0
    equivalents = 0
    for i in range(3):
        crystals += seat[st.P_CR + i]
        equivalents += seat[st.P_CR + i] * crystal_value[i]
    followers = 0
    fol = seat[st.P_FOL: st.P_FOL + st.F_MAX]
    for f in range(st.F_MAX):
        followers += fol[f]
    equivalents += followers
    # key cards owned, slots included (RC-E16..E18)
    n_keys, keys_pts, coloured, grey = 0, 0, 0, 0
    K = len(key_points)
    for k in range(K):
        c = seat[st.P_AVAIL + k]
        n_keys += c
        keys_pts += c * key_points[k]
        coloured += c * (key_colour[k] >= 1)
        grey += c * (key_colour[k] == 3)
    for j in range(6):
        k = seat[st.P_SLOT + j]
        if k >= 0 and k < K:
            n_keys += 1
            keys_pts += key_points[k]
            coloured += key_colour[k] >= 1
            grey += key_colour[k] == 3
    # artifacts (RC-E19..E21)
    cpts_sum, cpts_max, art_min, art_total = 0, 0, 1 << 40, 0
    for c in range(4):
        a = seat[st.P_ARTS + c]
        art_total += a
        cp = under[min(max(a, 0), len(under) - 1)]
        cpts_sum += cp
        cpts_max = max(cpts_max, cp)
        art_min = min(art_min, a)
    # buildings (game._buildings); the monument tiles held as bits
    sanct = 0
    buildings = 0
    mons = 0
    blds = seat[st.P_BLD: st.P_BLD + nf]
    sc, mc = C[V_SANCT], C[V_MON]
    for f in range(nf):
        bld = blds[f]
        sanct += bld == sc
        buildings += bld > 0
        mons += bld == mc
    tiles = 0
    M = len(monument_points)
    if mons > 0:
        for f in range(nf):
            if blds[f] == mc:
                k = g[st.F_MONTILE + f] - 1
                if k >= 0 and k < M:
                    tiles |= 1 << k
    bm0, bm1, bm2 = 0, 0, 0
    for i in range(len(bm_field)):
        on = 1 if seat[st.P_BLD + bm_field[i]] == C[V_MON] else 0
        if bm_track[i] == 0:
            bm0 = on
        elif bm_track[i] == 1:
            bm1 = on
        else:
            bm2 = on
    tile_pts, monuments = 0, 0
    for k in range(M):
        if (tiles >> k) == 0:
            break
        if (tiles >> k) & 1:
            tile_pts += monument_points[k]
            monuments += 1
    monuments += bm0 + bm1 + bm2
    bm_pts = bm0 * tp0 + bm1 * tp1 + bm2 * tp2
    # path cards (RC-E4..E25)
    lo, mid = min(tp0, tp1), max(tp0, tp1)
    second = mid if tp2 >= mid else max(lo, tp2)
    sevenths = (t0 >= C[V_SEVENTH]) + (t1 >= C[V_SEVENTH]) + (t2 >= C[V_SEVENTH])
    n_stones = s0 + s1 + s2
    bvals = (np.int64(tp0 + tp1 + tp2), np.int64(n_stones), np.int64(sanct), np.int64(keys_pts),
             np.int64(cpts_sum), np.int64(bm_pts + tile_pts))
    avals = (np.int64(second), np.int64(n_stones), np.int64(sanct), np.int64(coloured), np.int64(art_min),
             np.int64(monuments))
    svals = (np.int64(sevenths), np.int64(min(s0, min(s1, s2))), np.int64(sanct // 2), np.int64(grey),
             np.int64(cpts_max), np.int64(tile_pts))
    chosen = 0                                  # bit i: path position i chosen in some sector
    for sector in range(3):
        pos = seat[st.P_PATHS + sector]
        if pos >= 0:
            chosen |= 1 << pos
    paths = 0
    for pos in range(6):
        card = card_path[g[st.G_PATH + pos]]
        disc = (chosen >> pos) & 1
        bonus = svals[card] * path_b[card] if g[st.G_SIDE + pos] == 1 else avals[card] * path_a[card]
        paths += bvals[card] * path_base[card] + bonus * disc
    score = seat[st.P_SCORE] + paths + equivalents // C[V_DIV] + pig_points(g, p, C, fslot) + seat[st.P_PURPLE]
    pending = 0
    owner = g[st.G_EXP_ACTIVE] - 1 if g[st.G_EXP_ACTIVE] > 0 else g[st.G_ACTIVE]     # value.pending_owner
    if p == owner:
        pending = g[st.G_PEND_N] + inside[g[st.G_KIND]]
    total = 0.0
    total += w[0] * score
    total += w[1] * seat[st.P_PURPLE]
    total += w[2] * crystals
    total += w[3] * n_keys
    total += w[4] * (t0 + t1 + t2)
    total += w[5] * followers
    total += w[6] * pending
    total += w[8] * n_stones
    total += w[9] * art_total
    total += w[10] * buildings
    return total
