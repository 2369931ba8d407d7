"""Figures of a balance report; each takes analysis tables and returns a matplotlib Figure.

Why these conventions: a designer flips through the pages and must see at a glance what is out
of balance. So every figure names the experiment, the number of games, the config hash and the
interval method in its footer; intervals are always drawn; the fair share is always a visible
reference; and anything flagged is coloured (red above, blue below fair) and starred, everything
else is grey. In a balance report "flagged" is the verdict page's "out of balance" (one family
for the page); exploratory tables say that their stars are within the table only. No statistics are computed here: the tables come from
``analyses`` (plotting stays in ``reports/``).
"""
from __future__ import annotations

from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402

from analyses import fmt  # noqa: E402

UP, DOWN, NEUTRAL, REF = "#c0392b", "#2166ac", "#555555", "#333333"
plt.rcParams.update({"font.size": 10, "axes.titlesize": 12, "axes.labelsize": 10, "figure.dpi": 100,
                     "axes.spines.top": False, "axes.spines.right": False})
WIDE = (10, 6)
_MPL = tuple(int(x) for x in matplotlib.__version__.split(".")[:2])
_HORIZONTAL = {"orientation": "horizontal"} if _MPL >= (3, 10) else {"vert": False}


@dataclass
class Stamp:
    """Identity of what a figure shows; printed in every footer."""

    experiment: str
    variant: str | None
    games: int | str
    config_hash: str
    intervals: str

    def text(self) -> str:
        what = self.experiment + (f" : {self.variant}" if self.variant and self.variant != "base" else "")
        games = f"{self.games:,} games" if isinstance(self.games, int) else str(self.games)
        parts = [what, games, f"config {self.config_hash}", self.intervals]
        line = "  |  ".join(parts)
        if len(line) > 150:                      # two lines rather than a cut-off footer
            line = "  |  ".join(parts[:2]) + "\n" + "  |  ".join(parts[2:])
        return line



def _errorbar(ax, *args, xerr=None, yerr=None, **kwargs):
    """``ax.errorbar`` with interval half-widths clipped at 0.

    An estimate at a bound (a share of exactly 0 or 1) can sit a rounding error outside its
    interval, which matplotlib rejects as a negative error bar.
    """
    def clip(err):
        return None if err is None else np.maximum(np.asarray(err, dtype=float), 0.0)
    return ax.errorbar(*args, xerr=clip(xerr), yerr=clip(yerr), **kwargs)

def _finish(fig, stamp: Stamp, title: str):
    fig.suptitle(title, fontsize=13, fontweight="bold", x=0.01, ha="left")
    fig.text(0.01, 0.012, stamp.text(), fontsize=8, color="0.3", ha="left", va="bottom")
    fig.tight_layout(rect=(0, 0.07 if "\n" in stamp.text() else 0.04, 1, 0.95))
    return fig


def _colour(row) -> str:
    if not row.get("significant"):
        return NEUTRAL
    return UP if row.get("excess", row.get("diff", 0)) > 0 else DOWN


def _legend_sig(ax, level: float, where="lower right"):
    from matplotlib.lines import Line2D
    handles = [Line2D([], [], color=UP, marker="o", ls="", label="above fair (flagged on the verdict page)"),
               Line2D([], [], color=DOWN, marker="o", ls="", label="below fair (flagged on the verdict page)"),
               Line2D([], [], color=NEUTRAL, marker="o", ls="", label="not flagged"),
               Line2D([], [], color=REF, ls="--", label="fair share")]
    ax.legend(handles=handles, loc=where, fontsize=8, frameon=False,
              title=f"one family: the verdict page, {int(round(level * 100))}%", title_fontsize=8)


def _pct(ax, axis="x"):
    from matplotlib.ticker import PercentFormatter
    (ax.xaxis if axis == "x" else ax.yaxis).set_major_formatter(PercentFormatter(1.0))


