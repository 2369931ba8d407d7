"""Recall final scoring (RC-E3..E49): six path cards, leftovers, pigs, purple points, goal, winner.

Vectorised over a batch of games and their players: ``EndState`` holds int arrays [B, P, ...]
that the engine keeps anyway (tracks, stones, buildings, key cards, ...), ``final_scoring``
turns them into the score sheet, and ``ranks`` applies the tie-breaks. The numbers come from
``ScoringTables`` (integer arrays built from the content), the rule shapes are here. Position
files (position.py) are scored by the same functions. Solo goal cards need the split of the
player's components between two cards (RC-V15, RC-A54): ``solo_goals`` does it per game.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from sim.games.recall.content_types import GOAL_KINDS, PATHS, Content

PATH_COLUMNS = tuple(f"score_path_{p}" for p in PATHS)
COMPONENTS = ("score_track",) + PATH_COLUMNS + ("score_paths", "score_leftover", "score_pigs",
                                                 "score_purple", "score_goal")


@dataclass(frozen=True)
class ScoringTables:
    track_points: np.ndarray     # int[positions] (RC-A11)
    seventh: int
    key_points: np.ndarray       # int[K] per key kind (RC-A25)
    key_colour: np.ndarray       # int[K]
    monument_points: np.ndarray  # int[M] per monument tile (RC-A28)
    points_under: np.ndarray     # int[columns] (RC-A17)
    path_base: np.ndarray        # int[6] by PATHS index
    path_a: np.ndarray
    path_b: np.ndarray
    goal_kind: np.ndarray        # int[G]
    goal_n: np.ndarray           # int[G]
    crystal_value: np.ndarray    # int[3] (RC-E26)
    leftover_divisor: int        # RC-E28
    goal_points: int             # RC-E29
    goal_points_solo: int        # RC-V13
    pig_farm_points: int         # RC-R214, RC-E44


def scoring_tables(content: Content) -> ScoringTables:
    pc = content.path_cards
    s = content.setup
    return ScoringTables(
        track_points=np.array(content.knowledge.points, dtype=np.int64), seventh=content.knowledge.seventh,
        key_points=np.array([k.points for k in content.key_cards], dtype=np.int64),
        key_colour=np.array([k.colour for k in content.key_cards], dtype=np.int64),
        monument_points=np.array([m.points for m in content.monument_tiles], dtype=np.int64),
        points_under=np.array(content.board.artifact_rows.points_under, dtype=np.int64),
        path_base=np.array([c.base for c in pc], dtype=np.int64), path_a=np.array([c.a for c in pc], dtype=np.int64),
        path_b=np.array([c.b for c in pc], dtype=np.int64),
        goal_kind=np.array([g.kind for g in content.goal_cards], dtype=np.int64),
        goal_n=np.array([g.n for g in content.goal_cards], dtype=np.int64),
        crystal_value=np.array(s.crystal_value, dtype=np.int64), leftover_divisor=s.leftover_divisor,
        goal_points=s.goal_points, goal_points_solo=s.goal_points_solo, pig_farm_points=s.pig_farm_points)


@dataclass
class EndState:
    """What final scoring reads, int arrays with batch and player axes first."""

    score: np.ndarray            # [B, P] green points on the score track (RC-R175)
    purple: np.ndarray           # [B, P] purple points (RC-R176)
    tracks: np.ndarray           # [B, P, 3] knowledge positions white, grey, black
    stones: np.ndarray           # [B, P, 3] white/grey/black stones owned, own colour excluded (RC-E9, RC-E10)
    sanctuaries: np.ndarray      # [B, P] built
    board_monuments: np.ndarray  # [B, P, 3] 1 = a monument on the board field of that track (RC-E23)
    monument_tiles: np.ndarray   # [B, P, M] 1 = a monument on the field of that monument tile (RC-E22)
    keys: np.ndarray             # [B, P, K] key cards owned per kind, slots included (RC-E16)
    artifacts: np.ndarray        # [B, P, 4] artifacts per colour row (RC-E19)
    crystals: np.ndarray         # [B, P, 3] white, red, purple
    followers: np.ndarray        # [B, P] followers on the board (not on a raft, RC-E27)
    discs: np.ndarray            # [B, P, 6] 1 = the player's disc on the path card at position 1..6
    path_card: np.ndarray        # [B, 6] PATHS index of the card at each position
    path_side: np.ndarray        # [B, 6] 0 = a, 1 = b
    goals: np.ndarray            # [B, P, G] 1 = goal card kept
    upgrade_tiles: np.ndarray    # [B, P]
    old_tribes: np.ndarray       # [B, P] old tribes unlocked (RC-E40)
    camps: np.ndarray            # [B, P] different camps next to own buildings (RC-E41)
    area_tiles: np.ndarray       # [B, P] area tiles with an own building (RC-E42)
    pig_farms: np.ndarray        # [B, P] pig farms where a Dorian-ability holder is present (RC-E44), else 0


def _colour_points(t: ScoringTables, artifacts: np.ndarray) -> np.ndarray:
    """[B, P, 4]: points under the rightmost artifact of each colour row, 0 when empty (RC-E19)."""
    under = np.concatenate([[0], t.points_under])
    return under[np.clip(artifacts, 0, len(t.points_under))]


def path_points(t: ScoringTables, e: EndState) -> tuple[np.ndarray, np.ndarray]:
    """(base [B, P, 6], bonus if specialised [B, P, 6, 2 sides]) by PATHS index (RC-E4..E25)."""
    B, P = e.score.shape
    tp = t.track_points[e.tracks]                               # [B, P, 3]
    stones = e.stones.sum(axis=2)
    keys_pts = (e.keys * t.key_points).sum(axis=2)
    coloured = (e.keys * (t.key_colour >= 1)).sum(axis=2)
    grey = (e.keys * (t.key_colour == 3)).sum(axis=2)
    colour_pts = _colour_points(t, e.artifacts)
    tile_pts = (e.monument_tiles * t.monument_points).sum(axis=2)
    monuments = e.board_monuments.sum(axis=2) + e.monument_tiles.sum(axis=2)
    second = np.sort(tp, axis=2)[:, :, -2]
    base = np.stack([tp.sum(axis=2),                                         # RC-E6
                     stones,                                                 # RC-E9, RC-E10
                     e.sanctuaries,                                          # RC-E13
                     keys_pts,                                               # RC-E16
                     colour_pts.sum(axis=2),                                 # RC-E19
                     (e.board_monuments * tp).sum(axis=2) + tile_pts],       # RC-E22, RC-E23
                    axis=2) * t.path_base
    side_a = np.stack([second,                                               # RC-E7
                       stones,                                               # RC-E11
                       e.sanctuaries,                                        # RC-E14
                       coloured,                                             # RC-E17
                       e.artifacts.min(axis=2),                              # RC-E20
                       monuments], axis=2) * t.path_a                        # RC-E24
    side_b = np.stack([(e.tracks >= t.seventh).sum(axis=2),                  # RC-E8
                       e.stones.min(axis=2),                                 # RC-E12
                       e.sanctuaries // 2,                                   # RC-E15
                       grey,                                                 # RC-E18
                       colour_pts.max(axis=2),                               # RC-E21
                       tile_pts], axis=2) * t.path_b                         # RC-E25
    assert base.shape == (B, P, len(PATHS))
    return base, np.stack([side_a, side_b], axis=3)


def goal_met(t: ScoringTables, e: EndState, goal_stones: str = "total") -> np.ndarray:
    """bool[B, P, G]: whether each player meets each goal card's condition (RC-E30..E42, RC-A58)."""
    return goal_counts(t, e, goal_stones) >= t.goal_n


