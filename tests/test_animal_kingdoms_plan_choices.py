"""The Animal Kingdoms plans on small hand-made positions where the right choice is clear: a tie
for first is worth more than second place (AK-E10, AK-E17, AK-E18, AK-E20), a battle is fought
with the card that wins it, a 1 against a likely 8 and a low card when it is enough (AK-E12,
AK-E13), modifiers are not spent where a printed 1 beats an 8 anyway (AK-E14, AK-A26), a rally is
taken when no claim is worth its point and declined when one is (AK-R29, AK-R30), and the
early-retreat plan retreats for the first-retreat tile when the board says so (AK-R32, AK-R34)."""
from __future__ import annotations

import numpy as np
import pytest

from sim.games.animal_kingdoms.config import Config
from sim.games.animal_kingdoms.game import GAME
from sim.games.animal_kingdoms.observe import Obs
from strategies import registry
from strategies.base import StrategyRng
from tests.test_animal_kingdoms_support import content_for

PLANS = ("ak_greedy", "ak_capital_hunter", "ak_spreader", "ak_early_retreat")


def position(players=2, phase=0, seed=1, **switches):
    """The observation of a fresh game for seat 0 (rule ``switches`` set), every field writable, and its tables."""
    config = Config(players=players, **switches)
    s = GAME.init(config, content_for(config), np.arange(1), seed)
    obs = GAME.observe(s, np.zeros(1, dtype=np.int64))
    fields = dict(player=np.zeros(1, dtype=np.int64), hand=obs.hand.copy(), hand_count=obs.hand_count.copy(),
                  deck_count=obs.deck_count.copy(), own_rt=obs.own_rt.copy(), my_card=obs.my_card.copy(),
                  my_mods=obs.my_mods.copy(), revealed=obs.revealed.copy())
    public = {k: np.array(v, copy=True) for k, v in obs.public.items()}
    public["phase"][:] = phase
    t = obs.t
    public["ordm"][:] = 0
    public["cap"][:] = -1
    public["council"][:] = 0
    public["col"][:] = t.N
    public["disc"][:] = False
    public["rt_owner"][:] = -1
    public["mods"][:] = 0
    return Obs(t=t, public=public, **fields), t


def card(t, rank, nth=0):
    """The index of the nth card of that printed rank."""
    return int(np.nonzero(t.rank[:t.N] == rank)[0][nth])


def choose(name, obs, legal, params=None):
    plan = registry.make(name, params or {}, GAME, content_for(obs.t.config))
    return int(plan.act(obs, legal[None], StrategyRng(np.array([3], dtype=np.uint64), np.zeros(1)))[0])


def hand(obs, cards):
    t = obs.t
    obs.hand[0] = sorted(cards) + [t.N] * (t.H - len(cards))


# ---- claims: a tie for first is worth more than second place -------------------------------------

@pytest.mark.parametrize("name", PLANS)
def test_a_tie_for_first_is_worth_more_than_second_place_AK_E10_E18_E20(name):
    """K_a: the opponent has 1 marker (tile 4): a claim ties for first, a battle for 4 points whose
    loser still takes second place (3) and a modifier (1). K_b: the opponent has 2 markers: a claim
    is second place (3). The tie is worth at least as much as second place, so every plan claims K_a
    (before, a tie counted half the tile, 2 < 3)."""
    obs, t = position()
    hand(obs, [card(t, 5)])
    ka, kb = 0, 1
    obs.ordm[0, ka, 1] = 1
    obs.ordm[0, kb, 1] = 2
    obs.fp[0, ka, :] = 4
    obs.fp[0, kb, :] = 4
    obs.fpn[0, :] = 0
    legal = np.zeros(t.A, dtype=bool)
    legal[[0 * t.K + ka, 0 * t.K + kb]] = True
    assert choose(name, obs, legal, {"spread": 0.0, "capital": 0.0, "size": 0.0}) == ka


# ---- battles --------------------------------------------------------------------------------------

