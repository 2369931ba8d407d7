"""Rule tests of the Explorers of Navoria engine on hand-made positions (a batch of one to a few
games whose state columns are set directly); each test names the rule ids it checks. The
spec's worked examples are in test_explorers_of_navoria_engine.py."""
from __future__ import annotations

import numpy as np
import pytest

from sim.core import rng
from sim.games.explorers_of_navoria import engine, kernel
from sim.games.explorers_of_navoria import state as st
from sim.games.explorers_of_navoria.config import Config
from sim.games.explorers_of_navoria.game import GAME
from tests.test_explorers_of_navoria_engine import (
    ADVENTURERS, ARTISANS, BUILDERS, DESERT, F_, FOREST, GLACIER, M_, SOLDIERS, TRADERS, W_, act, card, give,
    legal_names, position, recruit_position, sc,
)


def collect_position(s, p, piles, order=None):
    """Seat p's collect turn: tokens on the piles {colour: count}."""
    m = s.m
    n = s.t.P
    m[:, st.G_PHASE] = st.PH_CTURN
    m[:, st.G_TURN] = 0
    m[:, st.G_PILET:st.G_PILET + 5] = 0
    for c, k in piles.items():
        m[:, st.G_PILET + c] = k
    order = order or [q for q in range(n) if q != p] + [p]
    m[:, st.G_ORDER:st.G_ORDER + n] = order
    return engine.advance(s)


# ---- tracks, treasures, building ------------------------------------------------------------

@pytest.mark.parametrize("pos,steps,pays,end", [(9, 2, 2, 10), (10, 1, 1, 10), (5, 2, 0, 7), (8, 3, 2, 10),
                                                (0, 1, 0, 1)])
def test_treasure_pays_per_step_on_the_last_space_EN_R103_EN_R104_EN_R105_EN_R106(pos, steps, pays, end):
    s = position(players=2)
    t = s.t
    g = s.m[0]
    g[sc(0, st.P_MARK) + DESERT] = pos
    kernel.do_step(g, t.tab, t.C, 0, DESERT, steps)
    assert s.marker[0, 0, DESERT] == end
    assert s.comp[0, 0, st.C_TREASURE] == 4 * pays == s.score[0, 0]


def test_build_takes_next_post_and_nothing_without_posts_EN_R66_EN_R67_EN_R68_EN_R71_EN_A21():
    s = position(players=2)
    g = s.m[0]
    for k in range(4):
        kernel.do_build(g, 1, GLACIER)
        assert s.posts[0, 1, GLACIER] == min(k + 1, 3)
    assert s.marker[0, 1, GLACIER] == 0                   # EN-R71: the marker does not move


def test_city_build_of_choice_only_on_docks_with_posts_EN_R31_EN_A21_DP10():
    s = position(players=3)
    g = s.m[0]
    g[sc(0, st.P_POSTS):sc(0, st.P_POSTS) + 3] = (3, 1, 0)
    collect_position(s, 0, {BUILDERS: 1, TRADERS: 1})
    act(s, "city:CY1")
    assert s.kind[0] == st.K_TRACK
    assert legal_names(s) == ["track:desert", "track:glacier"]
    act(s, "track:glacier")
    assert s.posts[0, 0].tolist() == [3, 1, 1]


def test_city_build_with_one_dock_left_is_automatic_EN_A21():
    s = position(players=3)
    g = s.m[0]
    g[sc(0, st.P_POSTS):sc(0, st.P_POSTS) + 3] = (3, 2, 3)
    collect_position(s, 0, {BUILDERS: 1, TRADERS: 1})
    act(s, "city:CY1")
    assert s.posts[0, 0].tolist() == [3, 3, 3]
    assert s.kind[0] == st.K_COLLECT                       # the next seat's collect turn


def test_builder_builds_then_its_extra_EN_R64_EN_R65_EN_A14():
    """YE02: build forest, then a good of choice; the build uncovers nothing needed here."""
    s = position(players=2)
    recruit_position(s, 0, {BUILDERS: ["YE01", "YE02"]}, centre=[BUILDERS])
    act(s, "take:builders:2")
    assert s.posts[0, 0, FOREST] == 1                     # built before the good arrives
    assert s.kind[0] == st.K_GOODS and s.dec[0] == 0
    act(s, "goods:W--")
    assert s.dock[0, 0, FOREST, W_] == 1 and s.ncol[0, 0, BUILDERS] == 1


