"""The Recall engine: the seeded setup into the state matrix, then the compiled kernel.

``setup`` reuses ``sim.games.recall.setup.deal`` (the setup the oracle agrees with) for every
game and copies it into ``state.py``'s layout; the draws that depend on the draft (old tribes,
item stacks) are drawn here too, as the permutations the model doc names, and applied by the
kernel once the draft is over. ``step`` refuses illegal actions (``sim.core.game.check_legal``)
and runs ``kernel.step_batch``. The flat action space is the model doc's table; ``Tables``
holds it with the content as integer arrays.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core import rng
from sim.core.game import check_legal
from sim.games.recall import kernel
from sim.games.recall import state as st
from sim.games.recall.board import build_board, fields
from sim.games.recall.content_types import KEY_COLOURS, LETTERS, Content
from sim.games.recall.setup import deal

DRAFT_MODES = ("draft", "random", "custom")
PICKS, COUNTS, OPTS = 16, 23, 20
AT_PAYMENT = ("Exoskelet",)         # used at a follower payment, not as a free action (RC-R244)


@dataclass(frozen=True)
class Tables:
    config: object
    content: Content
    C: np.ndarray                   # int64[kernel.NC]: scalar constants (kernel.C_*)
    ab_free: np.ndarray             # int64[U]: 1 = a free action (not event-bound, RC-R65; not
                                    # Exoskelet, offered at the payment, RC-R244)
    ab_hex: np.ndarray              # int64[U]: 1 = fixed cost 1 (RC-A33)
    item_ab: np.ndarray             # int64[items, 2]: first ability index and count (Multitool: 4)
    action_names: tuple[str, ...]
    field_names: tuple[str, ...]
    ability_names: tuple[str, ...]

    @property
    def A(self) -> int:
        return len(self.action_names)


def abilities(content: Content) -> tuple[list[str], list, np.ndarray]:
    """The ``use:`` head (model doc): tribes, then items with Multitool as its parts."""
    names, source, item_ab = [t.id for t in content.tribes], list(content.tribes), []
    for it in content.items:
        parts = it.parts or (None,)
        item_ab.append((len(names), len(parts)))
        for part in parts:
            names.append(it.id if part is None else f"{it.id}.{part}")
            source.append(it)
    return names, source, np.array(item_ab, dtype=np.int64).reshape(-1, 2)


def field_names(content: Content) -> list[str]:
    board = build_board(content.map)
    names = [f"{board.slot_ids[k]}.{i}" for k in range(board.n_slots) for i in range(7)]
    return names + list(board.board_monument_ids) + [f"river.{i}" for i in range(len(board.river))]


def action_names(content: Content) -> list[str]:
    """The flat action space (model doc: ``A = 2 + 6K + 16 + NF + 23 + 20 + U + C + 1``)."""
    kinds = [k.id for k in content.key_cards]
    names = ["end", "recall"] + [f"play:{k}:{s}" for k in kinds for s in LETTERS]
    names += [f"pick:{i}" for i in range(PICKS)] + [f"field:{f}" for f in field_names(content)]
    names += [f"count:{c}" for c in range(1, COUNTS + 1)] + [f"opt:{i}" for i in range(OPTS)]
    names += [f"use:{a}" for a in abilities(content)[0]] + [f"chest:{c.id}" for c in content.chest_tiles] + ["ring"]
    return names


def build_tables(config, content: Content) -> Tables:
    ab_names, ab_src, item_ab = abilities(content)
    fnames = field_names(content)
    kinds = [k.id for k in content.key_cards]
    names = action_names(content)
    sizes = {"fields": (len(fnames), st.F_MAX), "key kinds": (len(kinds), st.K_MAX),
             "abilities": (len(ab_names), st.U_MAX), "chest kinds": (len(content.chest_tiles), st.C_MAX),
             "tribes": (len(content.tribes), st.TRIBES_MAX), "items": (len(content.items), st.ITEMS_MAX),
             "slots": (len(content.map.slots), st.S_MAX)}
    for what, (n, cap) in sizes.items():
        if n > cap:
            raise ValueError(f"recall engine: {n} {what} in the content, the state holds at most {cap}")
    C = np.zeros(kernel.NC, dtype=np.int64)
    C[kernel.C_NP] = config.players
    C[kernel.C_K] = len(kinds)
    C[kernel.C_NF] = len(fnames)
    C[kernel.C_U] = len(ab_names)
    C[kernel.C_NCH] = len(content.chest_tiles)
    C[kernel.C_TRIBES] = len(content.tribes)
    C[kernel.C_ITEMS] = len(content.items)
    C[kernel.C_DRAFT] = DRAFT_MODES.index(config.tribe_draft)
    C[kernel.C_RINGS] = sum(r.count for r in content.rings)
    ids = [t.id for t in content.tribes]
    C[kernel.C_NOORD] = ids.index("Noorderling") if "Noorderling" in ids else -1
    C[kernel.C_PER_STACK] = content.setup.items_per_stack
    C[kernel.C_START1] = content.map.start_fields[0]
    C[kernel.C_START2] = content.map.start_fields[1] if len(content.map.start_fields) > 1 else content.map.start_fields[0]
    C[kernel.C_START_FOL] = content.setup.start_followers
    C[kernel.C_O_PLAY] = 2
    C[kernel.C_O_USE] = names.index(f"use:{ab_names[0]}")
    C[kernel.C_O_CHEST] = C[kernel.C_O_USE] + len(ab_names)
    C[kernel.C_O_RING] = len(names) - 1
    C[kernel.C_O_OPT] = names.index("opt:0")
    return Tables(config=config, content=content, C=C,
                  ab_free=np.array([0 if a.event or a.id in AT_PAYMENT else 1 for a in ab_src], dtype=np.int64),
                  ab_hex=np.array([1 if a.hexagon else 0 for a in ab_src], dtype=np.int64),
                  item_ab=item_ab, action_names=tuple(names), field_names=tuple(fnames),
                  ability_names=tuple(ab_names))


class _Decisions:
    """Each game's pending decision as text, built only when ``check_legal`` names a refused one."""

    def __init__(self, m):
        self.m = m

    def __array__(self, dtype=None, copy=None):
        return np.array([f"round {r + 1}, {st.KIND_NAMES[k]} of seat {p}" for r, k, p in
                         zip(self.m[:, st.G_ROUND], self.m[:, st.G_KIND], self.m[:, st.G_DEC])])


