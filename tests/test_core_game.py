"""The shared refusal of illegal actions (``sim.core.game.check_legal``)."""
from __future__ import annotations

import numpy as np
import pytest

from sim.core.game import IllegalActionError, check_legal

LEGAL = np.array([[True, False, True], [False, True, False], [True, True, True]])


def test_legal_actions_pass_and_finished_games_are_not_checked():
    check_legal(LEGAL, [2, 1, 0], np.array([True, True, True]), [10, 11, 12], ["a", "b", "c"])
    check_legal(LEGAL, [1, 1, 0], np.array([False, True, True]), [10, 11, 12], ["a", "b", "c"])


def test_an_illegal_or_out_of_range_action_names_game_decision_and_action():
    with pytest.raises(IllegalActionError, match=r"game 10, decision pick: action 1 \(one\) is not legal there "
                                                 r"\(legal: \[0, 2\]\); 1 more games of the batch too"):
        check_legal(LEGAL, [1, 7, 0], np.ones(3, bool), [10, 11, 12], lambda i: ["pick", "x", "y"][i],
                    ["zero", "one", "two"])
    with pytest.raises(IllegalActionError, match="game 11, decision b: action -1 is not legal"):
        check_legal(LEGAL, [0, -1, 0], np.ones(3, bool), [10, 11, 12], np.array(["a", "b", "c"]))
