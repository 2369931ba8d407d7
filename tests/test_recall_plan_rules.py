"""The Recall plans' rules for the custom draft (RC-V2..V5), old tribes (RC-S36, RC-V6/V7),
Dorian (RC-R210..R214), rule 4's steps and rule 7's trades and upgrades (RC-R24, RC-R25, RC-R72,
RC-R230): hand-set positions whose choice is worked out from the plans' tables
(strategies/recall_plans.py), and short seeded games."""
from __future__ import annotations

import numpy as np
import pytest

from sim.core import rng
from sim.games.recall import state as st
from sim.games.recall.game import GAME
from sim.games.recall.kernel import common as cm
from sim.games.recall.kernel import dev
from strategies import recall_kernel as rk
from strategies import registry
from tests.recall_plan_kit import decide, draft_with_display, own_options, setup


def test_custom_draft_takes_the_element_the_tables_value_most_RC_V2_RC_V4():
    """Custom draft (RC-V2: one element, tribe ``opt:i`` or item ``opt:5+i``), display tribes
    (Dorian, Ion, Zendeling, Hayla, J'He), items (Pouch, Map, Horn, Boots, Keyring). An element is
    worth its table value plus its lead over the best other of its kind. rc_keys: J'He 3 + (3 - 2.5)
    = 3.5, Keyring 3 + (3 - 1.5) = 4.5: Keyring (opt:9). rc_builder: Zendeling 3 + 3 = 6 against
    Horn 2 + 2 = 4: Zendeling (opt:2) (the lookahead's own values of the elements differ by less
    than these margins here). Then (RC-V4) a seat that holds a tribe may take only an item: rc_keys takes Keyring."""
    content, s = draft_with_display(4, tribe_draft="custom")
    opt = lambda i: s.t.action_names.index(f"opt:{i}")  # noqa: E731
    assert s.legal[:, [opt(i) for i in range(10)]].all()
    for plan, pick in (("rc_keys", 9), ("rc_builder", 2)):
        got = decide(registry.make(plan, {}, GAME, content), s)
        assert (got == opt(pick)).all(), (plan, got)
    seat = st.SEAT0 + GAME.decider(s)[0] * st.SW
    s.m[:, seat + st.P_TRIBE] = [t.id for t in content.tribes].index("Ion")
    s.legal[:, [opt(i) for i in range(5)]] = False
    got = decide(registry.make("rc_keys", {}, GAME, content), s)
    assert (got == opt(9)).all(), got


def test_steps_to_an_old_tribe_are_worth_its_table_value_or_the_mean_RC_S36_RC_A68():
    """Rule 6 (``recall_kernel._unlock_value``): steps towards a track's fifth space (RC-R169: the
    old tribe unlocked) are worth the plan's draft value of that tribe x steps / 5 when the viewer
    sees it (RC-V6), else the mean value of the tribes it may be (no seat's tribe, no visible old
    tribe, RC-A68); no step or a track already unlocked, no value."""
    config, content = setup(2)
    s = GAME.init(config, content, np.arange(1), 5)
    fifth = int(s.t.C[rk.C_FIFTH])
    assert fifth == 5
    names = [t.id for t in content.tribes]
    tribe_v = np.array([{"Goliath": 3.0, "Lexander": 2.5, "Hayla": -1.0}.get(x, 0.0) for x in names] + [0.0])
    og = s.m[0].copy()
    own = st.SEAT0
    og[st.SEAT0 + st.P_TRIBE] = names.index("Hayla")
    og[st.SEAT0 + st.SW + st.P_TRIBE] = names.index("Ion")
    og[st.G_OLD_TRIBE:st.G_OLD_TRIBE + 3] = [names.index("Goliath"), -1, names.index("Lexander")]
    og[own + st.P_UNLOCK:own + st.P_UNLOCK + 3] = 0
    og[own + st.P_TRK:own + st.P_TRK + 3] = [3, 0, 1]
    sg, tg = og.copy(), og.copy()
    assert rk._unlock_value(og, sg, tg, own, tribe_v, fifth) == 0.0
    tg[own + st.P_TRK] = 5                       # two steps to Goliath: 3 x 2 / 5
    assert abs(rk._unlock_value(og, sg, tg, own, tribe_v, fifth) - 1.2) < 1e-12
    tg[own + st.P_TRK] = 3
    tg[own + st.P_TRK + 1] = 1                   # hidden: 14 - 2 seats' - 2 visible = 10 tribes, all 0
    assert rk._unlock_value(og, sg, tg, own, tribe_v, fifth) == 0.0
    og[st.G_OLD_TRIBE + 2] = -1                  # Lexander not visible either: (2.5 + 10 x 0) / 11 / 5
    assert abs(rk._unlock_value(og, sg, tg, own, tribe_v, fifth) - 2.5 / 11 / 5) < 1e-12
    sg[own + st.P_UNLOCK + 1] = 1                # already unlocked: nothing
    assert rk._unlock_value(og, sg, tg, own, tribe_v, fifth) == 0.0


