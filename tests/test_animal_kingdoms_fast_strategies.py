"""The scripted Animal Kingdoms plans as a numba kernel: one call for several plans (the runner's
group call) chooses as each plan alone, and each plan is clearly better than random play.
(The plans' choices themselves are pinned on hand-made positions in
tests/test_animal_kingdoms_plan_choices.py.)"""
from __future__ import annotations

import numpy as np
import pytest

from sim.core.game import take
from sim.core.runner import play_games
from sim.games.animal_kingdoms.config import Config
from sim.games.animal_kingdoms.game import GAME
from strategies import registry
from strategies.base import StrategyRng
from tests.test_animal_kingdoms_strategies import PLANS, mid_game_states
from tests.test_animal_kingdoms_support import content_for


def make(name, config, params=None):
    return registry.make(name, params or {}, GAME, content_for(config))


VARIANTS = [{"card": 0.0}, {"council": False, "rally": 5.0, "max_rallies": 9},
            {"retreat_tile": 3.0}, {"retreat_below": 3.0, "tie": 1.0, "spread": -1.0}]


@pytest.mark.parametrize("players", [1, 2, 4, 5])
def test_group_call_equals_each_plan_alone(players):
    """Rows decided by different plans in one kernel call get each plan's own choice, and a legal one."""
    config = Config(players=players)
    plans = [make(n, config) for n in PLANS] + [make("ak_greedy", config, v) for v in VARIANTS]
    checked = 0
    for k, s in enumerate(mid_game_states(config, n=150, seed=11 + players, steps=(0, 3, 8, 20, 45, 70, 100, 130))):
        live = np.nonzero(~GAME.done(s))[0]
        if not len(live):
            continue
        s = take(s, live)
        legal = GAME.legal_actions(s)
        obs = GAME.observe(s, s.dec)
        keys = np.arange(len(live), dtype=np.uint64) * 31 + 5
        which = np.arange(len(live)) % len(plans)
        got = type(plans[0]).act_group(plans, which, obs, legal, StrategyRng(keys, np.full(len(live), k)))
        for i, plan in enumerate(plans):
            alone = plan.act(obs, legal, StrategyRng(keys, np.full(len(live), k)))
            rows = which == i
            assert np.array_equal(got[rows], alone[rows]), plan.params
        assert legal[np.arange(len(live)), got].all()
        checked += len(live)
    assert checked > 0


@pytest.mark.parametrize("name", PLANS)
def test_each_plan_beats_random_play(name):
    """One plan against three random players (4 players, random start slot): a fair share is 0.25."""
    config = Config(players=4)
    strategies = [make(name, config)] + [make("random", config)] * 3
    out, _ = play_games(GAME, config, content_for(config), strategies, 21, np.arange(300))
    slot = out["per_seat"]["slot"]
    share = (out["per_seat"]["win_share"] * (slot == 0)).sum() / 300
    assert share > 0.45, share               # more than 1.8x a fair share
