"""The flat action space of Red Rising (docs/red_rising_model.md)."""
from __future__ import annotations

from sim.games.red_rising.content_types import LOCATIONS

LEAD, SCOUT = 0, 1
LOC0 = 2                      # LOC0 + x for location x in LOCATIONS order
DECK = 6
YES, NO = 7, 8
FACE0 = 9                     # FACE0 + f - 1 for die face f in 1..6
OPP0 = 15                     # OPP0 + k - 1 for the opponent k seats clockwise, k in 1..5
CARD0 = 20                    # CARD0 + card index

DECISION_KINDS = (
    "none", "action", "deploy_card", "deploy_location", "optional", "target_location",
    "target_card", "target_opponent", "gain", "scout_location", "place_location", "die_face",
    "block", "accept", "end_order", "end_banish",
)
KIND = {name: i for i, name in enumerate(DECISION_KINDS)}


def num_actions(num_cards: int) -> int:
    return CARD0 + num_cards


def action_names(card_ids) -> list[str]:
    names = ["lead", "scout"] + [f"loc:{x}" for x in LOCATIONS] + ["deck", "yes", "no"]
    names += [f"face:{f}" for f in range(1, 7)] + [f"opp:+{k}" for k in range(1, 6)]
    return names + [f"card:{cid}" for cid in card_ids]
