"""The compiled Recall engine: the last flow gaps, on small hand-made positions.

* A camp reward at an exploration for a player other than the explorer (RC-R112, RC-R148,
  RC-A52, RC-A64; docs/recall_model.md "Explore"): every player with a building next to a camp
  of the explored tile who has not had it receives it, in seat order from the explorer, and
  decides its choices itself; its action atoms are lost (they would join the pending list of
  a turn that is not its own), an upgrade tile it gains replaces none of the explorer's pending
  items (RC-R180 is about the active player's fields), and the turn guard (RC-A68) ends the
  explorer's turn.
* Chest reshuffles without a limit (RC-A27): the k-th reshuffle of the discard pile uses the
  ``chests`` stream with extra word k for every k.

Each position is a 2-player game at seat 0's ``effect`` with an ``EXPLORE`` item pending; the
face-down slot explored, its tile and its rotation are chosen by the test so that exactly one
camp lies next to the building the test gives (the expected results are worked out from the
model doc and the default content: camps.csv, key_cards.csv, tracks.toml). The lockstep
cross-check against the oracle is tests/test_recall_crosscheck.py.
"""
from __future__ import annotations

from sim.core import rng
from sim.games.recall import kernel
from sim.games.recall import state as st
from sim.games.recall.kernel.chests import draw_chest
from sim.games.recall.kernel.explore import explorable, tile_field
from tests.recall_engine_kit import col as _col, kind as _kind, names as _names, run as _run, start, step as _step

SEED = 77


def _effect_of(t, text):
    """The effect index of the key card whose effect is ``text`` (key_cards.csv)."""
    kinds = [k.id for k in t.content.key_cards]
    kind = {"MOVE:2": "G2", "P:1 + VP:1": "X4"}[text]
    return int(t.part(kernel.C_T_KEY, len(kinds))[kinds.index(kind)])


def _position(builders):
    """Seat 0 about to explore a face-down slot k next to its presence: slot k gets a tile with
    a camp, turned so that the camp lies next to a field y of a face-up slot; each seat in
    ``builders`` has a sanctuary on y. The camp's reward is camp c5's (``K:any:1 + F:2``; a test
    may change ``tab``). Pending: the EXPLORE of field E, then a DEV:1. Returns (t, s, y, c)
    with the state at the ``rotation`` decision, the rotation to choose in ``s.rot``."""
    t, s = start(seed=SEED)
    g = s.m[0]
    for p in (0, 1):                                     # no abilities: no windows, no Lexander
        g[_col(p, st.P_OWN):_col(p, st.P_OWN) + st.U_MAX] = 0
    g[st.F_CAMP:st.F_CAMP + st.F_MAX] = -1
    nf = len(t.field_names)
    nb = t.part(kernel.C_T_NEIGH, 6 * nf).reshape(-1, 6)
    slot = t.part(kernel.C_T_FSLOT, nf)
    k = [k for k in range(st.S_MAX) if explorable(g, 0, k, t.C, t.tab)][0]
    tiles = t.content.area_tiles

    def outside(x):                                      # fields of face-up slots next to field x
        return [int(y) for y in nb[x] if y >= 0 and slot[y] >= 0 and slot[y] != k and g[st.G_UP + slot[y]] == 1
                and g[st.F_START + y] < 0]
    tile, pos, rot = [(i, j, r) for i, a in enumerate(tiles) if not a.start for j, f in enumerate(a.fields)
                      if f.camp >= 0 for r in range(6) if outside(tile_field(k, j, r))][0]
    g[st.G_TILE + k] = tile
    c = tiles[tile].fields[pos].camp
    y = outside(tile_field(k, pos, rot))[0]
    for p in builders:
        g[_col(p, st.P_BLD) + y] = 1
    t.tab[int(t.C[kernel.C_T_CAMP]) + c] = int(t.tab[int(t.C[kernel.C_T_CAMP]) + 4])
    e = int(t.tab[int(t.C[kernel.C_T_BASE]) + 4])
    rows = t.tab[int(t.C[kernel.C_T_EROWS]) + 2 * e:int(t.C[kernel.C_T_EROWS]) + 2 * e + 2]
    item = [int(t.atoms[r, 0]) for r in range(rows[0], rows[1]) if t.atoms[r, 2] == kernel.OP_EXPLORE][0]
    g[st.G_PEND_N] = 2
    g[st.G_PEND:st.G_PEND + 2 * st.PEND_W] = [e, item, 4, 0, -1, -1, -1, 1]
    g[st.G_PHASE] = st.PH_EFFECT
    _run(s)
    _step(t, s, "pick:0")
    if _kind(s) == "explore":
        _step(t, s, f"opt:{k}")
    assert _kind(s) == "rotation" and g[st.G_EXP_SLOT] == k
    s.rot = rot
    return t, s, y, c


