"""Command-line subcommands ``report``, ``compare`` and ``summary`` for ``python -m sim``.

Why here: the analysis commands belong to the analysis package; ``sim.core.cli`` calls
``register(subparsers)`` so ``python -m sim --help`` lists them with the others. Each command
returns an exit code; bad input raises ``InputError``, which the main program prints on one
line and turns into exit status 2.
"""
from __future__ import annotations

import sys
from pathlib import Path

from sim.core.cliargs import number_type, positive_int
from sim.core.errors import InputError

SOURCE_HELP = ("results folder (results/<experiment>), a variant's folder, or an experiment file; "
               "append :VARIANT to pick one variant")


_level = number_type(float, lambda v: 0.5 <= v < 1, "a confidence level in [0.5, 1)")
_prob = number_type(float, lambda v: 0 < v < 0.5, "a probability in (0, 0.5)")
_positive = positive_int
_edge = number_type(float, lambda v: 0 <= v < 50, "percentage points in [0, 50)")


def _common(p, out=True):
    p.add_argument("--by", help="column to group by (default: faction if the game has factions, else strategy, "
                               "else seat)")
    p.add_argument("--out", "--results", dest="results", default="results",
                   help="results root, as for `run` (default results/): where experiment files' results are")
    p.add_argument("--level", type=_level, default=0.95, help="confidence level of intervals and tests (default 0.95)")
    p.add_argument("--min-edge", type=_edge, default=None,
                   help="smallest edge that matters, percentage points of win rate (default: the experiment "
                        "file's [analysis] min_edge, else 2): verdicts say 'out of balance' beyond it, "
                        "'balanced within' inside it")
    if out:
        p.add_argument("--report-dir", default=str(Path("reports") / "out"),
                       help="where the PDF and PNGs go (default reports/out/)")


def register(subparsers) -> None:
    """Add ``report``, ``compare`` and ``summary`` to the ``python -m sim`` subcommands."""
    rep = subparsers.add_parser("report", help="balance report of an experiment: PDF + one PNG per figure")
    rep.add_argument("source", help=SOURCE_HELP)
    _common(rep)
    rep.add_argument("--details", choices=["auto", "all", "none"], default="auto",
                     help="per-variant figures for multi-variant experiments (auto: up to 6 variants)")
    rep.add_argument("--no-ratings", action="store_true", help="skip the Plackett-Luce ratings")
    rep.add_argument("--strong-play", action="store_true",
                     help="add the 'does it hold under stronger play?' table kept by python -m analyses.strong_play")
    rep.set_defaults(func=cmd_report)

    cmp_ = subparsers.add_parser("compare", help="compare variant B against A: paired tests, a verdict per group "
                                 "about the smallest change that matters (--min-edge), PDF + PNGs")
    cmp_.add_argument("a", help="A (baseline): " + SOURCE_HELP)
    cmp_.add_argument("b", help="B (changed): same forms as A, e.g. experiments/x.toml:cheap_ships")
    _common(cmp_)
    cmp_.add_argument("--unpaired", action="store_true", help="treat games as independent even when pairable")
    cmp_.add_argument("--score-test", choices=["t", "wilcoxon"], default="t",
                      help="score test: t (paired t / Welch) or wilcoxon (signed-rank / Mann-Whitney); default t")
    cmp_.add_argument("--jobs", type=_positive, default=1, help="worker processes when games must be played")
    cmp_.add_argument("--games", type=_positive,
                      help="compare games 0..N-1 of each side (experiment files: play them first); default: all")
    cmp_.add_argument("--no-report", action="store_true", help="print the table only, write no PDF/PNGs")
    seq = cmp_.add_argument_group("sequential test (--sequential)")
    seq.add_argument("--sequential", action="store_true",
                     help="play games in rounds and stop when an SPRT decides or --max-games is spent")
    seq.add_argument("--alpha", type=_prob, default=0.05, help="false-alarm rate for the whole family (default 0.05)")
    seq.add_argument("--beta", type=_prob, default=0.05, help="miss rate at the H1 effect (default 0.05)")
    seq.add_argument("--delta0", type=float, default=None,
                     help="H0 effect in percentage points of win rate, B - A (default 0)")
    seq.add_argument("--delta1", type=float, default=None,
                     help="H1 effect in percentage points of win rate, B - A (default 2)")
    seq.add_argument("--elo0", type=float, default=None, help="H0 effect as logistic Elo at the fair share")
    seq.add_argument("--elo1", type=float, default=None, help="H1 effect as logistic Elo at the fair share")
    seq.add_argument("--one-sided", action="store_true", help="test only the direction of delta1 (Fishtest style)")
    seq.add_argument("--target", action="append", help="test only this value of --by (repeatable)")
    seq.add_argument("--max-games", type=_positive, help="game budget per variant (default: the experiment's games, "
                                                          "raised to what a fixed-size test with these error rates "
                                                          "needs)")
    seq.add_argument("--round-games", type=_positive, help="games per round (default: the experiment's chunk, "
                                                           "or 1000)")
    cmp_.set_defaults(func=cmd_compare)

    summ = subparsers.add_parser("summary", help="print the balance summary of an experiment, and the tables of the features in play its game "
                                 "declares (no figures)")
    summ.add_argument("source", help=SOURCE_HELP)
    _common(summ, out=False)
    summ.set_defaults(func=cmd_summary)


