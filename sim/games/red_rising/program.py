"""Compile the content's op lists into one flat instruction table (the engine's "program").

Every op list of the content (card deploy abilities, card end abilities, houses' on_sovereign
lists) and two synthetic lists (one die roll; used after gain option B and for a free die
bonus) become *blocks* of a flat table: one row per op, the block ending with an ``END`` row.
Nested ``then`` / ``else`` lists are blocks of their own; the op's row holds their start.

Rows are numpy arrays (``op[I]`` and ``prm[I, NPRM]``), so the engine reads the current
instruction of a whole batch of games with one gather. Everything that depends only on the
content (filter matches, block cards, end-ability cards) is tabulated here once.

Card tables get one extra sentinel column/row at index ``C`` (or -1): indexing them with the
"no card" code -1 hits the sentinel (False / -1 / 0), which saves masks in the engine.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core.memo import per_object
from sim.games.red_rising.content_types import DIE_BONUSES, LOCATIONS, OPPONENT_ACTIONS, Content, Filter, Op
from sim.games.red_rising.scoring import matches

# ---- opcodes ---------------------------------------------------------------------------------
(END, GAIN, LOSE, TRADE, BANISH_LOC, BANISH_HAND, BANISH_DECK, MOVE, PLACE, GAIN_CARD,
 DEPLOY_ANOTHER, RECOVER, ROLL_DIE, OPPONENT, LOOK, REVEAL_OWN, IF, END_TURN) = range(18)
NUM_OPCODES = 18
OPCODE = {"gain": GAIN, "lose": LOSE, "trade": TRADE, "banish_location": BANISH_LOC,
          "banish_hand": BANISH_HAND, "banish_deck_top": BANISH_DECK, "move": MOVE,
          "place_from_deck": PLACE, "gain_card": GAIN_CARD, "deploy_another": DEPLOY_ANOTHER,
          "recover": RECOVER, "roll_die": ROLL_DIE, "opponent": OPPONENT,
          "look_opponent_hand": LOOK, "reveal_own": REVEAL_OWN, "if": IF, "end_turn": END_TURN}
OPNAME = {v: k for k, v in OPCODE.items()} | {END: "end"}

# ---- parameter columns of prm ------------------------------------------------------------------
(P_OPT, P_RES, P_AMT, P_SEL, P_SEL2, P_POS, P_WHICH, P_TOPOS, P_FILT, P_FACE, P_TGT, P_ACT,
 P_SELN, P_BLOCK, P_SHUF, P_COND, P_CFILT, P_CSEL, P_CRES, P_CAMT, P_WHEN, P_THEN, P_ELSE) = range(23)
P_PAY = 23                         # P_PAY + r: amount of resource r paid by a trade (helium, fleet, influence)
P_GET = 27                         # P_GET + 2i, P_GET + 2i + 1: resource and amount of the i-th get (amount 0: none)
TRADE_GETS = 4                     # gets per trade at most
NPRM = P_GET + 2 * TRADE_GETS

# die bonuses (RR-R22): code = 1 + index in DIE_BONUSES (the face number of the printed die)
DF_BANISH, DF_PLACE, DF_SOVEREIGN, DF_HELIUM, DF_FLEET, DF_INFLUENCE = range(1, 7)
DIE_BONUS = {name: i + 1 for i, name in enumerate(DIE_BONUSES)}
# resources
HELIUM, FLEET, INFLUENCE, SOVEREIGN, DIE = range(5)
RES = {"helium": HELIUM, "fleet": FLEET, "influence": INFLUENCE, "sovereign": SOVEREIGN, "die": DIE}
# location selectors (and the other sources / destinations of gain_card and recover)
SEL_ANY, SEL_THIS, SEL_OTHER, SEL_BANISHED, SEL_DECK, SEL_HAND = 4, 5, 6, 7, 8, 9
SEL = {name: i for i, name in enumerate(LOCATIONS)} | {
    "any": SEL_ANY, "this": SEL_THIS, "other": SEL_OTHER, "banished": SEL_BANISHED,
    "deck": SEL_DECK, "hand": SEL_HAND}
WHICH = {"top": 0, "self": 1, "bottom": 2, "filter": 3}
W_TOP, W_SELF, W_BOTTOM, W_FILTER = range(4)
TARGET = {"choose": 0, "each": 1, "neighbours": 2}
T_CHOOSE, T_EACH, T_NEIGHBOURS = range(3)
# opponent actions; LOOK_ACT is look_opponent_hand run through the same target machinery
ACTION = {name: i for i, name in enumerate(OPPONENT_ACTIONS)}
A_STEAL, A_BANISH, A_REVEAL_RANDOM, A_REVEAL_CHOICE, A_LOSE, A_GAIN_FREE = range(6)
A_LOOK = 6
SELECTION = {"random": 0, "owner_chooses": 1, "actor_chooses": 2}
S_RANDOM, S_OWNER, S_ACTOR = range(3)
COND = {"hand_has": 0, "seen_has": 1, "location_top": 2, "banished_has": 3,
        "resource_at_least": 4, "prev_done": 5}
C_HAND, C_SEEN, C_LOCTOP, C_BANISHED, C_RESOURCE, C_PREV = range(6)


def selector_table() -> np.ndarray:
    """bool[10, 5, 4]: locations selected by selector code ``s`` when ``this`` = t - 1."""
    table = np.zeros((10, 5, 4), dtype=bool)
    for t in range(5):
        this = t - 1
        for x in range(4):
            table[x, t, x] = True
        table[SEL_ANY, t, :] = True
        if this >= 0:
            table[SEL_THIS, t, this] = True
            table[SEL_OTHER, t, :] = True
            table[SEL_OTHER, t, this] = False
        else:
            table[SEL_OTHER, t, :] = True          # no `this`: "other" means all four
    return table


@dataclass(frozen=True)
class Program:
    """The compiled content: instruction table and per-card / per-house lookup arrays."""

    op: np.ndarray                 # int16[I]: opcode per row
    prm: np.ndarray                # int32[I, NPRM]
    filters: tuple[Filter, ...]
    fmatch: np.ndarray             # bool[F, C + 1]: printed card matches filter (sentinel column False)
    wmatch: np.ndarray             # bool[F, C + 1]: the card matches under some choice of its wildcards (RR-A19)
    blocks: np.ndarray             # bool[7, C + 1]: card may block opponent action a (RR-R42)
    deploy_pc: np.ndarray          # int32[C + 1]: start of the card's deploy block, -1 none
    end_pc: np.ndarray             # int32[C + 1]: start of the card's end-ability block, -1 none
    house_pc: np.ndarray           # int32[H + 1]: start of the house's on_sovereign block, -1 none
    die_pc: int                    # a block of one roll_die (gain option B, free die bonus)
    die: np.ndarray                # int8[7]: die[f] = bonus code (DF_*) of die face f in 1..6; die[0] = 0
    core: np.ndarray               # int16[C + 1]
    seen_k: int                    # size of a seen set (largest look count, at least 1)
    sel: np.ndarray                # bool[10, 5, 4] selector_table()
    opnames: tuple[str, ...]       # row -> "op" (for logs)
    reg_dtype: type                # dtype of the engine's frame registers (rows, cards, micro-ops fit)
    # houses, [H + 1] (sentinel 0 at index H = "no house", e.g. Au Toma)
    house_first: np.ndarray        # first_turn (RR-S15)
    house_extra_turn: np.ndarray   # extra_last_turn (RR-E5)
    house_extra_cards: np.ndarray  # start_extra_cards (RR-S17)
    house_end_banish: np.ndarray   # end_banish_from_hand (RR-E8)
    # Au Toma cards [NA]: deploy / gain as location 0..3 or priority letter 4..7 (A..D),
    # extra 0 none / 1 star / 2 cross, direction +1 (cw, J->M->L->I) / -1 (ccw)
    auto_deploy: np.ndarray
    auto_gain: np.ndarray
    auto_extra: np.ndarray
    auto_dir: np.ndarray


class _Compiler:
    def __init__(self, content: Content):
        self.content = content
        self.rows_op: list[int] = []
        self.rows: list[list[int]] = []
        self.filters: dict[Filter, int] = {Filter(): 0}
        self.seen_k = 1

    def filt(self, f: Filter) -> int:
        return self.filters.setdefault(f, len(self.filters))

    def block(self, ops) -> int:
        """Emit ``ops`` + END; nested lists after them. Returns the start row (-1 if empty)."""
        if not ops:
            return -1
        start = len(self.rows)
        for _ in range(len(ops) + 1):
            self.rows_op.append(END)
            self.rows.append([0] * NPRM)
        for i, op in enumerate(ops):
            code, prm = self.encode(op)
            self.rows_op[start + i] = code
            self.rows[start + i] = prm
        return start

    def encode(self, op: Op) -> tuple[int, list[int]]:
        p = [0] * NPRM
        code = OPCODE[op.op]
        p[P_OPT] = int(op.optional)
        p[P_RES] = RES.get(op.resource, 0)
        p[P_AMT] = op.amount
        p[P_FILT] = self.filt(op.filter)
        p[P_THEN] = p[P_ELSE] = -1
        if code == BANISH_LOC:
            p[P_SEL], p[P_POS] = SEL[op.where], int(op.position == "any")
        elif code == BANISH_HAND or code == BANISH_DECK:
            p[P_AMT] = op.count
        elif code == MOVE:
            p[P_SEL], p[P_SEL2] = SEL[op.from_], SEL[op.to]
            p[P_WHICH], p[P_TOPOS] = WHICH[op.which], int(op.to_position == "bottom")
        elif code == PLACE:
            p[P_SEL], p[P_AMT] = SEL[op.to], op.count
        elif code == GAIN_CARD:
            p[P_SEL], p[P_POS] = SEL[op.from_], int(op.position == "any")
        elif code == RECOVER:
            p[P_SEL2] = SEL[op.to]
        elif code == ROLL_DIE:
            p[P_AMT], p[P_FACE] = op.times, int(op.sovereign_face == "rechoose")
        elif code in (OPPONENT, LOOK):
            p[P_TGT] = TARGET[op.target]
            if code == OPPONENT:
                p[P_ACT], p[P_SELN] = ACTION[op.action], SELECTION[op.selection]
                p[P_BLOCK] = int(op.blockable)
            else:
                code = OPPONENT
                p[P_ACT], p[P_AMT], p[P_SHUF] = A_LOOK, op.count, int(op.automa_shuffle)
                self.seen_k = max(self.seen_k, op.count)
            p[P_THEN] = self.block(op.then)
        elif code == REVEAL_OWN:
            p[P_THEN] = self.block(op.then)
        elif code == IF:
            kind, value = op.cond
            p[P_COND] = COND[kind]
            if kind in ("hand_has", "seen_has", "banished_has"):
                p[P_CFILT] = self.filt(value)
            elif kind == "location_top":
                p[P_CSEL], p[P_CFILT] = SEL[value[0]], self.filt(value[1])
            elif kind == "resource_at_least":
                p[P_CRES], p[P_CAMT] = RES[value[0]], value[1]
            p[P_THEN] = self.block(op.then)
            p[P_ELSE] = self.block(op.else_)
        elif code == END_TURN:
            p[P_WHEN] = int(op.when == "if_prev_done")
        elif code == TRADE:
            for res, amount in op.pay:
                p[P_PAY + RES[res]] += amount
            if len(op.get) > TRADE_GETS:
                raise ValueError(f"a trade has at most {TRADE_GETS} gets")
            for i, (res, amount) in enumerate(op.get):
                p[P_GET + 2 * i], p[P_GET + 2 * i + 1] = RES[res], amount
        return code, p


def compile_program(content: Content) -> Program:
    """Compile every op list of ``content`` (see the module docstring)."""
    comp = _Compiler(content)
    cards = content.cards
    n = len(cards)
    deploy_pc = np.full(n + 1, -1, dtype=np.int32)
    end_pc = np.full(n + 1, -1, dtype=np.int32)
    for card in cards:
        deploy_pc[card.index] = comp.block(card.deploy)
        end_pc[card.index] = comp.block(card.end_ability)
    house_pc = np.full(len(content.houses) + 1, -1, dtype=np.int32)
    for h, house in enumerate(content.houses):
        house_pc[h] = comp.block(house.on_sovereign)
    die_pc = comp.block((Op(op="roll_die"),))
    filters = tuple(comp.filters)
    fmatch = np.zeros((len(filters), n + 1), dtype=bool)
    for f, filt in enumerate(filters):
        fmatch[f, :n] = [matches(filt, c) for c in cards]
    wmatch = wildcard_match(content, filters, fmatch)
    blocks = np.zeros((7, n + 1), dtype=bool)
    for card in cards:
        for a, name in enumerate(OPPONENT_ACTIONS):
            blocks[a, card.index] = name in card.block_against or "any" in card.block_against
    core = np.zeros(n + 1, dtype=np.int16)
    core[:n] = [c.core for c in cards]
    op = np.asarray(comp.rows_op, dtype=np.int16)

    def house_flag(get):
        return np.asarray([int(get(h)) for h in content.houses] + [0], dtype=np.int16)

    part = {"J": 0, "M": 1, "L": 2, "I": 3, "A": 4, "B": 5, "C": 6, "D": 7}
    autos = content.automa_cards
    return Program(op=op, prm=np.asarray(comp.rows, dtype=np.int32).reshape(len(op), NPRM),
                   filters=filters, fmatch=fmatch, wmatch=wmatch, blocks=blocks, deploy_pc=deploy_pc, end_pc=end_pc,
                   house_pc=house_pc, die_pc=die_pc, die=die_table(content), core=core, seen_k=comp.seen_k,
                   sel=selector_table(), opnames=tuple(OPNAME[int(o)] for o in op),
                   reg_dtype=np.int16 if max(len(op), n) < 30_000 else np.int32,
                   house_first=house_flag(lambda h: h.first_turn),
                   house_extra_turn=house_flag(lambda h: h.extra_last_turn),
                   house_extra_cards=house_flag(lambda h: h.start_extra_cards),
                   house_end_banish=house_flag(lambda h: h.end_banish_from_hand),
                   auto_deploy=np.asarray([part[a.deploy] for a in autos], dtype=np.int8),
                   auto_gain=np.asarray([part[a.gain] for a in autos], dtype=np.int8),
                   auto_extra=np.asarray([{"none": 0, "star": 1, "cross": 2}[a.extra] for a in autos], dtype=np.int8),
                   auto_dir=np.asarray([1 if a.arrow == "cw" else -1 for a in autos], dtype=np.int8))


def die_table(content: Content) -> np.ndarray:
    """int8[7]: the bonus code (DF_*) of each face 1..6 of the content's die (index 0 unused)."""
    return np.asarray([0] + [DIE_BONUS[b] for b in content.die_faces], dtype=np.int8)


def wildcard_match(content: Content, filters, fmatch) -> np.ndarray:
    """bool[F, C + 1]: card c matches filter f with its printed attributes or with some choice of
    its wildcards (a grey card also counting as one other colour, an orange card also bearing
    another card's name; RR-R51, RR-R54, RR-A19). Plain cards: as ``fmatch``."""
    wmatch = fmatch.copy()
    names = list(dict.fromkeys(c.name for c in content.cards))
    for card in content.cards:
        if not (card.colour_wildcard or card.name_wildcard):
            continue
        colours = [{card.colour}] + ([{card.colour, x} for x in content.colours if x != card.colour]
                                     if card.colour_wildcard else [])
        named = [{card.name}] + ([{card.name, m} for m in names if m != card.name] if card.name_wildcard else [])
        for f, filt in enumerate(filters):
            wmatch[f, card.index] = any(matches(filt, card, cs, ns) for cs in colours for ns in named)
    return wmatch


@per_object
def program_for(content: Content) -> Program:
    """The compiled program of ``content`` (cached per content object)."""
    return compile_program(content)
