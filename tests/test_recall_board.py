"""Recall board geometry, water, start fields and the seeded setup (spec sections 2, 7, 8.2)."""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.recall import setup as st
from sim.games.recall.board import (
    Layout, build_board, distances, enterable, field_code, fields, start_field, water_areas,
)
from sim.games.recall.board_stats import main as stats_main
from sim.games.recall.board_stats import measure
from sim.games.recall.config import Config
from sim.games.recall.content import load_content
from sim.games.recall.content_types import CAMP, EXCAVATION, START, TERRAINS, WATER
from sim.games.recall.setup_view import describe_setup
from sim.games.recall.game import GAME


@pytest.fixture(scope="module")
def content():
    return load_content(Config())


@pytest.fixture(scope="module")
def board(content):
    return build_board(content.map)


def all_up(content, rotation=0):
    return Layout(tuple(range(12)), (rotation,) * 12, (True,) * 12)


def test_field_index_and_placement_rule(board):
    """RC-A3: field = slot x 7 + (0 centre, 1 + direction); position p of a tile turned by rho
    lies on centre + d[(p - 1 + rho) mod 6]; board monument fields follow the 84 tile fields."""
    assert board.n_fields == 84 + 3 + 15
    assert board.coords[0] == (0, 0) and board.coords[1] == (1, 0) and board.coords[7 * 3] == (3, -2)
    assert board.field_of(3, 0, 4) == 21
    assert board.field_of(3, 1, 0) == 22 and board.field_of(3, 1, 2) == 24 and board.field_of(3, 6, 1) == 22
    assert board.board_monuments == (84, 85, 86) and board.name(85) == "BM_grey" and board.name(24) == "N2:3"


def test_slot_adjacency_is_the_spec_table(board):
    """RC-A3: the derived slot adjacency equals the spec's list."""
    spec = {"L": "R N1 N2 S2 S3 W1", "R": "L N2 N3 E1 S1 S2", "N1": "L N2 W1", "N2": "L R N1 N3",
            "N3": "R N2 N4 E1", "N4": "N3 E1", "E1": "R N3 N4 S1", "S1": "R E1 S2", "S2": "L R S1 S3",
            "S3": "L S2 W1 W2", "W1": "L N1 S3 W2", "W2": "S3 W1"}
    for i, sid in enumerate(board.slot_ids):
        got = {board.slot_ids[j] for j in np.nonzero(board.slot_adjacent[i])[0]}
        assert got == set(spec[sid].split()), sid


def test_board_monument_fields_border_the_spec_slots(board):
    """RC-A3 comments: BM_white borders N1 and W1, BM_grey S1 and S2, BM_black N3 and N4."""
    want = {"BM_white": {"N1", "W1"}, "BM_grey": {"S1", "S2"}, "BM_black": {"N3", "N4"}}
    for f, name in zip(board.board_monuments, board.board_monument_ids):
        near = {board.slot_ids[board.slot[g]] for g in board.neighbours[f] if g >= 0 and board.slot[g] >= 0}
        assert near == want[name]


def test_river_borders_six_slots_and_is_water(board, content):
    """RC-A65: printed water fields outside the tiles, bordering at least 6 slots, water for every rule."""
    near = {board.slot_ids[board.slot[g]] for f in board.river for g in board.neighbours[f]
            if g >= 0 and board.slot[g] >= 0}
    assert len(near) >= 6
    fl = fields(board, content, Layout(tuple(range(12)), (0,) * 12, (False,) * 12))
    assert all(fl.terrain[f] == WATER and fl.face_up[f] for f in board.river)
    labels = water_areas(board, content, fl)
    assert len({labels[f] for f in board.river}) == 1 and (labels >= 0).sum() == 15


