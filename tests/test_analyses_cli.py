"""The report / compare / summary commands end to end (synthetic results and the toy game)."""
import textwrap

from analyses.synthetic import Variant, with_effect, write_results
from sim.cli import main

TOY = textwrap.dedent("""
    [experiment]
    name = "{name}"
    game = "tests.toy_game"
    games = {games}
    seed = 11
    chunk = 250

    [config]
    players = 3
    target = 25

    [[seats]]
    strategy = "random"
    [[seats]]
    strategy = "random"
    [[seats]]
    strategy = "random"
    """)


def _toy(tmp_path, name, extra, games=600):
    path = tmp_path / f"{name}.toml"
    path.write_text(TOY.format(name=name, games=games) + textwrap.dedent(extra))
    return path


def test_summary_prints_the_verdict_and_tables(tmp_path, capsys):
    root = write_results(tmp_path, "demo", {"base": Variant(factions={"a": 1.5, "b": 1.0, "c": 1.0})}, games=2000)
    assert main(["summary", str(root)]) == 0
    out = capsys.readouterr().out
    assert "Out of balance by more than 2.0 pp: faction a, c" in out and "WIN RATE BY FACTION" in out
    assert "Games needed (same correction" in out and "SEAT ADVANTAGE" in out and "Family: all" in out
    assert main(["summary", str(root), "--min-edge", "15"]) == 0          # a is +10 pp: inside a 15 pp band
    out = capsys.readouterr().out
    assert out.startswith("Balanced within ±15.0 pp") and "[ OK] faction: a: balanced within ±15.0 pp" in out


