"""The compiled Recall engine's rewards on small positions worked out from the rules: the reward
order and its choices (RC-A64, RC-R202), action atoms joining the pending list, the chest
reshuffle (RC-A27), the guard's turn end (RC-A68), KEACH, KEYUP / KEYBACK, FREE, ART_DISPLAY, COST
and light tokens with a decision (docs/recall_model.md). The cross-check against the oracle is
tests/test_recall_crosscheck.py.
"""
from __future__ import annotations

import numpy as np

from sim.core import rng
from sim.games.recall import kernel
from sim.games.recall import state as st
from sim.games.recall.kernel import chests, frames
from sim.games.recall.tables import build_tables as content_tables
from tests.recall_engine_kit import (SEED, col as _col, kind as _kind, names as _names, own, run as _run, start as _start,
                                     step as _step)


def _at_main(players=2, game=0, **kw):
    """(tables, state, effect ids) of the game as dealt: tests name rewards by their content key."""
    t, s = _start(players, game, **kw)
    return t, s, content_tables(t.content).effect_id


def _reward(s, e, now=0, ret=st.PH_TURN_END):
    """Seat 0 receives effect e as a reward, then the turn ends (no free action is legal)."""
    g = s.m[0]
    g[_col(0, st.P_SKILL)] = 0
    frames.push_frame(g, e, ret, now, -1, -1)
    _run(s)


def test_order_free_items_first_then_the_only_other_without_asking_rc_a64():
    """Camp c4 `K:any:1 + R:1`: the crystal first (order-free), then K:any asks `track` only."""
    t, s, eid = _at_main()
    red = int(s.m[0, _col(0, st.P_CR + 1)])
    _reward(s, eid[("camp", 3)])
    assert _kind(s) == "track" and int(s.m[0, _col(0, st.P_CR + 1)]) == red + 1


def test_two_distinct_items_ask_order_then_resolve_whole_rc_a64():
    """Camp c5 `K:any:1 + F:2`: `order` between pick:0 and pick:1; F:2 first, then the track."""
    t, s, eid = _at_main()
    _reward(s, eid[("camp", 4)])
    assert _kind(s) == "order" and _names(t, s) == ["pick:0", "pick:1"]
    supply = int(s.m[0, _col(0, st.P_SUPPLY)])
    _step(t, s, "pick:1")                                   # one field with followers: placed at once
    assert int(s.m[0, _col(0, st.P_SUPPLY)]) == supply - 2 and _kind(s) == "track"
    _step(t, s, "opt:2")
    assert int(s.m[0, _col(0, st.P_TRK + 2)]) == 1 and _kind(s) == "main" and s.m[0, st.G_DEC] == 1


def test_a_slash_asks_choose_among_its_alternatives_rc_r202():
    """G3 `F:2 | R:1` played and picked: `choose` opt:0 / opt:1; R:1 gains a red crystal."""
    t, s, eid = _at_main()
    g = s.m[0]
    g[_col(0, st.P_AVAIL + 6)] = 1                          # a G3 (kinds: W0, Y1..Y3, G1..G5, ...)
    _run(s)
    _step(t, s, "play:G3:B")
    assert _kind(s) == "effect"
    _step(t, s, "pick:0")
    assert _kind(s) == "choose" and _names(t, s) == ["opt:0", "opt:1"]
    red = int(g[_col(0, st.P_CR + 1)])
    _step(t, s, "opt:1")
    assert int(g[_col(0, st.P_CR + 1)]) == red + 1 and _kind(s) == "effect"


def test_an_action_atom_of_a_reward_joins_the_pending_list_rc_a64():
    """A reward's MOVE:2 is not resolved inside it: it becomes a pending item of the turn; with
    ``now`` (an ability's, a chest's effect) it runs at once."""
    t, s, eid = _at_main()
    g = s.m[0]
    g[st.G_PHASE] = st.PH_EFFECT
    _reward(s, eid[("chest", 9)], now=0, ret=st.PH_EFFECT)
    assert g[st.G_PEND_N] == 1 and tuple(g[st.G_PEND:st.G_PEND + 4]) == (eid[("chest", 9)], 0, -1, 0)
    assert _kind(s) == "effect"
    _step(t, s, "pick:0")
    assert _kind(s) == "move_from" and g[st.G_MOVES] == 2


