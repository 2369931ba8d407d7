"""Invariants over random games of the engine, checked after every step.

Cards are never created or lost, markers and modifier tiles are conserved, a column holds one
card per marker placed in the age, nobody holds two capitals in an age, scores are the sum of
their components and win shares sum to 1.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.animal_kingdoms.config import Config
from sim.games.animal_kingdoms.game import GAME
from sim.games.animal_kingdoms.scoring import COMPONENTS
from sim.games.animal_kingdoms.state import BMOD, DONE, TURN
from tests.test_animal_kingdoms_support import play_random

CONFIGS = [dict(players=2), dict(players=4), dict(players=5, peace=True), dict(players=1, robot_level="extra_hard"),
           dict(players=1, robot_level="extra_hard", robot_bonus_effect="play_bonus_card", robot_bonus_chain=True),
           dict(players=3, hand_size=3, reshuffle_discard_when_empty=False)]


def zone_counts(s) -> np.ndarray:
    """int[B, N]: in how many places each card is (must be exactly one)."""
    t = s.t
    B, N = s.batch, t.N
    count = np.zeros((B, N + 1), dtype=np.int64)
    rows = np.arange(B)[:, None]
    pos = np.arange(N)[None, :]
    in_deck = (pos >= s.dtop[:, None]) & (pos < s.dend[:, None])
    np.add.at(count, (np.broadcast_to(rows, (B, N))[in_deck], s.deck[in_deck].astype(np.int64)), 1)
    for arr in (s.hand.reshape(B, t.P * t.H), s.bonus, s.rcards):
        np.add.at(count, (np.broadcast_to(rows, arr.shape), arr.astype(np.int64)), 1)
    in_col = np.arange(t.S)[None, None, :] < s.clen[:, :, None]
    colr = np.broadcast_to(np.arange(B)[:, None, None], s.col.shape)[in_col]
    np.add.at(count, (colr, s.col[in_col].astype(np.int64)), 1)
    count[:, :N] += s.disc
    revealed = np.where((s.phase == BMOD)[:, None], s.bch, N)      # played this round, not yet discarded
    np.add.at(count, (np.broadcast_to(rows, revealed.shape), revealed.astype(np.int64)), 1)
    return count[:, :N]


def check(s):
    t = s.t
    # AK-S5, AK-R45, AK-A18, AK-A19: every card is in exactly one place
    assert (zone_counts(s) == 1).all()
    # AK-S2, AK-R42, AK-R44: supply + board = the player's markers
    board = s.ordm.sum(axis=1) + (s.cap[:, :, None] == np.arange(t.P)).sum(axis=1) + s.council.sum(axis=1)
    assert (s.supply + board == t.markers[None, :]).all()
    assert (s.supply >= 0).all()
    # AK-S18, AK-E20, AK-A25, AK-A29: modifier tiles are conserved
    assert (s.msup + s.mods.sum(axis=1) == t.M).all()
    # AK-R9: hands never exceed H (sorted, sentinels last)
    assert (np.diff(s.hand.astype(np.int64), axis=2) >= 0).all()
    # AK-R18: a player claims at most one capital per age
    assert ((s.cap[:, :, None] == np.arange(t.P)).sum(axis=1) <= 1).all()
    # AK-R28: cards in a column = markers placed there this age (council markers excluded)
    if not t.config.council_claimable and t.config.robot_bonus_effect != "extra_marker":
        placed = s.ordm.sum(axis=2) + (s.cap >= 0)
        live = s.phase == TURN                  # during the age's play (a council move comes after it)
        assert (s.clen[live] == placed[live]).all()
    # AK-R43: at most 2 markers per council
    assert (s.council.sum(axis=2) <= t.council_spaces[None, :]).all()


@pytest.mark.parametrize("number", range(len(CONFIGS)))
def test_invariants_hold_at_every_step(number):
    """AK-S2, AK-S5, AK-S18, AK-R9, AK-R18, AK-R28, AK-R42, AK-R43, AK-R44, AK-R45, AK-E20: conservation."""
    config = Config(**CONFIGS[number])
    s = play_random(config, np.arange(150), seed=50 + number, pick=check)
    out = GAME.outcome(s)["per_seat"]
    # scores are the sum of their components; win shares sum to 1 (AK-E26, AK-E27)
    assert (out["score"] == sum(out[c] for c in COMPONENTS)).all()
    assert np.allclose(out["win_share"].sum(axis=1), 1.0)
    assert (out["rank"].min(axis=1) == 1).all()
    # AK-R36: exactly the three set-aside first-retreat tiles are handed out, one per age
    assert (out["ak_first_retreats"].sum(axis=1) == 3).all()
    assert (s.rt_owner >= 0).all()
    # AK-R1, AK-E23: three ages were played
    assert (s.age == 2).all() and (s.phase == DONE).all()


def test_first_place_tiles_are_used_one_per_age_AK_A23():
    """AK-E5, AK-R52, AK-A23: each kingdom's leftmost tile leaves at each scoring, so 3 are gone."""
    s = play_random(Config(players=3), np.arange(60), seed=3)
    assert (s.fpn == 3).all()
