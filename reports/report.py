"""Assemble reports: a multi-page PDF (summary page first) and one PNG per figure.

Why both: the PDF is what a designer reads and forwards; the PNGs go into rule-book drafts,
issues and chats. Output goes to ``reports/out/`` (git-ignored): ``<experiment>.pdf`` and
``<experiment>/<figure>.png`` for an experiment, ``compare_<a>_vs_<b>.pdf`` and
``compare_<a>_vs_<b>/<figure>.png`` for a comparison. With several variants, each variant's
figures carry the variant in their file name; a sweep adds one curve figure per metric.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib.pyplot as plt
import polars as pl
from matplotlib.backends.backend_pdf import PdfPages

from analyses import metrics as metrics_mod
from analyses.intervals import WILSON
from analyses.load import Results
from analyses.sweep import sweep_table
from reports import figures as F
from reports import ladder
from sim.core.errors import InputError

OUT = Path("reports") / "out"
MAX_DETAILED_VARIANTS = 6


def safe_name(text: str) -> str:
    """A file-name-safe version of an experiment or variant name."""
    return re.sub(r"[^A-Za-z0-9._=,+-]+", "_", str(text)).strip("_") or "x"


def check_report_dir(out_dir) -> Path:
    """Refuse a ``--report-dir`` that cannot hold a report, before any game is played or read."""
    out = Path(out_dir)
    probe = out
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise InputError("command line", "--report-dir", f"{str(probe)!r} is a file; expected a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise InputError("command line", "--report-dir", f"cannot write into {str(probe)!r}; expected a writable folder")
    return out


@dataclass
class ReportFiles:
    pdf: Path
    pngs: list = field(default_factory=list)


class _Writer:
    """Saves each figure as PNG and appends it to the PDF, then closes it (bounded memory)."""

    def __init__(self, pdf: Path, png_dir: Path):
        try:
            pdf.parent.mkdir(parents=True, exist_ok=True)
            png_dir.mkdir(parents=True, exist_ok=True)
            for old in png_dir.glob("*.png"):      # figures of an earlier run must not linger
                old.unlink()
            self.pdf = PdfPages(pdf)
        except OSError as err:
            raise InputError("command line", "--report-dir", f"cannot write the report to {str(err.filename or pdf)!r} "
                             f"({err.strerror}); expected a writable folder") from None
        self.pdf_path, self.png_dir = pdf, png_dir
        self.pngs: list = []

    def add(self, name: str, fig):
        path = self.png_dir / f"{safe_name(name)}.png"
        fig.savefig(path, dpi=150)
        self.pdf.savefig(fig)
        plt.close(fig)
        self.pngs.append(path)

    def close(self) -> ReportFiles:
        self.pdf.close()
        return ReportFiles(self.pdf_path, self.pngs)


def _pct(x) -> str:
    return f"{100 * x:5.1f}%"


def _p(p) -> str:
    if p is None or p != p:
        return "    -"
    return "<1e-4" if p < 1e-4 else f"{p:.4f}"


def rates_lines(rates: pl.DataFrame, by: str) -> list:
    out = [f"{by:<18}{'rows':>9}{'win':>8}  {'95% interval':<16}{'fair':>7}{'excess':>9}{'p':>8}{'p Holm':>8}"]
    for r in rates.sort("win_rate", descending=True).iter_rows(named=True):
        out.append(f"{str(r[by])[:17]:<18}{r['rows']:>9,}{_pct(r['win_rate']):>8}  "
                   f"[{_pct(r['lo'])}, {_pct(r['hi'])}]{_pct(r['fair']):>7}{100 * r['excess']:>+8.2f}pp"
                   f"{_p(r['p']):>8}{_p(r['p_holm']):>8}{'  *' if r['significant'] else ''}")
    return out


def summary_lines(m: metrics_mod.Metrics) -> list:
    """The one-page summary of a variant as text lines."""
    s = m.summary
    lv = int(round(m.level * 100))
    lines = [s.verdict(), "",
             f"experiment {m.experiment}  variant {m.variant}  game {m.game_name}  games {m.games:,}  "
             f"config {m.config_hash}", "",
             f"WIN RATE BY {m.by.upper()}  (shared wins split; {lv}% Wilson intervals; fair share = mean 1/players; "
             f"score test vs fair share, Holm over {s.rates.height} values)"]
    lines += rates_lines(s.rates, m.by)
    if s.equal_test:
        t = s.equal_test
        lines.append(f"equal win rates: chi2 = {t['statistic']:.2f} on {t['df']} df, p = {_p(t['p'])} ({t['method']})")
    lines.append(f"spread of (win rate - fair share): {100 * s.spread:.2f} pp;  Ludii Balance over {m.by}: "
                 f"{s.balance:.3f}  (1 = all equal)")
    lines.append(f"games needed to detect a 1 pp edge of one {m.by} (two-sided 5%, power 80%): "
                 f"{s.games_needed_1pp:,}  (this experiment: {s.games:,})")
    lines.append("")
    lines.append("SEAT ADVANTAGE (seat 0 = start player)")
    for r in s.first_player.iter_rows(named=True):
        lines.append(f"  {r['players']} players: start player wins {_pct(r['win_rate'])} [{_pct(r['lo'])}, "
                     f"{_pct(r['hi'])}] vs fair {_pct(r['fair'])}; excess {100 * r['excess']:+.2f} pp, "
                     f"p Holm (over seats) {_p(r['p_holm'])}")
    for players, part in m.by_seat.group_by("players", maintain_order=True):
        bal = 1 - (part["win_rate"].max() - part["win_rate"].min())
        lines.append(f"  Ludii Balance over seats ({players[0]} players): {bal:.3f}")
    if m.strategies is not None:
        lines += ["", "WIN RATE BY STRATEGY"] + rates_lines(m.strategies, "strategy")
    lines.append("")
    sh = s.shared
    r = s.length.filter(pl.col("measure") == "rounds").row(0, named=True)
    t = s.length.filter(pl.col("measure") == "turns").row(0, named=True)
    mv = m.margin.row(0, named=True)
    lines.append(f"shared wins: {100 * sh['share']:.2f}% of games [{100 * sh['lo']:.2f}, {100 * sh['hi']:.2f}]   "
                 f"length: {r['mean']:.2f} rounds [{r['lo']:.2f}, {r['hi']:.2f}], {t['mean']:.1f} turns   "
                 f"margin of victory: {mv['mean']:.1f} points (median {mv['q50']:.0f})")
    ends = ", ".join(f"{e['end_reason']} {100 * e['share']:.1f}%" for e in m.end_reasons.iter_rows(named=True))
    lines.append(f"end reasons: {ends}")
    if m.ratings is not None and "elo" in m.ratings.columns:
        top = ", ".join(f"{r[m.rating_entity]} {r['elo']:+.0f} [{r['elo_lo']:+.0f}, {r['elo_hi']:+.0f}]"
                        for r in m.ratings.iter_rows(named=True))
        lines.append(f"ratings ({m.rating_entity}, Plackett-Luce, Elo scale): {top}")
    for note in s.notes:
        lines.append(f"note: {note}")
    lines.append("* significant after Holm correction")
    return _wrap(lines)


def _wrap(lines: list, width: int = 125) -> list:
    out = []
    for line in lines:
        while len(line) > width:
            cut = line.rfind(" ", 0, width)
            cut = cut if cut > 40 else width
            out.append(line[:cut])
            line = "    " + line[cut:].lstrip()
        out.append(line)
    return out


def _pages(lines: list, per_page: int) -> list:
    """Split text lines into pages, at blank lines (between sections) where possible."""
    sections, cur = [], []
    for line in lines:
        cur.append(line)
        if not line.strip():
            sections.append(cur)
            cur = []
    if cur:
        sections.append(cur)
    pages, page = [], []
    for sec in sections:
        if page and len(page) + len(sec) > per_page:
            pages.append(page)
            page = []
        while len(sec) > per_page:
            pages.append(sec[:per_page])
            sec = sec[per_page:]
        page += sec
    if page:
        pages.append(page)
    return [[line for line in p] for p in pages if any(x.strip() for x in p)]


def _stamp(m: metrics_mod.Metrics, intervals: str = WILSON) -> F.Stamp:
    return F.Stamp(m.experiment, m.variant, m.games, m.config_hash, intervals)


def variant_figures(w: _Writer, m: metrics_mod.Metrics, suffix: str = ""):
    """Every figure of one variant, in reading order."""
    st = _stamp(m)
    lv = m.level
    w.add(f"win_rate_by_{m.by}{suffix}", F.win_rate_dots(m.summary.rates, m.by, st, lv))
    w.add(f"seat_advantage{suffix}", F.seat_advantage(m.by_seat, st, lv))
    if m.cross is not None:
        w.add(f"{m.by}_x_seat{suffix}", F.heatmap(m.cross, m.by, st, lv))
    if m.strategies is not None:
        w.add(f"win_rate_by_strategy{suffix}", F.win_rate_dots(m.strategies, "strategy", st, lv))
    w.add(f"scores{suffix}", F.score_distributions(m.scores, m.by, m.components,
                                                   F.Stamp(m.experiment, m.variant, m.games, m.config_hash,
                                                           "95% t intervals of the mean")))
    if m.ratings is not None and "elo" in m.ratings.columns:
        w.add(f"ratings{suffix}", F.ratings_forest(m.ratings, m.rating_entity,
                                                   F.Stamp(m.experiment, m.variant, m.games, m.config_hash,
                                                           "95% intervals from the Fisher information")))
    w.add(f"game_length{suffix}", F.game_length(m.length_counts, m.summary.length, m.margin,
                                                F.Stamp(m.experiment, m.variant, m.games, m.config_hash,
                                                        "95% t intervals of the mean")))
    w.add(f"end_reasons{suffix}", F.end_reasons(m.end_reasons, m.summary.shared, st))
    for fa in m.features:
        feature_figures(w, m, fa, suffix)


def feature_figures(w: _Writer, m: metrics_mod.Metrics, fa, suffix: str = ""):
    """A feature the game declares (analyses.features): its text page, the holders' win-share
    advantage per value (when held) and the change of each group's win rate with the value in play."""
    from analyses.features import format_feature

    name = safe_name(fa.feature.name.replace(" ", "_"))
    lv = int(round(m.level * 100))
    pages = _pages(_wrap(format_feature(fa), 140), 62)
    for k, body in enumerate(pages):
        more = f" ({k + 1}/{len(pages)})" if len(pages) > 1 else ""
        w.add(f"feature_{name}{'' if k == 0 else f'_{k + 1}'}{suffix}",
              F.text_page(body, _stamp(m, f"{lv}% intervals: Wilson, Newcombe, Welch (methods on the page)"), f"Features in play: {fa.feature.name}{more}", size=7 if len(body) > 45 else 8))
    multi = fa.values["players"].n_unique() > 1

    def labelled(df):
        lab = (pl.col("value") + " (" + pl.col("players").cast(pl.String) + "p)") if multi else pl.col("value")
        return df.with_columns(label=lab)

    if fa.holders is not None:
        st = F.Stamp(m.experiment, m.variant, m.games, m.config_hash,
                     f"{lv}% intervals: Newcombe square-and-add, games as clusters")
        w.add(f"feature_{name}_holders{suffix}",
              F.forest(labelled(fa.holders), "label", st,
                       f"{fa.feature.name}: win share of holders minus non-holders (games with the value in play)",
                       "percentage points", 100.0,
                       xlabel="holders - non-holders (percentage points of win share, ties split)", sort=False))
    st = F.Stamp(m.experiment, m.variant, m.games, m.config_hash, f"{lv}% Newcombe hybrid score intervals")
    w.add(f"feature_{name}_win_rate_by_{fa.by}{suffix}",
          F.feature_shift(labelled(fa.win_rates), "label", fa.by, st,
                          f"{fa.feature.name}: change of the win rate by {fa.by} with the value in play", m.level))