# ---- recruit turn ---------------------------------------------------------------------------

def test_empty_centre_forces_the_bag_and_the_draw_is_keyed_EN_R13_EN_R9_RND5():
    s = GAME.init(Config(players=4), GAME.load_content(Config(players=4)), np.arange(20), 21)
    assert (s.drew == 1).all() and (s.bagk == 2).all()
    keys = rng.stream_keys(21, np.arange(20), "bag")
    bag = np.full(20, 15)
    first = np.floor(rng.uniform(keys, 0) * bag).astype(int) // 3
    left = np.full((20, 5), 3)
    left[np.arange(20), first] -= 1
    u = np.floor(rng.uniform(keys, 1) * 14).astype(int)
    second = np.array([np.searchsorted(np.cumsum(left[i]), u[i], side="right") for i in range(20)])
    assert (s.drawn[:, 0] == first).all() and (s.drawn[:, 1] == second).all()
    assert (s.bag.sum(axis=1) == 13).all()
    # after the draw only the drawn colours may be used (EN-R10)
    for i in range(20):
        names = legal_names(s, i)
        colours = {n.split(":")[1] for n in names}
        assert all(n.startswith("take:") for n in names)
        assert colours <= {("traders", "builders", "soldiers", "adventurers", "artisans")[c] for c in s.drawn[i]}


def test_unused_drawn_token_goes_to_the_centre_EN_R11_EN_R14():
    s = position(players=3)
    recruit_position(s, 0, {SOLDIERS: ["RE01", "RE02"], TRADERS: ["BL01"]}, drawn=[SOLDIERS, TRADERS])
    act(s, "take:soldiers:2")
    assert s.centre[0].tolist() == [1, 0, 0, 0, 0]
    assert s.pilet[0, SOLDIERS] == 1
    assert s.offer[0, SOLDIERS].tolist()[:2] == [card(s.t, "RE01"), -1]      # EN-R19: the slot stays empty
    assert s.ncol[0, 0, SOLDIERS] == 1 and s.centre_takes[0, 0] == 0


def test_centre_method_choice_and_count_EN_R12_EN_A16():
    s = position(players=3)
    s.m[0, st.G_BAG:st.G_BAG + 5] = 0
    s.m[0, st.G_BAG + ARTISANS] = 2
    recruit_position(s, 2, {SOLDIERS: ["RE01"], TRADERS: ["BL01", "BL02"]}, centre=[SOLDIERS, TRADERS])
    assert legal_names(s) == ["draw", "take:traders:1", "take:traders:2", "take:soldiers:1"]
    act(s, "take:traders:2")
    assert s.centre[0].tolist() == [0, 0, 1, 0, 0] and s.centre_takes[0, 2] == 1
    assert s.score[0, 2] == 1                             # BL02: 1 point


def test_one_token_in_the_bag_must_be_used_EN_A17():
    s = position(players=3)
    s.m[0, st.G_BAG:st.G_BAG + 5] = 0
    s.m[0, st.G_BAG + TRADERS] = 1
    s.m[0, st.G_PHASE] = st.PH_RSTART
    s.m[0, st.G_OFFER:st.G_OFFER + 15] = -1
    s.m[0, st.G_OFFER + 3 * TRADERS] = card(s.t, "BL01")
    s.m[0, st.G_OFFER + 3 * TRADERS + 1] = card(s.t, "BL02")
    engine.advance(s)
    assert s.drawn[0].tolist() == [TRADERS, -1] and legal_names(s) == ["take:traders:1", "take:traders:2"]
    act(s, "take:traders:1")
    assert s.centre[0].sum() == 0


