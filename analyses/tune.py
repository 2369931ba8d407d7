"""Tune a plan's weights: CMA-ES on its numeric parameters, maximising its win share.

Numeric parameters are its number fields, or those named with ``--param``: number fields,
entries of table Params (``tribes.Hayla``) or whole tables (``goals``).

The plan named ``strategy`` plays every seat of the experiment that names it, the other seats
are the field. A candidate is a vector ``x``; its parameters are ``default + scale * x``
(``scale = max(|default|, 1)``, whole numbers rounded, declared ranges clipped), so CMA-ES
starts at the plan's defaults with steps of about 30 % of each weight. Why CMA-ES (the ``cma``
package): the win share of a weight vector is a noisy, non-smooth function of 10-40 real
numbers, which is what CMA-ES is built for; it needs no gradient, adapts its step size and
correlations itself, and with ``seed`` set is reproducible (docs/tuning.md compares it with
optuna and nevergrad).

Common random numbers: every candidate of a generation, and the plan's defaults, play the
same games (seed and game indices); a new generation plays new game indices, so the search
does not fit a fixed set of games. The result is the distribution's mean after the last
generation (less noisy than the luckiest candidate), evaluated with the defaults on games
of a fresh seed, with Wilson intervals.
"""
from __future__ import annotations

import dataclasses
import difflib
import math
import re
from pathlib import Path

import numpy as np

from analyses.intervals import wilson
from analyses.tables import build_table, play_table
from sim.core.errors import InputError
from sim.core.experiment import Seat
from sim.core.hashing import stable_hash
from strategies import registry

SIGMA0 = 0.3          # first step, in units of each weight's scale (about 30 %)


NUMBER = (int, float, "int", "float")
TABLE = (dict, "dict")


@dataclasses.dataclass(frozen=True)
class Space:
    """The searched parameters: names (``table.entry`` for a table Param's entry), defaults,
    scales, whole-number flags, ranges, and the start tables the searched entries are set in."""

    names: tuple
    defaults: np.ndarray
    scales: np.ndarray
    ints: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    tables: dict = dataclasses.field(default_factory=dict)

    def values(self, x) -> dict:
        v = np.clip(self.defaults + self.scales * np.asarray(x, dtype=float), self.lo, self.hi)
        return self.params({n: (int(round(a)) if i else float(a)) for n, a, i in zip(self.names, v, self.ints)})

    def params(self, flat: dict) -> dict:
        """Seat params from ``{name: value}``: a table entry goes into a copy of its whole start
        table, since a seat's table replaces the plan's default table (it is not merged with it)."""
        out = {}
        for name, value in flat.items():
            if "." in name:
                table, key = name.split(".", 1)
                out.setdefault(table, dict(self.tables[table]))[key] = value
            else:
                out[name] = value
        return out


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _expand(name, numbers, tables, cls_name) -> list:
    """The searched names ``--param name`` stands for: a number field, ``table.entry``, or every
    number entry of a whole table (InputError naming ``name`` if there is no such parameter)."""
    if name in numbers:
        return [name]
    if name in tables:
        entries = [f"{name}.{k}" for k, v in tables[name].items() if _is_number(v)]
        if not entries:
            raise InputError("command line", "--param", f"table {name!r} of {cls_name} has no number entries; "
                             f"expected {name}.ENTRY with a start value in the seat's params")
        return entries
    table, dot, key = name.partition(".")
    if dot and table in tables:
        if not _is_number(tables[table].get(key)):
            raise InputError("command line", "--param", f"unknown entry {key!r} of table {table!r} of {cls_name}; "
                             f"expected one of {', '.join(k for k, v in tables[table].items() if _is_number(v))} "
                             "(or give the entry a start value in the seat's params)")
        return [name]
    if dot:
        raise InputError("command line", "--param", f"unknown table {table!r} in {name!r} of {cls_name}; "
                         f"expected one of {', '.join(tables) or '(none)'}")
    raise InputError("command line", "--param", f"unknown parameter {name!r} of {cls_name}; expected one of "
                     f"{', '.join([*numbers, *tables]) or '(none)'}")


