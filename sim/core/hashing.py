"""Stable hashes of loaded content and configs (the results' config hash is built from them)."""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.util
import json
from pathlib import Path


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


def normalised(obj) -> dict:
    """A config or parameter dataclass as a dict in which a number given as an int to a float
    field reads as the float (``fleet = 3`` and ``fleet = 3.0`` are the same parameter)."""
    out = {}
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if f.type in (float, "float") and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        out[f.name] = plain(value)
    return out


def bytes_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def files_hash(paths) -> str:
    """Hash of the files at ``paths`` (folders: every file below them but caches), by their bytes
    and their names relative to the folder given, so it is the same in any checkout."""
    digest = hashlib.sha256()
    for root in sorted(Path(p) for p in paths):
        files = [root] if root.is_file() else sorted(
            f for f in root.rglob("*") if f.is_file() and "__pycache__" not in f.parts and f.suffix != ".pyc")
        for f in files:
            name = f.name if f == root else f.relative_to(root).as_posix()
            digest.update(name.encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def module_source_hash(module: str, whole_package: bool) -> str:
    """The engine version of a game module: the hash of its package's files (code and default
    data) with ``whole_package``, else of the module's own file. Once per process."""
    spec = importlib.util.find_spec(module)
    origin = Path(spec.origin)
    if whole_package and spec.parent:
        origin = origin.parent
    return files_hash([origin])
