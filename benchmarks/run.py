"""``make bench``: whole-run speed and memory, median of several runs, into docs/benchmarks.md.

Measured (Red Rising, 4 players):
* engine games/s at batch 4096 in one process, with random and with the scripted strategies;
* engine games/s with ``--jobs 2`` through the real runner (shards written);
* the oracle's games/s on the same games (random legal choices; it has no strategies);
* peak memory (RSS of the whole process tree) of a 1,000,000-game run through the CLI;
* the analysis metrics over 10 million result rows (if the analysis library offers it).

Timings are never asserted in tests; this script is where they live.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
EXPERIMENT = ROOT / "experiments" / "red_rising_houses.toml"
RANDOM_EXPERIMENT = ROOT / "benchmarks" / "red_rising_random.toml"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import psutil
    mem = psutil.virtual_memory().total / 2**30
    return (f"{cpu}, {os.cpu_count()} cores, {mem:.0f} GiB RAM, Python {platform.python_version()}, "
            f"numpy {np.__version__}, {platform.system()} {platform.release()}")


def median_rate(fn, games: int, repeats: int) -> tuple[float, list[float]]:
    rates = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        rates.append(games / (time.perf_counter() - started))
    return statistics.median(rates), rates


def engine_rate(exp_path: Path, batch: int, repeats: int):
    from sim.core.experiment import load_experiment
    from sim.core.runner import make_strategies, play_games

    exp = load_experiment(exp_path)
    game, config, content = exp.game_module(), exp.variants["base"], exp.content("base")
    strategies = make_strategies(exp, "base", game, content)
    play_games(game, config, content, strategies, exp.seed, np.arange(64))       # warm-up
    return median_rate(lambda: play_games(game, config, content, strategies, exp.seed,
                                          np.arange(batch)), batch, repeats)


def runner_rate(exp_path: Path, games: int, jobs: int, repeats: int):
    from sim.core.experiment import load_experiment
    from sim.core.runner import run_experiment

    exp = load_experiment(exp_path)

    def once():
        with tempfile.TemporaryDirectory() as out:
            run_experiment(exp, out, jobs=jobs, chunk=4096, games=games)
    return median_rate(once, games, repeats)


def oracle_rate(games: int, repeats: int):
    sys.path.insert(0, str(ROOT))
    from sim.core.experiment import load_experiment
    from tests.oracle_red_rising import OracleGame

    exp = load_experiment(EXPERIMENT)
    config, content = exp.variants["base"], exp.content("base")

    def once():
        chooser = random.Random(1)
        for g in range(games):
            oracle = OracleGame(config, content, exp.seed, g)
            while not oracle.done():
                oracle.step(chooser.choice(np.flatnonzero(oracle.legal()).tolist()))
    return median_rate(once, games, repeats)


def peak_memory(games: int) -> tuple[float, float]:
    """Peak RSS (GiB) summed over the CLI process and its workers, and the run's wall time."""
    import psutil

    with tempfile.TemporaryDirectory() as out:
        cmd = [sys.executable, "-m", "sim", "run", str(EXPERIMENT), "--games", str(games), "--jobs", "2",
               "--out", out, "--quiet"]
        started = time.perf_counter()
        proc = psutil.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
        peak = 0
        while proc.poll() is None:
            try:
                procs = [proc] + proc.children(recursive=True)
                peak = max(peak, sum(p.memory_info().rss for p in procs if p.is_running()))
            except psutil.Error:
                pass
            time.sleep(0.2)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed with {proc.returncode}")
        return peak / 2**30, time.perf_counter() - started


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--oracle-games", type=int, default=300)
    parser.add_argument("--memory-games", type=int, default=1_000_000)
    parser.add_argument("--metrics-rows", type=int, default=10_000_000)
    parser.add_argument("--out", default=str(ROOT / "docs" / "benchmarks.md"))
    args = parser.parse_args(argv)

    lines = ["# Benchmarks", "", f"Written by `make bench` on {time.strftime('%Y-%m-%d %H:%M')}.", "",
             f"Machine: {machine()}.", "",
             f"Each number is the median of {args.repeats} whole runs. Red Rising, 4 players, "
             "default synthetic deck.", "", "| measurement | result | runs |", "|---|---|---|"]

    def row(label, value, runs=""):
        lines.append(f"| {label} | {value} | {runs} |")
        print(f"{label}: {value}", flush=True)

    rnd, rnd_runs = engine_rate(RANDOM_EXPERIMENT, args.batch, args.repeats)
    row(f"engine, random strategy, batch {args.batch}, 1 process", f"{rnd:,.0f} games/s",
        ", ".join(f"{r:,.0f}" for r in rnd_runs))
    scr, scr_runs = engine_rate(EXPERIMENT, args.batch, args.repeats)
    row(f"engine, scripted strategies, batch {args.batch}, 1 process", f"{scr:,.0f} games/s",
        ", ".join(f"{r:,.0f}" for r in scr_runs))
    par, par_runs = runner_rate(EXPERIMENT, 4 * args.batch, 2, args.repeats)
    row(f"runner `--jobs 2`, scripted, {4 * args.batch} games (shards written)", f"{par:,.0f} games/s",
        ", ".join(f"{r:,.0f}" for r in par_runs))
    orc, orc_runs = oracle_rate(args.oracle_games, args.repeats)
    row(f"oracle (tests/oracle_red_rising.py), random choices, {args.oracle_games} games", f"{orc:,.1f} games/s",
        ", ".join(f"{r:,.1f}" for r in orc_runs))
    row("engine / oracle, per process (random choices both)", f"{rnd / orc:,.1f}x")
    if args.memory_games:
        peak, seconds = peak_memory(args.memory_games)
        row(f"peak memory, `python -m sim run` of {args.memory_games:,} games, `--jobs 2`",
            f"{peak:.2f} GiB (all processes)", f"{seconds:,.0f} s")
    try:
        from analyses.bench import bench_metrics
    except ImportError:
        bench_metrics = None
    if bench_metrics is not None and args.metrics_rows:
        seconds = statistics.median(bench_metrics(args.metrics_rows) for _ in range(args.repeats))
        row(f"analysis metrics over {args.metrics_rows:,} result rows", f"{seconds:.1f} s")
    lines += ["", "Targets (issue 2): engine >= 30x the oracle per process; >= 10,000 four-player games/s "
              "with `--jobs 2`; peak memory of a 1,000,000-game run < 2 GB. Issue 3: metrics over 10M rows "
              "< 60 s.", ""]
    Path(args.out).write_text("\n".join(lines))
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
