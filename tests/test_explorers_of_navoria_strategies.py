"""Scripted Explorers of Navoria plans (strategies/explorers_of_navoria.py): they play whole games
with legal actions only, never look at the hidden pile order (model doc "What a player observes"),
take their weights from the experiment file, differ in what they score with, and beat random."""
from __future__ import annotations

import numpy as np
import pytest

from sim.core.errors import InputError
from sim.core.experiment import load_experiment
from sim.core.game import take
from sim.play import make_strategies
from sim.core.runner import play_games
from sim.games.explorers_of_navoria import kernel
from sim.games.explorers_of_navoria import state as st
from sim.games.explorers_of_navoria.config import Config
from sim.games.explorers_of_navoria.game import GAME
from strategies import registry
from strategies.base import StrategyRng

PLANS = ("en_traders", "en_builders", "en_adventurers", "en_artisans", "en_balanced")
_CONTENT = {}


def content_for(config):
    key = repr(config)
    if key not in _CONTENT:
        _CONTENT[key] = GAME.load_content(config)
    return _CONTENT[key]


def make(name, config, params=None):
    return registry.make(name, params or {}, GAME, content_for(config))


def per_slot(out, column, slot):
    ps = out["per_seat"]
    return ps[column][ps["slot"] == slot]


def test_registry_lists_the_plans():
    names = registry.available("explorers_of_navoria")
    assert set(PLANS) | {"random", "lookahead"} <= set(names)
    assert all(registry.strategy_class(n).games == ("explorers_of_navoria",) for n in PLANS)
    assert len({registry.strategy_class(n).group for n in PLANS}) == 1      # one call decides every seat


# ---- whole games, legal actions only ------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_plans_play_whole_games_with_legal_actions(players):
    """Every plan decides every decision kind of real games; each choice is legal (checked here
    and by the engine, which raises on an illegal action)."""
    config = Config(players=players)
    content = content_for(config)
    names = [PLANS[(players + i) % len(PLANS)] for i in range(players)]
    strategies = [make(n, config) for n in names]
    group = type(strategies[0]).group
    n = 60
    s = GAME.init(config, content, np.arange(n), 11)
    kinds_seen = set()
    for step in range(400):
        done = GAME.done(s)
        if done.all():
            break
        live = np.nonzero(~done)[0]
        dec = GAME.decider(s)[live]
        slots = GAME.slot_of(s)[live, dec]
        kinds_seen |= set(GAME.kind(s)[live].tolist())
        sub = take(s, live)
        legal = GAME.legal_actions(sub)
        rng = StrategyRng(np.arange(len(live), dtype=np.uint64) + 5, np.full(len(live), step))
        acts = group.act_group(strategies, slots, GAME.observe(sub, dec), legal, rng)
        assert legal[np.arange(len(live)), acts].all()
        actions = np.zeros(n, dtype=np.int64)
        actions[live] = acts
        s = GAME.step(s, actions)
    assert GAME.done(s).all()
    assert {st.K_RECRUIT, st.K_COLLECT, st.K_TRACK, st.K_GOODS, st.K_ALT} <= kinds_seen
    out = GAME.outcome(s)
    assert np.allclose(out["per_seat"]["win_share"].sum(axis=1), 1)


def test_plans_play_through_the_runner():
    config = Config(players=4)
    strategies = [make(n, config) for n in PLANS[:4]]
    out, ids = play_games(GAME, config, content_for(config), strategies, 3, np.arange(50))
    assert len(ids) == 50 and (out["per_game"]["end_reason"] == "three_rounds").all()


@pytest.mark.parametrize("rules", [
    {"players": 2, "blank_tile_variant": True}, {"players": 3, "dock_placement": "free", "goods_per_kind": 2},
    {"question_mark_split": True, "favour_symbols": 3}, {"cards_per_round": 5, "dock_placement": "free"},
], ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()))
def test_plans_play_the_rule_variants(rules):
    """EN-V1, EN-A11, EN-A12, EN-A15, EN-R107 and EN-R21 switches: whole games, legal actions only."""
    config = Config(**rules)
    strategies = [make(PLANS[(i + 2) % len(PLANS)], config) for i in range(config.players)]
    out, ids = play_games(GAME, config, content_for(config), strategies, 8, np.arange(60))
    assert len(ids) == 60 and (out["per_game"]["end_reason"] == "three_rounds").all()


