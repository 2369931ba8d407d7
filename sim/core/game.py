"""The game contract every engine implements, and the registry of games by name.

An engine is vectorised: ``State`` holds numpy arrays whose first axis is the batch of games.
A compound turn is a sequence of small decisions, each a choice among the flat action space
``range(num_actions)`` under a legal mask; whoever must decide is ``decider(state)`` (a player
index in turn order, -1 once the game is over).
"""
from __future__ import annotations

import dataclasses
import importlib
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any, Protocol

import numpy as np


class Game(Protocol):
    name: str            # registry name, e.g. "red_rising"
    Config: type         # frozen dataclass of rule switches and parameters

    def load_content(self, config, source: str) -> Any: ...
    def num_actions(self, content) -> int: ...
    def action_names(self, content) -> list[str]: ...
    def seats(self, config) -> int: ...
    def init(self, config, content, game_ids: np.ndarray, seed: int) -> Any: ...
    def legal_actions(self, state) -> np.ndarray: ...      # bool[B, A]
    def decider(self, state) -> np.ndarray: ...            # int[B], -1 when done
    def step(self, state, actions: np.ndarray) -> Any: ...
    def done(self, state) -> np.ndarray: ...               # bool[B]
    def outcome(self, state) -> dict[str, np.ndarray]: ... # per-seat columns, arrays [B, seats]
    def slot_of(self, state) -> np.ndarray: ...            # int[B, seats]: experiment slot of each seat
    def observe(self, state, players: np.ndarray) -> Any:  ...  # what each game's given player may know
    def describe(self, before, after, action: int) -> list[str]: ...  # readable log lines (batch of 1)

    # Optional attribute (not required; absent = none): ``report_features``, a sequence of
    # ``analyses.features.Feature(name, in_play_prefix, held_prefix=None)`` (or plain tuples of
    # those fields) naming results columns: per-game ``<in_play_prefix><slot>`` = the value in
    # play in that slot, optional per-seat ``<held_prefix><slot>`` > 0 = the seat holds it.
    # Reports and ``summary`` then analyse which values in play shift the outcome
    # (docs/analyses.md, "Features in play"), e.g.
    # ``report_features = (Feature("favour tile", "en_tile_", "en_favour_"),)``.
    # Optional attribute ``compile_seconds`` (a plug-in's; registered games give it to
    # ``register_game``): about how long the first run compiles its numba kernels.


_GAMES: dict[str, str] = {}      # name -> module defining GAME; filled by sim.games
_COMPILE_SECONDS: dict[str, int] = {}   # name -> about how long its first run compiles (register_game)
_PLUGIN_PATHS: list[str] = []    # folders the command line allows plug-ins from (--plugin-path)


def register_game(name: str, module: str, compile_seconds: int | None = None) -> None:
    """Register a game by name: ``module`` (a dotted path defining ``GAME``) is imported only
    when the game is first asked for. The project's games register in ``sim/games/__init__.py``.
    ``compile_seconds``: about how long a fresh checkout compiles the game's numba kernels and
    its strategies' (``python -m benchmarks.compile_times``), which a run says before it does."""
    _GAMES[name] = module
    if compile_seconds is not None:
        _COMPILE_SECONDS[name] = compile_seconds


def compile_seconds(name: str, game=None) -> int | None:
    """The registered first-run compile time of a game (a plug-in's ``GAME.compile_seconds``)."""
    return _COMPILE_SECONDS.get(name, getattr(game, "compile_seconds", None))


def allow_plugin_path(path) -> None:
    """Let this process import plug-in games from folder ``path`` (the ``--plugin-path`` option)."""
    folder = str(Path(path).resolve())
    if folder not in _PLUGIN_PATHS:
        _PLUGIN_PATHS.append(folder)


def plugin_paths() -> tuple[str, ...]:
    return tuple(_PLUGIN_PATHS)


class PluginNotFound(ImportError):
    """A dotted game name that names no plug-in module in an allowed place (see ``find_plugin``)."""


def _is_cwd(entry: str) -> bool:
    return entry in ("", ".") or Path(entry).resolve() == Path.cwd().resolve()


def find_plugin(module: str, paths=()) -> str | None:
    """Where plug-in ``module`` (a dotted path) would be imported from, without running it.

    Plug-ins are code, so they are looked up only where the user asked for code: a module
    already imported in this process, the folders ``paths`` and
    ``--plugin-path``, or the import path without the current directory (installed packages,
    PYTHONPATH). Returns the folder holding the module's top-level package (None for a
    namespace package already imported); raises ``PluginNotFound`` with the reason.
    """
    top = module.partition(".")[0]
    if top in sys.modules:
        where = getattr(sys.modules[top], "__file__", None)
        return None if where is None else str(Path(where).parent.parent if Path(where).name == "__init__.py"
                                              else Path(where).parent)
    explicit = [str(Path(p).resolve()) for p in (*paths, *_PLUGIN_PATHS)]
    for folder in explicit + [e for e in sys.path if isinstance(e, str) and not _is_cwd(e)]:
        if importlib.machinery.PathFinder.find_spec(top, [folder]) is not None:
            return folder
    if importlib.machinery.PathFinder.find_spec(top, [os.getcwd()]) is not None:
        raise PluginNotFound(f"{top!r} is only in the current directory, which is never searched for plug-in "
                             "code; to run it, give --plugin-path . (or the experiment key plugin_path)")
    raise PluginNotFound(f"no module {top!r} in an installed package, --plugin-path or plugin_path folder")


