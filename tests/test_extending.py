"""docs/extending.md works as written: its files, written from its code blocks, play (plug-in
strategy by dotted path, plug-in game), with the plug-in safety rules of games."""
from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import polars as pl
import pytest

from sim import cli
from sim.core import results as res
from sim.core.errors import InputError
from sim.core.experiment import load_experiment
from sim.play import run_experiment

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "extending.md"
_BLOCK = re.compile(r"^File `([^`]+)`:\n\n```\w*\n(.*?)^```", re.M | re.S)


def write_doc_files(folder: Path) -> list[str]:
    """Every "File `x`:" code block of the doc, written under ``folder``; the copy of the toy game too."""
    names = []
    for name, body in _BLOCK.findall(DOC.read_text()):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(body)
        names.append(name)
    assert "File `my_plugins/pig/game.py`: a copy of `tests/toy_game.py`." in DOC.read_text()
    shutil.copy(ROOT / "tests" / "toy_game.py", folder / "my_plugins" / "pig" / "game.py")
    return names


@pytest.fixture
def doc_files(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "path", sys.path[:])      # the plug-in folders a test allows leave with it
    names = write_doc_files(tmp_path)
    yield tmp_path, names
    for module in ("my_strategies", "pig", "pig.game"):
        sys.modules.pop(module, None)


def test_the_docs_plug_in_strategy_plays_in_workers_and_is_named_in_the_results(doc_files, monkeypatch):
    folder, names = doc_files
    assert names == ["my_plugins/my_strategies.py", "first_legal.toml", "my_plugins/pig/__init__.py", "pig.toml"]
    monkeypatch.chdir(folder)
    assert cli.main(["run", "first_legal.toml", "--games", "40", "--jobs", "2", "--quiet"]) == 0
    rows = res.scan(folder / "results" / "first_legal_vs_greedy").collect()
    assert sorted(rows["strategy"].unique().to_list()) == ["ak_greedy", "my_strategies.FirstLegal"]
    wins = rows.group_by("strategy").agg(pl.col("win_share").mean()).sort("strategy")["win_share"].to_list()
    assert wins[0] > wins[1]           # greedy beats always-the-last-legal-action


def test_the_docs_plug_in_game_plays_with_the_plug_in_strategy(doc_files, monkeypatch):
    folder, _ = doc_files
    monkeypatch.chdir(folder)
    assert cli.main(["run", "pig.toml", "--games", "30", "--quiet"]) == 0
    rows = res.scan(folder / "results" / "pig_first_legal").collect()
    assert rows.height == 30 * 3 and rows["game_name"].unique().to_list() == ["pig.game"]
    # FirstLegal always rolls (action 0) until it busts: it never banks a point
    assert rows.filter(pl.col("strategy") == "my_strategies.FirstLegal")["score"].max() == 0


def test_a_plug_in_strategy_only_in_the_current_directory_is_refused(doc_files, monkeypatch):
    folder, _ = doc_files
    (folder / "first_legal.toml").write_text((folder / "first_legal.toml").read_text()
                                             .replace('plugin_path = "my_plugins"\n', ""))
    shutil.copy(folder / "my_plugins" / "my_strategies.py", folder / "my_strategies.py")
    monkeypatch.chdir(folder)
    with pytest.raises(InputError, match=r"seats\[0\]\.strategy: plug-in strategy 'my_strategies.FirstLegal' "
                                         r"not found: 'my_strategies' is only in the current directory"):
        run_experiment(load_experiment("first_legal.toml"), folder / "out")
    assert not (folder / "out").exists()


def test_a_dotted_name_that_is_not_a_strategy_class_is_one_line(doc_files, monkeypatch):
    folder, _ = doc_files
    toml = folder / "first_legal.toml"
    toml.write_text(toml.read_text().replace("my_strategies.FirstLegal", "my_strategies.Params"))
    with pytest.raises(InputError, match="'my_strategies.Params' is not a strategy class"):
        run_experiment(load_experiment(toml), folder / "out")
