"""Counter-based random streams: a draw depends only on its key, never on the batch."""
import numpy as np

from sim.core import rng


def test_draw_depends_only_on_game_not_batch():
    keys_all = rng.stream_keys(11, np.arange(100), "die")
    keys_one = rng.stream_keys(11, [57], "die")
    assert rng.uniform(keys_all, 3)[57] == rng.uniform(keys_one, 3)[0]


def test_purposes_seeds_and_counters_give_different_streams():
    k = rng.stream_keys(1, np.arange(1000), "deck")
    assert not np.array_equal(rng.bits(k, 0), rng.bits(rng.stream_keys(1, np.arange(1000), "die"), 0))
    assert not np.array_equal(rng.bits(k, 0), rng.bits(rng.stream_keys(2, np.arange(1000), "deck"), 0))
    assert not np.array_equal(rng.bits(k, 0), rng.bits(k, 1))


def test_uniform_and_integers_are_uniform():
    keys = rng.stream_keys(3, np.arange(60000), "die")
    faces = rng.integers(keys, 0, 6)
    counts = np.bincount(faces, minlength=6)
    assert faces.min() == 0 and faces.max() == 5
    # chi-square with 5 dof: 99.9% quantile is 20.5
    expected = len(faces) / 6
    assert ((counts - expected) ** 2 / expected).sum() < 20.5
    u = rng.uniform(keys, 1)
    assert 0 <= u.min() and u.max() < 1


def test_permutations_are_permutations_and_uniform_in_first_position():
    keys = rng.stream_keys(5, np.arange(30000), "deck")
    perms = rng.permutations(keys, 4)
    assert (np.sort(perms, axis=1) == np.arange(4)).all()
    first = np.bincount(perms[:, 0], minlength=4)
    expected = len(perms) / 4
    assert ((first - expected) ** 2 / expected).sum() < 16.3   # 3 dof, 99.9%
    again = rng.permutations(keys, 4, counter=1)
    assert not np.array_equal(perms, again)
