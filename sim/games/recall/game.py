"""Recall on the shared game contract (sim/core/game.py): the ``GAME`` object.

Rules: /work/shared/specs/recall.md and recall_addendum.md; content: docs/recall_content.md;
positions: docs/recall_positions.md; the engine: docs/recall_engine.md. ``outcome`` scores
finished games with scoring.py (the results columns: docs/results_schema.md, "Recall"). While
the engine stops a game at a rule it does not compile yet (``K_STOP``), ``done`` and
``outcome`` turn that stop into an error naming the game and the rule (``check_stops``): a run
fails instead of writing a wrong row.
"""
from __future__ import annotations

import numpy as np

from sim.core.errors import RunError
from sim.core.memo import per_object
from sim.games.recall import engine
from sim.games.recall import state as st
from sim.games.recall.config import Config
from sim.games.recall.content import content_hash, load_content
from sim.games.recall.board import build_board
from sim.games.recall.content_types import BUILDINGS, GOAL_KINDS, LETTERS, PATHS, SIDES, TRACKS
from sim.games.recall.scoring import (
    Components, EndState, final_scoring, path_points, ranks, scoring_tables, solo_goals,
)
from sim.games.recall.log import describe
from sim.games.recall.observe import observe, sample_state
from sim.games.recall.setup_view import describe_setup
from sim.games.recall.value import compiled_position_value


def end_state(s) -> EndState:
    """The scoring input of ``scoring.py`` from the state (games over)."""
    t, n, B = s.t, s.t.config.players, s.batch
    ct = t.content
    seat = lambda c, k=1: s.seat(c, k)[:, :n].astype(np.int64)  # noqa: E731
    kinds = len(ct.key_cards)
    keys = seat(st.P_AVAIL, kinds).copy()
    slots = seat(st.P_SLOT, 6)
    for k in range(kinds):
        keys[:, :, k] += (slots == k).sum(axis=2)
    discs = np.zeros((B, n, 6), dtype=np.int64)
    paths = seat(st.P_PATHS, 3)
    for sector in range(3):
        for pos in range(6):
            discs[:, :, pos] |= paths[:, :, sector] == pos
    goals = np.zeros((B, n, len(ct.goal_cards)), dtype=np.int64)
    held = s.hidden[:, st.H_GOALS:st.H_GOALS + 3 * st.MAXP].reshape(B, st.MAXP, 3)[:, :n]
    b, p, j = np.nonzero(held >= 0)
    goals[b, p, held[b, p, j]] = 1
    built = _buildings(s)
    return EndState(
        score=seat(st.P_SCORE)[:, :, 0], purple=seat(st.P_PURPLE)[:, :, 0], tracks=seat(st.P_TRK, 3),
        stones=seat(st.P_STONES, 3), sanctuaries=built["sanctuaries"], board_monuments=built["board_monuments"],
        monument_tiles=built["monument_tiles"], keys=keys,
        artifacts=seat(st.P_ARTS, 4), crystals=seat(st.P_CR, 3), followers=seat(st.P_FOL, st.F_MAX).sum(axis=2),
        discs=discs, path_card=np.array([c.path for c in ct.path_cards])[s.m[:, st.G_PATH:st.G_PATH + 6]],
        path_side=s.m[:, st.G_SIDE:st.G_SIDE + 6].astype(np.int64), goals=goals,
        upgrade_tiles=(seat(st.P_UPG, 6) >= 0).sum(axis=2), old_tribes=seat(st.P_UNLOCK, 3).sum(axis=2),
        camps=built["camps"], area_tiles=built["area_tiles"], pig_farms=pig_farms(s))


def pig_farms(s) -> np.ndarray:
    """int[B, n]: per seat holding the Dorian ability the pig farms where it is present (RC-R214,
    RC-R215, RC-E44; RC-A57 ``dorian_presence``: a follower or building on the farm's field, or on
    its area tile), 0 for the others."""
    t, n, B = s.t, s.t.config.players, s.batch
    nf = len(t.field_names)
    d = t.ability_names.index("Dorian") if "Dorian" in t.ability_names else -1
    if d < 0:
        return np.zeros((B, n), dtype=np.int64)
    farms = s.m[:, st.F_FARM:st.F_FARM + nf] == 1                                   # [B, nf]
    here = (s.seat(st.P_FOL, nf)[:, :n] > 0) | (s.seat(st.P_BLD, nf)[:, :n] > 0)  # [B, n, nf]
    if t.config.dorian_presence == "tile":
        slot = np.asarray(board_of(t.content.map).slot)[:nf]
        tiles = np.flatnonzero(slot >= 0)
        on_tile = np.zeros((B, n, int(slot.max(initial=-1)) + 1), dtype=bool)
        for f in tiles:
            on_tile[:, :, slot[f]] |= here[:, :, f]
        here = here.copy()
        here[:, :, tiles] = on_tile[:, :, slot[tiles]]
    holder = s.seat(st.P_OWN + d)[:, :n, 0] == 1
    return ((here & farms[:, None, :]).sum(axis=2) * holder).astype(np.int64)


