"""Win share of the search player against rollouts per decision (issue 16, part 2).

``budget_curve(exp, budgets, games)`` plays the experiment's first variant once per budget with
slot 0's ``search`` seat set to that budget (the other seats as the file says, the same games:
seed and game indices) and returns one row per budget: games, the search seat's win share with
its Wilson 95 % interval, the multiple of the fair share, and the seconds it took. The command
line prints the table and writes the figure (``reports.figures.budget_curve``). ``--save``
writes the table (Parquet) and ``--against`` adds the rows of such a file (other budgets on the
same games, played in another process), so two processes can share the budgets on two cores:

    python -m analyses.search_curve experiments/animal_kingdoms_search.toml --budgets 4,16,32 --games 200
    python -m analyses.search_curve FILE --budgets 64 --save /tmp/b64.parquet &
    python -m analyses.search_curve FILE --budgets 8,32 --against /tmp/b64.parquet --figure curve.png
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import polars as pl

from analyses.intervals import wilson
from sim.core.errors import InputError


def seat_games(exp, overrides: dict, games: int, first_game: int = 0):
    """Slot 0's ``search`` seat with its params updated by ``overrides`` (checked as a seat's)
    against the file's other seats on games ``first_game`` on: (per-game win share of slot 0,
    seconds, mean rollouts per search decision that was not forced)."""
    from sim.core.runner import play_games
    from sim.play import make_strategies
    from strategies import registry

    variant = next(iter(exp.variants))
    if exp.seats[0].strategy != "search":
        raise InputError(exp.path, "seats[0].strategy", f"expected 'search' for a search comparison, got {exp.seats[0].strategy!r}")
    game, config, content = exp.game_module(), exp.variants[variant], exp.content(variant)
    seats = make_strategies(exp, variant, game, content)
    seats[0] = registry.make("search", {**exp.seats[0].params, **overrides}, game, content, str(exp.path), "seats[0]")
    spent = _count_rollouts(seats[0])
    started = time.perf_counter()
    outcome, _ = play_games(game, config, content, seats, exp.seed, np.arange(first_game, first_game + games),
                            seating=exp.seating)
    seconds = time.perf_counter() - started
    ps = outcome["per_seat"]
    share = (ps["win_share"] * (ps["slot"] == 0)).sum(axis=1)
    return share, seconds, spent["rollouts"] / max(spent["decisions"], 1)


def _count_rollouts(search) -> dict:
    """Count the searched decisions and rollouts of ``search`` (wraps its act and _play)."""
    spent = {"rollouts": 0, "decisions": 0}
    act, play = search.act, search._play

    def counting_act(obs, legal, rng):
        spent["decisions"] += int((legal.sum(axis=1) > 1).sum())
        return act(obs, legal, rng)

    def counting_play(state, actions, *rest):
        spent["rollouts"] += len(actions)
        return play(state, actions, *rest)

    search.act, search._play = counting_act, counting_play
    return spent


def share_row(share: np.ndarray, seats: int) -> dict:
    """Games, win share, its Wilson 95 % interval and the multiple of the fair share."""
    wins, games = float(share.sum()), len(share)
    lo, hi = wilson(wins, games)
    return {"games": games, "win_share": wins / games, "lo": float(lo), "hi": float(hi),
            "x_fair": wins / games * seats}


def budget_curve(exp, budgets, games: int, first_game: int = 0) -> pl.DataFrame:
    """One row per budget: slot 0 (a ``search`` seat) at that budget against the other seats."""
    rows = []
    for budget in budgets:
        share, seconds, spent = seat_games(exp, {"budget": int(budget)}, games, first_game)
        rows.append({"budget": int(budget), **share_row(share, len(exp.seats)), "seconds": seconds,
                     "rollouts": spent})
    return pl.DataFrame(rows)


COLUMNS = ["budget", "games", "win_share", "lo", "hi", "x_fair", "seconds", "rollouts"]


def saved_rows(path: str, games: int) -> pl.DataFrame:
    """The rows of a ``--save`` file, checked before any game is played: the curve's columns,
    and as many games per budget as this run (the same games, with the same file and
    --first-game)."""
    try:
        rows = pl.read_parquet(path)
    except (OSError, pl.exceptions.PolarsError) as err:
        raise InputError(path, "--against", f"expected a table written by --save ({err})") from None
    if not set(COLUMNS) <= set(rows.columns) or (rows["games"] != games).any():
        raise InputError(path, "--against", f"expected a --save table of {games} games per budget with columns {COLUMNS}")
    return rows.select(COLUMNS)


def main(argv=None) -> int:
    from reports.figures import Stamp, budget_curve as figure
    from sim.core.experiment import load_experiment

    ap = argparse.ArgumentParser(prog="python -m analyses.search_curve", description=__doc__.splitlines()[0])
    ap.add_argument("experiment")
    ap.add_argument("--budgets", default="4,16,32", help="rollouts per decision, comma-separated")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--first-game", type=int, default=0)
    ap.add_argument("--figure", default=None, help="write the figure here (png or pdf)")
    ap.add_argument("--save", default=None, help="write the table here (Parquet)")
    ap.add_argument("--against", default=None, help="add the rows of a --save file (the same games)")
    args = ap.parse_args(argv)
    try:
        budgets = [int(b) for b in args.budgets.split(",")]
        if not budgets or min(budgets) < 1:
            raise ValueError
    except ValueError:
        print(f"error: --budgets: expected positive integers separated by commas, got {args.budgets!r}", file=sys.stderr)
        return 2
    try:
        exp = load_experiment(args.experiment)
        earlier = saved_rows(args.against, args.games) if args.against else None
        table = budget_curve(exp, budgets, args.games, args.first_game)
        if args.save:
            table.write_parquet(args.save)
        if earlier is not None:
            table = pl.concat([earlier, table.select(COLUMNS)]).sort("budget")
    except InputError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    with pl.Config(tbl_rows=-1, tbl_cols=-1):
        print(table)
    if args.figure:
        stamp = Stamp(exp.name, None, f"{args.games:,} games per budget", exp.config_hash(next(iter(exp.variants))),
                      "Wilson 95 %")
        figure(table, stamp, 1.0 / len(exp.seats)).savefig(args.figure)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
