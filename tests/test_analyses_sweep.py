"""Sweep tables: one row per point, metric and group, with the swept values parsed back."""
import numpy as np
import polars as pl
import pytest
from statsmodels.stats.proportion import proportion_confint

from analyses.load import open_results
from analyses.sweep import sweep_table
from analyses.synthetic import Variant, with_effect, write_results

BASE = Variant(factions={"red": 1.0, "blue": 1.0, "green": 1.0})


def test_sweep_curve_follows_the_injected_strength(tmp_path):
    vs = {f"power={x}": with_effect(BASE, "red", x) for x in (0.5, 1.0, 2.0)}
    res = open_results(write_results(tmp_path, "sw", vs, games=1500))
    t = sweep_table(res, "faction")
    red = t.filter((pl.col("metric") == "win rate") & (pl.col("group") == "red")).sort("power")
    assert red["power"].to_list() == [0.5, 1.0, 2.0]
    truth = [x / (x + 2) for x in (0.5, 1.0, 2.0)]
    assert np.all(np.diff(red["estimate"].to_numpy()) > 0)
    for row, p in zip(red.iter_rows(named=True), truth):
        assert row["lo"] - 0.02 < p < row["hi"] + 0.02
        assert row["reference"] == pytest.approx(1 / 3) and row["games"] == 1500
    df = res.scan("power=2.0").filter(pl.col("faction") == "red").collect()
    row = red.filter(pl.col("power") == 2.0).row(0, named=True)
    assert (row["lo"], row["hi"]) == pytest.approx(proportion_confint(df["win_share"].sum(), df.height,
                                                                      method="wilson"))
    metrics = set(t["metric"])
    assert metrics == {"win rate", "first player win rate", "score", "rounds", "turns", "shared wins", "balance"}
    bal = t.filter(pl.col("metric") == "balance").sort("power")["estimate"].to_numpy()
    assert bal[1] > bal[0] and bal[1] > bal[2]


def test_two_parameter_grid_and_plain_variants(tmp_path):
    vs = {f"a={a},b={b}": BASE for a in (1, 2) for b in ("x", "y")}
    res = open_results(write_results(tmp_path, "grid", vs, games=50))
    t = sweep_table(res, "seat")
    assert {"a", "b"} <= set(t.columns)
    assert t.filter(pl.col("metric") == "rounds").height == 4
    assert t.schema["a"] == pl.Int64 and t.schema["b"] == pl.String
    plain = open_results(write_results(tmp_path, "plain", {"base": BASE, "other": BASE}, games=50))
    assert plain.sweep == {}
    assert set(sweep_table(plain, "faction")["variant"]) == {"base", "other"}


def test_paired_differences_from_the_reference_follow_the_injected_strength(tmp_path):
    """Each point minus the reference, game by game: zero at the reference, the planted change
    inside the band, and the band of the paired difference narrower than the two points' own
    intervals would give (the points share seeds and games)."""
    from analyses.sweep import paired_sweep_table
    vs = {f"power={x}": with_effect(BASE, "red", x) for x in (1.0, 1.5, 2.0)}
    res = open_results(write_results(tmp_path, "sw", vs, games=1500))
    d = paired_sweep_table(res, "faction", "power=1.0")
    red = d.filter((pl.col("metric") == "win rate") & (pl.col("group") == "red")).sort("power")
    assert red["power"].to_list() == [1.0, 1.5, 2.0]
    assert red.row(0, named=True)["diff"] == 0 and red["paired"].all()
    level = sweep_table(res, "faction").filter((pl.col("metric") == "win rate") & (pl.col("group") == "red")) \
        .sort("power")
    for x, row, lv in zip((1.0, 1.5, 2.0), red.iter_rows(named=True), level.iter_rows(named=True)):
        truth = x / (x + 2) - 1 / 3
        assert row["lo"] - 0.02 < truth < row["hi"] + 0.02
        if x != 1.0:
            own = (lv["hi"] - lv["lo"]) ** 2 + (level.row(0, named=True)["hi"] - level.row(0, named=True)["lo"]) ** 2
            assert (row["hi"] - row["lo"]) ** 2 < own                 # pairing sharpens the difference
    assert set(d["metric"]) == {"win rate", "score", "first player win rate", "rounds", "shared wins"}


def test_points_of_another_player_count_have_no_paired_difference(tmp_path):
    """A ``players`` x ``power`` grid: game g of a 3-player point is another game than game g of the
    2-player reference (``compare`` refuses to pair them), so the 3-player points get no rows,
    while the reference's own count still gets its differences (zero at the reference)."""
    import dataclasses

    from analyses.sweep import paired_sweep_table
    vs = {f"players={n},power={x}": with_effect(dataclasses.replace(BASE, players=(n,)), "red", x)
          for n in (2, 3) for x in (1.0, 2.0)}
    res = open_results(write_results(tmp_path, "pc", vs, games=200))
    d = paired_sweep_table(res, "faction", "players=2,power=1.0")
    assert set(d["variant"]) == {"players=2,power=1.0", "players=2,power=2.0"}
    red = d.filter((pl.col("metric") == "win rate") & (pl.col("group") == "red")).sort("power")
    assert red["diff"][0] == 0 and red["diff"][1] > 0
    only = {f"players={n}": dataclasses.replace(BASE, players=(n,)) for n in (2, 3)}
    assert paired_sweep_table(open_results(write_results(tmp_path, "only", only, games=50)), "faction",
                              "players=2").height == 0


def test_reference_is_the_rules_default_point(tmp_path):
    """Red Rising's Sovereign token is worth 10 points by default (RR-E12): a sweep over 0..20
    measures its differences from the 10-point games; without the default, the first point."""
    from dataclasses import replace
    from analyses.sweep import reference_point
    res = open_results(write_results(tmp_path, "sw", {f"power={x}": BASE for x in (1, 2)}, games=20))
    assert reference_point(res) == ("power=1", False)
    names = [f"sovereign_points={x}" for x in (0, 5, 10, 15, 20)]
    rr = replace(res, game_name="red_rising", variants=dict.fromkeys(names), sweep={"sovereign_points": [0, 5, 10, 15, 20]})
    assert reference_point(rr) == ("sovereign_points=10", True)
    rr = replace(rr, variants=dict.fromkeys(names[:2]), sweep={"sovereign_points": [0, 5]})
    assert reference_point(rr) == ("sovereign_points=0", False)
    plain = open_results(write_results(tmp_path, "plain", {"other": BASE, "base": BASE}, games=20))
    assert reference_point(plain) == ("base", True)


def test_named_variants_find_the_default_in_their_resolved_configs(tmp_path):
    """Red Rising's variants sovereign15 and sovereign10 (experiments/red_rising_sovereign.toml):
    the one at the rules' 10 points (RR-E12) is the reference, whatever its place."""
    from dataclasses import replace
    from analyses.sweep import reference_point
    res = open_results(write_results(tmp_path, "named", {"a": BASE, "b": BASE}, games=20))
    cfg = {"players": 4, "houses": []}
    manifest = {"variants": {"sovereign15": {"config": {**cfg, "sovereign_points": 15}},
                             "sovereign10": {"config": {**cfg, "sovereign_points": 10}}}}
    rr = replace(res, game_name="red_rising", variants=dict.fromkeys(["sovereign15", "sovereign10"]), sweep={},
                 manifest=manifest)
    assert reference_point(rr) == ("sovereign10", True)
    manifest["variants"]["sovereign10"]["config"]["sovereign_points"] = 12        # neither at the default
    assert reference_point(rr) == ("sovereign15", False)
