"""Several player counts side by side: one column per count (``config.players = [2, 3, 4]``).

Why its own table: a designer asks "is this faction strong at every table size?", which reads
across counts; the per-variant pages answer one count each. The variants of an experiment with
several counts are named ``players=N`` (or ``NAME,players=N``); every results row also carries
its ``players`` column, which the figures group by.
"""
from __future__ import annotations

import re

import polars as pl

from analyses import winrates

_COUNT = re.compile(r"^(?:(.*),)?players=(\d+)$")


def families(variants) -> dict:
    """Variants grouped by what they share apart from the count: {prefix: {count: variant}}
    (prefix "" for plain ``players=N``); only prefixes with two or more counts."""
    out: dict = {}
    for v in variants:
        m = _COUNT.match(v)
        if m:
            out.setdefault(m.group(1) or "", {})[int(m.group(2))] = v
    return {k: dict(sorted(c.items())) for k, c in out.items() if len(c) > 1}


def side_by_side(results, counts: dict, by: str, level: float = 0.95) -> pl.DataFrame:
    """Win rate minus fair share of each value of ``by`` (rows), one column per player count
    (``"2 players"``, ...; null where the value does not play at that count), and the games."""
    tables = []
    for n, variant in counts.items():
        rates = winrates.win_rates(results.scan(variant), by, level)
        tables.append(rates.select(pl.col(by).cast(pl.String), pl.col("excess").alias(f"{n} players"),
                                   pl.col("lo").sub(pl.col("fair")).alias(f"lo {n}"),
                                   pl.col("hi").sub(pl.col("fair")).alias(f"hi {n}")))
    wide = tables[0]
    for t in tables[1:]:
        wide = wide.join(t, on=by, how="full", coalesce=True)
    return wide.sort(by)


def format_side_by_side(table: pl.DataFrame, by: str, counts: dict, title: str) -> list[str]:
    """The table as text: each cell ``+x.x pp [lo, hi]``."""
    width = max(len(by), *(len(str(v)) for v in table[by].to_list())) + 2
    cols = [f"{n} players" for n in counts]
    lines = [title, f"{by:<{width}}" + "".join(f"{c:>24}" for c in cols)]
    for row in table.iter_rows(named=True):
        cells = []
        for n in counts:
            x, lo, hi = row[f"{n} players"], row[f"lo {n}"], row[f"hi {n}"]
            text = "-" if x is None else f"{100 * x:+.1f} pp [{100 * lo:+.1f}, {100 * hi:+.1f}]"
            cells.append(f"{text:>24}")
        lines.append(f"{str(row[by]):<{width}}" + "".join(cells))
    lines.append("win rate minus fair share (1 / players), percentage points [interval at each count alone]")
    return lines
