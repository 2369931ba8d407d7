"""Illegal actions are refused: ``GAME.step`` applies nothing when an action is outside its
game's legal mask, and the error names the game, the decision and the action
(sim.core.game.check_legal). Before, the kernel applied it as it stood."""
from __future__ import annotations

import numpy as np
import pytest

from sim.core.game import IllegalActionError
from sim.games.animal_kingdoms.config import Config
from sim.games.animal_kingdoms.game import GAME
from sim.games.animal_kingdoms.state import TURN
from tests.test_animal_kingdoms_support import content_for, engine_from, oracle_from

A, B = 0, 1
ALL_K = ("K4", "K5", "K6", "K7", "K8")


def _arrays(s):
    return [a.copy() for a in (s.gid, s.deck_key, s.ints, s.kp, s.cards, s.flags)]


def test_illegal_retreat_is_refused_and_takes_no_tile_AK_A10_AK_R34():
    """AK-A10 (voluntary_retreat = forced_only): a player who can claim may not retreat. The
    refused retreat must not make the player inactive nor take the first-retreat tile (AK-R34)."""
    sc = {"config": {"players": 2, "voluntary_retreat": "forced_only"}, "hands": {A: ["Bear 2", "Bear 4"]},
          "decrees": {k: "DC01" for k in ALL_K}}
    o = oracle_from(sc)
    s = engine_from(o, TURN, cur=A)
    s.dec[0] = A
    legal = GAME.legal_actions(s)
    assert not legal[0, o.A_RETREAT] and legal[0, :o.A_RALLY].any()
    before = _arrays(s)
    with pytest.raises(IllegalActionError, match=r"game 0, decision age 1 turn 0, turn of seat 0: action "
                                                 rf"{o.A_RETREAT} \(retreat\) is not legal"):
        GAME.step(s, np.array([o.A_RETREAT]))
    assert all(np.array_equal(x, y) for x, y in zip(before, _arrays(s)))
    assert s.rt_owner[0].tolist() == [-1, -1, -1] and s.active[0].all()


def test_one_illegal_action_stops_the_whole_batch():
    """A batch with one illegal action (a battle card answered at a TURN) and one out of the
    action space: nothing moves, and the error names the first bad game by its index."""
    cfg = Config(players=3)
    content = content_for(cfg)
    s = GAME.init(cfg, content, np.arange(10, 16), seed=7)
    legal = GAME.legal_actions(s)
    actions = np.argmax(legal, axis=1)
    t = s.t
    assert (s.phase == TURN).all()
    actions[2] = t.A_BATTLE
    actions[4] = t.A
    before = _arrays(s)
    with pytest.raises(IllegalActionError, match=rf"game 12, .*action {t.A_BATTLE} \(battle:s0\).*1 more games"):
        GAME.step(s, actions)
    assert all(np.array_equal(x, y) for x, y in zip(before, _arrays(s)))
    actions[2], actions[4] = np.argmax(legal[2]), np.argmax(legal[4])
    GAME.step(s, actions)                                   # the legal answers are applied
    assert not all(np.array_equal(x, y) for x, y in zip(before, _arrays(s)))