def min_edge(args, results) -> float:
    """The smallest edge that matters, as a fraction: ``--min-edge``, else the experiment file's
    ``[analysis] min_edge``, else 2 pp."""
    pp = args.min_edge if args.min_edge is not None else results.analysis.get("min_edge", 2.0)
    return pp / 100


def cmd_report(args) -> int:
    from analyses.load import open_results
    from reports.report import check_report_dir, experiment_report

    check_report_dir(args.report_dir)
    results = open_results(args.source, args.results)
    if args.strong_play:
        from analyses import strong_play
        if strong_play.read(results.root) is None:
            raise InputError(results.root, strong_play.TABLE_FILE, "no strong-play table: run python -m "
                             f"analyses.strong_play EXPERIMENT.toml --out {args.results} first")
    print(f"writing the report of {results.experiment} into {args.report_dir} (tables, figures, PDF)...",
          file=sys.stderr, flush=True)
    files = experiment_report(results, args.report_dir, args.by, args.level, args.details, not args.no_ratings,
                              min_edge=min_edge(args, results), strong_play=args.strong_play)
    print(f"report: {files.pdf}")
    print(f"html: {files.html}")
    print(f"figures: {len(files.pngs)} PNG files in {files.pngs[0].parent if files.pngs else args.report_dir}")
    return 0


def cmd_summary(args) -> int:
    from analyses import metrics, player_counts
    from analyses.load import open_results
    from analyses.features import format_feature
    from reports.labels import content_labels
    from reports.report import held_lines, overview_lines, summary_lines, verdict_lines

    results = open_results(args.source, args.results)
    all_m = {v: metrics.compute(results, v, args.by, args.level, min_edge=min_edge(args, results))
             for v in results.variants}
    if len(all_m) > 1:
        print("\n".join(overview_lines(results, all_m)))
        print()
    for prefix, counts in player_counts.families(results.variants).items():
        by = all_m[next(iter(counts.values()))].by
        table = player_counts.side_by_side(results, counts, by, args.level)
        title = f"WIN RATE BY {by.upper()}, BY PLAYER COUNT" + (f" ({prefix})" if prefix else "")
        print("\n".join(player_counts.format_side_by_side(table, by, counts, title)))
        print()
    for v, m in all_m.items():
        if len(all_m) > 1:
            print(f"=== {v}")
        print("\n".join(verdict_lines(m.page)))
        print()
        print("\n".join(summary_lines(m)))
        for fa in m.features:
            print()
            print("\n".join(format_feature(fa)))
        for ha in m.held:
            print()
            print("\n".join(held_lines(ha, content_labels(results, v).get(ha.held.name, {}))))
    return 0


def _side_spec(spec: str):
    """(path, variant or None, is experiment file)."""
    from analyses.load import _split_variant
    path, variant = _split_variant(spec)
    return Path(path), variant, Path(path).suffix == ".toml" and Path(path).is_file()


def _one_variant(results, spec: str) -> str:
    names = list(results.variants)
    if len(names) != 1:
        raise InputError(spec, None, f"has {len(names)} variants ({', '.join(names)}); pick one with {spec}:VARIANT")
    return names[0]


def _experiment_side(path: Path, variant: str | None, spec: str):
    from sim.core.experiment import load_experiment
    exp = load_experiment(path)
    if variant is None:
        if len(exp.variants) != 1:
            raise InputError(spec, None, f"has {len(exp.variants)} variants ({', '.join(exp.variants)}); "
                             f"pick one with {spec}:VARIANT")
        variant = next(iter(exp.variants))
    if variant not in exp.variants:
        raise InputError(spec, f"variant {variant!r}", "unknown variant; expected one of " + ", ".join(exp.variants))
    return exp, variant


def _check_players_early(exps) -> None:
    """Refuse experiment files with different player counts before playing any game."""
    (ea, va), (eb, vb) = exps
    pa, pb = getattr(ea.variants[va], "players", None), getattr(eb.variants[vb], "players", None)
    if pa is not None and pb is not None and pa != pb:
        raise InputError(f"{ea.name}:{va} vs {eb.name}:{vb}", "players", f"different player counts: {pa} vs {pb}")
    if ea.game != eb.game:
        raise InputError(f"{ea.name}:{va} vs {eb.name}:{vb}", "game", f"different games: {ea.game} vs {eb.game}")


