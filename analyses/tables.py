"""Play one table of seats (strategies with parameters) and read each slot's result.

Tuning and the skill ladder both ask "how does this table of strategies do on these games?"
for tables an experiment file does not list; this plays them through ``sim.play.play_games``
(the runner's one-batch loop, so results are those ``run`` would give) without writing shards.
"""
from __future__ import annotations

import numpy as np

from sim.core.experiment import Seat
from strategies import registry


def build_table(exp, variant: str, seats: list[Seat], place: str = "seats") -> list:
    """One strategy per seat; unknown names or parameters are InputErrors naming ``place[i]``."""
    game, content = exp.game_module(), exp.content(variant)
    return [registry.make(s.strategy, s.params, game, content, str(exp.path), f"{place}[{i}]", exp.plugin_paths)
            for i, s in enumerate(seats)]


def play_table(exp, variant: str, strategies: list, seed: int, game_ids: np.ndarray):
    """(win share [B, slots], rank [B, slots]) of each strategy slot in games ``game_ids``.

    Automa seats (solo games) are left out: the columns are the table's strategy slots.
    """
    from sim.play import play_games

    game = exp.game_module()
    outcome, _ = play_games(game, exp.variants[variant], exp.content(variant), strategies, seed,
                            np.asarray(game_ids, dtype=np.int64))
    per_seat = outcome["per_seat"]
    slot = np.asarray(per_seat["slot"])
    n = len(strategies)
    share = np.zeros((slot.shape[0], n))
    rank = np.zeros((slot.shape[0], n), dtype=np.int64)
    rows = np.arange(slot.shape[0])
    for seat in range(slot.shape[1]):
        mine = slot[:, seat] < n
        share[rows[mine], slot[mine, seat]] = per_seat["win_share"][mine, seat]
        rank[rows[mine], slot[mine, seat]] = per_seat["rank"][mine, seat]
    return share, rank
