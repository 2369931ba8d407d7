"""The compiled Recall engine on small positions worked out from the rules (docs/recall_model.md).

What is compiled so far: the setup into the state, the solo start field, the tribe draft in its
three forms, the old tribes and item stacks and the first ``main`` decision. The cross-check
against the oracle is tests/test_recall_crosscheck.py.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.core.game import IllegalActionError, take
from sim.games.recall import engine, kernel
from sim.games.recall.kernel import frames
from sim.games.recall import state as st
from sim.games.recall.config import Config
from sim.games.recall.content import load_content
from sim.games.recall.game import GAME
from sim.games.recall.log import describe
from sim.games.recall.observe import observe
from sim.games.recall.setup import deal, old_tribes

SEED = 321


def _tables(**kw):
    config = Config(**kw)
    content = load_content(config)
    return engine.build_tables(config, content)


def _names(t, mask):
    return [t.action_names[a] for a in np.flatnonzero(mask)]


def _seat(s, b, p, col):
    return int(s.m[b, st.seat_col(p, col)])


def _free(t):
    """1 per ability that is a free action (engine tables)."""
    return t.part(kernel.C_T_FREE, len(t.ability_names))


def _item_abilities(t, item):
    first, count = t.part(kernel.C_T_ITEM_AB, 2 * len(t.content.items)).reshape(-1, 2)[item]
    return list(range(first, first + count))


def _main_mask(t, g, p=0):
    lg = np.zeros(t.A, dtype=bool)
    kernel.main_mask(g, lg, t.C, t.tab, t.atoms, p)
    return _names(t, lg)


def test_action_space_follows_the_model_doc():
    """A = 2 + 6K + 16 + NF + 23 + 20 + U + C + 1 = 289 by default, in the doc's order."""
    t = _tables()
    assert t.A == 2 + 6 * 13 + 16 + 102 + 23 + 20 + 35 + 12 + 1 == 289
    assert GAME.num_actions(t.content) == 289 and GAME.action_names(t.content) == list(t.action_names)
    names = t.action_names
    assert names[:3] == ("end", "recall", "play:W0:A") and names[-1] == "ring"
    assert "field:N2.3" in names and "field:BM_white" in names and "field:river.14" in names
    assert "use:Multitool.Lens" in names and "use:Multitool" not in names


def test_draft_runs_from_the_right_of_the_start_player_rc_s33():
    """RC-S33: seats 3, 2, 1 choose a pair, seat 0 (the start player) last; a taken pair leaves."""
    t = _tables(players=4)
    s = engine.init(t, [4], SEED)
    setup = deal(t.config, t.content, SEED, 4)
    o = int(t.C[kernel.C_O_OPT])
    for k, p in enumerate((3, 2, 1, 0)):
        assert st.KIND_NAMES[s.m[0, st.G_KIND]] == "draft" and s.m[0, st.G_DEC] == p
        legal = np.flatnonzero(s.legal[0]) - o
        assert len(legal) == 5 - k
        pick = int(legal[-1])
        engine.step(s, [o + pick])
        assert _seat(s, 0, p, st.P_TRIBE) == setup.tribe_display[pick]
        assert _seat(s, 0, p, st.P_ITEM) == setup.item_display[pick]
    assert st.KIND_NAMES[s.m[0, st.G_KIND]] == "main" and s.m[0, st.G_DEC] == 0


def test_new_player_variant_gives_pair_j_to_seat_j_without_asking_rc_v1():
    t = _tables(players=3, tribe_draft="random")
    s = engine.init(t, [0, 1], SEED)
    for b in range(2):
        setup = deal(t.config, t.content, SEED, b)
        assert st.KIND_NAMES[s.m[b, st.G_KIND]] == "main"
        for p in range(3):
            assert _seat(s, b, p, st.P_TRIBE) == setup.tribe_display[p]
            assert _seat(s, b, p, st.P_ITEM) == setup.item_display[p]


