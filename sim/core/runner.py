"""Play an experiment: chunks of games in parallel (joblib: loky, or Dask), one shard per chunk.

A chunk is a range of game indices of one variant. Each chunk is played by ``play_games`` (the
engine's loop: legal actions, strategies, step, until all games are over) in a worker, and its
rows come back to the run's process, which writes them as one shard while it holds the results
folder's lock. Chunks already on disk (by the game ranges the shards record) are skipped, so an
interrupted run resumes where it stopped; since every random draw is keyed by (seed, game
index), the rows do not depend on the chunk size, the number of jobs or the backend.

Workers play *pieces* of at most ``PIECE`` games (a chunk's pieces are joined into its one
shard here), so the progress bar moves every second or so, not once per chunk. Before the
workers start, this process plays two games per seat arrangement of the first variant
(``warm_up``): the engine's and strategies' numba kernels compile once, here (a strategy's
whole-game driver in a helper process at the same time), into the on-disk cache the workers
then load, instead of every worker compiling the same kernels at once (in one process, without
progress output, there is nothing to gain and no warm-up).

The runner is game- and strategy-agnostic: it receives what it plays, a ``make_strategies(exp,
variant, game, content) -> [Strategy per seat]`` function (module level, so workers can unpickle
it). ``sim.play`` composes it with the strategy registry.
"""
from __future__ import annotations

import contextlib
import dataclasses
import itertools
import sys
import time
from pathlib import Path

import joblib
import numpy as np
import polars as pl
from threadpoolctl import threadpool_limits

from sim.core import config as cfg
from sim.core import results as res
from sim.core import rng as rngmod
from sim.core.errors import InputError, RunError
from sim.core.experiment import Experiment
from sim.core.game import compile_seconds, take
from sim.core.hashing import bytes_hash, stable_hash
from sim.core.rng import StrategyRng

COMPACT_FRACTION = 0.25   # drop finished games from the batch once this share is done
PIECE = 1024              # games per worker task: the progress bar moves once per piece
WARM_UP_GAMES = 2         # per seat arrangement: a batch of one takes other code paths (no play_to_end)
_WARMED: set = set()      # (game, seat strategies) already warmed up in this process
COMPILE_ASIDE = True      # warm_up compiles a whole-game driver in a helper process (benchmarks.compile_times: off)


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


def play_games(game, config, content, strategies, seed: int, game_ids: np.ndarray, on_step=None,
               seating: str = "rotate"):
    """Play the games ``game_ids`` to the end; returns (outcome dict, game ids in outcome order).

    ``strategies[i]`` is the plan of the experiment's slot i; ``seating`` (``seat_orders``) says
    which slot's plan sits at which place of the game's own slot order, per game index: the
    outcome's ``slot`` is always the experiment's slot (the index into ``strategies``).
    Finished games are taken out of the batch as it goes (their outcome kept), so the work per
    step follows the games still running. ``on_step(before, after, actions)`` is a hook for
    logs (it costs a copy of the state per step, so only replays use it).

    Without ``on_step``, a strategy class may play the whole batch in one compiled call instead
    (``Strategy.play_to_end``: the engine and the strategies' choices fused, game by game); it
    must choose exactly as this loop would, so the outcome is the same either way.
    """
    game_ids = np.asarray(game_ids, dtype=np.int64)
    orders = seat_orders(strategies, seating)
    parts = []
    with threadpool_limits(1):      # small matrices: BLAS threads only contend (measured 5x slower)
        for k, order in enumerate(orders):
            ids = game_ids[game_ids % len(orders) == k]
            if not len(ids):
                continue
            outcome, ids = _play_games(game, config, content, [strategies[i] for i in order], seed, ids, on_step)
            slot = outcome["per_seat"]["slot"]
            known = slot < len(order)                   # slots beyond the strategies are automas
            outcome["per_seat"]["slot"] = np.where(known, order[np.where(known, slot, 0)], slot).astype(slot.dtype)
            parts.append((outcome, ids))
    return _concat_outcomes(parts)


