"""Balance verdicts about an edge of a stated size, corrected over the whole verdict page.

Why: "significant" only says an edge is not exactly zero; in a big run a 0.25 pp edge is
significant and matters to nobody, in a small run a 5 pp edge is not and matters a lot. A
designer needs one of three words per group, each about the smallest edge that matters, δ
(``MIN_EDGE``, 2 percentage points by default):

* **out of balance**: the interval lies wholly beyond ±δ (a minimum-effect test);
* **balanced within ±δ**: the interval lies wholly inside ±δ (an equivalence test, TOST);
* **undecided**: neither; with the number of games that would decide it at the current estimate.

The family is the page: every line of the verdict page (all questions together) gets a
simultaneous interval, est ± z·se with z = z_{1 - α/(2m)} for m lines (Bonferroni), so the chance
that *any* line's word is wrong is at most α. (Holm is not interval-consistent; Bonferroni is,
and with one word per line the words are what we control.) The same z enters the "games
needed" answers, so the power statement and the verdict use one correction.

Standard errors are normal (Wald) ones: sqrt(r(1 - r)/rows) for a win rate r (win shares:
a share's variance is at most a Bernoulli's; a group with several seats per game has negatively
correlated rows, so this is conservative), and the given se for other estimates.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import polars as pl
from scipy import stats

MIN_EDGE = 0.02
POWER = 0.8
OUT, BALANCED, UNDECIDED = "out of balance", "balanced", "undecided"
DECIDE_CAP = 100          # "undecided" lines needing more than 100x the games say so instead


def z_family(m: int, alpha: float = 0.05) -> float:
    """Two-sided normal quantile for m simultaneous intervals (Bonferroni)."""
    return float(stats.norm.ppf(1 - alpha / (2 * max(m, 1))))


def decide(est, se, delta: float, m: int, alpha: float = 0.05):
    """Vectorised words for estimates ``est`` with standard errors ``se``, m lines in the family.

    Returns (word, lo, hi, p_claim): the simultaneous interval est ± z se; p_claim is the
    p-value of the word's claim with the page correction folded in (the claim holds at level
    alpha iff p_claim < alpha), NaN for undecided lines:
    out: 2m Φ(-(|est| - δ)/se); balanced: 2m Φ(-(δ - |est|)/se) (TOST at α/(2m) per side).
    """
    est, se = np.asarray(est, float), np.asarray(se, float)
    z = z_family(m, alpha)
    lo, hi = est - z * se, est + z * se
    out = (lo > delta) | (hi < -delta)
    bal = (lo > -delta) & (hi < delta)
    word = np.where(out, OUT, np.where(bal, BALANCED, UNDECIDED))
    with np.errstate(invalid="ignore", divide="ignore"):
        gap = np.where(out, np.abs(est) - delta, delta - np.abs(est))
        p = np.where(out | bal, np.minimum(1.0, 2 * m * stats.norm.sf(gap / se)), np.nan)
    return word, lo, hi, p


def games_to_decide(est: float, se: float, games: int, delta: float, z: float) -> int | None:
    """Games (in total) for the interval at the current estimate to clear the band's edge;
    None when the estimate sits on the edge (more than ``DECIDE_CAP`` times the games)."""
    gap = abs(abs(est) - delta)
    if not (se > 0) or gap <= 0:
        return None
    n = games * (z * se / gap) ** 2
    return int(math.ceil(n)) if n <= DECIDE_CAP * games else None


def games_needed(p0: float, delta: float = MIN_EDGE, m: int = 1, appearances_per_game: float = 1.0,
                 alpha: float = 0.05, power: float = POWER) -> dict:
    """Games for the page-corrected verdicts to come out right with probability ``power``.

    ``balanced``: a group at its fair share p0 reads "balanced within ±δ":
    P(|est| + z se < δ) = 2Φ(δ/se - z) - 1 = power, so rows = p0 q0 (z + z_{(1+power)/2})^2 / δ^2.
    ``out``: a group 2δ off (p1 = p0 + 2δ) reads "out of balance":
    Φ((2δ - δ)/se - z) = power, so rows = p1 q1 (z + z_power)^2 / δ^2.
    Divided by how often the group appears per game; z = z_family(m, alpha). With δ = 0 no
    number of games gives either answer: both are None.
    """
    if delta <= 0:
        return {"balanced": None, "out": None, "edge": delta, "power": power, "lines": m}
    z = z_family(m, alpha)
    p1 = min(p0 + 2 * delta, 1 - 1e-9)
    bal = p0 * (1 - p0) * (z + stats.norm.ppf((1 + power) / 2)) ** 2 / delta ** 2
    out = p1 * (1 - p1) * (z + stats.norm.ppf(power)) ** 2 / delta ** 2
    a = max(appearances_per_game, 1e-9)
    return {"balanced": int(math.ceil(bal / a)), "out": int(math.ceil(out / a)), "edge": delta, "power": power,
            "lines": m}


@dataclass
class Line:
    """One group's verdict: the answer to one question for one value."""

    question: str
    group: str
    estimate: float            # win rate minus fair share (or the effect the question measures)
    se: float
    rows: int
    word: str = UNDECIDED
    lo: float = float("nan")
    hi: float = float("nan")
    p: float = float("nan")
    games_to_decide: int | None = None
    note: str = ""


