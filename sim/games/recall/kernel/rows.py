"""Whole-row copies for the compiled lookahead: an element loop, not numba's slice assignment.

``dst[:] = src`` in numba goes through its generic broadcasting setitem (shape checks, an
overlap test), about 1.6 us for a 4,505-column game row against 0.3 us for this loop (CPU
time, 200,000 copies); a lookahead copies the row once per trial, so the loop is one of the
largest savings of strategies/recall_kernel.py. Same elements either way.
"""
from __future__ import annotations

from numba import njit


@njit(cache=True)
def copy_row(dst, src):
    """``dst[:] = src`` for two 1-d arrays of equal length."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(cache=True)
def fill_row(dst, value):
    """``dst[:] = value`` for a 1-d array."""
    for i in range(dst.shape[0]):
        dst[i] = value
