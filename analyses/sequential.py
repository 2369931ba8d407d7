"""Sequential comparison: play games in rounds until the SPRT decides or the budget is spent.

Why a loop of its own: the decision rule (``analyses.sprt``) is pure statistics; this module
feeds it. A *game source* produces games on demand: an experiment variant (plays the next
round of games through the runner, so the games are real results kept on disk), an existing
results folder (reads the next games; the budget is what is there) or the synthetic
generator (tests). Two variants of one experiment file share seed and game indices, so the
rounds are paired game by game (common random numbers).

Every group (faction, seat, ...) compared gets its own two-sided SPRT with alpha split equally
among the groups (Bonferroni); the run stops when every group is decided, when the budget is
spent or when a source runs out of games.

Why a terminal test and an automatic budget: with several groups (alpha/k each) the SPRT's
bounds are wide, and a budget of the experiment's games cut it off before it decided (six
groups, 10,000 games, a true +2 pp change: 15% of runs missed it, 76% of no-change runs left a
group undecided). So each group's alpha/k is split in two: alpha/(2k) for its SPRT and
alpha/(2k) for a fixed-size test of the groups still open at the stop ("higher"/"lower" when
its interval excludes 0, "no change" when it lies inside ±delta1, else undecided), so a false
alarm anywhere has probability at most alpha; and unless a budget is given, the budget is
raised to the games that fixed-size test needs for power 1 - beta at delta1
(``sprt.fixed_games`` with the per-game variance of the first round).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analyses import fmt
from scipy import stats

from analyses.sprt import CONTINUE, NO_CHANGE, TwoSided, fixed_games
from sim.core.errors import InputError

MIN_PAIRS = 50          # no decision before a group has this many games on both sides


class ExperimentSource:
    """Games of one variant of an experiment file, played on demand through the runner."""

    def __init__(self, exp, variant: str, out_root="results", jobs: int = 1):
        if variant not in exp.variants:
            raise InputError(exp.path, f"variant {variant!r}", "unknown variant; expected one of "
                             + ", ".join(exp.variants))
        self.exp, self.variant, self.out_root, self.jobs = exp, variant, out_root, jobs
        self.available = 0
        self.seed = exp.seed
        self.label = f"{exp.name}:{variant}"
        self.players = getattr(exp.variants[variant], "players", None)
        self.game_name = exp.game
        self.first_game = 0
        self.limit = None

    def ensure(self, n: int) -> int:
        if n > self.available:
            from sim.play import run_experiment

            run_experiment(self.exp, out_root=self.out_root, jobs=self.jobs, variants=[self.variant],
                           first_game=self.available, games=n - self.available, progress=True)
            self.available = n
        return self.available

    def scan(self) -> pl.LazyFrame:
        vdir = Path(self.exp.results_dir(self.out_root)) / self.variant
        files = sorted(str(p) for p in vdir.glob("shard-*.parquet"))
        return pl.scan_parquet(files, extra_columns="ignore").filter(pl.col("game") < self.available)


class ResultsSource:
    """Games of a variant already on disk: the budget is what the folder holds."""

    def __init__(self, results, variant: str):
        info = results.variants[variant]
        self.results, self.variant, self.available = results, variant, 0
        self.seed, self.first_game, self.limit = info.seed, info.first_game, info.games
        self.label = f"{results.experiment}:{variant}"
        self.players = info.players[0] if len(info.players) == 1 else None
        self.game_name = results.game_name

    def ensure(self, n: int) -> int:
        self.available = min(n, self.limit)
        return self.available

    def scan(self) -> pl.LazyFrame:
        return self.results.scan(self.variant).filter(pl.col("game") < self.first_game + self.available)


def variance_floor(v: float, n: int) -> float:
    """At least the variance of a difference with one pseudo-discordant game each way: 2/(n(n+2)).

    Why: with strong common random numbers the first games of two close variants are often all
    identical, the estimated variance is 0 and the LLR would jump to infinity on no evidence.
    """
    return max(v, 2.0 / (n * (n + 2))) if n else float("inf")


def paired_estimates(a, b, by: str) -> dict:
    """Per group: (B - A estimate, its variance, pairs) from game-by-game differences."""
    def per(src):
        return src.scan().group_by(["game", by]).agg(w=pl.col("win_share").sum())
    st = (per(a).join(per(b), on=["game", by], suffix="_b")
          .with_columns(d=pl.col("w_b") - pl.col("w"))
          .group_by(by).agg(n=pl.len(), m=pl.col("d").mean(), v=pl.col("d").var(ddof=1)).collect())
    return {r[by]: (r["m"], variance_floor((r["v"] or 0.0) / r["n"], r["n"]), r["n"]) for r in st.iter_rows(named=True)}


def unpaired_estimates(a, b, by: str) -> dict:
    """Per group: (B - A estimate, variance of it, smaller n) from independent games."""
    def per(src):
        return src.scan().group_by(by).agg(n=pl.len(), m=pl.col("win_share").mean(),
                                           v=pl.col("win_share").var(ddof=1)).collect()
    sa, sb = per(a), per(b)
    j = sa.join(sb, on=by, suffix="_b")
    return {r[by]: (r["m_b"] - r["m"],
                    variance_floor((r["v"] or 0) / r["n"] + (r["v_b"] or 0) / r["n_b"], min(r["n"], r["n_b"])),
                    min(r["n"], r["n_b"])) for r in j.iter_rows(named=True)}


@dataclass
class SequentialResult:
    alpha: float
    beta: float
    delta0: float
    delta1: float
    one_sided: bool
    games: int                       # games per variant used
    budget: int
    decisions: dict                  # group -> 'higher' | 'lower' | 'no change' | 'undecided'
    estimates: dict                  # group -> (estimate, variance, n) at the stop
    history: list = field(default_factory=list)   # (games, group, estimate, llr+, llr-)
    bounds: tuple = (0.0, 0.0)
    stopped: str = ""
    at_stop: set = field(default_factory=set)     # groups decided by the terminal fixed-size test
    budget_note: str = ""

    @property
    def decided(self) -> bool:
        return all(d != "undecided" for d in self.decisions.values())


def terminal_decision(m: float, v: float, alpha_k: float, delta0: float, delta1: float, one_sided: bool) -> str:
    """Fixed-size test of a group still open at the stop, at its share alpha_k of alpha: the
    (1 - alpha_k) interval m ± z sqrt(v) (one-sided: the bound on delta1's side)."""
    if not v > 0:
        return "undecided"
    up = delta1 > delta0
    if one_sided:
        z = stats.norm.ppf(1 - alpha_k)
        lo, hi = m - z * v ** 0.5, m + z * v ** 0.5
        if (lo > delta0) if up else (hi < delta0):
            return "higher" if up else "lower"
        return ("not higher" if up else "not lower") if ((hi < delta1) if up else (lo > delta1)) else "undecided"
    z = stats.norm.ppf(1 - alpha_k / 2)
    lo, hi = m - z * v ** 0.5, m + z * v ** 0.5
    if lo > abs(delta0):
        return "higher"
    if hi < -abs(delta0):
        return "lower"
    return NO_CHANGE if (-abs(delta1) < lo and hi < abs(delta1)) else "undecided"


def auto_budget(est: dict, names, alpha_k: float, beta: float, delta0: float, delta1: float, round_games: int,
                one_sided: bool) -> int:
    """Games per variant a fixed-size test needs at these error rates (largest over the groups),
    from the per-game variance of the difference seen so far; a whole number of rounds."""
    need = 0
    for g in names:
        m, v, n = est.get(g, (0.0, 0.0, 0))
        if n > 1 and v > 0:
            need = max(need, fixed_games(alpha_k * (2 if one_sided else 1), beta, abs(delta1 - delta0), v * n))
    return -(-need // round_games) * round_games


def sequential_loop(estimates, alpha: float, beta: float, delta0: float, delta1: float, round_games: int,
                    max_games: int, one_sided: bool = False, groups=None, min_pairs: int = MIN_PAIRS,
                    keep_history: bool = True, budget_from_data: bool = False) -> SequentialResult:
    """Run rounds: ``estimates(n) -> (games available, {group: (est, var, n)})`` after asking for n.

    ``groups`` restricts the tests to some groups (default: all groups seen in the first round).
    ``budget_from_data``: raise ``max_games`` after the first round to ``auto_budget``. Groups
    open at the stop get ``terminal_decision``.
    """
    tests: dict = {}
    budget_note = ""
    n = 0
    history = []
    last: dict = {}
    stopped = "budget spent"
    used = 0
    while n < max_games:
        n = min(n + round_games, max_games)
        used, est = estimates(n)
        if not tests:
            wanted = None if groups is None else {str(g) for g in groups}
            names = [g for g in est if wanted is None or str(g) in wanted]
            if wanted is not None:
                missing = sorted(wanted - {str(g) for g in est})
                if missing:
                    raise InputError("command line", "--target", "not found in the results: "
                                     + ", ".join(missing) + "; found: " + ", ".join(map(str, est)))
            k = max(len(names), 1)
            tests = {g: TwoSided(alpha / (2 * k), beta, delta0, delta1, one_sided) for g in names}
            if budget_from_data:
                need = auto_budget(est, names, alpha / (2 * k), beta, delta0, delta1, round_games, one_sided)
                if need > max_games:
                    budget_note = (f"budget raised from {max_games:,} to {need:,} games: what a fixed-size test "
                                   f"needs for alpha {alpha:g} over {k} groups and power {1 - beta:g} at "
                                   f"{fmt.signed(delta1 - delta0, 2, 100)} pp")
                    max_games = need
        for g, t in tests.items():
            if g not in est:
                continue
            m, v, cnt = est[g]
            last[g] = (m, v, cnt)
            if cnt >= min_pairs and t.decision == CONTINUE:
                t.update(m, v)
            if keep_history:
                history.append((used, g, m, t.llrs[0], t.llrs[-1] if len(t.llrs) > 1 else float("nan")))
        if tests and all(t.decision != CONTINUE for t in tests.values()):
            stopped = "all decided"
            break
        if used < n:
            stopped = "source exhausted"
            break
    decisions, at_stop = {}, set()
    k = max(len(tests), 1)
    for g, t in tests.items():
        decisions[g] = t.decision
        if t.decision == CONTINUE:
            m, v, _n = last.get(g, (0.0, 0.0, 0))
            decisions[g] = terminal_decision(m, v, alpha / (2 * k), delta0, delta1, one_sided)
            at_stop.add(g)
    bounds = next(iter(tests.values())).bounds if tests else (0.0, 0.0)
    return SequentialResult(alpha, beta, delta0, delta1, one_sided, used, max_games, decisions, last, history,
                            bounds, stopped, at_stop, budget_note)


def run_sequential(a, b, by: str, alpha: float, beta: float, delta0: float, delta1: float, round_games: int,
                   max_games: int, one_sided: bool = False, groups=None,
                   budget_from_data: bool = False) -> tuple[SequentialResult, bool]:
    """Sequential comparison of two game sources; returns the result and whether it was paired."""
    if a.game_name != b.game_name:
        raise InputError(f"{a.label} vs {b.label}", "game", f"different games: {a.game_name} vs {b.game_name}")
    if a.players is not None and b.players is not None and a.players != b.players:
        raise InputError(f"{a.label} vs {b.label}", "players", f"different player counts: {a.players} vs {b.players}")
    paired = a.seed == b.seed and a.first_game == b.first_game

    def estimates(n):
        got = min(a.ensure(n), b.ensure(n))
        a.available = b.available = got
        fn = paired_estimates if paired else unpaired_estimates
        return got, fn(a, b, by)

    return sequential_loop(estimates, alpha, beta, delta0, delta1, round_games, max_games, one_sided, groups,
                           budget_from_data=budget_from_data), paired


def decision_words(d: str, delta1: float) -> str:
    """What a decision means, with the effect size it is about."""
    size = fmt.number(abs(delta1), 2, 100)
    return {NO_CHANGE: f"no change of {size} pp or more", "higher": "higher (B above A)",
            "lower": "lower (B below A)", "not higher": f"not {size} pp higher", "not lower": f"not {size} pp lower",
            "undecided": "undecided (budget spent)"}.get(d, d)


def format_sequential(r: SequentialResult, by: str, paired: bool, scale_note: str) -> str:
    lo, hi = r.bounds
    sides = "one-sided" if r.one_sided else "two-sided (two one-sided tests at alpha/2 each)"
    sides += "; alpha/k split: half for the SPRT, half for a fixed-size test at the stop"
    d0, d1 = round(100 * r.delta0, 6) + 0.0, round(100 * r.delta1, 6) + 0.0
    lines = [f"sequential test (SPRT, {sides}): alpha {r.alpha:g} (family, Bonferroni over "
             f"{len(r.decisions)} {by} values), beta {r.beta:g}, H0: delta = {d0:+.2f} pp, "
             f"H1: delta = {d1:+.2f} pp{'' if r.one_sided else ' (and the mirror)'} of win rate B - A"
             + (f" [{scale_note}]" if scale_note else ""),
             f"{'paired' if paired else 'unpaired'} rounds; LLR bounds per test [{lo:.2f}, {hi:.2f}]; "
             f"stopped: {r.stopped} after {r.games:,} games per variant (budget {r.budget:,})"]
    if r.budget_note:
        lines.append(r.budget_note)
    for g, d in r.decisions.items():
        m, v, n = r.estimates.get(g, (float("nan"), float("nan"), 0))
        word = decision_words(d, r.delta1) + (" (fixed-size test at the stop)" if g in r.at_stop else "")
        lines.append(f"  {str(g):<16} {word:<44} estimate {fmt.signed(m, 2, 100)} pp (se "
                     f"{fmt.number(v ** 0.5, 2, 100)}) over {n:,} games")
    lines.append("note: intervals of a sequentially stopped test are not adjusted; read the decision, not the p")
    return "\n".join(lines)
