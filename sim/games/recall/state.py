"""The Recall engine's state: a batch of B games as ONE int32 matrix ``m[B, W]`` plus the hidden orders.

Layout (stable; the kernel, observe.py and log.py read it through these constants):

* ``m[:, 0:SEAT0]``: per-game columns ``G_*`` (flow, draft, offer, bag counts, time board
  draws, the map: tile per slot and per-field contents ``F_*``).
* ``m[:, SEAT0 + p*SW : SEAT0 + (p+1)*SW]``: seat ``p``'s block, columns ``P_*`` (score,
  crystals, tracks, stones, key cards, tribe and items, ability uses, chests, followers per
  field, activation counts). Always ``MAXP`` = 4 blocks; seats ``>= players`` stay zero.
* ``hidden`` int32[B, H]: what nobody may see, columns ``H_*`` (chest stack, green and grey
  deck order, goal cards, old-tribe and item-stack draws). It never enters an observation.
* ``legal`` bool[B, A]: the legal mask of each game's pending decision, written by the kernel in
  the same pass that stops at the decision (all False once the game is over).

The sizes are maxima (``F_MAX`` fields, ``K_MAX`` key kinds, ...); ``engine.setup`` refuses
content that does not fit. Indices follow docs/recall_model.md ("Names and index order").
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

MAXP = 4            # seat blocks
F_MAX = 128         # fields (84 + 3 + 15 by default)
S_MAX = 16          # area-tile slots (12)
K_MAX = 16          # key-card kinds (13)
U_MAX = 40          # abilities of the ``use:`` head (35)
C_MAX = 16          # chest kinds (12)
DECK_MAX = 32       # green / grey deck size (15 / 12)
CHEST_MAX = 64      # chest tiles in the stack
TRIBES_MAX = 16     # tribe cards (14)
ITEMS_MAX = 24      # item tiles (18)
RING_MAX = 16       # ring kinds (9)
BITS_MAX = 31       # camps (6) and sanctuaries (6): one bit each in an int32 column

# ---- decision kinds (``G_KIND``; names = the model doc's ``kind`` strings) ---------------------
KIND_NAMES = ("draft", "start_field", "main", "effect", "event", "produce", "recharge", "turn_end",
              "path", "goal", "place", "crystal", "buy", "sell", "sell_count", "copy", "units", "track", "item", "pay_move", "move_from", "move_to",
              "move_count", "payment", "key", "dev", "dev_field", "sanctuary", "stone", "monument_tile",
              "choose", "order", "free", "display", "keyup", "slot", "explore", "rotation", "upgrade",
              "water_from", "water_count", "water_step", "water_exit", "water_exit_count", "ability_field",
              "ability_count", "ability", "move_pigs", "stopped")
K_DONE = -1
(K_DRAFT, K_START_FIELD, K_MAIN, K_EFFECT, K_EVENT, K_PRODUCE, K_RECHARGE, K_TURN_END, K_PATH, K_GOAL,
 K_PLACE, K_CRYSTAL, K_BUY, K_SELL, K_SELL_COUNT, K_COPY, K_UNITS, K_TRACK, K_ITEM, K_PAY_MOVE, K_MOVE_FROM,
 K_MOVE_TO, K_MOVE_COUNT, K_PAYMENT, K_KEY, K_DEV, K_DEV_FIELD, K_SANCTUARY, K_STONE, K_MON_TILE,
 K_CHOOSE, K_ORDER, K_FREE, K_DISPLAY, K_KEYUP, K_SLOT, K_EXPLORE, K_ROTATION, K_UPGRADE,
 K_WATER_FROM, K_WATER_COUNT, K_WATER_STEP, K_WATER_EXIT, K_WATER_EXIT_COUNT, K_ABILITY_FIELD,
 K_ABILITY_COUNT, K_ABILITY, K_MOVE_PIGS, K_STOP) = range(49)
# K_STOP: the game reached a rule the kernel does not compile yet (docs/recall_engine.md); G_STOP says which

# ---- program counter (``G_PHASE``) ---------------------------------------------------------------
(PH_SOLO, PH_DRAFT, PH_OLD, PH_TURN, PH_MAIN, PH_KEY_EVENT, PH_EFFECT, PH_PRODUCE, PH_RECHARGE,
 PH_TURN_END, PH_NEXT, PH_PATH, PH_BONUS_EVENT, PH_GOAL, PH_PROD_EVENT, PH_EXEC, PH_PLACE, PH_CRYSTAL,
 PH_BUY, PH_SELL, PH_SELL_COUNT, PH_COPY, PH_UNITS, PH_KTRACK, PH_KSTEP, PH_ITEM, PH_KBONUS,
 PH_PAY_MOVE, PH_MOVE_FROM, PH_MOVE_TO, PH_MOVE_COUNT, PH_PAYMENT, PH_ART_EVENT, PH_KEY, PH_STOP,
 PH_DONE, PH_DEV, PH_DEV_FIELD, PH_SANCTUARY, PH_STONE, PH_MON_TILE, PH_DEV_PAY, PH_DEV_CRYSTAL,
 PH_DEV_NEXT, PH_SANCT_EVENT, PH_EXC_EVENT, PH_CAMP_EVENT, PH_CHOOSE, PH_ORDER, PH_FREE, PH_DISPLAY,
 PH_KEYUP, PH_SLOT, PH_EXPLORE, PH_ROTATION, PH_EXPLORE_NEXT, PH_UPGRADE,
 PH_W_FROM, PH_W_COUNT, PH_W_PIGS, PH_W_STEP, PH_W_EXIT, PH_W_EXIT_COUNT, PH_W_EXIT_PIGS, PH_W_PAY,
 PH_W_END, PH_ABILITY_FIELD, PH_PORTAAL, PH_ABILITY_3, PH_MOVE_PIGS, PH_DORIAN, PH_RING) = range(72)
# why a game stopped (``G_STOP``)
STOP_REASONS = ("", "pick", "free action", "production", "ability", "reward", "final scoring")
PEND_MAX = 16       # pending effects of a turn
PEND_W = 4          # per pending effect: effect index, item index, owner field letter (-1 the card),
                    # kind: 0 the item as written, 1 a DEV:1 split off, 2 + m a MOVE:m of UNITS
FR_MAX = 8          # nested rewards being resolved (frames of ``PH_EXEC``, kernel/frames.py)
ALT_KIND = 64       # pending kind ALT_KIND + j: alternative j of the item, already chosen

# ---- per-game columns ------------------------------------------------------------------------------
G_KIND = 0          # decision kind, -1 = over
G_DEC = 1           # deciding seat, -1 = over
G_PHASE = 2         # PH_*
G_NP = 3            # players
G_START_SLOT = 4    # experiment slot of seat 0 (RC-S28)
G_ROUND = 5         # round 0..16
G_ACTIVE = 6        # active seat of the turn
G_DSTEP = 7         # draft picks made so far
G_BAGK = 8          # bag draws so far (counter of the "bag" stream)
G_BAG_ART = 9       # [4] artifacts in the bag per colour
G_BAG_STONE = 13    # [3] stones in the bag per colour
G_DISP_ART = 16     # [4] artifacts on the display per colour (RC-S13)
G_TRIBE_DISP = 20   # [5] tribe of each display pair, -1 once taken
G_ITEM_DISP = 25    # [5] item of each display pair, -1 once taken
G_OLD_TRIBE = 30    # [3] old tribe on each track's tribe field (-1 before the draft ends)
G_OLD_ITEMS = 33    # [3, 4] item stacks (-1 = taken / not yet dealt)
G_YELLOW = 45       # [4] cards left in each yellow stack (kind order; unused columns 0)
G_GREEN = 49        # [3] green display (kind, -1 empty)
G_GREY = 52         # [3] grey display
G_GREEN_TOP = 55    # green cards turned from the deck so far
G_GREY_TOP = 56
G_MON_DISP = 57     # [5] monument tiles on display (-1 taken)
G_LIGHT = 62        # [6] light token on bonus field 2t+b
G_DARK = 68         # [6] dark token beside path position i
G_PATH = 74         # [6] path card at position i
G_SIDE = 80         # [6] its side (0 a, 1 b)
G_UPG_LETTER = 86   # [6] letter of upgrade symbol i
G_UPG_LEFT = 92     # [6] upgrade tiles left per letter
G_CHEST_TOP = 98    # chest tiles drawn from the stack
G_CHEST_N = 99      # chest tiles in the stack
G_RINGS = 100       # rings placed so far (counter of the "rings" stream)
G_TILE = 101        # [S_MAX] area tile per slot
G_ROT = 117         # [S_MAX] rotation per slot
G_UP = 133          # [S_MAX] 1 = face up
G_NF = 149          # fields on the map
G_REVEALED = 150    # [3] old tribe (and item stack) of track t face up (RC-R161, RC-V6)
F_TERR = 153        # [F_MAX] terrain per field (TERRAINS index)
F_PIGS = F_TERR + F_MAX          # [F_MAX] pigs shown
F_CAMP = F_PIGS + F_MAX          # [F_MAX] camp index or -1
F_START = F_CAMP + F_MAX         # [F_MAX] start-field number or -1
F_ART = F_START + F_MAX          # [F_MAX] artifact colour lying there or -1
F_SITE = F_ART + F_MAX           # [F_MAX, 3] stones per colour on an excavation site
F_RING = F_SITE + 3 * F_MAX      # [F_MAX] 1 = a ring lies on this camp field
G_PEND_N = F_RING + F_MAX        # pending effects of the turn
G_PEND = G_PEND_N + 1            # [PEND_MAX, PEND_W]
G_CARD = G_PEND + PEND_MAX * PEND_W   # kind of the card played this turn (-1 none)
G_FIELD = G_CARD + 1             # letter of the field activated this turn (-1 none)
G_EVENT_USED = G_FIELD + 1       # [U_MAX] 1 = ability used in the current event window (RC-R65)
G_TURN_DEC = G_EVENT_USED + U_MAX   # decisions asked this turn (RC-A68 guard)
G_GUARD = G_TURN_DEC + 1         # guard hits (outcome rc_guard_hits)
G_RECHARGED = G_GUARD + 1        # 1 after this turn's recharge (RC-R45)
G_PROD_LEFT = G_RECHARGED + 1    # production activations left in this recall
G_PROD_USED = G_PROD_LEFT + 1    # bit mask of production fields used in this recall
G_STOP = G_PROD_USED + 1         # STOP_REASONS index of a stopped game
G_FR_N = G_STOP + 1              # reward frames open (kernel/frames.py)
G_LEFT = G_FR_N + 1              # what is left of the atom being executed (UPC steps, followers to place)
G_SELLF = G_LEFT + 1             # field chosen at ``sell``
G_OWNER = G_SELLF + 1            # owner letter of the item being resolved (COPY, UNITS)
G_SUBRET = G_OWNER + 1           # phase a ``place`` returns to (the queue, or a knowledge step)
G_KTRACK = G_SUBRET + 1          # knowledge steps being made (RC-A12): track, steps left
G_KLEFT = G_KTRACK + 1
G_THIRD = G_KLEFT + 1            # [3] someone reached the third field of track t (RC-R162)
G_MOVES = G_THIRD + 3            # moves left of the movement being made, its source and destination
G_MFROM = G_MOVES + 1
G_MTO = G_MFROM + 1
G_MCOUNT = G_MTO + 1             # followers of the group that entered G_MTO
F_MONTILE = G_MCOUNT + 1         # [F_MAX] monument tile lying on an area monument field + 1 (0 none)
G_DEV_T = F_MONTILE + F_MAX      # the development action being made: type (DEV_TYPES of kernel/dev.py),
G_DEV_F = G_DEV_T + 1            # its field, its choice (sanctuary position / stone colour),
G_DEV_K = G_DEV_F + 1
G_DEV_STEP = G_DEV_K + 1         # its next stage, the phase it returns to, 1 if Exoskelet paid (RC-R245)
G_DEV_RET = G_DEV_STEP + 1
G_DEV_EXO = G_DEV_RET + 1
G_HERE = G_DEV_EXO + 1           # the field a reward belongs to + 1 (``FH``: a follower "on this field"), 0 none
G_EXP_SLOT = G_HERE + 1          # the slot being explored and the phase the exploration returns to
G_EXP_RET = G_EXP_SLOT + 1
G_UPG_BITS = G_EXP_RET + 1       # upgrade symbols reached, their ``upgrade`` decisions owed (bit i: symbol i)
G_UPG_SEAT = G_UPG_BITS + 1      # the seat they are owed to, and the phase the flow goes on with after them
G_UPG_RET = G_UPG_SEAT + 1
G_PICKED = G_UPG_RET + 1         # bit l: an item of field l was picked this turn (RC-R179, RC-A15)
G_W_FROM = G_PICKED + 1          # water movement (kernel/water.py): start field, last water field of
G_W_CUR = G_W_FROM + 1           # the path (-1 none yet), followers in transit, exit field chosen,
G_W_GROUP = G_W_CUR + 1          # where a payment is made, 1 = improved (WMOVE+), return phase
G_W_EXIT = G_W_GROUP + 1
G_W_MODE = G_W_EXIT + 1
G_W_PLUS = G_W_MODE + 1
G_W_RET = G_W_PLUS + 1
G_W_ON = G_W_RET + 1             # [F_MAX] 1 = on the path (RC-R95)
G_W_AREA = G_W_ON + F_MAX        # [F_MAX] 1 = in the path's water area (RC-A56)
G_KEACH = G_W_AREA + F_MAX             # KEACH:n: steps for each of the tracks after G_KTRACK (0 = a plain K)
G_CHROW = G_KEACH + 1            # first atom row of the item being chosen (``choose``)
G_KUP = G_CHROW + 1              # KEYUP: the card being upgraded (slot s, or 6 + available kind), -1 a plain KEY
G_ART_RET = G_KUP + 1            # phase after the ``artifact`` window (a movement goes on, or the reward)
G_GREEN_END = G_ART_RET + 1      # green cards put into the deck so far (its bottom, RC-R195)
G_CHEST_DN = G_GREEN_END + 1     # chest tiles on the discard pile, and their kinds in discard order
G_CHEST_DISC = G_CHEST_DN + 1    # [CHEST_MAX]
G_CHEST_K = G_CHEST_DISC + CHEST_MAX   # reshuffles so far (RC-A27)
G_PROD_LAST = G_CHEST_K + 1      # the production field activated last (Schokbron, RC-R249)
G_ABIL = G_PROD_LAST + 1         # the coded ability asking ``ability_field``, and the phase after it
G_ABIL_RET = G_ABIL + 1
G_BONUS_LAST = G_ABIL_RET + 1    # the bonus token reward gained last (Goliath, RC-R220; a register)
G_ABIL_STEP = G_BONUS_LAST + 1   # a coded ability's parameters asked so far (Colteron, RC-R208:
G_ABIL_SRC = G_ABIL_STEP + 1     # 0 source, 1 destination, 2 count) and the fields chosen; Aynir
                                 # (RC-R205): exchanges made, the one giving a follower (-1 none)
G_ABIL_DST = G_ABIL_SRC + 1
G_ART_LAST = G_ABIL_DST + 1      # covered reward of the artifact gained last + 1, 0 none since the
                                 # sanctuary in progress (K-01 on ART_DISPLAY, RC-R227)
# registers an atom in progress keeps while a nested reward runs (saved in its frame)
REGS = (G_LEFT, G_SUBRET, G_SELLF, G_OWNER, G_KTRACK, G_KLEFT, G_KEACH, G_MOVES, G_MFROM, G_MTO,
        G_MCOUNT, G_KUP, G_ART_RET, G_DEV_T, G_DEV_F, G_DEV_K, G_DEV_STEP, G_DEV_RET, G_DEV_EXO, G_HERE,
        G_EXP_SLOT, G_EXP_RET, G_BONUS_LAST, G_ABIL, G_ABIL_RET, G_ABIL_STEP, G_ABIL_SRC, G_ABIL_DST)
FR_E, FR_DONE, FR_RET, FR_ONCE, FR_ITEM, FR_ALT, FR_EV, FR_REGS = range(8)
FR_EV_WORDS = 2                  # G_EVENT_USED saved as bits, 31 abilities a word (U_MAX <= 62)
FR_W = FR_REGS + FR_EV_WORDS - 1 + len(REGS)   # per frame: effect, items done (bits), return
                                 # phase, action atoms at once, the one item resolved (-1 the whole
                                 # reward), its alternative (-1 ask), the window's used abilities,
                                 # the saved registers
G_EXP_ACTIVE = G_ART_LAST + 1    # the explorer + 1 while another player receives a camp of its
                                 # exploration (G_ACTIVE is that receiver meanwhile, RC-R148), 0 none
G_FR = G_EXP_ACTIVE + 1          # [FR_MAX, FR_W]
F_ISLAND = G_FR + FR_MAX * FR_W   # [F_MAX] 1 = an island lies here (Enterin, RC-R216; the terrain is forest, RC-A50)
G_ISLANDS = F_ISLAND + F_MAX     # islands placed so far (RC-A36)
F_PIGS_ON = G_ISLANDS + 1        # [F_MAX] pigs lying on the field (Dorian, RC-R210, RC-R212; F_PIGS is the picture)
F_FARM = F_PIGS_ON + F_MAX       # [F_MAX] 1 = a pig farm lies on this grain field (RC-R210, RC-R211)
G_PIGS_OUT = F_FARM + F_MAX      # pigs out of the pig supply: on the board or in transit (RC-A36, RC-A46)
G_FARMS = G_PIGS_OUT + 1         # pig farms placed (RC-A36)
G_W_PIGS = G_FARMS + 1           # pigs in transit with a water group (RC-R212)
G_W_ENTER = G_W_PIGS + 1         # followers + pigs of the part of a water group that entered the exit (its payment)
G_RING_USED = G_W_ENTER + 1      # [RING_MAX] rings of each kind placed (RC-R233, RC-A31)
SEAT0 = G_RING_USED + RING_MAX

# ---- per-seat columns (offsets inside a seat block) -------------------------------------------------
P_SCORE = 0
P_PURPLE = 1
P_CR = 2            # [3] crystals W, R, P
P_TRK = 5           # [3] knowledge track positions
P_STONES = 8        # [4] stones owned: white, grey, black, own (RC-A24)
P_SKILL = 12        # stones lying on the skill field (usable)
P_SUPPLY = 13       # follower units in the supply (RC-A39)
P_START = 14        # start-field number
P_TRIBE = 15        # own tribe
P_ITEM = 16         # own (first) item
P_AVAIL = 17        # [K_MAX] available key cards per kind
P_SLOT = P_AVAIL + K_MAX         # [6] kind in slot A..F, -1 empty
P_USES = P_SLOT + 6              # [U_MAX] activations since the last recall
P_OWN = P_USES + U_MAX           # [U_MAX] 1 = ability owned
P_CHESTS = P_OWN + U_MAX         # [C_MAX] chest tiles held per kind
P_UNLOCK = P_CHESTS + C_MAX      # [3] old tribe of track t unlocked
P_FOL = P_UNLOCK + 3             # [F_MAX] follower units per field
P_PLACED = P_FOL + F_MAX         # stones lying on abilities (back at the recharge, RC-R43)
P_EVER = P_PLACED + 1            # [6] field activated at least once (RC-A40 ``copy_field = "ever"``)
P_UPG = P_EVER + 6               # [6] upgrade tile side on each letter's field (-1 printed)
P_PATHS = P_UPG + 6              # [3] path-card position chosen in each sector (-1 not yet)
P_RECALLS = P_PATHS + 3          # statistics: recalls, plays per letter, crystals lost at the cap
P_PLAYS = P_RECALLS + 1          # [6]
P_CR_LOST = P_PLAYS + 6
P_STEPS_LOST = P_CR_LOST + 1     # knowledge steps beyond a track's end (RC-R161)
P_ARTS = P_STEPS_LOST + 1        # [4] artifacts in each colour row (RC-R105)
P_BLD = P_ARTS + 4               # [F_MAX] own building on each field: BUILDINGS index + 1 (0 none, RC-R117)
P_SANCT = P_BLD + F_MAX          # bit i: sanctuary i (top first) built, off the player board (RC-R127)
P_WS = P_SANCT + 1               # [3] workshops built per terrain column (bottom first, RC-R132)
P_MON = P_WS + 3                 # monuments built (bottom first, RC-R138)
P_CAMPS = P_MON + 1              # bit c: camp c's reward received (RC-R145)
P_EXPL = P_CAMPS + 1             # statistics: tiles explored (rc_explorations)
P_SYM = P_EXPL + 1               # bit i: upgrade symbol i reached once (RC-A13)
P_RAFT = P_SYM + 1               # the own raft's field + 1, 0 none (Vinder, RC-R235, RC-R239)
P_RAFT_N = P_RAFT + 1            # followers on it (off the board, RC-R237, RC-A49)
P_ACTS = P_RAFT_N + 1            # statistics: [U_MAX] activations of each ability in the whole game (paid
                                 # ``use:``, event windows, Exoskelet's ``payment``, free activations; outcome rc_uses_*)
P_RINGS = P_ACTS + U_MAX         # statistics: rings placed (Noorderling's free action, RC-R233; rc_rings)
SW = P_RINGS + 1
W = SEAT0 + MAXP * SW

# ---- hidden columns --------------------------------------------------------------------------------
H_CHEST = 0                      # [CHEST_MAX] chest stack, top first (-1 beyond)
H_GREEN = H_CHEST + CHEST_MAX    # [DECK_MAX] green deck, top first
H_GREY = H_GREEN + DECK_MAX      # [DECK_MAX]
H_GOALS = H_GREY + DECK_MAX      # [MAXP, 3] goal cards per seat (-1 none)
H_OLDT = H_GOALS + 3 * MAXP      # [TRIBES_MAX] the "old_tribes" permutation
H_OLDI = H_OLDT + TRIBES_MAX     # [ITEMS_MAX] the "old_items" permutation
H_CHEST_KEY = H_OLDI + ITEMS_MAX   # [4] the "chests" stream key without extra words (the k-th reshuffle's key
                                 # is derived from it in the kernel, kernel/chests.py), 16 bits a word, low first
H_BAGKEY = H_CHEST_KEY + 4       # [4] the "bag" stream key (``bag_key``), 16 bits a word, low first
H_RINGKEY = H_BAGKEY + 4         # [4] the "rings" stream key (kernel/rings.py), 16 bits a word, low first
H = H_RINGKEY + 4


def seat_col(p: int, c: int) -> int:
    return SEAT0 + p * SW + c


@dataclass
class State:
    t: object                  # engine.Tables (shared, not copied by ``take``)
    gid: np.ndarray            # int64[B] game index
    bag_key: np.ndarray        # uint64[B] key of the "bag" stream
    m: np.ndarray              # int32[B, W] everything public (layout above)
    hidden: np.ndarray         # int32[B, H] hidden orders
    legal: np.ndarray          # bool[B, A]

    @property
    def batch(self) -> int:
        return len(self.gid)

    def seat(self, c: int, n: int = 1) -> np.ndarray:
        """int[B, MAXP, n] view of one per-seat field (``n`` columns from offset ``c``)."""
        blocks = self.m[:, SEAT0:SEAT0 + MAXP * SW].reshape(len(self.m), MAXP, SW)
        return blocks[:, :, c:c + n]


def empty_state(t, B: int) -> State:
    return State(t=t, gid=np.zeros(B, dtype=np.int64), bag_key=np.zeros(B, dtype=np.uint64),
                 m=np.zeros((B, W), dtype=np.int32), hidden=np.full((B, H), -1, dtype=np.int32),
                 legal=np.zeros((B, t.A), dtype=bool))


def copy_state(s: State) -> State:
    return dataclasses.replace(s, **{f.name: getattr(s, f.name).copy() for f in dataclasses.fields(s)
                                     if isinstance(getattr(s, f.name), np.ndarray)})
