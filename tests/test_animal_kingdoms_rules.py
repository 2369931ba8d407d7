"""Rule tests of Animal Kingdoms: setup, turns, claims, retreats, councils, new ages, scoring places,
the robot's battles. The spec's worked examples are in test_animal_kingdoms_examples.py."""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.animal_kingdoms import engine
from sim.games.animal_kingdoms.config import Config
from sim.games.animal_kingdoms.game import GAME
from sim.games.animal_kingdoms.observe import observe
from sim.games.animal_kingdoms.state import BEGIN, COUNCIL, NEWAGE, TURN
from sim.games.animal_kingdoms.turns import legal_sets
from tests.test_animal_kingdoms_support import (
    card, content_for, engine_from, oracle_from, play_random, run_oracle, score_with_engine, score_with_oracle,
)

A, B, C, D = 0, 1, 2, 3
K4, K5, K6, K7, K8 = 0, 1, 2, 3, 4


def start(players=4, n=200, seed=11, **config):
    cfg = Config(players=players, **config)
    return GAME.init(cfg, content_for(cfg), np.arange(n), seed)


# ---- setup ----------------------------------------------------------------------------------------

def test_pieces_at_setup_AK_S2_AK_S3_AK_S4_AK_S6_AK_S7_AK_S18():
    """AK-S2 18 markers each, AK-S3/AK-S4/AK-A3 scoring markers at 0, AK-S6 four cards each,
    AK-S7 the rest is the deck, AK-S18 the 18 modifiers in the general supply."""
    s = start(players=4)
    assert (s.supply == 18).all()
    assert (s.pf + s.ps + s.pt + s.pr == 0).all()
    assert ((s.hand != 64).sum(axis=2) == 4).all()
    assert ((s.dend - s.dtop) == 64 - 16).all()
    assert (s.mods == 0).all() and (s.msup == 18).all()


def test_hands_are_hidden_AK_S6():
    """AK-S6: a hand is hidden from the other players: seat 1's observation holds only its own hand."""
    s = start(players=3, n=5)
    obs = observe(s, np.full(5, 1))
    assert (obs.hand == s.hand[:, 1]).all()
    assert not any(np.array_equal(v, s.hand) for v in obs.public.values() if v.shape == s.hand.shape)


def test_decrees_at_setup_AK_S8_AK_S9_AK_S10():
    """AK-S8 shuffled, AK-S9 one face up per kingdom, AK-S10 the other 25 form the decree deck."""
    s = start(n=100)
    assert all(sorted(row) == list(range(30)) for row in s.dorder.tolist())
    assert (s.decree == s.dorder[:, :5]).all()
    assert len({tuple(r) for r in s.decree.tolist()}) > 90            # shuffled per game


def test_first_place_tiles_AK_S11_AK_S12_AK_S13():
    """AK-S11 shuffled, AK-S12 three per kingdom, AK-S13 sorted ascending (leftmost lowest)."""
    s = start(n=100)
    tiles = sorted(content_for(Config()).first_place)
    assert all(sorted(r) == tiles for r in s.fp.reshape(100, -1).tolist())
    assert (np.diff(s.fp, axis=2) >= 0).all()
    assert (s.fpn == 0).all()
    assert len({tuple(r) for r in s.fp[:, 0].tolist()}) > 5


def test_first_retreat_tiles_AK_S14_AK_S15_AK_S16():
    """AK-S14 shuffled, AK-S15 three set aside unseen, AK-S16 the fourth never used."""
    s = start(n=200)
    assert all(sorted(r) == [2, 3, 4, 5] for r in s.rt.tolist())
    assert (s.rt_owner == -1).all()
    assert len(set(s.rt[:, 3].tolist())) == 4                        # any tile may be the unused one
    obs = observe(s, np.zeros(200, dtype=np.int64))
    assert (obs.own_rt == -1).all() and "rt" not in obs.public       # nobody sees them
    end = play_random(Config(players=3), np.arange(40), seed=4)
    handed = GAME.outcome(end)["per_seat"]["score_retreat"].sum(axis=1)
    assert (handed == end.rt[:, :3].sum(axis=1)).all()               # only the three set aside count


