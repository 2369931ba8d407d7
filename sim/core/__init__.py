"""Game-agnostic machinery: random streams, contracts, experiment files, runner, results."""
