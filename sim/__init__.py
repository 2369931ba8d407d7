"""Monte Carlo simulation of board games: vectorised engines, runner and command line."""
