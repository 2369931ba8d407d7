"""Does a verdict hold under stronger play? (issue 16, part 3)

Why: every verdict of a report is about the plans that played. A designer asking "is this house
too strong?" needs to know whether the answer survives players who play better. This module
re-runs an experiment's key comparisons with every seat played by a stronger level and says,
per verdict, whether it holds:

* ``default``: the experiment as written;
* ``tuned``: every seat plays the game's best tuned plan (``BEST_TUNED``, the top rung of the
  skill ladder, docs/tuning.md), or the parameter file given;
* ``search``: every seat is a ``search`` player (docs/search.md) rolling out with that tuned plan,
  by default at the search player's own default budget (64), the budget at which one search seat
  beats three tuned plans by 1.7-2.2 x its fair share; a smaller budget is cheaper but weaker
  (below about 32 it is no stronger than the tuned plan it rolls out with: the budget curves).

The comparisons (verdicts) are the report's main grouping (``balance.default_group`` of the
experiment as written: faction, else strategy, else seat): each group's excess over its fair
share; with several variants, each variant's change of each group's win rate against the
reference variant (``sweep.reference_point``; Newcombe's unpaired interval). Each level is one
family, decided like the verdict page (``verdicts.decide``: simultaneous intervals, ±δ). A
verdict *holds* at a level when the level's word is the default's word in the same direction;
it *does not hold* when the level decides otherwise; *cannot tell* when the level is undecided
(its interval too wide). Every level is played with ``run`` into the results root, as
``<experiment>__<level>`` (finished shards are reused, so a long level can resume), and the
table is kept as ``<results>/<experiment>/strong_play.parquet`` for the report
(``python -m sim report EXP --strong-play``).

    python -m analyses.strong_play experiments/red_rising_houses.toml --default-games 4000 \\
        --tuned-games 4000 --search-games 400 --jobs 2
"""
from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from pathlib import Path

import polars as pl

from analyses import balance, verdicts
from analyses.intervals import newcombe_unpaired
from sim.core.errors import InputError
from strategies.search import SearchParams

LEVELS = ("default", "tuned", "search")
ROOT = Path(__file__).resolve().parents[1]
# The best tuned plan of each game: the top of its skill ladder (docs/tuning.md, "Measured ladders").
BEST_TUNED = {
    "animal_kingdoms": ROOT / "strategies" / "tuned" / "ak_early_retreat.toml",
    "red_rising": ROOT / "strategies" / "tuned" / "rr_balanced.toml",
    "explorers_of_navoria": ROOT / "strategies" / "tuned" / "en_balanced.toml",
    "recall": ROOT / "strategies" / "tuned" / "rc_knowledge.toml",     # the strongest plan, tuned (docs/tuning.md)
}
HOLDS, FAILS, CANNOT_TELL, NO_VERDICT = "holds", "does not hold", "cannot tell", "no default verdict"
TABLE_FILE = "strong_play.parquet"


@dataclasses.dataclass(frozen=True)
class Options:
    """Game counts per level, the search seats' budget and which levels to play."""

    levels: tuple = LEVELS
    games: dict = dataclasses.field(default_factory=lambda: {"default": 4000, "tuned": 4000, "search": 200})
    search_budget: int = SearchParams.budget   # the search player's default: stronger than the tuned plan
    tuned_file: str | None = None          # a parameter file instead of the game's best tuned plan
    chunk: int = 50                        # games per shard of the search level (it can resume)

    def check(self) -> None:
        for lv in self.levels:
            if lv not in LEVELS:
                raise InputError("command line", "--levels", f"unknown level {lv!r}; expected some of {', '.join(LEVELS)}")
        if "default" not in self.levels:
            raise InputError("command line", "--levels", "expected 'default' among the levels (the verdicts to check)")
        for lv in self.levels:
            n = self.games.get(lv)
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise InputError("command line", f"--{lv}-games", f"expected a positive number of games, got {n!r}")
        if isinstance(self.search_budget, bool) or not isinstance(self.search_budget, int) or self.search_budget < 1:
            raise InputError("command line", "--search-budget",
                             f"expected a positive number of rollouts per decision, got {self.search_budget!r}")


