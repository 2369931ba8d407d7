"""The assumption switches of spec section 8 (8.14's ambiguities): defaults and alternatives,
each on the oracle and the engine. (The cross-check test plays every switch in random games.)"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.animal_kingdoms import engine
from sim.games.animal_kingdoms.config import Config
from sim.games.animal_kingdoms.game import GAME
from sim.games.animal_kingdoms.state import BEGIN, TURN
from tests.test_animal_kingdoms_support import (
    card, content_for, engine_from, oracle_from, play_random, score_with_engine, score_with_oracle,
)

A, B, C = 0, 1, 2
K4, K5, K6, K7, K8 = 0, 1, 2, 3, 4
ALL_K = ("K4", "K5", "K6", "K7", "K8")


def legal_both(sc, seat):
    o = oracle_from(sc)
    legal = np.zeros(o.A, dtype=bool)
    legal[o.turn_legal(seat)] = True
    e = engine.legal_actions(engine_from(oracle_from(sc), TURN, cur=seat))[0]
    assert np.array_equal(legal, e)
    return o, legal


def test_retreat_is_always_legal_AK_A15_and_forced_AK_A10():
    """AK-A15: retreat is legal even when claims and rallies are; with voluntary_retreat =
    forced_only, only when nothing else is (AK-A10: an empty hand cannot rally and must retreat)."""
    sc = {"config": {"players": 2}, "hands": {A: ["Bear 2", "Bear 4"]}, "decrees": {k: "DC01" for k in ALL_K}}
    o, legal = legal_both(sc, A)
    assert legal[o.A_RETREAT] and legal[:o.A_RALLY].any() and legal[o.A_RALLY:o.A_RETREAT].any()
    sc["config"]["voluntary_retreat"] = "forced_only"
    o, legal = legal_both(sc, A)
    assert not legal[o.A_RETREAT]
    sc["hands"] = {A: []}
    o, legal = legal_both(sc, A)
    assert legal.sum() == 1 and legal[o.A_RETREAT]


@pytest.mark.parametrize("mode,after_ban", [("rally_not_allowed", True), ("forced_only", False)])
def test_retreat_by_the_seeds_wording_AK_R32(mode, after_ban):
    """AK-R32 as the seed words it ("wer nicht spielen kann oder will (und nicht rallyen darf),
    zieht sich zurück"), voluntary_retreat = rally_not_allowed: while rallying is allowed a player
    must claim or rally; once someone has retreated (rally ban, AK-R31) a player who could claim
    may retreat instead. forced_only refuses that retreat (AK-A10)."""
    sc = {"config": {"players": 3, "voluntary_retreat": mode}, "hands": {A: ["Bear 2", "Bear 4"]},
          "decrees": {k: "DC01" for k in ALL_K}}
    o, legal = legal_both(sc, A)
    assert not legal[o.A_RETREAT] and legal[:o.A_RALLY].any()
    sc["retreated"] = [B]
    o, legal = legal_both(sc, A)
    assert legal[:o.A_RALLY].any() and not legal[o.A_RALLY:o.A_RETREAT].any()
    assert legal[o.A_RETREAT] == after_ban


def test_rally_details_AK_A17():
    """AK-A17: 1 to all hand cards may be discarded (15 subsets of 4, 3 of 2); subsets are of the hand."""
    sc = {"config": {"players": 2}, "hands": {A: ["Bear 2", "Bear 4", "Bear 6", "Bear 8"]}}
    o, legal = legal_both(sc, A)
    assert legal[o.A_RALLY:o.A_RETREAT].sum() == 15
    sc["hands"] = {A: ["Bear 2", "Bear 4"]}
    o, legal = legal_both(sc, A)
    assert legal[o.A_RALLY:o.A_RETREAT].sum() == 3


@pytest.mark.parametrize("scope,allowed", [("age", True), ("game", False)])
def test_rally_ban_scope_AK_A16(scope, allowed):
    """AK-A16: the rally ban lasts for the current age (default) or the whole game (switch)."""
    sc = {"config": {"players": 2, "rally_ban_scope": scope}, "hands": {A: ["Bear 2"]}}
    o = oracle_from(sc)
    o.retreated_ever, o.retreated_age = True, False          # someone retreated in an earlier age
    legal = np.zeros(o.A, dtype=bool)
    legal[o.turn_legal(A)] = True
    s = engine_from(o, TURN, cur=A)
    assert legal[o.A_RALLY] == allowed == engine.legal_actions(s)[0, o.A_RALLY]


def test_council_spaces_are_not_claimable_AK_A8_AK_A7():
    """AK-A8: claims never go to council spaces; with council_claimable they come before the capital.
    AK-A7: territories of a kind are interchangeable (only counts are kept)."""
    base = {"ordinary": {"K4": {A: 3}}, "hands": {A: ["Bear 1", "Bear 2", "Bear 3", "Bear 5"]},
            "decrees": {k: "DC02" for k in ALL_K}, "deck": ["Wolf 1"]}
    for claimable, where in ((False, "capital"), (True, "council")):
        o = oracle_from({"config": {"players": 2, "council_claimable": claimable}, **base})
        a = o.hands[A].index(card(o.ct, "Bear 1")) * o.K + K4
        s = engine.step(engine_from(oracle_from({"config": {"players": 2, "council_claimable": claimable}, **base}),
                                    TURN, cur=A), np.array([a]))
        assert o.place_marker(A, K4) == where
        assert (int(s.cap[0, K4]) == A) == (where == "capital")
        assert int(s.council[0, K4, A]) == (1 if where == "council" else 0)


def test_turn_direction_is_clockwise_AK_A2():
    """AK-A2: seat j + 1 follows seat j; slots map to seats clockwise from the start slot."""
    s = GAME.init(Config(players=5), content_for(Config(players=5)), np.arange(50), 1)
    slots = GAME.slot_of(s)
    assert ((slots - slots[:, :1]) % 5 == np.arange(5)).all()


def test_shared_first_place_scores_full_tile_once_AK_A30():
    """AK-A30 / AK-E16: players who run out of cards equal share first place, each the full tile."""
    sc = {"config": {"players": 2}, "age": 2, "ordinary": {"K5": {A: 2, B: 2}}, "tiles": {"K5": [6, 7, 8]},
          "hands": {A: ["Bear 5"], B: ["Fox 5"]}}
    o = score_with_oracle(oracle_from(sc), {A: ["Bear 5"], B: ["Fox 5"]})
    assert o.pts["first"] == [6, 6] and o.fp_next[K5] == 1 and o.mods == [0, 0]
    s = score_with_engine(oracle_from(sc), {A: ["Bear 5"], B: ["Fox 5"]})
    assert s.pf[0].tolist() == [6, 6] and int(s.fpn[0, K5]) == 1


@pytest.mark.parametrize("first,seats", [("human", (0, 1)), ("robot", (1, 0))])
def test_solo_first_player_AK_A43(first, seats):
    """AK-A43: the human starts Age I (switch: the robot); the human is always slot 0."""
    cfg = Config(players=1, solo_first_player=first)
    s = GAME.init(cfg, content_for(cfg), np.arange(10), 2)
    human, robot = seats
    assert (GAME.slot_of(s)[:, human] == 0).all() and (GAME.slot_of(s)[:, robot] == 1).all()
    assert ((s.hand[:, human] != 64).sum(axis=1) == 4).all() and (s.dec == human).all()
    if first == "robot":
        assert (s.st_claims[:, robot] >= 1).all()            # it has played before the human's first turn


def test_solo_victory_and_tie_AK_A41():
    """AK-A41: the human wins with strictly more points; a tie goes to the larger capital, then shared."""
    o = oracle_from({"config": {"players": 1}, "points": {"first": {0: 30, 1: 30}}, "capital": {"K8": 1, "K7": 0}})
    assert o.outcome()["win_share"] == [0.0, 1.0]
    o = oracle_from({"config": {"players": 1}, "points": {"first": {0: 30, 1: 30}}})
    assert o.outcome()["win_share"] == [0.5, 0.5]


def test_turn_cap_AK_A44():
    """AK-A44: an age is cut off after max_turns_per_age turns; such games end with end_reason turn_cap."""
    cfg = Config(players=3, max_turns_per_age=6)
    s = play_random(cfg, np.arange(30), seed=1)
    out = GAME.outcome(s)
    assert (out["per_game"]["end_reason"] == "turn_cap").any()
    assert (s.turns <= 18).all()


def test_reshuffle_when_the_deck_runs_out_AK_A18():
    """AK-A18: an empty deck is rebuilt from the discard pile; without the switch hands stay short."""
    sc = {"config": {"players": 2}, "hands": {A: ["Bear 2", "Bear 4"]}, "discard": ["Owl 1", "Owl 2", "Owl 3"]}
    o = oracle_from(sc)
    o.refill(A)
    assert len(o.hands[A]) == 4 and len(o.discard) == 0 and len(o.deck) == 1
    s = engine_from(oracle_from(sc), BEGIN)
    from sim.games.animal_kingdoms import kernel
    kernel.refill(kernel.state_arrays(s), kernel.kernel_tables(s.t)[1], 0, A)
    assert int((s.hand[0, A] != 64).sum()) == 4 and not s.disc[0].any()
    assert [o.ct.cards[c].name for c in o.hands[A] if c >= 0][:2] == ["Bear 2", "Bear 4"]
    sc["config"]["reshuffle_discard_when_empty"] = False
    o = oracle_from(sc)
    o.refill(A)
    assert len(o.hands[A]) == 2


@pytest.mark.parametrize("impl", ["oracle", "engine"])
def test_robot_plays_the_bonus_card_itself_AK_V14(impl):
    """AK-V14 read literally ("Robot-Bonus-Karte spielt er zusätzlich"): robot_bonus_effect =
    play_bonus_card plays the matching bonus card itself (placed like a drawn card, AK-A38); the
    top card of the deck becomes the new bonus card. Spec example 10.8 with this switch."""
    from tests.test_animal_kingdoms_examples import example_10_8
    sc = example_10_8()
    sc["config"]["robot_bonus_effect"] = "play_bonus_card"
    o = oracle_from(sc)
    if impl == "oracle":
        o.robot_turn()
        board = [[o.ordm[k][0], o.ordm[k][1]] for k in range(5)]
        cols = [[o.ct.cards[c].name for c in col] for col in o.columns]
        bonus = [o.ct.cards[b].name for b in o.bonus]
    else:
        s = engine.advance(engine_from(o, BEGIN, cur=1))
        board = s.ordm[0][:, :2].tolist()
        cols = [[o.ct.cards[int(c)].name for c in s.col[0, k, :int(s.clen[0, k])]] for k in range(5)]
        bonus = [o.ct.cards[int(b)].name for b in s.bonus[0] if b < 64]
    assert board == [[1, 0], [0, 2], [2, 3], [2, 4], [1, 1]]
    assert cols[K6] == ["Hare 5", "Eagle 5"] and bonus == ["Owl 2"]


def test_log_names_the_played_bonus_card_AK_V14():
    """The replay log (log.py) says which bonus card the robot played and which replaced it
    (AK-V14 with play_bonus_card): spec example 10.8, Eagle 5 played, Owl 2 the new one."""
    from sim.core.game import take
    from sim.games.animal_kingdoms.log import describe
    from tests.test_animal_kingdoms_examples import example_10_8
    sc = example_10_8()
    sc["config"]["robot_bonus_effect"] = "play_bonus_card"
    before = engine_from(oracle_from(sc), BEGIN, cur=1)
    after = engine.advance(take(before, np.arange(1)))
    lines = describe(before, after, 0)
    assert "  robot played its bonus card Eagle 5; new bonus card Owl 2" in lines
    sc["config"]["robot_bonus_effect"] = "extra_play"
    before = engine_from(oracle_from(sc), BEGIN, cur=1)
    assert not any("bonus card" in line for line in describe(before, engine.advance(take(before, np.arange(1))), 0))