def _import_plugin(module: str, paths):
    """Import plug-in ``module`` from the folder ``find_plugin`` names (never from the current directory)."""
    folder = find_plugin(module, paths)
    top = module.partition(".")[0]
    if top not in sys.modules:
        if folder not in sys.path:
            sys.path.append(folder)     # an allowed folder: the plug-in may import its own modules
        spec = importlib.machinery.PathFinder.find_spec(top, [folder])
        package = importlib.util.module_from_spec(spec)
        sys.modules[top] = package
        try:
            spec.loader.exec_module(package)
        except BaseException:
            del sys.modules[top]
            raise
    return importlib.import_module(module)


def get_game(name: str, paths=()) -> Game:
    """The game registered under ``name`` (imported lazily).

    A dotted module path that defines ``GAME`` also works: that is how a user (or a test)
    plugs in a game that is not registered here. It is imported only from an allowed place
    (``find_plugin``; ``paths``: extra allowed folders). Raises KeyError for a plain
    unknown name, ``PluginNotFound`` for a plug-in that is not found or defines no GAME.
    """
    if name in _GAMES:
        return importlib.import_module(_GAMES[name]).GAME
    if "." not in name:
        raise KeyError(name)
    game = getattr(_import_plugin(name, paths), "GAME", None)
    if game is None:
        raise PluginNotFound(f"module {name!r} defines no GAME")
    return game


def plugin_object(path: str, paths=()):
    """The object a dotted ``path`` names (``package.module.Name``), its module imported as
    plug-in games are: only from an allowed place (``find_plugin``; ``paths``: extra allowed
    folders). Raises ``PluginNotFound`` (with the reason) or the module's ImportError."""
    module, _, attr = path.rpartition(".")
    if not module or not attr:
        raise PluginNotFound(f"expected a dotted path package.module.Name, got {path!r}")
    obj = getattr(_import_plugin(module, paths), attr, None)
    if obj is None:
        raise PluginNotFound(f"module {module!r} defines no {attr!r}")
    return obj


def game_names() -> list[str]:
    return sorted(_GAMES)


def take(state, index):
    """A batch subset of any dataclass state whose array fields have the batch axis first.

    Fields that are not arrays with the batch length (shared tables, scalars) are kept as they are.
    """
    fields = {}
    batch = None
    for f in dataclasses.fields(state):
        v = getattr(state, f.name)
        if isinstance(v, np.ndarray) and v.ndim >= 1:
            batch = v.shape[0] if batch is None else batch
    for f in dataclasses.fields(state):
        v = getattr(state, f.name)
        if isinstance(v, np.ndarray) and v.ndim >= 1 and v.shape[0] == batch:
            fields[f.name] = v[index]
        else:
            fields[f.name] = v
    return dataclasses.replace(state, **fields)


def concat_states(states):
    """One state holding the games of ``states`` (same kind and layout) in order: the inverse
    of ``take``. Fields that are not batch-length arrays are kept from the first state."""
    first = states[0]
    batch = None
    for f in dataclasses.fields(first):
        v = getattr(first, f.name)
        if isinstance(v, np.ndarray) and v.ndim >= 1:
            batch = v.shape[0]
            break
    fields = {}
    for f in dataclasses.fields(first):
        v = getattr(first, f.name)
        if isinstance(v, np.ndarray) and v.ndim >= 1 and v.shape[0] == batch:
            fields[f.name] = np.concatenate([getattr(s, f.name) for s in states])
        else:
            fields[f.name] = v
    return dataclasses.replace(first, **fields)


class IllegalActionError(ValueError):
    """An action outside the legal mask of its decision: a bug in a strategy or a caller, never
    something an engine should apply."""


def check_legal(legal: np.ndarray, actions, live: np.ndarray, game_ids, decisions, action_names=None) -> None:
    """Refuse any action of a live game that its legal mask forbids.

    ``legal`` is bool[B, A], ``actions`` int[B], ``live`` bool[B] (finished games are not
    checked), ``game_ids`` the games' indices and ``decisions`` a per-game description of the
    decision (its kind or counter) for the message: an array, or a function of the game's row,
    so that no text is built unless an action is refused. One vectorised gather: cheap next to
    a step.
    """
    actions = np.asarray(actions, dtype=np.int64)
    n_actions = legal.shape[1]
    inside = (actions >= 0) & (actions < n_actions)
    ok = legal[np.arange(len(actions)), np.where(inside, actions, 0)] & inside
    bad = np.nonzero(live & ~ok)[0]
    if not len(bad):
        return
    i = int(bad[0])
    a = int(actions[i])
    name = f" ({action_names[a]})" if action_names is not None and 0 <= a < len(action_names) else ""
    allowed = np.nonzero(legal[i])[0][:12].tolist()
    raise IllegalActionError(
        f"game {int(np.asarray(game_ids)[i])}, decision {decisions(i) if callable(decisions) else np.asarray(decisions)[i]}: "
        f"action {a}{name} is not "
        f"legal there (legal: {allowed}{' ...' if legal[i].sum() > 12 else ''})"
        + (f"; {len(bad) - 1} more games of the batch too" if len(bad) > 1 else ""))
