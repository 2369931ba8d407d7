"""Animal Kingdoms on the shared game contract (sim/core/game.py): the ``GAME`` object.

Rules: /work/shared/specs/animal_kingdoms.md; the decision model every part follows:
docs/animal_kingdoms_model.md. This module only wires the parts together.
"""
from __future__ import annotations

import numpy as np

from sim.games.animal_kingdoms import actions, ages, engine, scoring
from sim.games.animal_kingdoms.config import Config
from sim.games.animal_kingdoms.content import content_hash, load_content
from sim.games.animal_kingdoms.log import describe
from sim.games.animal_kingdoms.observe import observe, sample_state
from sim.games.animal_kingdoms.position import score_position
from sim.games.animal_kingdoms.state import DONE
from sim.games.animal_kingdoms.tables import build_tables
from sim.games.animal_kingdoms.values import position_value


class AnimalKingdoms:
    name = "animal_kingdoms"
    Config = Config

    def __init__(self):
        self._tables = {}

    # ---- content and action space ------------------------------------------------------
    def load_content(self, config, source: str = "<config>"):
        return load_content(config, source)

    def content_hash(self, content) -> str:
        return content_hash(content)

    def num_actions(self, content) -> int:
        return actions.num_actions(content)

    def action_names(self, content) -> list[str]:
        return actions.action_names(content)

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
        s = ages.init(self.tables(config, content), np.asarray(game_ids), seed)
        return engine.advance(s)

    def legal_actions(self, state) -> np.ndarray:
        return engine.legal_actions(state)

    def decider(self, state) -> np.ndarray:
        return engine.decider(state)

    def step(self, state, actions_):
        return engine.step(state, actions_)

    def done(self, state) -> np.ndarray:
        return state.phase == DONE

    def slot_of(self, state) -> np.ndarray:
        t = state.t
        if t.solo:
            row = np.zeros(t.P, dtype=np.int64)
            row[t.robot] = 1
            return np.tile(row, (state.batch, 1))
        return (state.start_slot[:, None] + np.arange(t.P)[None, :]) % t.config.players

    def outcome(self, state) -> dict:
        t = state.t
        sheet = scoring.final_sheet(state)
        B, P = state.batch, t.P
        automa = np.zeros((B, P), dtype=bool)
        if t.solo:
            automa[:, t.robot] = True
        per_seat = {k: v for k, v in sheet.items() if k != "tiebreak"}
        per_seat.update({"slot": self.slot_of(state), "is_automa": automa,
                         "faction": np.where(automa, "robot", "none")})
        for name in scoring.STAT_COLUMNS:
            per_seat[f"ak_{name}"] = getattr(state, f"st_{name}").astype(np.int16)
        per_game = {"turns": state.turns.copy(), "rounds": state.rounds.copy(),
                    "end_reason": np.where(state.cap_hit, "turn_cap", "three_ages"),
                    "ak_battles": state.battles.astype(np.int16)}
        return {"per_seat": per_seat, "per_game": per_game}

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
        return score_position(path)


GAME = AnimalKingdoms()
