"""Reading a game's content files (CSV, TOML) with one-line errors naming file, place and expectation.

Every game keeps the components its seed leaves open as data files in its own ``data/``
folder, each replaceable through a ``*_file`` config key (empty = the default file). These
helpers are shared by the games' ``content.py`` loaders and position readers: a problem is an
``InputError`` naming the file, the line (or key) and what was expected. CSV files have a
header line; lines starting with ``#`` and blank lines are ignored. Every reader accepts a
UTF-8 byte-order mark (spreadsheet programs write one) and ignores it. A JSON file may not
repeat a key in one object (the last one would silently win) nor nest deeper than
``MAX_JSON_DEPTH``.
"""
from __future__ import annotations

import csv
import io
import json
import re
import tomllib
from pathlib import Path

from sim.core.config import unknown_key_error
from sim.core.errors import InputError
from sim.core.wording import language, shown

MAX_JSON_DEPTH = 32         # positions nest 4 levels; far deeper input is a mistake (or an attack)


def resolve(config, key: str, data_dir: Path, default_files: dict) -> Path:
    """The path of content file ``key``: the config's value, or ``data_dir / default_files[key]`` if empty."""
    value = getattr(config, key)
    return Path(value) if value else Path(data_dir) / default_files[key]


def read_text(path: Path, what: str = "content file") -> str:
    """The UTF-8 text of a file, without a leading byte-order mark."""
    path = Path(path)
    if not path.is_file():
        raise InputError(path, None, f"{what} not found")
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(path, None, "not a UTF-8 text file") from None
    except OSError as err:
        raise InputError(path, None, f"cannot read the file ({err.strerror})") from None


