"""The Explorers of Navoria plans on hand-made positions where the right choice is clear: a
recruit's token opens a city space for the collect phase (EN-R10, EN-R25..R28), so a plan does
not open the best space for the player who collects first unless that is itself (blocking), and
the adventurer plan builds the posts that keep its markers' progress (EN-R49)."""
from __future__ import annotations

import numpy as np
import pytest

from sim.core.runner import play_games
from sim.games.explorers_of_navoria import kernel
from sim.games.explorers_of_navoria import state as st
from sim.games.explorers_of_navoria.config import Config
from sim.games.explorers_of_navoria.game import GAME
from strategies.base import StrategyRng
from tests.test_explorers_of_navoria_strategies import PLANS, content_for, make, per_slot

TRADERS, BUILDERS = 0, 1


def recruit_turn(first_collector: bool):
    """Round 1, 4 players, empty city and piles, drawn tokens traders + builders: the decider may
    take a trader (its token opens CB1, 6 points) or a builder (its token opens CY1, a post: the
    best space). Collect turns run in reverse compass order (EN-R25), so the opened spaces go to
    the last compass seat first: the decider (``first_collector``) or another player."""
    config = Config(players=4, start_player="first_slot")
    s = GAME.init(config, content_for(config), np.arange(1), 5)
    g = s.m[0]
    g[st.G_PHASE], g[st.G_KIND] = st.PH_RDEC, st.K_RECRUIT
    g[st.G_CENTRE:st.G_CENTRE + 5] = 0
    g[st.G_PILET:st.G_PILET + 5] = 0
    g[st.G_DREW] = 1
    g[st.G_DRAWN:st.G_DRAWN + 2] = (TRADERS, BUILDERS)
    g[st.G_TURN] = 3 if first_collector else 0              # recruit turn t is order[t % n]'s
    g[st.G_DEC] = g[st.G_ORDER + int(g[st.G_TURN])]
    kernel.fill_legal(g, s.legal[0], s.t.tab, s.t.C)
    return s, config


def colour_taken(s, strategy):
    rng = StrategyRng(np.array([7], dtype=np.uint64), np.array([0]))
    a = int(strategy.act(GAME.observe(s, GAME.decider(s)), GAME.legal_actions(s), rng)[0])
    assert 1 <= a <= 15
    return (a - 1) // 3


@pytest.mark.parametrize("name", PLANS)
def test_a_token_is_not_spent_on_opening_the_best_space_for_another_player_EN_R25_R28(name):
    """With the opened space's worth dominating (``block`` high), a plan that collects last takes
    the trader (its token opens only CB1 for the first collector) and a plan that collects first
    takes the builder (it opens CY1, the build space, for itself)."""
    s_last, config = recruit_turn(first_collector=False)
    s_first, _ = recruit_turn(first_collector=True)
    plan = make(name, config, {"block": 20.0})
    assert colour_taken(s_last, plan) == TRADERS
    assert colour_taken(s_first, plan) == BUILDERS


def test_without_block_the_collect_order_does_not_matter():
    """``block = 0``: the city space a token opens is not valued, so the choice is the same in both."""
    s_last, config = recruit_turn(first_collector=False)
    s_first, _ = recruit_turn(first_collector=True)
    plan = make("en_balanced", config, {"block": 0.0})
    assert colour_taken(s_last, plan) == colour_taken(s_first, plan)


def test_adventurers_build_posts_that_keep_their_progress_EN_R49():
    """Markers start each round at their last post (EN-R49): the adventurer plan, which lives on
    steps and flags, builds about 3.4 posts a game against the other plans (before: 2.1, the
    fewest of all, so its progress was lost every round); the builders still build most."""
    config = Config(players=4)
    names = ("en_traders", "en_builders", "en_adventurers", "en_artisans")
    out, _ = play_games(GAME, config, content_for(config), [make(n, config) for n in names], 31, np.arange(300))
    posts = [sum(per_slot(out, f"en_posts_{r}", k).mean() for r in ("forest", "desert", "glacier"))
             for k in range(4)]
    assert posts[2] > 3.0 and posts[2] > max(posts[0], posts[3]) + 0.5, posts
    assert posts[1] == max(posts), posts


