"""The Recall engine: the seeded setup into the state matrix, then the compiled kernel.

``setup`` is ``sim.games.recall.setup.deal`` (the setup the oracle agrees with) vectorised over
the batch (``setup_batch``), written straight into ``state.py``'s layout; the draws that depend on the draft (old tribes,
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
from sim.core.memo import per_object
from sim.games.recall import kernel
from sim.games.recall import state as st
from sim.games.recall.board import build_board
from sim.games.recall.content_types import KEY_COLOURS, LETTERS, WORKSHOP_TERRAINS, Content
from sim.games.recall.setup_batch import deal_batch
from sim.games.recall.tables import build_tables as content_tables

DRAFT_MODES = ("draft", "random", "custom")
PICKS, COUNTS, OPTS = 16, 23, 20
AT_PAYMENT = ("Exoskelet",)         # used at a follower payment, not as a free action (RC-R244)


@dataclass(frozen=True)
class Tables:
    config: object
    content: Content
    C: np.ndarray                   # int64[kernel.NC]: scalars and offsets into ``tab`` (kernel.C_*)
    tab: np.ndarray                 # int64[...]: the content's index arrays (``_index_tables``)
    atoms: np.ndarray               # int64[N, 9]: sim.games.recall.tables' atom table
    action_names: tuple[str, ...]
    field_names: tuple[str, ...]
    ability_names: tuple[str, ...]

    @property
    def A(self) -> int:
        return len(self.action_names)

    def part(self, offset_key: int, n: int) -> np.ndarray:
        """The ``n`` entries of ``tab`` from the offset ``C[offset_key]``."""
        o = int(self.C[offset_key])
        return self.tab[o:o + n]


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
             "slots": (len(content.map.slots), st.S_MAX), "camps": (len(content.camps), st.BITS_MAX),
             "sanctuaries": (len(content.board.sanctuaries), st.BITS_MAX), "ring kinds": (len(content.rings), st.RING_MAX)}
    for what, (n, cap) in sizes.items():
        if n > cap:
            raise ValueError(f"recall engine: {n} {what} in the content, the state holds at most {cap}")
    ct = content_tables(content)
    board = ct.board
    eid = ct.effect_id
    terrains = [x.name for x in content.map.terrains]
    tb = content.time_board
    parts = [
        (kernel.C_T_FREE, [0 if a.event or a.id in AT_PAYMENT else 1 for a in ab_src]),
        (kernel.C_T_HEX, [int(a.hexagon) for a in ab_src]),
        (kernel.C_T_EVT, [kernel.EVENTS.index(a.event) for a in ab_src]),
        (kernel.C_T_ITEM_AB, item_ab.ravel()),
        (kernel.C_T_KEY, [eid[("key", k)] for k in range(len(kinds))]),
        (kernel.C_T_BASE, [eid[("base", x)] for x in range(len(content.base_fields))]),
        (kernel.C_T_UPG, _upgrade_effects(content, eid)),
        (kernel.C_T_DARK, [eid[("dark", k)] for k in range(len(content.dark_tokens))]),
        (kernel.C_T_GOAL, [eid[("goal", k)] for k in range(len(content.goal_cards))]),
        (kernel.C_T_PROD, [eid[("production", k)] for k in range(len(content.board.production))]),
        (kernel.C_T_PROD_BLD, [p.building for p in content.board.production]),
        (kernel.C_T_SYM, list(content.upgrade_symbols)),
        (kernel.C_T_PATH_SP, list(tb.path_spaces)),
        (kernel.C_T_GOAL_SP, list(tb.goal_spaces)),
        (kernel.C_T_EROWS, ct.effect_rows.ravel()),
        (kernel.C_T_OPTS, ct.options.ravel()),
        (kernel.C_T_ABEFF, _ability_effects(content, ab_names, eid)),
        (kernel.C_T_CHEST, [eid[("chest", k)] for k in range(len(content.chest_tiles))]),
        (kernel.C_T_LIGHT, [eid[("light", k)] for k in range(len(content.light_tokens))]),
        (kernel.C_T_BONUS, list(content.knowledge.bonus_positions)),
        (kernel.C_T_NEIGH, board.neighbours.ravel()),
        (kernel.C_T_FSLOT, board.slot),
        (kernel.C_T_TMOVE, [int(x.move) for x in content.map.terrains]),
        (kernel.C_T_ISLE, [int(x.water or x.name in ("grain", "forest", "mountain")) for x in content.map.terrains]),   # RC-R216
        (kernel.C_T_ACOST, list(content.board.artifact_rows.follower_cost)),
        (kernel.C_T_YELLOW, [i for i, k in enumerate(content.key_cards) if KEY_COLOURS[k.colour] == "yellow"]),
        (kernel.C_T_KCOLOUR, [k.colour for k in content.key_cards]),
        (kernel.C_T_RING, [eid[("ring", k)] for k in range(len(content.rings))]),
        (kernel.C_T_RING_N, [r.count for r in content.rings]),
        (kernel.C_T_COVERED, [eid[("covered", c, col)] for c, row in enumerate(content.board.artifact_rows.covered)
                              for col in range(len(row))]),
        *_development_tables(content, board, eid),
        *_explore_tables(content, board, ct),
    ]
    C = np.zeros(kernel.NC, dtype=np.int64)
    tab = []
    for key, values in parts:
        C[key] = len(tab)
        tab.extend(int(v) for v in values)
    ids = [t.id for t in content.tribes]
    scalars = {
        kernel.C_NP: config.players, kernel.C_K: len(kinds), kernel.C_NF: len(fnames), kernel.C_U: len(ab_names),
        kernel.C_NCH: len(content.chest_tiles), kernel.C_TRIBES: len(content.tribes), kernel.C_ITEMS: len(content.items),
        kernel.C_DRAFT: DRAFT_MODES.index(config.tribe_draft), kernel.C_RINGS: sum(r.count for r in content.rings),
        kernel.C_NOORD: ab_names.index("Noorderling") if "Noorderling" in ab_names else -1,
        kernel.C_JHE: ab_names.index("J'He") if "J'He" in ab_names else -1,
        kernel.C_AYNIR: ids.index("Aynir") if "Aynir" in ids else -1,
        kernel.C_LEX: ids.index("Lexander") if "Lexander" in ids else -1,
        kernel.C_PER_STACK: content.setup.items_per_stack,
        kernel.C_START1: content.map.start_fields[0], kernel.C_START2: content.map.start_fields[min(1, len(content.map.start_fields) - 1)],
        kernel.C_START_FOL: content.setup.start_followers,
        kernel.C_O_PLAY: 2, kernel.C_O_PICK: names.index("pick:0"), kernel.C_O_OPT: names.index("opt:0"),
        kernel.C_O_FIELD: names.index(f"field:{fnames[0]}"), kernel.C_O_COUNT: names.index("count:1"),
        kernel.C_O_USE: names.index(f"use:{ab_names[0]}"), kernel.C_O_CHEST: names.index(f"use:{ab_names[0]}") + len(ab_names),
        kernel.C_O_RING: len(names) - 1,
        kernel.C_NPROD: len(content.board.production), kernel.C_NSYM: len(content.upgrade_symbols),
        kernel.C_SPACES: tb.spaces, kernel.C_NPATH_SP: len(tb.path_spaces), kernel.C_NGOAL_SP: len(tb.goal_spaces),
        kernel.C_MAXDEC: config.max_decisions_per_turn, kernel.C_AUTO: int(config.event_abilities == "auto"),
        kernel.C_COPY_EVER: int(config.copy_field == "ever"), kernel.C_CAP: content.setup.crystal_cap,
        kernel.C_KEEP3: int(config.solo_goals == "keep_three"),
        kernel.C_THIRD: content.knowledge.third, kernel.C_FIFTH: content.knowledge.fifth,
        kernel.C_TRK_LAST: content.knowledge.last, kernel.C_NBONUS: len(content.knowledge.bonus_positions),
        kernel.C_NCOLS: len(content.board.artifact_rows.follower_cost),
        kernel.C_NYELLOW: sum(KEY_COLOURS[k.colour] == "yellow" for k in content.key_cards),
        kernel.C_NGREEN: sum(KEY_COLOURS[k.colour] == "green" for k in content.key_cards for _ in range(k.count)),
        kernel.C_NGREY: sum(KEY_COLOURS[k.colour] == "grey" for k in content.key_cards for _ in range(k.count)),
        kernel.C_VOLCANO: terrains.index("volcano"), kernel.C_COLTERON: ids.index("Colteron") if "Colteron" in ids else -1,
        kernel.C_EXO: ab_names.index("Exoskelet") if "Exoskelet" in ab_names else -1,
        **{key: ab_names.index(name) if name in ab_names else -1 for key, name in (
            (kernel.C_ALAMBIEK, "Alambiek"), (kernel.C_GPR, "GPR"), (kernel.C_SCHOKBRON, "Schokbron"),
            (kernel.C_GOLIATH, "Goliath"), (kernel.C_K01, "K-01"), (kernel.C_PORTAAL, "Portaal"),
            (kernel.C_ENTERIN, "Enterin"), (kernel.C_VINDER, "Vinder"), (kernel.C_HAYLA, "Hayla"))},
        kernel.C_NISLANDS: content.setup.islands, kernel.C_FOREST: terrains.index("forest"),
        kernel.C_DORIAN: ab_names.index("Dorian") if "Dorian" in ab_names else -1,
        kernel.C_NPIGS: content.setup.pigs, kernel.C_NFARMS: content.setup.pig_farms,
        kernel.C_DPTILE: int(config.dorian_presence == "tile"), kernel.C_GRAIN: terrains.index("grain"),
        kernel.C_NRINGK: len(content.rings),
        kernel.C_SANCT_ART: sum(1 << k for k, r in enumerate(content.board.sanctuaries)
                                if [a.op for item in r for a in item] == ["ART_DISPLAY"]),
        kernel.C_WSW: max(len(c) for c in content.board.workshops), kernel.C_NMON: len(content.board.monuments),
        kernel.C_NSANCT: len(content.board.sanctuaries), kernel.C_EXC_TERR: terrains.index("excavation"),
        kernel.C_PER_SITE: content.setup.stones_per_site, kernel.C_FREE_UPG: int(config.free_upgrade_choice),
        kernel.C_WSTAY: int(config.water_no_exit == "stay"),
    }
    for key, value in scalars.items():
        C[key] = value
    return Tables(config=config, content=content, C=C, tab=np.array(tab, dtype=np.int64),
                  atoms=np.ascontiguousarray(ct.atoms, dtype=np.int64), action_names=tuple(names),
                  field_names=tuple(fnames), ability_names=tuple(ab_names))


def _ability_effects(content: Content, ab_names: list[str], eid: dict) -> list[int]:
    """Effect index of each ability's data effect; -1 for a coded one. A Multitool part runs the
    effect of the item of that name (RC-R247)."""
    tribes = [t.id for t in content.tribes]
    items = [i.id for i in content.items]
    out = []
    for name in ab_names:
        own = name.split(".")[-1]
        src, key = (content.tribes[tribes.index(own)], ("tribe", tribes.index(own))) if own in tribes else (
            content.items[items.index(own)], ("item", items.index(own)))
        out.append(-1 if src.coded or not src.effect else eid[key])
    return out


def _development_tables(content: Content, board, eid: dict) -> list[tuple[int, list[int]]]:
    """The tables of the development actions (kernel/dev.py): per terrain its building, workshop
    column and key colour (RC-R116, RC-R133); workshop costs [column][k][3] (RC-A21) and counts;
    monument costs (RC-A22); sanctuary, monument-tile and camp rewards; the excavation crystal and
    steps by stones on the site (RC-R152..R154); what uncovers each production field (RC-A16);
    the track of each board monument field (RC-E23, -1 elsewhere)."""
    terrains = content.map.terrains
    pb = content.board
    width = max(len(c) for c in pb.workshops)
    ws_cost = [x for column in pb.workshops for k in range(width)
               for x in (column[k] if k < len(column) else (0, 0, 0))]
    track = [-1] * board.n_fields
    for f, bm in zip(board.board_monuments, content.map.board_monuments):
        track[f] = bm.track
    return [
        (kernel.C_T_TBLD, [t.building for t in terrains]),
        (kernel.C_T_TCOL, [WORKSHOP_TERRAINS.index(t.name) if t.name in WORKSHOP_TERRAINS else -1 for t in terrains]),
        (kernel.C_T_TKEY, [t.key_colour for t in terrains]),
        (kernel.C_T_WSCOST, ws_cost),
        (kernel.C_T_WSN, [len(c) for c in pb.workshops]),
        (kernel.C_T_MONCOST, [x for cost in pb.monuments for x in cost]),
        (kernel.C_T_SANCT, [eid[("sanctuary", k)] for k in range(len(pb.sanctuaries))]),
        (kernel.C_T_EXC, [x for pair in content.setup.excavation for x in pair]),
        (kernel.C_T_MTILE, [eid[("monument_tile", k)] for k in range(len(content.monument_tiles))]),
        (kernel.C_T_CAMP, [eid[("camp", k)] for k in range(len(content.camps))]),
        (kernel.C_T_PROD_COL, [p.column for p in pb.production]),
        (kernel.C_T_PROD_POS, [p.position for p in pb.production]),
        (kernel.C_T_FTRACK, track),
    ]


def _explore_tables(content: Content, board, ct) -> list[tuple[int, list[int]]]:
    """The tables of exploring (kernel/explore.py): slot adjacency [S_MAX, S_MAX] and per tile and
    position (terrain, pigs, camp, start, artifact symbol)."""
    n = board.n_slots
    adj = np.zeros((st.S_MAX, st.S_MAX), dtype=np.int64)
    adj[:n, :n] = board.slot_adjacent
    per_pos = np.stack([ct.tile_terrain, ct.tile_pigs, ct.tile_camp, ct.tile_start, ct.tile_artifact], axis=2)
    return [(kernel.C_T_SADJ, adj.ravel()), (kernel.C_T_TILE, per_pos.ravel()),
            (kernel.C_T_TWATER, [int(x.water) for x in content.map.terrains])]


def _upgrade_effects(content: Content, eid: dict) -> list[int]:
    """Effect index of side a / b of each letter's upgrade tile (2 per letter, -1 without one)."""
    out = [-1] * (2 * len(LETTERS))
    for u in content.upgrades:
        for side in range(2):
            out[2 * u.letter + side] = eid[("upgrade", u.letter, side)]
    return out


