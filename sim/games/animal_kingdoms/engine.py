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

from sim.core.game import check_legal
from sim.games.animal_kingdoms import actions as action_space
from sim.games.animal_kingdoms import kernel
from sim.games.animal_kingdoms.state import DONE, PHASE_NAMES


class _Decisions:
    """Each game's pending decision as text ("age 2 turn 31, turn of seat 1"), built only when
    ``check_legal`` names a refused action (``np.asarray`` of it makes the strings)."""

    def __init__(self, s):
        self.s = s

    def __array__(self, dtype=None, copy=None):
        s = self.s
        return np.array([f"age {a + 1} turn {t}, {PHASE_NAMES[ph]} of seat {d}" for a, t, ph, d in
                         zip(s.age, s.turns, s.phase, s.dec)])


class _Names:
    """The action names, built only when ``check_legal`` names a refused action."""

    def __init__(self, content):
        self.content = content

    def __len__(self):
        return action_space.num_actions(self.content)

    def __getitem__(self, a):
        return action_space.action_names(self.content)[a]


def advance(s):
    """Run automatic phases until every game waits for a decision or is over. In place."""
    s.__dict__.pop("_legal", None)
    tab, c = kernel.kernel_tables(s.t)
    kernel.step(kernel.state_arrays(s), tab, c, np.zeros(s.batch, dtype=np.int64), False)
    return s


def legal_actions(s) -> np.ndarray:
    """bool[B, A]: the legal actions of every game's pending decision (none when over).

    The state remembers a copy until its next ``step`` or ``advance``, so that the step's
    legality check does not build the mask a second time (the runner asks for it just before)."""
    out = _compute_legal(s)
    s.__dict__["_legal"] = out.copy()
    return out


def _compute_legal(s) -> np.ndarray:
    out = np.zeros((s.batch, s.t.A), dtype=bool)
    tab, c = kernel.kernel_tables(s.t)
    kernel.legal_actions(kernel.state_arrays(s), tab, c, out)
    return out


def decider(s) -> np.ndarray:
    return np.where(s.phase == DONE, -1, s.dec).astype(np.int64)


def step(s, actions):
    """Apply one decision per game (ignored for finished games), then advance. In place.

    An action outside its game's legal mask is refused (``IllegalActionError``) before any game
    of the batch moves: the kernel would apply it as it stands (an illegal retreat would take
    the first-retreat tile). The mask is the one ``legal_actions`` remembered for this state, or
    built here when it was not asked for."""
    actions = np.ascontiguousarray(actions, dtype=np.int64)
    legal = s.__dict__.pop("_legal", None)
    if legal is None:
        legal = _compute_legal(s)
    check_legal(legal, actions, s.phase != DONE, s.gid, _Decisions(s), _Names(s.t.content))
    tab, c = kernel.kernel_tables(s.t)
    kernel.step(kernel.state_arrays(s), tab, c, actions, True)
    return s
