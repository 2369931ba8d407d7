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

from analyses import fmt, metrics as metrics_mod, verdicts
from analyses.intervals import WILSON
from analyses.load import Results
from analyses.load import sweep_point
from analyses.sweep import paired_sweep_table, reference_point, sweep_table
from reports import figures as F
from reports import html as H
from reports import ladder
from reports.labels import content_labels, labelled as with_label
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
    html: Path | None = None


class _Writer:
    """Saves each figure as PNG, appends it to the PDF and to the HTML report, then closes it
    (bounded memory). A section may give its own HTML body (real tables, the verdict as text)
    in place of the figure's picture."""

    def __init__(self, pdf: Path, png_dir: Path, title: str = ""):
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
        self.html = H.HtmlReport(title or pdf.stem)

    def add(self, name: str, fig, html: str | None = None, stamp: str = "", in_html: bool = True,
            title: str | None = None):
        path = self.png_dir / f"{safe_name(name)}.png"
        fig.savefig(path, dpi=150)
        self.pdf.savefig(fig)
        title = title or (fig._suptitle.get_text() if fig._suptitle is not None else name)
        plt.close(fig)
        self.pngs.append(path)
        if in_html:                      # False: a page the HTML shows elsewhere (a long table's later pages)
            self.html.add(safe_name(name), title, html if html is not None else H.figure(path, title),
                          stamp if html is not None else "")

    def close(self) -> ReportFiles:
        self.pdf.close()
        html = self.html.write(self.pdf_path.with_suffix(".html"))
        return ReportFiles(self.pdf_path, self.pngs, html)


def _pct(x) -> str:
    return f"{100 * x:5.1f}%"


_p = fmt.p_value


def headline(page) -> str:
    """The page's verdict in one sentence."""
    d = fmt.number(page.delta, 1, 100)
    by_q: dict = {}
    for ln in page.lines:
        if ln.word == verdicts.OUT:
            by_q.setdefault(ln.question, []).append(ln.group)
    out = [f"{q} {', '.join(g)}" for q, g in by_q.items()]
    undecided = [ln for ln in page.lines if ln.word == verdicts.UNDECIDED]
    if out:
        return f"Out of balance by more than {d} pp: {'; '.join(out)}."
    if not undecided:
        return f"Balanced within ±{d} pp: every one of the {len(page.lines)} lines below."
    return (f"Nothing shown out of balance by more than {d} pp; {len(undecided)} of {len(page.lines)} lines are "
            f"still undecided (more games would tell).")


def _light_text(ln, delta: float) -> tuple:
    d = fmt.number(delta, 1, 100)
    est = f"{fmt.signed(ln.estimate, 1, 100)} pp {fmt.interval(ln.lo, ln.hi, 1, 100)}"
    what = f"{ln.question}: {ln.group}"
    if ln.word == verdicts.OUT:
        return "red", f"{what}: out of balance, {est}; sure beyond ±{d} pp (page-corrected p {_p(ln.p)})"
    if ln.word == verdicts.BALANCED:
        return "green", f"{what}: balanced within ±{d} pp, {est} (page-corrected p {_p(ln.p)})"
    more = (f"about {ln.games_to_decide:,} games in all would decide it" if ln.games_to_decide
            else f"sits on the ±{d} pp edge: far more games needed")
    return "amber", f"{what}: undecided, {est}; {more}"


