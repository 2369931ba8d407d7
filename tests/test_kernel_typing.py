"""sim.core.kernel_typing: a kernel called with different constants (or int32 and int64 values)
is compiled once, and computes the same (issue #11: Recall's ``decide`` had 22 compiled copies)."""
import numpy as np
from numba import njit, types

from sim.core.kernel_typing import njit_once_per_type, plain

THREE, FOUR = 3, 4


def _add():
    def add(a, b):
        return a + b
    return add


def test_plain_njit_compiles_one_copy_per_constant():
    """The numba behaviour the module works around: each constant argument, its own copy."""
    add = njit(_add())

    @njit
    def caller(x):
        return add(x, THREE) + add(x, FOUR)

    assert caller(1) == 9
    assert len(add.signatures) == 2


def test_constants_and_int32_compile_one_int64_copy():
    add = njit_once_per_type(njit)(_add())

    @njit
    def caller(x, row):
        return add(x, THREE) + add(x, FOUR) + add(row[0], THREE)

    assert caller(1, np.array([5], np.int32)) == 17
    assert add.signatures == [(types.int64, types.int64)]


def test_plain_keeps_bools_unsigned_and_arrays():
    assert plain(types.literal(True)) == types.boolean
    assert plain(types.uint64) == types.uint64
    assert plain(types.int8) == types.int64
    arr = types.Array(types.int32, 1, "C")
    assert plain(arr) == arr