def seat_orders(strategies, seating: str = "rotate") -> np.ndarray:
    """int[K, n]: the arrangements of the experiment's slots round the table; game i plays
    arrangement ``i % K``, whose place j (the game's slot j) holds the plan of slot
    ``orders[i % K, j]``. ``"fixed"``: the slot order itself (K = 1). ``"rotate"``: slot 0 first,
    then every order of the other slots (K = (n - 1)!, lexicographic), so over each K
    consecutive games every plan has every arrangement of neighbours once (the games draw the
    start player themselves). One arrangement when all plans are equal (the same games)."""
    n = len(strategies)
    same = all(s is strategies[0] or (type(s) is type(strategies[0]) and hasattr(s, "params")
                                      and s.params == strategies[0].params) for s in strategies)
    if seating == "fixed" or n < 3 or same:
        return np.arange(n, dtype=np.int64)[None, :]
    return np.array([(0,) + rest for rest in itertools.permutations(range(1, n))], dtype=np.int64)


def _play_games(game, config, content, strategies, seed, game_ids, on_step):
    state = game.init(config, content, game_ids, seed)
    keys = np.stack([rngmod.stream_keys(seed, game_ids, "strategy", slot) for slot in range(len(strategies))])
    return play_state(game, state, strategies, keys, on_step), game_ids


def play_state(game, state, strategies, keys, on_step=None) -> dict:
    """Play every game of ``state`` (just set up, or any position) to its end; returns the
    outcome dict, its rows in the state's row order.

    ``strategies[slot]`` plays the seats of that experiment slot (``game.slot_of``; slots beyond
    the strategies are automas), ``keys[slot, row]`` is its StrategyRng key in each game, and
    decision counters start at 0. The runner plays its games through this, and so does the
    search player its rollouts: a strategy's compiled ``play_to_end`` plays the whole batch
    when it offers one (and ``on_step`` is None), else the loop below.
    """
    n = state_batch(state)
    groups = strategy_groups(strategies)
    if on_step is None and n:
        played = _play_to_end(game, state, groups, keys, len(strategies))
        if played is not None:
            return game.outcome(played)
    decisions = np.zeros(n, dtype=np.int64)
    rows = np.arange(n)                       # row of each live game in keys/decisions/the outcome
    finished = []
    while len(rows):
        done = game.done(state)
        if done.any():
            if done.all() or done.mean() >= COMPACT_FRACTION:
                finished.append((game.outcome(take(state, np.nonzero(done)[0])), rows[done]))
                keep = np.nonzero(~done)[0]
                state, rows = take(state, keep), rows[keep]
                if not len(rows):
                    break
                done = done[keep]
        active = ~done
        actions = choose_actions(game, state, active, groups, keys[:, rows], decisions[rows], len(strategies))
        decisions[rows[active]] += 1
        if on_step is None:
            state = game.step(state, actions)
        else:
            before = take(state, np.arange(len(rows)))
            state = game.step(state, actions)
            on_step(before, state, actions)
    if not finished:
        return game.outcome(state)
    return _concat_outcomes(finished)[0]


def state_batch(state) -> int:
    """The number of games in a state (the length of its first array field)."""
    for f in dataclasses.fields(state):
        v = getattr(state, f.name)
        if isinstance(v, np.ndarray) and v.ndim >= 1:
            return v.shape[0]
    return 0


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


def choose_actions(game, state, active, groups, keys, decisions, n_strategies):
    """One action per game of the batch (int64[n]): each strategy group decides for the seats it
    plays; the runner's step-by-step loop and every caller that must choose exactly as it does
    (a compiled play pausing for a Python rule, analyses replaying plays) use this one function.

    ``active`` (bool[n]): the games to decide (the others get action 0); ``groups``:
    ``strategy_groups(strategies)``; ``keys[slot, row]``: each slot's StrategyRng key per game;
    ``decisions[row]``: the decisions already taken in that game (the StrategyRng counter);
    ``n_strategies``: slots at or beyond it are automas and get action 0.
    """
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