def test_unusable_draw_goes_to_the_centre_EN_A18():
    s = position(players=3)
    s.m[0, st.G_BAG:st.G_BAG + 5] = 0
    s.m[0, st.G_BAG + SOLDIERS] = 2
    s.m[0, st.G_BAG + TRADERS] = 1
    s.m[0, st.G_OFFER:st.G_OFFER + 15] = -1
    s.m[0, st.G_OFFER + 3 * TRADERS] = card(s.t, "BL01")
    s.m[0, st.G_OFFER + 3 * TRADERS + 1] = card(s.t, "BL02")
    s.m[0, st.G_PHASE] = st.PH_RSTART
    s.bag_key[0] = 0
    engine.advance(s)
    # whatever the draws: a usable trader is taken or offered; unusable soldiers end in the centre
    total = s.bag[0].sum() + s.centre[0].sum() + (s.drawn[0] >= 0).sum() + s.pilet[0].sum()
    assert total == 3
    if s.drew[0]:
        assert TRADERS in s.drawn[0].tolist()
    else:
        assert s.centre[0, SOLDIERS] >= 1


def test_turn_passes_without_any_legal_action_EN_A17_EN_A18():
    """Bag empty, the centre's only token a soldier, no soldier offered: no recruit action is
    legal, so each turn passes without a card. The phase has 1 card x 2 players = 2 turns
    (EN-R21, config cards_per_round = 1)."""
    s = position(players=2, cards_per_round=1)
    s.m[0, st.G_BAG:st.G_BAG + 5] = 0
    s.m[0, st.G_OFFER:st.G_OFFER + 15] = -1
    s.m[0, st.G_OFFER + 3 * TRADERS] = card(s.t, "BL01")
    s.m[0, st.G_OFFER + 3 * TRADERS + 1] = card(s.t, "BL02")
    s.m[0, st.G_CENTRE + SOLDIERS] = 1
    s.m[0, st.G_PHASE] = st.PH_RSTART
    s.m[0, st.G_TURN] = 0
    engine.advance(s)
    # both recruit turns pass, the collect phase has nothing to do (no tokens on piles, EN-R38),
    # income and the return phase follow: the game waits at round two's first recruit decision
    assert int(s.turns[0]) == 2 and s.ncol[0].sum() == 0
    assert (int(s.round[0]), int(s.turn[0]), int(s.kind[0])) == (1, 0, st.K_RECRUIT)
    # the return phase put every token back in the bag (EN-R51: 2 per colour with 2 players,
    # EN-S5), and round two's first turn drew two of them (the centre was empty)
    assert s.bag[0].sum() == 10 - 2 and (s.drawn[0] >= 0).sum() == 2


def test_recruit_phase_length_and_compass_turns_EN_R7_EN_R21_EN_R22():
    for players, per in ((2, 4), (3, 4), (4, 3)):
        cfg = Config(players=players)
        for gid in range(4):
            s = GAME.init(cfg, GAME.load_content(cfg), np.array([gid]), 2)
            while s.round[0] == 0 and s.phase[0] in (st.PH_RDEC, st.PH_REFFECT):
                if s.kind[0] == st.K_RECRUIT:
                    assert int(s.dec[0]) == int(s.order[0, s.turn[0] % players])
                s = GAME.step(s, np.argmax(s.legal, axis=1))
            assert s.ncol[0, :players].sum() == per * players
            assert (s.ncol[0, :players].sum(axis=1) == per).all()


# ---- collect turn ---------------------------------------------------------------------------

def test_collect_returns_centre_and_reverse_order_EN_R23_EN_R25_EN_R26_EN_R28():
    cfg = Config(players=3)
    for gid in range(6):
        s = GAME.init(cfg, GAME.load_content(cfg), np.array([gid]), 4)
        asked = 0
        while s.round[0] == 0:
            if s.kind[0] == st.K_COLLECT:
                asked += 1
                assert s.centre[0].sum() == 0                       # EN-R23
                assert s.bag[0].sum() + s.pilet[0].sum() + (s.city[0] >= 0).sum() == 15
                assert s.pilet[0].sum() + (s.city[0] >= 0).sum() == 12
                assert int(s.dec[0]) == int(s.order[0, 2 - s.turn[0] % 3])    # EN-R25
            s = GAME.step(s, np.argmax(s.legal, axis=1))
        assert asked > 0


