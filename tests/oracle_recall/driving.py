"""The public interface and the generator machinery (decisions asked, applied or skipped)."""
from __future__ import annotations

import numpy as np

from sim.games.recall.content_types import LETTERS
from tests.oracle_recall.common import KINDS, N_COUNT, TurnGuard


class Driving:
    """A part of ``RcOracle`` (tests/oracle_recall/__init__.py)."""

    # ------------------------------------------------------------------ public interface

    def begin(self):
        """Start play: setup decisions (solo start field, tribe draft), then the 17 rounds."""
        self._gen = self._play()
        self._over = False
        self._resume(None, first=True)

    @property
    def decider(self) -> int:
        return -1 if self._pending is None else self._pending[0]

    @property
    def kind(self):
        return None if self._pending is None else self._pending[1]

    @property
    def done(self) -> bool:
        return self._pending is None and self._over

    def legal_list(self) -> tuple:
        return () if self._pending is None else self._pending[2]

    def legal(self) -> np.ndarray:
        mask = np.zeros(self.A, dtype=bool)
        if self._pending is not None:
            mask[list(self._pending[2])] = True
        return mask

    legal_mask = legal

    def step(self, action: int):
        if self._pending is None:
            raise ValueError("no decision is pending")
        who, kind, legal = self._pending
        action = int(action)
        if action not in legal:
            raise ValueError(f"illegal action {action} ({self.name(action)}) for {kind} of seat {who}")
        self.log.append(f"seat {who} {kind}: {self.name(action)}")
        self._resume(action)

    def name(self, a: int) -> str:
        """Readable action name (model doc, "The action space")."""
        if a == self.A_END:
            return "end"
        if a == self.A_RECALL:
            return "recall"
        if a < self.A_PICK:
            k, s = divmod(a - self.A_PLAY, 6)
            return f"play:{self.ct.key_cards[k].id}:{LETTERS[s]}"
        if a < self.A_FIELD:
            return f"pick:{a - self.A_PICK}"
        if a < self.A_COUNT:
            return f"field:{self.field_names[a - self.A_FIELD]}"
        if a < self.A_OPT:
            return f"count:{a - self.A_COUNT + 1}"
        if a < self.A_USE:
            return f"opt:{a - self.A_OPT}"
        if a < self.A_CHEST:
            return f"use:{self.abil[a - self.A_USE][0]}"
        if a < self.A_RING:
            return f"chest:{self.ct.chest_tiles[a - self.A_CHEST].id}"
        return "ring"

    def action_names(self) -> list:
        return [self.name(a) for a in range(self.A)]

    def play_action(self, kind: int, slot: int) -> int:
        return self.A_PLAY + 6 * kind + slot

    def drive(self, gen, actions=()):
        """Run a sub-generator to its end, answering its decisions with ``actions`` in order.

        Returns (asked, value): the decisions actually asked and the generator's return value.
        """
        actions = list(actions)
        asked = []
        try:
            d = next(gen)
            while True:
                asked.append(d)
                if not actions:
                    raise AssertionError(f"decision asked with no scripted action: {d[:2]} "
                                         f"{[self.name(x) for x in d[2]]}")
                a = actions.pop(0)
                assert a in d[2], (self.name(a), [self.name(x) for x in d[2]])
                d = gen.send(a)
        except StopIteration as stop:
            assert not actions, f"unused scripted actions {[self.name(a) for a in actions]}"
            return asked, stop.value

    # ------------------------------------------------------------------ generator driving

    def _resume(self, action, first=False):
        try:
            self._pending = next(self._gen) if first else self._gen.send(action)
        except StopIteration:
            self._pending = None
            self._over = True

    def _ask(self, who: int, kind: str, legal):
        """A decision: applied at once with one legal action, skipped (None) with none, else yielded."""
        legal = tuple(sorted(set(legal)))
        assert kind in KINDS, kind
        if not legal:
            return None
        if len(legal) == 1:
            return legal[0]
        if self.active >= 0:
            self.turn_decisions += 1
            if self.turn_decisions > self.cfg.max_decisions_per_turn:
                raise TurnGuard()
        return (yield (who, kind, legal))

    def _opt(self, who, kind, options, end=False, extra=()):
        """Ask among option indices ``options`` (opt:i), with ``end`` optional; returns i, -1 for end, or None."""
        legal = [self.A_OPT + i for i in options] + ([self.A_END] if end else []) + list(extra)
        a = yield from self._ask(who, kind, legal)
        if a is None:
            return None
        if a == self.A_END:
            return -1
        if self.A_OPT <= a < self.A_USE:
            return a - self.A_OPT
        return a

    def _field(self, who, kind, fields, end=False):
        """Ask a field pointer; returns the field, -1 for end, or None when nothing is legal."""
        legal = [self.A_FIELD + f for f in fields] + ([self.A_END] if end and fields else [])
        a = yield from self._ask(who, kind, legal)
        if a is None:
            return None
        return -1 if a == self.A_END else a - self.A_FIELD

    def _count(self, who, kind, lo, hi):
        """Ask a number lo..hi (count:c); None when lo > hi."""
        lo = max(lo, 1)
        hi = min(hi, N_COUNT)
        a = yield from self._ask(who, kind, [self.A_COUNT + c - 1 for c in range(lo, hi + 1)])
        return None if a is None else a - self.A_COUNT + 1
