"""The engine against the oracle, in lockstep: same decider, kind and legal mask at every decision.

docs/recall_model.md is the contract of both. The engine plays each configuration as one batch;
one oracle per game (``tests.oracle_recall.RcOracle``, its public interface only) follows the
same random actions, chosen from the engine's legal mask with a seeded RNG. The kernel compiles
part of the rules (docs/recall_engine.md); a game that reaches a rule it does not compile stops
(``K_STOP``) and leaves the comparison. To go deep, the random policy prefers (4 in 5) the
actions whose consequences are compiled: ``end``, ``recall``, ``play``, ``opt``; ``MOVER`` also
picks items and moves followers, ``BUILDER`` never recalls and avoids free actions, so that
development actions and explorations are reached often, ``USER`` uses abilities as free actions,
``PIGS`` also places rings and moves pigs (Dorian's farms, ``move_pigs``, Noorderling's rings).
The harness compares every decision before the stop and the action names of the whole action
space; ``main`` prints how often each decision kind was compared, how the games ended and how
many games reached each edge case (``EDGES``). The configurations ``content="scarce"`` use the
content files of tests/data/recall_scarce/ (few key cards and chest tiles, short tracks and
artifact rows, a low crystal limit), so that those edge cases happen often.

Full count (docs/recall_engine.md records its result): ``make crosscheck-recall``, i.e.
``/work/main/.venv/bin/python -m tests.test_recall_crosscheck --games 2000``. A disagreement
writes the game's actions to a file named in the message; ``--replay FILE`` (``replay``) plays
that one game alone on one engine game and one oracle, in seconds once compiled.
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import pathlib
import tempfile
import time

import numpy as np
import pytest

from sim.core.game import take
from sim.games.recall import engine
from sim.games.recall import state as st
from sim.games.recall.config import Config
from sim.games.recall.content import load_content
from sim.games.recall.game import GAME
from tests.oracle_recall import RcOracle

SWITCHES = [
    dict(tribe_draft="random"), dict(tribe_draft="custom"), dict(start_fields="random"),
    dict(start_player="first_slot"), dict(known_old_tribes=True), dict(free_upgrade_choice=True),
    dict(path_sides="random"), dict(path_sides="ababab"), dict(copy_field="ever"),
    dict(dorian_presence="tile"), dict(goal_stones="one_colour"), dict(event_abilities="auto"),
    dict(water_no_exit="stay"), dict(max_decisions_per_turn=2),
]
CONFIGS = [dict(players=n) for n in (1, 2, 3, 4)] + [dict(players=n, **sw) for sw in SWITCHES for n in (1, 2, 3, 4)]
CONFIGS.append(dict(players=1, solo_goals="keep_three"))
CONFIGS.append(dict(players=1, solo_goals="keep_three", tribe_draft="custom"))
CONTENT = {name: {f"{f.stem}_file": str(f) for f in sorted((pathlib.Path(__file__).parent / "data" / f"recall_{name}").iterdir())}
           for name in ("scarce", "pigs")}      # Config keys: key_cards_file, ...
SCARCE_CONFIGS = [dict(players=n, content="scarce") for n in (1, 2, 3, 4)]
PIG_CONFIGS = [dict(players=n, content="pigs") for n in (2, 3, 4)]   # grain next to the start fields
CI_GAMES = 12
PARTS = ("plain", "switches", "scarce", "pigs")        # the full count's parts (``main --parts``)
KINDS: collections.Counter = collections.Counter()     # decisions compared per kind (printed by ``main``)
STOPS: collections.Counter = collections.Counter()     # games stopped per reason (``G_STOP``)
EDGES: collections.Counter = collections.Counter()     # games that reached each edge case (``_edges``)
PLAYED: collections.Counter = collections.Counter()    # ``use:Dorian`` and ``ring`` played, pig farms placed
COUNTED = ("use:Dorian", "ring")
EDGE_NAMES = ("yellow stacks empty", "green offer empty", "grey offer empty", "artifact row full",
              "chest stack empty", "chests reshuffled", "more than 8 reshuffles", "crystals above the limit",
              "crystals lost at the limit",
              "track at its end", "steps lost past the end", "tribe unlocked by several players",
              "camp decided by another player")


def _config(spec: dict) -> Config:
    """The ``Config`` of a configuration; ``content="scarce"`` / ``"pigs"`` names those content files
    (tests/data/recall_scarce/, tests/data/recall_pigs/)."""
    spec = dict(spec)
    name = spec.pop("content", None)
    if name:
        spec.update(CONTENT[name])
    return Config(**spec)


def _edges(t, m) -> np.ndarray:
    """bool[B, len(EDGE_NAMES)]: the edge cases each game's state shows now."""
    C, B = t.C, len(m)
    seat = lambda c, n=1: m[:, st.SEAT0:st.SEAT0 + st.MAXP * st.SW].reshape(B, st.MAXP, st.SW)[:, :, c:c + n]  # noqa: E731
    ny = int(C[engine.kernel.C_NYELLOW])
    return np.stack([
        (m[:, st.G_YELLOW:st.G_YELLOW + ny] == 0).all(axis=1),
        (m[:, st.G_GREEN:st.G_GREEN + 3] < 0).all(axis=1),
        (m[:, st.G_GREY:st.G_GREY + 3] < 0).all(axis=1),
        (seat(st.P_ARTS, 4) >= int(C[engine.kernel.C_NCOLS])).any(axis=(1, 2)),
        m[:, st.G_CHEST_TOP] >= m[:, st.G_CHEST_N],
        m[:, st.G_CHEST_K] >= 1,
        m[:, st.G_CHEST_K] > 8,
        (seat(st.P_CR, 3) > int(C[engine.kernel.C_CAP])).any(axis=(1, 2)),
        (seat(st.P_CR_LOST) > 0).any(axis=(1, 2)),
        (seat(st.P_TRK, 3) >= int(C[engine.kernel.C_TRK_LAST])).any(axis=(1, 2)),
        (seat(st.P_STEPS_LOST) > 0).any(axis=(1, 2)),
        (seat(st.P_UNLOCK, 3).sum(axis=1) >= 2).any(axis=1),
        m[:, st.G_EXP_ACTIVE] > 0,
    ], axis=1)


