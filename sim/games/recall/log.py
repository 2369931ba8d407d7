"""Readable log lines of one step, for ``python -m sim replay``.

``describe(before, after, action)`` gets two batch-of-one states: the decision (round, seat,
kind, the action's name from the model doc's action space) is named from ``before``; what it
set off from the differences to ``after``: per seat the score, purple points, crystals,
knowledge steps, stones, followers, key cards, chests and artifacts that changed, the tribes
and items taken (with the display the pick was made from), the old tribes dealt, the path cards
chosen, pig farms, pigs and rings placed on the map, a new round and the end.
"""
from __future__ import annotations

import numpy as np

from sim.core.memo import per_object
from sim.games.recall import state as st
from sim.games.recall.engine import DRAFT_MODES
from sim.games.recall.kernel import C_DRAFT
from sim.games.recall.content_types import ARTIFACT_COLOURS, CRYSTALS, TRACKS
from sim.games.recall.effects import format_atom
from sim.games.recall.tables import build_tables, decode

STONES = TRACKS + ("own",)


def _seat_value(s, p: int, c: int) -> int:
    return int(s.m[0, st.seat_col(p, c)])


def _block(s, p: int, c: int, n: int) -> np.ndarray:
    return s.m[0, st.seat_col(p, c):st.seat_col(p, c) + n].astype(np.int64)


def _changes(before, after, p: int) -> list[str]:
    """What changed in seat ``p``'s block, as short ``name +d`` / ``name a->b`` items."""
    ct = before.t.content
    out = []
    for label, col in (("score", st.P_SCORE), ("purple", st.P_PURPLE), ("supply followers", st.P_SUPPLY)):
        d = _seat_value(after, p, col) - _seat_value(before, p, col)
        if d:
            out.append(f"{label} {d:+d}")
    for label, col, names in (("crystals", st.P_CR, CRYSTALS), ("track", st.P_TRK, TRACKS),
                              ("stones", st.P_STONES, STONES), ("artifacts", st.P_ARTS, ARTIFACT_COLOURS)):
        b, a = _block(before, p, col, len(names)), _block(after, p, col, len(names))
        for i in np.flatnonzero(a != b):
            out.append(f"{label} {names[i]} {b[i]}->{a[i]}")
    kinds = len(ct.key_cards)
    b, a = _block(before, p, st.P_AVAIL, kinds), _block(after, p, st.P_AVAIL, kinds)
    for k in np.flatnonzero(a != b):
        out.append(f"key cards {ct.key_cards[k].id} {b[k]}->{a[k]}")
    b, a = _block(before, p, st.P_CHESTS, len(ct.chest_tiles)), _block(after, p, st.P_CHESTS, len(ct.chest_tiles))
    for k in np.flatnonzero(a != b):
        out.append(f"chest {ct.chest_tiles[k].id} {b[k]}->{a[k]}")
    b, a = _block(before, p, st.P_FOL, st.F_MAX), _block(after, p, st.P_FOL, st.F_MAX)
    for f in np.flatnonzero(a != b):
        out.append(f"followers on {before.t.field_names[f]} {b[f]}->{a[f]}")
    return out


@per_object
def _effects(content):
    return build_tables(content)


def _pending(before, i: int) -> str:
    """The text of pending effect ``i`` of the turn (its item as written, a ``DEV:1`` split off or
    a ``MOVE:m`` of UNITS), e.g. ``BUY{W:1->1}``."""
    e, item, _, kind = (int(x) for x in before.m[0, st.G_PEND + st.PEND_W * i:st.G_PEND + st.PEND_W * (i + 1)])
    if kind == 1:
        return "DEV:1"
    if kind >= 2:
        return f"MOVE:{kind - 2}"
    return " | ".join(format_atom(a) for a in decode(_effects(before.t.content), e)[item])


