"""One package per game; each is registered here by name (imported only when first used)."""
from sim.core.game import register_game

register_game("red_rising", "sim.games.red_rising.game")
register_game("animal_kingdoms", "sim.games.animal_kingdoms.game")
register_game("explorers_of_navoria", "sim.games.explorers_of_navoria.game")
register_game("recall", "sim.games.recall.game")