def test_start_player_is_random_AK_S17_AK_A4():
    """AK-S17 (AK-A4 uniform random seat); ``first_slot`` makes slot 0 start."""
    s = start(players=4, n=4000)
    counts = np.bincount(s.start_slot, minlength=4)
    assert (np.abs(counts - 1000) < 150).all()
    fixed = start(players=4, n=20, start_player_age1="first_slot")
    assert (fixed.start_slot == 0).all()
    assert (GAME.slot_of(fixed) == np.arange(4)).all()


def test_deck_is_shuffled_and_keyed_by_game_AK_S5():
    """AK-S5: the deck is shuffled; a game's cards do not depend on the batch it is played in."""
    a = start(n=10, seed=3)
    b = GAME.init(Config(), content_for(Config()), np.array([7]), 3)
    assert np.array_equal(a.hand[7], b.hand[0]) and np.array_equal(a.deck[7], b.deck[0])
    assert len({tuple(r) for r in a.hand[:, 0].tolist()}) == 10


# ---- turns ------------------------------------------------------------------------------------------

def rally(s):
    """Rally discarding slot 0 (legal while nobody has retreated)."""
    return np.full(s.batch, s.t.A_RALLY)


def claim_or_retreat(s):
    """The legal claim in the kingdom with the highest ring index, else retreat."""
    legal = engine.legal_actions(s)[:, :s.t.A_RALLY]
    k = np.arange(s.t.A_RALLY) % s.t.K
    best = np.argmax(np.where(legal, k, -1), axis=1)
    return np.where(legal.any(axis=1), best, s.t.A_RETREAT)


def test_turn_order_and_one_action_per_turn_AK_R2_AK_R3():
    """AK-R2 clockwise from the age's start player; AK-R3 one action per turn (turns +1 each)."""
    s = start(players=4, n=50)
    deciders = []
    for i in range(8):
        deciders.append(s.dec.copy())
        assert (s.turns == i + 1).all()
        s = engine.step(s, rally(s))
    assert (np.array(deciders) == np.array([0, 1, 2, 3, 0, 1, 2, 3])[:, None]).all()
    assert (s.pr == 2).all()                                       # AK-R29: +1 per rally


def test_retreated_players_are_skipped_AK_R4_AK_R5_AK_R6_AK_E1():
    """AK-R4 a retreated player's turns are skipped, AK-R5 the others go on, AK-R6/AK-E1 until all retreated."""
    s = start(players=3, n=30)
    s = engine.step(s, np.full(30, s.t.A_RETREAT))                  # seat 0 retreats
    assert (s.dec == 1).all()
    for _ in range(8):
        live = (s.age == 0) & (s.phase == TURN)
        before = s.dec.copy()
        s = engine.step(s, claim_or_retreat(s))
        still = live & (s.age == 0) & (s.phase == TURN)
        expect = np.array([[p for p in (1, 2, 1, 2) if p != b][0] for b in before])
        nobody_else = still & ~s.active[np.arange(30), expect]       # the other one retreated meanwhile
        assert (s.dec[still & ~nobody_else] == expect[still & ~nobody_else]).all()   # AK-R4, AK-R5
        assert (s.dec[still] != 0).all()
    s = start(players=3, n=30)
    for _ in range(2):
        s = engine.step(s, np.full(30, s.t.A_RETREAT))
    assert (s.dec == 2).all() and (s.age == 0).all()                # AK-R6: the last one plays on
    s = engine.step(s, np.full(30, s.t.A_RETREAT))                  # the age ends and is scored (AK-E1)
    assert ((s.age == 1) | (s.phase == COUNCIL)).all()


def test_claim_places_card_last_in_the_column_AK_R11_AK_R12():
    """AK-R11 the card becomes the kingdom's last card; AK-R12/AK-A11 the column keeps every card in order."""
    o = oracle_from({"config": {"players": 2}, "decrees": {k: "DC01" for k in ("K4", "K5", "K6", "K7", "K8")},
                     "columns": {"K5": ["Bear 2", "Wolf 4"]}, "ordinary": {"K5": {B: 2}},
                     "hands": {A: ["Owl 6", "Bear 1", "Bear 3", "Bear 5"]}, "deck": ["Lion 1"]})
    slot = o.hands[A].index(card(o.ct, "Owl 6"))
    s = engine.step(engine_from(o, TURN, cur=A), np.array([slot * 5 + K5]))
    names = [o.ct.cards[int(c)].name for c in s.col[0, K5, :int(s.clen[0, K5])]]
    assert names == ["Bear 2", "Wolf 4", "Owl 6"]
    o.do_turn(A, slot * 5 + K5)
    assert [o.ct.cards[c].name for c in o.columns[K5]] == names


