"""Final scoring of Red Rising (RR-E9..RR-E19, Au Toma RR-V37..RR-V43), vectorised over games.

``score_final`` runs once at the end of every simulated game, so everything that depends only
on the content (colours, core values, end-bonus terms, filter matches, wildcard options) is
turned into numpy tables once per ``Content`` (``scoring_tables``) and the per-batch work is a
handful of array operations. Loops run over players, wildcard slots and term kinds, never over
games.

Card points (RR-E9) of a player are the core values of the hand plus the end-bonus terms of
the hand cards (RR-R55..RR-R59, RR-V48). Terms that look at the hand count the *other* hand
cards (RR-R41): for a term of card ``c`` with filter ``f`` the count is "hand cards matching
``f``" minus "does ``c`` itself match ``f``". Wildcards (RR-R51..RR-R54, RR-A19) only change
how hand cards match filters; each hand's wildcards take the assignment of choices that
maximises the owner's card points (``_fix_wildcards``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core.memo import per_object
from sim.games.red_rising import zones
from sim.games.red_rising.content_types import Card, Content, Filter

# End-bonus kinds as codes. The first three count the other hand cards (wildcards matter);
# the next two count printed cards on the board / in the banished pile; the last two compare
# hand sizes.
FOR_EACH, IF_WITH, IF_WITH_NO, ON_LOCATIONS, BANISHED, HAND_MORE, HAND_FEWER = range(7)
_KIND = {"for_each": FOR_EACH, "if_with": IF_WITH, "if_with_no": IF_WITH_NO,
         "for_each_on_locations": ON_LOCATIONS, "for_each_banished": BANISHED}
_COMPARE = {"more_than_each_opponent": HAND_MORE, "fewer_than_each_opponent": HAND_FEWER}
_HAND_KINDS = (FOR_EACH, IF_WITH, IF_WITH_NO)

COMPONENTS = ("score_cards", "score_fleet", "score_helium", "score_sovereign", "score_influence",
              "score_hand_penalty", "score_automa_base")
RESULT_KEYS = COMPONENTS + ("score",)
_SEARCH_CHUNK = 1 << 14              # wildcard assignments evaluated at once by ``_search_hand``
_JOINT_OPTIONS = 16                  # slots with more options (names) are searched hand by hand
INFLUENCE_RATES = (4, 2, 1)          # per cube for first, second, any other place (RR-E13)


def matches(filt: Filter, card: Card, colours=None, names=None) -> bool:
    """Does ``card`` match ``filt`` (RR-A2)? ``colours``/``names`` are the sets the card counts as.

    By default a card counts only as its printed colour and name. A grey card fixed to colour X
    counts as both Grey and X, an orange card fixed to name N as both its printed name and N
    (RR-R51, RR-R54): ``colour`` / ``name`` need one of the set, ``not_colour`` none of it.
    """
    colours = {card.colour} if colours is None else colours
    names = {card.name} if names is None else names
    if filt.colour is not None and not colours & set(filt.colour):
        return False
    if filt.not_colour is not None and colours & set(filt.not_colour):
        return False
    if filt.name is not None and not names & set(filt.name):
        return False
    if filt.parity is not None and (card.core % 2 == 0) != (filt.parity == "even"):   # RR-R66
        return False
    if filt.core_min is not None and card.core < filt.core_min:
        return False
    if filt.core_max is not None and card.core > filt.core_max:
        return False
    return True


@dataclass(frozen=True)
class WildcardSlot:
    """One wildcard choice to fix at scoring: a grey card's colour or an orange card's name.

    ``options[0]`` is "declined" (printed colour/name only); ``delta[y, x, f]`` is how option
    ``x`` changes whether the card matches filter ``f`` (-1, 0 or +1). ``y`` is the name already
    fixed for the same card (``after`` = that name slot) when a card has both wildcards, since a
    filter may ask for a colour and a name together; otherwise there is one ``y``. Options that
    never change anything are left out: they tie with declining, which comes first (RR-A19).
    """

    card: int
    kind: str                      # "colour" | "name"
    options: tuple[str, ...]       # option labels; options[0] == "" (declined)
    after: int                     # index of this card's name slot, or -1
    delta: np.ndarray              # int32[Y, X, F]
    shift: np.ndarray              # int32[Y, T, X]: change of term t's count of *other* matching cards
    touched: np.ndarray            # bool[T]: hand-counting terms some option changes


@dataclass(frozen=True)
class ScoringTables:
    """Per-content lookup arrays for ``score_final`` (built once by ``scoring_tables``).

    Terms are stored card by card: the terms of card ``c`` are ``card_terms[c]:card_terms[c+1]``.
    """

    core: np.ndarray               # int32[C]
    odd: np.ndarray                # int8[C]: core value is odd (RR-V40, 0 is even)
    match: np.ndarray              # float32[C, F]: printed card c matches filter f
    card_terms: np.ndarray         # int[C + 1]
    term_card: np.ndarray          # int[T]: card carrying end-bonus term t
    term_kind: np.ndarray          # int[T]: FOR_EACH ... HAND_FEWER
    term_points: np.ndarray        # int32[T]
    term_filter: np.ndarray        # int[T]: filter index (0 for hand comparisons; unused there)
    self_match: np.ndarray         # int32[T]: the term's own card matches its filter (printed)
    wildcards: tuple[WildcardSlot, ...]


@per_object
def scoring_tables(content: Content) -> ScoringTables:
    """The lookup arrays of ``content``, built on first use and cached per content object."""
    return _build_tables(content)


def _build_tables(content: Content) -> ScoringTables:
    cards = content.cards
    filters: dict[Filter, int] = {Filter(): 0}
    rows = []                                  # (card, kind, points, filter index)
    for card in cards:
        for term in card.end_bonus:
            if term.kind == "hand_compare":
                kind, f = _COMPARE[term.compare], 0
            else:
                kind, f = _KIND[term.kind], filters.setdefault(term.filter, len(filters))
            rows.append((card.index, kind, term.points, f))
    filter_list = list(filters)
    match = np.array([[matches(f, c) for f in filter_list] for c in cards], dtype=np.float32)
    match = match.reshape(len(cards), len(filter_list))
    term = np.array(rows, dtype=np.int64).reshape(-1, 4)
    term_card, term_kind, term_points, term_filter = term.T
    card_terms = np.searchsorted(term_card, np.arange(len(cards) + 1))
    hand_filters = sorted({f for _, k, _, f in rows if k in _HAND_KINDS})
    slots = _wildcard_slots(content, filter_list, match, hand_filters, term_card, term_kind, term_filter)
    return ScoringTables(
        core=np.array([c.core for c in cards], dtype=np.int32),
        odd=np.array([c.core % 2 for c in cards], dtype=np.int8),
        match=match, card_terms=card_terms,
        term_card=term_card, term_kind=term_kind, term_points=term_points.astype(np.int32),
        term_filter=term_filter, self_match=match[term_card, term_filter].astype(np.int32),
        wildcards=slots,
    )


def _wildcard_slots(content, filter_list, match, hand_filters, term_card, term_kind, term_filter):
    """Wildcard slots in card-index order (a card with both flags: name first, then colour).

    Candidate order (ties go to the first best): colours in ``meta.colours`` order, names in
    card-index order of their first card; the card's own colour/name is not a candidate.
    Only filters of hand-counting terms matter, since wildcards apply to the owner's hand.
    """
    names = list(dict.fromkeys(c.name for c in content.cards))
    hand_mask = np.zeros(len(filter_list), dtype=bool)
    hand_mask[hand_filters] = True
    hand_term = np.isin(term_kind, _HAND_KINDS)

    def slot(card, kind, candidates, counts_as, after, fixed_names):
        """Keep the candidates that change some hand filter for some already fixed name."""
        def row(colours, card_names):
            return np.array([matches(f, card, colours, card_names) for f in filter_list], dtype=np.int32)
        bases = [row({card.colour}, n) for n in fixed_names]
        rows = [[(row(*counts_as(cand, n)) - base) * hand_mask for n, base in zip(fixed_names, bases)]
                for cand in candidates]
        kept = [(cand, r) for cand, r in zip(candidates, rows) if any(x.any() for x in r)]
        if not kept:
            return None                                  # no choice can change any score
        zero = np.zeros((len(fixed_names), 1, len(filter_list)), dtype=np.int32)
        delta = np.concatenate([zero, np.stack([np.stack(r) for _, r in kept], axis=1)], axis=1)
        # A card's own terms count the *other* cards: its own choice does not change them.
        shift = delta[:, :, term_filter] * ((term_card != card.index) & hand_term)
        shift = np.ascontiguousarray(shift.transpose(0, 2, 1))
        return WildcardSlot(card.index, kind, ("",) + tuple(c for c, _ in kept), after, delta, shift,
                            shift.any(axis=(0, 2)))

    slots = []
    for card in content.cards:
        fixed_names = [{card.name}]
        after = -1
        if card.name_wildcard:
            named = slot(card, "name", [n for n in names if n != card.name],
                         lambda n, _, c=card: ({c.colour}, {c.name, n}), -1, fixed_names)
            if named is not None:
                after = len(slots)
                slots.append(named)
                fixed_names = [{card.name}] + [{card.name, n} for n in named.options[1:]]
        if card.colour_wildcard:
            coloured = slot(card, "colour", [x for x in content.colours if x != card.colour],
                            lambda x, card_names, c=card: ({c.colour, x}, card_names), after, fixed_names)
            if coloured is not None:
                slots.append(coloured)
    return tuple(slots)


# ----------------------------------------------------------------------------------------
# Card points


@dataclass(frozen=True)
class _HeldTerms:
    """Every end-bonus term in a hand: one entry per (game, seat, term), sparse.

    Hands are small next to the deck, so scoring walks these entries instead of a dense
    [B, P, T] array.
    """

    game: np.ndarray
    seat: np.ndarray
    term: np.ndarray


def _held_terms(t: ScoringTables, where, seats: int) -> _HeldTerms:
    game, card = np.nonzero((where >= zones.HAND0) & (where < zones.HAND0 + seats))
    seat = where[game, card] - zones.HAND0
    first, count = t.card_terms[card], t.card_terms[card + 1] - t.card_terms[card]
    entry = np.repeat(np.arange(card.size), count)
    offset = np.arange(entry.size) - np.repeat(np.cumsum(count) - count, count)
    return _HeldTerms(game[entry], seat[entry].astype(np.int64), first[entry] + offset)


def _term_values(kind, points, count):
    """Value of hand-counting terms given the number of matching *other* hand cards."""
    return np.where(kind == FOR_EACH, points * count,
                    np.where(kind == IF_WITH, points * (count > 0),
                             np.where(kind == IF_WITH_NO, points * (count == 0), 0)))


def _fix_wildcards(t: ScoringTables, hand, held: _HeldTerms, counts, self_match, owner_ok, pinned=None):
    """Fix every wildcard in a player's hand to the assignment that maximises the owner's card
    points (RR-A19, docs/red_rising_model.md C13).

    A hand with one wildcard choice takes its best option (vectorised over games); hands with two
    or three search every combination at once (``_search_joint``, vectorised over hands); the
    rare others (more wildcards, a card with both, many name options, pinned choices) one by one
    (``_search_hand``, options with the same effect on the hand merged). Ties go to the first
    best assignment in slot order, declining first. ``pinned`` int[B, slots] (-1 = free) fixes a
    slot's option (position files). ``counts`` [B, P, F] (matching hand cards) and
    ``self_match`` [B, T] are updated in place. Returns the chosen option per game and slot
    (0 = declined / not held by a player).
    """
    batch, seats = hand.shape[:2]
    choice = np.zeros((batch, len(t.wildcards)), dtype=np.int16)
    games = np.arange(batch)
    owner = np.zeros((batch, len(t.wildcards)), dtype=np.int64)
    active = np.zeros((batch, len(t.wildcards)), dtype=bool)
    for s, slot in enumerate(t.wildcards):
        owner[:, s] = np.argmax(hand[:, :, slot.card], axis=1)
        active[:, s] = hand[games, owner[:, s], slot.card] & owner_ok[games, owner[:, s]]
    per_hand = np.zeros((batch, seats), dtype=np.int64)
    np.add.at(per_hand, (np.nonzero(active)[0], owner[active]), 1)
    several = per_hand[games[:, None], owner] >= 2                                        # [B, slots]
    for s, slot in enumerate(t.wildcards):
        g = np.nonzero(active[:, s] & ~several[:, s])[0]
        if g.size:
            best = _best_single(t, slot, s, g, owner[g, s], choice, held, counts, self_match)
            if pinned is not None:
                best = np.where(pinned[g, s] >= 0, pinned[g, s], best)
            _apply(t, slot, g, owner[g, s], best, choice[g, slot.after] if slot.after >= 0 else 0,
                   counts, self_match)
            choice[g, s] = best
    hb, hp = np.nonzero(per_hand >= 2)
    # Hands of 2 or 3 independent slots with few options, nothing pinned: all combinations at once.
    slot_ok = np.array([s.after < 0 and len(s.options) <= _JOINT_OPTIONS for s in t.wildcards], dtype=bool)
    slot_ok &= ~np.isin(np.arange(len(t.wildcards)), [s.after for s in t.wildcards])
    mine = active[hb] & (owner[hb] == hp[:, None])                                         # [H, slots]
    joint = (mine & ~slot_ok).sum(axis=1) == 0
    if pinned is not None:
        joint &= ((pinned[hb] >= 0) & mine).sum(axis=1) == 0
    for k in (2, 3):
        h = np.nonzero(joint & (per_hand[hb, hp] == k))[0]
        if h.size:
            slots = np.nonzero(mine[h])[1].reshape(len(h), k)                            # ascending: slot order
            best = _search_joint(t, slots, hb[h], hp[h], held, counts, self_match)
            for j in range(k):
                for s in np.unique(slots[:, j]):
                    r = np.nonzero(slots[:, j] == s)[0]
                    _apply(t, t.wildcards[s], hb[h[r]], hp[h[r]], best[r, j], 0, counts, self_match)
                    choice[hb[h[r]], s] = best[r, j]
    for b, p in zip(hb[~joint | (per_hand[hb, hp] > 3)], hp[~joint | (per_hand[hb, hp] > 3)]):
        slots = [s for s in range(len(t.wildcards)) if active[b, s] and owner[b, s] == p]
        best = _search_hand(t, slots, b, p, held, counts, self_match,
                            None if pinned is None else pinned[b])
        for s, x in zip(slots, best):                   # slot order: a name before its card's colour
            slot = t.wildcards[s]
            _apply(t, slot, np.array([b]), np.array([p]), np.array([x]),
                   choice[b, slot.after] if slot.after >= 0 else 0, counts, self_match)
            choice[b, s] = x
    return choice


def _search_joint(t: ScoringTables, slots, b, p, held: _HeldTerms, counts, self_match):
    """The first best assignment of the k wildcard slots of each hand ``(b[h], p[h])``, all hands
    and all combinations at once (slots without a name slot before them, at most
    ``_JOINT_OPTIONS`` options each; missing options of smaller slots score like declining and
    come later, so they never win). Only the terms some slot of the hand changes are evaluated
    (the others add the same to every combination). Returns int[H, k] option indices."""
    n, k = slots.shape
    used = np.unique(slots)
    x = max(len(t.wildcards[s].options) for s in used)
    shift = np.zeros((len(t.wildcards), len(t.term_card), x), dtype=np.int32)            # [slot, T, X]
    touched = np.zeros((len(t.wildcards), len(t.term_card)), dtype=bool)
    for s in used:
        shift[s, :, :len(t.wildcards[s].options)] = t.wildcards[s].shift[0]
        touched[s] = t.wildcards[s].touched
    hand_of = np.full((int(b.max()) + 1, int(p.max()) + 1), -1, dtype=np.int64)
    hand_of[b, p] = np.arange(n)
    e = np.nonzero((held.game <= b.max()) & (held.seat <= p.max()))[0]
    h = hand_of[held.game[e], held.seat[e]]
    e, h = e[h >= 0], h[h >= 0]
    keep = touched[slots[h], held.term[e][:, None]].any(axis=1)
    order = np.argsort(h[keep], kind="stable")
    e, h = e[keep][order], h[keep][order]
    best = np.zeros((n, k), dtype=np.int64)
    per = max(1, _SEARCH_CHUNK * 4 // x ** k)                                       # hands per chunk
    bounds = np.searchsorted(h, np.arange(0, n + per, per))
    for lo, hi in zip(bounds[:-1], bounds[1:]):      # chunks of whole hands: memory stays bounded
        if lo == hi:
            continue
        ec, hc = e[lo:hi], h[lo:hi]
        term = held.term[ec]
        other = counts[held.game[ec], held.seat[ec], t.term_filter[term]] - self_match[held.game[ec], term]
        total = other.reshape((-1,) + (1,) * k).astype(np.int32)
        for j in range(k):
            view = [1] * k
            view[j] = x
            total = total + shift[slots[hc, j], term].reshape((len(ec),) + tuple(view))
        kind = t.term_kind[term].reshape((-1,) + (1,) * k)
        value = np.where(kind == FOR_EACH, total, np.where(kind == IF_WITH, total > 0, total == 0))
        value = (value * t.term_points[term].reshape((-1,) + (1,) * k)).reshape(len(ec), -1)
        first = np.flatnonzero(np.r_[True, hc[1:] != hc[:-1]])
        sums = np.add.reduceat(value, first, axis=0)
        best[hc[first]] = np.stack(np.unravel_index(np.argmax(sums, axis=1), (x,) * k), axis=1)
    return best


def _hand_terms(t: ScoringTables, held: _HeldTerms, b, p, counts, self_match):
    """The held terms of the hand(s) ``(b, p)`` and their count of matching other hand cards."""
    term = held.term[(held.game == b) & (held.seat == p)]
    return term, counts[b, p, t.term_filter[term]] - self_match[b, term]


def _best_single(t, slot, s, g, owner, choice, held, counts, self_match):
    """The first best option of ``slot`` for the hands of games ``g`` (their only choice, or the
    colour after the name already fixed for the same card)."""
    fixed = choice[:, slot.after] if slot.after >= 0 else np.zeros(len(choice), dtype=np.int16)
    on = np.zeros(len(choice), dtype=bool)
    on[g] = True
    who = np.zeros(len(choice), dtype=np.int64)
    who[g] = owner
    e = np.nonzero(on[held.game] & (held.seat == who[held.game]) & slot.touched[held.term])[0]
    b, p, term = held.game[e], held.seat[e], held.term[e]
    other = counts[b, p, t.term_filter[term]] - self_match[b, term]
    value = _term_values(t.term_kind[term, None], t.term_points[term, None],
                         other[:, None] + slot.shift[fixed[b], term])                      # [E, X]
    gain = np.zeros((len(choice), len(slot.options)), dtype=np.int64)
    np.add.at(gain, b, value)
    return np.argmax(gain[g], axis=1)                                                      # first best


def _apply(t, slot, g, owner, x, fixed, counts, self_match):
    """Record option ``x`` of ``slot`` in the matching counts of the owners' hands."""
    delta = slot.delta[fixed, x]                                                           # [n, F]
    counts[g, owner] += delta
    own = np.arange(t.card_terms[slot.card], t.card_terms[slot.card + 1])
    self_match[g[:, None], own[None, :]] += delta[:, t.term_filter[own]]