def _put_back(state, idx, part):
    """Write the stepped subset ``part`` (games ``idx``) back into ``state``."""
    for f in dataclasses.fields(state):
        v = getattr(state, f.name)
        if isinstance(v, np.ndarray) and v.ndim >= 1 and v.shape[0] == state.batch:
            v[idx] = getattr(part, f.name)


def _compare_outcomes(state, oracles, spec, ids):
    """Every outcome column of the games the engine finished against the oracle's sheet."""
    done = np.flatnonzero(state.m[:, st.G_KIND] == st.K_DONE)
    if len(done) == 0:
        return
    out = GAME.outcome(take(state, done))
    for j, i in enumerate(done):
        sheet = oracles[i].sheet()
        assert oracles[i].done, f"{spec}, game {ids[i]}: the oracle goes on"
        assert "score" in sheet and "score_track" in sheet
        for key, values in out["per_seat"].items():
            if key.endswith("_base"):                   # a path's points, split base + spec (RC-E4, RC-E5)
                key, values = key[:-5], values + out["per_seat"][key[:-5] + "_spec"]
            if key in sheet:                            # columns the oracle's sheet has
                assert list(values[j]) == list(sheet[key]), f"{spec}, game {ids[i]}: {key}"
        for key, values in out["per_game"].items():
            if key in sheet:
                assert values[j] == sheet[key], f"{spec}, game {ids[i]}: {key}"


def _choose(rng, legal, safe, never) -> int:
    pool = np.flatnonzero(legal & safe)
    if len(pool) == 0 or rng.random() < 0.2:
        pool = np.flatnonzero(legal & ~never)
    if len(pool) == 0:
        pool = np.flatnonzero(legal)
    return int(rng.choice(pool))


SAFE = ("end", "recall", "play", "opt")
MOVER = SAFE + ("field", "count", "pick")         # picks items and moves followers more often
BUILDER = ("opt", "field", "count", "pick", "play")   # and builds: no recall, no free actions
FREE = ("use", "chest", "ring")                   # BUILDER takes these only when nothing else is legal
GAINER = ("chest", "pick", "opt", "play", "end")  # uses chests and picks items: rewards, their order
                                                  # and choices, keys, free activations, reshuffles
USER = ("use", "field", "count", "pick", "opt", "play")   # uses abilities as free actions and builds:
                                                  # islands, rafts and their reaction, Hayla's moves
PIGS = ("use", "ring", "field", "opt", "count", "pick", "play")   # USER and rings: Dorian's farms
                                                  # (its ``field``), ``opt`` in ``move_pigs``, rings


