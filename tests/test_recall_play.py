"""Recall as a playable game of the toolkit: the engine-stop guard, observations that hide what a
player may not know (RC-A68), sampled states, the results columns and the strategies.

While the engine does not compile every rule, the games here are played by ``COMPILED`` seats:
the generic lookahead with every weight 0, i.e. uniform among the legal actions whose result
(on a state sampled from the observation) does not reach a rule not compiled yet. Once nothing
stops, that is uniform random play.
"""
from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from sim.core import config as cfgmod
from sim.core import rng
from sim.core.errors import RunError
from sim.core.game import take
from sim.core.experiment import load_experiment
from sim.core.results import scan
from sim.core.rng import StrategyRng
from sim.games.recall import state as st
from sim.games.recall.game import GAME
from sim.games.recall.observe import observe, sample_state
from sim.games.recall.value import STOPPED, position_value
from sim.play import make_strategies, run_experiment
from strategies import registry
from tests.recall_games import ending_range
from tests.recall_plan_kit import own_options
from tests.scaffold import assert_score_sheets, rows, write_experiment

ZERO = {"final": 0.0, "crystals": 0.0, "keys": 0.0, "tracks": 0.0, "followers": 0.0, "pending": 0.0}
COMPILED = ('strategy = "lookahead"\nparams.weights = {final = 0.0, crystals = 0.0, keys = 0.0, tracks = 0.0, '
            'followers = 0.0, pending = 0.0}\n')
COMPONENTS = (["score_track", "score_leftover", "score_pigs", "score_purple", "score_goal"]
              + [f"score_{p}_{k}" for p in ("knowledge", "ancestors", "saints", "efficiency", "ambition", "power")
                 for k in ("base", "spec")])


def experiment(name: str, seats: list[str], players: int, games: int = 12, extra: str = "") -> str:
    body = "".join(f"[[seats]]\n{s}" for s in seats)
    return (f'[experiment]\nname = "{name}"\ngame = "recall"\ngames = {games}\nseed = 5\nchunk = 5\n\n'
            f"[config]\nplayers = {players}\n{extra}\n\n{body}")


def _setup(players: int, **overrides):
    config = cfgmod.build(GAME.Config, {"players": players, **overrides}, "test", "")
    content = GAME.load_content(config)
    return config, content


def _live(s) -> np.ndarray:
    kind = s.m[:, st.G_KIND]
    return (kind != st.K_DONE) & (kind != st.K_STOP)


def _play(state, strategy, decisions: int, seed: int = 0):
    """``decisions`` steps of every live game with one strategy for every seat."""
    n = state.t.config.players
    keys = np.stack([rng.stream_keys(seed, state.gid, "strategy", k) for k in range(n)])
    for d in range(decisions):
        live = np.flatnonzero(_live(state))
        if not len(live):
            break
        state = take(state, live)
        dec = GAME.decider(state)
        srng = StrategyRng(keys[dec, live], np.full(len(live), d))
        keys = keys[:, live]
        state = GAME.step(state, strategy.act(GAME.observe(state, dec), state.legal, srng))
    return state


# ---- the engine-stop guard -------------------------------------------------------------------------

def test_a_game_the_engine_stopped_is_an_error_naming_the_game_and_the_rule():
    """A game at ``K_STOP`` (a rule not compiled yet) never gives a row: ``done`` and ``outcome``
    raise one line naming the game index and the rule."""
    config, content = _setup(2)
    s = GAME.init(config, content, np.arange(40, 44), 1)
    assert not GAME.done(s).any()
    s.m[2, st.G_KIND] = st.K_STOP
    s.m[2, st.G_STOP] = st.STOP_REASONS.index("ability")
    for call in (GAME.done, GAME.outcome):
        with pytest.raises(RunError) as err:
            call(s)
        assert "game 42" in str(err.value) and "(ability," in str(err.value) and "\n" not in str(err.value)


# ---- observations (RC-A68) -------------------------------------------------------------------------

