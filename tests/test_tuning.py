"""Plan tuning (``python -m sim tune``, analyses/tune.py) and seat parameter files
(``params_file``, sim/core/experiment.py): reproducible on a tiny budget, common random numbers,
a loadable parameter file, one-line refusals of bad input."""
from __future__ import annotations

import dataclasses
import tomllib

import numpy as np
import pytest

from analyses import tune as T
from analyses.tables import build_table, play_table
from sim.core.experiment import load_experiment
from strategies.animal_kingdoms import PlanParams
from tests.scaffold import assert_refused, cli, experiment_template, one_line_error, write_experiment

XDIST_GAME = "animal_kingdoms"     # its slow tests play Animal Kingdoms: run them beside that game's (tests/conftest.py)
AK = experiment_template("tune_ak", "animal_kingdoms", ["ak_greedy", "ak_spreader", "ak_capital_hunter"])
TINY = {"budget": 120, "games_per_eval": 20, "final_games": 30, "chosen": ["card", "first"]}


@pytest.fixture
def ak(tmp_path):
    return load_experiment(write_experiment(tmp_path, AK))


def test_search_space_is_the_numeric_fields():
    space = T.search_space(PlanParams)
    assert "council" not in space.names                                              # booleans are not searched
    assert set(space.names) == {f.name for f in dataclasses.fields(PlanParams) if f.type in ("int", "float")}
    values = space.values(np.zeros(len(space.names)))
    assert values == {n: getattr(PlanParams(), n) for n in space.names}              # x = 0 is the defaults
    moved = space.values(np.full(len(space.names), 0.26))
    assert moved["max_rallies"] == 4 and isinstance(moved["max_rallies"], int)       # 3 + 0.26 * 3, rounded
    assert moved["card"] == pytest.approx(0.3 + 0.26)                                 # scale max(|0.3|, 1)


def test_same_seed_same_result(ak):
    a = T.tune(ak, "ak_greedy", seed=5, **TINY)
    b = T.tune(ak, "ak_greedy", seed=5, **TINY)
    c = T.tune(ak, "ak_greedy", seed=6, **TINY)
    assert a.params == b.params and a.history == b.history and a.final == b.final
    assert a.history != c.history
    assert len(a.history) >= 6 and set(a.params) == {"card", "first"}


def test_candidates_of_a_generation_share_their_games(ak):
    """Common random numbers: the defaults' share in the history is the share on the generation's
    games, and equal parameters give equal shares on the same games (same seed and indices)."""
    result = T.tune(ak, "ak_greedy", seed=2, **TINY)
    ids = np.arange(0, TINY["games_per_eval"])
    share, _ = play_table(ak, "base", build_table(ak, "base", list(ak.seats)), 2, ids)
    assert result.baseline[0] == pytest.approx(share[:, 0].mean())
    again = T._share(ak, "base", ak.seats, [0], result.defaults, 2, ids)
    assert again == result.baseline[0]


def test_final_check_is_on_a_fresh_seed(ak):
    result = T.tune(ak, "ak_greedy", seed=3, **TINY)
    f = result.final
    assert f["final_seed"] == T.final_seed(3) and f["final_seed"] not in (3, 4)
    assert f["tuned_lo"] <= f["tuned"] <= f["tuned_hi"] and f["default_lo"] <= f["default"] <= f["default_hi"]
    assert result.fair == pytest.approx(1 / 3)


def test_cli_writes_a_loadable_params_file(tmp_path):
    exp = write_experiment(tmp_path, AK)
    out = tmp_path / "tuned" / "ak_greedy.toml"
    done = cli("tune", exp, "--strategy", "ak_greedy", "--budget", "120", "--games-per-eval", "20",
               "--final-games", "30", "--param", "card", "--param", "first", "--seed", "4",
               "--params-out", out, "--report-dir", tmp_path / "rep", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "rep" / "tune_ak_greedy.png").stat().st_size > 10000
    written = tomllib.loads(out.read_text())
    assert written["strategy"] == "ak_greedy" and set(written["params"]) == {"card", "first"}
    assert written["tuning"]["seed"] == 4 and written["tuning"]["budget"] == 120
    again = T.tune(load_experiment(exp), "ak_greedy", budget=120, seed=4, games_per_eval=20, final_games=30,
                   chosen=["card", "first"])
    assert again.params == written["params"]                                       # the CLI is the function
    seat = 'params_file = "tuned/ak_greedy.toml"\n'
    text = AK.format(extra="").replace('[[seats]]\nstrategy = "ak_greedy"\n', f'[[seats]]\n{seat}', 1)
    loaded = load_experiment(write_experiment(tmp_path, AK, text=text))
    assert loaded.seats[0].strategy == "ak_greedy" and loaded.seats[0].params == written["params"]
    strategies = build_table(loaded, "base", list(loaded.seats))
    assert strategies[0].params.card == written["params"]["card"]