def _search_hand(t, slots, b, p, held, counts, self_match, pinned):
    """The first best assignment of several wildcard slots of one hand (every combination).

    Options of a slot that change the hand's terms alike are merged into the first of them (a
    card's name slot, on which its colour slot depends, keeps all its options), so the search
    runs over the options that make a difference to this hand.
    """
    term, other = _hand_terms(t, held, b, p, counts, self_match)
    kind, points = t.term_kind[term], t.term_points[term]
    options = []
    for s in slots:
        slot = t.wildcards[s]
        if pinned is not None and pinned[s] >= 0:
            options.append([int(pinned[s])])
            continue
        keep, seen = [], set()
        named = any(t.wildcards[r].after == s for r in slots)
        for x in range(len(slot.options)):
            effect = slot.shift[:, term, x].tobytes()
            if named or effect not in seen:
                seen.add(effect)
                keep.append(x)
        options.append(keep)
    shape = tuple(len(o) for o in options)
    choices = [np.asarray(o, dtype=np.int64) for o in options]
    best, best_value = None, None
    for start in range(0, int(np.prod(shape)), _SEARCH_CHUNK):       # combinations in lexicographic order
        index = np.unravel_index(np.arange(start, min(start + _SEARCH_CHUNK, int(np.prod(shape)))), shape)
        grid = np.stack([c[i] for c, i in zip(choices, index)], axis=1)                   # [N, slots]
        total = np.zeros((len(grid), len(term)), dtype=np.int64)
        for j, s in enumerate(slots):
            slot = t.wildcards[s]
            fixed = grid[:, slots.index(slot.after)] if slot.after >= 0 else np.zeros(len(grid), dtype=np.int64)
            total += slot.shift[fixed[:, None], term[None, :], grid[:, j, None]]
        value = _term_values(kind[None, :], points[None, :], other[None, :] + total).sum(axis=1)
        k = int(np.argmax(value))
        if best_value is None or value[k] > best_value:
            best, best_value = grid[k], value[k]
    return best


