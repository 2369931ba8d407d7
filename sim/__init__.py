"""Monte Carlo simulation of board games: vectorised engines, runner and command line.

From Python (docs/python_api.md): ``sim.run(FILE_OR_DICT)`` plays an experiment, ``sim.load(FOLDER)``
opens earlier results; both return a ``sim.api.Results``.
"""
import sim.games  # noqa: F401  (registers the games by name in sim.core.game)
from sim.api import Results, load, run  # noqa: F401
