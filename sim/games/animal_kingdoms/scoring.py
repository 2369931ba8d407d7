"""The final score sheet (AK-E23..E28, AK-A35, AK-A41) and the names of its columns.

Age scoring, battles and their places (AK-E1..E22, AK-A22..A31, AK-V1..V4, AK-V15..V19,
AK-A36, AK-A40) run in the compiled flow of ``kernel.py``.
"""
from __future__ import annotations

import numpy as np

COMPONENTS = ("score_start", "score_first", "score_second", "score_third", "score_rally",
              "score_retreat", "score_modifiers")
STAT_COLUMNS = ("claims", "rallies", "capitals", "first_retreats", "battles_won", "battles_lost", "council")


# ---- the end of the game -------------------------------------------------------------------

def final_sheet(s) -> dict:
    """Per-seat score components, score, rank and win share (AK-E23..E28, AK-A35, AK-A41)."""
    t, cfg = s.t, s.t.config
    B, P = s.batch, t.P
    retreat = np.zeros((B, P), dtype=np.int64)
    for a in range(3):
        owner = s.rt_owner[:, a].astype(np.int64)
        has = owner >= 0
        retreat[np.nonzero(has)[0], owner[has]] += s.rt[has, a] + cfg.first_retreat_shift
    comp = {"score_start": np.full((B, P), cfg.start_score, dtype=np.int64),
            "score_first": s.pf.astype(np.int64), "score_second": s.ps.astype(np.int64),
            "score_third": s.pt.astype(np.int64), "score_rally": s.pr.astype(np.int64),
            "score_retreat": retreat,
            "score_modifiers": s.mods.astype(np.int64) * cfg.modifier_endgame_points}
    score = sum(comp.values())
    if cfg.final_tiebreak == "largest_capital_age3":
        held = s.cap[:, :, None] == np.arange(P)[None, None, :]              # [B, K, P]
        tie = np.where(held, t.size[None, :, None], 0).max(axis=1)
    else:
        tie = np.zeros((B, P), dtype=np.int64)
    key = score * 1000 + tie
    rank = 1 + (key[:, None, :] > key[:, :, None]).sum(axis=2)
    winners = rank == 1
    out = dict(comp)
    out["score"] = score
    out["rank"] = rank
    out["win_share"] = winners / winners.sum(axis=1, keepdims=True)
    out["tiebreak"] = tie
    return out