def test_known_old_tribes_change_rc_knowledge_s_games_RC_V6():
    """RC-V6 shows the old tribes at the start; rule 6 values them, so rc_knowledge (which values
    Goliath, Lexander, Zendeling) plays some of 6 seeded 2-player games against rc_greedy otherwise
    than with hidden old tribes (before rule 6 the games were identical: docs/findings.md Q6)."""
    from analyses.recall_plans import play_table
    rows = {}
    for known in (False, True):
        config, content = setup(2, known_old_tribes=known)
        seats = [registry.make("rc_knowledge", {}, GAME, content), registry.make("rc_greedy", {}, GAME, content)]
        tally = {"stopped": 0, "games": 0, "held": {}, "users": {}, "uses": {}, "offered": {}}
        from collections import Counter
        tally = {k: (Counter() if isinstance(v, dict) else v) for k, v in tally.items()}
        rows[known] = [(r["plan"], r["score"]) for r in play_table(config, content, seats, ["k", "g"], 3, np.arange(6), tally)]
    assert rows[False] != rows[True]


def test_a_plan_holding_dorian_places_a_pig_farm_at_each_activation_RC_R210():
    """Dorian's ability is compiled (kernel/pigs.py) and legal whenever it is payable, also when no
    grain field fits (RC-R210: then it does nothing, its cost paid). rc_builder made to draft it
    (``tribes`` Dorian 20, a Dorian pair set on each display, the pairs draft RC-S33) in 16 seeded
    2-player games against rc_greedy: every activation it chooses places a farm (activations of the
    holder = farms, in games where only it holds Dorian), and it places some. Without goal play
    (``goal = 0``): with it the plan places 1 farm in these games, too few to read rule 2 from."""
    from sim.core.runner import strategy_groups
    from strategies.generic import LookaheadStrategy
    config, content = setup(2)
    strategies = [registry.make("rc_builder", {"tribes": {"Dorian": 20.0}, "goal": 0.0}, GAME, content),
                  registry.make("rc_greedy", {}, GAME, content)]
    seed, ids = 4, np.arange(16)
    keys = np.stack([rng.stream_keys(seed, ids, "strategy", k) for k in range(2)])
    dorian = [t.id for t in content.tribes].index("Dorian")
    s = GAME.init(config, content, ids, seed)
    ab = s.t.ability_names.index("Dorian")
    display = s.m[:, st.G_TRIBE_DISP:st.G_TRIBE_DISP + 3]
    display[(display != dorian).all(axis=1), 0] = dorian      # a Dorian pair on every display
    s = LookaheadStrategy.play_to_end(GAME, s, strategy_groups(strategies), keys, 2)
    rows = np.arange(len(ids))
    mine = st.SEAT0 + ((0 - s.m[:, st.G_START_SLOT]) % 2) * st.SW     # the seat of slot 0 (rc_builder)
    other = st.SEAT0 + ((1 - s.m[:, st.G_START_SLOT]) % 2) * st.SW
    only = (s.m[rows, mine + st.P_OWN + ab] == 1) & (s.m[rows, other + st.P_OWN + ab] == 0)
    assert only.sum() >= 8, only
    acts, farms = s.m[rows, mine + st.P_ACTS + ab][only], s.m[only, st.G_FARMS]
    np.testing.assert_array_equal(acts, farms)
    assert farms.sum() >= 2, farms


def test_an_activation_that_changes_nothing_is_never_chosen_RC_R61_RC_R64():
    """Rule 2 (``recall_kernel._no_effect``): an activation whose trial (after rule 5's continuation)
    leaves the player's seat and board pieces as they were, but for its cost (skill stones, RC-R61,
    RC-R64), gets no bonus: it is ``WASTED``. At the first main decision of 4 games the decider is given
    Lexander (UPC:1, upgrade a crystal) and 3 skill stones: with no white or red crystal there is
    nothing to upgrade, so ``use:Lexander`` is wasted and not chosen; with 2 white crystals it
    upgrades one, a real option (above ``WASTED``) with the activation bonus on top, for any draw of
    the continuation's tie-break (its ``crystal`` step values an upgrade above ``end``, rule 7)."""
    from tests.test_recall_plans import _play_until
    s, content = _play_until(2, st.K_MAIN, 6, games=4)
    lex = s.t.ability_names.index("Lexander")
    use = s.t.action_names.index("use:Lexander")
    me = GAME.decider(s)
    plan = registry.make("rc_keys", {}, GAME, content)
    for white, wasted in ((0, True), (2, False)):
        for b in range(s.batch):
            own = st.SEAT0 + int(me[b]) * st.SW
            s.m[b, own + st.P_OWN + lex] = 1
            s.m[b, own + st.P_USES + lex] = 0
            s.m[b, own + st.P_SKILL] = 3
            s.m[b, own + st.P_CR:own + st.P_CR + 3] = [white, 0, 1]
        s.m[:, st.G_RECHARGED] = 0
        s.legal[:, use] = True                         # payable (RC-R61): owned, 3 stones for a cost of 1
        obs = GAME.observe(s, me)
        for u in (0.25, 0.5, 0.75):                   # rule 5's steps upgrade whatever their tie-break (rule 7)
            values = plan._values(obs, s.legal, np.full(s.batch, u), [plan], np.zeros(s.batch, dtype=np.int64))
            assert ((values[:, use] == rk.WASTED) == wasted).all(), (white, u, values[:, use])
        if wasted:
            assert (decide(plan, s) != use).all()


