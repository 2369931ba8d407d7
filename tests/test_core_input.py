"""Input that can never mislead: every bad file, name or folder is one line and exit 2, nothing
written; plug-in code runs only from where the user asked; duplicate JSON keys and byte-order
marks are handled the same way by every reader; messages speak TOML/JSON, not Python."""
import dataclasses
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sim.cli import main
from sim.core import config as cfg
from sim.core import datafiles
from sim.core.errors import InputError
from sim.core.experiment import load_experiment

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "docs" / "examples"

TOY = textwrap.dedent("""\
    [experiment]
    name = "{name}"
    game = "{game}"
    games = 20
    seed = 3
    chunk = 10
    {extra}
    [config]
    players = 2

    [[seats]]
    strategy = "random"
    [[seats]]
    strategy = "random"
    """)


def toy(tmp_path, name="t", game="tests.toy_game", extra="", tail=""):
    path = tmp_path / "exp.toml"
    path.write_text(TOY.format(name=name, game=game, extra=extra) + tail)
    return path


def one_line_exit_2(capsys, argv, match):
    assert main([str(a) for a in argv]) == 2
    err = capsys.readouterr().err
    assert match in err, err
    assert len(err.strip().splitlines()) == 1, err


# ---- item 5: --report-dir and deep JSON -----------------------------------------------------

@pytest.fixture
def results(tmp_path):
    from analyses.synthetic import Variant, write_results
    return write_results(tmp_path / "res", "demo", {"a": Variant(), "b": Variant(noise_key=1)}, games=300)


@pytest.mark.parametrize("where", ["file", "under_file"])
def test_report_dir_that_is_a_file_is_one_line_exit_2(tmp_path, capsys, results, where):
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    target = blocker if where == "file" else blocker / "sub"
    one_line_exit_2(capsys, ["report", results, "--report-dir", target], "--report-dir: ")
    one_line_exit_2(capsys, ["compare", f"{results}:a", f"{results}:b", "--report-dir", target], "is a file")
    assert blocker.read_text() == "not a folder"


def test_report_dir_unwritable_is_refused_before_any_game_is_played(tmp_path, capsys, monkeypatch):
    """compare with experiment files plays games first: a bad --report-dir must stop it before."""
    import reports.report as report
    monkeypatch.setattr(report.os, "access", lambda path, mode: False)     # root may write anywhere
    a = toy(tmp_path)
    one_line_exit_2(capsys, ["compare", f"{a}", f"{a}", "--out", tmp_path / "res", "--report-dir", tmp_path / "rep"],
                    "--report-dir: cannot write into")
    assert not (tmp_path / "res").exists() and not (tmp_path / "rep").exists()


def test_report_writer_turns_os_errors_into_one_line(tmp_path):
    """A folder that turns out unusable while writing (here: the PNG folder is a file) is an InputError."""
    from reports.report import _Writer
    (tmp_path / "x").write_text("")
    with pytest.raises(InputError, match="--report-dir: cannot write the report to"):
        _Writer(tmp_path / "x.pdf", tmp_path / "x")