@per_object
def board_of(game_map):
    """The board of a map, built once per loaded map (read only)."""
    return build_board(game_map)


@per_object
def board_pairs(game_map) -> tuple:
    """(fields, neighbours): int64 arrays of every (field, existing neighbour) pair of the map."""
    board = board_of(game_map)
    pairs = [(f, x) for f in range(len(board.neighbours)) for x in board.neighbours[f] if x >= 0]
    return tuple(np.array(col, dtype=np.int64) for col in zip(*pairs))


def _built(s, b: int, p: int) -> tuple:
    """Seat p's buildings in game b as ``scoring.Components.buildings``: (kind, slot or -1, the
    face-up camps next to it) per building, for the solo goal split (RC-V15, RC-A54)."""
    board = build_board(s.t.content.map)
    g = s.m[b]
    out = []
    for f in range(len(s.t.field_names)):
        kind = int(g[st.SEAT0 + p * st.SW + st.P_BLD + f]) - 1
        if kind >= 0:
            camps = frozenset(int(g[st.F_CAMP + x]) for x in board.neighbours[f] if x >= 0 and g[st.F_CAMP + x] >= 0
                              and (board.slot[x] < 0 or g[st.G_UP + board.slot[x]] == 1))
            out.append((kind, int(board.slot[f]), camps))
    return tuple(out)


def _buildings(s) -> dict:
    """What final scoring reads of the buildings (RC-E13, RC-E22, RC-E23, RC-E37, RC-E38, RC-E41,
    RC-E42): per seat the sanctuaries built, a monument on each board monument field, on the
    field of each monument tile, the different face-up camps next to an own building and the
    area tiles with an own building (the same counts as ``position.py``)."""
    t, n, B = s.t, s.t.config.players, s.batch
    ct = t.content
    nf = len(t.field_names)
    bld = s.seat(st.P_BLD, nf)[:, :n].astype(np.int64)               # BUILDINGS index + 1, 0 none
    out = {"sanctuaries": (bld == 1 + BUILDINGS.index("sanctuary")).sum(axis=2)}
    mon = bld == 1 + BUILDINGS.index("monument")
    board = board_of(ct.map)
    out["board_monuments"] = np.zeros((B, n, 3), dtype=np.int64)
    for f, bm in zip(board.board_monuments, ct.map.board_monuments):
        out["board_monuments"][:, :, bm.track] = mon[:, :, f]
    tile = s.m[:, st.F_MONTILE:st.F_MONTILE + nf].astype(np.int64) - 1              # [B, F]
    out["monument_tiles"] = np.zeros((B, n, len(ct.monument_tiles)), dtype=np.int64)
    for k in range(len(ct.monument_tiles)):
        out["monument_tiles"][:, :, k] = (mon & (tile == k)[:, None, :]).any(axis=2)
    camp = s.m[:, st.F_CAMP:st.F_CAMP + nf].astype(np.int64)
    slot = np.asarray(board.slot[:nf], dtype=np.int64)
    up = np.ones((B, nf), dtype=bool)
    up[:, slot >= 0] = s.m[:, st.G_UP + slot[slot >= 0]] == 1
    has = bld > 0
    f_of, x_of = board_pairs(ct.map)                          # every (field, neighbour) pair
    seen = (camp[:, x_of] >= 0) & up[:, x_of]                  # [B, pairs]: a face-up camp there
    near = has[:, :, f_of] & seen[:, None, :]                  # [B, n, pairs]
    which = camp[:, x_of][:, None, :]
    camps = np.stack([(near & (which == c)).any(axis=2) for c in range(len(ct.camps))], axis=2)
    out["camps"] = camps.sum(axis=2)
    tiles = np.zeros((B, n, board.n_slots), dtype=bool)
    for f in np.flatnonzero(slot >= 0):
        tiles[:, :, slot[f]] |= has[:, :, f]
    out["area_tiles"] = tiles.sum(axis=2)
    return out