def verdict_items(page, limit: int | None = None) -> tuple:
    """(headline, [(light, text)], notes) of the verdict page, largest effects first."""
    lines = [_light_text(ln, page.delta) for ln in page.lines]
    notes = []
    if limit is not None and len(lines) > limit:
        notes.append(f"{len(lines) - limit} smaller lines follow in the details (all {len(lines)} are in the family).")
        lines = lines[:limit]
    nd = page.needed
    notes.append("Estimate = win rate minus fair share (percentage points), or the change with a feature in play; "
                 "[interval] = simultaneous 95% interval. Out of balance = interval beyond "
                 f"±{fmt.number(page.delta, 1, 100)} pp (the smallest edge that matters, --min-edge); balanced = "
                 "interval inside it (equivalence test); undecided = neither.")
    notes.append("Family: " + page.family() + ".")
    if nd["balanced"] is None:
        notes.append("Games needed: with a smallest edge of 0 no number of games shows a group balanced; every "
                     "line reads out of balance or undecided (plain significance).")
    else:
        notes.append(f"Games needed (same correction, {nd['lines']} lines): a group at its fair share reads 'balanced "
                     f"within ±{fmt.number(nd['edge'], 1, 100)} pp' with {100 * nd['power']:.0f}% probability after "
                     f"about {nd['balanced']:,} games; a group {fmt.number(2 * nd['edge'], 1, 100)} pp off reads "
                     f"'out of balance' with {100 * nd['power']:.0f}% probability after about {nd['out']:,} games "
                     f"(this run: {page.games:,}).")
    notes += [f"Confound: {c}." for c in page.confounds]
    notes += ["Assumes: " + "; ".join(page.assumptions) + "."]
    return headline(page), lines, notes


def variants_verdict(all_metrics: dict, detailed: bool = True) -> tuple:
    """(headline, [(light, text)], notes) of a multi-variant report: one line per variant, red
    when something is out of balance, amber when something is undecided, else green. Each
    variant's page is its own family (its details follow)."""
    items = []
    for v, m in all_metrics.items():
        words = {ln.word for ln in m.page.lines}
        light = "red" if verdicts.OUT in words else "amber" if verdicts.UNDECIDED in words else "green"
        items.append((light, f"{v}: {headline(m.page)}"))
    n_out = sum(c == "red" for c, _ in items)
    head = (f"{n_out} of {len(items)} variants have something out of balance." if n_out
            else f"No variant has anything out of balance by more than "
                 f"{fmt.number(next(iter(all_metrics.values())).page.delta, 1, 100)} pp.")
    notes = [f"Each variant's verdict page ({'in the details' if detailed else 'python -m sim report FILE:VARIANT'}) "
             "is one family: simultaneous intervals over its lines; across variants the chance of some wrong word "
             "grows with the number of variants.",
             "Assumes: " + "; ".join(next(iter(all_metrics.values())).page.assumptions) + "."]
    if len(items) > 24:
        notes.insert(0, f"{len(items) - 24} more variants: see the overview table on the next page.")
    return head, items[:24], notes


def verdict_lines(page) -> list:
    """The verdict page as plain text (the ``summary`` command)."""
    head, items, notes = verdict_items(page)
    marks = {"red": "[OUT]", "amber": "[ ? ]", "green": "[ OK]"}
    return _wrap([head, ""] + [f"{marks[c]} {t}" for c, t in items] + [""] + notes)


def rates_rows(rates: pl.DataFrame, by: str) -> tuple:
    """(header, rows of text cells, flagged) of a win-rate table, best first; the text and the
    HTML tables both print these cells."""
    multi = bool((rates["rows"] > rates["games"]).any())
    header = [by, "rows", "win/seat", "95% interval", "fair", "excess", "p", "p Holm"] + (["wins game"] if multi else [])
    rows, flagged = [], []
    for r in rates.sort("win_rate", descending=True).iter_rows(named=True):
        rows.append([str(r[by]), f"{r['rows']:,}", _pct(r["win_rate"]).strip(),
                     f"[{_pct(r['lo']).strip()}, {_pct(r['hi']).strip()}]", _pct(r["fair"]).strip(),
                     f"{fmt.signed(r['excess'], 2, 100)}pp", _p(r["p"]), _p(r["p_holm"])]
                    + ([_pct(r["game_rate"]).strip()] if multi else []))
        flagged.append(bool(r["significant"]))
    return header, rows, flagged


def rates_lines(rates: pl.DataFrame, by: str) -> list:
    """Win rate per seat of each group; 'wins game' (share of its games some seat of it wins)
    too when a group fills several seats of a game, where the two differ."""
    header, rows, flagged = rates_rows(rates, by)
    widths = [18, 9, 9, 18, 7, 10, 9, 9, 11]
    def line(cells):
        return "".join(c[:17].ljust(w) if k == 0 else "  " + c.ljust(w - 2) if k == 3 else c.rjust(w)
                       for k, (c, w) in enumerate(zip(cells, widths)))
    return [line(header)] + [line(r) + ("  *" if f else "") for r, f in zip(rows, flagged)]


