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
@pytest.mark.parametrize("name", SCRIPTED + ["random", "lookahead", "search"])
def test_choices_ignore_hidden_information_RR_S7_RR_R70_RR_A31(players, name):
    """Re-dealing what the player cannot see (other hands, the deck order, Au Toma's hand and
    deck) leaves the observation and the strategy's choice unchanged (search: its rollouts too)."""
    config, content, state = midgame_states(players)
    strategy = registry.make(name, {"budget": 4} if name == "search" else {}, GAME, content)
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


@pytest.mark.parametrize("players", [1, 4])
def test_sample_states_deal_each_row_as_sample_state(players):
    """``GAME.sample_states(obs, rows, keys)`` (the search player's samples of a round in one
    call) is ``sample_state`` with those keys, taken at those rows, repeated rows included: the
    search player's speed-up (issue 16) changes no sampled state. The deal is a pile again
    (check_invariants: every deck card linked once, sizes and hand counts as observed)."""
    from sim.games.red_rising.state import BACKINGS
    from tests.test_red_rising_engine import check_invariants

    config, content, state = midgame_states(players)
    obs = GAME.observe(state, GAME.decider(state))
    n = len(state.game_id)
    keys = rng.stream_keys(3, np.arange(n), "redeal")
    rows = np.concatenate([np.arange(n)[::-3], np.arange(n)])
    batched, single = GAME.sample_states(obs, rows, keys[rows]), take(GAME.sample_state(obs, keys), rows)
    for name in BACKINGS + ("game_id",):
        np.testing.assert_array_equal(getattr(batched, name), getattr(single, name), err_msg=name)
    check_invariants(batched)
    np.testing.assert_array_equal(batched.size, state.size[rows])
    np.testing.assert_array_equal(batched.hand_n, state.hand_n[rows])


class _OneCallPerSample:
    """Red Rising without ``sample_states``: the search player deals one ``sample_state`` per sample index."""

    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        if name == "sample_states":
            raise AttributeError(name)
        return getattr(self._game, name)


def test_search_chooses_the_same_with_samples_in_one_call():
    """The search player's choices with RR's ``sample_states`` equal those of the generic path
    (one ``sample_state`` per sample index, then taken and joined): the speed-up keeps every
    choice (issue 16)."""
    config, content, state = midgame_states(4)
    decider = GAME.decider(state)
    keys = rng.stream_keys(9, np.arange(len(decider)), "strategy", 0)
    chosen = []
    for game in (GAME, _OneCallPerSample(GAME)):
        search = registry.make("search", {"budget": 12, "rollout": "rr_balanced"}, game, content)
        chosen.append(search.act(GAME.observe(state, decider), GAME.legal_actions(state),
                                 StrategyRng(keys, np.arange(len(decider)))))
    np.testing.assert_array_equal(chosen[0], chosen[1])
    assert (GAME.legal_actions(state).sum(axis=1) > 2).sum() > 20       # many rows really searched


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
    with pytest.raises(InputError, match=r"seats.params.fleet: expected a number, got 'fast'"):
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


FAST_SEATS = [
    (4, SCRIPTED),
    (4, ["rr_balanced", "random", "rr_fleet_rush", "random"]),
    (4, ["random"] * 4),
    (2, ["rr_helium_influence", "random"]),
    (1, ["rr_end_bonus"]),
    (1, ["random"]),
    (6, SCRIPTED + ["random", "rr_balanced"]),
]


@pytest.mark.parametrize("depth", [8, 2])
@pytest.mark.parametrize("players, seats", FAST_SEATS)
def test_whole_games_in_compiled_code_equal_the_runner_loop(players, seats, depth, monkeypatch):
    """The runner's fast path (``Strategy.play_to_end``: engine and choices fused in one compiled
    call, game by game) plays exactly the games of its step-by-step loop (forced here by an
    ``on_step`` hook), solo games (Au Toma's seat) and growing frame stacks (depth 2) included."""
    from sim.games.red_rising import engine, state as state_mod
    monkeypatch.setattr(state_mod, "DEPTH", depth)
    calls = []
    run_to_end = engine.run_to_end
    monkeypatch.setattr(engine, "run_to_end", lambda *a: calls.append(1) or run_to_end(*a))
    config = Config(players=players)
    content = load_content(config)
    strategies = [registry.make(name, {}, GAME, content) for name in seats]
    ids = np.arange(500, 680)
    # Six plans rotate through 120 seat orders, most of them one of these 180 games: a one-game
    # batch takes the step-by-step loop both times, which made this case cost minutes. In the
    # fixed order every game is in one batch; rotated slots are checked at four players.
    seating = "fixed" if players > 4 else "rotate"
    fast, fast_ids = play_games(GAME, config, content, strategies, 9, ids, seating=seating)
    assert calls, "the fast path was not taken"
    loop, loop_ids = play_games(GAME, config, content, strategies, 9, ids, on_step=lambda *_: None, seating=seating)
    np.testing.assert_array_equal(fast_ids, loop_ids)
    for part in ("per_seat", "per_game"):
        assert fast[part].keys() == loop[part].keys()
        for key in fast[part]:
            assert fast[part][key].dtype == loop[part][key].dtype, key
            np.testing.assert_array_equal(fast[part][key], loop[part][key], err_msg=key)


