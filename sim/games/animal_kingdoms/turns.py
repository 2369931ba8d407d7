"""Helpers on a turn's rules for code outside the compiled flow (values, tests).

The turn itself (claims, decrees, rally, retreat, turn passing, the robot: AK-R2..R36,
AK-A9..A18, AK-A44, AK-V6..V14) runs in ``kernel.py``.
"""
from __future__ import annotations

import numpy as np

from sim.games.animal_kingdoms import kernel


def counts(s, rows, k) -> np.ndarray:
    """int[n, P]: markers of each seat in kingdom k (per row): ordinary + capital + council (AK-E3)."""
    P = s.t.P
    return (s.ordm[rows, k].astype(np.int64) + (s.cap[rows, k][:, None] == np.arange(P)[None, :])
            + s.council[rows, k])


def legal_sets(s, rows) -> np.ndarray:
    """uint64[n, K, W]: the cards each kingdom's decree allows now (AK-R19..R27, AK-A13)."""
    t = s.t
    out = np.zeros((len(rows), t.K, t.W), dtype=np.uint64)
    tab, c = kernel.kernel_tables(t)
    kernel.legal_sets_rows(kernel.state_arrays(s), tab, c, np.asarray(rows, dtype=np.int64), out)
    return out
