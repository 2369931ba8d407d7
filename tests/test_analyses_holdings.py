"""Content held at the end (analyses.holdings): the lift of holding a card, with game-clustered
intervals that equal statsmodels' cluster-robust OLS, on small planted data."""
import numpy as np
import polars as pl
import pytest

from analyses.holdings import Held, analyse_held


def _games(n: int, seed: int = 1, strong: str = "C1", boost: float = 2.0) -> pl.LazyFrame:
    """n three-seat games and one automa seat; each player seat holds 0-3 of C1..C6 at random;
    the seat holding ``strong`` is ``boost`` times as likely to win. The automa holds C2 always
    and never wins (it must not count)."""
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(n):
        hands = [sorted(set(rng.choice([f"C{k}" for k in range(1, 7)], size=rng.integers(0, 4)))) for _ in range(3)]
        w = np.array([boost if strong in h else 1.0 for h in hands])
        winner = rng.choice(3, p=w / w.sum())
        for s, h in enumerate(hands):
            rows.append({"game": g, "players": 4, "seat": s, "is_automa": False, "win_share": float(s == winner),
                         "score": int(50 + 10 * (s == winner) + rng.integers(0, 5)), "rr_hand": ";".join(h)})
        rows.append({"game": g, "players": 4, "seat": 3, "is_automa": True, "win_share": 0.0, "score": 0,
                     "rr_hand": "C2"})
    return pl.DataFrame(rows).lazy()


def test_holding_a_strong_card_shows_a_lift_and_a_neutral_card_none():
    t = analyse_held(_games(3000), Held("card", "rr_hand")).table
    assert t["value"].to_list() == [f"C{k}" for k in range(1, 7)]          # natural order
    c1 = t.filter(pl.col("value") == "C1").row(0, named=True)
    # holders win 2/(2+1+1) = 1/2 against 1/4 when one of three holds it: a lift of about 25-30 pp
    assert c1["lo"] > 0.15 and c1["significant"]
    neutral = t.filter(pl.col("value") != "C1")
    assert (neutral["lo"] < 0).sum() >= 4                                 # the others: lift near 0 or below
    assert c1["share_held"] == pytest.approx(c1["holders"] / 9000)           # automa rows left out


def test_the_interval_is_the_cluster_robust_ols_one():
    """lift = slope of win_share ~ holds C3; its variance = statsmodels' cluster-robust (games
    as clusters, no small-sample factor)."""
    import statsmodels.api as sm
    lf = _games(800, seed=5)
    t = analyse_held(lf, Held("card", "rr_hand")).table.filter(pl.col("value") == "C3").row(0, named=True)
    df = lf.filter(~pl.col("is_automa")).collect()
    h = df["rr_hand"].str.split(";").list.contains("C3").cast(pl.Float64).to_numpy()
    fit = sm.OLS(df["win_share"].to_numpy(), sm.add_constant(h)).fit(
        cov_type="cluster", cov_kwds={"groups": df["game"].to_numpy(), "use_correction": False})
    assert t["lift"] == pytest.approx(fit.params[1], abs=1e-12)
    se = (t["hi"] - t["lo"]) / (2 * 1.959963984540054)
    assert se == pytest.approx(fit.bse[1], rel=1e-9)
    sfit = sm.OLS(df["score"].to_numpy().astype(float), sm.add_constant(h)).fit(
        cov_type="cluster", cov_kwds={"groups": df["game"].to_numpy(), "use_correction": False})
    assert t["score_lift"] == pytest.approx(sfit.params[1], abs=1e-9)
    assert (t["score_hi"] - t["score_lo"]) / (2 * 1.959963984540054) == pytest.approx(sfit.bse[1], rel=1e-9)


