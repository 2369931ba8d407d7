"""Everything the engine needs from the content and the config, as numpy tables (built once).

Card tables have one extra sentinel entry at index ``N`` ("no card"): indexing them with the
empty-slot code hits the sentinel (rank 0, species -1), which saves masks in the engine.
The decree tables are the vectorisation of AK-R19..R27 (AK-A12's hint), stored as bit sets of
cards: the cards a SIMPLE decree allows, and for an arrow decree and each possible reference
card the cards that stand in its relation to it. A kingdom's legal cards are then a gather and
an AND/OR over its references; a hand card is one bit test.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.games.animal_kingdoms.content_types import DECREE_TYPES
from sim.games.animal_kingdoms.vocabulary import predicate_mask, relation_matrix

T_SIMPLE, T_SELF, T_LEFT, T_RIGHT, T_ALL = range(5)
BIG = 1 << 30


@dataclass(frozen=True)
class Tables:
    config: object
    content: object
    N: int
    K: int
    H: int
    P: int                     # seats
    M: int                     # modifier tiles
    D: int
    T: int                     # first-place tiles per kingdom
    R: int                     # first-retreat tiles
    S: int                     # column capacity (largest kingdom)
    BN: int                    # robot bonus card slots
    RC: int                    # robot battle card slots
    solo: bool
    robot: int                 # robot seat, -1 without
    human: int                 # the human seat in solo, -1 without
    rank: np.ndarray           # int16[N+1]
    species: np.ndarray        # int16[N+1]
    size: np.ndarray           # int16[K]
    council_spaces: np.ndarray  # int16[K]
    order: np.ndarray          # int64[K] scoring order (ring indices)
    size_kingdom: np.ndarray   # int64[100]: first kingdom of that size, -1 none (robot target)
    dtype: np.ndarray          # int8[D]
    dany: np.ndarray           # bool[D] quantifier any
    W: int                     # 64-bit words of a card set
    simple_bits: np.ndarray    # uint64[D, W]: cards a SIMPLE decree allows
    rel_bits: np.ndarray       # uint64[D, N+1, W]: [d, r] = played cards related to reference r
    rel_flat: np.ndarray       # uint64[D*(N+1), W]: rel_bits, first two axes merged; row N of a decree =
                               #   the identity of its quantifier (all: every card, any: none)
    refmask: np.ndarray        # bool[5, K, K]: [type, k, j] = j is a reference kingdom of k
    ref1: np.ndarray           # int64[5, K]: the one reference kingdom of SELF / LEFT / RIGHT (else k)
    eye: np.ndarray            # bool[K, K] identity
    rally_bits: np.ndarray     # bool[2^H-1, H]
    rally_top: np.ndarray      # int64[2^H-1]: highest slot used by the subset
    battle_cards: int
    bonus_cards: int
    markers: np.ndarray        # int16[P]
    # action offsets
    A_RALLY: int
    A_RETREAT: int
    A_BATTLE: int
    A_MODS: int
    A_YES: int
    A_NO: int
    A: int


def action_layout(H: int, K: int, M: int) -> dict:
    rally = H * K
    retreat = rally + 2 ** H - 1
    battle = retreat + 1
    mods = battle + H
    yes = mods + M + 1
    return {"A_RALLY": rally, "A_RETREAT": retreat, "A_BATTLE": battle, "A_MODS": mods,
            "A_YES": yes, "A_NO": yes + 1, "A": yes + 2}


def card_bits(mask: np.ndarray, W: int) -> np.ndarray:
    """uint64[W]: a bool[N] card set as bits (card c = bit c % 64 of word c // 64)."""
    out = np.zeros(W, dtype=np.uint64)
    for c in np.nonzero(mask)[0]:
        out[c // 64] |= np.uint64(1) << np.uint64(c % 64)
    return out


def build_tables(config, content) -> Tables:
    cards, kingdoms, decrees = content.cards, content.kingdoms, content.decrees
    N, K, H, D = len(cards), len(kingdoms), config.hand_size, len(decrees)
    ranks = np.array([c.rank for c in cards], dtype=np.int64)
    names = np.array([c.species for c in cards], dtype=object)
    rank = np.zeros(N + 1, dtype=np.int16)
    rank[:N] = ranks
    species = np.full(N + 1, -1, dtype=np.int16)
    species[:N] = [content.species.index(c.species) for c in cards]
    W = (N + 63) // 64
    simple_bits = np.zeros((D, W), dtype=np.uint64)
    rel_bits = np.zeros((D, N + 1, W), dtype=np.uint64)
    dtype = np.zeros(D, dtype=np.int8)
    for d in decrees:
        dtype[d.index] = DECREE_TYPES.index(d.type)
        if d.type == "SIMPLE":
            simple_bits[d.index] = card_bits(predicate_mask(d, ranks, names), W)
        else:
            rel = relation_matrix(d, ranks, names)                     # [played, reference]
            for r in range(N):
                rel_bits[d.index, r] = card_bits(rel[:, r], W)
    swap = config.left_is == "clockwise"
    left = [k.right if swap else k.left for k in kingdoms]
    right = [k.left if swap else k.right for k in kingdoms]
    refmask = np.zeros((5, K, K), dtype=bool)
    for k in range(K):
        refmask[T_SELF, k, k] = True
        refmask[T_LEFT, k, left[k]] = True
        refmask[T_RIGHT, k, right[k]] = True
        refmask[T_ALL, k, :] = True
        refmask[T_ALL, k, k] = False
    rel_flat = rel_bits.copy()
    for d in decrees:
        if d.type != "SIMPLE" and d.quantifier == "all":
            rel_flat[d.index, N] = ~np.uint64(0)       # no reference: no constraint
    rel_flat = rel_flat.reshape(D * (N + 1), W)
    ref1 = np.tile(np.arange(K), (5, 1))
    ref1[T_SELF] = np.arange(K)
    ref1[T_LEFT] = left
    ref1[T_RIGHT] = right
    subsets = np.arange(1, 2 ** H)
    rally_bits = (subsets[:, None] >> np.arange(H)[None, :]) & 1 == 1
    rally_top = np.array([max(i for i in range(H) if r >> i & 1) for r in subsets], dtype=np.int64)
    size = np.array([k.size for k in kingdoms], dtype=np.int16)
    size_kingdom = np.full(100, -1, dtype=np.int64)
    for k in reversed(range(K)):
        if size[k] < 100:
            size_kingdom[size[k]] = k
    solo = config.players == 1
    P = 2 if solo else config.players
    robot = (1 if config.solo_first_player == "human" else 0) if solo else -1
    human = 1 - robot if solo else -1
    markers = np.full(P, config.markers_per_player, dtype=np.int16)
    if solo:
        markers[robot] = content.robot_markers
    level = content.robot_levels[config.robot_level]
    return Tables(
        config=config, content=content, N=N, K=K, H=H, P=P, M=config.modifier_tiles, D=D,
        T=content.first_place_per_kingdom, R=len(content.first_retreat), S=int(max(k.size + k.council_spaces for k in kingdoms)),
        BN=max(1, max(lv.bonus_cards for lv in content.robot_levels.values())),
        RC=max(1, max(lv.battle_cards for lv in content.robot_levels.values())),
        solo=solo, robot=robot, human=human, rank=rank, species=species, size=size,
        council_spaces=np.array([k.council_spaces for k in kingdoms], dtype=np.int16),
        order=np.array(content.scoring_order, dtype=np.int64), size_kingdom=size_kingdom,
        dtype=dtype, dany=np.array([d.quantifier == "any" for d in decrees]), W=W, simple_bits=simple_bits,
        rel_bits=rel_bits, rel_flat=rel_flat, ref1=ref1, eye=np.eye(K, dtype=bool),
        refmask=refmask, rally_bits=rally_bits, rally_top=rally_top,
        battle_cards=level.battle_cards, bonus_cards=level.bonus_cards, markers=markers,
        **action_layout(H, K, config.modifier_tiles))

