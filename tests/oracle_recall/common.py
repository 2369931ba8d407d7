"""Names, sizes and small helpers shared by the parts of the Recall oracle."""
from __future__ import annotations

import re

KINDS = ("draft", "start_field", "main", "effect", "choose", "units", "pay_move", "buy", "sell",
         "sell_count", "copy", "place", "move_from", "move_to", "move_count", "move_pigs",
         "water_from", "water_count", "water_step", "water_exit", "water_exit_count", "dev",
         "dev_field", "sanctuary", "stone", "monument_tile", "crystal", "key", "keyup", "slot",
         "track", "item", "upgrade", "display", "explore", "rotation", "produce", "event", "free",
         "ability", "ability_field", "ability_count", "turn_end", "path", "goal",
         "order", "payment", "recharge")
PARTS = ("score_track", "score_knowledge", "score_ancestors", "score_saints", "score_efficiency",
         "score_ambition", "score_power", "score_leftover", "score_pigs", "score_purple", "score_goal")
N_PICK, N_COUNT, N_OPT = 16, 23, 20
SAN, WKS, MON = 0, 1, 2                      # BUILDINGS indices
W, R, P = 0, 1, 2
OWN = 3                                      # own-colour stones in ``stones[p]``
ACTION_ATOMS = ("MOVE", "WMOVE", "DEV", "EXPLORE", "PAYOPT", "UNITS", "BUY", "SELL", "COPY")
ORDER_FREE = ("CRYSTAL", "VP", "PP", "CHEST")   # reward atoms resolved first, without an order decision
AYNIR_PAIRS = ((0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1))   # (give, get) over follower, white, point


def norm(name: str) -> str:
    """Ability ids compared without punctuation or case (J'He -> jhe, K-01 -> k01)."""
    return re.sub(r"[^a-z0-9.]", "", name.lower())


class TurnGuard(Exception):
    """RC-A68: the turn reached its decision limit."""