def test_ending_field_a_s_sale_or_purchase_costs_no_pending_item_RC_R24_RC_R25():
    """Field A's removal (RC-R25: any number of followers, 1 white crystal each, then stop) and its
    purchase (RC-R24: at most one option, or none) are optional loops that ``end`` closes at no loss.
    Replays showed the plans selling followers one more at a time and then buying followers back in
    the same turn: the decision inside the item counted as a pending item (weight ``pending``), so
    ``end`` cost 0.5. At the first ``sell`` and ``buy`` decisions of uniform games the pending count
    (``value.components``) is the same before and after ``end``."""
    from sim.games.recall import value
    from tests.test_recall_plans import _play_until
    for kind, seed in ((st.K_SELL, 11), (st.K_BUY, 12)):
        s, content = _play_until(2, kind, seed, games=8)
        end = s.t.action_names.index("end")
        assert s.legal[:, end].all()
        before = value.components(s)["pending"]             # before the step: it changes ``s`` in place
        after = GAME.step(s, np.full(s.batch, end))
        assert (after.m[:, st.G_KIND] != kind).all()
        np.testing.assert_array_equal(before, value.components(after)["pending"])


def _bare_row(players: int = 2):
    """(row, C, tab, seat base) of a game just set up, seat 0 with no followers on the map, no
    crystals, no building and every area tile face down but the start tile (slot 0), for
    ``recall_kernel.prepared`` on hand-placed pieces. Fields used (the default map, asserted):
    5 sanctuary on slot 0 next to camps 59 (slot 8, camp 1) and 64 (slot 9, camp 5); 73 sanctuary
    on slot 10; 84 a pre-printed monument field (no tile)."""
    config, content = setup(players)
    s = GAME.init(config, content, np.arange(1), 5)
    g, C, tab = s.m[0].copy(), s.t.C, s.t.tab
    base = st.SEAT0
    g[base + st.P_FOL:base + st.P_FOL + st.F_MAX] = 0
    g[base + st.P_CR:base + st.P_CR + 3] = 0
    g[base + st.P_BLD:base + st.P_BLD + st.F_MAX] = 0
    g[st.G_UP + 1:st.G_UP + 12] = 0
    terrain_building = lambda f: tab[C[cm.C_T_TBLD] + g[st.F_TERR + f]]  # noqa: E731
    assert [terrain_building(f) for f in (5, 73, 84)] == [dev.DEV_SANCT, dev.DEV_SANCT, dev.DEV_MONUMENT]
    assert [g[st.F_CAMP + f] for f in (59, 64)] == [1, 5] and [tab[C[cm.C_T_FSLOT] + f] for f in (5, 73, 84)] == [0, 10, -1]
    return g, C, tab, base


def test_a_sanctuary_or_monument_one_development_action_away_is_prepared_RC_R124_RC_R126_RC_R138_RC_A22():
    """Rule 4's steps for sanctuaries (GC8, RC-E37: 4, RC-A34) and monuments (GC9, RC-E38: 3): one follower on
    a sanctuary field is enough (follower cost 1 alone there, RC-R119; no crystals, RC-R126) until
    all sanctuaries are built (RC-R127); a monument field needs the next monument's crystals too
    (RC-R138, RC-A22: the first W:1, the second R:1; one white crystal does not convert to red):
    with one of the two a monument is half prepared (``_monument_half``), with none of them 0."""
    g, C, tab, base = _bare_row()
    sanct = lambda: rk.prepared(g, 0, rk.GK_SANCT, C, tab, 0.5)  # noqa: E731
    mon = lambda: rk.prepared(g, 0, rk.GK_MON, C, tab, 0.5)      # noqa: E731
    assert sanct() == 0.0 and mon() == 0.0
    g[base + st.P_FOL + 73] = 1
    g[st.G_UP + 10] = 1
    assert sanct() == 1.0
    g[base + st.P_SANCT] = (1 << int(C[cm.C_NSANCT])) - 1             # none left on the board
    assert sanct() == 0.0
    g[base + st.P_CR] = 1
    assert mon() == 0.5                                                # W:1 in hand, no follower on a site
    g[base + st.P_CR] = 0
    g[base + st.P_FOL + 84] = 1
    assert mon() == 0.5                                                # on the site, no crystal for W:1
    g[base + st.P_CR] = 1
    assert mon() == 1.0
    g[base + st.P_MON] = 1                                             # the second costs R:1
    assert mon() == 0.5
    g[base + st.P_CR:base + st.P_CR + 2] = [0, 1]
    assert mon() == 1.0
    g[base + st.P_MON] = int(C[cm.C_NMON])                             # all built: nothing to prepare
    assert mon() == 0.0


def test_a_workshop_one_development_action_away_is_a_key_card_step_RC_R130_RC_R133_RC_R136_RC_E39():
    """Key cards (GC10, RC-E39: 7 key cards): a workshop brings the key card of its terrain's colour
    (RC-R133), if the offer still has one (RC-R136). A follower on a workshop field of the start
    tile, crystals for its cost: prepared; that colour's offer emptied (yellow stacks 0, green and
    grey displays -1): not; no follower: not."""
    g, C, tab, base = _bare_row()
    fields = [f for f in range(7) if tab[C[cm.C_T_TBLD] + g[st.F_TERR + f]] == dev.DEV_WORKSHOP]
    assert fields, "a workshop field on the start tile"
    keys = lambda: rk.prepared(g, 0, rk.GK_KEYS, C, tab, 0.5)  # noqa: E731
    g[base + st.P_CR:base + st.P_CR + 3] = 3
    assert keys() == 0.0
    g[base + st.P_FOL + fields[0]] = 1
    assert keys() == 1.0
    g[st.G_YELLOW:st.G_YELLOW + 4] = 0
    g[st.G_GREEN:st.G_GREEN + 3] = -1
    g[st.G_GREY:st.G_GREY + 3] = -1
    assert keys() == 0.0


