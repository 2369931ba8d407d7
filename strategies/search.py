"""A search player for any game with ``sample_state``: flat Monte Carlo over determinisations.

At each of its decisions it deals the hidden information at random from its observation
(``game.sample_state``: never the real state), tries each candidate action on those sampled
positions, plays every sample to the end with a named rollout policy (``random`` or any
registered plan with its params, for every seat, its own included) and keeps the action with the
best mean result for its own player. Rollout j of every candidate action starts from the same
sampled position j with the same rollout random numbers (common random numbers), so the
actions are compared on equal draws. All rollouts of all games of the batch and all candidates
are played as one batch through the engine (``runner.play_state``: the rollout policy's
compiled ``play_to_end`` when it has one). docs/search.md describes it and its measured strength.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from sim.core import rng as rngmod
from sim.core.game import concat_states, take
from strategies.base import Strategy, StrategyRng, argmax_tiebreak

ROLLOUT_KEY = 1 << 40          # key words of the rollouts' random streams (the samples use 0, 1, ...)


@dataclasses.dataclass(frozen=True)
class SearchParams:
    """How much and how the search player looks ahead (docs/search.md, "Parameters")."""

    budget: int = dataclasses.field(default=64, metadata={"range": (1, 100_000)})  # rollouts per decision, split evenly over the candidate actions
    samples: int = dataclasses.field(default=1, metadata={"range": (1, 10_000)})   # at least this many rollouts per candidate (and per action when narrowing)
    rollout: str = "random"                     # the policy of every seat in the rollouts: random or a registered plan
    rollout_params: dict = dataclasses.field(default_factory=dict)  # that policy's params, checked as a seat's
    narrow: int = dataclasses.field(default=4, metadata={"range": (0, 10_000)})   # 0: all legal actions; k: after samples each, the rest on the k best
    margin: float = dataclasses.field(default=0.0, metadata={"range": (0.0, 100.0)})  # weight of the score margin (in [-1, 1]) next to the win share
    prior: float = dataclasses.field(default=0.05, metadata={"range": (0.0, 1.0)})  # value bonus of the rollout policy's own choice (always a candidate): another action must beat it by more
    halving: bool = True                        # true: sequential halving (rounds, the worse half dropped after each); false: the budget split evenly over the candidates
    max_batch: int = dataclasses.field(default=16384, metadata={"range": (2, 10_000_000)})  # rollouts per engine call (memory only; no effect on choices)


class SearchStrategy(Strategy):
    """Determinised flat Monte Carlo: per decision, roll each legal action out on states sampled from the observation and play the best."""

    name = "search"
    Params = SearchParams

    def __init__(self, game, content, params):
        super().__init__(game, content, params)
        if not hasattr(game, "sample_state"):
            raise ValueError(f"game {game.name} offers no sample_state; search cannot play it")
        if params.rollout == "search":
            raise ValueError("the rollout policy cannot be search itself (expected random or a plan)")
        from strategies import registry
        self.policy = registry.make(params.rollout, dict(params.rollout_params), game, content,
                                    place="seats.params.rollout")

    def warm_up_stand_in(self):
        """The same search at two rollouts per decision, all legal actions, no halving: it compiles
        every kernel the real one runs (the deal, the rollout policy, the engine) in seconds,
        where two games per seat arrangement at the real budget took minutes before any game
        of the run was played."""
        cheap = dataclasses.replace(self.params, budget=2, narrow=0, halving=False)
        return type(self)(self.game, self.content, cheap)

    def act(self, obs, legal, rng: StrategyRng):
        b, a = legal.shape
        players = np.asarray(obs.player, dtype=np.int64)
        u = rng.uniform(a + 1)
        base = (u[:, 0] * 2**53).astype(np.uint64)
        p = self.params
        cand = legal.copy()
        n_legal = cand.sum(axis=1)
        total = np.zeros((b, a))
        count = np.zeros((b, a), dtype=np.int64)
        first = np.zeros(b, dtype=np.int64)             # next sample index of each row
        searched = n_legal > 1                          # a forced move needs no rollouts
        bonus = np.zeros((b, a))
        own = self.policy.act(obs, legal, StrategyRng(rngmod.bits(rng.keys, ROLLOUT_KEY - 1), rng.counter))
        bonus[np.arange(b), own] = p.prior + 1e-6
        protected = bonus > 0
        if p.narrow and (searched & (n_legal > p.narrow)).any():
            wide = searched & (n_legal > p.narrow)
            self._rollouts(obs, players, base, cand & wide[:, None], np.where(wide, p.samples, 0), first, total, count)
            first += np.where(wide, p.samples, 0)
            value = np.where(count > 0, total / np.maximum(count, 1), -np.inf)
            order = np.argsort(-(np.where(cand, value, -np.inf) + 1e-9 * u[:, 1:]), axis=1, kind="stable")
            keep = protected.copy()
            np.put_along_axis(keep, order[:, :p.narrow], True, axis=1)
            cand = np.where(wide[:, None], cand & keep, cand)
        if p.halving:
            cand = self._halve(obs, players, base, cand, searched, protected, bonus, u[:, 1:], first, total, count)
        else:
            k = cand.sum(axis=1)
            per = np.where(searched, np.maximum(p.samples, p.budget // np.maximum(k, 1)), 0)
            self._rollouts(obs, players, base, cand, per, first, total, count)
        value = np.where(count > 0, total / np.maximum(count, 1), 0.0) + bonus
        return argmax_tiebreak(value, cand, u[:, 1:])

    def _halve(self, obs, players, base, cand, searched, protected, bonus, noise, first, total, count):
        """Sequential halving (Karnin, Koren & Somekh 2013): with n candidates, ceil(log2 n)
        rounds of ``budget // (rounds * alive)`` rollouts per candidate still in (at least
        ``samples``); after each round but the last, the better half by mean (+ prior bonus)
        stays, and the policy's choice always stays. The budget goes to the close candidates
        instead of being spread evenly over clearly worse ones. Every candidate alive in a round
        is rolled out on the same new samples (common random numbers). Returns the candidates of
        the last round."""
        p = self.params
        alive = cand & searched[:, None]
        rounds = np.where(searched, np.ceil(np.log2(np.maximum(cand.sum(axis=1), 2))).astype(np.int64), 0)
        for r in range(int(rounds.max(initial=0))):
            n = alive.sum(axis=1)
            active = (r < rounds) & (n > 1)
            per = np.where(active, np.maximum(p.samples, p.budget // np.maximum(rounds * n, 1)), 0)
            self._rollouts(obs, players, base, alive, per, first, total, count)
            first += per
            if r == rounds.max() - 1:
                break
            last = active & (r == rounds - 1)
            value = np.where(alive, total / np.maximum(count, 1) + bonus + 1e-9 * noise, -np.inf)
            order = np.argsort(-value, axis=1, kind="stable")
            better = np.zeros_like(alive)
            np.put_along_axis(better, order, np.arange(value.shape[1])[None, :] < ((n + 1) // 2)[:, None], axis=1)
            alive = np.where((active & ~last)[:, None], alive & (better | protected), alive)
        return np.where(searched[:, None], alive, cand)

    def _rollouts(self, obs, players, base, cand, per, first, total, count):
        """Play ``per[g]`` rollouts of each candidate action of row g (samples ``first[g]`` on)
        and add their values to ``total``/``count`` (float/int [b, A])."""
        if not per.any():
            return
        rows, acts = np.nonzero(cand & (per > 0)[:, None])
        reps = per[rows]
        g = np.repeat(rows, reps)
        act = np.repeat(acts, reps)
        j = np.arange(len(g)) - np.repeat(np.cumsum(reps) - reps, reps) + first[g]   # sample index
        samples = np.unique(j)
        need = [np.flatnonzero((first <= s) & (s < first + per)) for s in samples]   # rows using sample s
        offset = np.cumsum([0] + [len(n) for n in need[:-1]])
        where = np.empty((len(samples), len(base)), dtype=np.int64)
        for i, need_s in enumerate(need):
            where[i, need_s] = offset[i] + np.arange(len(need_s))
        pool = self._samples(obs, base, samples, need)
        start = where[np.searchsorted(samples, j), g]
        value = np.empty(len(g))
        step = self.params.max_batch
        for lo in range(0, len(g), step):
            hi = min(lo + step, len(g))
            value[lo:hi] = self._play(take(pool, start[lo:hi]), act[lo:hi], players[g[lo:hi]],
                                      base[g[lo:hi]], j[lo:hi])
        np.add.at(total, (g, act), value)
        np.add.at(count, (g, act), 1)

    def _samples(self, obs, base, samples, need):
        """The sampled states of rows ``need[i]`` with sample index ``samples[i]``, in that order,
        as one batch. A game's ``sample_states(obs, rows, keys)`` (optional: the state
        ``sample_state`` deals for those rows with those keys) makes it one call instead of one
        per sample index, whose per-call cost is most of a small batch's deal."""
        sample_states = getattr(self.game, "sample_states", None)
        if sample_states is not None:
            rows = np.concatenate(need)
            return sample_states(obs, rows, rngmod.bits(base[rows], np.repeat(samples, [len(n) for n in need])))
        states = [take(self.game.sample_state(obs, rngmod.bits(base, s)), need_s) if len(need_s) < len(base)
                  else self.game.sample_state(obs, rngmod.bits(base, s)) for s, need_s in zip(samples, need)]
        return concat_states(states) if len(states) > 1 else states[0]

    def _play(self, state, actions, players, base, sample):
        """Each sampled position after its candidate action, played to the end by the rollout
        policy; the value of the result for ``players`` (win share + margin term)."""
        from sim.core.runner import play_state

        state = self.game.step(state, actions)
        n_slots = self._strategy_seats(state)
        keys = np.stack([rngmod.bits(rngmod.bits(base, ROLLOUT_KEY + sample), slot) for slot in range(n_slots)])
        outcome = play_state(self.game, state, [self.policy] * n_slots, keys)["per_seat"]
        rows = np.arange(len(players))
        value = outcome["win_share"][rows, players].astype(np.float64)
        if self.params.margin:
            score = outcome["score"].astype(np.float64)
            own = score[rows, players]
            others = score.copy()
            others[rows, players] = -np.inf
            best = others.max(axis=1)
            value += self.params.margin * (own - best) / np.maximum(np.abs(own) + np.abs(best), 1.0)
        return value

    def _strategy_seats(self, state) -> int:
        """The slots the rollout policy plays: every seat's (automas never decide, so a slot
        given to one is never asked)."""
        return self.game.slot_of(state).shape[1]