def test_city_space_rewards_EN_R30_EN_R35():
    s = position(players=2)
    collect_position(s, 0, {ARTISANS: 1, TRADERS: 1})
    act(s, "city:CG2")                                    # 2 minerals AND 2 points
    assert s.kind[0] == st.K_GOODS and s.comp[0, 0, st.C_CITY] == 0
    assert sorted(legal_names(s)) == ["goods:-MM", "goods:M-M", "goods:MM-"]
    act(s, "goods:M-M")
    assert s.comp[0, 0, st.C_CITY] == 2
    assert s.dock[0, 0].sum() == 2 and s.dock[0, 0, :, M_].sum() == 2
    assert s.city[0, s.t.city_ids.index("CG2")] == 0


def test_full_area_token_goes_back_to_the_bag_EN_A20():
    s = position(players=2)
    x = [i for i, sp in enumerate(s.t.content.city) if sp.colour == TRADERS]
    s.m[0, st.G_CITY + np.array(x)] = 1
    collect_position(s, 0, {TRADERS: 1, SOLDIERS: 1})
    assert "back:traders" in legal_names(s)
    bag = int(s.bag[0, TRADERS])
    act(s, "back:traders")
    assert s.bag[0, TRADERS] == bag + 1 and s.score[0, 0] == 0


def test_good_or_step_alternative_DP9_EN_R33():
    s = position(players=2)
    collect_position(s, 0, {BUILDERS: 1, TRADERS: 1})
    act(s, "city:CY3")
    assert s.kind[0] == st.K_ALT and legal_names(s) == ["alt:1", "alt:2"]
    s2 = engine.copy_state(s) if hasattr(engine, "copy_state") else st.copy_state(s)
    act(s, "alt:1")                                       # a good of choice -> GOODS on empty docks
    assert s.kind[0] == st.K_GOODS
    assert len(legal_names(s)) == 9                       # 3 docks x 3 kinds, one good placed
    act(s2, "alt:2")
    assert s2.kind[0] == st.K_TRACK


# ---- goods and orders -----------------------------------------------------------------------

def _goods_position(run, docks, **cfg):
    """A GOODS decision of seat 0 for a run (W, M, F, any) with docks [[W, M, F] x 3]."""
    s = position(players=2, **cfg)
    g = s.m[0]
    for x in range(3):
        for k in range(3):
            g[sc(0, st.P_DOCK) + 3 * x + k] = docks[x][k]
        g[sc(0, st.P_DOCKN) + x] = sum(docks[x])
    g[st.G_PHASE] = st.PH_CEFFECT
    g[st.G_CTX] = 1
    g[st.G_DEC] = 0
    g[st.G_ITEM] = g[st.G_IEND] = 0
    g[st.G_POP] = -1
    g[st.G_RUN:st.G_RUN + 4] = run
    g[st.G_WAIT] = st.W_GOODS
    g[st.G_PILET + TRADERS] = 2                           # more collect turns follow
    return s


def test_strict_docks_EN_A12():
    # forest holds W: takes M or F only; glacier holds M: only M; desert anything
    s = _goods_position((1, 0, 0, 0), [[1, 0, 0], [0, 0, 0], [0, 1, 0]])
    engine.advance(s)
    assert s.dock[0, 0, DESERT, W_] == 1 and s.lost[0, 0] == 0          # the only placement: auto
    s = _goods_position((0, 0, 0, 1), [[1, 0, 0], [0, 0, 0], [0, 1, 0]])
    engine.advance(s)
    assert sorted(legal_names(s)) == sorted(["goods:-F-", "goods:-M-", "goods:-W-", "goods:--M", "goods:F--",
                                             "goods:M--"])


def test_free_docks_and_blocked_forest_EN_A12_free():
    s = _goods_position((1, 0, 0, 0), [[1, 0, 0], [0, 0, 0], [0, 1, 0]], dock_placement="free")
    engine.advance(s)
    assert sorted(legal_names(s)) == ["goods:--W", "goods:-W-", "goods:W--"]
    act(s, "goods:W--")
    assert s.dock[0, 0, FOREST].tolist() == [2, 0, 0] and s.fulfilled[0, 0].sum() == 0


def test_as_many_goods_as_possible_and_lost_goods_EN_A13_EN_R92():
    # 3 weapons at once; forest holds W, glacier holds F: only the desert takes one W
    s = _goods_position((3, 0, 0, 0), [[1, 0, 0], [0, 0, 0], [0, 0, 1]])
    engine.advance(s)
    assert s.dock[0, 0, DESERT, W_] == 1 and s.lost[0, 0] == 2
    # two goods of choice on empty docks: always two docks
    s = _goods_position((0, 0, 0, 2), [[0, 0, 0], [0, 0, 0], [0, 0, 0]])
    engine.advance(s)
    names = legal_names(s)
    assert all(n.count("-") == 1 for n in names) and len(names) == 27


