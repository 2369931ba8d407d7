"""The compiled kernels of the engine (sim/games/animal_kingdoms/kernel.py, docs/animal_kingdoms_engine.md).

Whether they play the rules is the cross-check's job (tests/test_animal_kingdoms_crosscheck.py);
here: the scalar SplitMix64 is sim.core.rng bit for bit, the packed state's views write through
to the packs (the kernels update a state in place through them), and a game's play does not
depend on the batch it is played in.
"""
from __future__ import annotations

import numpy as np

from sim.core import rng
from sim.core.game import take
from sim.games.animal_kingdoms import kernel
from sim.games.animal_kingdoms.config import Config
from sim.games.animal_kingdoms.game import GAME
from sim.games.animal_kingdoms.state import CARD_PARTS, FLAG_PARTS, INT_PARTS, copy_state, empty_state, parts
from tests.test_animal_kingdoms_support import content_for


def test_scalar_splitmix_equals_sim_core_rng():
    """kernel.mix / kernel.bits are rng._mix / rng.bits for any key and counter (the deck shuffles use them)."""
    gen = np.random.default_rng(5)
    keys = gen.integers(0, 2**64, size=5000, dtype=np.uint64)
    keys[:4] = [0, 1, 2**63, 2**64 - 1]
    counters = gen.integers(0, 2**62, size=5000, dtype=np.int64)
    counters[:6] = [0, 1, 63, 64, 2**31, 2**62 - 1]
    out = np.zeros(len(keys), dtype=np.uint64)
    kernel.bits_many(keys, counters, out)
    assert np.array_equal(out, rng.bits(keys, counters))
    keys = rng.stream_keys(123, np.arange(100), "deck")
    kernel.bits_many(keys, np.arange(100) * 64 + 7, out[:100])
    assert np.array_equal(out[:100], rng.bits(keys, np.arange(100) * 64 + 7))
    assert all(kernel.mix(np.uint64(x)) == rng._mix(np.uint64(x)) for x in (0, 1, 12345, 2**64 - 1))


def test_packed_views_write_through():
    """Every int, card and flag array is a view of its pack: a kernel's write lands in the state (and in ``take``)."""
    config = Config(players=4)
    t = GAME.tables(config, content_for(config))
    s = empty_state(t, 3)
    for name, _ in INT_PARTS + CARD_PARTS + FLAG_PARTS:
        view = getattr(s, name)
        pack, first, stop, shape = parts(t)[name]
        assert view.shape == (3,) + shape and np.shares_memory(view, getattr(s, pack))
    s.hand[1, 2, 3] = 7
    s.disc[2, 5] = True
    s.sb[0, 1, 0] = False
    s.pf[2, 3] = 11
    assert s.ints[2, parts(t)["si"][1] + 3 * s.si.shape[2] + 3] == 11
    assert s.cards[1, parts(t)["hand"][1] + 2 * t.H + 3] == 7 and s.flags[2, parts(t)["disc"][1] + 5]
    assert not s.active[0, 1]
    u = take(s, np.array([2, 1]))
    assert u.hand[1, 2, 3] == 7 and u.disc[0, 5] and not np.shares_memory(u.cards, s.cards)
    c = copy_state(s)
    c.hand[1, 2, 3] = 9
    assert s.hand[1, 2, 3] == 7 and c.hand[1, 2, 3] == 9


def test_a_game_does_not_depend_on_its_batch():
    """The kernels loop over games with no shared state: a game plays the same alone as in a batch."""
    config = Config(players=3)
    content = content_for(config)
    ids = np.arange(40)
    full = GAME.init(config, content, ids, 9)
    alone = GAME.init(config, content, ids[[17]], 9)
    for i in range(10_000):
        d = GAME.decider(full)
        if (d < 0).all():
            break
        legal = GAME.legal_actions(full)
        assert np.array_equal(legal[17:18], GAME.legal_actions(alone))
        acts = np.array([np.flatnonzero(row)[(i * 7 + g) % max(row.sum(), 1)] if row.any() else 0
                         for g, row in enumerate(legal)])
        full = GAME.step(full, acts)
        alone = GAME.step(alone, acts[17:18])
        for f in ("ints", "kp", "cards", "flags"):
            assert np.array_equal(getattr(full, f)[17:18], getattr(alone, f)), f
    assert (GAME.decider(alone) < 0).all()
