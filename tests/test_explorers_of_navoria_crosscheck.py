"""The engine against the oracle: same decider, kind and legal actions at every decision, same results.

2,400 random games over 2, 3 and 4 players, every rule switch of config.py, and a scarce
designer's content (4 cards per colour, one city space per colour) that makes the rare cases
happen: empty offers, unusable draws, passed turns, full city areas, long goods runs, a step
past the treasure (EN-A17..A20, EN-A13, EN-R106). docs/explorers_of_navoria_model.md is the
contract of both; the engine plays each configuration as one batch, one oracle per game
follows the same actions.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.explorers_of_navoria.config import Config
from sim.games.explorers_of_navoria.content import load_content
from sim.games.explorers_of_navoria.game import GAME
from tests.oracle_explorers_of_navoria import EnOracle
from tests.test_explorers_of_navoria_oracle import SCARCE_CARDS, SCARCE_CITY

GAMES = 150
CONFIGS = [
    dict(players=2), dict(players=3), dict(players=4),
    dict(players=2), dict(players=3), dict(players=4),
    dict(players=2, blank_tile_variant=True),
    dict(players=2, dock_placement="free", question_mark_split=True),
    dict(players=3, goods_per_kind=4, start_player="first_slot"),
    dict(players=3, favour_symbols=3, cards_per_round=5),
    dict(players=4, dock_placement="free", favour_symbols=4, goods_per_kind=2),
    dict(players=4, question_mark_split=True, cards_per_round=2),
    dict(players=2, scarce=True), dict(players=3, scarce=True), dict(players=4, scarce=True),
    dict(players=4, scarce=True, dock_placement="free", question_mark_split=True, goods_per_kind=3),
]
KINDS = {"recruit": 0, "collect": 1, "track": 2, "goods": 3, "alt": 4, None: -1}
PER_GAME = ("turns", "rounds", "end_reason", "en_tile_humans", "en_tile_goblins", "en_tile_beasts", "en_tile_sprites")


def _setup(number, tmp_path):
    spec = dict(CONFIGS[number])
    if spec.pop("scarce", False):
        (tmp_path / "cards.csv").write_text(SCARCE_CARDS)
        (tmp_path / "city.csv").write_text(SCARCE_CITY)
        spec.update(cards_file=str(tmp_path / "cards.csv"), city_file=str(tmp_path / "city.csv"))
    config = Config(**spec)
    return config, load_content(config)


@pytest.mark.parametrize("number", range(len(CONFIGS)))
def test_engine_matches_oracle(number, tmp_path):
    """Decider, kind and legal mask at every decision, then every outcome column (EN rules via the model doc)."""
    config, content = _setup(number, tmp_path)
    seed = 5000 + number
    ids = np.arange(GAMES) + 11 * number
    state = GAME.init(config, content, ids, seed)
    oracles = [EnOracle(config, content, seed, int(g)) for g in ids]
    rng = np.random.default_rng(seed)
    for _ in range(100_000):
        decider, kind, legal = GAME.decider(state), GAME.kind(state), GAME.legal_actions(state)
        actions = np.zeros(len(ids), dtype=np.int64)
        for i, o in enumerate(oracles):
            assert decider[i] == o.decider, f"game {ids[i]}: decider"
            assert kind[i] == KINDS[o.kind], f"game {ids[i]}: kind"
            assert np.array_equal(legal[i], o.legal()), f"game {ids[i]}: legal actions"
            if decider[i] >= 0:
                actions[i] = rng.choice(np.flatnonzero(legal[i]))
                o.step(int(actions[i]))
        if (decider < 0).all():
            break
        state = GAME.step(state, actions)
    out = GAME.outcome(state)
    per_seat = out["per_seat"]
    for i, o in enumerate(oracles):
        sheet = o.sheet()
        for key, values in per_seat.items():
            assert list(values[i]) == list(sheet[key]), f"game {ids[i]}: {key}"
        for key in PER_GAME:
            assert out["per_game"][key][i] == sheet[key], f"game {ids[i]}: {key}"
