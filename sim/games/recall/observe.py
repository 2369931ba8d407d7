"""What a player may know (docs/recall_model.md "What a player observes", RC-A68).

An observation of seat ``v`` is

* ``m``: a copy of the state matrix with what ``v`` may not see overwritten by -1: the contents
  of face-down area tiles (tile, rotation and the fields' terrain, pigs, camp and start number),
  the old tribes and item stacks of tracks not revealed yet (RC-R163, RC-V6), and the chest
  kinds held by the other seats (zeroed: their number stays public as ``chests``); the pigs on
  the fields, pig farms and rings (``F_PIGS_ON``, ``F_FARM``, ``F_RING``, the rings of each kind
  placed) are public and kept;
* ``chests`` int[B, MAXP]: the number of chest tiles each seat holds;
* ``goals`` int[B, 3]: the viewer's own goal cards (-1 = none);
* ``goal_n`` int[B, MAXP]: how many goal cards each seat holds;
* ``legal``: the legal mask of the pending decision (the decider's options: public).

``sample_state(obs, keys)`` deals what the viewer does not know at random (for the lookahead
strategies; compiled, kernel/sample.py): the chest stack and the other seats' chest tiles, the
unseen part of the green and grey decks, the other seats' goal cards, the old tribes and item
stacks not revealed, the face-down area tiles, while the draft is on the old-tribe and item-stack
draws (nothing reads them after it: they stay -1), and fresh ``bag``, ``chests`` and ``rings`` stream
keys (the future bag draws, chest reshuffles and ring draws; the rings left are public). The pools are what the viewer can count (a good
approximation: chest tiles used and items gained from stacks are not subtracted).

The hidden matrix (chest stack, green and grey deck order, goal cards of others, the old-tribe
draws) never enters it; the bag is public only as counts by colour, which ``m`` holds.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core.memo import per_object
from sim.games.recall import state as st
from sim.games.recall.kernel import sample as ksample


@dataclass
class Obs:
    t: object
    player: np.ndarray          # int64[B] observing seat
    m: np.ndarray               # int32[B, W] scrubbed copy
    chests: np.ndarray          # int[B, MAXP]
    goals: np.ndarray           # int[B, 3]
    goal_n: np.ndarray          # int[B, MAXP]
    legal: np.ndarray           # bool[B, A]

    @property
    def batch(self) -> int:
        return len(self.player)


def observe(s: st.State, players) -> Obs:
    players = np.asarray(players, dtype=np.int64)
    B = s.batch
    rows = np.arange(B)
    m = s.m.copy()
    # face-down tiles (RC-S16, RC-S17): nothing of them is known
    down = m[:, st.G_UP:st.G_UP + st.S_MAX] == 0
    down &= np.arange(st.S_MAX)[None, :] < len(s.t.content.map.slots)
    m[:, st.G_TILE:st.G_TILE + st.S_MAX][down] = -1
    m[:, st.G_ROT:st.G_ROT + st.S_MAX][down] = -1
    fdown = np.zeros((B, st.F_MAX), dtype=bool)
    fdown[:, :7 * st.S_MAX] = np.repeat(down, 7, axis=1)[:, :st.F_MAX]
    for col in (st.F_TERR, st.F_PIGS, st.F_CAMP, st.F_START):
        m[:, col:col + st.F_MAX][fdown] = -1
    # old tribes and item stacks before their track reveals them
    hide = m[:, st.G_REVEALED:st.G_REVEALED + 3] == 0
    m[:, st.G_OLD_TRIBE:st.G_OLD_TRIBE + 3][hide] = -1
    m[:, st.G_OLD_ITEMS:st.G_OLD_ITEMS + 12][np.repeat(hide, 4, axis=1)] = -1
    # other seats' chest kinds: only their number
    chests = s.seat(st.P_CHESTS, st.C_MAX).sum(axis=2)
    blocks = m[:, st.SEAT0:st.SEAT0 + st.MAXP * st.SW].reshape(B, st.MAXP, st.SW)
    others = np.arange(st.MAXP)[None, :] != players[:, None]
    kinds = blocks[:, :, st.P_CHESTS:st.P_CHESTS + st.C_MAX]
    kinds[others] = 0
    held = s.hidden[:, st.H_GOALS:st.H_GOALS + 3 * st.MAXP].reshape(B, st.MAXP, 3)
    return Obs(s.t, players, m, chests, held[rows, players].copy(), (held >= 0).sum(axis=2), s.legal)


@per_object
def _sample_tables(t):
    return ksample.sample_tables(t)


def sample_state(obs: Obs, keys) -> st.State:
    """A full state consistent with ``obs`` (module doc), the unknown parts dealt by ``keys``:
    ``kernel/sample.py``'s ``sample_row`` per row (the compiled lookahead deals with it too)."""
    t = obs.t
    B = obs.batch
    s = st.empty_state(t, B)
    i64 = lambda a: np.ascontiguousarray(a, dtype=np.int64)  # noqa: E731
    ksample.sample_batch(np.ascontiguousarray(obs.m, dtype=np.int32), np.ascontiguousarray(obs.legal, dtype=bool),
                         i64(obs.chests), i64(obs.goals), i64(obs.goal_n), i64(obs.player),
                         np.ascontiguousarray(keys, dtype=np.uint64), s.m, s.hidden, s.legal, s.bag_key,
                         _sample_tables(t))
    return s
