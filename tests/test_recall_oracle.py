"""Recall oracle: complete random games terminate with the invariants held after every decision.

A sample small enough for CI plays a few games per player count (1-4) and every variant; the
full count is a command (its result is recorded in docs/recall_model.md):

    /work/main/.venv/bin/python -m tests.test_recall_oracle --games 2000

Two random policies: ``uniform`` (every legal action alike) and ``busy`` (``end`` rarely, so
movements, development actions and abilities run deep), both seeded by the game index.
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections import Counter

import numpy as np
import pytest

from sim.games.recall.config import Config
from sim.games.recall.content import load_content
from tests.oracle_recall import PARTS, RcOracle

_CONTENT = {}


def content_for(cfg):
    if "c" not in _CONTENT:
        _CONTENT["c"] = load_content(cfg)
    return _CONTENT["c"]


def choose(o, r, policy):
    legal = o.legal_list()
    if policy == "busy" and len(legal) > 1 and o.A_END in legal and r.random() < 0.9:
        legal = [a for a in legal if a != o.A_END]
    return legal[int(r.integers(len(legal)))]


def check_invariants(o):
    """Conservation and bounds (brief: followers, stones, artifacts, buildings; crystals >= 0; tracks)."""
    ct, n, st = o.ct, o.n, o.ct.setup
    for p in range(n):
        assert min(o.fol[p]) >= 0 and o.supply[p] >= 0 and o.raft_fol[p] >= 0
        assert o.supply[p] + sum(o.fol[p]) + o.raft_fol[p] + o.transit[p] == st.follower_units, "followers"
        assert min(o.cr[p]) >= 0, "crystals"
        assert all(0 <= x <= ct.knowledge.last for x in o.trk[p]), "tracks"
        assert 0 <= o.placed[p] <= sum(o.stones[p]), "stones placed"
        assert o.stones[p][3] == 1 + sum(o.unlocked[p]), "own stones: 1 + one per fifth field"
        assert sum(1 for f in range(o.NF) if o.bld[p][f] == 0) == sum(o.sanct[p])
        assert sum(1 for f in range(o.NF) if o.bld[p][f] == 1) == sum(o.ws[p])
        assert sum(1 for f in range(o.NF) if o.bld[p][f] == 2) == o.mons[p]
        assert o.mons[p] <= len(ct.board.monuments)
        assert all(0 <= o.ws[p][c] <= len(ct.board.workshops[c]) for c in range(3))
        assert all(x >= 0 for x in o.avail[p]) and o.score[p] >= 0
    for c in range(3):                                   # skill stones
        on_sites = sum(s.count(c) for s in o.site)
        owned = sum(o.stones[p][c] for p in range(n))
        assert o.bag_stone[c] + on_sites + owned == st.stones_per_colour[c], "stones"
    for c in range(4):                                   # artifacts
        on_map = sum(1 for a in o.art if a == c)
        owned = sum(o.arts[p][c] for p in range(n))
        assert o.bag_art[c] + o.art_display[c] + on_map + owned == st.artifacts_per_colour[c], "artifacts"
    assert o.pigs_left + sum(o.pigs) + sum(o.transit_pigs) == st.pigs and min(o.pigs) >= 0, "pigs"
    for k, card in enumerate(ct.key_cards):              # key cards
        owned = sum(o.avail[p][k] + o.slots[p].count(k) for p in range(n))
        if card.colour == 0:
            assert owned <= card.count * n
        elif card.colour == 1:
            assert o.yellow[k] + owned == card.count
        else:
            offer = o.decks[card.colour].count(k) + o.display[card.colour].count(k)
            assert offer + owned == card.count, "key cards"
    chests = sum(sum(o.chests[p]) for p in range(n)) + len(o.chest_stack) + len(o.chest_discard)
    assert chests == sum(t.count for t in ct.chest_tiles), "chest tiles"


def play(cfg, seed, game, policy="busy", check=True):
    ct = content_for(cfg)
    o = RcOracle(cfg, ct, seed, game)
    r = np.random.default_rng([seed, game])
    steps = 0
    while not o.done:
        o.step(choose(o, r, policy))
        steps += 1
        if check:
            check_invariants(o)
    return o, steps


def check_outcome(o):
    sheet = o.sheet()
    assert sheet["rounds"] == 17 and o.space == o.ct.time_board.spaces
    assert sheet["turns"] == 17 * o.n, "one turn per player per round"
    assert sheet["rc_guard_hits"] == 0, "RC-A68: random play never reaches the guard"
    for p in range(o.n):
        assert sheet["score"][p] == sum(sheet[k][p] for k in PARTS)
        assert min(sheet[k][p] for k in PARTS) >= 0
    assert abs(sum(sheet["win_share"]) - 1.0) < 1e-9 or o.n == 1


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("policy", ["busy", "uniform"])
def test_random_games_terminate_with_invariants(players, policy):
    """RC-R1, RC-E1: 17 rounds, every invariant after every decision, parts sum to the score."""
    cfg = Config(players=players)
    for game in range(4):
        o, steps = play(cfg, 11, game, policy)
        check_outcome(o)


VARIANTS = [dict(tribe_draft="custom"), dict(tribe_draft="random"), dict(known_old_tribes=True),
            dict(free_upgrade_choice=True), dict(path_sides="random"), dict(event_abilities="auto"),
            dict(start_fields="random"), dict(copy_field="ever"), dict(dorian_presence="tile"),
            dict(goal_stones="one_colour"), dict(water_no_exit="stay")]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()))
def test_variants_play_through(variant):
    """RC-V1..V9 and the switches of RC-A40, RC-A57, RC-A58, RC-A66, RC-A74 and water_no_exit play complete games."""
    cfg = dataclasses.replace(Config(players=3), **variant)
    for game in range(2):
        o, _ = play(cfg, 5, game)
        check_outcome(o)


def test_solo_keep_three_plays_through():
    """RC-V12, RC-A54 alternative: solo with all three goal cards kept (no goal decision)."""
    cfg = Config(players=1, solo_goals="keep_three")
    o, _ = play(cfg, 3, 0)
    check_outcome(o)
    assert len(o.goals[0]) == 3


def test_replay_is_reproducible():
    """A game's course depends only on config, seed, game index and the actions (brief)."""
    cfg = Config(players=4)
    a, _ = play(cfg, 9, 3, check=False)
    b, _ = play(cfg, 9, 3, check=False)
    assert a.log == b.log and a.sheet() == b.sheet()
    c, _ = play(cfg, 9, 4, check=False)
    assert c.log != a.log


