"""One package per game; each is registered here by name (imported only when first used).

The seconds are about how long a fresh checkout compiles the game's numba kernels and its
strategies' (CPU time of ``python -m benchmarks.compile_times``; a run says so before it
compiles). They live here, not in the game's package, whose files are its engine version.
"""
from sim.core.game import register_game

register_game("red_rising", "sim.games.red_rising.game", compile_seconds=300)
register_game("animal_kingdoms", "sim.games.animal_kingdoms.game", compile_seconds=100)
register_game("explorers_of_navoria", "sim.games.explorers_of_navoria.game", compile_seconds=60)
register_game("recall", "sim.games.recall.game")
