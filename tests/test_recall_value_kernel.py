"""The compiled position value (sim/games/recall/kernel/value.py) equals value.py's, bit for bit."""
from __future__ import annotations

import numpy as np
import pytest

from sim.core import config as cfgmod
from sim.core import rng
from sim.core.game import take
from sim.games.recall import state as st
from sim.games.recall import value
from sim.games.recall.game import GAME
from sim.games.recall.kernel import value as kvalue

WEIGHT_SETS = [value.DEFAULTS, {"final": 1.0, "purple": 0.0, "crystals": 0.4, "keys": 1.0, "tracks": 0.5,
                                "followers": 0.4, "pending": 0.5, "opponents": 0.0},
               {k: 0.3 + 0.17 * i for i, k in enumerate(kvalue.WEIGHTS)},
               {k: 0.0 for k in kvalue.WEIGHTS}]


def _random_states(players: int, games: int, seed: int):
    """States met in random play: every game's state after each of its first decisions."""
    config = cfgmod.build(GAME.Config, {"players": players}, "test", "")
    content = GAME.load_content(config)
    s = GAME.init(config, content, np.arange(games), seed)
    out = []
    for d in range(400):
        kind = s.m[:, st.G_KIND]
        live = np.flatnonzero((kind != st.K_DONE) & (kind != st.K_STOP))
        out.append(take(s, np.arange(s.batch)[d % 7::7]))      # some games at every step, ended ones too
        if not len(live):
            break
        s = take(s, live)
        u = rng.uniform(rng.stream_keys(seed, s.gid, "test"), np.full(s.batch, d))
        legal = s.legal
        rank = np.minimum((u * legal.sum(axis=1)).astype(np.int64), np.maximum(legal.sum(axis=1) - 1, 0))
        s = GAME.step(s, np.argmax(np.cumsum(legal, axis=1) > rank[:, None], axis=1))
    return out


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_compiled_position_value_equals_value_py_RC_E3_E28_E43(players):
    """Final scoring without goals (RC-E3..E28, RC-E43) plus the weighted resources, on thousands of states of
    random play: the compiled value equals value.position_value exactly, for every seat."""
    states = _random_states(players, 48, 11 + players)
    vt = None
    checked = 0
    for s in states:
        if not s.batch:
            continue
        vt = vt or kvalue.value_tables(s.t)
        for p in range(players):
            seat = np.full(s.batch, p)
            for w in WEIGHT_SETS:
                want = value.position_value(s, seat, w)
                got = kvalue.position_value(s, seat, np.array([{**value.DEFAULTS, **w}[k] for k in kvalue.WEIGHTS]), vt)
                np.testing.assert_array_equal(got, want)
            checked += s.batch
    assert checked > 400                                       # (state, seat) pairs, each with every weight set


def test_pending_items_belong_to_the_explorer_during_another_players_camp_reward_rc_r148():
    """RC-R148 (docs/recall_engine.md "Exploring"): while seat 0 receives a camp of seat 2's
    exploration (``G_ACTIVE`` 0, ``G_EXP_ACTIVE`` 3), the two items still pending are seat 2's turn:
    with only the ``pending`` weight, seat 2 is worth 3 (2, +1: ``move_to`` is a decision inside an
    item), seat 0 nothing; outside a camp reward they are the active seat's. Both value.py and the kernel."""
    s = _random_states(3, 4, 5)[3]
    s = take(s, [0])
    w = {k: 0.0 for k in kvalue.WEIGHTS}
    w["pending"] = 1.0
    vt = kvalue.value_tables(s.t)
    s.m[0, st.G_ACTIVE], s.m[0, st.G_PEND_N], s.m[0, st.G_KIND] = 0, 2, st.K_MOVE_TO
    for exp, want in ((3, (0.0, 0.0, 3.0)), (0, (3.0, 0.0, 0.0))):
        s.m[0, st.G_EXP_ACTIVE] = exp
        for p in range(3):
            seat = np.full(1, p)
            got = kvalue.position_value(s, seat, np.array([w[k] for k in kvalue.WEIGHTS]), vt)
            assert value.position_value(s, seat, w)[0] == want[p] == got[0], (exp, p)