def test_custom_tribe_one_element_each_then_the_other_kind_rc_v2_v5():
    """RC-V2..V5: seats 1, 0 take one element of either kind, then seats 0, 1 the missing kind."""
    t = _tables(players=2, tribe_draft="custom")
    s = engine.init(t, [2], SEED)
    o = int(t.C[kernel.C_O_OPT])
    assert s.m[0, st.G_DEC] == 1 and _names(t, s.legal[0]) == [f"opt:{i}" for i in (0, 1, 2, 5, 6, 7)]
    engine.step(s, [o + 6])                     # seat 1: the item of pair 1
    assert s.m[0, st.G_DEC] == 0 and _names(t, s.legal[0]) == [f"opt:{i}" for i in (0, 1, 2, 5, 7)]
    engine.step(s, [o + 1])                     # seat 0: the tribe of pair 1
    assert s.m[0, st.G_DEC] == 0 and _names(t, s.legal[0]) == ["opt:5", "opt:7"]   # items only
    engine.step(s, [o + 7])
    # seat 1 must take a tribe: 0 and 2 are left
    assert s.m[0, st.G_DEC] == 1 and _names(t, s.legal[0]) == ["opt:0", "opt:2"]
    engine.step(s, [o + 2])
    setup = deal(t.config, t.content, SEED, 2)
    assert (_seat(s, 0, 0, st.P_TRIBE), _seat(s, 0, 0, st.P_ITEM)) == (setup.tribe_display[1], setup.item_display[2])
    assert (_seat(s, 0, 1, st.P_TRIBE), _seat(s, 0, 1, st.P_ITEM)) == (setup.tribe_display[2], setup.item_display[1])
    assert st.KIND_NAMES[s.m[0, st.G_KIND]] == "main"


@pytest.mark.parametrize("choice", (0, 1))
def test_solo_player_chooses_start_field_1_or_2_rc_v11_rc_s29(choice):
    """RC-V11 first (setup order), then the draft of 2 pairs; 3 followers on the chosen field."""
    t = _tables(players=1)
    s = engine.init(t, [3], SEED)
    assert st.KIND_NAMES[s.m[0, st.G_KIND]] == "start_field" and _names(t, s.legal[0]) == ["opt:0", "opt:1"]
    engine.step(s, [int(t.C[kernel.C_O_OPT]) + choice])
    assert st.KIND_NAMES[s.m[0, st.G_KIND]] == "draft" and len(np.flatnonzero(s.legal[0])) == 2
    number = 1 + choice
    f = int(np.flatnonzero(s.m[0, st.F_START:st.F_START + st.F_MAX] == number)[0])
    assert _seat(s, 0, 0, st.P_FOL + f) == 3 and _seat(s, 0, 0, st.P_SUPPLY) == 23 - 3
    assert s.seat(st.P_FOL, st.F_MAX)[0, 0].sum() == 3


def test_every_seat_starts_with_three_followers_on_its_start_field_rc_s29():
    t = _tables(players=4, tribe_draft="random")
    s = engine.init(t, [7], SEED)
    setup = deal(t.config, t.content, SEED, 7)
    for p in range(4):
        f = int(np.flatnonzero(s.m[0, st.F_START:st.F_START + st.F_MAX] == setup.start_fields[p])[0])
        assert _seat(s, 0, p, st.P_FOL + f) == 3 and _seat(s, 0, p, st.P_SUPPLY) == 20


