"""The Red Rising plans on small hand-made positions where the right choice is clear
(default deck; ``deal.arrange`` lays out one turn of seat 0 in a four-player game):

* a banish takes the card left for the opponents, not the one the plan is about to take;
* a move does not put the plan's best card out of its own reach (onto the location it just
  deployed to);
* an optional trade is declined when it loses points and taken when it gains;
* an optional card gain is declined when it would cost a hand penalty worth more than the card;
* a worthless card turned over by the die covers the best card left for the opponents;
* a good card placed from the deck goes where the plan then takes it.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.core import rng
from sim.games.red_rising import actions as A
from sim.games.red_rising import deal
from sim.games.red_rising import zones
from sim.games.red_rising.config import Config
from sim.games.red_rising.content import load_content
from sim.games.red_rising.game import GAME
from strategies import registry
from strategies.base import StrategyRng
from strategies.red_rising import _card_tables

PLANS = ("rr_fleet_rush", "rr_helium_influence", "rr_end_bonus", "rr_balanced")
CONFIG = Config(players=4)
CONTENT = load_content(CONFIG)
ID = {c.id: c.index for c in CONTENT.cards}
NAMES = A.action_names([c.id for c in CONTENT.cards])
JUNK_DECK = ["GOL-1", "BLU-1", "COP-1", "RED-1", "SIL-1", "VIO-1"]     # core 0 or 1
HOUSES = ["Diana", "Mars", "Jupiter", "Minerva"]


def position(hand, locations, deck=JUNK_DECK, **kw):
    """Seat 0 to play, in two copies of one game (the plans' compiled code is typed for batches;
    game 0's choices are played in both)."""
    s = GAME.init(CONFIG, CONTENT, np.arange(2), 1)
    for g in range(2):
        deal.arrange(s, g, player=0, deck=deck, locations=locations, hands=[hand, [], [], []], sovereign=-1,
                     houses=HOUSES, **kw)
    return s


def step(s, name):
    action = NAMES.index(name)
    assert GAME.legal_actions(s)[:, action].all(), (name, A.DECISION_KINDS[int(s.kind[0])])
    return GAME.step(s, np.full(2, action))


def play_turn(plan_name, s, forced=(), params=None):
    """The forced actions, then the plan's choices until seat 0's turn is over; the choices made."""
    for name in forced:
        s = step(s, name)
    plan = registry.make(plan_name, {"noise": 0.0, **(params or {})}, GAME, CONTENT)
    keys = rng.stream_keys(3, np.arange(2), "test")
    made = []
    turns = int(s.turns[0])
    while int(s.turns[0]) == turns and not s.done[0]:
        decider = GAME.decider(s)
        assert (decider == 0).all()
        a = plan.act(GAME.observe(s, decider), GAME.legal_actions(s), StrategyRng(keys, np.full(2, len(made))))
        made.append((A.DECISION_KINDS[int(s.kind[0])], NAMES[a[0]]))
        s = GAME.step(s, np.full(2, a[0]))          # game 0's choice (an exact tie may go either way)
    return s, made


def zone(s, cid):
    return int(s.where[0, ID[cid]])


def force_die(s, *faces):
    """Set the die counters so that the next rolls of both games are ``faces``."""
    cs = np.arange(300_000)
    for g in range(2):
        ok = np.ones(cs.size, dtype=bool)
        for i, f in enumerate(faces):
            ok &= rng.integers(s.key_die[g:g + 1], cs + i, 6) + 1 == f
        s.die_c[g] = cs[np.argmax(ok)]


@pytest.mark.parametrize("name", PLANS)
def test_banish_takes_the_card_left_for_the_opponents_RR_R5_R6_R7_R44_R63(name):
    """Orange 3 (deploy: you may banish the top card of another location) deployed on Jupiter.
    Mars shows Red 8 (29), the Institute Copper 7 (22), Luna a 1. The plan may take one card in
    its gain step (not from Jupiter, RR-R63): it banishes Copper 7, the best card it leaves the
    opponents, and takes Red 8. (Before: it banished the card it valued most, Red 8.)"""
    s = position(["ORA-3"], [["GRN-1"], ["SIL-1", "RED-8"], ["VIO-1", "YEL-1"], ["ORA-1", "COP-7"]])
    s, made = play_turn(name, s, ["lead", "card:ORA-3", "loc:Jupiter"])
    assert made[0] == ("optional", "yes")
    assert zone(s, "COP-7") == zones.BANISHED
    assert zone(s, "RED-8") == zones.HAND0


@pytest.mark.parametrize("name", PLANS)
def test_move_keeps_the_best_card_within_reach_RR_R6_R7_R50_R63(name):
    """Orange 4 (deploy: you may move the top card of another location onto this one) deployed on
    Jupiter, where the plan may not take a card this turn (RR-R63). Red 8 (29) on Mars is the
    best card in reach: the plan does not move it onto Jupiter (for the opponents) but takes it.
    (Before: it moved its best card onto Jupiter.)"""
    s = position(["ORA-4"], [["GRN-1"], ["SIL-1", "RED-8"], ["VIO-1", "YEL-1"], ["ORA-1", "COP-1"]])
    s, made = play_turn(name, s, ["lead", "card:ORA-4", "loc:Jupiter"])
    assert zone(s, "RED-8") == zones.HAND0
    assert made[-1] == ("gain", "loc:Mars")


@pytest.mark.parametrize("name", PLANS)
def test_optional_trade_declined_when_it_loses_points_RR_R6_R65_E11_E13(name):
    """Orange 5 (deploy: you may pay 2 helium for 1 influence cube and 1 fleet step). With the
    fleet ship on space 0 (1 point for the step) and far behind on the Institute (a cube there
    is third place, 1 point, RR-E13) the trade pays 6 points (RR-E11) for about 2: every plan
    says no. On space 4 (the step is worth 5) and leading the Institute, it says yes."""
    locations = [["GRN-1"], ["SIL-1", "GOL-1"], ["VIO-1", "YEL-1"], ["ORA-1", "COP-1"]]
    s = position(["ORA-5"], locations, helium=[2, 0, 0, 0], fleet=[0, 0, 0, 0], cubes=[0, 6, 5, 0])
    s, made = play_turn(name, s, ["lead", "card:ORA-5", "loc:Jupiter"])
    assert made[0] == ("optional", "no")
    assert s.helium[0, 0] >= 2
    s = position(["ORA-5"], locations, helium=[2, 0, 0, 0], fleet=[4, 0, 0, 0], cubes=[3, 2, 1, 0])
    s, made = play_turn(name, s, ["lead", "card:ORA-5", "loc:Jupiter"])
    assert made[0] == ("optional", "yes")


@pytest.mark.parametrize("name", PLANS)
def test_optional_card_gain_declined_when_the_hand_penalty_costs_more_RR_E16_R6(name):
    """Orange 1 (deploy: you may take the top card of another location if it is Yellow). With
    seven cards in hand, deploying Orange 1 leaves six; the gain step takes a seventh, so the
    Yellow card would be the eighth: 10 points of hand penalty (RR-E16) for a card worth less.
    The plan declines; with four cards in hand it takes the card."""
    filler = ["RED-7", "BLU-8", "SIL-8", "VIO-8", "COP-8", "ORA-8"]
    locations = [["GRN-1"], ["SIL-1", "YEL-1"], ["VIO-1", "GOL-1"], ["ORA-1", "COP-1"]]
    core, pair, _ = _card_tables(CONTENT)
    both = pair + pair.T
    hand = [ID[c] for c in filler]
    assert core[ID["YEL-1"]] + both[hand, ID["YEL-1"]].sum() < CONFIG.hand_penalty    # worth less than 10
    s = position(["ORA-1"] + filler, locations)
    s, made = play_turn(name, s, ["lead", "card:ORA-1", "loc:Jupiter"])
    assert made[0] == ("optional", "no")
    assert s.hand_n[0, 0] == CONFIG.hand_limit
    s = position(["ORA-1"] + filler[:3], locations)
    s, made = play_turn(name, s, ["lead", "card:ORA-1", "loc:Jupiter"])
    assert made[0] == ("optional", "yes")


@pytest.mark.parametrize("name", PLANS)
def test_worthless_card_turned_by_the_die_covers_the_best_card_RR_R8_R22_R24(name):
    """Gain option B (the deck) rolls face 2: the next deck card (Orange 1, worth 0) is turned over
    and placed on a location of the plan's choice (RR-R22, RR-R24). The plan's turn is over: it
    covers Red 8, the best card the opponents could take next. (Before: a random location.)"""
    s = position([], [["GRN-1", "COP-1"], ["SIL-1", "GOL-1"], ["VIO-1", "RED-8"], ["YEL-1", "BLU-1"]],
                 deck=["SIL-8", "ORA-1"] + JUNK_DECK)
    force_die(s, 2)
    s, made = play_turn(name, s, ["lead", "deck"])
    assert made == [("place_location", "loc:Luna")]
    assert s.top[0, 2] == ID["ORA-1"]


@pytest.mark.parametrize("name", PLANS)
def test_card_placed_from_the_deck_goes_where_the_plan_takes_it_RR_R7_R19_R50(name):
    """Orange 7 (deploy: place the top deck card on another location) deployed on Jupiter; the deck
    card is Red 8 (29). The plan places it where it takes it in its gain step, on Luna (the
    Sovereign, RR-R19), and takes it there. (Before: a random location.)"""
    s = position(["ORA-7"], [["GRN-1"], ["SIL-1", "GOL-1"], ["VIO-1", "YEL-1"], ["ORA-1", "COP-1"]],
                 deck=["RED-8"] + JUNK_DECK)
    s, made = play_turn(name, s, ["lead", "card:ORA-7", "loc:Jupiter"])
    assert made[0] == ("place_location", "loc:Luna")
    assert zone(s, "RED-8") == zones.HAND0 and s.sovereign[0] == 0