def tuned_seat(game: str, tuned_file=None):
    """The Seat of the game's best tuned plan (or of ``tuned_file``), with its parameter file's path."""
    from sim.core.experiment import Seat, _params_file

    path = Path(tuned_file) if tuned_file else BEST_TUNED.get(game)
    if path is None:
        raise InputError("command line", "--tuned-file", f"no best tuned plan known for game {game!r} (known: "
                         f"{', '.join(sorted(BEST_TUNED))}); expected a parameter file")
    path = path.resolve()
    strategy, params = _params_file(path, "--tuned-file", str(path))
    return Seat(strategy, params, str(path))


def level_seats(level: str, seats: tuple, tuned, budget: int) -> tuple:
    """The seats of a level: as written, every seat the tuned plan, or every seat a search player."""
    from sim.core.experiment import Seat

    if level == "default":
        return seats
    if level == "tuned":
        return tuple(tuned for _ in seats)
    return tuple(Seat("search", {"budget": budget, "rollout": tuned.strategy, "rollout_params": dict(tuned.params)})
                 for _ in seats)


def level_experiment(exp, level: str, tuned, opts: Options):
    """The experiment a level plays: the same file, seed, variants and game indices, other seats."""
    games = opts.games[level]
    chunk = min(exp.chunk, opts.chunk if level == "search" else exp.chunk, games)
    if level == "default":
        return exp.with_overrides(games=games, chunk=chunk)
    return dataclasses.replace(
        exp, name=f"{exp.name}__{level}", games=games, chunk=chunk,
        seats=level_seats(level, exp.seats, tuned, opts.search_budget),
        variant_seats={v: level_seats(level, s, tuned, opts.search_budget) for v, s in exp.variant_seats.items()})


def describe(level: str, exp, tuned, budget: int) -> str:
    """What plays at a level, in words (a table's column)."""
    n = len(exp.seats)
    if level == "default":
        return "as written: " + ", ".join(sorted({s.strategy + ("+tuned" if s.params_file else "") for s in exp.seats}))
    if level == "tuned":
        return f"{n} x {tuned.strategy}+tuned"
    return f"{n} x search (budget {budget}, rollouts {tuned.strategy}+tuned)"


def group_lines(lf: pl.LazyFrame, by: str) -> list:
    """One verdict line per group: its excess over the fair share (``verdicts.win_rate_lines``)."""
    from analyses.winrates import win_rates

    rates = win_rates(lf, by)
    if by == "seat":
        rates = rates.with_columns(pl.format("seat {}", pl.col("seat") + 1).alias("seat"))  # seat 1 = the start player
    return verdicts.win_rate_lines(by, rates, by)


def variant_lines(results, by: str, max_games: int | None) -> list:
    """One line per (variant, group): the change of the group's win rate against the reference
    variant (Newcombe's unpaired interval; se recovered from it)."""
    from analyses.sweep import reference_point
    from analyses.winrates import win_rates

    ref, _ = reference_point(results)
    base = {str(r[by]): r for r in win_rates(results.scan(ref, max_games), by).iter_rows(named=True)}
    z = verdicts.z_family(1)
    out = []
    for v in results.variants:
        if v == ref:
            continue
        for r in win_rates(results.scan(v, max_games), by).iter_rows(named=True):
            a = base.get(str(r[by]))
            if a is None:
                continue
            lo, hi = newcombe_unpaired(r["wins"], r["rows"], a["wins"], a["rows"])
            se = (float(hi) - float(lo)) / (2 * z)
            label = f"seat {r[by] + 1}" if by == "seat" else str(r[by])
            if math.isfinite(se) and se > 0:
                out.append(verdicts.Line(f"{v} - {ref}", label, r["win_rate"] - a["win_rate"], se, r["rows"]))
    return out


def level_lines(results, by: str, max_games: int | None) -> list:
    """The verdict lines of one level's results: groups, or variant changes with several variants."""
    if len(results.variants) > 1:
        return variant_lines(results, by, max_games)
    return group_lines(results.scan(next(iter(results.variants)), max_games), by)