def test_group_call_equals_each_plan_alone():
    """``act_group`` gives each row the choice its own plan's ``act`` gives (base.Strategy contract)."""
    config = Config(players=4)
    strategies = [make(n, config) for n in PLANS[:4]]
    for s in mid_game_states(config, n=80, seed=4):
        live = np.nonzero(~GAME.done(s))[0]
        s = take(s, live)
        which = np.arange(len(live)) % 4
        obs, legal = GAME.observe(s, GAME.decider(s)), GAME.legal_actions(s)
        rng = StrategyRng(np.arange(len(live), dtype=np.uint64), np.full(len(live), 3))
        together = type(strategies[0]).group.act_group(strategies, which, obs, legal, rng)
        for k, strategy in enumerate(strategies):
            rows = np.nonzero(which == k)[0]
            alone = strategy.act(GAME.observe(take(s, rows), GAME.decider(s)[rows]), legal[rows], rng.take(rows))
            assert np.array_equal(together[rows], alone)


# ---- hidden information -----------------------------------------------------------------------------

def mid_game_states(config, n=100, seed=3, steps=(0, 7, 25, 50, 80, 110, 130)):
    """Snapshots of random games at several steps (every decision kind occurs among them)."""
    content = content_for(config)
    s = GAME.init(config, content, np.arange(n), seed)
    rng = np.random.default_rng(seed)
    snaps = []
    for i in range(max(steps) + 1):
        if i in steps:
            snaps.append(st.copy_state(s))
        legal = GAME.legal_actions(s)
        counts = legal.sum(axis=1)
        rank = np.minimum((rng.random(n) * counts).astype(np.int64), np.maximum(counts - 1, 0))
        s = GAME.step(s, np.argmax(np.cumsum(legal, axis=1) > rank[:, None], axis=1))
    return snaps


def shuffle_hidden(s, seed):
    """The same public position with the cards not yet turned up of every pile in another order."""
    s = st.copy_state(s)
    t = s.t
    rng = np.random.default_rng(seed)
    for b in range(s.batch):
        for c in range(5):
            off, k = int(t.pile_off[c]), int(t.pile_n[c])
            top = int(s.ptop[b, c])
            rest = s.piles[b, off + top:off + k].copy()
            rng.shuffle(rest)
            s.piles[b, off + top:off + k] = rest
    return s


@pytest.mark.parametrize("players", [2, 4])
def test_hidden_pile_order_does_not_change_choices(players):
    """Model doc "What a player observes": only the piles' order is hidden; shuffling the cards
    not yet turned up changes no plan's choice (and no observation)."""
    config = Config(players=players)
    strategies = {n: make(n, config) for n in PLANS}
    strategies["search"] = make("search", config, {"budget": 4})       # its rollouts start from sample_state
    changed = 0
    for k, s in enumerate(mid_game_states(config)):
        live = np.nonzero(~GAME.done(s))[0]
        if not len(live):
            continue
        s = take(s, live)
        shuffled = shuffle_hidden(s, k)
        changed += int((shuffled.piles != s.piles).any())
        legal = GAME.legal_actions(s)
        assert np.array_equal(legal, GAME.legal_actions(shuffled))
        obs_a, obs_b = GAME.observe(s, s.dec), GAME.observe(shuffled, shuffled.dec)
        assert np.array_equal(obs_a.m, obs_b.m) and np.array_equal(obs_a.piles, obs_b.piles)
        for name, strategy in strategies.items():
            rng = StrategyRng(np.arange(len(live), dtype=np.uint64) + 99, np.full(len(live), k))
            a = strategy.act(obs_a, legal, rng)
            b = strategy.act(obs_b, legal, StrategyRng(rng.keys, rng.counter))
            assert np.array_equal(a, b), name
            assert legal[np.arange(len(live)), a].all(), name
    assert changed >= 3                         # the test did shuffle something


def test_choices_do_not_depend_on_future_pile_cards_in_play():
    """The same games with every pile's unseen order shuffled after setup play identically up to
    the first refill (the end of round 1), where the offers really differ."""
    config = Config(players=4, start_player="first_slot")
    strategies = [make(n, config) for n in PLANS[:4]]
    group = type(strategies[0]).group
    a = GAME.init(config, content_for(config), np.arange(64), 21)
    b = shuffle_hidden(a, 1)
    for step in range(200):
        if (a.m[:, st.G_ROUND] > 0).any():
            break
        assert np.array_equal(a.m, b.m)
        dec = GAME.decider(a)
        slots = GAME.slot_of(a)[np.arange(64), np.maximum(dec, 0)]
        rng = StrategyRng(np.arange(64, dtype=np.uint64), np.full(64, step))
        acts_a = group.act_group(strategies, slots, GAME.observe(a, dec), GAME.legal_actions(a), rng)
        acts_b = group.act_group(strategies, slots, GAME.observe(b, dec), GAME.legal_actions(b), rng)
        assert np.array_equal(acts_a, acts_b)
        a, b = GAME.step(a, acts_a), GAME.step(b, acts_b)
    assert step > 20


