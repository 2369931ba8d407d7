"""The engine against the oracle: same decider, same legal actions at every decision, same results.

2,640 random games over 1..5 players, the standard and the peace game, every robot level and
every rule switch of spec 8.14 (docs/animal_kingdoms_model.md is the contract of both). The
engine plays each configuration as one batch; one oracle per game follows the same actions.
Covers, among others, AK-R2..R52, AK-E1..E28, AK-V1..V20 as the oracle states them.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.animal_kingdoms.config import Config
from sim.games.animal_kingdoms.game import GAME
from tests.oracle_animal_kingdoms import Oracle
from tests.test_animal_kingdoms_support import content_for

GAMES = 110
CONFIGS = [
    dict(players=2), dict(players=3), dict(players=4), dict(players=5),
    dict(players=2, peace=True), dict(players=3, peace=True), dict(players=4, peace=True), dict(players=5, peace=True),
    dict(players=1, robot_level="easy"), dict(players=1, robot_level="medium"), dict(players=1, robot_level="normal"),
    dict(players=1, robot_level="hard", peace=True), dict(players=1, robot_level="extra_hard"),
    dict(players=1, robot_level="extra_hard", robot_bonus_effect="extra_marker", robot_bonus_chain=True,
         robot_receives_modifiers=True, robot_equal_rank="robot_wins", robot_low_rank_target="robot_last_play",
         robot_skip_direction="counter_clockwise", robot_council_move=False, solo_first_player="robot"),
    dict(players=1, robot_level="extra_hard", robot_bonus_effect="extra_play"),
    dict(players=1, robot_level="hard", robot_bonus_effect="play_bonus_card", robot_bonus_chain=True,
         max_turns_per_age=60),
    dict(players=4, multiway_battle="one_counts_as_nine", one_beats_eight_uses="battle_value",
         placement_mode="competition"),
    dict(players=3, voluntary_retreat="forced_only", council_claimable=True, max_turns_per_age=40),
    dict(players=4, voluntary_retreat="rally_not_allowed"), dict(players=1, voluntary_retreat="rally_not_allowed"),
    dict(players=5, refill_before_forced_retreat=False, forced_retreat_takes_tile=False,
         all_others_missing_policy="any_missing_frees", left_is="clockwise", markers_per_player=6),
    dict(players=4, peace=True, peace_tied_others="nothing", final_tiebreak="none",
         start_tie_capital_scope="whole_game", rally_ban_scope="game", start_player_age1="first_slot"),
    dict(players=2, reshuffle_discard_when_empty=False, remove_unclaimed_tile=False, council_moves_after_ages=(2,),
         hand_size=3, modifier_tiles=2, modifier_value=3, start_score=5, first_retreat_shift=2),
    dict(players=3, hand_size=5, max_turns_per_age=25, rally_points=2, second_place_points=4, third_place_points=2),
]
PER_SEAT = ("score", "score_start", "score_first", "score_second", "score_third", "score_rally", "score_retreat",
            "score_modifiers", "rank", "win_share", "slot", "is_automa", "faction", "ak_claims", "ak_rallies",
            "ak_capitals", "ak_first_retreats", "ak_battles_won", "ak_battles_lost", "ak_council")
PER_GAME = ("turns", "rounds", "end_reason", "ak_battles")


def choose(legal_row, rng, claim_bias, a_rally):
    """Random legal action; sometimes restricted to claims so that games reach capitals and battles."""
    idx = np.nonzero(legal_row)[0]
    if rng.random() < claim_bias:
        claims = idx[idx < a_rally]
        if len(claims):
            idx = claims
    return int(rng.choice(idx))


@pytest.mark.parametrize("number", range(len(CONFIGS)))
def test_engine_matches_oracle(number):
    """Decider and legal mask at every decision, then every outcome column (AK rules via the model doc)."""
    config = Config(**CONFIGS[number])
    content = content_for(config)
    seed = 1000 + number
    ids = np.arange(GAMES) + 7 * number
    state = GAME.init(config, content, ids, seed)
    oracles = [Oracle(config, content, seed, int(g)) for g in ids]
    rng = np.random.default_rng(seed)
    bias = [0.0, 0.5, 0.9][number % 3]
    a_rally = state.t.A_RALLY
    for _ in range(100_000):
        decider = GAME.decider(state)
        legal = GAME.legal_actions(state)
        actions = np.zeros(len(ids), dtype=np.int64)
        for i, o in enumerate(oracles):
            assert decider[i] == o.decider(), f"game {ids[i]}: decider"
            assert np.array_equal(legal[i], o.legal()), f"game {ids[i]}: legal actions"
            if decider[i] >= 0:
                actions[i] = choose(legal[i], rng, bias, a_rally)
                o.step(actions[i])
        if (decider < 0).all():
            break
        state = GAME.step(state, actions)
    out = GAME.outcome(state)
    for i, o in enumerate(oracles):
        expected = o.outcome()
        for key in PER_SEAT:
            assert list(out["per_seat"][key][i]) == list(expected[key]), f"game {ids[i]}: {key}"
        for key in PER_GAME:
            assert out["per_game"][key][i] == expected["per_game"][key], f"game {ids[i]}: {key}"


def test_engine_matches_oracle_with_more_than_64_cards(tmp_path):
    """A designer's deck of 72 cards (two 64-bit words per card set): engine and oracle still agree."""
    species = ("Bear", "Eagle", "Fox", "Hare", "Lion", "Owl", "Turtle", "Wolf", "Yak")
    path = tmp_path / "cards.csv"
    path.write_text("species,rank\n" + "".join(f"{s},{r}\n" for s in species for r in range(1, 9)))
    config = Config(players=4, cards_file=str(path))
    content = content_for(config)
    assert len(content.cards) == 72
    ids = np.arange(60)
    state = GAME.init(config, content, ids, 77)
    assert state.t.W == 2
    oracles = [Oracle(config, content, 77, int(g)) for g in ids]
    rng = np.random.default_rng(77)
    while True:
        decider, legal = GAME.decider(state), GAME.legal_actions(state)
        actions = np.zeros(len(ids), dtype=np.int64)
        for i, o in enumerate(oracles):
            assert decider[i] == o.decider() and np.array_equal(legal[i], o.legal())
            if decider[i] >= 0:
                actions[i] = choose(legal[i], rng, 0.5, state.t.A_RALLY)
                o.step(actions[i])
        if (decider < 0).all():
            break
        state = GAME.step(state, actions)
    out = GAME.outcome(state)["per_seat"]["score"]
    assert [list(r) for r in out] == [o.outcome()["score"] for o in oracles]