def battle(unseen_ranks, mine, opp_cards=4, switches=None):
    """A two-player battle (seat 0 against seat 1): seat 0 holds ``mine`` (ranks); every other card
    is in the discard pile except one card of each rank in ``unseen_ranks`` (the other hand's pool)."""
    obs, t = position(phase=1, **(switches or {}))
    cards = [card(t, r, i) for i, r in enumerate(mine)]
    hand(obs, cards)
    unseen = [card(t, r, 7 - i) for i, r in enumerate(unseen_ranks)]
    obs.disc[0, :] = True
    obs.disc[0, cards + unseen] = False
    obs.hand_count[0, 1] = opp_cards
    obs.part[0, :] = False
    obs.part[0, :2] = True
    obs.lost[0, :] = False
    legal = np.zeros(t.A, dtype=bool)
    legal[t.A_BATTLE:t.A_BATTLE + len(cards)] = True
    order = np.argsort(cards)                      # hand slots are sorted by card index
    return obs, legal, {slot: mine[i] for slot, i in enumerate(order)}, t


@pytest.mark.parametrize("name", PLANS)
def test_a_one_is_played_against_a_certain_eight_AK_E13(name):
    """The other hand's 4 cards come from five 8s and a 2: it surely holds an 8 and plays it
    (AK-E12), so the 1 wins (AK-E13) and the 7 loses; every plan plays the 1."""
    obs, legal, ranks, t = battle([8, 8, 8, 8, 8, 2], [1, 7, 4])
    assert ranks[choose(name, obs, legal) - t.A_BATTLE] == 1


@pytest.mark.parametrize("name", PLANS)
def test_a_low_card_that_is_enough_is_played_and_the_high_card_kept_AK_E12(name):
    """The other hand can hold only 2s and 3s: a 5 wins as surely as the 8, so the 8 is kept."""
    obs, legal, ranks, t = battle([2, 2, 3, 3, 3, 2], [8, 5])
    assert ranks[choose(name, obs, legal) - t.A_BATTLE] == 5


def test_the_high_card_is_played_when_it_is_needed_AK_E12():
    """The other hand holds 6s and 7s: only the 8 wins (a 1 would need an 8 against it)."""
    obs, legal, ranks, t = battle([6, 6, 7, 7, 7, 6], [8, 1, 5])
    assert ranks[choose("ak_greedy", obs, legal) - t.A_BATTLE] == 8


def test_no_modifier_is_spent_where_a_one_beats_the_eight_AK_A26():
    """Revealed: seat 0 a printed 1, seat 1 a printed 8; the 1 wins whatever the modifiers
    (AK-A26), so the plan keeps its 4 modifiers (each worth a point at the end, AK-E25)."""
    obs, t = position(phase=2)
    obs.part[0, :2] = True
    obs.revealed[0, 0] = card(t, 1)
    obs.revealed[0, 1] = card(t, 8)
    obs.mods[0, 0] = 4
    legal = np.zeros(t.A, dtype=bool)
    legal[t.A_MODS:t.A_MODS + 5] = True
    assert choose("ak_greedy", obs, legal) == t.A_MODS + 0
    obs.revealed[0, 0] = card(t, 5)            # a 5 against an 8: two modifiers make 9
    assert choose("ak_greedy", obs, legal) == t.A_MODS + 2


@pytest.mark.parametrize("name", PLANS)
def test_opponents_modifiers_lift_an_eight_out_of_a_ones_reach_by_battle_value_AK_A26_E13(name):
    """The other hand surely plays an 8 (as above); seat 0 holds a 1, a 7 and a 4 and two
    modifiers (+2 each). Without opponent modifiers the 1 wins by printed rank and by battle value
    (1 against 8, no modifiers used): every plan plays the 1. With one opponent modifier its 8 is a
    10: by printed rank the 1 still wins, by battle value only the 7 with both modifiers (11)."""
    for switch, opp_mods, want in (("printed_rank", 0, 1), ("battle_value", 0, 1), ("printed_rank", 1, 1),
                                   ("battle_value", 1, 7)):
        obs, legal, ranks, t = battle([8, 8, 8, 8, 8, 2], [1, 7, 4], switches={"one_beats_eight_uses": switch})
        obs.mods[0, 0], obs.mods[0, 1] = 2, opp_mods
        assert ranks[choose(name, obs, legal) - t.A_BATTLE] == want, (switch, opp_mods)


