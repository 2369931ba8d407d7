"""Content shown by what it is: "FT02 traders+soldiers 3/2 pts per card", not only "FT02".

Why: a designer reads a figure of favour tiles or cards by their text, not by their ids. The
labels come from the content the games were played with (the experiment file's, per variant:
an edited card reads as edited); a game offers them with ``report_labels(content)`` ->
{feature or held-content name: {id: text}}. Without the experiment file or the method, ids stay.
"""
from __future__ import annotations


def content_labels(results, variant: str) -> dict:
    """{name: {id: text}} for one variant's content; {} when it cannot be known here."""
    from pathlib import Path
    path = results.experiment_file or (results.manifest or {}).get("experiment_file")
    if not path or not Path(path).is_file():
        return {}
    try:
        from sim.core.experiment import load_experiment
        exp = load_experiment(path)
        if variant not in exp.variants:
            return {}
        game = exp.game_module()
        if not hasattr(game, "report_labels"):
            return {}
        return game.report_labels(exp.content(variant))
    except Exception:                       # noqa: BLE001 - labels are a nicety: an unloadable file keeps the ids
        return {}


def labelled(value: str, labels: dict) -> str:
    """``id text`` when the id has a label, else the id."""
    text = labels.get(str(value))
    return f"{value} {text}" if text and text != str(value) else str(value)
