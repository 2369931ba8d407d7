"""Where a first run's time goes: each numba kernel's compile time, per game, from a fresh cache.

Why: the first ``make report`` of a fresh checkout spends most of its time compiling, so the
kernels worth splitting or simplifying are the ones this lists first. Each game's shipped
experiment warms up as ``python -m sim run`` does (``sim.core.runner.warm_up``: two games per
seat arrangement), all in this process (no helper process for the strategies' whole-game
driver, ``COMPILE_ASIDE``: every kernel's compile is seen and counted here), with
``NUMBA_CACHE_DIR`` pointed at an empty temporary folder so nothing is
cached and the project's caches are left alone. Numba's compile events give each outermost
compile (a kernel and whatever it calls and compiles with it); wall time on a shared machine
also counts other processes, so the CPU time of the process is printed too.

    .venv/bin/python -m benchmarks.compile_times [--games red_rising animal_kingdoms ...]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXPERIMENTS = {"red_rising": "red_rising_houses.toml", "animal_kingdoms": "animal_kingdoms_strategies.toml",
               "explorers_of_navoria": "explorers_of_navoria_strategies.toml",
               "recall": "recall_plans.toml"}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(EXPERIMENTS), choices=list(EXPERIMENTS))
    args = parser.parse_args(argv)
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="numba-fresh-")     # before numba is imported
    from numba.core import event

    from sim.core import runner
    from sim.core.experiment import load_experiment
    from sim.core.runner import warm_up
    from strategies.registry import make_seats

    runner.COMPILE_ASIDE = False

    for name in args.games:
        exp = load_experiment(ROOT / "experiments" / EXPERIMENTS[name])
        wall, cpu = time.perf_counter(), time.process_time()
        with event.install_recorder("numba:compile") as rec:
            warm_up(exp, make_seats, next(iter(exp.variants)), progress=False)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        kernels = _outermost(rec.buffer)
        total = sum(kernels.values())
        print(f"{name}: warm-up {wall:.1f} s wall, {cpu:.1f} s CPU; compiling {total:.1f} s "
              f"in {len(kernels)} outermost kernels")
        for kernel, seconds in sorted(kernels.items(), key=lambda kv: -kv[1])[:12]:
            print(f"  {seconds:7.1f} s  {100 * seconds / max(total, 1e-9):5.1f}%  {kernel}")
        sys.stdout.flush()
    return 0


def _outermost(buffer) -> dict:
    """Seconds per outermost compile event (nested compiles counted in their caller), by kernel."""
    out: dict = {}
    depth, started = 0, 0.0
    for stamp, ev in buffer:
        if ev.is_start:
            if depth == 0:
                started = stamp
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                d = ev.data["dispatcher"]
                key = f"{d.py_func.__module__}.{d.py_func.__qualname__}"
                out[key] = out.get(key, 0.0) + stamp - started
    return out


if __name__ == "__main__":
    raise SystemExit(main())
