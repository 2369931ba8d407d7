"""The vectorised engine: legal actions, step, and the automatic flow between decisions.

A game is always either at a decision (phase TURN, BCARD, BMOD or COUNCIL, decider ``dec``) or
over (DONE). ``step`` applies one decision per game, then ``advance`` runs every automatic
phase (robot turns, turn passing, scoring, battle bookkeeping, councils without a choice, new
ages) until each game is at its next decision. Per-game branching is done by taking the
subset of games in each phase; the loop is over phases, never over games.
"""
from __future__ import annotations

import numpy as np

from sim.games.animal_kingdoms import ages, scoring, turns
from sim.games.animal_kingdoms.state import (
    AGE_END, BCARD, BEGIN, BEND, BMOD, BROUND, COUNCIL, CSEEK, DONE, NEWAGE, NEXT, RESOLVE, REVEAL,
    SCORE, SRESOLVE, SREVEAL, TURN,
)

# In the order of the usual flow, so that most chains (a turn passing on, an age ending, a new
# age beginning) settle in one pass; a handler may leave rows in a phase of an earlier handler
# (the next pass takes them).
HANDLERS = (
    (NEXT, turns.next_turn), (SCORE, scoring.score_kingdom),
    (BROUND, scoring.battle_round), (REVEAL, scoring.reveal), (RESOLVE, scoring.resolve),
    (SREVEAL, scoring.solo_reveal), (SRESOLVE, scoring.solo_resolve), (BEND, scoring.battle_end),
    (SCORE, scoring.score_kingdom), (AGE_END, ages.age_end), (CSEEK, ages.council_seek),
    (NEWAGE, ages.new_age), (BEGIN, turns.begin_turn), (NEXT, turns.next_turn), (BEGIN, turns.begin_turn),
)
MAX_PASSES = 10_000


def advance(s):
    """Run automatic phases until every game waits for a decision or is over."""
    for _ in range(MAX_PASSES):
        auto = (s.phase >= BEGIN) & (s.phase != DONE)
        if not auto.any():
            return s
        for code, handler in HANDLERS:
            rows = np.nonzero(s.phase == code)[0]
            if len(rows):
                handler(s, rows)
    raise RuntimeError("animal kingdoms: automatic phases did not settle")


def legal_actions(s) -> np.ndarray:
    """bool[B, A]: the legal actions of every game's pending decision (none when over)."""
    t = s.t
    out = np.zeros((s.batch, t.A), dtype=bool)
    rows = np.nonzero(s.phase == TURN)[0]
    if len(rows):
        out[rows] = turns.turn_legal(s, rows)
    rows = np.nonzero(s.phase == BCARD)[0]
    if len(rows):
        p = s.dec[rows].astype(np.int64)
        out[rows, t.A_BATTLE:t.A_BATTLE + t.H] = s.hand[rows, p] != t.N
    rows = np.nonzero(s.phase == BMOD)[0]
    if len(rows):
        p = s.dec[rows].astype(np.int64)
        out[rows, t.A_MODS:t.A_MODS + t.M + 1] = np.arange(t.M + 1)[None, :] <= s.mods[rows, p][:, None]
    rows = np.nonzero(s.phase == COUNCIL)[0]
    if len(rows):
        out[rows, t.A_YES] = True
        out[rows, t.A_NO] = True
    return out


def decider(s) -> np.ndarray:
    return np.where(s.phase == DONE, -1, s.dec).astype(np.int64)


def step(s, actions):
    """Apply one decision per game (ignored for finished games), then advance. In place."""
    actions = np.asarray(actions, dtype=np.int64)
    todo = [(apply, np.nonzero(s.phase == code)[0])
            for code, apply in ((TURN, turns.apply_turn), (BCARD, scoring.battle_card),
                                (BMOD, scoring.battle_mods), (COUNCIL, ages.council_decision))]
    for apply, rows in todo:
        if len(rows):
            apply(s, rows, actions[rows])
    return advance(s)