def shuffle_hidden(o, viewer, r):
    """Change every piece of information ``viewer`` may not see (RC-A68), keeping what is public."""
    r.shuffle(o.chest_stack)
    for deck in o.decks.values():
        r.shuffle(deck)
    down = [k for k in range(o.NS) if not o.face_up[k]]
    tiles = [o.slot_tile[k] for k in down]
    r.shuffle(tiles)
    for k, t in zip(down, tiles):
        o.slot_tile[k] = t
    hidden = [t for t in range(3) if not o.revealed[t]]
    olds = [o.old_tribe[t] for t in hidden]
    r.shuffle(olds)
    for t, x in zip(hidden, olds):
        o.old_tribe[t] = x
    for t in hidden:
        r.shuffle(o.item_stack[t])
    unused = [g for g in range(len(o.ct.goal_cards)) if not any(g in o.goals[q] for q in range(o.n))]
    for q in range(o.n):
        if q != viewer:
            held = sum(o.chests[q])
            o.chests[q] = [0] * len(o.chests[q])
            for _ in range(held):
                o.chests[q][int(r.integers(len(o.chests[q])))] += 1
            if unused:
                o.goals[q] = [unused[int(r.integers(len(unused)))] for _ in o.goals[q]]


def test_observation_ignores_hidden_information():
    """RC-A68: an observation is the same when everything hidden from the viewer is shuffled."""
    r = np.random.default_rng(5)
    for players in (1, 3, 4):
        cfg = Config(players=players)
        o = RcOracle(cfg, content_for(cfg), 8, players)
        while not o.done and o.space < 8:                      # mid-game: some tiles explored, cards drawn
            o.step(choose(o, r, "busy"))
        for viewer in range(players):
            before = o.observation(viewer)
            shuffle_hidden(o, viewer, r)
            assert o.observation(viewer) == before
        own = o.observation(0)["players"][0]
        assert own["chests"] == o.chests[0] and own["goals"] == o.goals[0]
        if players > 1:
            assert "goals" not in o.observation(0)["players"][1]


