"""Number formatting shared by every printed table and page.

Why one place: a page must never show ``nan``, ``-0`` or a cryptic ``<1e-4``. Undefined values
print as ``n/a``, a value that rounds to zero prints without a sign, and small p-values keep
their order of magnitude (``3.2e-07``) instead of a threshold.
"""
from __future__ import annotations

import math

NA = "n/a"


def _finite(x) -> bool:
    try:
        return x is not None and math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def p_value(p) -> str:
    """A p-value: 4 decimals from 0.0001 up, else 2 significant digits in e-notation."""
    if not _finite(p):
        return NA
    if p >= 1e-4:
        return f"{p:.4f}"
    if p <= 0:
        return "below 1e-300"         # beyond double precision: the exact value underflowed
    return f"{p:.1e}"


def signed(x, digits: int = 2, scale: float = 1.0) -> str:
    """``x * scale`` with an explicit sign, or no sign when it rounds to zero."""
    if not _finite(x):
        return NA
    v = round(x * scale, digits)
    if v == 0:
        return f"{0:.{digits}f}"
    return f"{v:+.{digits}f}"


def number(x, digits: int = 2, scale: float = 1.0) -> str:
    """``x * scale`` without sign for positives; ``-0`` never appears."""
    if not _finite(x):
        return NA
    v = round(x * scale, digits)
    return f"{(0.0 if v == 0 else v):.{digits}f}"


def interval(lo, hi, digits: int = 2, scale: float = 1.0) -> str:
    """``[lo, hi]`` with signs, as ``signed`` prints them."""
    return f"[{signed(lo, digits, scale)}, {signed(hi, digits, scale)}]"


def pct(x, digits: int = 1) -> str:
    """A proportion as a percentage."""
    return NA if not _finite(x) else f"{number(x, digits, 100)}%"