def test_observe_cards_equals_the_scrubbed_where():
    """``observe_cards`` (what compiled strategies read instead of a scrubbed copy) says exactly
    what the observation's ``where`` says: own cards, and count and value sum of unknown ones."""
    from numba import njit

    from sim.games.red_rising.observe import observe_cards
    from sim.games.red_rising.state import UNKNOWN

    @njit
    def observe_all(w8, col, automa, flipped, decider, legal, depth, f_actor, f_seen, players, values, mine, seen):
        out = np.zeros((len(players), 2), np.int64)
        for g in range(len(players)):
            out[g, 0], out[g, 1] = observe_cards(w8, col, automa, flipped, decider, legal, depth, f_actor, f_seen,
                                                 g, players[g], values, mine[g], seen)
        return out

    for players in (1, 2, 4, 6):
        config, content, state = midgame_states(players, seed=players)
        b, c = state.where.shape
        values = (np.arange(c, dtype=np.int64) * 7919) % 101 - 30
        # cards seen in the current frame (rare in play: some look abilities), in every other game
        g = np.arange(0, b, 2)
        d = np.maximum(state.depth[g], 1)
        state.depth[g] = d
        state.f_actor[g, d] = np.arange(len(g)) % (players + 1)
        state.f_seen[g, d, :3] = (np.arange(len(g))[:, None] * 5 + np.arange(3) * 37) % c
        for p in range(players + (players == 1)):          # Au Toma's seat too in solo games
            seat = np.full(b, p)
            where = GAME.observe(state, seat).where
            mine = np.zeros((b, c), bool)
            seen = np.zeros(c, bool)
            got = observe_all(state.b_i8, state.layout.slots["where"][1], state.automa, state.flipped,
                              state.decider, state.legal, state.depth, state.f_actor, state.f_seen, seat,
                              values, mine, seen)
            np.testing.assert_array_equal(mine, where == 10 + p)
            np.testing.assert_array_equal(got[:, 0], (where == UNKNOWN).sum(axis=1))
            np.testing.assert_array_equal(got[:, 1], np.where(where == UNKNOWN, values, 0).sum(axis=1))
            assert not seen.any()


@pytest.mark.parametrize("seats", [["random"] * 4, ["rr_balanced", "random", "rr_fleet_rush", "rr_end_bonus"]])
def test_whole_game_paths_do_not_pay_the_legality_check(seats, monkeypatch):
    """GAME.step checks every answer with sim.core.game.check_legal; the compiled whole-game paths
    (play_uniform, the scripted plans' driver) check inside the kernel and never call it, while the
    runner's step loop does."""
    from sim.core.game import check_legal
    from sim.games.red_rising import engine

    calls = []
    monkeypatch.setattr(engine, "check_legal", lambda *a: calls.append(1) or check_legal(*a))
    config = Config(players=4)
    content = load_content(config)
    strategies = [registry.make(name, {}, GAME, content) for name in seats]
    play_games(GAME, config, content, strategies, 3, np.arange(40))
    assert calls == []
    play_games(GAME, config, content, strategies, 3, np.arange(40), on_step=lambda *_: None)
    assert len(calls) > 40


def test_the_warm_up_compiles_the_path_the_workers_take(monkeypatch):
    """``runner.warm_up`` (the parent's compile before the workers start) must play a batch of
    two or more games in one seat arrangement, so that the fast path (``play_to_end``) the
    workers' batches take is compiled and cached there. With four different plans there are six
    arrangements (seating "rotate"): ``np.arange(2)`` gave each a batch of one and each worker
    compiled ``_play_to_end`` itself (measured: minutes on a first ``make report``)."""
    from sim.core import runner
    from sim.core.experiment import load_experiment
    from sim.games.red_rising import engine
    from sim.play import make_strategies

    batches = []
    run_to_end = engine.run_to_end
    monkeypatch.setattr(engine, "run_to_end", lambda state, *a: batches.append(state.batch) or run_to_end(state, *a))
    monkeypatch.setattr(runner, "_WARMED", set())
    exp = load_experiment("experiments/red_rising_houses.toml")
    assert len({s.strategy for s in exp.seats}) > 1, "the default experiment seats different plans"
    runner.warm_up(exp, make_strategies, next(iter(exp.variants)), progress=False)
    assert batches and max(batches) >= 2


@pytest.mark.parametrize("seats", [SCRIPTED, ["rr_balanced", "random", "rr_fleet_rush", "random"], ["random"] * 4])
def test_whole_game_drivers_start_from_set_up_games_as_from_init(seats):
    """``GAME.setup`` is ``init`` before its run to the first decision (the warm-up compiles a
    strategy's driver from set-up games in a helper process, ``sim.core.runner.warm_up``):
    running it gives init's arrays bit for bit, and the driver started there plays the same games."""
    from sim.core.runner import _play_to_end, strategy_groups
    from sim.games.red_rising import engine
    from sim.games.red_rising.state import BACKINGS

    config = Config(players=4)
    content = load_content(config)
    ids = np.arange(40, 72)
    inited, set_up = GAME.init(config, content, ids, 5), GAME.setup(config, content, ids, 5)
    assert not set_up.waiting.any() and inited.waiting.all()
    ran = engine.run(GAME.setup(config, content, ids, 5))
    for backing in BACKINGS:
        np.testing.assert_array_equal(getattr(ran, backing), getattr(inited, backing), err_msg=backing)
    strategies = [registry.make(name, {}, GAME, content) for name in seats]
    keys = np.stack([rng.stream_keys(5, ids, "strategy", slot) for slot in range(len(seats))])
    outcomes = [GAME.outcome(_play_to_end(GAME, state, strategy_groups(strategies), keys, len(seats)))
                for state in (inited, set_up)]
    for part in ("per_seat", "per_game"):
        for key in outcomes[0][part]:
            np.testing.assert_array_equal(outcomes[1][part][key], outcomes[0][part][key], err_msg=key)