def seat_rows(by_seat: pl.DataFrame) -> tuple:
    """(header, rows, flagged) of the win rate by seat, seats numbered from 1 (1 = start player)."""
    header = ["players", "seat", "win rate", "95% interval", "fair", "excess", "p"]
    rows, flagged = [], []
    for r in by_seat.sort(["players", "seat"]).iter_rows(named=True):
        rows.append([str(r["players"]), str(r["seat"] + 1) + (" (start)" if r["seat"] == 0 else ""),
                     _pct(r["win_rate"]).strip(), f"[{_pct(r['lo']).strip()}, {_pct(r['hi']).strip()}]",
                     _pct(r["fair"]).strip(), f"{fmt.signed(r['excess'], 2, 100)}pp", _p(r["p"])])
        flagged.append(bool(r["significant"]))
    return header, rows, flagged


def _rate_facts(m: metrics_mod.Metrics) -> list:
    s = m.summary
    out = []
    if s.equal_test:
        t = s.equal_test
        out.append(f"equal win rates: chi2 = {t['statistic']:.2f} on {t['df']} df, p = {_p(t['p'])} ({t['method']})")
    out.append(f"spread of (win rate - fair share): {100 * s.spread:.2f} pp;  gap balance (1 - spread) over "
               f"{m.by}: {s.gap_balance:.3f}  (1 = all equal; not Ludii's Balance beyond two players)")
    return out


def _ludii_facts(m: metrics_mod.Metrics) -> list:
    return [f"Ludii Balance over seats ({r['players']} players; rank utilities): {r['balance']:.3f} "
            f"[{r['lo']:.3f}, {r['hi']:.3f}] (bootstrap over games); a perfectly fair game of this size "
            f"shows about {r['fair_floor']:.3f}" for r in (m.ludii.iter_rows(named=True) if m.ludii is not None else ())]


def _game_facts(m: metrics_mod.Metrics) -> list:
    s = m.summary
    sh = s.shared
    r = s.length.filter(pl.col("measure") == "rounds").row(0, named=True)
    t = s.length.filter(pl.col("measure") == "turns").row(0, named=True)
    mv = m.margin.row(0, named=True)
    out = [f"shared wins: {100 * sh['share']:.2f}% of games [{100 * sh['lo']:.2f}, {100 * sh['hi']:.2f}]   "
           f"length: {r['mean']:.2f} rounds [{r['lo']:.2f}, {r['hi']:.2f}], {t['mean']:.1f} turns   "
           f"margin of victory: {mv['mean']:.1f} points (median {mv['q50']:.0f})"]
    ends = ", ".join(f"{e['end_reason']} {100 * e['share']:.1f}%" for e in m.end_reasons.iter_rows(named=True))
    out.append(f"end reasons: {ends}")
    if m.ratings is not None and "elo" in m.ratings.columns:
        top = ", ".join(f"{r[m.rating_entity]} {fmt.signed(r['elo'], 0)} {fmt.interval(r['elo_lo'], r['elo_hi'], 0)}"
                        for r in m.ratings.iter_rows(named=True))
        out.append(f"ratings ({m.rating_entity}, Plackett-Luce, Elo scale): {top}")
    out += [f"note: {note}" for note in s.notes]
    out.append("* out of balance on the verdict page (one family for the page; the p Holm column is within its "
               "table only)")
    return out


def _summary_head(m: metrics_mod.Metrics) -> tuple:
    lv = int(round(m.level * 100))
    return (f"experiment {m.experiment}  variant {m.variant}  game {m.game_name}  games {m.games:,}  "
            f"config {m.config_hash}",
            f"WIN RATE BY {m.by.upper()}  (shared wins split; {lv}% Wilson intervals; fair share = mean 1/players; "
            f"score test vs fair share; * = out of balance on the verdict page)")


