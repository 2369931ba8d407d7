"""The scripted Animal Kingdoms plans as a numba kernel: the same choices as the vectorised numpy
evaluation they replace (kept here as the reference), and still clearly better than random play."""
from __future__ import annotations

import numpy as np
import pytest

from sim.core.game import take
from sim.core.runner import play_games
from sim.games.animal_kingdoms.config import Config
from sim.games.animal_kingdoms.game import GAME
from strategies import registry
from strategies.base import StrategyRng, argmax_tiebreak
from tests.test_animal_kingdoms_strategies import PLANS, mid_game_states
from tests.test_animal_kingdoms_support import content_for


def make(name, config, params=None):
    return registry.make(name, params or {}, GAME, content_for(config))


# ---- the reference: the plans' evaluation over whole [b, A] arrays ---------------------------------

def reference_act(w, obs, legal, rng):
    t = obs.t
    b = len(obs.player)
    values = np.zeros((b, t.A))
    phase = obs.phase
    turn = phase == 0
    if turn.any():
        values[turn] = _turn_values(w, obs, turn, legal[turn])
    card = phase == 1
    if card.any():
        ranks = np.where(obs.hand[card] < t.N, t.rank[np.minimum(obs.hand[card], t.N)], -1)
        values[card, t.A_BATTLE:t.A_BATTLE + t.H] = ranks
    mods = phase == 2
    if mods.any():
        values[mods, t.A_MODS:t.A_MODS + t.M + 1] = _mod_values(obs, mods)
    council = phase == 3
    if council.any():
        values[council, t.A_YES] = 1.0 if w.council else -1.0
    return argmax_tiebreak(values, legal, rng.uniform(t.A))


def _turn_values(w, obs, m, legal):
    t = obs.t
    cfg = t.config
    n = int(m.sum())
    me = obs.player[m]
    ar = np.arange(n)
    hand = obs.hand[m]
    cnt = (obs.ordm[m].astype(np.int64) + (obs.cap[m][:, :, None] == np.arange(t.P)) + obs.council[m])
    mine = cnt[ar, :, me]
    others = np.where(np.arange(t.P)[None, None, :] == me[:, None, None], -1, cnt)
    fpn = np.minimum(obs.fpn[m].astype(np.int64), t.T - 1)
    tile = np.take_along_axis(obs.fp[m], fpn[..., None], axis=2)[..., 0].astype(float)

    def worth(x):
        ahead = (others > x[..., None]).sum(axis=2)
        level = (others == x[..., None]).sum(axis=2)
        present = x >= 1
        v = np.where(ahead == 0, np.where(level == 0, w.first, w.tie) * tile, 0.0)
        v = np.where(ahead == 1, w.second * cfg.second_place_points, v)
        v = np.where(ahead == 2, w.third * cfg.third_place_points, v)
        return np.where(present, v, 0.0)

    gain = worth(mine + 1) - worth(mine)
    ordinary_full = obs.ordm[m].sum(axis=2) >= t.size[None, :] - 1
    capital = ordinary_full & (obs.cap[m] < 0)
    bonus = gain + w.size * t.size + w.capital * t.size * capital + w.spread * (mine == 0)
    rank = np.where(hand < t.N, t.rank[np.minimum(hand, t.N)], 0)
    claim = bonus[:, None, :] - w.card * rank[:, :, None] / 8.0
    values = np.full((n, t.A), -1e9)
    values[:, :t.A_RALLY] = claim.reshape(n, -1)
    best = np.where(legal[:, :t.A_RALLY], values[:, :t.A_RALLY], -1e9).max(axis=1)
    playable = legal[:, :t.A_RALLY].reshape(n, t.H, t.K).any(axis=2)
    valid = hand < t.N
    dead = valid & ~playable
    lowest = np.argmin(np.where(valid, rank, 99), axis=1)
    want = np.where(dead.any(axis=1, keepdims=True), dead, np.arange(t.H)[None, :] == lowest[:, None])
    subset = (want * (1 << np.arange(t.H))[None, :]).sum(axis=1)
    may_rally = (best < w.rally_below) & (obs.st_rallies[m][ar, me] < w.max_rallies)
    rally_value = np.where(may_rally, w.rally_below, -1e8)
    values[ar, t.A_RALLY + np.maximum(subset, 1) - 1] = rally_value
    claims_now = obs.ordm[m][ar, :, me].sum(axis=1) + (obs.cap[m] == me[:, None]).sum(axis=1)
    tile_free = obs.rt_owner[m][ar, obs.age[m].astype(np.int64)] < 0
    early = (claims_now >= w.retreat_after) & (tile_free | (not w.only_for_tile))
    values[:, t.A_RETREAT] = np.where(early, 1e9, w.retreat_below)
    return values


