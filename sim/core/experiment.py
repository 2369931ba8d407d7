"""Experiment files (TOML): what to simulate, validated before anything runs.

An experiment names a game, its rule config, one strategy per seat slot, the number of games
and the seed, and optionally named variants or a parameter sweep. Each variant resolves to a
full, validated game config; its hash identifies the results it produces. The format is
documented in docs/experiments.md. Names become folder names, so they are checked (``NAME``);
a plug-in game is code and is looked up only where the user allowed it (``sim.core.game``).
"""
from __future__ import annotations

import dataclasses
import inspect
import itertools
import re
from pathlib import Path

from sim.core import config as cfg
from sim.core.datafiles import read_toml
from sim.core.errors import InputError
from sim.core.hashing import bytes_hash, files_hash, module_source_hash, normalised, stable_hash
from sim.core.wording import shown
from sim.core.game import PluginNotFound, find_plugin, game_names, get_game, plugin_paths

SECTIONS = ("experiment", "config", "seats", "entrants", "variants", "sweep", "analysis")
ANALYSIS_KEYS = ("min_edge",)
EXPERIMENT_KEYS = ("name", "game", "description", "games", "seed", "chunk", "plugin_path", "seating")
SEATINGS = ("rotate", "fixed")     # how the seats' strategies are arranged round the table (runner.seat_orders)
SEAT_KEYS = ("strategy", "params", "params_file")
PARAMS_FILE_KEYS = ("strategy", "params", "tuning")   # a parameter file (strategies/tuned/, docs/tuning.md)
NAME = re.compile(r"[A-Za-z0-9_+-][A-Za-z0-9._+-]{0,99}")   # a folder name: no separators, not . or ..
_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]+")


@dataclasses.dataclass(frozen=True)
class Seat:
    strategy: str
    params: dict              # the parameter file's params, then the seat's own over them
    params_file: str = ""     # as written in the experiment file ("" without one)


@dataclasses.dataclass
class Experiment:
    path: Path
    name: str
    game: str
    description: str
    games: int
    seed: int
    chunk: int
    seats: tuple[Seat, ...]
    variants: dict            # variant name -> validated game Config
    sweep: dict               # parameter -> list of values ({} without a sweep)
    plugin_paths: tuple = ()  # folders a plug-in game is imported from (worker processes too)
    entrants: tuple = ()      # Seats an analysis draws tables from (the skill ladder); never played by run
    analysis: dict = dataclasses.field(default_factory=dict)  # [analysis] settings: how results are read
    seating: str = "rotate"   # "rotate": every cyclic order of the slots in turn by game index; "fixed": slot order
    variant_seats: dict = dataclasses.field(default_factory=dict)  # variant -> its Seats, when they differ

    def seats_of(self, variant: str) -> tuple:
        """The seats of one variant: ``seats``, or fewer with several player counts."""
        return self.variant_seats.get(variant, self.seats)

    def results_dir(self, out_root="results") -> Path:
        return Path(out_root) / self.name

    def game_module(self):
        return get_game(self.game, self.plugin_paths)

    def content(self, variant: str):
        """The variant's loaded content (cards, tables): loaded once per variant and process."""
        key = (self.game, repr(self.variants[variant]))
        cache = _CONTENT_CACHE.get(key)
        if cache is None:
            cache = self.game_module().load_content(self.variants[variant], str(self.path))
            _CONTENT_CACHE[key] = cache
        return cache

    def hash_parts(self, variant: str, strategies=None) -> dict:
        """What identifies a variant's results, one hash per part: the resolved config (content
        files by their bytes, not their path), the loaded content, the seats and the engine
        (its package's files). With the seats' ``strategies`` (as the runner makes them), their
        parameters count as resolved (a default given = omitted) and their code counts too."""
        game = self.game_module()
        content = self.content(variant)         # first: a content file that is not there is an InputError
        resolved = normalised(self.variants[variant])
        for key, value in resolved.items():
            if key.endswith("_file") and value:
                resolved[key] = {"bytes": bytes_hash(Path(value).read_bytes())}
        if strategies is None:
            seats = [{"strategy": s.strategy, "params": s.params} for s in self.seats_of(variant)]
        else:
            seats = [{"strategy": s.strategy, "params": normalised(st.params),
                      "code": files_hash([inspect.getfile(type(st))])} for s, st in zip(self.seats_of(variant), strategies)]
        return {
            "config": stable_hash({"game": self.game, "config": resolved}),
            "content": str(game.content_hash(content)),
            "seats": stable_hash({"seats": seats, "seating": self.seating}),
            "engine": module_source_hash(type(game).__module__, self.game in game_names()),
        }

    def config_hash(self, variant: str, strategies=None) -> str:
        """16 hex digits identifying the variant's results (``hash_parts`` of the variant)."""
        return stable_hash(self.hash_parts(variant, strategies))

    def with_overrides(self, games=None, seed=None, chunk=None) -> "Experiment":
        changes = {k: v for k, v in (("games", games), ("seed", seed), ("chunk", chunk)) if v is not None}
        for key, value in changes.items():
            if value < (0 if key == "seed" else 1):
                raise InputError("command line", f"--{key}", f"expected a positive integer, got {value}")
        return dataclasses.replace(self, **changes)