@pytest.mark.parametrize("draft", ("draft", "custom"))
def test_old_tribes_and_item_stacks_come_from_what_the_draft_left_rc_s36_rc_s37(draft):
    t = _tables(players=3, tribe_draft=draft)
    s = engine.init(t, [5], SEED)
    rng = np.random.default_rng(1)
    while st.KIND_NAMES[s.m[0, st.G_KIND]] != "main":
        engine.step(s, [rng.choice(np.flatnonzero(s.legal[0]))])
    tribes = [_seat(s, 0, p, st.P_TRIBE) for p in range(3)]
    items = [_seat(s, 0, p, st.P_ITEM) for p in range(3)]
    want_t, want_i = old_tribes(t.content, SEED, 5, tribes, items)
    assert tuple(s.m[0, st.G_OLD_TRIBE:st.G_OLD_TRIBE + 3]) == want_t
    assert tuple(s.m[0, st.G_OLD_ITEMS:st.G_OLD_ITEMS + 12]) == sum(want_i, ())


def test_first_main_offers_recall_white_cards_and_payable_free_abilities_rc_r8_rc_r13_rc_a70():
    """Recall; a white card into A..E (F needs a card in A..E, RC-R34); ``use:`` for the owned
    abilities that are free actions, payable with the 1 stone on the skill field (RC-R61)."""
    t = _tables(players=2, tribe_draft="random")
    s = engine.init(t, np.arange(40), SEED)
    for b in range(40):
        tribe, item = _seat(s, b, 0, st.P_TRIBE), _seat(s, b, 0, st.P_ITEM)
        uses = [a for a in [tribe] + _item_abilities(t, item) if _free(t)[a]]
        want = ["recall"] + [f"play:W0:{x}" for x in "ABCDE"] + [f"use:{t.ability_names[a]}" for a in sorted(uses)]
        assert s.m[b, st.G_DEC] == 0 and _names(t, s.legal[b]) == want


def test_an_ability_costs_more_than_the_stones_on_the_skill_field_is_not_offered_rc_r60_rc_r61():
    t = _tables(players=2, tribe_draft="random")
    s = engine.init(t, [0], SEED)
    tribe = _seat(s, 0, 0, st.P_TRIBE)
    s.m[0, st.seat_col(0, st.P_USES + tribe)] = 1          # second activation: 2 stones
    assert f"use:{t.ability_names[tribe]}" not in _main_mask(t, s.m[0])
    s.m[0, st.seat_col(0, st.P_SKILL)] = 2
    assert (f"use:{t.ability_names[tribe]}" in _main_mask(t, s.m[0])) == bool(_free(t)[tribe])


def test_a_held_chest_and_a_ring_are_free_actions_rc_a70():
    t = _tables(players=2, tribe_draft="random")
    s = engine.init(t, [0], SEED)
    g = s.m[0]
    g[st.seat_col(0, st.P_CHESTS + 4)] = 1
    nd = int(t.C[kernel.C_NOORD])
    g[st.seat_col(0, st.P_OWN + nd)] = 1
    camp = int(np.flatnonzero(g[st.F_CAMP:st.F_CAMP + st.F_MAX] >= 0)[0])
    names = _main_mask(t, g)
    assert "chest:CH5" in names and "ring" not in names                      # no follower on a camp
    g[st.seat_col(0, st.P_FOL + camp)] = 1
    assert "ring" in _main_mask(t, g)
    g[st.F_RING + camp] = 1                                                   # that camp has its ring
    assert "ring" not in _main_mask(t, g)


def test_an_illegal_action_is_refused_before_any_game_moves():
    t = _tables(players=3)
    s = engine.init(t, [0, 1], SEED)
    before = s.m.copy()
    with pytest.raises(IllegalActionError, match="draft of seat 2"):
        engine.step(s, [int(np.flatnonzero(s.legal[0])[0]), 1])
    assert np.array_equal(s.m, before)


def test_a_game_stopped_at_a_rule_not_compiled_is_refused():
    """A pending list beyond its size (``PEND_MAX``, a limit of the state, not a rule) stops the
    game (reason "pick"), and stepping it is refused."""
    t = _tables(players=2, tribe_draft="random")
    s = engine.init(t, [0], SEED)
    _run(s)
    s.m[0, st.G_PEND_N] = st.PEND_MAX
    engine.step(s, [t.action_names.index("play:W0:A")])
    assert s.m[0, st.G_KIND] == st.K_STOP and st.STOP_REASONS[s.m[0, st.G_STOP]] == "pick"
    assert not s.legal[0].any() and s.m[0, st.G_DEC] == -1
    with pytest.raises(NotImplementedError, match="not compiled yet"):
        engine.step(s, [0])


