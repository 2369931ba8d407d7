"""Tull Au Toma, the solo automa (RR-V11..RR-V36, RR-A24..RR-A30, RR-A36): no decisions.

Everything here is a pure procedure of her cards, the priority letters, the Luna bonus card and
keyed random draws, vectorised over the games given (``g``: indices of games whose Au Toma acts).
The reference implementation of the kernel's Au Toma (kernel.py, ``engine.run_vectorised``);
``build_deck`` also deals her deck at setup.
"""
from __future__ import annotations

import numpy as np

from sim.core import rng
from sim.games.red_rising.program import (
    DF_BANISH, DF_HELIUM, DF_INFLUENCE, DF_PLACE, DF_SOVEREIGN, DIE, INFLUENCE, SOVEREIGN,
)
from sim.games.red_rising.state import (
    FACE_UNIT, LOC_UNIT, PILE_AUTOMA, PILE_DECK, UNIT, State, add, banish, pile_cards, pop_top, push_top,
    roll, to_hand,
)

JUPITER, MARS, LUNA, INSTITUTE = range(4)
SET_ASIDE = 4                        # cards set aside at every (re)build (RR-V3, RR-V14)


def shuffle_order(keys, n: int, counter) -> np.ndarray:
    """``rng.permutations(keys, n, counter)`` with a per-game counter (int[b, n])."""
    counter = np.asarray(counter, dtype=np.int64)
    offsets = np.arange(n, dtype=np.int64)[None, :] + counter[:, None] * n
    draws = rng.bits(np.asarray(keys, dtype=np.uint64)[:, None], offsets)
    return np.argsort(draws, axis=-1, kind="stable")


def build_deck(s: State, g):
    """Shuffle all Au Toma cards (shuffle number ``auto_shuffles``), set the top four aside."""
    n = s.auto_order.shape[1]
    s.auto_order[g] = shuffle_order(s.key_automa[g], n, s.auto_shuffles[g])
    s.auto_pos[g] = SET_ASIDE


def resolve_part(s: State, g, part):
    """Location of an Au Toma card part: a location symbol, or a priority letter (RR-V25, V26)."""
    part = part.astype(np.int64)
    letter = np.maximum(part - 4, 0)
    return np.where(part < 4, part, s.letter_loc[g, letter]).astype(np.int64)


def can_gain(s: State, g, a, loc):
    """Can Au Toma still gain the bonus of location ``loc`` (not Luna)? (RR-V28)"""
    cap = s.cap[g, a]
    room = (s.res[g, a] < cap) | (loc == LUNA)[:, None]
    return (room | (LOC_UNIT[loc] == 0)).all(axis=1)


def gain_plain(s: State, g, a, loc):
    """Au Toma gains the bonus of Jupiter / Mars / Institute (caller checked it can be gained)."""
    add(s, g, a, LOC_UNIT[loc])


def take_sovereign(s: State, g, a):
    """Au Toma takes or keeps the token; no house ability (RR-V31)."""
    s.changed[g] |= s.sovereign[g] != a
    s.sovereign[g] = a


def location_bonus(s: State, g, start, step):
    """The star bonus of location ``start`` with the arrow ``step`` (RR-V28..V30, RR-A24)."""
    a = s.automa[g]
    chosen = np.full(len(g), -1, dtype=np.int64)
    for i in range(4):                   # Luna always counts as obtainable in this search
        x = (start + i * step) % 4
        ok = (chosen < 0) & ((x == LUNA) | can_gain(s, g, a, x))
        chosen[ok] = x[ok]
    plain = chosen != LUNA
    if np.count_nonzero(plain):
        gain_plain(s, g[plain], a[plain], chosen[plain])
    luna = ~plain
    if np.count_nonzero(luna):
        gl, al, sl = g[luna], a[luna], step[luna]
        take_sovereign(s, gl, al)
        extra = s.luna_bonus[gl].astype(np.int64)
        found = np.full(len(gl), -1, dtype=np.int64)
        for i in range(4):               # the Luna bonus card's bonus; Luna itself is skipped
            x = (extra + i * sl) % 4
            ok = (found < 0) & (x != LUNA) & can_gain(s, gl, al, x)
            found[ok] = x[ok]
        got = found >= 0
        if np.count_nonzero(got):
            gain_plain(s, gl[got], al[got], found[got])


