"""Self-describing toolkit: config keys and strategies listed from the code, and docs/reference.md
generated from the same source (so it cannot drift)."""
from __future__ import annotations

import dataclasses

from sim import cli, reference
from sim.core import fields
from sim.core.config import choices, value_range
from sim.core.game import get_game


@dataclasses.dataclass(frozen=True)
class _Base:
    """A hand-made settings class: every way the source documents a field."""

    size: int = value_range(4, 1, 6)                # XX-S1: on its line
    # XX-A2, XX-R3..R5: the comment above
    mode: str = choices("dense", "competition")
    flag: bool = False
    names: tuple[str, ...] = ()
    weights: dict = dataclasses.field(default_factory=dict)   # per key


@dataclasses.dataclass(frozen=True)
class _Child(_Base):
    size: int = value_range(2, 1, 6)


def test_fields_read_type_default_allowed_values_and_rule_ids_from_the_code():
    docs = {d.key: d for d in fields.describe(_Base)}
    assert list(docs) == ["size", "mode", "flag", "names", "weights"]
    assert docs["size"] == fields.FieldDoc("size", "an integer", "4", "1..6", "XX-S1", "XX-S1: on its line")
    assert docs["mode"].allowed == '"dense", "competition"' and docs["mode"].default == '"dense"'
    assert docs["mode"].rules == "XX-A2, XX-R3..R5"
    assert docs["flag"].allowed == "true, false" and docs["flag"].note == ""
    assert docs["names"].type == "a list of strings" and docs["names"].default == "[]"
    assert docs["weights"].default == "{}" and docs["weights"].note == "per key"


def test_a_subclass_that_changes_a_default_keeps_the_parents_comment():
    size = fields.describe(_Child)[0]
    assert (size.default, size.rules, size.note) == ("2", "XX-S1", "XX-S1: on its line")


def test_config_command_lists_every_key_with_its_rule_id(capsys):
    """RR-A11, RR-A13, RR-E11: the rule ids of Red Rising's switches, as its config.py names them."""
    assert cli.main(["config", "red_rising"]) == 0
    out = capsys.readouterr().out.splitlines()
    keys = [f.name for f in dataclasses.fields(get_game("red_rising").Config)]
    listed = [line.split()[0] for line in out[2:]]
    assert listed == keys
    row = {line.split()[0]: line for line in out[2:]}
    assert '"dense", "competition"' in row["influence_tie_mode"] and "RR-A11" in row["influence_tie_mode"]
    assert "RR-A13, RR-R31" in row["ceres_banish"]
    assert row["helium_points"].split()[1:6] == ["an", "integer", "3", "-1000..1000", "RR-E11"]
    assert "relative to the experiment file" in row["deck_file"]


def test_strategies_command_lists_each_strategy_with_its_parameters(capsys):
    assert cli.main(["strategies", "animal_kingdoms"]) == 0
    out = capsys.readouterr().out
    assert "ak_capital_hunter" in out and "random" in out and "rr_balanced" not in out
    section = out.split("ak_capital_hunter\n\n", 1)[1].split("\n\n", 2)
    assert section[0]                                  # its one-line description
    capital = next(line for line in section[1].splitlines() if line.startswith("capital "))
    assert capital.split()[:4] == ["capital", "a", "number", "1.5"]


def test_unknown_game_is_one_line_and_exit_2(capsys):
    assert cli.main(["config", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_docs_reference_is_what_the_code_generates():
    assert reference.DOC.read_text() == reference.markdown(), \
        "docs/reference.md is out of date: run `make docs` (python -m sim.reference)"
