"""Stable hashes of loaded content and configs (the results' config hash is built from them)."""
from __future__ import annotations

import dataclasses
import hashlib
import json


def plain(value):
    """Dataclasses, sets, tuples and dicts as JSON-able data in a canonical order."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"__type__": type(value).__name__,
                **{f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    if isinstance(value, (set, frozenset)):
        return sorted(plain(v) for v in value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def stable_hash(value) -> str:
    """16 hex digits identifying ``value``, equal across processes and Python hash seeds."""
    text = json.dumps(plain(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def content_hash(content) -> str:
    """Hash of loaded content, leaving out where its files were read from (``sources``)."""
    if dataclasses.is_dataclass(content) and hasattr(content, "sources"):
        content = dataclasses.replace(content, sources={})
    return stable_hash(content)
