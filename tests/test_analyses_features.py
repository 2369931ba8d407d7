"""Features in play (analyses.features): planted effects are found, and only they; every number
equals a direct computation (statsmodels' cluster-robust OLS for the holders' test); reports and
``summary`` show the feature when the game declares it."""
import numpy as np
import polars as pl
import pytest
from scipy import stats

from analyses import metrics
from analyses.features import (Feature, FeatureAnalysis, analyse_feature, as_feature, declared_features,
                               feature_columns, format_feature, natural_key)
from analyses.load import open_results
from analyses.synthetic import Variant, games_table, write_results
from sim.core.errors import InputError

POOL = tuple(f"T{i}" for i in range(1, 11))
SLOTS = ("humans", "goblins", "beasts", "sprites")
TILE = Feature("favour tile", "ft_tile_", "ft_favour_")
PLANTED = Variant(factions={"red": 1.0, "blue": 1.0, "green": 1.0}, players=(3,), strategies=("A", "B", "C"),
                  feature_pool=POOL, feature_slots=SLOTS, holder_weights={"T3": 3.0},
                  in_play_weights={"T7": {"B": 1.6}})


@pytest.fixture(scope="module")
def planted() -> FeatureAnalysis:
    return analyse_feature(games_table(PLANTED, 6000, seed=3).lazy(), TILE, by="strategy")


def test_natural_order_declarations_and_columns():
    assert sorted(["T10", "T2", "T1", "FT05", "FT00"], key=natural_key) == ["FT00", "FT05", "T1", "T2", "T10"]
    assert as_feature(("tile", "t_", "h_")) == Feature("tile", "t_", "h_")
    assert as_feature({"name": "goal", "in_play_prefix": "g_"}) == Feature("goal", "g_")
    assert declared_features("synthetic") == [] and declared_features("no.such.module") == []
    assert declared_features("tests.feature_game") == [TILE]
    schema = {"ft_tile_humans": pl.String, "ft_tile_goblins": pl.String, "ft_favour_humans": pl.Int8,
              "ft_favour_goblins": pl.Int8, "score": pl.Int32}
    assert feature_columns(schema, TILE) == (["humans", "goblins"], ["ft_tile_humans", "ft_tile_goblins"],
                                             ["ft_favour_humans", "ft_favour_goblins"])
    with pytest.raises(InputError, match="ft_favour_goblins"):
        feature_columns({k: v for k, v in schema.items() if k != "ft_favour_goblins"}, TILE)
    with pytest.raises(InputError, match="no columns starting with 'en_tile_'"):
        feature_columns(schema, Feature("tile", "en_tile_"))


def test_finds_exactly_the_planted_effects(planted):
    fa = planted
    assert fa.values["value"].to_list() == list(POOL)                      # natural order, T10 last
    assert fa.values["games_in"].sum() == 4 * 6000                           # four values in play per game
    flags = fa.flagged()
    # holders of T3 win far more (3x the strength: 60% vs 20% with one holder); no other value's holders
    assert flags["holders"] == ["T3"] and flags["holder_scores"] == ["T3"]
    t3 = fa.holders.filter(pl.col("value") == "T3").row(0, named=True)
    assert 0.2 < t3["diff"] < 0.32 and t3["lo"] > 0.15
    # T7 in play helps strategy B (1.6x: 33% -> 44%), at the expense of A and C; no other value moves anyone
    assert {v for v, _ in flags["win_rates"]} == {"T7"}
    t7 = {r["strategy"]: r for r in fa.win_rates.filter(pl.col("value") == "T7").iter_rows(named=True)}
    assert t7["B"]["significant"] and 0.07 < t7["B"]["diff"] < 0.16
    assert t7["A"]["diff"] < 0 and t7["C"]["diff"] < 0
    # the holder effect makes T3 games more lopsided (bigger spread); nothing else changes margins
    assert {v for v, _ in flags["margins"]} <= {"T3"}
    text = "\n".join(format_feature(fa))
    assert "T3: holders +" in text and "T7 in play: B +" in text and "WIN RATE BY STRATEGY" in text


