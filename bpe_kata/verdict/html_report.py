"""A run's report as one standalone HTML page: no network, no external assets, filterable by level.

It is drawn from the same dict as ``--bpe-report`` JSON (bpe_kata/verdict/report.py's ``as_json``), so the
page and the JSON never disagree. Every value is escaped: claim texts and failures carry the
implementation's output, which may hold anything.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from bpe_kata.verdict import atomic_file
from bpe_kata.verdict.outcomes import TO_DO, LevelStatus

STATUS_CLASS = {LevelStatus.GREEN: "ok", LevelStatus.FAILED: "bad", **dict.fromkeys(TO_DO, "todo")}

STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:60rem;color:#222;padding:0 1rem}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse}td,th{padding:.25rem .7rem;border-bottom:1px solid #ddd;text-align:right}
td:first-child,th:first-child,td.status{text-align:left}
.ok{color:#116b2e;font-weight:600}.bad{color:#b3261e;font-weight:600}.todo{color:#7a6400}
.claim{border-left:4px solid #b3261e;padding:.4rem .9rem;margin:.8rem 0;background:#fbf3f2}
.claim.stopped{border-color:#c9a400;background:#fdf9e8}
.claim.resting{border-color:#888;background:#f4f4f4}
.claim h3{font-size:1rem;margin:.2rem 0;font-family:ui-monospace,monospace}
.source{color:#555;font-size:.9rem}.level-tag{font-size:.8rem;background:#eee;padding:0 .4rem;border-radius:.3rem}
pre{background:#fff;border:1px solid #ddd;padding:.5rem;overflow-x:auto;font-size:.85rem;white-space:pre-wrap}
.mistakes{background:#eef4fb;border-left:4px solid #2a62a8;padding:.5rem 1rem}
label{font-weight:600}
"""

SCRIPT = """
var filter = document.getElementById('level-filter');
function show(level) {
  document.querySelectorAll('[data-level]').forEach(function (el) {
    el.hidden = level !== 'all' && el.getAttribute('data-level') !== level;
  });
}
filter.addEventListener('change', function () {
  show(this.value);
  history.replaceState(null, '', '#level=' + this.value);
});
var asked = decodeURIComponent(location.hash.replace(/^#level=/, ''));
if (asked && filter.querySelector('option[value="' + asked + '"]')) { filter.value = asked; show(asked); }
"""


