"""Content + Config -> the integer arrays the kernels read (docs/explorers_of_navoria_engine.md).

Everything is packed into one flat int32 array ``tab`` whose sections start at the offsets of
the int64 vector ``C`` (sizes and rule switches): the kernels take two table arguments only.

Sections (``C[O_*]`` = first element):

* ``ITEMS`` [NI, 6]: every item of every effect: ``op1, arg1, n1, op2, arg2, n2`` (``op2 = -1``
  unless the item is ``a|b``); ops in ``state.OP_*`` order, ``arg = -1`` is "of choice".
* ``EFF`` [NE, 2]: first item, end item of each effect. Effect ids: card ``i`` -> ``i``; city
  space ``x`` -> ``N + x``; dock ``d`` reward ``j`` (base1, base2, under1..3) -> ``N + S + 5d + j``.
* ``CARD`` [N, 10]: colour, income people (-1), income flags, end region (-1), end points,
  symbols of the 4 peoples, 0.
* ``CITY`` [S]: colour of each space.
* ``TRK`` [3, 5]: L (treasure position), build spaces 1..3, treasure points.
* ``FLAGS`` [3, FLAGW]: flags at or below each position (positions 0..FLAGW-1).
* ``EXPL`` [3, 3]: exploration reward per place.
* ``FAV`` [T + 1, 7]: first, second, and a 0/1 per colour counted (row T = the blank tile).
* ``PILE`` [5, 2]: first column in ``piles`` and size of each colour's pile.
* ``PRANK`` [N] (at ``C[O_PILE] + 10``): each card's rank among its colour's cards (file
  order); ``PCARD`` [N] (right after): the cards of each colour in file order, at the pile's
  columns (the observation's sorted order).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.games.explorers_of_navoria import content_types as ct
from sim.games.explorers_of_navoria import state as st

OPS = (ct.PTS, ct.GOOD, ct.STEP, ct.BUILD, ct.PER_ARTISAN)
FLAGW = 64

# C vector indices
(C_N, C_S, C_T, C_NP, C_NREC, C_TOKENS, C_FAVSYM, C_STRICT, C_SPLIT, C_GOODS, C_A, C_PLACES,
 O_ITEMS, O_EFF, O_CARD, O_CITY, O_TRK, O_FLAGS, O_EXPL, O_FAV, O_PILE, C_SIZE) = range(22)

# action offsets (model doc, "The action space")
A_DRAW, A_TAKE = 0, 1


@dataclass
class Tables:
    config: object
    content: object
    N: int
    S: int
    T: int
    P: int
    A: int
    A_CITY: int
    A_BACK: int
    A_TRACK: int
    A_GOODS: int
    A_ALT: int
    tab: np.ndarray          # int32 flat
    C: np.ndarray            # int64[C_SIZE]
    pile_off: np.ndarray     # int64[5]
    pile_n: np.ndarray       # int64[5]
    tile_ids: tuple          # tile index -> id (index T = the blank tile)
    card_ids: tuple
    city_ids: tuple
    card_colour: np.ndarray  # int64[N]
    action_names: tuple      # action index -> name (model doc, "The action space")


def action_offsets(S: int) -> dict:
    return {"A_CITY": 16, "A_BACK": 16 + S, "A_TRACK": 21 + S, "A_GOODS": 24 + S, "A_ALT": 88 + S, "A": 90 + S}


def action_names(content) -> list[str]:
    S = len(content.city)
    names = ["draw"] + [f"take:{ct.COLOURS[c]}:{s + 1}" for c in range(5) for s in range(3)]
    names += [f"city:{x.id}" for x in content.city]
    names += [f"back:{c}" for c in ct.COLOURS]
    names += [f"track:{r}" for r in ct.REGIONS]
    kinds = "-WMF"
    names += [f"goods:{kinds[f]}{kinds[d]}{kinds[g]}" for f in range(4) for d in range(4) for g in range(4)]
    names += ["alt:1", "alt:2"]
    assert len(names) == action_offsets(S)["A"]
    return names


def _atom(a: ct.Atom) -> list[int]:
    return [OPS.index(a.op), int(a.arg), int(a.n)]


def build_tables(config, content) -> Tables:
    N, S, T = len(content.cards), len(content.city), len(content.favour_tiles)
    if S > st.CITY_MAX:
        raise ValueError(f"the engine holds at most {st.CITY_MAX} city spaces, the content has {S}")
    n = config.players
    effects = [c.immediate for c in content.cards] + [x.reward for x in content.city]
    for d in content.docks:
        effects += [d.base[0], d.base[1], d.under[0], d.under[1], d.under[2]]
    items, eff = [], []
    for e in effects:
        first = len(items)
        for item in e:
            row = _atom(item[0]) + (_atom(item[1]) if len(item) > 1 else [-1, 0, 0])
            items.append(row)
        eff.append([first, len(items)])
    items = np.array(items if items else np.zeros((0, 6)), dtype=np.int32).reshape(-1, 6)
    eff = np.array(eff, dtype=np.int32).reshape(-1, 2)
    card = np.zeros((N, 10), dtype=np.int32)
    for i, c in enumerate(content.cards):
        card[i, :5] = (c.colour, c.income_people, int(c.income_flags), c.end_region, c.end_points)
        card[i, 5:9] = c.symbols
    city = np.array([x.colour for x in content.city], dtype=np.int32)
    trk = np.zeros((3, 5), dtype=np.int32)
    flags = np.zeros((3, FLAGW), dtype=np.int32)
    for r, tr in enumerate(content.tracks):
        if tr.length >= FLAGW:
            raise ValueError(f"track {ct.REGIONS[r]} is longer than the engine's {FLAGW - 1} spaces")
        trk[r] = (tr.length, *tr.build, tr.treasure)
        for f in tr.flags:
            flags[r, f:] += 1
    expl = np.array(content.exploration, dtype=np.int32).reshape(3, 3)
    tiles = list(content.favour_tiles) + [content.blank_tile or ct.FavourTile("FT00", (), 0, 0)]
    fav = np.zeros((T + 1, 7), dtype=np.int32)
    for i, tile in enumerate(tiles):
        fav[i, 0], fav[i, 1] = tile.first, tile.second
        for k in tile.kinds:
            fav[i, 2 + k] = 1
    pile_n = np.array([len(content.pile(c)) for c in range(5)], dtype=np.int64)
    pile_off = np.concatenate([[0], np.cumsum(pile_n)[:-1]]).astype(np.int64)
    pile = np.stack([pile_off, pile_n], axis=1).astype(np.int32)
    if pile_n.max() > 63:
        raise ValueError("the engine holds at most 63 cards per colour")
    pcard = np.concatenate([np.array(content.pile(c), dtype=np.int32) for c in range(5)])
    prank = np.zeros(N, dtype=np.int32)
    for c in range(5):
        prank[np.array(content.pile(c), dtype=np.int64)] = np.arange(len(content.pile(c)))
    sections = [items, eff, card, city, trk, flags, expl, fav, pile, prank, pcard]
    offs, pos = [], 0
    for sec in sections:
        offs.append(pos)
        pos += sec.size
    tab = np.concatenate([s.ravel() for s in sections]).astype(np.int32)
    ao = action_offsets(S)
    C = np.zeros(C_SIZE, dtype=np.int64)
    C[C_N], C[C_S], C[C_T], C[C_NP] = N, S, T, n
    C[C_NREC] = config.recruits_per_round * n
    C[C_TOKENS] = int(content.tokens_per_colour[n])
    C[C_FAVSYM] = config.favour_symbols
    C[C_STRICT] = config.dock_placement == "strict"
    C[C_SPLIT] = bool(config.question_mark_split)
    C[C_GOODS] = config.goods_per_kind
    C[C_A] = ao["A"]
    C[C_PLACES] = min(3, n - 1)
    C[O_ITEMS:O_PILE + 1] = offs[:9]
    return Tables(config=config, content=content, N=N, S=S, T=T, P=n, A=ao["A"], A_CITY=ao["A_CITY"],
                  A_BACK=ao["A_BACK"], A_TRACK=ao["A_TRACK"], A_GOODS=ao["A_GOODS"], A_ALT=ao["A_ALT"],
                  tab=tab, C=C, pile_off=pile_off, pile_n=pile_n, tile_ids=tuple(t.id for t in tiles),
                  card_ids=tuple(c.id for c in content.cards), city_ids=tuple(x.id for x in content.city),
                  card_colour=np.array([c.colour for c in content.cards], dtype=np.int64),
                  action_names=tuple(action_names(content)))