def test_a_building_next_to_an_unrewarded_camp_is_a_camp_step_RC_R144_RC_R145_RC_E41():
    """Camps (GC12, RC-E41: 3 different camps): a follower on sanctuary field 5 prepares a camp when a
    face-up camp next to it has not rewarded the seat yet (RC-R144, RC-R145): camps 59 and 64 lie
    on face-down tiles (nothing), then 64 face up (1), its reward had (0), 59 face up (1)."""
    g, C, tab, base = _bare_row()
    camps = lambda: rk.prepared(g, 0, rk.GK_CAMPS, C, tab, 0.5)  # noqa: E731
    g[base + st.P_FOL + 5] = 1
    assert rk.prepared(g, 0, rk.GK_SANCT, C, tab, 0.5) == 1.0 and camps() == 0.0
    g[st.G_UP + 9] = 1
    assert camps() == 1.0
    g[base + st.P_CAMPS] = 1 << 5
    assert camps() == 0.0
    g[st.G_UP + 8] = 1
    assert camps() == 1.0


def test_a_building_on_a_tile_without_an_own_building_is_an_area_step_RC_E42():
    """Area tiles (GC13, RC-E42: buildings on 6 different tiles): a follower on sanctuary field 73
    (tile of slot 10) prepares a tile while the seat has no building on that tile (fields 70..76);
    a workshop of its own on field 72 takes it away, one on the start tile (field 2) does not."""
    g, C, tab, base = _bare_row()
    areas = lambda: rk.prepared(g, 0, rk.GK_AREAS, C, tab, 0.5)  # noqa: E731
    g[base + st.P_FOL + 73] = 1
    g[st.G_UP + 10] = 1
    assert areas() == 1.0
    g[base + st.P_BLD + 72] = 1 + dev.DEV_WORKSHOP
    assert areas() == 0.0
    g[base + st.P_BLD + 72] = 0
    g[base + st.P_BLD + 2] = 1 + dev.DEV_WORKSHOP
    assert areas() == 1.0


def test_the_old_tribe_step_is_the_furthest_locked_track_s_share_of_five_RC_R169_RC_E40():
    """Old tribes (GC11, RC-E40: all three unlocked): the step is the furthest track not yet unlocked
    over the fifth space that unlocks it (RC-R169): tracks 3, 0, 1 -> 3/5; track 0 unlocked -> 1/5;
    all unlocked -> 0. Other kinds have no step."""
    g, C, tab, base = _bare_row()
    g[base + st.P_UNLOCK:base + st.P_UNLOCK + 3] = 0
    g[base + st.P_TRK:base + st.P_TRK + 3] = [3, 0, 1]
    assert rk.prepared(g, 0, rk.GK_OLD, C, tab, 0.5) == 0.6
    g[base + st.P_UNLOCK] = 1
    assert rk.prepared(g, 0, rk.GK_OLD, C, tab, 0.5) == 0.2
    g[base + st.P_UNLOCK:base + st.P_UNLOCK + 3] = 1
    assert rk.prepared(g, 0, rk.GK_OLD, C, tab, 0.5) == 0.0
    from sim.games.recall.content_types import GOAL_KINDS
    assert rk.prepared(g, 0, GOAL_KINDS.index("stones"), C, tab, 0.5) == 0.0


def test_a_prepared_component_counts_its_goal_steps_share_RC_E29_RC_R189():
    """Rule 4's chance with steps (``_card_chance``): one sanctuary missing, lam expected, a share
    s of it prepared: P(X >= 1) + s x (1 - P(X >= 1)); nothing prepared: P(X >= 1) = 1 - exp(-lam)."""
    g, C, tab, base = _bare_row()
    lam = 0.4
    p = 1.0 - np.exp(-lam)
    assert abs(rk._card_chance(g, 0, rk.GK_SANCT, 1, lam, 0.5, 0.5, C, tab) - p) < 1e-12
    g[base + st.P_FOL + 73] = 1
    g[st.G_UP + 10] = 1
    assert abs(rk._card_chance(g, 0, rk.GK_SANCT, 1, lam, 0.5, 0.5, C, tab) - (p + 0.5 * (1 - p))) < 1e-12
    assert abs(rk._card_chance(g, 0, rk.GK_SANCT, 1, lam, 0.0, 0.5, C, tab) - p) < 1e-12


