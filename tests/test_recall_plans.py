"""The Recall plans of strategies/recall_plans.py: each beats uniform play at every player count,
and hand-made positions check the draft (RC-S33), path (RC-R184) and goal (RC-R189, RC-E29)
rules of the plans, whose right answers are worked out in each test.

"Random" is uniform play over the compiled rules (the zero-weight lookahead of
tests/test_recall_play.py: uniform among the actions that do not reach a rule not compiled yet).
Games the engine still stops are dropped (analyses/recall_plans.py, as tests/recall_games.py).
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from scipy import stats

from analyses.recall_plans import play_table
from sim.core import rng
from sim.core.errors import InputError
from sim.core.game import take
from sim.core.rng import StrategyRng
from sim.games.recall import state as st
from sim.games.recall.game import GAME
from strategies import registry
from tests.recall_plan_kit import decide, draft_with_display, setup

PLANS = ("rc_knowledge", "rc_artifacts", "rc_builder", "rc_keys")
ZERO = {"final": 0.0, "crystals": 0.0, "keys": 0.0, "tracks": 0.0, "followers": 0.0, "pending": 0.0}
GAMES = {1: 40, 2: 24, 3: 18, 4: 16}          # per plan and player count: a few hundred games in all




def _tally():
    return {"stopped": 0, "games": 0, "held": Counter(), "users": Counter(), "uses": Counter(), "offered": Counter()}


@pytest.mark.parametrize("plan", PLANS)
def test_each_plan_beats_uniform_play_at_every_player_count(plan):
    """With 2-4 players the plan (one seat; the start player is drawn per game, RC-S28) wins more
    than its fair share 1/n by a one-sided binomial test (ties as fractions, RC-E45..E49; the null is
    the mean fair share, conservative for a mix of counts), p < 0.01
    over the player counts' games taken together, and at each count its win share is above 1/n;
    solo (RC-V13) on the same seeds it scores more than uniform play (one-sided Mann-Whitney test,
    p < 0.01) and meets its goals at least as often."""
    wins, fair, games = 0.0, 0.0, 0
    for players in (2, 3, 4):
        config, content = setup(players)
        seats = [registry.make(plan, {}, GAME, content)] + [
            registry.make("lookahead", {"weights": ZERO}, GAME, content) for _ in range(players - 1)]
        names = [plan] + ["uniform"] * (players - 1)
        rows = play_table(config, content, seats, names, 31 + players, np.arange(GAMES[players]), _tally())
        mine = [r["win"] for r in rows if r["plan"] == plan]
        assert len(mine) >= GAMES[players] * 3 // 4, (players, len(mine))
        assert np.mean(mine) > 1 / players, (players, np.mean(mine))
        wins, fair, games = wins + sum(mine), fair + len(mine) / players, games + len(mine)
        print(f"{plan} {players} players: win share {np.mean(mine):.3f} over {len(mine)} games (fair {1 / players:.3f})")
    p = stats.binomtest(int(round(wins)), games, fair / games, alternative="greater").pvalue
    print(f"{plan} 2-4 players: {wins:.1f} wins in {games} games, fair {fair:.1f}, p = {p:.1e}")
    assert p < 0.01, (wins, games, fair, p)

    config, content = setup(1)
    ids = np.arange(GAMES[1])
    by = {}
    for name, seat in ((plan, registry.make(plan, {}, GAME, content)),
                       ("uniform", registry.make("lookahead", {"weights": ZERO}, GAME, content))):
        tally = _tally()
        rows = play_table(config, content, [seat], [name], 41, ids, tally)
        by[name] = rows
    both = min(len(by[plan]), len(by["uniform"]))
    assert both >= GAMES[1] * 3 // 4
    plan_scores = np.array([r["score"] for r in by[plan]])
    uniform_scores = np.array([r["score"] for r in by["uniform"]])
    p = stats.mannwhitneyu(plan_scores, uniform_scores, alternative="greater").pvalue
    print(f"{plan} solo: mean score {plan_scores.mean():.1f} vs {uniform_scores.mean():.1f} (p = {p:.1e}), goals met "
          f"{np.mean([r['win'] for r in by[plan]]):.2f} vs {np.mean([r['win'] for r in by['uniform']]):.2f}")
    assert p < 0.01 and plan_scores.mean() > uniform_scores.mean(), (plan_scores.mean(), uniform_scores.mean(), p)
    assert np.mean([r["win"] for r in by[plan]]) >= np.mean([r["win"] for r in by["uniform"]])


# ---- hand-made decisions -------------------------------------------------------------------------------



def _opt(s, i: int) -> int:
    return s.t.action_names.index(f"opt:{i}")


def test_draft_takes_the_pair_the_plan_values_most_RC_S33():
    """The first draft decision (seat n-1 picks first, RC-S33) with a hand-set display: pairs
    (Dorian, Pouch), (Ion, Map), (Zendeling, Horn), (Hayla, Boots), (J'He, Keyring). rc_builder's
    table: Zendeling 3 + Horn 2 = 5 is its best (the others less): pair 2.
    rc_keys: J'He 3 + Keyring 3 = 6 (Ion 2.5 + Map 1 = 3.5 next): pair 4. rc_artifacts: Hayla 3 +
    Boots 2.5 = 5.5: pair 3. The lookahead sees no difference between the pairs (nothing is
    scored by a tribe yet), so the tables decide."""
    content, s = draft_with_display(4)
    for plan, pair in (("rc_builder", 2), ("rc_keys", 4), ("rc_artifacts", 3)):
        got = decide(registry.make(plan, {}, GAME, content), s)
        assert (got == _opt(s, pair)).all(), (plan, got)
    # the table is the experiment file's to set: Dorian worth most makes rc_keys take pair 0
    got = decide(registry.make("rc_keys", {"tribes": {"Dorian": 20.0}}, GAME, content), s)
    assert (got == _opt(s, 0)).all()


def _play_until(players: int, kind: int, seed: int, games: int = 6):
    """States of games played by uniform play (over the compiled rules) until their first ``kind`` decision."""
    config, content = setup(players)
    uniform = registry.make("lookahead", {"weights": ZERO}, GAME, content)
    s = GAME.init(config, content, np.arange(games), seed)
    out = []
    for d in range(3000):
        k = s.m[:, st.G_KIND]
        hit = np.flatnonzero(k == kind)
        if len(hit):
            out.append(take(s, hit))
        keep = np.flatnonzero((k != kind) & (k != st.K_DONE) & (k != st.K_STOP))
        if not len(keep):
            break
        s = take(s, keep)
        srng = StrategyRng(rng.stream_keys(seed, s.gid, "strategy"), np.full(s.batch, d))
        s = GAME.step(s, uniform.act(GAME.observe(s, GAME.decider(s)), s.legal, srng))
    assert out, f"no {kind} decision reached"
    first = out[0]
    return first, content


def test_path_choice_takes_the_card_of_the_plan_RC_R184():
    """The first path space (RC-R184: sector 1 offers path positions 0 and 1). The decider's
    tracks and artifacts set to 0, so neither card scores anything now (knowledge counts track
    points, ambition artifacts), the same dark token beside both positions (its reward comes
    with either); positions 0, 1 hold the Path of
    Ambition (PM) and the Path of Knowledge (PK). rc_knowledge (PK +3) takes opt:1, rc_artifacts
    (PM +4) opt:0; with the cards swapped each takes the other option."""
    s, content = _play_until(2, st.K_PATH, 9)
    card = {c.id: i for i, c in enumerate(content.path_cards)}
    me = GAME.decider(s)
    for b in range(s.batch):
        for col, n in ((st.P_TRK, 3), (st.P_ARTS, 4)):
            c = st.seat_col(int(me[b]), col)
            s.m[b, c:c + n] = 0
        assert (s.m[b, st.seat_col(int(me[b]), st.P_PATHS):st.seat_col(int(me[b]), st.P_PATHS) + 3] == -1).all()
    s.m[:, st.G_DARK + 1] = s.m[:, st.G_DARK]             # the same dark token beside both (RC-S3)
    for order, knowledge, artifacts in ((("PM", "PK"), 1, 0), (("PK", "PM"), 0, 1)):
        path = s.m[:, st.G_PATH:st.G_PATH + 6]
        for pos, cid in enumerate(order):
            other = np.argmax(path == card[cid], axis=1)          # keep the six positions a permutation
            path[np.arange(s.batch), other] = path[:, pos]
            path[:, pos] = card[cid]
        assert (path[:, :2] == [card[order[0]], card[order[1]]]).all()
        assert (decide(registry.make("rc_knowledge", {}, GAME, content), s) == _opt(s, knowledge)).all()
        assert (decide(registry.make("rc_artifacts", {}, GAME, content), s) == _opt(s, artifacts)).all()


def test_goal_choice_keeps_the_card_it_meets_RC_R189_RC_E29():
    """The goal round (RC-R189: discard one of two, keep the other; RC-E29: 15 points if met). The
    decider holds GC1 (2 artifacts of one colour) and GC9 (3 monuments) and has 3 white artifacts
    and no monument: GC1 is met (chance 1), GC9 needs three monuments in the 9 rounds left
    (rule 4: P(Poisson(9 x 0.05) >= 3) < 1%), so discarding GC9 (its bottom reward R:1) keeps
    15 points and discarding GC1 (a chest) about none: rc_artifacts discards GC9, whichever place
    the cards have."""
    s, content = _play_until(2, st.K_GOAL, 4)
    goal = {g.id: i for i, g in enumerate(content.goal_cards)}
    me = GAME.decider(s)
    plan = registry.make("rc_artifacts", {}, GAME, content)
    for order, discard in ((("GC1", "GC9"), 1), (("GC9", "GC1"), 0)):
        for b in range(s.batch):
            p = int(me[b])
            c = st.seat_col(p, st.P_ARTS)
            s.m[b, c:c + 4] = [3, 0, 0, 0]
            s.m[b, st.seat_col(p, st.P_MON)] = 0
            s.m[b, st.seat_col(p, st.P_BLD):st.seat_col(p, st.P_BLD) + st.F_MAX] = 0
            s.hidden[b, st.H_GOALS + 3 * p:st.H_GOALS + 3 * p + 3] = [goal[order[0]], goal[order[1]], -1]
        assert (decide(plan, s) == _opt(s, discard)).all(), order


def test_unknown_table_keys_are_refused_naming_the_key():
    """A tribe id that is not in tribes.csv (and a goal kind that does not exist) is an InputError
    naming ``params.tribes`` / ``params.goals`` and what was expected."""
    config, content = setup(2)
    with pytest.raises(InputError, match=r"params\.tribes: unknown \['Dorien'\]"):
        registry.make("rc_builder", {"tribes": {"Dorien": 1.0}}, GAME, content)
    with pytest.raises(InputError, match=r"params\.goals: unknown \['stone'\]"):
        registry.make("rc_keys", {"goals": {"stone": 0.5}}, GAME, content)


def _goal_position(players: int, arts, held, rnd: int):
    """(state, goal ids) of one game: seat 0 with artifacts ``arts`` (per colour), no monument, the goal
    cards ``held`` (ids), in round ``rnd`` (0-based)."""
    config, content = setup(players)
    s = GAME.init(config, content, np.arange(1), 5)
    goal = {g.id: i for i, g in enumerate(content.goal_cards)}
    c = st.seat_col(0, st.P_ARTS)
    s.m[0, c:c + 4] = arts
    s.m[0, st.seat_col(0, st.P_MON)] = 0
    s.m[0, st.G_ROUND] = rnd
    s.hidden[0, st.H_GOALS:st.H_GOALS + 3] = [goal[g] for g in held] + [-1] * (3 - len(held))
    return s, content


# rc_artifacts with only these rates: artifacts 0.1 a round (no fit), monuments none
RATES = {"goals": {"artifacts_one_colour": 0.0, "artifact_colours": 0.0},
         "goal_rates": {"artifacts_one_colour": 0.1, "artifact_colours": 0.1, "monuments": 0.0}}


def test_goal_chance_is_a_threshold_on_what_is_missing_RC_E29_RC_E30():
    """Rule 4's value (``recall_kernel.goal_chance``): goal points (15, RC-E29) x P(Poisson(rate x
    rounds left) >= what is missing) of the better held card. Seat 0 holds GC2 (3 artifacts of one
    colour, RC-E30) and GC9 (3 monuments, rate 0: never): in round 1 of 17 with 2 white artifacts
    that is 15 x (1 - e^-1.7); with 3 or 5 it is met, 15; holding GC9 alone (after the goal round,
    RC-R190: only the kept card), 0. In the last round the third artifact is worth more than ten
    times the first (the last missing component much, the first little)."""
    value = lambda arts, held, rnd: float(plan._goal_chance(_goal_position(2, arts, held, rnd)[0], [0])[0])  # noqa: E731
    config, content = setup(2)
    plan = registry.make("rc_artifacts", RATES, GAME, content)
    np.testing.assert_allclose(value([2, 0, 0, 0], ["GC2", "GC9"], 0), 15 * (1 - np.exp(-1.7)))
    assert value([3, 0, 0, 0], ["GC9", "GC2"], 0) == 15.0 == value([5, 0, 0, 0], ["GC2"], 12)
    assert value([5, 0, 0, 0], ["GC9"], 0) == 0.0
    last = [value([a, 0, 0, 0], ["GC2"], 16) for a in range(4)]
    assert last[3] - last[2] > 10 * (last[1] - last[0]) > 0, last


def test_solo_goal_chance_needs_both_cards_with_separate_components_RC_V13_RC_V15():
    """Solo (RC-V13: both kept cards met; RC-V15: a component counts for one card only): GC1 (2
    artifacts of one colour) and GC3 (3 colours) with artifacts 2 white, 1 red, 1 blue: each card is
    met alone, but both need 5 artifacts: one is missing, 15 x (1 - e^-(0.1 x 17)); with a third
    white, both met: 15. GC1 with GC9 (monuments, rate 0): 0 however many artifacts; of three held
    cards (before the goal round, RC-A54) the best pair counts."""
    config, content = setup(1)
    plan = registry.make("rc_artifacts", RATES, GAME, content)
    value = lambda arts, held: float(plan._goal_chance(_goal_position(1, arts, held, 0)[0], [0])[0])  # noqa: E731
    np.testing.assert_allclose(value([2, 1, 1, 0], ["GC1", "GC3"]), 15 * (1 - np.exp(-1.7)))
    assert value([3, 1, 1, 0], ["GC3", "GC1"]) == 15.0
    assert value([3, 1, 1, 0], ["GC1", "GC9"]) == 0.0
    assert value([3, 1, 1, 0], ["GC1", "GC9", "GC3"]) == 15.0


def test_goal_steps_count_a_share_of_a_prepared_component_RC_E37_RC_E40():
    """Rule 4's steps (``recall_kernel.prepared``, Param ``goal_steps``): a share of the next
    component counts as gained once it is prepared, the chance interpolated between what is missing
    and one less. GC8 (4 sanctuaries, RC-E37) with 3 built, rate 0.1 a round, round 1 of 17: missing
    one, 15 x (1 - e^-1.7) = 15 p; with a follower on a free sanctuary site (RC-R116, RC-R119,
    RC-R124: only a development action missing) 15 x (p + 0.5 (1 - p)). GC11 (3 old tribes, RC-E40)
    with 2 unlocked: the third track's steps towards its fifth space (RC-R169) count the share x
    steps / fifth; with ``goal_steps`` 0 neither counts."""
    from sim.games.recall.kernel.common import C_FIFTH, C_T_TBLD
    from sim.games.recall.kernel.dev import DEV_SANCT
    config, content = setup(2)
    rates = {"goals": {"sanctuaries": 0.0, "old_tribes": 0.0}, "goal_rates": {"sanctuaries": 0.1, "old_tribes": 0.1}}
    plan = registry.make("rc_builder", rates, GAME, content)
    flat = registry.make("rc_builder", {**rates, "goal_steps": {"sanctuaries": 0.0, "old_tribes": 0.0}}, GAME, content)
    p = 1 - np.exp(-1.7)
    s, _ = _goal_position(2, [0, 0, 0, 0], ["GC8"], 0)
    s.m[0, st.seat_col(0, st.P_SANCT)] = 0b111
    site = next(f for f in range(s.m[0, st.G_NF])
                if s.t.tab[s.t.C[C_T_TBLD] + s.m[0, st.F_TERR + f]] == DEV_SANCT)
    value = lambda who: float(who._goal_chance(s, [0])[0])  # noqa: E731
    np.testing.assert_allclose(value(plan), 15 * p)
    s.m[0, st.seat_col(0, st.P_FOL) + site] = 1
    np.testing.assert_allclose(value(plan), 15 * (p + 0.5 * (1 - p)))
    np.testing.assert_allclose(value(flat), 15 * p)
    s, _ = _goal_position(2, [0, 0, 0, 0], ["GC11"], 0)
    fifth = int(s.t.C[C_FIFTH])
    s.m[0, st.seat_col(0, st.P_UNLOCK):st.seat_col(0, st.P_UNLOCK) + 3] = [1, 1, 0]
    s.m[0, st.seat_col(0, st.P_TRK):st.seat_col(0, st.P_TRK) + 3] = [fifth, fifth, fifth - 1]
    np.testing.assert_allclose(value(plan), 15 * (p + 0.5 * (fifth - 1) / fifth * (1 - p)))
    np.testing.assert_allclose(value(flat), 15 * p)


def test_solo_goal_round_keeps_the_pair_it_can_meet_RC_A54_RC_V15():
    """Solo goal round (RC-A54: discard 1 of 3, keep 2, both to be met): holding GC1, GC3 and GC9
    with 2 white, 1 red and 1 blue artifact and no monument, keeping GC1 + GC3 needs one artifact
    more, any pair with GC9 three monuments (rate 0 here): rc_artifacts discards GC9 wherever it
    lies (its bottom reward R:1 against a chest or F:2 + W:1 does not outweigh the goal)."""
    s, content = _play_until(1, st.K_GOAL, 4)
    goal = {g.id: i for i, g in enumerate(content.goal_cards)}
    plan = registry.make("rc_artifacts", RATES, GAME, content)
    for order in (("GC1", "GC3", "GC9"), ("GC9", "GC1", "GC3"), ("GC3", "GC9", "GC1")):
        for b in range(s.batch):
            c = st.seat_col(0, st.P_ARTS)
            s.m[b, c:c + 4] = [2, 1, 1, 0]
            s.m[b, st.seat_col(0, st.P_MON)] = 0
            s.m[b, st.seat_col(0, st.P_BLD):st.seat_col(0, st.P_BLD) + st.F_MAX] = 0
            s.hidden[b, st.H_GOALS:st.H_GOALS + 3] = [goal[g] for g in order]
        assert (decide(plan, s) == _opt(s, order.index("GC9"))).all(), order


def test_the_round_robin_experiment_loads_with_the_four_plans_and_the_baseline():
    """experiments/recall_plans.toml: 4 players, the four plans in [[seats]], the plans and
    rc_greedy as [[entrants]] (5 tables of 4), a small default game count."""
    from analyses.recall_plans import tables_of
    from sim.core.experiment import load_experiment
    from tests.scaffold import ROOT

    exp = load_experiment(ROOT / "experiments/recall_plans.toml")
    assert exp.variants["base"].players == 4 and [s.strategy for s in exp.seats] == list(PLANS)
    assert [e.strategy for e in exp.entrants] == list(PLANS) + ["rc_greedy"]
    assert len(tables_of(exp.entrants, 4)) == 5 and exp.games <= 100


# ---- the compiled plans (strategies/recall_kernel.py PLAN seats) ----------------------------------------

@pytest.mark.parametrize("players, seats, games", [
    (4, list(PLANS), 3),
    (2, ["rc_builder", "rc_greedy"], 4),
    (3, ["rc_keys", "random", "rc_knowledge"], 3),
    (1, ["rc_artifacts"], 4),
    (1, ["rc_builder"], 3),              # solo with monuments in its goal fit (rule 4's monument step)
])
def test_compiled_plans_choose_as_the_runner_loop(players, seats, games, monkeypatch):
    """``play_to_end`` with plan seats (the kernel's ``_plan_values``, goal decisions too) plays the games of the runner's step-by-step loop (``_Plan._choose``) decision for decision: the
    same final (or stopped) state, game by game, beside rc_greedy and random seats and solo; and the
    runner takes that path (``play_batch`` called)."""
    from sim.core.runner import play_games, strategy_groups
    from strategies import recall_kernel
    from strategies.generic import LookaheadStrategy
    from tests.test_recall_play import _live, _loop_to_end
    config, content = setup(players)
    strategies = [registry.make(name, {}, GAME, content) for name in seats]
    seed, ids = 8, np.arange(50, 50 + games)
    keys = np.stack([rng.stream_keys(seed, ids, "strategy", k) for k in range(players)])
    fast = LookaheadStrategy.play_to_end(GAME, GAME.init(config, content, ids, seed), strategy_groups(strategies), keys,
                                         players)
    assert fast is not None, "the compiled path refused the plans"
    slow, _ = _loop_to_end(strategies, config, content, seed, ids)
    assert not _live(fast).any()
    for name in ("m", "hidden", "legal"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(slow, name), err_msg=name)
    calls = []
    play = recall_kernel.play_batch
    monkeypatch.setattr(recall_kernel, "play_batch", lambda *a: calls.append(1) or play(*a))
    play_games(GAME, config, content, strategies, seed, ids[:2], seating="fixed")
    assert calls, "the runner did not take the compiled path"


def test_a_plan_without_goal_play_plays_the_loop_s_games_compiled():
    """Param ``goal`` = 0 (no goal cards' chance, rule 4, on any position) is compiled too: rc_artifacts
    with ``goal = 0`` beside rc_greedy, the same final states either way."""
    from sim.core.runner import strategy_groups
    from strategies.generic import LookaheadStrategy
    from tests.test_recall_play import _loop_to_end
    config, content = setup(2)
    strategies = [registry.make("rc_artifacts", {"goal": 0.0}, GAME, content),
                  registry.make("rc_greedy", {}, GAME, content)]
    seed, ids = 2, np.arange(3)
    keys = np.stack([rng.stream_keys(seed, ids, "strategy", k) for k in range(2)])
    fast = LookaheadStrategy.play_to_end(GAME, GAME.init(config, content, ids, seed), strategy_groups(strategies),
                                         keys, 2)
    slow, _ = _loop_to_end(strategies, config, content, seed, ids)
    for name in ("m", "hidden", "legal"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(slow, name), err_msg=name)


def test_round_robin_counts_the_same_in_compiled_play(monkeypatch):
    """analyses/recall_plans.py ``play_table`` on the compiled path (activations and offers counted in
    the kernel) gives the rows and the tally of its step-by-step loop."""
    import analyses.recall_plans as rr
    config, content = setup(2)
    seats = [registry.make("rc_artifacts", {}, GAME, content), registry.make("random", {}, GAME, content)]
    names = ["rc_artifacts", "random"]
    fast_tally, slow_tally = _tally(), _tally()
    fast = rr.play_table(config, content, seats, names, 12, np.arange(4), fast_tally)
    monkeypatch.setattr(rr, "compiled_play", lambda *a: None)
    slow = rr.play_table(config, content, seats, names, 12, np.arange(4), slow_tally)
    assert fast_tally["games"] >= 2 and sum(fast_tally["offered"].values()) > 0
    key = lambda r: (r["plan"], r["score"], r["win"], r["keys"], r["tracks"])  # noqa: E731
    assert sorted(fast, key=key) == sorted(slow, key=key)
    assert fast_tally == slow_tally
