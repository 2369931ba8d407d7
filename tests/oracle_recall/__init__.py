"""Recall test oracle: a plain, one-game-at-a-time implementation of the rules.

It is the reference the compiled Recall engine must agree with decision by decision (same
decider, decision kind and legal actions at every decision, same final score sheet). Written
from the rules (/work/shared/specs/recall.md, recall_addendum.md; the Dutch seed wins) and the
decision model (docs/recall_model.md, the contract); it shares no rules code with the engine,
only the ``Content`` it reads (``sim/games/recall/content_types.py``).

Layout: ``RcOracle`` is assembled from one class per job, each in its own module: ``setup``
(map, action space, setup draws), ``driving`` (interface, generator machinery), ``pieces``
(payments, followers, points, tracks), ``rewards`` (the reward language), ``abilities``
(stones, windows, events, coded tribes and items), ``board`` (movement, water, development,
exploring), ``play`` (rounds, turns, recall, special rounds), ``scoring`` and ``observe``
(what a player may see); ``common`` holds the names they share.

How it works (as the other oracles): the whole game is one generator, ``_play``. Game logic
``yield``s every decision as ``(decider, kind, legal actions)`` and receives the chosen action
back; sub-steps are ``yield from``. ``_ask`` applies a decision with exactly one legal action at
once without yielding, and skips a decision with none (returns None).

Interface: properties ``decider`` (seat, -1 once over), ``kind``, ``done``; methods
``legal_list()``, ``legal()`` / ``legal_mask()`` (bool[A]), ``step(action)``, ``name(action)``,
``scores()`` and ``outcome()``. Hand-made positions: ``RcOracle(config, content, seed, game,
start=False)`` sets the game up (random draws included, no decision asked); a test then edits
the plain state below and drives single pieces with ``drive(generator, actions)``.

State (seats 0..n-1, seat 0 = start player; field = index of the map, see ``self.coord``):
``terr`` (per field: terrain index, -1 = face-down or no field), ``pigpic``, ``camp``, ``startno``,
``art`` (artifact colour on the field or -1), ``site`` (stones on an excavation site, list of
colours), ``fol[p][f]`` (follower units), ``bld[p][f]`` (building index or -1), ``cr[p]``
([W, R, P]), ``score``, ``purple``, ``trk[p]`` (3 positions), ``stones[p]`` ([white, grey,
black, own] owned anywhere), ``placed[p]`` (stones lying on abilities), ``uses[p]`` (ability
id -> activations since the last recall), ``avail[p]`` (kind -> count), ``slots[p]`` (6 kinds or
-1), ``sanct[p]`` (6 flags: built), ``ws[p]`` (workshops built per terrain), ``mons[p]``,
``arts[p]`` (4 row lengths), ``chests[p]`` (kind -> count), ``upg[p]`` (side per letter or -1),
``tribe[p]``, ``items[p]`` (item indices), ``unlocked[p]`` (3 flags), ``paths[p]`` (choice per
sector), ``goals[p]``, ``camp_got[p]`` (camp fields rewarded).
"""
from __future__ import annotations

from tests.oracle_recall.abilities import Abilities
from tests.oracle_recall.board import Board
from tests.oracle_recall.common import KINDS, MON, PARTS, SAN, WKS, TurnGuard
from tests.oracle_recall.driving import Driving
from tests.oracle_recall.observe import Observe
from tests.oracle_recall.pieces import Pieces
from tests.oracle_recall.play import Play
from tests.oracle_recall.rewards import Rewards
from tests.oracle_recall.scoring import Scoring
from tests.oracle_recall.setup import Setup

__all__ = ["KINDS", "MON", "PARTS", "SAN", "WKS", "RcOracle", "Oracle", "TurnGuard"]


class RcOracle(Setup, Driving, Pieces, Rewards, Abilities, Board, Play, Scoring, Observe):
    """One game of Recall, played decision by decision (see the module doc)."""


Oracle = RcOracle
