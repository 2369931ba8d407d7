"""Recall final scoring (spec section 4, RC-E1..E49, RC-V13..V15, RC-A53, RC-A54, RC-A58) on
hand-made end states whose results are worked out from the spec, and the worked example 1."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.games.recall.config import Config
from sim.games.recall.content import load_content
from sim.games.recall.content_types import GOAL_KINDS, PATHS
from sim.games.recall.position import score_position
from sim.games.recall.scoring import (
    COMPONENTS, Components, EndState, final_scoring, goal_met, ranks, scoring_tables, solo_goals, two_cards_met,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples" / "recall"


@pytest.fixture(scope="module")
def content():
    return load_content(Config())


@pytest.fixture(scope="module")
def tables(content):
    return scoring_tables(content)


def end(content, players=1, sides=(0,) * 6, order=tuple(range(6)), **given) -> EndState:
    """A batch of one game; every field zero unless given (a per-player list or a scalar for P = 1)."""
    K, M, G = len(content.key_cards), len(content.monument_tiles), len(content.goal_cards)
    shapes = {"score": (), "purple": (), "tracks": (3,), "stones": (3,), "sanctuaries": (), "board_monuments": (3,),
              "monument_tiles": (M,), "keys": (K,), "artifacts": (4,), "crystals": (3,), "followers": (),
              "discs": (6,), "goals": (G,), "upgrade_tiles": (), "old_tribes": (), "camps": (), "area_tiles": (),
              "pig_farms": ()}
    arrays = {}
    for name, shape in shapes.items():
        a = np.zeros((1, players) + shape, dtype=np.int64)
        if name in given:
            v = given[name]
            a[0] = np.array(v if players > 1 else [v]).reshape((players,) + shape)
        arrays[name] = a
    return EndState(path_card=np.array([order]), path_side=np.array([sides]), **arrays)


def keys(content, **counts):
    out = [0] * len(content.key_cards)
    for kid, n in counts.items():
        out[[k.id for k in content.key_cards].index(kid)] = n
    return out


def disc(*paths):
    return [int(p in paths) for p in PATHS]


def sheet(tables, e, **kw):
    return {k: int(v[0, 0]) for k, v in final_scoring(tables, e, **kw).items()}


# ---- the worked example ----------------------------------------------------------------------------

def test_worked_example_1_full_final_scoring():
    """Spec section 10, example 1 (RC-E3..E30, RC-E43): Blue scores 143 (41 + 77 + 6 + 4 + 15)."""
    rows = score_position(EXAMPLES / "example1_full_final_scoring.json")
    blue = rows[0]
    assert (blue["score_path_power"], blue["score_path_ambition"], blue["score_path_efficiency"],
            blue["score_path_saints"], blue["score_path_ancestors"], blue["score_path_knowledge"]) == (22, 10, 12, 6, 12, 15)
    assert blue["score_paths"] == 77 and blue["score_leftover"] == 6 and blue["score_purple"] == 4
    assert blue["score_goal"] == 15 and blue["score"] == 143 and blue["rank"] == 1 and blue["win_share"] == 1.0
    assert rows[1]["score"] == 21


# ---- path cards -------------------------------------------------------------------------------------

def test_every_player_scores_every_base_and_only_own_bonuses(content, tables):
    """RC-E4, RC-E5, RC-R187: all six bases for everyone; a card's bonus only with your disc on it."""
    e = end(content, 2, sides=(0,) * 6, tracks=[[7, 4, 2], [7, 4, 2]], discs=[disc("knowledge"), disc()])
    s = final_scoring(tables, e)
    assert s["score_path_knowledge"][0].tolist() == [15, 12]