def outcome_of(s) -> dict:
    """The model doc's "What a game returns", scored by ``scoring.final_scoring`` (RC-A53)."""
    t, n, B = s.t, s.t.config.players, s.batch
    cfg, ct = t.config, t.content
    e = end_state(s)
    solo = None
    if n == 1:
        held = s.hidden[:, st.H_GOALS:st.H_GOALS + 3]
        solo = np.zeros((B, 1), dtype=bool)
        for b in range(B):
            cards = [(GOAL_KINDS[ct.goal_cards[g].kind], ct.goal_cards[g].n) for g in held[b] if g >= 0]
            comp = Components(tuple(int(x) for x in e.artifacts[b, 0]), tuple(int(x) for x in e.stones[b, 0]),
                              int(e.upgrade_tiles[b, 0]), int(e.keys[b, 0].sum()), int(e.old_tribes[b, 0]),
                              _built(s, b, 0))
            solo[b, 0] = solo_goals(comp, cards, cfg.solo_goals, cfg.goal_stones)
    sheet = final_scoring(scoring_tables(ct), e, cfg.goal_stones, solo)
    rank, share = ranks(sheet["score"], e.tracks)
    if solo is not None:
        share = solo.astype(float)                                   # RC-V13, RC-V14
    per_seat = {"score": sheet["score"], "score_track": sheet["score_track"]}
    base, _ = path_points(scoring_tables(ct), e)
    for i, name in enumerate(PATHS):                                 # RC-E4, RC-E5: base + specialisation
        per_seat[f"score_{name}_base"] = base[:, :, i]
        per_seat[f"score_{name}_spec"] = sheet[f"score_path_{name}"] - base[:, :, i]
    for name in ("score_leftover", "score_pigs", "score_purple", "score_goal"):
        per_seat[name] = sheet[name]
    per_seat["rank"], per_seat["win_share"] = rank, share
    per_seat["slot"] = slot_of(s)
    tribes = np.array([x.id for x in ct.tribes])
    items = np.array([x.id for x in ct.items])
    per_seat["tribe"] = per_seat["faction"] = tribes[s.seat(st.P_TRIBE)[:, :n, 0]]
    per_seat["is_automa"] = np.zeros((B, n), dtype=bool)
    per_seat["item"] = items[s.seat(st.P_ITEM)[:, :n, 0]]
    per_seat.update(_path_columns(s))
    goals = s.hidden[:, st.H_GOALS:st.H_GOALS + 3 * st.MAXP].reshape(B, st.MAXP, 3)[:, :n]
    ids = np.array([g.id for g in ct.goal_cards] + ["none"])
    kept = np.sort(np.where(goals >= 0, goals, len(ct.goal_cards)), axis=2)
    per_seat["rc_goal"] = np.array(["+".join(x for x in ids[row] if x != "none") or "none"
                                    for row in kept.reshape(-1, 3)]).reshape(B, n)
    per_seat["rc_goal_met"] = sheet["score_goal"] > 0
    per_seat["rc_recalls"] = s.seat(st.P_RECALLS)[:, :n, 0].astype(np.int64)
    per_seat["rc_explorations"] = s.seat(st.P_EXPL)[:, :n, 0].astype(np.int64)
    per_seat["rc_crystals_lost"] = s.seat(st.P_CR_LOST)[:, :n, 0].astype(np.int64)
    per_seat["rc_steps_lost"] = s.seat(st.P_STEPS_LOST)[:, :n, 0].astype(np.int64)
    plays = s.seat(st.P_PLAYS, 6)[:, :n].astype(np.int64)
    for i, letter in enumerate(LETTERS):
        per_seat[f"rc_plays_{letter}"] = plays[:, :, i]
    per_seat["rc_unlocked"] = e.old_tribes
    unlocked = s.seat(st.P_UNLOCK, 3)[:, :n].astype(np.int64)
    for k, track in enumerate(TRACKS):
        per_seat[f"rc_unlocked_{track}"] = unlocked[:, :, k]
    rounds = ct.time_board.spaces - 1
    per_game = {"rounds": np.full(B, rounds), "turns": np.full(B, rounds * n), "rc_guard_hits": s.m[:, st.G_GUARD].astype(np.int64),
                "end_reason": np.full(B, "hourglass"), "start_slot": s.m[:, st.G_START_SLOT].astype(np.int64)}
    per_game.update(_feature_columns(s))
    per_seat.update(_held_columns(s))
    per_seat.update(activation_columns(s))
    return {"per_seat": per_seat, "per_game": per_game}