@dataclass
class VerdictPage:
    """Every line of the verdict page, decided together (one family)."""

    lines: list
    delta: float
    alpha: float
    games: int
    z: float
    needed: dict
    confounds: list = field(default_factory=list)
    assumptions: list = field(default_factory=list)

    @property
    def flagged(self) -> list:
        return [ln for ln in self.lines if ln.word == OUT]

    def family(self) -> str:
        return (f"all {len(self.lines)} lines of this page are one family: simultaneous "
                f"{100 * (1 - self.alpha):.0f}% intervals (Bonferroni, each at "
                f"{100 * (1 - self.alpha / len(self.lines)) if self.lines else 100:.2f}%), so the chance that "
                f"any word on the page is wrong is at most {100 * self.alpha:.0f}%")


def win_rate_lines(question: str, rates: pl.DataFrame, by: str) -> list:
    """Lines of one question from a ``winrates.win_rates`` table (excess over the fair share)."""
    out = []
    for r in rates.iter_rows(named=True):
        n = r["rows"]
        p = min(max(r["win_rate"], 0.5 / n), 1 - 0.5 / n)
        out.append(Line(question, str(r[by]), r["excess"], math.sqrt(p * (1 - p) / n), n))
    return out


def effect_lines(question: str, table: pl.DataFrame, label, level: float) -> list:
    """Lines from a table with ``diff``, ``lo``, ``hi`` at ``level`` (se recovered from the width)."""
    zl = stats.norm.ppf(0.5 + level / 2)
    out = []
    for r in table.iter_rows(named=True):
        se = (r["hi"] - r["lo"]) / (2 * zl)
        if math.isfinite(se) and se > 0:
            out.append(Line(question, label(r), r["diff"], se, int(r.get("rows") or r.get("n") or 0)))
    return out


def decide_page(lines: list, games: int, delta: float = MIN_EDGE, alpha: float = 0.05,
                fair: float = 0.5, appearances: float = 1.0) -> VerdictPage:
    """Decide every line with the page's correction; sort by size of the effect, largest first."""
    m = len(lines)
    z = z_family(m, alpha)
    if lines:
        word, lo, hi, p = decide([ln.estimate for ln in lines], [ln.se for ln in lines], delta, m, alpha)
        for i, ln in enumerate(lines):
            ln.word, ln.lo, ln.hi, ln.p = str(word[i]), float(lo[i]), float(hi[i]), float(p[i])
            if ln.word == UNDECIDED:
                ln.games_to_decide = games_to_decide(ln.estimate, ln.se, games, delta, z)
    lines = sorted(lines, key=lambda ln: -abs(ln.estimate))
    return VerdictPage(lines, delta, alpha, games, z, games_needed(fair, delta, m, appearances, alpha))


def confounds(lf: pl.LazyFrame, by: str) -> list:
    """Groups tied to another factor (always one seat, always one strategy): their verdicts
    cannot separate the two, which the page must say (e.g. a faction that always starts)."""
    pairs = dict.fromkeys(p for p in [(by, "seat"), (by, "strategy"), ("strategy", "seat")] if p[0] != p[1])
    notes = []
    for a, b in pairs:
        t = (lf.group_by(a).agg(n=pl.col(b).n_unique(), only=pl.col(b).first()).sort(a).collect())
        if t.height < 2 or lf.select(pl.col(b).n_unique()).collect().item() < 2:
            continue
        for r in t.filter(pl.col("n") == 1).iter_rows(named=True):
            what = f"seat {r['only'] + 1}" + (" (the start player)" if r["only"] == 0 else "") \
                if b == "seat" else f"strategy {r['only']}"          # seats counted from 1, as a table reads them
            notes.append(f"{a} {r[a]} always has {what}: its verdict includes the effect of {what}, and "
                         f"the other way round")
    return notes


def assumptions(lf: pl.LazyFrame, synthetic: bool) -> list:
    """What every number on the page is conditional on."""
    strategies = sorted(lf.select(pl.col("strategy").unique()).collect().to_series().to_list())
    players = sorted(lf.select(pl.col("players").unique()).collect().to_series().to_list())
    out = [f"the strategies played: {', '.join(map(str, strategies))} (stronger or other play can change "
           "every verdict)",
           f"{'/'.join(map(str, players))} players, the rules and content of this config"]
    if synthetic:
        out.append("synthetic content or results (a generator with a planted truth, or invented cards): the "
                   "verdicts are about that content, not the published game")
    return out


def page_lines(by: str, rates: pl.DataFrame, by_seat: pl.DataFrame, strategies: pl.DataFrame | None,
               features: list, level: float) -> list:
    """The questions of a variant's page: the main grouping, seats per player count, strategies
    (when they are not the main grouping) and each feature's effects in play."""
    lines = [] if by == "seat" else win_rate_lines(by, rates, by)
    for (players,), part in by_seat.group_by(["players"], maintain_order=True):
        lines += win_rate_lines(f"seat ({players} players)", part.with_columns(
            pl.format("seat {}", pl.col("seat") + 1).alias("_s")), "_s")     # seat 1 = the start player
    if strategies is not None:
        lines += win_rate_lines("strategy", strategies, "strategy")
    for fa in features:
        for question, table, label in feature_questions(fa):
            lines += effect_lines(question, getattr(fa, table), label, level)
    return lines


def feature_questions(fa) -> list:
    """(question, table attribute, row label) of each table of a feature that is on the page:
    the win-rate change with a value in play and, when held, the holders' advantage."""
    name = fa.feature.name
    out = [(f"{name} in play", "win_rates", lambda r, b=fa.by: f"{r['value']}: {r[b]} ({r['players']}p)")]
    if fa.holders is not None:
        out.append((f"holding a {name}", "holders", lambda r: f"{r['value']} holder ({r['players']}p)"))
    return out
