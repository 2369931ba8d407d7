"""Numba kernels compiled once per argument type, not once per constant passed to them.

Numba compiles a jitted function called from jitted code for the exact argument types of the
call, and a module constant passed as an argument (``decide(g, lg, C, K_MAIN, p)``) has the type
``Literal[int](K_MAIN)``: every constant makes one more compiled copy of the callee, with all the
callee's callees linked in and re-optimised (Recall's ``decide`` had 22 copies, each with the whole
``apply`` inlined: a third of the engine's compile, issue #11). ``unliteral_calls`` makes a
dispatcher type its calls with the constants' plain types (``int64``, ``bool``; small signed
integers as ``int64`` too), so each kernel is compiled once per real type. Game-agnostic; imports nothing from the project.
"""
from __future__ import annotations

from numba.core import types


def plain(ty):
    """The type a call compiles for: a constant's plain type, a signed integer as int64 (numba's
    arithmetic works in int64 anyway: an ``int32`` read from a state row and an ``int64`` would
    otherwise make two copies)."""
    ty = types.unliteral(ty)
    if isinstance(ty, types.Integer) and ty.signed and ty.bitwidth < 64:
        return types.int64
    return ty


def unliteral_calls(dispatcher):
    """``dispatcher`` (a numba ``njit`` function), its jitted call sites typed with ``plain``
    types; returned for use as a decorator."""
    resolve = dispatcher.get_call_template

    def get_call_template(args, kws):
        return resolve(tuple(plain(a) for a in args), {k: plain(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def njit_once_per_type(jit):
    """A decorator: ``jit`` (e.g. ``njit(cache=True)``) and then ``unliteral_calls``."""
    return lambda fn: unliteral_calls(jit(fn))