def activation_columns(s) -> dict:
    """Per seat, how often each ability was activated in the game (``P_ACTS``: a paid ``use:`` in
    any window, an event window also when decided automatically, Exoskelet at ``payment``, a free
    activation, RC-R61..R67, RC-R200) and what the seat holds at the end, so that a reader sees
    which tribes' and items' abilities are used (docs/results_schema.md, "Recall"):
    ``rc_uses_<id>`` per tribe and item id (Multitool: its four parts together),
    ``rc_uses_tribe`` / ``rc_uses_item`` (the own tribe's / own item's), ``rc_uses_gained`` (the
    rest: old tribes unlocked, RC-R169, and items gained at third fields, RC-R164),
    ``rc_rings`` (rings placed, Noorderling's free action RC-R233) and ``rc_abilities`` (the
    tribe and item ids whose ability the seat holds at the end, ``;``-joined in content order)."""
    from sim.games.recall.engine import abilities
    ct, n, B = s.t.content, s.t.config.players, s.batch
    _, _, item_ab = abilities(ct)
    acts = s.seat(st.P_ACTS, st.U_MAX)[:, :n].astype(np.int64)          # [B, n, ability]
    owned = s.seat(st.P_OWN, st.U_MAX)[:, :n] == 1
    nt = len(ct.tribes)
    ids = [x.id for x in ct.tribes] + [x.id for x in ct.items]
    per_id = [acts[:, :, k] for k in range(nt)] + [acts[:, :, a:a + m].sum(axis=2) for a, m in item_ab]
    held = [owned[:, :, k] for k in range(nt)] + [owned[:, :, a:a + m].any(axis=2) for a, m in item_ab]
    out = {f"rc_uses_{i}": u for i, u in zip(ids, per_id)}
    uses = np.stack(per_id, axis=2)                                      # [B, n, tribe or item]
    rows = np.arange(B)[:, None]
    out["rc_uses_tribe"] = uses[rows, np.arange(n)[None, :], s.seat(st.P_TRIBE)[:, :n, 0]]
    out["rc_uses_item"] = uses[rows, np.arange(n)[None, :], nt + s.seat(st.P_ITEM)[:, :n, 0]]
    out["rc_uses_gained"] = uses.sum(axis=2) - out["rc_uses_tribe"] - out["rc_uses_item"]
    out["rc_rings"] = s.seat(st.P_RINGS)[:, :n, 0].astype(np.int64)
    has = np.stack(held, axis=2)
    names = np.array(ids, dtype=object)
    out["rc_abilities"] = np.array([";".join(names[row]) for row in has.reshape(B * n, -1)],
                                   dtype=object).reshape(B, n).astype(str)
    return out


def slot_of(s) -> np.ndarray:
    """int[B, n]: experiment slot of each seat (seat 0 is the start player's slot, RC-S28)."""
    n = s.t.config.players
    return (s.m[:, st.G_START_SLOT].astype(np.int64)[:, None] + np.arange(n)[None, :]) % n


def _path_columns(s) -> dict:
    """Per seat, the path card chosen in each sector (RC-R184..R186) and its side: ``rc_path_<k>``
    (card id, ``none`` before / without a choice) and ``rc_path_side_<k>`` (``a`` / ``b`` / ``none``)."""
    ct, n, B = s.t.content, s.t.config.players, s.batch
    cards = np.array([c.id for c in ct.path_cards] + ["none"])
    sides = np.array(list(SIDES) + ["none"])
    pos = s.seat(st.P_PATHS, 3)[:, :n].astype(np.int64)              # [B, n, 3] position 0..5 or -1
    rows = np.arange(B)[:, None]
    out = {}
    for k in range(3):
        at = np.maximum(pos[:, :, k], 0)
        chosen = pos[:, :, k] >= 0
        card = s.m[:, st.G_PATH:st.G_PATH + 6].astype(np.int64)[rows, at]
        side = s.m[:, st.G_SIDE:st.G_SIDE + 6].astype(np.int64)[rows, at]
        out[f"rc_path_{k + 1}"] = cards[np.where(chosen, card, len(ct.path_cards))]
        out[f"rc_path_side_{k + 1}"] = sides[np.where(chosen, side, len(SIDES))]
    return out


