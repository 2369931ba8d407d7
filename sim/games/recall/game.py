"""Recall on the shared game contract (sim/core/game.py): the ``GAME`` object, part 1.

Rules: /work/shared/specs/recall.md and recall_addendum.md; content: docs/recall_content.md;
positions: docs/recall_positions.md. This part has the content, the board, the seeded setup and
final scoring. The compiled engine (docs/recall_engine.md) plays the setup decisions so far;
``init`` and the play methods join ``GAME`` once it plays whole games (until then an experiment
of Recall is refused, sim/core/experiment.py).
"""
from __future__ import annotations

from sim.games.recall import engine
from sim.games.recall.config import Config
from sim.games.recall.content import content_hash, load_content
from sim.games.recall.setup_view import describe_setup


class Recall:
    name = "recall"
    Config = Config

    def load_content(self, config, source: str = "<config>"):
        return load_content(config, source)

    def content_hash(self, content) -> str:
        return content_hash(content)

    def num_actions(self, content) -> int:
        return len(engine.action_names(content))

    def action_names(self, content) -> list[str]:
        return engine.action_names(content)

    def seats(self, config) -> int:
        return config.seats

    def describe_setup(self, config, content, seed: int, game_index: int) -> str:
        return describe_setup(config, content, seed, game_index)

    def score_position(self, path) -> list[dict]:
        from sim.games.recall.position import score_position
        return score_position(path)


GAME = Recall()