def test_a_game_depends_only_on_seed_and_game_index():
    """Reproducible: game 6 alone and inside a batch of 8 reach the same state and mask."""
    t = _tables(players=4, tribe_draft="custom")
    big = engine.init(t, np.arange(8), SEED)
    one = engine.init(t, [6], SEED)
    rng = np.random.default_rng(3)
    for _ in range(30):
        if big.m[6, st.G_KIND] == st.K_STOP:
            break
        a = int(rng.choice(np.flatnonzero(big.legal[6])))
        part = engine.step(take(big, [6]), [a])
        big.m[6], big.legal[6] = part.m[0], part.legal[0]
        engine.step(one, [a])
        assert np.array_equal(one.m[0], big.m[6]) and np.array_equal(one.legal[0], big.legal[6])


def test_observation_ignores_hidden_information_rc_a68():
    """Shuffling every hidden part leaves each seat's observation unchanged; a public change does not."""
    t = _tables(players=4, tribe_draft="random")
    s = engine.init(t, np.arange(6), SEED)
    for b in range(6):
        s.m[b, st.seat_col(1, st.P_CHESTS + 2)] = 2               # seat 1 holds two chests
    rng = np.random.default_rng(5)
    h = st.copy_state(s)
    for b in range(6):
        row = h.hidden[b]
        for col, n in ((st.H_CHEST, int(s.m[b, st.G_CHEST_N])), (st.H_GREEN, 15), (st.H_GREY, 12)):
            row[col:col + n] = rng.permutation(row[col:col + n])
        g = h.m[b]
        down = np.flatnonzero(g[st.G_UP:st.G_UP + 12] == 0)
        g[st.G_TILE + down] = rng.permutation(g[st.G_TILE + down])
        g[st.G_ROT + down] = rng.integers(0, 6, len(down))
        for k in down:
            for col in (st.F_TERR, st.F_PIGS, st.F_CAMP):
                g[col + 7 * k:col + 7 * k + 7] = rng.integers(0, 5, 7)
        g[st.G_OLD_TRIBE:st.G_OLD_TRIBE + 3] = rng.permutation(g[st.G_OLD_TRIBE:st.G_OLD_TRIBE + 3])
        g[st.G_OLD_ITEMS:st.G_OLD_ITEMS + 12] = rng.permutation(g[st.G_OLD_ITEMS:st.G_OLD_ITEMS + 12])
        g[st.seat_col(1, st.P_CHESTS + 2)] = 0
        g[st.seat_col(1, st.P_CHESTS + 7)] = 2                   # other kinds, same number
    for viewer in (0, 2, 3):
        hv = st.copy_state(h)
        for p in range(4):
            if p != viewer:
                hv.hidden[:, st.H_GOALS + 3 * p:st.H_GOALS + 3 * p + 3] = rng.integers(0, 20, (6, 3))
        a, b = observe(s, np.full(6, viewer)), observe(hv, np.full(6, viewer))
        assert np.array_equal(a.m, b.m) and np.array_equal(a.chests, b.chests) and np.array_equal(a.goals, b.goals)
        assert (a.chests[:, 1] == 2).all()
    s2 = st.copy_state(s)
    s2.m[:, st.seat_col(2, st.P_CR)] += 1
    assert not np.array_equal(observe(s, np.zeros(6)).m, observe(s2, np.zeros(6)).m)


