"""Loading results: sources, checks, and one-line errors (exit 2) for bad input."""
import polars as pl
import pytest

from analyses.load import infer_sweep, open_results, sweep_point
from analyses.synthetic import Variant, write_results
from sim.cli import main
from sim.core.errors import InputError


def _cli(capsys, *argv):
    code = main(list(argv))
    err = capsys.readouterr().err.strip().splitlines()
    return code, err


def test_open_results_reads_all_variants_and_infos(tmp_path):
    root = write_results(tmp_path, "exp", {"base": Variant(), "cheap": Variant(players=(3,), shared_win_rate=0.1)},
                         games=700, shard_games=300)
    r = open_results(root)
    assert r.experiment == "exp" and r.game_name == "synthetic" and set(r.variants) == {"base", "cheap"}
    info = r.variants["base"]
    assert (info.games, info.rows, info.first_game, info.last_game, info.players) == (700, 2100, 0, 699, (3,))
    assert r.components == ["score_bonus", "score_cards", "score_fleet"]
    assert r.scan("cheap").select(pl.len()).collect().item() == 2100
    assert open_results(f"{root}:cheap").variants.keys() == {"cheap"}
    assert list(open_results(root / "base").variants) == ["base"]          # a variant's own folder


def test_sweep_names_are_parsed_and_sorted(tmp_path):
    vs = {f"power={x}": Variant() for x in (10, 2, 5)}
    r = open_results(write_results(tmp_path, "sw", vs, games=20))
    assert r.sweep == {"power": [2, 5, 10]} or sorted(r.sweep["power"]) == [2, 5, 10]
    assert list(r.variants) == ["power=2", "power=5", "power=10"]
    assert infer_sweep(["a=1,b=x", "a=2,b=y"]) == {"a": [1, 2], "b": ["x", "y"]}
    assert infer_sweep(["base", "a=1"]) == {}
    assert sweep_point("a=1.5,b=true") == {"a": 1.5, "b": True}


def test_no_results(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no results"):
        open_results(tmp_path / "empty")
    code, err = _cli(capsys, "summary", str(tmp_path / "empty"))
    assert code == 2 and len(err) == 1 and "no results" in err[0]


def test_missing_path_and_unknown_variant(tmp_path, capsys):
    code, err = _cli(capsys, "report", str(tmp_path / "nope"))
    assert code == 2 and len(err) == 1 and "no such results folder" in err[0]
    root = write_results(tmp_path, "exp", {"base": Variant()}, games=10)
    with pytest.raises(InputError, match="no results for this variant; found: base"):
        open_results(f"{root}:other")


def test_experiment_file_without_results(tmp_path, capsys):
    code, err = _cli(capsys, "summary", "tests/data/toy.toml", "--results", str(tmp_path))
    assert code == 2 and len(err) == 1 and "no results" in err[0] and "python -m sim run" in err[0]


def test_missing_column_names_it(tmp_path, capsys):
    root = write_results(tmp_path, "exp", {"base": Variant()}, games=30)
    shard = next((root / "base").glob("shard-*.parquet"))
    pl.read_parquet(shard).drop("win_share").write_parquet(shard)
    with pytest.raises(InputError, match="column 'win_share'.*missing column"):
        open_results(root)
    code, err = _cli(capsys, "report", str(root))
    assert code == 2 and len(err) == 1 and "win_share" in err[0]


def test_results_of_different_games_mixed(tmp_path, capsys):
    root = write_results(tmp_path, "exp", {"a": Variant(), "b": Variant(game_name="other_game")}, games=30)
    with pytest.raises(InputError, match="results of different games mixed: other_game, synthetic"):
        open_results(root)
    code, err = _cli(capsys, "summary", str(root))
    assert code == 2 and len(err) == 1 and "different games" in err[0]


def test_results_of_different_configs_in_one_variant(tmp_path):
    write_results(tmp_path, "exp", {"base": Variant()}, games=30)
    write_results(tmp_path, "exp", {"base": Variant(shared_win_rate=0.5)}, games=30, first_game=30)
    with pytest.raises(InputError, match="different configs mixed"):
        open_results(tmp_path / "exp")


def test_compare_different_player_counts_exits_2(tmp_path, capsys):
    a = write_results(tmp_path, "three", {"base": Variant(players=(3,))}, games=40)
    b = write_results(tmp_path, "four", {"base": Variant(factions={f: 1.0 for f in "abcd"}, players=(4,))}, games=40)
    code, err = _cli(capsys, "compare", str(a), str(b), "--no-report")
    assert code == 2 and len(err) == 1 and "different player counts: 3 vs 4" in err[0]


def test_compare_needs_one_variant_per_side(tmp_path, capsys):
    root = write_results(tmp_path, "exp", {"a": Variant(), "b": Variant()}, games=20)
    code, err = _cli(capsys, "compare", str(root), f"{root}:b", "--no-report")
    assert code == 2 and len(err) == 1 and "pick one with" in err[0]


def test_bad_option_values_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["compare", "x", "y", "--alpha", "2"])
    assert exc.value.code == 2
    assert "alpha" in capsys.readouterr().err