# ---- parameters from the experiment file -----------------------------------------------------------

EXPERIMENT = """
[experiment]
name = "en_params"
game = "explorers_of_navoria"
games = 4
seed = 1

[config]
players = 4
start_player = "first_slot"

[[seats]]
strategy = "en_balanced"
params = {{ {a} }}

[[seats]]
strategy = "en_balanced"
params = {{ {b} }}

[[seats]]
strategy = "en_traders"

[[seats]]
strategy = "en_artisans"
"""


def load_seats(tmp_path, a, b):
    path = tmp_path / "exp.toml"
    path.write_text(EXPERIMENT.format(a=a, b=b))
    exp = load_experiment(path)
    variant = list(exp.variants)[0]
    return make_strategies(exp, variant, exp.game_module(), exp.content(variant))


def recruit_position(config, drawn=None, centre=None):
    """One game at its first recruit decision, edited: the drawn tokens (after a draw) or the
    city-centre tokens (before drawing); the legal mask is recomputed by the engine's own rule."""
    s = GAME.init(config, content_for(config), np.arange(1), 5)
    g = s.m[0]
    g[st.G_PHASE], g[st.G_KIND] = st.PH_RDEC, st.K_RECRUIT
    g[st.G_DRAWN:st.G_DRAWN + 2] = -1
    g[st.G_CENTRE:st.G_CENTRE + 5] = 0
    if drawn is not None:
        g[st.G_DREW] = 1
        g[st.G_DRAWN:st.G_DRAWN + 2] = drawn
    else:
        g[st.G_DREW] = 0
        for c in centre:
            g[st.G_CENTRE + c] += 1
    kernel.fill_legal(g, s.legal[0], s.t.tab, s.t.C)
    return s


def decide(strategy, s, counter=0):
    rng = StrategyRng(np.array([7], dtype=np.uint64), np.array([counter]))
    return int(strategy.act(GAME.observe(s, GAME.decider(s)), GAME.legal_actions(s), rng)[0])


def test_params_come_from_the_experiment_file(tmp_path):
    seats = load_seats(tmp_path, "bias_traders = 50.0, order = 0", "bias_adventurers = 50, draw = -3.5")
    assert seats[0].params.bias_traders == 50.0 and seats[0].params.order == 0
    assert seats[1].params.bias_adventurers == 50 and seats[1].params.draw == -3.5
    assert seats[2].params.trader > seats[1].params.trader          # the plan's own default
    with pytest.raises(InputError, match=r"seats\[0\].params.bias_trader: unknown key; did you mean 'bias_traders'"):
        load_seats(tmp_path, "bias_trader = 1", "")
    with pytest.raises(InputError, match="fulfil_rate: expected a number >= 0"):
        load_seats(tmp_path, "fulfil_rate = -1", "")


def test_a_weight_changes_the_choice_in_a_hand_made_position(tmp_path):
    """Drawn tokens traders + adventurers: a high trader bias takes a trader, a high adventurer
    bias an adventurer; before drawing, a high ``draw`` weight draws, a low one takes from the centre."""
    config = Config(players=4, start_player="first_slot")
    pos = recruit_position(config, drawn=(0, 3))
    legal = np.nonzero(pos.legal[0])[0]
    assert set(legal) == {1, 2, 3, 10, 11, 12}                      # take:traders:1..3, take:adventurers:1..3
    traders, adventurers = load_seats(tmp_path, "bias_traders = 50", "bias_adventurers = 50")[:2]
    plain = load_seats(tmp_path, "bias_traders = 0", "bias_adventurers = 0")[0]
    a, b, c = decide(traders, pos), decide(adventurers, pos), decide(plain, pos)
    assert 1 <= a <= 3 and 10 <= b <= 12
    assert c in (a, b) and a != b                                   # the weight moved the choice one way
    before = recruit_position(config, centre=(1,))
    assert set(np.nonzero(before.legal[0])[0]) == {0, 4, 5, 6}      # draw, take:builders:1..3
    hi, lo = load_seats(tmp_path, "draw = 100", "draw = -100")[:2]
    assert decide(hi, before) == 0 and decide(lo, before) in (4, 5, 6)


