"""Red Rising rule switches and parameters (RR-A38), with the seed's rules as defaults."""
from __future__ import annotations

from dataclasses import dataclass, field

from sim.core.config import choices


@dataclass(frozen=True)
class Config:
    """One rule variant of Red Rising. Every field can be set in an experiment's ``[config]``."""

    players: int = field(default=4, metadata={"range": (1, 6)})
    # Houses per slot (``[[seats]]`` order); empty = dealt at random (RR-S8).
    houses: tuple[str, ...] = ()
    # Rule switches for the spec's ambiguities (section 8.2).
    influence_tie_mode: str = choices("dense", "competition")            # RR-A11
    threshold_mode: str = choices("current", "ever_reached")             # RR-A15
    # RR-A13, RR-R31: Ceres' Sovereign banish takes a card of the chosen location: "any" card (the
    # seed's "verban dan een kaart van een locatie naar keuze") or only its "top" card (the die's wording).
    ceres_banish: str = choices("any", "top")
    ceres_end_banish: str = choices("after_end_abilities", "with_own_end_abilities")  # RR-A14
    trade_limit: str = choices("per_ability", "per_turn_total")          # RR-A21
    chain_deploy_recursive: bool = True                                   # RR-A22
    stalemate_rounds: int = field(default=2, metadata={"range": (1, 100)})  # RR-A18
    max_rounds: int = field(default=80, metadata={"range": (1, 10_000)})  # guard, not a rule
    # Numbers a designer may sweep (seed values as defaults).
    sovereign_points: int = field(default=10, metadata={"range": (-1000, 1000)})   # RR-E12
    helium_points: int = field(default=3, metadata={"range": (-1000, 1000)})       # RR-E11
    threshold: int = field(default=7, metadata={"range": (1, 100)})                # RR-E1
    hand_limit: int = field(default=7, metadata={"range": (0, 200)})               # RR-E16
    hand_penalty: int = field(default=10, metadata={"range": (0, 1000)})           # RR-E16
    neutral_cubes: int = field(default=3, metadata={"range": (0, 10)})             # RR-S14
    # Solo (RR-V*).
    automa_level: int = field(default=3, metadata={"range": (1, 6)})               # RR-V43, RR-A9
    automa_choice_order: str = choices("priority")                               # RR-A36
    solo_readd_removed: bool = False                                              # RR-V45
    solo_exclude_ceres: bool = False                                              # RR-V10
    # Content files; empty = the default files shipped in sim/games/red_rising/data/.
    deck_file: str = ""
    tables_file: str = ""
    automa_deck_file: str = ""

    @property
    def seats(self) -> int:
        """Number of seats: the players, plus Au Toma in the solo game."""
        return 2 if self.players == 1 else self.players

    def validate(self):
        """Cross-field checks; returns (key, problem) or None."""
        if self.houses:
            if len(self.houses) != self.players:
                return "houses", f"expected {self.players} house names (one per player), got {len(self.houses)}"
            if len(set(self.houses)) != len(self.houses):
                twice = sorted({h for h in self.houses if self.houses.count(h) > 1})
                return "houses", f"a house can be dealt only once (RR-S8), got {', '.join(twice)} twice"
        return None
