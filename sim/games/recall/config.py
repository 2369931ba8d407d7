"""Recall rule switches and parameters: the seed's rules and the spec's defaults.

Every field can be set in an experiment's ``[config]`` (or swept); the comment names the rule
or assumption id (/work/shared/specs/recall.md and recall_addendum.md). Numbers of the
components (costs, rewards, counts) are content, not config: they live in ``data/``.
"""
from __future__ import annotations

from dataclasses import dataclass

from sim.core.config import choices, value_range

SIDE_CHOICES = ("all_a", "random")


@dataclass(frozen=True)
class Config:
    """One rule variant of Recall."""

    players: int = value_range(4, 1, 4)                         # RC-S1..S38, 1-4 players
    path_sides: str = "all_a"           # RC-S5, RC-S6, RC-A10: all_a | random | six letters a/b (path-card file order)
    tribe_draft: str = choices("draft", "random", "custom")     # RC-S33 | RC-V1 | RC-V2..V5
    known_old_tribes: bool = False                              # RC-V6, RC-V7
    free_upgrade_choice: bool = False                           # RC-V8, RC-V9
    start_player: str = choices("random", "first_slot")         # RC-S28 (random = the seed)
    start_fields: str = choices("by_seat", "random")            # RC-A66
    copy_field: str = choices("slot", "ever")                   # RC-A40: what field F may copy
    dorian_presence: str = choices("field", "tile")             # RC-A57
    goal_stones: str = choices("total", "one_colour")           # RC-A58
    solo_goals: str = choices("keep_two", "keep_three")         # RC-A54
    event_abilities: str = choices("ask", "auto")               # RC-A74
    # A water group that cannot leave the water (RC-A7 leaves it open; docs/recall_model.md,
    # "Water movement"): back = it returns to its start field, stay = it stays on the last water
    # field of its path (back if it never left the start field).
    water_no_exit: str = choices("back", "stay")
    max_decisions_per_turn: int = value_range(500, 1, 100000)   # RC-A68
    # Content files; empty = the default file in sim/games/recall/data/ (docs/recall_content.md).
    map_file: str = ""
    area_tiles_file: str = ""
    tracks_file: str = ""
    action_fields_file: str = ""
    player_board_file: str = ""
    key_cards_file: str = ""
    chest_tiles_file: str = ""
    monument_tiles_file: str = ""
    camps_file: str = ""
    rings_file: str = ""
    tribes_file: str = ""
    items_file: str = ""
    goal_cards_file: str = ""
    path_cards_file: str = ""
    setup_file: str = ""

    @property
    def seats(self) -> int:
        return self.players

    def sides(self) -> tuple[int, ...] | None:
        """Side (0 = a, 1 = b) of each path card in file order, or None when drawn at random."""
        if self.path_sides == "all_a":
            return (0,) * 6
        if self.path_sides == "random":
            return None
        return tuple("ab".index(c) for c in self.path_sides)

    def validate(self):
        """Cross-field checks; returns (key, problem) or None."""
        ps = self.path_sides
        if ps not in SIDE_CHOICES and (len(ps) != 6 or set(ps) - set("ab")):
            return ("path_sides", f"expected 'all_a', 'random' or six letters a/b (one per path card, "
                    f"RC-A10), got {ps!r}")
        if self.solo_goals != "keep_two" and self.players != 1:
            return ("solo_goals", f"the solo goal rule (RC-A54) applies to 1 player only, got players = {self.players}")
        return None
