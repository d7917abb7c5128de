"""The verdict a learner reads on a platform's page: the score per level, what broke and what to do next.

Rendered from the report alone, so a file converted later (``bpe-kata results``) says what the run's own
file said. Platforms show it where a learner looks: Gradescope's top-level output, an Exercism message.
"""

from __future__ import annotations

from bpe_kata.platforms.points import LevelScore, total

#: The longest failure text quoted under one claim (the report keeps the whole of it).
FAILURE_CHARS = 600


def run_state(report: dict) -> list[str]:
    """Lines saying the run itself did not finish as it should (a hang past the wall limit, no report)."""
    lines = []
    failure = (report.get("sandbox") or {}).get("failure")
    if failure:
        lines.append(f"the run was stopped: {failure}")
    if report.get("note"):
        lines.append(str(report["note"]))
    if report.get("complete") is False and not lines:
        lines.append("the run is incomplete: not every selected test finished (levels without a result score 0)")
    return lines


def table(scores: list[LevelScore]) -> list[str]:
    width = max([len(s.level) for s in scores] + [5])
    lines = [f"{'level':<{width}}  {'status':<14} {'tests':>9}  points"]
    for s in scores:
        lines.append(f"{s.level:<{width}}  {s.status:<14} {f'{s.passed}/{s.total}':>9}  {s.points:g}/{s.max_points:g}")
    return lines


def claim_lines(report: dict, claim_ids: tuple[str, ...] | list[str]) -> list[str]:
    """Each broken claim's statement and the start of its first failure."""
    claims = report.get("claims") or {}
    lines = []
    for cid in claim_ids:
        claim = claims.get(cid) or {}
        lines.append(f"- {cid}: {claim.get('statement') or ''}".rstrip(": "))
        failure = (claim.get("first_failure") or "").strip()
        if failure:
            cut = failure[:FAILURE_CHARS] + (" …" if len(failure) > FAILURE_CHARS else "")
            lines.extend("    " + line for line in cut.splitlines())
    return lines


def verdict(report: dict, scores: list[LevelScore]) -> str:
    """The whole text: heading, state of the run, table, likely mistakes, broken claims."""
    earned, possible = total(scores)
    who = report.get("implementation") or "your code"
    lines = [f"bpe-kata {report.get('suite_version', '')}: {who}: {earned:g}/{possible:g} points".replace("  ", " "),
             *run_state(report), "", *table(scores)]
    causes = report.get("root_causes") or []
    if causes:
        lines += ["", "errors that stopped tests (each is one cause, however many tests it stopped):"]
        lines += [f"- {c.get('exception', '?')} ({c.get('count', '?')} tests, in {', '.join(c.get('levels') or [])})"
                  for c in causes[:5]]
    mistakes = report.get("likely_mistakes") or []
    if mistakes:
        lines += ["", "likely mistakes:", *(f"- {m}" for m in mistakes)]
    broken = [cid for s in scores for cid in s.failed_claims]
    if broken:
        lines += ["", "broken claims (fix the first one first):", *claim_lines(report, broken)]
    to_do = [s.message for s in scores if not s.full_marks]
    if to_do:
        lines += ["", "what to do next:", *(f"- {m}" for m in to_do)]
    return "\n".join(lines) + "\n"
