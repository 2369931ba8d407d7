"""Numba's on-disk cache keyed on source files, not only on the file of the function.

Numba stores the machine code of ``@njit(cache=True)`` functions in ``__pycache__`` and reuses it
while the *function's own file* is unchanged. But a kernel freezes into its code the module-level
constants it reads from other modules (opcodes, action indices, ...) and inlines functions from
other files: an edit there leaves a stale cache that still loads. ``watch`` fixes that: call it
at the top of a kernel module, before its first ``@njit(cache=True)``, with the modules (or
paths) whose code or constants the module compiles in::

    from sim.core import kernel_cache
    kernel_cache.watch(__file__, actions, state)

The cached code of every function of that file is then valid only for the current contents of
the file *and* of those sources (a digest of their bytes is part of the cache stamp), so editing
any of them recompiles on the next use; nothing is ever pasted by hand. Game-agnostic, and it
imports nothing from the project.
"""
from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

from numba.core import caching

_WATCHED: dict[str, tuple[str, ...]] = {}      # module file -> the source files its cache depends on


def _path(source) -> str:
    return os.path.abspath(getattr(source, "__file__", source))


def watch(module_file: str, *sources) -> str:
    """Make the numba cache of ``module_file`` depend on ``sources`` too (modules or file paths);
    returns the digest of the sources. Must run before the file's functions are decorated."""
    files = tuple(sorted({_path(s) for s in sources} - {_path(module_file)}))
    _WATCHED[_path(module_file)] = files
    return sources_digest(files)


def sources_digest(files) -> str:
    """A digest of the contents of ``files`` (in the given order)."""
    digest = hashlib.blake2b(digest_size=8)
    for f in files:
        st = os.stat(f)
        digest.update(_file_digest(f, st.st_mtime_ns, st.st_size))
    return digest.hexdigest()


@functools.lru_cache(maxsize=None)
def _file_digest(path: str, mtime_ns: int, size: int) -> bytes:
    """The digest of one file's bytes (memoised per version: a kernel module decorates many functions)."""
    return hashlib.blake2b(Path(path).read_bytes(), digest_size=8).digest()


class _Watched:
    """Locator mixin: applies to watched files; their stamp adds the digest of the sources."""

    @classmethod
    def from_function(cls, py_func, py_file):
        if _path(py_file) not in _WATCHED:
            return None
        return super().from_function(py_func, py_file)

    def get_source_stamp(self):
        return super().get_source_stamp(), sources_digest(_WATCHED[_path(self._py_file)])


def _locator(*names):
    """The numba locator class of one of ``names`` (numba 0.61 prefixed them with ``_``)."""
    for name in names:
        if hasattr(caching, name):
            return getattr(caching, name)
    raise ImportError(f"numba.core.caching has none of {names}: update sim/core/kernel_cache.py")


def _install() -> None:
    """Put watched variants of numba's file-backed locators first, in numba's own order."""
    impl = _locator("CacheImpl", "_CacheImpl")
    if any(issubclass(c, _Watched) for c in impl._locator_classes):
        return
    bases = [_locator("UserProvidedCacheLocator", "_UserProvidedCacheLocator"),
             _locator("InTreeCacheLocator", "_InTreeCacheLocator"),
             _locator("UserWideCacheLocator", "_UserWideCacheLocator")]
    watched = [type("Watched" + b.__name__.lstrip("_"), (_Watched, b), {}) for b in bases]
    impl._locator_classes = watched + list(impl._locator_classes)


_install()


def cached(dispatcher) -> bool:
    """Whether numba's on-disk cache holds fresh machine code of ``dispatcher`` (an
    ``@njit(cache=True)`` function), for any signature (a game's ``engine_cached``, which the
    warm-up asks before it starts a helper process). Reads only the cache's small index."""
    cache = getattr(dispatcher, "_cache", None)
    index = getattr(cache, "_cache_file", None)
    return bool(index is not None and index._load_index())