def test_known_old_tribes_are_observed_from_the_start_rc_v6():
    t = _tables(players=2, known_old_tribes=True, tribe_draft="random")
    s = engine.init(t, [1], SEED)
    obs = observe(s, [1])
    assert (obs.m[0, st.G_OLD_TRIBE:st.G_OLD_TRIBE + 3] >= 0).all()
    t2 = _tables(players=2, tribe_draft="random")
    assert (observe(engine.init(t2, [1], SEED), [1]).m[0, st.G_OLD_TRIBE:st.G_OLD_TRIBE + 3] == -1).all()


def test_log_names_the_pick_and_what_it_took():
    t = _tables(players=2)
    s = engine.init(t, [0], SEED)
    before = st.copy_state(s)
    a = int(np.flatnonzero(s.legal[0])[0])
    engine.step(s, [a])
    lines = describe(before, s, a)
    tribe = t.content.tribes[_seat(s, 0, 1, st.P_TRIBE)].id
    item = t.content.items[_seat(s, 0, 1, st.P_ITEM)].id
    assert lines[0].startswith(f"Round 1, seat 1 (draft): opt:0 from the display 0 {tribe} + {item}, 1 ")
    assert f"seat 1 takes the tribe {tribe}" in lines[1]


def _at_main(players=2, game=0, **kw):
    t = _tables(players=players, tribe_draft="random", **kw)
    return t, engine.init(t, [game], SEED)


def _run(s):
    """Advance one game from its current phase (after a hand edit of the state)."""
    engine._run(s, np.zeros(1, dtype=np.int64), False)


def test_a_recall_without_cards_recharges_and_passes_the_turn_rc_r47_rc_r43():
    """RC-R47 / RC-R43 / RC-R46: no production, placed stones back, counts reset, next seat."""
    t, s = _at_main()
    g = s.m[0]
    g[st.seat_col(0, st.P_SKILL)] = 0                               # nothing to use: no recharge window
    g[st.seat_col(0, st.P_PLACED)] = 2
    g[st.seat_col(0, st.P_USES + 3)] = 2
    engine.step(s, [t.action_names.index("recall")])
    assert _seat(s, 0, 0, st.P_SKILL) == 2 and _seat(s, 0, 0, st.P_PLACED) == 0
    assert _seat(s, 0, 0, st.P_USES + 3) == 0 and _seat(s, 0, 0, st.P_RECALLS) == 1
    assert st.KIND_NAMES[s.m[0, st.G_KIND]] == "main" and s.m[0, st.G_DEC] == 1


def test_a_played_card_and_field_make_the_pending_list_rc_r13_rc_r15():
    """Y3 (W:2) into E (MOVE:1, EXPLORE, DEV:1): 1 + 3 pending items, picked in any order."""
    t, s = _at_main()
    s.m[0, st.seat_col(0, st.P_AVAIL + 3)] = 1
    _run(s)                                                          # main asked again with the new card
    engine.step(s, [t.action_names.index("play:Y3:E")])
    assert st.KIND_NAMES[s.m[0, st.G_KIND]] == "effect" and s.m[0, st.G_PEND_N] == 4
    assert {"end", "pick:0", "pick:1", "pick:2", "pick:3"} <= set(_names(t, s.legal[0]))
    engine.step(s, [t.action_names.index("pick:0")])                # the card's W:2
    assert _seat(s, 0, 0, st.P_CR) == 5 and s.m[0, st.G_PEND_N] == 3


def test_field_f_needs_a_card_in_a_to_e_rc_r34_rc_a40():
    t, s = _at_main()
    g = s.m[0]
    assert "play:W0:F" not in _main_mask(t, g)
    g[st.seat_col(0, st.P_SLOT + 2)] = 0
    g[st.seat_col(0, st.P_CR)] = 0                                  # COPY's cost is checked when picked
    assert "play:W0:F" in _main_mask(t, g)


