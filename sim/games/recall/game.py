"""Recall on the shared game contract (sim/core/game.py): the ``GAME`` object, part 1.

Rules: /work/shared/specs/recall.md and recall_addendum.md; content: docs/recall_content.md;
positions: docs/recall_positions.md. This part has the content, the board, the seeded setup and
final scoring. The compiled engine (docs/recall_engine.md) plays the setup and much of the turn
but stops a game at a rule it does not compile yet; ``init`` and the play methods join ``GAME``
once every game can end (until then an experiment of Recall is refused, sim/core/experiment.py).
``outcome`` scores finished engine games with scoring.py.
"""
from __future__ import annotations

import numpy as np

from sim.games.recall import engine
from sim.games.recall import state as st
from sim.games.recall.config import Config
from sim.games.recall.content import content_hash, load_content
from sim.games.recall.board import build_board
from sim.games.recall.content_types import BUILDINGS, GOAL_KINDS, LETTERS, PATHS
from sim.games.recall.scoring import Components, EndState, final_scoring, ranks, scoring_tables, solo_goals
from sim.games.recall.setup_view import describe_setup


def end_state(s) -> EndState:
    """The scoring input of ``scoring.py`` from the state (games over). Pig farms are 0: the
    compiled part has no Dorian yet."""
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
    for j in range(3):
        for b, p in zip(*np.nonzero(held[:, :, j] >= 0)):
            goals[b, p, held[b, p, j]] = 1
    zeros = np.zeros((B, n), dtype=np.int64)
    built = _buildings(s)
    return EndState(
        score=seat(st.P_SCORE)[:, :, 0], purple=seat(st.P_PURPLE)[:, :, 0], tracks=seat(st.P_TRK, 3),
        stones=seat(st.P_STONES, 3), sanctuaries=built["sanctuaries"], board_monuments=built["board_monuments"],
        monument_tiles=built["monument_tiles"], keys=keys,
        artifacts=seat(st.P_ARTS, 4), crystals=seat(st.P_CR, 3), followers=seat(st.P_FOL, st.F_MAX).sum(axis=2),
        discs=discs, path_card=np.array([c.path for c in ct.path_cards])[s.m[:, st.G_PATH:st.G_PATH + 6]],
        path_side=s.m[:, st.G_SIDE:st.G_SIDE + 6].astype(np.int64), goals=goals,
        upgrade_tiles=(seat(st.P_UPG, 6) >= 0).sum(axis=2), old_tribes=seat(st.P_UNLOCK, 3).sum(axis=2),
        camps=built["camps"], area_tiles=built["area_tiles"], pig_farms=zeros)


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
    board = build_board(ct.map)
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
    camps = np.zeros((B, n, len(ct.camps)), dtype=bool)
    for f in range(nf):
        for x in board.neighbours[f]:
            if x >= 0:
                seen = (camp[:, x] >= 0) & up[:, x]
                for b in np.flatnonzero(seen):
                    camps[b, :, camp[b, x]] |= has[b, :, f]
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
    for name in PATHS:
        per_seat[f"score_{name}"] = sheet[f"score_path_{name}"]
    for name in ("score_leftover", "score_pigs", "score_purple", "score_goal"):
        per_seat[name] = sheet[name]
    per_seat["rank"], per_seat["win_share"] = rank, share
    per_seat["slot"] = (s.m[:, st.G_START_SLOT].astype(np.int64)[:, None] + np.arange(n)[None, :]) % n
    tribes = np.array([x.id for x in ct.tribes])
    items = np.array([x.id for x in ct.items])
    per_seat["tribe"] = per_seat["faction"] = tribes[s.seat(st.P_TRIBE)[:, :n, 0]]
    per_seat["is_automa"] = np.zeros((B, n), dtype=bool)
    per_seat["item"] = items[s.seat(st.P_ITEM)[:, :n, 0]]
    per_seat["rc_recalls"] = s.seat(st.P_RECALLS)[:, :n, 0].astype(np.int64)
    per_seat["rc_explorations"] = s.seat(st.P_EXPL)[:, :n, 0].astype(np.int64)
    per_seat["rc_crystals_lost"] = s.seat(st.P_CR_LOST)[:, :n, 0].astype(np.int64)
    per_seat["rc_steps_lost"] = s.seat(st.P_STEPS_LOST)[:, :n, 0].astype(np.int64)
    plays = s.seat(st.P_PLAYS, 6)[:, :n].astype(np.int64)
    for i, letter in enumerate(LETTERS):
        per_seat[f"rc_plays_{letter}"] = plays[:, :, i]
    per_seat["rc_unlocked"] = e.old_tribes
    per_seat["rc_goal_met"] = sheet["score_goal"] > 0
    rounds = ct.time_board.spaces - 1
    per_game = {"rounds": np.full(B, rounds), "turns": np.full(B, rounds * n), "rc_guard_hits": s.m[:, st.G_GUARD].astype(np.int64),
                "end_reason": np.full(B, "hourglass"), "start_slot": s.m[:, st.G_START_SLOT].astype(np.int64)}
    return {"per_seat": per_seat, "per_game": per_game}


class Recall:
    name = "recall"
    Config = Config

    def load_content(self, config, source: str = "<config>"):
        return load_content(config, source)

    def content_hash(self, content) -> str:
        return content_hash(content)

    def outcome(self, state) -> dict:
        return outcome_of(state)

    def num_actions(self, content) -> int:
        return len(engine.action_names(content))

    def action_names(self, content) -> list[str]:
        return engine.action_names(content)

    def seats(self, config) -> int:
        return config.seats

    def describe_setup(self, config, content, seed: int, game_index: int) -> str:
        return describe_setup(config, content, seed, game_index)

    def score_position(self, path) -> list[dict]:
        from sim.games.recall.position import score_position
        return score_position(path)


GAME = Recall()