def test_finite_supply_limits_goods_EN_A11():
    s = _goods_position((0, 0, 0, 1), [[0, 0, 0], [0, 0, 0], [0, 0, 0]], goods_per_kind=2)
    s.m[0, st.G_SUPPLY:st.G_SUPPLY + 3] = (0, 2, 0)
    engine.advance(s)
    assert sorted(legal_names(s)) == ["goods:--M", "goods:-M-", "goods:M--"]
    act(s, "goods:-M-")
    assert s.supply[0].tolist() == [0, 1, 0]


def test_desert_order_any_four_and_rewards_EN_R89_EN_R96_EN_R97_EN_R98():
    s = _goods_position((1, 0, 0, 0), [[0, 0, 0], [1, 1, 1], [0, 0, 0]])
    s.m[0, sc(0, st.P_POSTS) + DESERT] = 3
    give(s, 0, 0, "GR01", "GR02")
    engine.advance(s)
    act(s, "goods:-W-")
    # base 2 pts + 1 step desert; under1 2 pts; under2 1 per artisan (2); under3 step of choice
    assert s.kind[0] == st.K_TRACK
    assert s.comp[0, 0, st.C_ORDERS] == 6 and s.marker[0, 0, DESERT] == 1
    act(s, "track:forest")
    assert s.marker[0, 0, FOREST] == 1 and s.dock[0, 0, DESERT].sum() == 0
    assert s.fulfilled[0, 0, DESERT] == 1


def test_several_orders_at_once_forest_desert_glacier_EN_A14():
    s = _goods_position((0, 0, 2, 1), [[1, 1, 0], [1, 1, 1], [0, 0, 2]])
    engine.advance(s)
    assert sorted(legal_names(s)) == ["goods:FFF", "goods:FMF", "goods:FWF"]
    act(s, "goods:FWF")
    assert s.fulfilled[0, 0].tolist() == [1, 1, 1]
    assert s.comp[0, 0, st.C_ORDERS] == 3 + 2 + 4
    assert s.marker[0, 0].tolist() == [1, 1, 1]


def test_goods_run_then_step_ALT_flush_order_EN_A13_model_doc():
    """CY2: 1 good of choice AND 1 step of choice: the GOODS decision comes first, then TRACK."""
    s = position(players=2)
    collect_position(s, 0, {BUILDERS: 1, TRADERS: 1})
    act(s, "city:CY2")
    assert s.kind[0] == st.K_GOODS
    act(s, "goods:--F")
    assert s.kind[0] == st.K_TRACK
    act(s, "track:glacier")
    assert s.marker[0, 0, GLACIER] == 1 and s.dock[0, 0, GLACIER, F_] == 1


# ---- adventurers -----------------------------------------------------------------------------

@pytest.mark.parametrize("split", [False, True])
def test_question_mark_adventurer_EN_R80_EN_A15(split):
    s = position(players=2, question_mark_split=split)
    recruit_position(s, 0, {ADVENTURERS: ["PU12", "PU01"]}, centre=[ADVENTURERS])
    act(s, "take:adventurers:1")                         # PU12: 2 steps, track of choice
    assert s.kind[0] == st.K_TRACK
    act(s, "track:forest")
    if split:
        assert s.kind[0] == st.K_TRACK and s.marker[0, 0, FOREST] == 1
        act(s, "track:glacier")
        assert s.marker[0, 0].tolist() == [1, 0, 1]
    else:
        assert s.marker[0, 0].tolist() == [2, 0, 0]
    assert s.ncol[0, 0, ADVENTURERS] == 1 and s.dec[0] != 0


# ---- favour ---------------------------------------------------------------------------------