_CONTENT_CACHE: dict = {}


def _require_int(source, place, value, low):
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise InputError(source, place, f"expected an integer >= {low}, got {shown(value)}")
    return value


def check_name(source, place, name: str) -> str:
    """A name used as a folder name: letters, digits, '-', '_', '+', '.', not starting with '.'."""
    if not NAME.fullmatch(name):
        raise InputError(source, place, f"expected a name of at most 100 letters, digits, '-', '_', '+' or '.' "
                         f"that does not start with '.' (it names a folder), got {name!r}")
    return name


def _point_text(value) -> str:
    """A sweep value as folder-safe text: ``decks/a.toml`` -> ``decks_a.toml``."""
    return _UNSAFE.sub("_", str(value)).strip("_") or "_"


def _resolve_files(raw: dict, base: Path) -> dict:
    """Config keys ending in ``_file`` are paths relative to the experiment file, made absolute
    here, once, so that workers in other folders read the same files."""
    out = dict(raw)
    for key, value in raw.items():
        if key.endswith("_file") and isinstance(value, str) and value:
            path = Path(value)
            out[key] = str(path if path.is_absolute() else (base / path))
    return out


def _build_config(game, raw: dict, source: Path, prefix: str):
    resolved = _resolve_files(raw, source.resolve().parent)
    return cfg.build(game.Config, resolved, str(source), prefix)


def _parse_seats(source, raw, section: str = "seats") -> tuple[Seat, ...]:
    if not isinstance(raw, list) or not raw:
        raise InputError(source, section, f"expected one or more [[{section}]] tables"
                         + (" (one per player)" if section == "seats" else ""))
    seats = []
    for i, entry in enumerate(raw):
        place = f"{section}[{i}]"
        if not isinstance(entry, dict):
            raise InputError(source, place, "expected a table with 'strategy' and optional 'params'")
        for key in entry:
            if key not in SEAT_KEYS:
                raise cfg.unknown_key_error(str(source), place + ".", key, SEAT_KEYS)
        file_strategy, file_params = _params_file(source, place, entry.get("params_file"))
        strategy = entry.get("strategy", file_strategy)
        if not isinstance(strategy, str):
            raise InputError(source, place + ".strategy", "expected a strategy name (string)")
        if file_strategy is not None and strategy != file_strategy:
            raise InputError(source, place + ".strategy", f"the parameter file is for {file_strategy!r}, "
                             f"not {strategy!r}; expected the same strategy or none")
        params = entry.get("params", {})
        if not isinstance(params, dict):
            raise InputError(source, place + ".params", "expected a table of strategy parameters")
        seats.append(Seat(strategy, {**file_params, **params}, entry.get("params_file", "")))
    return tuple(seats)


def _params_file(source: Path, place: str, given):
    """(strategy, params) of a seat's ``params_file`` (relative to the experiment file), or (None, {})."""
    if given is None:
        return None, {}
    if not isinstance(given, str) or not given:
        raise InputError(source, place + ".params_file", "expected a path to a parameter file (TOML)")
    path = Path(given) if Path(given).is_absolute() else source.parent / given
    if not path.is_file():
        raise InputError(source, place + ".params_file", f"file {given!r} not found (relative to this file)")
    raw = read_toml(path, "parameter file")
    for key in raw:
        if key not in PARAMS_FILE_KEYS:
            raise cfg.unknown_key_error(str(path), "", key, PARAMS_FILE_KEYS)
    if not isinstance(raw.get("strategy"), str):
        raise InputError(path, "strategy", "expected the strategy name the parameters are for (string)")
    if not isinstance(raw.get("params"), dict):
        raise InputError(path, "params", "expected a [params] table of strategy parameters")
    return raw["strategy"], dict(raw["params"])


