"""Errors caused by the user's input: the command line prints them on one line and exits 2."""
from __future__ import annotations


class InputError(Exception):
    """Bad input (experiment file, content file, position, command line): a one-line message.

    The message names the file, the place in it (key, line, card or row) and what was expected.
    It pickles exactly (``__reduce__``), so an error raised in a loky or Dask worker reaches the
    user as the same one line instead of a broken pool or a client waiting forever.
    """

    def __init__(self, source: str, place: str | None, problem: str):
        self.source, self.place, self.problem = str(source), place, problem
        where = f"{self.source}: {place}: " if place else f"{self.source}: "
        super().__init__(where + problem)

    def __reduce__(self):
        return type(self), (self.source, self.place, self.problem)


class RunError(InputError):
    """A run stopped for a reason outside the experiment (a worker died, the disk is full, a
    folder cannot be written): one line and exit 2 like bad input; finished shards are kept."""