def test_monument_precondition_is_the_share_of_each_precondition_RC_R137_RC_R138_RC_E38():
    """Param ``monument_precondition`` (default 0.5) is ``_monument_half``'s share per precondition in
    place (a follower on a free monument field, RC-R137, RC-R139; the next monument's crystals,
    RC-R138): 0.25 on the hand-placed follower of field 84 alone; the plan passes it to rule 4:
    GC9 (3 monuments, RC-E38) with 2 built, monuments 0.1 a round, round 1 of 17, goal_steps 0.5:
    15 x (p + 0.5 x share x (1 - p)), p = 1 - e^-1.7. Outside 0..0.5 it is refused."""
    from sim.core.errors import InputError
    from tests.test_recall_plans import _goal_position
    g, C, tab, base = _bare_row()
    g[base + st.P_FOL + 84] = 1
    assert rk.prepared(g, 0, rk.GK_MON, C, tab, 0.25) == 0.25
    assert rk.prepared(g, 0, rk.GK_MON, C, tab, 0.5) == 0.5
    config, content = setup(2)
    rates = {"goals": {"monuments": 0.0}, "goal_rates": {"monuments": 0.1}}
    s, _ = _goal_position(2, [0, 0, 0, 0], ["GC9"], 0)
    s.m[0, st.seat_col(0, st.P_FOL):st.seat_col(0, st.P_FOL) + st.F_MAX] = 0
    s.m[0, st.seat_col(0, st.P_CR):st.seat_col(0, st.P_CR) + 3] = 0
    s.m[0, st.seat_col(0, st.P_MON)] = 2
    s.m[0, st.seat_col(0, st.P_FOL) + 84] = 3
    p = 1 - np.exp(-1.7)
    for share in (0.5, 0.25, 0.0):
        plan = registry.make("rc_builder", {**rates, "monument_precondition": share}, GAME, content)
        np.testing.assert_allclose(plan._goal_chance(s, [0])[0], 15 * (p + 0.5 * share * (1 - p)))
    assert registry.make("rc_builder", {}, GAME, content).params.monument_precondition == 0.5
    with pytest.raises(InputError, match="monument_precondition"):
        registry.make("rc_builder", {"monument_precondition": 0.6}, GAME, content)


def test_a_plan_never_buys_followers_it_sells_in_the_same_turn_RC_R23_RC_R24_RC_R25():
    """Rule 7 (``recall_kernel._trade_bonus``): field A's purchase (RC-R24) and sale (RC-R25) change
    nothing in the value (a follower and a white crystal both weigh 0.4 and one leftover equivalent),
    so a purchase tied with ``end`` and the tie-break bought 3 followers that the sale then sold
    back (experiments/recall_plans_solo.toml game 2, round 1: 3 bought, 7 sold). Now every follower
    traded costs a little, a tie stops and a sale is valued once closed: in that game and three
    more no turn both buys and sells."""
    from sim.core.experiment import load_experiment
    from sim.core.runner import play_games
    from strategies.registry import make_seats
    exp = load_experiment("experiments/recall_plans_solo.toml")
    variant = next(iter(exp.variants))
    config, content = exp.variants[variant], exp.content(variant)
    strategies = make_seats(exp, variant, GAME, content)
    end = GAME.init(config, content, np.arange(1), exp.seed).t.action_names.index("end")
    turn = {}

    def hook(before, after, actions):
        for b in range(before.batch):
            key = (int(before.gid[b]), int(before.m[b, st.G_ROUND]), int(before.m[b, st.G_ACTIVE]))
            kind, a = int(before.m[b, st.G_KIND]), int(actions[b])
            if (kind == st.K_BUY and a != end) or kind == st.K_SELL_COUNT:
                turn.setdefault(key, set()).add(kind)
    play_games(GAME, config, content, strategies, exp.seed, np.arange(4), on_step=hook, seating=exp.seating)
    assert not [key for key, did in turn.items() if len(did) == 2], turn


def test_a_sale_is_valued_once_closed_so_none_goes_past_the_crystal_cap_RC_R25_RC_R73():
    """Rule 7 (``recall_kernel._closed_sale``): a trial of a sale still inside field A's loop (RC-R25)
    does not reach the turn's end, where the crystal cap (RC-R73: 6 of a kind) takes what was sold
    past it, but the trial of ``end`` does; so one more sale looked better than stopping (a replay
    of experiments/recall_plans_solo.toml game 1 sold 14 followers one at a time up to 20 white
    crystals). At the first ``sell`` decision(s) reached in 8 uniform games, the decider given 6
    white crystals: a sale is valued once closed and the plan stops (``end``; on main it tied)."""
    from tests.test_recall_plans import _play_until
    s, content = _play_until(2, st.K_SELL, 11, games=8)
    end = s.t.action_names.index("end")
    me = GAME.decider(s)
    for b in range(s.batch):
        s.m[b, st.seat_col(int(me[b]), st.P_CR)] = 6
    plan = registry.make("rc_knowledge", {}, GAME, content)
    assert (s.legal.sum(axis=1) > 1).all()                     # a field to sell from, and end
    values = plan._values(GAME.observe(s, me), s.legal, np.full(s.batch, 0.5), [plan], np.zeros(s.batch, dtype=np.int64))
    others = np.where(s.legal, values, -np.inf)
    others[:, end] = -np.inf
    assert (values[:, end] > others.max(axis=1)).all(), values[:, end] - others.max(axis=1)
    assert (decide(plan, s) == end).all()


