"""Setup of a batch of games (RR-S1..S18, RR-V3..V9), in the order of docs/red_rising_model.md.

Houses ("houses" draw), start player (Apollo, else the "start" draw), deck ("deck" draw), two
cards per location, hands in turn order; solo: priority letters ("priority" draw), the Luna
bonus card, the odd/even card, Au Toma's deck (the "automa" draw, shuffle 0).
"""
from __future__ import annotations

import numpy as np

from sim.core import rng
from sim.games.red_rising.actions import num_actions
from sim.games.red_rising.program import program_for
from sim.games.red_rising.state import (
    CUBES, M, PILE_DECK, State, empty_state, pop_top, push_top, to_hand,
)

START_HAND = 5                     # RR-S6
AUTOMA_HAND = 2                    # RR-V8
LOCATION_CARDS = 2                 # RR-S4
PLAYER_HELIUM_CAP = 30_000         # helium is unlimited for players (RR-R18, RR-A7)
LUNA = 2
AUTOMA_SET_ASIDE = 4               # Au Toma cards set aside at every (re)build (RR-V3, RR-V14)


def house_pool(config, content) -> list[int]:
    """Indices (into content.houses) of the houses dealt at random (RR-S8, RR-V10)."""
    return [i for i, h in enumerate(content.houses)
            if not (config.players == 1 and config.solo_exclude_ceres and h.name == "Ceres")]


def cards_in_use(config, content) -> np.ndarray:
    """Card indices of the deck in use, ascending (solo: RR-V6, RR-V45)."""
    keep = []
    for c in content.cards:
        if config.players == 1 and c.solo_removed and (not config.solo_readd_removed or c.solo_never_readd):
            continue
        keep.append(c.index)
    return np.asarray(keep, dtype=np.int64)


def odd_even(s: State, g) -> np.ndarray:
    """RR-V9, RR-R66: the odd/even card for the cards now on the locations (1 = ODD; ties EVEN)."""
    on_loc = s.where[g] < 4
    odd = ((s.prog.core[: s.num_cards] % 2 == 1)[None, :] & on_loc).sum(axis=1)
    return (odd > on_loc.sum(axis=1) - odd).astype(np.int8)


def shuffle_order(keys, n: int, counter) -> np.ndarray:
    """``rng.permutations(keys, n, counter)`` with a per-game counter (int[b, n]): Au Toma's deck
    orders (the kernel rebuilds her deck with the same draws, ``kernel`` tests them against this)."""
    counter = np.asarray(counter, dtype=np.int64)
    offsets = np.arange(n, dtype=np.int64)[None, :] + counter[:, None] * n
    draws = rng.bits(np.asarray(keys, dtype=np.uint64)[:, None], offsets)
    return np.argsort(draws, axis=-1, kind="stable")


def build_automa_deck(s: State, g):
    """Shuffle all Au Toma cards (shuffle number ``auto_shuffles``), set the top four aside."""
    n = s.auto_order.shape[1]
    s.auto_order[g] = shuffle_order(s.key_automa[g], n, s.auto_shuffles[g])
    s.auto_pos[g] = AUTOMA_SET_ASIDE


def init(config, content, game_ids, seed) -> State:
    """A new batch of games, run up to their first decision."""
    from sim.games.red_rising.engine import run

    return run(setup(config, content, game_ids, seed))


