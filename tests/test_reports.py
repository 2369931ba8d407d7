"""Reports: every figure written as PNG and as a PDF page, labelled with what it shows."""
import re

import polars as pl

import matplotlib.image as mpimg

from analyses import metrics
from analyses.compare import Side, compare
from analyses.load import open_results
from analyses.synthetic import SyntheticSource, Variant, with_effect, write_results
from analyses.sequential import run_sequential
from reports import figures as F
from reports.report import compare_report, experiment_report, safe_name

RICH = Variant(factions={"Mars": 1.3, "Venus": 1.0, "Earth": 0.9, "Luna": 1.0}, players=(3,),
               seat_weights=(1.1, 1.0, 0.95), strategies=("greedy", "random", "rush"),
               strategy_weights={"greedy": 1.2}, shared_win_rate=0.03)


def _pages(pdf):
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes()))


def test_single_variant_report_has_summary_first_and_all_figures(tmp_path):
    res = open_results(write_results(tmp_path / "res", "demo", {"base": RICH}, games=3000))
    files = experiment_report(res, tmp_path / "out")
    names = [p.stem for p in files.pngs]
    assert files.pdf == tmp_path / "out" / "demo.pdf"
    assert names[:2] == ["verdict", "summary"]                         # the verdict page opens the report
    for expected in ("win_rate_by_faction", "seat_advantage", "faction_x_seat", "win_rate_by_strategy",
                     "faction_x_strategy", "scores", "score_histograms", "ratings", "game_length", "end_reasons"):
        assert expected in names
    assert files.html == tmp_path / "out" / "demo.html" and files.html.stat().st_size > 100_000
    assert all(p.parent == tmp_path / "out" / "demo" and p.stat().st_size > 10_000 for p in files.pngs)
    assert _pages(files.pdf) == len(files.pngs)
    h, w, _ = mpimg.imread(files.pngs[1]).shape
    assert w >= 1200 and h >= 500                                       # legible size at 150 dpi


def test_every_figure_names_experiment_games_hash_and_interval_method(tmp_path):
    res = open_results(write_results(tmp_path / "res", "demo", {"base": RICH}, games=500))
    m = metrics.compute(res, "base")
    st = F.Stamp(m.experiment, m.variant, m.games, m.config_hash, "95% Wilson score intervals")
    fig = F.win_rate_dots(m.summary.rates, "faction", st, 0.95)
    texts = " ".join(t.get_text() for t in fig.texts)
    assert "demo" in texts and "500 games" in texts and m.config_hash in texts and "Wilson" in texts


def test_sweep_report_is_one_page_per_metric_with_paired_differences(tmp_path):
    """A sweep of 5 points: verdict, overview, one page per metric (level and paired difference
    from the reference point), no per-point details unless asked: 6 pages, not 52."""
    vs = {f"bonus={x}": with_effect(RICH, "Earth", x) for x in (0.8, 1.0, 1.2, 1.4, 1.6)}
    res = open_results(write_results(tmp_path / "res", "sweep", vs, games=400))
    files = experiment_report(res, tmp_path / "out", with_ratings=False)
    names = [p.stem for p in files.pngs]
    assert names == ["verdict", "summary", "sweep_win_rate", "sweep_first_player_win_rate", "sweep_score",
                     "sweep_game"]
    assert _pages(files.pdf) == 6 < 15
    fig = F.sweep_metric(*_sweep_tables(res), "win rate", "bonus", F.Stamp("sweep", None, "x", "h", "i"),
                         reference=F.SweepReference(0.8, "bonus=0.8", "reference"))
    left, right = fig.axes[:2]
    assert "paired difference from the reference bonus=0.8" in right.get_title()
    assert any(t.get_text() == "reference" for t in right.texts)          # the reference point is marked
    earth = [ln for ln in right.get_lines() if ln.get_label() == "Earth"][0]
    assert earth.get_ydata()[0] == 0 and earth.get_ydata()[-1] > 5        # pp above the reference at 1.6


def _sweep_tables(res):
    from analyses.sweep import paired_sweep_table, sweep_table
    return sweep_table(res, "faction"), paired_sweep_table(res, "faction", "bonus=0.8")


def test_named_variants_keep_their_detail_pages(tmp_path):
    two = open_results(write_results(tmp_path / "res", "two", {"base": RICH, "strong_earth": with_effect(RICH, "Earth", 1.3)},
                                     games=300))
    files = experiment_report(two, tmp_path / "out2", details="auto", with_ratings=False)
    names = [p.stem for p in files.pngs]
    assert "win_rate_by_faction__strong_earth" in names and "sweep_win_rate" in names


def test_one_end_reason_gets_no_page_of_its_own_and_seats_count_from_1(tmp_path):
    """"How games end" with one reason would be a single bar: it moves into the title of the
    game-length page. Seats read 1, 2, 3 in the figures and on the verdict page."""
    import polars as pl
    root = write_results(tmp_path / "res", "one", {"base": RICH}, games=300)
    for shard in root.rglob("shard-*.parquet"):
        pl.read_parquet(shard).with_columns(end_reason=pl.lit("three_rounds")).write_parquet(shard)
    res = open_results(root)
    files = experiment_report(res, tmp_path / "out", with_ratings=False)
    names = [p.stem for p in files.pngs]
    assert "end_reasons" not in names and "game_length" in names
    m = metrics.compute(res, "base", with_ratings=False)
    fig = F.game_length(m.length_counts, m.summary.length, m.margin, F.Stamp("one", None, 300, "h", "i"),
                        m.summary.shared, "three_rounds")
    assert "every game ends by three_rounds" in fig._suptitle.get_text() and len(fig.axes) == 2
    fixed = m.length_counts.head(1)                                    # one length: no single-bar histogram
    fig = F.game_length(fixed, m.summary.length, m.margin, F.Stamp("one", None, 300, "h", "i"))
    assert len(fig.axes) == 1 and f"every game lasts {fixed['rounds'][0]} rounds" in fig._suptitle.get_text()
    seat = F.seat_advantage(m.by_seat, F.Stamp("one", None, 300, "h", "i"), 0.95)
    assert [t.get_text() for t in seat.axes[0].get_xticklabels()] == ["1", "2", "3"]
    assert {ln.group for ln in m.page.lines if ln.question.startswith("seat")} == {"seat 1", "seat 2", "seat 3"}