def test_an_upgrade_is_taken_and_a_lexander_holder_upgrades_to_purple_RC_R72_RC_R229_RC_R230():
    """Rule 7 at ``crystal`` (upgrade one crystal, RC-R72): an upgrade keeps every crystal and adds a
    white-crystal equivalent (RC-E26), a third of a leftover point the value's rounding hides, so it
    is valued above ``end`` (replay experiments/recall_plans.toml game 2: rc_knowledge, Lexander,
    took its upgrade and then chose ``end``, all three valued the same). A holder of Lexander's
    permanent effect (RC-R230: 1 point and 1 white crystal per purple crystal paid) upgrades red to
    purple; without it both upgrades are worth the same. At the first ``crystal`` decision(s)
    reached in 6 uniform games, the decider given 2 white and 1 red crystal."""
    from tests.test_recall_plans import _play_until
    s, content = _play_until(2, st.K_CRYSTAL, 5, games=6)
    lex = s.t.ability_names.index("Lexander")
    end, w_r, r_p = (s.t.action_names.index(x) for x in ("end", "opt:0", "opt:1"))
    me = GAME.decider(s)
    plan = registry.make("rc_knowledge", {}, GAME, content)
    for holder in (True, False):
        for b in range(s.batch):
            own = st.SEAT0 + int(me[b]) * st.SW
            s.m[b, own + st.P_CR:own + st.P_CR + 3] = [2, 1, 0]
            s.m[b, own + st.P_OWN + lex] = int(holder)
        s.legal[:, [w_r, r_p]] = True
        values = plan._values(GAME.observe(s, me), s.legal, np.full(s.batch, 0.5), [plan], np.zeros(s.batch, dtype=np.int64))
        skip = np.where(s.legal[:, end], values[:, end], -np.inf)
        assert (values[:, w_r] > skip).all() and (values[:, r_p] > skip).all(), values[:, [end, w_r, r_p]]
        if holder:
            assert (decide(plan, s) == r_p).all()
        else:
            np.testing.assert_allclose(values[:, w_r], values[:, r_p])


# ---- rule 8: the solo game (RC-V13..V15, RC-A54) ---------------------------------------------------

def _first_field(g, C, tab, test):
    return next(f for f in range(int(g[st.G_NF])) if test(f))


def test_a_skill_stone_or_an_artifact_one_step_away_is_a_solo_step_RC_R151_RC_R99_RC_E32_RC_E34_RC_E35():
    """Rule 8's steps for the resource cards (``prepared``, solo only through ``solo_steps``). Stones:
    an own follower on an excavation site of the start tile holding 3 stones, one white crystal (RC-R151,
    RC-R152: 3 stones on the site cost W:1): prepared for 5 stones (RC-E35) and, while the seat lacks a
    colour there, for one of each colour (RC-E34); with one of each colour owned only for 5 stones;
    without the crystal for neither. Artifacts: an artifact of colour c on a neighbouring field that the
    group can pay (RC-R101) is one move away: prepared for different colours (RC-E32) while the seat has
    no artifact of c, and for one colour (RC-E30) while c is a colour it has most of."""
    g, C, tab, base = _bare_row()
    stone3, stones = rk.GK_STONE3, rk.GK_STONES
    site = _first_field(g, C, tab, lambda f: g[st.F_TERR + f] == C[cm.C_EXC_TERR] and tab[C[cm.C_T_FSLOT] + f] == 0)
    g[st.F_SITE + 3 * site:st.F_SITE + 3 * site + 3] = [1, 1, 1]
    g[base + st.P_FOL + site] = 1
    assert rk.prepared(g, 0, stone3, C, tab, 0.5) == 0.0 == rk.prepared(g, 0, stones, C, tab, 0.5)   # no crystal
    g[base + st.P_CR] = 1
    assert rk.prepared(g, 0, stone3, C, tab, 0.5) == 1.0 == rk.prepared(g, 0, stones, C, tab, 0.5)
    g[base + st.P_STONES:base + st.P_STONES + 3] = 1
    assert rk.prepared(g, 0, stone3, C, tab, 0.5) == 0.0 and rk.prepared(g, 0, stones, C, tab, 0.5) == 1.0
    g[base + st.P_FOL + site] = 0
    # an artifact next to a group on the start tile
    enterable = lambda f: f >= 0 and tab[C[cm.C_T_TMOVE] + g[st.F_TERR + f]] == 1 and tab[C[cm.C_T_FSLOT] + f] == 0  # noqa: E731
    here = _first_field(g, C, tab, lambda f: enterable(f) and any(enterable(int(tab[C[cm.C_T_NEIGH] + 6 * f + d]))
                                                                  for d in range(6)))
    there = next(int(tab[C[cm.C_T_NEIGH] + 6 * here + d]) for d in range(6)
                 if enterable(int(tab[C[cm.C_T_NEIGH] + 6 * here + d])))
    g[st.F_ART:st.F_ART + st.F_MAX] = -1
    g[st.F_ART + there] = 2
    g[base + st.P_FOL + here] = 5                                     # enough to pay the artifact's cost
    assert rk.prepared(g, 0, rk.GK_ARTS, C, tab, 0.5) == 1.0 and rk.prepared(g, 0, rk.GK_ART1, C, tab, 0.5) == 1.0
    g[base + st.P_ARTS + 2] = 1                                       # has colour 2: no new colour, most of it
    assert rk.prepared(g, 0, rk.GK_ARTS, C, tab, 0.5) == 0.0 and rk.prepared(g, 0, rk.GK_ART1, C, tab, 0.5) == 1.0
    g[base + st.P_ARTS + 0] = 2                                       # colour 0 is its best row now
    assert rk.prepared(g, 0, rk.GK_ART1, C, tab, 0.5) == 0.0
    g[base + st.P_FOL + here] = 0
    assert rk.prepared(g, 0, rk.GK_ARTS, C, tab, 0.5) == 0.0 == rk.prepared(g, 0, rk.GK_ART1, C, tab, 0.5)


