"""Red Rising as a ``sim.core.game.Game``: the object ``GAME`` the registry finds.

Rules and decision model: ../shared/specs/red_rising.md and docs/red_rising_model.md. The
rules of play run in the compiled kernel (kernel.py, driven by engine.py), setup in deal.py,
final scoring in scoring.py, observations in observe.py; this module adds the contract around
them: outcome, a heuristic position value and log lines.
"""
from __future__ import annotations

import numpy as np

from sim.games.red_rising import actions as A
from sim.games.red_rising import content as content_mod
from sim.games.red_rising import deal, engine, log, zones
from sim.games.red_rising.config import Config
from sim.games.red_rising.observe import Observation, Rows, sample_state
from sim.games.red_rising.scoring import RESULT_KEYS, final_scores, score_final
from sim.games.red_rising.state import END_REASONS, PILE_DECK, State

# position_value weights (keys and defaults); value = sum of weight * feature
DEFAULT_WEIGHTS = {
    "score": 1.0,          # the player's score if the game ended now (score_final, no end abilities)
    "margin": 0.0,         # that score minus the best other seat's
    "helium": 0.0,         # helium tokens
    "fleet": 0.0,          # fleet space
    "cubes": 0.0,          # cubes on The Institute
    "sovereign": 0.0,      # 1 if holding the Sovereign token
    "thresholds": 0.0,     # number of the three end thresholds the player meets (RR-E1)
    "progress": 0.0,       # sum over thresholds of min(holding / threshold, 1)
    "hand_over": 0.0,      # cards in hand above the hand limit (RR-E16); use a negative weight
    "hand": 0.0,           # cards in hand
}


class RedRising:
    name = "red_rising"
    Config = Config
    # The report's content impact (analyses.holdings): which cards the seats hold at the end,
    # and how holding each goes with winning.
    report_held = (("card", "rr_hand"),)

    def report_labels(self, content) -> dict:
        """What each card is, for the report's figures: {"card": {id: "name (colour, core N)"}}."""
        return {"card": {c.id: f"{c.name} ({c.colour}, core {c.core})" for c in content.cards}}

    # ---- content ------------------------------------------------------------------------------
    def load_content(self, config, source: str = "<config>"):
        return content_mod.load_content(config, source)

    def content_hash(self, content) -> str:
        return content_mod.content_hash(content)

    def num_actions(self, content) -> int:
        return A.num_actions(len(content.cards))

    def action_names(self, content) -> list[str]:
        return A.action_names([c.id for c in content.cards])

    def seats(self, config) -> int:
        return config.seats

    # ---- play ---------------------------------------------------------------------------------
    def init(self, config, content, game_ids, seed) -> State:
        return deal.init(config, content, game_ids, seed)

    def setup(self, config, content, game_ids, seed) -> State:
        """The games set up but not yet run to their first decision (optional contract: the
        warm-up compiles a strategy's ``play_to_end`` from it in a helper process while this
        process compiles the engine, ``sim.core.runner.warm_up``)."""
        return deal.setup(config, content, game_ids, seed)

    def compile_half(self, config, content, half: int) -> None:
        """Compile one half (0 or 1) of the engine's rules into numba's cache, each in its own
        process (optional contract: the warm-up's head start, ``sim.core.runner.warm_up``)."""
        engine.compile_half(deal.setup(config, content, np.arange(2), 0), half)

    def engine_cached(self) -> bool:
        """Whether the engine's kernel is in numba's on-disk cache (not a first run: the warm-up
        then starts no helper process, ``sim.core.runner.warm_up``)."""
        from sim.core import kernel_cache
        return kernel_cache.cached(engine.kernel.run_batch)

    def legal_actions(self, state: State) -> np.ndarray:
        return state.legal

    def decider(self, state: State) -> np.ndarray:
        return np.where(state.done, -1, state.decider).astype(np.int64)

    def kind(self, state: State) -> np.ndarray:
        return np.where(state.done, 0, state.kind).astype(np.int64)

    def step(self, state: State, actions) -> State:
        """Updates ``state`` in place and returns it (``sim.core.game.take`` copies a state)."""
        return engine.step(state, actions)

    def play_uniform(self, state: State, keys, n_strategies: int) -> State | None:
        """Every game to its end with uniform random choices (the ``random`` strategy, exactly as
        the runner's loop plays it) in compiled code; None for a batch of one game."""
        if state.batch < 2:
            return None
        return engine.play_uniform(state, keys, n_strategies)

    def done(self, state: State) -> np.ndarray:
        return state.done.copy()

    def slot_of(self, state: State) -> np.ndarray:
        return state.slot.astype(np.int64)

    # ---- results ------------------------------------------------------------------------------
    def outcome(self, state: State) -> dict:
        s = state
        b, p = s.batch, s.seats
        seat = np.arange(p)[None, :]
        is_automa = seat == s.automa[:, None]
        house_names = np.asarray([h.name for h in s.content.houses] + ["Au Toma"])
        faction = house_names[np.where(is_automa, len(s.content.houses), s.house)]
        hand = s.hand_n.astype(np.int16)
        hand = np.where(is_automa, np.minimum(hand, s.content.automa_hand_limit), hand)   # RR-V41
        scores = final_scores(s)
        per_seat = {k: scores[k] for k in RESULT_KEYS}
        per_seat.update(
            rank=scores["rank"], win_share=scores["win_share"], faction=faction, is_automa=is_automa,
            slot=s.slot.astype(np.int8), rr_hand_size=hand.astype(np.int16),
            rr_helium=s.helium.astype(np.int16), rr_fleet=s.fleet.astype(np.int16),
            rr_cubes=s.cubes.astype(np.int16), rr_sovereign=seat == s.sovereign[:, None], rr_hand=held_cards(s))
        per_game = {"turns": s.turns.astype(np.int32), "rounds": s.rounds.astype(np.int16),
                    "end_reason": np.asarray(END_REASONS, dtype=object)[s.end_reason].astype(str),
                    "rr_deck_empty": s.size[:, PILE_DECK] == 0}
        assert per_seat["score"].shape == (b, p)
        return {"per_seat": per_seat, "per_game": per_game}

    # ---- information --------------------------------------------------------------------------
    def observe(self, state: State, players) -> Observation:
        return Observation(state, players)

    def sample_state(self, obs: Observation, keys) -> State:
        return sample_state(obs, keys)

    def sample_states(self, obs: Observation, rows, keys) -> State:
        """Games ``rows`` of ``obs`` (repeats allowed) dealt with ``keys`` (one per row), as
        ``sample_state`` deals each game: the search player's samples of a decision in one call
        (a deal's cost on a few games is mostly per call)."""
        return sample_state(Rows(obs, rows), keys)

    def position_value(self, state: State, players, weights=None) -> np.ndarray:
        return position_value(state, players, weights)

    def score_position(self, path) -> list[dict]:
        """Score a described end-of-game position (docs/positions.md)."""
        from sim.games.red_rising.position import score_position
        return score_position(path)

    def describe(self, before, after, action: int) -> list[str]:
        return log.describe(before, after, action)


