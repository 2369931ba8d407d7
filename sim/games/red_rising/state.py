"""The engine's state (numpy arrays, batch axis first) and the primitives every handler uses.

Layout (B games, P seats in turn order, C cards, D frame depth, K seen-set size):

* Cards. ``where`` int8[B, C] holds the zone code of every card (``zones.py``: locations 0..3,
  deck 4, banished 5, out of the game 6, hand of seat p = 10 + p). Ordered piles are linked
  lists: pile ``0..3`` = the four locations, ``4`` = the draw deck, ``5`` = Au Toma's hand
  (the only ordered hand, RR-V8). ``top`` int16[B, 6] is the top card of each pile (-1 empty),
  ``under`` int16[B, C] the card just below (-1 at the bottom, and for cards in no pile), and
  ``size`` int16[B, 6] the pile's card count. Players' hands are sets (``hand_n`` counts them).
* Resources ``res`` int16[B, P, 3] (helium, fleet, cubes on The Institute; the properties
  ``helium``/``fleet``/``cubes`` are views) with per-seat caps ``cap`` [B, P, 3]
  (Au Toma: 10/10/10, RR-V28; players: unlimited helium, last fleet space, 10 cubes);
  ``sovereign`` int8[B] is the holder (-1 beside the board).
* Turn: ``player``, ``turns``, ``rounds``, ``deployed`` bool[B, 4] (RR-R63), ``skip_gain``
  (an ``end_turn`` op fired), ``traded`` bool[B, C + 1] (per card, column C = no card) /
  ``turn_traded`` (RR-A21), ``changed``
  and ``idle`` (stalemate guard), ``triggered``/``end_reason``/``last_turn``/``reached``.
* Randomness: keys per purpose and per-game counters (``die_c``, ``pick_c``, ``auto_shuffles``).
* The pending decision: ``kind``, ``decider``, ``legal`` bool[B, A], ``waiting``; the answer
  lands in ``action``. ``mop`` is the micro-op each game runs next (engine.py).
* The interpreter: a stack of frames per game (``depth``; ``frame`` int16[B, D, 12] holds the
  registers, also readable as the views ``f_ret``, ``f_pc``, ... [B, D]): return micro-op,
  program counter, actor, ``this`` location, card, ``prev_done``, a loop counter, the current
  opponent target and the remaining targets (bitmask of seat offsets), a done flag, "inside a
  chained deploy", a selected card; and the seen set (``f_seen`` [B, D, K], card ids, -1 =
  empty slot). Depth 0 is the turn flow itself.

Storage: each of these arrays (``FIELDS``) is a view of one of six backing arrays, one per
dtype (``State.layout`` says which columns), so that taking a subset of games copies a few
arrays (see ``State``). The few numpy pile primitives below serve setup and ``deal.arrange``;
the rules themselves run in the compiled kernel (kernel.py).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from sim.games.red_rising import zones
from sim.games.red_rising.program import Program

# ---- micro-ops (what a game executes next; the kernel's dispatch maps each to its code) --------
_MOPS = """
T_START T_ACTION T_DEPCARD T_DEPLOC T_GAIN_ASK T_GAIN T_SCOUT T_END
E_START E_PLAYER E_ORDER_ASK E_ORDER E_BANISH E_CERES E_SCORE DONE
POP ADV_DONE ADV_REG OPT
BANLOC_LOC BANLOC_CARD BH_ASK BH_APPLY MOVE_SRC MOVE_CARD MOVE_DST PL_ASK PL_APPLY
GC_LOC GC_CARD DA_CARD DA_LOC REC_CARD REC_LOC RD_NEXT RD_F1 RD_F2 RD_FC
OPP_CHOOSE OPP_NEXT OPP_BLOCK OPP_CARD OPP_ACCEPT OPP_THEN RV_CARD TRADE_GET BH_OPT IF_WILD
""".split()
M = {name: i for i, name in enumerate(_MOPS)}
ENTER0 = len(_MOPS)                 # ENTER0 + opcode: start executing an instruction
NUM_MOPS = ENTER0 + 18

PILE_DECK, PILE_AUTOMA = 4, 5
NONE = -1
UNKNOWN = -1                        # observation code of a card the observer cannot see
CUBES = 10                          # influence cubes per house (RR-S9)
DEPTH = 8                           # frames per game at first (grown on demand, see push)
MAX_DEPTH = 256
# frame registers (columns of State.frame)
(R_RET, R_PC, R_ACTOR, R_THIS, R_CARD, R_PREV, R_CNT, R_TGT, R_TMASK, R_DONE, R_CHAIN, R_SRC) = range(12)
NREG = 12
END_REASONS = ("", "two_thresholds", "all_thresholds", "stalemate", "round_limit")
R_TWO, R_ALL, R_STALEMATE, R_ROUND_LIMIT = 1, 2, 3, 4


# the per-game arrays of a State, in layout order (each is a view of a backing array, see State)
FIELDS = ("where", "under", "top", "size", "hand_n", "res", "cap", "sovereign", "house", "slot", "automa",
          "prio", "letter_loc", "luna_bonus", "parity", "auto_order", "auto_pos", "auto_shuffles", "key_die",
          "key_pick", "key_automa", "die_c", "pick_c", "player", "turns", "rounds", "deployed", "skip_gain",
          "traded", "turn_traded", "changed", "idle", "triggered", "end_reason", "last_turn", "reached", "done",
          "pend", "flipped", "end_player", "end_pending", "banish_left", "kind", "decider", "legal", "waiting",
          "action", "mop", "depth", "frame", "f_seen")
BACKINGS = ("b_i8", "b_i16", "b_i32", "b_u64", "b_bool", "b_legal")
_BACKING_OF_DTYPE = {np.dtype(np.int8): "b_i8", np.dtype(np.int16): "b_i16", np.dtype(np.int32): "b_i32",
                     np.dtype(np.uint64): "b_u64", np.dtype(bool): "b_bool"}
_BACKING_DTYPE = {"b_i8": np.int8, "b_i16": np.int16, "b_i32": np.int32, "b_u64": np.uint64, "b_bool": bool,
                  "b_legal": bool}


@dataclass(frozen=True)
class Layout:
    """Where every per-game array lives: ``slots[name] = (backing, column offset, per-game shape)``."""

    slots: dict
    widths: dict
    sizes: dict                     # name -> number of columns

    @staticmethod
    def build(specs) -> "Layout":
        """``specs``: (name, per-game shape, dtype) in FIELDS order."""
        slots, widths, sizes = {}, {b: 0 for b in BACKINGS}, {}
        for name, shape, dtype in specs:
            backing = "b_legal" if name == "legal" else _BACKING_OF_DTYPE[np.dtype(dtype)]
            slots[name] = (backing, widths[backing], tuple(shape))
            sizes[name] = int(np.prod(shape, dtype=np.int64))
            widths[backing] += sizes[name]
        return Layout(slots, widths, sizes)


def _view(self, name):
    backing, off, shape = self.layout.slots[name]
    b = getattr(self, backing)
    if not shape:
        return b[:, off]
    v = b[:, off:off + self.layout.sizes[name]]
    v.shape = (b.shape[0],) + shape               # never a copy (raises if a view is impossible)
    return v


def _field(name):
    def get(self):
        return _view(self, name)

    def set_(self, value):
        _view(self, name)[...] = value
    return property(get, set_, doc=f"``{name}``: a view of its backing array (see State)")


@dataclass
class State:
    """One batch of Red Rising games (see the module docstring for the layout).

    The per-game arrays (``where``, ``res``, ``legal``, ``frame``, ... : ``FIELDS``) are views of
    a few backing arrays, one per dtype (``b_i8``, ``b_i16``, ``b_i32``, ``b_u64``, ``b_bool``;
    the legal mask has its own, ``b_legal``), batch axis first: a game is one row of each. So
    a subset of games (``sim.core.game.take``), a copy or a reordering moves seven arrays (the
    backings and ``game_id``), not fifty. ``layout`` says where each array lives in its backing array.

    ``step`` updates a state in place and returns it; ``sim.core.game.take`` makes a copy.
    """

    prog: Program
    config: object
    content: object
    seed: int
    layout: Layout
    game_id: np.ndarray
    b_i8: np.ndarray
    b_i16: np.ndarray
    b_i32: np.ndarray
    b_u64: np.ndarray
    b_bool: np.ndarray
    b_legal: np.ndarray

    for _name in FIELDS:                      # one property per per-game array (not dataclass fields)
        locals()[_name] = _field(_name)
    del _name

    @property
    def helium(self) -> np.ndarray:
        return self.res[:, :, 0]

    @property
    def fleet(self) -> np.ndarray:
        return self.res[:, :, 1]

    @property
    def cubes(self) -> np.ndarray:
        return self.res[:, :, 2]

    # the registers of every frame, as views of ``frame`` [B, D] (0/1 for the flags)
    f_ret = property(lambda self: self.frame[:, :, R_RET])
    f_pc = property(lambda self: self.frame[:, :, R_PC])
    f_actor = property(lambda self: self.frame[:, :, R_ACTOR])
    f_this = property(lambda self: self.frame[:, :, R_THIS])
    f_card = property(lambda self: self.frame[:, :, R_CARD])
    f_prev = property(lambda self: self.frame[:, :, R_PREV])
    f_cnt = property(lambda self: self.frame[:, :, R_CNT])
    f_tgt = property(lambda self: self.frame[:, :, R_TGT])
    f_tmask = property(lambda self: self.frame[:, :, R_TMASK])
    f_done = property(lambda self: self.frame[:, :, R_DONE])
    f_chain = property(lambda self: self.frame[:, :, R_CHAIN])
    f_src = property(lambda self: self.frame[:, :, R_SRC])

    @property
    def batch(self) -> int:
        return self.game_id.shape[0]

    @property
    def seats(self) -> int:
        return self.layout.slots["res"][2][0]

    @property
    def num_cards(self) -> int:
        return self.layout.slots["where"][2][0]

    def copy(self) -> "State":
        return dataclasses.replace(self, **{f.name: getattr(self, f.name).copy()
                                            for f in dataclasses.fields(self)
                                            if isinstance(getattr(self, f.name), np.ndarray)})


def _specs(prog, seats, c, d, k, num_actions, automa_cards):
    """(name, per-game shape, dtype, initial value) of every per-game array, in FIELDS order."""
    p = seats
    i8, i16, i32 = np.int8, np.int16, np.int32
    specs = [
        ("where", (c,), i8, zones.OUT), ("under", (c,), i8 if c < 127 else i16, -1), ("top", (6,), i16, -1),
        ("size", (6,), i16, 0), ("hand_n", (p,), i16, 0), ("res", (p, 3), i16, 0), ("cap", (p, 3), i16, 0),
        ("sovereign", (), i8, -1), ("house", (p,), i8, -1), ("slot", (p,), i8, 0), ("automa", (), i8, -1),
        ("prio", (4,), i8, -1), ("letter_loc", (4,), i8, -1), ("luna_bonus", (), i8, -1), ("parity", (), i8, 0),
        ("auto_order", (max(automa_cards, 1),), i8, -1), ("auto_pos", (), i16, 0), ("auto_shuffles", (), i16, 0),
        ("key_die", (), np.uint64, 0), ("key_pick", (), np.uint64, 0), ("key_automa", (), np.uint64, 0),
        ("die_c", (), i32, 0), ("pick_c", (), i32, 0), ("player", (), i8, 0), ("turns", (), i32, 0),
        ("rounds", (), i16, 0), ("deployed", (4,), bool, False), ("skip_gain", (), bool, False),
        ("traded", (c + 1,), bool, False), ("turn_traded", (), bool, False), ("changed", (), bool, False),
        ("idle", (), i16, 0), ("triggered", (), bool, False), ("end_reason", (), i8, 0),
        ("last_turn", (), bool, False), ("reached", (p, 3), bool, False), ("done", (), bool, False),
        ("pend", (), i16, -1), ("flipped", (), i16, -1), ("end_player", (), i8, 0),
        ("end_pending", (c,), bool, False), ("banish_left", (), i8, 0), ("kind", (), i8, 0),
        ("decider", (), i8, -1), ("legal", (num_actions,), bool, False), ("waiting", (), bool, False),
        ("action", (), i16, 0), ("mop", (), i16, 0), ("depth", (), i8, 0),
        ("frame", (d, NREG), prog.reg_dtype, -1), ("f_seen", (d, k), i16, -1),
    ]
    assert tuple(x[0] for x in specs) == FIELDS
    return specs


def _allocate(b, layout):
    return {name: np.zeros((b, layout.widths[name]), dtype=_BACKING_DTYPE[name]) for name in BACKINGS}


def empty_state(prog, config, content, seed, game_ids, seats, num_actions, automa_cards) -> State:
    """A state with every array allocated (zeros / -1); ``engine.init`` fills it."""
    b, c = len(game_ids), len(content.cards)
    specs = _specs(prog, seats, c, DEPTH, prog.seen_k, num_actions, automa_cards)
    layout = Layout.build([x[:3] for x in specs])
    s = State(prog=prog, config=config, content=content, seed=int(seed), layout=layout,
              game_id=np.asarray(game_ids, dtype=np.int64).copy(), **_allocate(b, layout))
    for name, _, _, value in specs:
        if value:
            setattr(s, name, value)
    return s


# ---- piles (linked lists) ------------------------------------------------------------------------

def zone_of_pile(s: State, g, pile):
    """Zone code of pile ``pile`` (locations, deck, Au Toma's hand) in games ``g``."""
    pile = np.asarray(pile)
    return np.where(pile == PILE_AUTOMA, zones.HAND0 + s.automa[g], pile).astype(np.int8)


def pop_top(s: State, g, pile):
    """Remove and return the top card of ``pile`` (non-empty) in games ``g``."""
    c = s.top[g, pile]
    s.top[g, pile] = s.under[g, c]
    s.under[g, c] = -1
    s.size[g, pile] -= 1
    s.changed[g] = True
    return c


def push_top(s: State, g, pile, c):
    """Put card ``c`` (in no pile) on top of ``pile``."""
    s.under[g, c] = s.top[g, pile]
    s.top[g, pile] = c
    s.size[g, pile] += 1
    s.where[g, c] = zone_of_pile(s, g, pile)
    s.changed[g] = True


def pile_cards(s: State, g, pile, n: int):
    """int16[len(g), n]: the top ``n`` cards of ``pile``, top first (-1 past the bottom)."""
    out = np.full((len(g), n), -1, dtype=np.int16)
    c = s.top[g, pile].astype(np.int64)
    for i in range(n):
        out[:, i] = c
        c = np.where(c >= 0, s.under[g, c], -1)
    return out


def to_hand(s: State, g, p, c):
    """Card ``c`` (in no zone) into the hand of seat ``p`` (Au Toma: on top, RR-V34)."""
    auto = p == s.automa[g]
    if np.count_nonzero(auto):
        push_top(s, g[auto], PILE_AUTOMA, c[auto])
    s.where[g, c] = zones.HAND0 + p
    s.hand_n[g, p] += 1
    s.changed[g] = True


# ---- frames ------------------------------------------------------------------------------------


def grow_frames(s: State, depth: int):
    """Make room for ``depth`` frames per game (deep ``deploy_another`` chains are rare).

    The frame arrays live in the backing arrays, so those are laid out anew (every view of the
    old ones is then stale: take the state's attributes again).
    """
    if depth > MAX_DEPTH:
        raise RuntimeError(f"Red Rising engine: op nesting deeper than {MAX_DEPTH} frames")
    new = max(depth, 2 * s.frame.shape[1])
    old = {name: getattr(s, name) for name in FIELDS}
    specs = []
    for name, (backing, _, shape) in s.layout.slots.items():
        dtype = old[name].dtype
        specs.append((name, (new,) + shape[1:] if name in ("frame", "f_seen") else shape, dtype))
    layout = Layout.build(specs)
    backings = _allocate(s.batch, layout)
    for name, value in backings.items():
        setattr(s, name, value)
    s.layout = layout
    for name in FIELDS:
        if name in ("frame", "f_seen"):
            view = getattr(s, name)
            view[...] = -1
            view[:, :old[name].shape[1]] = old[name]
        else:
            setattr(s, name, old[name])