def test_crystal_cap_converts_up_then_cuts_rc_r73_rc_a38():
    """9 W, 5 R -> 3 W move up (6 W, 6 R); 8 P -> 6 P, 2 lost; Aynir converts 2 to 1 (RC-R207)."""
    t, s = _at_main()
    g = s.m[0]
    g[st.seat_col(0, st.P_CR):st.seat_col(0, st.P_CR) + 3] = (9, 5, 8)
    kernel.crystal_cap(g, 0, t.C)
    assert tuple(g[st.seat_col(0, st.P_CR):st.seat_col(0, st.P_CR) + 3]) == (6, 6, 6)
    assert _seat(s, 0, 0, st.P_CR_LOST) == 2
    g[st.seat_col(0, st.P_CR):st.seat_col(0, st.P_CR) + 3] = (8, 0, 0)
    g[st.seat_col(0, st.P_OWN + int(t.C[kernel.C_AYNIR]))] = 1
    kernel.crystal_cap(g, 0, t.C)
    assert tuple(g[st.seat_col(0, st.P_CR):st.seat_col(0, st.P_CR) + 3]) == (6, 1, 0)


def test_the_paying_rule_makes_missing_crystals_in_its_fixed_order_rc_a69():
    t, s = _at_main()
    g = s.m[0]
    cr = st.seat_col(0, st.P_CR)
    g[cr:cr + 3] = (0, 0, 1)
    assert kernel.payable(g, 0, t.C, 1, 0, 0)                        # P -> R + W
    kernel.pay(g, 0, t.C, 1, 0, 0)
    assert tuple(g[cr:cr + 3]) == (0, 1, 0)
    g[cr:cr + 3] = (8, 0, 0)
    assert kernel.payable(g, 0, t.C, 0, 0, 1) is False              # 1 P = 3 R = 9 W
    g[cr:cr + 3] = (9, 0, 0)
    kernel.pay(g, 0, t.C, 0, 0, 1)
    assert tuple(g[cr:cr + 3]) == (0, 0, 0)


def test_the_hourglass_reaches_a_path_round_and_the_dark_token_pays_rc_r184_rc_r186():
    """Round 5 is a path round: `path` between positions 0 and 1; the chosen card's dark token
    reward (here forced to D1, P:1) is gained."""
    t, s = _at_main()
    g = s.m[0]
    g[st.G_ROUND] = 4
    g[st.G_PHASE] = st.PH_TURN
    g[st.G_DARK + 1] = 0
    _run(s)
    assert st.KIND_NAMES[g[st.G_KIND]] == "path" and {"opt:0", "opt:1"} <= set(_names(t, s.legal[0]))
    engine.step(s, [int(t.C[kernel.C_O_OPT]) + 1])
    assert _seat(s, 0, 0, st.P_PATHS) == 1 and _seat(s, 0, 0, st.P_CR + 2) == 1


def test_knowledge_steps_one_at_a_time_fifth_field_unlocks_rc_a12_rc_r167_rc_r169():
    t, s = _at_main()
    g = s.m[0]
    b = st.seat_col(0, 0)
    g[b + st.P_TRK + 1] = 4
    frames.push_frame(g, -1, st.PH_TURN_END, 0, -1, -1)          # then the turn's end
    g[st.G_KTRACK], g[st.G_KLEFT], g[st.G_KEACH] = 1, 1, 0
    g[st.G_PHASE] = st.PH_KSTEP
    _run(s)
    old = int(g[st.G_OLD_TRIBE + 1])
    assert g[b + st.P_TRK + 1] == 5 and g[b + st.P_UNLOCK + 1] == 1 and g[b + st.P_OWN + old] == 1
    assert g[b + st.P_SKILL] == 2


def test_steps_beyond_the_end_are_lost_rc_r161():
    t, s = _at_main()
    g = s.m[0]
    b = st.seat_col(0, 0)
    g[b + st.P_TRK] = 10
    frames.push_frame(g, -1, st.PH_TURN_END, 0, -1, -1)
    g[st.G_KTRACK], g[st.G_KLEFT], g[st.G_KEACH] = 0, 2, 0
    g[st.G_PHASE] = st.PH_KSTEP
    _run(s)
    assert g[b + st.P_TRK] == 10 and g[b + st.P_STEPS_LOST] == 2


