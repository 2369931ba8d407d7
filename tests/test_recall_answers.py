"""analyses/recall_answers.py: Recall's path-card (RC-E5), goal-card (RC-E29, RC-A58) and solo
(RC-V13, RC-A54) tables, on hand-made rows whose answers are counted by hand."""
from __future__ import annotations

import polars as pl
import pytest

from analyses import recall_answers as ra
from analyses.recall_answers import PATHS


def _rows(paths, wins, spec=None, goals=None, met=None, tribes=None, scores=None):
    """One row per seat-game: ``paths`` = [(card, side)] * 3 per row."""
    spec = spec or [{} for _ in paths]
    cols = {"win_share": wins, "score": scores or [10.0] * len(wins),
            "rc_goal": goals or ["GC1"] * len(wins), "rc_goal_met": met or [0] * len(wins),
            "faction": tribes or ["Hayla"] * len(wins)}
    for k in (1, 2, 3):
        cols[f"rc_path_{k}"] = [p[k - 1][0] for p in paths]
        cols[f"rc_path_side_{k}"] = [p[k - 1][1] for p in paths]
    for card, name in PATHS.items():
        cols[f"score_{name}_spec"] = [s.get(card, 0) for s in spec]
        cols[f"score_{name}_base"] = [2 * s.get(card, 0) for s in spec]
    return pl.DataFrame(cols)


def test_path_cards_count_discs_holders_wins_and_points_per_card_and_side_RC_E5():
    rows = _rows([[("PA", "a"), ("PE", "b"), ("PK", "a")],
                  [("PA", "b"), ("PE", "b"), ("PS", "a")],
                  [("PA", "a"), ("PM", "b"), ("PK", "a")],
                  [("PP", "a"), ("PE", "b"), ("PS", "a")]],
                 wins=[1.0, 0.0, 0.5, 0.0],
                 spec=[{"PA": 7, "PE": 3, "PK": 1}, {"PA": 2, "PE": 1, "PS": 4}, {"PA": 5, "PM": 6, "PK": 3}, {"PP": 1}])
    t = ra.path_cards(rows)
    got = {(r["card"], r["side"]): r for r in t.iter_rows(named=True)}
    assert set(got) == {("PA", "a"), ("PA", "b"), ("PE", "b"), ("PK", "a"), ("PM", "b"), ("PP", "a"), ("PS", "a")}
    pa = got[("PA", "a")]
    assert pa["discs"] == 2 and pa["share"] == pytest.approx(2 / 12)
    assert pa["rate"] == pytest.approx(0.75)                      # wins 1 and 0.5 of 2 holders
    assert pa["spec_points"] == pytest.approx(6.0) and pa["base_points"] == pytest.approx(12.0)
    pe = got[("PE", "b")]
    assert pe["discs"] == 3 and pe["rate"] == pytest.approx(1 / 3) and pe["spec_points"] == pytest.approx(4 / 3)
    assert got[("PP", "a")]["spec_points"] == pytest.approx(1.0)   # another card's points never count
    assert all(r["lo"] <= r["rate"] <= r["hi"] for r in got.values())
    assert t["discs"].sum() == 12


def test_goal_cards_count_completion_per_card_kept_in_id_order_RC_E29():
    rows = _rows([[("PA", "a")] * 3] * 5, wins=[0.0] * 5, goals=["GC10", "GC2", "GC2", "GC6", "GC2"],
                 met=[1, 1, 0, 0, 1])
    t = ra.goal_cards(rows)
    assert t["rc_goal"].to_list() == ["GC2", "GC6", "GC10"]
    assert t["kept"].to_list() == [3, 1, 1] and t["met"].to_list() == [2, 0, 1]
    assert t["rate"].to_list() == pytest.approx([2 / 3, 0.0, 1.0])
    assert (t["lo"] <= t["rate"]).all() and (t["rate"] <= t["hi"]).all() and t["hi"][1] > 0


def test_solo_success_overall_by_tribe_and_goals_kept_RC_V13():
    rows = _rows([[("PA", "a")] * 3] * 4, wins=[1.0, 0.0, 0.0, 1.0], goals=["GC1+GC7", "GC1+GC7", "GC3+GC5", "GC3+GC5"],
                 tribes=["Hayla", "Hayla", "Ion", "Ion"], scores=[50.0, 30.0, 20.0, 40.0])
    overall = ra.solo(rows)
    assert overall["games"][0] == 4 and overall["rate"][0] == pytest.approx(0.5) and overall["score"][0] == 35.0
    by_tribe = {r["faction"]: r for r in ra.solo(rows, "faction").iter_rows(named=True)}
    assert by_tribe["Hayla"]["successes"] == 1 and by_tribe["Ion"]["score"] == 30.0
    text = ra.tables("solo", rows)
    assert "| GC1+GC7 | 2 | 50.0 [" in text and "| Hayla | 2 | 50.0 [" in text


def test_the_command_refuses_a_missing_source_with_exit_2(tmp_path, capsys):
    assert ra.main(["goals", str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "nothing" in err and len(err.strip().splitlines()) == 1