LABEL_BOX = {"boxstyle": "square,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.85}


def text_page(lines: list, stamp: Stamp, title: str, size: float = 9):
    """A page of monospace text (summary tables)."""
    fig = plt.figure(figsize=(11, 8.5))
    fig.text(0.02, 0.93, "\n".join(lines), family="monospace", fontsize=size, va="top", ha="left")
    fig.suptitle(title, fontsize=14, fontweight="bold", x=0.02, ha="left")
    fig.text(0.01, 0.012, stamp.text(), fontsize=8, color="0.3", ha="left", va="bottom")
    return fig


LIGHTS = {"red": "#c0392b", "amber": "#e6a100", "green": "#2e8b57"}


def verdict_page(headline: str, lines: list, notes: list, stamp: Stamp, title: str):
    """The plain-language first page: a headline, one traffic-light line per verdict
    ``(light, text)`` (light in LIGHTS), then notes (family, games needed, confounds,
    assumptions) in normal type."""
    import textwrap
    fig = plt.figure(figsize=(11, 8.5))
    fig.suptitle(title, fontsize=14, fontweight="bold", x=0.02, ha="left")
    y = 0.92
    for part in textwrap.wrap(headline, 105):
        fig.text(0.03, y, part, fontsize=12.5, fontweight="bold", va="top")
        y -= 0.033
    y -= 0.012
    step = 0.029 if len(lines) <= 16 else 0.023
    size = 10 if len(lines) <= 16 else 8.5
    for light, text in lines:
        fig.text(0.035, y - 0.004, "\u25cf", color=LIGHTS[light], fontsize=size + 5, va="top", ha="left")
        fig.text(0.06, y, text, fontsize=size, va="top", ha="left")
        y -= step
    y -= 0.012
    for note in notes:
        for k, part in enumerate(textwrap.wrap(note, 150)):
            fig.text(0.035 if k == 0 else 0.05, y, part, fontsize=8.5, color="0.15", va="top", ha="left")
            y -= 0.022
    fig.text(0.01, 0.012, stamp.text(), fontsize=8, color="0.3", ha="left", va="bottom")
    return fig


def win_rate_dots(rates: pl.DataFrame, by: str, stamp: Stamp, level: float, title: str | None = None):
    """Win rate per group with its interval, the fair share, significance colours."""
    df = rates.sort("win_rate")
    n = df.height
    fig, ax = plt.subplots(figsize=(10, max(3.5, 0.45 * n + 2)))
    y = np.arange(n)
    for i, row in enumerate(df.iter_rows(named=True)):
        c = _colour(row)
        _errorbar(ax, row["win_rate"], i, xerr=[[row["win_rate"] - row["lo"]], [row["hi"] - row["win_rate"]]],
                    fmt="o", color=c, ecolor=c, capsize=4, ms=7, lw=2)
        ax.plot([row["fair"]] * 2, [i - 0.38, i + 0.38], color=REF, ls="--", lw=1.2)
        label = f"{100 * row['win_rate']:.1f}%  [{100 * row['lo']:.1f}, {100 * row['hi']:.1f}]"
        label += "  *" if row["significant"] else ""
        ax.annotate(label, (max(row["hi"], row["fair"]), i), xytext=(6, 0), textcoords="offset points",
                    va="center", fontsize=8.5, color=c, bbox=LABEL_BOX)
    ax.set_yticks(y, [str(v) for v in df[by].to_list()])
    ax.set_ylim(-0.7, n - 0.3)
    lo = min(df["lo"].min(), df["fair"].min())
    hi = max(df["hi"].max(), df["fair"].max())
    pad = (hi - lo) * 0.45 + 0.01
    ax.set_xlim(max(0, lo - 0.1 * pad), min(1, hi + pad))
    _pct(ax)
    ax.set_xlabel("win rate (shared wins split)")
    ax.grid(axis="x", alpha=0.3)
    _legend_sig(ax, level)
    return _finish(fig, stamp, title or f"Win rate by {by}")


def by_player_count(table: pl.DataFrame, by: str, stamp: Stamp):
    """Each group's win rate minus its fair share (1/players) at each player count, with intervals:
    a faction can be strong at two players and weak at five."""
    groups = sorted(table[by].unique().to_list(), key=str)
    counts = sorted(table["players"].unique().to_list())
    fig, ax = plt.subplots(figsize=WIDE)
    cmap = plt.get_cmap("tab10")
    for k, g in enumerate(groups):
        part = table.filter(pl.col(by) == g).sort("players")
        x = part["players"].to_numpy() + 0.3 * (k - (len(groups) - 1) / 2) / max(len(groups), 1)
        y = 100 * part["excess"].to_numpy()
        lo = 100 * (part["lo"] - part["fair"]).to_numpy()
        hi = 100 * (part["hi"] - part["fair"]).to_numpy()
        _errorbar(ax, x, y, yerr=[y - lo, hi - y], fmt="o-", color=cmap(k % 10), label=str(g), capsize=3, ms=5, lw=1.2)
    ax.axhline(0, color=REF, ls="--", lw=1.2)
    ax.set_xticks(counts, [f"{p} players" for p in counts])
    ax.set_ylabel("win rate - fair share (1/players), percentage points")
    ax.set_title("per seat, shared wins split; bars: Wilson intervals (not adjusted over the cells)", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _finish(fig, stamp, f"Win rate by {by} and player count")


def seat_advantage(by_seat: pl.DataFrame, stamp: Stamp, level: float):
    """Win rate by seat (turn order) for each player count, with the fair share."""
    counts = sorted(by_seat["players"].unique().to_list())
    fig, axes = plt.subplots(1, len(counts), figsize=(max(6, 4.2 * len(counts)), 5), squeeze=False)
    for ax, p in zip(axes[0], counts):
        df = by_seat.filter(pl.col("players") == p).sort("seat")
        for row in df.iter_rows(named=True):
            c = _colour(row)
            _errorbar(ax, row["seat"], row["win_rate"], yerr=[[row["win_rate"] - row["lo"]], [row["hi"] - row["win_rate"]]],
                        fmt="o", color=c, ecolor=c, capsize=5, ms=8, lw=2)
            ax.annotate(f"{100 * row['win_rate']:.1f}%" + (" *" if row["significant"] else ""),
                        (row["seat"], row["hi"]), xytext=(0, 5), textcoords="offset points", ha="center",
                        fontsize=8.5, color=c)
        ax.axhline(1 / p, color=REF, ls="--", lw=1.2)
        ax.set_xticks(df["seat"].to_numpy(), [str(s + 1) for s in df["seat"].to_list()])
        ax.set_xlabel("seat (1 = start player)")
        ax.set_title(f"{p} players")
        _pct(ax, "y")
        ax.grid(axis="y", alpha=0.3)
        top = max(df["hi"].max(), 1 / p)
        ax.set_ylim(max(0, df["lo"].min() - 0.05), min(1, top + 0.06))
    axes[0][0].set_ylabel("win rate")
    _legend_sig(axes[0][-1], level, "lower left")
    return _finish(fig, stamp, "Seat (turn-order) advantage")


def heatmap(cross: pl.DataFrame, by: str, stamp: Stamp, level: float, col: str = "seat"):
    """Win rate minus fair share for each group x ``col`` (seat, or strategy); significant cells
    starred and framed."""
    groups = sorted(cross[by].unique().to_list(), key=str)
    seats = sorted(cross[col].unique().to_list(), key=lambda x: (str(type(x)), x))
    M = np.full((len(groups), len(seats)), np.nan)
    R = np.full_like(M, np.nan)
    S = np.zeros_like(M, dtype=bool)
    for row in cross.iter_rows(named=True):
        i, j = groups.index(row[by]), seats.index(row[col])
        M[i, j], R[i, j], S[i, j] = 100 * row["excess"], 100 * row["win_rate"], row["significant"]
    lim = max(np.nanmax(np.abs(M)), 0.5)
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(seats) + 4), max(3.5, 0.55 * len(groups) + 2)))
    im = ax.imshow(M, cmap="RdBu_r", norm=TwoSlopeNorm(0, -lim, lim), aspect="auto")
    for i in range(len(groups)):
        for j in range(len(seats)):
            if np.isnan(M[i, j]):
                continue
            strong = abs(M[i, j]) > 0.6 * lim
            ax.text(j, i, f"{R[i, j]:.1f}%\n{fmt.signed(M[i, j], 1)}" + (" *" if S[i, j] else ""), ha="center", va="center",
                    fontsize=8.5, color="white" if strong else "black", fontweight="bold" if S[i, j] else "normal")
            if S[i, j]:
                ax.add_patch(plt.Rectangle((j - 0.48, i - 0.48), 0.96, 0.96, fill=False, lw=2, ec="black"))
    ax.set_xticks(range(len(seats)), [str(s + 1) if col == "seat" else str(s) for s in seats],
                  rotation=0 if col == "seat" or len(seats) < 5 else 20)
    ax.set_yticks(range(len(groups)), [str(g) for g in groups])
    ax.set_xlabel("seat (1 = start player)" if col == "seat" else col)
    ax.spines[:].set_visible(False)
    cb = fig.colorbar(im, ax=ax, fraction=0.04)
    cb.set_label("win rate - fair share (percentage points)")
    ax.set_title(f"cell: win rate and its excess over fair share (pp)\n* and frame: significant within this "
                 f"table only (Holm over {int(np.sum(~np.isnan(M)))} cells; exploratory, not a verdict)",
                 fontsize=9)
    return _finish(fig, stamp, f"{by.capitalize()} x {col}")


