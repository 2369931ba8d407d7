"""The spec's worked examples (section 10), each run on the oracle and on the engine."""
from __future__ import annotations

import json

import numpy as np
import pytest

from sim.games.animal_kingdoms import engine
from sim.games.animal_kingdoms.ages import new_age_start
from sim.games.animal_kingdoms.game import GAME
from sim.games.animal_kingdoms.state import BEGIN, COUNCIL, DONE, TURN
from tests.test_animal_kingdoms_support import (
    card, engine_from, kingdom, oracle_from, score_with_engine, score_with_oracle,
)

A, B, C, D = 0, 1, 2, 3
K4, K5, K6, K7, K8 = 0, 1, 2, 3, 4


# ---- 10.1 a three-way tie for first -------------------------------------------------------------

def example_10_1(**config):
    return {"config": {"players": 4, **config}, "age": 2, "age_start": A,
            "ordinary": {"K6": {A: 1, B: 1, C: 2, D: 1}}, "capital": {"K6": B}, "council": {"K6": [A]},
            "tiles": {"K6": [7, 9]},
            "hands": {A: ["Lion 7", "Bear 2", "Fox 3", "Eagle 4"], B: ["Hare 1", "Bear 3", "Fox 4", "Eagle 5"],
                      C: ["Owl 8", "Bear 4", "Fox 5", "Eagle 6"], D: ["Wolf 1", "Wolf 2", "Wolf 3", "Wolf 4"]},
            "deck": ["Turtle 1", "Turtle 2", "Turtle 3", "Turtle 4"]}


@pytest.mark.parametrize("impl", ["oracle", "engine"])
def test_example_10_1_three_way_tie(impl):
    """10.1: AK-E2, AK-E3, AK-E4, AK-E5, AK-E10, AK-E11, AK-E13, AK-E18, AK-E20, AK-E21, AK-A22, AK-A24, AK-A27."""
    sc = example_10_1()
    cards = {A: ["Lion 7"], B: ["Hare 1"], C: ["Owl 8"]}
    if impl == "oracle":
        o = score_with_oracle(oracle_from(sc), cards)
        first, second, third = o.pts["first"], o.pts["second"], o.pts["third"]
        mods, msup, left = o.mods, o.mod_supply, o.fp[K6][o.fp_next[K6]]
        hands = [len(h) for h in o.hands]
        discard = o.discard
    else:
        s = score_with_engine(oracle_from(sc), cards)
        first, second, third = s.pf[0].tolist(), s.ps[0].tolist(), s.pt[0].tolist()
        mods, msup, left = s.mods[0].tolist(), int(s.msup[0]), int(s.fp[0, K6, s.fpn[0, K6]])
        hands = (s.hand[0] != s.t.N).sum(axis=1).tolist()
        discard = set(np.nonzero(s.disc[0])[0].tolist())
    ct = oracle_from(sc).ct
    assert first == [7, 0, 0, 0]
    assert second == [0, 3, 3, 0]
    assert third == [0, 0, 0, 1]
    assert mods == [0, 1, 1, 0] and msup == 16
    assert left == 9                                            # K6 now holds only the 9 tile
    assert hands == [4, 4, 4, 4]                                # A, B, C drew one card each
    assert discard == {card(ct, n) for n in ("Lion 7", "Hare 1", "Owl 8")}


def test_example_10_1_one_counts_as_nine():
    """10.1 with multiway_battle = one_counts_as_nine (AK-A27): B wins, A and C take second place."""
    o = score_with_oracle(oracle_from(example_10_1(multiway_battle="one_counts_as_nine")),
                          {A: ["Lion 7"], B: ["Hare 1"], C: ["Owl 8"]})
    assert o.pts["first"] == [0, 7, 0, 0] and o.pts["second"] == [3, 0, 3, 0]
    s = score_with_engine(oracle_from(example_10_1(multiway_battle="one_counts_as_nine")),
                          {A: ["Lion 7"], B: ["Hare 1"], C: ["Owl 8"]})
    assert s.pf[0].tolist() == [0, 7, 0, 0] and s.ps[0].tolist() == [3, 0, 3, 0]


# ---- 10.2 battles with "1 beats 8" and a +2 modifier ---------------------------------------------

