"""The replay log's shape, the same for every game (``python -m sim replay``).

A game contributes only ``describe(before, after, action)``: the decision on its first line,
what it set off on the following lines. This module wraps that in one format:

    # replay: <experiment> / <variant>, game <index>, seed <seed>, config <hash>
    # game <name>, <n> seats
    # seat 0 (start player): slot 2, strategy rr_end_bonus, faction Apollo
    ...
    [1] seat 0 (rr_end_bonus): <the game's decision line>
          <what it set off>
    ...
    # result
    seat 0 (Apollo): 41 points (fleet 12, ...); rank 1, win share 1

Why the seats come first although the factions are known only once dealt: the game is played
to its end before anything is printed (one game: its log fits in memory), so the header can
name each seat's strategy and faction from the outcome. ``ReplayLog`` records; the functions
format, so another driver (an oracle, a notebook) prints the same lines.
"""
from __future__ import annotations

import numpy as np


def header_lines(experiment: str, variant: str, game_index: int, seed: int, config_hash: str,
                 game_name: str, seats: list[dict]) -> list[str]:
    """The header: what is replayed, then one line per seat in turn order (``seats``: dicts with
    seat, slot, strategy, faction)."""
    lines = [f"# replay: {experiment} / {variant}, game {game_index}, seed {seed}, config {config_hash}",
             f"# game {game_name}, {len(seats)} seats"]
    for s in seats:
        start = " (start player)" if s["seat"] == 0 else ""
        lines.append(f"# seat {s['seat']}{start}: slot {s['slot']}, strategy {s['strategy']}, faction {s['faction']}")
    return lines


def decision_lines(number: int, seat: int, strategy: str, described: list[str]) -> list[str]:
    """One decision: numbered, its seat and strategy, the game's line; what it set off indented."""
    if not described:
        return []
    lines = [f"[{number}] seat {seat} ({strategy}): {described[0].strip()}"]
    lines += [f"      {line.strip()}" for line in described[1:]]
    return lines


def seats_of_outcome(per_seat: dict, strategies: list[str]) -> list[dict]:
    """Seat, slot, strategy and faction of each seat of a one-game outcome (automas: ``automa``)."""
    out = []
    for p in range(per_seat["score"].shape[1]):
        slot = int(per_seat["slot"][0, p])
        automa = bool(per_seat["is_automa"][0, p])
        out.append({"seat": p, "slot": slot, "faction": str(per_seat["faction"][0, p]),
                    "strategy": "automa" if automa or slot >= len(strategies) else strategies[slot]})
    return out


def result_lines(outcome: dict) -> list[str]:
    """The score sheet of a one-game outcome: points by component, rank, win share; the end."""
    seats = outcome["per_seat"]
    lines = ["# result"]
    for p in range(seats["score"].shape[1]):
        parts = ", ".join(f"{k[6:]} {int(seats[k][0, p])}" for k in sorted(seats) if k.startswith("score_"))
        lines.append(f"seat {p} ({seats['faction'][0, p]}): {int(seats['score'][0, p])} points ({parts}); "
                     f"rank {int(seats['rank'][0, p])}, win share {float(seats['win_share'][0, p]):.3g}")
    lines.append(f"end reason: {outcome['per_game']['end_reason'][0]}, turns: {int(outcome['per_game']['turns'][0])}")
    return lines


class ReplayLog:
    """The runner's ``on_step`` hook for one game: keeps each decision's lines."""

    def __init__(self, game, strategies: list[str]):
        self.game, self.strategies = game, strategies
        self.lines: list[str] = []
        self.decisions = 0

    def __call__(self, before, after, actions):
        seat = int(np.asarray(self.game.decider(before))[0])
        if seat < 0:
            return
        slot = int(np.asarray(self.game.slot_of(before))[0, seat])
        strategy = self.strategies[slot] if slot < len(self.strategies) else "automa"
        self.decisions += 1
        self.lines += decision_lines(self.decisions, seat, strategy,
                                     self.game.describe(before, after, int(actions[0])))
