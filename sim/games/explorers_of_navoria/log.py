"""Readable log lines of one step (a decision and everything it set off), for ``python -m sim replay``.

``describe(before, after, action)`` gets two batch-of-one states: the decision is named from
``before``; its consequences (cards taken, tokens drawn, goods placed, orders fulfilled, posts,
markers, points by component, new rounds, the end) from the differences to ``after``.
"""
from __future__ import annotations

import numpy as np

from sim.games.explorers_of_navoria import state as st
from sim.games.explorers_of_navoria.content_types import COLOURS, REGIONS

COMP_LABELS = ("cards", "city", "orders", "treasure", "trader income", "adventurer income", "exploration",
               "soldiers", "favour")
PHASE_LABEL = {st.K_RECRUIT: "recruit", st.K_COLLECT: "collect", st.K_TRACK: "track", st.K_GOODS: "goods",
               st.K_ALT: "choice"}


def _card(t, c) -> str:
    c = int(c)
    return f"{t.card_ids[c]} ({COLOURS[t.content.cards[c].colour]})" if c >= 0 else "-"


def describe(before, after, action: int) -> list[str]:
    t = before.t
    kind = int(before.kind[0])
    p = int(before.dec[0])
    head = f"Round {int(before.round[0]) + 1}, turn {int(before.turns[0]) + 1}, seat {p} ({PHASE_LABEL.get(kind, '?')})"
    lines = []
    if kind == st.K_RECRUIT:
        if action == 0:
            lines.append(f"{head}: draws from the bag")
        else:
            c, s = divmod(action - 1, 3)
            src = "a drawn token" if int(before.drew[0]) else "a city-centre token"
            lines.append(f"{head}: uses {src} ({COLOURS[c]}) and takes {_card(t, before.offer[0, c, s])}")
    elif kind == st.K_COLLECT:
        x = action - t.A_CITY
        if x < t.S:
            lines.append(f"{head}: puts a {COLOURS[t.content.city[x].colour]} token on {t.city_ids[x]}")
        else:
            lines.append(f"{head}: a {COLOURS[action - t.A_BACK]} token goes back to the bag (area full)")
    elif kind == st.K_GOODS:
        a = action - t.A_GOODS
        kinds = [(a >> 4) & 3, (a >> 2) & 3, a & 3]
        placed = [f"{'-WMF'[k]} on {REGIONS[x]}" for x, k in enumerate(kinds) if k]
        lines.append(f"{head}: places " + (", ".join(placed) if placed else "nothing"))
    elif kind == st.K_TRACK:
        what = "builds on" if int(before.wait[0]) == st.W_BUILD else "steps on"
        lines.append(f"{head}: {what} the {REGIONS[action - t.A_TRACK]} track")
    elif kind == st.K_ALT:
        k = action - t.A_ALT
        lines.append(f"{head}: chooses {_atom(t, int(before.alt[0]), k)} "
                     f"(not {_atom(t, int(before.alt[0]), 1 - k)})")
    else:
        lines.append(f"{head}: {t.action_names[action]}")
    lines += _consequences(before, after, action)
    return lines


def _atom(t, item: int, side: int) -> str:
    from sim.games.explorers_of_navoria.tables import OPS, O_ITEMS
    r = int(t.C[O_ITEMS]) + 6 * item + 3 * side
    op, arg, n = (int(v) for v in t.tab[r:r + 3])
    what = "any" if arg < 0 else (GOOD_NAMES[arg] if OPS[op] == "good" else REGIONS[arg])
    return {"pts": f"{n} points", "good": f"a good ({what})", "step": f"{n} step(s) ({what})",
            "build": f"a build ({what})", "per_artisan": f"{n} per artisan"}[OPS[op]]


GOOD_NAMES = ("W", "M", "F")


def _docks(d) -> str:
    return ", ".join(f"{REGIONS[x]} " + ("".join("WMF"[k] * int(d[x, k]) for k in range(3)) or "-") for x in range(3))


def _consequences(before, after, action) -> list[str]:
    t = before.t
    out = []
    same_round = int(after.round[0]) == int(before.round[0])
    named_city = action - t.A_CITY if int(before.kind[0]) == st.K_COLLECT else -1
    if same_round:
        taken = (before.offer[0] >= 0) & (after.offer[0] < 0)
        named = action - 1 if int(before.kind[0]) == st.K_RECRUIT and action > 0 else -1
        for c, s in zip(*np.nonzero(taken)):
            if 3 * c + s != named:
                out.append(f"  card taken: {_card(t, before.offer[0, c, s])} (the only choice)")
        for x in np.nonzero((before.city[0, :t.S] < 0) & (after.city[0, :t.S] >= 0))[0]:
            if x != named_city:
                out.append(f"  seat {int(after.city[0, x])} puts a token on {t.city_ids[x]} (its only choice)")
    drawn = int(after.bagk[0]) - int(before.bagk[0])
    if drawn > 0:
        got = [c for c in after.drawn[0] if c >= 0]
        who = f"seat {int(after.dec[0])}" if got else "the bag"
        out.append(f"  {who}: {drawn} token(s) drawn" + (f", {', '.join(COLOURS[int(c)] for c in got)} to choose "
                                                        "from" if got else ""))
    for p in range(t.P):
        parts = []
        for r in range(3):
            dp = int(after.posts[0, p, r]) - int(before.posts[0, p, r])
            if dp > 0:
                parts.append(f"builds a post on {REGIONS[r]} (now {int(after.posts[0, p, r])})")
            if same_round and int(after.marker[0, p, r]) != int(before.marker[0, p, r]):
                parts.append(f"{REGIONS[r]} marker {int(before.marker[0, p, r])} -> {int(after.marker[0, p, r])}")
        if not np.array_equal(after.dock[0, p], before.dock[0, p]):
            parts.append("docks now " + _docks(after.dock[0, p]))
        for r in range(3):
            df = int(after.fulfilled[0, p, r]) - int(before.fulfilled[0, p, r])
            if df > 0:
                parts.append(f"fulfils the {REGIONS[r]} order")
        lost = int(after.lost[0, p]) - int(before.lost[0, p])
        if lost > 0:
            parts.append(f"loses {lost} good(s)")
        comp = after.comp[0, p].astype(int) - before.comp[0, p]
        gains = [f"+{int(v)} {COMP_LABELS[i]}" for i, v in enumerate(comp) if v]
        if gains:
            parts.append(", ".join(gains) + f" (score {int(after.score[0, p])})")
        for q in range(4):
            if int(after.fav[0, p, q]) and not int(before.fav[0, p, q]):
                parts.append(f"wins the favour of the {('humans', 'goblins', 'beasts', 'sprites')[q]} "
                             f"({'first' if int(after.fav[0, p, q]) == 1 else 'second'} space)")
        if parts:
            out.append(f"  seat {p}: " + "; ".join(parts))
    if not same_round:
        order = [int(x) for x in after.order[0, :t.P]]
        out.append(f"  round {int(after.round[0]) + 1} begins; compass order {order}; scores "
                   f"{[int(x) for x in after.score[0, :t.P]]}")
    if int(after.kind[0]) == st.K_DONE and int(before.kind[0]) != st.K_DONE:
        out.append(f"  game over; scores {[int(x) for x in after.score[0, :t.P]]}")
    return out
