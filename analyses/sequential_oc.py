"""Operating characteristics of the sequential comparison, measured by simulation.

Why: the error rates and average games of a sequential test with several groups, a budget and
a terminal test are not given by a formula; they are measured by running the real loop
(``sequential.sequential_loop``) on simulated paired per-game differences. docs/analyses.md
quotes the table printed by ``python -m analyses.sequential_oc`` (and the tests check it).

Per game and group the paired difference B - A is +1, -1 or 0: +1 with probability q + e/2,
-1 with q - e/2 (q = discordance, e = the true change of the win rate).
"""
from __future__ import annotations

import sys

import numpy as np

from analyses.sequential import sequential_loop, variance_floor
from analyses.sprt import fixed_games

Q = 0.15


def simulate(effects, reps: int, budget: int, budget_from_data: bool, q: float = Q, delta1: float = 0.02,
             alpha: float = 0.05, beta: float = 0.05, seed: int = 0, cap: int = 4) -> list:
    """``reps`` sequential runs with one group per entry of ``effects``; rounds of budget/10."""
    groups, out = len(effects), []
    n_max = cap * budget
    for rep in range(reps):
        rng = np.random.default_rng([seed, rep])
        u = rng.random((groups, n_max))
        e = np.asarray(effects, float)[:, None]
        d = np.where(u < q + e / 2, 1.0, np.where(u < 2 * q, -1.0, 0.0))
        cs, cs2 = np.cumsum(d, axis=1), np.cumsum(d * d, axis=1)

        def estimates(n, cs=cs, cs2=cs2):
            n = min(n, n_max)
            m = cs[:, n - 1] / n
            v = (cs2[:, n - 1] - n * m * m) / (n - 1)
            return n, {g: (m[g], variance_floor(v[g] / n, n), n) for g in range(groups)}

        out.append(sequential_loop(estimates, alpha, beta, 0.0, delta1, max(budget // 10, 1), budget,
                                   keep_history=False, budget_from_data=budget_from_data))
    return out


def summarise(runs: list) -> dict:
    """Group 0's decisions (shares), false alarms among the other groups, undecided, games."""
    g0 = [r.decisions[0] for r in runs]
    return {"group0": {w: g0.count(w) / len(runs) for w in sorted(set(g0))},
            "others_flagged": float(np.mean([any(r.decisions[g] in ("higher", "lower") for g in r.decisions if g)
                                             for r in runs])),
            "any_flagged": float(np.mean([any(d in ("higher", "lower") for d in r.decisions.values())
                                          for r in runs])),
            "any_undecided": float(np.mean([any(d == "undecided" for d in r.decisions.values()) for r in runs])),
            "mean_games": float(np.mean([r.games for r in runs])), "max_budget": max(r.budget for r in runs)}


def main(reps: int = 300) -> None:
    print(f"six groups, alpha = beta = 0.05 (family), H1 +2 pp, discordance q = {Q}, rounds of 1,000, {reps} runs")
    print(f"fixed-size test with these error rates: {fixed_games(0.05 / 6, 0.05, 0.02, 2 * Q):,} games")
    for auto in (False, True):
        for eff in (0.0, 0.01, 0.02):
            s = summarise(simulate([eff, 0, 0, 0, 0, 0], reps, 10_000, auto, seed=int(eff * 1e4)))
            print(f"{'budget from data' if auto else 'budget 10,000   '}  change {100 * eff:+.0f} pp in group 0: "
                  + ", ".join(f"{w} {100 * x:.1f}%" for w, x in s["group0"].items())
                  + f"; a null group flagged {100 * s['others_flagged']:.1f}%; any group undecided "
                  f"{100 * s['any_undecided']:.1f}%; mean games {s['mean_games']:,.0f} (budget up to "
                  f"{s['max_budget']:,})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