def summary_lines(m: metrics_mod.Metrics) -> list:
    """The one-page summary of a variant as text lines."""
    s = m.summary
    ident, rate_title = _summary_head(m)
    lines = [ident, "", rate_title] + rates_lines(s.rates, m.by) + _rate_facts(m)
    lines += ["", "SEAT ADVANTAGE (seat 1 = start player)"]
    for r in s.first_player.iter_rows(named=True):
        lines.append(f"  {r['players']} players: start player wins {_pct(r['win_rate'])} [{_pct(r['lo'])}, "
                     f"{_pct(r['hi'])}] vs fair {_pct(r['fair'])}; excess {fmt.signed(r['excess'], 2, 100)} pp, "
                     f"p {_p(r['p'])}" + (" *" if r["significant"] else ""))
    lines += ["  " + x for x in _ludii_facts(m)]
    if m.strategies is not None:
        lines += ["", "WIN RATE BY STRATEGY"] + rates_lines(m.strategies, "strategy")
    lines += [""] + _game_facts(m)
    return _wrap(lines)


def summary_html(m: metrics_mod.Metrics) -> str:
    """The summary page as HTML: the same tables as real tables, the same facts as paragraphs."""
    ident, rate_title = _summary_head(m)
    what, how = rate_title.split("  (", 1)
    parts = [H.paragraphs([ident]), f"<h3>{H.esc(what.capitalize())}</h3>", H.paragraphs(["(" + how]),
             H.table(*rates_rows(m.summary.rates, m.by)), H.paragraphs(_rate_facts(m)),
             "<h3>Win rate by seat (1 = start player)</h3>", H.table(*seat_rows(m.by_seat)),
             H.paragraphs(_ludii_facts(m))]
    if m.strategies is not None:
        parts += ["<h3>Win rate by strategy</h3>", H.table(*rates_rows(m.strategies, "strategy"))]
    parts.append(H.paragraphs(_game_facts(m)))
    return "".join(parts)


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


def variant_figures(w: _Writer, m: metrics_mod.Metrics, suffix: str = "", results: Results | None = None):
    """Every figure of one variant, in reading order."""
    st = _stamp(m)
    lv = m.level
    w.add(f"win_rate_by_{m.by}{suffix}", F.win_rate_dots(m.summary.rates, m.by, st, lv))
    w.add(f"seat_advantage{suffix}", F.seat_advantage(m.by_seat, st, lv))
    if m.cross is not None:
        w.add(f"{m.by}_x_seat{suffix}", F.heatmap(m.cross, m.by, st, lv))
    if m.strategies is not None:
        w.add(f"win_rate_by_strategy{suffix}", F.win_rate_dots(m.strategies, "strategy", st, lv))
    if m.by_players is not None:
        w.add(f"win_rate_by_{m.by}_and_players{suffix}", F.by_player_count(m.by_players, m.by, st))
    if m.by_strategy is not None:
        w.add(f"{m.by}_x_strategy{suffix}", F.heatmap(m.by_strategy, m.by, st, lv, "strategy"))
    w.add(f"scores{suffix}", F.score_distributions(m.scores, m.by, m.components,
                                                   F.Stamp(m.experiment, m.variant, m.games, m.config_hash,
                                                           "95% t intervals of the mean")))
    w.add(f"score_histograms{suffix}", F.score_histograms(m.score_counts, m.by, _stamp(m, "shares of rows (no intervals)")))
    if m.ratings is not None and "elo" in m.ratings.columns:
        w.add(f"ratings{suffix}", F.ratings_forest(m.ratings, m.rating_entity,
                                                   F.Stamp(m.experiment, m.variant, m.games, m.config_hash,
                                                           "95% intervals from the Fisher information")))
    one_end = m.end_reasons["end_reason"][0] if m.end_reasons.height == 1 else None
    w.add(f"game_length{suffix}", F.game_length(m.length_counts, m.summary.length, m.margin,
                                                F.Stamp(m.experiment, m.variant, m.games, m.config_hash,
                                                        "95% t intervals of the mean"),
                                                m.summary.shared if one_end else None, one_end))
    if one_end is None:                   # one reason would be a page with a single bar
        w.add(f"end_reasons{suffix}", F.end_reasons(m.end_reasons, m.summary.shared, st))
    labels = content_labels(results, m.variant) if results is not None else {}
    for fa in m.features:
        feature_figures(w, m, fa, suffix, labels.get(fa.feature.name, {}))
    for ha in m.held:
        held_figures(w, m, ha, suffix, labels.get(ha.held.name, {}))