def play_chunk(exp: Experiment, make_strategies, variant: str, first: int, stop: int,
               config_hash: str, content=None) -> pl.DataFrame:
    """Play games [first, stop) of one variant and return their long results rows (``content``:
    the variant's loaded content, else loaded here once per process)."""
    game = exp.game_module()
    config = exp.variants[variant]
    content = exp.content(variant) if content is None else content
    strategies = make_strategies(exp, variant, game, content)
    outcome, ids = play_games(game, config, content, strategies, exp.seed, np.arange(first, stop),
                              seating=exp.seating)
    meta = {"experiment": exp.name, "game_name": exp.game, "variant": variant,
            "config_hash": config_hash, "seed": exp.seed}
    return res.long_table(outcome, meta, ids, [s.strategy for s in exp.seats_of(variant)])


def _play_task(exp: Experiment, make_strategies, variant: str, first: int, stop: int, config_hash: str,
               content=None):
    """A worker's job: play one chunk and hand its rows back; the run's own process writes them."""
    return variant, first, stop, play_chunk(exp, make_strategies, variant, first, stop, config_hash, content)


def code_versions() -> dict:
    """The versions that made the rows: this package (and its git commit), Python and libraries."""
    import importlib.metadata
    import platform
    import subprocess

    import numba

    versions = {"python": platform.python_version(), "numpy": np.__version__, "numba": numba.__version__,
                "polars": pl.__version__, "joblib": joblib.__version__}
    try:
        versions["boardsim"] = importlib.metadata.version("boardsim")
    except importlib.metadata.PackageNotFoundError:
        versions["boardsim"] = None
    here = Path(__file__).resolve().parent
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                               capture_output=True, text=True, timeout=10)
        ok = commit.returncode == 0
        versions["git_commit"] = commit.stdout.strip() if ok else None
        versions["git_modified"] = bool(dirty.stdout.strip()) if ok else None
    except (OSError, subprocess.SubprocessError):
        versions["git_commit"] = versions["git_modified"] = None
    return versions


def manifest_for(exp: Experiment, parts: dict, run: dict) -> dict:
    """What a results folder records: the experiment, each variant's resolved config and hashes,
    and the run (code versions, games asked for)."""
    return {
        "version": res.MANIFEST_VERSION, "experiment": exp.name, "game_name": exp.game,
        "experiment_file": str(exp.path), "experiment_file_hash": bytes_hash(Path(exp.path).read_bytes()),
        "seed": exp.seed,
        "variants": {v: {"config_hash": stable_hash(p), "parts": p, "config": cfg.as_dict(exp.variants[v]),
                         **({"seats": _seats(exp.seats_of(v))} if exp.variant_seats else {})}
                     for v, p in parts.items()},
        "seats": _seats(exp.seats),
        "runs": [run],
    }


def _seats(seats) -> list:
    return [{"strategy": s.strategy, "params": s.params} for s in seats]


class _Progress:
    """A progress bar on a terminal (games, games/s, time left); plain log lines every few
    seconds otherwise (``make`` into a file, CI)."""

    def __init__(self, total_chunks: int, total_games: int, enabled: bool, label: str = "playing"):
        self.total_chunks, self.total_games = total_chunks, total_games
        self.chunks = self.games = 0
        self.started = time.perf_counter()
        self.last_line = 0.0
        self.bar = None
        self.label = label
        if enabled and sys.stderr.isatty():
            from tqdm import tqdm
            self.bar = tqdm(total=total_games, unit="game", unit_scale=True, dynamic_ncols=True, desc=label)
        self.enabled = enabled

    def update(self, games: int, chunks_done: int = 0):
        self.chunks += chunks_done
        self.games += games
        if self.bar is not None:
            self.bar.update(games)
            self.bar.set_postfix_str(f"shards {self.chunks}/{self.total_chunks}")
            return
        now = time.perf_counter()
        done = self.games == self.total_games and self.chunks == self.total_chunks
        if self.enabled and (now - self.last_line > 5 or done):
            self.last_line = now
            rate = self.games / max(now - self.started, 1e-9)
            left = (self.total_games - self.games) / rate if rate else float("nan")
            print(f"{self.label}: {self.games:,}/{self.total_games:,} games, shards {self.chunks}/{self.total_chunks}, "
                  f"{rate:,.0f} games/s, {left:,.0f} s left", file=sys.stderr, flush=True)

    def close(self):
        if self.bar is not None:
            self.bar.close()


