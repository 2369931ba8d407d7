"""Which Recall games end, while the engine does not compile every rule (docs/recall_engine.md).

``ended`` plays games exactly as the runner does (``runner.choose_actions``, the same strategy
streams and decision counters) but drops a game the engine stops instead of failing, so a test
can run through the real runner only games that end. Once nothing stops, every game is kept.
"""
from __future__ import annotations

import numpy as np

from sim.core import rng
from sim.core.game import take
from sim.core.runner import choose_actions, strategy_groups
from sim.games.recall import state as st
from sim.games.recall.game import GAME


def ended(config, content, strategies, seed: int, game_ids, counts: list | None = None) -> np.ndarray:
    """bool[len(game_ids)]: the game reaches its end (K_DONE) without a rule not compiled yet.
    ``counts``, if given, receives the number of decisions of each game (int64[len(game_ids)])."""
    ids = np.asarray(game_ids, dtype=np.int64)
    n = len(strategies)
    s = GAME.init(config, content, ids, seed)
    keys = np.stack([rng.stream_keys(seed, ids, "strategy", k) for k in range(n)])
    groups = strategy_groups(strategies)
    decisions = np.zeros(len(ids), dtype=np.int64)
    live = np.arange(len(ids))
    out = np.zeros(len(ids), dtype=bool)
    while len(live):
        kind = s.m[:, st.G_KIND]
        out[live[kind == st.K_DONE]] = True
        keep = np.flatnonzero((kind != st.K_DONE) & (kind != st.K_STOP))
        s, live = take(s, keep), live[keep]
        if not len(live):
            break
        actions = choose_actions(GAME, s, np.ones(len(live), dtype=bool), groups, keys[:, live], decisions[live], n)
        decisions[live] += 1
        s = GAME.step(s, actions)
    if counts is not None:
        counts.append(decisions)
    return out


def longest_run(flags: np.ndarray) -> tuple[int, int]:
    """(first index, length) of the longest run of True in ``flags``."""
    best, start = (0, 0), None
    for i, f in enumerate(list(flags) + [False]):
        if f and start is None:
            start = i
        elif not f and start is not None:
            best = max(best, (i - start, -start))
            start = None
    return -best[1], best[0]


def ending_range(exp, variant: str, search: int, make) -> tuple[int, int]:
    """(first game, count) of the longest run of consecutive games of ``exp`` that end, among the
    first ``search``; ``make`` is the runner's ``make_strategies``."""
    content = exp.content(variant)
    strategies = make(exp, variant, GAME, content)
    first, count = longest_run(ended(exp.variants[variant], content, strategies, exp.seed, np.arange(search)))
    return first, count