def _compare(state, i, o, where, t) -> str:
    """The engine's game i against its oracle at the pending decision: decider, kind, mask."""
    kind = state.m[i, st.G_KIND]
    assert state.m[i, st.G_DEC] == o.decider, f"{where}: decider {state.m[i, st.G_DEC]} != {o.decider}"
    assert st.KIND_NAMES[kind] == o.kind, f"{where}: kind {st.KIND_NAMES[kind]} != {o.kind}"
    diff = np.flatnonzero(state.legal[i] != np.asarray(o.legal_mask()))
    assert len(diff) == 0, f"{where}, {o.kind}: legal actions differ at {[t.action_names[a] for a in diff]}"
    return o.kind


def _record(spec, seed, game, names) -> str:
    """Write one game's actions for ``replay`` (``--replay FILE``); returns the file's name."""
    path = pathlib.Path(tempfile.gettempdir()) / f"recall_crosscheck_{seed}_{game}.json"
    path.write_text(json.dumps(dict(spec=spec, seed=seed, game=game, names=names)))
    return str(path)


def replay(spec: dict, seed: int, game: int, names) -> int:
    """Play one recorded game alone (``names``: its action names in order) on one engine game and
    one oracle, comparing every decision as ``run`` does and the outcome if it ends; returns the
    decisions compared. For reproducing a disagreement of a long run in seconds."""
    config = _config(spec)
    content = load_content(config)
    t = engine.build_tables(config, content)
    state = engine.init(t, [game], seed)
    o = RcOracle(config, content, seed, int(game))
    index = {n: a for a, n in enumerate(t.action_names)}
    compared = 0
    for j, name in enumerate(list(names) + [None]):
        kind = state.m[0, st.G_KIND]
        if kind == st.K_STOP or kind == st.K_DONE:
            break
        _compare(state, 0, o, f"{spec}, game {game}, decision {j} after {list(names)[max(0, j - 12):j]}", t)
        compared += 1
        if name is None:
            break
        state = engine.step(state, np.array([index[name]], dtype=np.int64))
        o.step(index[name])
    _compare_outcomes(state, [o], spec, [game])
    return compared


def run(spec: dict, games: int, seed: int, first: int = 0, prefer=SAFE, avoid=()) -> int:
    """Lockstep run of ``games`` games of one configuration; returns the decisions compared. A
    disagreement names the file with that game's actions (``replay``)."""
    config = _config(spec)
    content = load_content(config)
    t = engine.build_tables(config, content)
    ids = np.arange(games) + first
    state = engine.init(t, ids, seed)
    oracles = [RcOracle(config, content, seed, int(g)) for g in ids]
    assert list(t.action_names) == [oracles[0].name(a) for a in range(t.A)], "action names"
    rng = np.random.default_rng(seed)
    safe = np.array([n.split(":")[0] in prefer for n in t.action_names])
    never = np.array([n.split(":")[0] in avoid for n in t.action_names])
    compared = 0
    history = [[] for _ in ids]                    # action names per game, for the failure messages
    reached = np.zeros((games, len(EDGE_NAMES)), dtype=bool)
    while True:
        kind = state.m[:, st.G_KIND]
        reached |= _edges(t, state.m) & (kind != st.K_STOP)[:, None]
        for i, o in enumerate(oracles):
            if kind[i] == st.K_STOP:
                continue
            if kind[i] == st.K_DONE:
                assert o.done and o.decider == -1, f"{spec}, game {ids[i]}: the engine ended, the oracle did not"
                continue
            where = f"{spec}, game {ids[i]} after {history[i][-12:]}"
            try:
                KINDS[_compare(state, i, o, where, t)] += 1
            except AssertionError as e:
                raise AssertionError(f"{e} (replay: {_record(spec, seed, int(ids[i]), history[i])})") from None
            compared += 1
        idx = np.flatnonzero((kind != st.K_STOP) & (kind != st.K_DONE))
        if len(idx) == 0:
            _compare_outcomes(state, oracles, spec, ids)
            STOPS.update(st.STOP_REASONS[r] for r in state.m[kind == st.K_STOP, st.G_STOP])
            STOPS["(finished)"] += int((kind == st.K_DONE).sum())
            EDGES.update({name: int(n) for name, n in zip(EDGE_NAMES, reached.sum(axis=0))})
            PLAYED["pig farms"] += int(state.m[:, st.G_FARMS].sum())
            return compared
        actions = np.array([_choose(rng, state.legal[i], safe, never) for i in idx], dtype=np.int64)
        part = engine.step(take(state, idx), actions)
        _put_back(state, idx, part)
        for i, a in zip(idx, actions):
            oracles[i].step(int(a))
            history[i].append(t.action_names[a])
            if t.action_names[a] in COUNTED:
                PLAYED[t.action_names[a]] += 1