def cmd_compare(args) -> int:
    from analyses import balance
    from analyses.compare import Side, compare, format_comparison
    from analyses.load import open_results

    if not args.no_report:
        from reports.report import check_report_dir
        check_report_dir(args.report_dir)
    specs = [_side_spec(args.a), _side_spec(args.b)]
    exps = [(_experiment_side(p, v, s) if is_exp else None) for (p, v, is_exp), s in zip(specs, (args.a, args.b))]
    if all(exps):
        _check_players_early(exps)
    print("\n".join(_config_difference(specs, exps, args)), flush=True)
    seq_result, paired_seq, note = None, None, ""
    limits = [None, None]
    if args.sequential:
        seq_result, paired_seq, note, limits = _run_sequential(args, specs, exps)
    else:
        if args.games:
            limits = [args.games, args.games]
        from sim.play import run_experiment
        for e in exps:
            if e is not None:        # play whatever games of the variant are missing (kept shards are reused)
                run_experiment(e[0], out_root=args.results, jobs=args.jobs, variants=[e[1]], games=args.games,
                               progress=True)
    sides = []
    for (path, variant, is_exp), spec, e, limit in zip(specs, (args.a, args.b), exps, limits):
        if e is not None:
            res = open_results(path, args.results, variant=e[1])
            v = e[1]
        else:
            res = open_results(str(path), args.results, variant=variant)
            v = variant or _one_variant(res, spec)
        sides.append(Side(res, v, limit))
    by = args.by or balance.default_group(sides[0].lf)
    c = compare(sides[0], sides[1], by, paired=False if args.unpaired else None, score_test=args.score_test,
                level=args.level, min_edge=min_edge(args, sides[0].results))
    text = format_comparison(c)
    if seq_result is not None:
        from analyses.sequential import format_sequential
        text = format_sequential(seq_result, by, paired_seq, note) + "\n\n" + text
    print(text)
    if not args.no_report:
        from reports.report import compare_report
        files = compare_report(c, seq_result, args.report_dir, text)
        print(f"\nreport: {files.pdf}")
        print(f"html: {files.html}")
    return 0


def _config_difference(specs, exps, args) -> list[str]:
    """What B changes against A (``key: A -> B``), from the experiment files or the manifests."""
    from analyses import config_diff
    from analyses.load import open_results

    settings = []
    for (path, variant, is_exp), spec, e in zip(specs, (args.a, args.b), exps):
        if e is not None:
            settings.append(config_diff.settings_of_experiment(*e))
        else:
            res = open_results(str(path), args.results, variant=variant)
            settings.append(config_diff.settings_of_results(res, variant or _one_variant(res, spec)))
    return config_diff.diff_lines(*settings)


def _run_sequential(args, specs, exps):
    from analyses import balance
    from analyses.load import open_results
    from analyses.sequential import ExperimentSource, ResultsSource, run_sequential
    from analyses.sprt import elo_to_delta

    sources = []
    for (path, variant, is_exp), spec, e in zip(specs, (args.a, args.b), exps):
        if e is not None:
            sources.append(ExperimentSource(e[0], e[1], args.results, args.jobs))
        else:
            res = open_results(str(path), args.results, variant=variant)
            sources.append(ResultsSource(res, variant or _one_variant(res, spec)))
    a, b = sources
    budget = args.max_games or min(
        (e[0].games if e is not None else s.limit) for e, s in zip(exps, sources))
    chunk = next((e[0].chunk for e in exps if e is not None), 1000)
    round_games = args.round_games or min(chunk, max(budget // 10, 1))
    if (args.elo0 is not None or args.elo1 is not None) and (args.delta0 is not None or args.delta1 is not None):
        raise InputError("command line", "--elo0/--elo1", "give the effect either as --delta0/--delta1 or as Elo")
    players = a.players or b.players
    fair = 1.0 / players if players else 0.5
    if args.elo0 is not None or args.elo1 is not None:
        e0, e1 = args.elo0 or 0.0, args.elo1 if args.elo1 is not None else 20.0
        d0, d1 = elo_to_delta(e0, fair), elo_to_delta(e1, fair)
        d0, d1 = round(d0, 12) + 0.0, round(d1, 12) + 0.0
        note = f"Elo {e0:g} / {e1:g} at fair share {100 * fair:.1f}% = {100 * d0:+.2f} / {100 * d1:+.2f} pp"
    else:
        d0 = (args.delta0 or 0.0) / 100
        d1 = (args.delta1 if args.delta1 is not None else 2.0) / 100
        note = ""
    if d0 == d1:
        raise InputError("command line", "--delta1", "H1 effect must differ from the H0 effect")
    # pick the grouping from a first look at A (plays the first round if needed)
    a.ensure(min(round_games, budget))
    by = args.by or balance.default_group(a.scan())
    result, paired = run_sequential(a, b, by, args.alpha, args.beta, d0, d1, round_games, budget,
                                    args.one_sided, args.target, budget_from_data=args.max_games is None)
    limits = [s.first_game + result.games for s in sources]
    return result, paired, note, limits