def test_another_players_camp_reward_is_decided_by_that_player_rc_r148_rc_a52_rc_a64():
    """Seat 1's sanctuary is next to the new camp (``K:any:1 + F:2``): seat 1 is asked ``order``,
    then ``place`` (its own building's field among the legal ones) and ``track``; the followers
    and the step are seat 1's; then seat 0 goes on with its pending DEV:1 at ``effect``."""
    t, s, y, c = _position(builders=(1,))
    g = s.m[0]
    supply, fol = int(g[_col(1, st.P_SUPPLY)]), int(g[_col(1, st.P_FOL) + y])
    trk0 = list(g[_col(0, st.P_TRK):_col(0, st.P_TRK) + 3])
    _step(t, s, f"opt:{s.rot}")
    assert _kind(s) == "order" and g[st.G_DEC] == 1 and _names(t, s) == ["pick:0", "pick:1"]
    assert g[st.G_ACTIVE] == 1 and g[st.G_EXP_ACTIVE] == 1
    _step(t, s, "pick:1")                                 # F:2 first
    assert _kind(s) == "place" and g[st.G_DEC] == 1 and f"field:{t.field_names[y]}" in _names(t, s)
    _step(t, s, f"field:{t.field_names[y]}")
    assert g[_col(1, st.P_FOL) + y] == fol + 2 and g[_col(1, st.P_SUPPLY)] == supply - 2
    assert _kind(s) == "track" and g[st.G_DEC] == 1
    _step(t, s, "opt:2")
    assert g[_col(1, st.P_TRK) + 2] == 1 and list(g[_col(0, st.P_TRK):_col(0, st.P_TRK) + 3]) == trk0
    assert g[_col(1, st.P_CAMPS)] == 1 << c and g[_col(0, st.P_CAMPS)] == 0
    assert _kind(s) == "effect" and g[st.G_DEC] == 0 and g[st.G_ACTIVE] == 0 and g[st.G_EXP_ACTIVE] == 0
    assert _names(t, s) == ["end", "pick:0"] and g[st.G_PEND_N] == 1


def test_the_explorer_receives_first_then_the_others_in_seat_order_rc_r148():
    """Both seats have a building next to the camp: seat 0 (the explorer) decides its ``order``
    first, then seat 1 its own; each receives the camp once."""
    t, s, y, c = _position(builders=(0, 1))
    g = s.m[0]
    _step(t, s, f"opt:{s.rot}")
    deciders = []
    while _kind(s) != "effect":
        deciders.append(int(g[st.G_DEC]))
        _step(t, s, _names(t, s)[0])
    assert deciders[0] == 0 and deciders[-1] == 1 and sorted(deciders) == deciders and 1 in deciders
    assert g[_col(0, st.P_CAMPS)] == 1 << c and g[_col(1, st.P_CAMPS)] == 1 << c and g[st.G_ACTIVE] == 0


def test_another_players_action_atoms_are_lost_the_explorers_join_the_pending_list_rc_a64():
    """Camp reward ``MOVE:2`` (as key card G2): for seat 1 it is lost (the pending list keeps
    only seat 0's DEV:1); for the explorer it joins its pending list."""
    for builder, pending in ((1, 1), (0, 2)):
        t, s, y, c = _position(builders=(builder,))
        t.tab[int(t.C[kernel.C_T_CAMP]) + c] = _effect_of(t, "MOVE:2")
        g = s.m[0]
        _step(t, s, f"opt:{s.rot}")
        assert g[_col(builder, st.P_CAMPS)] == 1 << c
        assert _kind(s) == "effect" and g[st.G_DEC] == 0 and g[st.G_PEND_N] == pending