class _Decisions:
    """Each game's pending decision as text, built only when ``check_legal`` names a refused one."""

    def __init__(self, m):
        self.m = m

    def __array__(self, dtype=None, copy=None):
        return np.array([f"round {r + 1}, {st.KIND_NAMES[k]} of seat {p}" for r, k, p in
                         zip(self.m[:, st.G_ROUND], self.m[:, st.G_KIND], self.m[:, st.G_DEC])])


def setup(t: Tables, game_ids, seed: int) -> st.State:
    """Every game's setup up to its first decision (``setup_batch``: ``setup.deal`` vectorised)."""
    game_ids = np.asarray(game_ids, dtype=np.int64)
    s = st.empty_state(t, len(game_ids))
    s.gid[:] = game_ids
    s.bag_key[:] = rng.stream_keys(seed, game_ids, "bag")
    for w in range(4):                                     # the kernel's copy (kernel/explore.py)
        s.hidden[:, st.H_BAGKEY + w] = (s.bag_key >> np.uint64(16 * w)) & np.uint64(0xFFFF)
    deal_batch(t, _board(t.content), s.m, s.hidden, seed, game_ids)
    return s


@per_object
def _board(content: Content):
    return build_board(content.map)


NO_KEYS = np.zeros((0, 0), dtype=np.uint64)            # step_batch: one step, not random play to the end