def example_10_2(mods_a=0):
    return {"config": {"players": 3}, "age": 2, "age_start": A, "mods": {A: mods_a},
            "ordinary": {"K4": {A: 2, B: 1}, "K5": {B: 2}, "K6": {A: 3, C: 2}},
            "capital": {"K4": B, "K6": C},
            "tiles": {"K4": [6, 8, 9], "K5": [5, 6, 7], "K6": [7, 8, 9]},
            "hands": {A: ["Wolf 8", "Fox 5", "Eagle 3", "Owl 6"], B: ["Hare 1", "Bear 5", "Lion 2", "Turtle 7"],
                      C: ["Turtle 4", "Bear 7", "Owl 2", "Hare 6"]},
            "deck": ["Lion 4", "Fox 1", "Eagle 6", "Wolf 2", "Bear 1", "Bear 2"]}


@pytest.mark.parametrize("impl", ["oracle", "engine"])
def test_example_10_2_one_beats_eight_and_modifier(impl):
    """10.2: AK-E11..AK-E21, AK-E12, AK-E13, AK-E14, AK-E15, AK-E16, AK-E17, AK-E19, AK-A24..A26, AK-A31."""
    cards = {A: ["Fox 5", "Wolf 8", "Owl 6"], B: ["Bear 5", "Hare 1"], C: ["Bear 7"]}
    mods = {A: [1]}                     # A's modifier won in K4 is used in K6 (AK-E19)
    sc = example_10_2()
    ct = oracle_from(sc).ct
    if impl == "oracle":
        o = oracle_from(sc)
        hands_after_k4 = {}
        original = o.refill

        def refill(p):
            original(p)
            if len(hands_after_k4) < 2:
                hands_after_k4[p] = sorted(o.hands[p])
        o.refill = refill
        o = score_with_oracle(o, cards, mods)
        totals = [o.pts["first"][p] + o.pts["second"][p] + o.pts["third"][p] for p in range(3)]
        assert hands_after_k4[A] == sorted(card(ct, n) for n in ("Eagle 3", "Owl 6", "Lion 4", "Fox 1"))
        assert hands_after_k4[B] == sorted(card(ct, n) for n in ("Lion 2", "Turtle 7", "Eagle 6", "Wolf 2"))
        mods_after = o.mods
    else:
        s = score_with_engine(oracle_from(sc), cards, mods)
        totals = (s.pf[0] + s.ps[0] + s.pt[0]).tolist()
        mods_after = s.mods[0].tolist()
    assert totals == [10, 11, 3]                    # A 3 + 7, B 6 + 5, C 3
    assert mods_after == [0, 0, 1]


def test_example_10_2_counter_case_modifier_does_not_beat_a_one():
    """10.2 counter-case, AK-A26: a printed 1 beats a printed 8 even with +2 on the 8."""
    cards = {A: ["Fox 5", "Wolf 8", "Owl 6"], B: ["Bear 5", "Hare 1"], C: ["Bear 7"]}
    mods = {A: [0, 1, 1]}               # round 1 none, Wolf 8 + 2 (= 10) in round 2, then K6
    o = score_with_oracle(oracle_from(example_10_2(mods_a=1)), cards, mods)
    assert o.pts["first"] == [7, 11, 0]             # B still wins K4 with the printed 1
    s = score_with_engine(oracle_from(example_10_2(mods_a=1)), cards, mods)
    assert s.pf[0].tolist() == [7, 11, 0]


# ---- 10.3 peace-variant ties ----------------------------------------------------------------------

def peace(capital, **config):
    return {"config": {"players": 3, "peace": True, **config}, "age": 2,
            "ordinary": {"K7": {A: 3 - (capital == A), B: 3 - (capital == B), C: 1 - (capital == C)}},
            "capital": {"K7": capital}, "tiles": {"K7": [8, 9, 10]}}


@pytest.mark.parametrize("impl", ["oracle", "engine"])
@pytest.mark.parametrize("case,config,expected", [
    ("a", {}, ([8, 0, 0], [0, 3, 0], [0, 0, 1])),
    ("b", {}, ([8, 8, 0], [0, 0, 3], [0, 0, 0])),
    ("b", {"placement_mode": "competition"}, ([8, 8, 0], [0, 0, 0], [0, 0, 1])),
])
def test_example_10_3_peace_ties(impl, case, config, expected):
    """10.3: AK-V1, AK-V2, AK-V3, AK-V4, AK-A36 (dense), and the competition switch of AK-A22."""
    sc = peace(A if case == "a" else C, **config)
    if impl == "oracle":
        o = score_with_oracle(oracle_from(sc), {})
        got = (o.pts["first"], o.pts["second"], o.pts["third"])
        mods = o.mods
    else:
        s = score_with_engine(oracle_from(sc), {})
        got = (s.pf[0].tolist(), s.ps[0].tolist(), s.pt[0].tolist())
        mods = s.mods[0].tolist()
    assert got == expected
    assert mods == [0, 0, 0]                       # AK-V4: no modifiers in the peace variant