def holds(default_word: str, default_est: float, word: str, est: float) -> str:
    """Whether a level's word keeps the default's verdict (same word, same direction)."""
    if default_word == verdicts.UNDECIDED:
        return NO_VERDICT
    if word == verdicts.UNDECIDED:
        return CANNOT_TELL
    if word != default_word:
        return FAILS
    if word == verdicts.OUT and (est > 0) != (default_est > 0):
        return FAILS
    return HOLDS


def verdict_table(lines_by_level: dict, games: dict, delta: float, alpha: float = 0.05,
                  plays: dict | None = None) -> pl.DataFrame:
    """Decide each level's lines as one family and mark per verdict whether it holds.

    ``lines_by_level``: level -> [verdicts.Line] (the first level is the reference, "default");
    returns one row per (verdict, level): question, group, level, plays, games, estimate, lo, hi
    (the simultaneous interval), word and holds.
    """
    rows, ref = [], {}
    for k, (level, lines) in enumerate(lines_by_level.items()):
        m = len(lines)
        if not m:
            continue
        word, lo, hi, _ = verdicts.decide([ln.estimate for ln in lines], [ln.se for ln in lines], delta, m, alpha)
        for i, ln in enumerate(lines):
            key = (ln.question, ln.group)
            w, est = str(word[i]), float(ln.estimate)
            if k == 0:
                ref[key] = (w, est)
                held = "-"
            elif key in ref:
                held = holds(*ref[key], w, est)
            else:
                held = "not in the default level"
            rows.append({"question": ln.question, "group": ln.group, "level": level,
                         "plays": (plays or {}).get(level, level), "games": int(games[level]), "estimate": est,
                         "lo": float(lo[i]), "hi": float(hi[i]), "word": w, "holds": held})
    order = {lv: i for i, lv in enumerate(lines_by_level)}
    first = {key: -abs(v[1]) for key, v in ref.items()}
    df = pl.DataFrame(rows, schema={"question": pl.Utf8, "group": pl.Utf8, "level": pl.Utf8, "plays": pl.Utf8,
                                    "games": pl.Int64, "estimate": pl.Float64, "lo": pl.Float64, "hi": pl.Float64,
                                    "word": pl.Utf8, "holds": pl.Utf8})
    return (df.with_columns(_size=pl.struct("question", "group").map_elements(
        lambda s: first.get((s["question"], s["group"]), 0.0), return_dtype=pl.Float64),
        _lv=pl.col("level").replace_strict(order, return_dtype=pl.Int64))
        .sort(["_size", "question", "group", "_lv"]).drop(["_size", "_lv"]))


def strong_play(exp, opts: Options, results_root="results", by: str | None = None, delta: float | None = None,
                jobs: int = 1, progress: bool = False, play: bool = True) -> pl.DataFrame:
    """Play every level of ``exp`` that is missing (kept shards are reused) and return the table;
    ``play=False`` reads only the games already kept (a run cut short: its games column says how many)."""
    from analyses.load import open_results
    from sim.play import run_experiment

    opts.check()
    delta = exp.analysis.get("min_edge", 2.0) / 100 if delta is None else delta
    tuned = tuned_seat(exp.game, opts.tuned_file) if set(opts.levels) - {"default"} else None
    lines, plays, games = {}, {}, {}
    for level in opts.levels:
        lexp = level_experiment(exp, level, tuned, opts)
        if play:
            run_experiment(lexp, out_root=results_root, jobs=jobs, games=opts.games[level], progress=progress)
        res = open_results(str(lexp.results_dir(results_root)), results_root)
        if by is None:
            by = balance.default_group(res.scan())
        lines[level] = level_lines(res, by, opts.games[level])
        games[level] = min(opts.games[level], min(i.games for i in res.variants.values()))
        plays[level] = describe(level, exp, tuned, opts.search_budget)
    table = verdict_table(lines, games, delta, plays=plays).with_columns(
        experiment=pl.lit(exp.name), by=pl.lit(by), delta=pl.lit(delta))
    return table


