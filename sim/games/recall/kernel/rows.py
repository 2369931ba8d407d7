"""Whole-row copies for the compiled lookahead: an element loop, not numba's slice assignment.

``dst[:] = src`` in numba goes through its generic broadcasting setitem (shape checks, an
overlap test), about 1.6 us for a 4,505-column game row against 0.3 us for this loop (CPU
time, 200,000 copies); a lookahead copies the row once per trial, so the loop is one of the
largest savings of strategies/recall_kernel.py. Same elements either way.

``trial_kernel`` compiles the lookahead's per-decision and per-trial helpers (these copies,
kernel/sample.py's observation and deal, kernel/value.py's value) without numba's reference
counting, as the engine's kernels are (kernel/common.py): with it, every array taken out of a
tuple or returned as a view is released again through an indirect runtime call, which cost about
half of ``seat_value``'s time. Such a function allocates nothing, and one that returns an array
(a view) may be called only from another ``trial_kernel`` function, which counts nothing either.
"""
from __future__ import annotations

from numba import njit

trial_kernel = njit(cache=True, _nrt=False)      # no reference counts: see the module doc


@trial_kernel
def copy_row(dst, src):
    """``dst[:] = src`` for two 1-d arrays of equal length."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@trial_kernel
def fill_row(dst, value):
    """``dst[:] = value`` for a 1-d array."""
    for i in range(dst.shape[0]):
        dst[i] = value