def collect_position(config, turn, order):
    """Round 3, collect turn ``turn`` (0-based) with compass ``order``; the decider (the engine's
    rule: ``order[n-1 - turn % n]``) has empty docks and may take only CB3 (2 points) or CG1 (2 food
    + a good of choice): a trader and an artisan token are left, every other city space is taken."""
    s = GAME.init(config, content_for(config), np.arange(1), 5)
    names = GAME.action_names(content_for(config))
    n = config.players
    g = s.m[0]
    g[st.G_ROUND], g[st.G_PHASE], g[st.G_KIND], g[st.G_TURN] = 2, st.PH_CTURN, st.K_COLLECT, turn
    g[st.G_ORDER:st.G_ORDER + n] = order
    g[st.G_DEC] = order[n - 1 - turn % n]
    g[st.G_CENTRE:st.G_CENTRE + 5] = 0
    g[st.G_PILET:st.G_PILET + 5] = (1, 0, 0, 0, 1)
    g[st.G_CITY:st.G_CITY + 15] = (g[st.G_DEC] + 1) % n
    for space in ("city:CB3", "city:CG1"):
        g[st.G_CITY + names.index(space) - 16] = -1
    kernel.fill_legal(g, s.legal[0], s.t.tab, s.t.C)
    assert [names[a] for a in np.nonzero(s.legal[0])[0]] == ["city:CB3", "city:CG1"]
    return s, names


def test_own_turns_left_do_not_depend_on_the_compass_space():
    """Partial orders fade over the decider's last own turns (``progress_horizon``). The decider's
    own turns left are exact whatever its compass space: with one more own collect turn to come,
    the first and the last collector of a cycle value the goods of CG1 alike (the former count,
    turns left of everyone / n - 1, gave the last collector 1/3 turn and made it take CB3), and on
    its last own turn of the game partial goods are worth nothing (CB3)."""
    config = Config(players=3, start_player="first_slot")
    plan = make("en_balanced", config, {"progress": 3.0})
    picks = {}
    for turn, order in ((6, (1, 2, 0)), (7, (2, 0, 1)), (8, (0, 1, 2))):    # seat 0: 1st, 2nd, 3rd collector
        s, names = collect_position(config, turn, order)                    # one own turn still to come
        assert GAME.decider(s)[0] == 0
        picks[turn] = names[decide(plan, s)]
    assert picks == {6: "city:CG1", 7: "city:CG1", 8: "city:CG1"}, picks
    for turn, order in ((9, (1, 2, 0)), (11, (0, 1, 2))):                   # seat 0's last own turn
        s, names = collect_position(config, turn, order)
        assert names[decide(plan, s)] == "city:CB3"


def relabel_seats(s, perm):
    """The same position with seat p renamed perm[p]: seat blocks moved, seat ids in the compass,
    decider, favour holders and city rewritten."""
    s = st.copy_state(s)
    m0 = s.m.copy()
    for p, q in enumerate(perm):
        s.m[:, st.SEAT0 + q * st.SW:st.SEAT0 + (q + 1) * st.SW] = m0[:, st.SEAT0 + p * st.SW:st.SEAT0 + (p + 1) * st.SW]
    to = np.arange(st.MAXP)
    to[:len(perm)] = perm
    for first, width in ((st.G_DEC, 1), (st.G_ORDER, st.MAXP), (st.G_FHOLD, 8), (st.G_CITY, st.CITY_MAX)):
        v = m0[:, first:first + width]
        s.m[:, first:first + width] = np.where(v >= 0, to[np.maximum(v, 0)], v)
    return s


@pytest.mark.parametrize("players", [3, 4])
def test_choices_do_not_depend_on_seat_numbers(players):
    """Only the position matters, not which seat number holds it: renaming the seats (compass,
    tableaus, markers, city and favour holders moved with them) changes no plan's choice."""
    config = Config(players=players)
    strategies = {n: make(n, config) for n in PLANS}
    perm = np.roll(np.arange(players), 1)
    for k, s in enumerate(mid_game_states(config, n=80, seed=5)):
        live = np.nonzero(~GAME.done(s))[0]
        s = take(s, live)
        other = relabel_seats(s, perm)
        legal = GAME.legal_actions(s)
        assert np.array_equal(GAME.decider(other), perm[GAME.decider(s)])
        for name, strategy in strategies.items():
            rng = StrategyRng(np.arange(len(live), dtype=np.uint64) + 3, np.full(len(live), k))
            a = strategy.act(GAME.observe(s, GAME.decider(s)), legal, rng)
            b = strategy.act(GAME.observe(other, GAME.decider(other)), legal, StrategyRng(rng.keys, rng.counter))
            assert np.array_equal(a, b), name