def write(table: pl.DataFrame, folder) -> Path:
    """Keep the table where the report finds it (``<results>/<experiment>/strong_play.parquet``)."""
    path = Path(folder) / TABLE_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    table.write_parquet(path)
    return path


def read(folder) -> pl.DataFrame | None:
    path = Path(folder) / TABLE_FILE
    return pl.read_parquet(path) if path.is_file() else None


def table_rows(table: pl.DataFrame) -> tuple:
    """(header, rows) of the table, percentages in pp, one row per verdict and level."""
    header = ["verdict", "level", "plays", "games", "estimate", "simultaneous interval", "word", "holds?"]
    rows = []
    for r in table.iter_rows(named=True):
        rows.append([f"{r['question']}: {r['group']}", r["level"], r["plays"], f"{r['games']:,}",
                     f"{100 * r['estimate']:+.1f} pp", f"[{100 * r['lo']:+.1f}, {100 * r['hi']:+.1f}]",
                     {"balanced": "balanced within", "out of balance": "out of balance"}.get(r["word"], r["word"]),
                     r["holds"]])
    return header, rows


def table_lines(table: pl.DataFrame) -> list[str]:
    """The table as text, with how to read it."""
    if not table.height:
        return ["no verdicts"]
    delta, by = float(table["delta"][0]), table["by"][0]
    header, rows = table_rows(table)
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    fmt = lambda cells: "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()   # noqa: E731
    out = [f"Does it hold under stronger play? Verdicts by {by}, δ = {100 * delta:.1f} pp; each level is one "
           "family (simultaneous 95% intervals).", "", fmt(header)]
    out += [fmt(r) for r in rows]
    return out + ["", "holds: the level gives the default's word in the same direction; does not hold: it decides "
                  "otherwise; cannot tell: its interval is too wide to decide (more games)."]


def _parse(argv):
    ap = argparse.ArgumentParser(prog="python -m analyses.strong_play", description=__doc__.splitlines()[0])
    ap.add_argument("experiment")
    ap.add_argument("--levels", default=",".join(LEVELS), help="comma-separated, among default,tuned,search")
    for lv, n in Options().games.items():
        ap.add_argument(f"--{lv}-games", type=int, default=n, help=f"games of the {lv} level (default {n})")
    ap.add_argument("--search-budget", type=int, default=Options.search_budget,
                    help=f"rollouts per decision of the search seats (default {Options.search_budget}, the search player's own)")
    ap.add_argument("--tuned-file", default=None, help="parameter file of the tuned level (default: the game's best)")
    ap.add_argument("--by", default=None, help="grouping (default: the report's: faction, strategy or seat)")
    ap.add_argument("--min-edge", type=float, default=None, help="δ in percentage points (default: the file's, else 2)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--no-play", action="store_true",
                    help="play nothing: the table of the games already kept (e.g. a search level cut short)")
    ap.add_argument("--out", default="results", help="results root (default results/)")
    return ap.parse_args(argv)


def main(argv=None) -> int:
    from sim.core.experiment import load_experiment

    args = _parse(argv)
    try:
        levels = tuple(x.strip() for x in args.levels.split(",") if x.strip())
        opts = Options(levels, {lv: getattr(args, f"{lv}_games") for lv in LEVELS}, args.search_budget, args.tuned_file)
        opts.check()
        if args.jobs < 1:
            raise InputError("command line", "--jobs", f"expected a positive integer, got {args.jobs}")
        if args.min_edge is not None and not 0 <= args.min_edge < 50:
            raise InputError("command line", "--min-edge", f"expected percentage points in [0, 50), got {args.min_edge}")
        exp = load_experiment(args.experiment)
        table = strong_play(exp, opts, args.out, args.by, None if args.min_edge is None else args.min_edge / 100,
                            args.jobs, progress=True, play=not args.no_play)
        path = write(table, exp.results_dir(args.out))
    except InputError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print("\n".join(table_lines(table)))
    print(f"\nkept: {path} (python -m sim report {args.experiment} --strong-play adds it to the report)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
