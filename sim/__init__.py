"""Monte Carlo simulation of board games: vectorised engines, runner and command line."""
import sim.games  # noqa: F401  (registers the games by name in sim.core.game)
