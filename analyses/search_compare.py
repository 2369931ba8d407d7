"""Paired comparison of search-player settings on the same games (issue 16, part 1).

Each ``--set`` is one arm: slot 0's ``search`` seat with the file's params updated by an inline
TOML table (``--set 'halving = true, narrow = 0'``; ``--set ''`` is the file's own params),
against the file's other seats, on the same games (seed and game indices), so the arms differ
only by the setting. It prints one row per arm: win share, Wilson 95 % interval, x fair, mean
rollouts per searched decision, seconds, and the paired difference to the first arm (mean of
the per-game differences, Student's t 95 %). ``--save`` writes the per-game shares (Parquet);
``--against`` adds the arms of such a file (the same games, played in another process) before
this run's, so two processes can share the work on two cores:

    python -m analyses.search_compare experiments/animal_kingdoms_search.toml --games 300 \\
        --set '' --set 'halving = true' --save /tmp/arms.parquet
"""
from __future__ import annotations

import argparse
import sys
import tomllib

import numpy as np
import polars as pl

from analyses.intervals import t_interval
from analyses.search_curve import seat_games, share_row
from sim.core.errors import InputError


def parse_setting(text: str) -> dict:
    """``'halving = true, narrow = 0'`` as a dict (an inline TOML table's body)."""
    try:
        return tomllib.loads(f"arm = {{{text}}}")["arm"]
    except tomllib.TOMLDecodeError as err:
        raise InputError("--set", text, f"expected an inline TOML table's body like 'halving = true, narrow = 0' ({err})") from None


def play_arms(exp, settings: list[str], games: int, first_game: int = 0) -> pl.DataFrame:
    """Per-game rows (arm, game, share, rollouts per searched decision, seconds) of every arm."""
    frames = []
    for text in settings:
        share, seconds, spent = seat_games(exp, parse_setting(text), games, first_game)
        frames.append(pl.DataFrame({"arm": text, "game": np.arange(first_game, first_game + games), "share": share,
                                    "rollouts": spent, "seconds": seconds}))
        print(f"arm {text!r}: win share {share.mean():.3f} in {seconds:.0f} s", file=sys.stderr, flush=True)
    return pl.concat(frames)


def compare(per_game: pl.DataFrame, seats: int) -> pl.DataFrame:
    """One row per arm (in order of first appearance): its share, and the paired difference
    to the first arm on the games both played."""
    arms = per_game["arm"].unique(maintain_order=True).to_list()
    first = per_game.filter(pl.col("arm") == arms[0]).select("game", pl.col("share").alias("base"))
    rows = []
    for arm in arms:
        mine = per_game.filter(pl.col("arm") == arm)
        both = mine.join(first, on="game")
        diff = (both["share"] - both["base"]).to_numpy()
        lo, hi = t_interval(diff.mean(), diff.std(ddof=1) if len(diff) > 1 else np.nan, len(diff))
        rows.append({"arm": arm or "(file)", **share_row(mine["share"].to_numpy(), seats),
                     "rollouts": float(mine["rollouts"][0]), "seconds": float(mine["seconds"][0]),
                     "diff": float(diff.mean()), "diff_lo": float(lo), "diff_hi": float(hi)})
    return pl.DataFrame(rows)


def main(argv=None) -> int:
    from sim.core.experiment import load_experiment

    ap = argparse.ArgumentParser(prog="python -m analyses.search_compare", description=__doc__.splitlines()[0])
    ap.add_argument("experiment")
    ap.add_argument("--set", dest="settings", action="append", default=[], help="one arm: params to change (inline TOML)")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--first-game", type=int, default=0)
    ap.add_argument("--save", default=None, help="write the per-game shares here (Parquet)")
    ap.add_argument("--against", default=None, help="per-game shares of earlier arms (a --save file)")
    args = ap.parse_args(argv)
    try:
        exp = load_experiment(args.experiment)
        for text in args.settings:
            parse_setting(text)
        per_game = play_arms(exp, args.settings, args.games, args.first_game)
        if args.against:
            per_game = pl.concat([pl.read_parquet(args.against), per_game])
    except InputError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.save:
        per_game.write_parquet(args.save)
    with pl.Config(tbl_rows=-1, tbl_cols=-1, fmt_str_lengths=60, tbl_width_chars=200):
        print(compare(per_game, len(exp.seats)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