def test_enterable_fields(board, content):
    """RC-R88, RC-A62, RC-A45: normal moves never enter water, volcanoes or face-down tiles;
    Colteron's holder may enter volcanoes."""
    layout = Layout(tuple(range(12)), (0,) * 12, (True, True) + (False,) * 10)
    fl = fields(board, content, layout)
    ok = enterable(content, fl)
    volcano = TERRAINS.index("volcano")
    assert not ok[(fl.terrain == WATER)].any() and not ok[~fl.face_up].any()
    assert ok[board.board_monuments[0]] and ok[start_field(fl, 1)]
    fl_all = fields(board, content, all_up(content))
    assert not enterable(content, fl_all)[fl_all.terrain == volcano].any()
    assert enterable(content, fl_all, volcano=True)[fl_all.terrain == volcano].all()


def test_water_areas_join_tile_water_to_the_river(board, content):
    """RC-A7(a): a water area is a maximal connected set of face-up water fields."""
    fl = fields(board, content, all_up(content))
    labels = water_areas(board, content, fl)
    water = (fl.terrain == WATER) & fl.face_up
    assert ((labels >= 0) == water).all()
    for f in np.nonzero(water)[0]:
        for g in board.neighbours[f]:
            if g >= 0 and water[g]:
                assert labels[g] == labels[f]


def test_start_fields_are_symmetric(board, content):
    """RC-A66: on every start tile and rotation, each start field has the same number of tile
    fields within one and two moves and the same distance to the tile's artifact symbols."""
    profiles = set()
    for k, tile in enumerate((0, 1)):
        for rho in range(6):
            layout = Layout(tuple(range(12)), (rho,) * 12, (True,) * 12)
            fl = fields(board, content, layout)
            slot = board.slot_ids.index(content.map.start_tile_slots[tile])
            on_tile = board.slot == slot
            ok = enterable(content, fl) & on_tile
            for f in np.nonzero((fl.terrain == START) & on_tile)[0]:
                d = distances(board, ok, f, 3)
                art = sorted(int(d[g]) for g in np.nonzero(fl.artifact & on_tile)[0])
                profiles.add(((d == 1).sum(), (d == 2).sum(), tuple(art)))
    assert len(profiles) == 1


def test_measurements_of_random_setups():
    """RC-A65, RC-A66: over random setups the largest water area is at least 8 fields, and every
    start field reaches an artifact in one move (the full 10,000-setup run is in the docs)."""
    m = measure(300, 5, 4)
    assert m["largest_water_setup"] >= 8 and m["largest_water_all_face_up"] >= 8
    assert set(m["artifact_in_one_move"]) == {1, 2, 3, 4}
    spread = max(m["fields_in_two_moves"].values()) - min(m["fields_in_two_moves"].values())
    assert all(v == 1.0 for v in m["artifact_in_one_move"].values()) and spread < 0.5
    assert abs(sum(m["terrain_share"].values()) - 1) < 1e-9


