"""Recall on the shared game contract (sim/core/game.py): the ``GAME`` object, part 1.

Rules: /work/shared/specs/recall.md and recall_addendum.md; content: docs/recall_content.md;
positions: docs/recall_positions.md. This part has the content, the board, the seeded setup and
final scoring; the engine (init / legal_actions / step / ...) is the next part.
"""
from __future__ import annotations

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

    def seats(self, config) -> int:
        return config.seats

    def describe_setup(self, config, content, seed: int, game_index: int) -> str:
        return describe_setup(config, content, seed, game_index)

    def score_position(self, path) -> list[dict]:
        from sim.games.recall.position import score_position
        return score_position(path)


GAME = Recall()