@pytest.mark.parametrize("number", range(len(CONFIGS)))
def test_engine_matches_oracle_while_compiled(number):
    """RC-S28..S38, RC-V1..V5, RC-V11, RC-A66, RC-R1..R9, RC-R13..R19, RC-R34, RC-R36..R47, RC-R73,
    RC-R184..R189, RC-A68, RC-A70: decider, kind and mask of every decision the kernel compiles."""
    assert run(CONFIGS[number], CI_GAMES, 9000 + number, 13 * number) >= CI_GAMES


@pytest.mark.parametrize("players", (1, 2, 3, 4))
def test_engine_matches_oracle_with_picks_and_moves(players):
    """RC-R83..R92, RC-R99..R105, RC-R244, RC-A18, RC-A62, RC-A63: the same, with a policy that
    picks pending items and moves followers more often (movements, artifacts, payment)."""
    assert run(dict(players=players), 3 * CI_GAMES, 7000 + players, 500, MOVER) >= CI_GAMES


@pytest.mark.parametrize("players", (1, 2, 3, 4))
def test_engine_matches_oracle_with_chests_and_gains(players):
    """RC-A64, RC-R202, RC-A27, RC-R191..R200, RC-R128, RC-A43, RC-A67: the same, with a policy
    that uses chests and picks items (reward order and choices, key cards, free activations)."""
    assert run(dict(players=players), 2 * CI_GAMES, 6000 + players, 700, GAINER) >= CI_GAMES


@pytest.mark.parametrize("spec", [dict(players=n) for n in (1, 2, 3, 4)]
                         + [dict(players=2, event_abilities="auto"), dict(players=3, copy_field="ever")])
def test_engine_matches_oracle_with_buildings_and_explorations(spec):
    """RC-R106..R158, RC-R244, RC-R245, RC-A6, RC-A16, RC-A35, RC-A52: the same with a policy that
    never recalls and takes no free action while anything else is legal (BUILDER): development
    actions (sanctuary, workshop, monument, excavation, crystal), camps, explorations, bag draws."""
    number = 100 + spec["players"] + 10 * len(spec)
    assert run(spec, 3 * CI_GAMES, 6000 + number, 900 + number, BUILDER, FREE) >= CI_GAMES


@pytest.mark.parametrize("players", (2, 3, 4))
def test_engine_matches_oracle_with_abilities_used(players):
    """RC-R216..R223, RC-R235..R239, RC-A47, RC-A49, RC-A50: the same with a policy that prefers
    the free use of abilities (USER): Enterin's islands, Vinder's raft and its reaction, Hayla."""
    assert run(dict(players=players), 2 * CI_GAMES, 4000 + players, 400_000, USER) >= CI_GAMES


@pytest.mark.parametrize("players", (2, 3, 4))
def test_engine_matches_oracle_with_pigs_and_rings(players):
    """RC-R210..R215, RC-R233, RC-R234, RC-A31, RC-A46, RC-A57, RC-A72: the same with the ``PIGS``
    policy: Dorian's farms, pigs taken along (``move_pigs``) and paying first, rings placed; on the
    default content and on the ``pigs`` content (grain next to the start fields: farms often)."""
    assert run(dict(players=players), CI_GAMES, 3500 + players, 500_000, PIGS) >= CI_GAMES
    assert run(dict(players=players, content="pigs"), CI_GAMES, 3600 + players, 600_000, PIGS) >= CI_GAMES


def test_replay_plays_one_recorded_game_alone():
    """``replay`` reproduces a game of ``run`` from its action names: every decision compared."""
    spec, seed, game = dict(players=2), 77, 5
    config = _config(spec)
    t = engine.build_tables(config, load_content(config))
    state = engine.init(t, [game], seed)
    rng = np.random.default_rng(1)
    names = []
    for _ in range(60):
        if state.m[0, st.G_KIND] in (st.K_STOP, st.K_DONE):
            break
        a = int(rng.choice(np.flatnonzero(state.legal[0])))
        names.append(t.action_names[a])
        state = engine.step(state, np.array([a], dtype=np.int64))
    assert replay(spec, seed, game, names) == len(names) + (state.m[0, st.G_KIND] not in (st.K_STOP, st.K_DONE))