def _put(row, col, values):
    values = list(values)
    row[col:col + len(values)] = values


def _setup_one(t: Tables, g: np.ndarray, h: np.ndarray, seed: int, game: int):
    """One game's setup (docs/recall_model.md "Setup order") into its state and hidden rows."""
    cfg, ct = t.config, t.content
    n = cfg.players
    board = build_board(ct.map)
    d = deal(cfg, ct, seed, game, board)
    g[st.G_NP] = n
    g[st.G_START_SLOT] = d.start_slot
    g[st.G_BAGK] = d.bag_draws
    _put(g, st.G_BAG_ART, d.bag_artifacts)
    _put(g, st.G_BAG_STONE, d.bag_stones)
    _put(g, st.G_DISP_ART, [ct.setup.display_per_colour] * 4)
    _put(g, st.G_TRIBE_DISP, [-1] * 5)
    _put(g, st.G_ITEM_DISP, [-1] * 5)
    _put(g, st.G_TRIBE_DISP, d.tribe_display)
    _put(g, st.G_ITEM_DISP, d.item_display)
    _put(g, st.G_OLD_TRIBE, [-1] * 15)
    _put(g, st.G_REVEALED, [int(cfg.known_old_tribes)] * 3)
    yellow = [i for i, k in enumerate(ct.key_cards) if KEY_COLOURS[k.colour] == "yellow"]
    _put(g, st.G_YELLOW, [ct.key_cards[i].count for i in yellow])
    shown = ct.setup.key_display
    for col, deck, top in ((st.G_GREEN, d.green_deck, st.G_GREEN_TOP), (st.G_GREY, d.grey_deck, st.G_GREY_TOP)):
        up = min(shown, len(deck))
        _put(g, col, list(deck[:up]) + [-1] * (3 - up))
        g[top] = up
    _put(g, st.G_MON_DISP, d.monument_tiles)
    _put(g, st.G_LIGHT, d.light_tokens)
    _put(g, st.G_DARK, d.dark_tokens)
    _put(g, st.G_PATH, d.path_cards)
    _put(g, st.G_SIDE, d.path_sides)
    _put(g, st.G_UPG_LETTER, d.upgrade_letters)
    left = [0] * 6
    for u in ct.upgrades:
        left[u.letter] += u.count
    _put(g, st.G_UPG_LEFT, left)
    g[st.G_CHEST_N] = len(d.chest_stack)
    lay = d.layout
    _put(g, st.G_TILE, lay.tile)
    _put(g, st.G_ROT, lay.rotation)
    _put(g, st.G_UP, [int(x) for x in lay.face_up])
    fl = fields(board, ct, lay)
    nf = board.n_fields
    g[st.G_NF] = nf
    _put(g, st.F_TERR, fl.terrain)
    _put(g, st.F_PIGS, fl.pigs)
    _put(g, st.F_CAMP, fl.camp)
    _put(g, st.F_START, [s if up else -1 for s, up in zip(fl.start, fl.face_up)])
    _put(g, st.F_ART, [-1] * st.F_MAX)
    for f, colour in d.artifacts:
        g[st.F_ART + f] = colour
    for f, stones in d.sites:
        for c in stones:
            g[st.F_SITE + 3 * f + c] += 1
    for p in range(n):
        b = st.SEAT0 + p * st.SW
        _put(g, b + st.P_CR, ct.setup.start_crystals)
        g[b + st.P_STONES + 3] = 1
        g[b + st.P_SKILL] = 1
        g[b + st.P_SUPPLY] = ct.setup.follower_units
        g[b + st.P_START] = d.start_fields[p]
        g[b + st.P_AVAIL + 0] = ct.key_cards[0].count
        _put(g, b + st.P_SLOT, [-1] * 6)
        g[b + st.P_TRIBE] = -1
        g[b + st.P_ITEM] = -1
        for j, goal in enumerate(d.goal_cards[p]):
            h[st.H_GOALS + 3 * p + j] = goal
    if cfg.tribe_draft == "random":                       # RC-V1: seat j gets display pair j
        for p in range(n):
            g[st.SEAT0 + p * st.SW + st.P_TRIBE] = d.tribe_display[p]
            g[st.SEAT0 + p * st.SW + st.P_ITEM] = d.item_display[p]
            g[st.G_TRIBE_DISP + p] = -1
            g[st.G_ITEM_DISP + p] = -1
    _put(h, st.H_CHEST, d.chest_stack)
    _put(h, st.H_GREEN, d.green_deck)
    _put(h, st.H_GREY, d.grey_deck)
    keys = lambda purpose: rng.stream_keys(seed, [game], purpose)  # noqa: E731
    r_t, r_i = len(ct.tribes) - n, len(ct.items) - n
    _put(h, st.H_OLDT, rng.permutations(keys("old_tribes"), r_t)[0])
    _put(h, st.H_OLDI, rng.permutations(keys("old_items"), r_i)[0])
    g[st.G_PHASE] = st.PH_SOLO