def test_another_players_upgrade_tile_replaces_none_of_the_explorers_items_rc_r177_rc_r180():
    """Camp reward ``P:1 + VP:1`` (as key card X4), seat 1 one point below the first upgrade
    symbol: seat 1 is asked ``upgrade`` and gets the tile; seat 0's pending item of that
    letter (none of its items picked) stays as it was."""
    t, s, y, c = _position(builders=(1,))
    t.tab[int(t.C[kernel.C_T_CAMP]) + c] = _effect_of(t, "P:1 + VP:1")
    g = s.m[0]
    letter = int(g[st.G_UPG_LETTER])
    g[st.G_PEND + 2] = letter                            # the pending DEV:1 belongs to that field
    g[_col(1, st.P_SCORE)] = int(t.part(kernel.C_T_SYM, 1)[0]) - 1
    pend = list(g[st.G_PEND:st.G_PEND + st.PEND_W])
    _step(t, s, f"opt:{s.rot}")
    assert _kind(s) == "upgrade" and g[st.G_DEC] == 1 and g[st.G_UPG_SEAT] == 1
    _step(t, s, "opt:1")
    assert g[_col(1, st.P_UPG) + letter] == 1 and g[_col(1, st.P_CR) + 2] == 1
    assert _kind(s) == "effect" and g[st.G_DEC] == 0 and list(g[st.G_PEND:st.G_PEND + st.PEND_W]) == pend


def test_the_turn_guard_inside_another_players_camp_reward_ends_the_explorers_turn_rc_a68():
    """The decision limit is reached at seat 1's ``order``: the turn (seat 0's) ends, the next
    turn is seat 1's in the same round, the guard is counted."""
    t, s, y, c = _position(builders=(1,))
    g = s.m[0]
    t.C[kernel.C_MAXDEC] = g[st.G_TURN_DEC]
    rnd = int(g[st.G_ROUND])
    _step(t, s, f"opt:{s.rot}")
    assert g[st.G_GUARD] == 1 and g[st.G_EXP_ACTIVE] == 0 and g[st.G_FR_N] == 0
    assert g[st.G_ACTIVE] == 1 and g[st.G_ROUND] == rnd and g[st.G_DEC] == 1


def test_chest_reshuffles_go_on_past_eight_rc_a27():
    """Twelve reshuffles of a one-tile discard pile and one of three tiles: each is the
    permutation of the ``chests`` stream with extra word k (k = 1, 2, ...)."""
    t, s = start(game=5, seed=SEED)
    g, h = s.m[0], s.hidden[0]
    g[st.G_CHEST_TOP] = g[st.G_CHEST_N]                  # the stack is empty
    for k in range(1, 14):
        m = 3 if k == 13 else 1
        g[st.G_CHEST_DISC:st.G_CHEST_DISC + m] = [2, 5, 7][:m]
        g[st.G_CHEST_DN] = m
        before = g[_col(0, st.P_CHESTS):_col(0, st.P_CHESTS) + st.C_MAX].copy()
        draw_chest(g, h, 0)
        perm = rng.permutations(rng.stream_keys(SEED, [5], "chests", k), m)[0]
        stack = [[2, 5, 7][j] for j in perm]             # position i holds pile tile perm[i]
        assert g[st.G_CHEST_K] == k and g[st.G_CHEST_N] == m and g[st.G_CHEST_DN] == 0
        assert list(h[st.H_CHEST:st.H_CHEST + m]) == stack and g[st.G_CHEST_TOP] == 1
        got = g[_col(0, st.P_CHESTS):_col(0, st.P_CHESTS) + st.C_MAX] - before
        assert got[stack[0]] == 1 and got.sum() == 1
        g[st.G_CHEST_TOP] = g[st.G_CHEST_N]


def test_legal_count_counts_every_flag_of_any_length():
    """``legal_count`` (eight flags a step; ``decide`` and ``advance`` ask a decision only with >= 2
    legal actions, apply a single one, and RC-A68's per-turn limit counts the asked ones) equals the
    number of True flags, for mask lengths with and without a tail of fewer than eight, all set too."""
    import numpy as np
    from sim.games.recall.kernel.flow import legal_count
    gen = np.random.default_rng(5)
    for n in (0, 1, 7, 8, 9, 63, 289, 2048):
        for p in (0.0, 0.02, 0.5, 1.0):
            lg = gen.random(n) < p
            assert legal_count(lg) == int(lg.sum()), (n, p)