def _sweep_variants(source, sweep: dict) -> list[tuple[str, dict]]:
    if not isinstance(sweep, dict) or not sweep:
        raise InputError(source, "sweep", "expected a table {parameter = [values, ...]}")
    for key, values in sweep.items():
        if not isinstance(values, list) or not values:
            raise InputError(source, f"sweep.{key}", "expected a non-empty list of values")
        texts = {}
        for value in values:
            other = texts.setdefault(_point_text(value), value)
            if other != value:
                raise InputError(source, f"sweep.{key}", f"values {other!r} and {value!r} give the same folder name "
                                 f"{_point_text(value)!r}; expected values that differ in letters or digits")
    names = list(sweep)
    points = []
    for combo in itertools.product(*(sweep[k] for k in names)):
        label = ",".join(f"{k}={_point_text(v)}" for k, v in zip(names, combo))
        if len(label) > 200:
            raise InputError(source, "sweep", f"the point name {label[:40]!r}... is longer than 200 characters; "
                             "expected fewer or shorter values")
        points.append((label, dict(zip(names, combo))))
    return points


def load_experiment(path) -> Experiment:
    """Read and validate an experiment file; every problem is an InputError naming the key."""
    source = Path(path)
    raw = read_toml(source, "experiment file")
    for key in raw:
        if key not in SECTIONS:
            raise cfg.unknown_key_error(str(source), "", key, SECTIONS)
    head = raw.get("experiment")
    if not isinstance(head, dict):
        raise InputError(source, "experiment", "missing [experiment] table (name, game, games, seed)")
    for key in head:
        if key not in EXPERIMENT_KEYS:
            raise cfg.unknown_key_error(str(source), "experiment.", key, EXPERIMENT_KEYS)
    for key in ("name", "game"):
        if not isinstance(head.get(key), str) or not head.get(key):
            raise InputError(source, f"experiment.{key}", "expected a non-empty string")
    name = check_name(source, "experiment.name", head["name"])
    paths, game = _load_game(source, head)
    games = _require_int(source, "experiment.games", head.get("games", 1000), 1)
    seed = _require_int(source, "experiment.seed", head.get("seed", 0), 0)
    chunk = _require_int(source, "experiment.chunk", head.get("chunk", 4096), 1)
    seating = head.get("seating", "rotate")
    if seating not in SEATINGS:
        raise InputError(source, "experiment.seating", f"expected one of {', '.join(map(repr, SEATINGS))}, "
                         f"got {shown(seating, 'toml')}")

    base_raw = raw.get("config", {})
    if not isinstance(base_raw, dict):
        raise InputError(source, "config", "expected a table of rule settings")
    counts = _player_counts(source, base_raw)
    if counts:
        base_raw = {**base_raw, "players": counts[-1]}
    base = _build_config(game, base_raw, source, "config.")
    seats = _parse_seats(source, raw.get("seats"))
    entrants = _parse_seats(source, raw["entrants"], "entrants") if "entrants" in raw else ()
    if counts and len(seats) == 1:
        seats = seats * counts[-1]
    expected_slots = getattr(base, "players", len(seats))
    if counts and len(seats) != expected_slots:
        raise InputError(source, "seats", f"expected one [[seats]] table (every seat plays it) or {expected_slots} "
                         f"(the largest of config.players; a count of n plays the first n), got {len(seats)}")
    if len(seats) != expected_slots:
        raise InputError(source, "seats", f"expected {expected_slots} [[seats]] tables (config.players = "
                         f"{expected_slots}; automas are not listed), got {len(seats)}")

    if "variants" in raw and "sweep" in raw:
        raise InputError(source, "sweep", "use either [variants] or [sweep], not both")
    variants: dict = {}
    sweep: dict = {}
    if "variants" in raw:
        table = raw["variants"]
        if not isinstance(table, dict) or not table:
            raise InputError(source, "variants", "expected [variants.NAME] tables of config overrides")
        for vname, overrides in table.items():
            check_name(source, f"variants.{vname}", vname)
            if not isinstance(overrides, dict):
                raise InputError(source, f"variants.{vname}", "expected a table of config overrides")
            variants[vname] = _build_config(game, {**base_raw, **overrides}, source, f"variants.{vname}.")
    elif "sweep" in raw:
        sweep = raw["sweep"]
        for label, overrides in _sweep_variants(source, sweep):
            variants[label] = _build_config(game, {**base_raw, **overrides}, source, "sweep.")
    else:
        variants["base"] = base
    for vname, conf in variants.items():
        if getattr(conf, "players", len(seats)) != len(seats):
            raise InputError(source, f"variants.{vname}.players", "a variant cannot change the number of players")
    variant_seats = {}
    if counts:
        single = list(variants) == ["base"]
        variants, variant_seats = _per_player_count(source, variants, counts, seats)
        if single or sweep:             # the counts are (another axis of) a sweep: players=N
            sweep = {**sweep, "players": counts}
    return Experiment(source.resolve(), name, head["game"], head.get("description", ""), games, seed, chunk,
                      seats, variants, dict(sweep), paths, entrants, _parse_analysis(source, raw.get("analysis", {})),
                      seating, variant_seats)