def check_limits(exp: Experiment, first_game: int, games: int, jobs: int) -> None:
    """The numbers a run accepts (results.MAX_*): int64 seeds and game indices, shard names."""
    checks = [
        ("experiment.seed", exp.seed, 0, res.MAX_SEED),
        ("experiment.games", games, 1, res.MAX_GAMES),
        ("--first-game", first_game, 0, res.MAX_GAME_INDEX + 1 - games),
    ]
    for place, value, low, high in checks:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise InputError(exp.path, place, f"expected an integer from {low} to {high}, got {value!r}"
                             + (f" (game indices end at {res.MAX_GAME_INDEX})" if place == "--first-game" else ""))
    if jobs < 1 and jobs != -1:
        raise InputError("command line", "--jobs", f"expected a positive number of jobs, got {jobs}")


@contextlib.contextmanager
def _backend(backend: str, scheduler: str | None, jobs: int):
    """Yields ``play(tasks, contents) -> iterator of task results``, unordered, for the chosen
    backend (``contents``: variant -> loaded content, sent once to each Dask worker)."""
    if backend == "loky":
        if jobs == 1:
            yield lambda tasks, contents: (_play_task(*t, contents[t[2]]) for t in tasks)   # in this process
        else:
            parallel = joblib.Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")
            yield lambda tasks, contents: _loky_results(parallel, tasks)
        return
    if backend != "dask":
        raise InputError("command line", "--backend", f"expected 'loky' or 'dask', got {backend!r}")
    if not scheduler:
        raise InputError("command line", "--scheduler", "the dask backend needs a scheduler address")
    from dask.distributed import Client
    try:
        client = Client(scheduler, timeout="20s")
    except (OSError, ValueError, TypeError) as err:
        raise InputError("command line", "--scheduler", f"cannot reach Dask scheduler {scheduler}: {err}") from None
    try:
        yield lambda tasks, contents: _dask_results(client, tasks, contents)
    finally:
        client.close()


def _loky_results(parallel, tasks):
    from joblib.externals.loky.process_executor import BrokenProcessPool
    try:
        yield from parallel(joblib.delayed(_play_task)(*t) for t in tasks)
    except BrokenProcessPool as err:
        raise RunError("loky", None, f"a worker process died ({err.__class__.__name__}: killed, or out of "
                       "memory?); the finished shards are kept: run the same command again") from None


def _dask_results(client, tasks, contents):
    """Tasks on a Dask cluster, a bounded window of them in flight; whatever ends the loop
    (done, an error, Ctrl-C) cancels what is still queued or running. The workers get the
    loaded content (one copy each, reused by every task), so they read no files."""
    from dask.distributed import as_completed
    from distributed.client import FutureCancelledError
    from distributed.scheduler import KilledWorker

    tasks = iter(tasks)
    window = 2 * max(1, sum(client.nthreads().values()))
    pending = set()

    names = list(contents)
    shared = dict(zip(names, client.scatter([contents[v] for v in names], broadcast=True, hash=False)))

    def submit(task):
        future = client.submit(_play_task, *task, shared[task[2]], pure=False)
        pending.add(future)
        return future

    running = as_completed([submit(t) for t in itertools.islice(tasks, window)])
    try:
        for future in running:
            pending.discard(future)
            yield future.result()
            for task in itertools.islice(tasks, 1):
                running.add(submit(task))
    except (KilledWorker, FutureCancelledError) as err:
        raise RunError("dask", None, f"a worker died or the task was lost ({err.__class__.__name__}); "
                       "the finished shards are kept: run the same command again") from None
    finally:
        if pending:
            client.cancel(list(pending), force=True)