def search_space(params_cls, chosen=None, start=None) -> Space:
    """The numeric (not boolean) fields of ``params_cls``, or only ``chosen``: number fields,
    table entries (``tribes.Hayla``) or whole tables (``goals``); InputError if unknown. A table's
    entries are those of the seat's own table in ``start`` if it gives one, else the plan's."""
    fields = dataclasses.fields(params_cls)
    numbers = {f.name: f for f in fields if f.type in NUMBER}
    made = params_cls()
    plan_tables = {f.name: getattr(made, f.name) for f in fields if f.type in TABLE}
    tables = {n: dict((start or {}).get(n, t)) for n, t in plan_tables.items()}
    names = list(numbers) if not chosen else list(dict.fromkeys(
        n for name in chosen for n in _expand(name, numbers, tables, params_cls.__name__)))
    if not names:
        raise InputError("command line", "--strategy", f"{params_cls.__name__} has no numeric parameters to tune")
    defaults, ints, ranges = [], [], []
    for name in names:
        table, dot, key = name.partition(".")
        if dot:                                   # a table entry: a real number, no declared range
            defaults.append(float(plan_tables[table].get(key, 0.0)))
            ints.append(False)
            ranges.append((-math.inf, math.inf))
        else:
            f = numbers[name]
            defaults.append(float(f.default))
            ints.append(f.type in (int, "int"))
            ranges.append(f.metadata.get("range", (-math.inf, math.inf)))
    defaults = np.array(defaults)
    return Space(tuple(names), defaults, np.maximum(np.abs(defaults), 1.0), np.array(ints),
                 np.array([r[0] for r in ranges], dtype=float), np.array([r[1] for r in ranges], dtype=float),
                 {t: tables[t] for t in dict.fromkeys(n.partition(".")[0] for n in names if "." in n)})


@dataclasses.dataclass
class TuneResult:
    strategy: str
    experiment: str
    variant: str
    seed: int
    budget: int
    games_per_eval: int
    fair: float
    config_hash: str
    slots: list                # the seats the plan played
    field: list                # the strategy of each seat
    params: dict               # the tuned values of the searched parameters
    defaults: dict
    history: list              # (evaluation, generation, win share); generation of -1 = invalid
    baseline: list             # per generation: the defaults' win share on the same games
    final: dict                # games, seed, tuned/default win share with lo, hi

    def summary(self) -> str:
        f = self.final
        return (f"{self.strategy}: tuned {f['tuned']:.3f} [{f['tuned_lo']:.3f}, {f['tuned_hi']:.3f}] vs defaults "
                f"{f['default']:.3f} [{f['default_lo']:.3f}, {f['default_hi']:.3f}] win share "
                f"(fair {self.fair:.3f}) in {f['games']} fresh games")


def tuned_table(exp, strategy: str, seat: int | None = None, field: str | None = None):
    """(seats, tuned slots): ``strategy`` in seat ``seat`` (with its defaults) and the experiment's
    other seats as the field, or copies of ``field`` (default weights) in them; without ``seat``
    or ``field``, every seat of ``exp`` that plays ``strategy``."""
    if seat is None and field is None:
        return list(exp.seats), tuned_slots(exp, strategy)
    tuned_slots(exp, strategy, must_sit=False)
    seat = 0 if seat is None else seat
    if seat >= len(exp.seats):
        raise InputError("command line", "--seat", f"expected a seat below {len(exp.seats)}, got {seat}")
    if field is not None:
        check_strategy(exp, field, "--field")
    seats = [Seat(field, {}) for _ in exp.seats] if field is not None else list(exp.seats)
    if seats[seat].strategy != strategy:
        seats[seat] = Seat(strategy, {})
    return seats, [seat]


def check_strategy(exp, name: str, option: str) -> None:
    known = registry.available(exp.game)
    if name not in known:
        hint = difflib.get_close_matches(name, known, n=1)
        raise InputError("command line", option, f"unknown strategy {name!r}; "
                         + (f"did you mean {hint[0]!r}?" if hint else "expected one of: " + ", ".join(known)))


def tuned_slots(exp, strategy: str, must_sit: bool = True) -> list[int]:
    """The seats of ``exp`` that ``strategy`` plays (InputError: unknown name, or no seat)."""
    check_strategy(exp, strategy, "--strategy")
    slots = [i for i, s in enumerate(exp.seats) if s.strategy == strategy]
    if not slots and must_sit:
        names = ", ".join(sorted({s.strategy for s in exp.seats}))
        raise InputError(exp.path, "seats", f"no seat plays {strategy!r}; expected one of {names} (--strategy) "
                         "or --seat N to put it in a seat")
    return slots


def _share(exp, variant, seats, slots, values, seed, game_ids):
    """Mean win share of ``slots`` when they play ``values``; None if the values are refused."""
    table = [Seat(s.strategy, {**s.params, **values}) if i in slots else s for i, s in enumerate(seats)]
    try:
        strategies = build_table(exp, variant, table)
    except InputError:
        return None
    share, _ = play_table(exp, variant, strategies, seed, game_ids)
    return float(share[:, slots].mean())


def final_seed(seed: int) -> int:
    """A seed for the final evaluation, unrelated to the search's (and to seed + 1)."""
    return int(stable_hash({"seed": seed, "purpose": "tune-final"}), 16) % (2 ** 62)


