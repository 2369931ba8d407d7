"""Where a card can be: the codes of the engine's ``where[B, C]`` array (and of positions)."""
from __future__ import annotations

JUPITER, MARS, LUNA, INSTITUTE = 0, 1, 2, 3   # the four locations, board order (cw)
DECK = 4                                       # the draw deck (not a location, RR-R21)
BANISHED = 5                                   # the banished pile (RR-R44)
OUT = 6                                        # not in this game (solo-removed cards, RR-V6)
HAND0 = 10                                     # HAND0 + p: the hand of player p (turn order)


def hand(player: int) -> int:
    return HAND0 + player
