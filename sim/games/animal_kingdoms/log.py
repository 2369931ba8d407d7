"""Readable log lines of one step (a decision and everything it set off), for ``python -m sim replay``.

``describe(before, after, action)`` gets two batch-of-one states: the decision is named from
``before``; the automatic consequences (robot plays, retreats, first-retreat tiles, scoring,
battles, new ages) are read from the differences to ``after``.
"""
from __future__ import annotations

import numpy as np

from sim.games.animal_kingdoms.state import BCARD, BMOD, COUNCIL, DONE, TURN

AGE_NAMES = ("I", "II", "III")


def _card(t, c) -> str:
    return t.content.cards[int(c)].name if int(c) < t.N else "-"


def _who(t, p) -> str:
    return "robot" if p == t.robot else f"seat {p}"


def describe(before, after, action: int) -> list[str]:
    t = before.t
    kids = [k.id for k in t.content.kingdoms]
    phase, p = int(before.phase[0]), int(before.dec[0])
    age = int(before.age[0])
    head = f"Age {AGE_NAMES[min(age, 2)]}, turn {int(before.turns[0])}: {_who(t, p)}"
    lines = []
    if phase == TURN:
        hand = before.hand[0, p]
        if action < t.A_RALLY:
            slot, k = divmod(action, t.K)
            lines.append(f"{head} claims in {kids[k]} with {_card(t, hand[slot])}")
        elif action < t.A_RETREAT:
            bits = t.rally_bits[action - t.A_RALLY]
            gone = ", ".join(_card(t, c) for c in hand[bits])
            lines.append(f"{head} rallies (+{t.config.rally_points}), discarding {gone}")
        else:
            lines.append(f"{head} retreats")
    elif phase == BCARD:
        k = kids[int(t.order[int(before.sj[0])])]
        lines.append(f"{head} picks {_card(t, before.hand[0, p, action - t.A_BATTLE])} for the battle in {k} (secret)")
    elif phase == BMOD:
        lines.append(f"{head} uses {action - t.A_MODS} modifier(s) (secret)")
    elif phase == COUNCIL:
        k = kids[int(t.order[int(before.ck[0])])]
        verb = "moves its capital marker of" if action == t.A_YES else "keeps its capital marker in"
        lines.append(f"{head} {verb} {k}" + (" to the council" if action == t.A_YES else ""))
    lines += _consequences(before, after, kids, action)
    return lines


def _consequences(before, after, kids, action) -> list[str]:
    t = before.t
    out = []
    same_age = int(after.age[0]) == int(before.age[0])
    if same_age:
        if t.robot >= 0 and int(after.st_claims[0, t.robot]) > int(before.st_claims[0, t.robot]):
            new = [f"{_card(t, after.col[0, k, i])} under {kids[k]}" for k in range(t.K)
                   for i in range(int(before.clen[0, k]), int(after.clen[0, k]))]
            plays = int(after.st_claims[0, t.robot]) - int(before.st_claims[0, t.robot])
            out.append(f"  robot plays {plays} card(s); new cards: {', '.join(new)}")
        played = [c for c in before.bonus[0] if c < t.N and c not in after.bonus[0]]
        if played:                          # robot_bonus_effect = play_bonus_card (AK-V14)
            fresh = [c for c in after.bonus[0] if c < t.N and c not in before.bonus[0]]
            out.append(f"  robot played its bonus card {', '.join(_card(t, c) for c in played)}; "
                       f"new bonus card {', '.join(_card(t, c) for c in fresh) or '-'}")
        for k in range(t.K):
            if int(before.cap[0, k]) < 0 <= int(after.cap[0, k]):
                out.append(f"  {_who(t, int(after.cap[0, k]))} takes the capital of {kids[k]}")
        chose_retreat = int(before.phase[0]) == TURN and action == t.A_RETREAT
        for p in range(t.P):
            if before.active[0, p] and not after.active[0, p] and not (chose_retreat and p == int(before.dec[0])):
                out.append(f"  {_who(t, p)} retreats")
        for a in range(3):
            if int(before.rt_owner[0, a]) < 0 <= int(after.rt_owner[0, a]):
                out.append(f"  {_who(t, int(after.rt_owner[0, a]))} takes a first-retreat tile (secret)")
    gains = []
    for name, label in (("pf", "first places"), ("ps", "second places"), ("pt", "third places"), ("pr", "rally")):
        diff = getattr(after, name)[0].astype(np.int64) - getattr(before, name)[0]
        for p in np.nonzero(diff)[0]:
            gains.append(f"{_who(t, int(p))} +{int(diff[p])} ({label})")
    if gains and not (len(gains) == 1 and "(rally)" in gains[0]):
        out.append("  scoring: " + "; ".join(gains))
    mods = after.mods[0].astype(np.int64) - before.mods[0]
    for p in np.nonzero(mods)[0]:
        out.append(f"  {_who(t, int(p))} modifiers {int(before.mods[0, p])} -> {int(after.mods[0, p])}")
    battles = int(after.battles[0]) - int(before.battles[0])
    if battles > 0:
        out.append(f"  {battles} battle(s) begin")
    if not same_age and int(after.phase[0]) != DONE:
        out.append(f"  Age {AGE_NAMES[int(after.age[0])]} begins: {_who(t, int(after.age_start[0]))} starts; "
                   f"decrees {', '.join(t.content.decrees[int(d)].id for d in after.decree[0])}")
    if int(after.phase[0]) == DONE and int(before.phase[0]) != DONE:
        track = (after.pf[0] + after.ps[0] + after.pt[0] + after.pr[0]).tolist()
        out.append(f"  game over; track {track}")
    return out
