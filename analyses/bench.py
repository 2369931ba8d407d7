"""``bench_metrics(n_rows)``: time the full metric pass over a synthetic sharded results set.

Why: the promise is "metrics over 10 million rows in under a minute" with lazy scans and no
copy into pandas; this builds such a set (4 players, 6 factions, 4 strategies, 3 score
components, shards of 1 million rows) in a temporary folder, then times
``analyses.metrics.compute`` on it: opening and checking the shards, the balance summary,
seat advantage, faction x seat, scores, margin of victory, game length, end reasons and the
Plackett-Luce ratings. Building the data is not timed. ``make bench`` calls it; tests never
assert timings.
"""
from __future__ import annotations

import sys
import tempfile
import time

from analyses import metrics
from analyses.load import open_results
from analyses.synthetic import Variant, write_results

PLAYERS = 4


def build(root, n_rows: int):
    """Write about ``n_rows`` rows (n_rows / 4 four-player games) under ``root``; return the dir."""
    games = max(n_rows // PLAYERS, 1)
    variant = Variant(factions={f"house_{i}": 1.0 + 0.03 * i for i in range(6)}, players=(PLAYERS,),
                      strategies=("greedy", "random", "rush", "balanced"), shared_win_rate=0.02)
    return write_results(root, "bench", {"base": variant}, games=games, shard_games=250_000)


def bench_metrics(n_rows: int = 10_000_000) -> float:
    """Seconds for one full metric pass over ``n_rows`` synthetic result rows."""
    with tempfile.TemporaryDirectory(prefix="bench-metrics-") as tmp:
        path = build(tmp, n_rows)
        started = time.perf_counter()
        results = open_results(path)
        metrics.compute(results, "base")
        return time.perf_counter() - started


if __name__ == "__main__":
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    seconds = bench_metrics(rows)
    print(f"metrics over {rows:,} rows: {seconds:.1f} s")