@pytest.mark.parametrize("players", (2, 4))
def test_engine_matches_oracle_on_scarce_content(players):
    """RC-R191, RC-A21 (empty key-card offer), RC-R105, RC-A67 (full artifact row), RC-A27 (chest
    stack out, reshuffles), RC-R73, RC-A38 (crystal limit), RC-R161, RC-R167..R169 (track ends,
    one tribe unlocked by several players): the same on the scarce content, with the GAINER and
    BUILDER policies. These games reach every edge case but the rarest three (the full count
    reaches those: ``main`` prints how often)."""
    EDGES.clear()
    spec = dict(players=players, content="scarce")
    assert run(spec, CI_GAMES, 4000 + players, 400, GAINER) >= CI_GAMES
    assert run(spec, CI_GAMES, 4100 + players, 450, BUILDER, FREE) >= CI_GAMES
    rare = {"green offer empty", "more than 8 reshuffles", "camp decided by another player"}
    assert [e for e in EDGE_NAMES if e not in rare and EDGES[e] == 0] == [], EDGES


def _progress(run_, spec, games, *args) -> int:
    """``run`` one batch and print a line (a long count shows how far it got)."""
    n = run_(spec, games, *args)
    names = {SAFE: "SAFE", MOVER: "MOVER", BUILDER: "BUILDER", GAINER: "GAINER", USER: "USER", PIGS: "PIGS"}
    print(f"  {spec} x {games} {names[args[2] if len(args) > 2 else SAFE]}: {n} decisions equal", flush=True)
    return n


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000,
                    help="games per player count and policy (switches and scarce content: a tenth)")
    ap.add_argument("--replay", metavar="FILE", help="replay one recorded game (the file a disagreement names)")
    ap.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS),
                    help="which parts of the count to play (default all; same seeds whichever are chosen, "
                         "so a long count can be played in pieces)")
    args = ap.parse_args(argv)
    if args.replay:
        rec = json.loads(pathlib.Path(args.replay).read_text())
        print(f"{replay(rec['spec'], rec['seed'], rec['game'], rec['names'])} decisions compared, all equal")
        return
    t0 = time.time()
    total_games = total = 0
    for number, spec in enumerate(CONFIGS):
        if ("plain" if len(spec) == 1 else "switches") not in args.parts:
            continue
        games = args.games if len(spec) == 1 else max(1, args.games // 10)
        total += _progress(run, spec, games, 9000 + number, 13 * number)
        total_games += games
        if len(spec) == 1:
            total += _progress(run, spec, games, 7000 + number, 100_000, MOVER)
            total += _progress(run, spec, games, 6000 + number, 200_000, BUILDER, FREE)
            total += _progress(run, spec, games, 5000 + number, 300_000, GAINER)
            total += _progress(run, spec, games, 4000 + number, 400_000, USER)
            total += _progress(run, spec, games, 3500 + number, 500_000, PIGS)
            total_games += 5 * games
    for number, spec in enumerate(SCARCE_CONFIGS if "scarce" in args.parts else ()):   # every policy, scarce content
        games = max(1, args.games // 10)
        for j, (prefer, avoid) in enumerate(((SAFE, ()), (MOVER, ()), (BUILDER, FREE), (GAINER, ()))):
            total += _progress(run, spec, games, 3000 + 10 * number + j, 400_000 + 10_000 * j, prefer, avoid)
            total_games += games
    for number, spec in enumerate(PIG_CONFIGS if "pigs" in args.parts else ()):   # the default and the tile presence
        games = max(1, args.games // 2)
        for j, sw in enumerate(({}, dict(dorian_presence="tile"))):
            total += _progress(run, {**spec, **sw}, games, 3600 + 10 * number + j, 600_000 + 10_000 * j, PIGS)
            total_games += games
    print(f"{total_games} games ({', '.join(args.parts)}), {total} decisions compared, "
          f"all equal ({time.time() - t0:.0f} s)")
    print("decisions by kind:", ", ".join(f"{k} {v}" for k, v in KINDS.most_common()))
    print("games by end:", ", ".join(f"{k or '?'} {v}" for k, v in STOPS.most_common()))
    print("games reaching each edge case:", ", ".join(f"{k} {EDGES[k]}" for k in EDGE_NAMES))
    print("played:", ", ".join(f"{k} {PLAYED[k]}" for k in COUNTED + ("pig farms",)))


if __name__ == "__main__":
    main()
