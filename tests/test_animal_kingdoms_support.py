"""Helpers shared by the Animal Kingdoms tests (no tests here): scenarios for oracle and engine.

A *scenario* is a plain dict describing a game in the middle of an age (cards by name, seats
by index). ``oracle_from`` builds an oracle with those fields, ``engine_from`` a batch-of-one
engine state, so a rule test can run the same situation through both implementations.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from sim.games.animal_kingdoms import engine
from sim.games.animal_kingdoms.config import Config
from sim.games.animal_kingdoms.content import load_content
from sim.games.animal_kingdoms.state import empty_state
from sim.games.animal_kingdoms.tables import build_tables
from tests.oracle_animal_kingdoms import Oracle

_CONTENT = {}


def content_for(config):
    key = repr(config)
    if key not in _CONTENT:
        _CONTENT[key] = load_content(config)
    return _CONTENT[key]


def card(content, name: str) -> int:
    for c in content.cards:
        if c.name == name:
            return c.index
    raise KeyError(name)


def kingdom(content, kid: str) -> int:
    return [k.id for k in content.kingdoms].index(kid)


def decree(content, did: str) -> int:
    return [d.id for d in content.decrees].index(did)


def config_of(sc) -> Config:
    return Config(**sc.get("config", {}))


def oracle_from(sc) -> Oracle:
    """An oracle at the scenario's position (no generator running: drive its sub-generators)."""
    cfg = config_of(sc)
    ct = content_for(cfg)
    o = Oracle(cfg, ct, seed=sc.get("seed", 0), game_id=0, start=False)
    K = o.K
    cards = lambda names: [card(ct, n) for n in names]  # noqa: E731
    o.hands = [sorted(cards(sc.get("hands", {}).get(p, []))) for p in range(o.P)]
    o.deck = cards(sc.get("deck", []))
    o.discard = set(cards(sc.get("discard", [])))
    o.columns = [cards(sc.get("columns", {}).get(k.id, [])) for k in ct.kingdoms]
    o.bonus = cards(sc.get("bonus", []))
    if "decrees" in sc:
        o.decrees = [decree(ct, sc["decrees"][k.id]) for k in ct.kingdoms]
    o.ordm = [[sc.get("ordinary", {}).get(k.id, {}).get(p, 0) for p in range(o.P)] for k in ct.kingdoms]
    o.cap = [sc.get("capital", {}).get(k.id) for k in ct.kingdoms]
    o.council = [[sc.get("council", {}).get(k.id, []).count(p) for p in range(o.P)] for k in ct.kingdoms]
    on_board = [sum(o.ordm[k][p] + (o.cap[k] == p) + o.council[k][p] for k in range(K)) for p in range(o.P)]
    o.supply = [sc.get("supply", {}).get(p, o.markers[p] - on_board[p]) for p in range(o.P)]
    if "tiles" in sc:
        o.fp = [list(sc["tiles"].get(k.id, [0, 0, 0])) for k in ct.kingdoms]
        o.fp_next = [0] * K
    o.rt = list(sc.get("retreat_tiles", o.rt))
    o.rt_owner = list(sc.get("rt_owner", [None] * 3))
    o.mods = [sc.get("mods", {}).get(p, 0) for p in range(o.P)]
    o.mod_supply = sc.get("mod_supply", o.M - sum(o.mods))
    for comp in ("first", "second", "third", "rally"):
        o.pts[comp] = [sc.get("points", {}).get(comp, {}).get(p, 0) for p in range(o.P)]
    o.age = sc.get("age", 0)
    o.age_start = sc.get("age_start", 0)
    o.active = [p not in sc.get("retreated", []) for p in range(o.P)]
    o.retreated_age = o.retreated_ever = bool(sc.get("retreated"))
    o.cap_turn = [sc.get("cap_turn", {}).get(p) for p in range(o.P)]
    o.human_last = sc.get("human_last")
    o.turns = o.age_turns = sc.get("turns", 0)
    return o