# ---- 10.4 decree legality, one case of each type -----------------------------------------------------

def example_10_4(**config):
    return {"config": {"players": 3, **config}, "age_start": A,
            "columns": {"K4": ["Owl 3"], "K5": ["Wolf 6"], "K7": ["Fox 4"], "K8": ["Bear 2"]},
            "decrees": {"K4": "DC09", "K5": "DC01", "K6": "DC21", "K7": "DC17", "K8": "DC25"},
            "ordinary": {"K4": {B: 1}, "K5": {B: 1}, "K7": {C: 1}, "K8": {C: 1}},
            "hands": {A: ["Hare 4", "Lion 5", "Eagle 3", "Turtle 7"]}, "deck": ["Bear 8"] * 0}


EXPECTED_10_4 = {                # card -> legal kingdoms (table of 10.4)
    "Hare 4": {"K4", "K5", "K7"},
    "Lion 5": {"K4", "K6", "K7"},
    "Eagle 3": {"K7"},
    "Turtle 7": {"K4", "K6", "K7", "K8"},
}


def claim_pairs(o, legal):
    kids = [k.id for k in o.ct.kingdoms]
    pairs = set()
    for a in np.nonzero(legal)[0]:
        if a < o.A_RALLY:
            slot, k = divmod(int(a), o.K)
            pairs.add((o.ct.cards[o.hands[A][slot]].name, kids[k]))
    return pairs


@pytest.mark.parametrize("impl", ["oracle", "engine"])
def test_example_10_4_decree_types(impl):
    """10.4: AK-R19, AK-R20, AK-R21, AK-R22, AK-R23, AK-R24, AK-R25, AK-R26, AK-A13: 11 legal pairs."""
    o = oracle_from(example_10_4())
    if impl == "oracle":
        legal = np.zeros(o.A, dtype=bool)
        legal[o.turn_legal(A)] = True
    else:
        legal = engine.legal_actions(engine_from(o, TURN, cur=A))[0]
    pairs = claim_pairs(o, legal)
    assert pairs == {(c, k) for c, ks in EXPECTED_10_4.items() for k in ks}
    assert len(pairs) == 11


@pytest.mark.parametrize("impl", ["oracle", "engine"])
def test_example_10_4_follow_up_and_switch(impl):
    """10.4 follow-up: Lion 5 into K6 makes K7 need > 5; with any_missing_frees every card fits K8."""
    o = oracle_from(example_10_4())
    lion = o.hands[A].index(card(o.ct, "Lion 5"))
    claim = lion * o.K + K6
    if impl == "oracle":
        o.do_turn(A, claim)
        legal = np.zeros(o.A, dtype=bool)
        legal[o.turn_legal(A)] = True
    else:
        s = engine_from(o, TURN, cur=A)
        s.active[0] = [True, False, False]          # A keeps the turn after its claim
        s = engine.step(s, np.array([claim]))
        o.do_turn(A, claim)
        legal = engine.legal_actions(s)[0]
    pairs = claim_pairs(o, legal)
    assert {c for c, k in pairs if k == "K7"} == {"Turtle 7"} & {o.ct.cards[c].name for c in o.hands[A]}
    assert {c for c, k in pairs if k == "K8"} == {"Turtle 7"} & {o.ct.cards[c].name for c in o.hands[A]}
    free = oracle_from(example_10_4(all_others_missing_policy="any_missing_frees"))
    legal = engine.legal_actions(engine_from(free, TURN, cur=A))[0]
    assert {c for c, k in claim_pairs(free, legal) if k == "K8"} == set(EXPECTED_10_4)


# ---- 10.5 capital claim, forced retreats and the rally ban ------------------------------------------

def example_10_5():
    return {"config": {"players": 3}, "age_start": A, "decrees": {"K4": "DC02", "K5": "DC01", "K6": "DC01",
                                                                  "K7": "DC01", "K8": "DC01"},
            "ordinary": {"K4": {A: 1, B: 1}}, "supply": {C: 1}, "retreat_tiles": [2, 4, 5, 3],
            "hands": {A: ["Owl 5", "Bear 2", "Bear 4", "Bear 6"], B: ["Wolf 2", "Wolf 4", "Wolf 6", "Wolf 8"],
                      C: ["Fox 3", "Eagle 2", "Eagle 4", "Eagle 6"]},
            "deck": ["Lion 1", "Lion 2", "Lion 3", "Lion 4"]}


