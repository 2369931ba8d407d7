"""The Red Rising engine on hand-made positions, with results worked out from the rules.

Positions are built with ``deal.arrange`` (the documented hook: init, then overwrite one game's
cards and resources and restart the turn). Abilities come from a small test content: the
default tables and Au Toma deck with a custom card list (plain filler cards plus cards that
carry exactly the op under test), so a test does not depend on the synthetic default deck.
Die faces are steered by setting the game's die counter to a value whose keyed rolls are the
faces wanted (the engine itself is untouched).

Test names carry the rule ids of ../shared/specs/red_rising.md they check.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sim.core import rng
from sim.core.game import take
from sim.games.red_rising import actions as A
from sim.games.red_rising import deal, zones
from sim.games.red_rising.config import Config
from sim.games.red_rising.content import load_content
from sim.games.red_rising.content_types import Card, EndBonus, Filter, Op
from sim.games.red_rising.game import GAME
from sim.games.red_rising.state import PILE_AUTOMA, PILE_DECK, pile_cards
from strategies.base import StrategyRng, choose_uniform

BASE = load_content(Config())
COLOURS = BASE.colours
J, M, L, I = range(4)


# ---- test content ------------------------------------------------------------------------------

def op(name, **kw):
    return Op(op=name, **kw)


SPECIAL = {
    # id: (colour, core, dict of Card fields)
    "GAINH": ("Red", 2, {"deploy": (op("gain", resource="helium"),)}),
    "GAINS": ("Red", 4, {"deploy": (op("gain", resource="sovereign"),)}),
    "OPTBAN": ("Blue", 5, {"deploy": (op("banish_location", where="other", optional=True),)}),
    "ANYBAN": ("Blue", 6, {"deploy": (op("banish_location", where="any", position="any"),)}),
    "TAKEEND": ("Red", 1, {"deploy": (op("gain_card", from_="other", filter=Filter(colour=("Pink",)), optional=True),
                                      op("end_turn", when="if_prev_done"))}),
    "ENDTURN": ("Red", 3, {"deploy": (op("end_turn"),)}),
    "MOVESELF": ("Green", 7, {"deploy": (op("move", which="self", to="other"),)}),
    "MOVEBOT": ("Green", 8, {"deploy": (op("move", which="top", from_="other", to="this", to_position="bottom"),)}),
    "CHAIN": ("Green", 3, {"deploy": (op("deploy_another", optional=True), op("gain", resource="fleet"))}),
    "CHAIN2": ("Pink", 9, {"deploy": (op("deploy_another"),)}),
    "TRADE": ("Orange", 8, {"deploy": (op("trade", optional=True, pay=(("helium", 2),),
                                          get=(("influence", 1), ("fleet", 1))),)}),
    "TRADECH": ("Orange", 5, {"deploy": (op("trade", optional=True, pay=(("helium", 1),), get=(("fleet", 1),)),
                                         op("deploy_another", optional=True))}),
    "RECOVER": ("Yellow", 8, {"deploy": (op("recover", to="hand"),)}),
    "REVEAL": ("Violet", 4, {"deploy": (op("reveal_own", filter=Filter(colour=("Gold",)),
                                           then=(op("gain", resource="helium", amount=2),)),)}),
    "STEAL": ("Obsidian", 6, {"deploy": (op("opponent", action="steal"),)}),
    "STEALAC": ("Gold", 6, {"deploy": (op("opponent", action="steal", selection="actor_chooses"),)}),
    "BANHAND": ("White", 6, {"deploy": (op("opponent", action="banish_from_hand", selection="owner_chooses"),)}),
    "REVRAND": ("Blue", 6, {"deploy": (op("opponent", action="reveal_random", then=(
        op("if", cond=("seen_has", Filter(colour=("Gold",))), then=(op("gain", resource="helium"),)),)),)}),
    "REVCH": ("Blue", 7, {"deploy": (op("opponent", action="reveal_choice", then=(
        op("if", cond=("seen_has", Filter(colour=("Gold",))), then=(op("gain", resource="helium"),)),)),)}),
    "LOSE": ("Grey", 3, {"deploy": (op("opponent", action="lose", target="neighbours", resource="influence"),)}),
    "FREE": ("Copper", 6, {"deploy": (op("opponent", action="gain_free", target="each", resource="helium",
                                         blockable=False), op("gain", resource="helium", amount=2))}),
    "FREEDIE": ("Copper", 7, {"deploy": (op("opponent", action="gain_free", target="each", resource="die",
                                            blockable=False),)}),
    "LOOK": ("Red", 12, {"deploy": (op("look_opponent_hand", count=6, then=(
        op("if", cond=("seen_has", Filter(colour=("Red",))), then=(op("gain", resource="influence"),)),)),)}),
    "ROQUE": ("Gold", 12, {"deploy": (op("look_opponent_hand", count=6, automa_shuffle=True),)}),
    "BLOCK": ("Silver", 12, {"block_against": frozenset({"steal", "banish_from_hand"})}),
    "ENDAB": ("White", 15, {"end_ability": (op("gain_card", from_="any", optional=True),)}),
    "ENDAB2": ("White", 14, {"end_ability": (op("gain", resource="helium"),)}),
    "PLACE": ("Brown", 9, {"deploy": (op("place_from_deck", to="other"),)}),
    "ROLL": ("Green", 8, {"deploy": (op("roll_die"),)}),
    "BDECK": ("Brown", 5, {"deploy": (op("banish_deck_top", count=2),)}),
    "RECLOC": ("Yellow", 3, {"deploy": (op("recover", to="other"),)}),
    "TRADESOV": ("Orange", 4, {"deploy": (op("trade", pay=(("helium", 1),), get=(("sovereign", 1), ("fleet", 1))),)}),
    "GOLD": ("Gold", 10, {}),
    "PINK": ("Pink", 0, {}),
    "RED0": ("Red", 0, {"end_bonus": (EndBonus(kind="for_each", points=2, filter=Filter(colour=("Pink",))),)}),
}


def make_content(fillers: int = 60, special=SPECIAL):
    cards = []
    for cid, (colour, core, extra) in special.items():
        cards.append(Card(index=len(cards), id=cid, name=cid, colour=colour, core=core, **extra))
    for i in range(fillers):
        cards.append(Card(index=len(cards), id=f"F{i:02d}", name=f"F{i:02d}", colour=COLOURS[i % len(COLOURS)],
                          core=i % 11))
    return dataclasses.replace(BASE, cards=tuple(cards))


CONTENT = make_content()
ID = {c.id: c.index for c in CONTENT.cards}
NAMES = A.action_names([c.id for c in CONTENT.cards])
F = [f"F{i:02d}" for i in range(60)]


def new(players=2, seed=0, content=CONTENT, **cfg):
    config = Config(players=players, **cfg)
    return GAME.init(config, content, np.arange(1), seed)


def legal(s):
    return [NAMES[a] for a in np.flatnonzero(GAME.legal_actions(s)[0])]


def kind(s):
    return A.DECISION_KINDS[int(GAME.kind(s)[0])]


def play(s, *actions):
    for name in actions:
        assert name in legal(s), f"{name} not legal in {kind(s)}: {legal(s)}"
        s = GAME.step(s, np.array([NAMES.index(name)]))
    return s


def where(s, cid):
    return int(s.where[0, ID[cid]])


def location(s, x):
    """Cards of location x, bottom first."""
    return [CONTENT.cards[c].id for c in pile_cards(s, np.array([0]), x, 80)[0][::-1] if c >= 0]


def force_die(s, *faces):
    """Set the die counter so that the next rolls of game 0 are ``faces``."""
    cs = np.arange(300_000)
    ok = np.ones(cs.size, dtype=bool)
    for i, f in enumerate(faces):
        ok &= rng.integers(s.key_die[:1], cs + i, 6) + 1 == f
    assert ok.any()
    s.die_c[0] = cs[np.argmax(ok)]


def lay(s, **kw):
    """arrange() with filler defaults: a deck of fillers, two fillers per location, no hands."""
    kw.setdefault("deck", F[:10])
    kw.setdefault("locations", [[F[10], F[11]], [F[12], F[13]], [F[14], F[15]], [F[16], F[17]]])
    kw.setdefault("hands", [[] for _ in range(s.seats)])
    return deal.arrange(s, 0, **kw)


# ---- setup --------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_setup_counts_RR_S1_S2_S4_S6_S9_S13_S17(players):
    """RR-S1, RR-S2, RR-S4, RR-S6, RR-S9, RR-S13, RR-S17. RR-S3 (the die's place) has no simulation effect."""
    s = GAME.init(Config(players=players), BASE, np.arange(200), 5)
    seats = 2 if players == 1 else players
    assert s.seats == seats
    s = take(s, np.flatnonzero(s.turns == 0))       # solo: Au Toma may have played turn 1 already
    loc = (s.where >= 0) & (s.where < 4)
    assert (loc.sum(axis=1) == 8).all() and (s.size[:, :4] == 2).all()        # RR-S4
    for p in range(seats):
        n = (s.where == zones.HAND0 + p).sum(axis=1)
        is_auto = s.automa == p
        ceres = np.array([BASE.houses[h].name == "Ceres" if h >= 0 else False for h in s.house[:, p]])
        assert (n == np.where(is_auto, 2, np.where(ceres, 6, 5))).all()        # RR-S6, RR-S17, RR-V8
    assert (s.helium == 0).all() and (s.fleet == 0).all() and (s.cubes == 0).all()  # RR-S10, RR-S13
    assert (s.sovereign == -1).all()                                           # RR-S12
    in_game = (s.where != zones.OUT).sum(axis=1)
    assert (in_game == (107 if players == 1 else 112)).all()                  # RR-S2, RR-V6


def test_houses_distinct_and_apollo_starts_RR_S8_S15_S16_S18():
    """RR-S8, RR-S15, RR-S16, RR-S18."""
    s = GAME.init(Config(players=4), BASE, np.arange(300), 2)
    h = s.house
    assert all(len(set(row)) == 4 for row in h)                               # RR-S8
    names = [x.name for x in BASE.houses]
    apollo = (h == names.index("Apollo")).any(axis=1)
    assert (h[apollo, 0] == names.index("Apollo")).all()                       # RR-S15
    # seats are clockwise from the start slot (RR-S16, RR-S18); without Apollo the start is random
    assert ((s.slot - s.slot[:, :1]) % 4 == np.arange(4)).all()
    assert len(set(s.slot[~apollo, 0])) == 4
    assert (GAME.decider(s) == 0).all()                                        # RR-R1


def test_fixed_houses_and_two_player_neutral_house_RR_S14():
    """RR-S14."""
    s = new(players=2, houses=("Diana", "Mars"))
    s = lay(s, deck=F[:3], hands=[["GAINH"], [F[20]]], cubes=[5, 2], helium=[6, 0], fleet=[7, 0])
    # P0 Leads: GAINH on Jupiter -> helium 7: two thresholds met (RR-E2); gain Mars ... then P1's turn
    s = play(s, "lead", "card:GAINH", "loc:Jupiter")
    assert s.triggered[0]
    s = play(s, "loc:Luna")                       # P0 takes Luna's top: Sovereign
    assert s.cubes[0, 0] == 6                     # Diana's ability (RR-R33)
    s = play(s, "lead", f"card:{F[20]}", "loc:Jupiter", "loc:Mars")  # P1, last of the round
    assert GAME.done(s)[0]
    out = GAME.outcome(s)["per_seat"]
    # influence with the neutral house (3 cubes): P0 6 first -> 24, neutral second, P1 2 third -> 2
    assert out["score_influence"][0].tolist() == [24, 2]


def test_neutral_house_meets_no_threshold_and_is_no_target_RR_A33_RR_S14_E3():
    """RR-A33. Thresholds: P0 meets H (7 helium), P1 F (fleet 7); a neutral house of 10 cubes
    (the ``neutral_cubes`` switch) would meet I, but two scouts at Mars trigger nothing (RR-E3
    counts players only); the same position with P1 at 6 cubes and a scout at The Institute
    does trigger (P1's 7th cube). Target: LOSE (``neighbours``) in a 2-player game takes P1's
    cube, never the neutral house's: at the end P0 5 cubes first (20), the neutral house's 3
    second, P1 1 third (1); had the neutral house lost the cube instead, P1 (2) would tie it for
    second (4)."""
    s = lay(new(players=2, neutral_cubes=10), hands=[[], []], helium=[7, 0], fleet=[0, 7], deck=F[:9])
    s = play(s, "scout", "loc:Mars", "scout", "loc:Mars")
    assert not s.triggered[0]
    s = lay(new(players=2, neutral_cubes=10), hands=[[], []], helium=[7, 0], fleet=[0, 7], cubes=[0, 6], deck=F[:9])
    s = play(s, "scout", "loc:Mars", "scout", "loc:Institute")
    assert s.triggered[0]

    s = new(players=2, houses=("Diana", "Mars"))
    s = lay(s, deck=F[:3], hands=[["LOSE"], [F[20]]], cubes=[5, 2], helium=[6, 0], fleet=[7, 0])
    s = play(s, "lead", "card:LOSE", "loc:Jupiter")
    assert s.cubes[0].tolist() == [5, 1]
    s = play(s, "loc:Mars")                      # Mars's helium: P0 meets H and F (RR-E2)
    assert s.triggered[0]
    s = play(s, "lead", f"card:{F[20]}", "loc:Jupiter", "loc:Mars")  # P1, last of the round
    assert GAME.done(s)[0]
    assert GAME.outcome(s)["per_seat"]["score_influence"][0].tolist() == [20, 1]


def test_solo_setup_RR_V3_V4_V5_V6_V7_V8_V9():
    """RR-V3, RR-V4, RR-V5, RR-V6, RR-V7, RR-V8, RR-V9."""
    s = GAME.init(Config(players=1), BASE, np.arange(300), 9)
    s = take(s, np.flatnonzero(s.turns == 0))       # games where Au Toma has not played yet
    assert (s.automa >= 0).all() and (s.slot[np.arange(s.batch), s.automa] == 1).all()  # RR-V7, slot 1
    for g in range(s.batch):
        assert sorted(s.prio[g].tolist()) == [0, 1, 2, 3]                      # RR-V4
        luna_letter = s.prio[g, L]
        assert s.prio[g, s.luna_bonus[g]] == 3 - luna_letter                   # RR-V5: A-D, B-C
        assert s.luna_bonus[g] != L
    removed = [c.index for c in BASE.cards if c.solo_removed]
    assert len(removed) == 5 and (s.where[:, removed] == zones.OUT).all()       # RR-V6
    assert (s.auto_pos == 4).all() and (s.auto_order >= 0).all()               # RR-V3
    assert all(sorted(row) == list(range(22)) for row in s.auto_order.tolist())
    assert (s.hand_n[np.arange(s.batch), s.automa] == 2).all()                # RR-V8
    on_loc = (s.where < 4)
    odd = ((np.array([c.core for c in BASE.cards]) % 2 == 1) & on_loc).sum(axis=1)
    assert (s.parity == (odd > 4)).all()                                       # RR-V9, RR-R66 (tie EVEN)


def test_readd_variant_keeps_loan_shark_out_RR_V45():
    """RR-V45."""
    s = GAME.init(Config(players=1, solo_readd_removed=True), BASE, np.arange(20), 1)
    out = [BASE.cards[c].name for c in np.flatnonzero(s.where[0] == zones.OUT)]
    assert out == ["Loan Shark"]
    s = GAME.init(Config(players=1, solo_exclude_ceres=True), BASE, np.arange(200), 1)   # RR-V10
    assert not (s.house == [h.name for h in BASE.houses].index("Ceres")).any()


# ---- a turn --------------------------------------------------------------------------------------

def test_turn_actions_and_lead_sequence_RR_R2_R3_R4():
    """RR-R2, RR-R3, RR-R4."""
    s = lay(new(), hands=[["GOLD", "PINK"], [F[20]]])
    assert kind(s) == "action" and legal(s) == ["lead", "scout"]               # RR-R2
    s = play(s, "lead")
    assert kind(s) == "deploy_card" and legal(s) == ["card:GOLD", "card:PINK"]
    s = play(s, "card:GOLD")
    assert kind(s) == "deploy_location" and legal(s) == ["loc:Jupiter", "loc:Mars", "loc:Luna", "loc:Institute"]
    s = play(s, "loc:Mars")
    assert location(s, M)[-1] == "GOLD"                                       # RR-R4: on top
    assert kind(s) == "gain" and "loc:Mars" not in legal(s)                   # RR-R63


def test_deploy_ability_resolves_RR_R5_R40():
    """RR-R5, RR-R40. Abilities are data on the card (RR-R38, RR-R39): the deploy part resolves."""
    s = lay(new(), hands=[["GAINH"], []])
    s = play(s, "lead", "card:GAINH", "loc:Luna")
    assert s.helium[0, 0] == 1 and kind(s) == "gain"


def test_optional_op_asks_yes_no_RR_R6_D4():
    """RR-R6."""
    s = lay(new(), hands=[["OPTBAN"], []])
    s = play(s, "lead", "card:OPTBAN", "loc:Jupiter")
    assert kind(s) == "optional" and legal(s) == ["yes", "no"]
    s2 = play(take(s, [0]), "no")
    assert kind(s2) == "gain" and (s2.where[0] == zones.BANISHED).sum() == 0
    s = play(s, "yes")
    assert kind(s) == "target_location"
    assert legal(s) == ["loc:Mars", "loc:Luna", "loc:Institute"]               # RR-R49: another location
    s = play(s, "loc:Luna")
    assert where(s, F[15]) == zones.BANISHED                                   # RR-R44


def test_gain_from_location_gives_card_and_bonus_RR_R7_R9_R16_R18():
    """RR-R7, RR-R9, RR-R16, RR-R18."""


def test_helium_unlimited_and_no_hand_limit_in_play_RR_S11_R69_A7():
    """RR-S11, RR-R18 and RR-A7 (helium supply unlimited for players: 40 + 1 = 41), RR-R69 (no hand
    limit during play)."""
    s = lay(new(), hands=[[F[20 + i] for i in range(12)], []], helium=[40, 0])
    s = play(s, "lead", f"card:{F[20]}", "loc:Jupiter", "loc:Mars")
    assert s.helium[0, 0] == 41 and s.hand_n[0, 0] == 12
    s = lay(new(), hands=[["GOLD"], []],
            locations=[[F[10]], [F[12], F[13]], [], [F[16]]])
    s = play(s, "lead", "card:GOLD", "loc:Jupiter")
    assert legal(s) == ["loc:Mars", "loc:Institute", "deck"]                   # RR-R9: Luna empty
    s = play(s, "loc:Mars")
    assert where(s, F[13]) == zones.HAND0 and s.helium[0, 0] == 1              # RR-R18


def test_gain_excludes_deploy_location_RR_R63():
    """RR-R63."""
    s = lay(new(), hands=[["GOLD"], []])
    s = play(s, "lead", "card:GOLD", "loc:Institute")
    assert legal(s) == ["loc:Jupiter", "loc:Mars", "loc:Luna", "deck"]


def test_gain_from_deck_rolls_the_die_RR_R8_R23():
    """RR-R8, RR-R23."""
    s = lay(new(), hands=[["GOLD"], []])
    force_die(s, 4)
    s = play(s, "lead", "card:GOLD", "loc:Jupiter", "deck")
    assert where(s, F[0]) == zones.HAND0 and s.helium[0, 0] == 1
    assert GAME.decider(s)[0] == 1


def test_no_gain_possible_is_skipped_RR_R10_A17_R67():
    """RR-R10, RR-A17, RR-R67."""
    s = lay(new(), deck=[], hands=[["GOLD"], []], locations=[[F[10]], [], [], []])
    assert legal(s) == ["lead"]                                                # RR-A16: no scout
    s = play(s, "lead", "card:GOLD", "loc:Jupiter")
    assert GAME.decider(s)[0] == 1 and kind(s) == "action"                     # gain step skipped


def test_scout_places_flipped_card_with_bonus_RR_R11_R12_R13_R14():
    """RR-R11, RR-R12, RR-R13, RR-R14."""
    s = lay(new(), deck=["GAINH", F[0]], hands=[["GOLD"], []])
    s = play(s, "scout")
    assert kind(s) == "scout_location" and s.flipped[0] == ID["GAINH"]         # chosen after seeing it
    s = play(s, "loc:Institute")
    assert location(s, I)[-1] == "GAINH"
    assert s.helium[0, 0] == 0                                                 # RR-R12: no ability
    assert s.cubes[0, 0] == 1                                                  # RR-R13
    assert (s.where[0] == zones.HAND0).sum() == 1                              # RR-R14


def test_location_bonuses_and_limits_RR_R15_R16_R17_R19_R20():
    """RR-R15, RR-R16, RR-R17, RR-R19, RR-R20."""
    s = lay(new(), deck=F[:4], hands=[[], []], fleet=[10, 0], cubes=[0, 10])
    s = play(s, "scout", "loc:Jupiter")                                        # fleet already at the last space
    assert s.fleet[0, 0] == 10
    s = play(s, "scout", "loc:Institute")                                      # all ten cubes placed
    assert s.cubes[0, 1] == 10
    s = play(s, "scout", "loc:Luna")                                           # Luna -> the Sovereign
    assert s.sovereign[0] == 0 and not s.triggered[0]


def test_deck_is_not_a_location_RR_R21():
    """RR-R21."""
    s = lay(new(), hands=[["OPTBAN"], []])
    s = play(s, "lead", "card:OPTBAN", "loc:Jupiter", "yes")
    assert all(a.startswith("loc:") for a in legal(s))


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_die_faces_RR_R22_R24_R25(face):
    """RR-R22, RR-R24, RR-R25."""
    s = lay(new(players=2, houses=("Diana", "Mars")), houses=["Diana", "Mars"], hands=[["ROLL"], []])
    force_die(s, face)
    s = play(s, "lead", "card:ROLL", "loc:Jupiter")
    if face == 1:
        assert kind(s) == "target_location"
        s = play(s, "loc:Mars")
        assert where(s, F[13]) == zones.BANISHED
    elif face == 2:
        assert kind(s) == "place_location" and s.flipped[0] == ID[F[0]]
        s = play(s, "loc:Luna")
        assert location(s, L)[-1] == F[0] and s.sovereign[0] == -1               # RR-R24: no bonus
    elif face == 3:
        assert s.sovereign[0] == 0 and s.cubes[0, 0] == 1                       # RR-R25: Diana's ability
    else:
        assert (s.helium[0, 0], s.fleet[0, 0], s.cubes[0, 0]) == {4: (1, 0, 0), 5: (0, 1, 0), 6: (0, 0, 1)}[face]
    assert kind(s) == "gain"


def test_die_faces_are_equally_likely_RR_A12_R22():
    """RR-A12: each face 1/6. 600 games (each its own die stream, seed 4) in the position above,
    each rolling once (ROLL's deploy ability): the face is read from its bonus (RR-R22: 1 banish
    and 2 place ask a location, 3 the Sovereign, 4 helium, 5 fleet, 6 a cube); the counts pass a
    chi-square test against 100 each at p = 0.001 (below 20.52 for 5 degrees of freedom)."""
    n = 600
    s = GAME.init(Config(players=2, houses=("Diana", "Mars")), CONTENT, np.arange(n), 4)
    for g in range(n):
        deal.arrange(s, g, deck=F[:10], locations=[[F[10], F[11]], [F[12], F[13]], [F[14], F[15]], [F[16], F[17]]],
                     hands=[["ROLL"], []], houses=["Diana", "Mars"], run_turn=False)
    from sim.games.red_rising.engine import run
    s = run(s)
    for name in ("lead", "card:ROLL", "loc:Jupiter"):
        s = GAME.step(s, np.full(n, NAMES.index(name)))
    kinds = np.array([A.DECISION_KINDS[int(k)] for k in GAME.kind(s)])
    face = np.select([kinds == "target_location", kinds == "place_location", s.sovereign == 0,
                      s.helium[:, 0] == 1, s.fleet[:, 0] == 1, s.cubes[:, 0] == 1], [1, 2, 3, 4, 5, 6], 0)
    counts = np.bincount(face, minlength=7)
    assert counts[0] == 0 and counts.sum() == n
    chi2 = float((((counts[1:] - n / 6) ** 2) / (n / 6)).sum())
    assert chi2 < 20.52, counts.tolist()


# ---- the die as data (tables.toml die_faces) ---------------------------------------------------------

ALL_HELIUM = ("helium",) * 6
TWO_SOVEREIGN = ("sovereign", "helium", "sovereign", "fleet", "banish", "fleet")   # no influence face


def with_die(faces, content=CONTENT):
    return dataclasses.replace(content, die_faces=faces)


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_custom_die_every_face_gives_its_bonus_RR_R22_R23(face):
    """RR-R22 as data: with a die of six helium faces, every deck gain gives one helium."""
    s = lay(new(content=with_die(ALL_HELIUM)), hands=[["GOLD"], []])
    force_die(s, face)
    s = play(s, "lead", "card:GOLD", "loc:Jupiter", "deck")
    assert (s.helium[0, 0], s.fleet[0, 0], s.cubes[0, 0], s.sovereign[0]) == (1, 0, 0, -1)
    assert GAME.decider(s)[0] == 1 and kind(s) == "action"


def test_custom_die_sovereign_face_is_any_face_with_that_bonus_RR_R22_R25():
    """RR-R22, RR-R25: face 1 of TWO_SOVEREIGN is a Sovereign face (House Diana's ability follows);
    face 5 banishes (a location choice); printed face 6 is fleet here."""
    s = lay(new(content=with_die(TWO_SOVEREIGN)), houses=["Diana", "Mars"], hands=[["ROLL"], []])
    force_die(s, 1)
    s = play(s, "lead", "card:ROLL", "loc:Jupiter")
    assert s.sovereign[0] == 0 and s.cubes[0, 0] == 1 and kind(s) == "gain"
    s = lay(new(content=with_die(TWO_SOVEREIGN)), houses=["Diana", "Mars"], hands=[["ROLL"], []])
    force_die(s, 5)
    s = play(s, "lead", "card:ROLL", "loc:Jupiter")
    assert kind(s) == "target_location"
    s = lay(new(content=with_die(TWO_SOVEREIGN)), houses=["Diana", "Mars"], hands=[["ROLL"], []])
    force_die(s, 6)
    s = play(s, "lead", "card:ROLL", "loc:Jupiter")
    assert (s.fleet[0, 0], s.cubes[0, 0]) == (1, 0) and kind(s) == "gain"


def test_minerva_rechooses_among_the_non_sovereign_faces_of_the_die_RR_R36_A35():
    """RR-R36, RR-A35 with a custom die: the re-choice comes on any face whose bonus is the Sovereign
    and offers exactly the faces whose bonus is not; a printed face 3 that is not the Sovereign
    is simply gained."""
    s = lay(new(content=with_die(TWO_SOVEREIGN)), houses=["Minerva", "Mars"], hands=[[], []], deck=F[:4])
    force_die(s, 1)
    s = play(s, "scout", "loc:Luna")
    assert kind(s) == "die_face" and legal(s) == ["face:2", "face:4", "face:5", "face:6"]
    s = play(s, "face:4")
    assert s.fleet[0, 0] == 1 and s.sovereign[0] == 0 and GAME.decider(s)[0] == 1
    die = ("banish", "place", "helium", "influence", "fleet", "sovereign")
    s = lay(new(content=with_die(die)), houses=["Minerva", "Mars"], hands=[[], []], deck=F[:4])
    force_die(s, 3)
    s = play(s, "scout", "loc:Luna")
    assert s.helium[0, 0] == 1 and GAME.decider(s)[0] == 1                    # no re-choice
    s = lay(new(content=with_die(die)), houses=["Minerva", "Mars"], hands=[[], []], deck=F[:4])
    force_die(s, 6)
    s = play(s, "scout", "loc:Luna")
    assert kind(s) == "die_face" and legal(s) == ["face:1", "face:2", "face:3", "face:4", "face:5"]
    s = play(s, "face:3")
    assert s.helium[0, 0] == 1


def test_minerva_with_only_sovereign_faces_gains_nothing_RR_R36():
    """RR-R36 with a die of six Sovereign faces: there is no other face to choose, she gains nothing."""
    s = lay(new(content=with_die(("sovereign",) * 6)), houses=["Minerva", "Mars"], hands=[[], []], deck=F[:4])
    c = int(s.die_c[0])
    s = play(s, "scout", "loc:Luna")
    assert s.sovereign[0] == 0 and s.die_c[0] == c + 1
    assert (s.helium[0, 0], s.fleet[0, 0], s.cubes[0, 0]) == (0, 0, 0)
    assert GAME.decider(s)[0] == 1 and kind(s) == "action"


# ---- Sovereign and houses -------------------------------------------------------------------------

@pytest.mark.parametrize("house,expect", [("Diana", (0, 0, 1)), ("Jupiter", (0, 1, 0)), ("Mars", (1, 0, 0))])
def test_house_abilities_each_time_the_token_is_received_RR_R26_R27_R28_R33_R34_R35(house, expect):
    """RR-R26, RR-R27, RR-R28, RR-R33, RR-R34, RR-R35."""
    s = lay(new(), houses=[house, "Ceres"], hands=[[], []], sovereign=0, deck=F[:6])
    s = play(s, "scout", "loc:Luna")                                           # already holding it
    assert s.sovereign[0] == 0
    assert (s.helium[0, 0], s.fleet[0, 0], s.cubes[0, 0]) == expect


def test_apollo_places_the_top_deck_card_RR_R29_R30():
    """RR-R29, RR-R30."""
    s = lay(new(), houses=["Apollo", "Mars"], hands=[[], []], deck=F[:3])
    s = play(s, "scout", "loc:Luna")
    assert kind(s) == "place_location" and s.flipped[0] == ID[F[1]]
    s = play(s, "loc:Mars")
    assert location(s, M)[-1] == F[1] and s.helium[0, 0] == 0                 # no bonus (RR-R15)


@pytest.mark.parametrize("mode", ["top", "any"])
def test_ceres_banishes_from_a_location_RR_R31_A13(mode):
    """RR-R31, RR-A13: "any" (the default, the seed's wording) any card of a location; "top" its top card."""
    from sim.games.red_rising.content import apply_ceres_banish

    cfg = Config(players=2, ceres_banish=mode)
    content = dataclasses.replace(CONTENT, houses=apply_ceres_banish(CONTENT.houses, mode))   # as load_content
    s = lay(GAME.init(cfg, content, np.arange(1), 0), houses=["Ceres", "Mars"], hands=[[], []], deck=F[:4])
    s = play(s, "scout", "loc:Luna")
    if mode == "top":
        assert kind(s) == "target_location" and len(legal(s)) == 4
        s = play(s, "loc:Mars")
        assert where(s, F[13]) == zones.BANISHED
    else:
        assert kind(s) == "target_card" and len(legal(s)) == 9                  # every location card
        s = play(s, f"card:{F[12]}")
        assert where(s, F[12]) == zones.BANISHED and location(s, M) == [F[13]]


def test_minerva_rechooses_the_sovereign_face_RR_R36_A35():
    """RR-R36, RR-A35."""
    s = lay(new(), houses=["Minerva", "Mars"], hands=[[], []], deck=F[:4])
    force_die(s, 3)
    s = play(s, "scout", "loc:Luna")
    assert kind(s) == "die_face" and legal(s) == ["face:1", "face:2", "face:4", "face:5", "face:6"]
    s = play(s, "face:6")
    assert s.cubes[0, 0] == 1 and s.sovereign[0] == 0


# ---- card terms -----------------------------------------------------------------------------------

def test_banished_cards_are_public_and_can_return_RR_R44_R45_R46():
    """RR-R44, RR-R45, RR-R46."""
    s = lay(new(), hands=[["RECOVER"], []], banished=["GOLD", "PINK"])
    obs = GAME.observe(take(s, [0]), np.array([1]))
    assert obs.where[0, ID["GOLD"]] == zones.BANISHED                          # RR-R45
    s = play(s, "lead", "card:RECOVER", "loc:Jupiter")
    assert kind(s) == "target_card" and legal(s) == ["card:GOLD", "card:PINK"]
    s = play(s, "card:PINK")
    assert where(s, "PINK") == zones.HAND0                                      # RR-R46


def test_reveal_own_returns_to_hand_and_unlocks_then_RR_R47_R16_D16():
    """RR-R47, RR-R16."""
    s = lay(new(), hands=[["REVEAL", "GOLD"], []])
    s = play(s, "lead", "card:REVEAL", "loc:Jupiter")
    assert kind(s) == "target_card" and legal(s) == ["card:GOLD"]
    s = play(s, "card:GOLD")
    assert where(s, "GOLD") == zones.HAND0 and s.helium[0, 0] == 2


def test_end_turn_skips_the_gain_step_RR_R48():
    """RR-R48."""
    s = lay(new(), hands=[["ENDTURN"], []])
    s = play(s, "lead", "card:ENDTURN", "loc:Jupiter")
    assert GAME.decider(s)[0] == 1 and s.hand_n[0, 0] == 0
    # if_prev_done: only when the optional take happened
    s = lay(new(), hands=[["TAKEEND"], []], locations=[[], ["PINK"], [], [F[16]]])
    s1 = play(take(s, [0]), "lead", "card:TAKEEND", "loc:Jupiter", "no")
    assert kind(s1) == "gain" and GAME.decider(s1)[0] == 0
    s2 = play(s, "lead", "card:TAKEEND", "loc:Jupiter", "yes", "loc:Mars")
    assert where(s2, "PINK") == zones.HAND0 and s2.helium[0, 0] == 0           # RR-R60: no bonus
    assert GAME.decider(s2)[0] == 1


def test_moved_card_counts_at_its_original_location_RR_R50_R61_R63_example7a():
    """RR-R50, RR-R61, RR-R63."""
    s = lay(new(), hands=[["MOVESELF"], []])
    s = play(s, "lead", "card:MOVESELF", "loc:Luna")
    assert kind(s) == "target_location" and legal(s) == ["loc:Jupiter", "loc:Mars", "loc:Institute"]
    s = play(s, "loc:Mars")
    assert location(s, M)[-1] == "MOVESELF"
    assert legal(s) == ["loc:Jupiter", "loc:Mars", "loc:Institute", "deck"]       # Luna excluded


def test_move_to_the_bottom_is_not_a_deploy_RR_R50():
    """RR-R50."""
    s = lay(new(), hands=[["MOVEBOT"], []])
    s = play(s, "lead", "card:MOVEBOT", "loc:Jupiter")
    assert legal(s) == ["loc:Mars", "loc:Luna", "loc:Institute"]
    s = play(s, "loc:Mars", "loc:Jupiter")
    assert location(s, J) == [F[13], F[10], F[11], "MOVEBOT"]
    assert "loc:Mars" in legal(s)                                               # Mars was not deployed to


def test_deploy_another_chain_and_one_gain_RR_R62_R63_A22_example7b():
    """RR-R62, RR-R63, RR-A22."""
    s = lay(new(), hands=[["CHAIN", "GAINH", "GOLD"], []])
    s = play(s, "lead", "card:CHAIN", "loc:Jupiter", "yes")
    assert kind(s) == "target_card" and legal(s) == ["card:GAINH", "card:GOLD"]
    s = play(s, "card:GAINH")
    assert kind(s) == "target_location"
    s = play(s, "loc:Institute")
    assert s.helium[0, 0] == 1 and s.fleet[0, 0] == 1          # chained ops first, then the rest
    assert kind(s) == "gain" and legal(s) == ["loc:Mars", "loc:Luna", "deck"]


@pytest.mark.parametrize("recursive", [True, False])
def test_chained_deploy_recursion_switch_A22(recursive):
    """RR-A22."""
    s = lay(new(chain_deploy_recursive=recursive), hands=[["CHAIN2", "CHAIN", "GOLD"], []])
    s = play(s, "lead", "card:CHAIN2", "loc:Jupiter", "card:CHAIN", "loc:Mars")
    if recursive:
        assert kind(s) == "optional"
        s = play(s, "yes", "card:GOLD", "loc:Luna")
    assert kind(s) == "gain" and s.fleet[0, 0] == 1


def test_long_deploy_chain_grows_the_frame_stack_A22():
    """RR-A22: a chain of twelve deploy_another cards (deeper than the initial frame stack)."""
    chain = {f"CH{i}": ("Green", i, {"deploy": (op("deploy_another"),)}) for i in range(12)}
    content = make_content(special=chain)
    s = GAME.init(Config(players=2), content, np.arange(1), 0)
    hands = [[f"CH{i}" for i in range(12)] + ["F00"], []]
    s = deal.arrange(s, 0, deck=["F01", "F02"], hands=hands, locations=[["F03"], [], [], []])
    names = A.action_names([c.id for c in content.cards])
    steps = ["lead"] + sum(([f"card:CH{i}", "loc:Mars"] for i in range(12)), []) + ["card:F00", "loc:Luna"]
    for name in steps:
        s = GAME.step(s, np.array([names.index(name)]))
    assert s.frame.shape[1] >= 13 and A.DECISION_KINDS[s.kind[0]] == "gain"
    assert np.flatnonzero(s.legal[0]).tolist() == [names.index("loc:Jupiter"), names.index("deck")]


def test_card_whose_ability_cannot_resolve_is_still_deployed_RR_R64_A20():
    """RR-R64, RR-A20."""
    s = lay(new(), hands=[["RECOVER"], []])
    s = play(s, "lead", "card:RECOVER", "loc:Jupiter")
    assert location(s, J)[-1] == "RECOVER" and kind(s) == "gain"


@pytest.mark.parametrize("limit", ["per_ability", "per_turn_total"])
def test_trade_once_per_turn_RR_R65_A21(limit):
    """RR-R65, RR-A21: a trade op resolves at most once per turn; per_turn_total: one trade in all."""
    s = lay(new(trade_limit=limit), hands=[["TRADE", "GOLD"], []], helium=[6, 0])
    s = play(s, "lead", "card:TRADE", "loc:Jupiter", "yes")
    assert (s.helium[0, 0], s.cubes[0, 0], s.fleet[0, 0]) == (4, 1, 1)
    assert kind(s) == "gain"
    s = lay(s, hands=[["TRADECH", "TRADE"], []], helium=[6, 0], cubes=[0, 0], fleet=[0, 0], player=0)
    s = play(s, "lead", "card:TRADECH", "loc:Jupiter", "yes")                  # its own trade
    assert (s.helium[0, 0], s.fleet[0, 0]) == (5, 1)
    s = play(s, "yes", "card:TRADE", "loc:Mars")                               # chained: another card
    if limit == "per_ability":
        assert kind(s) == "optional"
        s = play(s, "yes")
        assert (s.helium[0, 0], s.cubes[0, 0], s.fleet[0, 0]) == (3, 1, 2)
    else:
        assert kind(s) == "gain" and s.helium[0, 0] == 5                       # the second trade is skipped


def test_zero_is_even_for_the_odd_even_card_RR_R66_RR_V9_example9():
    """RR-R66, RR-V9."""
    cores = {"C4": 4, "C7": 7, "C0": 0, "C9": 9, "C12": 12, "C3": 3, "C5": 5, "C10": 10}
    content = make_content(special={k: ("Red", v, {}) for k, v in cores.items()})
    s = GAME.init(Config(players=1), content, np.arange(1), 0)
    s = deal.arrange(s, 0, deck=["F00", "F01"], hands=[[], []], run_turn=False,
                     locations=[["C4", "C7"], ["C0", "C9"], ["C12", "C3"], ["C5", "C10"]])
    assert deal.odd_even(s, np.array([0]))[0] == 0                          # 4 odd, 4 even -> EVEN
    s = deal.arrange(s, 0, deck=["F02"], hands=[[], []], run_turn=False,
                     locations=[["C4", "C7"], ["C3", "C9"], ["C12", "C5"], ["F01", "C10"]])
    assert deal.odd_even(s, np.array([0]))[0] == 1                          # 5 odd (F01 = 1) -> ODD


def test_empty_hand_lead_only_gains_RR_R68():
    """RR-R68."""
    s = lay(new(), hands=[[], []])
    s = play(s, "lead")
    assert kind(s) == "gain" and legal(s) == ["loc:Jupiter", "loc:Mars", "loc:Luna", "loc:Institute", "deck"]


def test_banish_deck_top_and_place_from_deck_A16():
    """RR-A16."""
    s = lay(new(), deck=[F[0], F[1], F[2]], hands=[["BDECK", "PLACE"], []])
    s = play(s, "lead", "card:BDECK", "loc:Jupiter")
    assert where(s, F[0]) == zones.BANISHED and where(s, F[1]) == zones.BANISHED
    s = lay(s, deck=[F[0]], hands=[["PLACE"], []], player=0)
    s = play(s, "lead", "card:PLACE", "loc:Mars")
    assert kind(s) == "place_location" and legal(s) == ["loc:Jupiter", "loc:Luna", "loc:Institute"]
    s = play(s, "loc:Luna")
    assert kind(s) == "gain" and "deck" not in legal(s)                         # the deck ran out


def test_recover_to_a_location_RR_R46():
    """RR-R46: a banished card comes back through an ability, here onto another location."""
    s = lay(new(), hands=[["RECLOC"], []], banished=["GOLD"])
    s = play(s, "lead", "card:RECLOC", "loc:Jupiter", "card:GOLD")
    assert kind(s) == "target_location" and legal(s) == ["loc:Mars", "loc:Luna", "loc:Institute"]
    s = play(s, "loc:Luna")
    assert location(s, L)[-1] == "GOLD" and s.sovereign[0] == -1            # placed, no bonus


def test_trade_gets_in_order_with_the_sovereign_RR_R27_A21():
    """RR-R27 inside a trade (RR-A21): the token, the house ability, then the next get."""
    s = lay(new(), houses=["Diana", "Mars"], hands=[["TRADESOV"], []], helium=[1, 0])
    s = play(s, "lead", "card:TRADESOV", "loc:Jupiter")
    assert (s.helium[0, 0], s.sovereign[0], s.cubes[0, 0], s.fleet[0, 0]) == (0, 0, 1, 1)
    s = lay(s, houses=["Apollo", "Mars"], hands=[["GAINS"], []], helium=[0, 0], cubes=[0, 0], sovereign=1)
    s = play(s, "lead", "card:GAINS", "loc:Mars")
    assert s.sovereign[0] == 0 and kind(s) == "place_location"               # Apollo's ability


# ---- opponents -----------------------------------------------------------------------------------

def test_steal_random_and_block_RR_R42_A28_D15():
    """RR-R42, RR-A28."""
    s = lay(new(), hands=[["STEAL"], ["GOLD", "BLOCK"]])
    s = play(s, "lead", "card:STEAL", "loc:Jupiter")
    assert kind(s) == "target_opponent" and legal(s) == ["opp:+1"]
    s = play(s, "opp:+1")
    assert kind(s) == "block" and GAME.decider(s)[0] == 1 and legal(s) == ["no", "card:BLOCK"]
    blocked = play(take(s, [0]), "card:BLOCK")
    assert where(blocked, "BLOCK") == zones.HAND0 + 1 and blocked.hand_n[0, 1] == 2
    s = play(s, "no")
    assert s.hand_n[0].tolist() == [1, 1]


def test_actor_chooses_steal_sees_the_matching_cards_RR_A31():
    """RR-A31."""
    s = lay(new(), hands=[["STEALAC"], ["GOLD", "PINK"]])
    s = play(s, "lead", "card:STEALAC", "loc:Jupiter", "opp:+1")
    assert kind(s) == "target_card" and GAME.decider(s)[0] == 0
    assert legal(s) == ["card:GOLD", "card:PINK"]
    obs = GAME.observe(take(s, [0]), np.array([0]))
    assert obs.where[0, ID["GOLD"]] == zones.HAND0 + 1
    s = play(s, "card:PINK")
    assert where(s, "PINK") == zones.HAND0


def test_owner_chooses_banish_from_hand():
    s = lay(new(), hands=[["BANHAND"], ["GOLD", "PINK"]])
    s = play(s, "lead", "card:BANHAND", "loc:Jupiter", "opp:+1")
    assert GAME.decider(s)[0] == 1 and kind(s) == "target_card"
    s = play(s, "card:GOLD")
    assert where(s, "GOLD") == zones.BANISHED


def test_lose_neighbours_and_free_gains_D17():
    s = lay(new(players=3), hands=[["LOSE"], [], []], cubes=[0, 3, 0])
    s = play(s, "lead", "card:LOSE", "loc:Jupiter")
    assert s.cubes[0].tolist() == [0, 2, 0]                                      # only the eligible one
    s = lay(new(players=3), hands=[["FREE"], [], []])
    s = play(s, "lead", "card:FREE", "loc:Jupiter")
    assert kind(s) == "accept" and GAME.decider(s)[0] == 1
    s = play(s, "yes")
    assert GAME.decider(s)[0] == 2
    s = play(s, "no")
    assert s.helium[0].tolist() == [2, 1, 0]


def test_free_die_bonus_for_a_player_makes_its_own_choices():
    s = lay(new(players=2), hands=[["FREEDIE"], []])
    force_die(s, 1)
    s = play(s, "lead", "card:FREEDIE", "loc:Jupiter", "yes")
    assert kind(s) == "target_location" and GAME.decider(s)[0] == 1


def test_reveal_random_then_seen_has():
    s = lay(new(), hands=[["REVRAND"], ["GOLD"]])
    s = play(s, "lead", "card:REVRAND", "loc:Jupiter", "opp:+1")
    assert s.helium[0, 0] == 1 and where(s, "GOLD") == zones.HAND0 + 1


# ---- end of the game ----------------------------------------------------------------------------

def test_two_thresholds_by_one_player_trigger_RR_E1_E2_E4():
    """RR-E1, RR-E2, RR-E4."""
    s = lay(new(players=3), hands=[[], [], []], helium=[6, 0, 0], fleet=[7, 0, 0], deck=F[:9])
    s = play(s, "scout", "loc:Mars")
    assert s.triggered[0] and s.end_reason[0] == 1
    s = play(s, "scout", "loc:Jupiter")                                          # P1 still plays (RR-E4)
    assert not GAME.done(s)[0]
    s = play(s, "scout", "loc:Jupiter")                                          # P2 ends the round
    assert GAME.done(s)[0]
    assert GAME.outcome(s)["per_game"]["end_reason"][0] == "two_thresholds"


def test_each_threshold_by_some_player_triggers_RR_E3_example5():
    """RR-E3."""
    s = lay(new(players=3), hands=[[], [], []], helium=[7, 0, 0], fleet=[0, 7, 0], cubes=[0, 0, 6], deck=F[:9])
    s = play(s, "scout", "loc:Mars", "scout", "loc:Mars")
    assert not s.triggered[0]
    s = play(s, "scout", "loc:Institute")
    assert GAME.done(s)[0]
    assert GAME.outcome(s)["per_game"]["end_reason"][0] == "all_thresholds"


@pytest.mark.parametrize("mode,triggered", [("current", False), ("ever_reached", True)])
def test_threshold_mode_A15(mode, triggered):
    """RR-A15."""
    s = lay(new(players=2, threshold_mode=mode), hands=[["TRADE"], []], helium=[7, 0], fleet=[6, 0])
    s.reached[0, 0, 0] = mode == "ever_reached"
    s = play(s, "lead", "card:TRADE", "loc:Jupiter", "yes")                      # helium 5, fleet 7
    assert bool(s.triggered[0]) == triggered


def test_apollo_takes_an_extra_last_turn_RR_E5_R30():
    """RR-E5, RR-R30."""
    s = lay(new(players=3), houses=["Apollo", "Mars", "Diana"], hands=[[], [], []],
            helium=[0, 6, 0], fleet=[0, 7, 0], deck=F[:9])
    s = play(s, "scout", "loc:Jupiter", "scout", "loc:Mars")
    assert s.triggered[0]
    s = play(s, "scout", "loc:Jupiter")
    assert not GAME.done(s)[0] and GAME.decider(s)[0] == 0                       # the extra turn
    s = play(s, "scout", "loc:Jupiter")
    assert GAME.done(s)[0]
    game = GAME.outcome(s)["per_game"]
    assert game["rounds"][0] == s.rounds[0] and s.turns[0] >= 4


def test_end_abilities_in_chosen_order_then_ceres_banish_RR_E6_E7_E8_A14():
    """RR-E6, RR-E7, RR-E8, RR-A14, RR-R32 (Ceres's end banish), RR-R43 (end abilities in step 1)."""
    s = lay(new(players=2), houses=["Ceres", "Mars"], hands=[["ENDAB", "ENDAB2", "GOLD"], ["PINK"]],
            helium=[6, 0], fleet=[7, 0], deck=F[:6])
    s = play(s, "scout", "loc:Mars", "scout", "loc:Jupiter")
    assert kind(s) == "end_order" and legal(s) == ["card:ENDAB", "card:ENDAB2"]     # RR-E7
    s = play(s, "card:ENDAB2")
    assert s.helium[0, 0] == 8                                                    # no new trigger effects
    s = play(s, "card:ENDAB", "yes", "loc:Mars")
    assert kind(s) == "end_banish" and GAME.decider(s)[0] == 0                    # RR-E8 after step 1
    s = play(s, "card:GOLD")
    assert GAME.done(s)[0] and where(s, "GOLD") == zones.BANISHED


def test_ceres_banish_with_own_end_abilities_A14():
    """RR-A14."""
    s = lay(new(players=2, ceres_end_banish="with_own_end_abilities"), houses=["Ceres", "Mars"],
            hands=[["ENDAB2", "GOLD"], []], helium=[6, 0], fleet=[7, 0], deck=F[:6])
    s = play(s, "scout", "loc:Mars", "scout", "loc:Jupiter")
    assert kind(s) == "end_order" and legal(s) == ["yes", "card:ENDAB2"]
    s = play(s, "yes")
    assert kind(s) == "end_banish"
    s = play(s, "card:GOLD", "card:ENDAB2")
    assert GAME.done(s)[0]


def test_stalemate_and_round_limit_guards_A18():
    """RR-A18."""
    s = lay(new(players=2, stalemate_rounds=1), deck=[], locations=[[], [], [], []], hands=[[], []])
    s = play(s, "lead", "lead")
    assert GAME.done(s)[0] and GAME.outcome(s)["per_game"]["end_reason"][0] == "stalemate"
    s = lay(new(players=2, max_rounds=1), hands=[[], []])
    s = play(s, "scout", "loc:Jupiter", "scout", "loc:Jupiter")
    assert GAME.done(s)[0] and GAME.outcome(s)["per_game"]["end_reason"][0] == "round_limit"


# ---- Au Toma ---------------------------------------------------------------------------------------

def solo(seed=0, content=CONTENT, **cfg):
    s = GAME.init(Config(players=1, **cfg), content, np.arange(1), seed)
    return s


def automa_turn(s, cards, deck=None, locations=None, auto_hand=(), **kw):
    """Lay out a solo position where Au Toma (seat 1) plays next with the given Au Toma cards."""
    a = int(s.automa[0])
    hands = [[], []]
    hands[a] = list(auto_hand)
    s = lay(s, deck=deck if deck is not None else F[:10], hands=hands, player=a, run_turn=False,
            **({"locations": locations} if locations is not None else {}), **kw)
    n = s.auto_order.shape[1]
    ids = [c.id for c in CONTENT.automa_cards]
    order = [ids.index(c) for c in cards]
    rest = [i for i in range(n) if i not in order]
    s.auto_order[0] = rest[:4] + order + rest[4:4 + n - 4 - len(order)]
    s.auto_pos[0] = 4
    from sim.games.red_rising.engine import run
    return run(s)


def set_priority(s, letters):
    """letters: priority letter index (0=A..3=D) per location J, M, L, I."""
    s.prio[0] = letters
    for x, l in enumerate(letters):
        s.letter_loc[0, l] = x
    s.luna_bonus[0] = s.letter_loc[0, 3 - letters[L]]


def test_automa_turn_two_cards_deploy_gain_RR_V11_V12_V15_V16_V17_V18_V20_V22():
    """RR-V11, RR-V12, RR-V15, RR-V16, RR-V17, RR-V18, RR-V20, RR-V22; RR-V1, RR-V2: she uses no abilities."""
    s = solo()
    a = int(s.automa[0])
    set_priority(s, [2, 0, 1, 3])                       # Example 6: J=C, M=A, L=B, I=D
    # AT02: deploy A (Mars), gain C (Jupiter), none, ccw; AT09: deploy D (Institute), gain B (Luna)
    s = automa_turn(s, ["AT02", "AT09"], deck=[F[0], F[1], F[2]])
    assert location(s, M)[-1] == F[0]                   # RR-V17: deck top onto Mars, no ability
    assert where(s, F[11]) == zones.HAND0 + a           # RR-V18: Jupiter's top
    assert location(s, I)[-1] == F[1] and where(s, F[15]) == zones.HAND0 + a
    assert s.helium[0, a] == 0 and s.fleet[0, a] == 0   # RR-V20: no star, no bonus
    assert GAME.decider(s)[0] == 1 - a and kind(s) == "action"      # RR-V12, RR-V16: no decision


def test_automa_example6_luna_bonus_card_and_search_RR_V19_V25_V26_V27_V28_V29_V30():
    """RR-V19, RR-V25, RR-V26, RR-V27, RR-V28, RR-V29, RR-V30."""
    s = solo()
    a = int(s.automa[0])
    set_priority(s, [2, 0, 1, 3])
    assert s.luna_bonus[0] == J                          # Luna B -> partner C -> Jupiter
    ids = [c.id for c in CONTENT.automa_cards]
    # a card Deploy A, Gain D, star, ccw (Example 6) built from AT15's row with the parts we need
    card = dataclasses.replace(CONTENT.automa_cards[ids.index("AT15")], deploy="A", gain="D", arrow="ccw")
    content = dataclasses.replace(CONTENT, automa_cards=tuple(card if c.id == "AT15" else c
                                                              for c in CONTENT.automa_cards))
    s = solo(content=content)
    set_priority(s, [2, 0, 1, 3])
    s = automa_turn(s, ["AT15", "AT02"], deck=[F[0], F[1], F[2], F[3]],
                    locations=[[F[10]], [F[12]], [F[14], F[15]], []],
                    helium=[0, 5], fleet=[0, 10], cubes=[0, 4], sovereign=1 - a)
    # first card: F0 onto Mars; Institute empty -> ccw Luna: F15 taken; star: Luna bonus ->
    # the Sovereign + Jupiter (fleet maxed) -> ccw from Jupiter: Institute -> a cube
    assert s.sovereign[0] == a and s.cubes[0, a] >= 5 and s.fleet[0, a] == 10
    assert where(s, F[15]) == zones.HAND0 + a


def test_automa_star_maxed_bonus_follows_the_arrow_RR_V28_V32():
    """RR-V28, RR-V32."""
    s = solo()
    a = int(s.automa[0])
    set_priority(s, [0, 1, 2, 3])                         # J=A, M=B, L=C, I=D; Luna C -> B = Mars
    # AT07: deploy B, gain B (Mars), star, ccw; Mars maxed (10 helium) -> ccw -> Jupiter
    s = automa_turn(s, ["AT07", "AT02"], helium=[0, 10], cubes=[0, 10])
    assert s.helium[0, a] == 10 and s.fleet[0, a] == 1


def test_automa_hand_top_is_the_most_recently_added_RR_A29_V18():
    """RR-A29: her hand F20..F25 (F25 added last); her turn of Example 6's priorities takes F11
    (AT02: Jupiter's top) then F15 (AT09: Luna's top); the top of her hand, what Eo and Roque
    look at (RR-V47, RR-V49), is then F15, F11, F25, F24, ..., F20."""
    s = solo()
    set_priority(s, [2, 0, 1, 3])
    s = automa_turn(s, ["AT02", "AT09"], deck=[F[0], F[1], F[2]], auto_hand=[F[20 + i] for i in range(6)])
    top = pile_cards(s, np.array([0]), PILE_AUTOMA, 8)[0].tolist()
    assert top == [ID[F[15]], ID[F[11]]] + [ID[F[25 - i]] for i in range(6)]


def test_automa_pieces_ten_cubes_and_a_fleet_ship_from_space_0_RR_A37_V28():
    """RR-A37: she starts like a player (no helium, fleet space 0, no cube on The Institute) and
    has ten cubes. Priorities J=B, M=C, L=D, I=A; AT05 (deploy C Mars, gain A The Institute,
    star, cw): at 9 cubes the star places her tenth; at 10 The Institute's bonus is maxed and the
    arrow (cw: I -> J) gives Jupiter's fleet step instead (RR-V28); AT02 (no star) adds nothing."""
    s = GAME.init(Config(players=1), BASE, np.arange(100), 9)
    s = take(s, np.flatnonzero(s.turns == 0))            # games where Au Toma has not played yet
    rows = np.arange(s.batch)
    assert s.batch and (s.helium[rows, s.automa] == 0).all() and (s.fleet[rows, s.automa] == 0).all()
    assert (s.cubes[rows, s.automa] == 0).all()
    for cubes, fleet in ((9, 0), (10, 1)):
        s = solo()
        a = int(s.automa[0])
        set_priority(s, [1, 2, 3, 0])
        s = automa_turn(s, ["AT05", "AT02"], cubes=[0, cubes])
        assert (s.cubes[0, a], s.fleet[0, a], s.helium[0, a]) == (10, fleet, 0)


def test_automa_cross_banishes_deck_top_RR_V19():
    """RR-V19."""
    s = solo()
    set_priority(s, [0, 1, 2, 3])
    s = automa_turn(s, ["AT03", "AT02"], deck=[F[0], F[1], F[2], F[3]])   # AT03: B, A, cross
    assert where(s, F[1]) == zones.BANISHED


def test_automa_rebuilds_an_empty_deck_RR_V13_V14_V21_A26():
    """RR-V13, RR-V14, RR-V21, RR-A26."""
    s = solo()
    a = int(s.automa[0])
    s = lay(s, hands=[[], []], player=a, run_turn=False)
    s.auto_pos[0] = s.auto_order.shape[1]
    before = s.auto_shuffles[0]
    from sim.games.red_rising.engine import run
    s = run(s)
    assert s.auto_shuffles[0] == before + 1 and s.auto_pos[0] == 6


def test_automa_thresholds_count_and_both_cards_resolve_RR_V23_V24():
    """RR-V23, RR-V24."""
    s = solo()
    a = int(s.automa[0])
    set_priority(s, [0, 1, 2, 3])
    s = automa_turn(s, ["AT07", "AT09"], helium=[0, 6], fleet=[0, 7],
                    locations=[[F[10]], [F[12]], [F[14]], [F[16]]])
    assert s.triggered[0]
    assert s.hand_n[0, a] == 2                                # the second card still resolved


def test_player_abilities_against_automa_RR_V31_V33_V34_V35_V36():
    """RR-V31, RR-V33, RR-V34, RR-V35, RR-V36."""
    s = solo()
    a = int(s.automa[0])
    p = 1 - a
    hands = [[], []]
    hands[p] = ["STEAL", "REVRAND", "FREE"]
    hands[a] = ["GOLD", "PINK", F[20]]                         # bottom GOLD, top F20
    s = lay(s, hands=hands, player=p)
    s = play(s, "lead", "card:STEAL", "loc:Jupiter", "opp:+1")
    assert where(s, "GOLD") == zones.HAND0 + p                 # RR-V33: her bottom card, no block asked
    s = lay(s, hands=[["REVCH"] if i == p else ["GOLD", "PINK", F[20]] for i in range(2)], player=p)
    s = play(s, "lead", "card:REVCH", "loc:Jupiter", "opp:+1")
    assert s.top[0, PILE_AUTOMA] == ID["GOLD"] and s.helium[0, p] == 1        # RR-V34: back on top
    assert s.hand_n[0, a] == 3
    s = lay(s, hands=hands, player=p, helium=[0, 0])
    s = play(s, "lead", "card:FREE", "loc:Jupiter")
    assert s.helium[0, a] == 1 and kind(s) == "gain"           # RR-V35: she always accepts


def test_auctioneer_free_die_rerolls_for_automa_RR_V46_A36():
    """RR-V46, RR-A36."""
    s = solo()
    a = int(s.automa[0])
    p = 1 - a
    hands = [[], []]
    hands[p] = ["FREEDIE"]
    s = lay(s, hands=hands, player=p, helium=[0, 10], fleet=[0, 10], cubes=[0, 10], sovereign=a)
    force_die(s, 4, 6, 3, 1)                                   # only faces 1 and 2 can help her
    set_priority(s, [3, 0, 1, 2])                              # A = Mars
    s = play(s, "lead", "card:FREEDIE", "loc:Jupiter")
    assert where(s, F[13]) == zones.BANISHED                   # face 1: first non-empty location by priority
    assert s.die_c[0] > 3


def test_automa_free_die_rerolls_by_the_face_bonus_RR_V46_A36():
    """RR-V46, RR-A36 with a custom die: Au Toma re-rolls until a face whose bonus she can gain;
    when no face of the die has such a bonus she does not roll."""
    die = ("helium",) * 5 + ("banish",)
    s = solo(content=with_die(die))
    a = int(s.automa[0])
    p = 1 - a
    hands = [[], []]
    hands[p] = ["FREEDIE"]
    s = lay(s, hands=hands, player=p, helium=[0, 10])
    force_die(s, 4, 1, 6)
    c = int(s.die_c[0])
    set_priority(s, [3, 0, 1, 2])                              # A = Mars
    s = play(s, "lead", "card:FREEDIE", "loc:Jupiter")
    assert where(s, F[13]) == zones.BANISHED and s.die_c[0] == c + 3
    s = solo(content=with_die(ALL_HELIUM))
    s = lay(s, hands=hands, player=p, helium=[0, 10])
    c = int(s.die_c[0])
    s = play(s, "lead", "card:FREEDIE", "loc:Jupiter")
    assert s.die_c[0] == c and s.helium[0, a] == 10 and kind(s) == "gain"


def test_eo_looks_at_automa_top_six_RR_V47():
    """RR-V47."""
    s = solo(solo_readd_removed=True)
    a = int(s.automa[0])
    p = 1 - a
    hands = [[], []]
    hands[p] = ["LOOK"]
    hands[a] = [F[0], F[1], F[2], F[3], F[4], F[5], "RED0"]     # RED0 on top: seen
    s = lay(s, hands=hands, player=p)
    before = pile_cards(s, np.array([0]), PILE_AUTOMA, 7).tolist()
    s = play(s, "lead", "card:LOOK", "loc:Jupiter", "opp:+1")
    assert s.cubes[0, p] == 1
    assert pile_cards(s, np.array([0]), PILE_AUTOMA, 7).tolist() == before
    hands[a] = ["RED0", F[1], F[2], F[3], F[4], F[5], F[6]]     # RED0 seventh from the top: not seen
    s = lay(s, hands=hands, player=p, cubes=[0, 0])
    s = play(s, "lead", "card:LOOK", "loc:Jupiter", "opp:+1")
    assert s.cubes[0, p] == 0


def test_roque_reshuffles_automa_top_six_RR_V49():
    """RR-V49."""
    s = solo(solo_readd_removed=True)
    a = int(s.automa[0])
    p = 1 - a
    hands = [[], []]
    hands[p] = ["ROQUE"]
    hands[a] = [F[i] for i in range(8)]
    s = lay(s, hands=hands, player=p)
    s = play(s, "lead", "card:ROQUE", "loc:Jupiter", "opp:+1")
    now = pile_cards(s, np.array([0]), PILE_AUTOMA, 8)[0]
    assert sorted(now[:6].tolist()) == sorted(ID[F[i]] for i in range(2, 8))
    assert now[6:].tolist() == [ID[F[1]], ID[F[0]]]


def test_psychologist_compares_a_third_of_automa_hand_RR_V48():
    """RR-V48."""
    content = make_content(special={"PSY": ("Yellow", 5, {"end_bonus": (
        EndBonus(kind="hand_compare", points=10, compare="more_than_each_opponent"),)})})
    s = GAME.init(Config(players=1), content, np.arange(1), 0)
    a = int(s.automa[0])
    p = 1 - a
    hands = [[], []]
    hands[p] = ["PSY", "F00", "F01", "F02"]
    hands[a] = [f"F{i:02d}" for i in range(10, 21)]             # 11 cards -> counts as 3
    s = deal.arrange(s, 0, deck=["F40", "F41"], locations=[[], [], [], []], hands=hands, player=p,
                     helium=[7, 0], fleet=[7, 0])
    while not GAME.done(s)[0]:
        s = GAME.step(s, np.array([np.flatnonzero(GAME.legal_actions(s)[0])[0]]))
    assert GAME.outcome(s)["per_seat"]["score_cards"][0, p] >= 10


# ---- invariants over random games ------------------------------------------------------------------

def random_games(config, n, seed, content=BASE, check=None):
    s = GAME.init(config, content, np.arange(n), seed)
    keys = rng.stream_keys(seed, np.arange(n), "test")
    counter = np.zeros(n, np.int64)
    steps = 0
    while not GAME.done(s).all():
        if check is not None:
            check(s)
        a = choose_uniform(GAME.legal_actions(s), StrategyRng(keys, counter).uniform(1)[:, 0])
        counter += ~GAME.done(s)
        s = GAME.step(s, a)
        steps += 1
        assert steps < 5000, "a random game did not terminate"
    return s


def check_invariants(s):
    b, c = s.where.shape
    # every card in exactly one zone; piles consistent with their links
    assert ((s.where >= 0) & (s.where < zones.HAND0 + s.seats)).all()
    for pile in range(5):
        assert ((s.where == pile).sum(axis=1) == s.size[:, pile]).all()
    for p in range(s.seats):
        assert ((s.where == zones.HAND0 + p).sum(axis=1) == s.hand_n[:, p]).all()
    walked = np.zeros((b, c), dtype=np.int64)
    rows = np.arange(b)
    for pile in range(4):
        cards = pile_cards(s, rows, pile, int(s.size[:, pile].max()) + 1)
        assert ((cards >= 0).sum(axis=1) == s.size[:, pile]).all()
        for i in range(cards.shape[1]):
            ok = cards[:, i] >= 0
            assert (s.where[rows[ok], cards[ok, i]] == pile).all()
            walked[rows[ok], cards[ok, i]] += 1
    assert walked.max() <= 1
    # resources never negative, within the caps
    for arr, r in ((s.helium, 0), (s.fleet, 1), (s.cubes, 2)):
        assert (arr >= 0).all() and (arr <= s.cap[:, :, r]).all()
    live = ~s.done
    assert s.legal[live].any(axis=1).all()


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_random_games_invariants_and_scores(players):
    s = random_games(Config(players=players), 60, 11, check=check_invariants)
    out = GAME.outcome(s)
    seat = out["per_seat"]
    parts = sum(seat[k] for k in seat if k.startswith("score_"))
    assert (parts == seat["score"]).all()                                       # score = sum of components
    assert np.allclose(seat["win_share"].sum(axis=1), 1.0)                      # win shares sum to 1
    assert (seat["rank"].min(axis=1) == 1).all()
    assert set(out["per_game"]["end_reason"]) <= {"two_thresholds", "all_thresholds", "stalemate", "round_limit"}
    assert (out["per_game"]["turns"] >= out["per_game"]["rounds"]).all()
    assert (seat["is_automa"].sum(axis=1) == (1 if players == 1 else 0)).all()
    if players == 1:
        assert (seat["faction"][seat["is_automa"]] == "Au Toma").all()


def test_batch_independence():
    """A game's result does not depend on the batch it is played in (randomness keyed by game)."""
    cfg = Config(players=4)
    ids = np.arange(500)

    def run(game_ids):
        s = GAME.init(cfg, BASE, game_ids, 3)
        keys = rng.stream_keys(3, game_ids, "test")
        counter = np.zeros(len(game_ids), np.int64)
        while not GAME.done(s).all():
            a = choose_uniform(GAME.legal_actions(s), StrategyRng(keys, counter).uniform(1)[:, 0])
            counter += ~GAME.done(s)
            s = GAME.step(s, a)
        return GAME.outcome(s)

    big = run(ids)
    for g in (0, 17, 499):
        alone = run(np.array([g]))
        for k in ("score", "rank", "win_share", "score_cards"):
            assert (alone["per_seat"][k][0] == big["per_seat"][k][g]).all()
        assert alone["per_game"]["turns"][0] == big["per_game"]["turns"][g]


def test_illegal_action_is_refused_naming_game_decision_and_action():
    """GAME.step refuses an action outside the legal mask (sim.core.game.check_legal): the error
    names the game index, the decision and the action, and the state is left as it was."""
    from sim.core.game import IllegalActionError

    s = lay(new(), hands=[[], []])
    with pytest.raises(IllegalActionError, match=rf"game 0, decision action: action {A.CARD0} \(card:"):
        GAME.step(s, np.array([A.CARD0]))
    s = GAME.init(Config(players=3), BASE, np.array([7, 8, 9]), 2)
    before = s.copy()
    acts = np.array([A.LEAD, A.LEAD, A.DECK])                  # no gain decision yet: ``deck`` is illegal
    with pytest.raises(IllegalActionError, match=r"game 9, decision action: action 6 \(deck\)"):
        GAME.step(s, acts)
    for name in ("b_i8", "b_i16", "b_i32", "b_bool", "b_legal"):
        assert np.array_equal(getattr(s, name), getattr(before, name)), name
    assert GAME.step(s, np.array([A.LEAD, A.LEAD, A.LEAD])).kind.tolist() == [A.KIND["deploy_card"]] * 3


# ---- observation and sampled states --------------------------------------------------------------

def test_observation_hides_hands_and_deck_RR_S5_S7_R70_A31():
    """RR-S5, RR-S7, RR-R70, RR-A31."""
    s = GAME.init(Config(players=3), BASE, np.arange(40), 4)
    obs = GAME.observe(take(s, np.arange(40)), np.zeros(40, np.int64))
    w = obs.where
    assert ((w == zones.HAND0 + 1) | (w == zones.HAND0 + 2) | (w == zones.DECK)).sum() == 0
    assert ((w == zones.HAND0) == (s.where == zones.HAND0)).all()               # own hand
    assert (((w >= 0) & (w < 4)) == (s.where < 4)).all()                         # locations public
    assert (obs.key_die == 0).all() and (obs.stacks()[:, :, :2] >= 0).all()
    assert (obs.hand_sizes == s.hand_n).all() and (obs.deck_size == s.size[:, PILE_DECK]).all()
    # shuffling hidden cards between the other hands and the deck changes nothing observed
    t = take(s, np.arange(40))
    a, b = ID_BASE("GOL-1"), ID_BASE("RED-1")
    for g in range(40):
        hidden = np.flatnonzero((s.where[g] == zones.HAND0 + 1) | (s.where[g] == zones.HAND0 + 2))
        perm = np.random.default_rng(g).permutation(hidden)
        t.where[g, hidden] = s.where[g, perm]
    del a, b
    o2 = GAME.observe(t, np.zeros(40, np.int64))
    assert (o2.where == obs.where).all() and (o2.under == obs.under).all()


def ID_BASE(cid):
    return [c.id for c in BASE.cards].index(cid)


def test_sample_state_is_consistent_with_the_observation():
    s = random_prefix(Config(players=4), 30, 6, 40)
    obs = GAME.observe(take(s, np.arange(30)), GAME.decider(s))
    sample = GAME.sample_state(obs, np.arange(30, dtype=np.uint64) + 1)
    assert (sample.hand_n == s.hand_n).all() and (sample.size == s.size).all()
    vis = obs.where >= 0
    assert (sample.where[vis] == s.where[vis]).all()
    check_invariants(sample)
    legal = GAME.legal_actions(sample)
    live = ~GAME.done(sample)
    a = choose_uniform(legal, np.full(30, 0.5))
    sample = GAME.step(sample, np.where(live, a, 0))
    check_invariants(sample)


def random_prefix(config, n, seed, steps):
    s = GAME.init(config, BASE, np.arange(n), seed)
    keys = rng.stream_keys(seed, np.arange(n), "prefix")
    for i in range(steps):
        a = choose_uniform(GAME.legal_actions(s), StrategyRng(keys, np.full(n, i)).uniform(1)[:, 0])
        s = GAME.step(s, a)
    return s


def test_position_value_and_describe():
    s = random_prefix(Config(players=3), 5, 2, 30)
    v = GAME.position_value(s, GAME.decider(s).clip(0), {"helium": 1.0})
    assert v.shape == (5,) and np.isfinite(v).all()
    with pytest.raises(KeyError):
        GAME.position_value(s, np.zeros(5, np.int64), {"nope": 1})
    one = take(s, [0])
    before = take(one, [0])
    a = int(np.flatnonzero(GAME.legal_actions(one)[0])[0])
    after = GAME.step(one, np.array([a]))
    lines = GAME.describe(before, after, a)
    assert lines and "P" in lines[0]


# ---- wildcards in play (RR-A19, RR-R51, RR-R54) ---------------------------------------------------

WILD_SPECIAL = {
    "REVEAL": SPECIAL["REVEAL"],                  # reveal a Gold card: +2 helium
    "GOLD": SPECIAL["GOLD"],
    "GREYW": ("Grey", 1, {"colour_wildcard": True}),
    "ORANGEW": ("Orange", 2, {"name_wildcard": True}),
    "IFGOLD": ("Red", 3, {"deploy": (op("if", cond=("hand_has", Filter(colour=("Gold",))),
                                        then=(op("gain", resource="fleet"),)),)}),
    "DANAME": ("Green", 4, {"deploy": (op("deploy_another", filter=Filter(name=("GOLD",))),)}),
    "STEALOWN": ("Obsidian", 6, {"deploy": (op("opponent", action="steal", selection="owner_chooses",
                                               filter=Filter(colour=("Gold",))),)}),
    "STEALACT": ("Obsidian", 7, {"deploy": (op("opponent", action="steal", selection="actor_chooses",
                                               filter=Filter(colour=("Gold",))),)}),
    "BAN2": ("White", 5, {"deploy": (op("banish_hand", count=2, filter=Filter(colour=("Gold",))),)}),
}
WILD = make_content(fillers=30, special=WILD_SPECIAL)
WILD_NAMES = A.action_names([c.id for c in WILD.cards])


def wild_game(hands):
    s = GAME.init(Config(players=2), WILD, np.arange(1), 0)
    return lay(s, hands=hands)


def wplay(s, *actions):
    for name in actions:
        legal_now = [WILD_NAMES[a] for a in np.flatnonzero(GAME.legal_actions(s)[0])]
        assert name in legal_now, f"{name} not legal in {kind(s)}: {legal_now}"
        s = GAME.step(s, np.array([WILD_NAMES.index(name)]))
    return s


def wlegal(s):
    return [WILD_NAMES[a] for a in np.flatnonzero(GAME.legal_actions(s)[0])]


def test_a_grey_may_be_revealed_as_gold_for_a_deploy_ability_RR_A19_R54_R47():
    """RR-A19, RR-R54: revealing a Gold card, the owner may show a Grey as Gold. With only the grey
    in hand, the actor is asked first (optional: use the wildcard?): yes -> the grey is the only
    candidate and +2 helium; no -> the op is not possible, no helium. With a printed Gold too,
    no question: both cards are candidates."""
    s = wplay(wild_game([["REVEAL", "GREYW"], []]), "lead", "card:REVEAL", "loc:Mars")
    assert kind(s) == "optional" and wlegal(s) == ["yes", "no"]
    used = wplay(s.copy(), "yes")
    assert kind(used) == "target_card" and wlegal(used) == ["card:GREYW"]
    used = wplay(used, "card:GREYW")
    assert used.helium[0, 0] == 2 and kind(used) == "gain"
    declined = wplay(s, "no")
    assert declined.helium[0, 0] == 0 and kind(declined) == "gain"
    s = wplay(wild_game([["REVEAL", "GREYW", "GOLD"], []]), "lead", "card:REVEAL", "loc:Mars")
    assert kind(s) == "target_card" and wlegal(s) == ["card:GOLD", "card:GREYW"]


def test_an_orange_may_take_a_name_for_deploy_another_RR_A19_R51():
    """RR-A19, RR-R51: "deploy another card named GOLD": the orange card may bear that name."""
    s = wplay(wild_game([["DANAME", "ORANGEW", "GREYW"], []]), "lead", "card:DANAME", "loc:Jupiter")
    assert kind(s) == "optional"
    s = wplay(s, "yes")
    assert kind(s) == "target_card" and wlegal(s) == ["card:ORANGEW"]
    s = wplay(s, "card:ORANGEW", "loc:Luna")
    assert where_in(s, "ORANGEW") == L


def where_in(s, cid):
    return int(s.where[0, [c.id for c in WILD.cards].index(cid)])


def test_a_hand_condition_may_use_a_wildcard_RR_A19():
    """RR-A19 (W2): "if you have a Gold card": false by printed colours, a grey makes it true if
    the owner wants: asked as optional; yes -> +1 fleet, no -> nothing."""
    s = wplay(wild_game([["IFGOLD", "GREYW"], []]), "lead", "card:IFGOLD", "loc:Mars")
    assert kind(s) == "optional"
    assert wplay(s.copy(), "yes").fleet[0, 0] == 1
    assert wplay(s, "no").fleet[0, 0] == 0
    s = wplay(wild_game([["IFGOLD", "GOLD"], []]), "lead", "card:IFGOLD", "loc:Mars")
    assert kind(s) == "gain" and s.fleet[0, 0] == 1                    # printed Gold: no question


def test_opponents_wildcards_count_only_when_the_owner_picks_RR_A19():
    """RR-A19 (W3): a steal of a Gold card. Owner chooses: the target may hand over its grey
    instead of its Gold. Actor chooses: the owner declines, only the printed Gold. A target with
    only a grey is not eligible (the op is not possible)."""
    s = wplay(wild_game([["STEALOWN"], ["GOLD", "GREYW"]]), "lead", "card:STEALOWN", "loc:Mars", "opp:+1")
    assert kind(s) == "target_card" and int(GAME.decider(s)[0]) == 1
    assert wlegal(s) == ["card:GOLD", "card:GREYW"]
    s = wplay(s, "card:GREYW")
    assert where_in(s, "GREYW") == zones.hand(0)
    s = wplay(wild_game([["STEALACT"], ["GOLD", "GREYW"]]), "lead", "card:STEALACT", "loc:Mars", "opp:+1")
    assert kind(s) == "target_card" and int(GAME.decider(s)[0]) == 0 and wlegal(s) == ["card:GOLD"]
    s = wplay(wild_game([["STEALOWN"], ["GREYW"]]), "lead", "card:STEALOWN", "loc:Mars")
    assert kind(s) == "gain" and where_in(s, "GREYW") == zones.hand(1)


def test_banish_hand_asks_again_when_only_wildcards_remain_RR_A19():
    """RR-A19 (W1): "banish 2 Gold cards": the printed Gold first (the grey a candidate too), then
    only the grey could be Gold: optional; no -> it stays in hand."""
    s = wplay(wild_game([["BAN2", "GOLD", "GREYW"], []]), "lead", "card:BAN2", "loc:Mars")
    assert kind(s) == "target_card" and wlegal(s) == ["card:GOLD", "card:GREYW"]
    s = wplay(s, "card:GOLD")
    assert kind(s) == "optional"
    kept = wplay(s.copy(), "no")
    assert where_in(kept, "GREYW") == zones.hand(0) and kind(kept) == "gain"
    gone = wplay(s, "yes", "card:GREYW")
    assert where_in(gone, "GREYW") == zones.BANISHED


@pytest.mark.slow
@pytest.mark.parametrize("config", [Config(players=2), Config(players=4)], ids=["2p", "4p"])
def test_engine_matches_oracle_with_wildcards_in_play_RR_A19(config):
    """RR-A19: engine and oracle agree decision by decision on a deck full of wildcards and of ops
    that check colours and names in hands (own-hand choices, conditions, owners' picks)."""
    check_engine_matches_oracle(config, make_content(fillers=40, special=dict(EXOTIC, **{
        f"W{k}": w for k, w in enumerate([("Grey", 3, {"colour_wildcard": True}), ("Orange", 4, {"name_wildcard": True}),
                                          ("Grey", 5, {"colour_wildcard": True, "name_wildcard": True})] * 3)},
        **WILD_SPECIAL)), games=40, seed=6)


# ---- the oracle on ops the default deck lacks ----------------------------------------------------

EXOTIC = dict(SPECIAL)
EXOTIC.update({
    "LOOKEACH": ("Red", 5, {"deploy": (op("look_opponent_hand", target="each", count=2, then=(
        op("if", cond=("seen_has", Filter(parity="odd")), then=(op("gain", resource="fleet"),),
           else_=(op("lose", resource="helium"),)),)),)}),
    "STEALEACH": ("Obsidian", 9, {"deploy": (op("opponent", target="each", action="steal", selection="owner_chooses",
                                                 filter=Filter(core_max=5)),)}),
    "BANNEIGH": ("White", 9, {"deploy": (op("opponent", target="neighbours", action="banish_from_hand",
                                               selection="actor_chooses", then=(op("gain", resource="influence"),)),)}),
    "FREESOV": ("Copper", 3, {"deploy": (op("opponent", target="each", action="gain_free", resource="sovereign",
                                            blockable=False), op("gain", resource="sovereign", optional=True))}),
    "MOVEFILT": ("Green", 2, {"deploy": (op("move", which="filter", from_="any", to="other", to_position="bottom",
                                             filter=Filter(colour=("Red",))),)}),
    "BANHAND2": ("Pink", 4, {"deploy": (op("banish_hand", count=2, filter=Filter(core_min=3)),),
                             "end_ability": (op("recover", to="hand", optional=True),)}),
    "LOCTOP": ("Brown", 6, {"deploy": (op("if", cond=("location_top", ("this", Filter(colour=("Brown",)))),
                                          then=(op("place_from_deck", to="any", count=2),)),)}),
    "ANYALL": ("Grey", 1, {"block_against": frozenset({"any"}),
                           "deploy": (op("gain_card", from_="banished", optional=True),)}),
    "REVEACH": ("Violet", 2, {"deploy": (op("opponent", target="each", action="reveal_choice", then=(
        op("if", cond=("seen_has", Filter(colour=("Gold",))), then=(op("end_turn"),)),)),)}),
    "ROLL2": ("Silver", 5, {"deploy": (op("roll_die", times=2),)}),
})


@pytest.mark.slow
@pytest.mark.parametrize("config", [Config(players=1, solo_readd_removed=True), Config(players=3),
                                    Config(players=5, chain_deploy_recursive=False, trade_limit="per_turn_total",
                                           ceres_end_banish="with_own_end_abilities")],
                         ids=["solo", "3p", "5p-switches"])
def test_engine_matches_oracle_on_every_op_form(config):
    check_engine_matches_oracle(config, make_content(fillers=50, special=EXOTIC), games=30, seed=2)


@pytest.mark.slow
@pytest.mark.parametrize("die", [TWO_SOVEREIGN, ("place", "banish", "influence", "sovereign", "place", "helium"),
                                 ("sovereign",) * 6], ids=["two-sovereign", "shuffled", "all-sovereign"])
@pytest.mark.parametrize("config", [Config(players=1, solo_readd_removed=True), Config(players=3)], ids=["solo", "3p"])
def test_engine_matches_oracle_on_a_custom_die_RR_R22_R36_V46(config, die):
    """RR-R22, RR-R36, RR-V46 with a non-default die (content.die_faces): the engine and the oracle
    agree decision by decision, on the exotic content (roll_die twice, free die for Au Toma)."""
    check_engine_matches_oracle(config, with_die(die, make_content(fillers=50, special=EXOTIC)), games=30, seed=4)


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 4])
def test_crosscheck_lockstep_with_a_die_from_a_tables_file_RR_R22_R36_V46(tmp_path, players):
    """The crosscheck's play_lockstep (default deck, all houses) on a tables file whose die has
    two Sovereign faces and no influence face: engine == oracle decision by decision."""
    from sim.games.red_rising.content import DATA_DIR
    from tests.test_red_rising_crosscheck import play_lockstep

    text = (DATA_DIR / "tables.toml").read_text(encoding="utf-8")
    old = 'die_faces = ["banish", "place", "sovereign", "helium", "fleet", "influence"]'
    assert old in text
    path = tmp_path / "tables.toml"
    path.write_text(text.replace(old, 'die_faces = ["sovereign", "helium", "sovereign", "fleet", "banish", "fleet"]'),
                    encoding="utf-8")
    config = Config(players=players, tables_file=str(path))
    assert load_content(config).die_faces == TWO_SOVEREIGN
    assert play_lockstep(config, 120, seed=77 + players) > 120 * 20


