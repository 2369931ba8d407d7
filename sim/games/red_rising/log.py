"""Readable log lines of one Red Rising decision and its effects (``python -m sim replay``).

``describe(before, after, action)`` compares two states of a batch of one game: who decided
what, then the cards that changed zone (with card ids), resource and Sovereign changes, the die
rolls (recomputed from the keyed stream), Au Toma's deck rebuilds, the end trigger, turn changes
and, at the end, the score sheet.
"""
from __future__ import annotations

import numpy as np

from sim.core import rng
from sim.games.red_rising import actions as A
from sim.games.red_rising import zones
from sim.games.red_rising.content_types import LOCATIONS
from sim.games.red_rising.scoring import RESULT_KEYS, final_scores
from sim.games.red_rising.state import END_REASONS, PILE_AUTOMA


def seat_name(s, p: int) -> str:
    if p == int(s.automa[0]):
        return f"P{p} (Au Toma)"
    h = int(s.house[0, p])
    return f"P{p} ({s.content.houses[h].name})" if h >= 0 else f"P{p}"


def zone_name(s, code: int) -> str:
    if code < 4:
        return LOCATIONS[code]
    if code == zones.DECK:
        return "deck"
    if code == zones.BANISHED:
        return "banished"
    if code == zones.OUT:
        return "out"
    return f"hand {seat_name(s, code - zones.HAND0)}"


def describe(before, after, action: int) -> list[str]:
    """Log lines for one decision (states of a batch of one game)."""
    b, a = before, after
    content = b.content
    names = A.action_names([c.id for c in content.cards])
    lines = []
    if b.done[0]:
        return lines
    who = int(b.decider[0])
    kind = A.DECISION_KINDS[int(b.kind[0])]
    lines.append(f"[round {int(b.rounds[0])}, turn {int(b.turns[0]) + 1}, {seat_name(b, int(b.player[0]))}'s turn] "
                 f"{seat_name(b, who)} {kind}: {names[action]}")
    if int(b.flipped[0]) >= 0:
        lines.append(f"  flipped card: {content.cards[int(b.flipped[0])].id}")
    for c in np.flatnonzero(b.where[0] != a.where[0]):
        lines.append(f"  {content.cards[c].id}: {zone_name(b, int(b.where[0, c]))} -> {zone_name(a, int(a.where[0, c]))}")
    if b.automa[0] >= 0 and b.top[0, PILE_AUTOMA] != a.top[0, PILE_AUTOMA] and not (b.where[0] != a.where[0]).any():
        lines.append("  Au Toma's hand reordered")
    for p in range(b.seats):
        for label, arr in (("helium", "helium"), ("fleet", "fleet"), ("cubes", "cubes")):
            x0, x1 = int(getattr(b, arr)[0, p]), int(getattr(a, arr)[0, p])
            if x0 != x1:
                lines.append(f"  {seat_name(b, p)} {label} {x0} -> {x1}")
    if b.sovereign[0] != a.sovereign[0]:
        lines.append(f"  Sovereign: {seat_name(a, int(a.sovereign[0]))} takes it")
    for c in range(int(b.die_c[0]), int(a.die_c[0])):
        face = int(rng.integers(a.key_die[:1], c, 6)[0]) + 1
        lines.append(f"  die roll: {face}")
    if a.pick_c[0] > b.pick_c[0]:
        lines.append(f"  random picks: {int(a.pick_c[0] - b.pick_c[0])}")
    if a.auto_shuffles[0] > b.auto_shuffles[0]:
        lines.append(f"  Au Toma rebuilds her deck (shuffle {int(a.auto_shuffles[0])})")
    if a.skip_gain[0] and not b.skip_gain[0]:
        lines.append("  end_turn: no gain step this turn")
    if a.triggered[0] and not b.triggered[0]:
        lines.append(f"  END TRIGGERED: {END_REASONS[int(a.end_reason[0])]}")
    if a.turns[0] > b.turns[0]:
        lines.append(f"  turns taken: {int(a.turns[0])}; next: {seat_name(a, int(a.player[0]))}"
                     + (" (extra last turn)" if a.last_turn[0] and not b.last_turn[0] else ""))
    if a.done[0]:
        lines.append(f"  GAME OVER ({END_REASONS[int(a.end_reason[0])]}), {int(a.rounds[0])} rounds")
        scores = final_scores(a)
        for p in range(a.seats):
            parts = ", ".join(f"{k[6:]} {int(scores[k][0, p])}" for k in RESULT_KEYS[:-1])
            lines.append(f"  {seat_name(a, p)}: {int(scores['score'][0, p])} points ({parts}), "
                         f"rank {int(scores['rank'][0, p])}")
    return lines
