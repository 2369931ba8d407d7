"""Red Rising strategies: they see only what their player may see (RR-S7, RR-R70, RR-A31),
they play legal moves, their weights come from the experiment file, and the scripted plans
beat random play."""
import dataclasses

import numpy as np
import pytest

from sim.core import rng
from sim.core.errors import InputError
from sim.core.game import take
from sim.games.red_rising.config import Config
from sim.games.red_rising.content import load_content
from sim.games.red_rising.game import GAME
from sim.core.runner import play_games
from strategies import registry
from strategies.base import StrategyRng, choose_uniform

SCRIPTED = ["rr_fleet_rush", "rr_helium_influence", "rr_end_bonus", "rr_balanced"]


def midgame_states(players, games=96, seed=5):
    """States of random games stopped at a spread of decisions (some in each decision kind)."""
    config = Config(players=players)
    content = load_content(config)
    ids = np.arange(games)
    state = GAME.init(config, content, ids, seed)
    keys = rng.stream_keys(seed, ids, "test")
    stop_at = rng.integers(keys, 99, 120)
    for step in range(120):
        live = ~GAME.done(state) & (step < stop_at)
        if not live.any():
            break
        acts = choose_uniform(GAME.legal_actions(state), StrategyRng(keys, np.full(games, step)).uniform(1)[:, 0])
        keep = np.flatnonzero(live)
        state = _merge(state, GAME.step(take(state, keep), acts[keep]), keep)
    running = np.flatnonzero(~GAME.done(state))
    return config, content, take(state, running)


def _merge(full, sub, rows):
    """``full`` with the games ``rows`` replaced by the (advanced) batch ``sub``."""
    out = {}
    for f in dataclasses.fields(full):
        v = getattr(full, f.name)
        w = getattr(sub, f.name)
        if isinstance(v, np.ndarray) and v.ndim >= 1 and v.shape[0] == full.where.shape[0]:
            v = v.copy()
            v[rows] = w
        out[f.name] = v
    return dataclasses.replace(full, **out)


@pytest.mark.parametrize("players", [1, 2, 4, 6])
@pytest.mark.parametrize("name", SCRIPTED + ["random", "lookahead"])
def test_choices_ignore_hidden_information_RR_S7_RR_R70_RR_A31(players, name):
    """Re-dealing what the player cannot see (other hands, the deck order, Au Toma's hand and
    deck) leaves the observation and the strategy's choice unchanged."""
    config, content, state = midgame_states(players)
    strategy = registry.make(name, {}, GAME, content)
    decider = GAME.decider(state)
    legal = GAME.legal_actions(state)
    keys = rng.stream_keys(9, np.arange(len(decider)), "strategy", 0)
    counter = np.arange(len(decider))
    chosen = strategy.act(GAME.observe(state, decider), legal, StrategyRng(keys, counter))
    for redeal in range(3):
        other = GAME.sample_state(GAME.observe(state, decider), rng.stream_keys(redeal, np.arange(len(decider)), "redeal"))
        # the re-dealt state really differs where it is hidden ...
        assert GAME.legal_actions(other).shape == legal.shape
        again = strategy.act(GAME.observe(other, decider), GAME.legal_actions(other), StrategyRng(keys, counter))
        np.testing.assert_array_equal(chosen, again)
    assert legal[np.arange(len(chosen)), chosen].all()


def test_redeal_changes_hidden_cards_but_not_public_ones():
    config, content, state = midgame_states(4)
    decider = GAME.decider(state)
    other = GAME.sample_state(GAME.observe(state, decider), rng.stream_keys(1, np.arange(len(decider)), "redeal"))
    own = state.where == (10 + decider[:, None])
    assert np.array_equal(other.where[own], state.where[own])
    public = state.where <= 5
    public &= state.where != 4
    assert np.array_equal(other.where[public], state.where[public])
    hidden_other_hands = (state.where >= 10) & ~own
    assert (other.where[hidden_other_hands] != state.where[hidden_other_hands]).any()


@pytest.mark.parametrize("name", SCRIPTED)
def test_scripted_plan_beats_three_random_players(name):
    """A scripted plan against three random players wins clearly more than its fair share."""
    config = Config(players=4)
    content = load_content(config)
    strategies = [registry.make(name, {}, GAME, content)] + [registry.make("random", {}, GAME, content)] * 3
    outcome, _ = play_games(GAME, config, content, strategies, 77, np.arange(300))
    slot = outcome["per_seat"]["slot"]
    share = outcome["per_seat"]["win_share"][slot == 0].sum() / 300
    assert share > 0.45, share


def test_weights_come_from_the_experiment_and_are_checked():
    content = load_content(Config())
    s = registry.make("rr_fleet_rush", {"fleet": 5.0, "noise": 0.0}, GAME, content)
    assert s.params.fleet == 5.0 and s.params.helium == 1.0
    with pytest.raises(InputError, match=r"seats.params.fleat: unknown key; did you mean 'fleet'"):
        registry.make("rr_fleet_rush", {"fleat": 5.0}, GAME, content)
    with pytest.raises(InputError, match=r"seats.params.fleet: expected float"):
        registry.make("rr_fleet_rush", {"fleet": "fast"}, GAME, content)


def test_grouped_plans_choose_as_each_plan_alone():
    """The runner asks the four plans in one call (act_group); each row uses its own plan's
    weights, so the games are exactly those of the plans asked one by one."""
    config = Config(players=4)
    content = load_content(config)
    plans = [registry.make(name, {}, GAME, content) for name in SCRIPTED]
    grouped, _ = play_games(GAME, config, content, plans, 21, np.arange(64))

    class Alone:
        """A plan without its group: the runner asks it for its own seats only."""
        group = None

        def __init__(self, plan):
            self.plan = plan

        def act(self, obs, legal, rng):
            return self.plan.act(obs, legal, rng)

    alone, _ = play_games(GAME, config, content, [Alone(p) for p in plans], 21, np.arange(64))
    for key in ("score", "rank", "win_share"):
        np.testing.assert_array_equal(grouped["per_seat"][key], alone["per_seat"][key])
