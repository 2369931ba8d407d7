"""Figures of strategy strength: a tuning run's history and the skill ladder's report section.

``add_pages(writer, results)`` is the hook of ``reports.report.experiment_report``: when the
results folder holds a ladder (``python -m sim ladder``, ``analyses.ladder.write``) the report
gets its pages; otherwise nothing happens.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from analyses.ladder import LEVELS, TARGET_VS_DEFAULT, read
from reports import figures as F

COLOURS = {0: "0.5", 1: "tab:blue", 2: "tab:orange"}
INTERVALS = "95% intervals: Plackett-Luce (ratings), Wilson (win shares)"


def tuning_history(result, path) -> Path:
    """Win share of every candidate against evaluations, the defaults on the same games, the final check."""
    hist = np.array(result.history, dtype=float).reshape(-1, 3)
    fig, ax = plt.subplots(figsize=F.WIDE)
    ok = hist[:, 1] >= 0
    ax.scatter(hist[ok, 0], hist[ok, 2], s=10, alpha=0.5, label="candidate (its generation's games)")
    if (~ok).any():
        ax.scatter(hist[~ok, 0], hist[~ok, 2], s=10, marker="x", color="tab:red", label="refused parameters")
    per_gen = max(1, len(hist) // max(1, len(result.baseline)))
    gen_end = per_gen * (np.arange(len(result.baseline)) + 1)
    means = [hist[(hist[:, 1] == g), 2].mean() if (hist[:, 1] == g).any() else np.nan
             for g in range(len(result.baseline))]
    ax.plot(gen_end, means, color="tab:blue", label="generation mean")
    ax.plot(gen_end, result.baseline, color="0.3", linestyle="--", label="defaults (same games)")
    ax.axhline(result.fair, color="0.6", linewidth=0.8, label="fair share")
    f = result.final
    x = len(hist) * 1.02
    F._errorbar(ax, [x], [f["tuned"]], yerr=[[f["tuned"] - f["tuned_lo"]], [f["tuned_hi"] - f["tuned"]]],
                fmt="o", color="tab:orange", label=f"tuned, {f['games']:,} fresh games")
    F._errorbar(ax, [x], [f["default"]], yerr=[[f["default"] - f["default_lo"]], [f["default_hi"] - f["default"]]],
                fmt="s", color="0.3", label="defaults, the same fresh games")
    ax.set_xlabel("evaluations (candidates played)")
    ax.set_ylabel(f"win share of {result.strategy}")
    ax.set_title(f"Tuning {result.strategy} with CMA-ES ({result.games_per_eval} games per evaluation)")
    ax.legend(fontsize=8, loc="best")
    stamp = F.Stamp(result.experiment, result.variant, f"{result.budget:,} games, seed {result.seed}", result.config_hash,
                    "95% Wilson intervals (final check)")
    fig.text(0.01, 0.012, stamp.text(), fontsize=8, color="0.3", ha="left", va="bottom")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def ladder_lines(ld) -> list[str]:
    """The ladder as text: ratings strongest first, head-to-head win shares, the targets."""
    lines = [f"Plackett-Luce ratings from {ld.mixed_games:,} games at mixed {ld.seats}-seat tables "
             "(Elo scale, mean 0; level: random / default / tuned)", "",
             f"{'entrant':<28}{'level':<9}{'Elo':>7}{'95% interval':>18}{'P(beat avg)':>13}"]
    for r in ld.ratings.iter_rows(named=True):
        lines.append(f"{r['strategy']:<28}{LEVELS[r['level']]:<9}{r['elo']:>7.0f}"
                     f"{'[' + format(r['elo_lo'], '.0f') + ', ' + format(r['elo_hi'], '.0f') + ']':>18}"
                     f"{r['p_beat_avg']:>13.3f}" + ("" if r["identified"] else "  (not identified)"))
    lines += ["", f"Head to head: the entrant in one seat, copies of the opponent in the others "
              f"(fair share {ld.fair:.3f})", "",
              f"{'entrant':<28}{'against':<24}{'games':>7}{'win share':>11}{'95% interval':>18}{'x fair':>8}"]
    for r in ld.head_to_head.iter_rows(named=True):
        lines.append(f"{r['entrant']:<28}{r['opponent']:<24}{r['games']:>7,}{r['win_share']:>11.3f}"
                     f"{'[' + format(r['lo'], '.3f') + ', ' + format(r['hi'], '.3f') + ']':>18}{r['ratio']:>8.2f}")
    return lines + ["", "Targets (reported, not asserted):"] + ["  " + t for t in ld.targets()]


def _stamp(ld) -> F.Stamp:
    return F.Stamp(ld.experiment, None, f"{ld.mixed_games:,} mixed-table games + head to head",
                   ld.config_hash or "-", INTERVALS)


def ratings_figure(ld):
    df = ld.ratings.sort("elo")
    fig, ax = plt.subplots(figsize=F.WIDE)
    y = np.arange(df.height)
    for lvl, colour in COLOURS.items():
        m = (df["level"] == lvl).to_numpy()
        if m.any():
            e = df["elo"].to_numpy()[m]
            F._errorbar(ax, e, y[m], xerr=[e - df["elo_lo"].to_numpy()[m], df["elo_hi"].to_numpy()[m] - e],
                        fmt="o", color=colour, label=LEVELS[lvl])
    ax.set_yticks(y, df["strategy"].to_list())
    ax.axvline(0, color="0.7", linewidth=0.8)
    ax.set_xlabel("Plackett-Luce rating (Elo scale, mean 0)")
    ax.set_title(f"Skill ladder: {ld.experiment}")
    ax.legend(fontsize=8, loc="lower right")
    fig.text(0.01, 0.012, _stamp(ld).text(), fontsize=8, color="0.3", ha="left", va="bottom")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


def head_to_head_figure(ld):
    df = ld.head_to_head
    fig, ax = plt.subplots(figsize=F.WIDE)
    y = np.arange(df.height)
    ws = df["win_share"].to_numpy()
    colours = [COLOURS[v] for v in df["level"].to_list()]
    for i in range(df.height):
        F._errorbar(ax, [ws[i]], [y[i]], xerr=[[ws[i] - df["lo"][i]], [df["hi"][i] - ws[i]]], fmt="o", color=colours[i])
    ax.set_yticks(y, [f"{a} vs {ld.seats - 1} x {b}" for a, b in zip(df["entrant"], df["opponent"])], fontsize=7)
    ax.axvline(ld.fair, color="0.5", linewidth=0.8, label="fair share")
    ax.axvline(ld.fair * TARGET_VS_DEFAULT, color="tab:orange", linewidth=0.8, linestyle="--",
               label=f"{TARGET_VS_DEFAULT} x fair share (target against the best default plan)")
    ax.set_xlabel("win share of the entrant")
    ax.set_title(f"Head to head against the level below: {ld.experiment}", pad=24)
    ax.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0, 1.0), ncol=2, frameon=False)
    fig.text(0.01, 0.012, _stamp(ld).text(), fontsize=8, color="0.3", ha="left", va="bottom")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


def add_ladder(writer, ld) -> None:
    """The ladder's pages: text, ratings, head to head."""
    from reports.html import preformatted
    lines = ladder_lines(ld)
    writer.add("ladder", F.text_page(lines, _stamp(ld), f"Skill ladder: {ld.experiment}", size=8),
               preformatted(lines), _stamp(ld).text())
    writer.add("ladder_ratings", ratings_figure(ld))
    if ld.head_to_head.height:
        writer.add("ladder_head_to_head", head_to_head_figure(ld))


def add_pages(writer, results) -> None:
    """Hook of the experiment report: the ladder kept in the results folder, if any."""
    ld = read(results.root, results.experiment)
    if ld is not None:
        add_ladder(writer, ld)


def ladder_report(ld, out_dir) -> list:
    """``<out>/<experiment>_ladder.pdf``, its PNGs and its HTML; returns the written files."""
    from reports.report import _Writer, safe_name

    out_dir = Path(out_dir)
    name = safe_name(ld.experiment) + ("" if ld.experiment.endswith("ladder") else "_ladder")
    w = _Writer(out_dir / f"{name}.pdf", out_dir / name)
    try:
        add_ladder(w, ld)
    finally:
        files = w.close()
    return [files.pdf, files.html, *files.pngs]
