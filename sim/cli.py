"""The command line: run experiments, replay one game, score a described position.

This is the top of the house: it ties the ground floor (``sim.core``), the games, the
strategies and the analyses together. Bad input (files, keys, values) prints one line
``error: <file>: <place>: <problem>`` and exits with status 2, before anything is written.
Analysis commands (report, compare, summary) are registered by ``analyses.cli``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from sim.core.cliargs import EXIT_INPUT, number_type, positive_int
from sim.core.errors import InputError
from sim.core.results import MAX_GAME_INDEX, MAX_GAMES, MAX_SEED

games_int = number_type(int, lambda v: 1 <= v <= MAX_GAMES, f"a positive integer up to {MAX_GAMES}")
game_index = number_type(int, lambda v: 0 <= v <= MAX_GAME_INDEX, f"an integer from 0 to {MAX_GAME_INDEX}")
seed_int = number_type(int, lambda v: 0 <= v <= MAX_SEED, f"an integer from 0 to {MAX_SEED} (2^63 - 1)")

class _Parser(argparse.ArgumentParser):
    """argparse with exit status 2 and a one-line message for usage errors."""

    def error(self, message):
        print(f"error: {self.prog}: {message}", file=sys.stderr)
        raise SystemExit(EXIT_INPUT)


def _interrupt_on_sigterm(signum, frame):
    raise KeyboardInterrupt


def cmd_run(args) -> int:
    import signal

    from sim.core.experiment import load_experiment
    from sim.play import run_experiment

    signal.signal(signal.SIGTERM, _interrupt_on_sigterm)      # a polite kill ends like Ctrl-C

    exp = load_experiment(args.experiment).with_overrides(games=args.games, seed=args.seed, chunk=args.chunk)
    out = run_experiment(exp, out_root=args.out, jobs=args.jobs, chunk=exp.chunk, backend=args.backend,
                         scheduler=args.scheduler, variants=args.variant or None,
                         first_game=args.first_game, progress=not args.quiet)
    print(f"results: {out}")
    return 0


def _experiment_for_replay(target: str):
    """An experiment file, or a results folder whose manifest names its experiment file (an
    absolute path, so replay works from any directory)."""
    from sim.core.experiment import load_experiment
    from sim.core.hashing import bytes_hash
    from sim.core.results import MANIFEST, read_manifest

    path = Path(target)
    if path.is_dir():
        manifest = read_manifest(path)
        if manifest is None:
            raise InputError(path, None, "no manifest.json: expected an experiment file or a results folder")
        file = Path(manifest.get("experiment_file", ""))
        if not file.is_file():
            raise InputError(path / MANIFEST, "experiment_file", f"the experiment file {file} is not there any more; "
                             "replay the experiment file itself (python -m sim replay FILE --seed S)")
        if manifest.get("experiment_file_hash") not in (None, bytes_hash(file.read_bytes())):
            print(f"# note: {file} has changed since these results were written")
        exp = load_experiment(file)
        return exp.with_overrides(seed=manifest["seed"]), path
    return load_experiment(path), None


def cmd_replay(args) -> int:
    from sim.core import replay
    from sim.core.runner import seat_orders
    from sim.play import make_strategies, play_games

    exp, results_dir = _experiment_for_replay(args.target)
    if args.seed is not None:
        exp = exp.with_overrides(seed=args.seed)
    variant = args.variant or next(iter(exp.variants))
    if variant not in exp.variants:
        raise InputError(exp.path, "variants", f"unknown variant {variant!r}; expected one of {', '.join(exp.variants)}")
    game = exp.game_module()
    config, content = exp.variants[variant], exp.content(variant)
    strategies = make_strategies(exp, variant, game, content)
    names = [s.strategy for s in exp.seats_of(variant)]
    orders = seat_orders(strategies, exp.seating)     # the game's own slots hold these plans
    log = replay.ReplayLog(game, [names[i] for i in orders[args.game % len(orders)]])
    outcome, _ = play_games(game, config, content, strategies, exp.seed, np.array([args.game]), on_step=log,
                             seating=exp.seating)
    seats = outcome["per_seat"]
    print("\n".join(replay.header_lines(exp.name, variant, args.game, exp.seed, exp.config_hash(variant, strategies),
                                        exp.game, replay.seats_of_outcome(seats, names))))
    print("\n".join(log.lines))
    print("\n".join(replay.result_lines(outcome)))
    _check_against_results(results_dir, variant, args.game, seats)
    return 0


def _check_against_results(results_dir, variant, game_index, seats) -> None:
    """When replaying from a results folder, say whether the replay reproduces the stored rows."""
    if results_dir is None:
        return
    import polars as pl

    from sim.core.results import scan
    try:
        rows = scan(results_dir, variant).filter(pl.col("game") == game_index).sort("seat").collect()
    except (pl.exceptions.ComputeError, FileNotFoundError, OSError):
        rows = None
    if rows is None or rows.height == 0:
        print(f"# game {game_index} is not in {results_dir}/{variant} yet")
        return
    same = rows["score"].to_list() == [int(x) for x in seats["score"][0]]
    print("# matches the stored results" if same else "# DIFFERS from the stored results")


def cmd_score(args) -> int:
    from sim.core.game import game_names, get_game

    if args.game not in game_names():
        raise InputError("command line", "GAME", f"unknown game {args.game!r}; expected one of {', '.join(game_names())}")
    rows = get_game(args.game).score_position(args.position)
    parts = [k for k in rows[0] if k.startswith("score_")]
    header = ["seat", "faction", "score"] + [p[6:] for p in parts] + ["rank", "win_share"]
    table = [[str(r.get("seat", i)), str(r.get("faction", "")), str(r["score"])] + [str(r[p]) for p in parts]
             + [str(r["rank"]), f"{r['win_share']:.3g}"] for i, r in enumerate(rows)]
    widths = [max(len(h), *(len(row[i]) for row in table)) for i, h in enumerate(header)]
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    for row in table:
        print("  ".join(c.rjust(w) for c, w in zip(row, widths)))
    return 0


def cmd_describe(args) -> int:
    """Print one seeded setup of a game (board, water, start fields, offers), from its defaults
    and ``--config KEY=VALUE`` settings (values in TOML syntax)."""
    import tomllib

    from sim.core.config import build
    from sim.core.game import game_names, get_game

    if args.game not in game_names():
        raise InputError("command line", "GAME", f"unknown game {args.game!r}; expected one of {', '.join(game_names())}")
    game = get_game(args.game)
    if not hasattr(game, "describe_setup"):
        raise InputError("command line", "GAME", f"{args.game} has no setup description; "
                         "`python -m sim replay` prints a game's setup and play")
    raw = {}
    for item in args.config or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InputError("command line", "--config", f"expected KEY=VALUE, got {item!r}")
        try:
            raw[key.strip()] = tomllib.loads(f"v = {value}")["v"]
        except tomllib.TOMLDecodeError:
            raw[key.strip()] = value              # a bare word: a string
    config = build(game.Config, raw, "command line", "--config ")
    print(game.describe_setup(config, game.load_content(config, "command line"), args.seed, args.game_index))
    return 0


def _known_game(name: str):
    from sim.core.game import game_names, get_game

    if name not in game_names():
        raise InputError("command line", "GAME", f"unknown game {name!r}; expected one of {', '.join(game_names())}")
    return get_game(name)


def cmd_config(args) -> int:
    """Every config key of a game: type, default, allowed values, rule ids, meaning (sim.reference)."""
    from sim.reference import config_text

    print(config_text(_known_game(args.game), args.markdown))
    return 0


def cmd_strategies(args) -> int:
    """The strategies that play a game, with their parameters and a one-line description."""
    from sim.reference import strategies_text

    print(strategies_text(_known_game(args.game), args.markdown))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m sim", description="Monte Carlo simulation and balance analysis of board games.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    run = sub.add_parser("run", help="play an experiment and write its results shards")
    run.add_argument("experiment", help="experiment file (TOML)")
    run.add_argument("--games", type=games_int, help="number of games per variant (default: the file's)")
    run.add_argument("--jobs", type=positive_int, default=1, help="parallel worker processes (default 1)")
    run.add_argument("--chunk", type=positive_int, help="games per chunk / shard (default: the file's)")
    run.add_argument("--seed", type=seed_int, help="experiment seed (default: the file's)")
    run.add_argument("--out", default="results", help="results root folder (default results/)")
    run.add_argument("--first-game", type=game_index, default=0, help="index of the first game (default 0)")
    run.add_argument("--variant", action="append", help="play only this variant (repeatable)")
    run.add_argument("--backend", default="loky", choices=["loky", "dask"], help="joblib backend (default loky)")
    run.add_argument("--scheduler", help="Dask scheduler address (with --backend dask)")
    run.add_argument("--quiet", action="store_true", help="no progress output")
    run.set_defaults(func=cmd_run)

    replay = sub.add_parser("replay", help="re-play one game alone and print every decision and its effect")
    replay.add_argument("target", help="experiment file or its results folder")
    replay.add_argument("--game", type=game_index, required=True, help="game index")
    replay.add_argument("--variant", help="variant name (default: the first)")
    replay.add_argument("--seed", type=seed_int, help="seed (default: the experiment's / the results')")
    replay.set_defaults(func=cmd_replay)

    score = sub.add_parser("score", help="score a described end-of-game position (JSON)")
    score.add_argument("game", help="game name, e.g. red_rising")
    score.add_argument("position", help="position file (JSON, see docs/positions.md)")
    score.set_defaults(func=cmd_score)

    describe = sub.add_parser("describe", help="print one seeded setup of a game (board, water areas, start fields)")
    describe.add_argument("game", help="game name, e.g. recall")
    describe.add_argument("--config", action="append", metavar="KEY=VALUE",
                          help="a config setting (TOML value), e.g. players=2 (repeatable)")
    describe.add_argument("--seed", type=seed_int, default=1, help="experiment seed (default 1)")
    describe.add_argument("--game-index", type=game_index, default=0, help="game index (default 0)")
    describe.set_defaults(func=cmd_describe)

    for name, func, what in (("config", cmd_config, "every config key of a game: type, default, allowed values, rule id"),
                             ("strategies", cmd_strategies, "the strategies of a game with their parameters")):
        listing = sub.add_parser(name, help=what)
        listing.add_argument("game", help="game name, e.g. red_rising")
        listing.add_argument("--markdown", action="store_true", help="as Markdown tables (as in docs/reference.md)")
        listing.set_defaults(func=func)

    from analyses import cli as analyses_cli
    analyses_cli.register(sub)
    from analyses import tune_cli
    tune_cli.register(sub)               # tune, ladder (docs/tuning.md)
    for command in sub.choices.values():
        command.add_argument("--plugin-path", action="append", metavar="DIR",
                             help="folder to import a plug-in game from (repeatable); plug-ins are code, and "
                                  "the current directory is never searched for them (docs/experiments.md)")
    return parser


def _allow_plugins(folders) -> None:
    from sim.core.game import allow_plugin_path

    for folder in folders or ():
        if not Path(folder).is_dir():
            raise InputError("command line", "--plugin-path", f"expected an existing folder, got {folder!r}")
        allow_plugin_path(folder)


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        _allow_plugins(args.plugin_path)
        return int(args.func(args) or 0)
    except InputError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("interrupted: finished shards are kept; run the same command again to resume", file=sys.stderr)
        return 130
    except BrokenPipeError:         # output piped into `head` and cut: not an error of ours
        sys.stderr.close()
        return 0
