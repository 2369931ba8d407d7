"""A table (dict) as TOML text: how an experiment given as a dict becomes an experiment file.

Why write a file at all: a results folder names the experiment file that made it (replay,
resuming, the manifest's hash of its bytes), so a dict experiment gets one like any other. The
standard library reads TOML but does not write it; experiment files need only tables, arrays of
tables and inline values, which is all this writes.
"""
from __future__ import annotations

import json


def dumps(table: dict) -> str:
    """TOML text of ``table``: plain values first, then sub-tables, then arrays of tables."""
    return "\n".join(_table(table, [])).strip() + "\n"


def _is_tables(value) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _table(table: dict, path: list) -> list[str]:
    lines = [f"{_key(k)} = {_value(v)}" for k, v in table.items()
             if not isinstance(v, dict) and not _is_tables(v)]
    for k, v in table.items():
        if isinstance(v, dict) and (not path or any(isinstance(x, dict) for x in v.values()) or _section(path + [k])):
            lines += ["", f"[{'.'.join(map(_key, path + [k]))}]", *_table(v, path + [k])]
        elif isinstance(v, dict):
            lines.append(f"{_key(k)} = {_value(v)}")
    for k, v in table.items():
        if _is_tables(v):
            for item in v:
                lines += ["", f"[[{'.'.join(map(_key, path + [k]))}]]", *_table(item, path + [k])]
    return lines


def _section(path: list) -> bool:
    """``[variants.NAME]`` tables are sections; other nested tables (seat params) are inline."""
    return len(path) == 2 and path[0] == "variants"


def _key(key) -> str:
    key = str(key)
    return key if key and all(c.isalnum() or c in "-_" for c in key) else json.dumps(key)


def _value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"a TOML value cannot be a {type(value).__name__}: {value!r}")
