"""The report's "does it hold under stronger play?" section (issue 16, part 3).

``add_pages(writer, results)`` is called by ``reports.report.experiment_report`` when the report
is asked for it (``python -m sim report EXP --strong-play``): it draws the table that
``python -m analyses.strong_play`` kept in the results folder, as a text page in the PDF and a
real table in the HTML file. Without a kept table it is a one-line error naming the command.
"""
from __future__ import annotations

from analyses import strong_play as sp
from reports import figures as F
from sim.core.errors import InputError

PER_PAGE = 40


def add_pages(writer, results) -> None:
    """The strong-play table kept in ``results.root``; an InputError when there is none."""
    from reports.html import paragraphs, table as html_table

    table = sp.read(results.root)
    if table is None:
        raise InputError(results.root, sp.TABLE_FILE, "no strong-play table: run python -m analyses.strong_play "
                         f"EXPERIMENT.toml (with --out {results.root.parent}) first")
    games = ", ".join(f"{lv} {n:,}" for lv, n in
                      table.select("level", "games").unique(maintain_order=True).iter_rows())
    stamp = F.Stamp(results.experiment, None, f"games per level: {games}", "-",
                    "simultaneous 95% intervals per level (Bonferroni), Wilson/Newcombe standard errors")
    lines = sp.table_lines(table)
    head, body, tail = lines[:2], lines[2:-2], lines[-2:]
    pages = [body[:1] + body[1 + i:1 + i + PER_PAGE] for i in range(0, max(len(body) - 1, 1), PER_PAGE)]
    title = f"Does it hold under stronger play? {results.experiment}"
    header, rows = sp.table_rows(table)
    html = paragraphs(head[:1]) + html_table(header, rows, [r[-1] == sp.FAILS for r in rows]) + paragraphs(tail)
    for k, page in enumerate(pages):
        writer.add("strong_play" + (f"_{k + 1}" if k else ""),
                   F.text_page(head + page + tail, stamp, title + (f" ({k + 1})" if k else ""), size=7),
                   html, stamp.text(), in_html=k == 0)
