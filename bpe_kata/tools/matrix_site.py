"""``bpe-kata matrix --site DIR``: the conformance matrix as a static site, readable from a file or any web server.

No network and no external assets: every page holds its own style, every value is escaped, links are
relative. The pages:

* ``index.html``: the matrix page of bpe_kata/tools/matrix_html.py (a row per library and version, a
  cell per level opening to its claims), each library linked to its own page;
* ``library-NAME.html``: one per row: the tie rule the probe found and what each probe agreed with,
  then every claim the gate judged, by level, with its status, and for a difference its class, the
  curated note (matrix_notes.toml) and expected against actual;
* ``differences.html``: every difference of every library in one table, by class;
* ``history.html``: with earlier matrix JSON (``--history FILE...``), each library's failed claims per
  run, oldest first, and which claims changed between one run and the next;
* ``matrix.json``: the data the pages were drawn from.
"""

from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path

from bpe_kata.tools import matrix_html
from bpe_kata.tools.matrix import Row, rows_from_json
from spec.levels import ALL_LEVEL_NAMES

STYLE = matrix_html.STYLE + """
nav a{margin-right:1rem}
td.claim{font-family:ui-monospace,monospace}td span{white-space:nowrap}
.changed{background:#fff4d6}
"""


def slug(row: Row) -> str:
    return "library-" + re.sub(r"[^A-Za-z0-9.-]+", "-", row.name).strip("-").lower() + ".html"


def _page(title: str, body: str) -> str:
    nav = ('<nav><a href="index.html">matrix</a><a href="differences.html">differences</a>'
           '<a href="history.html">history</a><a href="matrix.json">data (JSON)</a></nav>')
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f"<style>{STYLE}</style></head><body>{nav}<h1>{escape(title)}</h1>{body}</body></html>\n")


def _status(text: str) -> str:
    """A level's cell or a claim's status, coloured as the matrix page colours them."""
    kind = {"passed": "ok", "failed": "bad"}.get(text) or matrix_html._status_class(text)
    return f'<span class="{kind}">{escape(text)}</span>'


def library_page(row: Row, measured: str) -> str:
    ties = row.ties or {}
    matches = ", ".join(f"{escape(rule)} {count}" for rule, count in (ties.get("matches") or {}).items())
    ended = row.outcome.ended if row.outcome else "not run"
    parts = [f'<p class="source">measured {escape(measured)}; adapter <code>{escape(row.adapter)}</code>; '
             f"the gate run {escape(ended)}"
             + (f" ({escape(row.outcome.detail)})" if row.outcome and row.outcome.detail else "")
             + (f" in {row.outcome.seconds:.0f} s" if row.outcome else "") + "</p>",
             f'<h2>Tie rule</h2><p id="tie-rule">{escape(str(ties.get("verdict", "?")))}'
             + (f' <span class="source">(probes agreeing with each rule: {matches})</span>' if matches else "")
             + "</p>"]
    claims = row.outcome.report.get("claims", {}) if row.outcome else {}
    levels = [lv for lv in ALL_LEVEL_NAMES if row.outcome and lv in row.outcome.levels]
    levels += sorted({c.get("level") or "?" for c in claims.values()} - set(levels))
    parts.append('<h2>Claims</h2><table id="claims"><thead><tr><th>level</th><th>claim</th><th>status</th>'
                 "<th>class</th><th>note and first failure</th></tr></thead><tbody>")
    for level in levels:
        cell = row.outcome.cell(level) if row.outcome and level in row.outcome.levels else "—"
        parts.append(f'<tr data-level="{escape(level)}"><th colspan="5">{escape(level)}: {_status(cell)}</th></tr>')
        for cid, claim in sorted((cid, c) for cid, c in claims.items() if (c.get("level") or "?") == level):
            difference = row.differences.get(cid) or {}
            note = escape(difference.get("note", ""))
            if difference.get("first_failure"):
                note += f"<pre>{escape(difference['first_failure'])}</pre>"
            parts.append(f'<tr data-claim="{escape(cid)}"><td></td><td class="claim">{escape(cid)}</td>'
                         f"<td>{_status(str(claim.get('status', '?')))}</td>"
                         f'<td>{escape(difference.get("class", ""))}</td><td>{note}</td></tr>')
    parts.append("</tbody></table>")
    return _page(row.name, "".join(parts))