def engine_from(o: Oracle, phase: int, cur: int | None = None):
    """A batch-of-one engine state with the oracle's fields, at ``phase``, current player ``cur``."""
    t = build_tables(o.cfg, o.ct)
    s = empty_state(t, 1)
    N = t.N
    s.deck_key[0] = o.deck_key[0]
    s.shuffles[0] = o.shuffles
    s.phase[0] = phase
    s.age[0] = o.age
    s.cur[0] = o.age_start if cur is None else cur
    s.age_start[0] = o.age_start
    s.active[0] = o.active
    s.ret_age[0], s.ret_ever[0] = o.retreated_age, o.retreated_ever
    s.age_turns[0], s.turns[0], s.rounds[0] = o.age_turns, o.turns, o.rounds
    s.cap_turn[0] = [1 << 30 if v is None else v for v in o.cap_turn]
    s.first_cap[0] = [1 << 30 if v is None else v for v in o.first_cap_game]
    s.human_last[0] = -1 if o.human_last is None else o.human_last
    s.robot_last[0] = -1 if o.robot_last is None else o.robot_last
    for p in range(o.P):
        s.hand[0, p] = sorted(o.hands[p]) + [N] * (t.H - len(o.hands[p]))
    s.deck[0, :len(o.deck)] = o.deck
    s.dtop[0], s.dend[0] = 0, len(o.deck)
    s.disc[0] = [c in o.discard for c in range(N)]
    for k in range(t.K):
        s.col[0, k, :len(o.columns[k])] = o.columns[k]
        s.clen[0, k] = len(o.columns[k])
        s.last[0, k] = o.columns[k][-1] if o.columns[k] else N
    s.bonus[0, :len(o.bonus)] = o.bonus
    s.decree[0] = o.decrees
    s.dorder[0] = o.decree_order
    s.ordm[0] = o.ordm
    s.cap[0] = [-1 if c is None else c for c in o.cap]
    s.council[0] = o.council
    s.supply[0] = o.supply
    for k in range(t.K):
        s.fp[0, k, :len(o.fp[k])] = o.fp[k]
    s.fpn[0] = o.fp_next
    s.rt[0, :len(o.rt)] = o.rt
    s.rt_owner[0] = [-1 if v is None else v for v in o.rt_owner]
    s.pf[0], s.ps[0], s.pt[0], s.pr[0] = o.pts["first"], o.pts["second"], o.pts["third"], o.pts["rally"]
    s.mods[0] = o.mods
    s.msup[0] = o.mod_supply
    return s


def run_oracle(gen, choose):
    """Drive an oracle sub-generator; ``choose(decider, legal)`` picks each action."""
    try:
        decision = next(gen)
        while True:
            decision = gen.send(choose(*decision))
    except StopIteration as stop:
        return stop.value


def run_engine_until(s, phases, choose, limit=1000):
    """Step an engine state until its phase is in ``phases``; ``choose(decider, legal_indices)``."""
    s = engine.advance(s)
    for _ in range(limit):
        if int(s.phase[0]) in phases:
            return s
        legal = np.nonzero(engine.legal_actions(s)[0])[0]
        s = engine.step(s, np.array([choose(int(s.dec[0]), list(legal))]))
    raise AssertionError("did not reach the phase")


def play_random(config, game_ids, seed, pick=None):
    """Play games to the end with a random legal policy; returns the final engine state."""
    from sim.games.animal_kingdoms.game import GAME
    content = content_for(config)
    s = GAME.init(config, content, np.asarray(game_ids), seed)
    rng = np.random.default_rng(seed)
    while not GAME.done(s).all():
        legal = GAME.legal_actions(s)
        u = rng.random(len(legal))
        counts = legal.sum(axis=1)
        rank = np.minimum((u * counts).astype(np.int64), np.maximum(counts - 1, 0))
        acts = np.argmax(np.cumsum(legal, axis=1) > rank[:, None], axis=1)
        s = GAME.step(s, acts)
        if pick is not None:
            pick(s)
    return s


def replace_config(config, **changes):
    return dataclasses.replace(config, **changes)


def scripted(ct, cards: dict, mods: dict | None = None):
    """A chooser for battles: seat -> list of card names played in order, seat -> list of modifier counts."""
    cards = {p: [card(ct, n) for n in names] for p, names in cards.items()}
    mods = {p: list(v) for p, v in (mods or {}).items()}
    return cards, mods


def score_with_oracle(o, cards: dict, mods: dict | None = None):
    """Run the oracle's age scoring with scripted battle cards and modifier uses."""
    script, uses = scripted(o.ct, cards, mods)

    def choose(p, legal):
        if legal[0] >= o.A_MODS and legal[0] < o.A_YES:
            return o.A_MODS + (uses.get(p) or [0]).pop(0) if uses.get(p) else o.A_MODS
        return o.A_BATTLE + o.hands[p].index(script[p].pop(0))

    run_oracle(o.score_age(), choose)
    return o


def score_with_engine(o_before, cards: dict, mods: dict | None = None):
    """The same scoring on the engine (the scenario must have ``age`` 2, so the game ends after it)."""
    from sim.games.animal_kingdoms.state import BCARD, BMOD, DONE, SCORE
    script, uses = scripted(o_before.ct, cards, mods)
    s = engine_from(o_before, SCORE)
    s.sj[0] = 0
    s = engine.advance(s)
    t = s.t
    for _ in range(100):
        phase, p = int(s.phase[0]), int(s.dec[0])
        if phase == DONE:
            return s
        if phase == BCARD:
            hand = [int(c) for c in s.hand[0, p] if c != t.N]
            a = t.A_BATTLE + hand.index(script[p].pop(0))
        elif phase == BMOD:
            a = t.A_MODS + (uses[p].pop(0) if uses.get(p) else 0)
        else:
            raise AssertionError(phase)
        s = engine.step(s, np.array([a]))
    raise AssertionError("scoring did not end")