def test_modifiers_lift_an_eight_over_a_one_when_battle_values_decide_AK_A26_E13_E14():
    """Revealed: seat 0 a printed 8, seat 1 a printed 1. Printed ranks decide "1 beats 8" (AK-A26,
    the default): the 8 loses whatever the modifiers, so none is spent. With the switch
    ``one_beats_eight_uses = battle_value`` an 8 lifted to 10 by one modifier (+2, AK-E14) is no
    longer an 8 and beats the 1: the plan spends exactly one. A printed 1 against an 8 keeps its
    modifiers either way (lifted to 3 it would lose by value)."""
    for switch, want in (("printed_rank", 0), ("battle_value", 1)):
        obs, t = position(phase=2, one_beats_eight_uses=switch)
        obs.part[0, :2] = True
        obs.revealed[0, 0] = card(t, 8)
        obs.revealed[0, 1] = card(t, 1)
        obs.mods[0, 0] = 4
        legal = np.zeros(t.A, dtype=bool)
        legal[t.A_MODS:t.A_MODS + 5] = True
        assert choose("ak_greedy", obs, legal) == t.A_MODS + want, switch
        obs.revealed[0, 0], obs.revealed[0, 1] = card(t, 1), card(t, 8)
        assert choose("ak_greedy", obs, legal) == t.A_MODS + 0, switch


@pytest.mark.parametrize("name", ("ak_greedy", "ak_capital_hunter", "ak_early_retreat"))
def test_peace_ties_are_valued_by_the_capital_not_a_battle_AK_V1_V2_V3_V4_A36(name):
    """Two players. K_a (tile 5): the opponent holds its capital marker, so a claim ties 1:1;
    K_b (tile 4) is empty, a claim is sole first (4). With battles a tie is a coin flip for the
    tile against second place and a modifier (0.5 x 5 + 0.5 x (3 + 1) = 4.5): K_a. In the peace
    variant the tied capital holder takes first and the plan second (3, AK-V2, AK-A36): K_b; when
    nobody tied holds the capital every tied player scores the tile (5, AK-V3): K_a again."""
    params = {"spread": 0.0, "capital": 0.0, "size": 0.0}
    ka, kb = 0, 1
    for switches, rival_capital, want in (({}, True, ka), ({"peace": True}, True, kb), ({"peace": True}, False, ka)):
        obs, t = position(**switches)
        hand(obs, [card(t, 5)])
        if rival_capital:
            obs.cap[0, ka] = 1
        else:
            obs.ordm[0, ka, 1] = 1
        obs.fp[0, ka, :] = 5
        obs.fp[0, kb, :] = 4
        obs.fpn[0, :] = 0
        legal = np.zeros(t.A, dtype=bool)
        legal[[ka, kb]] = True
        assert choose(name, obs, legal, params) == want, switches


# ---- rallies and retreats -------------------------------------------------------------------------

def turn():
    """Seat 0's turn in a 3-player game: one claim with a 5 in the largest kingdom (K), a rally
    and the retreat are legal."""
    obs, t = position(players=3)
    hand(obs, [card(t, 5), card(t, 2), card(t, 3)])
    slot5 = int(np.nonzero(obs.hand[0] == card(t, 5))[0][0])
    k = int(np.argmax(t.size))
    obs.fp[0, k, :] = 8
    obs.fpn[0, :] = 0
    legal = np.zeros(t.A, dtype=bool)
    legal[slot5 * t.K + k] = True
    legal[t.A_RALLY:t.A_RETREAT] = True
    legal[t.A_RETREAT] = True
    return obs, legal, k, t


@pytest.mark.parametrize("name", PLANS)
def test_a_rally_is_taken_when_no_claim_is_worth_its_point_AK_R29_R30(name):
    """K holds 3 markers each of seats 1 and 2: a claim there is third place (1 point, less the
    card); the 2 and the 3 fit no kingdom. A rally is a point and two fresh cards: every plan
    rallies, discarding them (the tastes of the capital hunter for large kingdoms, ``size``, and of
    the spreader for new kingdoms, ``spread``, aside)."""
    obs, legal, k, t = turn()
    obs.ordm[0, k, 1:3] = 3
    got = choose(name, obs, legal, {"retreat_tile": 0.0, "size": 0.0, "spread": 0.0})
    assert t.A_RALLY <= got < t.A_RETREAT
    discarded = obs.hand[0][t.rally_bits[got - t.A_RALLY]]
    assert sorted(int(t.rank[c]) for c in discarded) == [2, 3]


