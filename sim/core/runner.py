"""Play an experiment: chunks of games in parallel (joblib: loky, or Dask), one shard per chunk.

A chunk is a range of game indices of one variant. Each chunk is played by ``play_games`` (the
engine's loop: legal actions, strategies, step, until all games are over) and written as one
shard. Chunks already on disk are skipped, so an interrupted run resumes where it stopped;
since every random draw is keyed by (seed, game index), the rows do not depend on the chunk
size, the number of jobs or the backend.

The runner is game- and strategy-agnostic: it receives what it plays, a ``make_strategies(exp,
variant, game, content) -> [Strategy per seat]`` function (module level, so workers can unpickle
it). ``sim.play`` composes it with the strategy registry.
"""
from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path

import joblib
import numpy as np
import polars as pl
from threadpoolctl import threadpool_limits

from sim.core import results as res
from sim.core import rng as rngmod
from sim.core.errors import InputError
from sim.core.experiment import Experiment
from sim.core.game import take
from sim.core.rng import StrategyRng

COMPACT_FRACTION = 0.25   # drop finished games from the batch once this share is done


def strategy_groups(strategies):
    """Slots whose strategies can act in one call (same ``group``), as (members, member index
    of each slot or -1). Strategies without a group act alone."""
    groups, by_key = [], {}
    for slot, strategy in enumerate(strategies):
        key = strategy.group or ("slot", slot)
        if key not in by_key:
            by_key[key] = len(groups)
            groups.append([])
        groups[by_key[key]].append(slot)
    out = []
    for slots in groups:
        member_of_slot = np.full(len(strategies), -1, dtype=np.int64)
        member_of_slot[slots] = np.arange(len(slots))
        out.append(([strategies[s] for s in slots], member_of_slot))
    return out


def play_games(game, config, content, strategies, seed: int, game_ids: np.ndarray, on_step=None):
    """Play the games ``game_ids`` to the end; returns (outcome dict, game ids in outcome order).

    Finished games are taken out of the batch as it goes (their outcome kept), so the work per
    step follows the games still running. ``on_step(before, after, actions)`` is a hook for
    logs (it costs a copy of the state per step, so only replays use it).

    Without ``on_step``, a strategy class may play the whole batch in one compiled call instead
    (``Strategy.play_to_end``: the engine and the strategies' choices fused, game by game); it
    must choose exactly as this loop would, so the outcome is the same either way.
    """
    with threadpool_limits(1):      # small matrices: BLAS threads only contend (measured 5x slower)
        return _play_games(game, config, content, strategies, seed, game_ids, on_step)


def _play_games(game, config, content, strategies, seed, game_ids, on_step):
    game_ids = np.asarray(game_ids, dtype=np.int64)
    state = game.init(config, content, game_ids, seed)
    keys = np.stack([rngmod.stream_keys(seed, game_ids, "strategy", slot) for slot in range(len(strategies))])
    groups = strategy_groups(strategies)
    if on_step is None:
        played = _play_to_end(game, state, groups, keys, len(strategies))
        if played is not None:
            return _concat_outcomes([(game.outcome(played), game_ids)])
    decisions = np.zeros(len(game_ids), dtype=np.int64)
    ids = game_ids.copy()
    live = np.arange(len(game_ids))           # row of each live game in keys/decisions
    finished = []
    while len(ids):
        done = game.done(state)
        if done.any():
            if done.all() or done.mean() >= COMPACT_FRACTION:
                finished.append((game.outcome(take(state, np.nonzero(done)[0])), ids[done]))
                keep = np.nonzero(~done)[0]
                state, ids, live = take(state, keep), ids[keep], live[keep]
                if not len(ids):
                    break
                done = done[keep]
        active = ~done
        actions = _choose_actions(game, state, active, groups, keys[:, live], decisions[live], len(strategies))
        decisions[live[active]] += 1
        if on_step is None:
            state = game.step(state, actions)
        else:
            before = take(state, np.arange(len(ids)))
            state = game.step(state, actions)
            on_step(before, state, actions)
    return _concat_outcomes(finished)