def test_distance_counts_the_moves_to_a_free_sanctuary_site_RC_R91_RC_R119_RC_E37():
    """Rule 8's distance (``solo_reach`` moves at most) on the start tile (slot 0, the only face-up tile):
    sanctuary fields 2 and 5, field 4 next to 5, field 3 next to 2 and 4 (asserted). With an own building
    on 2 (no second one there, RC-R118) the free sanctuary site is 5: a follower on it: 0 moves (a
    development action builds there, RC-R119); on 4: 1; on 3: 2 (3 -> 4 -> 5, RC-R91), or none with a
    reach of 1; once every sanctuary is built (RC-R127): none. The chance then counts ``solo_decay`` **
    moves of the next sanctuary as gained."""
    g, C, tab, base = _bare_row()
    neigh = lambda f: [int(x) for x in tab[C[cm.C_T_NEIGH] + 6 * f:C[cm.C_T_NEIGH] + 6 * f + 6] if x >= 0]  # noqa: E731
    building = lambda f: tab[C[cm.C_T_TBLD] + g[st.F_TERR + f]]  # noqa: E731
    assert building(2) == building(5) == dev.DEV_SANCT and building(3) != dev.DEV_SANCT != building(4)
    assert 4 in neigh(5) and 4 in neigh(3) and 2 in neigh(3) and 5 not in neigh(3)
    assert all(tab[C[cm.C_T_TMOVE] + g[st.F_TERR + f]] == 1 for f in (3, 4, 5))
    g[base + st.P_BLD + 2] = 1 + dev.DEV_SANCT
    one, two = 4, 3
    assert rk.distance(g, 0, rk.GK_SANCT, 3, C, tab) == -1              # no follower on the map
    g[base + st.P_FOL + 5] = 1
    assert rk.distance(g, 0, rk.GK_SANCT, 3, C, tab) == 0
    g[base + st.P_FOL + 5] = 0
    g[base + st.P_FOL + one] = 1
    assert rk.distance(g, 0, rk.GK_SANCT, 3, C, tab) == 1
    g[base + st.P_FOL + one] = 0
    g[base + st.P_FOL + two] = 1
    assert rk.distance(g, 0, rk.GK_SANCT, 3, C, tab) == 2 and rk.distance(g, 0, rk.GK_SANCT, 1, C, tab) == -1
    lam = 0.4
    p, p1 = rk._at_least(2, lam), rk._at_least(1, lam)
    got = rk._card_chance(g, 0, rk.GK_SANCT, 2, lam, 0.5, 0.5, C, tab, 3, 0.7)
    assert abs(got - (p + 0.5 * 0.7 ** 2 * (p1 - p))) < 1e-12
    assert abs(rk._card_chance(g, 0, rk.GK_SANCT, 2, lam, 0.5, 0.5, C, tab) - p) < 1e-12       # rule 4: no distance
    g[base + st.P_SANCT] = (1 << int(C[cm.C_NSANCT])) - 1
    assert rk.distance(g, 0, rk.GK_SANCT, 3, C, tab) == -1


def test_the_solo_term_is_the_log_chance_of_both_cards_with_components_split_RC_V13_RC_V15_RC_A54():
    """Rule 8 on a hand-set solo position holding GC1 (2 artifacts of one colour) and GC3 (3 colours):
    with artifacts 2 / 1 / 1 / 0 each card alone is met, but one component counts for one card only
    (RC-V15), so together they need 5: one missing, the chance P(Poisson(lam) >= 1) with lam =
    rate x ``solo_rate`` x rounds left counted from the decision (``GI_ROOT``, not the row's round);
    the term is ``solo`` x log(chance + ``solo_floor``); a fourth colour meets both: log(1 + floor).
    In a game of 2-4 players the term is 0 (multiplayer play unchanged)."""
    config, content = setup(1)
    s = GAME.init(config, content, np.arange(1), 5)
    g, h, C, tab = s.m[0].copy(), s.hidden[0].copy(), s.t.C, s.t.tab
    ids = [c.id for c in content.goal_cards]
    h[st.H_GOALS:st.H_GOALS + 3] = [ids.index("GC1"), ids.index("GC3"), -1]
    g[st.SEAT0 + st.P_ARTS:st.SEAT0 + st.P_ARTS + 4] = [2, 1, 1, 0]
    plan = registry.make("rc_knowledge", {"solo": 7.0, "solo_rate": 2.0, "solo_floor": 0.01}, GAME, content)
    from strategies.recall_plans import goal_tables
    gk, gn, gi = goal_tables(s.t)
    gi = gi.copy()
    g[st.G_ROUND] = 12
    gi[rk.GI_ROOT] = 10                                                # the decision was valued in round 10
    rounds = gi[rk.GI_ROUNDS] - 10
    lam = 0.08 * 2.0 * rounds                                          # GOAL_RATES' artifacts, no rc_knowledge fit
    want = 7.0 * np.log(1.0 - np.exp(-lam) + 0.01)
    got = rk.solo_term(g, h, 0, gk, gn, gi, plan.goal_rate, C, tab)
    assert abs(got - want) < 1e-9, (got, want)
    g[st.SEAT0 + st.P_ARTS + 3] = 1
    assert abs(rk.solo_term(g, h, 0, gk, gn, gi, plan.goal_rate, C, tab) - 7.0 * np.log(1.01)) < 1e-12
    config4, content4 = setup(4)
    s4 = GAME.init(config4, content4, np.arange(1), 5)
    gk4, gn4, gi4 = goal_tables(s4.t)
    plan4 = registry.make("rc_knowledge", {}, GAME, content4)
    assert rk.solo_term(s4.m[0], s4.hidden[0], 0, gk4, gn4, gi4, plan4.goal_rate, s4.t.C, s4.t.tab) == 0.0


