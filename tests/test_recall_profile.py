"""benchmarks/recall_profile.py times parts of rc_greedy's compiled decision by repeating them on
scratch rows: its games must be the games ``play_batch`` plays (the same choices on the same sampled
states), whatever part it repeats, or its breakdown would time other games."""
from __future__ import annotations

import numpy as np

from benchmarks import recall_profile as rp
from sim.core.runner import strategy_groups
from sim.games.recall import state as st
from strategies.recall import compiled_play


def test_profiled_games_equal_the_compiled_play_for_every_part():
    """Every part repeated leaves the end rows and the decision count of play_batch's games unchanged."""
    setup = rp.baseline(3)
    game, config, content, seed, strategies, keys = setup
    s = game.init(config, content, np.arange(3), seed)
    decisions = compiled_play(game, s, strategy_groups(strategies), keys, len(strategies))
    assert (s.m[:, st.G_KIND] == st.K_DONE).all()
    for part in (rp.NONE, *rp.PARTS):
        _, stats, p = rp.profiled(setup, part, 1)
        assert stats[0] == decisions.sum(), part
        assert np.array_equal(p.m, s.m) and np.array_equal(p.hidden, s.hidden), part
        assert stats[1] >= stats[0]                  # at least one legal action a decision