def test_path_order_and_position_do_not_change_totals(content, tables):
    """RC-E3, RC-A9: bottom-to-top order has no effect; a card is found wherever it lies."""
    given = dict(tracks=[7, 4, 2], stones=[2, 1, 3], sanctuaries=3, discs=[1, 0, 1, 0, 0, 1])
    a = end(content, **given)
    order = (5, 3, 0, 1, 4, 2)                     # knowledge at position 3, saints at 6, power at 1 ...
    b = end(content, order=order, **{**given, "discs": [int(c in (0, 2, 5)) for c in order]})
    assert sheet(tables, a)["score"] == sheet(tables, b)["score"]


@pytest.mark.parametrize("side, tracks, expected", [
    (None, (7, 4, 2), 12),        # RC-E6: 8 + 3 + 1
    (0, (7, 4, 2), 15),           # RC-E7: second-highest (3) again
    (0, (5, 5, 9), 4 + 4 + 12 + 4),   # RC-E7: equal values: the second-highest is 4
    (1, (7, 10, 6), 4 * 2 + 8 + 15 + 6),   # RC-E8: 4 per track at or beyond the seventh field
])
def test_path_of_knowledge(content, tables, side, tracks, expected):
    """RC-E6..E8, RC-A11: the value of each track's position; a: second-highest again; b: 4 per
    track at or past the seventh field."""
    e = end(content, sides=(side or 0,) + (0,) * 5, tracks=list(tracks), discs=disc("knowledge") if side is not None else disc())
    assert sheet(tables, e)["score_path_knowledge"] == expected


@pytest.mark.parametrize("side, stones, expected", [
    (None, (2, 1, 3), 12),        # RC-E9
    (0, (2, 1, 3), 24),           # RC-E11: 2 extra per stone
    (1, (2, 1, 3), 12 + 7),       # RC-E12: one set
    (1, (3, 2, 2), 14 + 14),      # RC-E12: two sets
])
def test_path_of_ancestors(content, tables, side, stones, expected):
    """RC-E9..E12 (own-colour stones are not in ``stones``, RC-E10: see the positions tests)."""
    e = end(content, sides=(0, side or 0, 0, 0, 0, 0), stones=list(stones),
            discs=disc("ancestors") if side is not None else disc())
    assert sheet(tables, e)["score_path_ancestors"] == expected


@pytest.mark.parametrize("side, n, expected", [(None, 3, 6), (0, 3, 12), (1, 3, 11), (1, 4, 18), (1, 1, 2)])
def test_path_of_saints(content, tables, side, n, expected):
    """RC-E13 2 per sanctuary; RC-E14 a: 2 more each; RC-E15 b: 5 per 2 (3 sanctuaries -> 5 extra)."""
    e = end(content, sides=(0, 0, side or 0, 0, 0, 0), sanctuaries=n, discs=disc("saints") if side is not None else disc())
    assert sheet(tables, e)["score_path_saints"] == expected


@pytest.mark.parametrize("side, expected", [(None, 9), (0, 9 + 2 * 5), (1, 9 + 3)])
def test_path_of_efficiency(content, tables, side, expected):
    """RC-E16, RC-A25: printed points of all cards (slots included); RC-E17 a: 2 per yellow,
    green, grey card; RC-E18 b: 3 per grey card."""
    e = end(content, sides=(0, 0, 0, side or 0, 0, 0), keys=keys(content, W0=1, Y1=2, G1=2, X4=1),
            discs=disc("efficiency") if side is not None else disc())
    assert sheet(tables, e)["score_path_efficiency"] == expected


@pytest.mark.parametrize("side, artifacts, expected", [
    (None, (2, 1, 0, 3), 10),         # RC-E19: 3 + 1 + 0 + 6
    (0, (2, 1, 0, 3), 10),            # RC-E20: no full set
    (0, (2, 1, 1, 5), 3 + 1 + 1 + 15 + 6),
    (1, (2, 1, 0, 3), 10 + 6),        # RC-E21: the best colour again
])
def test_path_of_ambition(content, tables, side, artifacts, expected):
    e = end(content, sides=(0, 0, 0, 0, side or 0, 0), artifacts=list(artifacts),
            discs=disc("ambition") if side is not None else disc())
    assert sheet(tables, e)["score_path_ambition"] == expected