def run_experiment(exp: Experiment, make_strategies, out_root="results", jobs: int = 1, chunk: int | None = None,
                   backend: str = "loky", scheduler: str | None = None, variants=None,
                   first_game: int = 0, games: int | None = None, progress: bool = False) -> Path:
    """Play games [first_game, first_game + games) of each selected variant; returns the results dir.

    Everything is checked before anything is written: the numbers, the variants, the content and
    strategies, the backend, the lock of the results folder, the manifest. Workers only play;
    this process writes every shard, so nothing writes into the folder once the run has ended.
    """
    chunk = chunk or exp.chunk
    games = exp.games if games is None else games
    check_limits(exp, first_game, games, jobs)
    variants = list(variants or exp.variants)
    for v in variants:
        if v not in exp.variants:
            raise InputError(exp.path, "variants", f"unknown variant {v!r}; expected one of {', '.join(exp.variants)}")
    parts = {}
    for v in variants:              # validates content and strategies before anything is written
        strategies = make_strategies(exp, v, exp.game_module(), exp.content(v))
        parts[v] = exp.hash_parts(v, strategies)
    contents = {v: exp.content(v) for v in variants}
    results_dir = exp.results_dir(Path(out_root).absolute())
    if results_dir.exists() and not results_dir.is_dir():
        raise InputError(results_dir, None, "is a file, not a results folder; choose another --out")
    run = {"started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "first_game": first_game,
           "games": games, "chunk": chunk, "variants": variants, "code": code_versions()}
    with _backend(backend, scheduler, jobs) as play, res.locked(results_dir):
        manifest = res.check_manifest(results_dir, manifest_for(exp, parts, run))
        covered = {v: res.covered_games(results_dir / v) for v in variants}     # refuses overlaps
        res.write_manifest(results_dir, manifest)
        for v in variants:
            res.remove_partial_files(results_dir / v)
        hashes = {v: stable_hash(p) for v, p in parts.items()}
        counts = [res.missing_count(covered[v], first_game, first_game + games, chunk) for v in variants]
        todo = [v for v, (_, g) in zip(variants, counts) if g]
        if todo and backend == "loky" and (jobs != 1 or progress):
            # workers then load what it compiled; in one process it only serves to say what
            # the first compile does, so a quiet run skips its games (8 search games are minutes)
            warm_up(exp, make_strategies, todo[0], progress)
        chunk_of: dict = {}                 # (variant, piece start) -> its chunk (a, b)

        def tasks():
            for v in variants:
                for a, b in res.missing_ranges(covered[v], first_game, first_game + games, chunk):
                    for p, q in pieces(a, b):
                        chunk_of[v, p] = (a, b)
                        yield exp, make_strategies, v, p, q, hashes[v]

        bar = _Progress(sum(c for c, _ in counts), sum(g for _, g in counts), progress, f"playing {exp.name}")
        try:
            with contextlib.closing(play(tasks(), contents)) as results:    # closing cancels what is left
                for v, a, b, df in _shards(results, chunk_of, bar):
                    res.write_shard(df, results_dir / v, a, b - 1)
                    bar.update(0, 1)
        finally:
            bar.close()
    return results_dir


def pieces(a: int, b: int):
    """The worker tasks of chunk [a, b): ranges of at most ``PIECE`` games."""
    for p in range(a, b, PIECE):
        yield p, min(p + PIECE, b)


def _shards(results, chunk_of: dict, bar):
    """Join the pieces coming back (in any order) into their chunks: yields (variant, a, b,
    rows) once every piece of chunk [a, b) is in, its rows in game order."""
    waiting: dict = {}
    for v, p, q, df in results:
        bar.update(q - p)
        a, b = chunk_of.pop((v, p))
        got = waiting.setdefault((v, a), {})
        got[p] = (q - p, df)
        if sum(n for n, _ in got.values()) == b - a:
            del waiting[(v, a)]
            yield v, a, b, pl.concat([got[k][1] for k in sorted(got)])