def _run(s: st.State, actions, decide: bool) -> st.State:
    kernel.step_batch(s.m, s.hidden, s.legal, s.t.C, s.t.tab, s.t.atoms, actions, decide, NO_KEYS, 0,
                      np.zeros(0, dtype=np.int64))
    return s


def init(t: Tables, game_ids, seed: int) -> st.State:
    return _run(setup(t, game_ids, seed), np.zeros(len(game_ids), dtype=np.int64), False)


def step(s: st.State, actions) -> st.State:
    """Apply one action per game (ignored for finished games), then advance. In place.

    An action outside its game's legal mask is refused before any game of the batch moves; so is a
    step of a game the kernel stopped (``K_STOP``: a rule it does not compile yet)."""
    actions = np.ascontiguousarray(actions, dtype=np.int64)
    kind = s.m[:, st.G_KIND]
    stopped = np.flatnonzero(kind == st.K_STOP)
    if len(stopped):
        i = int(stopped[0])
        raise NotImplementedError(f"recall engine: game {int(s.gid[i])} stopped at a rule not compiled yet "
                                  f"({st.STOP_REASONS[int(s.m[i, st.G_STOP])]}; docs/recall_engine.md, 'What is left')")
    check_legal(s.legal, actions, kind != st.K_DONE, s.gid, _Decisions(s.m), s.t.action_names)
    return _run(s, actions, True)