@pytest.mark.parametrize("side, expected", [(None, 8 + 4 + 3), (0, 15 + 3 * 3), (1, 15 + 7)])
def test_path_of_power(content, tables, side, expected):
    """RC-E22, RC-A28: tile points; RC-E23, RC-R140, RC-R141: a board field scores its track's
    value (white at 7 -> 8); RC-E24 a: 3 per monument; RC-E25 b: tile monuments again (board
    fields not)."""
    mt = [0] * len(content.monument_tiles)
    mt[0] = mt[3] = 1                            # M1 (4), M4 (3)
    e = end(content, sides=(0, 0, 0, 0, 0, side or 0), tracks=[7, 4, 2], board_monuments=[1, 0, 0],
            monument_tiles=mt, discs=disc("power") if side is not None else disc())
    assert sheet(tables, e)["score_path_power"] == expected


# ---- leftovers, pigs, purple, goal ---------------------------------------------------------------

@pytest.mark.parametrize("crystals, followers, expected", [((2, 3, 1), 8, 6), ((0, 0, 0), 2, 0), ((1, 1, 0), 0, 1), ((0, 0, 3), 0, 3)])
def test_leftover_resources(content, tables, crystals, followers, expected):
    """RC-E26 red = 2 white, purple = 3 white; RC-E27 plus followers on the board (a large one
    is 3 units, RC-R78); RC-E28 1 point per 3, rounded down."""
    assert sheet(tables, end(content, crystals=list(crystals), followers=followers))["score_leftover"] == expected


def test_purple_points_and_pig_farms(content, tables):
    """RC-E43, RC-R174, RC-R176: purple points count only at the end; RC-E44, RC-R214: 2 points
    per pig farm where a Dorian holder is present."""
    s = sheet(tables, end(content, score=10, purple=4, pig_farms=3))
    assert (s["score_purple"], s["score_pigs"], s["score"]) == (4, 6, 20)


def _goal(content, gid):
    g = [0] * len(content.goal_cards)
    g[[x.id for x in content.goal_cards].index(gid)] = 1
    return g


@pytest.mark.parametrize("gid, given, met", [
    ("GC1", dict(artifacts=[2, 0, 0, 0]), True), ("GC1", dict(artifacts=[1, 1, 1, 1]), False),      # RC-E30
    ("GC2", dict(artifacts=[0, 0, 3, 0]), True), ("GC2", dict(artifacts=[2, 2, 2, 2]), False),      # RC-E31
    ("GC3", dict(artifacts=[1, 0, 1, 1]), True), ("GC3", dict(artifacts=[5, 5, 0, 0]), False),      # RC-E32
    ("GC4", dict(artifacts=[1, 1, 1, 1]), True), ("GC4", dict(artifacts=[1, 1, 1, 0]), False),      # RC-E33
    ("GC5", dict(stones=[1, 1, 1]), True), ("GC5", dict(stones=[4, 4, 0]), False),                  # RC-E34
    ("GC6", dict(stones=[2, 2, 1]), True), ("GC6", dict(stones=[2, 2, 0]), False),                  # RC-E35
    ("GC7", dict(upgrade_tiles=4), True), ("GC7", dict(upgrade_tiles=3), False),                    # RC-E36
    ("GC8", dict(sanctuaries=4), True), ("GC8", dict(sanctuaries=3), False),                        # RC-E37
    ("GC9", dict(board_monuments=[1, 1, 0], monument_tiles=[1] + [0] * 7), True),                   # RC-E38
    ("GC9", dict(board_monuments=[1, 1, 0]), False),
    ("GC10", dict(keys=[2, 5] + [0] * 11), True), ("GC10", dict(keys=[2, 4] + [0] * 11), False),    # RC-E39
    ("GC11", dict(old_tribes=3), True), ("GC11", dict(old_tribes=2), False),                        # RC-E40
    ("GC12", dict(camps=3), True), ("GC12", dict(camps=2), False),                                  # RC-E41
    ("GC13", dict(area_tiles=6), True), ("GC13", dict(area_tiles=5), False),                        # RC-E42
])
def test_goal_conditions(content, tables, gid, given, met):
    """RC-E29..E42, RC-A34: 15 points when the kept card's condition is met."""
    s = sheet(tables, end(content, goals=_goal(content, gid), **given))
    assert s["score_goal"] == (15 if met else 0)