def test_seat_params_override_the_file_and_hash_follows_params(tmp_path):
    (tmp_path / "p.toml").write_text('strategy = "ak_greedy"\n[params]\ncard = 0.9\nfirst = 2.0\n')
    text = AK.format(extra="").replace('strategy = "ak_greedy"\n',
                                       'params_file = "p.toml"\nparams = { first = 3.0 }\n', 1)
    exp = load_experiment(write_experiment(tmp_path, AK, text=text))
    assert exp.seats[0].params == {"card": 0.9, "first": 3.0} and exp.seats[0].params_file == "p.toml"
    inline = AK.format(extra="").replace('strategy = "ak_greedy"\n',
                                         'strategy = "ak_greedy"\nparams = { card = 0.9, first = 3.0 }\n', 1)
    (tmp_path / "b").mkdir()
    same = load_experiment(write_experiment(tmp_path / "b", AK, text=inline))
    assert exp.config_hash("base") == same.config_hash("base")


@pytest.mark.parametrize("file_text, seat, match", [
    (None, 'params_file = "missing.toml"', "seats[0].params_file: file 'missing.toml' not found"),
    ('strategy = "ak_spreader"\n[params]\ncard = 1.0\n', 'strategy = "ak_greedy"\nparams_file = "p.toml"',
     "the parameter file is for 'ak_spreader', not 'ak_greedy'"),
    ('strategy = "ak_greedy"\n', 'params_file = "p.toml"', "p.toml: params: expected a [params] table"),
    ('strategy = "ak_greedy"\n[params]\n[extra]\n', 'params_file = "p.toml"',
     "p.toml: extra: unknown key; expected one of: params, strategy, tuning"),
])
def test_bad_params_files_are_refused_in_one_line(tmp_path, file_text, seat, match):
    if file_text is not None:
        (tmp_path / "p.toml").write_text(file_text)
    text = AK.format(extra="").replace('strategy = "ak_greedy"', seat, 1)
    path = write_experiment(tmp_path, AK, text=text)
    assert match in one_line_error(load_experiment, path)


@pytest.mark.parametrize("args, match", [
    (["--strategy", "ak_greedyy"], "--strategy: unknown strategy 'ak_greedyy'; did you mean 'ak_greedy'?"),
    (["--strategy", "ak_early_retreat"], "no seat plays 'ak_early_retreat'"),
    (["--strategy", "ak_greedy", "--param", "cardd"], "--param: unknown parameter 'cardd'"),
    (["--strategy", "ak_greedy", "--param", "council"], "--param: unknown parameter 'council'"),
    (["--strategy", "ak_greedy", "--budget", "0"], "--budget"),
])
def test_cli_refuses_bad_input_in_one_line(tmp_path, args, match):
    exp = write_experiment(tmp_path, AK)
    out = tmp_path / "tuned.toml"
    done = cli("tune", exp, *args, "--params-out", out, "--report-dir", tmp_path / "rep", cwd=tmp_path)
    assert_refused(done, match, out)
    assert not (tmp_path / "rep").exists()


def test_seat_puts_the_plan_against_the_other_seats(ak):
    """--seat N: the plan replaces seat N's strategy and the rest are the field, so its defaults'
    share is what that table gives seat N on the same games."""
    result = T.tune(ak, "ak_early_retreat", seed=1, seat=2, **TINY)
    assert result.slots == [2]
    table = [ak.seats[0], ak.seats[1], T.Seat("ak_early_retreat", {})]
    share, _ = play_table(ak, "base", build_table(ak, "base", table), 1, np.arange(TINY["games_per_eval"]))
    assert result.baseline[0] == pytest.approx(share[:, 2].mean())
    assert "--seat: expected a seat below 3, got 3" in one_line_error(T.tune, ak, "ak_greedy", seat=3, **TINY)


def test_field_puts_copies_of_one_strategy_in_the_other_seats(ak):
    """--field S: the plan in seat 0 (or --seat) against copies of S with default weights."""
    result = T.tune(ak, "ak_greedy", seed=1, field="ak_spreader", **TINY)
    assert result.slots == [0] and result.field == ["ak_greedy", "ak_spreader", "ak_spreader"]
    table = [T.Seat("ak_greedy", {}), T.Seat("ak_spreader", {}), T.Seat("ak_spreader", {})]
    share, _ = play_table(ak, "base", build_table(ak, "base", table), 1, np.arange(TINY["games_per_eval"]))
    assert result.baseline[0] == pytest.approx(share[:, 0].mean())
    assert "--field: unknown strategy 'ak_spreadr'; did you mean 'ak_spreader'?" in one_line_error(
        T.tune, ak, "ak_greedy", field="ak_spreadr", **TINY)


