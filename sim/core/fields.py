"""The keys of a settings dataclass (a game's Config, a strategy's Params), described from its code.

Why from the code: ``python -m sim config`` / ``strategies`` and docs/reference.md must say
what the code accepts, so they read it: the field's type, default and allowed values
(``sim.core.config.choices`` / ``value_range``) from the dataclass, and its meaning and rule ids
from the comment the source gives the field (on its line, else the comment lines just above;
a subclass that only changes a default keeps its parent's comment).
"""
from __future__ import annotations

import dataclasses
import inspect
import io
import re
import tokenize
import typing

from sim.core.wording import expected, shown

RULE_ID = re.compile(r"\b[A-Z]{2,3}-[A-Z]{1,2}\d+(?:\.\.[A-Z]{0,2}\d+)?\b")
_FIELD_LINE = re.compile(r"^(\s+)([A-Za-z_]\w*)\s*:")


@dataclasses.dataclass(frozen=True)
class FieldDoc:
    key: str
    type: str          # in the words of a TOML file: "an integer", "a list of strings"
    default: str       # as TOML writes it
    allowed: str       # "a, b, c", "lo..hi", "true, false" or ""
    rules: str         # rule ids named in the comment, comma-separated
    note: str          # the comment


def describe(cls) -> list[FieldDoc]:
    """One FieldDoc per settable field of dataclass ``cls``, in declaration order."""
    hints = typing.get_type_hints(cls)
    notes: dict = {}
    for klass in reversed(cls.__mro__):       # a subclass's own comment wins over its parent's
        notes.update({k: v for k, v in _field_comments(klass).items() if v})
    out = []
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        note = notes.get(f.name, "")
        out.append(FieldDoc(f.name, expected(hints[f.name]), _default(f), _allowed(f, hints[f.name]),
                            ", ".join(dict.fromkeys(RULE_ID.findall(note))), note))
    return out


def _default(f) -> str:
    if f.default is not dataclasses.MISSING:
        value = f.default
    elif f.default_factory is not dataclasses.MISSING:
        value = f.default_factory()
    else:
        return "(required)"
    if isinstance(value, str):
        return '""' if not value else f'"{value}"'
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {shown(v)}" for k, v in value.items()) + " }" if value else "{}"
    return shown(list(value) if isinstance(value, tuple) else value)


def _allowed(f, tp) -> str:
    meta = f.metadata
    if "choices" in meta:
        return ", ".join(f'"{c}"' if isinstance(c, str) else shown(c) for c in meta["choices"])
    if "range" in meta:
        lo, hi = meta["range"]
        return f"{lo:g}..{hi:g}" if isinstance(lo, float) else f"{lo}..{hi}"
    if tp is bool:
        return "true, false"
    return ""


def _field_comments(klass) -> dict:
    """Field name -> its comment in the class body of ``klass`` ("" if none; {} without source)."""
    if not dataclasses.is_dataclass(klass):
        return {}
    try:
        source = inspect.getsource(klass)
    except (OSError, TypeError):
        return {}
    lines = source.splitlines()
    comments = {}                       # line number (0-based) -> (comment text, alone on its line)
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                row, col = tok.start[0] - 1, tok.start[1]
                comments[row] = (tok.string.lstrip("#").strip(), not lines[row][:col].strip())
    except (tokenize.TokenError, IndentationError):
        return {}
    own = klass.__dict__.get("__annotations__", {})
    body_indent = None
    out, above = {}, []
    for row, line in enumerate(lines[1:], start=1):
        text, alone = comments.get(row, ("", False))
        if alone:
            above.append(text)
            continue
        match = _FIELD_LINE.match(line)
        if match and match.group(2) in own and body_indent in (None, match.group(1)):
            body_indent = match.group(1)
            out[match.group(2)] = text or " ".join(above)
        if line.strip():
            above = []
    return out