def _player_counts(source: Path, base_raw: dict) -> list | None:
    """``config.players = [2, 3, 4]``: several player counts in one experiment, or None."""
    counts = base_raw.get("players")
    if not isinstance(counts, list):
        return None
    if not counts or not all(isinstance(n, int) and not isinstance(n, bool) for n in counts) \
            or len(set(counts)) != len(counts):
        raise InputError(source, "config.players", f"expected a player count or a list of distinct counts, "
                         f"got {shown(counts, 'toml')}")
    return sorted(counts)


def _per_player_count(source: Path, variants: dict, counts: list, seats: tuple):
    """Each variant once per player count, named ``players=N`` (``NAME,players=N`` for named
    variants or sweep points), with the first N seats; returns (variants, seats per variant)."""
    out, out_seats = {}, {}
    for vname, conf in variants.items():
        for n in counts:
            label = f"players={n}" if vname == "base" else f"{vname},players={n}"
            place = "config.players" if vname == "base" else f"variants.{vname}"
            try:
                out[label] = dataclasses.replace(conf, players=n)
            except TypeError:
                raise InputError(source, "config.players", "this game has no player count to vary") from None
            bounds = next((f.metadata.get("range") for f in dataclasses.fields(conf) if f.name == "players"), None)
            if bounds and not bounds[0] <= n <= bounds[1]:
                raise InputError(source, "config.players", f"expected counts from {bounds[0]} to {bounds[1]}, got {n}")
            problem = out[label].validate() if hasattr(out[label], "validate") else None
            if problem:
                raise InputError(source, f"{place}.{problem[0]}" if problem[0] else place,
                                 f"with {n} players: {problem[1]}")
            out_seats[label] = seats[:n]
    return out, out_seats


def _parse_analysis(source: Path, table) -> dict:
    """``[analysis]``: settings of the reports, not of the games (they change no row and no hash):
    ``min_edge``, the smallest edge of win rate that matters, in percentage points."""
    if not isinstance(table, dict):
        raise InputError(source, "analysis", "expected a table of analysis settings")
    for key in table:
        if key not in ANALYSIS_KEYS:
            raise cfg.unknown_key_error(str(source), "analysis.", key, ANALYSIS_KEYS)
    edge = table.get("min_edge")
    if edge is not None and (isinstance(edge, bool) or not isinstance(edge, (int, float)) or not 0 <= edge < 50):
        raise InputError(source, "analysis.min_edge", f"expected percentage points from 0 to below 50, got {shown(edge, 'toml')}")
    return dict(table)


def _load_game(source: Path, head: dict):
    """(plug-in folders, game module) of ``experiment.game``; plug-ins only from allowed folders."""
    given = head.get("plugin_path", [])
    given = [given] if isinstance(given, str) else given
    if not isinstance(given, list) or not all(isinstance(p, str) and p for p in given):
        raise InputError(source, "experiment.plugin_path", "expected a folder (a string) or a list of folders")
    folders = [str((source.parent / p).resolve()) for p in given]
    for folder, text in zip(folders, given):
        if not Path(folder).is_dir():
            raise InputError(source, "experiment.plugin_path", f"folder {text!r} not found (relative to this file)")
    name = head["game"]
    try:
        game = get_game(name, folders)
        where = None if "." not in name or name in game_names() else find_plugin(name, folders)
    except KeyError:
        raise InputError(source, "experiment.game", f"unknown game {name!r}; expected one of {', '.join(game_names())} "
                         "or a plug-in module path (docs/experiments.md)") from None
    except PluginNotFound as err:
        raise InputError(source, "experiment.game", f"plug-in game {name!r} not found: {err}") from None
    except ImportError as err:
        raise InputError(source, "experiment.game", f"plug-in game {name!r} cannot be imported: {err}") from None
    if not callable(getattr(game, "init", None)):
        raise InputError(source, "experiment.game", f"{name!r} cannot be played yet: it has content, setup and "
                         "scoring but no engine (see its docs); `python -m sim score` and `describe` work")
    paths = tuple(dict.fromkeys([*folders, *plugin_paths(), *([where] if where else [])]))
    return paths, game