def feature_figures(w: _Writer, m: metrics_mod.Metrics, fa, suffix: str = "", labels: dict | None = None):
    """A feature the game declares (analyses.features): its text page, the holders' win-share
    advantage per value (when held) and the change of each group's win rate with the value in play."""
    from analyses.features import format_feature, natural_key

    name = safe_name(fa.feature.name.replace(" ", "_"))
    lv = int(round(m.level * 100))
    shown = set(fa.values["value"].to_list())
    what = "; ".join(f"{v} = {labels[v]}" for v in sorted(shown & set(labels or {}), key=natural_key))
    pages = _pages(_wrap(([f"{fa.feature.name}s: {what}", ""] if what else []) + format_feature(fa), 140), 62)
    st_text = _stamp(m, f"{lv}% intervals: Wilson, Newcombe, Welch (methods on the page)")
    for k, body in enumerate(pages):
        more = f" ({k + 1}/{len(pages)})" if len(pages) > 1 else ""
        w.add(f"feature_{name}{'' if k == 0 else f'_{k + 1}'}{suffix}",
              F.text_page(body, st_text, f"Features in play: {fa.feature.name}{more}", size=7 if len(body) > 45 else 8),
              H.preformatted(body), st_text.text())
    multi = fa.values["players"].n_unique() > 1

    def labelled(df):
        text = pl.col("value").map_elements(lambda v: with_label(v, labels or {}), return_dtype=pl.String)
        lab = (text + " (" + pl.col("players").cast(pl.String) + "p)") if multi else text
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


def plural(name: str) -> str:
    """The plural of a held-content name in page titles: card -> cards, ability -> abilities."""
    return name[:-1] + "ies" if name.endswith("y") and name[-2:-1] not in "aeiou" else name + "s"


HELD_SHOWN = 15            # a held-content figure shows the 15 largest and the 15 smallest lifts


def held_rows(ha, labels: dict) -> tuple:
    """(header, rows, flagged) of a held-content table: every value, in natural order."""
    multi = ha.table["players"].n_unique() > 1
    header = (["players"] if multi else []) + [ha.held.name, "seats holding", "win share: holders", "others",
                                               "lift", "95% interval", "p Holm", "score lift"]
    rows, flagged = [], []
    for r in ha.table.iter_rows(named=True):
        rows.append(([str(r["players"])] if multi else []) + [
            with_label(r["value"], labels), f"{100 * r['share_held']:.1f}%", _pct(r["win_h"]).strip(),
            _pct(r["win_o"]).strip(), f"{fmt.signed(r['lift'], 1, 100)} pp", fmt.interval(r["lo"], r["hi"], 1, 100),
            _p(r["p_holm"]), f"{fmt.signed(r['score_lift'], 1)} {fmt.interval(r['score_lo'], r['score_hi'], 1)}"])
        flagged.append(bool(r["significant"]))
    return header, rows, flagged