# ---- collect: the spaces the others will take (foresight, deny) -------------------------------
CB1, CG1, CG2 = 0, 12, 13                     # city spaces (city.csv order): 6 points; F+F+any; M+M+2 points
BLUE, GREEN = 0, 4
GLACIER, FOOD = 2, 2


def collect_turn(near_order_seat: int):
    """Round 1, 2 players, the first collect turn: the decider is seat 1 (compass space 2 collects
    first, EN-R25), then seat 0, then seat 1 again (EN-R38: three pile tokens, blue 1 and green 2).
    Free spaces: CB1 (6 points), CG1 (food, food, a good of choice), CG2 (minerals x 2, 2 points);
    every other space is taken. ``near_order_seat`` has two food on its glacier dock, whose order
    (three goods of one kind, EN-A12) one more food completes (EN-R94..R96); the other's docks
    are empty."""
    config = Config(players=2, start_player="first_slot")
    s = GAME.init(config, content_for(config), np.arange(1), 5)
    g = s.m[0]
    g[st.G_PHASE], g[st.G_KIND], g[st.G_TURN] = st.PH_CTURN, st.K_COLLECT, 0
    g[st.G_DEC] = g[st.G_ORDER + 1]
    assert g[st.G_DEC] == 1
    g[st.G_CENTRE:st.G_CENTRE + 5] = 0
    g[st.G_PILET:st.G_PILET + 5] = 0
    g[st.G_PILET + BLUE], g[st.G_PILET + GREEN] = 1, 2
    g[st.G_CITY:st.G_CITY + 15] = 0
    g[st.G_CITY + CB1] = g[st.G_CITY + CG1] = g[st.G_CITY + CG2] = -1
    base = st.SEAT0 + near_order_seat * st.SW
    g[base + st.P_DOCK + 3 * GLACIER + FOOD] = 2
    g[base + st.P_DOCKN + GLACIER] = 2
    kernel.fill_legal(g, s.legal[0], s.t.tab, s.t.C)
    return s, config


def space_taken(s, strategy):
    rng = StrategyRng(np.array([7], dtype=np.uint64), np.array([0]))
    return int(strategy.act(GAME.observe(s, GAME.decider(s)), GAME.legal_actions(s), rng)[0]) - 16


# orders valued high, partial orders not at all: CG1 is worth much only to the seat whose order it completes
ORDERS_ONLY = {"order": 3.0, "progress": 0.0, "lost_good": 0.0}


def test_greedy_collect_takes_the_order_space_first_EN_R25_R28():
    """Without foresight the decider takes the space it values most now: CG1, whose food completes
    its glacier order (worth more than CB1's 6 points)."""
    s, config = collect_turn(near_order_seat=1)
    assert space_taken(s, make("en_balanced", config, ORDERS_ONLY)) == CG1


@pytest.mark.parametrize("name", PLANS)
def test_foresight_takes_the_contested_space_first_and_the_uncontested_one_later_EN_R25_R38(name):
    """With ``foresight`` the rest of the collect phase is played out: after CB1, seat 0 (whose
    docks are empty, so CG1's food completes nothing for it) takes CG2's 2 points over CG1, and
    the decider still gets CG1 on its second turn: CB1 + CG1 beats CG1 + CG2 (seat 0 would take
    CB1), so the decider takes CB1 first."""
    s, config = collect_turn(near_order_seat=1)
    assert space_taken(s, make(name, config, {**ORDERS_ONLY, "foresight": 1.0})) == CB1


def test_deny_takes_the_space_that_completes_an_opponents_order_EN_R25_R96():
    """Seat 0 (collecting next) has the near-complete order. Greedy, the decider takes CB1's 6
    points and seat 0 completes its order with CG1; with ``deny`` the decider takes CG1 itself
    (worth nothing to it) and leaves seat 0 the 6 points, worth less to seat 0 than its order."""
    s, config = collect_turn(near_order_seat=0)
    assert space_taken(s, make("en_balanced", config, ORDERS_ONLY)) == CB1
    assert space_taken(s, make("en_balanced", config, {**ORDERS_ONLY, "deny": 1.0})) == CG1