def differences_page(rows: list[Row], measured: str) -> str:
    body = ['<table id="differences"><thead><tr><th>library</th><th>class</th><th>claim</th><th>level</th>'
            "<th>note</th></tr></thead><tbody>"]
    for row in rows:
        for cid, d in sorted(row.differences.items(), key=lambda item: (item[1].get("class", ""), item[0])):
            body.append(f'<tr data-library="{escape(row.library)}"><td><a href="{slug(row)}">{escape(row.name)}</a>'
                        f'</td><td>{escape(d.get("class", ""))}</td><td class="claim">{escape(cid)}</td>'
                        f'<td>{escape(str(d.get("level", "")))}</td><td>{escape(d.get("note", ""))}</td></tr>')
    body.append("</tbody></table>")
    intro = (f'<p class="source">measured {escape(measured)}. A <em>documented alternative</em> follows another '
             "documented tie rule; <em>not judged</em> rests on a claim the library breaks; a <em>spec question</em> "
             "is a curated note's (docs/MATRIX.md).</p>")
    return _page("bpe-kata: every difference, classified", intro + "".join(body))


def _failed(item: dict) -> set[str]:
    return {cid for cid, status in (item.get("claims") or {}).items() if status == "failed"}


def history_page(runs: list[tuple[str, dict]]) -> str:
    """``runs``: (label, matrix JSON) oldest first, the current one last."""
    if len(runs) < 2:
        return _page("bpe-kata: matrix history", "<p>No earlier runs were given (<code>--history FILE...</code>)."
                     "</p>")
    names = list(dict.fromkeys(item["name"] for _, data in runs for item in data.get("rows", [])))
    head = "".join(f"<th>{escape(label)}<br>{escape(str(data.get('measured', '')))}</th>" for label, data in runs)
    body = []
    for name in names:
        cells, before = [], None
        for _, data in runs:
            item = next((r for r in data.get("rows", []) if r["name"] == name), None)
            if item is None:
                cells.append('<td class="none">—</td>')
                before = None
                continue
            now = _failed(item)
            change = ""
            if before is not None and now != before:
                fixed, broken = sorted(before - now), sorted(now - before)
                change = ("<br>" + "".join(f'<span class="ok">+{escape(c)}</span> ' for c in fixed)
                          + "".join(f'<span class="bad">−{escape(c)}</span> ' for c in broken))
            cells.append(f'<td class="{"changed" if change else ""}">{len(now)} failed{change}</td>')
            before = now
        body.append(f'<tr data-library="{escape(name)}"><th>{escape(name)}</th>{"".join(cells)}</tr>')
    intro = ('<p class="source">Failed claims per library and run, oldest first; <span class="ok">+claim</span> '
             'passes since the run before, <span class="bad">−claim</span> fails since.</p>')
    return _page("bpe-kata: matrix history", intro + f'<table id="history"><thead><tr><th>library</th>{head}'
                 f'</tr></thead><tbody>{"".join(body)}</tbody></table>')


def write(directory: Path, data: dict, history: list[tuple[str, dict]] = ()) -> list[Path]:
    """Write the site of ``data`` (a matrix JSON) into ``directory``; ``history``: earlier (label, JSON), oldest
    first. Returns the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    rows, measured = rows_from_json(data), str(data.get("measured", "?"))
    index = matrix_html.render(rows, measured, link=slug)
    pages = {"index.html": index, "differences.html": differences_page(rows, measured),
             "history.html": history_page([*history, ("this run", data)]),
             "matrix.json": json.dumps(data, indent=1, ensure_ascii=False)}
    pages.update({slug(row): library_page(row, measured) for row in rows})
    written = []
    for name, text in pages.items():
        (directory / name).write_text(text, encoding="utf-8")
        written.append(directory / name)
    return written


def read_history(paths: list[Path]) -> list[tuple[str, dict]]:
    """Earlier matrix JSON files, oldest first by their ``measured`` date (then by the order given)."""
    runs = []
    for path in paths:
        try:
            runs.append((Path(path).name, json.loads(Path(path).read_text(encoding="utf-8"))))
        except (OSError, ValueError) as error:
            raise ValueError(f"--history {path}: not a matrix JSON file: {error}") from None
    return sorted(runs, key=lambda run: str(run[1].get("measured", "")))
