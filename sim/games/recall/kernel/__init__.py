"""Compiled kernel: run every game of a batch to its next decision, in place.

``step_batch`` (flow.py) loops over the games of the batch with scalar code on the game's row
``g = m[b]`` (``state.py`` layout), its hidden row ``h`` and its legal-mask row ``lg``.
``advance`` runs the automatic flow and stops at the first decision with at least two legal
actions, leaving that decision's legal mask in ``lg``; a decision with exactly one legal action
is applied at once, one with none is skipped (docs/recall_model.md, "The action space").
What is compiled and what stops the game (``K_STOP``, reason in ``G_STOP``):
docs/recall_engine.md.

Modules, one job each: ``common`` (the ``C`` indices, op and atom constants, small helpers:
seat, stop, crystals, points, ability costs), ``draft`` (setup decisions), ``queue`` (the
pending list and the atom queue with ``execute``), ``knowledge`` (track steps), ``movement``
(follower movement, artifacts), ``abilities`` / ``abilities_2`` / ``abilities_3`` (coded
abilities), ``rafts`` (Vinder's raft reaction), ``pigs`` (pigs, pig farms, ``move_pigs``,
Dorian, pigs paying first), ``rings`` (Noorderling's rings), ``turn`` (masks, event windows,
recharge, turn end), ``flow`` (``apply``, ``decide``, ``to_decision``, ``advance``, ``step_batch``).

Tables: ``C`` int64 scalars and offsets into ``tab`` (int64, the content's index arrays,
``engine.build_tables``); ``atoms`` is sim.games.recall.tables' atom table. The content reaches
the kernel only as arrays, never as compiled-in constants.

Numba caching: column constants of ``state.py`` and of ``common.py`` are frozen into the
on-disk cache, and callees are compiled into their callers, so every module watches state.py
and every kernel module it imports, directly or not (``sim.core.kernel_cache.watch``): editing
any of them recompiles its dependants.

Compile time: ``common.kernel`` types every call between kernels without literal constants and
with signed integers as int64 (``sim.core.kernel_typing``), so each function is compiled once,
not once per constant or int32/int64 mix (``decide`` was compiled 22 times, each copy with the
whole ``apply`` linked in); ``decide`` does not apply a single legal action itself (``advance``
does), and ``step_batch`` has one call of ``apply`` and ``advance`` for both its uses. Measured:
docs/recall_engine.md, "Compile time".
"""
from sim.games.recall.kernel.common import *  # noqa: F401,F403  (C_*, NC, EVENTS, helpers)
from sim.games.recall.kernel.flow import step_batch  # noqa: F401
from sim.games.recall.kernel.movement import move_targets  # noqa: F401
from sim.games.recall.kernel.turn import main_mask  # noqa: F401
