"""A stand-in game for the report tests of features in play: it only declares a feature.

Results whose ``game_name`` is ``tests.feature_game`` (synthetic ones, see
``analyses.synthetic.Variant.feature_pool``) get the feature pages in their reports, as a real
game's results do when its ``GAME.report_features`` names columns of its results.
"""
from analyses.features import Feature


class FeatureGame:
    name = "tests.feature_game"
    report_features = (Feature("favour tile", "ft_tile_", "ft_favour_"),)


GAME = FeatureGame()
