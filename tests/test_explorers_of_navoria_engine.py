"""The Explorers of Navoria engine: the spec's worked examples X1-X4, X6, X7 on the engine,
invariants over random games, batch independence, hidden pile order, the runner end to end.

Hand-made positions: ``position()`` sets up a batch, then a test writes state columns
(``state.py`` layout) and ``engine.advance`` runs to the next decision. Helpers here are used by
test_explorers_of_navoria_rules.py too.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.core import rng
from sim.core.game import IllegalActionError, get_game, take
from sim.games.explorers_of_navoria import engine, kernel
from sim.games.explorers_of_navoria import state as st
from sim.games.explorers_of_navoria.config import Config
from sim.games.explorers_of_navoria.game import GAME
from sim.games.explorers_of_navoria.observe import observe, sample_state
from strategies.base import choose_uniform
from tests.scaffold import experiment_template, replay_stored, rows, write_experiment

FOREST, DESERT, GLACIER = 0, 1, 2
TRADERS, BUILDERS, SOLDIERS, ADVENTURERS, ARTISANS = range(5)
W_, M_, F_ = 0, 1, 2


def tables(**cfg):
    config = Config(**cfg)
    return GAME.tables(config, GAME.load_content(config))


def position(n=1, seed=3, **cfg):
    """A set-up batch (before round 1's first turn), to be edited and ``advance``d."""
    return engine.setup(tables(**cfg), np.arange(n), seed)


def card(t, cid: str) -> int:
    return t.card_ids.index(cid)


def space(t, sid: str) -> int:
    return t.city_ids.index(sid)


def sc(p: int, off: int) -> int:
    """Column of a seat field."""
    return st.SEAT0 + p * st.SW + off


def give(s, b, p, *cids):
    """Lay cards in seat p's tableau (counters and favour check as when recruited)."""
    t = s.t
    for cid in cids:
        kernel.enter_tableau(s.m[b], t.tab, t.C, p, card(t, cid))


def recruit_position(s, p, offers, drawn=None, centre=None):
    """Seat p's recruit decision: ``offers`` {colour: [card ids]} (others emptied), the drawn
    tokens (colours) or the city centre's tokens."""
    t = s.t
    m = s.m
    m[:, st.G_OFFER:st.G_OFFER + 15] = -1
    for c, ids in offers.items():
        for i, cid in enumerate(ids):
            m[:, st.G_OFFER + 3 * c + i] = card(t, cid)
    m[:, st.G_PHASE] = st.PH_RDEC
    m[:, st.G_DEC] = p
    m[:, st.G_DRAWN:st.G_DRAWN + 2] = -1
    m[:, st.G_DREW] = 0
    m[:, st.G_CENTRE:st.G_CENTRE + 5] = 0
    if drawn is not None:
        m[:, st.G_DREW] = 1
        for i, c in enumerate(drawn):
            m[:, st.G_DRAWN + i] = c
    for c in centre or ():
        m[:, st.G_CENTRE + c] += 1
    return engine.advance(s)


def act(s, name):
    """Step every game of the batch with the named action."""
    a = GAME.action_names(s.t.content).index(name)
    assert s.legal[:, a].all(), f"{name} not legal: kinds {s.kind}"
    return GAME.step(s, np.full(s.batch, a))


def legal_names(s, b=0):
    names = GAME.action_names(s.t.content)
    return [names[a] for a in np.nonzero(s.legal[b])[0]]


def play_random(config, n, seed=1, check=None):
    """Play n games with uniform random choices; ``check(state)`` after every step."""
    content = GAME.load_content(config)
    s = GAME.init(config, content, np.arange(n), seed)
    steps = 0
    while not GAME.done(s).all():
        live = ~GAME.done(s)
        legal = GAME.legal_actions(s)
        assert (legal[live].sum(axis=1) >= 2).all(), "a decision was asked with fewer than two legal actions"
        assert not legal[~live].any()
        u = rng.uniform(rng.stream_keys(seed, s.gid, "test"), steps)
        s = GAME.step(s, choose_uniform(legal, u))
        steps += 1
        if check is not None:
            check(s)
    return s


# ---- randomness and setup ---------------------------------------------------------------------

def test_kernel_uniform_equals_sim_core_rng():
    keys = rng.stream_keys(5, np.arange(50), "bag")
    for k in (0, 1, 7, 200):
        expect = rng.uniform(keys, k)
        got = np.array([kernel.uniform(keys[i], k) for i in range(50)])
        assert np.array_equal(expect, got)


def test_setup_keyed_draws_EN_S7_EN_S9_EN_S10_EN_S18():
    """Piles = permutations keyed ("piles", c) over the colour's cards in file order; offers = top 3;
    favour tiles perm[0..3] on spaces 0..3; start slot integers(key "start")."""
    t = tables(players=3)
    s = engine.setup(t, np.arange(20), 9)
    content = t.content
    for c in range(5):
        cards = np.array(content.pile(c))
        perm = rng.permutations(rng.stream_keys(9, np.arange(20), "piles", c), len(cards))
        off = t.pile_off[c]
        assert (s.piles[:, off:off + len(cards)] == cards[perm]).all()
        assert (s.offer[:, c] == cards[perm][:, :3]).all()
    perm = rng.permutations(rng.stream_keys(9, np.arange(20), "favour"), t.T)
    assert (s.ftile[:, list(content.favour_space_people)] == perm[:, :4]).all()
    assert (s.start_slot == rng.integers(rng.stream_keys(9, np.arange(20), "start"), 0, 3)).all()
    assert (s.bag[:, :] == 3).all() and (s.pleft == 9).all()


# ---- worked examples ----------------------------------------------------------------------------

def test_X1_income_traders_and_adventurers_EN_R39_EN_R62_EN_R63_EN_R77_EN_R82_EN_R83():
    s = position(players=3)
    t = s.t
    g = s.m[0]
    give(s, 0, 0, "BL01", "BL03", "BL10", "RE05", "YE08", "GR05", "PU04", "PU10")
    g[sc(0, st.P_SCORE)] = 40
    g[sc(0, st.P_MARK):sc(0, st.P_MARK) + 3] = (5, 2, 6)
    kernel.income(g, t.tab, t.C)
    assert s.comp[0, 0, st.C_TRADER] == 14
    assert s.comp[0, 0, st.C_ADVENTURER] == 8
    assert s.score[0, 0] - s.comp[0, 0, st.C_EXPLORATION] == 62


@pytest.mark.parametrize("players,expect", [(4, [7, 9, 9, 11]), (3, [10, 9, 11])])
def test_X2_exploration_rewards_with_ties_EN_R41_to_EN_R47_EN_A23(players, expect):
    s = position(players=players)
    t = s.t
    marks = {0: (5, 4, 3), 1: (5, 6, 0), 2: (3, 6, 3), 3: (0, 6, 7)}
    for p in range(players):
        s.m[0, sc(p, st.P_MARK):sc(p, st.P_MARK) + 3] = marks[p]
    kernel.income(s.m[0], t.tab, t.C)
    assert s.comp[0, :players, st.C_EXPLORATION].tolist() == expect
    assert s.score[0, :players].tolist() == expect


@pytest.mark.parametrize("posts,gain", [(2, 9), (1, 7)])
def test_X3_order_with_uncovered_rewards_EN_R16_EN_R17_EN_R85_EN_R88_EN_R97_EN_A12_EN_A13_EN_A14(posts, gain):
    s = position(players=4)
    g = s.m[0]
    give(s, 0, 0, "GR01", "GR04", "GR07")
    g[sc(0, st.P_POSTS + FOREST)] = posts
    g[sc(0, st.P_DOCK) + 3 * FOREST + W_] = 1
    g[sc(0, st.P_DOCK) + 3 * FOREST + M_] = 1
    g[sc(0, st.P_DOCKN) + FOREST] = 2
    g[sc(0, st.P_DOCK) + 3 * DESERT + F_] = 2
    g[sc(0, st.P_DOCKN) + DESERT] = 2
    g[sc(0, st.P_MARK) + FOREST] = 4
    recruit_position(s, 0, {ARTISANS: ["GR03", "GR09"]}, drawn=[ARTISANS, ARTISANS])
    assert s.kind[0] == st.K_RECRUIT
    before = int(s.score[0, 0])
    act(s, "take:artisans:1")
    assert s.kind[0] == st.K_GOODS
    assert sorted(legal_names(s)) == ["goods:-FW", "goods:-WF", "goods:F-W", "goods:FW-"]
    act(s, "goods:F-W")
    assert int(s.score[0, 0]) - before == gain
    assert s.marker[0, 0, FOREST] == 5
    assert s.dock[0, 0].tolist() == [[0, 0, 0], [0, 0, 2], [1, 0, 0]]
    assert s.fulfilled[0, 0, FOREST] == 1
    assert s.ncol[0, 0, ARTISANS] == 4                  # GR03 in the tableau after the effect
    assert s.centre[0, ARTISANS] == 1                   # the other drawn token (EN-R11)


def test_X4_treasure_with_extra_step_then_again_EN_R78_EN_R103_to_EN_R106_EN_R34_EN_R49_EN_A25():
    s = position(players=4)
    t = s.t
    g = s.m[0]
    g[sc(1, st.P_MARK) + DESERT] = 9
    g[sc(1, st.P_POSTS) + DESERT] = 2
    recruit_position(s, 1, {ADVENTURERS: ["PU04", "PU01"]}, centre=[ADVENTURERS])
    act(s, "take:adventurers:1")                         # PU04: desert, 2 steps
    assert s.comp[0, 1, st.C_TREASURE] == 8 and s.marker[0, 1, DESERT] == 10
    # collect: B takes CR2 (2 weapons AND 1 step of choice)
    g[st.G_PHASE] = st.PH_CTURN
    g[st.G_TURN] = 0
    g[st.G_PILET:st.G_PILET + 5] = 0
    g[st.G_PILET + SOLDIERS] = 1
    g[st.G_PILET + TRADERS] = 1
    g[st.G_ORDER:st.G_ORDER + 4] = (0, 2, 3, 1)          # B collects first (last on the compass)
    engine.advance(s)
    assert s.kind[0] == st.K_COLLECT and s.dec[0] == 1
    act(s, "city:CR2")
    assert s.kind[0] == st.K_GOODS
    act(s, "goods:W-W")
    assert s.kind[0] == st.K_TRACK
    act(s, "track:desert")
    assert s.comp[0, 1, st.C_TREASURE] == 12 and s.marker[0, 1, DESERT] == 10
    assert s.fulfilled[0, 1].tolist() == [0, 0, 0]
    kernel.return_phase(g, s.piles[0], t.tab, t.C)
    assert s.marker[0, 1, DESERT] == 5


def test_X6_turn_order_after_a_round_EN_R53_EN_R54_EN_R7_EN_R25():
    s = position(players=4)
    t = s.t
    g = s.m[0]
    A, B, C, D = 0, 1, 2, 3
    g[st.G_ORDER:st.G_ORDER + 4] = (A, B, C, D)
    for p, v in zip((A, B, C, D), (30, 34, 30, 34)):
        g[sc(p, st.P_SCORE)] = v
    kernel.return_phase(g, s.piles[0], t.tab, t.C)
    order = s.order[0].tolist()
    assert order == [B, D, A, C]
    assert [order[i % 4] for i in range(12)] == [B, D, A, C] * 3
    assert [order[3 - i % 4] for i in range(12)] == [C, A, D, B] * 3


def test_X7_three_goods_at_once_restricted_docks_EN_R36_EN_R90_EN_R92_to_EN_R96_EN_A12_EN_A13():
    s = position(players=4)
    g = s.m[0]
    base = sc(0, st.P_DOCK)
    g[base + 3 * FOREST + F_] = 1
    g[base + 3 * DESERT + W_] = 1
    g[base + 3 * DESERT + M_] = 1
    g[base + 3 * GLACIER + F_] = 2
    g[sc(0, st.P_DOCKN):sc(0, st.P_DOCKN) + 3] = (1, 2, 2)
    g[st.G_PHASE] = st.PH_CTURN
    g[st.G_PILET + ARTISANS] = 1
    g[st.G_PILET + TRADERS] = 1
    g[st.G_ORDER:st.G_ORDER + 4] = (1, 2, 3, 0)
    engine.advance(s)
    act(s, "city:CG1")
    assert s.kind[0] == st.K_GOODS
    assert sorted(legal_names(s)) == ["goods:MFF", "goods:WFF"]
    act(s, "goods:WFF")
    assert s.score[0, 0] == 4 and s.comp[0, 0, st.C_ORDERS] == 4
    assert s.marker[0, 0, GLACIER] == 1
    assert s.dock[0, 0].tolist() == [[1, 0, 1], [1, 1, 1], [0, 0, 0]]
    assert s.fulfilled[0, 0, GLACIER] == 1


# ---- invariants over random games ------------------------------------------------------------

def _conservation(s):
    t = s.t
    n = t.P
    tokens = int(t.C[kernel.C_TOKENS])
    city = (s.city[:, :t.S] >= 0).sum(axis=1)
    drawn = (s.drawn >= 0).sum(axis=1)
    total = s.bag.sum(axis=1) + s.centre.sum(axis=1) + s.pilet.sum(axis=1) + city + drawn
    assert (total == 5 * tokens).all(), "tokens not conserved"
    in_play = (s.offer >= 0).sum(axis=2) + s.ncol[:, :n].sum(axis=1) + s.disc + s.pleft
    in_play[s.phase == st.PH_REFFECT, :] += 0
    effect = s.phase == st.PH_REFFECT                    # the card being recruited is in no zone
    in_play[effect, t.card_colour[s.card[effect].astype(np.int64)]] += 1
    assert (in_play == t.pile_n[None, :]).all(), "cards not conserved"
    assert (s.dock >= 0).all() and (s.marker >= 0).all()
    assert (s.score[:, :n] == s.comp[:, :n].sum(axis=2)).all()
    assert (s.dockn == s.dock.sum(axis=3)).all()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_over_random_games(players):
    """Cards and tokens conserved, goods >= 0, score == sum of its components, every asked decision
    has >= 2 legal actions, every game ends after 3 rounds with (recruit + collect) turns."""
    cfg = Config(players=players)
    s = play_random(cfg, 1000, seed=players, check=_conservation)
    out = GAME.outcome(s)
    seat = out["per_seat"]
    comps = sum(seat[c] for c in st.COMPONENTS)
    assert (comps == seat["score"]).all()
    nrec = cfg.recruits_per_round * players
    assert (out["per_game"]["turns"] == 2 * 3 * nrec).all()
    assert np.allclose(seat["win_share"].sum(axis=1), 1)
    assert (seat["score"] > 0).mean() > 0.9
    assert ((seat["en_cards_traders"] + seat["en_cards_builders"] + seat["en_cards_soldiers"]
             + seat["en_cards_adventurers"] + seat["en_cards_artisans"]) == 3 * cfg.recruits_per_round).all()


@pytest.mark.parametrize("cfg", [dict(players=2, blank_tile_variant=True, dock_placement="free"),
                                 dict(players=3, question_mark_split=True, goods_per_kind=4),
                                 dict(players=4, favour_symbols=3, cards_per_round=4, start_player="first_slot")])
def test_invariants_with_switches(cfg):
    play_random(Config(**cfg), 500, seed=5, check=_conservation)


def test_every_decision_kind_occurs():
    kinds = set()

    def seen(s):
        kinds.update(np.unique(s.kind).tolist())
    play_random(Config(players=4), 300, seed=2, check=seen)
    assert kinds == {-1, 0, 1, 2, 3, 4}


# ---- batch independence, hidden information --------------------------------------------------

def _play_ids(ids, seed=4):
    config = Config(players=4)
    content = GAME.load_content(config)
    s = GAME.init(config, content, np.asarray(ids), seed)
    steps = np.zeros(len(ids), dtype=np.int64)
    keys = rng.stream_keys(seed, np.asarray(ids), "pick")
    while not GAME.done(s).all():
        live = ~GAME.done(s)
        u = rng.uniform(keys, steps)
        s = GAME.step(s, choose_uniform(GAME.legal_actions(s), u))
        steps += live
    return GAME.outcome(s)["per_seat"]["score"]


def test_results_do_not_depend_on_batch_composition():
    ids = np.arange(40)
    whole = _play_ids(ids)
    rev = _play_ids(ids[::-1])[::-1]
    part = _play_ids(ids[10:20])
    alone = _play_ids(ids[7:8])
    assert (whole == rev).all() and (whole[10:20] == part).all() and (whole[7:8] == alone).all()


def test_observation_hides_pile_order():
    """Two states that differ only in the order of the unseen pile cards observe the same."""
    config = Config(players=3)
    content = GAME.load_content(config)
    s = GAME.init(config, content, np.arange(30), 8)
    for _ in range(40):
        s = GAME.step(s, choose_uniform(s.legal, rng.uniform(np.arange(30, dtype=np.uint64), _)))
    other = take(s, np.arange(30))
    t = s.t
    perm_rng = np.random.default_rng(0)
    for b in range(30):
        for c in range(5):
            off, k, top = int(t.pile_off[c]), int(t.pile_n[c]), int(s.ptop[b, c])
            seg = other.piles[b, off + top:off + k].copy()
            other.piles[b, off + top:off + k] = perm_rng.permutation(seg)
    assert not np.array_equal(other.piles, s.piles)
    o1, o2 = observe(s, s.dec), observe(other, other.dec)
    assert np.array_equal(o1.m, o2.m) and np.array_equal(o1.piles, o2.piles)
    for b in range(30):                                  # the unseen part in ascending order
        for c in range(5):
            off, k, top = int(t.pile_off[c]), int(t.pile_n[c]), int(s.ptop[b, c])
            assert o1.piles[b, off:off + top].tolist() == s.piles[b, off:off + top].tolist()
            assert o1.piles[b, off + top:off + k].tolist() == sorted(s.piles[b, off + top:off + k].tolist())
    assert not o1.m.flags.writeable


def test_sample_state_is_consistent_with_the_observation():
    config = Config(players=4)
    content = GAME.load_content(config)
    s = GAME.init(config, content, np.arange(50), 8)
    for i in range(60):
        s = GAME.step(s, choose_uniform(s.legal, rng.uniform(np.arange(50, dtype=np.uint64), i)))
    obs = observe(s, s.dec)
    x = sample_state(obs, np.arange(50, dtype=np.uint64) + 99)
    assert np.array_equal(x.m, s.m) and np.array_equal(x.legal, s.legal)
    assert np.array_equal(np.sort(x.piles, axis=1), np.sort(s.piles, axis=1))
    assert np.array_equal(observe(x, x.dec).piles, obs.piles)
    vals = GAME.position_value(x, x.dec.clip(0), {})
    assert np.isfinite(vals).all()


# ---- speed and the runner ----------------------------------------------------------------------

def test_registered_and_contract():
    g = get_game("explorers_of_navoria")
    assert g is GAME
    config = Config(players=2)
    content = g.load_content(config)
    assert g.num_actions(content) == 105 == len(g.action_names(content))
    s = g.init(config, content, np.arange(3), 1)
    assert g.kind(s).tolist() == [0, 0, 0]
    assert g.slot_of(s).shape == (3, 2)


def _first_legal(s):
    return np.argmax(s.legal, axis=1)


def test_step_refuses_an_illegal_action_naming_game_decision_and_action():
    """The contract's legal mask: an action outside it raises (sim.core.game.check_legal) with
    the game index, the decision kind and the action, before any game of the batch moves."""
    config = Config(players=3)
    s = GAME.init(config, GAME.load_content(config), np.arange(20, 23), 1)
    names = GAME.action_names(s.t.content)
    goods = names.index("goods:W-F")
    assert GAME.kind(s).tolist() == [st.K_RECRUIT] * 3 and not s.legal[:, goods].any()
    before = st.copy_state(s)
    actions = _first_legal(s)
    actions[1] = goods
    with pytest.raises(IllegalActionError, match=rf"game 21, decision round 1 turn 1, recruit of seat 0: action {goods} \(goods:W-F\)"):
        GAME.step(s, actions)
    for f in ("m", "piles", "legal", "bag_key"):
        assert np.array_equal(getattr(s, f), getattr(before, f)), f
    for bad in (-1, len(names)):
        actions[1] = bad
        with pytest.raises(IllegalActionError, match=rf"game 21, decision round 1 turn 1, recruit of seat 0: action {bad} is not legal"):
            GAME.step(s, actions)


def test_step_ignores_the_action_of_a_finished_game():
    config = Config(players=2)
    s = GAME.init(config, GAME.load_content(config), np.arange(2), 1)
    s.m[0, st.G_PHASE], s.m[0, st.G_KIND] = st.PH_DONE, st.K_DONE
    s.legal[0] = False
    over, live = s.m[0].copy(), s.m[1].copy()
    actions = _first_legal(s)
    actions[0] = -1
    GAME.step(s, actions)
    assert np.array_equal(s.m[0], over) and not np.array_equal(s.m[1], live)


def test_runner_run_and_replay(tmp_path):
    """Random play through ``python -m sim run`` (one row per game and seat) and ``replay``."""
    exp = write_experiment(tmp_path, experiment_template("en_tiny", "explorers_of_navoria", ["random"] * 3))
    rep = replay_stored(tmp_path, exp, "en_tiny", game=5)
    df = rows(tmp_path / "r" / "en_tiny")
    assert df.height == 180 and set(df["game"].to_list()) == set(range(60))
    assert "takes" in rep.stdout and "game over" in rep.stdout