def held_figures(w: _Writer, m: metrics_mod.Metrics, ha, suffix: str = "", labels: dict | None = None):
    """Held content (analyses.holdings): a forest of the largest and smallest lifts, then the
    whole table (text pages in the PDF, one table in the HTML)."""
    labels = labels or {}
    name = safe_name(ha.held.name.replace(" ", "_"))
    lv = int(round(ha.level * 100))
    t = ha.table.with_columns(label=pl.struct("value", "players").map_elements(
        lambda r: with_label(r["value"], labels) + (f" ({r['players']}p)" if ha.table["players"].n_unique() > 1 else ""),
        return_dtype=pl.String), diff=pl.col("lift")).sort("lift")
    shown = t if t.height <= 2 * HELD_SHOWN else pl.concat([t.head(HELD_SHOWN), t.tail(HELD_SHOWN)])
    st = _stamp(m, f"{lv}% Wald intervals, games as clusters; Holm over the {plural(ha.held.name)}")
    more = f" ({shown.height} of {t.height}: the extremes)" if shown.height < t.height else ""
    w.add(f"held_{name}{suffix}",
          F.forest(shown, "label", st, f"{plural(ha.held.name).capitalize()} held at the end: holders' win share minus "
                   f"the others'{more}", "percentage points", 100.0,
                   xlabel="holders - other seats (percentage points of win share; an association, not an effect)"))
    header, rows, flagged = held_rows(ha, labels)
    pages = _pages(_wrap(held_lines(ha, labels), 150), 62)
    title = f"{plural(ha.held.name).capitalize()} held at the end"
    for k, body in enumerate(pages):
        w.add(f"held_{name}_table{'' if k == 0 else f'_{k + 1}'}{suffix}",
              F.text_page(body, st, title + (f" ({k + 1}/{len(pages)})" if len(pages) > 1 else ""), size=6.5),
              H.table(header, rows, flagged) + H.paragraphs([f"note: {n}" for n in ha.notes]), st.text(), k == 0,
              title=title)
    if ha.uses is not None and ha.uses.height:
        u = ha.uses.with_columns(label=pl.struct("value", "players").map_elements(
            lambda r: with_label(r["value"], labels) + (f" ({r['players']}p)" if ha.uses["players"].n_unique() > 1 else ""),
            return_dtype=pl.String))
        w.add(f"held_{name}_activations{suffix}",
              F.activations(u, _stamp(m, f"{lv}% normal intervals over the holders' seat-games"),
                            f"{ha.held.name.capitalize()} activations per tribe and item: mean per game of the seats "
                            "holding it at the end"))


def uses_lines(ha, labels: dict | None = None) -> list:
    """The activations table (``Held.uses_prefix``) as text lines; [] without one."""
    if ha.uses is None or not ha.uses.height:
        return []
    multi = ha.uses["players"].n_unique() > 1
    header = (["players"] if multi else []) + [ha.held.name, "seats holding", "uses per holder",
                                               f"{int(round(ha.level * 100))}% interval", "holders using it", "others"]
    rows = [([str(r["players"])] if multi else []) + [
        with_label(r["value"], labels or {}), f"{r['holders']:,}", f"{r['uses_mean']:.2f}",
        fmt.interval(r["uses_lo"], r["uses_hi"], 2), f"{100 * r['users']:.0f}%", f"{r['uses_other']:.2f}"]
        for r in ha.uses.iter_rows(named=True)]
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(header)]
    return ["", f"{ha.held.name.upper()} ACTIVATIONS PER GAME: seats holding it at the end (others: the seats "
            "not holding it)", "  ".join(c.ljust(wd) for c, wd in zip(header, widths)).rstrip()] + [
        "  ".join(c.ljust(wd) for c, wd in zip(r, widths)).rstrip() for r in rows]


def held_lines(ha, labels: dict | None = None) -> list:
    """The held-content table as text lines (a report's pages, the ``summary`` command)."""
    header, rows, flagged = held_rows(ha, labels or {})
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(header)]
    text = [f"{plural(ha.held.name).upper()} HELD AT THE END: win share of the seats holding each minus the other seats' "
            f"({int(round(ha.level * 100))}% intervals, games as clusters)",
            "  ".join(c.ljust(wd) for c, wd in zip(header, widths)).rstrip()]
    text += [("  ".join(c.ljust(wd) for c, wd in zip(r, widths)) + ("  *" if f else "")).rstrip()
             for r, f in zip(rows, flagged)]
    return (text + [""] + [f"note: {n}" for n in ha.notes] + ["* Holm-significant within this table (not a verdict)"]
            + uses_lines(ha, labels))