def test_report_pages_show_every_card_by_what_it_is(tmp_path):
    """The forest page and the table page(s); the cards by their text; the HTML has the table."""
    from types import SimpleNamespace

    from reports.report import _Writer, held_figures, held_lines
    ha = analyse_held(_games(600), Held("card", "rr_hand"))
    labels = {f"C{k}": f"Card {k} (Red, core {k})" for k in range(1, 7)}
    lines = held_lines(ha, labels)
    assert sum("Card" in ln and "(Red, core" in ln for ln in lines) == 6
    assert any(ln.startswith("C1 Card 1") and ln.endswith("*") for ln in lines)
    m = SimpleNamespace(experiment="demo", variant="base", games=600, config_hash="h")
    w = _Writer(tmp_path / "demo.pdf", tmp_path / "demo")
    held_figures(w, m, ha, "", labels)
    files = w.close()
    assert [p.stem for p in files.pngs] == ["held_card", "held_card_table"]
    html = files.html.read_text()
    assert html.count("<tr") == 7 and "C1 Card 1 (Red, core 1)" in html and "<tr class=flag>" in html


def test_activations_per_holder_equal_a_direct_count():
    """``Held.uses_prefix``: per value, holders (automa left out), their mean uses per game with a
    normal interval, the share of holders with a use, the others' mean; values never held are
    left out (C6 here), and a count column of a name nobody holds (``u_tribe``) is ignored."""
    from analyses.holdings import analyse_uses
    rng = np.random.default_rng(4)
    df = _games(400, seed=2).collect()
    held = df["rr_hand"].str.split(";")
    cols = {}
    for k in range(1, 6):
        has = held.list.contains(f"C{k}").to_numpy()
        cols[f"u_C{k}"] = np.where(has, rng.integers(0, 2 * k - 1, len(df)), 0)     # C1 never used
    df = df.with_columns(*(pl.Series(c, v) for c, v in cols.items()), pl.lit(7).alias("u_tribe"),
                         pl.col("rr_hand").str.replace_all("C6", "C7"))
    t = analyse_uses(df.lazy(), Held("card", "rr_hand", ";", "u_"))
    assert sorted(t["value"].to_list()) == [f"C{k}" for k in range(1, 6)]
    players = df.filter(~pl.col("is_automa"))
    for k in range(1, 6):
        mine = players.filter(pl.col("rr_hand").str.split(";").list.contains(f"C{k}"))[f"u_C{k}"].to_numpy()
        r = t.filter(pl.col("value") == f"C{k}").row(0, named=True)
        assert r["holders"] == len(mine) and r["uses_mean"] == pytest.approx(mine.mean())
        assert r["users"] == pytest.approx((mine > 0).mean()) and r["uses_other"] == 0
        half = 1.959963984540054 * mine.std(ddof=1) / np.sqrt(len(mine))
        assert r["uses_hi"] - r["uses_mean"] == pytest.approx(half)
    assert t.filter(pl.col("value") == "C1")["uses_mean"].item() == 0
    assert analyse_uses(df.lazy(), Held("card", "rr_hand")) is None


def test_report_draws_the_activations_page_and_table(tmp_path):
    """With ``uses_prefix`` the held pages gain ``held_<name>_activations`` and the text table has
    one activation row per value held."""
    from types import SimpleNamespace

    from analyses.holdings import analyse_uses
    from reports.report import _Writer, held_figures, held_lines
    df = _games(300, seed=3).collect()
    df = df.with_columns(*(pl.col("rr_hand").str.split(";").list.contains(f"C{k}").cast(pl.Int64).mul(k).alias(f"u_C{k}")
                           for k in range(1, 7)))
    held = Held("card", "rr_hand", ";", "u_")
    ha = analyse_held(df.lazy(), held)
    ha.uses = analyse_uses(df.lazy(), held)
    lines = held_lines(ha)
    start = lines.index(next(ln for ln in lines if ln.startswith("CARD ACTIVATIONS")))
    assert [ln.split()[0] for ln in lines[start + 2:]] == [f"C{k}" for k in range(1, 7)]
    assert lines[start + 4].split()[2] == "3.00"                  # C3: every holder used it 3 times
    m = SimpleNamespace(experiment="demo", variant="base", games=300, config_hash="h")
    w = _Writer(tmp_path / "demo.pdf", tmp_path / "demo")
    held_figures(w, m, ha, "", {})
    assert [p.stem for p in w.close().pngs] == ["held_card", "held_card_table", "held_card_activations"]
