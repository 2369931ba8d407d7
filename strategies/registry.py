"""Strategies by name, with their parameters validated from the experiment file."""
from __future__ import annotations

import difflib
import importlib

from sim.core import config as cfg
from sim.core.errors import InputError

# name -> "module:Class"; game modules register their scripted strategies here.
_STRATEGIES = {
    "random": "strategies.generic:RandomStrategy",
    "lookahead": "strategies.generic:LookaheadStrategy",
    "search": "strategies.search:SearchStrategy",
}


def register(name: str, target: str) -> None:
    _STRATEGIES[name] = target


def strategy_class(name: str):
    module, cls = _STRATEGIES[name].split(":")
    return getattr(importlib.import_module(module), cls)


def make(name: str, params: dict, game, content, source: str = "experiment", place: str = "seats", paths=()):
    """Instantiate strategy ``name`` for ``game``; unknown names or parameters are InputErrors.

    A dotted ``name`` not registered (``package.module.Class``) is a plug-in strategy, imported
    as plug-in games are (``sim.core.game.plugin_object``: only from an installed package,
    ``PYTHONPATH``, ``--plugin-path`` or the experiment's ``plugin_path`` folders ``paths``)."""
    _load_game_strategies(game.name)
    if name not in _STRATEGIES and "." in name:
        cls = _plugin_class(name, paths, source, place)
    elif name not in _STRATEGIES:
        names = available(game.name)
        hint = difflib.get_close_matches(name, names, n=1)
        expected = f"did you mean {hint[0]!r}?" if hint else "expected one of: " + ", ".join(names)
        raise InputError(source, f"{place}.strategy", f"unknown strategy {name!r}; {expected} "
                         "(or a plug-in strategy's dotted path package.module.Class)")
    else:
        cls = strategy_class(name)
    if cls.games and game.name not in cls.games:
        raise InputError(source, f"{place}.strategy", f"{name!r} plays only {', '.join(cls.games)}, not {game.name}")
    p = cfg.build(cls.Params, params, source, f"{place}.params.")
    try:
        return cls(game, content, p)
    except ValueError as err:
        raise InputError(source, f"{place}.strategy", str(err)) from None


def make_seats(exp, variant: str, game, content) -> list:
    """One strategy per seat of experiment ``exp`` (the runner's ``make_strategies``)."""
    return [make(s.strategy, s.params, game, content, str(exp.path), f"seats[{i}]", exp.plugin_paths)
            for i, s in enumerate(exp.seats_of(variant))]


def _plugin_class(name: str, paths, source: str, place: str):
    """The Strategy subclass a plug-in strategy's dotted path names, or an InputError saying why not."""
    from sim.core.game import PluginNotFound, plugin_object
    from strategies.base import Strategy

    try:
        cls = plugin_object(name, paths)
    except PluginNotFound as err:
        raise InputError(source, f"{place}.strategy", f"plug-in strategy {name!r} not found: {err}") from None
    except ImportError as err:
        raise InputError(source, f"{place}.strategy", f"plug-in strategy {name!r} cannot be imported: {err}") from None
    if not (isinstance(cls, type) and issubclass(cls, Strategy)):
        raise InputError(source, f"{place}.strategy", f"{name!r} is not a strategy class "
                         "(expected a subclass of strategies.base.Strategy)")
    return cls


def available(game_name: str) -> list[str]:
    _load_game_strategies(game_name)
    return sorted(n for n in _STRATEGIES if not strategy_class(n).games or game_name in strategy_class(n).games)


def _load_game_strategies(game_name: str) -> None:
    try:
        importlib.import_module(f"strategies.{game_name}")
    except ModuleNotFoundError as err:
        if err.name != f"strategies.{game_name}":
            raise
