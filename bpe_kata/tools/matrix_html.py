"""The conformance matrix as one standalone HTML page: no network, every value escaped.

One row per library and version, one column per level; each cell opens to the level's claims,
and each failed claim shows its class and the report's ``first_failure`` (expected against actual).
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from bpe_kata.tools.matrix import Row, levels_seen

STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem;color:#222}
table{border-collapse:collapse}
td,th{padding:.3rem .6rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
.ok{color:#116b2e;font-weight:600}.bad{color:#b3261e;font-weight:600}.todo{color:#7a6400}.none{color:#999}
summary{cursor:pointer}details ul{margin:.3rem 0;padding-left:1.1rem;max-width:30rem}
li.failed code{color:#b3261e}li.passed code{color:#116b2e}
.kind{font-size:.8rem;background:#eee;padding:0 .3rem;border-radius:.3rem}
pre{background:#fff;border:1px solid #ddd;padding:.4rem;white-space:pre-wrap;font-size:.8rem;
max-width:30rem;max-height:14rem;overflow:auto}
.source{color:#555;font-size:.9rem}
"""

#: ``#open=LIBRARY`` (or ``#open=all``) opens that row's cells, for a link that shows one library's claims.
SCRIPT = """
var asked = decodeURIComponent(location.hash.replace(/^#open=/, ''));
if (asked && asked !== location.hash) {
  document.querySelectorAll('#matrix tbody tr').forEach(function (row) {
    if (asked === 'all' || row.getAttribute('data-library') === asked) {
      row.querySelectorAll('details').forEach(function (d) { d.open = true; });
    }
  });
}
"""


def _status_class(text: str) -> str:
    if text == "green":
        return "ok"
    if text == "—":
        return "none"
    return "bad" if text.startswith(("failed", "timed", "crashed")) else "todo"


def _cell(row: Row, level: str) -> str:
    text = row.outcome.cell(level) if row.outcome else "—"
    claims = {cid: c for cid, c in (row.outcome.report.get("claims", {}) if row.outcome else {}).items()
              if c.get("level") == level}
    if not claims:
        return f'<td class="{_status_class(text)}">{escape(text)}</td>'
    items = []
    for cid, claim in sorted(claims.items()):
        status = claim.get("status", "?")
        line = f'<li class="{escape(status)}"><code>{escape(cid)}</code> {escape(status)}'
        difference = row.differences.get(cid)
        if difference:
            line += f' <span class="kind">{escape(difference["class"])}</span>'
            if difference.get("note"):
                line += f'<br><span class="source">{escape(difference["note"])}</span>'
            if difference.get("first_failure"):
                line += f'<pre>{escape(difference["first_failure"])}</pre>'
        items.append(line + "</li>")
    return (f'<td data-level="{escape(level)}"><details><summary class="{_status_class(text)}">{escape(text)}</summary>'
            f'<ul>{"".join(items)}</ul></details></td>')


def render(rows: list[Row], measured: str, link: Callable[[Row], str] | None = None) -> str:
    """The page; with ``link`` (a row's page, as bpe_kata/tools/matrix_site.py writes), each library links
    to it and the page links the site's other pages."""
    levels = levels_seen(rows)
    head = "".join(f"<th>{escape(h)}</th>" for h in ["library", "tie rule", *levels])
    body = []
    for row in rows:
        ended = "" if row.outcome is None or row.outcome.ended == "finished" else f" ({row.outcome.ended})"
        name = escape(row.name + ended)
        if link is not None:
            name = f'<a href="{escape(link(row))}">{name}</a>'
        body.append(f'<tr data-library="{escape(row.library)}"><th>{name}</th>'
                    f'<td>{escape(str(row.ties.get("verdict", "?")))}</td>'
                    + "".join(_cell(row, level) for level in levels) + "</tr>")
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>bpe-kata: conformance matrix</title>'
        f"<style>{STYLE}</style></head><body>"
        + ('<nav><a href="differences.html">differences</a> <a href="history.html">history</a> '
           '<a href="matrix.json">data (JSON)</a></nav>' if link is not None else "")
        + "<h1>bpe-kata: conformance matrix</h1>"
        f'<p class="source">measured {escape(measured)}; each library through its adapter in bpe_kata/adapters, '
        "run by <code>bpe-kata gate</code>. Open a cell for its claims; <code>#open=all</code> opens every cell.</p>"
        f'<table id="matrix"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
        f"<script>{SCRIPT}</script></body></html>\n"
    )