def test_report_writes_pdf_and_pngs(tmp_path, capsys):
    root = write_results(tmp_path / "res", "demo", {"base": Variant()}, games=500)
    assert main(["report", str(root), "--report-dir", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "demo.pdf").is_file()
    assert (tmp_path / "out" / "demo" / "win_rate_by_faction.png").is_file()
    assert "report:" in capsys.readouterr().out


def test_compare_two_results_folders_prints_table_and_writes_report(tmp_path, capsys):
    base = Variant(reshuffle=0.4)
    root = write_results(tmp_path / "res", "cmp", {"a": base, "b": with_effect(Variant(reshuffle=0.4, noise_key=1),
                                                                              "red", 1.5)}, games=2000)
    assert main(["compare", f"{root}:a", f"{root}:b", "--report-dir", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "paired: same seed" in out and "the 3 faction values compared are one family" in out
    red = next(line for line in out.splitlines() if line.startswith("red"))
    assert red.rstrip().endswith("McNemar exact") and "changed by > 2.0 pp" in red
    assert main(["compare", f"{root}:a", f"{root}:b", "--no-report", "--min-edge", "40"]) == 0
    out = capsys.readouterr().out
    assert "VERDICT: B changes no faction's win rate by 40.0 pp or more" in out
    assert (tmp_path / "out" / "compare_cmp-a_vs_cmp-b.pdf").is_file()


def test_compare_two_variants_of_an_experiment_file_plays_them_paired(tmp_path, capsys):
    exp = _toy(tmp_path, "toy_var", """
        [analysis]
        min_edge = 7.5
        [variants.base]
        [variants.short]
        target = 15
        """, games=500)
    args = ["compare", f"{exp}:base", f"{exp}:short", "--results", str(tmp_path / "results"),
            "--report-dir", str(tmp_path / "out")]
    assert main(args) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert out.startswith("configuration A -> B:\n  target: 25 -> 15\n")    # what B changes, first
    assert "playing toy_var: 500/500 games" in captured.err                  # progress while it plays
    assert "paired: same seed 11 and game indices 0..499" in out and "by seat" in out
    assert "±7.5 pp = the smallest change that matters" in out          # A's [analysis] min_edge
    assert (tmp_path / "results" / "toy_var" / "short").is_dir()
    rounds = next(line for line in out.splitlines() if line.startswith("rounds"))
    assert "-" in rounds.split()[4]                      # shorter target, shorter games


def test_compare_sequential_stops_early_on_the_toy_game(tmp_path, capsys):
    exp = _toy(tmp_path, "toy_seq", """
        [variants.base]
        [variants.same]
        bonus_points = 0
        """, games=20000)
    args = ["compare", f"{exp}:base", f"{exp}:same", "--results", str(tmp_path / "results"), "--sequential",
            "--round-games", "500", "--delta1", "5", "--no-report"]
    assert main(args) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert out.startswith("configuration A -> B: the same (only the games differ)")
    assert "playing toy_seq: 500/500 games" in captured.err
    assert "sequential test (SPRT, two-sided" in out and "stopped: all decided" in out
    assert "no change of 5.00 pp or more" in out and "budget 20,000" in out
    played = sum(1 for _ in (tmp_path / "results" / "toy_seq" / "base").glob("shard-*.parquet"))
    assert 1 <= played <= 8                                # rounds, not the whole budget


def test_compare_sequential_with_elo_bounds_on_results(tmp_path, capsys):
    base = Variant(reshuffle=0.4)
    root = write_results(tmp_path / "res", "cmp", {"a": base, "b": with_effect(Variant(reshuffle=0.4, noise_key=1),
                                                                              "red", 1.6)}, games=6000)
    args = ["compare", f"{root}:a", f"{root}:b", "--sequential", "--elo1", "40", "--round-games", "500",
            "--target", "red", "--no-report"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Elo 0 / 40 at fair share 33.3%" in out and "red" in out and "higher" in out


def test_report_of_a_sweep_experiment_file(tmp_path, capsys):
    exp = _toy(tmp_path, "toy_sweep", """
        [sweep]
        target = [10, 20, 40]
        """, games=300)
    assert main(["run", str(exp), "--out", str(tmp_path / "results"), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["report", str(exp), "--out", str(tmp_path / "results"), "--report-dir", str(tmp_path / "out"),
                 "--details", "none"]) == 0
    pngs = {p.stem for p in (tmp_path / "out" / "toy_sweep").glob("*.png")}
    assert {"summary", "sweep_win_rate", "sweep_game", "sweep_first_player_win_rate"} <= pngs
    assert (tmp_path / "out" / "toy_sweep.html").is_file() and "html: " in capsys.readouterr().out
    assert main(["summary", f"{exp}:target=20", "--results", str(tmp_path / "results")]) == 0
    assert "variant target=20" in capsys.readouterr().out


def test_the_experiment_file_sets_the_smallest_edge_that_matters(tmp_path, capsys):
    """``[analysis] min_edge`` in the experiment file is the verdicts' edge; --min-edge overrides it."""
    path = _toy(tmp_path, "edge", "\n[analysis]\nmin_edge = 7.5\n", games=300)
    assert main(["run", str(path), "--out", str(tmp_path / "r"), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["summary", str(path), "--out", str(tmp_path / "r")]) == 0
    assert "7.5 pp" in capsys.readouterr().out
    assert main(["summary", str(tmp_path / "r" / "edge")]) == 0          # the folder: its manifest names the file
    assert "7.5 pp" in capsys.readouterr().out
    assert main(["summary", str(path), "--out", str(tmp_path / "r"), "--min-edge", "3"]) == 0
    out = capsys.readouterr().out
    assert "3.0 pp" in out and "7.5 pp" not in out


def test_a_bad_analysis_table_is_refused_with_one_line(tmp_path, capsys):
    for extra, expected in [("\n[analysis]\nmin_edg = 3\n", "analysis.min_edg: unknown key; did you mean 'min_edge'?"),
                            ("\n[analysis]\nmin_edge = 60\n", "analysis.min_edge: expected percentage points"),
                            ("\n[analysis]\nmin_edge = 'big'\n", "analysis.min_edge: expected percentage points")]:
        path = _toy(tmp_path, "bad", extra)
        assert main(["run", str(path), "--out", str(tmp_path / "r"), "--quiet"]) == 2
        assert expected in capsys.readouterr().err