RC = experiment_template("tune_rc", "recall", ["rc_knowledge", "rc_artifacts", "rc_builder", "rc_keys"], players=4)


def test_table_entries_and_whole_tables_are_searched():
    """--param tribes.J'He names one entry of a table Param, --param goals every number entry of
    it; each maps like a number field, and a candidate sets its entries in a copy of the whole
    start table (a seat's table replaces the plan's, so the file must hold all of it)."""
    from strategies.recall_plans import KeysParams
    space = T.search_space(KeysParams, ["tribes.J'He", "goals", "goal"])
    assert space.names == ("tribes.J'He", "goals.key_cards", "goals.upgrade_tiles", "goal")
    defaults = KeysParams()
    assert space.values(np.zeros(4)) == {"tribes": defaults.tribes, "goals": defaults.goals, "goal": 1.0}
    moved = space.values([0.1, 0.1, 0.0, 0.0])
    assert moved["tribes"] == {**defaults.tribes, "J'He": pytest.approx(3.0 + 0.1 * 3.0)}       # scale |3.0|
    assert moved["goals"] == {"key_cards": pytest.approx(0.35 + 0.1), "upgrade_tiles": 0.25}     # scale 1
    assert KeysParams().tribes == defaults.tribes                                                # defaults untouched
    start = T.search_space(KeysParams, ["tribes"], start={"tribes": {"Hayla": 2.0}})
    assert start.names == ("tribes.Hayla",) and start.defaults[0] == 0.0     # the seat's table is the start


@pytest.mark.parametrize("param, match", [
    ("tribez.Ion", "--param: unknown table 'tribez' in 'tribez.Ion' of KeysParams; expected one of weights, "),
    ("tribes.Hayla", "--param: unknown entry 'Hayla' of table 'tribes' of KeysParams; expected one of J'He, Ion"),
    ("goal.x", "--param: unknown table 'goal' in 'goal.x'"),
])
def test_cli_refuses_a_bad_table_key_in_one_line(tmp_path, param, match):
    exp = write_experiment(tmp_path, RC)
    out = tmp_path / "tuned.toml"
    done = cli("tune", exp, "--strategy", "rc_keys", "--param", param, "--params-out", out,
               "--report-dir", tmp_path / "rep", cwd=tmp_path)
    assert_refused(done, match, out)


def test_recall_table_entries_are_tuned_written_and_loaded(tmp_path):
    """A dotted key and a whole table are searched, written as whole tables in the parameter file,
    and a seat naming the file plays them; the same seed gives the same result, another does not."""
    exp = write_experiment(tmp_path, RC)
    out = tmp_path / "tuned" / "rc_keys.toml"
    args = ["--budget", "40", "--games-per-eval", "5", "--final-games", "8", "--seed", "2"]
    done = cli("tune", exp, "--strategy", "rc_keys", *args, "--param", "tribes.J'He", "--param", "goals",
               "--params-out", out, "--report-dir", tmp_path / "rep", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    written = tomllib.loads(out.read_text())["params"]
    from strategies.recall_plans import KeysParams
    defaults = KeysParams()
    assert set(written) == {"tribes", "goals"} and set(written["goals"]) == set(defaults.goals)
    assert {k: v for k, v in written["tribes"].items() if k != "J'He"} == {
        k: v for k, v in defaults.tribes.items() if k != "J'He"}
    assert written["tribes"]["J'He"] != defaults.tribes["J'He"] and written["goals"] != defaults.goals
    run = dict(budget=40, games_per_eval=5, final_games=8, chosen=["tribes.J'He", "goals"])
    again = T.tune(load_experiment(exp), "rc_keys", seed=2, **run)
    assert again.params == written                                                  # same seed, same result
    assert T.tune(load_experiment(exp), "rc_keys", seed=3, **run).params != written
    text = RC.format(extra="").replace('strategy = "rc_keys"\n', 'params_file = "tuned/rc_keys.toml"\n')
    loaded = load_experiment(write_experiment(tmp_path, RC, text=text))
    plan = build_table(loaded, "base", list(loaded.seats))[3]
    assert plan.params.tribes == written["tribes"] and plan.params.goals == written["goals"]
    assert plan.params.items == defaults.items                                      # untuned tables stay