def turn(s: State, g):
    """Au Toma's whole turn: two cards, each deploy, gain, extra (RR-V13..V24)."""
    a = s.automa[g]
    n_cards = s.auto_order.shape[1]
    for _ in range(2):
        empty = s.auto_pos[g] >= n_cards          # RR-V13, RR-V14, RR-A26
        if np.count_nonzero(empty):
            s.auto_shuffles[g[empty]] += 1
            build_deck(s, g[empty])
        card = s.auto_order[g, s.auto_pos[g]].astype(np.int64)
        s.auto_pos[g] += 1
        p = s.prog
        deploy = resolve_part(s, g, p.auto_deploy[card])
        gain = resolve_part(s, g, p.auto_gain[card])
        step = p.auto_dir[card].astype(np.int64)
        extra = p.auto_extra[card]
        # deploy: the top card of the draw deck (RR-V17; empty deck: skipped, RR-A16)
        has = s.size[g, PILE_DECK] > 0
        if np.count_nonzero(has):
            gd = g[has]
            c = pop_top(s, gd, PILE_DECK)
            push_top(s, gd, deploy[has], c)
        # gain: the first non-empty location from the Gain part along the arrow (RR-V27, RR-A30)
        loc = np.full(len(g), -1, dtype=np.int64)
        for i in range(4):
            x = (gain + i * step) % 4
            ok = (loc < 0) & (s.size[g, x] > 0)
            loc[ok] = x[ok]
        found = loc >= 0
        if np.count_nonzero(found):
            gf = g[found]
            c = pop_top(s, gf, loc[found])
            to_hand(s, gf, a[found], c)
        star = found & (extra == 1)                # RR-V19
        if np.count_nonzero(star):
            location_bonus(s, g[star], loc[star], step[star])
        cross = (extra == 2) & (s.size[g, PILE_DECK] > 0)
        if np.count_nonzero(cross):
            gc = g[cross]
            banish(s, gc, pop_top(s, gc, PILE_DECK))


def gainable_bonuses(s: State, g, a):
    """bool[n, 7]: die bonuses (codes DF_*, 1..6) that would have an effect for Au Toma (RR-A36)."""
    ok = np.zeros((len(g), 7), dtype=bool)
    ok[:, DF_BANISH] = (s.size[g, :4] > 0).any(axis=1)
    ok[:, DF_PLACE] = s.size[g, PILE_DECK] > 0
    ok[:, DF_SOVEREIGN] = s.sovereign[g] != a
    cap = s.cap[g, a]
    ok[:, DF_HELIUM:DF_INFLUENCE + 1] = s.res[g, a] < cap
    return ok


def gainable_faces(s: State, g, a):
    """bool[n, 7]: die faces 1..6 whose bonus would have an effect for Au Toma (RR-V46, RR-A36)."""
    die = s.prog.die.astype(np.int64)
    ok = gainable_bonuses(s, g, a)[:, die]
    ok[:, 0] = False
    return ok


def free_die(s: State, g):
    """A free die bonus for Au Toma (RR-V46): re-roll until a face she can gain, then gain it."""
    a = s.automa[g]
    ok = gainable_faces(s, g, a)
    g, a, ok = g[ok.any(axis=1)], a[ok.any(axis=1)], ok[ok.any(axis=1)]
    face = np.zeros(len(g), dtype=np.int64)
    todo = np.arange(len(g))
    while todo.size:
        f = roll(s, g[todo])
        good = ok[todo, f]
        face[todo[good]] = f[good]
        todo = todo[~good]
    # banish: first non-empty location in priority order A..D; place: the A location
    bonus = s.prog.die[face].astype(np.int64)
    f1 = bonus == DF_BANISH
    if np.count_nonzero(f1):
        g1 = g[f1]
        order = s.letter_loc[g1].astype(np.int64)                # [n, 4] location of A..D
        nonempty = s.size[g1[:, None], order] > 0
        x = order[np.arange(len(g1)), np.argmax(nonempty, axis=1)]
        banish(s, g1, pop_top(s, g1, x))
    f2 = bonus == DF_PLACE
    if np.count_nonzero(f2):
        g2 = g[f2]
        push_top(s, g2, s.letter_loc[g2, 0].astype(np.int64), pop_top(s, g2, PILE_DECK))
    f3 = bonus == DF_SOVEREIGN
    if np.count_nonzero(f3):
        take_sovereign(s, g[f3], a[f3])
    plain = bonus >= DF_HELIUM
    if np.count_nonzero(plain):
        gp, fp = g[plain], bonus[plain]
        add(s, gp, a[plain], FACE_UNIT[fp])


def free_gain(s: State, g, res, amount):
    """A free gain offered by the player's ability: Au Toma always takes it (RR-V35, RR-A25)."""
    a = s.automa[g]
    plain = res <= INFLUENCE
    if np.count_nonzero(plain):
        gp, rp, am = g[plain], res[plain], amount[plain]
        add(s, gp, a[plain], UNIT[rp] * am[:, None])
    sov = res == SOVEREIGN
    if np.count_nonzero(sov):
        take_sovereign(s, g[sov], a[sov])
    die = res == DIE
    if np.count_nonzero(die):
        free_die(s, g[die])


def hand_top(s: State, g, count):
    """int16[n, K]: Au Toma's top cards (top first), ``count`` of them at most (RR-V47)."""
    k = s.f_seen.shape[2]
    cards = pile_cards(s, g, PILE_AUTOMA, k)
    cards[np.arange(k)[None, :] >= np.asarray(count)[:, None]] = -1
    return cards