def test_favour_first_second_and_never_EN_R107_EN_R108_EN_R109_EN_A22():
    s = position(players=4)
    for p in range(3):
        give(s, 0, p, "BL01", "BL02", "BL03", "RE01")          # 5 human symbols
    assert s.fav[0, :3, 0].tolist() == [1, 2, 0]
    assert s.fhold[0, 0].tolist() == [0, 1]
    assert s.ftried[0, :3, 0].tolist() == [1, 1, 1]
    give(s, 0, 2, "GR01")                                       # more symbols later: still nothing
    assert s.fav[0, 2, 0] == 0


def test_favour_is_checked_after_the_card_enters_EN_R17_EN_R112():
    s = position(players=2)
    give(s, 0, 0, "BL01", "BL02", "RE01")                      # 4 humans
    recruit_position(s, 0, {TRADERS: ["BL03", "BL04"]}, centre=[TRADERS])
    act(s, "take:traders:1")
    assert s.fav[0, 0, 0] == 1 and s.sym[0, 0, 0] == 5


def test_favour_symbols_switch_EN_R107():
    s = position(players=2, favour_symbols=3)
    give(s, 0, 1, "RE05", "BL01")
    assert s.fav[0, 1, 0] == 1


# ---- income, return, final scoring ------------------------------------------------------------

def test_marker_on_start_gets_no_exploration_reward_EN_R47():
    s = position(players=3)
    s.m[0, sc(0, st.P_MARK) + FOREST] = 2
    kernel.income(s.m[0], s.t.tab, s.t.C)
    assert s.comp[0, :3, st.C_EXPLORATION].tolist() == [4, 0, 0]


def test_return_phase_EN_R49_EN_R50_EN_R51_EN_R52_EN_A19_EN_A25():
    s = position(players=2)
    g = s.m[0]
    t = s.t
    g[sc(0, st.P_MARK):sc(0, st.P_MARK) + 3] = (1, 9, 11)
    g[sc(0, st.P_POSTS):sc(0, st.P_POSTS) + 3] = (3, 1, 0)
    g[st.G_CITY + 2] = 1
    g[st.G_BAG:st.G_BAG + 5] = 0
    g[st.G_OFFER + 1] = -1                                  # one trader taken
    ptop = s.ptop[0].copy()
    kernel.return_phase(g, s.piles[0], t.tab, t.C)
    assert s.marker[0, 0].tolist() == [6, 2, 0]             # forward to post 3, back to post 1, start
    assert s.score[0, 0] == 0
    assert (s.bag[0] == 2).all() and (s.city[0] == -1).all()
    assert s.disc[0].tolist() == [2, 3, 3, 3, 3]
    assert (s.ptop[0] == ptop + 3).all()
    for c in range(5):
        off = t.pile_off[c]
        assert s.offer[0, c].tolist() == s.piles[0, off + ptop[c]:off + ptop[c] + 3].tolist()


def test_pile_runs_short_EN_A19():
    s = position(players=2)
    s.m[0, st.G_PLEFT + TRADERS] = 1
    kernel.return_phase(s.m[0], s.piles[0], s.t.tab, s.t.C)
    assert s.offer[0, TRADERS, 1:].tolist() == [-1, -1] and s.offer[0, TRADERS, 0] >= 0


def test_final_scoring_soldiers_and_favour_X5_EN_E3_EN_E4():
    s = position(players=4)
    t = s.t
    g = s.m[0]
    tiles = {"humans": "FT02", "goblins": "FT10", "beasts": "FT05", "sprites": "FT04"}
    for q, tid in enumerate(tiles.values()):
        g[st.G_FTILE + q] = t.tile_ids.index(tid)
    g[st.G_FHOLD + 2 * 2] = 0                               # another player holds beasts' first space
    give(s, 0, 2, "BL01", "BL07", "YE01", "YE03", "PU07", "RE01", "RE03", "RE06", "RE09")
    give(s, 0, 3, "BL02", "BL03", "BL10", "GR01", "GR05", "GR04", "GR08", "PU05", "RE08")
    g[sc(2, st.P_POSTS):sc(2, st.P_POSTS) + 3] = (3, 1, 0)
    g[sc(3, st.P_POSTS):sc(3, st.P_POSTS) + 3] = (0, 2, 1)
    assert s.fav[0, 2].tolist() == [1, 0, 2, 0]
    # D reaches 5 humans after C: second space; sprites first
    assert s.fav[0, 3].tolist() == [2, 0, 0, 1]
    g[sc(2, st.P_SCORE)] = 50
    g[sc(3, st.P_SCORE)] = 68
    kernel.final_scoring(g, t.tab, t.C)
    assert s.comp[0, 2, st.C_SOLDIERS] == 14 and s.comp[0, 2, st.C_FAVOUR] == 30 and s.score[0, 2] == 94
    assert s.comp[0, 3, st.C_SOLDIERS] == 4 and s.comp[0, 3, st.C_FAVOUR] == 22 and s.score[0, 3] == 94