def test_deeply_nested_position_is_one_line_exit_2(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text('{"players": ' + "[" * 100000 + "]" * 100000 + "}")
    for game in ("red_rising", "animal_kingdoms", "explorers_of_navoria"):
        one_line_exit_2(capsys, ["score", game, deep], f"deep.json: line 1: nested too deep; expected at most "
                                                       f"{datafiles.MAX_JSON_DEPTH} levels")


def test_nesting_up_to_the_cap_is_read_and_brackets_in_strings_do_not_count(tmp_path):
    path = tmp_path / "p.json"
    depth = datafiles.MAX_JSON_DEPTH
    path.write_text('{"a": ' + "[" * (depth - 1) + "]" * (depth - 1) + ', "b": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')
    assert datafiles.read_json(path)["b"].startswith("[[[")
    path.write_text('{"a": ' + "[" * depth + "]" * depth + "}")
    with pytest.raises(InputError, match="nested too deep"):
        datafiles.read_json(path)


def test_deeply_nested_toml_is_one_line_exit_2(tmp_path, capsys):
    exp = toy(tmp_path, tail="\n[variants.deep]\ntarget = " + "[" * 50000 + "]" * 50000 + "\n")
    one_line_exit_2(capsys, ["run", exp, "--out", tmp_path / "out"], "exp.toml: nested too deep")
    assert not (tmp_path / "out").exists()
    with pytest.raises(InputError, match="deck.toml: nested too deep"):
        (tmp_path / "deck.toml").write_text("a = " + "{b = " * 5000 + "1" + "}" * 5000 + "\n")
        datafiles.read_toml(tmp_path / "deck.toml")


# ---- item 6: plug-ins are code --------------------------------------------------------------

EVIL = "import pathlib\npathlib.Path(__file__).with_name('RAN').write_text('evil ran')\nGAME = None\n"


def test_module_in_the_current_directory_is_not_imported(tmp_path, monkeypatch):
    """game = "evil.x" must not run ./evil.py, even with the cwd on sys.path (as python -m puts it)."""
    (tmp_path / "evil.py").write_text(EVIL)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(InputError, match=r"experiment.game: plug-in game 'evil.x' not found: 'evil' is only in "
                                         r"the current directory.*--plugin-path \."):
        load_experiment(toy(tmp_path, game="evil.x"))
    assert not (tmp_path / "RAN").exists() and "evil" not in sys.modules


def run_sim(*args, cwd):
    """``python -m sim`` in ``cwd``, importing this checkout's code (PYTHONPATH, not the cwd)."""
    return subprocess.run([sys.executable, "-m", "sim", *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_cli_run_does_not_run_code_from_the_current_directory(tmp_path):
    (tmp_path / "evil.py").write_text(EVIL)
    exp = toy(tmp_path, game="evil.x")
    done = run_sim("run", exp, "--out", tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 2 and "only in the current directory" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "RAN").exists() and not (tmp_path / "out").exists()


def plugin_folder(tmp_path) -> Path:
    """A copy of the toy game as plug-in package ``mypig`` in its own folder."""
    folder = tmp_path / "plugins" / "mypig"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    shutil.copy(ROOT / "tests" / "toy_game.py", folder / "game.py")
    return folder.parent


def test_plugin_from_the_experiment_key_plugin_path(tmp_path):
    plugin_folder(tmp_path)
    exp = load_experiment(toy(tmp_path, game="mypig.game", extra='plugin_path = "plugins"'))
    assert exp.game_module().name == "toy"
    assert str((tmp_path / "plugins").resolve()) in exp.plugin_paths


def test_plugin_path_on_the_command_line_reaches_the_worker_processes(tmp_path):
    folder = plugin_folder(tmp_path)
    exp = toy(tmp_path, game="mypig.game")
    refused = run_sim("run", exp, "--out", tmp_path / "out", "--quiet", cwd=tmp_path)
    assert refused.returncode == 2 and "plug-in game 'mypig.game' not found" in refused.stderr
    done = run_sim("run", exp, "--out", tmp_path / "out", "--jobs", "2", "--chunk", "5", "--quiet",
                   "--plugin-path", folder, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / "out" / "t" / "base").glob("shard-*.parquet"))) == 4


def test_plugin_path_must_be_an_existing_folder(tmp_path, capsys):
    one_line_exit_2(capsys, ["run", toy(tmp_path), "--plugin-path", tmp_path / "nope", "--out", tmp_path / "o"],
                    "command line: --plugin-path: expected an existing folder")
    with pytest.raises(InputError, match="experiment.plugin_path: folder 'nope' not found"):
        load_experiment(toy(tmp_path, extra='plugin_path = "nope"'))
    with pytest.raises(InputError, match="experiment.plugin_path: expected a folder"):
        load_experiment(toy(tmp_path, extra="plugin_path = 3"))


def test_tests_plug_in_the_toy_game_by_dotted_path(tmp_path):
    """Under pytest the tests package is already imported: its folder travels with the experiment."""
    exp = load_experiment(toy(tmp_path))
    assert exp.game_module().name == "toy" and str(ROOT.resolve()) in exp.plugin_paths


# ---- item 9: names are folder names ---------------------------------------------------------

@pytest.mark.parametrize("name", ["..", ".", ".hidden", "a/b", "a\\\\b", "x" * 101, "a b", "é"])
def test_experiment_name_must_be_a_safe_folder_name(tmp_path, name):
    with pytest.raises(InputError, match=r"exp.toml: experiment.name: expected a name of at most 100 letters"):
        load_experiment(toy(tmp_path, name=name))


@pytest.mark.parametrize("variant", ["../escape", "..", "a/b", ".x"])
def test_variant_names_must_be_safe_folder_names(tmp_path, variant):
    with pytest.raises(InputError, match=r"variants\.(\.\./escape|\.\.|a/b|\.x): expected a name"):
        load_experiment(toy(tmp_path, tail=f'\n[variants."{variant}"]\ntarget = 5\n'))


def test_cli_run_with_an_escaping_variant_writes_nothing(tmp_path, capsys):
    out = tmp_path / "deep" / "out"
    one_line_exit_2(capsys, ["run", toy(tmp_path, tail='\n[variants."../../escape"]\ntarget = 5\n'), "--out", out],
                    "variants.../../escape: expected a name")
    assert not (tmp_path / "deep").exists() and not (tmp_path / "escape").exists()


def test_sweep_point_names_from_file_values_are_single_safe_folders(tmp_path):
    exp_path = tmp_path / "rr.toml"
    exp_path.write_text(textwrap.dedent("""\
        [experiment]
        name = "decks"
        game = "red_rising"
        [config]
        players = 2
        [[seats]]
        strategy = "random"
        [[seats]]
        strategy = "random"
        [sweep]
        deck_file = ["decks/a.toml", "../b deck.toml"]
        """))
    exp = load_experiment(exp_path)
    assert list(exp.variants) == ["deck_file=decks_a.toml", "deck_file=.._b_deck.toml"]
    assert exp.variants["deck_file=decks_a.toml"].deck_file == str(tmp_path / "decks" / "a.toml")
    for name in exp.variants:
        assert (tmp_path / name).parent == tmp_path


def test_sweep_values_that_collide_as_folder_names_are_refused(tmp_path):
    with pytest.raises(InputError, match=r"sweep.deck_file: values 'a/b.toml' and 'a b.toml' give the same folder"):
        text = toy(tmp_path).read_text().replace('game = "tests.toy_game"', 'game = "red_rising"')
        (tmp_path / "rr.toml").write_text(text + '\n[sweep]\ndeck_file = ["a/b.toml", "a b.toml"]\n')
        load_experiment(tmp_path / "rr.toml")


# ---- item 10: duplicate keys in JSON --------------------------------------------------------

def test_read_json_refuses_a_repeated_key_naming_its_path(tmp_path):
    path = tmp_path / "p.json"
    path.write_text('{"players": [{"points": 1}, {"posts": {"forest": 1, "forest": 2}}]}')
    with pytest.raises(InputError, match=r"p.json: players\[1\].posts.forest: key given twice in one object"):
        datafiles.read_json(path)
    path.write_text('{"a": 1, "b": {"a": 1}, "c": [{"a": 1}]}')       # the same key in different objects is fine
    assert datafiles.read_json(path) == {"a": 1, "b": {"a": 1}, "c": [{"a": 1}]}


def test_duplicate_points_that_would_change_the_winner_are_refused(tmp_path, capsys):
    """EN worked example X5 (EN-E3, EN-E4, EN-E7, EN-E8): C and D share the win at 94; a second
    "points": 90 for B would silently make B win if the last key won."""
    text = (EXAMPLES / "explorers_of_navoria" / "example_x5_shared_victory.json").read_text()
    assert text.count('"points": 60') == 1
    bad = tmp_path / "x5.json"
    bad.write_text(text.replace('"points": 60', '"points": 60, "points": 90'))
    one_line_exit_2(capsys, ["score", "explorers_of_navoria", bad], "x5.json: players[1].points: key given twice")


@pytest.mark.parametrize("game, example", [("red_rising", "example1_four_players.json"),
                                           ("animal_kingdoms", "example_10_1_three_way_tie.json")])
def test_every_game_position_reader_refuses_duplicate_keys(tmp_path, capsys, game, example):
    text = (EXAMPLES / game / example).read_text()
    bad = tmp_path / "dup.json"
    bad.write_text(text.replace("{", '{"rounds": 1, "rounds": 2, ', 1))
    one_line_exit_2(capsys, ["score", game, bad], "dup.json: rounds: key given twice")


# ---- item 11: byte-order marks and the file's language --------------------------------------

def test_bom_is_accepted_by_every_reader(tmp_path):
    exp = toy(tmp_path)
    exp.write_text("\ufeff" + exp.read_text(), encoding="utf-8")
    assert load_experiment(exp).name == "t"
    csv_file = tmp_path / "c.csv"
    csv_file.write_text("\ufeffid,n\nA,1\n", encoding="utf-8")
    assert datafiles.read_csv(csv_file, ("id", "n"), ("id",)) == [(2, {"id": "A", "n": "1"})]
    toml_file = tmp_path / "c.toml"
    toml_file.write_text('\ufeffa = 1\n', encoding="utf-8")
    assert datafiles.read_toml(toml_file) == {"a": 1}
    json_file = tmp_path / "c.json"
    json_file.write_text('\ufeff{"a": 1}', encoding="utf-8")
    assert datafiles.read_json(json_file) == {"a": 1}


def test_red_rising_deck_with_bom_loads_like_without(tmp_path):
    from sim.games.red_rising.content import DATA_DIR, DEFAULT_FILES, load_deck
    deck = tmp_path / "deck.toml"
    deck.write_text("\ufeff" + (DATA_DIR / DEFAULT_FILES["deck_file"]).read_text(encoding="utf-8"), encoding="utf-8")
    assert load_deck(deck) == load_deck(DATA_DIR / DEFAULT_FILES["deck_file"])


def test_experiment_and_content_values_are_shown_in_toml_words(tmp_path):
    path = toy(tmp_path)
    path.write_text(path.read_text().replace("games = 20", "games = {n = 1}"))
    with pytest.raises(InputError, match=r"experiment.games: expected an integer >= 1, got a table"):
        load_experiment(path)
    with pytest.raises(InputError, match=r"setup.toml: tokens: expected an integer, got true"):
        datafiles.integer("setup.toml", "tokens", True)


@dataclasses.dataclass(frozen=True)
class Knobs:
    weights: tuple[float, ...] = (1.0,)
    count: int = 1
    name: str = ""
    on: bool = False


@pytest.mark.parametrize("key, value, toml_words, json_words", [
    ("weights", {"a": 1}, "expected a list of numbers, got a table", "expected a list of numbers, got an object"),
    ("weights", [1, "x"], "expected a list of numbers, got [1, \"x\"]", "expected a list of numbers, got [1, \"x\"]"),
    ("count", "two", "expected an integer, got 'two'", "expected an integer, got 'two'"),
    ("count", True, "expected an integer, got true", "expected an integer, got true"),
    ("name", 3, "expected a string, got 3", "expected a string, got 3"),
    ("on", None, "expected true or false, got null", "expected true or false, got null"),
])
def test_messages_use_the_words_of_the_file_not_python(key, value, toml_words, json_words):
    for source, words in (("exp.toml", toml_words), ("pos.json", json_words)):
        with pytest.raises(InputError) as err:
            cfg.build(Knobs, {key: value}, source, "config.")
        assert str(err.value) == f"{source}: config.{key}: {words}"
        assert not any(w in str(err.value) for w in ("tuple", "dict", "NoneType", "True"))