@pytest.mark.parametrize("name", PLANS)
def test_a_rally_is_declined_when_a_claim_is_worth_more_AK_R29(name):
    """The same hand, K empty: the claim takes sole first place (tile 8); no plan rallies or retreats."""
    obs, legal, k, t = turn()
    assert choose(name, obs, legal) < t.A_RALLY


def test_early_retreat_retreats_when_the_board_says_so_AK_R32_R34():
    """ak_early_retreat, the age's first-retreat tile still free (expected 3.5), late in the age
    (every other kingdom full; seat 0 has claimed four times): with a claim worth first place
    (tile 8) it claims (before, it left after exactly three claims); when the only claim is third
    place it retreats for the tile; when the tile is taken it rallies instead. Early in the age
    (the other kingdoms empty) the rest of the age is worth more than the tile: it rallies."""
    obs, legal, k, t = turn()
    for j in range(t.K):
        if j != k:
            obs.ordm[0, j, 1] = t.size[j] - 1
            obs.cap[0, j] = 2
    mine = (k + 1) % t.K
    obs.ordm[0, mine, 0], obs.ordm[0, mine, 1], obs.cap[0, mine] = 3, t.size[mine] - 4, 0
    assert choose("ak_early_retreat", obs, legal) < t.A_RALLY
    obs.ordm[0, k, 1:3] = 3                      # K: a claim now is third place
    assert choose("ak_early_retreat", obs, legal) == t.A_RETREAT
    obs.rt_owner[0, int(obs.age[0])] = 1         # the tile is gone
    assert t.A_RALLY <= choose("ak_early_retreat", obs, legal) < t.A_RETREAT
    obs.rt_owner[0, :] = -1
    for j in range(t.K):
        if j != k:
            obs.ordm[0, j, :] = 0
            obs.cap[0, j] = -1
    assert t.A_RALLY <= choose("ak_early_retreat", obs, legal) < t.A_RETREAT


@pytest.mark.parametrize("name", PLANS)
def test_sole_first_is_worth_a_tie_and_a_tie_second_place_AK_E4_E10_E18(name):
    """Whatever a plan's weights (the spreader weights second places 1.5x and tiles 0.7x), sole
    first place is worth at least a tie for first, and a tie at least second place, for every
    first-place tile (AK-A21: 4..10) and 1 to 3 tied opponents."""
    from strategies import animal_kingdoms_kernel as K
    plan = registry.make(name, {}, GAME, content_for(Config(players=4)))
    obs, t = position(players=4)
    _, fw = plan._pack(t)
    first, tie, second, third, mod = (fw[K.F_FIRST], fw[K.F_TIE], fw[K.F_SECOND], fw[K.F_THIRD], fw[K.F_MODIFIER])
    for tile in range(4, 11):
        sole = K._points(2, 0, 0, float(tile), first, tie, second, third, mod, False, False, False)
        for level in (1, 2, 3):
            tied = K._points(2, 0, level, float(tile), first, tie, second, third, mod, False, False, False)
            behind = K._points(2, 1, 0, float(tile), first, tie, second, third, mod, False, False, False)
            assert sole >= tied >= behind, (tile, level, sole, tied, behind)


# ---- multiway battles (AK-A27) --------------------------------------------------------------------

def three_way(mine, switches=None):
    """A battle of seats 0, 1 and 2: seat 0 holds ``mine`` (ranks, the first copies); the others'
    cards come from five 1s and three 8s (the rest discarded); seat 1 has one card left (AK-A28), so
    it plays a 1 with chance 5/8, seat 2 has four and plays an 8 (its highest, AK-E12) with chance 13/14."""
    obs, t = position(players=3, phase=1, **(switches or {}))
    cards = [card(t, r, 0) for r in mine]
    hand(obs, cards)
    unseen = [card(t, 1, i) for i in range(3, 8)] + [card(t, 8, i) for i in range(5, 8)]
    obs.disc[0, :] = True
    obs.disc[0, cards + unseen] = False
    obs.hand_count[0, 1], obs.hand_count[0, 2] = 1, 4
    obs.part[0, :] = False
    obs.part[0, :3] = True
    obs.lost[0, :] = False
    legal = np.zeros(t.A, dtype=bool)
    legal[t.A_BATTLE:t.A_BATTLE + len(cards)] = True
    order = np.argsort(cards)
    return obs, legal, {slot: mine[i] for slot, i in enumerate(order)}, t