def test_goal_stones_switch(content, tables):
    """RC-A58: '5 white, grey or black stones' counts the total by default, one colour if switched."""
    e = end(content, goals=_goal(content, "GC6"), stones=[2, 2, 1])
    assert sheet(tables, e, goal_stones="total")["score_goal"] == 15
    assert sheet(tables, e, goal_stones="one_colour")["score_goal"] == 0
    e5 = end(content, goals=_goal(content, "GC6"), stones=[5, 0, 0])
    assert sheet(tables, e5, goal_stones="one_colour")["score_goal"] == 15


def test_only_the_kept_goal_card_scores(content, tables):
    """RC-R190, RC-E29: a condition met on a card not kept gives nothing."""
    e = end(content, goals=_goal(content, "GC2"), artifacts=[2, 0, 0, 0])
    assert goal_met(tables, e)[0, 0, 0] and sheet(tables, e)["score_goal"] == 0


def test_score_is_the_sum_of_its_components(content, tables):
    """RC-A53: track + paths + leftovers + pigs + purple + goal, whatever the order."""
    e = end(content, score=30, purple=2, pig_farms=1, tracks=[3, 3, 3], stones=[1, 1, 1], crystals=[3, 0, 0],
            followers=3, goals=_goal(content, "GC5"), discs=disc("knowledge", "ancestors"))
    s = sheet(tables, e)
    parts = [c for c in COMPONENTS if not c.startswith("score_path_")]
    assert s["score"] == sum(s[c] for c in parts)
    assert s["score_paths"] == sum(s[f"score_path_{p}"] for p in PATHS)


# ---- winner and tie-breaks -----------------------------------------------------------------------

def test_ranks_and_tie_breaks():
    """RC-E45 most points; ties broken by RC-E46 the white, RC-E47 then the grey, RC-E48 then
    the black track; RC-E49 still tied players share the victory."""
    score = np.array([[50, 50, 50, 49], [40, 40, 40, 40], [30, 30, 20, 10]])
    tracks = np.array([[[3, 0, 0], [4, 0, 0], [2, 9, 9], [9, 9, 9]],        # white decides
                       [[5, 2, 0], [5, 3, 0], [5, 3, 1], [5, 3, 1]],        # grey then black; two share
                       [[1, 1, 1], [1, 1, 1], [0, 0, 0], [0, 0, 0]]])       # full tie shares
    rank, share = ranks(score, tracks)
    assert rank[0].tolist() == [2, 1, 3, 4] and share[0].tolist() == [0, 1, 0, 0]
    assert rank[1].tolist() == [4, 3, 1, 1] and share[1].tolist() == [0, 0, 0.5, 0.5]
    assert rank[2].tolist() == [1, 1, 3, 4] and share[2].tolist() == [0.5, 0.5, 0, 0]


# ---- solo goals ---------------------------------------------------------------------------------

def comp(artifacts=(0, 0, 0, 0), stones=(0, 0, 0), upgrades=0, keys=0, tribes=0, buildings=()):
    return Components(tuple(artifacts), tuple(stones), upgrades, keys, tribes, tuple(buildings))