def _play_to_end(game, state, groups, keys, n_strategies):
    """The games played to their end in one compiled call, if a strategy class of the groups
    offers it for these strategies and this game (``Strategy.play_to_end``); else None."""
    tried = []
    for members, _ in groups:
        cls = type(members[0])
        play = getattr(cls, "play_to_end", None)
        if play is None or play in tried:
            continue
        tried.append(play)
        played = play(game, state, groups, keys, n_strategies)
        if played is not None:
            return played
    return None


def _choose_actions(game, state, active, groups, keys, decisions, n_strategies):
    """One action per game of the batch: each strategy group decides for the seats it plays."""
    n = len(active)
    decider = game.decider(state)
    legal = game.legal_actions(state)
    slots = game.slot_of(state)[np.arange(n), np.maximum(decider, 0)]
    known = slots < n_strategies                    # slots beyond the seats are automas (no strategy)
    actions = np.zeros(n, dtype=np.int64)
    for members, member_of_slot in groups:
        which = np.where(known, member_of_slot[np.where(known, slots, 0)], -1)
        idx = np.nonzero(active & (which >= 0))[0]
        if not len(idx):
            continue
        obs = game.observe(state if len(idx) == n else take(state, idx), decider[idx])
        srng = StrategyRng(keys[slots[idx], idx], decisions[idx])
        if len(members) == 1:
            actions[idx] = members[0].act(obs, legal[idx], srng)
        else:
            actions[idx] = type(members[0]).group.act_group(members, which[idx], obs, legal[idx], srng)
    return actions


def _concat_outcomes(parts):
    per_seat = {k: np.concatenate([p[0]["per_seat"][k] for p in parts]) for k in parts[0][0]["per_seat"]}
    per_game = {k: np.concatenate([p[0]["per_game"][k] for p in parts]) for k in parts[0][0]["per_game"]}
    ids = np.concatenate([p[1] for p in parts])
    order = np.argsort(ids, kind="stable")
    return ({"per_seat": {k: v[order] for k, v in per_seat.items()},
             "per_game": {k: v[order] for k, v in per_game.items()}}, ids[order])


def play_chunk(exp: Experiment, make_strategies, variant: str, first: int, stop: int) -> pl.DataFrame:
    """Play games [first, stop) of one variant and return their long results rows."""
    game = exp.game_module()
    config = exp.variants[variant]
    content = exp.content(variant)
    strategies = make_strategies(exp, variant, game, content)
    outcome, ids = play_games(game, config, content, strategies, exp.seed, np.arange(first, stop))
    meta = {"experiment": exp.name, "game_name": exp.game, "variant": variant,
            "config_hash": exp.config_hash(variant), "seed": exp.seed}
    return res.long_table(outcome, meta, ids, [s.strategy for s in exp.seats])


def _run_task(exp: Experiment, make_strategies, variant: str, first: int, stop: int,
              variant_dir: str) -> tuple[int, float]:
    started = time.perf_counter()
    df = play_chunk(exp, make_strategies, variant, first, stop)
    res.write_shard(df, Path(variant_dir), first, stop - 1)
    return stop - first, time.perf_counter() - started


def manifest_for(exp: Experiment, variants) -> dict:
    return {
        "version": res.MANIFEST_VERSION, "experiment": exp.name, "game_name": exp.game,
        "experiment_file": str(exp.path), "seed": exp.seed,
        "variants": {v: {"config_hash": exp.config_hash(v)} for v in variants},
        "seats": [{"strategy": s.strategy, "params": s.params} for s in exp.seats],
    }