def _player_card_points(t: ScoringTables, where, hand, sizes, is_automa, pinned=None):
    """Card points of every seat as a player (RR-E9): core values plus end bonuses.

    Au Toma's row is computed too but replaced by ``_automa_card_points``; her cards never
    take wildcard choices and never count for anyone's hand terms (RR-A27).
    ``pinned``: per game, choices fixed in advance ({card index: {"name" | "colour": choice}}).
    Returns the points [B, P] and the wildcard choices [B, slots].
    """
    batch, seats = sizes.shape
    handf = hand.astype(np.float32)
    counts = np.rint(handf @ t.match).astype(np.int32)                                    # [B, P, F]
    self_match = np.broadcast_to(t.self_match, (batch, t.self_match.size)).copy()
    held = _held_terms(t, where, seats)
    choice = _fix_wildcards(t, hand, held, counts, self_match, ~is_automa, _pins(t, pinned, batch))

    b, p, term = held.game, held.seat, held.term
    kind, pts, f = t.term_kind[term], t.term_points[term], t.term_filter[term]
    value = _term_values(kind, pts, counts[b, p, f] - self_match[b, term])
    on_board = np.rint((where <= zones.INSTITUTE).astype(np.float32) @ t.match).astype(np.int32)  # [B, F]
    banished = np.rint((where == zones.BANISHED).astype(np.float32) @ t.match).astype(np.int32)
    value = np.where(kind == ON_LOCATIONS, pts * on_board[b, f], value)
    value = np.where(kind == BANISHED, pts * banished[b, f], value)
    # RR-V48: Au Toma's hand counts as a third of its size (rounded down, before RR-V41).
    compared = np.where(is_automa, sizes // 3, sizes)
    more = sizes > _others(compared, np.max, -1)
    fewer = sizes < _others(compared, np.min, 1 << 30)
    value = np.where(kind == HAND_MORE, pts * more[b, p], value)
    value = np.where(kind == HAND_FEWER, pts * fewer[b, p], value)
    bonus = np.bincount(b * seats + p, weights=value, minlength=batch * seats).reshape(batch, seats)
    core = np.rint(handf @ t.core.astype(np.float32))
    return np.rint(core + bonus).astype(np.int32), choice


def _pins(t: ScoringTables, pinned, batch: int):
    """int[B, slots]: the option index each pinned choice fixes (-1 = free); None if nothing is pinned.

    A pinned choice that changes no end bonus of the content has no slot option: it scores like
    declining (option 0).
    """
    if not pinned or not any(pinned):
        return None
    out = np.full((batch, len(t.wildcards)), -1, dtype=np.int64)
    for g, pins in enumerate(pinned):
        for s, slot in enumerate(t.wildcards):
            label = pins.get(slot.card, {}).get(slot.kind)
            if label is not None:
                out[g, s] = slot.options.index(label) if label in slot.options else 0
    return out


def _others(values, reduce, fill):
    """``reduce`` over the other seats' values, per seat: [B, P] -> [B, P]."""
    p = values.shape[1]
    eye = np.eye(p, dtype=bool)
    grid = np.where(eye[None], fill, values[:, None, :])
    return reduce(grid, axis=2)


def _automa_card_points(content, config, hand, sizes, parity):
    """Au Toma's card points (RR-V40..RR-V43): matching/non-matching cards after RR-V41."""
    level = content.automa_levels[config.automa_level]
    odd = scoring_tables(content).odd
    matching = (hand & (odd[None, None, :] == parity[:, None, None])).sum(axis=2)
    other = sizes - matching
    excess = np.maximum(sizes - content.automa_hand_limit, 0)
    drop_other = np.minimum(other, excess)
    drop_matching = excess - drop_other
    return (level.matching * (matching - drop_matching) + level.non_matching * (other - drop_other),
            level.start_points)


# ----------------------------------------------------------------------------------------
# Influence and ranking


def influence_points(cubes, tie_mode: str, neutral_cubes: int | None):
    """Influence (RR-E13..RR-E15, RR-A11): 4/2/1 per cube by place among the cube counts.

    ``neutral_cubes`` (2-seat games, RR-S14) adds a neutral entry that takes a place but
    scores nothing. ``dense``: place = number of distinct higher counts; ``competition``:
    number of entries with a higher count.
    """
    cubes = np.asarray(cubes)
    entries = cubes
    if neutral_cubes is not None:
        entries = np.concatenate([cubes, np.full((cubes.shape[0], 1), neutral_cubes, cubes.dtype)], axis=1)
    higher = entries[:, None, :] > entries[:, :, None]                                   # [B, i, j]: j > i
    if tie_mode == "dense":
        n = entries.shape[1]
        earlier = np.tri(n, k=-1, dtype=bool)                                             # [j, k]: k < j
        first = ~((entries[:, :, None] == entries[:, None, :]) & earlier[None]).any(axis=2)  # j's value is new
        place = (higher & first[:, None, :]).sum(axis=2)
    elif tie_mode == "competition":
        place = higher.sum(axis=2)
    else:
        raise ValueError(f"unknown influence_tie_mode {tie_mode!r}")
    rate = np.asarray(INFLUENCE_RATES)[np.minimum(place, len(INFLUENCE_RATES) - 1)]
    return (rate * entries)[:, : cubes.shape[1]]


def rank_and_share(score, holds_sovereign):
    """Ranks and win shares (RR-E17..RR-E19): the Sovereign holder wins ties, others share."""
    s, v = score[:, None, :], holds_sovereign[:, None, :]
    ahead = (s > score[:, :, None]) | ((s == score[:, :, None]) & (v > holds_sovereign[:, :, None]))
    rank = 1 + ahead.sum(axis=2)
    first = rank == 1
    share = first / first.sum(axis=1, keepdims=True)
    return rank.astype(np.int8), share.astype(np.float64)


# ----------------------------------------------------------------------------------------
# Public entry points


def _hands(where, seats: int):
    """bool[B, P, C]: card c is in the hand of seat p."""
    codes = zones.HAND0 + np.arange(seats, dtype=np.int16)
    return np.asarray(where)[:, None, :] == codes[None, :, None]


def score_final(content: Content, config, where, helium, fleet, cubes, sovereign, automa_seat, parity,
                pinned=None):
    """Final scores of a batch of games (RR-E9..RR-E19, RR-V37..RR-V43).

    ``where`` int[B, C] card codes (zones.py), ``helium``/``fleet``/``cubes`` int[B, P] (seats in
    turn order), ``sovereign`` int[B] holder or -1, ``automa_seat`` int[B] Au Toma's seat or -1,
    ``parity`` int[B] odd/even card (0 = EVEN, 1 = ODD; read only in games with Au Toma).
    ``pinned`` (optional): per game, wildcard choices fixed in advance, {card index: {"name" |
    "colour": choice}} (position files); the other wildcards take the best assignment.
    Returns int32[B, P] ``score_*`` components and ``score`` (their sum), int8 ``rank`` and
    float64 ``win_share``.
    """
    t = scoring_tables(content)
    where = np.asarray(where)
    helium, fleet, cubes = (np.asarray(a) for a in (helium, fleet, cubes))
    batch, seats = helium.shape
    seat = np.arange(seats)
    is_automa = seat[None, :] == np.asarray(automa_seat)[:, None]
    holder = seat[None, :] == np.asarray(sovereign)[:, None]
    hand = _hands(where, seats)
    sizes = hand.sum(axis=2)

    cards, _ = _player_card_points(t, where, hand, sizes, is_automa, pinned)
    automa_cards, start = _automa_card_points(content, config, hand, sizes, np.asarray(parity))
    neutral = config.neutral_cubes if seats == 2 else None
    out = {
        "score_cards": np.where(is_automa, automa_cards, cards),
        "score_fleet": np.asarray(content.fleet_points)[fleet],
        "score_helium": helium * config.helium_points,
        "score_sovereign": holder * config.sovereign_points,
        "score_influence": influence_points(cubes, config.influence_tie_mode, neutral),
        "score_hand_penalty": np.where(is_automa, 0,
                                       -config.hand_penalty * np.maximum(sizes - config.hand_limit, 0)),
        "score_automa_base": is_automa * start,
    }
    out = {k: np.asarray(v, dtype=np.int32).reshape(batch, seats) for k, v in out.items()}
    out["score"] = sum(out[k] for k in COMPONENTS).astype(np.int32)
    out["rank"], out["win_share"] = rank_and_share(out["score"], holder)
    return out


def final_scores(s) -> dict:
    """``score_final`` on the current position of every game of a ``State``."""
    return score_final(s.content, s.config, s.where, s.helium, s.fleet, s.cubes, s.sovereign,
                       s.automa, s.parity)


def wildcard_choices(content: Content, where, automa_seat, seats: int,
                     pinned=None) -> list[dict[int, dict[str, str]]]:
    """Per game, the wildcard choices scoring makes: {card index: {"name" | "colour": choice}}.

    Only choices that differ from declining are listed (for position reports and logs).
    """
    t = scoring_tables(content)
    where = np.asarray(where)
    hand = _hands(where, seats)
    is_automa = np.arange(seats)[None, :] == np.asarray(automa_seat)[:, None]
    _, choice = _player_card_points(t, where, hand, hand.sum(axis=2), is_automa, pinned)
    games = []
    for row in choice:
        chosen: dict[int, dict[str, str]] = {}
        for slot, x in zip(t.wildcards, row):
            if x:
                chosen.setdefault(slot.card, {})[slot.kind] = slot.options[x]
        games.append(chosen)
    return games