def goal_counts(t: ScoringTables, e: EndState, goal_stones: str = "total") -> np.ndarray:
    """int[B, P, G]: what each goal card counts for each player (met when >= the card's n;
    the plans of strategies/recall_plans.py read the progress from it)."""
    k = GOAL_KINDS.index
    stones = e.stones.sum(axis=2) if goal_stones == "total" else e.stones.max(axis=2)
    monuments = e.board_monuments.sum(axis=2) + e.monument_tiles.sum(axis=2)
    value = {k("artifacts_one_colour"): e.artifacts.max(axis=2),
             k("artifact_colours"): (e.artifacts > 0).sum(axis=2),
             k("stone_colours"): (e.stones > 0).sum(axis=2),
             k("stones"): stones,
             k("upgrade_tiles"): e.upgrade_tiles,
             k("sanctuaries"): e.sanctuaries,
             k("monuments"): monuments,
             k("key_cards"): e.keys.sum(axis=2),
             k("old_tribes"): e.old_tribes,
             k("camps"): e.camps,
             k("area_tiles"): e.area_tiles}
    table = np.stack([value[i] for i in range(len(GOAL_KINDS))], axis=2)   # [B, P, kinds]
    return table[:, :, t.goal_kind]


def final_scoring(t: ScoringTables, e: EndState, goal_stones: str = "total", solo_met=None) -> dict:
    """The score sheet: per-component arrays [B, P] (``COMPONENTS``) and ``score``.

    Order RC-A53: path cards (bottom to top, RC-E3), leftovers, pigs, purple points, goal; the
    total does not depend on it. ``solo_met`` (bool[B, P]) replaces the goal check of a solo
    game, whose two goal cards must be met with separate components (``solo_goals``).
    """
    base, bonus = path_points(t, e)
    B, P = e.score.shape
    rows = np.arange(B)[:, None]
    sheet = {"score_track": e.score.astype(np.int64)}
    paths = np.zeros((B, P), dtype=np.int64)
    for pos in range(6):                                       # every card's base (RC-E4) ...
        card = e.path_card[:, pos]
        side = e.path_side[:, pos]
        b = base[rows, np.arange(P)[None, :], card[:, None]]
        s = bonus[rows, np.arange(P)[None, :], card[:, None], side[:, None]]
        paths += b + s * e.discs[:, :, pos]                  # ... and the bonus of the cards with your disc (RC-E5)
    for p, name in enumerate(PATHS):
        on = (e.path_card == p)                                 # [B, 6]
        mine = (e.discs * on[:, None, :]).sum(axis=2) > 0
        side = (e.path_side * on).sum(axis=1)
        sheet[f"score_path_{name}"] = base[:, :, p] + mine * bonus[rows, np.arange(P)[None, :], p, side[:, None]]
    sheet["score_paths"] = paths
    equivalents = (e.crystals * t.crystal_value).sum(axis=2) + e.followers            # RC-E26, RC-E27
    sheet["score_leftover"] = equivalents // t.leftover_divisor                        # RC-E28
    sheet["score_pigs"] = t.pig_farm_points * e.pig_farms                             # RC-E44, RC-R214
    sheet["score_purple"] = e.purple.astype(np.int64)                                  # RC-E43
    if solo_met is None:
        met = (goal_met(t, e, goal_stones) & (e.goals > 0)).any(axis=2)
        sheet["score_goal"] = met * t.goal_points                                      # RC-E29
    else:
        sheet["score_goal"] = np.asarray(solo_met) * t.goal_points_solo                # RC-V13
    sheet["score"] = (sheet["score_track"] + paths + sheet["score_leftover"] + sheet["score_pigs"]
                      + sheet["score_purple"] + sheet["score_goal"])
    return sheet