def test_blank_tile_variant_EN_V1_EN_V2_EN_A9():
    cfg = Config(players=2, blank_tile_variant=True)
    s = GAME.init(cfg, GAME.load_content(cfg), np.arange(50), 6)
    T = s.t.T
    assert ((s.ftile == T).sum(axis=1) == 1).all()
    space = rng.integers(rng.stream_keys(6, np.arange(50), "blank"), 0, 4)
    people = np.array(s.t.content.favour_space_people)
    assert (s.ftile[np.arange(50), people[space]] == T).all()
    out = GAME.outcome(s)["per_game"]
    assert all("FT00" in [out[f"en_tile_{p}"][b] for p in ("humans", "goblins", "beasts", "sprites")]
               for b in range(50))


def test_score_snapshots_and_outcome_columns():
    cfg = Config(players=3)
    from tests.test_explorers_of_navoria_engine import play_random
    s = play_random(cfg, 50, seed=12)
    out = GAME.outcome(s)
    seat = out["per_seat"]
    for key in ("en_score_r1", "en_score_r2", "en_goods_lost", "en_centre_takes", "en_fulfilled_forest",
                "en_posts_glacier", "en_favour_sprites", "en_cards_traders", "slot", "rank", "win_share"):
        assert seat[key].shape == (50, 3)
    assert (seat["en_score_r1"] <= seat["en_score_r2"]).all() and (seat["en_score_r2"] <= seat["score"]).all()
    assert (out["per_game"]["rounds"] == 3).all() and (out["per_game"]["end_reason"] == "three_rounds").all()


def test_pending_atom_survives_a_track_choice_in_order_rewards_EN_A13_EN_A14_EN_A8():
    """CG2 (2 minerals AND 2 points): the minerals complete the desert order, whose uncovered
    "1 step, track of choice" asks a TRACK decision; the city's 2 points still follow in full."""
    s = position(players=2)
    g = s.m[0]
    g[sc(0, st.P_DOCK) + 3 * DESERT + W_] = 3
    g[sc(0, st.P_DOCKN) + DESERT] = 3
    g[sc(0, st.P_POSTS) + DESERT] = 3
    collect_position(s, 0, {ARTISANS: 1, TRADERS: 2})
    act(s, "city:CG2")
    act(s, "goods:MM-")
    assert s.fulfilled[0, 0, DESERT] == 1 and s.kind[0] == st.K_TRACK
    assert s.comp[0, 0, st.C_CITY] == 0 and s.comp[0, 0, st.C_ORDERS] == 4
    act(s, "track:glacier")
    assert s.comp[0, 0, st.C_CITY] == 2 and s.marker[0, 0].tolist() == [0, 1, 1]


def test_board_and_tableaus_are_public_to_every_player_EN_S2_EN_R18():
    """EN-S2 (the board is reachable by all) and EN-R18 (tableau cards are public): mid-game, every
    seat's observation shows every seat's tableau, score, markers, posts and docks and the whole
    board (offers, city, bag, centre), exactly as the state holds them; only the piles' unseen order
    is withheld (checked in the engine tests)."""
    config = Config(players=4)
    content = GAME.load_content(config)
    s = GAME.init(config, content, np.arange(32), 5)
    r = np.random.default_rng(0)
    for _ in range(60):
        legal = GAME.legal_actions(s)
        s = GAME.step(s, np.array([r.choice(np.flatnonzero(row)) if row.any() else 0 for row in legal]))
    assert s.ncol.sum() > 0
    for p in range(4):
        obs = GAME.observe(s, np.full(32, p))
        for name in ("ncol", "sym", "score", "marker", "posts", "offer", "city", "bag", "centre"):
            assert np.array_equal(getattr(obs, name), getattr(s, name)), name
