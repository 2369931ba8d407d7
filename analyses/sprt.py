"""Sequential probability ratio tests (SPRT) for a difference of win rates, Fishtest style.

Why sequential: whether a rule change moves a faction's win rate by 2 points is often clear
after a few thousand games, sometimes only after a hundred thousand. Wald's SPRT looks after
every round of games and stops as soon as the evidence crosses a bound fixed in advance by
the error rates alpha (false alarm) and beta (missed effect) - on average it needs far fewer games than a
fixed-size test with the same error rates.

The statistic is the generalised SPRT with a normal approximation, as Fishtest uses for
engine tests: with d the estimated difference B - A of a win rate and V its estimated
variance, the log-likelihood ratio of H1: delta = delta1 against H0: delta = delta0 is

    LLR = (delta1 - delta0) * (2 d - delta0 - delta1) / (2 V)

(for paired games V = var(per-game differences) / n). H1 is accepted when LLR >= log((1-beta)/alpha),
H0 when LLR <= log(beta/(1-alpha)). The two-sided test (the default) runs two such tests,
delta0 vs +delta1 and -delta0 vs -delta1, each at alpha/2: a difference is declared when either
accepts its H1, "no change" (no change as large as delta1) when both accept H0. Several groups
(factions) are tested at once with alpha split among them (Bonferroni).

Effect scales: ``delta`` is a difference of win rates (the command line takes percentage
points); ``elo_to_delta`` converts logistic Elo at a baseline win rate (the fair share).
Error rates are checked by simulation in tests/test_analyses_sprt.py.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

H0, H1, CONTINUE = "H0", "H1", "continue"
NO_CHANGE = "no change"          # both H0 accepted: no change as large as delta1 (printed with delta1)


def fixed_games(alpha: float, beta: float, delta: float, var_per_game: float) -> int:
    """Games of a fixed-size two-sided test at ``alpha`` with power 1 - beta at ``delta``:
    var (z_{1-alpha/2} + z_{1-beta})^2 / delta^2 (per-game variance of the difference)."""
    from scipy import stats
    z = stats.norm.ppf(1 - alpha / 2) + stats.norm.ppf(1 - beta)
    return int(math.ceil(var_per_game * z * z / (delta * delta)))


def elo_to_delta(elo: float, p0: float) -> float:
    """Win-rate change that a logistic Elo difference makes at baseline win rate ``p0``.

    p1 = 1 / (1 + (1 - p0)/p0 * 10^(-elo/400)); for p0 = 1/2 this is the usual Elo curve.
    """
    p1 = 1.0 / (1.0 + (1.0 - p0) / p0 * 10.0 ** (-elo / 400.0))
    return p1 - p0


@dataclass
class SPRT:
    """One-sided SPRT of H0: delta = delta0 against H1: delta = delta1 (delta1 != delta0)."""

    alpha: float
    beta: float
    delta0: float
    delta1: float

    def __post_init__(self):
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("alpha and beta must be in (0, 1)")
        if self.delta0 == self.delta1:
            raise ValueError("delta0 and delta1 must differ")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, estimate: float, variance: float) -> float:
        """Log-likelihood ratio from a difference estimate and the variance of that estimate."""
        if not variance > 0:
            return 0.0
        d0, d1 = self.delta0, self.delta1
        return (d1 - d0) * (2 * estimate - d0 - d1) / (2 * variance)

    def decide(self, llr: float) -> str:
        if llr >= self.upper:
            return H1
        if llr <= self.lower:
            return H0
        return CONTINUE


@dataclass
class TwoSided:
    """Two one-sided SPRTs (+ and - direction), each at alpha/2; states are sticky once decided."""

    alpha: float
    beta: float
    delta0: float
    delta1: float
    one_sided: bool = False

    def __post_init__(self):
        a = self.alpha if self.one_sided else self.alpha / 2
        self.tests = [SPRT(a, self.beta, self.delta0, self.delta1)]
        if not self.one_sided:
            self.tests.append(SPRT(a, self.beta, -self.delta0, -self.delta1))
        self.states = [CONTINUE] * len(self.tests)
        self.llrs = [0.0] * len(self.tests)

    def update(self, estimate: float, variance: float) -> str:
        """Feed the current estimate; returns 'higher', 'lower', 'no change' or 'continue'."""
        for i, t in enumerate(self.tests):
            if self.states[i] == CONTINUE:
                self.llrs[i] = t.llr(estimate, variance)
                self.states[i] = t.decide(self.llrs[i])
        return self.decision

    @property
    def decision(self) -> str:
        for i, s in enumerate(self.states):
            if s == H1:
                up = self.tests[i].delta1 > self.tests[i].delta0
                return "higher" if up else "lower"
        if all(s == H0 for s in self.states):
            if self.one_sided:
                return "not higher" if self.delta1 > self.delta0 else "not lower"
            return NO_CHANGE
        return CONTINUE

    @property
    def bounds(self) -> tuple[float, float]:
        return self.tests[0].lower, self.tests[0].upper