def check_engine_matches_oracle(config, content, games, seed):
    """RR-A2 op vocabulary (each / neighbours targets, owner / actor choices, recover to a location,
    a trade getting the Sovereign, free Sovereign gains, moves to the bottom, nested if/else, ...):
    the engine and the oracle agree decision by decision and on the results."""
    from tests.oracle_red_rising import OracleGame

    ids = np.arange(games)
    s = GAME.init(config, content, ids, seed)
    oracles = [OracleGame(config, content, seed, int(g)) for g in ids]
    keys = rng.stream_keys(seed, ids, "exotic")
    counter = np.zeros(games, np.int64)
    while not GAME.done(s).all():
        done, legal, decider, kinds = GAME.done(s), GAME.legal_actions(s), GAME.decider(s), GAME.kind(s)
        for g in np.flatnonzero(~done):
            o = oracles[g]
            assert (decider[g], A.DECISION_KINDS[kinds[g]]) == (o.decider(), o.kind()), f"game {g}"
            assert (legal[g] == o.legal()).all(), f"game {g} decision {counter[g]} ({o.kind()})"
        a = choose_uniform(legal, StrategyRng(keys, counter).uniform(1)[:, 0])
        for g in np.flatnonzero(~done):
            oracles[g].step(int(a[g]))
        counter += ~done
        s = GAME.step(s, a)
    out = GAME.outcome(s)
    for g in range(games):
        expected = oracles[g].result()
        assert oracles[g].done()
        for key in ("score", "score_cards", "rank", "win_share"):
            assert np.allclose(out["per_seat"][key][g], expected[key]), (g, key)
        assert out["per_seat"]["rr_hand_size"][g].tolist() == expected["hand_size"]
        for p in range(len(expected["hand_size"])):      # the cards held at the end (the report's content impact)
            if not out["per_seat"]["is_automa"][g, p]:
                held = out["per_seat"]["rr_hand"][g, p]
                assert (set(held.split(";")) - {""}) == {content.cards[c].id for c in oracles[g].hands[p]}, (g, p)
        assert out["per_game"]["end_reason"][g] == expected["end_reason"]
        assert out["per_game"]["turns"][g] == expected["turns"]


