"""Memoise work derived from one object (compiled programs, lookup tables of loaded content).

Content objects hold dicts, so they are not hashable; the cache is keyed by identity and keeps
the object alive beside its result, so an id can never be reused for another object while cached.
"""
from __future__ import annotations

import functools

MAX_ENTRIES = 32          # content objects are few in a process; keep the cache small


def per_object(build):
    """``build(obj)`` computed once per object (by identity)."""
    cache: dict[int, tuple[object, object]] = {}

    @functools.wraps(build)
    def get(obj):
        hit = cache.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        result = build(obj)
        if len(cache) >= MAX_ENTRIES:
            cache.clear()
        cache[id(obj)] = (obj, result)
        return result
    return get
