"""One package per game; each is registered here by name (imported only when first used).

The seconds are about how long a fresh checkout compiles the game's numba kernels and its
strategies' (CPU time of ``python -m benchmarks.compile_times``; a run says so before it
compiles). They live here, not in the game's package, whose files are its engine version.
"""
from sim.core.game import register_game

# Red Rising: 117 s wall for the default experiment's warm-up on a fresh clone, idle (4 December 2026,
# README "Measured first run"); 165 s CPU in one process (benchmarks.compile_times).
register_game("red_rising", "sim.games.red_rising.game", compile_seconds=120)
register_game("animal_kingdoms", "sim.games.animal_kingdoms.game", compile_seconds=100)
register_game("explorers_of_navoria", "sim.games.explorers_of_navoria.game", compile_seconds=60)
register_game("recall", "sim.games.recall.game", compile_seconds=130)   # 2 min 6 s idle, docs/recall_engine.md