# ---- the compiled kernel ----------------------------------------------------------------------

def test_kernel_random_draws_equal_sim_core_rng_bit_for_bit():
    """The kernel's scalar SplitMix64 (kernel.bits / kernel.integers) is sim.core.rng's, bit for bit."""
    from sim.games.red_rising import kernel

    keys = rng.stream_keys(7, np.arange(2000), "die")
    keys[:3] = [0, np.uint64(2**64 - 1), np.uint64(2**63)]
    counters = np.random.default_rng(0).integers(0, 2**40, size=2000)
    counters[:3] = [0, 1, 2**62]
    highs = np.random.default_rng(1).integers(1, 200, size=2000)
    assert np.array_equal(kernel.bits_array(keys, counters), rng.bits(keys, counters))
    assert np.array_equal(kernel.integers_array(keys, counters, highs), rng.integers(keys, counters, highs))
    # the Au Toma shuffle: a stable argsort of the draws, as rng.permutations
    s = new(players=1, seed=3)
    s.auto_shuffles[0] = 5
    from sim.games.red_rising import deal
    expected = deal.shuffle_order(s.key_automa[:1], s.auto_order.shape[1], s.auto_shuffles[:1])[0]
    arrays, _ = kernel.pack(s)
    kernel.build_deck(arrays, 0)
    assert s.auto_order[0].tolist() == expected.tolist() and s.auto_pos[0] == 4


