"""Subcommands ``tune`` (search a plan's weights) and ``ladder`` (order entrants by strength).

``sim.cli`` calls ``register(subparsers)``, as for ``analyses.cli``. docs/tuning.md has the how
and why; bad input is an InputError (one line, exit 2) raised before anything is written.
"""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

from sim.core.cliargs import non_negative_int, number_type, positive_int

_sigma = number_type(float, lambda v: 0 < v <= 10, "a number in (0, 10]")


def register(subparsers) -> None:
    tune = subparsers.add_parser("tune", help="search a plan's weights (CMA-ES) to maximise its win share")
    tune.add_argument("experiment", help="experiment file: its seats are the field; the plan plays its own seats")
    tune.add_argument("--strategy", required=True, help="the plan to tune (a strategy name of the seats)")
    tune.add_argument("--budget", type=positive_int, default=20000, help="games for the search (default 20000)")
    tune.add_argument("--seed", type=non_negative_int, default=0, help="seed of the search (default 0)")
    tune.add_argument("--games-per-eval", type=positive_int, default=500,
                      help="games per candidate, the same games for a generation's candidates (default 500)")
    tune.add_argument("--final-games", type=positive_int, default=4000,
                      help="games of the final check on a fresh seed (default 4000)")
    tune.add_argument("--param", action="append",
                      help="tune only this parameter (repeatable; default: all number fields): a number field, "
                           "one entry of a table Param (tribes.Hayla) or a whole table (goals: its number entries)")
    tune.add_argument("--seat", type=non_negative_int,
                      help="put the plan in this seat only, the file's other seats are the field (default: the "
                           "plan plays every seat that names it)")
    tune.add_argument("--field", help="copies of this strategy (default weights) in the other seats; "
                                       "the plan sits in --seat (default 0)")
    tune.add_argument("--sigma", type=_sigma, default=0.3,
                      help="CMA-ES's first step as a share of each weight (default 0.3; smaller refines a good plan)")
    tune.add_argument("--variant", help="variant to tune in (default: the first)")
    tune.add_argument("--params-out", help="parameter file to write (default strategies/tuned/<strategy>.toml)")
    tune.add_argument("--report-dir", default=str(Path("reports") / "out"),
                      help="where the history figure tune_<strategy>.png goes (default reports/out/)")
    tune.set_defaults(func=cmd_tune)

    lad = subparsers.add_parser("ladder", help="skill ladder of an experiment's [[entrants]]: ratings, head to head")
    lad.add_argument("experiment", help="experiment file with [[entrants]] (experiments/<game>_ladder.toml)")
    lad.add_argument("--games", type=positive_int, default=2000, help="games per table (default 2000)")
    lad.add_argument("--tables", type=positive_int, help="mixed tables (default: four per entrant)")
    lad.add_argument("--seed", type=non_negative_int, help="seed (default: the file's)")
    lad.add_argument("--out", default="results", help="results root: the ladder is kept in <out>/<experiment>/")
    lad.add_argument("--report-dir", default=str(Path("reports") / "out"),
                     help="where <experiment>_ladder.pdf and its PNGs go (default reports/out/)")
    lad.set_defaults(func=cmd_ladder)


def _log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def cmd_tune(args) -> int:
    from analyses.tune import tune, write_params_file
    from reports.ladder import tuning_history
    from reports.report import check_report_dir
    from sim.core.experiment import load_experiment
    from analyses.tune import search_space, tuned_table
    from strategies import registry

    exp = load_experiment(args.experiment)
    seats, slots = tuned_table(exp, args.strategy, args.seat, args.field)
    search_space(registry.strategy_class(args.strategy).Params, args.param, seats[slots[0]].params)
    report_dir = check_report_dir(args.report_dir)
    result = tune(exp, args.strategy, args.budget, args.seed, args.games_per_eval, args.final_games,
                  args.param, args.variant, args.seat, args.sigma, args.field, log=_log)
    out = Path(args.params_out or Path("strategies") / "tuned" / f"{args.strategy}.toml")
    command = (f"python -m sim tune {shlex.quote(args.experiment)} --strategy {args.strategy} --budget {args.budget} "
               f"--seed {args.seed} --games-per-eval {args.games_per_eval} --final-games {args.final_games}"
               + "".join(f" --param {shlex.quote(p)}" for p in args.param or ())
               + (f" --seat {args.seat}" if args.seat is not None else "") + f" --sigma {args.sigma}"
               + (f" --field {args.field}" if args.field else ""))
    write_params_file(result, out, command)
    figure = tuning_history(result, report_dir / f"tune_{args.strategy}.png")
    print(result.summary())
    print(f"parameters: {out}\nhistory: {figure}")
    return 0


def cmd_ladder(args) -> int:
    from analyses.ladder import ladder, write
    from reports.ladder import ladder_lines, ladder_report
    from reports.report import check_report_dir
    from sim.core.experiment import load_experiment

    exp = load_experiment(args.experiment).with_overrides(seed=args.seed)
    report_dir = check_report_dir(args.report_dir)
    ld = ladder(exp, args.games, args.tables, log=_log)
    write(ld, exp.results_dir(args.out))
    files = ladder_report(ld, report_dir)
    print("\n".join(ladder_lines(ld)))
    print(f"report: {files[0]}")
    return 0