def setup(config, content, game_ids, seed) -> State:
    """A new batch of games set up (RR-S*) at their first micro-op, not yet run: ``init`` runs
    them to their first decision; a whole-game driver (``engine.run_to_end``) can start here too,
    so a strategy's driver compiles without the engine's ``run_batch`` (``runner.warm_up``)."""
    game_ids = np.asarray(game_ids, dtype=np.int64)
    prog = program_for(content)
    seats = config.seats
    b = len(game_ids)
    s = empty_state(prog, config, content, seed, game_ids, seats, num_actions(len(content.cards)),
                    len(content.automa_cards))
    rows = np.arange(b)
    solo = config.players == 1

    # houses per slot (RR-S8); in solo, slot 1 is Au Toma (house -1)
    pool = house_pool(config, content)
    perm = rng.permutations(rng.stream_keys(seed, game_ids, "houses"), len(pool))
    slot_house = np.full((b, seats), -1, dtype=np.int64)
    for slot in range(config.players):
        if config.houses:
            slot_house[:, slot] = [h.name for h in content.houses].index(config.houses[slot])
        else:
            slot_house[:, slot] = np.asarray(pool)[perm[:, slot]]
    # start slot (RR-S15, RR-V7)
    first = prog.house_first[slot_house] > 0
    start = np.where(first.any(axis=1), np.argmax(first, axis=1),
                     rng.integers(rng.stream_keys(seed, game_ids, "start"), 0, seats))
    slot_of = (start[:, None] + np.arange(seats)[None, :]) % seats
    s.slot[:] = slot_of
    s.house[:] = slot_house[rows[:, None], slot_of]
    if solo:
        s.automa[:] = np.argmax(slot_of == 1, axis=1)

    # resource caps (RR-R17, RR-R20, RR-V28, RR-V32)
    last_space = len(content.fleet_points) - 1
    s.cap[:, :, 0] = PLAYER_HELIUM_CAP
    s.cap[:, :, 1] = last_space
    s.cap[:, :, 2] = CUBES
    if solo:
        a = s.automa.astype(np.intp)
        s.cap[rows, a] = [content.automa_max, min(content.automa_max, last_space),
                          min(content.automa_max, CUBES)]

    # the deck (RR-S2, RR-V6): deck[i] = in_use[perm[i]], deck[0] on top
    in_use = cards_in_use(config, content)
    n = len(in_use)
    deck = in_use[rng.permutations(rng.stream_keys(seed, game_ids, "deck"), n)]
    s.where[rows[:, None], deck] = PILE_DECK
    s.under[rows[:, None], deck[:, :-1]] = deck[:, 1:]
    s.top[:, PILE_DECK] = deck[:, 0]
    s.size[:, PILE_DECK] = n
    # locations (RR-S4): deck cards 0,1 to Jupiter (1 on top), 2,3 Mars, ...
    for x in range(4):
        for _ in range(LOCATION_CARDS):
            push_top(s, rows, np.full(b, x), pop_top(s, rows, PILE_DECK))
    # hands in turn order (RR-S6, RR-S17, RR-V8)
    for p in range(seats):
        extra = prog.house_extra_cards[s.house[:, p]]
        count = np.where(s.automa == p, AUTOMA_HAND, START_HAND + extra)
        for i in range(int(count.max())):
            g = rows[(count > i) & (s.size[:, PILE_DECK] > 0)]
            to_hand(s, g, np.full(len(g), p), pop_top(s, g, PILE_DECK))

    if solo:
        # priority letters (RR-V4): location x gets letter perm[x]; Luna bonus card (RR-V5)
        prio = rng.permutations(rng.stream_keys(seed, game_ids, "priority"), 4)
        s.prio[:] = prio
        s.letter_loc[rows[:, None], prio] = np.arange(4)[None, :]
        s.luna_bonus[:] = s.letter_loc[rows, 3 - prio[:, LUNA]]
        s.parity[:] = odd_even(s, rows)
        # Au Toma's deck (RR-V3): shuffle 0
        s.key_automa[:] = rng.stream_keys(seed, game_ids, "automa")
        build_automa_deck(s, rows)

    s.key_die[:] = rng.stream_keys(seed, game_ids, "die")
    s.key_pick[:] = rng.stream_keys(seed, game_ids, "pick")
    s.changed[:] = False
    s.player[:] = 0
    s.rounds[:] = 1
    s.mop[:] = M["T_START"]
    return s


def arrange(s: State, game: int = 0, *, player=None, deck=None, locations=None, hands=None,
            banished=None, helium=None, fleet=None, cubes=None, sovereign=None, houses=None,
            run_turn: bool = True) -> State:
    """Overwrite one game's position (tests, analyses) and restart the current turn there.

    Cards are given as card indices or ids. If any of ``deck`` (top first), ``locations``
    (four lists, bottom first), ``hands`` (one list per seat; Au Toma's bottom first) or
    ``banished`` is given, the cards are laid out exactly so and every card not listed is
    out of the game. ``helium`` / ``fleet`` / ``cubes``: one value per seat; ``sovereign``:
    holder seat or -1; ``houses``: house name per seat (None = keep; Au Toma keeps none);
    ``player``: whose turn it is. The game's pending decision and ability frames are dropped
    and the turn of ``player`` starts afresh (``run_turn``), up to its first decision.
    """
    from sim.games.red_rising.engine import run
    from sim.games.red_rising import zones

    content = s.content
    ids = {c.id: c.index for c in content.cards}

    def idx(c):
        return ids[c] if isinstance(c, str) else int(c)

    g = np.array([game])
    if any(x is not None for x in (deck, locations, hands, banished)):
        s.where[game] = zones.OUT
        s.under[game] = -1
        s.top[game] = -1
        s.size[game] = 0
        s.hand_n[game] = 0
        for c in reversed(list(deck or [])):
            push_top(s, g, np.array([PILE_DECK]), np.array([idx(c)]))
        for x, cards in enumerate(locations or [[], [], [], []]):
            for c in cards:
                push_top(s, g, np.array([x]), np.array([idx(c)]))
        for p, cards in enumerate(hands or []):
            for c in cards:
                to_hand(s, g, np.array([p]), np.array([idx(c)]))
        for c in banished or []:
            s.where[game, idx(c)] = zones.BANISHED
    for name, values in (("helium", helium), ("fleet", fleet), ("cubes", cubes)):
        if values is not None:
            getattr(s, name)[game] = values
    if sovereign is not None:
        s.sovereign[game] = sovereign
    if houses is not None:
        names = [h.name for h in content.houses]
        for p, h in enumerate(houses):
            if h is not None:
                s.house[game, p] = names.index(h)
    if player is not None:
        s.player[game] = player
    s.depth[game] = 0
    s.flipped[game] = -1
    s.done[game] = False
    s.kind[game] = 0
    s.decider[game] = -1
    s.legal[game] = False
    s.waiting[game] = False
    s.mop[game] = M["T_START"]
    if run_turn:
        run(s)
    return s