def test_one_game_batch_replays_its_game_exactly():
    """A game played alone (a one-game state: the kernel runs it as a two-game pair, see
    engine._as_pair) goes exactly as inside a batch: same decisions, same final position."""
    from sim.games.red_rising.state import FIELDS

    config = Config(players=3)
    content = load_content(config)
    batch = GAME.init(config, content, np.arange(3), 9)
    alone = GAME.init(config, content, np.array([1]), 9)
    keys = rng.stream_keys(9, np.arange(3), "alone")
    counter = np.zeros(3, np.int64)
    while not batch.done[1]:
        acts = choose_uniform(batch.legal, StrategyRng(keys, counter).uniform(1)[:, 0])
        counter += 1
        assert np.array_equal(alone.legal[0], batch.legal[1])
        batch = GAME.step(batch, acts)
        alone = GAME.step(alone, acts[1:2])
    assert alone.batch == 1 and alone.done[0]
    for name in FIELDS:
        if name not in ("frame", "f_seen", "legal", "action", "kind", "decider", "waiting"):
            assert np.array_equal(getattr(alone, name)[0], getattr(batch, name)[1]), name


def test_kernel_cache_is_keyed_on_the_sources_it_compiles_in(tmp_path):
    """sim.core.kernel_cache: a cached kernel that reads a constant of another module is compiled
    anew when that module changes (numba alone would load the stale code), and the Red Rising
    kernel's cache stamp includes the digest of the modules whose constants it reads."""
    import subprocess
    import sys
    from pathlib import Path

    from sim.core import kernel_cache
    from sim.games.red_rising import kernel, program, state, zones

    (tmp_path / "consts.py").write_text("VALUE = 1\n")
    (tmp_path / "kern.py").write_text(
        "from numba import njit\nfrom sim.core import kernel_cache\nimport consts\n"
        "kernel_cache.watch(__file__, consts)\nV = consts.VALUE\n\n@njit(cache=True)\ndef f():\n    return V\n")
    env = {**__import__("os").environ, "PYTHONPATH": f"{tmp_path}:{Path(__file__).resolve().parents[1]}"}

    def value():
        out = subprocess.run([sys.executable, "-c", "import kern; print(kern.f())"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, check=True)
        return int(out.stdout)

    assert value() == 1 and list((tmp_path / "__pycache__").glob("kern.f-*.nbi"))
    (tmp_path / "consts.py").write_text("VALUE = 2  # changed\n")
    assert value() == 2
    stamp = kernel.run_batch._cache._impl.locator.get_source_stamp()
    watched = sorted(str(Path(m.__file__).resolve()) for m in (A, zones, program, state))
    assert stamp[1] == kernel_cache.sources_digest(watched)


def test_compile_half_compiles_the_types_the_engine_then_calls():
    """The warm-up's head start (``GAME.compile_half``, one half of the rules per process) must
    compile each function for exactly the argument types ``run_batch`` and the strategies'
    driver then call it with, else they compile it again: in a fresh process, both halves, a
    game set up and run and a whole game played leave one signature per function."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import numpy as np\n"
            "from sim.games.red_rising.config import Config\n"
            "from sim.games.red_rising.content import load_content\n"
            "from sim.games.red_rising.game import GAME\n"
            "from sim.games.red_rising import engine, kernel\n"
            "from sim.core import rng\n"
            "config = Config(players=4); content = load_content(config)\n"
            "GAME.compile_half(config, content, 0); GAME.compile_half(config, content, 1)\n"
            "s = GAME.init(config, content, np.arange(3), 5)\n"
            "engine.play_uniform(s, np.stack([rng.stream_keys(5, np.arange(3), 'x', k) for k in range(4)]), 4)\n"
            "assert s.done.all()\n"
            "print({n: len(getattr(kernel, n).signatures) for h in engine._HALVES for n, *_ in h})\n")
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    counts = eval(out.stdout)
    assert set(counts) == {"begin", "enter", "automa_turn", "check_trigger", "e_player", "e_order_ask", "e_order", "e_banish",
                           "e_ceres", "opp_next", "trade_get", "opp_then", "h_op"}
    assert counts == {name: 1 for name in counts}, counts
