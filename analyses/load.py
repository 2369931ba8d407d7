"""Find an experiment's results shards, check them, and scan them lazily with polars.

Why a loader of its own: every analysis must run over all shards of an experiment without
reading them into memory (10 million rows and more), must know what it is looking at (which
experiment, game, variants, config hash, how many games) to label its answers, and must refuse
bad input with one line that names the problem instead of a polars traceback deep inside a
metric. Only the columns of docs/results_schema.md are assumed; score components are found by
their ``score_`` prefix.

A *source* on the command line may be:

* a results folder of an experiment (``results/<name>``, holding ``<variant>/shard-*.parquet``),
* one variant's folder (``results/<name>/<variant>``),
* an experiment file (``experiments/x.toml``: its results folder under the results root),
* any of these followed by ``:VARIANT`` to select one variant (``x.toml:cheap_ships``).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from sim.core.errors import InputError
from sim.core.results import scan_variants, shard_ranges

REQUIRED = {
    "experiment": pl.String, "game_name": pl.String, "variant": pl.String, "config_hash": pl.String,
    "seed": None, "game": None, "players": None, "seat": None, "slot": None, "strategy": pl.String,
    "faction": pl.String, "is_automa": pl.Boolean, "score": None, "rank": None, "win_share": None,
    "turns": None, "rounds": None, "end_reason": pl.String,
}
SHARD_GLOB = "shard-*.parquet"
_SWEEP_NAME = re.compile(r"^[^=,]+=[^=,]*(,[^=,]+=[^=,]*)*$")


@dataclass
class VariantInfo:
    """What one variant's results hold: enough to label a figure and to check a pairing."""

    name: str
    games: int
    rows: int
    first_game: int
    last_game: int
    config_hash: str
    seed: int
    players: tuple


@dataclass
class Results:
    """A checked set of results shards: one experiment, one game, one or more variants."""

    source: str
    root: Path
    experiment: str
    game_name: str
    variants: dict                      # name -> VariantInfo, in the experiment's order
    files: dict                         # name -> [shard paths]
    components: list                    # score_* columns
    manifest: dict | None = None
    sweep: dict = field(default_factory=dict)   # parameter -> [values] when the variants are a sweep
    experiment_file: Path | None = None
    analysis: dict = field(default_factory=dict)   # the experiment file's [analysis] settings

    def scan(self, variant: str | None = None, max_games: int | None = None) -> pl.LazyFrame:
        """All rows of one variant (or of all variants), lazily; ``max_games`` keeps games < n."""
        names = [variant] if variant else list(self.variants)
        lf = scan_variants([self.files[n] for n in names])       # columns a variant lacks: null
        if max_games is not None:
            lf = lf.filter(pl.col("game") < max_games)
        return lf

    def info(self, variant: str) -> VariantInfo:
        return self.variants[variant]

    @property
    def label(self) -> str:
        names = list(self.variants)
        return self.experiment if len(names) > 1 or names == ["base"] else f"{self.experiment}:{names[0]}"

    def only(self, variant: str) -> "Results":
        """The same results restricted to one variant (InputError naming the known ones)."""
        if variant not in self.variants:
            raise InputError(self.source, f"variant {variant!r}",
                             "no results for this variant; found: " + ", ".join(self.variants))
        return Results(self.source, self.root, self.experiment, self.game_name,
                       {variant: self.variants[variant]}, {variant: self.files[variant]}, self.components,
                       self.manifest, {}, self.experiment_file, self.analysis)


def _split_variant(spec: str) -> tuple[str, str | None]:
    """``path:variant`` -> (path, variant); a bare path (even a Windows drive) -> (path, None)."""
    if ":" in spec:
        head, tail = spec.rsplit(":", 1)
        if head and tail and "/" not in tail and not Path(spec).exists():
            return head, tail
    return spec, None


def _experiment_dir(path: Path, results_root) -> tuple[Path, object]:
    try:
        from sim.core.experiment import load_experiment
    except ImportError:                     # pragma: no cover - the loader ships with sim.core
        raise InputError(path, None, "cannot read experiment files: sim.core.experiment is missing") from None
    exp = load_experiment(path)
    return exp.results_dir(results_root), exp


