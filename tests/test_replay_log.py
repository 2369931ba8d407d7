"""The replay log has one header and line format for every game (sim.core.replay): the header
names each seat's slot, strategy and faction as the stored rows do; every decision is numbered
with its seat and strategy, what it set off indented below it."""
from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from sim import cli
from sim.core import results as res
from sim.core.experiment import load_experiment
from sim.play import run_experiment

ROOT = Path(__file__).resolve().parent.parent
DECISION = re.compile(r"^\[(\d+)\] seat (\d+) \(([^)]+)\): \S")
SEAT = re.compile(r"^# seat (\d+)(?: \(start player\))?: slot (\d+), strategy (\S+), faction (.+)$")


@pytest.mark.parametrize("file, game", [
    ("red_rising_houses.toml", 3),
    ("animal_kingdoms_solo_greedy.toml", 1),
    ("explorers_of_navoria_seats_3p.toml", 2),
    ("../tests/data/toy.toml", 4),
])
def test_every_game_logs_in_one_format_and_the_header_names_the_stored_seats(tmp_path, capsys, file, game):
    exp = load_experiment(ROOT / "experiments" / file)
    variant = next(iter(exp.variants))
    out = run_experiment(exp, tmp_path, games=game + 1, chunk=game + 1, variants=[variant])
    assert cli.main(["replay", str(out), "--game", str(game)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"# replay: {exp.name} / {variant}, game {game}, seed {exp.seed}, config ")
    stored = (res.scan(out, variant).filter(pl.col("game") == game).sort("seat")
              .select("seat", "slot", "strategy", "faction").collect())
    seats = [SEAT.match(line) for line in lines[2:2 + stored.height]]
    assert all(seats), lines[:2 + stored.height]
    assert [(int(m[1]), int(m[2]), m[3], m[4]) for m in seats] == stored.rows()
    body = lines[2 + stored.height:lines.index("# result")]
    numbers = [int(m[1]) for m in map(DECISION.match, body) if m]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) > 10
    assert all(DECISION.match(line) or line.startswith("      ") for line in body)
    strategy_of_seat = {s: st for s, _, st, _ in stored.rows()}
    for m in filter(None, map(DECISION.match, body)):
        assert m[3] == strategy_of_seat[int(m[2])]
    assert "# matches the stored results" in lines
