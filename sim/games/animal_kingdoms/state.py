"""The engine's state: numpy arrays with the batch axis first (B games, P seats, K kingdoms).

Layout (N cards, H hand slots, S column slots; ``SENT = N`` is "no card"):

* Cards: ``hand`` int16[B, P, H] sorted ascending, empty slots ``SENT`` at the end; the deck
  ``deck`` int16[B, N] holds its cards at positions ``dtop .. dend-1`` (top first); ``disc``
  bool[B, N] the discard pile; ``col`` int16[B, K, S] the columns with lengths ``clen``;
  ``bonus`` the robot's face-up bonus cards, ``rcards`` its revealed battle cards.
* Board: ``ordm`` int8[B, K, P] ordinary markers, ``cap`` int8[B, K] capital owner (-1),
  ``council`` int8[B, K, P], ``supply`` int16[B, P]; ``last`` [B, K] each column's last card
  (SENT when empty: the decree reference of AK-R21..R25); decrees ``decree`` [B, K] (indices into
  the content) from ``dorder``; first-place tiles ``fp`` [B, K, T] (sorted) with ``fpn`` the
  index of the leftmost remaining one; first-retreat tiles ``rt`` [B, R] (tile ``a`` goes to
  Age ``a``'s first retreater, ``rt_owner`` [B, 3]).
* Score: track parts ``pf``/``ps``/``pt``/``pr`` (first, second, third places, rallies),
  modifiers ``mods`` [B, P] and the supply ``msup``.
* Flow: ``phase`` (codes below), ``dec`` the decider, ``age``, ``cur``, ``age_start``,
  ``active``, the rally-ban flags, turn counters, capital claim times (``cap_turn`` in the
  age, ``first_cap`` in the game; ``BIG`` = none), the solo targets ``human_last`` /
  ``robot_last``; scoring index ``sj``; battle ``part`` / ``lost`` / ``bfirst`` / ``bch``
  (chosen card) / ``bmod`` (modifier choice, -1 undecided); council index ``ck``.

The per-game, per-seat and per-kingdom numbers are packed into a few arrays (see ``PACKS``)
with a named view for each, and so are the card arrays (int16, ``cards``) and the flags (bool,
``flags``: ``gb``, ``sb``, ``disc``), because the runner copies the state once per array for
every strategy slot at every step (``take``): six arrays instead of seventeen. ``step`` updates a state in place and returns it;
``sim.core.game.take`` makes copies.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from sim.games.animal_kingdoms.tables import Tables

# decisions
TURN, BCARD, BMOD, COUNCIL = 0, 1, 2, 3
# automatic phases (never seen at a decision)
BEGIN, NEXT, SCORE, BROUND, REVEAL, RESOLVE, BEND, SREVEAL, SRESOLVE, AGE_END, CSEEK, NEWAGE = range(4, 16)
DONE = 16
PHASE_NAMES = ("turn", "battle_card", "battle_mods", "council", "begin", "next", "score", "battle_round",
               "reveal", "resolve", "battle_end", "solo_reveal", "solo_resolve", "age_end", "council_seek",
               "new_age", "done")
ORDINARY, IN_COUNCIL, CAPITAL = 0, 1, 2


# Packed layout: few arrays make ``take`` (one copy per array) cheap; every name below is a
# view into one of them, so handlers read and write ``s.phase[rows]`` as if it were its own array.
GAME_INT = ("phase", "dec", "age", "cur", "age_start", "age_turns", "turns", "rounds", "last_rel",
            "human_last", "robot_last", "dtop", "dend", "msup", "sj", "ck", "battles", "shuffles",
            "start_slot", ("rt_owner", 3))
GAME_BOOL = ("ret_age", "ret_ever", "cap_hit")
SEAT_INT = ("cap_turn", "first_cap", "supply", "pf", "ps", "pt", "pr", "mods", "bch", "bmod", "st_claims",
            "st_rallies", "st_capitals", "st_first_retreats", "st_battles_won", "st_battles_lost", "st_council")
SEAT_BOOL = ("active", "part", "lost", "bfirst")
KINGDOM_INT = ("cap", "clen", "decree", "fpn", "last")
KINGDOM_SEAT = ("ordm", "council")
PACKS = {"gi": GAME_INT, "gb": GAME_BOOL, "si": SEAT_INT, "sb": SEAT_BOOL, "ki": KINGDOM_INT, "kp": KINGDOM_SEAT}


# The packs above (all int32, but kp), the card arrays (all int16) and the flags (all bool) are
# parts of three arrays, ``ints``, ``cards`` and ``flags``: (name, shape from the tables) in
# order; ``State.gi``, ``State.hand`` etc. are views.
INT_PARTS = (("gi", lambda t: (_width(GAME_INT),)), ("si", lambda t: (t.P, _width(SEAT_INT))),
             ("ki", lambda t: (t.K, _width(KINGDOM_INT))))
CARD_PARTS = (("hand", lambda t: (t.P, t.H)), ("deck", lambda t: (t.N,)), ("col", lambda t: (t.K, t.S)),
              ("extra", lambda t: (t.BN + t.RC,)), ("fp", lambda t: (t.K, t.T)), ("rt", lambda t: (t.R,)),
              ("dorder", lambda t: (t.D,)))
FLAG_PARTS = (("gb", lambda t: (len(GAME_BOOL),)), ("sb", lambda t: (t.P, len(SEAT_BOOL))),
              ("disc", lambda t: (t.N,)))
_PARTS = {}


def parts(t: Tables) -> dict:
    """name -> (pack, first column, stop column, shape) of the parts of ``ints``, ``cards`` and ``flags``."""
    hit = _PARTS.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    out = {}
    for pack, spec in (("ints", INT_PARTS), ("cards", CARD_PARTS), ("flags", FLAG_PARTS)):
        i = 0
        for name, shape in spec:
            n = int(np.prod(shape(t)))
            out[name] = (pack, i, i + n, shape(t))
            i += n
        out[pack] = (pack, 0, i, (i,))
    _PARTS[id(t)] = (t, out)
    return out


@dataclass
class State:
    t: Tables
    gid: np.ndarray            # int64[B] game index
    deck_key: np.ndarray       # uint64[B] key of the "deck" stream
    ints: np.ndarray           # int32[B, .] INT_PARTS: gi [GAME_INT], si [P, SEAT_INT], ki [K, KINGDOM_INT]
    kp: np.ndarray             # int8[B, K, P, .] KINGDOM_SEAT
    cards: np.ndarray          # int16[B, .] CARD_PARTS: hand [P, H], deck [N], col [K, S], extra [BN + RC]
                               #   (robot bonus cards, then revealed battle cards), fp [K, T], rt [R], dorder [D]
    flags: np.ndarray          # bool[B, .] FLAG_PARTS: gb [GAME_BOOL], sb [P, SEAT_BOOL], disc [N]

    @property
    def batch(self) -> int:
        return len(self.gid)

    @property
    def bonus(self):
        return self.extra[:, :self.t.BN]

    @property
    def rcards(self):
        return self.extra[:, self.t.BN:]


def _part_view(pack, name):
    def get(self):
        a = self.__dict__[pack]
        cache = self.__dict__.setdefault("_views", {})     # not a field: ``take`` and copies start empty
        hit = cache.get(name)
        if hit is not None and hit[0] is a:
            return hit[1]
        _, first, stop, shape = parts(self.t)[name]
        view = a[:, first:stop].reshape((a.shape[0],) + shape, copy=False)
        cache[name] = (a, view)
        return view
    return property(get)


for _pack, _spec in (("ints", INT_PARTS), ("cards", CARD_PARTS), ("flags", FLAG_PARTS)):
    for _name, _ in _spec:
        setattr(State, _name, _part_view(_pack, _name))


def _install_views():
    for pack, names in PACKS.items():
        i = 0
        for entry in names:
            name, width = (entry, None) if isinstance(entry, str) else entry
            if width is None:
                view = (lambda p, j: property(lambda self: getattr(self, p)[..., j]))(pack, i)
                i += 1
            else:
                view = (lambda p, a, b: property(lambda self: getattr(self, p)[..., a:b]))(pack, i, i + width)
                i += width
            setattr(State, name, view)


_install_views()


def _width(names) -> int:
    return sum(1 if isinstance(e, str) else e[1] for e in names)


def empty_state(t: Tables, B: int) -> State:
    """A batch of B blank games (zeros, sentinels, full supplies): ``ages.init`` fills it."""
    P, K, N = t.P, t.K, t.N
    lay = parts(t)
    s = State(t=t, gid=np.zeros(B, dtype=np.int64), deck_key=np.zeros(B, dtype=np.uint64),
              ints=np.zeros((B,) + lay["ints"][3], dtype=np.int32),
              kp=np.zeros((B, K, P, _width(KINGDOM_SEAT)), dtype=np.int8),
              cards=np.zeros((B,) + lay["cards"][3], dtype=np.int16),
              flags=np.zeros((B,) + lay["flags"][3], dtype=bool))
    s.hand[:] = N
    s.deck[:] = N
    s.col[:] = N
    s.extra[:] = N
    s.phase[:] = BEGIN
    s.dec[:] = -1
    s.last_rel[:] = -1
    s.human_last[:] = -1
    s.robot_last[:] = -1
    s.rt_owner[:] = -1
    s.msup[:] = t.M
    s.active[:] = True
    s.cap_turn[:] = 1 << 30
    s.first_cap[:] = 1 << 30
    s.supply[:] = t.markers[None, :]
    s.bch[:] = N
    s.cap[:] = -1
    s.last[:] = N
    return s


def copy_state(s: State) -> State:
    return dataclasses.replace(s, **{f.name: getattr(s, f.name).copy() for f in dataclasses.fields(s)
                                     if isinstance(getattr(s, f.name), np.ndarray)})