def ranks(score: np.ndarray, tracks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rank [B, P], win share [B, P]): most points, then the white, grey, black tracks (RC-E45..E49)."""
    key = np.concatenate([score[:, :, None], tracks], axis=2)          # [B, P, 4]
    better = np.zeros(score.shape[:1] + (score.shape[1], score.shape[1]), dtype=bool)
    decided = np.zeros_like(better)
    for i in range(key.shape[2]):
        a = key[:, None, :, i]                                           # other
        b = key[:, :, None, i]                                           # me
        better |= ~decided & (a > b)
        decided |= a != b
    rank = 1 + better.sum(axis=2)
    winners = rank == 1
    return rank, winners / winners.sum(axis=1, keepdims=True)


# ---- solo: two goal cards with separate components (RC-V13..V15, RC-A54) -----------------------

@dataclass(frozen=True)
class Components:
    """One player's components that goal cards count, for splitting them between two cards."""

    artifacts: tuple[int, ...]                 # per colour
    stones: tuple[int, ...]                    # per track colour
    upgrade_tiles: int
    key_cards: int
    old_tribes: int
    buildings: tuple[tuple[int, int, frozenset], ...]   # (building kind, slot or -1, camps next to it)


def _card_met(kind: str, n: int, part: dict, buildings, goal_stones: str) -> bool:
    if kind == "artifacts_one_colour":
        return max(part["artifacts"]) >= n
    if kind == "artifact_colours":
        return sum(x > 0 for x in part["artifacts"]) >= n
    if kind == "stone_colours":
        return sum(x > 0 for x in part["stones"]) >= n
    if kind == "stones":
        return (sum(part["stones"]) if goal_stones == "total" else max(part["stones"])) >= n
    if kind in ("upgrade_tiles", "key_cards", "old_tribes"):
        return part[kind] >= n
    if kind == "sanctuaries":
        return sum(b[0] == 0 for b in buildings) >= n
    if kind == "monuments":
        return sum(b[0] == 2 for b in buildings) >= n
    if kind == "camps":
        return len(set().union(*[b[2] for b in buildings])) >= n if buildings else n <= 0
    if kind == "area_tiles":
        return len({b[1] for b in buildings if b[1] >= 0}) >= n
    raise ValueError(kind)


