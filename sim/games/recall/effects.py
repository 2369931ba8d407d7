"""The Recall reward / effect language (RC-A2, RC-A63): text -> ``Effect`` and back.

An effect is items joined by ``+``; an item is one atom or alternatives joined by ``|``
(``|`` binds tighter than ``+``); ``-`` or empty text is no effect. Braces and parentheses
group, so ``BUY{R:1+W:1->3}`` is one atom. ``WMOVE+`` (improved water movement) is told apart
from a ``+`` between items by what follows it (an item separator, a ``|`` or the end).
The parser raises ``EffectError``; the loader adds the file and place.
"""
from __future__ import annotations

import re

from sim.games.recall.content_types import (
    ANY, CRYSTAL_CODES, KEY_COLOURS, NONE, TRACKS, Atom, Crystals, Effect,
)

MAX_N = 1000
NONE_TEXT = ("", "-")
COUNT_OPS = ("F", "FH", "VP", "PP", "KEACH", "UPC", "MOVE", "DEV")   # OP:n
PLAIN_OPS = ("KEYUP", "KEYBACK", "CHEST", "FREE", "ART_DISPLAY", "EXPLORE", "WMOVE", "COPY")
UNIT_OPS = ("MOVE", "DEV")
HELP = ("atoms: W:n R:n P:n F:n FH:n VP:n PP:n K:<white|grey|black|any>:n KEACH:n UPC:n "
        "KEY:<yellow|green|grey> KEYUP KEYBACK CHEST FREE ART_DISPLAY MOVE:n WMOVE WMOVE+ DEV:n "
        "EXPLORE PAYOPT{-:n, W:n, ...}(MOVE) UNITS:n(MOVE:1|DEV:1) BUY{<crystals>->n, ...} SELL:W "
        "COPY COPY(pay=<crystals>) COST:<crystal>:<n>-><atom>; items joined by '+', choices by '|'")
_IMPROVED = re.compile(r"WMOVE\+(?=\s*(\+|\||$|\)))")


class EffectError(ValueError):
    """A problem in an effect text (the caller adds file and place)."""