def overview_lines(results: Results, all_metrics: dict) -> list:
    """First page of a multi-variant report: one row per variant."""
    first = next(iter(all_metrics.values()))
    wv = min(max(len(v) for v in all_metrics) + 2, 30)
    lines = [f"experiment {results.experiment}  game {results.game_name}  variants {len(results.variants)}"
             + (f"  sweep over {', '.join(results.sweep)}" if results.sweep else ""), "",
             f"{'variant':<{wv}}{'games':>9} {'config':<17}{'spread':>9}{'Balance':>9}{'start pl.':>10}"
             f"{'rounds':>8}{'shared':>8}  {first.by} significant (Holm)"]
    for v, m in all_metrics.items():
        s = m.summary
        fp = s.first_player.row(0, named=True) if s.first_player.height else None
        r = s.length.filter(pl.col("measure") == "rounds").row(0, named=True)
        lines.append(f"{v[:wv - 1]:<{wv}}{m.games:>9,} {m.config_hash:<17}{100 * s.spread:>6.2f} pp{s.balance:>9.3f}"
                     f"{(_pct(fp['win_rate']) if fp else '-'):>10}{r['mean']:>8.2f}{100 * s.shared['share']:>7.2f}%  "
                     + (", ".join(map(str, s.flagged)) or "none"))
    lines += ["", "spread = largest minus smallest (win rate - fair share), percentage points; "
              "Balance = 1 - spread (Ludii); start pl. = win rate of seat 0, the start player (first player count)", ""]
    for v, m in all_metrics.items():
        lines.append(f"{v}: {m.summary.verdict()}")
    return _wrap(lines)


