"""What a game accepts, from its code: config keys and strategies, as terminal text or Markdown.

``python -m sim config GAME`` and ``python -m sim strategies GAME`` print it; docs/reference.md
is the Markdown of every registered game, written by ``python -m sim.reference`` (``make
docs``), and a test compares the two, so the docs cannot drift from the code. The keys and their
comments come from ``sim.core.fields``; the strategies from ``strategies.registry``.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from sim.core import fields
from sim.core.game import game_names, get_game

DOC = Path(__file__).resolve().parent.parent / "docs" / "reference.md"
FILE_NOTE = "a path relative to the experiment file (\"\" = the game's default file)"
CONFIG_HEADER = ("key", "type", "default", "allowed", "rule ids", "meaning")
PARAM_HEADER = ("parameter", "type", "default", "allowed", "meaning")


def config_rows(game) -> list[tuple]:
    """One row per config key of ``game``: CONFIG_HEADER's columns."""
    rows = []
    for d in fields.describe(game.Config):
        note = "" if d.note == d.rules else d.note
        if d.key.endswith("_file"):
            note = f"{note}; {FILE_NOTE}" if note else f"content file: {FILE_NOTE}"
        rows.append((d.key, d.type, d.default, d.allowed, d.rules, note))
    return rows


def strategies(game) -> list[tuple[str, str, list[tuple]]]:
    """(name, one-line description, parameter rows) of every strategy that plays ``game``."""
    from strategies import registry

    out = []
    for name in registry.available(game.name):
        cls = registry.strategy_class(name)
        rows = [(d.key, d.type, d.default, d.allowed, d.note) for d in fields.describe(cls.Params)]
        out.append((name, description(cls, name), rows))
    return out


def description(cls, name: str) -> str:
    """A strategy's one line: its class docstring's first line, else its bullet in the module
    docstring (``* ``name``: ...``, continuation lines joined), as the plan modules list them."""
    own = (cls.__dict__.get("__doc__") or "").strip()
    if own:
        return own.splitlines()[0]
    doc = sys.modules[cls.__module__].__doc__ or ""
    match = re.search(rf"^\* ``{re.escape(name)}``: (.+?)(?=^\*|^\s*$|\Z)", doc, re.M | re.S)
    return " ".join(match.group(1).split()) if match else ""


def _text_table(header, rows) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    fmt = lambda row: "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()   # noqa: E731
    return [fmt(header), fmt(["-" * w for w in widths]), *map(fmt, rows)]


def _md_table(header, rows) -> list[str]:
    cell = lambda c: c.replace("|", "\\|") or " "                                     # noqa: E731
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header),
            *("| " + " | ".join(cell(c) for c in r) + " |" for r in rows)]


def config_text(game, markdown: bool = False) -> str:
    table = _md_table if markdown else _text_table
    return "\n".join(table(CONFIG_HEADER, config_rows(game)))


def strategies_text(game, markdown: bool = False) -> str:
    lines = []
    for name, line, rows in strategies(game):
        lines += [f"#### `{name}`" if markdown else name, "", line, ""]
        if rows:
            lines += [*(_md_table if markdown else _text_table)(PARAM_HEADER, rows), ""]
        else:
            lines += ["No parameters.", ""]
    return "\n".join(lines).rstrip()


def markdown() -> str:
    """docs/reference.md: every registered game's config keys and strategies."""
    parts = ["# Reference: config keys and strategies of every game",
             "",
             "Generated from the code by `make docs` (`python -m sim.reference`); do not edit by hand. "
             "The same text is on the terminal: `python -m sim config GAME`, `python -m sim strategies GAME`. "
             "Config keys go into an experiment's `[config]` (or `[variants.NAME]`, `[sweep]`); a key's rule "
             "ids and meaning come from the comment its Config class gives it. Strategy parameters go into a "
             "seat's `params` (docs/experiments.md).",
             ""]
    for name in game_names():
        game = get_game(name)
        parts += [f"## {name}", "", "### Config keys", "", config_text(game, True), "",
                  "### Strategies", "", strategies_text(game, True), ""]
    return "\n".join(parts)


if __name__ == "__main__":
    DOC.write_text(markdown())
    print(f"wrote {DOC}", file=sys.stderr)