def _variant_dirs(root: Path) -> dict[str, list[Path]]:
    out = {}
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        files = sorted(sub.glob(SHARD_GLOB))
        if files:
            out[sub.name] = files
    return out


def parse_value(text: str):
    """A sweep value from a variant name: int, float, bool or the text itself."""
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def infer_sweep(names) -> dict:
    """Sweep parameters from variant names ``p=v`` or ``p=v,q=w`` (all names must have that form)."""
    names = list(names)
    if len(names) < 2 or not all(_SWEEP_NAME.match(n) for n in names):
        return {}
    sweep: dict = {}
    for n in names:
        for part in n.split(","):
            k, v = part.split("=", 1)
            values = sweep.setdefault(k, [])
            if parse_value(v) not in values:
                values.append(parse_value(v))
    keys = [tuple(part.split("=", 1)[0] for part in n.split(",")) for n in names]
    return sweep if len(set(keys)) == 1 else {}


def sweep_point(name: str) -> dict:
    """The parameter values of a sweep variant name ``p=v[,q=w]``."""
    return {k: parse_value(v) for k, v in (part.split("=", 1) for part in name.split(","))}


def _check_schema(source: str, files: dict) -> list[str]:
    """Every shard has the schema's columns; returns the score components (common to all)."""
    components = None
    for paths in files.values():
        for path in paths:
            try:
                schema = pl.read_parquet_schema(path)
            except Exception as err:  # noqa: BLE001 - polars raises several kinds for a bad file
                raise InputError(path, None, f"not a readable Parquet shard ({type(err).__name__})") from None
            missing = [c for c in REQUIRED if c not in schema]
            if missing:
                raise InputError(path, f"column {missing[0]!r}",
                                 "missing column of the results schema (docs/results_schema.md)"
                                 + (f"; also missing {', '.join(missing[1:])}" if missing[1:] else ""))
            for col, dtype in REQUIRED.items():
                if dtype is None and not schema[col].is_numeric():
                    raise InputError(path, f"column {col!r}", f"expected a numeric column, got {schema[col]}")
                if dtype is not None and schema[col] != dtype:
                    raise InputError(path, f"column {col!r}", f"expected {dtype}, got {schema[col]}")
            comps = sorted(c for c in schema if c.startswith("score_"))
            if components is None:
                components = comps
            elif comps != components:
                raise InputError(path, "score_* columns", f"components {comps} differ from other shards' {components}")
    return components or []


def _summarise(source: str, files: dict) -> tuple[dict, str, str]:
    """One lazy pass: per variant games, rows, range, hashes, seeds, player counts; game/experiment."""
    all_files = [str(p) for paths in files.values() for p in paths]
    lf = pl.scan_parquet(all_files, hive_partitioning=False, extra_columns="ignore")
    games_q = lf.select(pl.col("game_name").unique().sort())
    exp_q = lf.select(pl.col("experiment").unique().sort())
    per = (lf.group_by("variant").agg(
        rows=pl.len(),
        games=(pl.col("seat") == 0).sum(),
        first=pl.col("game").min(), last=pl.col("game").max(),
        hashes=pl.col("config_hash").unique().sort(),
        seeds=pl.col("seed").unique().sort(),
        players=pl.col("players").unique().sort(),
    ))
    game_names, experiments, per = pl.collect_all([games_q, exp_q, per])
    game_names = game_names["game_name"].to_list()
    if len(game_names) > 1:
        raise InputError(source, "game_name", "results of different games mixed: " + ", ".join(map(str, game_names)))
    if not game_names:
        raise InputError(source, None, "no results: the shards hold no rows")
    experiments = experiments["experiment"].to_list()
    if len(experiments) > 1:
        raise InputError(source, "experiment", "results of different experiments mixed: " + ", ".join(experiments))
    infos = {}
    for row in per.iter_rows(named=True):
        name = row["variant"]
        if len(row["hashes"]) > 1:
            raise InputError(source, f"variant {name!r}",
                             f"results of different configs mixed (config hashes {', '.join(row['hashes'])}); "
                             "delete the old results or rename the experiment")
        if len(row["seeds"]) > 1:
            raise InputError(source, f"variant {name!r}", f"results of different seeds mixed: {row['seeds']}")
        infos[name] = VariantInfo(name, int(row["games"]), int(row["rows"]), int(row["first"]), int(row["last"]),
                                  row["hashes"][0], int(row["seeds"][0]), tuple(int(p) for p in row["players"]))
    for folder in files:
        if folder not in infos:
            raise InputError(source, f"folder {folder!r}", "shards hold no rows of this variant (variant column "
                             f"says {', '.join(infos)})")
    return infos, game_names[0], experiments[0]