def warm_up(exp: Experiment, make_strategies, variant: str, progress: bool) -> None:
    """Play ``WARM_UP_GAMES`` games per seat arrangement of ``variant`` here (results dropped),
    saying what it does:
    the first run compiles the numba kernels of the engine and strategies into their on-disk
    cache, which the workers then load instead of each compiling them again. Once per process
    and game and seats (a sequential compare runs many rounds)."""
    key = (exp.game, tuple(s.strategy for s in exp.seats))
    if key in _WARMED:
        return
    game = exp.game_module()
    expected = compile_seconds(exp.game, game)
    if progress:
        hint = f"about {expected} s on the first run, " if expected else ""
        print(f"preparing {exp.game}: compiling its engine and strategies once before the workers start "
              f"({hint}a second or two once cached)...", file=sys.stderr, flush=True)
    started = time.perf_counter()
    content, config = exp.content(variant), exp.variants[variant]
    strategies = [s.warm_up_stand_in() for s in make_strategies(exp, variant, game, content)]
    # every seat arrangement gets a batch of WARM_UP_GAMES, so the warm-up takes the workers' paths
    ids = np.arange(WARM_UP_GAMES * len(seat_orders(strategies, exp.seating)))
    with _ticking(f"preparing {exp.game}: still compiling", started, progress):
        with _driver_compiled_aside(exp, make_strategies, variant, game, strategies):
            game.init(config, content, ids[:WARM_UP_GAMES], exp.seed)       # the engine's kernels, here
        play_games(game, config, content, strategies, exp.seed, ids, seating=exp.seating)
    _WARMED.add(key)
    if progress:
        print(f"preparing {exp.game}: ready in {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)


@contextlib.contextmanager
def _driver_compiled_aside(exp: Experiment, make_strategies, variant: str, game, strategies):
    """While the block compiles the engine here, a helper process compiles the strategies'
    whole-game driver (``Strategy.play_to_end``) into numba's cache, from games set up but not
    run (``game.setup``), so the two compile on two cores instead of one after the other. Only
    for games with ``setup``, on a first run (``game.engine_cached()`` false: once the engine is
    cached, a helper would mostly cost its start); the block waits for the helper at its end. A helper that fails is only a lost head start: this process then
    compiles the driver itself and reports any error. A game with ``compile_half`` (optional
    contract) first compiles its engine's rules, one half in each process, so that the engine
    itself compiles on both cores; the two whole-game callers (the block's and the helper's)
    then load them."""
    drivers = any(getattr(type(s), "play_to_end", None) for s in strategies)
    if not (COMPILE_ASIDE and drivers and hasattr(game, "setup") and not game.engine_cached()):
        yield
        return
    import concurrent.futures

    from joblib.externals.loky import ProcessPoolExecutor     # loky, as the workers: no __main__ re-run

    with ProcessPoolExecutor(1) as pool:
        if hasattr(game, "compile_half"):       # first the engine's rules, half here, half there
            other = pool.submit(_compile_half, exp, variant, 1)
            game.compile_half(exp.variants[variant], exp.content(variant), 0)
            concurrent.futures.wait([other])
        helper = pool.submit(_compile_driver, exp, make_strategies, variant)
        yield
        concurrent.futures.wait([helper])


def _compile_half(exp: Experiment, variant: str, half: int) -> None:
    """In the helper process: one half of the engine's rules (``game.compile_half``)."""
    exp.game_module().compile_half(exp.variants[variant], exp.content(variant), half)


def _compile_driver(exp: Experiment, make_strategies, variant: str) -> None:
    """In the helper process: the strategies' ``play_to_end`` on ``WARM_UP_GAMES`` set-up games."""
    game = exp.game_module()
    content, config = exp.content(variant), exp.variants[variant]
    strategies = make_strategies(exp, variant, game, content)
    ids = np.arange(WARM_UP_GAMES)
    keys = np.stack([rngmod.stream_keys(exp.seed, ids, "strategy", slot) for slot in range(len(strategies))])
    with threadpool_limits(1):
        _play_to_end(game, game.setup(config, content, ids, exp.seed), strategy_groups(strategies), keys,
                     len(strategies))


@contextlib.contextmanager
def _ticking(text: str, started: float, enabled: bool, every: float = 15.0):
    """Print ``text, N s so far`` every ``every`` seconds while the block runs (a compile that
    takes minutes should not look like a hang)."""
    import threading

    done = threading.Event()

    def tick():
        while not done.wait(every):
            print(f"{text}, {time.perf_counter() - started:.0f} s so far", file=sys.stderr, flush=True)

    thread = threading.Thread(target=tick, daemon=True) if enabled else None
    if thread is not None:
        thread.start()
    try:
        yield
    finally:
        done.set()
        if thread is not None:
            thread.join()
