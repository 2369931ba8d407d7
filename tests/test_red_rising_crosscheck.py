"""The vectorised engine against the one-game oracle over thousands of random games.

For every decision of every game: the same decider, the same decision kind and the same legal
actions; at the end: the same scores, components, ranks and win shares. Covers 1-6 players
(solo against Au Toma included) and the rule switches of the config (RR-A11, RR-A13, RR-A14,
RR-A15, RR-A21, RR-A22, RR-V43, RR-V45, RR-V10).
"""
import dataclasses

import numpy as np
import pytest

from sim.core import rng
from sim.games.red_rising.config import Config
from sim.games.red_rising.content import load_content
from sim.games.red_rising.game import GAME
from strategies.base import StrategyRng, choose_uniform
from tests.oracle_red_rising import OracleGame

SWITCHES = {
    "influence_tie_mode": ["dense", "competition"],
    "threshold_mode": ["current", "ever_reached"],
    "ceres_banish": ["any", "top"],
    "ceres_end_banish": ["after_end_abilities", "with_own_end_abilities"],
    "trade_limit": ["per_ability", "per_turn_total"],
    "chain_deploy_recursive": [True, False],
}
RESULT_KEYS = ["score", "score_cards", "score_fleet", "score_helium", "score_sovereign", "score_influence",
               "score_hand_penalty", "score_automa_base", "rank", "win_share"]


def configs():
    """(id, Config): every player count with default rules, plus switched rules and solo variants."""
    out = [(f"{p}p-default", Config(players=p)) for p in range(1, 7)]
    for i, (key, values) in enumerate(SWITCHES.items()):
        out.append((f"{3 + i % 3}p-{key}", dataclasses.replace(Config(players=3 + i % 3), **{key: values[1]})))
    for level in (1, 6):
        out.append((f"solo-level{level}-readd", Config(players=1, automa_level=level, solo_readd_removed=True)))
    out.append(("solo-no-ceres", Config(players=1, solo_exclude_ceres=True)))
    out.append(("2p-stalemate1", Config(players=2, stalemate_rounds=1, max_rounds=25)))
    return out


CASES = configs()
GAMES_PER_CASE = 2400 // len(CASES) + 1


def play_lockstep(config, games: int, seed: int):
    content = load_content(config)
    ids = np.arange(games)
    state = GAME.init(config, content, ids, seed)
    oracles = [OracleGame(config, content, seed, int(g)) for g in ids]
    keys = rng.stream_keys(seed, ids, "crosscheck")
    counter = np.zeros(games, np.int64)
    decisions = 0
    while True:
        done = GAME.done(state)
        for g in range(games):
            assert done[g] == oracles[g].done(), f"game {g}: engine done={done[g]}"
        if done.all():
            break
        legal = GAME.legal_actions(state)
        decider = GAME.decider(state)
        kind = GAME.kind(state)
        for g in np.flatnonzero(~done):
            o = oracles[g]
            assert decider[g] == o.decider(), f"game {g} decision {counter[g]}: decider"
            assert GAME_KINDS[kind[g]] == o.kind(), f"game {g} decision {counter[g]}: kind"
            np.testing.assert_array_equal(legal[g], o.legal(), err_msg=f"game {g} decision {counter[g]} ({o.kind()})")
        actions = choose_uniform(legal, StrategyRng(keys, counter).uniform(1)[:, 0])
        for g in np.flatnonzero(~done):
            oracles[g].step(int(actions[g]))
        counter += ~done
        decisions += int((~done).sum())
        state = GAME.step(state, actions)
    out = GAME.outcome(state)
    for g in range(games):
        expected = oracles[g].result()
        for key in RESULT_KEYS:
            np.testing.assert_allclose(out["per_seat"][key][g], expected[key], err_msg=f"game {g}: {key}")
        assert out["per_game"]["end_reason"][g] == expected["end_reason"], f"game {g}: end reason"
        assert out["per_game"]["turns"][g] == expected["turns"], f"game {g}: turns"
    return decisions


from sim.games.red_rising.actions import DECISION_KINDS as GAME_KINDS  # noqa: E402


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_engine_matches_oracle(case):
    """RR-S1..S18, RR-R1..R70, RR-E1..E19, RR-V1..V49: engine == oracle, decision by decision."""
    _, config = case
    decisions = play_lockstep(config, GAMES_PER_CASE, seed=1000 + config.players)
    assert decisions > GAMES_PER_CASE * 20
