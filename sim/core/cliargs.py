"""Command-line argument types shared by every command (``sim.cli``, ``analyses.cli``)."""
from __future__ import annotations

import argparse

EXIT_INPUT = 2      # exit status of bad input (one line on stderr, nothing written)


def number_type(cast, check, expected: str):
    """An argparse type: ``cast`` the text, then require ``check(value)`` ("expected ...")."""
    def parse(text: str):
        try:
            value = cast(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {'an integer' if cast is int else 'a number'}, "
                                             f"got {text!r}") from None
        if not check(value):
            raise argparse.ArgumentTypeError(f"expected {expected}, got {value}")
        return value
    return parse


positive_int = number_type(int, lambda v: v >= 1, "a positive integer")
non_negative_int = number_type(int, lambda v: v >= 0, "an integer >= 0")
