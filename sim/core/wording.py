"""How error messages name types and values: in the words of the user's file, not Python's.

A designer writes TOML or JSON, so a message says "expected a list of numbers, got a table",
never "expected tuple, got dict". TOML calls a mapping a table, JSON an object; the language
follows the file's suffix.
"""
from __future__ import annotations

import json
import types
import typing


def language(source) -> str:
    """"json" for a .json file, else "toml" (experiment files, content files, the command line)."""
    return "json" if str(source).lower().endswith(".json") else "toml"


def _mapping(lang: str) -> str:
    return "an object" if lang == "json" else "a table"


_PLURAL = {"an integer": "integers", "a number": "numbers", "a string": "strings",
           "true or false": "true/false values", "a table": "tables", "an object": "objects"}


def expected(tp, lang: str = "toml") -> str:
    """A type annotation in words: ``tuple[float, ...]`` -> "a list of numbers"."""
    origin = typing.get_origin(tp)
    if tp is typing.Any:
        return "any value"
    if origin is typing.Union or origin is types.UnionType:
        words = [expected(a, lang) for a in typing.get_args(tp) if a is not type(None)]
        return " or ".join(words)
    if origin in (tuple, list) or tp in (tuple, list):
        args = [a for a in typing.get_args(tp) if a is not Ellipsis]
        if not args:
            return "a list"
        inner = expected(args[0], lang)
        return f"a list of {_PLURAL.get(inner, inner)}"
    if origin is dict or tp is dict:
        return _mapping(lang)
    names = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}
    return names.get(tp, f"a {getattr(tp, '__name__', tp)}")


def shown(value, lang: str = "toml") -> str:
    """A value as the file would write it (``'two'``, ``[1, 2]``, ``true``), or its kind if long."""
    if isinstance(value, str):
        return repr(value)          # a literal string in TOML, and how every message quotes text
    if isinstance(value, dict):
        return _mapping(lang)
    if isinstance(value, (list, tuple)) and any(isinstance(v, (dict, list, tuple)) for v in value):
        return f"a list of {len(value)} items"
    try:
        text = json.dumps(list(value) if isinstance(value, tuple) else value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."