def test_solo_components_count_for_one_card_only():
    """RC-V15: two cards asking for 3 different artifacts need two sets; two cards of 4
    sanctuaries cannot both be met with the 6 sanctuaries of a board."""
    three = ("artifact_colours", 3)
    assert not two_cards_met(comp(artifacts=(1, 1, 1, 1)), three, three)
    assert two_cards_met(comp(artifacts=(2, 2, 1, 1)), three, three)
    sanctuaries = [(0, k, frozenset()) for k in range(6)]
    assert not two_cards_met(comp(buildings=sanctuaries), ("sanctuaries", 4), ("sanctuaries", 4))
    # different resources never compete: 3 artifacts of one colour and 4 upgrade tiles
    assert two_cards_met(comp(artifacts=(3, 0, 0, 0), upgrades=4), ("artifacts_one_colour", 3), ("upgrade_tiles", 4))
    # buildings are split: 4 sanctuaries and 6 area tiles need 4 + 6 buildings on distinct tiles
    spread = [(0, k, frozenset()) for k in range(4)] + [(1, k, frozenset()) for k in range(4, 10)]
    assert two_cards_met(comp(buildings=spread), ("sanctuaries", 4), ("area_tiles", 6))
    assert not two_cards_met(comp(buildings=spread[:9]), ("sanctuaries", 4), ("area_tiles", 6))
    # camps: buildings next to camps 0, 1, 2 serve "3 camps"; the sanctuaries must be others
    camps = [(1, 0, frozenset({0})), (1, 1, frozenset({1})), (1, 2, frozenset({2}))]
    assert two_cards_met(comp(buildings=camps + sanctuaries[:4]), ("camps", 3), ("sanctuaries", 4))
    assert not two_cards_met(comp(buildings=[(0, 0, frozenset({0, 1, 2}))] + sanctuaries[1:4]),
                             ("camps", 3), ("sanctuaries", 4))


def test_solo_goal_rules():
    """RC-V13, RC-V14, RC-V18, RC-A54: keep_two needs both kept cards; keep_three any two of three."""
    c = comp(artifacts=(3, 0, 0, 0), stones=(1, 1, 1))
    cards = [("artifacts_one_colour", 3), ("stone_colours", 3), ("old_tribes", 3)]
    assert solo_goals(c, cards[:2], "keep_two") and not solo_goals(c, cards[1:], "keep_two")
    assert solo_goals(c, cards, "keep_three") and solo_goals(c, cards[::-1], "keep_three")
    assert not solo_goals(comp(), cards, "keep_three")


def test_solo_game_scores_15_once_and_wins_only_with_two_goals(tmp_path):
    """RC-V13, RC-V14, RC-V17 (the score and the win/loss are reported) through a position file: 15 points for the two cards together; a loss
    (win share 0) when only one is met, the score still reported."""
    import json
    base = json.loads((EXAMPLES / "example_solo_two_goals.json").read_text())
    rows = score_position(EXAMPLES / "example_solo_two_goals.json")
    assert rows[0]["score_goal"] == 15 and rows[0]["win_share"] == 1.0
    base["players"][0]["artifacts"] = {"white": 2}
    path = tmp_path / "solo.json"
    path.write_text(json.dumps(base))
    lost = score_position(path)[0]
    assert rows[0]["score"] == 30 + 6 + 6 + 1 + 15           # track, ancestors, ambition, leftover, goal
    assert lost["score_goal"] == 0 and lost["win_share"] == 0.0 and lost["score"] == 30 + 6 + 3 + 1


def test_goal_kinds_cover_the_seed_list():
    assert len(GOAL_KINDS) == 11          # 13 seed conditions; E30/E31 and E32/E33 share a kind with n


# ---- cross-check with the oracle's own final scoring ---------------------------------------------