def experiment_report(results: Results, out_dir=OUT, by: str | None = None, level: float = 0.95,
                      details: str = "auto", with_ratings: bool = True) -> ReportFiles:
    """Write ``<out>/<experiment>.pdf`` and ``<out>/<experiment>/*.png`` for all variants."""
    out_dir = Path(out_dir)
    name = safe_name(results.experiment if len(results.variants) > 1 else results.label)
    w = _Writer(out_dir / f"{name}.pdf", out_dir / name)
    try:
        variants = list(results.variants)
        all_metrics = {v: metrics_mod.compute(results, v, by, level, with_ratings) for v in variants}
        by = next(iter(all_metrics.values())).by
        first = all_metrics[variants[0]]
        if len(variants) == 1:
            w.add("summary", F.text_page(summary_lines(first), _stamp(first), f"Balance summary: {results.label}"))
        else:
            hashes = ", ".join(sorted({m.config_hash for m in all_metrics.values()}))[:60]
            st = F.Stamp(results.experiment, None, f"{sum(m.games for m in all_metrics.values()):,} games in "
                         f"{len(variants)} variants", hashes + ("..." if len(hashes) >= 60 else ""),
                         f"{int(round(level * 100))}% intervals: Wilson (rates), t (means)")
            w.add("summary", F.text_page(overview_lines(results, all_metrics), st,
                                         f"Balance summary: {results.experiment}"))
            table = sweep_table(results, by, level)
            params = list(results.sweep) or ["variant"]
            for metric in ("win rate", "first player win rate", "score", "rounds", "shared wins", "balance"):
                w.add(f"sweep_{metric.replace(' ', '_')}",
                      F.sweep_metric(table, metric, params[0], st, params[1:]))
        detailed = len(variants) == 1 or details == "all" or (details == "auto" and len(variants) <= MAX_DETAILED_VARIANTS)
        if detailed:
            for v, m in all_metrics.items():
                suffix = "" if len(variants) == 1 else f"__{v}"
                if len(variants) > 1:
                    w.add(f"summary{suffix}", F.text_page(summary_lines(m), _stamp(m),
                                                          f"Balance summary: {results.experiment} : {v}"))
                variant_figures(w, m, suffix)
        ladder.add_pages(w, results)      # the skill ladder's section, when `sim ladder` kept one (docs/tuning.md)
    finally:
        files = w.close()
    return files


