"""Compile the games' numba kernels before they are needed: each game's shipped experiments
warmed up (``sim.core.runner.warm_up``, as a run does) in subprocesses, two games at a time.

Why: compiling is single-threaded and takes minutes per game on a fresh checkout. Compiled
here, two games on two cores, the kernels go to numba's on-disk cache, and the processes that
come after (pytest's workers, a run's workers) load them instead of each compiling them, maybe
the same kernel at the same time. With a warm cache every subprocess only loads the cached
kernels. ``tests/conftest.py`` calls ``prepare`` before pytest-xdist starts its workers.

    python -m sim.prepare [--jobs 2] [GAME ...]     # default: every game with a shipped experiment
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# experiments/ holds the designers' examples; benchmarks/ the random-play ones (the random strategy's kernels)
SHIPPED = (ROOT / "experiments", ROOT / "benchmarks")


class PrepareError(RuntimeError):
    """A game's warm-up failed in its subprocess (the message ends with its last lines of output)."""


def shipped_experiments(folders=SHIPPED) -> dict[str, list[Path]]:
    """The experiment files of ``folders`` by game (their ``[experiment] game`` key), in file order."""
    by_game: dict[str, list[Path]] = {}
    for folder in folders:
        for path in sorted(Path(folder).glob("*.toml")):
            game = tomllib.loads(path.read_text(encoding="utf-8")).get("experiment", {}).get("game")
            if isinstance(game, str):
                by_game.setdefault(game, []).append(path)
    return by_game


def warm_here(paths) -> None:
    """Warm up each experiment's first variant in this process (its kernels into the cache)."""
    from sim.core.experiment import load_experiment
    from sim.core.runner import warm_up
    from sim.play import make_strategies

    for path in paths:
        exp = load_experiment(path)
        warm_up(exp, make_strategies, next(iter(exp.variants)), progress=False)


def prepare(by_game: dict[str, list[Path]], jobs: int = 2, say=print) -> dict[str, float]:
    """Warm up each game's experiments in its own subprocess, ``jobs`` at a time (the games
    known to compile longest first); ``say`` gets one line per game with its wall time.
    Returns the seconds per game; raises ``PrepareError`` with the subprocess's last lines if
    a game fails (a compile error must not pass for a slow start)."""
    import sim.games  # noqa: F401  (registers the games with their compile times)
    from sim.core.game import compile_seconds

    todo = sorted(by_game, key=lambda g: -(compile_seconds(g) or 0))
    running: dict[str, tuple[subprocess.Popen, object, float]] = {}
    seconds: dict[str, float] = {}
    try:
        while todo or running:
            while todo and len(running) < max(1, jobs):
                game = todo.pop(0)
                cmd = [sys.executable, "-m", "sim.prepare", "--here", *map(str, by_game[game])]
                log = tempfile.TemporaryFile("w+")          # a file, not a pipe: never blocks the child
                proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, text=True)
                running[game] = (proc, log, time.perf_counter())
            game = _wait_any(running)
            proc, log, started = running.pop(game)
            log.seek(0)
            output = log.read()
            log.close()
            if proc.returncode != 0:
                tail = "\n".join(output.strip().splitlines()[-15:])
                raise PrepareError(f"preparing {game} failed (exit {proc.returncode}: python -m sim.prepare --here "
                                   f"{' '.join(p.name for p in by_game[game])}):\n{tail}")
            seconds[game] = time.perf_counter() - started
            say(f"prepared {game}: {len(by_game[game])} experiments compiled or loaded in {seconds[game]:.1f} s")
    finally:
        for proc, log, _ in running.values():
            proc.kill()
            proc.wait()
            log.close()
    return seconds


def _wait_any(running: dict) -> str:
    """The first of the running subprocesses to end (polled: a handful of processes)."""
    while True:
        for game, (proc, _, _) in running.items():
            if proc.poll() is not None:
                return game
        time.sleep(0.05)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sim.prepare", description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to prepare (default: every game with a shipped experiment)")
    parser.add_argument("--jobs", type=int, default=2, help="games compiled at a time (default 2)")
    parser.add_argument("--here", action="store_true", help="warm up the given experiment files in this process")
    args = parser.parse_args(argv)
    if args.here:
        from sim.core.errors import InputError
        try:
            warm_here([Path(p) for p in args.games])
        except InputError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        return 0
    shipped = shipped_experiments()
    unknown = [g for g in args.games if g not in shipped]
    if unknown:
        print(f"error: python -m sim.prepare: no shipped experiment of {', '.join(unknown)}; expected one of "
              f"{', '.join(shipped)}", file=sys.stderr)
        return 2
    try:
        prepare({g: shipped[g] for g in args.games or shipped}, args.jobs)
    except PrepareError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