def test_arrow_decrees_are_free_at_the_start_of_an_age_AK_R27_AK_R48():
    """AK-R48 the columns are empty at a new age, so AK-R27 every arrow decree allows any card."""
    s = start(players=3, n=40)
    sets = legal_sets(s, np.arange(40))
    arrow = s.t.dtype[s.decree.astype(np.int64)] != 0
    assert (sets[..., 0][arrow] == np.uint64(0xFFFFFFFFFFFFFFFF)).all()
    assert (s.clen == 0).all()


def test_retreating_keeps_the_hand_AK_R33():
    """AK-R33: the retreating player keeps its hand (face down) for the battles."""
    s = start(players=3, n=20)
    hand = s.hand[:, 0].copy()
    s = engine.step(s, np.full(20, s.t.A_RETREAT))
    assert (s.hand[:, 0] == hand).all() and (~s.active[:, 0]).all()


# ---- councils and new ages -----------------------------------------------------------------------

def council_scenario():
    return {"config": {"players": 3}, "age": 0, "age_start": A, "capital": {"K6": B},
            "ordinary": {"K6": {A: 2, B: 3}}, "tiles": {"K6": [5, 7, 9]},
            "hands": {p: [f"{s} {r}" for r in (1, 2, 3, 4)] for p, s in ((A, "Bear"), (B, "Fox"), (C, "Owl"))},
            "deck": [f"Wolf {r}" for r in range(1, 9)], "retreated": [A, B, C]}


@pytest.mark.parametrize("answer", ["yes", "no"])
def test_council_move_is_optional_AK_R37_AK_R38(answer):
    """AK-R37 after Age I the capital's owner may move it to the council; AK-R38 it is optional."""
    o = oracle_from(council_scenario())
    s = engine.advance(engine_from(o, 6))                       # SCORE: Age I ends here
    assert int(s.phase[0]) == COUNCIL and int(s.dec[0]) == B
    legal = engine.legal_actions(s)[0]
    assert legal[s.t.A_YES] and legal[s.t.A_NO] and legal.sum() == 2
    s = engine.step(s, np.array([s.t.A_YES if answer == "yes" else s.t.A_NO]))
    assert int(s.age[0]) == 1
    assert int(s.council[0, K6, B]) == (1 if answer == "yes" else 0)
    assert int(s.supply[0, B]) == 18 - (1 if answer == "yes" else 0)   # AK-R42: not back in supply


def test_council_marker_stays_and_counts_later_AK_R39_AK_R40_AK_R42():
    """AK-R39 a council marker stays for the rest of the game; AK-R40 it counts in later scorings."""
    o = oracle_from(council_scenario())
    s = engine.advance(engine_from(o, 6))
    s = engine.step(s, np.array([s.t.A_YES]))
    assert int(s.council[0, K6, B]) == 1 and int(s.cap[0, K6]) == -1 and int(s.ordm[0, K6].sum()) == 0
    # Age II ends with one ordinary marker of A in K6: B's council marker ties it, and wins with the capital
    o2 = oracle_from({"config": {"players": 3, "peace": True}, "age": 2, "council": {"K6": [B]},
                      "ordinary": {"K6": {A: 1}}, "tiles": {"K6": [7, 9, 0]}})
    scored = score_with_oracle(o2, {})
    assert scored.pts["first"] == [7, 7, 0]                     # tied, no capital: both full (AK-V3)
    s2 = score_with_engine(oracle_from({"config": {"players": 3}, "age": 2, "council": {"K6": [B, B]},
                                        "ordinary": {"K6": {A: 1}}, "tiles": {"K6": [7, 9, 0]}}), {})
    assert s2.pf[0].tolist() == [0, 7, 0] and s2.ps[0].tolist() == [3, 0, 0]


