"""Score a described end-of-age position of Animal Kingdoms (format: docs/animal_kingdoms_positions.md).

A designer writes the board at the end of an age (markers per kingdom, capitals, councils, the
first-place tiles still there, hands, modifiers, points so far) and gets every seat's score
sheet as if the game ended with this scoring: the engine's own age scoring runs on a batch of
one game, its battles played from the file's script (or by a simple default policy), then the
end-of-game scoring (first-retreat tiles, modifiers, the tie-break on capitals held). Every
problem in the file is an ``InputError`` naming the file and the JSON path.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from sim.core.config import build
from sim.core.datafiles import JsonReader, read_json
from sim.core.errors import InputError
from sim.games.animal_kingdoms import engine
from sim.games.animal_kingdoms.config import Config
from sim.games.animal_kingdoms.content import load_content
from sim.games.animal_kingdoms.scoring import COMPONENTS, final_sheet
from sim.games.animal_kingdoms.state import BCARD, BMOD, COUNCIL, DONE, SCORE, empty_state
from sim.games.animal_kingdoms.tables import build_tables

TOP_KEYS = ("comment", "config", "players", "kingdoms", "deck", "modifier_supply", "age_start", "battles")
PLAYER_KEYS = ("name", "robot", "hand", "modifiers", "retreat_tiles", "first", "second", "third", "rally")
KINGDOM_KEYS = ("ordinary", "capital", "council", "tiles")
POINT_KEYS = ("first", "second", "third", "rally")


@dataclasses.dataclass
class Position:
    config: Config
    content: object
    names: list
    state: object
    battles: dict              # kingdom index -> list of rounds {seat: card index, "mods": {seat: n}}


def score_position(path) -> list[dict]:
    """Score sheet per seat (clockwise from the first listed player) of the position in ``path``.

    Each dict has ``seat``, ``name``, ``faction`` (``robot`` or ``none``), the ``score_*``
    components, ``score``, ``rank``, ``win_share`` and ``modifiers`` (held at the end).
    """
    pos = load_position(path)
    s = play_scoring(pos, str(path))
    sheet = final_sheet(s)
    rows = []
    for p, name in enumerate(pos.names):
        robot = p == s.t.robot
        row = {"seat": p, "name": name, "faction": "robot" if robot else "none"}
        row.update({k: int(sheet[k][0, p]) for k in COMPONENTS + ("score", "rank")})
        row["win_share"] = float(sheet["win_share"][0, p])
        row["modifiers"] = int(s.mods[0, p])
        rows.append(row)
    return rows


def play_scoring(pos: Position, source: str):
    """Run the age scoring of the position's state; battles from the script or the default policy."""
    s = engine.advance(pos.state)
    t = s.t
    chosen = {}
    while s.phase[0] != DONE:
        phase, p = int(s.phase[0]), int(s.dec[0])
        k = int(t.order[int(s.sj[0])])
        kid = t.content.kingdoms[k].id
        script = pos.battles.get(k)
        if phase == BCARD:
            r = chosen.get((k, p), 0)
            chosen[(k, p)] = r + 1
            hand = [int(c) for c in s.hand[0, p] if c != t.N]
            if script is not None:
                place = f"battles.{kid}[{r}].{pos.names[p]}"
                if r >= len(script) or p not in script[r]:
                    raise InputError(source, place, "the battle needs a card here (the script ends too early)")
                card = script[r][p]
                if card not in hand:
                    raise InputError(source, place, f"{t.content.cards[card].name} is not in {pos.names[p]}'s hand now")
            else:
                card = max(hand, key=lambda c: (t.content.cards[c].rank, c))
            action = t.A_BATTLE + hand.index(card)
        elif phase == BMOD:
            r = chosen.get((k, p), 1) - 1
            m = 0
            if script is not None and r < len(script):
                m = script[r].get("mods", {}).get(p, 0)
            if m > int(s.mods[0, p]):
                raise InputError(source, f"battles.{kid}[{r}].mods.{pos.names[p]}",
                                 f"{pos.names[p]} holds only {int(s.mods[0, p])} modifier(s)")
            action = t.A_MODS + m
        elif phase == COUNCIL:                     # not reached: the position is scored as the last age
            action = t.A_NO
        else:
            raise AssertionError(phase)
        s = engine.step(s, np.array([action]))
    return s


# ---- reading and validating ----------------------------------------------------------------

