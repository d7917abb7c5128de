"""``bpe-kata summary REPORT``: a gate's JSON report as a CI job summary and a badge.

The GitHub Action (action.yml) appends the Markdown to ``$GITHUB_STEP_SUMMARY`` (a table of the
levels, then the broken claims) and writes the badge as shields.io's endpoint JSON
(https://shields.io/badges/endpoint-badge), so a repository can show its bpe-kata status without
a service of ours. Both are drawn from the report alone: what the summary says is what the
artifacts say.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bpe_kata.verdict.outcomes import LevelStatus

#: The level table's columns: the report's count names.
COUNTS = ("passed", "failed", "not started", "not run")
#: At most this many broken claims are listed; the rest are counted (a summary has a size limit).
MAX_CLAIMS = 50


def _cell(text: object) -> str:
    """Text safe in one Markdown table cell: no line breaks, no column separators."""
    return " ".join(str(text).split()).replace("|", "\\|")


def broken_claims(report: dict) -> list[tuple[str, dict]]:
    return [(cid, claim) for cid, claim in report.get("claims", {}).items() if claim.get("status") == "failed"]


def markdown(report: dict) -> str:
    """The job summary: who was gated, the verdict, the level table and the broken claims."""
    levels = report.get("levels", {})
    verdict = "passed" if report.get("exit_status") == 0 else "FAILED"
    lines = [f"## bpe-kata: {verdict}", "",
             f"Implementation `{report.get('implementation', '?')}`, bpe-kata {report.get('suite_version', '?')}, "
             f"Python {report.get('python', '?')}."]
    if not report.get("complete", False):
        lines += ["", f"**Incomplete run**: {report.get('finished', 0)} of {report.get('selected', 0)} selected tests "
                      "were seen to finish."]
    if report.get("note"):
        lines += ["", f"**{_cell(report['note'])}**"]
    lines += ["", "| level | " + " | ".join(COUNTS) + " | status |", "|---|" + "---:|" * len(COUNTS) + "---|"]
    for name, counts in levels.items():
        status = counts.get("status", "?")
        mark = {LevelStatus.GREEN: "✅ ", LevelStatus.FAILED: "❌ "}.get(status, "")
        lines.append(f"| {_cell(name)} | " + " | ".join(str(counts.get(c, 0)) for c in COUNTS) + f" | {mark}{status} |")
    expectations = report.get("expectations") or {}
    if expectations:
        lines += ["", f"Expectations: {len(expectations.get('unexpected_failures', {}))} unexpected failures, "
                      f"{len(expectations.get('expected_failures', {}))} expected, "
                      f"{len(expectations.get('unexpected_passes', []))} unexpected passes."]
    broken = broken_claims(report)
    lines += ["", f"### Broken claims ({len(broken)})", ""]
    if not broken:
        lines.append("None.")
    else:
        lines += ["| claim | level | failed tests | first failure |", "|---|---|---:|---|"]
        for cid, claim in broken[:MAX_CLAIMS]:
            first = (claim.get("first_failure") or "").splitlines()[:1]
            failed = len(claim.get("tests", {}).get("failed", []))
            lines.append(f"| `{cid}` | {_cell(claim.get('level') or '—')} | {failed}"
                         f" | {_cell(first[0][:160]) if first else '—'} |")
        if len(broken) > MAX_CLAIMS:
            lines.append(f"\n… and {len(broken) - MAX_CLAIMS} more (the JSON report lists them all).")
    mistakes = report.get("likely_mistakes", [])
    if mistakes:
        lines += ["", "### Likely mistakes", "", *(f"- {_cell(m)}" for m in mistakes)]
    return "\n".join(lines) + "\n"


def badge(report: dict, label: str = "bpe-kata") -> dict:
    """shields.io's endpoint JSON: green levels of all, coloured by the gate's verdict."""
    statuses = [counts.get("status") for counts in report.get("levels", {}).values()]
    green = statuses.count(LevelStatus.GREEN)
    passed = report.get("exit_status") == 0 and report.get("complete", False)
    if not statuses:  # never grey for a gate that failed: the badge says what the exit status says
        message, colour = "no report", "lightgrey" if report.get("exit_status") == 0 else "red"
    else:
        message = f"{green}/{len(statuses)} levels green"
        colour = ("brightgreen" if green == len(statuses) else "yellowgreen") if passed else "red"
    return {"schemaVersion": 1, "label": label, "message": message, "color": colour}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bpe-kata summary", description=(
        "Turn a JSON report (--bpe-report) into a Markdown job summary and a shields.io endpoint badge."))
    parser.add_argument("report", type=Path)
    parser.add_argument("--markdown", metavar="FILE", help="append the Markdown summary to FILE ('-': print it)")
    parser.add_argument("--badge", type=Path, metavar="FILE", help="write the badge's endpoint JSON to FILE")
    parser.add_argument("--label", default="bpe-kata", help="the badge's label (default bpe-kata)")
    options = parser.parse_args(argv)
    try:
        report = json.loads(options.report.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        print(f"bpe-kata summary: cannot read the report {options.report}: {error}", file=sys.stderr)
        return 2
    if not isinstance(report, dict):
        print(f"bpe-kata summary: {options.report} is not a bpe-kata JSON report", file=sys.stderr)
        return 2
    if options.markdown in (None, "-"):
        if options.markdown == "-" or options.badge is None:
            sys.stdout.write(markdown(report))
    else:
        with open(options.markdown, "a", encoding="utf-8") as out:
            out.write(markdown(report))
    if options.badge:
        options.badge.parent.mkdir(parents=True, exist_ok=True)
        options.badge.write_text(json.dumps(badge(report, options.label)) + "\n", encoding="utf-8")
    return 0
