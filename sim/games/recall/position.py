"""Score a described end-of-game position of Recall (format: docs/recall_positions.md).

A designer writes the state after the last round (score track, purple points, knowledge
tracks, stones, key cards, artifacts, buildings on the map, crystals, followers, path discs,
kept goal cards, ...) and gets every player's final score sheet from ``scoring.py``, the code
the engine uses. Every problem is an ``InputError`` naming the file and the JSON path: unknown
ids, impossible counts, a building placed twice, states no game can reach; the file is read by
``sim.core.datafiles.read_json`` (duplicate keys and deep nesting refused).
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from sim.core.config import build
from sim.core.datafiles import JsonReader, read_json
from sim.games.recall.board import Board, Fields, Layout, build_board, enterable, fields
from sim.games.recall.config import Config
from sim.games.recall.content import load_content
from sim.games.recall.content_types import (
    ARTIFACT_COLOURS, BUILDINGS, CAMP, CRYSTALS, FOREST, GOAL_KINDS, GRAIN, MONUMENT, PATHS, SIDES, TRACKS, VOLCANO,
    WORKSHOP_TERRAINS, Content,
)
from sim.games.recall.scoring import (
    COMPONENTS, Components, EndState, final_scoring, ranks, scoring_tables, solo_goals,
)

TOP_KEYS = ("comment", "config", "path_cards", "board", "monument_tiles", "old_tribes", "islands", "pig_farms",
            "players")
ISLAND_ON = ("water", "grain", "forest", "mountain")       # RC-R216
PLAYER_KEYS = ("name", "tribe", "score", "purple", "tracks", "stones", "key_cards", "artifacts", "buildings",
               "crystals", "followers", "paths", "goals", "upgrade_tiles")


@dataclasses.dataclass
class Position:
    config: Config
    content: Content
    board: Board
    fields: Fields
    names: list
    tribes: list                 # own tribe id per seat, or ""
    end: EndState
    components: list             # Components per seat (solo goal split)
    goal_cards: list             # kept goal card indices per seat


def score_position(path) -> list[dict]:
    """Final score sheet per seat (the order of ``players``) of the position in ``path``.

    Each dict has ``seat``, ``name``, ``faction`` (the own tribe, or ``none``), the components
    of ``scoring.COMPONENTS``, ``score``, ``rank``, ``win_share``, the tracks
    (``rc_track_<colour>``, the tie-breaks) and ``rc_goal_met``.
    """
    pos = load_position(path)
    t = scoring_tables(pos.content)
    cfg = pos.config
    solo = None
    if cfg.players == 1:
        goals = [pos.content.goal_cards[g] for g in pos.goal_cards[0]]
        cards = [(GOAL_KINDS[g.kind], g.n) for g in goals]
        solo = np.array([[solo_goals(pos.components[0], cards, cfg.solo_goals, cfg.goal_stones)]])
    sheet = final_scoring(t, pos.end, cfg.goal_stones, solo)
    rank, share = ranks(sheet["score"], pos.end.tracks)
    if solo is not None:
        share = solo.astype(float)                                   # RC-V13, RC-V14: win only with two goals
    rows = []
    for p, name in enumerate(pos.names):
        row = {"seat": p, "name": name, "faction": pos.tribes[p] or "none"}
        row.update({c: int(sheet[c][0, p]) for c in COMPONENTS})
        row["score"] = int(sheet["score"][0, p])
        row["rank"] = int(rank[0, p])
        row["win_share"] = float(share[0, p])
        for k, colour in enumerate(TRACKS):
            row[f"rc_track_{colour}"] = int(pos.end.tracks[0, p, k])
        row["rc_goal_met"] = bool(row["score_goal"] > 0)
        rows.append(row)
    return rows


# ---- reading and validating ----------------------------------------------------------------

class _Reader(JsonReader):
    def counts(self, value, place, names, hi=None):
        raw = self.table(value if value is not None else {}, place, names)
        return [self.integer(raw.get(n, 0), f"{place}.{n}", 0, hi) for n in names]

    def choice(self, value, place, names, what):
        if value not in names:
            self.fail(place, f"unknown {what} {value!r}; expected one of {', '.join(names)}")
        return names.index(value)


def _config(rd, raw, path, players) -> Config:
    conf_raw = raw.get("config", {})
    if not isinstance(conf_raw, dict):
        rd.fail("config", f"expected an object, got {conf_raw!r}")
    conf_raw = dict(conf_raw)
    conf_raw.setdefault("players", players)
    base = Path(path).resolve().parent
    for key, value in list(conf_raw.items()):       # content files: relative to the position file
        if key.endswith("_file") and isinstance(value, str) and value and not Path(value).is_absolute():
            conf_raw[key] = str(base / value)
    config = build(Config, conf_raw, rd.source, "config.")
    if config.players != players:
        rd.fail("config.players", f"does not match the {players} listed players")
    return config


def _path_cards(rd, raw, config, content):
    cards = rd.array(raw.get("path_cards"), "path_cards")
    if len(cards) != len(PATHS):
        rd.fail("path_cards", f"expected the {len(PATHS)} path cards top to bottom, e.g. \"knowledge:a\", got {len(cards)}")
    order, sides, seen = [], [], {}
    fixed = config.sides()
    for i, text in enumerate(cards):
        place = f"path_cards[{i}]"
        name, _, side = str(text).partition(":")
        p = rd.choice(name, place, PATHS, "path")
        if p in seen:
            rd.fail(place, f"{name} is already at position {seen[p] + 1} (each path card once, RC-S4)")
        s = rd.choice(side, place + " side", SIDES, "side")
        if fixed is not None and s != fixed[p]:
            rd.fail(place, f"side {side} of {name}, but config.path_sides = {config.path_sides!r} gives "
                    f"{SIDES[fixed[p]]} (RC-S5, RC-A10)")
        seen[p] = i
        order.append(p)
        sides.append(s)
    return order, sides


def _layout(rd, raw, config, content, board) -> Layout:
    tiles = {t.id: i for i, t in enumerate(content.area_tiles)}
    listed = rd.table(raw.get("board", {}), "board", board.slot_ids)
    tile = [-1] * board.n_slots
    rotation = [0] * board.n_slots
    face_up = [False] * board.n_slots
    start_slots = [board.slot_ids.index(s) for s in content.map.start_tile_slots]
    for sid, entry in listed.items():
        k = board.slot_ids.index(sid)
        entry = rd.table(entry, f"board.{sid}", ("tile", "rotation"))
        tid = entry.get("tile")
        if tid not in tiles:
            rd.fail(f"board.{sid}.tile", f"unknown area tile {tid!r}; expected one of {', '.join(tiles)}")
        if tiles[tid] in tile:
            rd.fail(f"board.{sid}.tile", f"{tid} already lies in slot {board.slot_ids[tile.index(tiles[tid])]}")
        i = tiles[tid]
        if (i < 2) != (k in start_slots) or (i < 2 and start_slots[i] != k):
            where = content.map.start_tile_slots[i] if i < 2 else "a slot other than " + ", ".join(content.map.start_tile_slots)
            rd.fail(f"board.{sid}.tile", f"{tid} lies in {where} (RC-S15, RC-S17)")
        tile[k], face_up[k] = i, True
        rotation[k] = rd.integer(entry.get("rotation", 0), f"board.{sid}.rotation", 0, 5)
    needed = start_slots[:1] if config.players <= 2 else start_slots
    for k in needed:
        if not face_up[k]:
            rd.fail("board", f"the start tile of slot {board.slot_ids[k]} is face up from the start (RC-S15, RC-S16): "
                    "list it")
    free = [i for i in range(len(content.area_tiles)) if i not in tile]
    for k in range(board.n_slots):                    # face-down slots: any remaining tile (hidden)
        if tile[k] < 0:
            tile[k] = next(i for i in free if (i < 2) == (k in start_slots))
            free.remove(tile[k])
    return Layout(tuple(tile), tuple(rotation), tuple(face_up))


def _field(rd, text, place, board: Board, fl: Fields) -> int:
    names = {board.name(f): f for f in range(board.n_fields)}
    if text not in names:
        rd.fail(place, f"unknown field {text!r}; expected <slot>:<0..6> (e.g. L:3), a board monument id "
                f"({', '.join(board.board_monument_ids)}) or river<i>")
    f = names[text]
    if not fl.face_up[f]:
        rd.fail(place, f"field {text} lies on a face-down tile (list the tile under \"board\")")
    return f


def load_position(path) -> Position:
    source = str(path)
    rd = _Reader(source)
    raw = rd.table(read_json(Path(path)), "", TOP_KEYS)
    players = rd.array(raw.get("players"), "players")
    if not 1 <= len(players) <= 4:
        rd.fail("players", f"expected 1 to 4 players, got {len(players)}")
    config = _config(rd, raw, path, len(players))
    content = load_content(config, source)
    board = build_board(content.map)
    order, sides = _path_cards(rd, raw, config, content)
    layout = _layout(rd, raw, config, content, board)
    fl = fields(board, content, layout)
    s = content.setup
    n = P = len(players)
    tribe_ids = [t.id for t in content.tribes]

    # Enterin's islands (RC-R216, RC-R217, RC-A50): the field becomes water and forest
    islands = []
    for j, key in enumerate(rd.array(raw.get("islands", []), "islands")):
        f = _field(rd, key, f"islands[{j}]", board, fl)
        if content.map.terrains[fl.terrain[f]].name not in ISLAND_ON or f in islands:
            rd.fail(f"islands[{j}]", f"an island lies on a water (printed river included, RC-A65), grain, forest or mountain field, "
                    f"at most one per field (RC-R216), got {key}")
        islands.append(f)
    if len(islands) > s.islands:
        rd.fail("islands", f"{len(islands)} islands, the game has {s.islands} (RC-A36)")
    for f in islands:
        fl.terrain[f], fl.pigs[f] = FOREST, 0

    old = [""] * len(TRACKS)
    old_raw = rd.table(raw.get("old_tribes", {}), "old_tribes", TRACKS)
    for colour, tid in old_raw.items():
        k = TRACKS.index(colour)
        rd.choice(tid, f"old_tribes.{colour}", tribe_ids, "tribe")
        if tid in old:
            rd.fail(f"old_tribes.{colour}", f"{tid} is already the old tribe of another track")
        old[k] = tid

    # monument tiles on tile monument fields (RC-R142)
    mt_ids = [m.id for m in content.monument_tiles]
    tile_at, mt_place = {}, {}
    for key, mid in rd.table(raw.get("monument_tiles", {}), "monument_tiles", [board.name(f) for f in range(board.n_fields)]).items():
        place = f"monument_tiles.{key}"
        f = _field(rd, key, place, board, fl)
        if fl.terrain[f] != MONUMENT:
            rd.fail(place, f"{key} is not a monument field of an area tile (mn)")
        m = rd.choice(mid, place, mt_ids, "monument tile")
        if m in mt_place:
            rd.fail(place, f"{mid} already lies on {mt_place[m]}")
        tile_at[f], mt_place[m] = m, key

    names, tribes, holders = [], [], []
    end = {k: [] for k in ("score", "purple", "tracks", "stones", "sanctuaries", "board_monuments", "monument_tiles",
                           "keys", "artifacts", "crystals", "followers", "discs", "goals", "upgrade_tiles",
                           "old_tribes", "camps", "area_tiles")}
    presence, components, kept_all = [], [], []
    key_ids = [k.id for k in content.key_cards]
    goal_ids = [g.id for g in content.goal_cards]
    goal_owner, mt_built = {}, set()
    key_total = np.zeros(len(key_ids), dtype=np.int64)
    art_total = np.zeros(len(ARTIFACT_COLOURS), dtype=np.int64)
    stone_total = np.zeros(len(TRACKS), dtype=np.int64)
    kept_n = (3 if config.solo_goals == "keep_three" else 2) if n == 1 else 1
    for i, pl in enumerate(players):
        place = f"players[{i}]"
        pl = rd.table(pl, place, PLAYER_KEYS)
        name = pl.get("name", f"P{i + 1}")
        if not isinstance(name, str) or not name or name in names:
            rd.fail(place + ".name", f"expected a new non-empty name, got {name!r}")
        names.append(name)
        tribe = pl.get("tribe", "")
        if tribe:
            rd.choice(tribe, place + ".tribe", tribe_ids, "tribe")
            if tribe in tribes or tribe in old:
                rd.fail(place + ".tribe", f"{tribe} is already another player's tribe or an old tribe")
        tribes.append(tribe)
        tracks = rd.counts(pl.get("tracks"), place + ".tracks", TRACKS, content.knowledge.last)
        unlocked = [old[k] for k in range(len(TRACKS)) if tracks[k] >= content.knowledge.fifth and old[k]]
        holders.append({tribe, *unlocked} - {""})
        score = rd.integer(pl.get("score", 0), place + ".score", 0)
        upgrades = rd.integer(pl.get("upgrade_tiles", 0), place + ".upgrade_tiles", 0, len(content.upgrade_symbols))
        passed = sum(x <= score for x in content.upgrade_symbols)
        if upgrades > passed and "Aynir" not in holders[-1]:
            rd.fail(place + ".upgrade_tiles", f"{upgrades} upgrade tiles, but a score of {score} passed only {passed} "
                    "upgrade symbols (RC-R177, RC-A13; only Aynir moves back)")
        stones = rd.counts(pl.get("stones"), place + ".stones", TRACKS)
        keys = [0] * len(key_ids)
        for kid, count in rd.table(pl.get("key_cards", {}), place + ".key_cards", key_ids).items():
            keys[key_ids.index(kid)] = rd.integer(count, f"{place}.key_cards.{kid}", 0)
        white = content.key_cards[0]
        if keys[0] > white.count:
            rd.fail(f"{place}.key_cards.{white.id}", f"at most {white.count} white start cards per player (RC-S25)")
        artifacts = rd.counts(pl.get("artifacts"), place + ".artifacts", ARTIFACT_COLOURS,
                              content.board.artifact_rows.columns)
        crystals = rd.counts(pl.get("crystals"), place + ".crystals", CRYSTALS, s.crystal_cap)

        # buildings (RC-R116, RC-R117, RC-R131, RC-R138)
        built, where, per_kind = [], {}, [0, [0] * len(WORKSHOP_TERRAINS), 0]
        bm = [0] * len(TRACKS)
        mtiles = [0] * len(mt_ids)
        for j, b in enumerate(rd.array(pl.get("buildings", []), place + ".buildings")):
            bplace = f"{place}.buildings[{j}]"
            b = rd.table(b, bplace, ("kind", "at"))
            kind = rd.choice(b.get("kind"), bplace + ".kind", BUILDINGS, "building")
            f = _field(rd, b.get("at"), bplace + ".at", board, fl)
            if f in where:
                rd.fail(bplace + ".at", f"{name} already has a building on {b['at']} (buildings[{where[f]}]; "
                        "one own building per field, RC-R117)")
            takes = content.map.terrains[fl.terrain[f]].building
            if takes != kind:
                rd.fail(bplace + ".at", f"a {BUILDINGS[kind]} cannot stand on {b['at']} "
                        f"({content.map.terrains[fl.terrain[f]].name}, RC-R116)")
            where[f] = j
            if kind == 1:
                col = WORKSHOP_TERRAINS.index(content.map.terrains[fl.terrain[f]].name)
                per_kind[1][col] += 1
                if per_kind[1][col] > len(content.board.workshops[col]):
                    rd.fail(bplace, f"more {WORKSHOP_TERRAINS[col]} workshops than the "
                            f"{len(content.board.workshops[col])} of the player board (RC-A21)")
            else:
                per_kind[kind] += 1
            if f in board.board_monuments:
                bm[content.map.board_monuments[board.board_monuments.index(f)].track] = 1
            elif kind == 2:
                if f not in tile_at:
                    rd.fail(bplace + ".at", f"a monument on {b['at']}: the first builder lays a monument tile there "
                            f"(RC-R142); give it under \"monument_tiles\"")
                mtiles[tile_at[f]] = 1
                mt_built.add(tile_at[f])
            camps = frozenset(int(fl.camp[h]) for h in board.neighbours[f] if h >= 0 and fl.face_up[h] and fl.terrain[h] == CAMP)
            built.append((kind, int(board.slot[f]), camps))
        if per_kind[0] > len(content.board.sanctuaries):
            rd.fail(place + ".buildings", f"{per_kind[0]} sanctuaries, the player board has {len(content.board.sanctuaries)}")
        if per_kind[2] > len(content.board.monuments):
            rd.fail(place + ".buildings", f"{per_kind[2]} monuments, the player board has {len(content.board.monuments)}")

        # followers on the board (RC-E27, RC-A39)
        ok = enterable(content, fl, volcano="Colteron" in holders[-1])
        followers = {}
        for key, count in rd.table(pl.get("followers", {}), place + ".followers",
                                   [board.name(f) for f in range(board.n_fields)]).items():
            fplace = f"{place}.followers.{key}"
            f = _field(rd, key, fplace, board, fl)
            if not ok[f] and fl.terrain[f] != VOLCANO:
                rd.fail(fplace, f"followers cannot stand on {key} ({content.map.terrains[fl.terrain[f]].name}, RC-R88, RC-A62)")
            if not ok[f]:
                rd.fail(fplace, f"followers stand on the volcano {key} only with Colteron's ability (RC-R209, RC-A45)")
            followers[f] = rd.integer(count, fplace, 1)
        if sum(followers.values()) > s.follower_units:
            rd.fail(place + ".followers", f"{sum(followers.values())} followers on the board, a player has "
                    f"{s.follower_units} (RC-A39)")
        presence.append((set(followers) | set(where), {int(board.slot[f]) for f in set(followers) | set(where)}))

        # path discs (RC-R184, RC-R185)
        chosen = rd.array(pl.get("paths"), place + ".paths")
        if len(chosen) != 3:
            rd.fail(place + ".paths", f"expected the path card chosen in each of the 3 path rounds, got {len(chosen)}")
        discs = [0] * len(PATHS)
        for k, pname in enumerate(chosen):
            p = rd.choice(pname, f"{place}.paths[{k}]", PATHS, "path")
            at = order.index(p)
            if at // 2 != k:
                rd.fail(f"{place}.paths[{k}]", f"{pname} lies at position {at + 1}, not in path sector {k + 1} "
                        f"(positions {2 * k + 1}-{2 * k + 2}, RC-A9)")
            discs[at] = 1

        kept = rd.array(pl.get("goals"), place + ".goals")
        if len(kept) != kept_n:
            rd.fail(place + ".goals", f"expected {kept_n} kept goal card(s) (RC-R190, RC-A54), got {len(kept)}")
        goals = [0] * len(goal_ids)
        for k, gid in enumerate(kept):
            g = rd.choice(gid, f"{place}.goals[{k}]", goal_ids, "goal card")
            if g in goal_owner:
                rd.fail(f"{place}.goals[{k}]", f"{gid} is already kept by {goal_owner[g]}")
            goal_owner[g] = name
            goals[g] = 1
        kept_all.append([goal_ids.index(g) for g in kept])

        old_count = sum(x >= content.knowledge.fifth for x in tracks)
        key_total += keys
        art_total += artifacts
        stone_total += stones
        for k, v in (("score", score), ("purple", rd.integer(pl.get("purple", 0), place + ".purple", 0)),
                     ("tracks", tracks), ("stones", stones), ("sanctuaries", per_kind[0]), ("board_monuments", bm),
                     ("monument_tiles", mtiles), ("keys", keys), ("artifacts", artifacts), ("crystals", crystals),
                     ("followers", sum(followers.values())), ("discs", discs), ("goals", goals),
                     ("upgrade_tiles", upgrades), ("old_tribes", old_count),
                     ("camps", len(set().union(*[b[2] for b in built])) if built else 0),
                     ("area_tiles", len({b[1] for b in built if b[1] >= 0}))):
            end[k].append(v)
        components.append(Components(tuple(artifacts), tuple(stones), upgrades, sum(keys), old_count, tuple(built)))

    for m, key in mt_place.items():
        if m not in mt_built:
            rd.fail(f"monument_tiles.{key}", f"{mt_ids[m]} lies on {key} but nobody built a monument there "
                    "(the tile is laid by the first builder, RC-R142)")
    for k, kid in enumerate(key_ids):
        limit = content.key_cards[k].count * (P if k == 0 else 1)
        if key_total[k] > limit:
            rd.fail("players", f"{key_total[k]} {kid} key cards in all, the game has {limit}")
    for c, colour in enumerate(ARTIFACT_COLOURS):
        if art_total[c] > s.artifacts_per_colour[c]:
            rd.fail("players", f"{art_total[c]} {colour} artifacts in all, the game has {s.artifacts_per_colour[c]} (RC-A35)")
    for c, colour in enumerate(TRACKS):
        if stone_total[c] > s.stones_per_colour[c]:
            rd.fail("players", f"{stone_total[c]} {colour} stones in all, the bag holds {s.stones_per_colour[c]} (RC-A35)")

    # pig farms (RC-R210, RC-R211, RC-R214, RC-A57)
    farms = []
    for j, key in enumerate(rd.array(raw.get("pig_farms", []), "pig_farms")):
        f = _field(rd, key, f"pig_farms[{j}]", board, fl)
        if fl.terrain[f] != GRAIN:
            rd.fail(f"pig_farms[{j}]", f"a pig farm lies on a grain field, {key} is not one (RC-R210; an island "
                    "is no grain field, RC-A50)")
        if f in farms:
            rd.fail(f"pig_farms[{j}]", f"a second pig farm on {key} (at most 1 per grain field, RC-R211)")
        farms.append(f)
    if len(farms) > s.pig_farms:
        rd.fail("pig_farms", f"{len(farms)} pig farms, the game has {s.pig_farms} (RC-A36)")
    if islands and not any("Enterin" in h for h in holders):
        rd.fail("islands", "islands are laid by an Enterin-ability holder (RC-R216); no player has Enterin as "
                "own tribe or unlocked old tribe")
    if farms and not any("Dorian" in h for h in holders):
        rd.fail("pig_farms", "pig farms are laid by a Dorian-ability holder (RC-R210); no player has Dorian as "
                "own tribe or unlocked old tribe")
    pigs = []
    for p in range(P):
        if "Dorian" not in holders[p]:
            pigs.append(0)
        elif config.dorian_presence == "field":
            pigs.append(sum(f in presence[p][0] for f in farms))
        else:
            pigs.append(sum(int(board.slot[f]) in presence[p][1] for f in farms))

    arr = {k: np.array([v], dtype=np.int64) for k, v in end.items()}
    state = EndState(path_card=np.array([order]), path_side=np.array([sides]), pig_farms=np.array([pigs]), **arr)
    return Position(config, content, board, fl, names, tribes, state, components, kept_all)