def test_board_stats_command_prints_the_numbers(capsys):
    assert stats_main(["--games", "20", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "mean largest water area at setup" in out and "st1:" in out and "st3:" not in out


# ---- the seeded setup (RC-S1..S38, section 7) ----------------------------------------------------

@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_components(content, board, players):
    """RC-S2..S18, RC-S27, RC-S32, RC-V12, RC-V16: what lies where after setup (RC-S13 one
    artifact of each colour in the display, the rest in the bag; RC-S16, RC-V10 the right start
    tile face down with 1-2 players; RC-S31 tribes and items shuffled separately)."""
    cfg = Config(players=players)
    s = st.deal(cfg, content, 3, 7, board)
    assert sorted(s.light_tokens) == list(range(6)) and sorted(s.dark_tokens) == list(range(6))     # RC-S2, RC-S3
    assert sorted(s.path_cards) == list(range(6)) and s.path_sides == (0,) * 6                     # RC-S4, RC-S5
    assert len(s.monument_tiles) == 5 and len(set(s.monument_tiles)) == 5                          # RC-S7
    assert len(s.chest_stack) == 24 and sorted(set(s.chest_stack)) == list(range(12))              # RC-S8
    assert sorted(s.upgrade_letters) == list(range(6))                                             # RC-S9
    assert len(s.green_deck) == 15 and len(s.grey_deck) == 12                                      # RC-S11, RC-S12
    assert all(content.key_cards[k].colour == 2 for k in s.green_deck)
    assert s.layout.tile[:2] == (0, 1) and sorted(s.layout.tile[2:]) == list(range(2, 12))         # RC-S15, RC-S17
    assert s.layout.face_up[0] and s.layout.face_up[1] == (players > 2) and not any(s.layout.face_up[2:])   # RC-S16
    up_tiles = 1 if players <= 2 else 2
    assert len(s.artifacts) == 2 * up_tiles                                                        # RC-S18
    assert len(s.sites) == up_tiles and all(len(x) == 3 for _, x in s.sites)
    fl = fields(board, content, s.layout)
    assert all(fl.artifact[f] for f, _ in s.artifacts) and all(fl.terrain[f] == EXCAVATION for f, _ in s.sites)
    assert sum(s.bag_artifacts) == 24 - 2 * up_tiles and sum(s.bag_stones) == 27 - 3 * up_tiles    # RC-S14
    assert s.bag_draws == 5 * up_tiles
    dealt = [g for cards in s.goal_cards for g in cards]
    assert len(dealt) == len(set(dealt)) == (3 if players == 1 else 2 * players)                   # RC-S27, RC-V12
    assert len(s.tribe_display) == len(s.item_display) == players + 1                              # RC-S32
    assert len(set(s.tribe_display)) == len(set(s.item_display)) == players + 1                    # RC-S31
    assert 0 <= s.start_slot < players                                                             # RC-S28
    assert s.start_fields == (1, 2, 3, 4)[:players]                                                # RC-S29, RC-A5
    old, stacks = st.old_tribes(content, 3, 7, s.tribe_display[:players], s.item_display[:players])
    assert len(set(old)) == 3 and not set(old) & set(s.tribe_display[:players])                    # RC-S36
    items = [i for stack in stacks for i in stack]
    assert len(items) == len(set(items)) == 12 and not set(items) & set(s.item_display[:players])  # RC-S37


def test_setup_is_a_function_of_seed_and_game_index(content, board):
    """Randomness is data: the same (seed, game) gives the same setup; another game index another."""
    cfg = Config(players=3, path_sides="random", start_fields="random")
    a, b = st.deal(cfg, content, 9, 4, board), st.deal(cfg, content, 9, 4, board)
    assert a == b
    assert st.deal(cfg, content, 9, 5, board) != a and st.deal(cfg, content, 10, 4, board) != a


def test_random_sides_and_start_fields(content, board):
    """RC-S6, RC-A10: random sides vary; an explicit list is per card. RC-A66: random start fields
    permute the start fields on face-up tiles."""
    sides = {st.deal(Config(path_sides="random"), content, 1, g, board).path_sides for g in range(30)}
    assert len(sides) > 10 and {x for s in sides for x in s} == {0, 1}
    s = st.deal(Config(path_sides="bbaaab"), content, 1, 0, board)
    assert s.path_sides == tuple((1, 1, 0, 0, 0, 1)[c] for c in s.path_cards)
    seen = {st.deal(Config(players=2, start_fields="random"), content, 2, g, board).start_fields for g in range(20)}
    assert seen == {(1, 2), (2, 1)}
    four = {st.deal(Config(players=4, start_fields="random"), content, 2, g, board).start_fields for g in range(40)}
    assert all(sorted(x) == [1, 2, 3, 4] for x in four) and len(four) > 5


def test_bag_draws_are_uniform_over_what_is_left(content):
    """RC-A35: a draw takes a piece uniformly among those left; an empty pool gives nothing."""
    left = [0, 0, 1, 0]
    assert st.draw_colour(1, 0, 0, left) == 2 and left == [0, 0, 0, 0]
    assert st.draw_colour(1, 0, 1, left) == -1
    counts = np.zeros(3)
    for k in range(3000):
        counts[st.draw_colour(4, 0, k, [1, 1, 2])] += 1
    assert abs(counts[2] / 3000 - 0.5) < 0.05 and abs(counts[0] / 3000 - 0.25) < 0.05


def test_setup_agrees_with_the_oracle(content):
    """The setup draws follow the decision model's stream table exactly as the oracle reads it."""
    from tests.oracle_recall import RcOracle
    for players in (1, 2, 3, 4):
        cfg = Config(players=players, path_sides="random")
        for g in range(3):
            s = st.deal(cfg, content, 11, g)
            o = RcOracle(cfg, content, 11, g, start=False)
            assert (s.start_slot, list(s.light_tokens), list(s.dark_tokens)) == (o.start_slot, o.light, o.dark)
            assert (list(s.path_cards), list(s.path_sides)) == (o.path_at, o.side_at)
            assert list(s.monument_tiles) == o.mon_display and list(s.chest_stack) == o.chest_stack
            assert list(s.upgrade_letters) == o.symbol_letter and list(s.green_deck[:3]) == o.display[2]
            assert (list(s.layout.tile), list(s.layout.rotation), list(s.layout.face_up)) == (o.slot_tile, o.rotation, o.face_up)
            assert sorted(s.artifacts) == sorted((f, a) for f, a in enumerate(o.art) if a >= 0)
            assert sorted((f, list(x)) for f, x in s.sites) == sorted((f, x) for f, x in enumerate(o.site) if x)
            assert [list(x) for x in s.goal_cards] == o.goals and s.bag_draws == o.bag_draws


def test_describe_setup_prints_board_water_and_start_fields(content):
    text = GAME.describe_setup(Config(players=4), content, 1, 0)
    assert "Water areas" in text and "Seat 4: start field st4" in text and "Path cards" in text
    assert "st1" in text and "??" in text and text == describe_setup(Config(players=4), content, 1, 0)
    assert GAME.name == "recall"


def test_field_codes(board, content):
    fl = fields(board, content, all_up(content))
    codes = {field_code(content, fl, f) for f in range(board.n_fields)}
    assert {"st1", "c1", "g3", "wa+a", "BM", "ex"} <= codes
    assert (fl.terrain == CAMP).sum() == 6


def test_camps_and_monument_fields(board, content):
    """RC-R90, RC-R149: a camp may be entered but takes no building; RC-R140: monuments stand on
    the printed board fields and on tile monument fields; RC-R159: three knowledge tracks."""
    fl = fields(board, content, all_up(content))
    ok = enterable(content, fl)
    camps = fl.terrain == CAMP
    assert ok[camps].all() and content.map.terrains[CAMP].building == -1
    takes = {t.name for t in content.map.terrains if t.building == 2}
    assert takes == {"monument", "board_monument"} and len(board.board_monuments) == 3


def test_any_rotation_puts_a_tile_on_its_slot(board):
    """RC-R108: an explored tile may lie in any of its 6 rotations: each is a bijection of the ring."""
    for rho in range(6):
        ring = sorted(board.field_of(4, p, rho) for p in range(1, 7))
        assert ring == list(range(29, 35)) and board.field_of(4, 0, rho) == 28


def test_old_tribes_after_the_draft(content, board):
    """RC-S34 seat k's pair (RC-V1 random tribes); RC-S35 the unchosen pair goes back into the
    stacks and may become an old tribe; RC-S38 the rest leaves unseen; RC-S39 the old tribes are
    laid out at setup (face down until revealed)."""
    cfg = Config(players=2)
    seen_unchosen = False
    for g in range(40):
        s = st.deal(cfg, content, 8, g, board)
        tribes, items = st.random_tribes(s, 2)
        assert tribes == s.tribe_display[:2] and items == s.item_display[:2]
        old, stacks = st.old_tribes(content, 8, g, tribes, items)
        seen_unchosen |= s.tribe_display[2] in old
        assert len(content.tribes) - 2 - len(old) == 9 and len(content.items) - 2 - 12 == 4
    assert seen_unchosen


def test_describe_command(capsys):
    from sim.games.recall.setup_view import main
    assert main(["--players", "2", "--seed", "3", "--game", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Recall setup: seed 3, game 1, 2 player(s)") and "R: face down (SR)" in out
