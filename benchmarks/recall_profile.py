"""Where an rc_greedy decision's time goes: ablations of ``strategies.recall_kernel.play_batch``.

numba has no profiler, so ``profile_batch`` plays the same games as ``play_batch`` with every seat a
lookahead (the choices, hence the games, unchanged) and repeats one part of each lookahead decision
``repeat`` extra times on scratch rows: the difference in time to the plain run, divided by the
repeats, is that part's cost. It also counts the legal actions per lookahead decision.
``python -m benchmarks.recall_profile [games]`` prints the breakdown (one run, one process).
"""
from __future__ import annotations

import sys
import time

import numpy as np
from numba import njit

from sim.games.recall import state as st
from sim.games.recall.kernel.common import C_NP, C_O_USE
from sim.games.recall.kernel.explore import uniform
from sim.games.recall.kernel.flow import advance, apply
from sim.games.recall.kernel.rows import copy_row
from sim.games.recall.kernel.sample import deal_into, observe_row, scratch_size
from sim.games.recall.kernel.value import seat_value
from strategies.recall_kernel import _last_legal, untried_choice

NONE, OBSERVE_DEAL, COPIES, APPLY_ADVANCE, VALUE = range(5)
PARTS = {OBSERVE_DEAL: "observe_row + deal_into (once per decision)",
         COPIES: "copy_row of state + hidden (per trial but the last)",
         APPLY_ADVANCE: "apply + advance (per trial)", VALUE: "seat_value (per trial)"}


@njit(cache=True)
def profile_batch(m, hidden, legal, C, tab, atoms, keys, weights, vt, stab, n_slots, part, repeat, stats, untried_at):
    """``play_batch``'s lookahead seats (every seat; untried where its ``untried_at`` code says so, as
    rc_greedy's ``uniform_kinds`` and ``resolve_kinds``), ``part`` repeated ``repeat`` extra times per use;
    ``stats``: [decisions, actions tried, tried decisions with one legal action, with none]."""
    B, W = m.shape
    A = legal.shape[1]
    n = C[C_NP]
    sg = np.empty(W, np.int32)
    tg = np.empty(W, np.int32)
    xg = np.empty(W, np.int32)
    sh = np.empty(hidden.shape[1], np.int32)
    th = np.empty(hidden.shape[1], np.int32)
    xh = np.empty(hidden.shape[1], np.int32)
    slg = np.zeros(A, np.bool_)
    tlg = np.zeros(A, np.bool_)
    xlg = np.zeros(A, np.bool_)
    chests = np.zeros(st.MAXP, np.int64)
    goals = np.zeros(3, np.int64)
    goal_n = np.zeros(st.MAXP, np.int64)
    sink = 0.0
    work = np.empty(scratch_size(stab), np.int64)
    for b in range(B):
        g, h, lg = m[b], hidden[b], legal[b]
        d = 0
        while g[st.G_KIND] != st.K_DONE and g[st.G_KIND] != st.K_STOP:
            me = g[st.G_DEC]
            slot = (g[st.G_START_SLOT] + max(me, 0)) % n
            key = keys[slot, b]
            base = d * 1024
            a = untried_choice(lg, key, base, untried_at[slot, g[st.G_KIND]], C[C_O_USE])
            if a >= 0:                                          # drawn untried (recall_kernel.play_batch)
                apply(g, h, C, tab, atoms, a)
                advance(g, h, lg, C, tab, atoms)
                d += 1
                stats[0] += 1
                continue
            skey = np.uint64(uniform(key, base) * 9007199254740992.0)
            observe_row(g, h, me, n_slots, sg, chests, goals, goal_n)
            deal_into(sg, lg, chests, goals, goal_n, me, skey, sh, slg, stab, work)
            if part == OBSERVE_DEAL:
                for _ in range(repeat):
                    observe_row(g, h, me, n_slots, xg, chests, goals, goal_n)
                    deal_into(xg, lg, chests, goals, goal_n, me, skey, xh, xlg, stab, work)
            w = weights[slot]
            legal_count = 0
            best = -np.inf
            a = 0
            last = _last_legal(lg)
            for x in range(A):
                if not lg[x]:
                    continue
                legal_count += 1
                tx, hx = sg, sh
                if x != last:
                    copy_row(tg, sg)
                    copy_row(th, sh)
                    tx, hx = tg, th
                if part == COPIES and x != last:  # as many copies as the trials make
                    for _ in range(repeat):
                        copy_row(xg, sg)
                        copy_row(xh, sh)
                if part == APPLY_ADVANCE:       # before the trial, which may step the sample itself
                    for _ in range(repeat):
                        copy_row(xg, sg)
                        copy_row(xh, sh)
                        apply(xg, xh, C, tab, atoms, x)
                        advance(xg, xh, xlg, C, tab, atoms)
                apply(tx, hx, C, tab, atoms, x)
                advance(tx, hx, tlg, C, tab, atoms)
                v = seat_value(tx, hx, me, n, w, vt)
                if part == VALUE:
                    for _ in range(repeat):
                        sink += seat_value(tx, hx, me, n, w, vt)
                if not np.isfinite(v):
                    v = 0.0
                score = v + 1e-9 * uniform(key, base + x)
                if score > best:
                    best = score
                    a = x
            stats[0] += 1
            stats[1] += legal_count
            stats[2] += legal_count == 1
            stats[3] += legal_count == 0
            apply(g, h, C, tab, atoms, a)
            advance(g, h, lg, C, tab, atoms)
            d += 1
    return sink