def _tribes_in_play(s, col: int, disp: int, names) -> np.ndarray:
    """[B, n + 1] ids on the table: each seat's (seat order), then the display pair left (``none``
    when every pair is taken: RC-V1 leaves pair n)."""
    n = s.t.config.players
    own = s.seat(col)[:, :n, 0].astype(np.int64)
    left = s.m[:, disp:disp + n + 1].astype(np.int64).max(axis=1)   # the one display entry not taken (-1 none)
    ids = np.array(list(names) + ["none"])
    return ids[np.concatenate([own, np.where(left >= 0, left, len(names))[:, None]], axis=1)]


def _feature_columns(s) -> dict:
    """Per game, the values in play (``GAME.report_features``): tribes and items on the table
    (``rc_tribe_<k>``, ``rc_item_<k>``: seat k's, k = n the pair left), old tribes (``rc_old_<track>``),
    path cards with their sides (``rc_side_<position>`` = ``<card>_<a|b>``, positions 1..6 top
    to bottom) and the upgrade letter at each upgrade symbol (``rc_upgrade_<symbol>``)."""
    ct, n = s.t.content, s.t.config.players
    out = {}
    tribes = _tribes_in_play(s, st.P_TRIBE, st.G_TRIBE_DISP, [x.id for x in ct.tribes])
    items = _tribes_in_play(s, st.P_ITEM, st.G_ITEM_DISP, [x.id for x in ct.items])
    for k in range(n + 1):
        out[f"rc_tribe_{k}"] = tribes[:, k]
        out[f"rc_item_{k}"] = items[:, k]
    old = np.array([x.id for x in ct.tribes] + ["none"])
    for t, track in enumerate(TRACKS):
        o = s.m[:, st.G_OLD_TRIBE + t].astype(np.int64)
        out[f"rc_old_{track}"] = old[np.where(o >= 0, o, len(ct.tribes))]
    cards = np.array([c.id for c in ct.path_cards])
    for pos in range(6):
        out[f"rc_side_{pos + 1}"] = np.char.add(np.char.add(cards[s.m[:, st.G_PATH + pos]], "_"),
                                                np.array(SIDES)[s.m[:, st.G_SIDE + pos]])
    for i in range(len(ct.upgrade_symbols)):
        out[f"rc_upgrade_{i + 1}"] = np.array(LETTERS)[s.m[:, st.G_UPG_LETTER + i]]
    return out


def _held_columns(s) -> dict:
    """Per seat, which value in play it holds (same suffixes as ``_feature_columns``): its own
    tribe and item slot, the old tribes it unlocked (RC-R169), the path positions with its disc."""
    n, B = s.t.config.players, s.batch
    out = {}
    me = np.arange(n)[None, :] == np.arange(n + 1)[:, None, None]     # [n + 1, 1, n]
    for k in range(n + 1):
        out[f"rc_has_tribe_{k}"] = np.broadcast_to(me[k], (B, n)).astype(np.int64)
        out[f"rc_has_item_{k}"] = out[f"rc_has_tribe_{k}"]
    unlocked = s.seat(st.P_UNLOCK, 3)[:, :n].astype(np.int64)
    for t, track in enumerate(TRACKS):
        out[f"rc_has_old_{track}"] = unlocked[:, :, t]
    pos = s.seat(st.P_PATHS, 3)[:, :n].astype(np.int64)
    for p in range(6):
        out[f"rc_has_side_{p + 1}"] = (pos == p).any(axis=2).astype(np.int64)
    return out


def play_uniform(s, keys, n_strategies: int):
    """Every game to its end (or to an engine stop), each decision a uniform random legal action
    drawn exactly as the runner's loop with the ``random`` strategy draws it (``keys[slot, game]``
    at the game's decision counter, the rank ``floor(u x legal count)`` of ``strategies.base.choose_uniform``),
    without observations: one compiled call (``kernel/flow.py``'s ``step_batch`` with keys)."""
    keys = np.ascontiguousarray(keys, dtype=np.uint64)
    t = s.t
    engine.kernel.step_batch(s.m, s.hidden, s.legal, t.C, t.tab, t.atoms, np.zeros(s.batch, dtype=np.int64), False,
                             keys, n_strategies, np.zeros(s.batch, dtype=np.int64))
    return s