@pytest.mark.parametrize("impl", ["oracle", "engine"])
def test_example_10_5_capital_and_forced_retreats(impl):
    """10.5: AK-R13, AK-R14, AK-R15, AK-R16, AK-R17, AK-R31, AK-R34, AK-R35, AK-A9, AK-A14, AK-E1."""
    o = oracle_from(example_10_5())
    ct = o.ct
    fox3 = o.hands[C].index(card(ct, "Fox 3")) * o.K + K4
    owl5 = o.hands[A].index(card(ct, "Owl 5")) * o.K + K4
    if impl == "oracle":
        gen = o.play_age(cur=C)
        dec, legal = next(gen)
        assert dec == C
        dec, legal = gen.send(fox3)
        # C placed its last marker on the last ordinary territory, refilled, retreated first
        assert o.ordm[K4][C] == 1 and o.cap[K4] is None and not o.active[C]
        assert len(o.hands[C]) == 4 and o.rt_owner[0] == C
        assert dec == A and not any(a in legal for a in range(o.A_RALLY, o.A_RETREAT))     # no rally
        dec, legal = gen.send(owl5)
        assert o.cap[K4] == A and not o.active[A] and len(o.hands[A]) == 4 and o.rt_owner[0] == C
        assert dec == B and all(a % o.K != K4 for a in legal if a < o.A_RALLY)            # K4 is full
        assert not any(a in legal for a in range(o.A_RALLY, o.A_RETREAT))
        with pytest.raises(StopIteration):
            gen.send(o.A_RETREAT)                                                          # the age ends
    else:
        s = engine.advance(engine_from(o, BEGIN, cur=C))
        assert int(s.dec[0]) == C and int(s.phase[0]) == TURN
        s = engine.step(s, np.array([fox3]))
        assert int(s.ordm[0, K4, C]) == 1 and int(s.cap[0, K4]) == -1 and not s.active[0, C]
        assert int((s.hand[0, C] != s.t.N).sum()) == 4 and int(s.rt_owner[0, 0]) == C
        legal = engine.legal_actions(s)[0]
        assert int(s.dec[0]) == A and not legal[s.t.A_RALLY:s.t.A_RETREAT].any()
        s = engine.step(s, np.array([owl5]))
        assert int(s.cap[0, K4]) == A and not s.active[0, A] and int(s.rt_owner[0, 0]) == C
        legal = engine.legal_actions(s)[0]
        assert int(s.dec[0]) == B and not legal[K4:s.t.A_RALLY:s.t.K].any()
        assert not legal[s.t.A_RALLY:s.t.A_RETREAT].any()
        s = engine.step(s, np.array([s.t.A_RETREAT]))                                     # the age ends
        assert int(s.phase[0]) == COUNCIL and int(s.dec[0]) == A       # scored; A may move K4's capital marker
        s = engine.step(s, np.array([s.t.A_NO]))
        assert int(s.age[0]) == 1


# ---- 10.6 start player of a new age -------------------------------------------------------------------

@pytest.mark.parametrize("impl", ["oracle", "engine"])
def test_example_10_6_new_age_start_player(impl):
    """10.6: AK-R50, AK-R51, AK-A34: B and C tied last; C claimed a capital earlier and starts."""
    sc = {"config": {"players": 4}, "age_start": A, "points": {"first": {A: 14, B: 9, C: 9, D: 12}},
          "cap_turn": {C: 17, B: 23}}
    o = oracle_from(sc)
    if impl == "oracle":
        start = o.new_age_start()
    else:
        start = int(new_age_start(engine_from(o, BEGIN), np.array([0]))[0])
    assert start == C
    assert [(start + i) % 4 for i in range(4)] == [C, D, A, B]


# ---- 10.7 end of game and the final tie-break ---------------------------------------------------------

