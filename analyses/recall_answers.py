"""Recall's path-card, goal-card and solo answers (issue 12, questions 4, 5 and 7) from a results
folder, as polars DataFrames and markdown tables.

``python -m analyses.recall_answers {paths,goals,solo} SOURCE [--out RESULTS]`` (SOURCE as for
``python -m sim summary``: a results folder, an experiment file, ``:VARIANT``) prints one table
per variant:

* ``paths``: per path card and side (RC-E5..E25), the share of the path discs placed on it, the
  holders' win rate with its Wilson interval, and the base and specialisation points per holder
  (a seat places three discs, ``rc_path_k`` / ``rc_path_side_k``; the points are the card's
  ``score_<path>_base`` / ``_spec`` columns);
* ``goals``: per goal card kept (RC-E29), seat-games and the share met with its interval;
* ``solo``: the success rate (two goal cards met, RC-V13) overall, by tribe and by the goal cards
  kept, with intervals.

The report's generic pages cover the rest (win rates, features in play, abilities held); these
three need Recall's own columns (docs/results_schema.md, "Recall").
"""
from __future__ import annotations

import argparse
import sys

import polars as pl

from analyses.intervals import wilson

PATHS = {"PA": "ancestors", "PE": "efficiency", "PS": "saints", "PK": "knowledge", "PM": "ambition", "PP": "power"}


def _rate(frame: pl.DataFrame, successes: str, n: str, level: float) -> pl.DataFrame:
    """``rate``, ``lo``, ``hi`` columns (Wilson) of ``successes`` out of ``n``."""
    lo, hi = wilson(frame[successes].to_numpy(), frame[n].to_numpy(), level)
    return frame.with_columns((pl.col(successes) / pl.col(n)).alias("rate"), pl.Series("lo", lo), pl.Series("hi", hi))


def _points_of_disc(k: int, part: str) -> pl.Expr:
    """The ``part`` points (``base`` / ``spec``) of the card that disc ``k`` lies on."""
    return pl.coalesce([pl.when(pl.col(f"rc_path_{k}") == card).then(pl.col(f"score_{name}_{part}"))
                        for card, name in PATHS.items()])


def path_cards(rows: pl.DataFrame, level: float = 0.95) -> pl.DataFrame:
    """One row per path card and side held: discs, share of all discs, holders' win rate."""
    discs = pl.concat([
        rows.select(pl.col(f"rc_path_{k}").alias("card"), pl.col(f"rc_path_side_{k}").alias("side"), "win_share",
                    _points_of_disc(k, "base").alias("base"), _points_of_disc(k, "spec").alias("spec"))
        for k in (1, 2, 3)]).filter(pl.col("card").is_in(list(PATHS)))
    per = discs.group_by("card", "side").agg(
        pl.len().alias("discs"), pl.col("win_share").sum().alias("wins"),
        pl.col("base").mean().alias("base_points"), pl.col("spec").mean().alias("spec_points"))
    per = per.with_columns((pl.col("discs") / discs.height).alias("share"),
                           pl.col("card").replace_strict(PATHS).alias("path"))
    per = _rate(per, "wins", "discs", level)
    return per.select("card", "path", "side", "discs", "share", "rate", "lo", "hi", "base_points",
                      "spec_points").sort("card", "side")


def goal_cards(rows: pl.DataFrame, level: float = 0.95) -> pl.DataFrame:
    """One row per goal card kept (several kept cards, as in solo, are one ``a+b`` value)."""
    per = rows.group_by("rc_goal").agg(pl.len().alias("kept"), pl.col("rc_goal_met").sum().alias("met"))
    per = per.with_columns(pl.col("rc_goal").str.len_chars().alias("_len"))
    return _rate(per, "met", "kept", level).sort("_len", "rc_goal").drop("_len")


def solo(rows: pl.DataFrame, by: str | None = None, level: float = 0.95) -> pl.DataFrame:
    """Solo success (the seat's win share: 1 when two goal cards are met) overall or ``by`` a
    column (``faction``, ``rc_goal``), with mean score."""
    keys = [by] if by else []
    agg = (pl.len().alias("games"), pl.col("win_share").sum().alias("successes"), pl.col("score").mean().alias("score"))
    per = rows.group_by(keys).agg(*agg) if keys else rows.select(*agg)
    per = _rate(per, "successes", "games", level)
    return per.sort(["successes", "games"], descending=True) if keys else per


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _markdown(frame: pl.DataFrame, columns: dict) -> str:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in frame.iter_rows(named=True):
        lines.append("| " + " | ".join(cell(row) for cell in columns.values()) + " |")
    return "\n".join(lines)


def _interval(row) -> str:
    return f"{_pct(row['rate'])} [{_pct(row['lo'])}, {_pct(row['hi'])}]"


def tables(what: str, rows: pl.DataFrame) -> str:
    """The markdown of one question for one variant's rows."""
    if what == "paths":
        return _markdown(path_cards(rows), {
            "card": lambda r: f"{r['card']} ({r['path']})", "side": lambda r: r["side"],
            "share of discs": lambda r: f"{_pct(r['share'])}%", "holders' win rate % [95%]": _interval,
            "base points per holder": lambda r: f"{r['base_points']:.2f}",
            "spec points per holder": lambda r: f"{r['spec_points']:.2f}"})
    if what == "goals":
        return _markdown(goal_cards(rows), {"goal kept": lambda r: r["rc_goal"], "seat-games": lambda r: str(r["kept"]),
                                            "met % [95%]": _interval})
    out = [_markdown(solo(rows), {"games": lambda r: str(r["games"]), "success % [95%]": _interval,
                                  "mean score": lambda r: f"{r['score']:.1f}"})]
    for by in ("faction", "rc_goal"):
        out.append(_markdown(solo(rows, by), {by: lambda r, by=by: str(r[by]), "games": lambda r: str(r["games"]),
                                              "success % [95%]": _interval, "mean score": lambda r: f"{r['score']:.1f}"}))
    return "\n\n".join(out)


def main(argv=None) -> int:
    from analyses.load import open_results
    from sim.core.errors import InputError

    parser = argparse.ArgumentParser(prog="python -m analyses.recall_answers", description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("paths", "goals", "solo"))
    parser.add_argument("source", help="results folder, experiment file, optionally :VARIANT")
    parser.add_argument("--out", default="results", help="results root for an experiment file (default results/)")
    args = parser.parse_args(argv)

    try:
        loaded = open_results(args.source, args.out)
        text = [f"{args.what}, {variant}\n\n{tables(args.what, loaded.scan(variant).collect())}"
                for variant in loaded.variants]
    except InputError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print("\n\n".join(text))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
