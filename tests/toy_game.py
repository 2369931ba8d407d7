"""A tiny vectorised dice game (Pig) implementing the game contract, to test the core alone.

Each turn a player rolls a die until they hold or roll a 1 (losing the turn's points); the
first to ``target`` points ends the game after the round. Small, but it has every part of the
contract: config, content, keyed randomness, a decider, legal masks, outcome, observe.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.core import rng

ROLL, HOLD = 0, 1


@dataclass(frozen=True)
class Config:
    players: int = field(default=2, metadata={"range": (2, 6)})
    target: int = field(default=30, metadata={"range": (1, 1000)})
    bonus_points: int = 0
    faces_file: str = ""    # an optional content file (text: the die's faces), to test content paths

    def validate(self):
        return None


@dataclass
class State:
    seed: int
    game_ids: np.ndarray
    scores: np.ndarray     # [B, P]
    pending: np.ndarray    # [B] points of the current turn
    player: np.ndarray     # [B]
    rolls: np.ndarray      # [B] die counter
    turns: np.ndarray      # [B]
    start: np.ndarray      # [B] start slot
    ended: np.ndarray      # [B]
    target: int = 30
    bonus: int = 0


@dataclass
class Obs:
    player: np.ndarray
    scores: np.ndarray
    pending: np.ndarray


class Toy:
    name = "toy"
    Config = Config

    def load_content(self, config, source):
        return {"faces": int(Path(config.faces_file).read_text()) if config.faces_file else 6}

    def content_hash(self, content):
        return "toy"

    def num_actions(self, content):
        return 2

    def action_names(self, content):
        return ["roll", "hold"]

    def seats(self, config):
        return config.players

    def init(self, config, content, game_ids, seed):
        b, p = len(game_ids), config.players
        start = rng.integers(rng.stream_keys(seed, game_ids, "start"), 0, p)
        return State(seed, np.asarray(game_ids), np.zeros((b, p), np.int64), np.zeros(b, np.int64),
                     np.zeros(b, np.int64), np.zeros(b, np.int64), np.zeros(b, np.int64), start,
                     np.zeros(b, bool), config.target, config.bonus_points)

    def legal_actions(self, s):
        legal = np.ones((len(s.player), 2), bool)
        legal[:, HOLD] = s.pending > 0
        return legal

    def decider(self, s):
        return np.where(s.ended, -1, s.player)

    def done(self, s):
        return s.ended.copy()

    def slot_of(self, s):
        p = s.scores.shape[1]
        return (s.start[:, None] + np.arange(p)) % p

    def step(self, s, actions):
        s = dataclasses.replace(s, **{f.name: getattr(s, f.name).copy() for f in dataclasses.fields(s)
                                      if isinstance(getattr(s, f.name), np.ndarray)})
        live = ~s.ended
        b, p = s.scores.shape
        roll = live & (actions == ROLL)
        face = rng.integers(rng.stream_keys(s.seed, s.game_ids, "die"), s.rolls, 6) + 1
        s.rolls += roll
        bust = roll & (face == 1)
        s.pending = np.where(roll & ~bust, s.pending + face, s.pending)
        hold = live & (actions == HOLD)
        rows = np.arange(b)
        s.scores[rows[hold], s.player[hold]] += s.pending[hold]
        end_turn = bust | hold
        s.pending[end_turn] = 0
        s.turns += end_turn
        last_of_round = s.player == p - 1
        over = end_turn & last_of_round & (s.scores.max(axis=1) >= s.target)
        s.ended |= over
        s.player = np.where(end_turn & ~over, (s.player + 1) % p, s.player)
        return s

    def observe(self, s, players):
        return Obs(np.asarray(players), s.scores.copy(), s.pending.copy())

    def outcome(self, s):
        b, p = s.scores.shape
        score = s.scores + s.bonus
        best = score.max(axis=1, keepdims=True)
        rank = 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)
        winners = score == best
        return {"per_seat": {"score": score, "score_points": s.scores.copy(),
                             "score_bonus": np.full((b, p), s.bonus),
                             "rank": rank, "win_share": winners / winners.sum(axis=1, keepdims=True),
                             "faction": np.full((b, p), "none"), "is_automa": np.zeros((b, p), bool),
                             "slot": self.slot_of(s)},
                "per_game": {"turns": s.turns.copy(), "rounds": (s.turns + p - 1) // p,
                             "end_reason": np.full(b, "target")}}

    def describe(self, before, after, action):
        return [f"player {int(before.player[0])}: {self.action_names(None)[action]} -> "
                f"scores {after.scores[0].tolist()}, pending {int(after.pending[0])}"]


GAME = Toy()