def end_state(o):
    """The oracle's end of game as the content scoring module's ``EndState`` (one game, batch of 1)."""
    from sim.games.recall.scoring import EndState
    ct, n = o.ct, o.n
    M, K, G = len(ct.monument_tiles), o.K, len(ct.goal_cards)
    board_mon = [[int(o.bld[p][o.bm_first + t] == 2) for t in range(3)] for p in range(n)]
    tiles = [[int(any(o.bld[p][f] == 2 and o.mon_tile.get(f) == m for f in range(o.NF))) for m in range(M)]
             for p in range(n)]
    keys = [[o.avail[p][k] + o.slots[p].count(k) for k in range(K)] for p in range(n)]
    discs = [[int(i in o.paths[p]) for i in range(6)] for p in range(n)]
    farms = [sum(1 for f in range(o.NF) if o.farm[f] and o.dorian_present(p, f)) if o.dorian(p) else 0
             for p in range(n)]
    one = lambda rows: np.asarray([rows])
    return EndState(
        score=one(o.score), purple=one(o.purple), tracks=one(o.trk), stones=one([s[:3] for s in o.stones]),
        sanctuaries=one([sum(x) for x in o.sanct]), board_monuments=one(board_mon), monument_tiles=one(tiles),
        keys=one(keys), artifacts=one(o.arts), crystals=one(o.cr), followers=one([sum(f) for f in o.fol]),
        discs=one(discs), path_card=np.asarray([[ct.path_cards[c].path for c in o.path_at]]),
        path_side=np.asarray([o.side_at]), goals=one([[int(g in o.goals[p]) for g in range(G)] for p in range(n)]),
        upgrade_tiles=one([sum(1 for x in u if x >= 0) for u in o.upg]), old_tribes=one([sum(u) for u in o.unlocked]),
        camps=one([len(o.camps_next_to(p)) for p in range(n)]), area_tiles=one([len(o.built_slots(p)) for p in range(n)]),
        pig_farms=one(farms))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_final_scoring_agrees_with_the_content_scoring_module(players):
    """RC-E3..E49 read twice: the oracle's sheet equals ``sim.games.recall.scoring`` on random end states.

    RC-E4, RC-E5, RC-E6, RC-E16, RC-E19, RC-E22, RC-E26, RC-E28, RC-E29, RC-E43, RC-E44, RC-E45.
    """
    from sim.games.recall.scoring import final_scoring, ranks, scoring_tables
    cfg = Config(players=players, path_sides="random")
    tables = scoring_tables(content_for(cfg))
    for game in range(6):
        o, _ = play(cfg, 21, game, check=False)
        sheet = final_scoring(tables, end_state(o))
        mine = o.sheet()
        for name in ("knowledge", "ancestors", "saints", "efficiency", "ambition", "power"):
            assert list(sheet[f"score_path_{name}"][0]) == mine[f"score_{name}"], name
        for part in ("score_track", "score_leftover", "score_pigs", "score_purple", "score_goal", "score"):
            assert list(sheet[part][0]) == mine[part], part
        rank, share = ranks(sheet["score"], np.asarray([o.trk]))
        assert list(rank[0]) == mine["rank"] and list(share[0]) == mine["win_share"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Play many random Recall oracle games and check invariants.")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check-every", type=int, default=1, help="check invariants every k-th game after each decision")
    args = ap.parse_args(argv)
    t0 = time.time()
    decisions, kinds = 0, Counter()
    for players in (1, 2, 3, 4):
        cfg = Config(players=players)
        for game in range(args.games):
            policy = "busy" if game % 2 == 0 else "uniform"
            o, steps = play(cfg, args.seed, game, policy, check=game % args.check_every == 0)
            check_outcome(o)
            decisions += steps
            kinds.update(line.split(" ")[2].rstrip(":") for line in o.log)
    print(f"{4 * args.games} games (1-4 players x {args.games}), {decisions} decisions, all invariants held, "
          f"{time.time() - t0:.0f} s")
    print("decisions by kind: " + ", ".join(f"{k} {v}" for k, v in kinds.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
