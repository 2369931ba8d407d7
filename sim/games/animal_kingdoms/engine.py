"""The engine: legal actions, step, and the automatic flow between decisions.

A game is always either at a decision (phase TURN, BCARD, BMOD or COUNCIL, decider ``dec``) or
over (DONE). ``step`` applies one decision per game, then runs every automatic phase (robot
turns, turn passing, scoring, battle bookkeeping, councils without a choice, new ages) until
each game is at its next decision. The per-game branching runs in the compiled kernels of
``kernel.py`` (a loop over the games of the batch, scalar code, in place on the batch arrays
of ``state.py``); docs/animal_kingdoms_engine.md describes the layout and the kernels.
"""
from __future__ import annotations

import numpy as np

from sim.games.animal_kingdoms import kernel
from sim.games.animal_kingdoms.state import DONE


def advance(s):
    """Run automatic phases until every game waits for a decision or is over. In place."""
    tab, c = kernel.kernel_tables(s.t)
    kernel.step(kernel.state_arrays(s), tab, c, np.zeros(s.batch, dtype=np.int64), False)
    return s


def legal_actions(s) -> np.ndarray:
    """bool[B, A]: the legal actions of every game's pending decision (none when over)."""
    out = np.zeros((s.batch, s.t.A), dtype=bool)
    tab, c = kernel.kernel_tables(s.t)
    kernel.legal_actions(kernel.state_arrays(s), tab, c, out)
    return out


def decider(s) -> np.ndarray:
    return np.where(s.phase == DONE, -1, s.dec).astype(np.int64)


def step(s, actions):
    """Apply one decision per game (ignored for finished games), then advance. In place."""
    actions = np.ascontiguousarray(actions, dtype=np.int64)
    tab, c = kernel.kernel_tables(s.t)
    kernel.step(kernel.state_arrays(s), tab, c, actions, True)
    return s
