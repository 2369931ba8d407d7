"""The Python API: docs/python_api.md's example runs as written, and its calls agree with the
command line's loader and metrics."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import polars as pl
import pytest

import sim
from sim.core.errors import InputError
from sim.core.toml_text import dumps

ROOT = Path(__file__).resolve().parent.parent
TOY = {
    "experiment": {"name": "toy_api", "game": "tests.toy_game", "games": 90, "seed": 7, "chunk": 40},
    "config": {"players": 3, "target": 25},
    "seats": [{"strategy": "random"}] * 3,
}


def test_the_docs_example_runs(tmp_path, monkeypatch):
    code = re.search(r"```python\n(.*?)```", (ROOT / "docs" / "python_api.md").read_text(), re.S).group(1)
    (tmp_path / "experiments").symlink_to(ROOT / "experiments")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "docs/python_api.md", "exec"), {})
    assert (tmp_path / "ak_plans_2p.png").stat().st_size > 10_000
    assert (tmp_path / "results" / "ak_plans_2p.toml").is_file()       # the dict, as an experiment file
    assert (tmp_path / "results" / "animal_kingdoms_seats_2p" / "base").is_dir()


def test_a_dict_experiment_equals_its_file_and_loads_back(tmp_path):
    from_dict = sim.run(TOY, out=tmp_path / "a", progress=False)
    (tmp_path / "toy.toml").write_text(dumps(TOY))
    from_file = sim.run(tmp_path / "toy.toml", out=tmp_path / "b", progress=False)
    assert from_dict.df().equals(from_file.df()) and from_dict.df().height == 90 * 3
    loaded = sim.load(tmp_path / "a" / "toy_api")
    assert loaded.df().equals(from_dict.df())
    rates = loaded.win_rates()
    assert rates["win_rate"].sum() == pytest.approx(1.0)        # seats of one game share one win
    verdict = loaded.verdict()
    assert {"question", "group", "word", "estimate", "lo", "hi"} <= set(verdict.columns)
    assert verdict.height == len(loaded.metrics().page.lines) > 0
    assert loaded.df().to_pandas().shape == (270, loaded.df().width)


def test_toml_text_reads_back_as_the_same_tables():
    table = {**TOY, "variants": {"short": {"target": 15}, "long": {"target": 40}},
             "seats": [{"strategy": "x", "params": {"w": 1.5, "on": True, "names": ["a", "b"]}}],
             "analysis": {"min_edge": 2}}
    assert tomllib.loads(dumps(table)) == table


def test_a_dict_without_a_name_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="experiment.name: expected a non-empty string"):
        sim.run({"experiment": {"game": "tests.toy_game"}}, out=tmp_path)
    assert not any(tmp_path.iterdir())


def test_several_variants_need_a_variant_name(tmp_path):
    table = {**TOY, "variants": {"short": {"target": 15}, "long": {"target": 40}}}
    results = sim.run(table, out=tmp_path, progress=False)
    with pytest.raises(ValueError, match="2 variants"):
        results.df()
    assert results.df("short")["rounds"].mean() < results.df("long")["rounds"].mean()
    assert results.df("all").select(pl.col("variant").n_unique()).item() == 2