def read_csv(path: Path, columns: tuple[str, ...], required: tuple[str, ...]) -> list[tuple[int, dict]]:
    """Rows of a CSV file with a header line, as (line number, {column: text}) pairs.

    The header may name only ``columns`` and must name every one of ``required``; a missing
    trailing field reads as empty text.
    """
    lines = [(i + 1, line) for i, line in enumerate(read_text(path).splitlines())
             if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise InputError(path, None, f"empty file: expected a header line {','.join(columns)}")
    header_line, header = lines[0]
    names = [h.strip() for h in next(csv.reader([header]))]
    for name in names:
        if name not in columns:
            raise unknown_key_error(str(path), f"line {header_line}: column ", name, columns)
    for name in required:
        if name not in names:
            raise InputError(path, f"line {header_line}", f"missing column {name!r} (expected {','.join(columns)})")
    rows = []
    for number, line in lines[1:]:
        values = next(csv.reader(io.StringIO(line)))
        if len(values) > len(names):
            raise InputError(path, f"line {number}", f"expected {len(names)} fields ({','.join(names)}), got {len(values)}")
        values += [""] * (len(names) - len(values))
        rows.append((number, {n: v.strip() for n, v in zip(names, values)}))
    return rows


def check_ids(path, rows, column: str, what: str) -> None:
    """Every row of ``read_csv``'s ``rows`` has a ``column`` id, and no id is given twice."""
    seen = {}
    for number, row in rows:
        rid = row[column]
        if not rid:
            raise InputError(path, f"line {number}, {column}", f"expected a {what} id")
        if rid in seen:
            raise InputError(path, f"line {number} ({rid}), {column}", f"duplicate id (first on line {seen[rid]})")
        seen[rid] = number


def read_toml(path: Path, what: str = "content file") -> dict:
    """A TOML file as a dict."""
    try:
        return tomllib.loads(read_text(path, what))
    except tomllib.TOMLDecodeError as err:
        raise InputError(path, None, f"not valid TOML: {err}") from None
    except RecursionError:
        raise InputError(path, None, "nested too deep: expected tables and arrays a few levels deep") from None


def _repeated_key(value, repeated: dict, place: str = ""):
    """The JSON path of the first key given twice in one object (``repeated``: id -> key), or None."""
    if isinstance(value, dict) and id(value) in repeated:
        key = repeated[id(value)]
        return f"{place}.{key}" if place else key
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        inner = f"{place}[{key}]" if isinstance(key, int) else (f"{place}.{key}" if place else key)
        found = _repeated_key(item, repeated, inner)
        if found:
            return found
    return None


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')


def _too_deep(text: str, limit: int):
    """The line where JSON ``text`` first nests deeper than ``limit`` arrays/objects, or None."""
    depth = 0
    bare = _STRINGS.sub('""', text)
    for match in re.finditer(r"[\[{]|[\]}]", bare):
        depth += 1 if match.group() in "[{" else -1
        if depth > limit:
            return bare.count("\n", 0, match.start()) + 1
    return None


def read_json(path: Path, what: str = "position file") -> dict:
    """A JSON file whose top level is an object: no repeated keys, at most ``MAX_JSON_DEPTH`` deep."""
    source = str(path)
    text = read_text(path, what)
    line = _too_deep(text, MAX_JSON_DEPTH)
    if line is not None:
        raise InputError(source, f"line {line}", f"nested too deep; expected at most {MAX_JSON_DEPTH} levels "
                                                 "of arrays and objects")
    repeated: dict = {}

    def table(pairs):
        obj = dict(pairs)
        if len(obj) < len(pairs):
            seen: set = set()
            repeated[id(obj)] = next(k for k, _ in pairs if k in seen or seen.add(k))
        return obj

    try:
        raw = json.loads(text, object_pairs_hook=table)
    except json.JSONDecodeError as err:
        raise InputError(source, f"line {err.lineno}, column {err.colno}", f"invalid JSON: {err.msg}") from None
    if not isinstance(raw, dict):
        raise InputError(source, None, f"expected an object at the top level, got {shown(raw, 'json')}")
    twice = _repeated_key(raw, repeated) if repeated else None
    if twice:
        raise InputError(source, twice, "key given twice in one object; expected each key once")
    return raw


def integer(path, place, text, lo=None, hi=None) -> int:
    """A whole number from a CSV field or TOML value, within [lo, hi]."""
    if isinstance(text, bool):
        raise InputError(path, place, f"expected an integer, got {shown(text, language(path))}")
    if isinstance(text, int):
        value = text
    else:
        try:
            value = int(str(text).strip())
        except ValueError:
            raise InputError(path, place, f"expected an integer, got {shown(text, language(path))}") from None
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        bounds = f"from {lo} to {hi}" if hi is not None else f">= {lo}"
        raise InputError(path, place, f"expected an integer {bounds}, got {value}")
    return value


def check_keys(path, raw: dict, allowed, prefix: str = "", required=None) -> None:
    """Every key of ``raw`` is in ``allowed`` and every key of ``required`` (default: all allowed) is there."""
    for key in raw:
        if key not in allowed:
            raise unknown_key_error(str(path), prefix, key, allowed)
    for key in (allowed if required is None else required):
        if key not in raw:
            raise InputError(path, prefix + key, "missing key")


class JsonReader:
    """Typed access to a JSON tree (a position file) with errors naming the file and JSON path."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, place, problem):
        raise InputError(self.source, place, problem)

    def table(self, value, place, allowed):
        if not isinstance(value, dict):
            self.fail(place or None, f"expected an object, got {shown(value, 'json')}")
        for key in value:
            if key not in allowed:
                raise unknown_key_error(self.source, f"{place}." if place else "", key, allowed)
        return value

    def integer(self, value, place, lo=None, hi=None):
        if (not isinstance(value, int) or isinstance(value, bool) or (lo is not None and value < lo)
                or (hi is not None and value > hi)):
            bounds = "" if lo is None else (f" from {lo} to {hi}" if hi is not None else f" >= {lo}")
            self.fail(place, f"expected an integer{bounds}, got {shown(value, 'json')}")
        return value

    def array(self, value, place):
        if not isinstance(value, list):
            self.fail(place, f"expected an array, got {shown(value, 'json')}")
        return value