def tune(exp, strategy: str, budget: int = 20000, seed: int = 0, games_per_eval: int = 500,
         final_games: int = 4000, chosen=None, variant: str | None = None, seat: int | None = None,
         sigma: float = SIGMA0, field: str | None = None, log=None) -> TuneResult:
    """Search ``strategy``'s weights on ``budget`` games (defaults' games included), then evaluate.

    The plan plays the seats ``tuned_table`` gives (``seat``: one seat, the rest the field;
    ``field``: copies of that strategy in the other seats)."""
    import cma

    variant = variant or next(iter(exp.variants))
    if variant not in exp.variants:
        raise InputError(exp.path, "variants", f"unknown variant {variant!r}; expected one of {', '.join(exp.variants)}")
    seats, slots = tuned_table(exp, strategy, seat, field)
    build_table(exp, variant, seats)                         # the field itself must build
    params_cls = registry.strategy_class(strategy).Params
    own = seats[slots[0]].params
    space = search_space(params_cls, chosen, own)
    start = {}                            # the seat's own values, else the plan's defaults
    for name in space.names:
        table, dot, key = name.partition(".")
        start[name] = space.tables[table][key] if dot else own.get(name, getattr(params_cls(), name))
    base = space.params(start)
    x0 = np.array([(start[n] - d) / s for n, d, s in zip(space.names, space.defaults, space.scales)])
    opts = {"seed": seed + 1, "verbose": -9, "verb_log": 0, "verb_disp": 0}
    one_d = len(x0) == 1                  # cma needs two dimensions: a second one that nothing reads
    es = cma.CMAEvolutionStrategy(np.r_[x0, 0.0] if one_d else x0, sigma, opts)
    generations = max(1, budget // ((es.popsize + 1) * games_per_eval))
    history, baseline = [], []
    for gen in range(generations):
        ids = np.arange(gen * games_per_eval, (gen + 1) * games_per_eval)
        xs = es.ask()
        fitness = []
        for x in xs:
            got = _share(exp, variant, seats, slots, space.values(x[:1] if one_d else x), seed, ids)
            history.append((len(history) + 1, gen if got is not None else -1, 0.0 if got is None else got))
            fitness.append(1.0 if got is None else -got)
        es.tell(xs, fitness)
        baseline.append(_share(exp, variant, seats, slots, base, seed, ids))
        if log:
            log(f"generation {gen + 1}/{generations}: best {-min(fitness):.3f}, mean {-np.mean(fitness):.3f}, "
                f"defaults {baseline[-1]:.3f}")
    mean = es.result.xfavorite
    tuned = space.values(mean[:1] if one_d else mean)
    fseed, ids = final_seed(seed), np.arange(final_games)
    game = exp.game_module()
    fair = 1.0 / game.seats(exp.variants[variant])
    n = final_games * len(slots)
    final = {"games": final_games, "final_seed": fseed}
    for key, values in (("tuned", tuned), ("default", base)):
        share = _share(exp, variant, seats, slots, values, fseed, ids)
        if share is None:                   # the mean of valid candidates may itself be refused
            raise InputError("command line", "--budget", f"the search ended on parameters {strategy!r} refuses; "
                             "expected a larger budget or fewer --param")
        lo, hi = wilson(share * n, n)
        final.update({key: share, f"{key}_lo": float(lo), f"{key}_hi": float(hi)})
    return TuneResult(strategy, exp.name, variant, seed, budget, games_per_eval, fair, exp.config_hash(variant),
                      slots, [s.strategy for s in seats], tuned, base, history, baseline, final)


def _toml_key(k) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else _toml_value(k)


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):                 # an inline table; keys such as "J'He" quoted
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_params_file(result: TuneResult, path, command: str = "") -> Path:
    """The tuned weights as a parameter file a seat can name (``params_file``, docs/tuning.md)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    f = result.final
    lines = [f"# Tuned weights of {result.strategy} (docs/tuning.md); written by python -m sim tune.",
             f"# {result.summary()}"]
    if command:
        lines.append(f"# command: {command}")
    lines += [f'strategy = "{result.strategy}"', "", "[params]"]
    lines += [f"{k} = {_toml_value(v)}" for k, v in result.params.items()]
    lines += ["", "[tuning]"]
    info = {"experiment": result.experiment, "variant": result.variant, "seats": result.slots, "field": result.field, "seed": result.seed,
            "budget": result.budget, "games_per_eval": result.games_per_eval, "evaluations": len(result.history),
            "fair_share": result.fair, **{k: (round(v, 6) if isinstance(v, float) else v) for k, v in f.items()}}
    lines += [f"{k} = {_toml_value(v)}" for k, v in info.items()]
    lines.append(f"defaults = {_toml_value(result.defaults)}")
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path