def _perturb(s, viewer, seed):
    """A copy of ``s`` with everything ``viewer`` may not know dealt differently: the chest stack
    below the tiles drawn, the green and grey decks below the cards turned, the other seats'
    goal cards, the bag's future draws and the chest reshuffles (their stream keys), the undealt
    old-tribe draws, the unrevealed old tribes and item stacks, and the face-down area tiles
    (swapped between slots)."""
    r = np.random.default_rng(seed)
    o = take(s, np.arange(s.batch))
    ct = s.t.content
    for b in range(s.batch):
        h, m = o.hidden[b], o.m[b]
        for col, top, n in ((st.H_CHEST, m[st.G_CHEST_TOP], m[st.G_CHEST_N]),
                            (st.H_GREEN, m[st.G_GREEN_TOP], st.DECK_MAX), (st.H_GREY, m[st.G_GREY_TOP], st.DECK_MAX)):
            part = h[col + top:col + n]
            n_real = int((part >= 0).sum())
            part[:n_real] = r.permutation(part[:n_real])
        goals = h[st.H_GOALS:st.H_GOALS + 3 * st.MAXP].reshape(st.MAXP, 3)
        others = [p for p in range(s.t.config.players) if p != viewer[b]]
        free = [g for g in range(len(ct.goal_cards)) if g not in goals[viewer[b]]]
        free = list(r.permutation(free))
        for p in others:
            for j in range(3):
                if goals[p, j] >= 0:
                    goals[p, j] = free.pop()
        n = s.t.config.players
        h[st.H_OLDT:st.H_OLDT + len(ct.tribes) - n] = r.permutation(len(ct.tribes) - n)
        h[st.H_OLDI:st.H_OLDI + len(ct.items) - n] = r.permutation(len(ct.items) - n)
        hidden_tracks = [t for t in range(3) if m[st.G_REVEALED + t] == 0 and m[st.G_OLD_TRIBE + t] >= 0]
        if len(hidden_tracks) >= 2:
            order = r.permutation(hidden_tracks)
            tribes = m[st.G_OLD_TRIBE:st.G_OLD_TRIBE + 3].copy()
            items = m[st.G_OLD_ITEMS:st.G_OLD_ITEMS + 12].reshape(3, 4).copy()
            for a, c in zip(hidden_tracks, order):
                m[st.G_OLD_TRIBE + a] = tribes[c]
                m[st.G_OLD_ITEMS + 4 * a:st.G_OLD_ITEMS + 4 * a + 4] = items[c]
        down = [k for k in range(len(ct.map.slots)) if m[st.G_UP + k] == 0]
        if len(down) >= 2:
            a, c = r.choice(down, 2, replace=False)
            for col in (st.G_TILE, st.G_ROT):
                m[col + a], m[col + c] = m[col + c], m[col + a]
            for col in (st.F_TERR, st.F_PIGS, st.F_CAMP, st.F_START):
                ba, bc = m[col + 7 * a:col + 7 * a + 7].copy(), m[col + 7 * c:col + 7 * c + 7].copy()
                m[col + 7 * a:col + 7 * a + 7], m[col + 7 * c:col + 7 * c + 7] = bc, ba
    o.bag_key[:] = rng.stream_keys(seed, np.arange(s.batch), "other bag")
    for col in (st.H_BAGKEY, st.H_CHEST_KEY, st.H_RINGKEY):  # the kernel's bag, chest and ring stream keys
        o.hidden[:, col:col + 4] = r.integers(0, 1 << 16, (s.batch, 4))
    return o