def test_new_age_resets_AK_R7_AK_R44_AK_R45_AK_R46_AK_R47_AK_R48_AK_R49():
    """AK-R44 markers back except councils, AK-R45 every card but the hands reshuffled, AK-R46 hands
    kept, AK-R47 refilled to 4, AK-R48 columns empty, AK-R49 five new decrees, AK-R7 all active."""
    o = oracle_from({"config": {"players": 3}, "age": 0, "age_start": A, "capital": {"K6": B},
                     "council": {"K5": [C]}, "ordinary": {"K6": {A: 2, B: 3}, "K4": {C: 1}},
                     "columns": {"K6": ["Lion 1", "Lion 2", "Lion 3", "Lion 4", "Lion 5", "Lion 6"],
                                 "K4": ["Lion 7"]},
                     "hands": {A: ["Bear 1", "Bear 2"], B: ["Fox 1", "Fox 2", "Fox 3"], C: []},
                     "deck": ["Wolf 1", "Wolf 2"], "discard": ["Owl 1", "Owl 2"], "retreated": [A, B, C]})
    s = engine_from(o, NEWAGE)
    s.cap[0, K6] = -1                                           # (B kept its capital marker on the board)
    s.ordm[0, K6, B] = 4
    old_decrees = s.decree[0].copy()
    s = engine.advance(s)
    assert int(s.phase[0]) == TURN and int(s.age[0]) == 1
    assert int(s.ordm[0].sum()) == 0 and int(s.cap[0].max()) == -1
    assert int(s.council[0, K5, C]) == 1 and s.supply[0].tolist() == [18, 18, 17]
    assert (s.clen[0] == 0).all() and s.active[0].all()
    ct = o.ct
    for p, kept in ((A, ["Bear 1", "Bear 2"]), (B, ["Fox 1", "Fox 2", "Fox 3"])):
        names = [ct.cards[int(c)].name for c in s.hand[0, p]]
        assert set(kept) <= set(names) and len(names) == 4
    assert int((s.hand[0, C] != s.t.N).sum()) == 4
    assert int(s.dend[0] - s.dtop[0]) == 64 - 12                  # every other card is in the new deck
    assert not s.disc[0].any()
    assert (s.decree[0] == s.dorder[0, 5:10]).all() and not np.array_equal(s.decree[0], old_decrees)


# ---- places --------------------------------------------------------------------------------------

@pytest.mark.parametrize("impl", ["oracle", "engine"])
def test_second_and_third_places_AK_E6_AK_E7_AK_E8_AK_E9(impl):
    """AK-E6 second 3, AK-E7 third 1, AK-E8 ties for second / third each score in full; AK-E9 on the track."""
    sc = {"config": {"players": 5}, "age": 2, "ordinary": {"K8": {A: 3, B: 2, C: 2, D: 1, 4: 1}},
          "tiles": {"K8": [9, 9, 9]}}
    if impl == "oracle":
        o = score_with_oracle(oracle_from(sc), {})
        got = o.pts["first"], o.pts["second"], o.pts["third"]
    else:
        s = score_with_engine(oracle_from(sc), {})
        got = s.pf[0].tolist(), s.ps[0].tolist(), s.pt[0].tolist()
    assert got == ([9, 0, 0, 0, 0], [0, 3, 3, 0, 0], [0, 0, 0, 1, 1])


def test_unused_modifiers_score_one_point_AK_E22():
    """AK-E22, AK-E25: a modifier still held at the end is worth 1 point to its owner."""
    o = oracle_from({"config": {"players": 2}, "mods": {A: 2}})
    assert o.outcome()["score_modifiers"] == [2, 0]
    s = engine_from(o, BEGIN)
    from sim.games.animal_kingdoms.scoring import final_sheet
    assert final_sheet(s)["score_modifiers"][0].tolist() == [2, 0]


# ---- the solo robot --------------------------------------------------------------------------------

def test_solo_seats_AK_V5():
    """AK-V5: the solo game is the human against the robot: two seats, the robot an automa."""
    s = start(players=1, n=10)
    out = GAME.outcome(s)["per_seat"]
    assert out["is_automa"].tolist() == [[False, True]] * 10
    assert out["faction"][0].tolist() == ["none", "robot"]
    assert (GAME.slot_of(s) == [0, 1]).all()
    assert ((s.hand[:, 1] != 64).sum(axis=1) == 0).all()       # AK-A37: the robot has no hand


def test_extra_hard_has_two_bonus_cards_AK_V20():
    """AK-V20: at extra hard the robot uses two bonus cards (AK-A42: normal and hard one, easy none)."""
    for level, n in (("easy", 0), ("medium", 0), ("normal", 1), ("hard", 1), ("extra_hard", 2)):
        s = start(players=1, n=5, robot_level=level)
        assert ((s.bonus != 64).sum(axis=1) == n).all()