def _end_from_oracle(o, content):
    """The oracle's end-of-game state as the engine's scoring arrays (and solo components)."""
    n, K, M, G = o.n, len(content.key_cards), len(content.monument_tiles), len(content.goal_cards)
    e = end(content, n)
    comps = []
    for p in range(n):
        for k in o.cards_owned(p):
            e.keys[0, p, k] += 1
        built = []
        for f in range(o.NF):
            b = o.bld[p][f]
            if b < 0:
                continue
            if o.bm_first <= f < o.river_first:
                e.board_monuments[0, p, content.map.board_monuments[f - o.bm_first].track] = 1
            elif b == 2:
                e.monument_tiles[0, p, o.mon_tile[f]] = 1
            built.append((b, o.slot_of_field[f], frozenset(g for g in o.adj[f] if o.terr[g] == 8)))
        for pos in o.paths[p]:
            if pos >= 0:
                e.discs[0, p, pos] = 1
        for g in o.goals[p]:
            e.goals[0, p, g] = 1
        e.score[0, p], e.purple[0, p], e.tracks[0, p] = o.score[p], o.purple[p], o.trk[p]
        e.stones[0, p], e.sanctuaries[0, p] = o.stones[p][:3], sum(o.sanct[p])
        e.artifacts[0, p], e.crystals[0, p], e.followers[0, p] = o.arts[p], o.cr[p], o.on_board(p)
        e.upgrade_tiles[0, p] = sum(x >= 0 for x in o.upg[p])
        e.old_tribes[0, p] = sum(o.unlocked[p])
        e.camps[0, p], e.area_tiles[0, p] = len(o.camps_next_to(p)), len(o.built_slots(p))
        e.pig_farms[0, p] = sum(o.farm[f] and o.dorian_present(p, f) for f in range(o.NF)) if o.dorian(p) else 0
        comps.append(Components(tuple(o.arts[p]), tuple(o.stones[p][:3]), int(e.upgrade_tiles[0, p]),
                                len(o.cards_owned(p)), sum(o.unlocked[p]), tuple(built)))
    e.path_card[0], e.path_side[0] = o.path_at, o.side_at
    assert (K, M, G) == (e.keys.shape[2], e.monument_tiles.shape[2], e.goals.shape[2])
    return e, comps


@pytest.mark.parametrize("players, extra", [(1, {}), (2, {"path_sides": "random"}), (3, {"path_sides": "random"}),
                                            (4, {"tribe_draft": "random", "path_sides": "random"})])
def test_scoring_agrees_with_the_oracle_on_random_games(players, extra):
    """Cross-check: random oracle games scored by scoring.py give the oracle's score sheet
    (every component, total, rank and win share; RC-E3..E49, RC-V13, RC-V14)."""
    import random

    from tests.oracle_recall import RcOracle
    cfg = Config(players=players, **extra)
    content = load_content(cfg)
    t = scoring_tables(content)
    for game in range(12):
        o = RcOracle(cfg, content, 21, game)
        r = random.Random(game)
        while not o.done:
            o.step(r.choice(o.legal_list()))
        e, comps = _end_from_oracle(o, content)
        solo = None
        if players == 1:
            cards = [(GOAL_KINDS[content.goal_cards[g].kind], content.goal_cards[g].n) for g in o.goals[0]]
            solo = np.array([[solo_goals(comps[0], cards, cfg.solo_goals, cfg.goal_stones)]])
        mine = final_scoring(t, e, cfg.goal_stones, solo)
        theirs = o.sheet()
        for part in ("score_track", "score_leftover", "score_pigs", "score_purple", "score_goal"):
            assert mine[part][0].tolist() == theirs[part], (game, part)
        for path in PATHS:
            assert mine[f"score_path_{path}"][0].tolist() == theirs[f"score_{path}"], (game, path)
        assert mine["score"][0].tolist() == theirs["score"]
        rank, share = ranks(mine["score"], e.tracks)
        assert rank[0].tolist() == theirs["rank"]
        if players > 1:
            assert share[0].tolist() == theirs["win_share"]