def test_an_artifact_inside_a_reward_keeps_the_outer_atom_going_rc_a64():
    """A frame saves the registers of the atom in progress: MOVE:3 with 2 moves left goes on
    after an inner reward (here K:white:1) closes."""
    t, s, eid = _at_main()
    g = s.m[0]
    g[st.G_MOVES], g[st.G_MFROM] = 2, 5
    frames.push_frame(g, eid[("covered", 0, 0)], st.PH_MOVE_FROM, 0, -1, -1)
    g[st.G_MOVES] = 0                                       # the inner reward may use the registers
    frames.pop_frame(g)
    assert g[st.G_MOVES] == 2 and g[st.G_MFROM] == 5 and g[st.G_PHASE] == st.PH_MOVE_FROM
    assert g[st.G_FR_N] == 0


def test_an_empty_chest_stack_is_refilled_from_the_shuffled_discard_pile_rc_a27():
    """RC-A27 and the model doc's `chests` stream, extra word k = 1 for the first reshuffle."""
    t, s, eid = _at_main(game=4)
    g, h = s.m[0], s.hidden[0]
    g[st.G_CHEST_TOP] = g[st.G_CHEST_N]                     # the stack is used up
    pile = [3, 7, 7, 0, 11]
    for x in pile:
        g[_col(1, st.P_CHESTS + x)] += 1
        chests.discard_chest(g, 1, x)
    assert g[st.G_CHEST_DN] == 5 and list(g[st.G_CHEST_DISC:st.G_CHEST_DISC + 5]) == pile
    perm = rng.permutations(rng.stream_keys(SEED, [4], "chests", 1), 5)[0]
    chests.draw_chest(g, h, 0)
    assert list(h[st.H_CHEST:st.H_CHEST + 5]) == [pile[i] for i in perm]
    assert g[st.G_CHEST_K] == 1 and g[st.G_CHEST_N] == 5 and g[st.G_CHEST_TOP] == 1 and g[st.G_CHEST_DN] == 0
    assert g[_col(0, st.P_CHESTS + pile[perm[0]])] == 1


def test_no_chest_left_anywhere_gives_nothing_rc_a27():
    t, s, eid = _at_main()
    g, h = s.m[0], s.hidden[0]
    g[st.G_CHEST_TOP] = g[st.G_CHEST_N]
    chests.draw_chest(g, h, 0)
    assert s.seat(st.P_CHESTS, st.C_MAX)[0, 0].sum() == 0 and g[st.G_CHEST_K] == 0


def test_keach_steps_each_track_in_track_order():
    """M8 `KEACH:1`: one step on the white, grey and black track."""
    t, s, eid = _at_main()
    _reward(s, eid[("monument_tile", 7)])
    assert list(s.m[0, _col(0, st.P_TRK):_col(0, st.P_TRK) + 3]) == [1, 1, 1]
    assert _kind(s) == "main" and s.m[0, st.G_DEC] == 1


def test_keyup_a_white_card_in_a_slot_takes_a_yellow_into_that_slot_rc_r193_rc_r196():
    """RC-R193: the white card leaves the game; RC-R196: the yellow goes into the same slot."""
    t, s, eid = _at_main()
    g = s.m[0]
    g[_col(0, st.P_SLOT + 2)] = 0                           # a white card in slot C, none available
    g[_col(0, st.P_AVAIL)] = 0
    _reward(s, eid[("sanctuary", 3)])                       # KEYUP
    assert _kind(s) == "key" and _names(t, s) == ["opt:0", "opt:1", "opt:2"]   # one card: no `keyup`
    left = int(g[st.G_YELLOW + 1])
    _step(t, s, "opt:1")
    assert g[_col(0, st.P_SLOT + 2)] == 2 and g[st.G_YELLOW + 1] == left - 1
    assert s.seat(st.P_AVAIL, 13)[0, 0].sum() == 0