def baseline(games: int):
    """(game, config, content, seed, strategies, keys) of rc_greedy games 0..games-1 (experiments/recall_tribes.toml)."""
    from benchmarks.recall import BASELINE
    from sim.core import rng
    from sim.core.experiment import load_experiment
    from sim.play import make_strategies

    exp = load_experiment(str(BASELINE))
    game, config, content = exp.game_module(), exp.variants["base"], exp.content("base")
    strategies = make_strategies(exp, "base", game, content)
    ids = np.arange(games)
    keys = np.ascontiguousarray(np.stack([rng.stream_keys(exp.seed, ids, "strategy", k)
                                          for k in range(len(strategies))]), dtype=np.uint64)
    return game, config, content, exp.seed, strategies, keys


def profiled(setup, part: int, repeat: int):
    """(seconds, stats, end state) of ``profile_batch`` on ``baseline``'s games from their start."""
    from sim.core.runner import strategy_groups
    from strategies.recall import _kernel_tables, _seat_kinds

    game, config, content, seed, strategies, keys = setup
    s = game.init(config, content, np.arange(keys.shape[1]), seed)
    t = s.t
    seats = _seat_kinds(strategy_groups(strategies), len(strategies), t)
    weights, untried_at = seats[1], seats[-1]
    vt, stab = _kernel_tables(t)
    stats = np.zeros(4, np.int64)
    started = time.perf_counter()
    profile_batch(s.m, s.hidden, s.legal, t.C, t.tab, t.atoms, keys, weights, vt, stab,
                  len(t.content.map.slots), part, repeat, stats, untried_at)
    return time.perf_counter() - started, stats, s


def main(games: int = 128, repeat: int = 2) -> None:
    setup = baseline(games)
    profiled(setup, NONE, 0)                        # compile / warm up
    base, stats, _ = profiled(setup, NONE, 0)
    dec, trials = stats[0], stats[1]
    print(f"{games} games, {dec} decisions ({dec / games:.0f} per game), {base:.3f} s: "
          f"{1e6 * base / dec:.2f} us per decision")
    print(f"actions tried per decision: mean {trials / dec:.2f}; one legal: {stats[2] / dec:.1%}; "
          f"none: {stats[3] / dec:.1%}")
    for part, label in PARTS.items():
        extra = (profiled(setup, part, repeat)[0] - base) / repeat
        if part == APPLY_ADVANCE:                   # the repeats copied too
            extra -= (profiled(setup, COPIES, repeat)[0] - base) / repeat
        print(f"{label}: {1e6 * extra / dec:.2f} us per decision ({extra / base:.0%})")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