def setup(t: Tables, game_ids, seed: int) -> st.State:
    """Every game's setup up to its first decision (a Python loop over ``deal``, once per game)."""
    game_ids = np.asarray(game_ids, dtype=np.int64)
    s = st.empty_state(t, len(game_ids))
    s.gid[:] = game_ids
    s.bag_key[:] = rng.stream_keys(seed, game_ids, "bag")
    for b, game in enumerate(game_ids):
        _setup_one(t, s.m[b], s.hidden[b], seed, int(game))
    return s


def _run(s: st.State, actions, decide: bool) -> st.State:
    kernel.step_batch(s.m, s.hidden, s.legal, s.t.C, s.t.ab_free, s.t.ab_hex, s.t.item_ab, actions, decide)
    return s


def init(t: Tables, game_ids, seed: int) -> st.State:
    return _run(setup(t, game_ids, seed), np.zeros(len(game_ids), dtype=np.int64), False)


def step(s: st.State, actions) -> st.State:
    """Apply one action per game (ignored for finished games), then advance. In place.

    An action outside its game's legal mask is refused before any game of the batch moves. The
    compiled part ends at each game's first ``main`` decision: a step from there is refused."""
    actions = np.ascontiguousarray(actions, dtype=np.int64)
    live = s.m[:, st.G_KIND] != st.K_DONE
    check_legal(s.legal, actions, live, s.gid, _Decisions(s.m), s.t.action_names)
    if (live & (s.m[:, st.G_KIND] >= kernel.FRONTIER)).any():
        raise NotImplementedError("recall engine: the turn (main and after) is not compiled yet "
                                  "(docs/recall_engine.md, 'What is left')")
    return _run(s, actions, True)