def _mod_values(obs, m):
    t = obs.t
    n = int(m.sum())
    me = obs.player[m]
    ar = np.arange(n)
    rev = obs.revealed[m].astype(np.int64)
    mine = t.rank[np.minimum(rev[ar, me], t.N)].astype(np.int64)
    opp = np.where(np.arange(t.P)[None, :] == me[:, None], t.N, rev)
    if t.solo:
        opp = obs.rcards[m].astype(np.int64)
    opp_rank = np.where(opp < t.N, t.rank[np.minimum(opp, t.N)], 0)
    need_value = opp_rank.max(axis=1) + (0 if t.solo else 1)
    k = np.arange(t.M + 1)[None, :]
    value = mine[:, None] + t.config.modifier_value * k
    held = obs.mods[m][ar, me][:, None]
    wins = (value >= need_value[:, None]) & (k <= held)
    first_win = np.where(wins.any(axis=1), np.argmax(wins, axis=1), 0)
    return -np.abs(k - first_win[:, None]).astype(float)


# ---- the kernel chooses as the reference --------------------------------------------------------------

VARIANTS = [{}, {"card": 0.0}, {"council": False, "rally_below": 5.0, "max_rallies": 9},
            {"retreat_after": 0, "only_for_tile": False}, {"retreat_below": 3.0, "tie": 1.0, "spread": -1.0}]


@pytest.mark.parametrize("players", [1, 2, 4, 5])
def test_kernel_matches_the_reference(players):
    config = Config(players=players)
    strategies = [make(n, config) for n in PLANS] + [make("ak_greedy", config, v) for v in VARIANTS]
    checked = 0
    for k, s in enumerate(mid_game_states(config, n=150, seed=11 + players, steps=(0, 3, 8, 20, 45, 70, 100, 130))):
        live = np.nonzero(~GAME.done(s))[0]
        if not len(live):
            continue
        s = take(s, live)
        legal = GAME.legal_actions(s)
        obs = GAME.observe(s, s.dec)
        for strategy in strategies:
            keys = np.arange(len(live), dtype=np.uint64) * 31 + 5
            got = strategy.act(obs, legal, StrategyRng(keys, np.full(len(live), k)))
            want = reference_act(strategy.params, obs, legal, StrategyRng(keys, np.full(len(live), k)))
            assert np.array_equal(got, want), (strategy.name, strategy.params)
            checked += len(live)
    assert checked > 0


@pytest.mark.parametrize("players", [2, 4])
def test_kernel_matches_the_reference_in_whole_games(players):
    """Whole games through the runner: the kernel plans and the reference plans give the same outcomes."""
    config = Config(players=players)
    names = PLANS[:players] if players == 4 else ("ak_capital_hunter", "ak_early_retreat")
    fast = [make(n, config) for n in names]

    class Ref:
        group = None

        def __init__(self, plan):
            self.plan = plan

        def act(self, obs, legal, rng):
            return reference_act(self.plan.params, obs, legal, rng)

    out_a, _ = play_games(GAME, config, content_for(config), fast, 7, np.arange(60))
    out_b, _ = play_games(GAME, config, content_for(config), [Ref(p) for p in fast], 7, np.arange(60))
    for key in out_a["per_seat"]:
        assert np.array_equal(out_a["per_seat"][key], out_b["per_seat"][key]), key


# ---- the plans still beat random play ----------------------------------------------------------------

@pytest.mark.parametrize("name", PLANS)
def test_each_plan_beats_random_play(name):
    """One plan against three random players (4 players, random start slot): a fair share is 0.25."""
    config = Config(players=4)
    strategies = [make(name, config)] + [make("random", config)] * 3
    out, _ = play_games(GAME, config, content_for(config), strategies, 21, np.arange(300))
    slot = out["per_seat"]["slot"]
    share = (out["per_seat"]["win_share"] * (slot == 0)).sum() / 300
    assert share > 0.45, share               # more than 1.8x a fair share