def overview_rows(all_metrics: dict) -> tuple:
    """(header, rows) of the multi-variant overview: one row per variant."""
    header = ["variant", "games", "config", "spread", "gap bal.", "start pl.", "rounds", "shared",
              "out of balance (verdict page of the variant)"]
    rows = []
    for v, m in all_metrics.items():
        s = m.summary
        fp = s.first_player.row(0, named=True) if s.first_player.height else None
        r = s.length.filter(pl.col("measure") == "rounds").row(0, named=True)
        rows.append([v, f"{m.games:,}", m.config_hash, f"{100 * s.spread:.2f} pp", f"{s.gap_balance:.3f}",
                     _pct(fp["win_rate"]).strip() if fp else "-", f"{r['mean']:.2f}", f"{100 * s.shared['share']:.2f}%",
                     ", ".join(f"{ln.group} ({ln.question})" for ln in m.page.flagged) or "none"])
    return header, rows


def _overview_notes(results: Results, all_metrics: dict, detailed: bool) -> list:
    notes = ["spread = largest minus smallest (win rate - fair share), percentage points; gap bal. = 1 - spread "
             "(not Ludii's Balance beyond two players); start pl. = win rate of seat 1, the start player (first "
             "player count)"]
    if not detailed:
        source = Path(results.experiment_file or results.source)
        if source.is_absolute() and source.is_relative_to(Path.cwd()):
            source = source.relative_to(Path.cwd())
        notes.append(f"One point's own pages (verdict, tables, figures): python -m sim report {source}:POINT, "
                     "or --details all.")
    return notes + [f"{v}: {headline(m.page)}" for v, m in all_metrics.items()]


def overview_lines(results: Results, all_metrics: dict, detailed: bool = True) -> list:
    """First page of a multi-variant report: one row per variant."""
    header, rows = overview_rows(all_metrics)
    wv = min(max(len(v) for v in all_metrics) + 2, 30)
    widths = [wv, 9, 18, 10, 9, 10, 8, 8]
    def line(cells):
        head = "".join(c[:w - 1].ljust(w) if k == 0 else " " + c[:w - 2].ljust(w - 1) if k == 2 else c.rjust(w)
                       for k, (c, w) in enumerate(zip(cells, widths)))
        return head + "  " + cells[-1]
    lines = [f"experiment {results.experiment}  game {results.game_name}  variants {len(results.variants)}"
             + (f"  sweep over {', '.join(results.sweep)}" if results.sweep else ""), "", line(header)]
    lines += [line(r) for r in rows]
    notes = _overview_notes(results, all_metrics, detailed)
    return _wrap(lines + [""] + notes[:2 if not detailed else 1] + [""] + notes[2 if not detailed else 1:])


def overview_html(results: Results, all_metrics: dict, detailed: bool) -> str:
    return H.paragraphs([overview_lines(results, all_metrics)[0]]) + H.table(*overview_rows(all_metrics)) \
        + H.paragraphs(_overview_notes(results, all_metrics, detailed))


VERDICT_LINES = 20          # lines shown on the verdict page; the rest are in the details


def add_verdict_page(w: _Writer, m: metrics_mod.Metrics, name: str, title: str):
    """The plain-language verdict page of a variant (traffic lights, no monospace)."""
    head, items, notes = verdict_items(m.page, VERDICT_LINES)
    st = _stamp(m, f"simultaneous {int(round(m.level * 100))}% intervals (Bonferroni over the page)")
    w.add(name, F.verdict_page(head, items, notes, st, title), H.verdict_section(head, items, notes), st.text())


