"""Where a first run's time goes: each numba kernel's compile time, per game, from a fresh cache.

Why: the first ``make report`` of a fresh checkout spends most of its time compiling, so the
kernels worth splitting or simplifying are the ones this lists first. Each game's shipped
experiment warms up as ``python -m sim run`` does (``sim.core.runner.warm_up``: two games per
seat arrangement), all in this process (no helper process for the strategies' whole-game
driver, ``COMPILE_ASIDE``: every kernel's compile is seen and counted here), with
``NUMBA_CACHE_DIR`` pointed at an empty temporary folder so nothing is
cached and the project's caches are left alone. Numba's compile events give each outermost
compile (a kernel and whatever it calls and compiles with it); wall time on a shared machine
also counts other processes, so the CPU time of the process is printed too. ``--own`` adds each
function's own share (its nested compiles left out) and how much of it was LLVM (numba's
``numba:llvm_lock`` event: optimising the module with every callee linked in, and machine code)
rather than numba's front end (typing, lowering).

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
    parser.add_argument("--own", action="store_true", help="also each function's own compile time and its LLVM part")
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
        with event.install_recorder("numba:compile") as rec, event.install_recorder("numba:llvm_lock") as lock:
            warm_up(exp, make_seats, next(iter(exp.variants)), progress=False)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        kernels = _outermost(rec.buffer)
        total = sum(kernels.values())
        print(f"{name}: warm-up {wall:.1f} s wall, {cpu:.1f} s CPU; compiling {total:.1f} s "
              f"in {len(kernels)} outermost kernels")
        for kernel, seconds in sorted(kernels.items(), key=lambda kv: -kv[1])[:12]:
            print(f"  {seconds:7.1f} s  {100 * seconds / max(total, 1e-9):5.1f}%  {kernel}")
        if args.own:
            own = _own(rec.buffer, lock.buffer)
            llvm = sum(v[1] for v in own.values())
            print(f"  own time by function (LLVM {llvm:.1f} s of {total:.1f} s, {100 * llvm / max(total, 1e-9):.0f}%):")
            for kernel, (seconds, in_llvm) in sorted(own.items(), key=lambda kv: -kv[1][0])[:25]:
                print(f"  {seconds:7.1f} s  {100 * seconds / max(total, 1e-9):5.1f}%  LLVM {in_llvm:6.1f} s  {kernel}")
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


def _own(compiles, locks) -> dict:
    """(own seconds, own seconds holding numba's LLVM lock) per function: each compile event's
    time minus the compile events nested in it; LLVM time goes to the innermost open compile."""
    merged = sorted([(stamp, 0, ev) for stamp, ev in compiles] + [(stamp, 1, ev) for stamp, ev in locks],
                    key=lambda item: item[0])
    out: dict = {}
    stack: list = []                       # [start, nested compile seconds, LLVM seconds] per open compile
    lock_depth, lock_start = 0, 0.0
    for stamp, kind, ev in merged:
        if kind == 1:
            if ev.is_start:
                if lock_depth == 0:
                    lock_start = stamp
                lock_depth += 1
            else:
                lock_depth -= 1
                if lock_depth == 0 and stack:
                    stack[-1][2] += stamp - lock_start
        elif ev.is_start:
            stack.append([stamp, 0.0, 0.0])
        else:
            started, nested, in_llvm = stack.pop()
            d = ev.data["dispatcher"]
            key = f"{d.py_func.__module__}.{d.py_func.__qualname__}"
            seconds, llvm = out.get(key, (0.0, 0.0))
            out[key] = (seconds + stamp - started - nested, llvm + in_llvm)
            if stack:
                stack[-1][1] += stamp - started
    return out


if __name__ == "__main__":
    raise SystemExit(main())
