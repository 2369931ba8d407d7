"""A tiny hand-made game for the search player's tests: one choice decides the game.

"Duel": two seats (random start slot, so seat and slot differ in half the games). Seat
``chooser`` picks one of four actions: ``WIN_FIRST`` makes seat 0 win, ``WIN_SECOND`` seat 1,
``DRAW`` shares the win, ``COIN`` lets a hidden coin decide, which the observer cannot see and
``sample_state`` deals at random. Then the other seat makes ``tail`` dummy moves (two legal
actions, no effect), so rollouts have something to play. The best action for the chooser is
the one that makes its own seat win: a searcher that reads the result of the wrong seat or
slot, or flips a sign, picks another.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from sim.core import rng

WIN_FIRST, WIN_SECOND, DRAW, COIN = 0, 1, 2, 3


@dataclass(frozen=True)
class Config:
    players: int = 2
    tail: int = 3

    def validate(self):
        return None


@dataclass
class State:
    start: np.ndarray      # [B] slot of seat 0
    chooser: np.ndarray    # [B] seat that chooses
    coin: np.ndarray       # [B] hidden: the seat the coin favours
    choice: np.ndarray     # [B] -1 until chosen
    moves: np.ndarray      # [B] dummy moves made after the choice
    tail: int = 3


@dataclass
class Obs:
    player: np.ndarray
    state: State           # the state with the coin erased (-1)


class Duel:
    name = "duel"
    Config = Config

    def load_content(self, config, source):
        return None

    def content_hash(self, content):
        return "duel"

    def num_actions(self, content):
        return 4

    def action_names(self, content):
        return ["win_first", "win_second", "draw", "coin"]

    def seats(self, config):
        return 2

    def init(self, config, content, game_ids, seed):
        ids = np.asarray(game_ids)
        b = len(ids)
        start = rng.integers(rng.stream_keys(seed, ids, "start"), 0, 2)
        chooser = rng.integers(rng.stream_keys(seed, ids, "chooser"), 0, 2)
        coin = rng.integers(rng.stream_keys(seed, ids, "coin"), 0, 2)
        return State(start, chooser, coin, np.full(b, -1), np.zeros(b, np.int64), config.tail)

    def legal_actions(self, s):
        legal = np.zeros((len(s.start), 4), bool)
        choosing = s.choice < 0
        legal[choosing] = True
        legal[~choosing, :2] = True
        legal[self.done(s)] = False
        return legal

    def decider(self, s):
        return np.where(self.done(s), -1, np.where(s.choice < 0, s.chooser, 1 - s.chooser))

    def done(self, s):
        return (s.choice >= 0) & (s.moves >= s.tail)

    def slot_of(self, s):
        return (s.start[:, None] + np.arange(2)) % 2

    def step(self, s, actions):
        s = dataclasses.replace(s, **{f.name: getattr(s, f.name).copy() for f in dataclasses.fields(s)
                                      if isinstance(getattr(s, f.name), np.ndarray)})
        legal = self.legal_actions(s)
        live = ~self.done(s)
        assert legal[np.arange(len(actions)), actions][live].all(), "illegal action"
        choosing = live & (s.choice < 0)
        s.choice[choosing] = actions[choosing]
        s.moves += live & ~choosing
        return s

    def observe(self, s, players):
        hidden = dataclasses.replace(s, coin=np.full(len(s.coin), -1))
        return Obs(np.asarray(players), hidden)

    def sample_state(self, obs, keys):
        s = obs.state
        coin = rng.integers(np.asarray(keys, dtype=np.uint64), 0, 2)
        return dataclasses.replace(s, coin=np.where(s.coin >= 0, s.coin, coin))

    def outcome(self, s):
        b = len(s.start)
        winner = np.select([s.choice == WIN_FIRST, s.choice == WIN_SECOND, s.choice == COIN],
                           [0, 1, s.coin], -1)
        share = np.where(winner[:, None] < 0, 0.5, (np.arange(2)[None, :] == winner[:, None]).astype(float))
        score = (share * 10).astype(np.int64)
        return {"per_seat": {"score": score, "rank": 1 + (share < share.max(axis=1, keepdims=True)),
                             "win_share": share, "faction": np.full((b, 2), "none"),
                             "is_automa": np.zeros((b, 2), bool), "slot": self.slot_of(s)},
                "per_game": {"turns": s.moves + 1, "rounds": np.ones(b, np.int64), "end_reason": np.full(b, "end")}}

    def describe(self, before, after, action):
        return [f"action {action}"]


GAME = Duel()
