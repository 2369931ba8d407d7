"""Score a described end-of-game position of Explorers of Navoria (format: docs/explorers_of_navoria_positions.md).

A designer writes the table after round 3's income phase (points so far, tableaus, trading
posts built per track, the favour tiles on the peoples' spaces and who holds which favour
space) and gets every player's final score sheet: the final scoring EN-E3 (soldiers, every
card's ``end`` rule, EN-E5) and EN-E4 (favour tiles), then the winner(s) (EN-E7, EN-E8: ties
share the victory). Every problem in the file is an ``InputError`` naming the file and the
JSON path.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from sim.core.config import build
from sim.core.datafiles import JsonReader, read_json
from sim.games.explorers_of_navoria import kernel
from sim.games.explorers_of_navoria import state as st
from sim.games.explorers_of_navoria.config import Config
from sim.games.explorers_of_navoria.content import load_content, people_index
from sim.games.explorers_of_navoria.content_types import PEOPLES, PTS, REGIONS, Content
from sim.games.explorers_of_navoria.state import empty_state
from sim.games.explorers_of_navoria.tables import build_tables

TOP_KEYS = ("comment", "config", "favour_tiles", "players")
PLAYER_KEYS = ("name", "points", "cards", "posts", "favour")
SPACES = ("first", "second")
POSTS_PER_DOCK = 3             # EN-S14
ROUNDS = 3                     # EN-R1
COMPONENTS = ("score_rounds", "score_soldiers", "score_favour")


@dataclasses.dataclass
class Position:
    config: Config
    content: Content
    names: list                 # per seat
    points: list                # points after round 3's income, per seat
    cards: list                 # card indices in the tableau, per seat
    posts: list                 # [seat][region] posts built
    tiles: list                 # per people: the FavourTile on its space, or None
    favour: list                # [seat][people]: 0 none, 1 first space, 2 second space


def score_position(path) -> list[dict]:
    """Final score sheet per seat (the order of ``players``) of the position in ``path``.

    Each dict has ``seat``, ``name``, ``faction`` (``none``), the components ``score_rounds``
    (points after round 3's income, as given), ``score_soldiers`` (EN-E3) and ``score_favour``
    (EN-E4), then ``score``, ``rank``, ``win_share`` and ``en_favour_<people>`` (0 none, 1 first
    space, 2 second space).
    """
    pos = load_position(path)
    rows = []
    sheet = final_scoring(pos)
    for p, name in enumerate(pos.names):
        soldiers, favour = sheet[p]
        row = {"seat": p, "name": name, "faction": "none", "score_rounds": pos.points[p],
               "score_soldiers": soldiers, "score_favour": favour,
               "score": pos.points[p] + soldiers + favour}
        rows.append(row)
    scores = [r["score"] for r in rows]
    best = max(scores)
    winners = scores.count(best)
    for p, row in enumerate(rows):
        row["rank"] = 1 + sum(s > row["score"] for s in scores)                      # EN-E7
        row["win_share"] = 1.0 / winners if row["score"] == best else 0.0           # EN-E8
        for q, people in enumerate(PEOPLES):
            row[f"en_favour_{people}"] = pos.favour[p][q]
    return rows


def final_scoring(pos: Position) -> list[tuple[int, int]]:
    """(soldier points, favour points) of every player, from the engine's own final scoring.

    EN-E3, EN-R76, EN-E5: every card with ``end = posts:<region>:<v>`` gives v per post built
    on that track. EN-E4, EN-R110, EN-R111: every favour space held gives the tile's value of
    that space per tableau card of one of the tile's kinds (the blank tile: no kinds, 0, EN-A9).
    The position is written into a one-game engine state (tableau counters, posts, tiles and
    favour spaces as given; no favour is won by laying the cards) and ``kernel.final_scoring``
    runs on it, so a position file pins exactly the scoring the simulations use.
    """
    t = build_tables(pos.config, pos.content)
    s = empty_state(t, 1)
    g = s.m[0]
    for q, tile in enumerate(pos.tiles):
        g[st.G_FTILE + q] = t.tile_ids.index(tile.id) if tile is not None else 0
    for p in range(len(pos.names)):
        base = st.SEAT0 + p * st.SW
        g[base + st.P_FTRIED: base + st.P_FTRIED + 4] = 1      # favour spaces come from the file
        g[base + st.P_FAV: base + st.P_FAV + 4] = pos.favour[p]
        g[base + st.P_POSTS: base + st.P_POSTS + 3] = pos.posts[p]
        for card in pos.cards[p]:
            kernel.enter_tableau(g, t.tab, t.C, p, card)
    kernel.final_scoring(g, t.tab, t.C)
    comp = s.comp[0]
    return [(int(comp[p, st.C_SOLDIERS]), int(comp[p, st.C_FAVOUR])) for p in range(len(pos.names))]


# ---- reading and validating ----------------------------------------------------------------

def least_points(content: Content, tableau) -> int:
    """The fewest points a tableau can have brought by the end: every card's immediate ``pts``
    outside a choice (EN-R17) and, per trader, one income of its own symbols (EN-R62: the
    income phase of the round it was recruited in counts them). Points are never lost."""
    total = 0
    for c in tableau:
        card = content.cards[c]
        total += sum(item[0].n for item in card.immediate if len(item) == 1 and item[0].op == PTS)
        if card.income_people >= 0:
            total += card.symbols[card.income_people]
    return total


def _people_key(rd: JsonReader, key, place) -> int:
    q = people_index(key) if isinstance(key, str) else None
    if q is None:
        rd.fail(place, f"unknown people {key!r}; expected one of {', '.join(PEOPLES)}")
    return q


def load_position(path) -> Position:
    source = str(path)
    rd = JsonReader(source)
    raw = rd.table(read_json(Path(path)), "", TOP_KEYS)
    players = rd.array(raw.get("players"), "players")
    if not 2 <= len(players) <= 4:
        rd.fail("players", f"expected 2 to 4 players (EN-S1), got {len(players)}")
    names = []
    for i, pl in enumerate(players):
        pl = rd.table(pl, f"players[{i}]", PLAYER_KEYS)
        name = pl.get("name", chr(ord("A") + i))
        if not isinstance(name, str) or not name or name in names:
            rd.fail(f"players[{i}].name", f"expected a new non-empty name, got {name!r}")
        names.append(name)

    conf_raw = raw.get("config", {})
    if not isinstance(conf_raw, dict):
        rd.fail("config", f"expected an object, got {conf_raw!r}")
    conf_raw = dict(conf_raw)
    conf_raw.setdefault("players", len(players))
    base = Path(path).resolve().parent
    for key, value in list(conf_raw.items()):       # content files: relative to the position file
        if key.endswith("_file") and isinstance(value, str) and value and not Path(value).is_absolute():
            conf_raw[key] = str(base / value)
    config = build(Config, conf_raw, source, "config.")
    if config.players != len(players):
        rd.fail("config.players", f"does not match the {len(players)} listed players")
    content = load_content(config, source)

    # favour tiles on the peoples' spaces (EN-S11, EN-A10; the blank tile EN-V1, EN-V2)
    tile_by_id = {t.id: t for t in content.favour_tiles}
    blank = content.blank_tile
    if blank is not None:
        tile_by_id[blank.id] = blank
    tiles_raw = raw.get("favour_tiles", {})
    if not isinstance(tiles_raw, dict):
        rd.fail("favour_tiles", f"expected an object {{people: tile id}}, got {tiles_raw!r}")
    tiles, placed = [None] * 4, {}
    for key, tid in tiles_raw.items():
        place = f"favour_tiles.{key}"
        q = _people_key(rd, key, place)
        if tiles[q] is not None:
            rd.fail(place, f"{PEOPLES[q]} has a tile already")
        if not isinstance(tid, str) or tid not in tile_by_id:
            rd.fail(place, f"unknown favour tile {tid!r}; expected one of {', '.join(tile_by_id)}")
        if tid in placed:
            rd.fail(place, f"{tid} already lies on the {placed[tid]} space (each tile is used once, EN-S10)")
        if blank is not None and tid == blank.id and not config.blank_tile_variant:
            rd.fail(place, f"the blank tile {tid} is used only with config.blank_tile_variant = true (EN-V1)")
        placed[tid] = PEOPLES[q]
        tiles[q] = tile_by_id[tid]
    if config.blank_tile_variant and len(placed) == 4 and blank.id not in placed:
        rd.fail("favour_tiles", f"with blank_tile_variant one of the four tiles is the blank tile {blank.id} (EN-V1)")

    card_index = {c.id: i for i, c in enumerate(content.cards)}
    owner = {}
    limit = ROUNDS * config.recruits_per_round
    points, cards, posts, favour = [], [], [], []
    holders = {}                                    # (people, space) -> player name
    for i, pl in enumerate(players):
        place = f"players[{i}]"
        points.append(rd.integer(pl.get("points", 0), place + ".points", 0))
        tableau = []
        listed = rd.array(pl.get("cards", []), place + ".cards")
        if len(listed) > limit:
            rd.fail(place + ".cards", f"expected at most {limit} cards ({ROUNDS} rounds x {config.recruits_per_round}, "
                    f"EN-R21), got {len(listed)}")
        for j, cid in enumerate(listed):
            if not isinstance(cid, str) or cid not in card_index:
                rd.fail(f"{place}.cards[{j}]", f"unknown card {cid!r}; expected a card id of the cards file, e.g. BL01")
            if cid in owner:
                rd.fail(f"{place}.cards[{j}]", f"{cid} is already in {owner[cid]}'s tableau (each card exists once)")
            owner[cid] = names[i]
            tableau.append(card_index[cid])
        cards.append(tableau)
        least = least_points(content, tableau)
        if points[i] < least:
            rd.fail(place + ".points", f"{names[i]}'s cards gave at least {least} points (their immediate pts, "
                    f"EN-R17, and one income of each trader, EN-R62), got {points[i]}")
        posts_raw = rd.table(pl.get("posts", {}), place + ".posts", REGIONS)
        posts.append([rd.integer(posts_raw.get(r, 0), f"{place}.posts.{r}", 0, POSTS_PER_DOCK) for r in REGIONS])
        favour_raw = pl.get("favour", {})
        if not isinstance(favour_raw, dict):
            rd.fail(place + ".favour", f"expected an object {{people: \"first\" or \"second\"}}, got {favour_raw!r}")
        marks = [0, 0, 0, 0]
        for key, space in favour_raw.items():
            fplace = f"{place}.favour.{key}"
            q = _people_key(rd, key, fplace)
            if marks[q]:
                rd.fail(fplace, f"a second favour marker of the {PEOPLES[q]} (one per people, EN-R109)")
            if space not in SPACES:
                rd.fail(fplace, f"expected \"first\" or \"second\", got {space!r}")
            if tiles[q] is None:
                rd.fail(fplace, f"no favour tile is given for the {PEOPLES[q]} (favour_tiles.{PEOPLES[q]})")
            held_by = holders.get((q, space))
            if held_by is not None:
                rd.fail(fplace, f"the {space} space of {tiles[q].id} ({PEOPLES[q]}) is already {held_by}'s "
                        "(one player per space, EN-R108)")
            symbols = sum(content.cards[c].symbols[q] for c in tableau)
            if symbols < config.favour_symbols:
                rd.fail(fplace, f"{names[i]} holds {symbols} {PEOPLES[q]} symbol(s), fewer than the "
                        f"{config.favour_symbols} that win a favour (EN-R107, EN-A22)")
            holders[(q, space)] = names[i]
            marks[q] = SPACES.index(space) + 1
        favour.append(marks)
    for q in range(4):
        if (q, "second") in holders and (q, "first") not in holders:
            name = holders[(q, "second")]
            rd.fail(f"players[{names.index(name)}].favour.{PEOPLES[q]}",
                    f"{name} holds the second space of {tiles[q].id} but nobody holds the first "
                    "(a favour takes the first space while it is free, EN-R108)")
        free = [space for space in SPACES if (q, space) not in holders]
        for i, name in enumerate(names):
            symbols = sum(content.cards[c].symbols[q] for c in cards[i])
            if free and not favour[i][q] and symbols >= config.favour_symbols:
                where = f"the {free[0]} space of {tiles[q].id}" if tiles[q] is not None else \
                    f"a space of the {PEOPLES[q]}' tile (none given in favour_tiles)"
                rd.fail(f"players[{i}].favour", f"{name} holds {symbols} {PEOPLES[q]} symbols but no favour marker of "
                        f"them while {where} is free (the favour is won on reaching {config.favour_symbols}, "
                        "EN-R107, EN-R108, EN-A22)")
    return Position(config, content, names, points, cards, posts, tiles, favour)