@pytest.mark.parametrize("name", PLANS)
def test_three_way_battle_a_one_puts_the_eights_out_AK_A27_E13(name):
    """Seat 0 holds a 5 and an 8 (no 1). With ``eliminate_eights`` (AK-A27, the default) a revealed
    1 puts every 8 out and the highest of the rest wins: the 5 wins whenever seat 1 plays its likely
    1 (about 0.65), the 8 only when nobody plays a 1 and then it ties the other 8 (about 0.09):
    every plan plays the 5. (The product of two-way battles, the model before, gave the 5 about
    0.04 and the 8 about 0.09.)"""
    obs, legal, ranks, t = three_way([5, 8])
    assert ranks[choose(name, obs, legal) - t.A_BATTLE] == 5


def test_three_way_battle_a_one_counts_as_nine_AK_A27_E13():
    """The same battle with ``one_counts_as_nine``: a 1 is a 9 when an 8 is revealed, so the 5 wins
    only when both others play 1s (about 0.04) and the 8 when both play 8s and it wins the tie
    (about 0.09); for a tile of 10 (stake 10 - 3 - 1) the 8 is worth its higher cost: ak_greedy
    plays it."""
    obs, legal, ranks, t = three_way([5, 8], {"multiway_battle": "one_counts_as_nine"})
    obs.fp[0] = 10
    assert ranks[choose("ak_greedy", obs, legal) - t.A_BATTLE] == 8
    obs, legal, ranks, t = three_way([5, 8])
    obs.fp[0] = 10
    assert ranks[choose("ak_greedy", obs, legal) - t.A_BATTLE] == 5


def test_two_way_battles_are_unchanged_by_the_multiway_model_AK_E13_A27():
    """With two in the battle both AK-A27 readings are "1 beats 8" (AK-E13): against a likely 8 the
    plan plays its 1 under either switch."""
    for switch in ("eliminate_eights", "one_counts_as_nine"):
        obs, legal, ranks, t = battle([8, 8, 8, 8, 8, 2], [1, 7, 4], switches={"multiway_battle": switch})
        assert ranks[choose("ak_greedy", obs, legal) - t.A_BATTLE] == 1, switch


def test_three_way_modifiers_need_not_beat_an_eight_that_is_out_AK_A27_E14():
    """Revealed: seat 0 a 5, seat 1 a 1, seat 2 an 8; seat 0 holds three modifiers. With
    ``eliminate_eights`` the 1 puts the 8 out and the 5 already beats the 1: no modifier is spent
    (before, two were spent to lift the 5 over the 8). With ``one_counts_as_nine`` the 1 is a 9:
    three modifiers (11) beat it and the 8; with only two (9, a new round at best) none is spent."""
    for switch, held, want in (("eliminate_eights", 3, 0), ("one_counts_as_nine", 3, 3), ("one_counts_as_nine", 2, 0)):
        obs, t = position(players=3, phase=2, multiway_battle=switch)
        obs.part[0, :3] = True
        obs.revealed[0, 0], obs.revealed[0, 1], obs.revealed[0, 2] = card(t, 5), card(t, 1), card(t, 8)
        obs.mods[0, 0] = held
        legal = np.zeros(t.A, dtype=bool)
        legal[t.A_MODS:t.A_MODS + held + 1] = True
        assert choose("ak_greedy", obs, legal) == t.A_MODS + want, (switch, held)


# ---- capital claims (AK-R16) ----------------------------------------------------------------------

