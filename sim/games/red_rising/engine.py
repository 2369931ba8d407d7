"""The Red Rising engine: run the games of a batch to their next decisions and apply the answers
(docs/red_rising_model.md, docs/red_rising_engine.md).

Every game of the batch runs a small state machine. ``state.mop[g]`` names what game ``g`` does
next; a game waiting for a decision has ``waiting[g]`` set and its answer's handler in ``mop``.
``step`` stores the answers and ``run`` runs every game that is neither waiting nor done until
it waits for a decision or is over. The micro-ops are executed by the compiled kernel (kernel.py:
a numba loop over the games of the batch, scalar code per game, the state in the same batch
arrays); this module is the Python around it: growing the frame stack, one-game states, whole
games in one call. Setup: ``deal.py``; final scoring: ``scoring.py``.
"""
from __future__ import annotations

import numpy as np

from sim.core.game import IllegalActionError, check_legal
from sim.core.memo import per_object
from sim.games.red_rising import actions as A
from sim.games.red_rising import kernel
from sim.games.red_rising.state import BACKINGS, State, grow_frames


def run(s: State) -> State:
    """Run every game that is not waiting for a decision until all wait or are done.

    The compiled kernel (kernel.py) runs the micro-op machine game by game; when a game needs
    a deeper frame stack it stops at a micro-op boundary, the arrays grow here and the kernel
    goes on.
    """
    if s.batch <= 1:
        return _as_pair(s, run)
    while True:
        arrays, prog = kernel.pack(s)
        g = kernel.run_batch(arrays, prog)
        if g < 0:
            return s
        grow_frames(s, s.frame.shape[1] + 1)


def run_to_end(s: State, driver, args_of) -> State:
    """Play every game of ``s`` to its end with a compiled whole-game driver; updates ``s`` in place.

    ``driver(arrays, prog, *args_of(s), bad)`` is compiled code that, game by game, answers each
    decision and runs the game on (``kernel.run_game``) until it is over: ``kernel.play_uniform``
    (random play) or a strategy's (strategies/red_rising.py). It returns -1 when every game is
    over, a game that needs more frames (they grow here, which lays out the state's arrays anew,
    hence ``args_of``; the driver is called again and goes on where it stopped), or -2 - g when
    game g's answer ``bad[0]`` is illegal (``IllegalActionError``, as in ``step``). Needs two games or
    more (a one-game state has other array types).
    """
    if s.batch < 2:
        raise ValueError("run_to_end needs a batch of two games or more")
    bad = np.zeros(1, dtype=np.int64)
    while True:
        arrays, prog = kernel.pack(s)
        g = driver(arrays, prog, *args_of(s), bad)
        if g == -1:
            return s
        if g >= 0:
            grow_frames(s, s.frame.shape[1] + 1)
            continue
        g = -2 - g
        raise IllegalActionError(f"game {int(s.game_id[g])}, decision {A.DECISION_KINDS[int(s.kind[g])]}: action "
                                 f"{int(bad[0])} is not legal there")


def play_uniform(s: State, keys, n_strategies: int) -> State:
    """Play every game to its end, every decision of the seats of slots ``< n_strategies`` a
    uniform random legal action drawn with ``keys[slot, game]`` (uint64 [slots, B]) exactly as the
    runner's loop with the ``random`` strategy draws it (``kernel.play_uniform``)."""
    args = (np.ascontiguousarray(s.slot, dtype=np.int64), np.ascontiguousarray(keys, dtype=np.uint64),
            np.zeros(s.batch, dtype=np.int64), int(n_strategies))
    return run_to_end(s, kernel.play_uniform, lambda _: args)


# The rules' compiled functions that the micro-op loop calls (``kernel.run_game``), in two halves
# of about equal compile time (``benchmarks.compile_times --own``), each with the argument types
# its call sites give: the batch arrays, the program tables, the game index, and the names of
# the other arguments' types (``compile_half``). Half 1 is the ops' handler ``h_op`` with the
# opponent effects (``opp_next``); half 0 the rest, ``begin`` first: both halves call it, and
# half 1 waits for it (``_SHARED``) instead of compiling it a second time.
_HALVES = ((("begin", "depth", "op"), ("enter", "op"), ("automa_turn",), ("check_trigger",), ("e_player",),
            ("e_order_ask",), ("e_order",), ("e_banish",), ("e_ceres",), ("trade_get",), ("opp_then",)),
           (("opp_next",), ("h_op", "mop")))
_SHARED = "begin"
SHARED_WAIT = 120.0          # seconds half 1 waits at most for half 0's ``begin`` in the cache


def compile_half(s: State, half: int) -> None:
    """Compile half ``half`` (0 or 1, ``_HALVES``) of the rules' functions for the array types of
    ``s`` (a batch of two games or more) without running anything, into numba's on-disk cache
    (functions already there are only loaded): the warm-up runs the two halves in two processes
    at once (``sim.core.runner.warm_up``), so the engine compiles on both cores."""
    import time

    from numba import from_dtype, typeof, types

    from sim.core import kernel_cache

    arrays, prog = kernel.pack(s)
    scalar = {"op": types.int64, "mop": from_dtype(s.mop.dtype), "depth": from_dtype(s.depth.dtype)}
    for name, *extra in _HALVES[half]:
        if half == 1 and name == "h_op":            # it calls the shared function first
            shared, waited = getattr(kernel, _SHARED), time.monotonic()
            while not kernel_cache.cached(shared) and time.monotonic() - waited < SHARED_WAIT:
                time.sleep(0.2)
        getattr(kernel, name).compile((typeof(arrays), typeof(prog), types.int64, *(scalar[e] for e in extra)))


def _as_pair(s: State, fn, *args) -> State:
    """Run ``fn(pair, *args)`` on a two-game copy of a one-game state (the second game is over)
    and keep the first game. With one row every view of the state is contiguous, and numba would
    compile the whole kernel again for those array types."""
    if s.batch == 0:
        return s
    from sim.core.game import take
    pair = take(s, np.array([0, 0]))
    pair.done[1] = True
    pair.waiting[1] = False
    fn(pair, *args)
    for name in BACKINGS:
        setattr(s, name, getattr(pair, name)[:1].copy())
    s.layout = pair.layout
    return s


def step(s: State, actions) -> State:
    """Apply one action per game (ignored for games that are over) and run to the next decisions.

    Updates ``s`` in place and returns it. An action outside its game's legal mask raises
    ``IllegalActionError`` naming the game, the decision and the action, before anything changes
    (``sim.core.game.check_legal``; the compiled whole-game drivers check inside the kernel).
    """
    actions = np.asarray(actions)
    if actions.shape != (s.batch,):
        raise ValueError(f"expected {s.batch} actions, got an array of shape {actions.shape}")
    check_legal(s.legal, actions, s.waiting & ~s.done, s.game_id, lambda i: _KIND_NAMES[s.kind[i]],
                _action_names(s.content))
    return _apply(s, actions.astype(np.int64))


def _apply(s: State, actions) -> State:
    """Store checked answers and run (a one-game state as a pair, ``_as_pair``)."""
    if s.batch == 1:
        return _as_pair(s, _apply, np.concatenate([actions, [0]]))
    arrays, _ = kernel.pack(s)
    kernel.apply_batch(arrays, actions)
    return run(s)


_KIND_NAMES = np.asarray(A.DECISION_KINDS)


@per_object
def _action_names(content) -> list[str]:
    return A.action_names([c.id for c in content.cards])
