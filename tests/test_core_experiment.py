"""Experiment files: valid files load; every mistake is a one-line error naming file and key."""
import dataclasses
from pathlib import Path

import pytest

from sim.core import config as cfg
from sim.core.errors import InputError
from sim.core.experiment import load_experiment

BASE = """
[experiment]
name = "t"
game = "tests.toy_game"
games = 10
seed = 1

[config]
players = 2

[[seats]]
strategy = "random"
[[seats]]
strategy = "random"
"""


def write(tmp_path, text):
    path = tmp_path / "exp.toml"
    path.write_text(text)
    return path


def test_valid_file_loads_with_base_variant(tmp_path):
    exp = load_experiment(write(tmp_path, BASE))
    assert exp.name == "t" and exp.games == 10 and list(exp.variants) == ["base"]
    assert exp.variants["base"].players == 2
    assert len(exp.config_hash("base")) == 16


def test_variants_and_sweep(tmp_path):
    exp = load_experiment(write(tmp_path, BASE + "\n[variants.high]\ntarget = 50\n[variants.low]\ntarget = 10\n"))
    assert list(exp.variants) == ["high", "low"]
    assert exp.variants["high"].target == 50
    assert exp.config_hash("high") != exp.config_hash("low")
    exp = load_experiment(write(tmp_path, BASE + "\n[sweep]\ntarget = [10, 20]\nbonus_points = [0, 1]\n"))
    assert list(exp.variants) == ["target=10,bonus_points=0", "target=10,bonus_points=1",
                                  "target=20,bonus_points=0", "target=20,bonus_points=1"]
    assert exp.sweep == {"target": [10, 20], "bonus_points": [0, 1]}


@pytest.mark.parametrize("text, match", [
    (BASE.replace("games = 10", "gmaes = 10"), r"exp.toml: experiment.gmaes: unknown key; did you mean 'games'"),
    (BASE.replace("players = 2", "player = 2"), r"config.player: unknown key; did you mean 'players'"),
    (BASE.replace("players = 2", "players = 9"), r"config.players: expected a value from 2 to 6, got 9"),
    (BASE.replace("players = 2", 'players = "two"'), r"config.players: expected an integer, got 'two'"),
    (BASE.replace("games = 10", "games = 0"), r"experiment.games: expected an integer >= 1, got 0"),
    (BASE.replace('game = "tests.toy_game"', 'game = "chess"'), r"experiment.game: unknown game 'chess'"),
    (BASE.replace('strategy = "random"', 'strategy = "randon"', 1), r"seats\[0\].strategy: unknown strategy 'randon'; did you mean 'random'"),
    (BASE + '[[seats]]\nstrategy = "random"\n', r"seats: expected 2 \[\[seats\]\] tables"),
    (BASE + "\n[variants.x]\ntraget = 3\n", r"variants.x.traget: unknown key; did you mean 'target'"),
    (BASE + "\n[sweep]\ntarget = []\n", r"sweep.target: expected a non-empty list"),
    (BASE + "\n[extra]\n", r"exp.toml: extra: unknown key"),
    ("[experiment\n", r"not valid TOML"),
])
def test_bad_files_name_file_key_and_expectation(tmp_path, text, match):
    path = write(tmp_path, text)
    with pytest.raises(InputError, match=match):
        exp = load_experiment(path)
        # strategy names are checked when the runner builds the seats
        from sim.play import make_strategies
        for v in exp.variants:
            make_strategies(exp, v, exp.game_module(), exp.content(v))


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="nope.toml: experiment file not found"):
        load_experiment(tmp_path / "nope.toml")


def hash_with_strategies(exp, variant="base"):
    from sim.play import make_strategies
    return exp.config_hash(variant, make_strategies(exp, variant, exp.game_module(), exp.content(variant)))


def test_config_hash_covers_content_files_by_their_bytes_not_the_path_spelling(tmp_path, monkeypatch):
    (tmp_path / "faces.txt").write_text("6")
    path = write(tmp_path, BASE.replace("players = 2", 'players = 2\nfaces_file = "faces.txt"'))
    monkeypatch.chdir(tmp_path)
    relative = load_experiment("exp.toml")
    absolute = load_experiment(path)
    assert relative.variants["base"].faces_file == str(tmp_path / "faces.txt")     # resolved once, absolute
    assert relative.config_hash("base") == absolute.config_hash("base")
    assert hash_with_strategies(relative) == hash_with_strategies(absolute)
    spelled = write(tmp_path, BASE.replace("players = 2", f'players = 2\nfaces_file = "{tmp_path}/./faces.txt"'))
    assert load_experiment(spelled).config_hash("base") == absolute.config_hash("base")
    six = absolute.config_hash("base")
    (tmp_path / "faces.txt").write_text("8")                    # same path, other content
    assert load_experiment(path).config_hash("base") != six


@dataclasses.dataclass(frozen=True)
class FleetParams:
    fleet: float = 3.0


class Fleet:
    """A seat's strategy as the runner hands it to the hash: its class and resolved params."""

    def __init__(self, raw: dict):
        self.params = cfg.build(FleetParams, raw, "exp.toml")


def test_config_hash_is_the_same_for_a_default_given_or_omitted(tmp_path):
    omitted = load_experiment(write(tmp_path, BASE))
    given = load_experiment(write(tmp_path, BASE.replace('strategy = "random"', 'strategy = "random"\nparams = { fleet = 3 }')
                                  .replace("players = 2", "players = 2\ntarget = 30\nbonus_points = 0")))
    assert given.seats != omitted.seats and given.variants == omitted.variants
    assert (given.config_hash("base", [Fleet({"fleet": 3}), Fleet({})])
            == omitted.config_hash("base", [Fleet({}), Fleet({"fleet": 3.0})]))
    assert given.config_hash("base", [Fleet({"fleet": 3}), Fleet({})]) != given.config_hash("base", [Fleet({"fleet": 4}), Fleet({})])


def test_config_hash_covers_the_engine_code(tmp_path, monkeypatch):
    from sim.core.hashing import module_source_hash
    (tmp_path / "pig_plugin").mkdir()
    (tmp_path / "pig_plugin" / "__init__.py").write_text("")
    engine = tmp_path / "pig_plugin" / "engine.py"       # a plug-in game: its module file is its engine
    engine.write_text((Path(__file__).parent / "toy_game.py").read_text())
    monkeypatch.syspath_prepend(str(tmp_path))
    exp = load_experiment(write(tmp_path, BASE.replace("tests.toy_game", "pig_plugin.engine")))
    before = exp.hash_parts("base")
    engine.write_text(engine.read_text() + "\n# a changed rule\n")
    module_source_hash.cache_clear()
    after = exp.hash_parts("base")
    assert before["engine"] != after["engine"] and {k: v for k, v in before.items() if k != "engine"} == \
        {k: v for k, v in after.items() if k != "engine"}