def experiment_report(results: Results, out_dir=OUT, by: str | None = None, level: float = 0.95,
                      details: str = "auto", with_ratings: bool = True,
                      min_edge: float = verdicts.MIN_EDGE, strong_play: bool = False) -> ReportFiles:
    """Write ``<out>/<experiment>.pdf`` and ``<out>/<experiment>/*.png`` for all variants
    (``strong_play``: with the "does it hold under stronger play?" table, reports/strong_play.py)."""
    out_dir = Path(out_dir)
    name = safe_name(results.experiment if len(results.variants) > 1 else results.label)
    w = _Writer(out_dir / f"{name}.pdf", out_dir / name)
    try:
        variants = list(results.variants)
        all_metrics = {v: metrics_mod.compute(results, v, by, level, with_ratings, min_edge=min_edge)
                       for v in variants}
        by = next(iter(all_metrics.values())).by
        detailed = len(variants) == 1 or details == "all" or (details == "auto" and not results.sweep
                                                               and len(variants) <= MAX_DETAILED_VARIANTS)
        first = all_metrics[variants[0]]
        if len(variants) == 1:
            add_verdict_page(w, first, "verdict", f"Verdict: {results.label}")
            w.add("summary", F.text_page(summary_lines(first), _stamp(first), f"Balance details: {results.label}"),
                  summary_html(first), _stamp(first).text())
        else:
            hashes = ", ".join(sorted({m.config_hash for m in all_metrics.values()}))[:60]
            st = F.Stamp(results.experiment, None, f"{sum(m.games for m in all_metrics.values()):,} games in "
                         f"{len(variants)} variants", hashes + ("..." if len(hashes) >= 60 else ""),
                         f"{int(round(level * 100))}% intervals: Wilson (rates), t (means)")
            vv = variants_verdict(all_metrics, detailed)
            w.add("verdict", F.verdict_page(*vv, st, f"Verdicts: {results.experiment}"), H.verdict_section(*vv),
                  st.text())
            w.add("summary", F.text_page(overview_lines(results, all_metrics, detailed), st,
                                         f"Balance summary: {results.experiment}"),
                  overview_html(results, all_metrics, detailed), st.text())
            sweep_pages(w, results, by, level, st)
        if detailed:
            for v, m in all_metrics.items():
                suffix = "" if len(variants) == 1 else f"__{v}"
                if len(variants) > 1:
                    add_verdict_page(w, m, f"verdict{suffix}", f"Verdict: {results.experiment} : {v}")
                    w.add(f"summary{suffix}", F.text_page(summary_lines(m), _stamp(m),
                                                          f"Balance summary: {results.experiment} : {v}"),
                          summary_html(m), _stamp(m).text())
                variant_figures(w, m, suffix, results)
        ladder.add_pages(w, results)      # the skill ladder's section, when `sim ladder` kept one (docs/tuning.md)
        if strong_play:                   # the table `python -m analyses.strong_play` kept (docs/analyses.md)
            from reports import strong_play as strong
            strong.add_pages(w, results)
    finally:
        files = w.close()
    return files


def sweep_pages(w: _Writer, results: Results, by: str, level: float, st):
    """One page per metric against the swept parameter (or the variant): its level and, from
    the same games, each point's paired difference from the default point."""
    table = sweep_table(results, by, level)
    reference, is_default = reference_point(results)
    diffs = paired_sweep_table(results, by, reference, level)
    params = list(results.sweep) or ["variant"]
    ref = F.SweepReference(sweep_point(reference).get(params[0]) if results.sweep else reference, reference,
                           "default" if is_default else "reference")
    for metric in ("win rate", "first player win rate", "score"):
        w.add(f"sweep_{metric.replace(' ', '_')}", F.sweep_metric(table, diffs, metric, params[0], st, params[1:], ref))
    w.add("sweep_game", F.sweep_game(table, diffs, params[0], st, params[1:], ref))


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
        w.add("summary", F.text_page(body, st, "Variant comparison", size=7.5 if len(body) > 45 else 8.5),
              H.preformatted(body), st.text())
        d = fmt.number(c.family.delta, 1, 100)
        sim = F.Stamp(st.experiment, None, games, st.config_hash,
                      f"simultaneous {int(round(c.level * 100))}% intervals over the {c.wins.height} groups (one family)")
        w.add(f"win_rate_difference_by_{c.by}",
              F.forest(c.wins.with_columns(lo=pl.col("v_lo"), hi=pl.col("v_hi")), c.by, sim,
                       f"Win rate change by {c.by} (B - A); coloured: changed by more than {d} pp (dotted)",
                       "percentage points", 100.0, band=c.family.delta))
        w.add(f"win_rate_by_{c.by}", F.rates_side_by_side(c.wins, c.by, st, c.a.label, c.b.label))
        w.add(f"score_difference_by_{c.by}", F.forest(c.scores, c.by, st, f"Score change by {c.by} (B - A)",
                                                      "points"))
        if sequential is not None and sequential.history:
            w.add("sequential_test", F.sprt_paths(sequential.history, sequential.bounds, st, c.by))
    finally:
        files = w.close()
    return files