def score_distributions(summary: pl.DataFrame, by: str, components: list, stamp: Stamp):
    """Score spread per group (box: quartiles, whiskers: 5%-95%, dot: mean with interval) and
    the mean of each score component (stacked)."""
    df = summary.sort("mean")
    n = df.height
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, max(4, 0.5 * n + 2.5)),
                                 gridspec_kw={"width_ratios": [3, 2] if components else [1, 0.0001]})
    stats_ = [{"med": r["q50"], "q1": r["q25"], "q3": r["q75"], "whislo": r["q05"], "whishi": r["q95"],
               "label": str(r[by]), "fliers": []} for r in df.iter_rows(named=True)]
    ax.bxp(stats_, **_HORIZONTAL, showfliers=False, widths=0.55, patch_artist=True,
           boxprops={"facecolor": "#d9e6f2", "edgecolor": "#345"}, medianprops={"color": "#345"})
    for i, r in enumerate(df.iter_rows(named=True), start=1):
        _errorbar(ax, r["mean"], i, xerr=[[r["mean"] - r["lo"]], [r["hi"] - r["mean"]]], fmt="D", color="black",
                    ms=5, capsize=3)
    ax.set_xlabel("final score (box: quartiles, whiskers: 5% to 95%, diamond: mean with interval)")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title("score distribution")
    if components:
        labels = [str(v) for v in df[by].to_list()]
        left_pos = np.zeros(n)
        left_neg = np.zeros(n)
        cmap = plt.get_cmap("tab10")
        for k, comp in enumerate(components):
            vals = df[comp].to_numpy()
            left = np.where(vals >= 0, left_pos, left_neg)
            bx.barh(np.arange(n), vals, left=left, color=cmap(k % 10), label=comp[6:], height=0.6)
            left_pos += np.where(vals >= 0, vals, 0)
            left_neg += np.where(vals < 0, vals, 0)
        bx.set_yticks(np.arange(n), labels)
        bx.axvline(0, color=REF, lw=0.8)
        bx.set_xlabel("mean points per component")
        bx.legend(fontsize=8, frameon=False, loc="lower center", bbox_to_anchor=(0.5, 1.0),
                  ncol=min(len(components), 4), title="score components (mean)", title_fontsize=10)
    else:
        bx.axis("off")
    return _finish(fig, stamp, f"Scores by {by}")