class _Progress:
    """A progress bar on a terminal (chunks, games/s, time left); plain log lines otherwise."""

    def __init__(self, total_chunks: int, total_games: int, enabled: bool):
        self.total_chunks, self.total_games = total_chunks, total_games
        self.chunks = self.games = 0
        self.started = time.perf_counter()
        self.last_line = 0.0
        self.bar = None
        if enabled and sys.stderr.isatty():
            from tqdm import tqdm
            self.bar = tqdm(total=total_games, unit="game", unit_scale=True, dynamic_ncols=True)
        self.enabled = enabled

    def update(self, games: int):
        self.chunks += 1
        self.games += games
        if self.bar is not None:
            self.bar.update(games)
            self.bar.set_postfix_str(f"chunks {self.chunks}/{self.total_chunks}")
            return
        now = time.perf_counter()
        if self.enabled and (now - self.last_line > 10 or self.chunks == self.total_chunks):
            self.last_line = now
            rate = self.games / max(now - self.started, 1e-9)
            left = (self.total_games - self.games) / rate if rate else float("nan")
            print(f"chunks {self.chunks}/{self.total_chunks}, {self.games} games, "
                  f"{rate:,.0f} games/s, {left:,.0f} s left", file=sys.stderr, flush=True)

    def close(self):
        if self.bar is not None:
            self.bar.close()


@contextlib.contextmanager
def _backend(backend: str, scheduler: str | None, jobs: int):
    if backend == "loky":
        yield {"n_jobs": jobs, "backend": "loky"}
        return
    if backend != "dask":
        raise InputError("command line", "--backend", f"expected 'loky' or 'dask', got {backend!r}")
    if not scheduler:
        raise InputError("command line", "--scheduler", "the dask backend needs a scheduler address")
    from dask.distributed import Client
    try:
        client = Client(scheduler, timeout="20s")
    except OSError as err:
        raise InputError("command line", "--scheduler", f"cannot reach Dask scheduler {scheduler}: {err}") from None
    try:
        with joblib.parallel_config(backend="dask"):
            yield {"n_jobs": -1}
    finally:
        client.close()


def run_experiment(exp: Experiment, make_strategies, out_root="results", jobs: int = 1, chunk: int | None = None,
                   backend: str = "loky", scheduler: str | None = None, variants=None,
                   first_game: int = 0, games: int | None = None, progress: bool = False) -> Path:
    """Play games [first_game, first_game + games) of each selected variant; returns the results dir."""
    chunk = chunk or exp.chunk
    games = exp.games if games is None else games
    if jobs < 1 and jobs != -1:
        raise InputError("command line", "--jobs", f"expected a positive number of jobs, got {jobs}")
    variants = list(variants or exp.variants)
    for v in variants:
        if v not in exp.variants:
            raise InputError(exp.path, "variants", f"unknown variant {v!r}; expected one of {', '.join(exp.variants)}")
    for v in variants:              # validates content and strategies before anything is written
        make_strategies(exp, v, exp.game_module(), exp.content(v))
    results_dir = exp.results_dir(out_root)
    res.check_or_write_manifest(results_dir, manifest_for(exp, variants))
    tasks = []
    for v in variants:
        vdir = results_dir / v
        res.remove_partial_files(vdir)
        for a, b in res.missing_ranges(res.covered_games(vdir), first_game, first_game + games, chunk):
            tasks.append((v, a, b, str(vdir)))
    bar = _Progress(len(tasks), sum(b - a for _, a, b, _ in tasks), progress)
    try:
        if not tasks:
            return results_dir
        with _backend(backend, scheduler, jobs) as options:
            if options.get("n_jobs") == 1:
                for v, a, b, d in tasks:
                    bar.update(_run_task(exp, make_strategies, v, a, b, d)[0])
            else:
                parallel = joblib.Parallel(return_as="generator_unordered", **options)
                for n, _seconds in parallel(joblib.delayed(_run_task)(exp, make_strategies, v, a, b, d) for v, a, b, d in tasks):
                    bar.update(n)
    finally:
        bar.close()
    return results_dir