RESOURCE = {"artifacts_one_colour": "artifacts", "artifact_colours": "artifacts", "stone_colours": "stones",
            "stones": "stones", "upgrade_tiles": "upgrade_tiles", "key_cards": "key_cards",
            "old_tribes": "old_tribes", "sanctuaries": "buildings", "monuments": "buildings",
            "camps": "buildings", "area_tiles": "buildings"}


def _splits(c: Components, resource: str):
    """Every way to split one resource of ``c`` into (part for card 1, part for card 2)."""
    if resource == "buildings":
        for mask in range(1 << len(c.buildings)):
            yield ([b for j, b in enumerate(c.buildings) if mask >> j & 1],
                   [b for j, b in enumerate(c.buildings) if not mask >> j & 1])
    elif resource in ("artifacts", "stones"):
        whole = getattr(c, resource)
        for first in itertools.product(*[range(v + 1) for v in whole]):
            yield first, tuple(v - x for v, x in zip(whole, first))
    else:
        whole = getattr(c, resource)
        for x in range(whole + 1):
            yield x, whole - x


def two_cards_met(c: Components, first, second, goal_stones: str = "total") -> bool:
    """Whether ``c`` splits into two parts meeting the two cards (``(kind, n)`` each, RC-V15).

    Only a resource both cards count is split (brute force over its splits); a resource only
    one card counts goes to that card whole.
    """
    whole = {"artifacts": c.artifacts, "stones": c.stones, "upgrade_tiles": c.upgrade_tiles,
             "key_cards": c.key_cards, "old_tribes": c.old_tribes}
    r1, r2 = RESOURCE[first[0]], RESOURCE[second[0]]
    if r1 != r2:
        return (_card_met(first[0], first[1], whole, c.buildings, goal_stones)
                and _card_met(second[0], second[1], whole, c.buildings, goal_stones))
    for a, b in _splits(c, r1):
        part1, part2 = dict(whole), dict(whole)
        b1, b2 = c.buildings, c.buildings
        if r1 == "buildings":
            b1, b2 = a, b
        else:
            part1[r1], part2[r1] = a, b
        if _card_met(first[0], first[1], part1, b1, goal_stones) and _card_met(second[0], second[1], part2, b2, goal_stones):
            return True
    return False


def solo_goals(c: Components, cards, solo_goals_rule: str = "keep_two", goal_stones: str = "total") -> bool:
    """RC-V13, RC-V14, RC-A54: keep_two = both kept cards met; keep_three = any two of three."""
    pairs = [(0, 1)] if solo_goals_rule == "keep_two" else list(itertools.combinations(range(len(cards)), 2))
    for i, j in pairs:
        if two_cards_met(c, cards[i], cards[j], goal_stones) or two_cards_met(c, cards[j], cards[i], goal_stones):
            return True
    return False

