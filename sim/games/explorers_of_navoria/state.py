"""The engine's state: a batch of B games as ONE int16 matrix ``m[B, W]`` plus the hidden piles.

Layout (stable; strategies read the observation's ``m`` by these constants):

* ``m[:, 0:SEAT0]``: per-game columns ``G_*`` (flow, compass, bag, centre, piles' token
  counts, offers, city, favour tiles, and the effect machine of the turn being resolved).
* ``m[:, SEAT0 + p*SW : SEAT0 + (p+1)*SW]``: seat ``p``'s block, columns ``SEAT0 + p*SW + P_*``
  (score and its components, markers, posts, docks, tableau counters, favour, statistics).
  There are always ``MAXP`` = 4 seat blocks; seats ``>= players`` stay zero.
* ``piles`` int16[B, N]: the card order of the five piles, colour ``c`` in the columns
  ``pile_off[c] .. pile_off[c] + pile_n[c] - 1`` (tables), top first; the next card to turn up
  is at ``pile_off[c] + m[:, G_PTOP + c]``. The ONLY hidden information: it never enters an
  observation (``observe.py`` gives the unseen part of each pile in sorted order).
* ``bag_key`` uint64[B]: the key of the game's ``"bag"`` stream (draw ``k`` = ``m[:, G_BAGK]``).
* ``legal`` bool[B, A]: the legal mask of each game's pending decision, written by the kernel
  in the same pass that stops at the decision (all False when the game is over).

Named views: ``state.score`` (int16[B, 4]), ``state.marker`` ([B, 4, 3]), ``state.offer``
([B, 5, 3]) ... every name of ``GAME_FIELDS`` / ``SEAT_FIELDS`` is a view into ``m`` (writes land
in ``m``). ``sim.core.game.take`` copies the five arrays (one fancy-index copy each).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

MAXP = 4            # seat blocks (players 2..4)
NCOL = 5            # colours
NREG = 3            # regions / tracks / docks
NPEO = 4            # peoples
NGOOD = 3           # goods kinds
OFFER = 3           # offer slots per colour
CITY_MAX = 24       # city spaces the layout holds (content may use fewer)

# ---- decision kinds (``G_KIND``, ``GAME.kind``) ---------------------------------------------
K_DONE, K_RECRUIT, K_COLLECT, K_TRACK, K_GOODS, K_ALT = -1, 0, 1, 2, 3, 4
KIND_NAMES = {0: "recruit", 1: "collect", 2: "track", 3: "goods", 4: "alt", -1: "done"}

# ---- program counter (``G_PHASE``) ----------------------------------------------------------
PH_RSTART, PH_RDEC, PH_REFFECT, PH_CSTART, PH_CTURN, PH_CEFFECT, PH_INCOME, PH_DONE = range(8)
PHASE_NAMES = ("recruit_start", "recruit", "recruit_effect", "collect_start", "collect",
               "collect_effect", "income", "done")
# what a pending TRACK / GOODS / ALT decision resolves (``G_WAIT``)
W_NONE, W_STEP, W_BUILD, W_GOODS, W_ALT = range(5)
# atom operations in the compiled tables (``tables.OPS`` order)
OP_NONE, OP_PTS, OP_GOOD, OP_STEP, OP_BUILD, OP_PER_ARTISAN = -1, 0, 1, 2, 3, 4

# ---- per-game columns -----------------------------------------------------------------------
G_KIND = 0          # decision kind, -1 = over
G_DEC = 1           # deciding seat, -1 = over
G_PHASE = 2         # PH_*
G_ROUND = 3         # 0..2
G_TURN = 4          # turn index within the current phase (recruit or collect)
G_TURNS = 5         # recruit + collect turns so far (outcome ``turns``)
G_NREC = 6          # recruit turns per round (cards_per_round x players)
G_NP = 7            # players
G_START_SLOT = 8    # experiment slot of seat 0
G_ORDER = 9         # [4] seats on compass spaces 1..n (-1 beyond n)
G_BAGK = 13         # tokens drawn from the bag so far (counter of the "bag" stream)
G_BAG = 14          # [5] tokens of each colour in the bag
G_CENTRE = 19       # [5] tokens of each colour in the city centre
G_PILET = 24        # [5] tokens on each card pile
G_DRAWN = 29        # [2] colours of the tokens drawn this turn (-1 = none)
G_DREW = 31         # 1 after this turn's draw
G_OFFER = 32        # [5, 3] offer card ids (colour-major), -1 = empty slot
G_PTOP = 47         # [5] cards turned up from each pile so far
G_PLEFT = 52        # [5] cards left in each pile (public count)
G_DISC = 57         # [5] offer cards discarded (return phase)
G_SUPPLY = 62       # [3] goods in the supply (only meaningful with goods_per_kind > 0)
G_FTILE = 65        # [4] favour tile of each people (tile index; T = the blank tile)
G_FHOLD = 69        # [4, 2] seat on the first / second space of each people's tile (-1 free)
G_CITY = 77         # [24] seat whose token stands on each city space (-1 free)
G_CTX = 101         # effect being resolved belongs to: 0 a recruited card, 1 a city space
G_CARD = 102        # the card being recruited (-1 none)
G_ITEM = 103        # next item of the level-0 effect (index into the item table)
G_IEND = 104        # end of the level-0 effect's items
G_RUN = 105         # [4] open goods run: fixed W, M, F and goods of choice
G_LVL = 109         # 0 = the card / city effect, 1 = order rewards
G_POP = 110         # pending atom (ALT result, or waiting for a flush): op, arg, n
G_PARG = 111
G_PN = 112
G_WAIT = 113        # W_*: what the pending decision resolves
G_ALT = 114         # item index of the pending ALT
G_STEPS = G_ALT     # the same column: steps left of a pending TRACK step decision (never both pending)
G_FMASK = 115       # bit mask of docks still to fulfil after the current one
G_FDOCK = 116       # dock being fulfilled (-1 none)
G_FJ = 117          # next reward of that dock (0 base1, 1 base2, 2..4 under posts 1..3, 5 done)
G_FITEM = 118       # next item of the current order reward
G_FIEND = 119       # its end
SEAT0 = 120         # first seat block

# ---- per-seat columns (offsets inside a seat block) -----------------------------------------
P_SCORE = 0
P_COMP = 1          # [9] COMPONENTS below, in order
P_MARK = 10         # [3] marker position per track
P_POSTS = 13        # [3] posts built per track
P_DOCK = 16         # [3, 3] goods on each dock by kind (dock-major)
P_DOCKN = 25        # [3] goods on each dock
P_NCOL = 28         # [5] cards of each colour in the tableau
P_SYM = 33          # [4] symbols of each people in the tableau
P_TINC = 37         # [4] cards with ``income = people:p``
P_FINC = 41         # cards with ``income = flags``
P_ENDV = 42         # [3] end points per post on each track (sum over the tableau's soldiers)
P_FTRIED = 45       # [4] 1 once the seat tried that people's favour
P_FAV = 49          # [4] favour space held: 0 none, 1 first, 2 second
P_FULF = 53         # [3] orders fulfilled per dock
P_LOST = 56         # goods lost (EN-A13)
P_CENTRE = 57       # recruit turns that used a city-centre token
P_SR1 = 58          # score after round 1's income
P_SR2 = 59          # score after round 2's income
SW = 60             # seat block width
W = SEAT0 + MAXP * SW

COMPONENTS = ("score_cards", "score_city", "score_orders", "score_treasure", "score_trader_income", "score_adventurer_income",
              "score_exploration", "score_soldiers", "score_favour")
C_CARDS, C_CITY, C_ORDERS, C_TREASURE, C_TRADER, C_ADVENTURER, C_EXPLORATION, C_SOLDIERS, C_FAVOUR = range(9)

# name -> (first column, shape) of the per-game fields, and (offset, shape) of the per-seat fields
GAME_FIELDS = {
    "kind": (G_KIND, ()), "dec": (G_DEC, ()), "phase": (G_PHASE, ()), "round": (G_ROUND, ()),
    "turn": (G_TURN, ()), "turns": (G_TURNS, ()), "nrec": (G_NREC, ()), "np": (G_NP, ()),
    "start_slot": (G_START_SLOT, ()), "order": (G_ORDER, (MAXP,)), "bagk": (G_BAGK, ()),
    "bag": (G_BAG, (NCOL,)), "centre": (G_CENTRE, (NCOL,)), "pilet": (G_PILET, (NCOL,)),
    "drawn": (G_DRAWN, (2,)), "drew": (G_DREW, ()), "offer": (G_OFFER, (NCOL, OFFER)),
    "ptop": (G_PTOP, (NCOL,)), "pleft": (G_PLEFT, (NCOL,)), "disc": (G_DISC, (NCOL,)),
    "supply": (G_SUPPLY, (NGOOD,)), "ftile": (G_FTILE, (NPEO,)), "fhold": (G_FHOLD, (NPEO, 2)),
    "city": (G_CITY, (CITY_MAX,)), "ctx": (G_CTX, ()), "card": (G_CARD, ()), "item": (G_ITEM, ()),
    "iend": (G_IEND, ()), "run": (G_RUN, (4,)), "lvl": (G_LVL, ()), "pop": (G_POP, ()), "parg": (G_PARG, ()),
    "pn": (G_PN, ()), "wait": (G_WAIT, ()), "alt": (G_ALT, ()), "fmask": (G_FMASK, ()), "fdock": (G_FDOCK, ()),
    "fj": (G_FJ, ()), "fitem": (G_FITEM, ()), "fiend": (G_FIEND, ()),
}
SEAT_FIELDS = {
    "score": (P_SCORE, ()), "comp": (P_COMP, (len(COMPONENTS),)), "marker": (P_MARK, (NREG,)),
    "posts": (P_POSTS, (NREG,)), "dock": (P_DOCK, (NREG, NGOOD)), "dockn": (P_DOCKN, (NREG,)),
    "ncol": (P_NCOL, (NCOL,)), "sym": (P_SYM, (NPEO,)), "tinc": (P_TINC, (NPEO,)), "finc": (P_FINC, ()),
    "endv": (P_ENDV, (NREG,)), "ftried": (P_FTRIED, (NPEO,)), "fav": (P_FAV, (NPEO,)),
    "fulfilled": (P_FULF, (NREG,)), "lost": (P_LOST, ()), "centre_takes": (P_CENTRE, ()),
    "score_r1": (P_SR1, ()), "score_r2": (P_SR2, ()),
}


def _check_layout():
    used = np.zeros(W, dtype=int)
    for name, (c, shape) in GAME_FIELDS.items():
        used[c:c + int(np.prod(shape))] += 1
    for name, (c, shape) in SEAT_FIELDS.items():
        for p in range(MAXP):
            a = SEAT0 + p * SW + c
            used[a:a + int(np.prod(shape))] += 1
    assert used.max() == 1 and used.min() == 1, "state layout: overlapping or unused columns"


_check_layout()


def game_view(m: np.ndarray, name: str) -> np.ndarray:
    c, shape = GAME_FIELDS[name]
    n = int(np.prod(shape))
    v = m[:, c:c + n]
    return v[:, 0] if shape == () else v.reshape((m.shape[0],) + shape)


def seat_view(m: np.ndarray, name: str) -> np.ndarray:
    """[B, MAXP, *shape] view of a per-seat field."""
    c, shape = SEAT_FIELDS[name]
    n = int(np.prod(shape))
    blocks = m[:, SEAT0:SEAT0 + MAXP * SW].reshape(m.shape[0], MAXP, SW)
    v = blocks[:, :, c:c + n]
    return v[:, :, 0] if shape == () else v.reshape((m.shape[0], MAXP) + shape)


class Views:
    """Named views of ``self.m`` (mixed into State and Obs)."""

    def __getattr__(self, name):
        m = self.__dict__.get("m")
        if m is None:
            raise AttributeError(name)
        if name in GAME_FIELDS:
            return game_view(m, name)
        if name in SEAT_FIELDS:
            return seat_view(m, name)
        raise AttributeError(name)


@dataclass
class State(Views):
    t: object                  # tables.Tables (shared, not copied by ``take``)
    gid: np.ndarray            # int64[B] game index
    bag_key: np.ndarray        # uint64[B] key of the "bag" stream
    m: np.ndarray              # int16[B, W] everything public (layout above)
    piles: np.ndarray          # int16[B, N] pile order (hidden)
    legal: np.ndarray          # bool[B, A] legal mask of the pending decision

    @property
    def batch(self) -> int:
        return len(self.gid)


def empty_state(t, B: int) -> State:
    return State(t=t, gid=np.zeros(B, dtype=np.int64), bag_key=np.zeros(B, dtype=np.uint64),
                 m=np.zeros((B, W), dtype=np.int16), piles=np.zeros((B, t.N), dtype=np.int16),
                 legal=np.zeros((B, t.A), dtype=bool))


def copy_state(s: State) -> State:
    return dataclasses.replace(s, **{f.name: getattr(s, f.name).copy() for f in dataclasses.fields(s)
                                     if isinstance(getattr(s, f.name), np.ndarray)})