def _same_observation(a, b):
    for name in ("m", "chests", "goals", "goal_n", "legal", "player"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_observations_and_choices_do_not_see_hidden_parts_RC_A68(players):
    """RC-A68, RC-S8, RC-S11, RC-S12, RC-S17, RC-S27, RC-S36: the chest stack, deck orders, other
    seats' goal cards, the bag, old tribes not revealed and face-down tiles dealt differently
    change neither the decider's observation nor the choice of any shipped Recall strategy, the
    search player (its rollouts start from states it deals from the observation) included."""
    config, content = _setup(players)
    shipped = [(name, {}) for name in registry.available("recall") if name.startswith("rc_")]   # every plan
    assert {"rc_greedy", "rc_knowledge", "rc_artifacts", "rc_builder", "rc_keys"} <= {n for n, _ in shipped}
    strategies = [registry.make(name, params, GAME, content) for name, params in
                  [("random", {}), ("lookahead", {}), ("lookahead", {"weights": ZERO}),
                   ("search", {"budget": 3, "rollout": "rc_greedy"})] + shipped]
    s = GAME.init(config, content, np.arange(24), 7)
    checked = 0
    for round_ in range(6):
        s = _play(s, strategies[2], 9, seed=round_)
        s = take(s, np.flatnonzero(_live(s)))
        viewer = GAME.decider(s)
        other = _perturb(s, viewer, round_)
        assert (other.hidden != s.hidden).any()
        _same_observation(observe(s, viewer), observe(other, viewer))
        for strategy in strategies:
            srng = StrategyRng(rng.stream_keys(1, s.gid, "strategy"), np.full(s.batch, round_))
            a = strategy.act(observe(s, viewer), s.legal, srng)
            b = strategy.act(observe(other, viewer), other.legal, srng)
            np.testing.assert_array_equal(a, b, err_msg=strategy.name)
        checked += s.batch
    assert checked > 50


def test_a_sampled_state_shows_the_viewer_the_same_observation():
    """``sample_state`` deals only what the viewer does not know: observing the sample again gives
    the same observation; its decks and chest stack hold only cards of the right kinds."""
    config, content = _setup(3)
    s = _play(GAME.init(config, content, np.arange(30), 2), registry.make("lookahead", {"weights": ZERO}, GAME, content), 25)
    s = take(s, np.flatnonzero(_live(s)))
    viewer = GAME.decider(s)
    obs = observe(s, viewer)
    sample = sample_state(obs, np.arange(s.batch, dtype=np.uint64) + 99)
    _same_observation(obs, observe(sample, viewer))
    green = set(content.key_kinds(2))
    deck = sample.hidden[:, st.H_GREEN:st.H_GREEN + st.DECK_MAX]
    assert set(deck[deck >= 0].tolist()) <= green
    real_stack = s.hidden[:, st.H_CHEST:st.H_CHEST + st.CHEST_MAX]
    top, size = s.m[:, st.G_CHEST_TOP], s.m[:, st.G_CHEST_N]
    for b in range(s.batch):
        assert (sample.hidden[b, st.H_CHEST + top[b]:st.H_CHEST + size[b]] >= 0).all()
        assert len(real_stack[b, top[b]:size[b]]) == size[b] - top[b]


def test_a_sample_deals_the_old_tribe_draws_only_while_the_draft_is_on_RC_S36():
    """RC-S36, RC-S37: the setup's old-tribe and item-stack draws are read once, when the draft ends
    (kernel/draft.py ``deal_old_tribes``), so ``sample_state`` deals them as permutations during
    the draft and leaves them -1 after it (the lookahead's deal skips them)."""
    config, content = _setup(4)
    s = GAME.init(config, content, np.arange(6), 5)
    columns = {st.H_OLDT: len(content.tribes) - 4, st.H_OLDI: len(content.items) - 4}
    for drafting in (True, False):
        assert ((s.m[:, st.G_PHASE] == st.PH_DRAFT) == drafting).all()
        sample = sample_state(observe(s, GAME.decider(s)), np.arange(s.batch, dtype=np.uint64) + 11)
        for col, n in columns.items():
            drawn = np.sort(sample.hidden[:, col:col + n], axis=1)
            if drafting:
                np.testing.assert_array_equal(drawn, np.tile(np.arange(n), (s.batch, 1)))
            else:
                assert (drawn == -1).all()
        s = _play(s, registry.make("lookahead", {"weights": ZERO}, GAME, content), 25)
        s = take(s, np.flatnonzero(_live(s)))


def test_position_value_avoids_a_stopped_state_and_reads_the_score():
    """The lookahead's value: a stopped game is worth ``STOPPED``; more points are worth more."""
    config, content = _setup(2)
    s = GAME.init(config, content, np.arange(4), 1)
    before = position_value(s, np.zeros(4, dtype=np.int64), {})
    s.m[1, st.seat_col(0, st.P_SCORE)] += 5
    s.m[2, st.G_KIND] = st.K_STOP
    after = position_value(s, np.zeros(4, dtype=np.int64), {})
    assert after[1] > before[1] and after[2] == STOPPED and after[0] == before[0]


# ---- results and strategies ---------------------------------------------------------------------

def test_results_columns_and_features_in_play(tmp_path):
    """Rows follow docs/results_schema.md (components sum to the score, RC-E3..E49, RC-A53) and the
    report's "features in play" analysis reads Recall's declared features as they are."""
    from analyses.features import analyse_feature, declared_features

    exp = load_experiment(write_experiment(tmp_path, "", text=experiment("rc_rows", [COMPILED] * 2, 2)))
    first, count = ending_range(exp, "base", 60, make_strategies)
    assert count >= 8
    count = min(count, 24)
    df = rows(run_experiment(exp, tmp_path / "out", first_game=first, games=count))
    assert df.height == 2 * count
    assert_score_sheets(df, COMPONENTS)
    tribes = {t.id for t in GAME.load_content(GAME.Config(players=2)).tribes}
    assert set(df["tribe"]) <= tribes and (df["tribe"] == df["faction"]).all()
    assert set(df["rc_path_side_1"]) <= {"a", "b", "none"}
    assert (df["rc_tribe_0"].is_in(list(tribes))).all()
    # the seat's own tribe is the one it holds
    held = df.filter(pl.col("seat") == 0)
    assert (held["tribe"] == held["rc_tribe_0"]).all() and (held["rc_has_tribe_0"] == 1).all()
    features = declared_features("recall")
    assert [f.name for f in features] == ["tribe", "item", "old tribe", "path side", "upgrade letter"]
    for feature in features:
        result = analyse_feature(scan(tmp_path / "out" / "rc_rows", "base"), feature)
        assert result.values.height > 0 and "none" not in result.values["value"].to_list(), feature.name
        assert (result.values["games"] == count).all()
    sides = analyse_feature(scan(tmp_path / "out" / "rc_rows", "base"), features[3])
    assert set(sides.values["value"]) <= {f"{c.id}_{x}" for c in GAME.load_content(GAME.Config(players=2)).path_cards
                                          for x in "ab"}


def test_compiled_random_play_chooses_as_the_runner_loop():
    """``GAME.play_uniform`` (``RandomStrategy.play_to_end``) gives the same games as the runner's
    loop with the ``random`` strategy: the same final (or stopped) state, game by game."""
    config, content = _setup(2)
    seed, ids = 3, np.arange(60)
    keys = np.stack([rng.stream_keys(seed, ids, "strategy", k) for k in range(2)])
    fast = GAME.play_uniform(GAME.init(config, content, ids, seed), keys, 2)
    random = registry.make("random", {}, GAME, content)
    slow = GAME.init(config, content, ids, seed)
    slots = GAME.slot_of(slow)
    for d in range(3000):
        live = _live(slow)
        if not live.any():
            break
        dec = GAME.decider(slow)
        srng = StrategyRng(keys[slots[np.arange(len(ids)), np.maximum(dec, 0)], np.arange(len(ids))],
                           np.full(len(ids), d))
        actions = random.act(GAME.observe(slow, dec), slow.legal, srng)
        idx = np.flatnonzero(live)
        part = GAME.step(take(slow, idx), actions[idx])
        for name in ("m", "hidden", "legal"):
            getattr(slow, name)[idx] = getattr(part, name)
    assert not _live(fast).any() and not _live(slow).any()
    np.testing.assert_array_equal(fast.m, slow.m)


def test_lookahead_seats_deciding_together_choose_as_each_alone():
    """The runner asks every lookahead seat (``lookahead``, ``rc_greedy``) of a step in one call
    (``act_group``): each row's choice equals its own seat's ``act`` on that row."""
    config, content = _setup(3)
    members = [registry.make("rc_greedy", {}, GAME, content), registry.make("lookahead", {"weights": ZERO}, GAME, content)]
    s = _play(GAME.init(config, content, np.arange(30), 4), members[1], 30)
    s = take(s, np.flatnonzero(_live(s)))
    dec = GAME.decider(s)
    which = dec % 2
    srng = StrategyRng(rng.stream_keys(2, s.gid, "strategy"), np.full(s.batch, 30))
    together = type(members[0]).group.act_group(members, which, observe(s, dec), s.legal, srng)
    for k, member in enumerate(members):
        rows_k = np.flatnonzero(which == k)
        alone = member.act(observe(take(s, rows_k), dec[rows_k]), s.legal[rows_k], srng.take(rows_k))
        np.testing.assert_array_equal(together[rows_k], alone)
    assert len(set(which.tolist())) == 2


# ---- compiled observation, sampling and play (kernel/sample.py, strategies/recall_kernel.py) ---------

def _midgame(players: int, decisions: int, games: int = 20, seed: int = 3):
    config, content = _setup(players)
    s = _play(GAME.init(config, content, np.arange(games), seed), registry.make("lookahead", {"weights": ZERO}, GAME, content),
              decisions)
    return take(s, np.flatnonzero(_live(s)))


@pytest.mark.parametrize("players", [1, 2, 4])
def test_compiled_observation_equals_observe_RC_A68(players):
    """RC-A68: ``observe_row`` (what the compiled lookahead observes) scrubs exactly what
    ``observe`` scrubs, at the setup, early and later in the game, for every seat's view."""
    from sim.games.recall.kernel.sample import observe_row
    checked = 0
    for decisions in (0, 15, 70):
        s = _midgame(players, decisions)
        n_slots = len(s.t.content.map.slots)
        for p in range(players):
            obs = observe(s, np.full(s.batch, p))
            for b in range(s.batch):
                om = np.empty(st.W, np.int32)
                chests, goals, goal_n = np.zeros(st.MAXP, np.int64), np.zeros(3, np.int64), np.zeros(st.MAXP, np.int64)
                observe_row(s.m[b], s.hidden[b], p, n_slots, om, chests, goals, goal_n)
                np.testing.assert_array_equal(om, obs.m[b])
                np.testing.assert_array_equal(chests, obs.chests[b])
                np.testing.assert_array_equal(goals, obs.goals[b])
                np.testing.assert_array_equal(goal_n, obs.goal_n[b])
                checked += 1
    assert checked > 30 * players


def test_a_sampled_state_deals_its_own_bag_and_chest_streams_RC_A27_RC_S8():
    """A sampled state never keeps the real game's ``chests`` (RC-A27: reshuffles), ``bag`` (RC-S8:
    future draws) or ``rings`` stream key (RC-R233: the order of the rings left), nor one fixed key: each sample key deals other keys, the same key
    the same state; the kernel's bag key is the state's ``bag_key``. Its green and grey decks below
    the cards turned hold exactly the cards of each kind the viewer has not seen."""
    s = _midgame(3, 40)
    viewer = GAME.decider(s)
    obs = observe(s, viewer)
    keys = np.arange(s.batch, dtype=np.uint64) * 7 + 1
    a, again, other = sample_state(obs, keys), sample_state(obs, keys), sample_state(obs, keys + 1000)
    cols = slice(st.H_CHEST_KEY, st.H_RINGKEY + 4)
    for c in (st.H_CHEST_KEY, st.H_BAGKEY, st.H_RINGKEY):
        words = a.hidden[:, c:c + 4]
        assert not (words == s.hidden[:, c:c + 4]).all(axis=1).any(), c
        assert (words != other.hidden[:, c:c + 4]).any(axis=1).all(), c
        assert ((words >= 0) & (words < 1 << 16)).all()
        assert len({tuple(w) for w in words.tolist()}) == s.batch
    np.testing.assert_array_equal(a.hidden, again.hidden)
    np.testing.assert_array_equal(a.m, again.m)
    assert (a.hidden[:, cols] != s.hidden[:, cols]).any()
    bag = sum(a.hidden[:, st.H_BAGKEY + w].astype(np.uint64) << np.uint64(16 * w) for w in range(4))
    np.testing.assert_array_equal(bag, a.bag_key)
    ct = s.t.content
    for colour, col, top_col, hcol in ((2, st.G_GREEN, st.G_GREEN_TOP, st.H_GREEN), (3, st.G_GREY, st.G_GREY_TOP, st.H_GREY)):
        for b in range(s.batch):
            g = s.m[b]
            deck = a.hidden[b, hcol + g[top_col]:hcol + st.DECK_MAX]
            for k in ct.key_kinds(colour):
                seen = sum(int(g[st.seat_col(p, st.P_AVAIL + k)]) + int((g[st.seat_col(p, st.P_SLOT):st.seat_col(p, st.P_SLOT) + 6] == k).sum())
                           for p in range(3)) + int((g[col:col + 3] == k).sum())
                assert (deck == k).sum() == max(ct.key_cards[k].count - seen, 0), (colour, b, k)


def _loop_to_end(strategies, config, content, seed, ids):
    """The runner's step-by-step loop (``runner.choose_actions``) to each game's end or engine stop."""
    from sim.core.runner import choose_actions, strategy_groups
    s = GAME.init(config, content, ids, seed)
    keys = np.stack([rng.stream_keys(seed, ids, "strategy", k) for k in range(len(strategies))])
    groups = strategy_groups(strategies)
    decisions = np.zeros(len(ids), dtype=np.int64)
    while True:
        live = np.flatnonzero(_live(s))
        if not len(live):
            return s, decisions
        part = take(s, live)
        actions = choose_actions(GAME, part, np.ones(len(live), dtype=bool), groups, keys[:, live], decisions[live],
                                 len(strategies))
        decisions[live] += 1
        part = GAME.step(part, actions)
        for name in ("m", "hidden", "legal"):
            getattr(s, name)[live] = getattr(part, name)


@pytest.mark.parametrize("players, seats, games", [
    (2, ["rc_greedy", "rc_greedy"], 10),
    (4, ["rc_greedy"] * 4, 6),
    (3, ["rc_greedy", "random", "lookahead"], 6),
    (1, ["rc_greedy"], 6),
])
def test_compiled_lookahead_play_chooses_as_the_runner_loop(players, seats, games, monkeypatch):
    """``play_to_end`` of lookahead seats (strategies/recall_kernel.py) plays the games of the
    runner's loop decision for decision: the same final (or stopped) state, game by game, with
    random and generic lookahead seats beside ``rc_greedy``; and the runner takes it: rows of the
    games that end equal those of the loop (forced by an ``on_step`` hook)."""
    from sim.core.runner import play_games, strategy_groups
    from strategies import recall_kernel
    from strategies.generic import LookaheadStrategy
    from tests.recall_games import ended
    config, content = _setup(players)
    strategies = [registry.make(name, {}, GAME, content) for name in seats]
    seed, ids = 6, np.arange(40, 40 + games)
    keys = np.stack([rng.stream_keys(seed, ids, "strategy", k) for k in range(players)])
    fast = LookaheadStrategy.play_to_end(GAME, GAME.init(config, content, ids, seed), strategy_groups(strategies), keys,
                                         players)
    slow, _ = _loop_to_end(strategies, config, content, seed, ids)
    assert not _live(fast).any()
    for name in ("m", "hidden", "legal"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(slow, name), err_msg=name)
    done = ids[ended(config, content, strategies, seed, ids)]
    assert len(done) >= 1
    calls = []
    play = recall_kernel.play_batch
    monkeypatch.setattr(recall_kernel, "play_batch", lambda *a: calls.append(1) or play(*a))
    one, one_ids = play_games(GAME, config, content, strategies, seed, done, seating="fixed")
    assert calls, "the compiled path was not taken"
    two, two_ids = play_games(GAME, config, content, strategies, seed, done, on_step=lambda *_: None, seating="fixed")
    np.testing.assert_array_equal(one_ids, two_ids)
    for part in ("per_seat", "per_game"):
        for key in one[part]:
            np.testing.assert_array_equal(one[part][key], two[part][key], err_msg=key)


# ---- rc_greedy's untried kinds (strategies/recall.py) -----------------------------------------------

def test_rc_greedy_draws_untried_at_its_uniform_and_resolve_kinds_and_tries_the_rest(monkeypatch):
    """At a decision of ``uniform_kinds`` rc_greedy takes the tie-break draw among the legal actions
    (``argmax_tiebreak`` of equal values) without sampling a state; at one of ``resolve_kinds``
    (RC-R15 effects, RC-R38 productions, RC-R113 development) the same draw among the decision's own
    options, never ``end`` nor a free action while one is legal; at the other kinds, and at a
    resolve kind with only ``end`` and free actions legal, it samples and tries every action, as
    ``lookahead`` with its weights does, row for row."""
    from strategies.base import argmax_tiebreak
    from strategies.recall import GREEDY_WEIGHTS, RESOLVE_KINDS, UNIFORM_KINDS
    config, content = _setup(3)
    greedy = registry.make("rc_greedy", {}, GAME, content)
    plain = registry.make("lookahead", {"weights": dict(GREEDY_WEIGHTS)}, GAME, content)
    s = _play(GAME.init(config, content, np.arange(60), 8), registry.make("lookahead", {"weights": ZERO}, GAME, content),
              40)
    s = take(s, np.flatnonzero(_live(s)))
    kinds = np.array(st.KIND_NAMES)[s.m[:, st.G_KIND]]
    legal = s.legal.copy()
    own = own_options(s)
    at_resolve = np.flatnonzero(np.isin(kinds, RESOLVE_KINDS) & own.any(axis=1))
    assert s.legal[at_resolve, 0].all()                          # ``end`` was offered beside them
    legal[at_resolve[::3]] &= ~own[at_resolve[::3]]              # only ``end`` and free actions left: tried
    own &= legal
    uniform = np.isin(kinds, UNIFORM_KINDS)
    resolve = np.isin(kinds, RESOLVE_KINDS) & own.any(axis=1)
    untried = uniform | resolve
    assert uniform.any() and resolve.any() and (np.isin(kinds, RESOLVE_KINDS) & ~untried).any(), kinds
    dec = GAME.decider(s)
    srng = StrategyRng(rng.stream_keys(4, s.gid, "strategy"), np.full(s.batch, 40))
    sampled = []
    real_sample = GAME.sample_state
    monkeypatch.setattr(GAME, "sample_state", lambda obs, keys: sampled.append(obs.batch) or real_sample(obs, keys))
    chosen = greedy.act(observe(s, dec), legal, srng)
    assert sampled == [int((~untried).sum())]                    # only the tried rows were sampled
    u = srng.uniform(legal.shape[1])
    np.testing.assert_array_equal(chosen[uniform], argmax_tiebreak(np.zeros(legal.shape), legal, u)[uniform])
    np.testing.assert_array_equal(chosen[resolve], argmax_tiebreak(np.zeros(s.legal.shape), own, u)[resolve])
    assert own[resolve, chosen[resolve]].all()
    tried = np.flatnonzero(~untried)
    np.testing.assert_array_equal(chosen[tried], plain.act(observe(take(s, tried), dec[tried]), legal[tried],
                                                            srng.take(tried)))


def test_rc_greedy_without_untried_kinds_plays_the_lookahead_games():
    """``uniform_kinds = []`` and ``resolve_kinds = []`` try every decision: the compiled games of
    rc_greedy are then those of ``lookahead`` with rc_greedy's weights, final rows equal; with its
    default kinds they are other games."""
    from strategies.generic import LookaheadStrategy
    from strategies.recall import GREEDY_WEIGHTS
    from sim.core.runner import strategy_groups
    config, content = _setup(2)
    ids = np.arange(12)
    keys = np.stack([rng.stream_keys(6, ids, "strategy", k) for k in range(2)])
    ends = []
    for name, params in (("rc_greedy", {"uniform_kinds": [], "resolve_kinds": []}), ("lookahead", {"weights": dict(GREEDY_WEIGHTS)}),
                         ("rc_greedy", {})):
        seats = [registry.make(name, params, GAME, content) for _ in range(2)]
        ends.append(LookaheadStrategy.play_to_end(GAME, GAME.init(config, content, ids, 6), strategy_groups(seats),
                                                  keys, 2))
    np.testing.assert_array_equal(ends[0].m, ends[1].m)
    assert (ends[0].m != ends[2].m).any(axis=1).sum() >= 1       # the default draws at its kinds: other games


def test_rc_greedy_refuses_an_unknown_or_doubled_untried_kind(tmp_path):
    """A decision kind that does not exist, or one in both lists, is refused naming the key and
    what was expected."""
    from sim.core.errors import InputError
    config, content = _setup(2)
    with pytest.raises(InputError) as err:
        registry.make("rc_greedy", {"uniform_kinds": ["move_too"]}, GAME, content, "x.toml", "seats[0]")
    assert "seats[0].params.uniform_kinds" in str(err.value) and "move_to" in str(err.value)
    with pytest.raises(InputError) as err:
        registry.make("rc_greedy", {"resolve_kinds": ["efect"]}, GAME, content, "x.toml", "seats[0]")
    assert "seats[0].params.resolve_kinds" in str(err.value) and "effect" in str(err.value)
    with pytest.raises(InputError) as err:
        registry.make("rc_greedy", {"uniform_kinds": ["dev"]}, GAME, content, "x.toml", "seats[0]")
    assert "seats[0].params.resolve_kinds" in str(err.value) and "['dev']" in str(err.value)