def _split(text: str, sep: str) -> list[str]:
    """``text`` split on ``sep`` outside braces and parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "{(":
            depth += 1
        elif ch in "})":
            depth -= 1
            if depth < 0:
                raise EffectError(f"unbalanced {ch!r} in {text!r}")
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if depth:
        raise EffectError(f"unclosed bracket in {text!r}")
    parts.append(text[start:])
    return parts


def _count(text: str, atom: str, lo: int = 1) -> int:
    try:
        value = int(text)
    except ValueError:
        raise EffectError(f"{atom!r}: expected an integer, got {text!r}") from None
    if not lo <= value <= MAX_N:
        raise EffectError(f"{atom!r}: expected an integer from {lo} to {MAX_N}, got {value}")
    return value


def parse_crystals(text: str, lo: int = 1) -> Crystals:
    """A crystal amount such as ``R:1 + W:1`` as (white, red, purple)."""
    amount = [0, 0, 0]
    for part in text.split("+"):
        code, colon, n = part.strip().partition(":")
        if code not in CRYSTAL_CODES or not colon:
            raise EffectError(f"{part.strip()!r}: expected a crystal amount W:n, R:n or P:n")
        amount[CRYSTAL_CODES.index(code)] += _count(n.strip(), part.strip(), lo)
    return tuple(amount)


def _braced(text: str, op: str) -> tuple[str, str]:
    """(inside the braces, the rest) of ``OP{...}rest``."""
    if not text.startswith(op + "{") or "}" not in text:
        raise EffectError(f"{text!r}: expected {op}{{...}}")
    close = text.index("}")
    return text[len(op) + 1:close], text[close + 1:].strip()


def parse_atom(text: str) -> Atom:
    """One atom of the language (see ``HELP``)."""
    t = text.strip()
    if not t:
        raise EffectError("empty atom (two '+' or '|' in a row, or one at an end)")
    if t == "WMOVE*":
        return Atom("WMOVE", 1)
    if t in PLAIN_OPS:
        return Atom(t)
    if t.startswith("PAYOPT{"):
        inside, rest = _braced(t, "PAYOPT")
        if not (rest.startswith("(") and rest.endswith(")")) or rest[1:-1].strip() not in UNIT_OPS:
            raise EffectError(f"{t!r}: expected PAYOPT{{...}}(MOVE) or PAYOPT{{...}}(DEV)")
        options = []
        for entry in inside.split(","):
            code, colon, n = entry.strip().partition(":")
            if code != "-" and code not in CRYSTAL_CODES or not colon:
                raise EffectError(f"{t!r}: option {entry.strip()!r}: expected -:n, W:n, R:n or P:n")
            kind = NONE if code == "-" else CRYSTAL_CODES.index(code)
            if any(k == kind for k, _ in options):
                raise EffectError(f"{t!r}: option {code} given twice")
            options.append((kind, _count(n.strip(), t)))
        return Atom("PAYOPT", options=tuple(options), what=(rest[1:-1].strip(),))
    if t.startswith("BUY{"):
        inside, rest = _braced(t, "BUY")
        if rest:
            raise EffectError(f"{t!r}: unexpected {rest!r} after BUY{{...}}")
        options = []
        for entry in inside.split(","):
            cost, arrow, n = entry.partition("->")
            if not arrow:
                raise EffectError(f"{t!r}: option {entry.strip()!r}: expected <crystals>->followers")
            options.append((parse_crystals(cost), _count(n.strip(), t)))
        return Atom("BUY", options=tuple(options))
    if t.startswith("COPY("):
        m = re.fullmatch(r"COPY\(\s*pay\s*=\s*(.+)\)", t)
        if not m:
            raise EffectError(f"{t!r}: expected COPY or COPY(pay=<crystals>)")
        return Atom("COPY", cost=parse_crystals(m.group(1)))
    if t.startswith("UNITS:"):
        m = re.fullmatch(r"UNITS:(\d+)\((.*)\)", t)
        if not m:
            raise EffectError(f"{t!r}: expected UNITS:n(MOVE:1|DEV:1)")
        what = []
        for alt in m.group(2).split("|"):
            if alt.strip() not in ("MOVE:1", "DEV:1"):
                raise EffectError(f"{t!r}: a unit is MOVE:1 or DEV:1, got {alt.strip()!r}")
            what.append(alt.strip().split(":")[0])
        return Atom("UNITS", n=_count(m.group(1), t), what=tuple(what))
    if t.startswith("COST:"):
        cost, arrow, inner = t[len("COST:"):].partition("->")
        if not arrow:
            raise EffectError(f"{t!r}: expected COST:<crystal>:<n>-><atom>")
        return Atom("COST", cost=parse_crystals(cost), inner=((parse_atom(inner),),))
    op, _, args = t.partition(":")
    parts = args.split(":") if args else []
    if op in CRYSTAL_CODES and len(parts) == 1:
        return Atom("CRYSTAL", CRYSTAL_CODES.index(op), _count(parts[0], t))
    if op in COUNT_OPS and len(parts) == 1:
        return Atom(op, 0, _count(parts[0], t))
    if op == "K" and len(parts) == 2:
        if parts[0] != "any" and parts[0] not in TRACKS:
            raise EffectError(f"{t!r}: unknown track {parts[0]!r}; expected white, grey, black or any")
        return Atom("K", ANY if parts[0] == "any" else TRACKS.index(parts[0]), _count(parts[1], t))
    if op == "KEY" and len(parts) == 1:
        if parts[0] not in KEY_COLOURS[1:]:
            raise EffectError(f"{t!r}: unknown key colour {parts[0]!r}; expected yellow, green or grey")
        return Atom("KEY", KEY_COLOURS.index(parts[0]))
    if op == "SELL" and len(parts) == 1 and parts[0] in CRYSTAL_CODES:
        return Atom("SELL", CRYSTAL_CODES.index(parts[0]))
    raise EffectError(f"unknown atom {t!r}")


def parse_effect(text: str) -> Effect:
    """An effect text as a tuple of items, each a tuple of alternative atoms."""
    text = _IMPROVED.sub("WMOVE*", text.strip())
    if text in NONE_TEXT:
        return ()
    return tuple(tuple(parse_atom(alt) for alt in _split(item, "|")) for item in _split(text, "+"))


def format_crystals(c: Crystals) -> str:
    return " + ".join(f"{code}:{n}" for code, n in zip(("P", "R", "W"), (c[2], c[1], c[0])) if n) or "-"


def format_atom(a: Atom) -> str:
    """The text of one atom (``parse_atom(format_atom(a)) == a``)."""
    if a.op == "CRYSTAL":
        return f"{CRYSTAL_CODES[a.arg]}:{a.n}"
    if a.op in COUNT_OPS:
        return f"{a.op}:{a.n}"
    if a.op == "K":
        return f"K:{'any' if a.arg == ANY else TRACKS[a.arg]}:{a.n}"
    if a.op == "KEY":
        return f"KEY:{KEY_COLOURS[a.arg]}"
    if a.op == "WMOVE":
        return "WMOVE+" if a.arg else "WMOVE"
    if a.op == "SELL":
        return f"SELL:{CRYSTAL_CODES[a.arg]}"
    if a.op == "COPY":
        return f"COPY(pay={format_crystals(a.cost)})" if any(a.cost) else "COPY"
    if a.op == "PAYOPT":
        opts = ", ".join(f"{'-' if k == NONE else CRYSTAL_CODES[k]}:{n}" for k, n in a.options)
        return f"PAYOPT{{{opts}}}({a.what[0]})"
    if a.op == "BUY":
        return "BUY{" + ", ".join(f"{format_crystals(c).replace(' ', '')}->{n}" for c, n in a.options) + "}"
    if a.op == "UNITS":
        return f"UNITS:{a.n}(" + "|".join(f"{w}:1" for w in a.what) + ")"
    if a.op == "COST":
        return f"COST:{format_crystals(a.cost)}->{format_atom(a.inner[0][0])}"
    return a.op


def format_effect(effect: Effect) -> str:
    return " + ".join(" | ".join(format_atom(a) for a in item) for item in effect) or "-"
