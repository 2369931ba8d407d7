"""Names for numba's machine code in ``perf``: a ``/tmp/perf-<pid>.map`` of every compiled function.

numba has no profiler, and ``perf record`` shows its code as anonymous ``[JIT]`` addresses. perf
reads the names of such code from ``/tmp/perf-<pid>.map`` (start, size, name per line). ``install``
(before any numba code is loaded) keeps each object file numba hands to LLVM's JIT, from the cache
or freshly compiled; ``write_map`` (after the work, in the same process) reads the symbol tables of
those ELF objects and places each section at the loaded address of a global function in it, so
that inlined-away helpers count in their caller and every function left on its own has its name::

    perf record -F 2000 -o /tmp/x.data python -m benchmarks.perf_map benchmarks.recall_profile 128 0
    perf report -i /tmp/x.data --stdio --sort sym

(``python -m benchmarks.perf_map MODULE ARGS...`` runs ``MODULE`` as ``python -m`` would, then writes
the map.) Linux x86-64 ELF only; a session tool, nothing in the package imports it.
"""
from __future__ import annotations

import os
import runpy
import struct
import sys

_OBJECTS: list[bytes] = []


def install() -> None:
    """Keep every object file numba loads into the JIT (``_object_getbuffer_hook``: from the
    cache; ``_object_compiled_hook``: compiled now). Idempotent."""
    from numba.core import codegen
    lib = codegen.CPUCodeLibrary
    if getattr(lib, "_perf_map_installed", False):
        return
    loaded, compiled = lib._object_getbuffer_hook.__func__, lib._object_compiled_hook.__func__

    def getbuffer(cls, ll_module):
        buf = loaded(cls, ll_module)
        if buf:
            _OBJECTS.append(bytes(buf))
        return buf

    def notify(cls, ll_module, buf):
        _OBJECTS.append(bytes(buf))
        return compiled(cls, ll_module, buf)

    lib._object_getbuffer_hook = classmethod(getbuffer)
    lib._object_compiled_hook = classmethod(notify)
    lib._perf_map_installed = True


def elf_functions(obj: bytes) -> list[tuple[str, int, int, int, bool]]:
    """(name, section index, offset, size, global) of each function symbol of an ELF64 object."""
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    entsize, count = struct.unpack_from("<HH", obj, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + i * entsize) for i in range(count)]
    out = []
    for sec in sections:
        if sec[1] != 2:                                   # SHT_SYMTAB
            continue
        strings = sections[sec[6]][4]
        for at in range(sec[4], sec[4] + sec[5], 24):
            name_at, info, _, shndx, value, size = struct.unpack_from("<IBBHQQ", obj, at)
            if info & 0xF == 2 and size:                  # STT_FUNC
                end = obj.index(b"\0", strings + name_at)
                out.append((obj[strings + name_at:end].decode(), shndx, value, size, info >> 4 == 1))
    return out


def functions() -> dict[int, tuple[int, str]]:
    """{loaded address: (size, name)} of the functions of every object kept since ``install``."""
    from numba.core.registry import cpu_target
    engine = cpu_target.target_context.codegen()._engine._ee
    found = {}
    for obj in _OBJECTS:
        symbols = elf_functions(obj)
        base = {}
        for name, shndx, value, _, is_global in symbols:
            if is_global and shndx not in base:
                address = engine.get_function_address(name)
                if address:
                    base[shndx] = address - value
        for name, shndx, value, size, _ in symbols:
            if shndx in base:
                found[base[shndx] + value] = (size, name)
    return found


def write_map(path: str | None = None) -> str:
    """Write perf's map of this process (``/tmp/perf-<pid>.map`` unless ``path``); returns the path."""
    path = path or f"/tmp/perf-{os.getpid()}.map"
    with open(path, "w") as f:
        for address, (size, name) in sorted(functions().items()):
            f.write(f"{address:x} {size:x} {name}\n")
    return path


def main(argv: list[str]) -> None:
    """``MODULE ARGS...``: install, run MODULE as ``__main__`` with ARGS, write the map."""
    if not argv:
        raise SystemExit("usage: python -m benchmarks.perf_map MODULE [ARGS...]")
    install()
    sys.argv = argv
    runpy.run_module(argv[0], run_name="__main__", alter_sys=True)
    print(f"perf map: {write_map()}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