def _level_table(levels: dict) -> str:
    rows = []
    for level, counts in levels.items():
        status = counts["status"]
        rows.append(
            f'<tr data-level="{escape(level)}"><td>{escape(level)}</td><td>{counts["passed"]}</td>'
            f"<td>{counts['failed']}</td><td>{counts['not started']}</td><td>{counts['not run']}</td>"
            f'<td class="status {STATUS_CLASS.get(status, "")}">{escape(status)}{_resting_note(counts)}</td></tr>'
        )
    return ("<table id=\"levels\"><thead><tr><th>level</th><th>passed</th><th>failed</th><th>not started</th>"
            "<th>not run</th><th>status</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


def _resting_note(counts: dict) -> str:
    """How many of a level's failures are on claims "not judged" (they rest on a claim broken in the run)."""
    resting = counts.get("not judged") or 0
    return f" ({resting} of them not judged)" if resting else ""


def _claim_section(cid: str, claim: dict, stopped: bool = False, resting: bool = False) -> str:
    level = claim.get("level") or "?"
    sources = "; ".join(claim.get("sources") or []) or "project addition"
    failing = claim.get("tests", {}).get("failed", []) or claim.get("tests", {}).get("could not run", [])
    kind = " stopped" if stopped else " resting" if resting else ""
    parts = [f'<section class="claim{kind}" data-level="{escape(level)}">',
             f'<h3>{escape(cid)} <span class="level-tag">{escape(level)}</span></h3>',
             f'<p>{escape(claim.get("statement") or "(not in the ledger)")}</p>',
             f'<p class="source">source: {escape(sources)}</p>']
    if resting:
        reason = claim.get("not_judged_reason") or \
            f'not judged: rests on {", ".join(claim.get("rests_on_broken") or [])}, which is broken'
        parts.append(f"<p><strong>{escape(reason)}</strong></p>")
    if claim.get("tie_rule_excuse"):
        parts.append(f'<p class="source">holds only under the {escape(claim["tie_rule_excuse"])} tie rule: a trainer '
                     f'whose default breaks ties another documented way may fail it</p>')
    if failing:
        names = ", ".join(n.split("::", 1)[-1] for n in failing[:4])
        more = f" and {len(failing) - 4} more" if len(failing) > 4 else ""
        parts.append(f'<p class="source">{"failing" if not stopped else "stopped"} tests: {escape(names)}{more}</p>')
    if claim.get("first_failure"):
        parts.append(f'<p>first failure, expected against actual:</p><pre>{escape(claim["first_failure"])}</pre>')
    parts.append("</section>")
    return "".join(parts)


def render(report: dict) -> str:
    """The page for one run's JSON report."""
    levels, claims = report.get("levels", {}), report.get("claims", {})
    rank = {level: i for i, level in enumerate(levels)}
    failed = sorted(((cid, c) for cid, c in claims.items() if c.get("status") == "failed"),
                    key=lambda kv: rank.get(kv[1].get("level"), len(rank)))
    stopped = [(cid, c) for cid, c in claims.items() if c.get("status") == "could not run"]
    resting = sorted(((cid, c) for cid, c in claims.items() if c.get("status") == "not judged"),
                     key=lambda kv: rank.get(kv[1].get("level"), len(rank)))
    title = f"bpe-kata report: {report.get('implementation', '?')}"
    options = "".join(f'<option value="{escape(level)}">{escape(level)}</option>' for level in levels)
    body = [
        f"<h1>{escape(title)}</h1>",
        f'<p class="source">suite {escape(str(report.get("suite_version", "?")))}, Python '
        f"{escape(str(report.get('python', '?')))}, "
        f"module {escape(str(report.get('module_file') or report.get('module')))}</p>",
    ]
    if report.get("likely_mistakes"):
        items = "".join(f"<li>{escape(m)}</li>" for m in report["likely_mistakes"])
        body.append(f'<div class="mistakes" id="mistakes"><strong>Likely mistakes</strong><ul>{items}</ul></div>')
    body.append(f'<p><label for="level-filter">Show level </label><select id="level-filter">'
                f'<option value="all">all levels</option>{options}</select></p>')
    body.append(_level_table(levels))
    causes = report.get("root_causes") or []
    if causes:
        body.append(f"<h2>Root causes ({len(causes)})</h2><ol>")
        for cause in causes:
            body.append(
                f'<li data-level="{escape((cause.get("levels") or ["?"])[0])}">'
                f'<code>{escape(cause["exception"])}</code>'
                f" raised in <code>{escape(str(cause['where']))}</code>; {cause['count']} test(s); most likely "
                f"breaks <code>{escape(str(cause.get('likely_claim')))}</code></li>"
            )
        body.append("</ol>")
    body.append(f'<h2>Claims broken ({len(failed)})</h2>')
    body += [_claim_section(cid, c) for cid, c in failed] or ["<p>None: every claim that ran held.</p>"]
    if resting:
        body.append(f"<h2>Claims not judged ({len(resting)}): they rest on a claim broken in this run</h2>")
        body += [_claim_section(cid, c, resting=True) for cid, c in resting]
    if stopped:
        body.append(f"<h2>Claims whose tests could not run ({len(stopped)})</h2>")
        body += [_claim_section(cid, c, stopped=True) for cid, c in stopped]
    return ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
            + "\n".join(body) + f"<script>{SCRIPT}</script></body></html>\n")


def write(path: Path, report: dict) -> Path:
    """Write atomically, like the JSON report: a page is complete or absent."""
    return atomic_file.write_text(path, render(report))
