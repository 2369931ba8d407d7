"""The Recall part of ``make bench`` (``python -m benchmarks.run --games recall``).

The engine is timed on the compiled whole-game paths the runner takes (random play:
``GAME.play_uniform``, ``RandomStrategy.play_to_end``; lookahead seats such as rc_greedy and the
four plans: ``strategies.recall.compiled_play``, ``LookaheadStrategy.play_to_end``), else on the
runner's choice loop (``tests.recall_games.ended``). Every rule is compiled, so every game ends;
each row still says how many did (a game the engine stopped, at a state-size limit, would be
counted in games/s but not in decisions per game). ``--jobs 2`` is two worker processes
(joblib, loky) each playing half of the games.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
RANDOM = ROOT / "benchmarks" / "recall_random.toml"
BASELINE = ROOT / "experiments" / "recall_tribes.toml"
PLANS = ROOT / "experiments" / "recall_plans.toml"          # the four plans of strategies/recall_plans.py


def _play(exp_path: str, first: int, games: int) -> tuple[int, int, int]:
    """(games ended, their decisions, decisions of all games) of games [first, first + games), with
    one BLAS thread as the runner plays them (``runner.play_games``: idle BLAS threads spin beside the
    compiled play, about 3% of a process in ``perf``)."""
    from threadpoolctl import threadpool_limits
    with threadpool_limits(1):
        return _play_games(exp_path, first, games)


def _play_games(exp_path: str, first: int, games: int) -> tuple[int, int, int]:
    sys.path.insert(0, str(ROOT))
    from sim.core import rng
    from sim.core.experiment import load_experiment
    from sim.games.recall import state as st
    from sim.play import make_strategies
    from tests.recall_games import ended

    exp = load_experiment(exp_path)
    game, config, content = exp.game_module(), exp.variants["base"], exp.content("base")
    strategies = make_strategies(exp, "base", game, content)
    ids = np.arange(first, first + games)
    if all(s.name == "random" for s in strategies):
        keys = np.stack([rng.stream_keys(exp.seed, ids, "strategy", k) for k in range(len(strategies))])
        s = game.play_uniform(game.init(config, content, ids, exp.seed), keys, len(strategies))
        done = s.m[:, st.G_KIND] == st.K_DONE
        return int(done.sum()), -1, -1
    from sim.core.runner import strategy_groups
    from strategies.recall import compiled_play
    keys = np.stack([rng.stream_keys(exp.seed, ids, "strategy", k) for k in range(len(strategies))])
    s = game.init(config, content, ids, exp.seed)
    decisions = compiled_play(game, s, strategy_groups(strategies), keys, len(strategies))
    if decisions is not None:                        # the compiled path the runner takes (play_to_end)
        done = s.m[:, st.G_KIND] == st.K_DONE
        return int(done.sum()), int(decisions[done].sum()), int(decisions.sum())
    counts = []
    done = ended(config, content, strategies, exp.seed, ids, counts)
    return int(done.sum()), int(counts[0][done].sum()), int(counts[0].sum())


def _rate(exp_path: Path, games: int, jobs: int) -> tuple[float, int, int]:
    """(games/s, games ended, decisions of the ended games) for ``games`` games in ``jobs`` processes."""
    import joblib

    parallel = joblib.Parallel(n_jobs=jobs, backend="loky")
    if jobs == 1:
        _play(str(exp_path), 0, 8)                                 # warm-up (compiled code, content)
    else:                                                          # loky keeps its warmed-up workers
        parallel(joblib.delayed(_play)(str(exp_path), j * 8, 8) for j in range(jobs))
    started = time.perf_counter()
    if jobs == 1:
        parts = [_play(str(exp_path), 0, games)]
    else:
        half = games // jobs
        parts = parallel(joblib.delayed(_play)(str(exp_path), j * half, half) for j in range(jobs))
    seconds = time.perf_counter() - started
    return games / seconds, sum(p[0] for p in parts), sum(p[1] for p in parts)


def compile_seconds() -> float:
    """A fresh process with an empty numba cache: import, compile and play one game's setup."""
    with tempfile.TemporaryDirectory() as cache:
        code = ("import numpy as np; from sim.games.recall.game import GAME; c = GAME.Config(players=4); "
                "ct = GAME.load_content(c); GAME.init(c, ct, np.arange(2), 1)")
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True,
                       env={**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)})
        return time.perf_counter() - started


def rows(row, batch: int, oracle_games: int, oracle_rate) -> None:
    """Append the Recall rows through ``row(label, value, runs)``."""
    rates = {}
    # rc_greedy plays the whole batch (4,096 by default): with 1,024 games each worker's half took about
    # a second, of which its set-up (experiment, strategies, init: about 0.2 s) and any moment the
    # shared second core was busy weighed enough that the 2-process row did not show two processes
    for label, path, games in (("random", RANDOM, batch), ("rc_greedy", BASELINE, batch),
                               ("the four plans", PLANS, max(64, batch // 8))):
        for jobs in (1, 2):
            rate, done, decisions = _rate(path, games, jobs)
            rates[label, jobs] = (rate, done, games)
            per = f", {decisions / done:,.0f} decisions per ended game" if done and decisions >= 0 else ""
            row(f"recall: engine, {label}, 4 players, {games} games, {'1 process' if jobs == 1 else '2 processes'}",
                f"{rate:,.0f} games/s", f"{done} of {games} games ended{per}")
    for jobs in (1, 2):
        row(f"recall: rc_greedy / random games/s, {'1 process' if jobs == 1 else '2 processes'}",
            f"{rates['rc_greedy', jobs][0] / rates['random', jobs][0]:.3f}", "the same machine load")
    orc, _ = oracle_rate(RANDOM, "tests.oracle_recall", "RcOracle", oracle_games, 1)
    row(f"recall: oracle, random choices, {oracle_games} games", f"{orc:,.1f} games/s", "every game ends")
    rate, done, games = rates["random", 1]
    row("recall: engine / oracle per process (random choices both)", f"{rate / orc:,.1f}x",
        "" if done == games else f"only {done} of {games} engine games ended: stopped games are shorter")
    row("recall: compile from an empty numba cache (import, compile, setup)", f"{compile_seconds():,.0f} s")
