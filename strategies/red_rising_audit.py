"""How the Red Rising plans decide, counted over played games (docs/red_rising_strategies.md).

``python -m strategies.red_rising_audit [EXPERIMENT.toml] [--games N] [--seed S]`` plays the
experiment's seats (default: experiments/red_rising_houses.toml, 1,000 games) through the
runner's step loop and counts, for the scripted seats:

* banish choices (an ability or die face 1 banishing a location card) that take the card the
  chooser itself values most (core + end bonuses with its hand) among the candidates;
* moves that put the chooser's best top card onto a location it may not take from this turn;
* optional effects answered ``yes`` (trades separately) and the helium paid in trades;
* cards turned onto a location (die face 2, ``place_from_deck``) placed where the player may take
  them this turn, when the card is better than every top card it could take;
* scout among the action choices; seat-games ending with a hand penalty (RR-A23); win shares.
"""
from __future__ import annotations

import argparse
import collections

import numpy as np

from sim.core.experiment import load_experiment
from sim.core.runner import play_games
from sim.games.red_rising import actions as A
from sim.games.red_rising import program as PR
from sim.games.red_rising.state import M, R_PC, R_RET, R_SRC
from strategies import registry
from strategies.red_rising import ScriptedStrategy, _card_tables

BANISH_MOPS = {M["BANLOC_LOC"], M["BANLOC_CARD"], M["RD_F1"]}
PLACE_MOPS = {M["RD_F2"], M["PL_APPLY"]}


def audit(exp, games: int, seed: int) -> dict:
    variant = next(iter(exp.variants))
    config = exp.variants[variant]
    content = exp.content(variant)
    game = exp.game_module()
    strategies = registry.make_seats(exp, variant, game, content)
    scripted = [isinstance(s, ScriptedStrategy) for s in strategies]
    core, pair, _ = _card_tables(content)
    both = pair + pair.T
    n = collections.Counter()

    def keep(g, p, cards, where):
        hand = np.flatnonzero(where[g] == 10 + p)
        return core[cards] + both[np.ix_(hand, cards)].sum(axis=0)

    def on_step(before, after, actions):
        where, kind, mop = before.where, before.kind, before.mop
        for g in np.flatnonzero(before.waiting & ~before.done):
            p = int(before.decider[g])
            if p < 0 or not scripted[int(before.slot[g, p])]:
                continue
            a, m, k = int(actions[g]), int(mop[g]), int(kind[g])
            legal = before.legal[g]
            if k == A.KIND["action"]:
                n["actions"] += 1
                n["scout"] += a == A.SCOUT
            elif m in BANISH_MOPS:
                if m == M["BANLOC_CARD"]:
                    cands = np.flatnonzero(legal[A.CARD0:])
                    chosen = a - A.CARD0
                else:
                    locs = np.flatnonzero(legal[A.LOC0:A.LOC0 + 4])
                    cands = before.top[g, locs].astype(np.int64)
                    chosen = int(before.top[g, a - A.LOC0])
                if len(cands) > 1:
                    values = keep(g, p, cands, where)
                    n["banish"] += 1
                    n["banish_own_best"] += values[list(cands).index(chosen)] == values.max()
            elif m == M["MOVE_DST"]:
                card = int(before.frame[g, before.depth[g], R_SRC])
                tops = before.top[g, :4][before.top[g, :4] >= 0].astype(np.int64)
                pending = _pending(before, g, p)
                n["move"] += 1
                best = keep(g, p, tops, where).max() <= keep(g, p, np.array([card]), where)[0]
                n["move_best_out_of_reach"] += best and (not pending or before.deployed[g, a - A.LOC0])
            elif m in PLACE_MOPS and _pending(before, g, p):
                card = int(before.flipped[g])
                x = np.flatnonzero(~before.deployed[g] & (before.top[g, :4] >= 0))
                tops = before.top[g, x].astype(np.int64)
                if not len(tops) or keep(g, p, np.array([card]), where)[0] > keep(g, p, tops, where).max():
                    n["place_better"] += 1
                    n["place_better_reachable"] += not before.deployed[g, a - A.LOC0]
            elif m == M["OPT"]:
                op = int(before.prog.op[before.frame[g, before.depth[g], R_PC]])
                n["optional"] += 1
                n["optional_yes"] += a == A.YES
                if op == PR.TRADE:
                    n["trade"] += 1
                    n["trade_yes"] += a == A.YES
                    n["helium_traded"] += (a == A.YES) * int(before.prog.prm[before.frame[g, before.depth[g], R_PC],
                                                                             PR.P_PAY + PR.HELIUM])

    # the slot order kept (one batch: the step loop's cost is per batch); the choices are what is counted
    outcome, _ = play_games(game, config, content, strategies, seed, np.arange(games), on_step=on_step,
                            seating="fixed")
    seat = outcome["per_seat"]
    by_plan = {}
    for s, spec in enumerate(exp.seats):
        mine = seat["slot"] == s
        by_plan[spec.strategy] = {"win_share": float(seat["win_share"][mine].sum() / games),
                                  "hand_penalty_share": float((seat["score_hand_penalty"][mine] < 0).mean())}
    houses = {}
    for h in np.unique(seat["faction"]):
        mine = seat["faction"] == h
        houses[str(h)] = float(seat["win_share"][mine].sum() / mine.sum())
    return {"counts": dict(n), "plans": by_plan, "houses": houses,
            "hand_penalty_share": float((seat["score_hand_penalty"][np.isin(seat["slot"], np.flatnonzero(scripted))]
                                         < 0).mean())}


def _pending(s, g, p) -> bool:
    """The gain step of p's lead is still to come (a deploy ability is resolving)."""
    return bool(s.player[g] == p and s.depth[g] >= 1 and s.frame[g, 1, R_RET] == M["T_GAIN_ASK"]
                and not s.skip_gain[g])


def report(result: dict) -> str:
    c = result["counts"]

    def share(part, whole):
        return f"{c.get(part, 0) / max(c.get(whole, 0), 1):.1%} of {c.get(whole, 0)}"

    lines = [f"banish own best card: {share('banish_own_best', 'banish')}",
             f"moves of the best card out of own reach: {share('move_best_out_of_reach', 'move')}",
             f"optional effects answered yes: {share('optional_yes', 'optional')}; trades yes: {share('trade_yes', 'trade')}"
             f"; helium paid in trades: {c.get('helium_traded', 0)}",
             f"turned-over better cards placed in own reach: {share('place_better_reachable', 'place_better')}",
             f"scout: {share('scout', 'actions')}",
             f"seat-games with a hand penalty: {result['hand_penalty_share']:.1%}"]
    lines += [f"  {name}: win share {v['win_share']:.3f}, hand penalty {v['hand_penalty_share']:.1%}"
              for name, v in result["plans"].items()]
    lines += ["houses: " + ", ".join(f"{h} {v:.3f}" for h, v in sorted(result["houses"].items()))]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m strategies.red_rising_audit", description=__doc__.split("\n")[0])
    ap.add_argument("experiment", nargs="?", default="experiments/red_rising_houses.toml")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=None, help="default: the experiment's seed")
    args = ap.parse_args(argv)
    exp = load_experiment(args.experiment)
    print(report(audit(exp, args.games, exp.seed if args.seed is None else args.seed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