def test_example_10_7_final_tiebreak(tmp_path):
    """10.7: AK-E23, AK-E24, AK-E25, AK-E26, AK-E27, AK-E28, AK-A35 (through score_position)."""
    position = {
        "players": [{"name": "A", "first": 48, "retreat_tiles": [2]},
                    {"name": "B", "first": 45, "retreat_tiles": [4], "modifiers": 1},
                    {"name": "C", "first": 44, "retreat_tiles": [5]}],
        # every ordinary territory taken (a capital is claimed last, AK-R14), each kingdom by its
        # capital's holder alone and no first-place tile left: the age scoring adds nothing
        "kingdoms": {"K6": {"capital": "A", "ordinary": {"A": 5}, "tiles": []},
                     "K7": {"capital": "B", "ordinary": {"B": 6}, "tiles": []},
                     "K8": {"capital": "C", "ordinary": {"C": 7}, "tiles": []}}}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(position))
    rows = GAME.score_position(path)
    assert [r["score"] for r in rows] == [50, 50, 49]
    assert [r["rank"] for r in rows] == [2, 1, 3]
    assert [r["win_share"] for r in rows] == [0.0, 1.0, 0.0]
    assert [r["score_retreat"] for r in rows] == [2, 4, 5] and [r["score_modifiers"] for r in rows] == [0, 1, 0]


def test_example_10_7_on_the_oracle():
    """10.7 on the oracle's outcome: track + tiles + modifiers; the larger capital breaks the tie."""
    o = oracle_from({"config": {"players": 3}, "points": {"first": {A: 48, B: 45, C: 44}}, "mods": {B: 1},
                     "retreat_tiles": [4, 5, 2, 3], "rt_owner": [B, C, A],
                     "capital": {"K6": A, "K7": B, "K8": C}})
    out = o.outcome()
    assert out["score"] == [50, 50, 49] and out["rank"] == [2, 1, 3]


# ---- 10.8 robot placement -----------------------------------------------------------------------------

def example_10_8():
    H, R = 0, 1
    return {"config": {"players": 1, "robot_level": "normal", "robot_bonus_effect": "extra_play"},  # the spec's AK-A39
            "age_start": H, "human_last": K6,
            "bonus": ["Eagle 5"],
            "ordinary": {"K4": {H: 1}, "K5": {R: 2}, "K6": {H: 2, R: 1}, "K7": {H: 2, R: 4}, "K8": {H: 1, R: 1}},
            "hands": {H: ["Bear 1", "Bear 2", "Bear 3", "Bear 4"]},
            "deck": ["Hare 5", "Owl 2", "Lion 7", "Wolf 1", "Wolf 2"]}


@pytest.mark.parametrize("impl", ["oracle", "engine"])
def test_example_10_8_robot_placement(impl):
    """10.8: AK-V6, AK-V7, AK-V8, AK-V9, AK-V10, AK-V11, AK-V12, AK-V13, AK-V14, AK-A37, AK-A38, AK-A39."""
    H, R = 0, 1
    o = oracle_from(example_10_8())
    if impl == "oracle":
        o.robot_turn()
        first = [[o.ordm[k][H], o.ordm[k][R]] for k in range(5)]
        o.human_last = K8
        o.ordm[K8][H] += 1
        o.robot_turn()
        second = [[o.ordm[k][H], o.ordm[k][R]] for k in range(5)]
        cols = [[o.ct.cards[c].name for c in col] for col in o.columns]
    else:
        s = engine.advance(engine_from(o, BEGIN, cur=R))      # the robot's turn, then the human's decision
        assert int(s.phase[0]) == TURN and int(s.dec[0]) == H
        first = s.ordm[0][:, :2].tolist()
        s.human_last[0] = K8
        s.ordm[0, K8, H] += 1
        s.cur[0] = H
        s.phase[0] = 5                                       # NEXT: pass the turn back to the robot
        s = engine.advance(s)
        second = s.ordm[0][:, :2].tolist()
        cols = [[o.ct.cards[int(c)].name for c in s.col[0, k, :int(s.clen[0, k])]] for k in range(5)]
    assert first == [[1, 0], [0, 2], [2, 3], [2, 4], [1, 1]]      # Hare 5 and the extra Owl 2 both in K6
    assert second == [[1, 0], [0, 2], [2, 3], [2, 4], [2, 2]]     # Lion 7 skips K7, goes to K8
    assert cols[K6] == ["Hare 5", "Owl 2"] and cols[K8] == ["Lion 7"]


def test_done_phase_constant_is_terminal():
    assert DONE > TURN and GAME.done(engine_from(oracle_from({"config": {"players": 2}}), DONE)).all()
    assert kingdom(oracle_from({}).ct, "K8") == K8
