"""Build validated dataclasses (rule configs, strategy parameters) from TOML tables.

A field may carry ``metadata={"choices": (...)}`` or ``{"range": (lo, hi)}``; unknown keys
get a "did you mean" hint. Every problem raises ``InputError`` naming the file and key.
"""
from __future__ import annotations

import dataclasses
import difflib
import typing

from sim.core.errors import InputError
from sim.core.wording import expected, language, shown


def choices(*values):
    """A config field whose value must be one of ``values``; the first is the default."""
    return dataclasses.field(default=values[0], metadata={"choices": values})


def value_range(default, lo, hi):
    """A numeric config field with its default and its allowed range ``lo..hi``."""
    return dataclasses.field(default=default, metadata={"range": (lo, hi)})


def _check_type(value, tp) -> bool:
    origin = typing.get_origin(tp)
    if tp is typing.Any:
        return True
    if origin is typing.Union or (origin is not None and str(origin) == "<class 'types.UnionType'>"):
        return any(_check_type(value, arg) for arg in typing.get_args(tp))
    if tp is type(None):
        return value is None
    if origin in (tuple, list):
        args = typing.get_args(tp)
        if not isinstance(value, (list, tuple)):
            return False
        inner = args[0] if args else typing.Any
        return all(_check_type(v, inner) for v in value)
    if origin is dict:
        return isinstance(value, dict)
    if tp is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is bool:
        return isinstance(value, bool)
    if tp is str:
        return isinstance(value, str)
    return isinstance(value, tp)


def unknown_key_error(source: str, prefix: str, key: str, known) -> InputError:
    hint = difflib.get_close_matches(key, list(known), n=1)
    expected = f"did you mean '{hint[0]}'?" if hint else "expected one of: " + ", ".join(sorted(known))
    return InputError(source, f"{prefix}{key}", f"unknown key; {expected}")


def build(cls, raw: dict, source: str, prefix: str = ""):
    """Instantiate dataclass ``cls`` from ``raw``, validating keys, types, choices and ranges."""
    if not isinstance(raw, dict):
        lang = language(source)
        raise InputError(source, prefix.rstrip(".") or None, f"expected {expected(dict, lang)}, got {shown(raw, lang)}")
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    hints = typing.get_type_hints(cls)
    values = {}
    for key, value in raw.items():
        if key not in fields:
            raise unknown_key_error(source, prefix, key, fields)
        tp = hints[key]
        if not _check_type(value, tp):
            lang = language(source)
            raise InputError(source, prefix + key, f"expected {expected(tp, lang)}, got {shown(value, lang)}")
        meta = fields[key].metadata
        if "choices" in meta and value not in meta["choices"]:
            raise InputError(source, prefix + key,
                             f"expected one of {', '.join(map(repr, meta['choices']))}, got {shown(value, language(source))}")
        if "range" in meta:
            lo, hi = meta["range"]
            if not (lo <= value <= hi):
                raise InputError(source, prefix + key, f"expected a value from {lo} to {hi}, got {value!r}")
        if isinstance(value, list):
            value = tuple(value)
        values[key] = value
    obj = cls(**values)
    check = getattr(obj, "validate", None)
    if check is not None:
        problem = check()
        if problem:
            place, message = problem
            raise InputError(source, prefix + place if place else None, message)
    return obj


def as_dict(obj) -> dict:
    """A dataclass as a plain dict of TOML-able values (tuples become lists)."""
    out = {}
    for f in dataclasses.fields(obj):
        v = getattr(obj, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out