def check_stops(s) -> None:
    """Turn a game the engine stopped (``K_STOP``: a rule not compiled yet) into an error naming
    the game and the rule, so that no silent wrong row can come out of it."""
    stopped = np.flatnonzero(s.m[:, st.G_KIND] == st.K_STOP)
    if len(stopped):
        i = int(stopped[0])
        raise RunError("recall engine", f"game {int(s.gid[i])}",
                       f"stopped at a rule it does not compile yet ({st.STOP_REASONS[int(s.m[i, st.G_STOP])]}, "
                       f"round {int(s.m[i, st.G_ROUND]) + 1}, seat {int(s.m[i, st.G_ACTIVE])}; docs/recall_engine.md, "
                       f"'Not compiled yet')" + (f"; {len(stopped) - 1} more games of the batch too" if len(stopped) > 1 else ""))


class Recall:
    name = "recall"
    Config = Config
    # Which values in play shift the outcome (docs/analyses.md, "Features in play").
    # (name, in-play prefix, held prefix, values left out): analyses.features.Feature's fields.
    report_features = (("tribe", "rc_tribe_", "rc_has_tribe_", ("none",)),
                       ("item", "rc_item_", "rc_has_item_", ("none",)),
                       ("old tribe", "rc_old_", "rc_has_old_", ("none",)),
                       ("path side", "rc_side_", "rc_has_side_"),
                       ("upgrade letter", "rc_upgrade_"))
    # Tribes and items whose ability a seat holds at the end (own, unlocked, gained at third
    # fields), with their activation counts (docs/analyses.md, "Content held at the end").
    report_held = (("ability", "rc_abilities", ";", "rc_uses_"),)

    def __init__(self):
        self._tables = {}

    # ---- content and action space ------------------------------------------------------
    def load_content(self, config, source: str = "<config>"):
        return load_content(config, source)

    def content_hash(self, content) -> str:
        return content_hash(content)

    def num_actions(self, content) -> int:
        return len(engine.action_names(content))

    def action_names(self, content) -> list[str]:
        return engine.action_names(content)

    def seats(self, config) -> int:
        return config.seats

    def tables(self, config, content):
        key = (repr(config), id(content))
        t = self._tables.get(key)
        if t is None or t.content is not content:
            t = engine.build_tables(config, content)
            self._tables[key] = t
        return t

    # ---- play ----------------------------------------------------------------------------
    def init(self, config, content, game_ids, seed: int):
        return engine.init(self.tables(config, content), np.asarray(game_ids), seed)

    def legal_actions(self, state) -> np.ndarray:
        return state.legal

    def decider(self, state) -> np.ndarray:
        return state.m[:, st.G_DEC].astype(np.int64)

    def kind(self, state) -> np.ndarray:
        """int[B]: the decision's ``state.KIND_NAMES`` index, -1 over."""
        return state.m[:, st.G_KIND].astype(np.int64)

    def step(self, state, actions):
        return engine.step(state, actions)

    def play_uniform(self, state, keys, n_strategies: int):
        """Random play in compiled steps (``RandomStrategy.play_to_end``); same games as the loop."""
        return play_uniform(state, keys, n_strategies)

    def done(self, state) -> np.ndarray:
        """bool[B] games over; a game the engine stopped is an error (``check_stops``)."""
        check_stops(state)
        return state.m[:, st.G_KIND] == st.K_DONE

    def slot_of(self, state) -> np.ndarray:
        return slot_of(state)

    def outcome(self, state) -> dict:
        check_stops(state)
        return outcome_of(state)

    # ---- information, strategies, logs, positions --------------------------------------
    def observe(self, state, players):
        return observe(state, players)

    def sample_state(self, obs, keys):
        return sample_state(obs, keys)

    def position_value(self, state, players, weights):
        return compiled_position_value(state, players, weights)

    def describe(self, before, after, action: int) -> list[str]:
        return describe(before, after, action)

    def describe_setup(self, config, content, seed: int, game_index: int) -> str:
        return describe_setup(config, content, seed, game_index)

    def score_position(self, path) -> list[dict]:
        from sim.games.recall.position import score_position
        return score_position(path)


GAME = Recall()
