"""The HTML report: one self-contained file, the verdict first, tables as tables, every figure
embedded; loaded in a real headless browser (Chromium), which must show every figure and report
no error.

Chromium comes from the system (Debian: ``apt-get install -y chromium``; ``.ci/run`` installs it).
The browser is driven by its own ``--headless --dump-dom``: a copy of the report gets a small
script that records every error event (a broken image, a script error) and, once the page has
loaded, writes the count of decoded images and the errors into the DOM that Chromium prints.
"""
import json
import re
import shutil
import subprocess

from analyses.load import open_results
from analyses.synthetic import write_results
from reports.report import experiment_report
from tests.test_reports import RICH

PROBE = """<script>
window.__errors = [];
window.addEventListener('error', e => window.__errors.push(String(e.message || (e.target && e.target.src) || e)), true);
window.addEventListener('load', () => {
  const imgs = [...document.images];
  document.body.setAttribute('data-probe', JSON.stringify({
    images: imgs.length,
    decoded: imgs.filter(i => i.complete && i.naturalWidth > 100 && i.naturalHeight > 100).length,
    errors: window.__errors,
    first: document.querySelector('section') && document.querySelector('section').id}));
});
</script>"""


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise AssertionError("no headless Chromium on PATH: install it (Debian: apt-get install -y chromium; "
                         ".ci/run does this)")


def load_in_browser(html_path, tmp_path) -> dict:
    """What the browser saw: images, decoded images, errors, the first section's id."""
    probe = tmp_path / "probe.html"
    probe.write_text(html_path.read_text().replace("<head>", "<head>" + PROBE, 1))
    out = subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                          f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=10000", "--dump-dom",
                          probe.as_uri()], capture_output=True, text=True, timeout=120)
    found = re.search(r'data-probe="([^"]*)"', out.stdout)
    assert found, f"the page never finished loading in Chromium: {out.stderr[-500:]}"
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def test_html_report_opens_in_a_browser_with_every_figure_and_no_error(tmp_path):
    res = open_results(write_results(tmp_path / "res", "demo", {"base": RICH}, games=1500))
    files = experiment_report(res, tmp_path / "out", with_ratings=False)
    text = files.html.read_text()
    figures = [p for p in files.pngs if p.stem not in ("verdict", "summary")]
    assert text.count("<img ") == len(figures) >= 8
    assert "http://" not in text and "https://" not in text and 'src="data:image/png;base64,' in text
    assert text.index('id="verdict"') < text.index('id="summary"') < text.index('id="win_rate_by_faction"')
    assert text.count("<table>") >= 3 and "<th>win/seat</th>" in text and "<td>Mars</td>" in text
    assert "Out of balance by more than 2.0 pp" in text or "Balanced within" in text or "undecided" in text
    seen = load_in_browser(files.html, tmp_path)
    assert seen["errors"] == []
    assert seen["images"] == seen["decoded"] == len(figures)
    assert seen["first"] == "verdict"


def test_the_browser_check_sees_a_broken_figure(tmp_path):
    """The check can fail: a figure whose data is cut off is reported as an error."""
    page = tmp_path / "broken.html"
    page.write_text('<!DOCTYPE html><html><head></head><body><section id="verdict"></section>'
                    '<img src="data:image/png;base64,iVBORw0KGgo"></body></html>')
    seen = load_in_browser(page, tmp_path)
    assert seen["images"] == 1 and seen["decoded"] == 0 and len(seen["errors"]) == 1
