"""Setup, and the start player of a new age.

Rules: AK-S1..S18 (setup, with the random draws of the model doc). The rest of an age's end
(councils AK-R37..R43, the new age AK-R44..R52 with AK-A31..A34) runs in the compiled flow of
``kernel.py``; ``new_age_start`` exposes its start-player rule for a subset of games.
"""
from __future__ import annotations

import numpy as np

from sim.core import rng
from sim.games.animal_kingdoms import kernel
from sim.games.animal_kingdoms.state import BEGIN, empty_state
from sim.games.animal_kingdoms.tables import Tables


def init(t: Tables, game_ids, seed: int):
    """AK-S1..S18: a batch of games at the start of Age I (not yet advanced to a decision)."""
    cfg, ct = t.config, t.content
    gid = np.asarray(game_ids, dtype=np.int64)
    B, K = len(gid), t.K
    s = empty_state(t, B)
    s.gid[:] = gid
    if t.solo or cfg.start_player_age1 == "first_slot":
        s.start_slot[:] = 0
    else:
        s.start_slot[:] = rng.integers(rng.stream_keys(seed, gid, "start"), 0, cfg.players)
    s.deck_key[:] = rng.stream_keys(seed, gid, "deck")
    s.dorder[:] = rng.permutations(rng.stream_keys(seed, gid, "decrees"), t.D)
    values = np.array(ct.first_place, dtype=np.int16)
    perm = rng.permutations(rng.stream_keys(seed, gid, "first_place"), len(values))
    tiles = values[perm[:, :K * t.T]].reshape(B, K, t.T)
    s.fp[:] = np.sort(tiles, axis=2)
    rvalues = np.array(ct.first_retreat, dtype=np.int16)
    s.rt[:] = rvalues[rng.permutations(rng.stream_keys(seed, gid, "first_retreat"), t.R)]
    tab, c = kernel.kernel_tables(t)
    kernel.setup_cards(kernel.state_arrays(s), tab, c)      # deck shuffle 0, hands, decrees, bonus cards
    s.phase[:] = BEGIN
    return s


def new_age_start(s, rows) -> np.ndarray:
    """int64[n]: AK-R50, AK-R51, AK-A34 for the games ``rows``: who would start the next age now."""
    out = np.zeros(len(rows), dtype=np.int64)
    tab, c = kernel.kernel_tables(s.t)
    kernel.new_age_start_rows(kernel.state_arrays(s), c, np.asarray(rows, dtype=np.int64), out)
    return out
