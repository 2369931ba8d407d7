"""The search player's rows of ``make bench`` (issue 16, part 4): decisions per second of the
search seat at its default budget, and games per second of a four-player game with one search
seat (experiments/<game>_search.toml: three tuned plans at the other seats), in one process.

    python -m benchmarks.search --games 16        # these rows alone, printed
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("red_rising", "animal_kingdoms", "explorers_of_navoria", "recall")


def search_rate(name: str, games: int, first_game: int = 10_000):
    """(search decisions/s, games/s, decisions per game, the search seat's params) over ``games`` games played in
    one batch (after two warm-up games that compile the kernels)."""
    from sim.core.experiment import load_experiment
    from sim.core.runner import play_games
    from sim.play import make_strategies

    exp = load_experiment(ROOT / "experiments" / f"{name}_search.toml")
    variant = next(iter(exp.variants))
    game, config, content = exp.game_module(), exp.variants[variant], exp.content(variant)
    seats = make_strategies(exp, variant, game, content)
    search = seats[0]
    counted = {"decisions": 0}
    act = search.act

    def counting(obs, legal, rng):
        counted["decisions"] += len(legal)
        return act(obs, legal, rng)

    search.act = counting
    play_games(game, config, content, seats, exp.seed, np.arange(2))          # compile
    counted["decisions"] = 0
    started = time.perf_counter()
    play_games(game, config, content, seats, exp.seed, np.arange(first_game, first_game + games), seating=exp.seating)
    seconds = time.perf_counter() - started
    return counted["decisions"] / seconds, games / seconds, counted["decisions"] / games, search.params


def rows(row, games: int, names=GAMES) -> None:
    """Append the search rows through ``row(label, value, runs)`` (benchmarks/run.py)."""
    for name in names:
        dps, gps, per_game, p = search_rate(name, games)
        halving = ", halving" if p.halving else ""
        row(f"{name}: search seat (budget {p.budget}, {p.rollout} rollouts{halving}) vs the file's 3 plans, {games} games, 1 process",
            f"{dps:,.1f} decisions/s; {gps:,.3f} games/s", f"{per_game:,.0f} search decisions per game")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--only", nargs="+", default=list(GAMES), choices=list(GAMES))
    args = parser.parse_args(argv)
    rows(lambda label, value, runs="": print(f"| {label} | {value} | {runs} |", flush=True), args.games, args.only)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
