"""Errors caused by the user's input: the command line prints them on one line and exits 2."""
from __future__ import annotations


class InputError(Exception):
    """Bad input (experiment file, content file, position, command line): a one-line message.

    The message names the file, the place in it (key, line, card or row) and what was expected.
    """

    def __init__(self, source: str, place: str | None, problem: str):
        self.source, self.place, self.problem = str(source), place, problem
        where = f"{self.source}: {place}: " if place else f"{self.source}: "
        super().__init__(where + problem)