def test_no_effect_no_flags():
    null = Variant(factions={"a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0}, players=(4,), strategies=("A", "B"),
                   feature_pool=POOL, feature_slots=SLOTS)
    fa = analyse_feature(games_table(null, 4000, seed=5).lazy(), TILE)
    assert fa.by == "faction"
    assert fa.flagged() == {"win_rates": [], "margins": [], "holders": [], "holder_scores": []}
    assert "No favour tile value shifts" in format_feature(fa)[1]


def _direct(df: pl.DataFrame, value: str, players: int):
    """Reference numbers for one value and player count, computed the obvious (slow) way."""
    import statsmodels.api as sm

    d = df.filter(pl.col("players") == players)
    tiles = [f"ft_tile_{s}" for s in SLOTS]
    held = [f"ft_favour_{s}" for s in SLOTS]
    d = d.with_columns(inp=pl.any_horizontal([pl.col(c) == value for c in tiles]),
                       holder=pl.any_horizontal([(pl.col(c) == value) & (pl.col(h) > 0) for c, h in zip(tiles, held)]))
    games = d.group_by("game").agg(inp=pl.col("inp").first(), holders=pl.col("holder").sum(),
                                   top=pl.col("score").filter(pl.col("rank") == 1).max(),
                                   second=pl.col("score").filter(pl.col("rank") != 1).max(),
                                   winners=(pl.col("rank") == 1).sum(),
                                   spread=pl.col("score").max() - pl.col("score").min())
    games = games.with_columns(margin=pl.when(pl.col("winners") > 1).then(0).otherwise(pl.col("top") - pl.col("second")))
    sub = d.filter(pl.col("inp")).sort("game")
    out = {"games_in": int(games["inp"].sum()), "games": games.height,
           "held": games.filter(pl.col("inp"))["holders"].value_counts().sort("holders")}
    x = sm.add_constant(sub["holder"].cast(pl.Float64).to_numpy())
    for col in ("win_share", "score"):
        fit = sm.OLS(sub[col].cast(pl.Float64).to_numpy(), x).fit(
            cov_type="cluster", cov_kwds={"groups": sub["game"].to_numpy(), "use_correction": False})
        out[col] = (fit.params[1], fit.params[1] / fit.bse[1])
    out["holder_rate"] = sub.filter(pl.col("holder"))["win_share"].mean()
    out["other_rate"] = sub.filter(~pl.col("holder"))["win_share"].mean()
    for m in ("margin", "spread"):
        a = games.filter(pl.col("inp"))[m].cast(pl.Float64).to_numpy()
        b = games.filter(~pl.col("inp"))[m].cast(pl.Float64).to_numpy()
        out[m] = (a.mean() - b.mean(), stats.ttest_ind(a, b, equal_var=False).pvalue)
    out["by"] = d.group_by("strategy", pl.col("inp")).agg(n=pl.len(), w=pl.col("win_share").sum()).sort("strategy", "inp")
    return out


@pytest.mark.parametrize("repeat_values", [False, True])
def test_every_number_equals_a_direct_computation(repeat_values):
    v = Variant(factions={"a": 1.0, "b": 1.2, "c": 1.0, "d": 0.9}, players=(3, 4), strategies=("A", "B", "C"),
                shared_win_rate=0.05, feature_pool=POOL, feature_slots=SLOTS, holder_weights={"T2": 1.5})
    df = games_table(v, 1500, seed=9)
    if repeat_values:           # a value in two slots of some games: the exact (per value) path
        df = df.with_columns(ft_tile_sprites=pl.when(pl.col("game") % 7 == 0).then(pl.col("ft_tile_humans"))
                             .otherwise(pl.col("ft_tile_sprites")))
    fa = analyse_feature(df.lazy(), TILE, by="strategy", batch_games=400)
    assert fa.values["players"].unique().sort().to_list() == [3, 4]
    for value in ("T2", "T5"):
        for players in (3, 4):
            ref = _direct(df, value, players)
            key = (pl.col("value") == value) & (pl.col("players") == players)
            vt = fa.values.filter(key).row(0, named=True)
            assert (vt["games_in"], vt["games"]) == (ref["games_in"], ref["games"])
            h = fa.holders.filter(key).row(0, named=True)
            assert h["holder_rate"] == pytest.approx(ref["holder_rate"]) and h["other_rate"] == pytest.approx(ref["other_rate"])
            assert h["diff"] == pytest.approx(ref["win_share"][0]) and h["z"] == pytest.approx(ref["win_share"][1])
            assert h["score_diff"] == pytest.approx(ref["score"][0])
            assert h["score_diff"] / ((h["score_hi"] - h["score_lo"]) / (2 * 1.959964)) == pytest.approx(ref["score"][1])
            assert h["lo"] < h["diff"] < h["hi"]
            counts = fa.holder_counts.filter(key & (pl.col("games") > 0))
            assert dict(counts.select("holders", "games").iter_rows()) == dict(ref["held"].iter_rows())
            for m in ("margin", "spread"):
                r = fa.margins.filter(key & (pl.col("measure") == m)).row(0, named=True)
                assert r["diff"] == pytest.approx(ref[m][0]) and r["p"] == pytest.approx(ref[m][1])
            rows = {(s, i): (n, w) for s, i, n, w in ref["by"].iter_rows()}
            for r in fa.win_rates.filter(key).iter_rows(named=True):
                n1, w1 = rows[(r["strategy"], True)]
                n0, w0 = rows[(r["strategy"], False)]
                assert (r["rows_in"], r["rows_out"]) == (n1, n0)
                assert r["diff"] == pytest.approx(w1 / n1 - w0 / n0)
    one = analyse_feature(df.lazy(), TILE, by="strategy")                       # one batch = many batches
    assert one.holders.equals(fa.holders) or np.allclose(one.holders["z"].to_numpy(), fa.holders["z"].to_numpy())


def test_holder_test_holds_its_size_without_effects():
    """Seats of one game are dependent: a plain Newcombe test of holders vs others rejects too
    often (about 6.4% at 5% here); the clustered test stays at 5% (400 x 10 tests: 5.35%)."""
    null = Variant(factions={"a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0}, players=(4,), strategies=("A", "B"),
                   feature_pool=POOL, feature_slots=SLOTS)
    p = np.concatenate([analyse_feature(games_table(null, 800, seed=100 + r).lazy(), TILE).holders["p"].to_numpy()
                        for r in range(60)])
    assert 0.02 < np.mean(p < 0.05) < 0.085


def test_without_held_columns_and_excluded_values():
    v = Variant(factions={"a": 1.0, "b": 1.0, "c": 1.0}, players=(3,), feature_pool=("FT00",) + POOL[:5],
                feature_slots=("x", "y"))
    df = games_table(v, 600, seed=2)
    fa = analyse_feature(df.lazy(), Feature("goal", "ft_tile_", None, exclude=("FT00",)))
    assert fa.holders is None and fa.holder_counts is None
    assert fa.values["value"].to_list() == list(POOL[:5])
    assert "HOLDERS" not in "\n".join(format_feature(fa))


def _feature_results(tmp_path, variants, games=1500):
    vs = {k: Variant(**{**PLANTED.__dict__, "game_name": "tests.feature_game", **kw}) for k, kw in variants.items()}
    return open_results(write_results(tmp_path / "res", "feat", vs, games=games))


def test_report_adds_feature_pages_when_the_game_declares_a_feature(tmp_path):
    from reports.report import experiment_report

    res = _feature_results(tmp_path, {"base": {}})
    files = experiment_report(res, tmp_path / "out", by="strategy", with_ratings=False)
    names = [p.stem for p in files.pngs]
    for expected in ("feature_favour_tile", "feature_favour_tile_holders", "feature_favour_tile_win_rate_by_strategy"):
        assert expected in names
        assert (tmp_path / "out" / "feat" / f"{expected}.png").stat().st_size > 10_000
    import re
    assert len(re.findall(rb"/Type\s*/Page[^s]", files.pdf.read_bytes())) == len(files.pngs)
    two = _feature_results(tmp_path / "two", {"a": {}, "b": {"holder_weights": None}}, games=600)
    names = [p.stem for p in experiment_report(two, tmp_path / "out2", with_ratings=False).pngs]
    assert "feature_favour_tile_holders__a" in names and "feature_favour_tile_win_rate_by_faction__b" in names


def test_summary_prints_the_feature_tables(tmp_path, capsys):
    from sim.cli import main

    res = _feature_results(tmp_path, {"base": {}}, games=800)
    assert main(["summary", str(res.root), "--by", "strategy"]) == 0
    out = capsys.readouterr().out
    assert "FEATURE FAVOUR TILE" in out and "HOLDERS vs NON-HOLDERS" in out and "WIN RATE BY STRATEGY: in play" in out


def test_declared_feature_missing_from_results_is_a_note(tmp_path):
    res = _feature_results(tmp_path, {"base": {"feature_pool": (), "feature_slots": ()}}, games=300)
    m = metrics.compute(res, "base", with_ratings=False)
    assert m.features == []
    assert any("feature 'favour tile' not analysed" in n for n in m.summary.notes)
    plain = open_results(write_results(tmp_path / "plain", "p", {"base": Variant()}, games=200))
    assert metrics.compute(plain, "base", with_ratings=False).features == []
