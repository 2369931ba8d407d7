"""Play experiments with the registered strategies: the runner (``sim.core.runner``) composed
with the strategy registry (``strategies.registry``).

``sim.core`` knows no strategies; this module, above it, hands the runner the function that
makes each seat's strategy. Use it from Python as from the command line:
``run_experiment(load_experiment("x.toml"), out_root="results", jobs=2)``.
"""
from __future__ import annotations

from sim.core import runner
from sim.core.runner import play_games  # noqa: F401  (re-exported: the one-batch entry point)
from strategies.registry import make_seats as make_strategies


def run_experiment(exp, out_root="results", **options):
    """Play an experiment (see ``sim.core.runner.run_experiment`` for the options)."""
    return runner.run_experiment(exp, make_strategies, out_root, **options)