def test_a_move_enters_land_never_water_or_a_face_down_tile_rc_a62():
    t, s = _at_main()
    g = s.m[0]
    start = int(np.flatnonzero(s.seat(st.P_FOL, st.F_MAX)[0, 0] > 0)[0])
    lg = np.zeros(t.A, dtype=bool)
    kernel.move_targets(g, lg, 0, start, t.C, t.tab)
    for f in np.flatnonzero(lg) - int(t.C[kernel.C_O_FIELD]):
        terr = t.content.map.terrains[int(g[st.F_TERR + f])]
        slot = int(t.tab[int(t.C[kernel.C_T_FSLOT]) + f])
        assert terr.move and (slot < 0 or g[st.G_UP + slot] == 1)


def test_the_turn_guard_ends_the_turn_at_the_decision_after_the_limit_rc_a68():
    """RC-A68: the 1st asked decision was main; at the next one (the pending list of W0 in A) the
    turn ends, its pending items are dropped, the guard hit is counted; seat 1 plays on."""
    t, s = _at_main(max_decisions_per_turn=1)
    engine.step(s, [t.action_names.index("play:W0:A")])
    g = s.m[0]
    assert g[st.G_GUARD] == 1 and g[st.G_PEND_N] == 0 and g[st.G_FR_N] == 0
    assert st.KIND_NAMES[g[st.G_KIND]] == "main" and g[st.G_DEC] == 1


def test_the_last_space_ends_the_game_and_outcome_uses_final_scoring_rc_r7_rc_a53():
    """After round 17 the hourglass reaches space 18: the game is over (RC-R7); the sheet's parts
    sum to the score and the leftovers are (crystal value + followers) // 3 (RC-E26..E28)."""
    t, s = _at_main(players=2)
    g = s.m[0]
    g[st.G_ROUND], g[st.G_ACTIVE], g[st.G_PHASE] = 16, 1, st.PH_NEXT
    g[st.seat_col(0, st.P_CR):st.seat_col(0, st.P_CR) + 3] = (2, 1, 1)     # 2 + 2 + 3 = 7
    _run(s)
    assert s.m[0, st.G_KIND] == st.K_DONE and s.m[0, st.G_DEC] == -1 and not s.legal[0].any()
    out = GAME.outcome(s)["per_seat"]
    parts = [k for k in out if k.startswith("score_")]           # track, path base / spec, leftover, pigs, purple, goal
    assert len(parts) == 17
    assert (sum(out[k] for k in parts) == out["score"]).all()
    assert out["score_leftover"][0, 0] == (7 + 3) // 3
    assert sorted(out["rank"][0]) in ([1, 2], [1, 1]) and abs(out["win_share"][0].sum() - 1) < 1e-9


def test_lexander_gains_a_white_crystal_and_a_point_per_purple_paid_rc_r230_rc_a48():
    """A cost of P:1 paid with a purple: +1 W and +1 point; a white cost paid by converting a
    purple down (RC-R231) gives nothing."""
    t, s = _at_main()
    g = s.m[0]
    cr = st.seat_col(0, st.P_CR)
    g[st.seat_col(0, st.P_OWN + int(t.C[kernel.C_LEX]))] = 1
    g[cr:cr + 3] = (0, 0, 2)
    assert kernel.pay_cost(g, 0, t.C, t.tab, 0, 0, 1)
    assert tuple(g[cr:cr + 3]) == (1, 0, 1) and _seat(s, 0, 0, st.P_SCORE) == 1
    assert kernel.pay_cost(g, 0, t.C, t.tab, 2, 0, 0)                # W 1, then P -> R + W
    assert tuple(g[cr:cr + 3]) == (0, 1, 0) and _seat(s, 0, 0, st.P_SCORE) == 1