def test_compare_report_with_sequential_paths(tmp_path):
    base = Variant(factions={"red": 1.0, "blue": 1.0, "green": 1.0}, reshuffle=0.4)
    a = SyntheticSource(tmp_path / "res", "cmp", "a", base)
    b = SyntheticSource(tmp_path / "res", "cmp", "b", with_effect(Variant(**{**base.__dict__, "noise_key": 1}),
                                                                   "red", 1.4))
    seq, _ = run_sequential(a, b, "faction", 0.05, 0.05, 0.0, 0.03, 300, 6000)
    res = open_results(tmp_path / "res" / "cmp")
    c = compare(Side(res, "a", seq.games), Side(res, "b", seq.games), "faction")
    files = compare_report(c, seq, tmp_path / "out")
    assert files.pdf.name == "compare_cmp-a_vs_cmp-b.pdf"
    names = [p.stem for p in files.pngs]
    assert names == ["summary", "win_rate_difference_by_faction", "win_rate_by_faction",
                     "score_difference_by_faction", "sequential_test"]
    assert _pages(files.pdf) == 5
    html = files.html.read_text()
    assert files.html.name == "compare_cmp-a_vs_cmp-b.html" and "<pre>" in html and html.count("<img ") == 4


def test_safe_name():
    assert safe_name("a/b c:d") == "a_b_c_d"
    assert safe_name("power=1.5,x=2") == "power=1.5,x=2"


def test_error_bars_at_a_bound_do_not_fail():
    """A share of exactly 1 can sit a rounding error above its Wilson upper bound."""
    import matplotlib.pyplot as plt
    from reports.figures import _errorbar
    fig, ax = plt.subplots()
    bars = _errorbar(ax, [1.0], [0], xerr=[[0.02], [-1e-16]], fmt="o")
    assert bars is not None
    plt.close(fig)


def test_verdict_page_is_plain_language_and_pages_print_no_nan_minus_zero_or_threshold(tmp_path):
    """The first page has no monospace text; it names the family, games needed, assumptions; no
    page prints nan, -0 or '<1e-4' (issue 10)."""
    from reports.report import summary_lines, verdict_items, verdict_lines
    res = open_results(write_results(tmp_path / "res", "demo", {"base": RICH}, games=800))
    m = metrics.compute(res, "base")
    head, items, notes = verdict_items(m.page)
    fig = F.verdict_page(head, items, notes, F.Stamp("demo", "base", 800, m.config_hash, "x"), "Verdict")
    assert all(t.get_fontfamily() != ["monospace"] for t in fig.texts)
    assert {c for c, _ in items} <= set(F.LIGHTS)
    text = "\n".join(verdict_lines(m.page) + summary_lines(m))
    assert "Family: all" in text and "Games needed (same correction" in text and "Assumes:" in text
    assert not re.search(r"nan|<1e-4|(?<![\d.])-0(?:\.0+)?(?![\d.])", text)


def test_several_player_counts_get_a_win_rate_by_player_count_page(tmp_path):
    """Mars (strength 1.3) is above its fair share at 3 and at 4 players; one count: no page."""
    mixed = Variant(**{**RICH.__dict__, "players": (3, 4), "seat_weights": None})
    res = open_results(write_results(tmp_path / "res", "mixed", {"base": mixed}, games=2000))
    files = experiment_report(res, tmp_path / "out", with_ratings=False)
    assert "win_rate_by_faction_and_players" in [p.stem for p in files.pngs]
    m = metrics.compute(res, "base", with_ratings=False)
    fig = F.by_player_count(m.by_players, "faction", F.Stamp("mixed", None, 2000, "h", "i"))
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["3 players", "4 players"]
    mars = m.by_players.filter(pl.col("faction") == "Mars")
    assert mars.height == 2 and (mars["excess"] > 0).all()
    single = metrics.compute(open_results(write_results(tmp_path / "res", "one", {"base": RICH}, games=200)), "base",
                             with_ratings=False)
    assert single.by_players is None


def test_content_is_labelled_by_what_it_is(tmp_path):
    """EN-A9's favour tiles read as their two colours and points per card; Red Rising's cards as
    name, colour and core value (RR-A1), from the experiment file's content."""
    from dataclasses import replace
    from pathlib import Path
    from reports.labels import content_labels, labelled
    res = open_results(write_results(tmp_path / "res", "demo", {"base": RICH}, games=20))
    assert content_labels(res, "base") == {}                        # synthetic: no content, ids stay
    root = Path(__file__).resolve().parent.parent / "experiments"
    en = content_labels(replace(res, experiment_file=root / "explorers_of_navoria_favour_tiles.toml"), "base")
    assert en["favour tile"]["FT02"] == "traders+soldiers 3/2 pts per card" and en["favour tile"]["FT00"] == "blank"
    assert labelled("FT02", en["favour tile"]) == "FT02 traders+soldiers 3/2 pts per card"
    assert labelled("FT99", en["favour tile"]) == "FT99"
    rr = content_labels(replace(res, experiment_file=root / "red_rising_houses.toml"), "base")
    assert len(rr["card"]) == 112 and rr["card"]["RED-2"] == "Red 2 (Red, core 6)"