def _display(before) -> str:
    """The draft display a pick is made from (RC-S33; custom draft RC-V2..V5: tribes and items
    apart), as ``opt:i`` names it: ``0 Hayla + Boots, 1 Ion + Map, ...``; a taken place is ``-``."""
    ct, g = before.t.content, before.m[0]
    tribes = [int(x) for x in g[st.G_TRIBE_DISP:st.G_TRIBE_DISP + 5]]
    items = [int(x) for x in g[st.G_ITEM_DISP:st.G_ITEM_DISP + 5]]
    places = int(g[st.G_NP]) + 1

    def name(x, names):
        return names[x].id if x >= 0 else "-"

    if DRAFT_MODES[int(before.t.C[C_DRAFT])] == "custom":
        return ("tribes " + ", ".join(f"{i} {name(tribes[i], ct.tribes)}" for i in range(places))
                + "; items " + ", ".join(f"{5 + i} {name(items[i], ct.items)}" for i in range(places)))
    return ", ".join(f"{i} {name(tribes[i], ct.tribes)} + {name(items[i], ct.items)}" for i in range(places)
                     if tribes[i] >= 0)


def _map_changes(before, after) -> list[str]:
    """Pig farms, pigs and rings that the step put on (or took off) the map's fields (Dorian
    RC-R210..R212, Noorderling's rings RC-R233)."""
    out = []
    for label, col in (("pig farm", st.F_FARM), ("pigs", st.F_PIGS_ON), ("ring", st.F_RING)):
        b = before.m[0, col:col + st.F_MAX].astype(np.int64)
        a = after.m[0, col:col + st.F_MAX].astype(np.int64)
        for f in np.flatnonzero(a != b):
            field = before.t.field_names[f]
            if label == "pigs":
                out.append(f"  pigs on {field} {b[f]}->{a[f]}")
            else:
                out.append(f"  {label} {'placed on' if a[f] > b[f] else 'removed from'} {field}")
    return out


def describe(before, after, action: int) -> list[str]:
    t, ct = before.t, before.t.content
    kind = int(before.m[0, st.G_KIND])
    p = int(before.m[0, st.G_DEC])
    name = t.action_names[action]
    head = f"Round {int(before.m[0, st.G_ROUND]) + 1}, seat {p} ({st.KIND_NAMES[kind]})"
    lines = []
    if kind == st.K_START_FIELD:
        lines.append(f"{head}: starts on start field {_seat_value(after, 0, st.P_START)}")
    elif kind == st.K_DRAFT:
        lines.append(f"{head}: {name} from the display {_display(before)}")
    elif kind == st.K_EFFECT and name.startswith("pick:"):
        lines.append(f"{head}: {name} ({_pending(before, int(name[5:]))})")
    else:
        lines.append(f"{head}: {name}")
    n = int(before.m[0, st.G_NP])
    for q in range(n):
        for col, what, names in ((st.P_TRIBE, "tribe", ct.tribes), (st.P_ITEM, "item", ct.items)):
            x0, x1 = _seat_value(before, q, col), _seat_value(after, q, col)
            if x1 != x0 and x1 >= 0:
                lines.append(f"  seat {q} takes the {what} {names[x1].id}")
        b, a = _block(before, q, st.P_PATHS, 3), _block(after, q, st.P_PATHS, 3)
        for k in np.flatnonzero(a != b):
            card = ct.path_cards[int(after.m[0, st.G_PATH + a[k]])].id
            lines.append(f"  seat {q} puts its disc on path card {card} (position {a[k] + 1})")
        changed = _changes(before, after, q)
        if changed:
            lines.append(f"  seat {q}: " + ", ".join(changed))
    lines += _map_changes(before, after)
    if int(before.m[0, st.G_OLD_TRIBE]) < 0 <= int(after.m[0, st.G_OLD_TRIBE]):
        lines.append("  old tribes and item stacks dealt face down"
                     + (" (face up: " + ", ".join(ct.tribes[int(x)].id for x in after.m[0, st.G_OLD_TRIBE:st.G_OLD_TRIBE + 3])
                        + ")" if int(after.m[0, st.G_REVEALED]) else ""))
    after_kind = int(after.m[0, st.G_KIND])
    if after_kind == st.K_DONE:
        lines.append("  the hourglass has run out: the game is over (RC-R7)")
    elif after_kind == st.K_STOP:
        lines.append(f"  the engine stops here: a rule not compiled yet ({st.STOP_REASONS[int(after.m[0, st.G_STOP])]})")
    elif int(after.m[0, st.G_ROUND]) != int(before.m[0, st.G_ROUND]) or (
            after_kind == st.K_MAIN and int(before.m[0, st.G_KIND]) in (st.K_DRAFT, st.K_START_FIELD)):
        lines.append(f"  round {int(after.m[0, st.G_ROUND]) + 1} begins: seat {int(after.m[0, st.G_DEC])} to play")
    return lines