def capital_turn(age, board_full):
    """Two players, seat 0 to move with one 5 (legal in K8 only). K8's seven ordinary territories
    are taken (seat 0: 3, seat 1: 4), so the claim takes the capital: a 4:4 tie for the tile (8),
    and the claimer's age ends at once (AK-R16) with the first-retreat tile (3.5 expected, AK-R34).
    ``board_full``: every other kingdom is full too (else empty). A rally and the retreat are legal."""
    obs, t = position()
    obs.age[0] = age
    hand(obs, [card(t, 5)])
    k = int(np.argmax(t.size))
    obs.ordm[0, k, 0], obs.ordm[0, k, 1] = 3, t.size[k] - 4
    obs.fp[0, k, :] = 8
    obs.fpn[0, :] = 0
    if board_full:
        for j in range(t.K):
            if j != k:
                obs.ordm[0, j, 1] = t.size[j] - 1
                obs.cap[0, j] = 1
    legal = np.zeros(t.A, dtype=bool)
    legal[0 * t.K + k] = True
    legal[t.A_RALLY:t.A_RETREAT] = True
    legal[t.A_RETREAT] = True
    return obs, legal, k, t


def test_capital_hunter_claims_a_capital_when_it_pays_AK_R16_R34_R37_R40_R41():
    """ak_capital_hunter. Age III (no council move follows, AK-R41), the rest of the board free: the
    capital's tie (worth 3 over second place) does not pay for the claims the rest of the age would
    bring (two players share 22 free territories), so it rallies (before: a capital claim was worth
    ``capital`` x size, 12 points here, whatever the board, and ended its age at once). Age III with
    the board full: nothing is given up and the tile is free: it claims. Age I, the board free: the
    marker goes to the council and counts in Ages II and III (AK-R37, AK-R40): it claims."""
    for age, full, claims in ((2, False, False), (2, True, True), (0, False, True)):
        obs, legal, k, t = capital_turn(age, full)
        got = choose("ak_capital_hunter", obs, legal)
        assert (got == k) == claims, (age, full, got)
        if not claims:
            assert t.A_RALLY <= got < t.A_RETREAT


def test_forced_retreat_counts_the_active_players_share_AK_R5_R16():
    """The same Age III position with the board free, seat 1 retreated: the rest of the board is all
    seat 0's (AK-R5), so a capital claim gives up twice as much as with seat 1 active: the hunter
    rallies. With the rally banned (AK-R31) only the capital claim and the retreat are legal; both
    end its age, and the claim also brings a tie for the tile and the first-retreat tile: it claims."""
    obs, legal, k, t = capital_turn(2, False)
    obs.active[0, 1] = False
    assert t.A_RALLY <= choose("ak_capital_hunter", obs, legal) < t.A_RETREAT
    legal[t.A_RALLY:t.A_RETREAT] = False
    assert choose("ak_capital_hunter", obs, legal) == k


@pytest.mark.parametrize("name", PLANS)
def test_a_lead_is_worth_more_than_second_place_AK_E4_E6_A21(name):
    """Sole first place scores the tile (4..10, AK-A21), second place 3 points (AK-E6): with every
    plan's default weights a lead is worth strictly more than second place for every tile, and a
    claim that takes the lead in an empty kingdom (tile 4) beats one that makes the plan second.
    (The spreader's weights, first 0.7 and second 1.5, made a lead worth no more than second
    place for tiles up to 6, so it did not fight for first: against the robot it won 17.6% at
    easy, with first 1.2 33.0%.)"""
    from strategies import animal_kingdoms_kernel as K
    plan = registry.make(name, {}, GAME, content_for(Config(players=2)))
    obs, t = position()
    _, fw = plan._pack(t)
    first, tie, second, third, mod = (fw[K.F_FIRST], fw[K.F_TIE], fw[K.F_SECOND], fw[K.F_THIRD], fw[K.F_MODIFIER])
    for tile in range(4, 11):
        lead = K._points(1, 0, 0, float(tile), first, tie, second, third, mod, False, False, False)
        behind = K._points(1, 1, 0, float(tile), first, tie, second, third, mod, False, False, False)
        assert lead > behind, (tile, lead, behind)
    hand(obs, [card(t, 5)])
    ka, kb = 0, 1
    obs.ordm[0, kb, 1] = 2
    obs.fp[0, :, :] = 4
    obs.fpn[0, :] = 0
    legal = np.zeros(t.A, dtype=bool)
    legal[[ka, kb]] = True
    assert choose(name, obs, legal, {"capital": 0.0, "size": 0.0}) == ka