def held_cards(s: State) -> np.ndarray:
    """The ids of the cards in each seat's hand at the end, ';'-joined in deck order (str[B, seats]):
    what the report's "cards held at the end" reads (docs/analyses.md)."""
    ids = np.asarray([c.id for c in s.content.cards], dtype=object)
    out = np.empty((s.batch, s.seats), dtype=object)
    for p in range(s.seats):
        out[:, p] = [";".join(ids[row]) for row in s.where[:, :len(ids)] == zones.hand(p)]
    return out.astype(str)


def position_value(state: State, players, weights=None) -> np.ndarray:
    """Heuristic value of the position for each game's given player (see ``DEFAULT_WEIGHTS``)."""
    w = dict(DEFAULT_WEIGHTS)
    for k, v in (weights or {}).items():
        if k not in w:
            raise KeyError(f"unknown position_value weight {k!r}; expected one of {', '.join(w)}")
        w[k] = float(v)
    s = state
    players = np.asarray(players, dtype=np.int64)
    rows = np.arange(s.batch)
    out = score_final(s.content, s.config, s.where, s.helium, s.fleet, s.cubes, s.sovereign, s.automa, s.parity)
    score = out["score"].astype(np.float64)
    own = score[rows, players]
    others = np.where(np.arange(s.seats)[None, :] == players[:, None], -np.inf, score)
    value = w["score"] * own
    if w["margin"]:
        value += w["margin"] * (own - others.max(axis=1))
    t = s.config.threshold
    h, f, c = (a[rows, players].astype(np.float64) for a in (s.helium, s.fleet, s.cubes))
    value += w["helium"] * h + w["fleet"] * f + w["cubes"] * c
    value += w["sovereign"] * (s.sovereign == players)
    value += w["thresholds"] * ((h >= t).astype(float) + (f >= t) + (c >= t))
    value += w["progress"] * (np.minimum(h / t, 1) + np.minimum(f / t, 1) + np.minimum(c / t, 1))
    hand = s.hand_n[rows, players].astype(np.float64)
    value += w["hand_over"] * np.maximum(hand - s.config.hand_limit, 0) + w["hand"] * hand
    return value


GAME = RedRising()
