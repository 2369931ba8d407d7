"""What differs between the two sides of a comparison, key by key: ``helium_points: 3 -> 5``.

Why first: a comparison answers "what did B's change do", so it starts by saying what the
change is (the rule config, the seats' strategies and parameters, the seed), read from the
experiment file, or from the manifest of a results folder.
"""
from __future__ import annotations

from sim.core import config as cfg
from sim.core.wording import shown


def settings_of_experiment(exp, variant: str) -> dict:
    """A side's settings from its experiment file."""
    return {"game": exp.game, "seed": exp.seed, "config": cfg.as_dict(exp.variants[variant]),
            "seats": [{"strategy": s.strategy, "params": s.params} for s in exp.seats_of(variant)]}


def settings_of_results(results, variant: str) -> dict | None:
    """A side's settings from its results folder's manifest (None without one)."""
    m = results.manifest
    if not m or variant not in m.get("variants", {}):
        return None
    info = m["variants"][variant]
    return {"game": m.get("game_name"), "seed": m.get("seed"), "config": info.get("config", {}),
            "seats": info.get("seats", m.get("seats", []))}


def _flat(value, prefix: str, out: dict) -> dict:
    if isinstance(value, dict):
        for k, v in value.items():
            _flat(v, f"{prefix}.{k}" if prefix else str(k), out)
    elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        for i, v in enumerate(value):
            _flat(v, f"{prefix}[{i}]", out)
    else:
        out[prefix] = list(value) if isinstance(value, tuple) else value
    return out


def diff_lines(a: dict | None, b: dict | None) -> list[str]:
    """``key: A -> B`` for every setting that differs (config keys without their ``config.``
    prefix); one line saying so when nothing differs or a side's settings are unknown."""
    if a is None or b is None:
        return ["configuration A -> B: unknown (a results folder without a manifest)"]
    fa, fb = _flat(a, "", {}), _flat(b, "", {})
    lines = []
    for key in [*fa, *(k for k in fb if k not in fa)]:
        va, vb = fa.get(key, "(none)"), fb.get(key, "(none)")
        if va != vb:
            name = key.removeprefix("config.")
            lines.append(f"  {name}: {_text(va)} -> {_text(vb)}")
    if not lines:
        return ["configuration A -> B: the same (only the games differ)"]
    return ["configuration A -> B:", *lines]


def _text(value) -> str:
    return value if value == "(none)" else shown(value)