def test_solo_params_change_no_game_of_two_to_four_players_RC_V13():
    """Rule 8 is keyed on the player count: with every solo Param changed (``solo`` 0 and 100, another
    reach, decay, rate, floor and steps) a plan's 2- and 4-player games are the same, row for row."""
    from analyses.recall_plans import play_table
    for players in (2, 4):
        config, content = setup(players)
        rows = []
        for params in ({}, {"solo": 0.0}, {"solo": 100.0, "solo_reach": 1, "solo_decay": 0.2, "solo_rate": 3.0,
                                            "solo_floor": 0.5, "solo_steps": {"stones": 1.0}}):
            seats = [registry.make(p, params if p == "rc_knowledge" else {}, GAME, content)
                     for p in ("rc_knowledge", "rc_builder", "rc_keys", "rc_artifacts")[:players]]
            tally = {"stopped": 0, "games": 0, "held": {}, "users": {}, "uses": {}, "offered": {}}
            from collections import Counter
            tally.update(held=Counter(), users=Counter(), uses=Counter(), offered=Counter())
            rows.append(play_table(config, content, seats, [str(i) for i in range(players)], 61, np.arange(4), tally))
        assert rows[0] == rows[1] == rows[2], players


def test_rule_9_a_plan_never_ends_an_effect_production_or_development_it_can_take_RC_R15_RC_R38_RC_R113():
    """Rule 9 (``resolve_kinds``): at an ``effect`` (RC-R15), ``produce`` (RC-R38) or ``dev``
    (RC-R113) decision with a pending effect, production field or development type legal, a plan
    takes the best of those by its value table, never ``end`` nor a free action; without the rule
    (``resolve_kinds = []``) the same plan takes ``end`` or a free action at some of them."""
    from sim.core.game import take
    from sim.core.rng import StrategyRng
    from strategies.base import argmax_tiebreak
    config, content = setup(3)
    walker = registry.make("lookahead", {"weights": {"final": 0.0, "crystals": 0.0, "keys": 0.0, "tracks": 0.0,
                                                     "followers": 0.0, "pending": 0.0}}, GAME, content)
    s = GAME.init(config, content, np.arange(60), 8)
    keys = np.stack([rng.stream_keys(0, s.gid, "strategy", k) for k in range(3)])
    rows = []
    for d in range(60):                                  # collect the plan's resolve decisions on the way
        live = np.flatnonzero((s.m[:, st.G_KIND] != st.K_DONE) & (s.m[:, st.G_KIND] != st.K_STOP))
        s = take(s, live)
        kind = s.m[:, st.G_KIND]
        own = own_options(s)
        at = np.isin(kind, [st.K_EFFECT, st.K_PRODUCE, st.K_DEV]) & own.any(axis=1) & s.legal[:, 0]
        if at.any():
            rows.append(take(s, np.flatnonzero(at)))
        dec = GAME.decider(s)
        srng = StrategyRng(keys[dec, s.gid], np.full(s.batch, d))
        s = GAME.step(s, walker.act(GAME.observe(s, dec), s.legal, srng))
    plan = registry.make("rc_knowledge", {}, GAME, content)
    without = registry.make("rc_knowledge", {"resolve_kinds": []}, GAME, content)
    other = 0
    for r in rows:
        obs = GAME.observe(r, GAME.decider(r))
        own = own_options(r)
        srng = StrategyRng(rng.stream_keys(3, r.gid, "strategy"), np.zeros(r.batch, dtype=np.int64))
        chosen = plan.act(obs, r.legal, srng)
        u = srng.uniform(r.legal.shape[1])
        table = plan._values(obs, r.legal, u[:, 0], [plan], np.zeros(r.batch, dtype=np.int64))
        np.testing.assert_array_equal(chosen, argmax_tiebreak(np.where(np.isfinite(table), table, 0.0), own, u))
        assert own[np.arange(r.batch), chosen].all()
        plain = without.act(obs, r.legal, srng)
        other += int((~own[np.arange(r.batch), plain]).sum())
    assert sum(r.batch for r in rows) >= 20 and other >= 1, (sum(r.batch for r in rows), other)
