"""Generic strategy helpers: uniform choice among legal actions, tie-breaks, keyed randomness."""
import numpy as np

from sim.core import rng
from strategies.base import StrategyRng, argmax_tiebreak, choose_uniform


def test_choose_uniform_only_picks_legal_actions_uniformly():
    legal = np.zeros((60000, 5), bool)
    legal[:, [1, 3, 4]] = True
    keys = rng.stream_keys(1, np.arange(60000), "strategy", 0)
    picks = choose_uniform(legal, StrategyRng(keys, np.zeros(60000, np.int64)).uniform(1)[:, 0])
    assert set(np.unique(picks)) == {1, 3, 4}
    counts = np.bincount(picks, minlength=5)[[1, 3, 4]]
    assert np.abs(counts / 60000 - 1 / 3).max() < 0.01


def test_argmax_tiebreak_prefers_value_and_never_illegal():
    values = np.array([[5.0, 9.0, 9.0, 1.0], [3.0, 3.0, 3.0, 3.0]])
    legal = np.array([[True, False, True, True], [True, True, False, True]])
    u = np.array([[0.1, 0.2, 0.3, 0.4], [0.9, 0.1, 0.5, 0.2]])
    assert argmax_tiebreak(values, legal, u).tolist() == [2, 0]


def test_strategy_rng_depends_on_game_and_counter_only():
    keys = rng.stream_keys(3, np.arange(10), "strategy", 2)
    a = StrategyRng(keys, np.arange(10)).uniform(3)
    b = StrategyRng(keys[[7]], np.array([7])).uniform(3)
    assert np.array_equal(a[7], b[0])
    assert not np.array_equal(a, StrategyRng(keys, np.arange(10) + 1).uniform(3))