def open_results(spec, results_root="results", variant: str | None = None) -> Results:
    """Resolve a source (see module doc), check its shards and return a ``Results``.

    Raises ``InputError`` for: a path that is neither results nor an experiment file, no shards,
    a missing schema column, two shards holding the same game, mixed games, experiments,
    configs or seeds.
    """
    spec = str(spec)
    path_text, selected = _split_variant(spec)
    selected = variant or selected
    path = Path(path_text)
    exp = None
    if path.is_file() and path.suffix == ".toml":
        root, exp = _experiment_dir(path, results_root)
        if not root.is_dir():
            raise InputError(root, None, f"no results: run `python -m sim run {path}` first")
    elif path.is_dir():
        root = path
    elif path.suffix == ".toml":
        raise InputError(path, None, "experiment file not found")
    else:
        raise InputError(path, None, "no such results folder or experiment file")

    if any(root.glob(SHARD_GLOB)):          # a variant's own folder
        files = {root.name: sorted(root.glob(SHARD_GLOB))}
        top = root.parent
    else:
        files = _variant_dirs(root)
        top = root
    if not files:
        raise InputError(root, None, "no results: no shard-*.parquet files (run the experiment first)")
    manifest = None
    mpath = top / "manifest.json"
    if mpath.is_file():
        try:
            manifest = json.loads(mpath.read_text())
        except json.JSONDecodeError:
            raise InputError(mpath, None, "corrupt manifest (not JSON)") from None
    if selected is not None:
        if selected not in files:
            raise InputError(spec, f"variant {selected!r}",
                             "no results for this variant; found: " + ", ".join(files))
        files = {selected: files[selected]}
    elif exp is not None:
        known = [v for v in exp.variants if v in files]
        if not known:
            raise InputError(root, None, "no results for the experiment's variants "
                             f"({', '.join(exp.variants)}); run the experiment first")
        files = {v: files[v] for v in known}
    components = _check_schema(spec, files)
    for paths in files.values():            # a game held by two shards would be counted twice
        shard_ranges(paths)
    infos, game_name, experiment = _summarise(spec, files)
    order = list(exp.variants) if exp is not None else list((manifest or {}).get("variants", {}))
    names = [v for v in order if v in infos] + sorted(v for v in infos if v not in order)
    if exp is not None and getattr(exp, "sweep", None):
        sweep = {k: list(v) for k, v in exp.sweep.items()}
    else:
        sweep = infer_sweep(names)
    if sweep:
        names.sort(key=lambda n: tuple(_sort_key(sweep_point(n).get(k)) for k in sweep))
    return Results(spec, top, experiment, game_name, {n: infos[n] for n in names},
                   {n: files[n] for n in names}, components, manifest, sweep if len(names) > 1 else {},
                   getattr(exp, "path", None), _analysis_settings(exp, manifest))


def _analysis_settings(exp, manifest) -> dict:
    """The ``[analysis]`` settings of the experiment file: the one given, or the one the manifest
    names when a results folder is given (none when that file is gone or no longer loads)."""
    if exp is not None:
        return dict(exp.analysis)
    path = (manifest or {}).get("experiment_file")
    if not path or not Path(path).is_file():
        return {}
    from sim.core.experiment import load_experiment
    try:
        return dict(load_experiment(path).analysis)
    except InputError:
        return {}


def _sort_key(value):
    return (0, value, "") if isinstance(value, (int, float)) else (1, 0, str(value))