def test_keyup_a_yellow_card_puts_it_back_on_its_stack_rc_r194_rc_r192():
    t, s, eid = _at_main()
    g = s.m[0]
    g[_col(0, st.P_AVAIL + 1)] = 1                          # a Y1 next to the two white cards
    left = int(g[st.G_YELLOW])
    green = int(g[st.G_GREEN])
    _reward(s, eid[("sanctuary", 3)])
    assert _kind(s) == "keyup" and _names(t, s) == ["opt:6", "opt:7"]
    _step(t, s, "opt:7")                                    # the Y1
    assert _kind(s) == "key"
    _step(t, s, "opt:0")                                    # green display slot 0, refilled
    assert g[st.G_YELLOW] == left + 1 and g[_col(0, st.P_AVAIL + 1)] == 0
    assert g[_col(0, st.P_AVAIL + green)] == 1 and g[st.G_GREEN] == s.hidden[0, st.H_GREEN + 3]


def test_keyup_a_green_card_puts_it_under_the_green_deck_rc_r195():
    t, s, eid = _at_main()
    g, h = s.m[0], s.hidden[0]
    g[_col(0, st.P_AVAIL)] = 0
    g[_col(0, st.P_AVAIL + 4)] = 1                          # only a G1
    end = int(g[st.G_GREEN_END])
    _reward(s, eid[("sanctuary", 3)])
    _step(t, s, "opt:1")                                    # grey display slot 1
    assert h[st.H_GREEN + end] == 4 and g[st.G_GREEN_END] == end + 1 and g[_col(0, st.P_AVAIL + 4)] == 0


def test_keyback_takes_a_card_from_a_slot_back_rc_r198():
    t, s, eid = _at_main()
    g = s.m[0]
    g[_col(0, st.P_SLOT + 0)] = 3
    g[_col(0, st.P_SLOT + 4)] = 0
    _reward(s, eid[("chest", 11)])                          # KEYBACK
    assert _kind(s) == "slot" and _names(t, s) == ["opt:0", "opt:4"]
    _step(t, s, "opt:0")
    assert g[_col(0, st.P_SLOT)] == -1 and g[_col(0, st.P_AVAIL + 3)] == 1


def test_free_activation_runs_an_owned_ability_without_stones_rc_r200_rc_a43():
    """FREE: `use:a` of the non-event abilities owned (Exoskelet and event abilities never), `end`;
    Pouch's W:1 with no stone paid and no escalation counted."""
    t, s, eid = _at_main()
    g = s.m[0]
    names = t.ability_names
    for a in ("Pouch", "Booster", "Exoskelet"):
        g[_col(0, st.P_OWN + names.index(a))] = 1
    free = t.part(kernel.C_T_FREE, len(names))
    own = [f"use:{names[a]}" for a in np.flatnonzero(s.seat(st.P_OWN, len(names))[0, 0]) if free[a]]
    assert "use:Pouch" in own and "use:Booster" not in own and "use:Exoskelet" not in own
    white = int(g[_col(0, st.P_CR)])
    _reward(s, eid[("chest", 8)])                           # FREE
    assert _kind(s) == "free" and set(_names(t, s)) == {"end", *own}
    _step(t, s, "use:Pouch")
    assert g[_col(0, st.P_CR)] == white + 1 and g[_col(0, st.P_USES + names.index("Pouch"))] == 0
    assert g[_col(0, st.P_PLACED)] == 0


