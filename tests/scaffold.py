"""Scaffolding the games' command-line, experiment and content tests share, so that each game's
test says only what is particular to it: run ``python -m sim``, write an experiment, read the
rows back, check a refusal of bad input, copy and edit a game's content files."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from sim.core.errors import InputError
from sim.core.experiment import load_experiment
from sim.core.results import scan
from sim.play import run_experiment

ROOT = Path(__file__).resolve().parent.parent


# ---- the command line and results ---------------------------------------------------------------

def cli(*args, cwd=ROOT) -> subprocess.CompletedProcess:
    """``python -m sim ARGS`` in a fresh process that imports this checkout (whatever ``cwd``)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "sim", *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          env=env)


def experiment_template(name: str, game: str, strategies, players: int = 3) -> str:
    """A small experiment (60 games, seed 3, chunk 25) with one seat per strategy and a ``{extra}``
    line in its ``[config]`` for a test to fill."""
    seats = "".join(f'[[seats]]\nstrategy = "{s}"\n' for s in strategies)
    return (f'\n[experiment]\nname = "{name}"\ngame = "{game}"\ngames = 60\nseed = 3\nchunk = 25\n\n'
            f"[config]\nplayers = {players}\n{{extra}}\n\n{seats}")


def write_experiment(tmp_path: Path, template: str, extra: str = "", text: str | None = None) -> Path:
    """``tmp_path/exp.toml``: ``text``, or ``template`` with ``extra`` lines put in its ``{extra}``."""
    path = tmp_path / "exp.toml"
    path.write_text(text if text is not None else template.format(extra=extra))
    return path


def replay_stored(tmp_path: Path, experiment: Path, name: str, game: int = 17) -> subprocess.CompletedProcess:
    """Run ``experiment`` into ``tmp_path/r`` through the command line, then replay one stored game:
    both succeed and the replay finds the stored results again. Returns the replay."""
    assert cli("run", experiment, "--out", tmp_path / "r", "--quiet", cwd=tmp_path).returncode == 0
    done = cli("replay", tmp_path / "r" / name, "--game", str(game), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "# matches the stored results" in done.stdout
    return done


def rows(results_dir) -> pl.DataFrame:
    """All rows of a results folder, in (game, seat) order."""
    return scan(results_dir).collect().sort(["game", "seat"])


def assert_refused(done: subprocess.CompletedProcess, match: str, out: Path) -> None:
    """Bad input (docs/architecture.md): exit 2, one line on stderr naming the problem, nothing written."""
    assert done.returncode == 2, done.stderr
    assert match in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not out.exists()


def assert_score_sheets(df: pl.DataFrame, components) -> None:
    """The results schema: every row's score is the sum of its components, and the win shares of
    each game sum to 1 (tied winners share)."""
    assert df.select((pl.sum_horizontal(list(components)) == pl.col("score")).all()).item()
    shares = df.group_by(["variant", "game"]).agg(pl.col("win_share").sum())["win_share"]
    assert ((shares - 1.0).abs() < 1e-9).all()


def shipped_games(exp, usual: int) -> int:
    """How many games a test plays of a shipped experiment: ``usual``, but 2 when a seat is the
    search player (each of its decisions plays a whole budget of rollouts: a Red Rising search
    game costs about 10 CPU seconds, so 8 of them were a tenth of the suite's time)."""
    return 2 if any(seat.strategy == "search" for seat in exp.seats) else usual


def run_shipped(path: Path, tmp_path: Path, components) -> pl.DataFrame:
    """Six games (two with a search seat) of (up to) the first two variants of a shipped experiment
    through the real runner: every game gives one row per seat, and the score sheets hold. Returns
    the rows."""
    exp = load_experiment(path)
    variants = list(exp.variants)[:2]
    games = shipped_games(exp, 6)
    df = scan(run_experiment(exp, tmp_path, games=games, chunk=games, variants=variants)).collect()
    assert df.height == games * len(variants) * exp.game_module().seats(exp.variants[variants[0]])
    assert_score_sheets(df, components)
    return df


# ---- content files ------------------------------------------------------------------------------

def copy_content(content_module, folder: Path) -> dict:
    """Copy a game's default content files (its content module's ``DEFAULT_FILES`` in ``DATA_DIR``)
    into ``folder``; returns the config keys that point at the copies."""
    files = {}
    for key, name in content_module.DEFAULT_FILES.items():
        shutil.copy(content_module.DATA_DIR / name, folder / name)
        files[key] = str(folder / name)
    return files


def edit(path: Path, old: str, new: str) -> None:
    """Replace the first ``old`` in a text file by ``new``; ``old`` must be there."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def one_line_error(call, *args, **kwargs) -> str:
    """The message of the InputError that ``call(*args, **kwargs)`` raises, checked to be one line."""
    with pytest.raises(InputError) as err:
        call(*args, **kwargs)
    message = str(err.value)
    assert "\n" not in message, message
    return message
