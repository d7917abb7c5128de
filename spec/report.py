"""What a run shows: the table per level, the failing claims, and the same as JSON."""

from __future__ import annotations

import json
import os
import platform
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import spec
from spec.ledger import load_claims
from spec.levels import ALL_LEVEL_NAMES

OUTCOMES = ("passed", "failed", "not started", "not run")


def _skip_reason(rep) -> str:
    reason = rep.longrepr[2] if isinstance(rep.longrepr, tuple) else str(rep.longrepr)
    return reason.removeprefix("Skipped: ")


def _classify(rep) -> str | None:
    """passed / failed / not started / not run for the phase that decides a test, else None."""
    if rep.failed:
        return "failed"
    if rep.skipped:
        return "not started" if _skip_reason(rep).startswith("not started") else "not run"
    if rep.passed and rep.when == "call":
        return "passed"
    return None


@dataclass
class Results:
    """Outcomes of spec tests, by level and by claim (a test counts once, by its deciding phase)."""

    by_test: dict[str, tuple[str | None, tuple[str, ...], str]] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)
    reasons: dict[str, dict[str, None]] = field(default_factory=dict)  # level -> distinct skip reasons

    def record(self, rep, level: str | None, claims: tuple[str, ...]) -> None:
        outcome = _classify(rep)
        if outcome is None or (level is None and not claims):
            return
        previous = self.by_test.get(rep.nodeid)
        if previous and previous[2] == "failed":
            return  # a teardown pass never hides a failure
        self.by_test[rep.nodeid] = (level, claims, outcome)
        if outcome in ("not started", "not run") and level:
            self.reasons.setdefault(level, {})[_skip_reason(rep)] = None
        if outcome == "failed":
            self.failures[rep.nodeid] = rep.longreprtext.strip().splitlines()[-1][:300] if rep.longreprtext else ""

    def failed_claims(self) -> set[str]:
        return {claim for _, claims, outcome in self.by_test.values() if outcome == "failed" for claim in claims}

    def any_level_results(self) -> bool:
        return any(level for level, _, _ in self.by_test.values())

    def per_level(self) -> dict[str, dict[str, int]]:
        table: dict[str, dict[str, int]] = {}
        for level, _, outcome in self.by_test.values():
            if level:
                table.setdefault(level, dict.fromkeys(OUTCOMES, 0))[outcome] += 1
        order = {name: i for i, name in enumerate(ALL_LEVEL_NAMES)}
        return dict(sorted(table.items(), key=lambda kv: order.get(kv[0], len(order))))

    def per_claim(self) -> dict[str, dict[str, list[str]]]:
        claims: dict[str, dict[str, list[str]]] = defaultdict(lambda: {o: [] for o in OUTCOMES})
        for nodeid, (_, ids, outcome) in self.by_test.items():
            for claim in ids:
                claims[claim][outcome].append(nodeid)
        return dict(claims)


def level_status(counts: dict[str, int]) -> str:
    if counts["failed"]:
        return "FAILED"
    if counts["not started"]:  # what passed there needed no implementation
        return "not started"
    if counts["passed"] and not counts["not run"]:
        return "green"
    return "partly run" if counts["passed"] else "not run"


def run_info(impl_value: str, module) -> dict:
    return {
        "suite": "bpe-kata",
        "suite_version": spec.__version__,
        "implementation": impl_value,
        "module": getattr(module, "__name__", "?"),
        "module_file": getattr(module, "__file__", None),
        "python": platform.python_version(),
    }


def render_table(results: Results, info: dict) -> list[str]:
    """The lines printed after pytest's own output."""
    lines = ["", f"bpe-kata {info['suite_version']}: implementation {info['implementation']}"
                 f" ({info['module_file'] or info['module']})"]
    header = f"{'level':<11}{'passed':>8}{'failed':>8}{'not started':>13}{'not run':>9}   status"
    lines += [header, "-" * len(header)]
    for level, counts in results.per_level().items():
        lines.append(f"{level:<11}{counts['passed']:>8}{counts['failed']:>8}{counts['not started']:>13}"
                     f"{counts['not run']:>9}   {level_status(counts)}")
    ledger = load_claims()
    failing = {cid: r for cid, r in results.per_claim().items() if r["failed"]}
    if failing:
        lines += ["", f"failing claims ({len(failing)}):"]
        for cid, r in failing.items():
            claim = ledger.get(cid)
            statement = claim.statement if claim else "(not in the ledger)"
            sources = "; ".join(claim.sources) if claim and claim.sources else "project addition"
            lines.append(f"  {cid}: {statement}")
            lines.append(f"      source: {sources}")
            lines.append(f"      failing tests: {', '.join(n.split('::', 1)[-1] for n in r['failed'][:4])}"
                         + (f" and {len(r['failed']) - 4} more" if len(r["failed"]) > 4 else ""))
    if results.reasons:
        lines += ["", "why tests did not run:"]
        order = {name: i for i, name in enumerate(ALL_LEVEL_NAMES)}
        for level, reasons in sorted(results.reasons.items(), key=lambda kv: order.get(kv[0], len(order))):
            for reason in reasons:
                lines.append(f"  {level}: {reason}")
    return lines


def as_json(results: Results, info: dict) -> dict:
    ledger = load_claims()
    levels = {level: {**counts, "status": level_status(counts)} for level, counts in results.per_level().items()}
    claims = {}
    for cid, r in results.per_claim().items():
        status = "failed" if r["failed"] else "passed" if r["passed"] else "not started" if r["not started"] else "not run"
        claim = ledger.get(cid)
        claims[cid] = {"status": status, "level": claim.level if claim else None,
                       "statement": claim.statement if claim else None,
                       "sources": list(claim.sources) if claim else [],
                       "tests": {k: v for k, v in r.items() if v}}
    reasons = {level: list(r) for level, r in results.reasons.items()}
    return {**info, "levels": levels, "claims": claims, "failures": results.failures, "skip_reasons": reasons}


def write_json(path: Path, results: Results, info: dict) -> None:
    """Write atomically: a report is either complete or absent."""
    path = path.expanduser().resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp", encoding="utf-8") as tmp:
        json.dump(as_json(results, info), tmp, indent=2, sort_keys=False)
        tmp.write("\n")
    os.replace(tmp.name, path)
