"""Recall plans round-robin: win shares with intervals and ability activations per tribe and item.

``python -m analyses.recall_plans experiments/recall_plans.toml [--games N] [--chunk C] [--jobs J] [--partial FILE]`` plays
the experiment's ``[[entrants]]`` at every table of ``players`` of them (each table leaves the
others out; game i plays table ``i % tables``), exactly as the runner chooses (its strategy
groups, streams and decision counters; the compiled whole-game path when its seats allow it,
``strategies.recall.compiled_play``, which counts the activations in the kernel), and prints
markdown tables:

* win share and mean score per plan, 95% Wilson intervals, over the games that end, and the
  means of what the plans aim at (the kept goal card met, sanctuaries built, camps received,
  artifacts, key cards, knowledge steps);
* per goal card kept (solo: the pair kept) and plan: seat-games, and of them met;
* activations per ability (tribes, then items; Multitool's parts separately) and plan: seat-games
  holding it at the end, seat-games with at least one activation, activations, and the
  decisions at which it was legal (an ability never offered cannot be used).

An activation is a chosen ``use:a`` action (any window, event windows with ``event_abilities =
"ask"``, Exoskelet at ``payment``, a free activation) or ``ring``; a decision with one legal
action is applied by the engine without asking and is not seen here (an ability is never the
only choice: ``end`` or another action is always legal with it).

Why a script and not ``python -m sim run``: while the engine still stops at rules it does not
compile (Dorian's pigs, rings: docs/recall_engine.md), a run fails at the first stopped game;
here a stopped game is counted and dropped, as tests/recall_games.py does.
"""
from __future__ import annotations

import argparse
import itertools
from collections import Counter

import numpy as np

from sim.core import rng
from sim.core.experiment import load_experiment
from sim.core.game import take
from sim.core.runner import choose_actions, strategy_groups
from sim.games.recall import state as st
from sim.games.recall.game import GAME
from strategies import registry
from strategies.recall import compiled_play
from analyses.intervals import wilson


AIMS = ("goal_met", "sanctuaries", "camps", "artifacts", "keys", "tracks")     # mean per seat at the end (the plans' aims)


def _labels(entrants) -> list[str]:
    """Each entrant's name in the tables: its strategy, numbered when a strategy comes more than once."""
    names = [e.strategy for e in entrants]
    return [f"{n}#{i}" if names.count(n) > 1 else n for i, n in enumerate(names)]


def tables_of(entrants: list, players: int) -> list[tuple]:
    """Every table of ``players`` entrants (indices), in lexicographic order."""
    return list(itertools.combinations(range(len(entrants)), players))


def play_table(config, content, strategies, names, seed: int, ids, tally: dict) -> list[dict]:
    """Play games ``ids`` with ``strategies`` in slots 0..n-1; returns one row per seat of every game
    that ends (plan, score, win share) and adds to ``tally`` (stopped, activations, holdings)."""
    ids = np.asarray(ids, dtype=np.int64)
    n = len(strategies)
    t = GAME.init(config, content, ids[:1], seed).t
    use0 = t.action_names.index(f"use:{t.ability_names[0]}")
    n_ab = len(t.ability_names)
    s = GAME.init(config, content, ids, seed)
    keys = np.stack([rng.stream_keys(seed, ids, "strategy", k) for k in range(n)])
    groups = strategy_groups(strategies)
    decisions = np.zeros(len(ids), dtype=np.int64)
    live = np.arange(len(ids))
    used = np.zeros((len(ids), n, n_ab + 1), dtype=np.int64)      # per game, slot, ability (+ ring)
    offered = np.zeros((len(ids), n, n_ab + 1), dtype=np.int64)   # decisions where it was legal
    out = []
    counts = np.zeros((len(ids), n, 2, n_ab + 1), dtype=np.int64)
    if compiled_play(GAME, s, groups, keys, n, counts) is not None:   # the runner's compiled path, same choices
        kind = s.m[:, st.G_KIND]
        tally["stopped"] += int((kind == st.K_STOP).sum())
        done = np.flatnonzero(kind == st.K_DONE)
        return _rows(take(s, done), names, counts[done, :, 0], counts[done, :, 1], tally) if len(done) else []
    while len(live):
        kind = s.m[:, st.G_KIND]
        done = np.flatnonzero(kind == st.K_DONE)
        if len(done):
            out += _rows(take(s, done), names, used[live[done]], offered[live[done]], tally)
        tally["stopped"] += int((kind == st.K_STOP).sum())
        keep = np.flatnonzero((kind != st.K_DONE) & (kind != st.K_STOP))
        s, live = take(s, keep), live[keep]
        if not len(live):
            break
        actions = choose_actions(GAME, s, np.ones(len(live), dtype=bool), groups, keys[:, live], decisions[live], n)
        slot = GAME.slot_of(s)[np.arange(len(live)), np.maximum(GAME.decider(s), 0)]
        ab = np.where(actions == t.A - 1, n_ab, actions - use0)
        hit = ((ab >= 0) & (ab < n_ab)) | (actions == t.A - 1)
        np.add.at(used, (live[hit], slot[hit], ab[hit]), 1)
        legal = np.concatenate([s.legal[:, use0:use0 + n_ab], s.legal[:, -1:]], axis=1)
        offered[live, slot] += legal
        decisions[live] += 1
        s = GAME.step(s, actions)
    return out


