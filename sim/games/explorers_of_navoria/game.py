"""Explorers of Navoria on the shared game contract (sim/core/game.py): the ``GAME`` object.

Rules: /work/shared/specs/explorers_of_navoria.md; the decision model every part follows:
docs/explorers_of_navoria_model.md; the engine: docs/explorers_of_navoria_engine.md.
"""
from __future__ import annotations

import numpy as np

from sim.games.explorers_of_navoria import engine
from sim.games.explorers_of_navoria import state as st
from sim.games.explorers_of_navoria.config import Config
from sim.games.explorers_of_navoria.content import content_hash, load_content
from sim.games.explorers_of_navoria.content_types import COLOURS, PEOPLES, REGIONS
from sim.games.explorers_of_navoria.log import describe
from sim.games.explorers_of_navoria.observe import observe, position_value, sample_state
from sim.games.explorers_of_navoria.tables import action_names, action_offsets, build_tables


def outcome_of(s) -> dict:
    """The model doc's "What a game returns": per-seat score sheet and statistics, per-game columns."""
    t = s.t
    n = t.P
    B = s.batch
    score = s.score[:, :n].astype(np.int64)
    per_seat = {"score": score}
    comp = s.comp[:, :n].astype(np.int64)
    for i, name in enumerate(st.COMPONENTS):
        per_seat[name] = comp[:, :, i]
    for c, name in enumerate(COLOURS):
        per_seat[f"en_cards_{name}"] = s.ncol[:, :n, c].astype(np.int16)
    for r, name in enumerate(REGIONS):
        per_seat[f"en_posts_{name}"] = s.posts[:, :n, r].astype(np.int16)
        per_seat[f"en_fulfilled_{name}"] = s.fulfilled[:, :n, r].astype(np.int16)
    per_seat["en_goods_lost"] = s.lost[:, :n].astype(np.int16)
    per_seat["en_centre_takes"] = s.centre_takes[:, :n].astype(np.int16)
    per_seat["en_score_r1"] = s.score_r1[:, :n].astype(np.int16)
    per_seat["en_score_r2"] = s.score_r2[:, :n].astype(np.int16)
    for q, name in enumerate(PEOPLES):
        per_seat[f"en_favour_{name}"] = s.fav[:, :n, q].astype(np.int8)
    rank = 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)
    winners = rank == 1
    per_seat["rank"] = rank
    per_seat["win_share"] = winners / winners.sum(axis=1, keepdims=True)
    per_seat["slot"] = slot_of(s)
    per_seat["faction"] = np.full((B, n), "none")
    per_seat["is_automa"] = np.zeros((B, n), dtype=bool)
    ids = np.array(t.tile_ids)
    per_game = {"turns": s.turns.astype(np.int64), "rounds": np.full(B, 3, dtype=np.int64),
                "end_reason": np.full(B, "three_rounds")}
    for q, name in enumerate(PEOPLES):
        per_game[f"en_tile_{name}"] = ids[s.ftile[:, q].astype(np.int64)]
    return {"per_seat": per_seat, "per_game": per_game}


def slot_of(s) -> np.ndarray:
    n = s.t.P
    return (s.start_slot.astype(np.int64)[:, None] + np.arange(n)[None, :]) % n


class ExplorersOfNavoria:
    name = "explorers_of_navoria"
    Config = Config
    # Which favour tiles in play shift the outcome (spec section 9): the report's "features in
    # play" pages compare games with and without each tile, and its holders with the others.
    report_features = (("favour tile", "en_tile_", "en_favour_"),)

    def report_labels(self, content) -> dict:
        """What each favour tile scores, for the report's figures (EN-A9): {"favour tile": {id: text}}."""
        from sim.games.explorers_of_navoria.content import COLOURS
        tiles = list(content.favour_tiles) + ([content.blank_tile] if content.blank_tile else [])
        return {"favour tile": {t.id: ("blank" if not t.kinds else "+".join(COLOURS[k] for k in t.kinds)
                                       + f" {t.first}/{t.second} pts per card") for t in tiles}}

    def __init__(self):
        self._tables = {}

    # ---- content and action space ------------------------------------------------------
    def load_content(self, config, source: str = "<config>"):
        return load_content(config, source)

    def content_hash(self, content) -> str:
        return content_hash(content)

    def num_actions(self, content) -> int:
        return action_offsets(len(content.city))["A"]

    def action_names(self, content) -> list[str]:
        return action_names(content)

    def seats(self, config) -> int:
        return config.seats

    def tables(self, config, content):
        key = (repr(config), id(content))
        t = self._tables.get(key)
        if t is None or t.content is not content:
            t = build_tables(config, content)
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
        """int[B]: 0 recruit, 1 collect, 2 track, 3 goods, 4 alt, -1 over."""
        return state.m[:, st.G_KIND].astype(np.int64)

    def step(self, state, actions):
        return engine.step(state, actions)

    def done(self, state) -> np.ndarray:
        return state.m[:, st.G_KIND] == st.K_DONE

    def slot_of(self, state) -> np.ndarray:
        return slot_of(state)

    def outcome(self, state) -> dict:
        return outcome_of(state)

    # ---- information, strategies, logs, positions --------------------------------------
    def observe(self, state, players):
        return observe(state, players)

    def sample_state(self, obs, keys):
        return sample_state(obs, keys)

    def position_value(self, state, players, weights):
        return position_value(state, players, weights)

    def describe(self, before, after, action: int) -> list[str]:
        return describe(before, after, action)

    def score_position(self, path) -> list[dict]:
        from sim.games.explorers_of_navoria.position import score_position
        return score_position(path)


GAME = ExplorersOfNavoria()
