"""Readable log lines of one step, for ``python -m sim replay``.

``describe(before, after, action)`` gets two batch-of-one states: the decision is named from
``before``; what it set off (tribes and items taken, start fields, old tribes dealt) from the
differences to ``after``.
"""
from __future__ import annotations

from sim.games.recall import state as st


def _seat_value(s, p: int, c: int) -> int:
    return int(s.m[0, st.seat_col(p, c)])


def describe(before, after, action: int) -> list[str]:
    t, ct = before.t, before.t.content
    kind = int(before.m[0, st.G_KIND])
    p = int(before.m[0, st.G_DEC])
    name = t.action_names[action]
    head = f"Round {int(before.m[0, st.G_ROUND]) + 1}, seat {p} ({st.KIND_NAMES[kind]})"
    lines = []
    if kind == st.K_START_FIELD:
        lines.append(f"{head}: starts on start field {_seat_value(after, 0, st.P_START)}")
    else:
        lines.append(f"{head}: {name}")
    n = int(before.m[0, st.G_NP])
    for q in range(n):
        for col, what, names in ((st.P_TRIBE, "tribe", ct.tribes), (st.P_ITEM, "item", ct.items)):
            x0, x1 = _seat_value(before, q, col), _seat_value(after, q, col)
            if x1 != x0 and x1 >= 0:
                lines.append(f"  seat {q} takes the {what} {names[x1].id}")
    if int(before.m[0, st.G_OLD_TRIBE]) < 0 <= int(after.m[0, st.G_OLD_TRIBE]):
        lines.append("  old tribes and item stacks dealt face down"
                     + (" (face up: " + ", ".join(ct.tribes[int(x)].id for x in after.m[0, st.G_OLD_TRIBE:st.G_OLD_TRIBE + 3])
                        + ")" if int(after.m[0, st.G_REVEALED]) else ""))
    if int(after.m[0, st.G_KIND]) == st.K_MAIN and int(before.m[0, st.G_KIND]) != st.K_MAIN:
        lines.append(f"  round {int(after.m[0, st.G_ROUND]) + 1} begins: seat {int(after.m[0, st.G_DEC])} to play")
    return lines