def load_position(path) -> Position:
    source = str(path)
    rd = JsonReader(source)
    raw = rd.table(read_json(Path(path)), "", TOP_KEYS)
    players = rd.array(raw.get("players"), "players")
    if not 2 <= len(players) <= 5:
        rd.fail("players", f"expected 2 to 5 seats (solo: the human and the robot), got {len(players)}")
    names, robots = [], []
    for i, pl in enumerate(players):
        pl = rd.table(pl, f"players[{i}]", PLAYER_KEYS)
        name = pl.get("name", chr(ord("A") + i))
        if not isinstance(name, str) or not name or name in names:
            rd.fail(f"players[{i}].name", f"expected a new non-empty name, got {name!r}")
        names.append(name)
        if pl.get("robot", False) is not False:
            if pl["robot"] is not True:
                rd.fail(f"players[{i}].robot", "expected true or false")
            robots.append(i)
    if len(robots) > 1 or (robots and len(players) != 2):
        rd.fail("players", "a solo position has exactly two seats, one of them the robot")
    solo = bool(robots)
    conf_raw = dict(raw.get("config", {}) if isinstance(raw.get("config", {}), dict) else rd.fail("config", "expected an object"))
    conf_raw.setdefault("players", 1 if solo else len(players))
    if solo:
        conf_raw.setdefault("solo_first_player", "human" if robots[0] == 1 else "robot")
    config = build(Config, conf_raw, source, "config.")
    if config.seats != len(players) or (solo and config.players != 1):
        rd.fail("config.players", f"does not match the {len(players)} listed seats")
    if solo and (robots[0] == 1) != (config.solo_first_player == "human"):
        rd.fail("config.solo_first_player", "does not match the robot's place in players")
    content = load_content(config, source)
    t = build_tables(config, content)
    seat_of = {n: i for i, n in enumerate(names)}
    card_by_name = {}
    for c in content.cards:
        card_by_name.setdefault(c.name, []).append(c.index)
    used = set()
    retreat_left = list(content.first_retreat)        # the tiles of the box (AK-A20), each handed out once

    def card(value, place):
        if not isinstance(value, str) or value not in card_by_name:
            rd.fail(place, f"unknown card {value!r}; expected a card name like 'Lion 7'")
        free = [c for c in card_by_name[value] if c not in used]
        if not free:
            rd.fail(place, f"{value} is listed more often than the deck holds it")
        used.add(free[0])
        return free[0]

    def seat(value, place):
        if value not in seat_of:
            rd.fail(place, f"unknown player {value!r}; expected one of {', '.join(names)}")
        return seat_of[value]

    s = empty_state(t, 1)
    s.age[0] = 2                       # scored as the last age: the game ends after this scoring
    s.active[0] = False
    s.phase[0] = SCORE
    s.sj[0] = 0
    s.rt_owner[0] = -1
    a = 0
    for i, pl in enumerate(players):
        hand = rd.array(pl.get("hand", []), f"players[{i}].hand")
        if len(hand) > t.H:
            rd.fail(f"players[{i}].hand", f"expected at most {t.H} cards, got {len(hand)}")
        if hand and i in robots:
            rd.fail(f"players[{i}].hand", "the robot has no hand")
        cards = sorted(card(c, f"players[{i}].hand[{j}]") for j, c in enumerate(hand))
        s.hand[0, i, :len(cards)] = cards
        s.mods[0, i] = rd.integer(pl.get("modifiers", 0), f"players[{i}].modifiers", 0)
        for key in POINT_KEYS:
            value = rd.integer(pl.get(key, 0), f"players[{i}].{key}")
            getattr(s, {"first": "pf", "second": "ps", "third": "pt", "rally": "pr"}[key])[0, i] = value
        for j, v in enumerate(rd.array(pl.get("retreat_tiles", []), f"players[{i}].retreat_tiles")):
            if a >= 3:
                rd.fail(f"players[{i}].retreat_tiles[{j}]", "at most 3 first-retreat tiles are handed out (AK-R36)")
            value = rd.integer(v, f"players[{i}].retreat_tiles[{j}]")
            if value not in retreat_left:
                rd.fail(f"players[{i}].retreat_tiles[{j}]",
                        f"expected a first-retreat tile not given out yet (tiles {_values(content.first_retreat)}, "
                        f"AK-A20, AK-R36), got {value}")
            retreat_left.remove(value)
            s.rt[0, a] = value
            s.rt_owner[0, a] = i
            a += 1
    held = int(s.mods[0].sum())
    s.msup[0] = rd.integer(raw.get("modifier_supply", max(0, config.modifier_tiles - held)), "modifier_supply", 0)
    kingdoms = rd.table(raw.get("kingdoms", {}), "kingdoms", [k.id for k in content.kingdoms])
    for k in content.kingdoms:
        kd = rd.table(kingdoms.get(k.id, {}), f"kingdoms.{k.id}", KINGDOM_KEYS)
        place = f"kingdoms.{k.id}"
        ordinary = rd.table(kd.get("ordinary", {}), place + ".ordinary", names)
        for name, n in ordinary.items():
            s.ordm[0, k.index, seat_of[name]] = rd.integer(n, f"{place}.ordinary.{name}", 0)
        if s.ordm[0, k.index].sum() > k.size - 1:
            rd.fail(place + ".ordinary", f"{k.id} has only {k.size - 1} ordinary territories")
        if kd.get("capital") is not None:
            s.cap[0, k.index] = seat(kd["capital"], place + ".capital")
        council = rd.array(kd.get("council", []), place + ".council")
        if len(council) > k.council_spaces:
            rd.fail(place + ".council", f"{k.id} has only {k.council_spaces} council spaces")
        for j, name in enumerate(council):
            s.council[0, k.index, seat(name, f"{place}.council[{j}]")] += 1
        tiles = rd.array(kd.get("tiles", [0]), place + ".tiles")
        if len(tiles) > t.T:
            rd.fail(place + ".tiles", f"expected at most {t.T} tiles")
        for j, v in enumerate(tiles):
            s.fp[0, k.index, j] = rd.integer(v, f"{place}.tiles[{j}]")
        s.fpn[0, k.index] = 0 if tiles else t.T
        if s.cap[0, k.index] >= 0:
            _check_capital(rd, config, k, int(s.ordm[0, k.index].sum()), int(s.council[0, k.index].sum()))
    for p in range(len(players)):
        on_board = int(s.ordm[0, :, p].sum() + (s.cap[0] == p).sum() + s.council[0, :, p].sum())
        if on_board > t.markers[p]:
            rd.fail(f"players[{p}]", f"{names[p]} has {on_board} markers on the board but only {t.markers[p]}")
        s.supply[0, p] = t.markers[p] - on_board
    deck = [card(c, f"deck[{j}]") for j, c in enumerate(rd.array(raw.get("deck", []), "deck"))]
    s.deck[0, :len(deck)] = deck
    s.dtop[0], s.dend[0] = 0, len(deck)
    s.disc[0] = [c not in used for c in range(t.N)]
    s.age_start[0] = seat(raw["age_start"], "age_start") if "age_start" in raw else 0
    battles = {}
    script = rd.table(raw.get("battles", {}), "battles", [k.id for k in content.kingdoms])
    for kid, rounds in script.items():
        k = [kk.id for kk in content.kingdoms].index(kid)
        out = []
        for r, rnd in enumerate(rd.array(rounds, f"battles.{kid}")):
            rnd = rd.table(rnd, f"battles.{kid}[{r}]", names + ["mods"])
            entry = {}
            for name, value in rnd.items():
                if name == "mods":
                    mods = rd.table(value, f"battles.{kid}[{r}].mods", names)
                    entry["mods"] = {seat_of[n]: rd.integer(m, f"battles.{kid}[{r}].mods.{n}", 0) for n, m in mods.items()}
                elif not isinstance(value, str) or value not in card_by_name:
                    rd.fail(f"battles.{kid}[{r}].{name}", f"unknown card {value!r}")
                else:
                    entry[seat_of[name]] = _hand_card(s, seat_of[name], card_by_name[value])
            out.append(entry)
        battles[k] = out
    return Position(config, content, names, s, battles)


def _values(tiles) -> str:
    return ", ".join(str(v) for v in sorted(tiles))


def _check_capital(rd, config, k, ordinary: int, council: int):
    """AK-R14 (and AK-A8 when councils are claimable): a capital is taken only after every
    ordinary territory (and then every council space) is; a position must be reachable."""
    if ordinary < k.size - 1:
        rd.fail(f"kingdoms.{k.id}.capital", f"{k.id}'s capital is taken while {k.size - 1 - ordinary} of its "
                f"{k.size - 1} ordinary territories are free (AK-R14: the capital is claimed last)")
    if config.council_claimable and council < k.council_spaces:
        rd.fail(f"kingdoms.{k.id}.capital", f"{k.id}'s capital is taken while council spaces are free "
                "(council_claimable: they are claimed before the capital, AK-A8)")


def _hand_card(s, p, candidates):
    """The card index a script names: the copy in the player's hand if any, else the first copy."""
    hand = set(int(c) for c in s.hand[0, p])
    for c in candidates:
        if c in hand:
            return c
    return candidates[0]
