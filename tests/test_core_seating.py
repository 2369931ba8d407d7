"""Seating: in a mixed-plan experiment every plan meets every arrangement of neighbours equally
often (``seating = "rotate"``, the default), reproducibly by game index; ``"fixed"`` keeps
the slot order round the table."""
from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import numpy as np
import pytest

from sim.core.errors import InputError
from sim.core.experiment import load_experiment
from sim.core.runner import play_games, seat_orders
from tests.toy_game import Config, Toy

GAME = Toy()


@dataclasses.dataclass(frozen=True)
class HoldParams:
    at: int = 10


class HoldAt:
    """Pig: roll until the turn's points reach ``at``, then hold (plans that differ by a number)."""

    group = None

    def __init__(self, at):
        self.params = HoldParams(at)

    def act(self, obs, legal, rng):
        return np.where(legal[:, 1] & (obs.pending >= self.params.at), 1, 0)


def neighbour_counts(outcome):
    """Counter of (plan, plan on its left, plan on its right) over every game and seat."""
    slot = outcome["per_seat"]["slot"]
    n = slot.shape[1]
    counts = {}
    for j in range(n):
        for key in zip(slot[:, j], slot[:, (j - 1) % n], slot[:, (j + 1) % n]):
            key = tuple(int(k) for k in key)
            counts[key] = counts.get(key, 0) + 1
    return counts


def test_each_plan_meets_each_neighbour_arrangement_equally_often():
    """Four plans, 6 x 40 games: with rotation each plan has each of the 3 x 2 ordered pairs of
    neighbours exactly 40 times; with the fixed slot order always the same pair."""
    plans = [HoldAt(at) for at in (8, 12, 16, 20)]
    content = GAME.load_content(Config(players=4), "test")
    outcome, ids = play_games(GAME, Config(players=4), content, plans, 3, np.arange(240))
    assert list(ids) == list(range(240))
    counts = neighbour_counts(outcome)
    for plan in range(4):
        others = [q for q in range(4) if q != plan]
        for left, right in itertools.permutations(others, 2):
            assert counts[(plan, left, right)] == 40
    fixed, _ = play_games(GAME, Config(players=4), content, plans, 3, np.arange(240), seating="fixed")
    assert set(neighbour_counts(fixed)) == {(p, (p - 1) % 4, (p + 1) % 4) for p in range(4)}


def test_rotated_games_do_not_depend_on_the_batch():
    """A game's result depends only on its index: the same rows played in one batch or in pieces."""
    plans = [HoldAt(at) for at in (8, 12, 16, 20)]
    config = Config(players=4)
    content = GAME.load_content(config, "test")
    whole, _ = play_games(GAME, config, content, plans, 5, np.arange(100))
    parts = [play_games(GAME, config, content, plans, 5, np.arange(a, b))[0] for a, b in ((0, 37), (37, 100))]
    for key, value in whole["per_seat"].items():
        np.testing.assert_array_equal(value, np.concatenate([p["per_seat"][key] for p in parts]), err_msg=key)


def test_equal_plans_and_small_tables_keep_one_arrangement():
    """Equal plans (the same games in any order) and two seats (one cyclic order) need no rotation."""
    assert seat_orders([HoldAt(8)] * 4).tolist() == [[0, 1, 2, 3]]
    assert seat_orders([HoldAt(8), HoldAt(12)]).tolist() == [[0, 1]]
    assert seat_orders([HoldAt(8), HoldAt(12), HoldAt(16)]).tolist() == [[0, 1, 2], [0, 2, 1]]
    assert len(seat_orders([HoldAt(a) for a in range(5)])) == 24


def _experiment(tmp_path: Path, seating_line: str) -> Path:
    path = tmp_path / "exp.toml"
    path.write_text(f"""[experiment]
name = "seating"
game = "tests.toy_game"
games = 10
{seating_line}
[config]
players = 3
[[seats]]
strategy = "random"
[[seats]]
strategy = "random"
[[seats]]
strategy = "random"
""")
    return path


def test_seating_option_is_checked_and_counts_in_the_config_hash(tmp_path):
    assert load_experiment(_experiment(tmp_path, "")).seating == "rotate"
    fixed = load_experiment(_experiment(tmp_path, 'seating = "fixed"'))
    assert fixed.seating == "fixed"
    assert fixed.config_hash("base") != load_experiment(_experiment(tmp_path, "")).config_hash("base")
    with pytest.raises(InputError, match=r"exp.toml: experiment.seating: expected one of 'rotate', 'fixed', "
                                         r"got 'sideways'"):
        load_experiment(_experiment(tmp_path, 'seating = "sideways"'))
