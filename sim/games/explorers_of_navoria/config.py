"""Explorers of Navoria rule switches and parameters: the seed's rules and the spec's defaults.

Every field can be set in an experiment's ``[config]`` (or swept); the comment names the rule
or assumption id (docs/explorers_of_navoria_model.md).
"""
from __future__ import annotations

from dataclasses import dataclass

from sim.core.config import choices, value_range


@dataclass(frozen=True)
class Config:
    """One rule variant of Explorers of Navoria."""

    players: int = value_range(4, 2, 4)                 # EN-S1
    blank_tile_variant: bool = False               # EN-V1..V3 (2 players only)
    dock_placement: str = choices("strict", "free")   # EN-A12
    question_mark_split: bool = False              # EN-A15
    goods_per_kind: int = value_range(0, 0, 1000)       # EN-A11; 0 = unlimited supply
    favour_symbols: int = value_range(5, 1, 50)         # EN-R107, EN-A22
    cards_per_round: int = value_range(0, 0, 12)        # EN-R21; 0 = the seed's 4 (2-3 players) / 3 (4)
    start_player: str = choices("random", "first_slot")   # EN-S18
    # Content files; empty = the default file in sim/games/explorers_of_navoria/data/.
    cards_file: str = ""
    city_file: str = ""
    tracks_file: str = ""
    exploration_file: str = ""
    docks_file: str = ""
    favour_file: str = ""
    setup_file: str = ""

    @property
    def seats(self) -> int:
        return self.players

    @property
    def recruits_per_round(self) -> int:
        """Cards each player recruits per round (EN-R21)."""
        if self.cards_per_round:
            return self.cards_per_round
        return 3 if self.players == 4 else 4

    def validate(self):
        """Cross-field checks; returns (key, problem) or None."""
        if self.blank_tile_variant and self.players != 2:
            return ("blank_tile_variant",
                    f"the blank favour tile variant is a 2-player variant (EN-V3), got players = {self.players}")
        return None
