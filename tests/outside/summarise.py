"""Print what a --bpe-report says about an outside implementation, in the shape docs/OUTSIDE.md uses.

    python tests/outside/summarise.py REPORT.json

Level statuses, root causes (place and likely claim), every claim reported broken (with how,
its tie-rule dependence and the first failure's first lines) and the likely-mistake lines: the
material each failed claim is classified from by hand. Reads only the report's documented keys.
"""

from __future__ import annotations

import json
import sys


def main(path: str) -> None:
    report = json.load(open(path, encoding="utf-8"))
    print("levels:", ", ".join(f"{name} {row['status']}" for name, row in report["levels"].items()))
    for cause in report.get("root_causes", []):
        print(f"root cause: {cause['exception'][:120]} | {cause['where']} | {cause['count']} tests"
              f" | likely {cause.get('likely_claim')}")
    for claim, row in report["claims"].items():
        if row["status"] not in ("failed",):
            continue
        first = (row.get("first_failure") or "").strip().splitlines()[:3]
        tie = f" [tie: {row['depends_on_tie_rule']}]" if row.get("depends_on_tie_rule") else ""
        print(f"FAILED {claim} ({row['level']}, by {row.get('broken_by')}){tie}: "
              f"{len(row['tests'].get('failed', []))} tests; {' / '.join(first)[:300]}")
        for test in row["tests"].get("failed", [])[:6]:
            print(f"    {test}")
    others = {}
    for claim, row in report["claims"].items():
        others.setdefault(row["status"], []).append(claim)
    for status, claims in sorted(others.items()):
        if status not in ("failed", "passed", "not started"):
            print(f"{status} ({len(claims)}): {', '.join(claims)}")
    for line in report.get("likely_mistakes", []):
        print("likely mistake:", line)


if __name__ == "__main__":
    main(sys.argv[1])
