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
    assert o.pigs_left + sum(o.pigs) == st.pigs and min(o.pigs) >= 0, "pigs"
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
            dict(goal_stones="one_colour")]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()))
def test_variants_play_through(variant):
    """RC-V1..V9 and the switches of RC-A40, RC-A57, RC-A58, RC-A66, RC-A74 play complete games."""
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Play many random Recall oracle games and check invariants.")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check-every", type=int, default=1, help="check invariants every k-th game after each decision")
    args = ap.parse_args(argv)
    t0 = time.time()
    decisions, max_turn = 0, 0
    for players in (1, 2, 3, 4):
        cfg = Config(players=players)
        for game in range(args.games):
            policy = "busy" if game % 2 == 0 else "uniform"
            o, steps = play(cfg, args.seed, game, policy, check=game % args.check_every == 0)
            check_outcome(o)
            decisions += steps
    print(f"{4 * args.games} games (1-4 players x {args.games}), {decisions} decisions, all invariants held, "
          f"{time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
