"""One self-contained HTML file per report: the verdict first, figures embedded, tables as tables.

Why: a designer opens a report in a browser, searches it, copies a table into a spreadsheet and
forwards one file; a PDF of pictures of monospace text allows none of that. The file needs
nothing beside itself (figures are base64 PNGs, the style is inline, no script), so it survives
mail and chat. The PDF and the PNGs stay; this is the same report, section for section.
"""
from __future__ import annotations

import base64
import html
import re
from pathlib import Path

NUMBER = re.compile(r"^[+\-−]?[\d,]*\.?\d+(e[+-]?\d+)?\s*(%|pp)?$")     # right-aligned cells
LIGHT_COLOURS = {"red": "#c0392b", "amber": "#e6a100", "green": "#2e8b57"}

STYLE = """
body{font-family:system-ui,sans-serif;max-width:1250px;margin:1.5em auto;padding:0 1em;color:#222}
h1{font-size:1.5em} h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
.headline{font-size:1.15em;font-weight:bold}
ul.lights{list-style:none;padding-left:0} ul.lights li{margin:.3em 0}
.dot{display:inline-block;width:.8em;height:.8em;border-radius:50%;margin-right:.5em;vertical-align:middle}
.notes p{font-size:.9em;color:#333;margin:.3em 0}
table{border-collapse:collapse;margin:.8em 0;font-size:.9em}
th,td{border:1px solid #ccc;padding:.2em .55em} th{background:#f0f3f6;text-align:left} td.n{text-align:right}
tr.flag td{background:#fbe9e7}
figure{margin:1em 0} figure img{max-width:100%;border:1px solid #eee}
.stamp{font-size:.8em;color:#555}
pre{font-size:.8em;background:#fafafa;padding:.6em;overflow-x:auto}
nav{font-size:.85em;columns:3} nav a{display:block}
"""


def esc(text) -> str:
    return html.escape(str(text))


def verdict_section(headline: str, items: list, notes: list) -> str:
    """The verdict page: headline, one traffic-light line per verdict ``(light, text)``, notes."""
    lights = "".join(f'<li data-light="{light}"><span class="dot" style="background:{LIGHT_COLOURS[light]}">'
                     f"</span>{esc(text)}</li>" for light, text in items)
    return (f'<p class="headline">{esc(headline)}</p><ul class="lights">{lights}</ul>'
            f'<div class="notes">{"".join(f"<p>{esc(n)}</p>" for n in notes)}</div>')


def table(header: list, rows: list, flagged: list | None = None) -> str:
    """An HTML table; cells that look like numbers are right-aligned; ``flagged`` rows shaded."""
    def cell(x):
        text = str(x)
        return f'<td class="n">{esc(text)}</td>' if NUMBER.match(text.strip()) else f"<td>{esc(text)}</td>"
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join(f'<tr{" class=flag" if flagged and flagged[i] else ""}>{"".join(cell(x) for x in r)}</tr>'
                   for i, r in enumerate(rows))
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def paragraphs(lines: list) -> str:
    return "".join(f"<p>{esc(x)}</p>" for x in lines if x.strip())


def preformatted(lines: list) -> str:
    return f"<pre>{esc(chr(10).join(lines))}</pre>"


def figure(png: Path, title: str) -> str:
    data = base64.b64encode(Path(png).read_bytes()).decode("ascii")
    return f'<figure><img src="data:image/png;base64,{data}" alt="{esc(title)}"></figure>'


class HtmlReport:
    """Sections in reading order, written as one file by ``write``."""

    def __init__(self, title: str):
        self.title = title
        self.sections: list = []          # (anchor, title, body html, footer)

    def add(self, anchor: str, title: str, body: str, stamp: str = ""):
        self.sections.append((anchor, title, body, stamp))

    def render(self) -> str:
        nav = "".join(f'<a href="#{esc(a)}">{esc(t)}</a>' for a, t, _, _ in self.sections[1:])
        parts = []
        for k, (anchor, title, body, stamp) in enumerate(self.sections):
            parts.append(f'<section id="{esc(anchor)}"><h2>{esc(title)}</h2>{body}'
                         + (f'<p class="stamp">{esc(stamp)}</p>' if stamp else "") + "</section>")
            if k == 0 and nav:
                parts.append(f"<h2>Contents</h2><nav>{nav}</nav>")
        return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{esc(self.title)}</title>'
                f"<style>{STYLE}</style></head><body><h1>{esc(self.title)}</h1>{''.join(parts)}</body></html>\n")

    def write(self, path: Path) -> Path:
        Path(path).write_text(self.render(), encoding="utf-8")
        return Path(path)