def test_art_display_takes_a_display_artifact_and_its_covered_reward_rc_r128_rc_a67():
    """A full colour row is not offered (RC-A67); the taken artifact's box gives its reward."""
    t, s, eid = _at_main()
    g = s.m[0]
    g[_col(0, st.P_ARTS + 1)] = 5                           # the grey row is full
    disp = list(g[st.G_DISP_ART:st.G_DISP_ART + 4])
    _reward(s, eid[("sanctuary", 5)])
    assert _kind(s) == "display" and _names(t, s) == ["opt:0", "opt:2", "opt:3"]
    _step(t, s, "opt:3")                                    # brown, box 0: W:1 + F:1
    assert g[st.G_DISP_ART + 3] == disp[3] - 1 and g[_col(0, st.P_ARTS + 3)] == 1


def test_cost_pays_then_gains_and_unpaid_gives_nothing():
    """Lentefee `COST:W:1->KEYUP`: without a crystal nothing; with one it is paid, then KEYUP."""
    t, s, eid = _at_main()
    g = s.m[0]
    g[_col(0, st.P_CR):_col(0, st.P_CR) + 3] = (0, 0, 0)
    lentefee = eid[("tribe", [x.id for x in t.content.tribes].index("Lentefee"))]
    _reward(s, lentefee, now=1)
    assert _kind(s) == "main" and s.m[0, st.G_DEC] == 1
    t, s, eid = _at_main()
    g = s.m[0]
    g[_col(0, st.P_CR):_col(0, st.P_CR) + 3] = (1, 0, 0)
    _reward(s, lentefee, now=1)
    assert g[_col(0, st.P_CR)] == 0 and _kind(s) == "key"   # two white cards: one kind, no `keyup`


def test_a_light_token_with_a_decision_runs_inside_the_knowledge_steps_rc_a29_rc_a12():
    """The bonus position 4 of the white track with token L6 (FREE): the `free` decision, then the
    remaining step goes on."""
    t, s, eid = _at_main()
    g = s.m[0]
    g[st.G_LIGHT + 0] = 5                                   # track 0, first bonus position: L6
    g[_col(0, st.P_TRK)] = 3
    g[_col(0, st.P_OWN + t.ability_names.index("Pouch"))] = 1
    g[_col(0, st.P_SKILL)] = 0
    frames.push_frame(g, -1, st.PH_TURN_END, 0, -1, -1)
    g[st.G_KTRACK], g[st.G_KLEFT], g[st.G_KEACH] = 0, 2, 0
    g[st.G_PHASE] = st.PH_KSTEP
    _run(s)
    assert _kind(s) == "free" and g[_col(0, st.P_TRK)] == 4
    _step(t, s, "end")
    assert g[_col(0, st.P_TRK)] == 5 and g[st.G_FR_N] == 0


def test_op_constants_follow_the_content_ops():
    from sim.games.recall.content_types import ACTION_OPS, OPS
    for name in ("KEACH", "KEYUP", "KEYBACK", "FREE", "ART_DISPLAY", "COST", "MOVE", "COPY"):
        assert getattr(kernel, f"OP_{name}") == OPS.index(name)
    assert [OPS[i] for i in range(kernel.OP_MOVE, kernel.OP_COPY + 1)] == list(ACTION_OPS)


def test_copy_with_no_card_left_in_a_to_e_does_nothing_rc_r35_rc_a40():
    """A card taken back (KEYBACK) can leave F's COPY without a letter: the item does nothing and
    costs nothing (a node with no legal action is skipped)."""
    t, s, eid = _at_main()
    g = s.m[0]
    cr = list(g[_col(0, st.P_CR):_col(0, st.P_CR) + 3])
    g[_col(0, st.P_SKILL)] = 0
    frames.push_frame(g, eid[("base", 5)], st.PH_TURN_END, 1, 0, -1)
    _run(s)
    assert list(g[_col(0, st.P_CR):_col(0, st.P_CR) + 3]) == cr and _kind(s) == "main" and g[st.G_DEC] == 1