def score_histograms(counts: pl.DataFrame, by: str, stamp: Stamp):
    """The shape of each group's final scores: one small histogram per group (shared axes,
    share of the group's rows), its median marked; a box plot hides two humps or a long tail."""
    groups = sorted(counts[by].unique().to_list(), key=str)
    n = len(groups)
    cols = min(n, 4)
    rows = -(-n // cols)
    lo, hi = int(counts["score"].min()), int(counts["score"].max())
    width = max(1, -(-(hi - lo + 1) // 40))             # at most about 40 bars per panel
    fig, axes = plt.subplots(rows, cols, figsize=(max(10, 3.3 * cols), 2.6 * rows + 1.6), sharex=True, sharey=True,
                             squeeze=False)
    for ax, g in zip(axes.flat, groups):
        part = counts.filter(pl.col(by) == g).with_columns(bin=((pl.col("score") - lo) // width) * width + lo) \
            .group_by("bin").agg(pl.col("rows").sum()).sort("bin")
        total = part["rows"].sum()
        ax.bar(part["bin"].to_numpy() + (width - 1) / 2, part["rows"].to_numpy() / total, width=width * 0.9,
               color="#6a8caf")
        cum = np.cumsum(part["rows"].to_numpy()) / total
        median = float(part["bin"].to_numpy()[np.searchsorted(cum, 0.5)]) + (width - 1) / 2
        ax.axvline(median, color="black", lw=1.2)
        ax.set_title(f"{g}: median {median:.0f}", fontsize=9)
        ax.grid(axis="y", alpha=0.3)
        _pct(ax, "y")
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    for ax in axes[-1]:
        ax.set_xlabel("final score" + (f" (bars of {width} points)" if width > 1 else ""))
    for ax in axes[:, 0]:
        ax.set_ylabel("share of rows")
    return _finish(fig, stamp, f"Score distribution by {by}")


def ratings_forest(table: pl.DataFrame, entity: str, stamp: Stamp):
    """Plackett-Luce ratings as Elo with intervals (0 = the average entity)."""
    df = table.sort("elo")
    n = df.height
    fig, ax = plt.subplots(figsize=(10, max(3.5, 0.45 * n + 2)))
    for i, r in enumerate(df.iter_rows(named=True)):
        sig = r["elo_lo"] > 0 or r["elo_hi"] < 0
        c = (UP if r["elo"] > 0 else DOWN) if sig else NEUTRAL
        _errorbar(ax, r["elo"], i, xerr=[[r["elo"] - r["elo_lo"]], [r["elo_hi"] - r["elo"]]], fmt="o", color=c,
                    capsize=4, ms=7, lw=2)
        ax.annotate(f"{fmt.signed(r['elo'], 0)}  (beats an average {entity} {100 * r['p_beat_avg']:.1f}%)",
                    (max(r["elo_hi"], 0), i), xytext=(6, 0), textcoords="offset points", va="center", fontsize=8.5,
                    color=c, bbox=LABEL_BOX)
    ax.axvline(0, color=REF, ls="--", lw=1.2)
    ax.set_yticks(range(n), [str(v) for v in df[entity].to_list()])
    lo, hi = df["elo_lo"].min(), df["elo_hi"].max()
    span = max(hi - lo, 10)
    ax.set_xlim(lo - 0.05 * span, hi + 0.9 * span)
    ax.set_xlabel("rating (Elo scale; Plackett-Luce over full finishing orders, mean 0)")
    ax.grid(axis="x", alpha=0.3)
    return _finish(fig, stamp, f"Ratings by {entity}")


def game_length(length_counts: pl.DataFrame, length: pl.DataFrame, margin: pl.DataFrame, stamp: Stamp,
                shared: dict | None = None, end_reason: str | None = None):
    """Histogram of rounds per game, and the margin of victory's spread; the shared-win share
    and the one end reason, when there is one, in the title (no page of their own then)."""
    r = length.filter(pl.col("measure") == "rounds").row(0, named=True)
    t = length.filter(pl.col("measure") == "turns").row(0, named=True)
    extra = []
    if length_counts.height == 1:          # one length: a histogram would be a single bar, say it instead
        fig, bx = plt.subplots(figsize=(8, 5))
        extra.append(f"every game lasts {length_counts['rounds'][0]} rounds, {t['mean']:.1f} turns on average")
    else:
        fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 5), gridspec_kw={"width_ratios": [3, 2]})
        total = length_counts["games"].sum()
        ax.bar(length_counts["rounds"].to_numpy(), length_counts["games"].to_numpy() / total, color="#6a8caf",
               width=0.85)
        ax.axvline(r["mean"], color="black", lw=2, label="mean")
        ax.set_title(f"rounds: mean {r['mean']:.2f} [{r['lo']:.2f}, {r['hi']:.2f}], median {r['q50']:.0f}; "
                     f"turns: mean {t['mean']:.1f}", fontsize=10)
        ax.set_xlabel("rounds per game")
        ax.set_ylabel("share of games")
        _pct(ax, "y")
    m = margin.row(0, named=True)
    bx.bxp([{"med": m["q50"], "q1": m["q25"], "q3": m["q75"], "whislo": m["q05"], "whishi": m["q95"],
             "label": "all games", "fliers": []}], showfliers=False, widths=0.5, patch_artist=True,
           boxprops={"facecolor": "#d9e6f2"}, medianprops={"color": "#345"})
    _errorbar(bx, 1, m["mean"], yerr=[[m["mean"] - m["lo"]], [m["hi"] - m["mean"]]], fmt="D", color="black",
                capsize=4)
    bx.set_title(f"margin of victory: mean {m['mean']:.1f} [{m['lo']:.1f}, {m['hi']:.1f}]", fontsize=10)
    bx.set_ylabel("winner's score - best other score (0 if shared)")
    if shared is not None:
        extra.append(f"shared wins {100 * shared['share']:.2f}% [{100 * shared['lo']:.2f}, {100 * shared['hi']:.2f}]")
    if end_reason is not None:
        extra.append(f"every game ends by {end_reason}")
    return _finish(fig, stamp, "Game length and margin of victory" + (f" ({'; '.join(extra)})" if extra else ""))


def end_reasons(table: pl.DataFrame, shared: dict, stamp: Stamp):
    """Share of games per end reason with Wilson intervals; the shared-win share in the title."""
    df = table.sort("share")
    fig, ax = plt.subplots(figsize=(10, max(3, 0.5 * df.height + 2)))
    y = np.arange(df.height)
    ax.barh(y, df["share"].to_numpy(), color="#6a8caf", height=0.6)
    _errorbar(ax, df["share"].to_numpy(), y, xerr=[df["share"].to_numpy() - df["lo"].to_numpy(),
                                                 df["hi"].to_numpy() - df["share"].to_numpy()],
                fmt="none", ecolor="black", capsize=4)
    for i, r in enumerate(df.iter_rows(named=True)):
        ax.annotate(f"{100 * r['share']:.1f}%  ({r['games']:,} games)", (r["hi"], i), xytext=(6, 0),
                    textcoords="offset points", va="center", fontsize=9)
    ax.set_yticks(y, df["end_reason"].to_list())
    ax.set_xlim(0, min(1, df["hi"].max() * 1.35 + 0.02))
    _pct(ax)
    ax.set_xlabel("share of games")
    ax.set_title(f"shared wins (drawishness): {100 * shared['share']:.2f}% "
                 f"[{100 * shared['lo']:.2f}, {100 * shared['hi']:.2f}] of games", fontsize=10)
    return _finish(fig, stamp, "How games end")


def forest(table: pl.DataFrame, by: str, stamp: Stamp, title: str, unit: str, scale: float = 1.0,
           xlabel: str | None = None, sort: bool = True, band: float | None = None):
    """Differences B - A per group with intervals; flagged rows (``significant``: a verdict's
    'out of balance' / 'changed' when the table has a ``word``, else Holm) coloured; a star only
    for a verdict's word, so a star means the same on every page (a Holm table says so in its
    title); ``band``: dotted lines at ±band, the verdict's smallest change that matters."""
    df = table.sort("diff") if sort else table.reverse()
    n = df.height
    verdict = "word" in df.columns
    if not verdict:
        title = f"{title} (Holm within this table; not a verdict)"
    fig, ax = plt.subplots(figsize=(10, max(3.5, 0.5 * n + 2)))
    for i, r in enumerate(df.iter_rows(named=True)):
        c = (UP if r["diff"] > 0 else DOWN) if r["significant"] else NEUTRAL
        _errorbar(ax, scale * r["diff"], i, xerr=[[scale * (r["diff"] - r["lo"])], [scale * (r["hi"] - r["diff"])]],
                    fmt="o", color=c, capsize=4, ms=7, lw=2)
        said = r["word"] if r.get("word") else f"p_Holm {fmt.p_value(r['p_holm'])}"
        ax.annotate(f"{fmt.signed(r['diff'], 2, scale)} {fmt.interval(r['lo'], r['hi'], 2, scale)}  {said}"
                    + ("  *" if r["significant"] and verdict else ""),
                    (max(scale * r["hi"], 0), i), xytext=(6, 0), textcoords="offset points", va="center",
                    fontsize=8.5, color=c, bbox=LABEL_BOX)
    ax.axvline(0, color=REF, ls="--", lw=1.2)
    for edge in ((-band, band) if band else ()):             # the smallest change that matters, ±δ
        ax.axvline(scale * edge, color=REF, ls=":", lw=1)
    ax.set_yticks(range(n), [str(v) for v in df[by].to_list()])
    lo, hi = scale * df["lo"].min(), scale * df["hi"].max()
    lo, hi = min(lo, -scale * (band or 0)), max(hi, scale * (band or 0))
    span = max(hi - lo, 1e-6)
    ax.set_xlim(lo - 0.05 * span, hi + 0.9 * span)
    ax.set_xlabel(xlabel or f"B - A ({unit})")
    ax.grid(axis="x", alpha=0.3)
    return _finish(fig, stamp, title)


def activations(table: pl.DataFrame, stamp: Stamp, title: str):
    """Mean activations per game of the seats holding each value (``label``), with intervals;
    the share of holders that used it at least once and their number beside each dot."""
    df = table.sort("uses_mean")
    n = df.height
    fig, ax = plt.subplots(figsize=(10, max(3.5, 0.32 * n + 2)))
    for i, r in enumerate(df.iter_rows(named=True)):
        c = NEUTRAL if r["uses_mean"] > 0 else DOWN
        _errorbar(ax, r["uses_mean"], i, xerr=[[r["uses_mean"] - r["uses_lo"]], [r["uses_hi"] - r["uses_mean"]]],
                  fmt="o", color=c, capsize=3, ms=6, lw=1.5)
        ax.annotate(f"{r['uses_mean']:.2f}  used by {100 * r['users']:.0f}% of {r['holders']:,} holders",
                    (max(r["uses_hi"], 0), i), xytext=(6, 0), textcoords="offset points", va="center",
                    fontsize=8, color=c, bbox=LABEL_BOX)
    ax.set_yticks(range(n), [str(v) for v in df["label"].to_list()])
    hi = max(float(df["uses_hi"].max() or 0), 1e-6)
    ax.set_xlim(0, 1.7 * hi)
    ax.set_xlabel("activations per game of a seat holding it at the end")
    ax.grid(axis="x", alpha=0.3)
    return _finish(fig, stamp, title)


def feature_shift(table: pl.DataFrame, row: str, group: str, stamp: Stamp, title: str, level: float):
    """Change of each group's win rate when a value is in play: one panel per group, one row per
    value (in the table's order), interval bars, flagged cells (the verdict page's 'out of
    balance' when the table carries its ``word``, else Holm) coloured and starred."""
    groups = table[group].unique(maintain_order=True).to_list()
    rows = table[row].unique(maintain_order=True).to_list()
    n = len(rows)
    fig, axes = plt.subplots(1, len(groups), figsize=(max(10, 3.2 * len(groups)), max(3.5, 0.42 * n + 2.2)),
                             sharey=True, squeeze=False)
    finite = table.filter(pl.col("lo").is_not_nan() & pl.col("hi").is_not_nan())
    lo = 100 * min(finite["lo"].min() if finite.height else -0.01, 0)
    hi = 100 * max(finite["hi"].max() if finite.height else 0.01, 0)
    pad = 0.08 * max(hi - lo, 1e-6)
    for ax, g in zip(axes[0], groups):
        part = table.filter(pl.col(group) == g)
        for r in part.iter_rows(named=True):
            if r["diff"] != r["diff"]:
                continue
            i = n - 1 - rows.index(r[row])
            c = (UP if r["diff"] > 0 else DOWN) if r["significant"] else NEUTRAL
            _errorbar(ax, 100 * r["diff"], i, xerr=[[100 * (r["diff"] - r["lo"])], [100 * (r["hi"] - r["diff"])]],
                      fmt="o", color=c, capsize=3, ms=6, lw=1.8)
            if r["significant"]:
                ax.annotate(f"{fmt.signed(r['diff'], 1, 100)} *", (100 * r["hi"], i), xytext=(4, 0), textcoords="offset points",
                            va="center", fontsize=8, color=c)
        ax.axvline(0, color=REF, ls="--", lw=1.2)
        ax.set_xlim(lo - pad, hi + 3 * pad)
        ax.set_title(str(g), fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        ax.set_xlabel("win rate: in play - not (pp)")
    axes[0][0].set_yticks(range(n), [str(v) for v in reversed(rows)])
    axes[0][0].set_ylim(-0.7, n - 0.3)
    _finish(fig, stamp, title)
    fig.tight_layout(rect=(0, 0.07 if "\n" in stamp.text() else 0.04, 1, 0.9))
    why = ("out of balance on the verdict page" if "word" in table.columns
           else f"Holm over all {table.height} cells, {int(round(level * 100))}% level")
    fig.text(0.01, 0.925, f"red: higher with the value in play, blue: lower ({why}); grey: not flagged; "
             "bars: intervals of the difference",
             fontsize=9, color="0.25", ha="left", va="center")
    return fig


def rates_side_by_side(wins: pl.DataFrame, by: str, stamp: Stamp, label_a: str, label_b: str):
    """Win rate of each group under A and under B (the rates behind the forest plot)."""
    df = wins.sort("rate_a")
    n = df.height
    fig, ax = plt.subplots(figsize=(10, max(3.5, 0.5 * n + 2)))
    y = np.arange(n)
    ax.plot(df["rate_a"].to_numpy(), y - 0.12, "o", color="#7f7f7f", ms=7, label=f"A: {label_a}")
    ax.plot(df["rate_b"].to_numpy(), y + 0.12, "s", color="#e67e22", ms=7, label=f"B: {label_b}")
    for i, r in enumerate(df.iter_rows(named=True)):
        ax.plot([r["rate_a"], r["rate_b"]], [i - 0.12, i + 0.12], color="0.6", lw=1)
        if r["significant"]:
            ax.annotate("*", (max(r["rate_a"], r["rate_b"]), i), xytext=(8, -4), textcoords="offset points",
                        fontsize=14, color=UP if r["diff"] > 0 else DOWN)
    ax.set_yticks(y, [str(v) for v in df[by].to_list()])
    _pct(ax)
    ax.set_xlabel("win rate")
    ax.legend(fontsize=9, frameon=False, loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    return _finish(fig, stamp, f"Win rate by {by}: A and B")


def sprt_paths(history: list, bounds: tuple, stamp: Stamp, by: str):
    """Log-likelihood ratio of each group's SPRT against games played, with the stopping bounds."""
    fig, ax = plt.subplots(figsize=WIDE)
    groups = list(dict.fromkeys(h[1] for h in history))
    cmap = plt.get_cmap("tab10")
    for k, g in enumerate(groups):
        pts = [(h[0], h[3], h[4]) for h in history if h[1] == g]
        n = [p[0] for p in pts]
        ax.plot(n, [p[1] for p in pts], "-", color=cmap(k % 10), label=f"{g} (B higher)")
        if not all(np.isnan(p[2]) for p in pts):
            ax.plot(n, [p[2] for p in pts], ":", color=cmap(k % 10), label=f"{g} (B lower)")
    lo, hi = bounds
    ax.axhline(hi, color=UP, ls="--", lw=1.2)
    ax.axhline(lo, color=DOWN, ls="--", lw=1.2)
    ax.text(ax.get_xlim()[0], hi, " accept H1: difference", va="bottom", color=UP, fontsize=9)
    ax.text(ax.get_xlim()[0], lo, " accept H0: no change as large as H1", va="top", color=DOWN, fontsize=9)
    ax.set_ylim(min(lo * 1.6, ax.get_ylim()[0]), max(hi * 1.4, ax.get_ylim()[1]))
    ax.set_xlabel("games per variant")
    ax.set_ylabel("log-likelihood ratio")
    ax.legend(fontsize=8, frameon=False, ncol=2, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _finish(fig, stamp, f"Sequential test by {by} (SPRT)")


@dataclass
class SweepReference:
    """The point differences are measured from: its value of the drawn parameter, its variant
    name and its mark ("default" when it is the rules' default, else "reference")."""

    x: object
    variant: str
    mark: str


def _sweep_panel(ax, df: pl.DataFrame, param: str, keys: list, est: str, ref: SweepReference | None = None):
    """Curves of ``est`` (with lo/hi bands) against ``param``, one per combination of ``keys``;
    a dotted vertical line at the reference point (the default)."""
    values = df[param].unique(maintain_order=True).to_list()
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    xs_of = {v: (v if numeric else i) for i, v in enumerate(values)}
    cmap = plt.get_cmap("tab10")
    parts = list(df.group_by(keys, maintain_order=True))
    for k, (key, part) in enumerate(parts):
        part = part.sort(param) if numeric else part
        x = np.array([xs_of[v] for v in part[param].to_list()], dtype=float)
        y = part[est].to_numpy().astype(float)
        label = ", ".join(f"{n}={v}" if n != "group" else str(v) for n, v in zip(keys, key))
        lo, hi = part["lo"].to_numpy().astype(float), part["hi"].to_numpy().astype(float)
        if numeric:                       # a curve with its interval band
            ax.plot(x, y, "o-", color=cmap(k % 10), label=label, lw=1.8, ms=5)
            if not np.all(np.isnan(lo)):
                ax.fill_between(x, lo, hi, color=cmap(k % 10), alpha=0.15, lw=0)
        else:                             # named variants: points with interval bars, no lines
            x = x + 0.25 * (k - (len(parts) - 1) / 2) / max(len(parts), 1)
            err = None if np.all(np.isnan(lo)) else [y - lo, hi - y]
            _errorbar(ax, x, y, yerr=err, fmt="o", color=cmap(k % 10), label=label, capsize=4, ms=6)
    if numeric:
        ax.set_xticks(sorted(values))          # ticks at the swept values, not in between
    else:
        ax.set_xticks(range(len(values)), [str(v) for v in values], rotation=20 if len(values) > 4 else 0)
    if ref is not None and ref.x in xs_of:
        ax.axvline(xs_of[ref.x], color=REF, ls=":", lw=1.2)
        ax.annotate(ref.mark, (xs_of[ref.x], 1), xycoords=("data", "axes fraction"), xytext=(3, -10),
                    textcoords="offset points", fontsize=8, color=REF)
    ax.set_xlabel(param)
    ax.grid(alpha=0.3)


SWEEP_UNITS = {"win rate": "percentage points", "first player win rate": "percentage points",
               "shared wins": "percentage points", "score": "points", "rounds": "rounds"}


def sweep_metric(table: pl.DataFrame, diffs: pl.DataFrame | None, metric: str, param: str, stamp: Stamp,
                 other_params=(), reference: SweepReference | None = None):
    """One metric against a swept parameter: left its level (a curve with its band per group),
    right each point minus the reference point (``reference`` = its value of ``param``, the
    default) with the band of the paired difference, zero at the reference."""
    df = table.filter(pl.col("metric") == metric)
    keys = ["group"] + list(other_params)
    pct = metric in ("win rate", "first player win rate", "shared wins")
    dd = diffs.filter(pl.col("metric") == metric) if diffs is not None else None
    ncols = 2 if dd is not None and dd.height else 1
    fig, axes = plt.subplots(1, ncols, figsize=(13 if ncols == 2 else 10, 6), squeeze=False)
    ax = axes[0][0]
    _sweep_panel(ax, df, param, keys, "estimate", reference)
    ref = df["reference"].drop_nulls().round(9).unique().to_list()
    if len(ref) == 1:
        ax.axhline(ref[0], color=REF, ls="--", lw=1.2, label="fair share" if metric != "balance" else "perfect")
    ax.set_ylabel("gap balance (1 - spread; not Ludii's Balance)" if metric == "balance" else metric)
    ax.set_title(f"{metric} (95% band)", fontsize=10)
    if pct:
        _pct(ax, "y")
    if ncols == 2:
        bx = axes[0][1]
        scale = 100.0 if pct else 1.0
        _sweep_panel(bx, dd.with_columns(pl.col("diff", "lo", "hi") * scale), param, keys, "diff", reference)
        bx.axhline(0, color=REF, ls="--", lw=1.2)
        paired = bool(dd["paired"].all())
        bx.set_title(f"{'paired ' if paired else ''}difference from the {reference.mark} {reference.variant} "
                     f"({'same games' if paired else 'unpaired'}; 95% band)", fontsize=10)
        bx.set_ylabel(f"{metric}: point - reference ({SWEEP_UNITS.get(metric, '')})")
        bx.legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    else:
        ax.legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _finish(fig, stamp, f"Sweep: {metric} against {param}")


def sweep_game(table: pl.DataFrame, diffs: pl.DataFrame | None, param: str, stamp: Stamp, other_params=(),
               reference: SweepReference | None = None):
    """The per-game measures on one page: rounds and shared wins as paired differences from the
    reference point (levels when there are no differences), and the gap balance's level."""
    keys = ["group"] + list(other_params)
    fig, axes = plt.subplots(1, 3, figsize=(15, 5.5))
    for ax, metric in zip(axes[:2], ("rounds", "shared wins")):
        dd = diffs.filter(pl.col("metric") == metric) if diffs is not None else None
        pct = metric == "shared wins"
        if dd is not None and dd.height:
            scale = 100.0 if pct else 1.0
            _sweep_panel(ax, dd.with_columns(pl.col("diff", "lo", "hi") * scale), param, keys, "diff", reference)
            ax.axhline(0, color=REF, ls="--", lw=1.2)
            ax.set_ylabel(f"{metric}: point - reference ({SWEEP_UNITS[metric]})")
            ax.set_title(f"{metric}: {'paired ' if dd['paired'].all() else ''}difference from the "
                         f"{reference.mark} {reference.variant}", fontsize=9)
        else:
            _sweep_panel(ax, table.filter(pl.col("metric") == metric), param, keys, "estimate", reference)
            ax.set_ylabel(metric)
            if pct:
                _pct(ax, "y")
    _sweep_panel(axes[2], table.filter(pl.col("metric") == "balance"), param, keys, "estimate", reference)
    axes[2].axhline(1.0, color=REF, ls="--", lw=1.2)
    axes[2].set_ylabel("gap balance (1 - spread; not Ludii's Balance; no interval)")
    axes[2].set_title("gap balance over the groups (1 = all equal)", fontsize=9)
    return _finish(fig, stamp, f"Sweep: game length, shared wins and balance against {param}")


def budget_curve(table: pl.DataFrame, stamp: Stamp, fair: float, target: float = 1.5):
    """The search player's win share (with its interval) against rollouts per decision
    (``analyses.search_curve``), with the fair share and the target multiple of it drawn."""
    fig, ax = plt.subplots(figsize=WIDE)
    x = table["budget"].to_numpy()
    y = table["win_share"].to_numpy()
    _errorbar(ax, x, y, yerr=[y - table["lo"].to_numpy(), table["hi"].to_numpy() - y], color=NEUTRAL,
              marker="o", capsize=4)
    ax.axhline(fair, color=REF, ls="--", lw=1, label="fair share")
    ax.axhline(target * fair, color=UP, ls=":", lw=1, label=f"target {target:g} x fair")
    ax.set_xscale("log", base=2)
    ax.set_xticks(x, [str(v) for v in x])
    ax.set_xlabel("rollouts per decision (budget)")
    ax.set_ylabel("win share of the search seat")
    _pct(ax, "y")
    ax.legend(loc="upper left", fontsize=8, frameon=False)
    return _finish(fig, stamp, "Search player: win share against budget")
