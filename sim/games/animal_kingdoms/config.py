"""Animal Kingdoms rule switches and parameters, with the seed's rules and the spec's defaults.

Every field can be set in an experiment's ``[config]`` (or swept). The switches resolve the
spec's ambiguities (section 8.14) and assumptions (section 8); the comment names the id.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from sim.core.config import choices, value_range

LEVELS = ("easy", "medium", "normal", "hard", "extra_hard")


@dataclass(frozen=True)
class Config:
    """One rule variant of Animal Kingdoms (docs/animal_kingdoms_model.md)."""

    players: int = value_range(4, 1, 5)                 # AK-A1; 1 = solo against the robot (AK-V5)
    peace: bool = False                            # AK-V1..V4: the peace variant
    robot_level: str = field(default="normal", metadata={"choices": LEVELS})   # AK-V18, AK-A42
    # Ambiguities of the seed (spec 8.14), spec defaults first.
    # 8.14.1, AK-A15, AK-R32: when retreat is legal. "always" (spec default); "rally_not_allowed"
    # (the seed's wording "wer nicht spielen kann oder will (und nicht rallyen darf)": only when no
    # rally is legal, claims or not); "forced_only" (only when no claim and no rally is legal, AK-A10).
    voluntary_retreat: str = choices("always", "rally_not_allowed", "forced_only")
    council_claimable: bool = False                # 8.14.2, AK-A8
    multiway_battle: str = choices("eliminate_eights", "one_counts_as_nine")   # 8.14.3, AK-A27
    one_beats_eight_uses: str = choices("printed_rank", "battle_value")       # 8.14.4, AK-A26
    placement_mode: str = choices("dense", "competition")                     # 8.14.5, AK-A22
    refill_before_forced_retreat: bool = True      # 8.14.6, AK-A14
    all_others_missing_policy: str = choices("ignore_missing", "any_missing_frees")  # 8.14.7, AK-A13
    forced_retreat_takes_tile: bool = True         # 8.14.8, AK-R34
    robot_low_rank_target: str = choices("human_last_claim", "robot_last_play")  # 8.14.9, AK-A38
    robot_skip_direction: str = choices("clockwise", "counter_clockwise")      # 8.14.9, AK-A38
    # 8.14.9, AK-V14, AK-A39: the seed's "Robot-Bonus-Karte spielt er zusätzlich" first (the robot
    # plays the matching bonus card itself); the spec's readings (an extra draw-and-play, an extra marker) as switches.
    robot_bonus_effect: str = choices("play_bonus_card", "extra_play", "extra_marker")
    robot_bonus_chain: bool = False                # 8.14.9, AK-A39
    robot_receives_modifiers: bool = False         # 8.14.9, AK-A40
    robot_equal_rank: str = choices("human_wins", "robot_wins")                # 8.14.9, AK-A40
    robot_council_move: bool = True                # not in the spec: the robot keeps capitals in councils
    final_tiebreak: str = choices("largest_capital_age3", "none")             # 8.14.11, AK-A35
    start_tie_capital_scope: str = choices("age_just_ended", "whole_game")    # 8.14.12, AK-A34
    peace_tied_others: str = choices("second", "nothing")                     # 8.14.13, AK-A36
    left_is: str = choices("counter_clockwise", "clockwise")                  # 8.14.14, AK-A5
    rally_ban_scope: str = choices("age", "game")                             # 8.14.15, AK-A16
    # Other assumptions.
    start_player_age1: str = choices("random", "first_slot")                  # AK-A4
    solo_first_player: str = choices("human", "robot")                        # AK-A43
    reshuffle_discard_when_empty: bool = True      # AK-A18
    remove_unclaimed_tile: bool = True             # AK-A23
    council_moves_after_ages: tuple[int, ...] = (1, 2)                         # AK-R37, AK-R41, AK-A32
    max_turns_per_age: int = value_range(400, 1, 100_000)                           # AK-A44 (a guard)
    # Numbers of the seed (8.12) a designer may sweep.
    markers_per_player: int = value_range(18, 1, 100)   # AK-S2
    hand_size: int = value_range(4, 1, 6)               # AK-S6
    rally_points: int = value_range(1, -100, 100)       # AK-R29
    second_place_points: int = value_range(3, -100, 100)   # AK-E6
    third_place_points: int = value_range(1, -100, 100)    # AK-E7
    modifier_value: int = value_range(2, 0, 100)        # AK-E14
    modifier_tiles: int = value_range(18, 0, 60)        # AK-S18
    modifier_endgame_points: int = value_range(1, -100, 100)   # AK-E22
    first_retreat_shift: int = value_range(0, -100, 100)       # added to every first-retreat tile (AK-A20)
    start_score: int = value_range(0, -1000, 1000)      # AK-A3
    # Content files; empty = the default file in sim/games/animal_kingdoms/data/.
    cards_file: str = ""
    decrees_file: str = ""
    kingdoms_file: str = ""
    tiles_file: str = ""
    robot_file: str = ""

    @property
    def seats(self) -> int:
        """Number of seats: the players, plus the robot in the solo game."""
        return 2 if self.players == 1 else self.players

    @property
    def solo(self) -> bool:
        return self.players == 1

    def validate(self):
        """Cross-field checks; returns (key, problem) or None."""
        ages = self.council_moves_after_ages
        if any(a not in (1, 2) for a in ages) or len(set(ages)) != len(ages):
            return ("council_moves_after_ages",
                    f"expected distinct ages from 1 to 2 (no council move after Age III, AK-R41), got {list(ages)}")
        return None