def _rows(s, names, used, offered, tally) -> list[dict]:
    """Rows of finished games; holdings and activations into ``tally``."""
    o = GAME.outcome(s)["per_seat"]
    tally["games"] += s.batch
    n = s.t.config.players
    owned = s.seat(st.P_OWN, len(s.t.ability_names))[:, :n] > 0          # [B, seat, ability]
    slots = GAME.slot_of(s)
    rows = []
    for b in range(s.batch):
        for j in range(n):
            slot = int(slots[b, j])
            plan = names[slot]
            rows.append({"plan": plan, "score": float(o["score"][b, j]), "win": float(o["win_share"][b, j]),
                         "goal_met": float(o["rc_goal_met"][b, j]), "goal": str(o["rc_goal"][b, j]),
                         "sanctuaries": bin(int(s.m[b, st.seat_col(j, st.P_SANCT)])).count("1"),
                         "camps": bin(int(s.m[b, st.seat_col(j, st.P_CAMPS)])).count("1"),
                         "artifacts": int(s.seat(st.P_ARTS, 4)[b, j].sum()),
                         "keys": int(s.seat(st.P_AVAIL, st.K_MAX)[b, j].sum() + (s.seat(st.P_SLOT, 6)[b, j] >= 0).sum()),
                         "tracks": int(s.seat(st.P_TRK, 3)[b, j].sum())})
            for a, name in enumerate(s.t.ability_names):
                if owned[b, j, a]:
                    tally["held"][(plan, name)] += 1
                    tally["users"][(plan, name)] += int(used[b, slot, a] > 0)
                tally["uses"][(plan, name)] += int(used[b, slot, a])
                tally["offered"][(plan, name)] += int(offered[b, slot, a])
            tally["uses"][(plan, "ring")] += int(used[b, slot, -1])
            tally["offered"][(plan, "ring")] += int(offered[b, slot, -1])
    return rows


def run(path: str, games: int | None = None, chunk: int = 256, jobs: int = 1, partial: str | None = None):
    """(entrant names, rows, tally, content) of the round-robin; ``jobs`` processes play the
    chunks (the same games and choices for any ``jobs``: every draw is keyed by game)."""
    exp = load_experiment(path)
    names = _labels(exp.entrants)
    if not names:
        raise SystemExit(f"{path}: expected [[entrants]] (the plans of the round-robin)")
    tables = tables_of(names, exp.variants["base"].players)
    games = games or exp.games
    per_table = [np.arange(k, games, len(tables)) for k in range(len(tables))]
    tasks = [(path, table, ids[start:start + chunk]) for start in range(0, max(map(len, per_table)), chunk)
             for table, ids in zip(tables, per_table) if len(ids[start:start + chunk])]    # tables interleaved
    content = exp.content("base")
    rows, tally = [], _tally()

    def add(part):
        nonlocal rows
        rows += part[0]
        for k, v in part[1].items():
            tally[k] += v
        if partial:                                  # what is done so far (a long run can be read as it goes)
            with open(partial, "w") as f:
                f.write(report(names, rows, tally, content) + "\n")

    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(jobs) as pool:
            for part in pool.map(_task, tasks):
                add(part)
    else:
        for x in tasks:
            add(_task(x))
    return names, rows, tally, content


def _tally() -> dict:
    return {"stopped": 0, "games": 0, "held": Counter(), "users": Counter(), "uses": Counter(), "offered": Counter()}


def _task(task):
    path, table, ids = task
    exp = load_experiment(path)
    config = exp.variants["base"]
    content = exp.content("base")
    entrants = [registry.make(e.strategy, e.params, GAME, content, str(exp.path), f"entrants[{i}]")
                for i, e in enumerate(exp.entrants)]
    names = _labels(exp.entrants)
    tally = _tally()
    rows = play_table(config, content, [entrants[i] for i in table], [names[i] for i in table], exp.seed, ids, tally)
    return rows, tally


def report(names, rows, tally, content) -> str:
    from sim.games.recall.engine import abilities
    lines = [f"games that ended: {tally['games']}; stopped: {tally['stopped']}", "",
             "| plan | seat-games | win share | 95% interval | mean score | " + " | ".join(AIMS) + " |",
             "|---|---|---|---|---|" + "---|" * len(AIMS)]
    for name in names:
        mine = [r for r in rows if r["plan"] == name]
        wins = sum(r["win"] for r in mine)
        lo, hi = wilson(wins, len(mine))
        lines.append(f"| {name} | {len(mine)} | {wins / max(1, len(mine)):.3f} | {float(lo):.3f}-{float(hi):.3f} | "
                     f"{np.mean([r['score'] for r in mine]):.1f} | "
                     + " | ".join(f"{np.mean([r[k] for r in mine]):.{3 if k == 'goal_met' else 1}f}" for k in AIMS)
                     + " |")
    lines += ["", "goal cards kept (solo: the pair) / of them met, per plan:", "",
              "| kept | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for goal in sorted({r["goal"] for r in rows}):
        cells = [f"{sum(r['goal'] == goal for r in rows if r['plan'] == n)} / "
                 f"{sum(r['goal_met'] for r in rows if r['plan'] == n and r['goal'] == goal):.0f}" for n in names]
        lines.append(f"| {goal} | " + " | ".join(cells) + " |")
    lines += ["", "seat-games holding it at the end / of them with an activation / activations / decisions "
              "where it was legal, per plan:", "",
              "| ability | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for ab in list(abilities(content)[0]) + ["ring"]:
        cells = [f"{tally['held'][(n, ab)]} / {tally['users'][(n, ab)]} / {tally['uses'][(n, ab)]} / "
                 f"{tally['offered'][(n, ab)]}" for n in names]
        lines.append(f"| {ab} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("experiment")
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--chunk", type=int, default=256)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--partial", default=None, help="file rewritten with the report of the chunks done so far")
    args = ap.parse_args(argv)
    names, rows, tally, content = run(args.experiment, args.games, args.chunk, args.jobs, args.partial)
    print(report(names, rows, tally, content))


if __name__ == "__main__":
    main()