def test_goods_placement_completes_orders():
    """GOODS decisions: whenever a legal placement fulfils an order, the plans pick one that
    fulfils as many orders as any legal placement does (EN-R94)."""
    config = Config(players=4)
    t = GAME.tables(config, content_for(config))
    plans = [make(n, config) for n in PLANS]
    seen = 0
    hits = dict.fromkeys(PLANS, 0)
    for s in mid_game_states(config, n=300, seed=9, steps=tuple(range(0, 140, 3))):
        rows = np.nonzero(GAME.kind(s) == st.K_GOODS)[0]
        if not len(rows):
            continue
        s = take(s, rows)
        legal = GAME.legal_actions(s)
        dec = GAME.decider(s)
        docks = s.dock[np.arange(len(rows)), dec].astype(int)       # [b, 3 docks, 3 kinds]
        best = np.zeros((len(rows), legal.shape[1]), dtype=int)
        for a in range(64):
            placed = docks.copy()
            for x, k in enumerate(((a >> 4) & 3, (a >> 2) & 3, a & 3)):
                if k:
                    placed[:, x, k - 1] += 1
            n = placed.sum(axis=2)
            full = ((placed[:, 0] == 1).all(axis=1).astype(int) + (n[:, 1] == 4)
                    + ((n[:, 2] == 3) & (placed[:, 2].max(axis=1) == 3)))
            best[:, t.A_GOODS + a] = full
        most = np.where(legal, best, -1).max(axis=1)
        for plan in plans:
            rng = StrategyRng(np.arange(len(rows), dtype=np.uint64), np.zeros(len(rows), dtype=np.int64))
            acts = plan.act(GAME.observe(s, dec), legal, rng)
            got = best[np.arange(len(rows)), acts]
            hits[plan.name] += int((got[most > 0] == most[most > 0]).sum())
        seen += int((most > 0).sum())
    assert seen >= 20
    assert all(h >= 0.95 * seen for h in hits.values()), (hits, seen)


# ---- the plans differ, and play well ---------------------------------------------------------------

@pytest.fixture(scope="module")
def four_plans():
    config = Config(players=4)
    strategies = [make(n, config) for n in PLANS[:4]]                # slots 0..3: traders .. artisans
    out, _ = play_games(GAME, config, content_for(config), strategies, 17, np.arange(200))
    return out


def test_plans_differ_in_outcome(four_plans):
    """Over 200 games each plan gets more of its own aim than the others."""
    out = four_plans
    mean = {c: [per_slot(out, c, k).mean() for k in range(4)] for c in
            ("score_trader_income", "score_soldiers", "score_adventurer_income", "score_orders",
             "en_cards_traders", "en_cards_adventurers", "en_cards_artisans")}
    traders, builders, adventurers, artisans = range(4)
    assert mean["score_trader_income"][traders] > 1.3 * mean["score_trader_income"][artisans]
    assert mean["score_trader_income"][traders] == max(mean["score_trader_income"])
    assert mean["score_soldiers"][builders] == max(mean["score_soldiers"])
    assert mean["score_adventurer_income"][adventurers] == max(mean["score_adventurer_income"])
    assert mean["score_orders"][artisans] == max(mean["score_orders"])
    assert mean["en_cards_artisans"][artisans] == max(mean["en_cards_artisans"])
    posts = [sum(per_slot(out, f"en_posts_{r}", k).mean() for r in ("forest", "desert", "glacier"))
             for k in range(4)]
    assert posts[builders] == max(posts)


@pytest.mark.parametrize("name", PLANS)
def test_each_plan_beats_random(name):
    config = Config(players=2)
    out, _ = play_games(GAME, config, content_for(config), [make(name, config), make("random", config)],
                        23, np.arange(150))
    assert per_slot(out, "win_share", 0).mean() > 0.85


def test_balanced_beats_three_random_players():
    config = Config(players=4)
    strategies = [make("en_balanced", config)] + [make("random", config) for _ in range(3)]
    out, _ = play_games(GAME, config, content_for(config), strategies, 29, np.arange(200))
    assert per_slot(out, "win_share", 0).mean() > 0.8
    assert per_slot(out, "score", 0).mean() > per_slot(out, "score", 1).mean() + 20