def compare_report(comparison, sequential=None, out_dir=OUT, text: str | None = None) -> ReportFiles:
    """Write ``<out>/compare_<a>_vs_<b>.pdf`` and its PNGs: summary page, forest plots, SPRT."""
    from analyses.compare import format_comparison

    c = comparison
    name = f"compare_{safe_name(c.a.label.replace(':', '-'))}_vs_{safe_name(c.b.label.replace(':', '-'))}"
    out_dir = Path(out_dir)
    w = _Writer(out_dir / f"{name}.pdf", out_dir / name)
    method = "paired intervals (Newcombe, t)" if c.paired else "unpaired intervals (Newcombe, Welch)"
    games = (f"{c.pairs:,} paired games" if c.paired else f"{c.games_a:,} + {c.games_b:,} games")
    st = F.Stamp(f"B = {c.b.label} vs A = {c.a.label}", None, games,
                 f"{c.a.info.config_hash} / {c.b.info.config_hash}", f"{int(round(c.level * 100))}% {method}")
    try:
        body = _wrap((text or format_comparison(c)).splitlines(), 140)
        w.add("summary", F.text_page(body, st, "Variant comparison", size=7.5 if len(body) > 45 else 8.5))
        w.add(f"win_rate_difference_by_{c.by}", F.forest(c.wins, c.by, st, f"Win rate change by {c.by} (B - A)",
                                                         "percentage points", 100.0))
        w.add(f"win_rate_by_{c.by}", F.rates_side_by_side(c.wins, c.by, st, c.a.label, c.b.label))
        w.add(f"score_difference_by_{c.by}", F.forest(c.scores, c.by, st, f"Score change by {c.by} (B - A)",
                                                      "points"))
        if sequential is not None and sequential.history:
            w.add("sequential_test", F.sprt_paths(sequential.history, sequential.bounds, st, c.by))
    finally:
        files = w.close()
    return files