def test_alambiek_removes_an_own_follower_and_gains_a_red_crystal_rc_r241():
    """The red crystal comes with the follower removed (none on the board: nothing, as the oracle)."""
    t, s, eid = _at_main()
    g = s.m[0]
    own(t, g, "Alambiek")
    start = int(np.flatnonzero(s.seat(st.P_FOL, st.F_MAX)[0, 0] > 0)[0])
    g[_col(0, st.P_FOL + start)] -= 1
    g[_col(0, st.P_FOL + start + 1)] += 1                   # followers on two fields
    red, supply = int(g[_col(0, st.P_CR + 1)]), int(g[_col(0, st.P_SUPPLY)])
    _run(s)
    _step(t, s, "use:Alambiek")
    assert _kind(s) == "ability_field" and len(_names(t, s)) == 2 and g[_col(0, st.P_CR + 1)] == red
    _step(t, s, t.action_names[int(t.C[kernel.C_O_FIELD]) + start + 1])
    assert g[_col(0, st.P_FOL + start + 1)] == 0 and g[_col(0, st.P_SUPPLY)] == supply + 1
    assert g[_col(0, st.P_CR + 1)] == red + 1
    assert _kind(s) == "main" and g[st.G_DEC] == 0 and g[_col(0, st.P_SKILL)] == 2


def test_gpr_gives_one_more_step_on_the_excavated_stones_track_rc_r246():
    """The `excavate` window after a grey stone (G_DEV_K = 1): GPR, then the action ends."""
    from sim.games.recall.kernel import dev
    t, s, eid = _at_main()
    g = s.m[0]
    own(t, g, "GPR")
    g[st.G_DEV_K], g[st.G_DEV_STEP], g[st.G_DEV_RET] = 1, dev.DS_END, st.PH_TURN_END
    g[st.G_PHASE] = st.PH_EXC_EVENT
    _run(s)
    assert _kind(s) == "event" and _names(t, s) == ["end", "use:GPR"]
    _step(t, s, "use:GPR")
    assert list(g[_col(0, st.P_TRK):_col(0, st.P_TRK) + 3]) == [0, 1, 0] and g[_col(0, st.P_SKILL)] == 2


def test_schokbron_gains_the_production_fields_yield_once_more_rc_r249():
    """The `production` window after P1 (W:2): Schokbron gives W:2 again."""
    t, s, eid = _at_main()
    g = s.m[0]
    own(t, g, "Schokbron", stones=1)
    g[st.G_PROD_LAST], g[st.G_PROD_LEFT] = 0, 0
    white = int(g[_col(0, st.P_CR)])
    g[st.G_PHASE] = st.PH_PROD_EVENT
    _run(s)
    assert _kind(s) == "event" and _names(t, s) == ["end", "use:Schokbron"]
    _step(t, s, "use:Schokbron")
    assert g[_col(0, st.P_CR)] == white + 2


def test_a_window_inside_a_reward_does_not_reset_the_outer_window_rc_r65():
    """GPR's step lands on a light token (its own `bonus_token` window): back in the `excavate`
    window GPR stays used for this excavation (once per event, RC-R65)."""
    from sim.games.recall.kernel import dev
    t, s, eid = _at_main()
    g = s.m[0]
    own(t, g, "GPR")
    g[_col(0, st.P_TRK)] = 3                                # the step reaches bonus position 4
    g[st.G_LIGHT + 0] = 0                                   # L1: R:1
    red = int(g[_col(0, st.P_CR + 1)])
    g[st.G_DEV_K], g[st.G_DEV_STEP], g[st.G_DEV_RET] = 0, dev.DS_END, st.PH_TURN_END
    g[st.G_PHASE] = st.PH_EXC_EVENT
    _run(s)
    _step(t, s, "use:GPR")
    assert g[_col(0, st.P_TRK)] == 4 and g[_col(0, st.P_CR + 1)] == red + 1
    assert g[_col(0, st.P_USES + t.ability_names.index("GPR"))] == 1 and g[_col(0, st.P_SKILL)] == 2
    assert not (_kind(s) == "event" and "use:GPR" in _names(t, s))