def solo_battle(level, human_card, deck, mods=0, **config):
    return {"config": {"players": 1, "robot_level": level, **config}, "age": 2, "mods": {0: mods},
            "ordinary": {"K7": {0: 2, 1: 2}}, "tiles": {"K7": [8, 8, 8]},
            "hands": {0: [human_card, "Bear 1", "Bear 2", "Bear 3"]}, "deck": deck}


@pytest.mark.parametrize("level,human,deck,robot_wins", [
    ("normal", "Owl 6", ["Fox 2", "Fox 3", "Fox 7", "Fox 8"], True),     # the third card (7) beats 6
    ("normal", "Owl 6", ["Fox 2", "Fox 3", "Fox 6", "Fox 8"], False),    # equal ranks do not beat (AK-A40)
    ("hard", "Owl 6", ["Fox 2", "Fox 3", "Fox 4", "Fox 8"], True),       # hard: a fourth card (AK-V19)
    ("easy", "Owl 6", ["Fox 2", "Fox 3", "Fox 7", "Fox 8"], False),      # easy: two cards only (AK-A42)
    ("normal", "Owl 8", ["Fox 1", "Fox 2", "Fox 3", "Fox 7"], True),     # a robot 1 beats the human's 8
    ("normal", "Owl 1", ["Fox 8", "Fox 2", "Fox 3", "Fox 7"], True),     # 7 > 1 (the 8 does not beat a 1)
    ("normal", "Owl 1", ["Fox 8", "Fox 1", "Fox 1", "Fox 7"][:1] + ["Lion 1", "Hare 1"], False),
])
@pytest.mark.parametrize("impl", ["oracle", "engine"])
def test_solo_battle_AK_V15_AK_V16_AK_V17_AK_V19(impl, level, human, deck, robot_wins):
    """AK-V15 the human picks 1 of 4, AK-V16 three robot cards revealed, AK-V17 any beating card wins,
    AK-V19 four at hard; AK-A40: a loser takes second place, a losing human a modifier."""
    sc = solo_battle(level, human, deck)
    cards = {0: [human]}
    if impl == "oracle":
        o = score_with_oracle(oracle_from(sc), cards)
        first, second, mods = o.pts["first"], o.pts["second"], o.mods
        hand = len(o.hands[0])
    else:
        s = score_with_engine(oracle_from(sc), cards)
        first, second, mods = s.pf[0].tolist(), s.ps[0].tolist(), s.mods[0].tolist()
        hand = int((s.hand[0, 0] != 64).sum())
    assert first == ([0, 8] if robot_wins else [8, 0])
    assert second == ([3, 0] if robot_wins else [0, 3])
    assert mods == ([1, 0] if robot_wins else [0, 0])
    assert hand == 4                                            # AK-E21: the human draws up to 4


def test_solo_battle_with_a_modifier_AK_V17_AK_A40():
    """AK-A40: the human's modifiers raise its value after the robot's cards are revealed."""
    sc = solo_battle("normal", "Owl 6", ["Fox 2", "Fox 3", "Fox 7", "Fox 8"], mods=1)
    o = score_with_oracle(oracle_from(sc), {0: ["Owl 6"]}, {0: [1]})
    assert o.pts["first"] == [8, 0] and o.mods == [0, 0]
    s = score_with_engine(oracle_from(sc), {0: ["Owl 6"]}, {0: [1]})
    assert s.pf[0].tolist() == [8, 0]


def test_robot_retreats_when_nothing_is_free_AK_A37():
    """AK-A37: the robot retreats when no kingdom has a free territory at the start of its turn."""
    full = {k: 0 for k in ("K4", "K5", "K6", "K7", "K8")}
    o = oracle_from({"config": {"players": 1}, "capital": {k: 0 for k in full}, "deck": ["Fox 4"]})
    o.robot_turn()
    assert not o.active[1] and o.rt_owner[0] == 1
    s = engine.advance(engine_from(oracle_from({"config": {"players": 1}, "capital": {k: 0 for k in full},
                                                "deck": ["Fox 4"]}), BEGIN, cur=1))
    assert not s.active[0, 1] and int(s.rt_owner[0, 0]) == 1


def test_run_oracle_helper_returns_generator_value():
    def gen():
        x = yield (0, [1])
        return x * 2
    assert run_oracle(gen(), lambda d, legal: 21) == 42
