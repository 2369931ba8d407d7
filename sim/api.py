"""The toolkit from Python (docs/python_api.md): ``sim.run`` plays an experiment (a file or a
dict), ``sim.load`` opens the results of an earlier run; both give a ``Results`` whose rows,
metrics and verdict are polars DataFrames and which draws the report's figures.

Why a layer of its own: a notebook wants four calls, not the command line's composition of
runner, strategy registry, loader, metrics and figures. Nothing here computes anything the
command line does not: it calls the same functions (``sim.play.run_experiment``,
``analyses.load.open_results``, ``analyses.metrics.compute``, ``reports.figures``).
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import polars as pl


def run(experiment, *, out="results", games: int | None = None, jobs: int = 1, seed: int | None = None,
        chunk: int | None = None, file=None, progress: bool = True) -> "Results":
    """Play an experiment and return its results (games already on disk are kept, as ``run``).

    ``experiment`` is an experiment file or a dict of the same tables (``{"experiment": {...},
    "config": {...}, "seats": [...]}``); a dict is written as TOML to ``file`` (default
    ``<out>/<name>.toml``) so the results name their experiment file, and relative paths in it
    are relative to that file, as in any experiment file.
    """
    from sim.core.experiment import load_experiment
    from sim.play import run_experiment

    if isinstance(experiment, dict):
        experiment = _write_experiment(experiment, out, file)
    exp = load_experiment(experiment).with_overrides(games=games, seed=seed, chunk=chunk)
    folder = run_experiment(exp, out_root=out, jobs=jobs, chunk=exp.chunk, progress=progress, games=exp.games)
    return load(folder)


def load(source, out="results") -> "Results":
    """The results of an earlier run: a results folder, a variant's folder, or an experiment file
    (its results under ``out``), optionally ``:VARIANT`` as on the command line."""
    from analyses.load import open_results

    return Results(open_results(str(source), out))


def _write_experiment(table: dict, out, file) -> Path:
    from sim.core.errors import InputError
    from sim.core.toml_text import dumps

    name = table.get("experiment", {}).get("name") if isinstance(table.get("experiment"), dict) else None
    if not isinstance(name, str) or not name:
        raise InputError("experiment dict", "experiment.name", "expected a non-empty string")
    path = Path(file) if file is not None else Path(out) / f"{name}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(table))
    return path


class Results:
    """An experiment's results: rows, metrics, verdict and figures, per variant (default: the
    only one, else pass ``variant``). ``.loaded`` is the checked ``analyses.load.Results``."""

    def __init__(self, loaded):
        self.loaded = loaded
        self._metrics: dict = {}

    @property
    def variants(self) -> list[str]:
        return list(self.loaded.variants)

    def _variant(self, variant):
        if variant is not None:
            if variant not in self.loaded.variants:
                raise KeyError(f"no variant {variant!r}; the results have {', '.join(self.variants)}")
            return variant
        if len(self.variants) != 1:
            raise ValueError(f"these results have {len(self.variants)} variants ({', '.join(self.variants)}): "
                             "pass variant=")
        return self.variants[0]

    def df(self, variant: str | None = None) -> pl.DataFrame:
        """Every results row (one per seat and game, docs/results_schema.md) of one variant, or of
        all variants with ``variant="all"``; ``.to_pandas()`` converts it."""
        if variant == "all":
            return self.loaded.scan().collect()
        return self.loaded.scan(self._variant(variant)).collect()

    def metrics(self, variant: str | None = None, by: str | None = None, level: float = 0.95,
                min_edge_pp: float | None = None):
        """Every table of the report (``analyses.metrics.Metrics``: ``.by_seat``, ``.scores``,
        ``.summary.rates``, ...), computed once per set of arguments."""
        from analyses import metrics

        v = self._variant(variant)
        edge = (min_edge_pp if min_edge_pp is not None else self.loaded.analysis.get("min_edge", 2.0)) / 100
        key = (v, by, level, edge)
        if key not in self._metrics:
            self._metrics[key] = metrics.compute(self.loaded, v, by, level, min_edge=edge)
        return self._metrics[key]

    def win_rates(self, variant: str | None = None, by: str | None = None, level: float = 0.95) -> pl.DataFrame:
        """Win rate of each group (faction, strategy or seat; ``by``) with its interval and fair share."""
        return self.metrics(variant, by, level).summary.rates

    def verdict(self, variant: str | None = None, by: str | None = None, level: float = 0.95,
                min_edge_pp: float | None = None) -> pl.DataFrame:
        """The verdict page as a table: one row per question and group, its word ("out of
        balance", "balanced within", "undecided"), estimate, interval and games still needed."""
        page = self.metrics(variant, by, level, min_edge_pp).page
        rows = [dataclasses.asdict(line) for line in page.lines]
        return pl.DataFrame(rows, infer_schema_length=None) if rows else pl.DataFrame()

    def figure(self, variant: str | None = None, by: str | None = None, level: float = 0.95):
        """The report's win-rate figure (a matplotlib Figure): each group's win rate, its interval
        and the fair share. ``fig.savefig("x.png")`` writes it."""
        from analyses.intervals import WILSON
        from reports import figures

        m = self.metrics(variant, by, level)
        stamp = figures.Stamp(m.experiment, m.variant, m.games, m.config_hash, WILSON)
        return figures.win_rate_dots(m.summary.rates, m.by, stamp, level)
